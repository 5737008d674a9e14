// SPDX-License-Identifier: Apache-2.0
// toe_axis_demux: sends each frame of one AXI-Stream to one of N outputs, or drops it.
// `sel` and `drop` are sampled with the first beat of a frame and hold for the whole
// frame; a dropped frame is consumed at full rate. Timing: combinational (no storage).
module toe_axis_demux #(
  parameter int unsigned N      = 2,   // outputs
  parameter int unsigned DATA_W = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W = 1    // tuser width
) (
  input  logic                   clk,
  input  logic                   rst,
  input  logic [DATA_W-1:0]      s_axis_tdata,
  input  logic [DATA_W/8-1:0]    s_axis_tkeep,
  input  logic                   s_axis_tvalid,
  output logic                   s_axis_tready,
  input  logic                   s_axis_tlast,
  input  logic [USER_W-1:0]      s_axis_tuser,
  input  logic [$clog2(N+1)-1:0] sel,   // output index, valid with the first beat
  input  logic                   drop,  // drop this frame, valid with the first beat
  output logic [DATA_W-1:0]      m_axis_tdata,
  output logic [DATA_W/8-1:0]    m_axis_tkeep,
  output logic [N-1:0]           m_axis_tvalid,
  input  logic [N-1:0]           m_axis_tready,
  output logic                   m_axis_tlast,
  output logic [USER_W-1:0]      m_axis_tuser
);
  logic first_reg, drop_reg;
  logic [$clog2(N+1)-1:0] sel_reg;
  wire [$clog2(N+1)-1:0] sel_now = first_reg ? sel : sel_reg;
  wire drop_now = first_reg ? (drop || int'(sel) >= N) : drop_reg;

  assign m_axis_tdata = s_axis_tdata;
  assign m_axis_tkeep = s_axis_tkeep;
  assign m_axis_tlast = s_axis_tlast;
  assign m_axis_tuser = s_axis_tuser;
  always_comb begin
    m_axis_tvalid = '0;
    s_axis_tready = 1'b1;
    for (int i = 0; i < N; i++) begin
      if (!drop_now && int'(sel_now) == i) begin
        m_axis_tvalid[i] = s_axis_tvalid;
        s_axis_tready = m_axis_tready[i];
      end
    end
  end

  always_ff @(posedge clk) begin
    if (s_axis_tvalid && s_axis_tready) begin
      first_reg <= s_axis_tlast;
      sel_reg <= sel_now;
      drop_reg <= drop_now;
    end
    if (rst) begin
      first_reg <= 1'b1;
      sel_reg <= '0;
      drop_reg <= 1'b0;
    end
  end
endmodule
