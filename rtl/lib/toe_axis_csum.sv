// SPDX-License-Identifier: Apache-2.0
// toe_axis_csum: Internet checksum (RFC 1071 ones'-complement sum of 16-bit big-endian
// words) of the frames on an AXI-Stream it watches, from byte `start` of each frame on,
// plus `seed` (e.g. a pseudo-header sum); both are sampled with the first beat. Frame
// byte 2k is the high byte of word k. The result is the folded sum (not complemented):
// a received packet whose checksum field is included verifies when the sum is 16'hFFFF,
// which `sum_ok` says beside it from the sum before the fold (toe_pkg::csum_verifies, no
// adder after the running sum's).
// Timing: `sum_valid` pulses LATENCY (+ OUT_REG) cycles after the last beat, with `sum`, `sum_wide`
// (the running sum before the fold: a consumer that registers it folds behind the register,
// not after the running sum's carry chain) and `sum_ok`;
// at LATENCY 0 all are combinational in the last beat's cycle (a verdict can ride on that beat's
// tuser). A beat per cycle at any width and latency (balanced adder tree of DATA_W/16
// words, toe_csa_tree: carry-save, its two words added by the running sum). The stages
// LATENCY adds, each a register across the whole beat:
//   1: the beat's word sum (carry-save) is registered before the running sum and the fold;
//   2: the beat's words are also registered before the tree (after the byte masks).
// OUT_REG 1 adds a register after the running sum: `sum_wide` is that register, and
// `sum` and `sum_ok` are its fold and compare (the outputs come LATENCY + 1 cycles after
// the last beat; a consumer's logic then starts at a register, not behind the running
// sum's carry chain).
// A stream whose checksum is the verdict on its own last beat goes through LATENCY
// registers beside it (toe_tcp_rx_parse); a store-and-forward sender keeps the sum apart
// from its command until both are there (toe_tcp_tx_engine).
module toe_axis_csum #(
  parameter int unsigned DATA_W  = 64,   // tdata width, multiple of 16
  parameter int unsigned LATENCY = 0,    // 0, 1 or 2 register stages (above)
  parameter bit          OUT_REG = 1'b0    // 1: the running sum registered before the outputs
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [DATA_W-1:0]   tdata,
  input  logic [DATA_W/8-1:0] tkeep,
  input  logic                beat,     // a beat is transferred this cycle
  input  logic                tlast,
  input  logic [15:0]         start,    // first byte to include
  input  logic [31:0]         seed,     // added to the sum (any width-32 partial sum)
  output logic [15:0]         sum,
  output logic [31:0]         sum_wide, // the same before the fold (fold it after a register)
  output logic                sum_ok,   // sum == 16'hFFFF
  output logic                sum_valid
);
  localparam int unsigned W = DATA_W / 8;
  initial if (LATENCY > 2) $fatal(0, "toe_axis_csum: LATENCY %0d > 2 (instance %m)", LATENCY);

  // where the beat lies in its frame
  logic        first_reg;
  logic [15:0] start_reg;
  logic [15:0] pos_reg;   // byte position of this beat's byte 0
  wire [15:0] start_now = first_reg ? start : start_reg;
  wire [15:0] pos = first_reg ? 16'd0 : pos_reg;
  always_ff @(posedge clk) begin
    if (beat) begin
      first_reg <= tlast;
      start_reg <= start_now;
      pos_reg <= pos + 16'(W);
    end
    if (rst) first_reg <= 1'b1;
  end

  // A beat as it moves through the stages: valid, first and last of its frame, the seed.
  typedef struct packed {logic beat, first, last; logic [31:0] seed;} tag_t;
  tag_t tag_in, tag_words, tag_sum;
  assign tag_in = '{beat: beat, first: first_reg, last: tlast, seed: seed};

  // The beat's big-endian words, bytes outside tkeep or before `start` zeroed.
  logic [DATA_W-1:0] words, words_staged;
  always_comb begin
    for (int i = 0; i < W; i++) begin
      logic [7:0] b;
      b = (tkeep[i] && (pos + 16'(i)) >= start_now) ? tdata[8*i +: 8] : 8'd0;
      words[8*(i ^ 1) +: 8] = b;   // byte 2k is the high byte of word k
    end
  end
  if (LATENCY >= 2) begin : g_words_reg
    always_ff @(posedge clk) begin
      tag_words <= tag_in;
      words_staged <= words;
      if (rst) tag_words.beat <= 1'b0;
    end
  end else begin : g_words_wire
    assign tag_words = tag_in;
    assign words_staged = words;
  end

  // the beat's word sum in carry-save form (two words, no carry chain): the running sum
  // adds both, so the stage that compresses has no carry chain
  logic [31:0] beat_s, beat_c, beat_s_staged, beat_c_staged;
  toe_csa_tree #(.N(DATA_W / 16), .IN_W(16), .OUT_W(32)) u_tree (.terms(words_staged), .sum_s(beat_s), .sum_c(beat_c));
  if (LATENCY >= 1) begin : g_sum_reg
    always_ff @(posedge clk) begin
      tag_sum <= tag_words;
      {beat_s_staged, beat_c_staged} <= {beat_s, beat_c};
      if (rst) tag_sum.beat <= 1'b0;
    end
  end else begin : g_sum_wire
    assign tag_sum = tag_words;
    assign {beat_s_staged, beat_c_staged} = {beat_s, beat_c};
  end

  // the running sum of the frame
  logic [31:0] acc_reg;
  wire [31:0] acc_now = (tag_sum.first ? tag_sum.seed : acc_reg) + beat_s_staged + beat_c_staged;
  always_ff @(posedge clk) if (tag_sum.beat) acc_reg <= acc_now;
  if (OUT_REG) begin : g_out_reg
    always_ff @(posedge clk) begin
      sum_wide <= acc_now;
      sum_valid <= tag_sum.beat && tag_sum.last;
      if (rst) sum_valid <= 1'b0;
    end
  end else begin : g_out_wire
    assign sum_wide = acc_now;
    assign sum_valid = tag_sum.beat && tag_sum.last;
  end
  assign sum = toe_pkg::csum_fold(sum_wide);
  assign sum_ok = toe_pkg::csum_verifies(sum_wide);
endmodule
