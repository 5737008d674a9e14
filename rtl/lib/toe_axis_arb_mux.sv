// SPDX-License-Identifier: Apache-2.0
// toe_axis_arb_mux: merges N AXI-Streams into one, a whole frame at a time, round-robin
// among the inputs that have a frame waiting. A grant, once offered, holds until the
// frame's last beat is taken. Timing: combinational data path (put a
// toe_axis_register after it where timing needs one); no idle cycle between frames: a
// new grant is made in the cycle after a last beat, or in the same cycle when idle.
module toe_axis_arb_mux #(
  parameter int unsigned N      = 2,   // inputs
  parameter int unsigned DATA_W = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W = 1    // tuser width
) (
  input  logic                       clk,
  input  logic                       rst,
  input  logic [N-1:0][DATA_W-1:0]   s_axis_tdata,
  input  logic [N-1:0][DATA_W/8-1:0] s_axis_tkeep,
  input  logic [N-1:0]               s_axis_tvalid,
  output logic [N-1:0]               s_axis_tready,
  input  logic [N-1:0]               s_axis_tlast,
  input  logic [N-1:0][USER_W-1:0]   s_axis_tuser,
  output logic [DATA_W-1:0]          m_axis_tdata,
  output logic [DATA_W/8-1:0]        m_axis_tkeep,
  output logic                       m_axis_tvalid,
  input  logic                       m_axis_tready,
  output logic                       m_axis_tlast,
  output logic [USER_W-1:0]          m_axis_tuser
);
  localparam int unsigned SW = (N > 1) ? $clog2(N) : 1;

  logic          locked_reg;
  logic [SW-1:0] grant_reg, last_grant_reg, sel;

  // Round-robin pick: the first requester after the previous grant.
  always_comb begin
    sel = grant_reg;
    if (!locked_reg) begin
      sel = last_grant_reg;
      for (int k = N; k >= 1; k--)
        if (s_axis_tvalid[(int'(last_grant_reg) + k) % N]) sel = SW'((int'(last_grant_reg) + k) % N);
    end
  end

  assign m_axis_tdata  = s_axis_tdata[sel];
  assign m_axis_tkeep  = s_axis_tkeep[sel];
  assign m_axis_tvalid = s_axis_tvalid[sel];
  assign m_axis_tlast  = s_axis_tlast[sel];
  assign m_axis_tuser  = s_axis_tuser[sel];
  always_comb begin
    s_axis_tready = '0;
    s_axis_tready[sel] = m_axis_tready;
  end

  // The grant holds from the first cycle a frame is offered until its last beat is
  // taken, so the output never changes under tvalid.
  always_ff @(posedge clk) begin
    if (m_axis_tvalid) begin
      locked_reg <= !(m_axis_tready && m_axis_tlast);
      grant_reg <= sel;
      if (m_axis_tready) last_grant_reg <= sel;
    end
    if (rst) begin
      locked_reg <= 1'b0;
      grant_reg <= '0;
      last_grant_reg <= SW'(N - 1);
    end
  end
endmodule
