// SPDX-License-Identifier: Apache-2.0
// toe_tcp_isn: initial sequence numbers by RFC 6528,
//   ISN = M + F(localip, localport, remoteip, remoteport, secretkey)
// with F = the low 32 bits of SipHash-2-4 (Aumasson and Bernstein, 2012) under the 128-bit
// key `key`, over the whole 12-byte tuple in network byte order:
//   local IP (4), remote IP (4), local port (2), remote port (2),
// and M = the microsecond clock divided by 4, kept modulo 2^32 (the 32-bit `now_us` wraps
// every 71.6 minutes; the two bits above it are counted here, so M never jumps back).
// Contract: `req_valid` is taken when `req_ready` (idle); `rsp_valid` rises
// 16 / HALF_ROUNDS + 1 cycles later (17 with one half SipRound per cycle, 9 with two)
// with the request's `req_tag` on `rsp_tag` (the unit is shared: toe_tcp tags the core's
// active opens and the lookup's SYNs), and `isn` and `rsp_tag` hold until the next answer.
// The tuple, the tag and M are sampled in the request's cycle:
// while idle the unit loads them every cycle, and the request only sets busy, so a late
// request (an issue decided behind deep logic) drives one flip-flop, not the hash's state.
// HALF_ROUNDS half SipRounds per cycle: 2 compression rounds per 8-byte block, two
// blocks, 4 finalization rounds = 16 half rounds, then M plus the fold in a cycle of its
// own. A half round is one 64-bit add on each of two lanes; a whole round is two dependent
// adds, 4.6 ns in the cell-delay model: within 156.25 MHz (6.4 ns, the 64-bit data path's
// clock), past 322 MHz. So 1 at 322 MHz, 2 at 156.25 MHz (toe_tcp chooses by DATA_W), where
// it shortens a passive open's SYN -> SYN-ACK (the core's step waits for the ISN).
module toe_tcp_isn #(
  parameter int unsigned TAG_W = 1,
  parameter int unsigned HALF_ROUNDS = 1    // half SipRounds per cycle: 1 or 2
) (
  input  logic          clk,
  input  logic          rst,
  input  logic [31:0]   now_us,
  input  logic [127:0]  key,          // k0 = key[63:0], k1 = key[127:64] (SipHash's byte order: little-endian)
  input  logic          req_valid,
  output logic          req_ready,
  input  logic [TAG_W-1:0] req_tag,   // who asked: returned with the answer
  input  logic [31:0]   local_ip,
  input  logic [15:0]   local_port,
  input  logic [31:0]   remote_ip,
  input  logic [15:0]   remote_port,
  output logic          rsp_valid,
  output logic [TAG_W-1:0] rsp_tag,
  output logic [31:0]   isn
);
  typedef logic [63:0] u64;
  typedef struct packed { u64 v0, v1, v2, v3; } sip_t;

  function automatic u64 rotl(input u64 x, input int unsigned b);
    return (x << b) | (x >> (64 - b));
  endfunction
  // a SipRound's first half (second = 0) or second half (second = 1)
  function automatic sip_t sip_half_round(input sip_t s, input logic second);
    sip_t t = s;
    if (!second) begin
      t.v0 = t.v0 + t.v1; t.v1 = rotl(t.v1, 13); t.v1 ^= t.v0; t.v0 = rotl(t.v0, 32);
      t.v2 = t.v2 + t.v3; t.v3 = rotl(t.v3, 16); t.v3 ^= t.v2;
    end else begin
      t.v0 = t.v0 + t.v3; t.v3 = rotl(t.v3, 21); t.v3 ^= t.v0;
      t.v2 = t.v2 + t.v1; t.v1 = rotl(t.v1, 17); t.v1 ^= t.v2; t.v2 = rotl(t.v2, 32);
    end
    return t;
  endfunction
  // Byte i of the message is bits 8i+7:8i of a little-endian word.
  function automatic logic [31:0] bswap32(input logic [31:0] x);
    return {x[7:0], x[15:8], x[23:16], x[31:24]};
  endfunction
  function automatic logic [15:0] bswap16(input logic [15:0] x);
    return {x[7:0], x[15:8]};
  endfunction

  initial if (HALF_ROUNDS != 1 && HALF_ROUNDS != 2)
    $fatal(0, "toe_tcp_isn: HALF_ROUNDS must be 1 or 2 (instance %m)");

  sip_t v_reg;
  u64 m0_reg, m1_reg;          // the two message blocks (the second with the length byte)
  logic [4:0] half_reg;        // 0..15: the half round in progress; 16: M plus the fold
  logic busy_reg, hi_wrap_pending;
  logic [1:0] hi_reg;          // now_us wraps counted: bits 33:32 of the microsecond clock
  logic [31:0] prev_us_reg, m_reg;
  logic [TAG_W-1:0] tag_reg;

  assign req_ready = !busy_reg;
  wire [31:0] m_now = {hi_reg + 2'(hi_wrap_pending), now_us[31:2]};
  assign hi_wrap_pending = now_us < prev_us_reg;

  wire u64 k0 = key[63:0];
  wire u64 k1 = key[127:64];
  wire u64 m0 = {bswap32(remote_ip), bswap32(local_ip)};
  wire u64 m1 = {8'd12, 24'd0, bswap16(remote_port), bswap16(local_port)};

  // after half round h: the end of round 1 closes block 0 and opens block 1, the end of
  // round 3 closes block 1 and starts the finalization
  function automatic sip_t half_and_blocks(input sip_t v, input logic [4:0] h, input u64 m0_in, m1_in);
    sip_t t = sip_half_round(v, h[0]);
    if (h == 5'd3) begin t.v0 ^= m0_in; t.v3 ^= m1_in; end
    if (h == 5'd7) begin t.v0 ^= m1_in; t.v2 ^= 64'hFF; end
    return t;
  endfunction
  sip_t after;
  always_comb begin
    after = v_reg;
    for (int k = 0; k < HALF_ROUNDS; k++) after = half_and_blocks(after, half_reg + 5'(k), m0_reg, m1_reg);
  end

  always_ff @(posedge clk) begin
    prev_us_reg <= now_us;
    if (hi_wrap_pending) hi_reg <= hi_reg + 1'b1;
    rsp_valid <= 1'b0;
    if (busy_reg) begin
      v_reg <= after;
      half_reg <= half_reg + 5'(HALF_ROUNDS);
      if (half_reg == 5'd16) begin
        busy_reg <= 1'b0;
        rsp_valid <= 1'b1;
        rsp_tag <= tag_reg;
        isn <= m_reg + 32'(v_reg.v0 ^ v_reg.v1 ^ v_reg.v2 ^ v_reg.v3);
      end
    end else begin
      busy_reg <= req_valid;
      half_reg <= '0;
      m_reg <= m_now;
      tag_reg <= req_tag;
      m0_reg <= m0;
      m1_reg <= m1;
      v_reg <= '{v0: k0 ^ 64'h736f6d6570736575, v1: k1 ^ 64'h646f72616e646f6d,
                 v2: k0 ^ 64'h6c7967656e657261, v3: k1 ^ 64'h7465646279746573 ^ m0};
    end
    if (rst) begin
      busy_reg <= 1'b0;
      rsp_valid <= 1'b0;
      hi_reg <= '0;
      prev_us_reg <= '0;
      isn <= '0;
      rsp_tag <= '0;
    end
  end

`ifndef SYNTHESIS
  // the hash takes exactly 16 half rounds and the fold; an answer never overlaps a hash in progress
  always_ff @(posedge clk)
    if (!rst) begin
      assert (!busy_reg || half_reg <= 5'd16) else $error("%m: half-round counter past 16");
      assert (!rsp_valid || !busy_reg) else $error("%m: answer while busy");
    end
`endif
endmodule
