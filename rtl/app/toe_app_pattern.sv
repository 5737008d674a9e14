// SPDX-License-Identifier: Apache-2.0
// toe_app_pattern: the test pattern of the source and client applications. Each request
// {length > 0} becomes one frame of `length` bytes on m_axis in which byte i (counted from
// the frame's start) is i mod 251; the request is taken (s_ready) with the frame's last
// beat. A stream cut into requests whose lengths are multiples of 251 (all but the last)
// therefore carries byte n = n mod 251, which a receiver checks without any state but n;
// 251 is prime, so a lost, repeated or misplaced block of any power-of-two size shows.
// Timing: one beat per cycle, all beats full but the last; m_axis is a function of
// registers and the request only.
module toe_app_pattern #(
  parameter int unsigned DATA_W = 64
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                s_valid,
  output logic                s_ready,
  input  logic [15:0]         s_length,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast
);
  localparam int unsigned W = DATA_W / 8;
  localparam logic [8:0] MOD = 9'd251;
  initial if (W > 251) $fatal(0, "toe_app_pattern: DATA_W above 2008 bits (instance %m)");

  logic [15:0] done_reg;   // bytes of the frame already sent
  logic [8:0] phase_reg;   // done_reg mod 251
  wire [15:0] left = s_length - done_reg;

  function automatic logic [8:0] mod_add(input logic [8:0] a, input logic [8:0] b);   // a, b < 251
    return a + b >= MOD ? a + b - MOD : a + b;
  endfunction

  assign m_axis_tvalid = s_valid;
  assign m_axis_tlast = left <= 16'(W);
  always_comb begin
    for (int l = 0; l < W; l++) begin
      m_axis_tdata[8*l +: 8] = 8'(mod_add(phase_reg, 9'(l % 251)));
      m_axis_tkeep[l] = 16'(l) < left;
    end
  end
  assign s_ready = m_axis_tvalid && m_axis_tready && m_axis_tlast;

  always_ff @(posedge clk) begin
    if (m_axis_tvalid && m_axis_tready) begin
      done_reg <= m_axis_tlast ? '0 : done_reg + 16'(W);
      phase_reg <= m_axis_tlast ? '0 : mod_add(phase_reg, 9'(W % 251));
    end
    if (rst) begin
      done_reg <= '0;
      phase_reg <= '0;
    end
  end
endmodule
