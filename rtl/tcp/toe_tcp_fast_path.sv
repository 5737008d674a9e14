// SPDX-License-Identifier: Apache-2.0
// toe_tcp_fast_path: the RX fast path's verdict and its result, combinational, in the
// cycle after the record's read (the core's ST_PRE). The core writes `next` back and
// pushes the segment's payload job when `fast` is set; otherwise the event takes the slow
// path (toe_tcp_slow_path: pre stage, step and tail), which applies every rule.
//
// Fast (`fast`) are exactly:
//   - a received segment of an ESTABLISHED session (`found`: the record holds its tuple)
//     that the segment alone allows (`seg_may`: ACK set, no SYN, FIN or RST, a window
//     that is not zero, not a new session), with SEG.SEQ = RCV.NXT, SND.UNA =< SEG.ACK =<
//     SND.MAX (an older ACK is the slow path's, for RFC 5961 5.2's check), a payload
//     (`with_data`) that fits below the advertised edge with no bytes
//     held ahead of RCV.NXT, no RTT sample from its ACK, SND.WND not zero, no app waiting
//     for TX ring space (`tx_want` zero), and neither data nor a FIN waiting for the
//     peer's window after it (the send decision is the slow path's);
//   - an app read (`wake_may`) of an ESTABLISHED session.
// Its result (`next`, the record's hot part; the cold part zero: no rule here changes it,
// asserted) is the RFC 9293 3.10.7.4 ACK processing of such a segment: a new ACK moves
// SND.UNA (and SND.NXT, after going back N), clears the retries and restarts the
// retransmission timer at now + RTO (stops it when all is acknowledged); the window is
// taken from an ACK not below SND.UNA under the SND.WL1/WL2 rule (wnd_update_ok; with the
// largest window offered); retries clear when
// nothing was in flight (the answer to a probe); payload moves RCV.NXT to its end and is
// acknowledged as RFC 1122 4.2.3.2 says (delayed_ack): at once when shorter than the MSS
// (`ack_now`), on every second full-sized segment (`ack_second`), else by the delayed-ACK
// timer. An app read gives `ack_now` when it opened the window by a step
// (`rd_wake_ack`, the slow path's pre stage's).
// Timing: the record tests are made once per candidate of the record read (the RAM's
// output register and the core's last two writes, `rec_ram`/`rec_new`/`rec_old`) and
// chosen after (`rec_is_new`, `rec_is_old`), so that the 32-bit compares start at
// registers, not behind the read's 3:1 choice (that choice in front of them led the
// state and the queues' refunds: 3.25 ns at 512 bits, stop 55); `rec` is the chosen
// record, from which the result is computed. `clk`, `rst` and `check` (the cycle the
// verdict counts) serve the assertions only.
module toe_tcp_fast_path
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;
  import toe_tcp_sess_pkg::*;
(
  input  logic        clk,
  input  logic        rst,
  input  logic        check,        // the verdict counts in this cycle (assertions only)
  // the event
  input  logic        is_seg,       // a received segment
  input  logic        is_rd_wake,   // an app read that matters (toe_tcp_rx_read's wake)
  input  logic        seg_may,      // the segment alone allows the fast path (above)
  input  logic        wake_may,     // the app read may take it
  input  logic        with_data,    // the segment carries payload
  input  tcp_seg_t    seg,
  input  logic [31:0] seg_end,      // SEG.SEQ + payload length
  input  logic        found,        // the session's record holds the segment's tuple
  // the session's record as read (TX_DONE the send engine's) and the read's candidates
  input  sess_t       rec,
  input  sess_t       rec_ram, rec_new, rec_old,
  input  logic        rec_is_new, rec_is_old,
  // the engines' values read with it, and the time
  input  logic [16:0] tx_want,      // an app waits for this much TX ring space
  input  logic        rd_wake_ack,  // the app's reads opened the window by a step
  input  logic [31:0] now_us,
  input  logic [31:0] cfg_delack_us,
  output logic        fast,         // the verdict
  output sess_t       next,         // the record after the event: its hot part, the cold part zero
  output logic        ack_now,      // an ACK is due now
  output logic        ack_second    // the ACK of a second full-sized segment is due
);
  // a new ACK, not past SND.MAX
  function automatic logic ack_in(input sess_t x, input tcp_seg_t s);
    return seq_lt(x.snd_una, s.ack) && !seq_lt(x.snd_max, s.ack);
  endfunction
  // wants_window of the record after a segment, with both values of SND.NXT compared at
  // once (the ACK may bring it along)
  function automatic logic waits_after(input sess_t x, input tcp_seg_t s);
    return (ack_in(x, s) && seq_lt(x.snd_nxt, s.ack) ? seq_lt(s.ack, x.tx_done) : data_waiting(x)) ||
           (x.close_req && !x.fin_sent);
  endfunction
  // the verdict's tests of a record, a function of the record and the segment alone
  function automatic logic record_ok(input sess_t x, input tcp_seg_t s, input logic [31:0] s_end,
                                     input logic data);
    logic fits, sample;
    fits = !x.ooo[0].on && seq_le(s_end, x.rcv_adv);
    sample = x.rtt_on && seq_lt(x.rtt_seq, s.ack);
    return x.state == ESTABLISHED && !seq_lt(x.snd_max, s.ack) && !seq_lt(s.ack, x.snd_una) &&
           s.seq == x.rcv_nxt && (!data || fits) &&
           !(ack_in(x, s) && sample) && x.snd_wnd != '0 && !waits_after(x, s);
  endfunction

  wire ok_ram = record_ok(rec_ram, seg, seg_end, with_data);
  wire ok_new = record_ok(rec_new, seg, seg_end, with_data);
  wire ok_old = record_ok(rec_old, seg, seg_end, with_data);
  wire ok_read = rec_is_new ? ok_new : rec_is_old ? ok_old : ok_ram;
  sess_t after;       // the record after the rules, cold part as read
  always_comb begin
    logic ack_new, past_nxt;
    dack_t d;
    ack_new = is_seg && ack_in(rec, seg);
    past_nxt = seq_lt(rec.snd_nxt, seg.ack);
    after = take_ack(rec, seg, ack_new, seg.ack == rec.snd_max, past_nxt,
                     is_seg && wnd_update_ok(rec.snd_una, rec.snd_wl1, rec.snd_wl2, seg.seq, seg.ack),
                     seg.window > rec.max_sndwnd, now_us + rec.rto);
    if (is_seg && rec.snd_una == rec.snd_max) after.retries = '0;
    // an app read that opened the window by a step: a window update
    ack_now = is_rd_wake && rd_wake_ack;
    ack_second = 1'b0;
    // payload: all of it is new and in order, so only a short one is ACKed at once
    d = delayed_ack(after, seg.length < rec.mss, now_us, cfg_delack_us);
    if (with_data) begin
      {after, ack_now, ack_second} = {d.x, d.now, d.second};
      after.rcv_nxt = seg_end;
    end
    fast = (seg_may && found && tx_want == '0 && ok_read) || (wake_may && rec.state == ESTABLISHED);
    // the result is the hot part alone: the cold part is not carried (the core's write
    // leaves the cold RAM as it was)
    next = record_of(hot_of(after), cold_t'('0), after.tx_done);
  end

`ifndef SYNTHESIS
  // the rules change no cold field (the record's split into hot and cold is right)
  always @(posedge clk) if (!rst && check && fast)
    assert (cold_of(after) == cold_of(rec))
      else $error("toe_tcp_fast_path: a fast event changed the cold part of its record");
  // the parallel form of wants_window on the record after the ACK
  always @(posedge clk) if (!rst && check && is_seg)
    assert (waits_after(rec, seg) == wants_window(after))
      else $error("toe_tcp_fast_path: wants_window after the segment differs");
  // the record tests, chosen among the candidates, are those of the record read
  always @(posedge clk) if (!rst && check)
    assert (ok_read == record_ok(rec, seg, seg_end, with_data))
      else $error("toe_tcp_fast_path: the verdict per candidate differs from the record's");
`endif
endmodule
