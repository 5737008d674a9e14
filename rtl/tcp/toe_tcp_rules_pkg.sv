// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rules_pkg: the TCP rules as pure functions of their inputs, so that every engine
// that applies one (the protocol core today; the fast path, slow path and timer engines of
// the pipelined core) applies the same text, and each is unit-tested against a Python
// reference written from the RFC (tb/toe_tcp_rules). No state, no clock.
//   seg_acceptable   RFC 9293 3.10.7.4, the four-case acceptability test (seq_in_window)
//   ack_check        RFC 9293 3.10.7.4 fifth check: old, new or not-yet-sent ACK, and (RFC
//                    5961 5.2) one older than SND.UNA - MAX.SND.WND
//   wnd_update_ok    RFC 9293 3.10.7.4: taking SEG.WND (SND.UNA =< SEG.ACK, the SND.WL1/WL2 rule)
//   rtt_sample       RFC 6298 2.2/2.3 estimator, with the RTO bounds of 2.4/2.5
//   send_size        how much to send now: MSS, data queued, usable window, and the
//                    sender silly-window rule of RFC 1122 4.2.3.4 with Nagle (RFC 896);
//                    the composition of send_ends (the sums) and send_size_at (the rest)
//   adv_edge         the right edge to advertise: receiver silly-window avoidance,
//                    RFC 1122 4.2.3.3 (and RFC 9293 3.8.6.2.2), never moved left
//   peer_mss         the send MSS from the peer's option (RFC 9293 3.7.1, 536 default)
//   reasm_place      out-of-order reassembly: where a segment's new bytes go among the
//                    session's stored intervals (RFC 9293 3.10.7.4 "segments with higher
//                    beginning sequence numbers may be held for later processing");
//                    the composition of reasm_rel (the compares, reasm_cmp, and the
//                    relations on them, reasm_derive) and reasm_merge
// The ISN (RFC 6528) is a keyed hash over several cycles: toe_tcp_isn.
package toe_tcp_rules_pkg;
  import toe_tcp_pkg::*;

  function automatic logic [31:0] umin(input logic [31:0] a, b); return a < b ? a : b; endfunction
  function automatic logic [31:0] umax(input logic [31:0] a, b); return a > b ? a : b; endfunction
  // a sequence-space difference, negative as 0 (by its sign bit alone: no compare)
  function automatic logic [31:0] pos(input logic [31:0] a); return a[31] ? 32'd0 : a; endfunction

  // RCV.NXT =< x < RCV.NXT + RCV.WND, the window given by its right edge RCV.ADV (RCV.WND =
  // pos(RCV.ADV - RCV.NXT): an edge behind RCV.NXT is no window). The sign bits of three
  // differences side by side, none compared after it is formed (one carry chain deep).
  // Exact for every x: with 0 =< RCV.WND < 2^31 and 0 =< x - RCV.NXT < 2^31, x - RCV.ADV is
  // negative exactly when x - RCV.NXT < RCV.WND.
  function automatic logic seq_in_window(input logic [31:0] x, rcv_nxt, rcv_adv);
    logic [31:0] ahead, wnd, past;
    ahead = x - rcv_nxt;
    wnd = rcv_adv - rcv_nxt;
    past = x - rcv_adv;
    return !ahead[31] && !wnd[31] && past[31];
  endfunction

  // RFC 9293 3.10.7.4: a segment of SEG.LEN sequence numbers (payload + SYN + FIN) at
  // SEG.SEQ is acceptable when
  //   len 0, wnd 0:  SEG.SEQ = RCV.NXT
  //   len 0, wnd >0: RCV.NXT =< SEG.SEQ < RCV.NXT+RCV.WND
  //   len >0, wnd 0: never
  //   len >0, wnd >0: its first or its last sequence number is in the window
  // The window is given by its right edge (seq_in_window), the segment by its first and
  // last sequence numbers (seg_last = SEG.SEQ + SEG.LEN - 1, unused when seg_empty), so
  // that no compare waits for a sum. An empty segment at RCV.NXT is in any open window.
  function automatic logic seg_acceptable(input logic [31:0] seg_seq, seg_last, input logic seg_empty,
                                          input logic [31:0] rcv_nxt, rcv_adv);
    if (seg_empty)
      return seg_seq == rcv_nxt || seq_in_window(seg_seq, rcv_nxt, rcv_adv);
    return seq_in_window(seg_seq, rcv_nxt, rcv_adv) || seq_in_window(seg_last, rcv_nxt, rcv_adv);
  endfunction

  // RFC 9293 3.10.7.4, ACK field: SEG.ACK =< SND.UNA is a duplicate (ignored, the segment is
  // processed further); SND.UNA < SEG.ACK =< SND.NXT acknowledges new data; above SND.NXT
  // it acknowledges something not yet sent (answer with an ACK, drop the segment). The
  // engine goes back N on a timeout, so "sent" is SND.MAX, the highest it ever sent. With
  // RFC 5961 5.2, which RFC 9293 3.10.7.4 makes a MUST for a stack that implements RFC 5961
  // (this one does, sections 3 and 4): an ACK is acceptable only in SND.UNA - MAX.SND.WND
  // =< SEG.ACK, so an older one (ACK_TOO_OLD, a blind injection) is answered with an ACK
  // and its segment dropped too. MAX.SND.WND is the largest window the peer has offered.
  // Its compare is the sign of one sum of three terms (no difference before a compare).
  typedef enum logic [1:0] {ACK_OLD, ACK_NEW, ACK_UNSENT, ACK_TOO_OLD} ack_kind_e;
  function automatic ack_kind_e ack_check(input logic [31:0] seg_ack, snd_una, snd_max,
                                          input logic [15:0] max_sndwnd);
    logic [31:0] from_floor;   // SEG.ACK - (SND.UNA - MAX.SND.WND)
    from_floor = seg_ack + ~snd_una + 32'd1 + 32'(max_sndwnd);
    if (seq_lt(snd_max, seg_ack)) return ACK_UNSENT;
    if (seq_lt(snd_una, seg_ack)) return ACK_NEW;
    if (from_floor[31]) return ACK_TOO_OLD;
    return ACK_OLD;
  endfunction

  // RFC 9293 3.10.7.4: "If SND.UNA =< SEG.ACK =< SND.NXT, the send window should be
  // updated", from a segment that is not older than the one it was last taken from:
  // SND.WL1 < SEG.SEQ, or SND.WL1 = SEG.SEQ and SND.WL2 =< SEG.ACK. An old ACK (below
  // SND.UNA) gives no window (nor in Linux). The caller has checked the ACK is not
  // ACK_UNSENT (the upper bound).
  function automatic logic wnd_update_ok(input logic [31:0] snd_una, snd_wl1, snd_wl2, seg_seq, seg_ack);
    return seq_le(snd_una, seg_ack) && (seq_lt(snd_wl1, seg_seq) || (snd_wl1 == seg_seq && seq_le(snd_wl2, seg_ack)));
  endfunction

  // RFC 6298, in microseconds (clock granularity G = 1 us), alpha = 1/8, beta = 1/4, K = 4.
  // The state keeps fraction bits so that rounding does not pile up (Jacobson's scaling,
  // as Linux does): srtt8 = 8 * SRTT, rttvar4 = 4 * RTTVAR. srtt8 = 0 means no sample yet
  // (2.2: SRTT = R, RTTVAR = R/2); otherwise (2.3) RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|
  // with the SRTT before the update, then SRTT = 7/8 SRTT + 1/8 R'. The only rounding is
  // SRTT = srtt8 >> 3 in |SRTT - R'|: SRTT settles within 1 us of a steady RTT and RTTVAR
  // under 1 us (unscaled shifts settled 7 us above it, with RTTVAR stuck at 7 us).
  // RTO = SRTT + max(G, K*RTTVAR), kept within [rto_min, rto_max] (2.4, 2.5). A sample of
  // 0 counts as 1 us. Samples up to 2^28 us (4.5 min) keep every term within 32 bits.
  typedef struct packed {
    logic [31:0] srtt8, rttvar4, rto;
  } rtt_t;
  // The estimator in two halves, so that a pipeline can put a register between them:
  // rtt_diff computes, from the sample R' (at least 1: rtt_sample_us makes it so beside its
  // difference; a max(R', 1) here was a compare's carry chain in series), the new SRTT, the
  // part of RTTVAR before the sample's (3/4 RTTVAR, or R'/2 for the first), |SRTT - R'|, and
  // whether both are 0 (K*RTTVAR = 0: G counts instead), from its inputs' equalities;
  // rtt_update adds the RTTVAR parts and computes the RTO. The RTO is one sum (SRTT, both
  // RTTVAR parts, 1 where K*RTTVAR is 0), and each bound's test is the sign of one sum of
  // the same terms and the bound, beside it (compared after the RTO, three carry chains
  // were in series: 4.01 ns in the cell-delay model at 512 bits, stop 52), then one choice;
  // the terms are compressed (csa3) so that each of the three sums is one carry chain.
  typedef struct packed {
    logic [31:0] srtt8, var_part, diff;
    logic        var_zero;   // var_part and diff are 0
  } rtt_diff_t;
  function automatic rtt_diff_t rtt_diff(input rtt_t x, input logic [31:0] r);
    rtt_diff_t d;
    logic [31:0] srtt;
    logic first, above;
    first = x.srtt8 == '0;
    srtt = x.srtt8 >> 3;
    above = srtt > r;
    d.srtt8 = first ? r << 3 : x.srtt8 - (x.srtt8 >> 3) + r;
    d.var_part = first ? r << 1 : x.rttvar4 - (x.rttvar4 >> 2);
    d.diff = first ? '0 : above ? srtt - r : r - srtt;
    // (r << 1) is 0 when bits 30:0 are; x - x/4 is 0 only for 0; |SRTT - R'| when equal
    d.var_zero = first ? r[30:0] == '0 : x.rttvar4 == '0 && srtt == r;
    return d;
  endfunction
  // a 3:2 compressor: s + c = a + b + c_in (c's bit 0 is 0, free for a carry in)
  typedef struct packed {logic [33:0] s, c;} csa34_t;
  function automatic csa34_t csa3(input logic [33:0] a, b, c);
    return '{s: a ^ b ^ c, c: ((a & b) | (a & c) | (b & c)) << 1};
  endfunction
  function automatic rtt_t rtt_update(input rtt_diff_t d, input logic [31:0] rto_min, rto_max);
    rtt_t y;
    csa34_t rto, lo, hi;
    logic [33:0] to_min, to_max;
    y.srtt8 = d.srtt8;
    y.rttvar4 = d.var_part + d.diff;
    // the RTO in carry-save form: SRTT + both RTTVAR parts, G (1 when K*RTTVAR is 0) in the
    // carry word's free bit
    rto = csa3(34'(d.srtt8 >> 3), 34'(d.var_part), 34'(d.diff));
    rto.c[0] = d.var_zero;
    // RTO - rto_min and RTO - rto_max - 1 (~x = -x - 1): one compressor more and one carry
    // chain each, beside the RTO's own chain (the sums' chains in series: 3.30 ns at 512
    // bits alone, 2.56 ns with the compressors, stop 56)
    lo = csa3(rto.s, rto.c, ~34'(rto_min));
    lo.c[0] = 1'b1;
    hi = csa3(rto.s, rto.c, ~34'(rto_max));
    to_min = lo.s + lo.c;
    to_max = hi.s + hi.c;
    y.rto = to_min[33] ? (rto_min > rto_max ? rto_max : rto_min)   // RTO < rto_min
          : !to_max[33] ? rto_max                                  // RTO > rto_max
          : 32'(rto.s + rto.c);
    return y;
  endfunction
  // the sample from the time the timed segment was sent to now: 0 counts as 1 us (the
  // equality beside the difference)
  function automatic logic [31:0] rtt_sample_us(input logic [31:0] now, sent);
    return now == sent ? 32'd1 : now - sent;
  endfunction
  function automatic rtt_t rtt_sample(input rtt_t x, input logic [31:0] r, rto_min, rto_max);
    return rtt_update(rtt_diff(x, umax(r, 32'd1)), rto_min, rto_max);
  endfunction

  // How many bytes to send from SND.NXT now (0: nothing). `queued_end` is the end of the
  // data the application has queued; the usable window is SND.UNA + SND.WND - SND.NXT.
  // RFC 1122 4.2.3.4: a segment goes when it is a full MSS, when it empties the queue
  // (all application data counts as pushed; with Nagle, RFC 896: only if nothing is
  // unacknowledged), when it is at least half the
  // largest window the peer has offered, when the override timer fired (`force_send`),
  // or when it resends data already sent once (SND.NXT < SND.MAX after going back).
  // `go` says a segment goes (len != 0, without testing len); `held` says data could go but
  // the rule holds it back (arm the override timer). `nxt`
  // and `max` are SND.NXT and SND.MAX after sending `len`; `more` says data and window go on
  // past this segment (another may follow). Every compare is made on the ends of the
  // limits in sequence space (SND.NXT + MSS; the queue's end, SND.NXT + D; the window's,
  // SND.UNA + SND.WND; SND.NXT + half the largest window): one sum, then one compare, side
  // by side, none after a difference or its clamp at 0; each result is taken from the
  // smallest limit (7 LUT levels alone on UltraScale+, 9 with D and U first).
  typedef struct packed {
    logic [15:0] len;
    logic        go, held;
    logic [31:0] nxt, max;
    logic        more;
  } send_t;
  // In two halves, so that a pipeline can put a register between them: send_ends makes
  // the three sums (the window's end, SND.NXT + MSS, SND.NXT + half the largest window)
  // and the two lengths a segment may have besides the MSS (the queued bytes, the usable
  // window: their low 16 bits, which are the length whenever it is chosen), send_size_at
  // the compares and the choice on them. (With the lengths' differences in send_size_at,
  // synthesis shared one subtractor between them, its operand chosen by the compares:
  // the size step's longest path, 4.59 ns at 512 bits, stop 51.)
  typedef struct packed {
    logic [31:0] wnd_end, mss_end, half_end;
    logic [15:0] queued_len, usable_len;
  } send_ends_t;
  function automatic send_ends_t send_ends(input logic [31:0] snd_una, snd_nxt, queued_end,
                                           input logic [15:0] snd_wnd, max_sndwnd, mss);
    send_ends_t e;
    logic [16:0] wnd_up;
    e.wnd_end = snd_una + 32'(snd_wnd);
    e.queued_len = 16'(queued_end - snd_nxt);
    e.usable_len = 16'(snd_una - snd_nxt) + snd_wnd;
    e.mss_end = snd_nxt + 32'(mss);
    // SND.NXT plus half the largest window, rounded up: a limit reaching it is at least half
    wnd_up = 17'(max_sndwnd) + 17'd1;
    e.half_end = snd_nxt + 32'(wnd_up[16:1]);
    return e;
  endfunction
  function automatic send_t send_size_at(input send_ends_t e, input logic [31:0] snd_una, snd_nxt, snd_max,
                                         queued_end, input logic [15:0] max_sndwnd, mss,
                                         input logic nagle, force_send);
    send_t r;
    logic ends_past_nxt, mss_le_q, mss_le_u, q_le_u, half_mss, half_q, half_u, by_mss, by_queued, none, ok, half;
    // D and U are 0 when their ends are at or before SND.NXT (then nothing goes, and the
    // compares below, made on the ends, are not used); else each compare of two limits is
    // one compare of their ends
    ends_past_nxt = seq_lt(snd_nxt, queued_end) && seq_lt(snd_nxt, e.wnd_end);
    none = mss == '0 || !ends_past_nxt;
    mss_le_q = seq_le(e.mss_end, queued_end);
    mss_le_u = seq_le(e.mss_end, e.wnd_end);
    q_le_u = seq_le(queued_end, e.wnd_end);
    half_mss = (17'(mss) << 1) >= 17'(max_sndwnd);
    half_q = seq_le(e.half_end, queued_end);
    half_u = seq_le(e.half_end, e.wnd_end);
    by_mss = mss_le_q && mss_le_u;
    by_queued = !by_mss && q_le_u;
    half = by_mss ? half_mss : by_queued ? half_q : half_u;
    ok = by_mss || (by_queued && (!nagle || snd_nxt == snd_una)) || half || force_send || seq_lt(snd_nxt, snd_max);
    r.len = none || !ok ? '0 : by_mss ? mss : by_queued ? e.queued_len : e.usable_len;
    r.go = !none && ok;
    r.held = !none && !ok;
    r.nxt = none || !ok ? snd_nxt : by_mss ? e.mss_end : by_queued ? queued_end : e.wnd_end;
    r.max = none || !ok ? snd_max :
            by_mss ? (seq_lt(snd_max, e.mss_end) ? e.mss_end : snd_max) :
            by_queued ? (seq_lt(snd_max, queued_end) ? queued_end : snd_max) :
            (seq_lt(snd_max, e.wnd_end) ? e.wnd_end : snd_max);
    r.more = ends_past_nxt && seq_lt(e.mss_end, queued_end) && seq_lt(e.mss_end, e.wnd_end);
    return r;
  endfunction
  function automatic send_t send_size(input logic [31:0] snd_una, snd_nxt, snd_max, queued_end,
                                      input logic [15:0] snd_wnd, max_sndwnd, mss,
                                      input logic nagle, force_send);
    return send_size_at(send_ends(snd_una, snd_nxt, queued_end, snd_wnd, max_sndwnd, mss), snd_una, snd_nxt, snd_max,
                        queued_end, max_sndwnd, mss, nagle, force_send);
  endfunction

  // The right edge of the receive window to advertise. The buffer is a ring of
  // `ring_bytes`: bytes up to rx_read + ring_bytes fit; the edge is also at most max_win
  // past RCV.NXT (the 16-bit window field, no scaling). RFC 1122 4.2.3.3: the edge moves
  // right only in steps of at least min(ring/2, MSS), so a window that opens by a few bytes
  // is not offered; it never moves left (RFC 9293 3.8.6.2.2: do not shrink the window).
  // `dup`: the ACK repeats RCV.NXT while bytes past a hole are held (a duplicate ACK). It
  // carries the window the previous one did: RFC 5681 2 counts an ACK as a duplicate only
  // if its window is unchanged, and a sender that does not count it waits for its RTO
  // instead of retransmitting fast (the edge would otherwise move as the app reads).
  // Both candidates for the edge (the ring's end, RCV.NXT + max_win) are checked against
  // RCV.ADV side by side and the nearer chosen after: the edge moves exactly when both
  // candidates are at least a step right of RCV.ADV (then so is the nearer; and the farther
  // is whenever the nearer is), and a candidate is a step right of it when it is right of
  // it by ring/2 or by the MSS (the step is the smaller). Each of these tests is the sign
  // of one sum of the fields and constants, written so that no two share a partial sum:
  // synthesis makes one carry chain of each, side by side. The constants come first and a
  // difference is a sum with the complement (x - y = x + ~y + 1): a partial sum such as
  // RCV.ADV - RCV.NXT, which the design computes elsewhere too, was merged with the other
  // (Yosys opt_merge) and, used twice, kept as a chain of its own in series with the rest
  // (4.04 ns into the advertised edge at 512 bits, stop 52). Likewise a prefix that two
  // calls share: the fast path's two calls differ only in RCV.NXT, so the window test
  // takes RCV.NXT before RCV.ADV (3.73 ns, stop 53), and the ring tests take RX_READ
  // last: the fast path tests the record read's three candidates with one copy each, and
  // RX_READ (the engine's, the same in all three) after the constants was such a prefix
  // (3.30 ns, stop 56). (With the candidates summed
  // first and their distances to RCV.ADV after, then compared with the step, three carry
  // chains were in series: the fast path's advertised edge, 4.31 ns at 512 bits and 6.33
  // ns at 64 bits behind the read pointer's LUT RAM, stop 51; the function alone between
  // registers, 3.56 -> 2.74 ns in the cell-delay model.)
  // The inputs keep the receiver's distances: RCV.NXT - rx_read in [0, ring], RCV.ADV -
  // rx_read in [-1, ring] and RCV.ADV - RCV.NXT in [-ring/2 - 2, max_win] (the core's
  // SVA checks tighter ones), so each test's sum is summed in ring width (neg_in_ring: 18
  // bits up to 64 KiB instead of 32; 3.40 -> 3.06 ns for the fast path's two calls behind
  // a record's 3:1 read choice, alone).
  // the two candidates for the edge and which one is nearer
  typedef struct packed {
    logic [31:0] ring;       // rx_read + ring_bytes: the ring's end
    logic [31:0] win;        // RCV.NXT + max_win: the window field's end
    logic        win_caps;   // the window field's end comes first
  } adv_edges_t;
  function automatic adv_edges_t adv_edges(input logic [31:0] rcv_nxt, rx_read, ring_bytes, max_win);
    adv_edges_t e;
    e.ring = rx_read + ring_bytes;
    e.win = rcv_nxt + max_win;
    e.win_caps = neg_in_ring(32'(1) + max_win - ring_bytes + rcv_nxt + ~rx_read, ring_bytes);  // win - ring < 0
    return e;
  endfunction
  function automatic logic adv_edge_moves(input logic [31:0] rcv_adv, rcv_nxt, rx_read,
                                          input logic [15:0] mss, input logic dup,
                                          input logic [31:0] ring_bytes, max_win);
    logic ring_ahead, win_ahead, ring_half, ring_mss, win_half, win_mss;
    ring_ahead = neg_in_ring(32'(1) - ring_bytes + rcv_adv + ~rx_read, ring_bytes);                      // RCV.ADV < ring
    win_ahead = neg_in_ring(32'(1) - max_win + ~rcv_nxt + rcv_adv, ring_bytes);                          // RCV.ADV < win
    ring_half = !neg_in_ring(32'(1) + ring_bytes - (ring_bytes >> 1) + ~rcv_adv + rx_read, ring_bytes);  // ring - RCV.ADV >= ring/2
    ring_mss = !neg_in_ring(32'(2) + ring_bytes + ~rcv_adv + ~32'(mss) + rx_read, ring_bytes);           // ring - RCV.ADV >= MSS
    win_half = !neg_in_ring(32'(1) + max_win - (ring_bytes >> 1) + rcv_nxt + ~rcv_adv, ring_bytes);      // win - RCV.ADV >= ring/2
    win_mss = !neg_in_ring(32'(2) + max_win + rcv_nxt + ~32'(mss) + ~rcv_adv, ring_bytes);               // win - RCV.ADV >= MSS
    return !dup && ring_ahead && win_ahead && (ring_half || ring_mss) && (win_half || win_mss);
  endfunction
  // where a moving edge goes: the nearer of the two ends
  function automatic logic [31:0] adv_edge_target(input adv_edges_t e);
    return e.win_caps ? e.win : e.ring;
  endfunction
  // adv_edge_moves says whether the edge moves: exactly when adv_edge differs from rcv_adv
  // (a move goes right of it), without the 32-bit compare of the edge with rcv_adv. A
  // caller may keep the two parts (adv_edge_moves, adv_edge_target) and choose later.
  function automatic logic [31:0] adv_edge(input logic [31:0] rcv_adv, rcv_nxt, rx_read,
                                           input logic [15:0] mss, input logic dup,
                                           input logic [31:0] ring_bytes, max_win);
    if (adv_edge_moves(rcv_adv, rcv_nxt, rx_read, mss, dup, ring_bytes, max_win))
      return adv_edge_target(adv_edges(rcv_nxt, rx_read, ring_bytes, max_win));
    return rcv_adv;
  endfunction

  // The MSS to send with: the peer's option, 536 without one (RFC 9293 3.7.1), raised to
  // `floor_mss` (a tiny MSS costs a segment per few bytes; `clamped` says it was raised),
  // and never above `our_mss`. Every compare is made on the inputs, side by side, and
  // chosen after (the two compares in series, each behind a choice, were the pre stage's
  // longest path at 512 bits: 3.64 ns in the cell-delay model, stop 56).
  typedef struct packed {
    logic [15:0] mss;
    logic        clamped;
  } mss_t;
  function automatic mss_t peer_mss(input logic [15:0] opt, our_mss, floor_mss);
    mss_t r;
    logic given, below_ours;
    given = opt != '0;
    r.clamped = given ? opt < floor_mss : 16'd536 < floor_mss;
    // the MSS before the cap is below ours
    below_ours = r.clamped ? floor_mss < our_mss : given ? opt < our_mss : 16'd536 < our_mss;
    r.mss = !below_ours ? our_mss : r.clamped ? floor_mss : given ? opt : 16'd536;
    return r;
  endfunction
  // ---- out-of-order reassembly ----
  // Bytes received ahead of RCV.NXT are stored in place in the receive ring (it is addressed
  // by sequence number) and remembered as up to OOO_INTERVALS intervals [lo, hi): the ones
  // that are on come first, in sequence order, disjoint and never adjacent (a gap of at
  // least one byte between two), all past RCV.NXT.
  localparam int unsigned OOO_INTERVALS = 4;
  typedef struct packed {
    logic        on;
    logic [31:0] lo, hi;
  } ooo_iv_t;
  typedef ooo_iv_t [OOO_INTERVALS-1:0] ooo_set_t;
  typedef struct packed {
    logic        store;      // bytes lo .. hi-1 of the segment are new: write them
    logic [31:0] lo, hi;
    logic [31:0] rcv_nxt;    // RCV.NXT after the segment
    logic [31:0] joined;     // stored bytes that joined the stream with it (interval 0)
    logic        evicted;    // the farthest interval was forgotten for a nearer one
    ooo_set_t    set;
  } reasm_t;
  // The segment covers [seg_lo, seg_hi), already cut at the window's right edge, and
  // reaches past RCV.NXT. Its new bytes are the run that starts at the first byte at or
  // after max(seg_lo, RCV.NXT) that is not stored and ends at the next stored byte (or the
  // segment's end): one contiguous write, so a byte stored once is never written again
  // (the first copy wins); bytes past the next stored interval are left to the peer's
  // retransmission. The run joins the intervals it touches. From RCV.NXT it is in order:
  // RCV.NXT moves to its end, or past interval 0 when it reaches it (`joined` bytes). A run
  // that touches no interval opens one, in order of position; with all intervals in use
  // the farthest is forgotten (`evicted`: its bytes come again) if the new one is nearer,
  // else the segment is not stored. Nothing new (a duplicate): store is 0.
  // As the set is in order and apart, every interval is compared with the segment at once
  // (one-hot vectors, the lowest index the nearest; no chain of 32-bit steps): at most one
  // holds the run's start, and then the run starts at its end.
  // reasm_place in two halves, so a pipeline can register between them: the relations of
  // the segment to each interval (reasm_rel: every compare of 32-bit numbers) and the
  // choice on them (reasm_merge: one-hot selection, the new set).
  typedef struct packed {
    logic                     in_order;      // the segment starts at or before RCV.NXT
    logic [OOO_INTERVALS-1:0] holds;         // the interval holds the segment's start
    logic [OOO_INTERVALS-1:0] ends_at;       // the interval ends at the segment's start
    logic [OOO_INTERVALS-1:0] past;          // the interval starts past the run's start, before seg_hi
    logic [OOO_INTERVALS-1:0] nearer;        // the interval starts before the segment
    logic [OOO_INTERVALS-1:0] starts_at_end; // the interval starts at seg_hi
    logic [OOO_INTERVALS-1:0] hi_before_end; // the interval ends before seg_hi
    logic                     nxt_before_end, lo_before_end;  // RCV.NXT, seg_lo before seg_hi
    // from the bits above, so reasm_merge only selects:
    logic [OOO_INTERVALS-1:0] stop;          // the nearest interval past the run's start (one-hot)
    logic [OOO_INTERVALS-1:0] left;          // the interval the run starts at the end of
    logic [OOO_INTERVALS-1:0] right;         // the interval the run ends at the start of
    logic                     ends_ok;       // the run reaches the segment's end before any interval
  } reasm_rel_t;
  // reasm_rel in two steps, so a pipeline can register between them: the compares of
  // 32-bit numbers with stop (reasm_cmp; left, right and ends_ok are 0) and the relations
  // made from their bits (reasm_derive: ORs and choices, which followed the compares'
  // carry chains into the slow path's pre stage, 3.45 ns at 512 bits, stop 54). stop, the
  // priority of past (whose compares are the shallow ones), is made with the compares
  // since stop 71: in the second stage it headed its deepest path (abc9: 10 LUT levels
  // into the place stage); right, made there too, was the pre stage's slowest (3.22 ns).
  function automatic reasm_rel_t reasm_cmp(input ooo_set_t set, input logic [31:0] rcv_nxt, seg_lo, seg_hi);
    reasm_rel_t r = '0;
    r.in_order = !seq_lt(rcv_nxt, seg_lo);
    // In order the run starts at RCV.NXT, which every interval lies past: none holds it.
    for (int k = 0; k < OOO_INTERVALS; k++) begin
      r.holds[k]         = !r.in_order && set[k].on && seq_le(set[k].lo, seg_lo) && seq_lt(seg_lo, set[k].hi);
      r.ends_at[k]       = !r.in_order && set[k].on && set[k].hi == seg_lo;
      r.past[k]          = set[k].on && (r.in_order || seq_lt(seg_lo, set[k].lo)) && seq_lt(set[k].lo, seg_hi);
      r.nearer[k]        = set[k].on && seq_lt(set[k].lo, seg_lo);
      r.starts_at_end[k] = set[k].on && set[k].lo == seg_hi;
      r.hi_before_end[k] = seq_lt(set[k].hi, seg_hi);
    end
    r.nxt_before_end = seq_lt(rcv_nxt, seg_hi);
    r.lo_before_end = seq_lt(seg_lo, seg_hi);
    for (int k = 0; k < OOO_INTERVALS; k++) begin   // the lowest set bit of past
      r.stop[k] = r.past[k];
      for (int j = 0; j < k; j++) r.stop[k] &= !r.past[j];
    end
    return r;
  endfunction
  function automatic reasm_rel_t reasm_derive(input reasm_rel_t cmp);
    reasm_rel_t r = cmp;
    r.left = r.holds | r.ends_at;
    // the nearest past its start, or one that starts right at the segment's end
    r.right = r.stop != '0 ? r.stop : r.starts_at_end;
    r.ends_ok = r.holds != '0 ? (r.holds & r.hi_before_end) != '0
              : r.in_order ? r.nxt_before_end : r.lo_before_end;
    return r;
  endfunction
  function automatic reasm_rel_t reasm_rel(input ooo_set_t set, input logic [31:0] rcv_nxt, seg_lo, seg_hi);
    return reasm_derive(reasm_cmp(set, rcv_nxt, seg_lo, seg_hi));
  endfunction
  // reasm_merge in two steps, so that no 32-bit value passes through a chain of choices:
  // reasm_pick runs the rule on the relations alone and says, for every 32-bit output, which
  // input it is (a one-hot reasm_src_t over the intervals' bounds, the segment's ends and
  // RCV.NXT; '0 for zero); reasm_merge then takes each output as one AND-OR of the inputs.
  // The choice is a function of the relations only, so in a pipeline that registers them
  // it runs beside the read of the set, and each value passes one selection, not a chain.
  localparam int unsigned REASM_SRC = 2 * OOO_INTERVALS + 3;
  localparam int unsigned SRC_SEG_LO = 2 * OOO_INTERVALS, SRC_SEG_HI = SRC_SEG_LO + 1,
                          SRC_RCV_NXT = SRC_SEG_LO + 2;
  typedef logic [REASM_SRC-1:0] reasm_src_t;   // bit k: set[k].lo, N + k: set[k].hi, then seg_lo, seg_hi, RCV.NXT
  typedef struct packed {
    logic [OOO_INTERVALS:0] on;    // bit k: set[k].on, bit N: 1
    reasm_src_t             lo, hi;
  } reasm_iv_src_t;
  typedef struct packed {
    logic                                    store;
    logic                                    joins;     // interval 0 joins the stream (joined = its length)
    logic                                    evicts;    // the farthest interval is forgotten (evicted if it is on)
    reasm_src_t                              lo, hi, rcv_nxt;
    reasm_iv_src_t [OOO_INTERVALS-1:0]       set;
  } reasm_pick_t;
  // The pick leans on the set's order (reasm_set_ok): at most one interval holds or ends at
  // the segment's start (left is one-hot), at most one is where the run stops (right), and
  // the intervals before the segment come first (nearer is a thermometer code). So every
  // choice is an OR of one-hot bits or a compare of neighbouring bits, not a priority chain
  // or a count.
  function automatic reasm_pick_t reasm_pick(input reasm_rel_t rel);
    localparam int unsigned N = OOO_INTERVALS;
    reasm_pick_t r;
    reasm_iv_src_t [N-1:0] set;
    reasm_src_t lo, hi, start_hi, left_lo, right_hi, stop_lo;
    logic [N-1:0] after_left;    // the interval lies past the one the run starts at the end of
    logic [N-1:0] first_far;     // the first interval that is not nearer: the new one goes there
    reasm_iv_src_t merged;
    for (int k = 0; k < N; k++)
      set[k] = '{on: (N+1)'(1) << k, lo: REASM_SRC'(1) << k, hi: REASM_SRC'(1) << (N + k)};
    r = '0;
    r.set = set;
    r.rcv_nxt = REASM_SRC'(1) << SRC_RCV_NXT;
    start_hi = '0; left_lo = '0; stop_lo = '0; right_hi = '0;
    for (int k = 0; k < N; k++) begin
      start_hi[N + k] = rel.holds[k];
      left_lo[k] = rel.left[k];
      stop_lo[k] = rel.stop[k];
      right_hi[N + k] = rel.right[k];
    end
    after_left = '0;
    first_far = ~rel.nearer & {rel.nearer[N-2:0], 1'b1};
    for (int k = 1; k < N; k++) after_left[k] = after_left[k-1] || rel.left[k-1];
    // the run is [x, y)
    lo = rel.in_order ? REASM_SRC'(1) << SRC_RCV_NXT : rel.holds != '0 ? start_hi : REASM_SRC'(1) << SRC_SEG_LO;
    hi = rel.stop != '0 ? stop_lo : REASM_SRC'(1) << SRC_SEG_HI;
    // it is empty only when it reaches the segment's end before any interval
    if (rel.stop == '0 && !rel.ends_ok) return r;
    r.lo = lo;
    r.hi = hi;
    r.store = 1'b1;
    if (rel.in_order) begin
      r.rcv_nxt = hi;
      if (rel.right != '0) begin                // it reaches interval 0: that joins too
        r.rcv_nxt = set[0].hi;
        r.joins = 1'b1;
        for (int k = 0; k < N; k++) r.set[k] = k + 1 < N ? set[(k + 1) % N] : '0;
      end
      return r;
    end
    merged = '{on: (N+1)'(1) << N, lo: rel.left != '0 ? left_lo : lo, hi: rel.right != '0 ? right_hi : hi};
    if (rel.left != '0 && rel.right != '0) begin   // it fills the gap between two: one interval
      for (int k = 0; k < N; k++)
        if (rel.left[k]) r.set[k] = merged;
        else if (after_left[k]) r.set[k] = k + 1 < N ? set[(k + 1) % N] : '0;
    end else if (rel.left != '0 || rel.right != '0) begin
      for (int k = 0; k < N; k++) if (rel.left[k] || rel.right[k]) r.set[k] = merged;
    end else begin                              // a new interval, after the nearer ones
      if (rel.nearer[N-1]) begin                // all are nearer: it is the farthest
        r.store = 1'b0;
        return r;
      end
      r.evicts = 1'b1;
      for (int k = 0; k < N; k++)
        r.set[k] = rel.nearer[k] ? set[k] : first_far[k] ? merged : set[(k + N - 1) % N];
    end
    return r;
  endfunction
  // the value a reasm_src_t names
  function automatic logic [31:0] reasm_src_value(input reasm_src_t src, input ooo_set_t set,
                                                  input logic [31:0] rcv_nxt, seg_lo, seg_hi);
    logic [31:0] v;
    v = ({32{src[SRC_SEG_LO]}} & seg_lo) | ({32{src[SRC_SEG_HI]}} & seg_hi) |
        ({32{src[SRC_RCV_NXT]}} & rcv_nxt);
    for (int k = 0; k < OOO_INTERVALS; k++)
      v |= ({32{src[k]}} & set[k].lo) | ({32{src[OOO_INTERVALS + k]}} & set[k].hi);
    return v;
  endfunction
  function automatic reasm_t reasm_merge(input reasm_rel_t rel, input ooo_set_t set,
                                         input logic [31:0] rcv_nxt, seg_lo, seg_hi);
    reasm_pick_t p;
    logic [OOO_INTERVALS:0] on_in;
    reasm_t r;
    p = reasm_pick(rel);
    for (int k = 0; k < OOO_INTERVALS; k++) on_in[k] = set[k].on;
    on_in[OOO_INTERVALS] = 1'b1;
    r.store = p.store;
    r.lo = reasm_src_value(p.lo, set, rcv_nxt, seg_lo, seg_hi);
    r.hi = reasm_src_value(p.hi, set, rcv_nxt, seg_lo, seg_hi);
    r.rcv_nxt = reasm_src_value(p.rcv_nxt, set, rcv_nxt, seg_lo, seg_hi);
    r.joined = p.joins ? set[0].hi - set[0].lo : '0;
    r.evicted = p.evicts && set[OOO_INTERVALS-1].on;
    for (int k = 0; k < OOO_INTERVALS; k++)
      r.set[k] = '{on: (p.set[k].on & on_in) != '0,
                   lo: reasm_src_value(p.set[k].lo, set, rcv_nxt, seg_lo, seg_hi),
                   hi: reasm_src_value(p.set[k].hi, set, rcv_nxt, seg_lo, seg_hi)};
    return r;
  endfunction
  function automatic reasm_t reasm_place(input ooo_set_t set, input logic [31:0] rcv_nxt, seg_lo, seg_hi);
    return reasm_merge(reasm_rel(set, rcv_nxt, seg_lo, seg_hi), set, rcv_nxt, seg_lo, seg_hi);
  endfunction
  // The invariant of a set of intervals (for assertions): the ones on come first, each is
  // non-empty, past RCV.NXT and inside the ring, and each ends at least a byte before the
  // next one starts.
  function automatic logic reasm_set_ok(input ooo_set_t set, input logic [31:0] rcv_nxt, ring_bytes);
    logic ok = 1'b1;
    ooo_iv_t prev = '0;
    for (int k = 0; k < OOO_INTERVALS; k++) begin
      if (set[k].on && !(seq_lt(rcv_nxt, set[k].lo) && seq_lt(set[k].lo, set[k].hi) &&
                         set[k].hi - rcv_nxt <= ring_bytes)) ok = 1'b0;
      if (k > 0 && set[k].on && !(prev.on && seq_lt(prev.hi, set[k].lo))) ok = 1'b0;
      prev = set[k];
    end
    return ok;
  endfunction
  // The set in SYN-RECEIVED (for assertions): empty, or one interval from RCV.NXT, inside
  // the ring (the data a SYN carried, held until the connection is established)
  function automatic logic syn_held_ok(input ooo_set_t set, input logic [31:0] rcv_nxt, ring_bytes);
    logic ok = !set[0].on || (set[0].lo == rcv_nxt && seq_lt(set[0].lo, set[0].hi) && set[0].hi - rcv_nxt <= ring_bytes);
    for (int k = 1; k < OOO_INTERVALS; k++) if (set[k].on) ok = 1'b0;
    return ok;
  endfunction
endpackage
