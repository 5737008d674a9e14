// SPDX-License-Identifier: Apache-2.0
// toe_axis_csum: Internet checksum (RFC 1071 ones'-complement sum of 16-bit big-endian
// words) of the frames on an AXI-Stream it watches, from byte `start` of each frame on,
// plus `seed` (e.g. a pseudo-header sum); both are sampled with the first beat. Frame
// byte 2k is the high byte of word k. The result is the folded sum (not complemented):
// a received packet whose checksum field is included verifies when the sum is 16'hFFFF.
// Timing: `sum_last` is combinational and valid in the cycle of the last beat (so a
// verdict can ride on that beat's tuser); `sum_reg`/`sum_valid` repeat it one cycle later.
// One beat per cycle at any width (balanced adder tree of DATA_W/16 words).
module toe_axis_csum #(
  parameter int unsigned DATA_W = 64   // tdata width, multiple of 16
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [DATA_W-1:0]   tdata,
  input  logic [DATA_W/8-1:0] tkeep,
  input  logic                beat,     // a beat is transferred this cycle
  input  logic                tlast,
  input  logic [15:0]         start,    // first byte to include
  input  logic [31:0]         seed,     // added to the sum (any width-32 partial sum)
  output logic [15:0]         sum_last,
  output logic [15:0]         sum_reg,
  output logic                sum_valid
);
  localparam int unsigned W = DATA_W / 8;

  logic        first_reg;
  logic [15:0] start_reg;
  logic [31:0] acc_reg;
  logic [15:0] pos_reg;   // byte position of this beat's byte 0

  wire [15:0] start_now = first_reg ? start : start_reg;
  wire [15:0] pos = first_reg ? 16'd0 : pos_reg;

  // The beat's big-endian words, bytes outside tkeep or before `start` zeroed.
  logic [DATA_W-1:0] words;
  always_comb begin
    for (int i = 0; i < W; i++) begin
      logic [7:0] b;
      b = (tkeep[i] && (pos + 16'(i)) >= start_now) ? tdata[8*i +: 8] : 8'd0;
      words[8*(i ^ 1) +: 8] = b;   // byte 2k is the high byte of word k
    end
  end
  logic [31:0] beat_sum;
  toe_sum_tree #(.N(DATA_W / 16), .IN_W(16), .OUT_W(32)) u_tree (.terms(words), .sum(beat_sum));
  wire [31:0] acc_now = (first_reg ? seed : acc_reg) + beat_sum;
  assign sum_last = toe_pkg::csum_fold(acc_now);

  always_ff @(posedge clk) begin
    sum_valid <= 1'b0;
    if (beat) begin
      first_reg <= tlast;
      acc_reg <= acc_now;
      start_reg <= start_now;
      pos_reg <= pos + 16'(W);
      if (tlast) begin
        sum_reg <= sum_last;
        sum_valid <= 1'b1;
      end
    end
    if (rst) begin
      first_reg <= 1'b1;
      sum_valid <= 1'b0;
    end
  end
endmodule
