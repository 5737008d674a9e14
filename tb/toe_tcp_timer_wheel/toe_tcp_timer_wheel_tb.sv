// SPDX-License-Identifier: Apache-2.0
// toe_tcp_timer_wheel_tb: the wheel with its microsecond clock (CYCLES_PER_US cycles per
// us, and a jump input as the test harness's virtual time has).
module toe_tcp_timer_wheel_tb #(
  parameter int unsigned MAX_SESSIONS  = 1024,
  parameter int unsigned SLOTS         = 256,
  parameter int unsigned CYCLES_PER_US = 156   // 156.25 MHz, the slower reference clock
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        jump_valid,
  input  logic [31:0] jump_us,
  output logic [31:0] now_us,
  input  logic        arm_valid,
  output logic        arm_ready,
  input  logic [$clog2(MAX_SESSIONS)-1:0] arm_session,
  input  logic        arm_on,
  input  logic [31:0] arm_at,
  output logic        fire_valid,
  input  logic        fire_ready,
  output logic [$clog2(MAX_SESSIONS)-1:0] fire_session,
  output logic [$clog2(MAX_SESSIONS):0]   armed,
  output logic        ready
);
  logic [15:0] div_reg;
  always_ff @(posedge clk) begin
    div_reg <= div_reg == 16'(CYCLES_PER_US - 1) ? '0 : div_reg + 1'b1;
    if (div_reg == 16'(CYCLES_PER_US - 1)) now_us <= now_us + 1'b1;
    if (jump_valid) now_us <= now_us + jump_us;
    if (rst) begin
      div_reg <= '0;
      now_us <= 32'hFFFF_0000;   // the clock wraps during the test
    end
  end
  toe_tcp_timer_wheel #(.MAX_SESSIONS(MAX_SESSIONS), .SLOTS(SLOTS)) u_wheel (.*);
endmodule
