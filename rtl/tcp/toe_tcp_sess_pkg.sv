// SPDX-License-Identifier: Apache-2.0
// toe_tcp_sess_pkg: the per-session state record (sess_t) as the protocol core keeps it,
// its hot and cold parts (the two RAMs: docs/architecture.md, "Hot and cold state") and
// the rules on the record that both the RX fast path (toe_tcp_fast_path) and the slow
// path (toe_tcp_core) apply: an acceptable ACK and the window it gives (take_ack), the
// delayed ACK of an in-order segment (delayed_ack), and the record's tests that data or a
// FIN waits for the peer's window. The rules on numbers alone are toe_tcp_rules_pkg's.
// No state, no clock.
package toe_tcp_sess_pkg;
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;

  // The session record (the core's, one per session)
  typedef struct packed {
    tcp_state_e  state;
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;
    logic [31:0] snd_una, snd_nxt, snd_max, snd_wl1, snd_wl2;
    logic [15:0] snd_wnd;
    logic [15:0] max_sndwnd; // largest window the peer has offered (sender SWS avoidance)
    logic [31:0] tx_done;    // end of TX ring bytes written to memory: toe_tcp_tx_req's,
                             // read with the record (ev_tx_done), not stored in it
    logic [31:0] rcv_nxt;
    logic [31:0] rcv_adv;    // right edge of the window we advertised
    logic [15:0] mss;        // effective send MSS
    logic [31:0] srtt8, rttvar4, rto;   // 8*SRTT, 4*RTTVAR (toe_tcp_rules_pkg::rtt_sample), RTO
    logic        rtt_on;
    logic [31:0] rtt_seq, rtt_t0;
    logic [3:0]  retries;
    logic        tmr_on;
    logic [31:0] tmr_at;     // retransmission / persist / SYN / TIME-WAIT timer
    logic        dack_on;
    logic [31:0] dack_at;
    logic        dack_one;   // one full segment received and not yet acknowledged
    logic [2:0]  dack_defers;  // delayed-ACK times the ACK waited for data in the send queue
    logic        fin_rcvd, fin_sent, close_req, in_sendq, ended;
    logic        end_told;   // the app has taken the final notification (id may be freed)
    logic        active;     // opened by the app (its failure is NOTIF_FAILED, also via SYN-RCVD)
    logic        orderly;    // ended in order (CLOSED): notified data stays readable until read
    ooo_set_t    ooo;        // bytes stored in the ring ahead of RCV.NXT (toe_tcp_rules_pkg::reasm_place)
  } sess_t;

  // The record is kept in two RAMs by what the fast path's events touch (docs/architecture.md,
  // "Hot and cold state"): the hot part, read and written by every event, and the cold
  // part (the tuple, the RTT estimator, how the connection began, the reassembly intervals
  // but the first's start), written by slow events and the reset's init only. The fast path
  // computes the hot part alone (fs) and carries no cold part: its finish takes the tuple
  // from the tuple table (post_tuple_reg), and its write leaves the cold RAM as it was. The
  // multi-level state cache of the 250 000-session paper will hold the hot part, 455 bits,
  // in one 512-bit line. TX_DONE is in neither: toe_tcp_tx_req owns it (record_of's third
  // part, read beside the record).
  typedef struct packed {
    tcp_state_e  state;
    logic [31:0] snd_una, snd_nxt, snd_max, snd_wl1, snd_wl2;
    logic [15:0] snd_wnd, max_sndwnd;
    logic [31:0] rcv_nxt, rcv_adv;
    logic [15:0] mss;
    logic [31:0] rto;
    logic        rtt_on;
    logic [31:0] rtt_seq;
    logic [3:0]  retries;
    logic        tmr_on;
    logic [31:0] tmr_at;
    logic        dack_on;
    logic [31:0] dack_at;
    logic        dack_one;
    logic [2:0]  dack_defers;
    logic        fin_rcvd, fin_sent, close_req, in_sendq, ended;
    logic        end_told, orderly;   // published with every write (the app-side engines)
    logic        ooo0_on;    // interval 0: does the segment reach it
    logic [31:0] ooo0_lo;
  } hot_t;
  typedef struct packed {
    logic [31:0] remote_ip;
    logic [15:0] remote_port, local_port;
    logic [31:0] srtt8, rttvar4, rtt_t0;
    logic        active;
    logic [31:0] ooo0_hi;
    ooo_iv_t [OOO_INTERVALS-1:1] ooo_rest;
  } cold_t;
  function automatic hot_t hot_of(input sess_t x);
    return '{state: x.state, snd_una: x.snd_una, snd_nxt: x.snd_nxt, snd_max: x.snd_max, snd_wl1: x.snd_wl1,
             snd_wl2: x.snd_wl2, snd_wnd: x.snd_wnd, max_sndwnd: x.max_sndwnd,
             rcv_nxt: x.rcv_nxt, rcv_adv: x.rcv_adv, mss: x.mss, rto: x.rto, rtt_on: x.rtt_on,
             rtt_seq: x.rtt_seq, retries: x.retries, tmr_on: x.tmr_on, tmr_at: x.tmr_at, dack_on: x.dack_on,
             dack_at: x.dack_at, dack_one: x.dack_one, dack_defers: x.dack_defers, fin_rcvd: x.fin_rcvd,
             fin_sent: x.fin_sent, close_req: x.close_req, in_sendq: x.in_sendq, ended: x.ended,
             end_told: x.end_told, orderly: x.orderly, ooo0_on: x.ooo[0].on, ooo0_lo: x.ooo[0].lo};
  endfunction
  function automatic cold_t cold_of(input sess_t x);
    return '{remote_ip: x.remote_ip, remote_port: x.remote_port, local_port: x.local_port, srtt8: x.srtt8,
             rttvar4: x.rttvar4, rtt_t0: x.rtt_t0, active: x.active, ooo0_hi: x.ooo[0].hi,
             ooo_rest: x.ooo[OOO_INTERVALS-1:1]};
  endfunction
  function automatic sess_t record_of(input hot_t h, input cold_t c, input logic [31:0] tx_done);
    sess_t x;
    {x.state, x.snd_una, x.snd_nxt, x.snd_max, x.snd_wl1, x.snd_wl2, x.snd_wnd, x.max_sndwnd} =
      {h.state, h.snd_una, h.snd_nxt, h.snd_max, h.snd_wl1, h.snd_wl2, h.snd_wnd, h.max_sndwnd};
    x.tx_done = tx_done;
    {x.rcv_nxt, x.rcv_adv, x.mss, x.rto, x.rtt_on, x.rtt_seq, x.retries} =
      {h.rcv_nxt, h.rcv_adv, h.mss, h.rto, h.rtt_on, h.rtt_seq, h.retries};
    {x.tmr_on, x.tmr_at, x.dack_on, x.dack_at, x.dack_one, x.dack_defers} =
      {h.tmr_on, h.tmr_at, h.dack_on, h.dack_at, h.dack_one, h.dack_defers};
    {x.fin_rcvd, x.fin_sent, x.close_req, x.in_sendq, x.ended} = {h.fin_rcvd, h.fin_sent, h.close_req, h.in_sendq, h.ended};
    {x.end_told, x.orderly} = {h.end_told, h.orderly};
    {x.remote_ip, x.remote_port, x.local_port, x.srtt8, x.rttvar4, x.rtt_t0} =
      {c.remote_ip, c.remote_port, c.local_port, c.srtt8, c.rttvar4, c.rtt_t0};
    x.active = c.active;
    x.ooo[0] = '{on: h.ooo0_on, lo: h.ooo0_lo, hi: c.ooo0_hi};
    x.ooo[OOO_INTERVALS-1:1] = c.ooo_rest;
    return x;
  endfunction

  function automatic logic is_estab(input tcp_state_e s);
    return s == ESTABLISHED || s == CLOSE_WAIT;
  endfunction
  // app data in the TX ring not sent yet (SND.NXT is past TX_DONE only by our FIN)
  function automatic logic data_waiting(input sess_t x); return seq_lt(x.snd_nxt, x.tx_done); endfunction
  // something that needs peer window: data, or the FIN the app asked for and not yet sent
  function automatic logic wants_window(input sess_t x);
    return data_waiting(x) || (x.close_req && !x.fin_sent);
  endfunction

  // The ACK of an in-order segment (RFC 1122 4.2.3.2): at once for a short or trimmed one
  // (`at_once`), for every second full-sized one (it rides on data waiting in the send
  // queue, see the finish), else after the delayed-ACK time. PSH does not hurry it (as in
  // Linux: on a bulk stream whose every segment has PSH, an ACK per segment took 5.5 % of
  // the engine's own TX wire).
  // An acceptable ACK (RFC 9293 3.10.7.4): a new SEG.ACK moves SND.UNA, restarts the
  // retransmission timer at `rto_at` (stops it when all is acknowledged) and brings SND.NXT
  // along after going back N; a newer segment with an ACK not below SND.UNA (`wnd_ok`:
  // wnd_update_ok) gives the window.
  function automatic sess_t take_ack(input sess_t x, input tcp_seg_t seg, input logic ack_new, all_acked,
                                     past_nxt, wnd_ok, wnd_grows, input logic [31:0] rto_at);
    sess_t y = x;
    if (ack_new) begin
      y.snd_una = seg.ack;
      y.retries = '0;
      y.tmr_on = !all_acked;
      y.tmr_at = rto_at;
      if (past_nxt) y.snd_nxt = seg.ack;
    end
    if (wnd_ok) begin
      y.snd_wnd = seg.window;
      if (wnd_grows) y.max_sndwnd = seg.window;
      y.snd_wl1 = seg.seq;
      y.snd_wl2 = seg.ack;
    end
    return y;
  endfunction
  typedef struct packed {sess_t x; logic now, second;} dack_t;
  function automatic dack_t delayed_ack(input sess_t x, input logic at_once, input logic [31:0] now, delack);
    dack_t d = '{x: x, now: 1'b0, second: 1'b0};
    if (at_once) d.now = 1'b1;
    else if (x.dack_one) d.second = 1'b1;
    else begin
      d.x.dack_one = 1'b1;
      if (!x.dack_on) begin
        d.x.dack_on = 1'b1;
        d.x.dack_at = now + delack;
      end
    end
    return d;
  endfunction
endpackage
