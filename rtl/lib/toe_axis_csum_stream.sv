// SPDX-License-Identifier: Apache-2.0
// toe_axis_csum_stream: a stream and its Internet checksum, pipelined together. The frames
// of a stream that is never back-pressured (its receiver always takes a beat, e.g. a
// frame FIFO with DROP_WHEN_FULL) go through LATENCY registers beside toe_axis_csum, so
// each frame's last beat comes out with the frame's verdict on `m_sum_ok`: its folded sum
// is 16'hFFFF (the verdict rides on that beat, into the FIFO's commit). `start` and `seed` are sampled with a
// frame's first beat, as in toe_axis_csum; tuser goes along with every beat.
// Used where a checksum decides a frame's fate: TCP RX parser, UDP RX, ICMP echo.
// Timing: m_* is s_* LATENCY + VERDICT_REG cycles later (no back-pressure, so no ready);
// `m_sum_ok` is valid with the last beat only. LATENCY 0 is a wire (the verdict
// combinational on the last beat); each stage cuts the sum's path as toe_axis_csum says.
// VERDICT_REG 1 registers the running sum before the verdict (toe_axis_csum's OUT_REG):
// `m_sum_ok` is then the fold's compare on a register, not behind the running sum's carry
// chain (which, with a frame FIFO's commit and rewind behind it, was the TCP RX parser's
// longest path at 512 bits: 3.20 ns in Yosys' cell-delay model, stop 56), for one cycle
// more.
module toe_axis_csum_stream #(
  parameter int unsigned DATA_W  = 64,   // tdata width, multiple of 16
  parameter int unsigned USER_W  = 1,
  parameter int unsigned LATENCY = 1,    // 0, 1 or 2 (toe_axis_csum)
  parameter bit          VERDICT_REG = 1'b0   // 1: the verdict from a register (above)
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,   // taken every cycle it is set
  input  logic                s_axis_tlast,
  input  logic [USER_W-1:0]   s_axis_tuser,
  input  logic [15:0]         start,           // first byte summed (first beat)
  input  logic [31:0]         seed,            // added to the sum (first beat)
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  output logic                m_axis_tlast,
  output logic [USER_W-1:0]   m_axis_tuser,
  output logic                m_sum_ok         // with the last beat: the sum verifies
);
  logic sum_valid;
  toe_axis_csum #(.DATA_W(DATA_W), .LATENCY(LATENCY), .OUT_REG(VERDICT_REG)) u_csum (
    .clk, .rst, .tdata(s_axis_tdata), .tkeep(s_axis_tkeep), .beat(s_axis_tvalid),
    .tlast(s_axis_tlast), .start, .seed, .sum(), .sum_wide(), .sum_ok(m_sum_ok), .sum_valid
  );

  toe_delay #(.WIDTH(1 + DATA_W + DATA_W/8 + USER_W), .STAGES(LATENCY + VERDICT_REG)) u_delay (
    .clk, .rst, .s_valid(s_axis_tvalid), .s_data({s_axis_tlast, s_axis_tdata, s_axis_tkeep, s_axis_tuser}),
    .m_valid(m_axis_tvalid), .m_data({m_axis_tlast, m_axis_tdata, m_axis_tkeep, m_axis_tuser})
  );

`ifndef SYNTHESIS
  // the sum comes out with a frame's last beat, and at no other time
  always @(posedge clk) if (!rst)
    assert (sum_valid == (m_axis_tvalid && m_axis_tlast))
      else $error("toe_axis_csum_stream: checksum out of step with its frame (instance %m)");
`endif
endmodule
