// SPDX-License-Identifier: Apache-2.0
// toe_tcp_send_step: what a slow event sends after its step (toe_tcp_slow_path), when the
// step asked for a send (`try_send`) and chose no segment of its own: data, the FIN, or
// neither, and the timers sending arms. Two cycles, run by the core's sequencer:
//   at_size (the size step): every size and compare on the record `rec` (the step's
//     result, held through both cycles): the send rule (toe_tcp_rules_pkg::send_size:
//     MSS, the data queued, the usable window, sender silly-window avoidance of RFC 1122
//     4.2.3.4 with Nagle, RFC 896, when `nagle`; `sws_override`: the override timer
//     fired), whether the FIN may go, and the persist timer's condition; its sums
//     (send_ends) are taken a cycle before, in at_tail, from the slow step's record
//     `step_rec` (the tail changes none of the fields they read; asserted);
//   the send step (the cycle after at_size; `sent_*` are combinational then): the first
//     that holds of
//     - data, min(MSS, queued, usable window) bytes at SND.NXT, when the send rule lets
//       it go and the command queue is short (`sendq_room`; else the session waits in the
//       send queue, `sent_sendq`): SND.NXT and SND.MAX move over it; a segment that is not
//       a retransmission is timed when none is (RFC 6298 3, Karn); the retransmission
//       timer starts when it is off or nothing was in flight (RFC 6298 5.1) with the
//       retries cleared; more data and window left after it: the send queue;
//     - data held back by the send rule with nothing in flight: the override timer (RFC
//       1122 4.2.3.4), one RTO;
//     - the FIN the app asked for (RFC 9293 3.10.4), after every byte it wrote (TX_APP
//       final, `tx_app_fixed`, all of it in the ring and sent), with a byte of window:
//       ESTABLISHED -> FIN-WAIT-1, CLOSE-WAIT -> LAST-ACK, the retransmission timer as
//       for data;
//     - the FIN again after going back N (SND.NXT at the data's end, SND.MAX past it);
//     - data or a FIN waiting for a zero window with nothing in flight: the persist
//       timer (RFC 9293 3.8.6.1), one RTO, unless it already runs (`persist_before`).
//   Otherwise `sent_rec` is `rec` and the segment is the step's own (`chosen`).
// `clk` registers the steps; `rst` serves the assertions only.
module toe_tcp_send_step
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;
  import toe_tcp_sess_pkg::*;
  import toe_tcp_step_pkg::*;
(
  input  logic        clk,
  input  logic        rst,
  input  logic        at_tail,        // the slow path's tail: the send rule's sums from step_rec
  input  sess_t       step_rec,
  input  logic        at_size,        // the size step, on rec
  input  sess_t       rec,            // the record after the event's step (held through both steps)
  input  send_e       chosen,         // the segment the event step chose (or none)
  input  logic [31:0] chosen_seq,
  input  logic        try_send,       // the step lets data or a FIN go
  input  logic        sws_override,   // the SWS override timer fired: send what fits
  input  logic        tx_app_fixed,   // TX_APP is final (no request can be accepted any more)
  input  logic [31:0] tx_app,
  input  logic        persist_before, // the running timer was the persist timer before the event
  input  logic        nagle,
  input  logic [31:0] now_us,
  input  logic        sendq_room,     // the segment command queue is short: data goes now
  output sess_t       sent_rec,       // the record after the send step
  output send_e       sent_send,      // the segment: the step's own, data or a FIN
  output logic [31:0] sent_seq,
  output logic [15:0] sent_len,
  output logic        sent_sendq      // the session enters the send queue
);
  send_ends_t ends_reg;
  logic max_past_done_reg;   // SND.MAX = TX_DONE + 1 (a FIN was sent after the data)
  always_ff @(posedge clk) if (at_tail) begin
    ends_reg <= send_ends(step_rec.snd_una, step_rec.snd_nxt, step_rec.tx_done, step_rec.snd_wnd,
                          step_rec.max_sndwnd, step_rec.mss);
    max_past_done_reg <= step_rec.snd_max == step_rec.tx_done + 1;
  end
  send_t size_reg;
  logic size_una_is_max_reg,   // nothing in flight: a running timer is the idle or persist timer, not the RTO
        size_nxt_is_max_reg,   // no retransmission: an RTT sample may start
        size_may_send_reg,     // the event asked for a send and the state allows data or a FIN
        size_fin_reg,          // the FIN the app asked for may go (all data sent, window open)
        size_fin_again_reg,    // the FIN goes again after going back
        size_persist_reg;      // the persist timer starts (data waits for a zero window)
  always_ff @(posedge clk) if (at_size) begin
    logic window_open;
    // a FIN needs window like a byte: SND.NXT before the window's end
    window_open = seq_lt(rec.snd_nxt, ends_reg.wnd_end);
    // sender silly-window avoidance and Nagle (toe_tcp_rules_pkg::send_size)
    size_reg <= send_size_at(ends_reg, rec.snd_una, rec.snd_nxt, rec.snd_max, rec.tx_done, rec.max_sndwnd, rec.mss,
                             nagle, sws_override);
    size_una_is_max_reg <= rec.snd_una == rec.snd_max;
    size_nxt_is_max_reg <= rec.snd_nxt == rec.snd_max;
    size_may_send_reg <= try_send && chosen == SEND_NONE && rec.state != FREE &&
                         rec.state != CLOSED && rec.state != SYN_SENT &&
                         rec.state != SYN_RCVD && rec.state != TIME_WAIT;
    size_fin_reg <= rec.close_req && !rec.fin_sent && rec.snd_nxt == rec.tx_done &&
                    tx_app_fixed && rec.tx_done == tx_app && is_estab(rec.state) &&
                    window_open;
    size_fin_again_reg <= rec.fin_sent && rec.snd_nxt == rec.tx_done &&
                          max_past_done_reg && window_open;
    size_persist_reg <= wants_window(rec) && rec.snd_wnd == '0 &&
                        rec.snd_una == rec.snd_max &&
                        (!rec.tmr_on || !persist_before);
  end
  always_comb begin
    send_t sz;
    sz = size_reg;
    sent_rec = rec;
    sent_send = chosen;
    sent_seq = chosen_seq;
    sent_len = '0;
    sent_sendq = 1'b0;
    if (size_may_send_reg) begin
      if (sz.held) begin
        if (size_una_is_max_reg && !sent_rec.tmr_on) begin
          sent_rec.tmr_on = 1'b1;          // nothing in flight brings an ACK: the override timer
          sent_rec.tmr_at = now_us + sent_rec.rto;
        end
      end else if (sz.go && !sendq_room) begin
        // the command queue is long (sendq_room): the session waits in the send queue
        if (!sent_rec.in_sendq) begin
          sent_rec.in_sendq = 1'b1;
          sent_sendq = 1'b1;
        end
      end else if (sz.go) begin   // the queue is short: send now
        sent_send = SEND_DATA;
        sent_seq = sent_rec.snd_nxt;
        sent_len = sz.len;
        if (!sent_rec.rtt_on && size_nxt_is_max_reg) begin
          sent_rec.rtt_on = 1'b1;
          sent_rec.rtt_seq = sent_rec.snd_nxt;
          sent_rec.rtt_t0 = now_us;
        end
        sent_rec.snd_nxt = sz.nxt;
        sent_rec.snd_max = sz.max;
        if (!sent_rec.tmr_on || size_una_is_max_reg) begin
          sent_rec.tmr_on = 1'b1;
          sent_rec.tmr_at = now_us + sent_rec.rto;
          sent_rec.retries = '0;
        end
        if (sz.more && !sent_rec.in_sendq) begin
          sent_rec.in_sendq = 1'b1;
          sent_sendq = 1'b1;
        end
      end else if (size_fin_reg) begin
        sent_send = SEND_FIN;
        sent_seq = sent_rec.snd_nxt;
        sent_rec.snd_nxt = sent_rec.snd_nxt + 1;
        sent_rec.snd_max = sent_rec.snd_nxt;
        sent_rec.fin_sent = 1'b1;
        sent_rec.state = sent_rec.state == ESTABLISHED ? FIN_WAIT_1 : LAST_ACK;
        if (!sent_rec.tmr_on || size_una_is_max_reg) begin
          sent_rec.tmr_on = 1'b1;
          sent_rec.tmr_at = now_us + sent_rec.rto;
          sent_rec.retries = '0;
        end
      end else if (size_fin_again_reg) begin
        sent_send = SEND_FIN;             // FIN retransmission after going back
        sent_seq = sent_rec.snd_nxt;
        sent_rec.snd_nxt = sent_rec.snd_nxt + 1;
      end else if (size_persist_reg) begin
        sent_rec.tmr_on = 1'b1;            // persist timer (replaces an idle timer, keeps its own backoff)
        sent_rec.tmr_at = now_us + sent_rec.rto;
      end
    end
  end

`ifndef SYNTHESIS
  // the size step's sums, taken in at_tail from the step's record, are those of its record
  always @(posedge clk) if (!rst && at_size)
    assert (ends_reg == send_ends(rec.snd_una, rec.snd_nxt, rec.tx_done, rec.snd_wnd, rec.max_sndwnd, rec.mss) &&
            max_past_done_reg == (rec.snd_max == rec.tx_done + 1))
      else $error("toe_tcp_send_step: the size step's sums are not its record's");
  // what is sent in the send step (the cycle after at_size) never passes the window's
  // right edge nor the data queued
  logic at_send;
  always @(posedge clk) at_send <= at_size;
  always @(posedge clk) if (!rst && at_send && sent_send == SEND_DATA && chosen == SEND_NONE)
    assert (seq_le(sent_rec.snd_nxt, sent_rec.tx_done) && seq_le(sent_rec.snd_nxt, rec.snd_una + 32'(rec.snd_wnd)))
      else $error("toe_tcp_send_step: data past the window or past the queued bytes");
`endif
endmodule
