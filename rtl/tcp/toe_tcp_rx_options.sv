// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rx_options: walks the options of each received TCP segment (RFC 9293 3.1: EOL,
// NOP, and kind-length-value options) beside the segment's beats, in two register stages:
// the beat as it comes, then the walk.
// Contract:
//   - s_head marks a segment's first beat; its options are s_opts (byte 0 first, in the
//     low bits) and s_opt_len (0..40) bytes of them count. Other beats pass untouched.
//   - m_mss is the MSS option's value (0: none) and m_bad says the options are malformed
//     (an option with length < 2 or running past the options, an MSS option whose length
//     is not 4); both are valid with m_head. s_pass rides along unchanged.
//   - One step of the walk skips up to two NOPs and takes the option behind them, and sees
//     where the options end. Segments with no options and segments with one option behind
//     up to two NOPs (Linux's data segments: NOP NOP timestamps) pass at one beat per
//     cycle. So do the option lists the common stacks put on SYNs and SYN-ACKs
//     (known_syn_layout: Linux's, with and without SACK and timestamps; Windows'; macOS's
//     and FreeBSD's), recognised whole in the first step: a SYN's step no longer waits for
//     their walk (Linux's SYN waited 6 cycles until stop 68). A head whose options take
//     n > 1 steps otherwise waits 2 (n - 1) cycles.
//   - Every step moves the position forward by at least one byte, so a walk ends within
//     40 steps whatever the bytes are.
// Latency: two cycles. s_ready is registered.
module toe_tcp_rx_options
  import toe_tcp_pkg::*;
#(
  parameter int unsigned PW = 8   // bits of s_pass
) (
  input  logic                           clk,
  input  logic                           rst,
  input  logic                           s_valid,
  output logic                           s_ready,
  input  logic                           s_head,
  input  logic [8*TCP_MAX_OPT_BYTES-1:0] s_opts,
  input  logic [5:0]                     s_opt_len,
  input  logic [PW-1:0]                  s_pass,
  output logic                           m_valid,
  input  logic                           m_ready,
  output logic                           m_head,
  output logic [PW-1:0]                  m_pass,
  output logic [15:0]                    m_mss,
  output logic                           m_bad
);
  localparam int unsigned N = TCP_MAX_OPT_BYTES;
  localparam int unsigned PAD = N + 6;   // bytes past the options read as 0

  typedef logic [2:0][7:0] rems_t;  // [j]: the option bytes from pos + j on (opt_len - pos - j)
  typedef struct packed {
    logic [5:0]  pos;      // the next option's offset
    rems_t       rem;      // the bytes left from pos on, and that less 1 and 2 (rem[0] > 0 unless done)
    logic        done, bad;
    logic        has_mss;
    logic [15:0] mss;
  } walk_t;
  typedef logic [5:0][7:0] win_t;   // the options' bytes at pos .. pos + 5

  // One step from `pos` (not done; win holds the bytes there, rem the bytes left from
  // there): up to two NOPs, then the option behind them. The outcome for each number of
  // NOPs k is computed side by side and the NOPs choose one, so no compare waits for
  // another. The bytes left after k NOPs, rem[k], come in registers, so the option's end
  // against the options' end is one compare of its length byte with rem[k] (a sum of
  // rem and a constant in front of it was a carry chain of its own: 3.23 ns into the walk
  // at 512 bits, stop 54), and the next step's rem[j] = rem[k] - length - j feed only the
  // walk's register.
  function automatic walk_t walk_step(input logic [5:0] pos, input rems_t rem, input win_t win);
    walk_t r [3];
    logic [1:0] skip;
    for (int k = 0; k < 3; k++) begin
      logic [7:0] kind, olen;
      kind = win[k];
      olen = win[k + 1];
      if (kind == 8'd1)   // a third NOP (k = 2; for k < 2 the NOPs choose another outcome)
        r[k] = '{pos: pos + 6'(k + 1), rem: {rem[k] - 8'd3, rem[k] - 8'd2, rem[k] - 8'd1},
                 done: rem[0] <= 8'(k + 1), bad: 1'b0, has_mss: 1'b0, mss: {win[k + 2], win[k + 3]}};
      else
        r[k] = '{pos: pos + 6'(k) + 6'(olen), rem: {rem[k] + ~olen - 8'd1, rem[k] + ~olen, rem[k] - olen},
                 done: olen >= rem[k], bad: 1'b0, has_mss: kind == 8'd2, mss: {win[k + 2], win[k + 3]}};
      if (rem[0] <= 8'(k) || kind == 8'd0) begin
        r[k] = '0;
        r[k].done = 1'b1;
      end else if (kind != 8'd1 && (rem[0] <= 8'(k + 1) || olen < 8'd2 || olen > rem[k] || (kind == 8'd2 && olen != 8'd4))) begin
        r[k] = '0;
        r[k].done = 1'b1;
        r[k].bad = 1'b1;
      end
    end
    // (not done: rem > 0, so the first NOP is an option byte)
    skip = win[0] != 8'd1 ? 2'd0 : (win[1] == 8'd1 && rem[0] >= 8'd2) ? 2'd2 : 2'd1;
    return r[skip];
  endfunction

  // The SYN option lists of the common stacks, MSS first (the values are don't-cares):
  // well-formed whatever the values, so a match ends the walk at its first step, which
  // has taken the MSS option. A list that is not one of them is walked.
  function automatic logic known_syn_layout(input logic [8*N-1:0] o, input logic [5:0] len);
    logic [N-1:0][7:0] b;
    logic mss_first, ts_at_6, nop_ws_at_16;
    b = o;
    mss_first = b[0] == 8'd2 && b[1] == 8'd4;
    ts_at_6 = b[6] == 8'd8 && b[7] == 8'd10;
    nop_ws_at_16 = b[16] == 8'd1 && b[17] == 8'd3 && b[18] == 8'd3;
    return mss_first && (
      // Linux: MSS, SACK permitted, timestamps, NOP, window scale
      (len == 6'd20 && b[4] == 8'd4 && b[5] == 8'd2 && ts_at_6 && nop_ws_at_16) ||
      // Linux without SACK: MSS, NOP, NOP, timestamps, NOP, window scale
      (len == 6'd20 && b[4] == 8'd1 && b[5] == 8'd1 && ts_at_6 && nop_ws_at_16) ||
      // Linux without timestamps: MSS, NOP, NOP, SACK permitted, NOP, window scale
      (len == 6'd12 && b[4] == 8'd1 && b[5] == 8'd1 && b[6] == 8'd4 && b[7] == 8'd2 &&
       b[8] == 8'd1 && b[9] == 8'd3 && b[10] == 8'd3) ||
      // Windows: MSS, NOP, window scale, NOP, NOP, SACK permitted
      (len == 6'd12 && b[4] == 8'd1 && b[5] == 8'd3 && b[6] == 8'd3 && b[8] == 8'd1 &&
       b[9] == 8'd1 && b[10] == 8'd4 && b[11] == 8'd2) ||
      // macOS, FreeBSD: MSS, NOP, window scale, NOP, NOP, timestamps, SACK permitted, EOL
      (len == 6'd24 && b[4] == 8'd1 && b[5] == 8'd3 && b[6] == 8'd3 && b[8] == 8'd1 &&
       b[9] == 8'd1 && b[10] == 8'd8 && b[11] == 8'd10 && b[20] == 8'd4 && b[21] == 8'd2 &&
       b[22] == 8'd0));
  endfunction

  logic valid_reg, head_reg, fetched_reg;
  logic [PW-1:0] pass_reg;
  logic [8*PAD-1:0] opts_reg;
  walk_t walk_reg, first;
  win_t win_reg;

  // the input stage (toe_skid_buffer): the beat as it came (the options' bytes may come
  // straight from a header extractor's funnel), and a registered s_ready
  logic in_valid, in_head;
  logic [PW-1:0] in_pass;
  logic [8*N-1:0] in_opts;
  logic [5:0] in_opt_len;
  rems_t in_rem;
  // the walk stage moves on when it is empty or its beat leaves
  wire advance = !valid_reg || (walk_reg.done && m_ready);
  toe_skid_buffer #(.WIDTH(1 + PW + 8 * N + 6 + $bits(rems_t))) u_in (
    .clk, .rst, .s_data({s_head, s_pass, s_opts, s_opt_len, {8'(s_opt_len) - 8'd2, 8'(s_opt_len) - 8'd1, 8'(s_opt_len)}}),
    .s_valid, .s_ready,
    .m_data({in_head, in_pass, in_opts, in_opt_len, in_rem}), .m_valid(in_valid), .m_ready(advance)
  );

  wire [8*PAD-1:0] in_opts_pad = {{(8 * (PAD - N)){1'b0}}, in_opts};
  wire start_done = !in_head || in_rem[0] == '0;
  assign first = walk_step('0, in_rem, in_opts_pad[0 +: 48]);
  assign m_valid = valid_reg && walk_reg.done;
  assign m_head = head_reg;
  assign m_pass = pass_reg;
  assign m_mss = walk_reg.mss;
  assign m_bad = walk_reg.bad;

  // A head takes the first step as it enters the walk stage. Each further step takes two
  // cycles: the bytes at the new position into win_reg, then the step on them.
  always_ff @(posedge clk) begin
    if (valid_reg && !walk_reg.done) begin
      fetched_reg <= !fetched_reg;
      if (!fetched_reg) win_reg <= opts_reg[8 * walk_reg.pos +: 48];
      else begin
        walk_t r;
        r = walk_step(walk_reg.pos, walk_reg.rem, win_reg);
        if (!r.has_mss) r.mss = walk_reg.mss;   // an earlier MSS option stays
        walk_reg <= r;
      end
    end
    if (advance) begin
      valid_reg <= in_valid;
      head_reg <= in_head;
      pass_reg <= in_pass;
      opts_reg <= in_opts_pad;
      fetched_reg <= 1'b0;
      walk_reg <= start_done ? '{pos: '0, rem: '0, done: 1'b1, bad: 1'b0, has_mss: 1'b0, mss: '0} : first;
      if (!first.has_mss) walk_reg.mss <= '0;
      if (known_syn_layout(in_opts, in_opt_len)) walk_reg.done <= 1'b1;   // first has its MSS
    end
    if (rst) valid_reg <= 1'b0;
  end

`ifndef SYNTHESIS
  // a walk ends within N steps: it waits at most 2 (N - 1) cycles
  int unsigned wait_cycles;
  always_ff @(posedge clk) begin
    wait_cycles <= (valid_reg && !walk_reg.done) ? wait_cycles + 1 : 0;
    if (!rst) assert (wait_cycles < 2 * N)
      else $error("toe_tcp_rx_options: the option walk did not end after %0d cycles (instance %m)", wait_cycles);
  end
`endif
endmodule
