// SPDX-License-Identifier: Apache-2.0
// toe_tcp_slow_path: every rule of RFC 9293 (with RFC 5961, RFC 6298, RFC 1122) for the
// events the RX fast path (toe_tcp_fast_path) does not take: handshakes (passive and
// active opens, SYN-SENT, simultaneous open; data on a SYN held until the connection is
// established, syn_data_held), closes and TIME-WAIT, resets and RFC 5961's
// challenge ACKs, unacceptable and out-of-order segments (reassembly, toe_tcp_rules_pkg::
// reasm_place), the ACK of a segment that is not fast (window probes' answers, RTT
// samples, the end of a closing state), app opens, closes and aborts, the timers (the
// retransmission, persist, TIME-WAIT, idle and keepalive timers and the delayed ACK,
// when toe_tcp_timer_wheel says a deadline passed), and the wakes of the read and send
// engines.
// It is a serial engine of four stages, one event at a time, run by the core's sequencer
// (toe_tcp_core) on one session's record, which the core holds unchanged through the four
// (no other event of the session can start; the core's finish writes other sessions'):
//   at_pre  (ST_PRE, beside the fast path): the pre stage computes every compare and sum of
//           record, segment and engine values for each case the step may take (`pre`,
//           kept in `pre_reg` in every cycle but at_tail);
//   at_pre2 (ST_PRE2): the payload's place among the out-of-order intervals, the
//           segment's case (seg_plan_of: which rule of RFC 9293 3.10.7 applies, the state
//           after its ACK), the record's state kept (`exec_state`), the RTT estimator's
//           first half;
//   at_exec (ST_EXEC): the step of the event's kind (acceptability, ACK, window update,
//           payload, FIN, timers) chooses the record after it and the segment to send (an
//           ACK, a SYN, a SYN-ACK, an RST, a probe), kept in `step_kept`;
//   at_tail (ST_TAIL): the rules all kinds share (a timer that gave up, TX ring space
//           freed, the end of a connection, where an RST goes, the RTT sample) give
//           `step_tail`, the event's record and outputs, combinationally.
// The core sends data and FINs after it (its size and send steps) and writes the record.
// `clk` registers the stages; `rst` serves the assertions only.
module toe_tcp_slow_path
  import toe_pkg::*;
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;
  import toe_tcp_sess_pkg::*;
  import toe_tcp_step_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned RING_BYTES   = 65536
) (
  input  logic          clk,
  input  logic          rst,
  // the core's sequencer: the stage of this cycle
  input  logic          at_pre, at_pre2, at_exec, at_tail,
  // the event
  input  event_e        ev,
  input  logic [$clog2(MAX_SESSIONS)-1:0] sid,   // the event's session
  input  logic [47:0]   rx_base,          // its RX ring's base address (toe_tcp_pkg::ring_base)
  input  tcp_seg_t      seg,              // EV_SEG: the segment
  input  logic [31:0]   seg_end,          // SEG.SEQ + payload length
  input  logic [31:0]   seg_last,         // SEG.SEQ + SEG.LEN - 1 (SYN and FIN counted)
  input  logic          found,            // the record is the event's session (a segment's: holds its tuple)
  input  logic          new_sess,         // a SYN to a listened port got a new session
  input  logic          listening,        // the segment's port is listened
  input  logic          capped,           // a SYN refused: half-open sessions at the cap
  input  tcp_open_req_t open_req,         // EV_OPEN: the app's request
  input  logic [15:0]   open_lport,       // and the local port the session table gave it
  input  logic          close_rst,        // EV_CLOSE: an abort
  input  logic [31:0]   isn,              // a new session's ISN (RFC 6528)
  // the session's record and the engines' fields read with it
  input  sess_t         rec,
  input  logic [31:0]   tx_app,           // toe_tcp_tx_req's TX_APP, TX_WANT, sendable
  input  logic [16:0]   tx_want,
  input  logic          sendable,
  input  logic [31:0]   rx_read,          // toe_tcp_rx_read's RX_READ, RX_REQ, readable
  input  logic [31:0]   rx_req,
  input  logic          readable,
  input  logic [31:0]   rx_done,          // toe_tcp_rx_deliver's RX_DONE
  input  logic [31:0]   now_us,
  input  proto_cfg_t    cfg,
  output pre_t          pre,              // the pre stage, in at_pre (the fast path reads rd_wake_ack)
  output pre_t          pre_reg,          // kept (not in at_tail)
  output step_t         step_kept,        // the step of the event's kind, kept in at_exec
  output step_t         step_tail         // the event's record and outputs, in at_tail
);
  localparam logic [31:0] RING = 32'(RING_BYTES);
  localparam logic [31:0] MAX_WIN = RING_BYTES > 65535 ? 32'd65535 : 32'(RING_BYTES);
  // delayed-ACK times an ACK may wait beyond the first for the session's data in the send
  // queue (which carries it): at most (1 + DACK_DEFERS) x cfg.delack_us in all
  localparam logic [2:0] DACK_DEFERS = 3'd7;

  sess_t s;
  tcp_seg_t g;
  assign s = rec;
  assign g = seg;
  rtt_t s_rtt;   // the record's RTT estimator (toe_tcp_rules_pkg::rtt_sample)
  assign s_rtt = '{srtt8: s.srtt8, rttvar4: s.rttvar4, rto: s.rto};

  // The end of a connection that never got established: the app that opened it is told
  // FAILED (also after a simultaneous open, via SYN-RCVD); a passive one was never announced.
  function automatic logic [2:0] open_fail_tag(input sess_t x);
    return x.active ? 3'(NOTIF_FAILED) : RING_TAG_NONE;
  endfunction
  // a read opened the window by a step: the edge moves (RCV.NXT unchanged, so a hole's
  // duplicate ACK is what keeps it)
  function automatic logic read_moves_edge(input sess_t x, input logic [31:0] rd);
    return adv_edge_moves(x.rcv_adv, x.rcv_nxt, rd, x.mss, x.ooo[0].on, RING, MAX_WIN);
  endfunction

  // ---------------- the pre stage (at_pre) ----------------
  // Every rule that compares or adds fields of the record, the segment and the engines'
  // values is computed at once, for each case the step may take, and kept in pre_reg. The
  // record and the segment are the same in all four stages; pre_reg is taken again in each
  // (RX_DONE and the time move; the read and send engines' values are held with the record
  // since stop 72) but holds in at_tail, so that those the tail uses are the
  // ones it passes on.
  wire seg_past_adv = seq_lt(s.rcv_adv, seg_end);   // the segment ends past the window
  always_comb begin
    logic [31:0] tx_app_p, rx_read_p, wnd_diff;
    tx_app_p = tx_app;
    rx_read_p = rx_read;
    pre.found = found;
    pre.no_conn = !found || s.state == FREE || s.state == CLOSED;
    pre.payload = g.length != '0;
    pre.seglen = 32'(g.length) + 32'(g.flags[F_SYN]) + 32'(g.flags[F_FIN]);
    // RCV.WND's compares are made against its right edge (seq_in_window), not the difference
    wnd_diff = s.rcv_adv - s.rcv_nxt;
    pre.wnd = pos(wnd_diff);
    pre.ack_kind = ack_check(g.ack, s.snd_una, s.snd_max, s.max_sndwnd);
    pre.acceptable = seg_acceptable(g.seq, seg_last, g.length == '0 && !g.flags[F_SYN] && !g.flags[F_FIN],
                                    s.rcv_nxt, s.rcv_adv);
    pre.syn_in_window = seq_in_window(g.seq, s.rcv_nxt, s.rcv_adv);
    pre.syn_repeated = g.seq + 1 == s.rcv_nxt;
    pre.at_rcv_nxt = g.seq == s.rcv_nxt;
    pre.ack_not_max = g.ack != s.snd_max;
    pre.ack_past_nxt = seq_lt(s.snd_nxt, g.ack);
    pre.una_is_max = s.snd_una == s.snd_max;
    pre.wnd_ok = wnd_update_ok(s.snd_una, s.snd_wl1, s.snd_wl2, g.seq, g.ack);
    pre.wnd_grows = g.window > s.max_sndwnd;
    // SND.UNA after the ACK: SEG.ACK when it acknowledges new data
    pre.fin_acked = s.fin_sent && (pre.ack_kind == ACK_NEW ? !pre.ack_not_max : pre.una_is_max);
    pre.sample = s.rtt_on && seq_lt(s.rtt_seq, g.ack);
    pre.rtt_r = rtt_sample_us(now_us, s.rtt_t0);
    pre.at_rto = now_us + s.rto;
    pre.syn_take = umin(32'(g.length), MAX_WIN);
    pre.peer = peer_mss(g.mss, cfg.mss, cfg.mss_min);
    pre.reasm_hi = seg_past_adv ? s.rcv_adv : seg_end;
    // reasm_place's compares, for either end the segment can have (both at once, then the
    // one reasm_hi takes), so no compare waits for reasm_hi
    pre.reasm_cmp = seg_past_adv ? reasm_cmp(s.ooo, s.rcv_nxt, g.seq, s.rcv_adv)
                                 : reasm_cmp(s.ooo, s.rcv_nxt, g.seq, seg_end);
    pre.in_order = seq_le(g.seq, s.rcv_nxt) && seq_lt(s.rcv_nxt, seg_end) && !wnd_diff[31] &&
                   s.rcv_adv != s.rcv_nxt;
    pre.ooo_ahead = !g.flags[F_FIN] && seq_lt(s.rcv_nxt, g.seq) && seq_in_window(g.seq, s.rcv_nxt, s.rcv_adv);
    pre.fin_at_nxt = seg_end == s.rcv_nxt;
    pre.past_adv = seg_past_adv;
    pre.seg_short = g.length < s.mss;
    pre.ooo0_at_end = s.ooo[0].hi == seg_end;
    // RCV.WND < ring/2 (wnd_below_half)
    pre.rd_wake_ack = wnd_below_half(s.rcv_adv, s.rcv_nxt, RING) &&
                      read_moves_edge(s, rx_read_p);
    pre.tmr_due = seq_le(s.tmr_at, now_us);
    pre.dack_due = seq_le(s.dack_at, now_us);
    pre.retry_max = s.retries >= cfg.max_retries;
    pre.retry_give_up = s.retries >= (s.state == SYN_RCVD ? cfg.synrcvd_retries : cfg.max_retries);
    pre.probes_max = s.retries >= cfg.keepalive_probes;
    pre.data_waiting = data_waiting(s);
    pre.wants_window = wants_window(s);
    // the doubled RTO within rto_max (RFC 6298 5.5), and its deadline: both deadlines side
    // by side, chosen by the compare (the sum behind the choice was a chain in series)
    pre.rto_backoff = s.rto << 1 < cfg.rto_max_us ? s.rto << 1 : cfg.rto_max_us;
    pre.at_rto_backoff = s.rto << 1 < cfg.rto_max_us ? now_us + (s.rto << 1) : now_us + cfg.rto_max_us;
    // the free TX space and TX_WANT's fit (toe_tcp_pkg::tx_ring_free / tx_ring_fits, the
    // request engine's rule), with SND.UNA and with SEG.ACK, which is used when it is new
    // (then SND.UNA < SEG.ACK <= SND.MAX <= TX_APP + 1)
    pre.free_una = tx_ring_free(s.snd_una, tx_app_p, RING);
    pre.free_ack = tx_ring_free(g.ack, tx_app_p, RING);
    pre.space_una = tx_ring_fits(s.snd_una, tx_app_p, 32'(tx_want), RING);
    pre.space_ack = tx_ring_fits(g.ack, tx_app_p, 32'(tx_want), RING);
    pre.rx_quiet = rx_read_p == rx_req;
    pre.read_all = rx_read_p == rx_done;
    pre.rx_readable = readable;
    pre.tx_app_fixed = !sendable;
    pre.rx_read = rx_read_p;
    pre.tx_app = tx_app_p;
    pre.tx_want = tx_want;
    // the timer event's case, decided here on the record so that the step reads one
    // registered choice (its chain of state compares was 13-15 LUT levels into step_kept)
    pre.tmr_fires = s.state != FREE && s.state != CLOSED && s.tmr_on && pre.tmr_due;
    pre.dack_fires = s.state != FREE && s.state != CLOSED && s.dack_on && pre.dack_due;
    pre.tmr_case = s.state == TIME_WAIT ? TMR_TIME_WAIT :
                   s.snd_wnd == '0 && s.state != SYN_SENT && s.state != SYN_RCVD &&
                   (!pre.una_is_max || pre.wants_window) ? TMR_PERSIST :
                   pre.una_is_max && pre.data_waiting ? TMR_OVERRIDE :
                   pre.una_is_max ? TMR_IDLE : TMR_RETRANS;
    pre.idle_fw2 = s.state == FIN_WAIT_2 && cfg.fin_wait_2_us != '0;
    pre.idle_keepalive = is_estab(s.state) && cfg.keepalive_idle_us != '0;
  end
  always_ff @(posedge clk) if (!at_tail) pre_reg <= pre;
  // ST_PRE2 (the slow path's second pre stage): where the payload goes among the stored
  // out-of-order intervals (reasm_place: its compares and stop in the pre stage,
  // reasm_cmp; the relations on them and the choice here, reasm_derive and reasm_merge)
  // and what follows from it. ack_at_once and
  // fin_at_reasm hold for an in-order segment (pre.in_order), the only case that reads
  // them, and are taken from the pre stage's bits, not from the run's ends: in order the
  // run starts at RCV.NXT and is not empty, and every stored interval lies past RCV.NXT. So
  // the segment is taken whole (take = SEG.LEN, nothing joined) exactly when it starts at
  // RCV.NXT, ends inside the window and no interval starts at or before its end (rel.right:
  // one that starts before the end stops the run, one that starts at it joins); and
  // RCV.NXT then ends at the segment's end exactly when interval 0 does (one joined) or
  // the window does not cut it (none joined).
  typedef struct packed {
    reasm_t      reasm;
    logic        ack_at_once;          // in order: not taken whole, or shorter than MSS
    logic        ooo_store;
    logic        fin_at_reasm;         // in order: RCV.NXT after the segment is its end
  } place_t;
  place_t place, place_reg;
  always_comb begin
    reasm_rel_t rel;
    rel = reasm_derive(pre_reg.reasm_cmp);
    place.reasm = reasm_merge(rel, s.ooo, s.rcv_nxt, g.seq, pre_reg.reasm_hi);
    place.ack_at_once = !pre_reg.at_rcv_nxt || pre_reg.past_adv || rel.right != '0 || pre_reg.seg_short;
    place.ooo_store = pre_reg.ooo_ahead && place.reasm.store;
    place.fin_at_reasm = rel.right != '0 ? pre_reg.ooo0_at_end : !pre_reg.past_adv;
  end
  always_ff @(posedge clk) if (at_pre2) place_reg <= place;
  // queues and the post stage. The fast path's event gives its own outputs in ST_PRE.
  // every output's value when the step does not set it
  step_t step_init;
  assign step_init = step_none(s, g, SID_W'(sid), rx_base);

  // A new session (a passive open's SYN-RECEIVED, an active open's SYN-SENT): its tuple, our
  // SYN sent (SND.UNA = ISS, SND.NXT = SND.MAX = ISS + 1; TX_APP after it) and its
  // retransmission timer at the initial RTO; every other field zero
  function automatic step_t session_opens(input step_t x, input tcp_state_e st, input logic [31:0] remote_ip,
                                          input logic [15:0] remote_port, local_port);
    step_t y = x;
    y.ns = '0;
    y.ns.state = st;
    {y.ns.remote_ip, y.ns.remote_port, y.ns.local_port} = {remote_ip, remote_port, local_port};
    y.ns.snd_una = isn;
    y.ns.snd_nxt = isn + 1;
    y.ns.snd_max = isn + 1;
    y.tx_init = 1'b1;
    y.ns.tx_done = isn + 1;
    y.ns.rto = cfg.rto_init_us;
    y.ns.tmr_on = 1'b1;
    y.ns.tmr_at = now_us + cfg.rto_init_us;
    return y;
  endfunction
  // The peer's SYN taken (a passive open, or the SYN an active open gets): the receive side
  // starts after it, with the peer's MSS (clamped) and the full window advertised
  function automatic step_t peer_syn_taken(input step_t x);
    step_t y = x;
    y.ns.rcv_nxt = g.seq + 1;
    y.rx_init = 1'b1;
    y.rx_first = g.seq + 1;
    y.ns.rcv_adv = g.seq + 1 + MAX_WIN;
    y.ns.mss = pre_reg.peer.mss;
    y.count.mss_clamp = pre_reg.peer.clamped;
    return y;
  endfunction
  // Data a SYN carries without an ACK (a passive open's SYN, or the peer's SYN in a
  // simultaneous open) is queued "for processing after the ESTABLISHED state has been
  // reached" (RFC 9293 3.10.7.2, 3.10.7.3): stored in the ring from RCV.NXT, up to the
  // window our SYN-ACK offers, with no one told, and held as out-of-order interval 0
  // starting at RCV.NXT (which only SYN-RECEIVED has: anywhere else the intervals lie
  // past RCV.NXT). Meanwhile only the SYN is acknowledged. The ACK that establishes the
  // connection joins it to the stream (step_ack).
  function automatic step_t syn_data_held(input step_t x);
    step_t y = x;
    if (pre_reg.payload) begin
      y.steer_accept = 1'b1;
      y.do_rxw = 1'b1;
      y.rxw.tag = RING_TAG_NONE;
      y.rxw.offset = g.seq + 1;
      y.rxw.length = 17'(pre_reg.syn_take);
      y.ns.ooo[0] = '{on: 1'b1, lo: g.seq + 1, hi: g.seq + 1 + pre_reg.syn_take};
    end
    return y;
  endfunction
  // TIME-WAIT begins (our FIN acknowledged after the peer's, or the peer's after ours): its
  // timer runs, and the end marker tells the app CLOSED
  function automatic step_t time_wait_begins(input step_t x);
    step_t y = x;
    y.ns.state = TIME_WAIT;
    y.ns.tmr_on = 1'b1;
    y.ns.tmr_at = now_us + cfg.time_wait_us;
    y.rto_sampled = 1'b0;
    y.end_marker = 1'b1;
    y.end_tag = 3'(NOTIF_CLOSED);
    return y;
  endfunction
  // The record's state as the slow step and the tail read it: kept in ST_PRE2 (the record
  // stays through ST_TAIL), so their many state compares start at a flip-flop, not behind
  // the record read's forward (the fast path, in ST_PRE, does not read it)
  tcp_state_e exec_state;
  always_ff @(posedge clk) if (at_pre2) exec_state <= s.state;
  // The case a received segment's step takes (RFC 9293 3.10.7) and, for the ACK of a
  // synchronized segment (SEG_ACK), the state after it and whether its payload and FIN are
  // taken: decided in ST_PRE2 on the record's state and pre_reg, and kept, so that the step
  // in ST_EXEC reads registered choices instead of a chain of compares (the chain was 12
  // LUT levels into step_kept at 512 bits, stop 44). pre_reg's values in ST_PRE2 (from
  // ST_PRE) are those of ST_EXEC for every field read here: they are functions of the
  // record and the segment, which stay (SVA below).
  typedef enum logic [3:0] {
    SEG_NEW,            // a SYN to a listened port, new session: passive open
    SEG_LISTEN,         // no session, port listened (RFC 9293 3.10.7.2)
    SEG_NO_CONN,        // no session, port not listened (3.10.7.1)
    SEG_SYN_FIN,        // SYN-SENT: a SYN+FIN, dropped (cfg.drop_synfin)
    SEG_SYN_SENT,       // SYN-SENT (3.10.7.3)
    SEG_SYN_REPEATED,   // SYN-RCVD: the peer repeats its SYN (our SYN-ACK was lost)
    SEG_UNACCEPTABLE,   // synchronized: not acceptable
    SEG_RST,            // synchronized: acceptable, RST
    SEG_SYN_RESET,      // synchronized: an in-window SYN resets (RFC 793, !cfg.rfc5961_syn)
    SEG_SYN_CHALLENGE,  // synchronized: a SYN gets a challenge ACK (RFC 5961 4.2)
    SEG_NO_ACK,         // synchronized: neither RST, SYN nor ACK, dropped
    SEG_ACK             // synchronized: the ACK, payload and FIN (step_ack)
  } seg_case_e;
  // the answer to an ACK that is not taken (RFC 9293 3.10.7.4)
  typedef enum logic [1:0] {
    ACK_TAKEN,          // taken
    ACK_REFUSED_RST,    // SYN-RCVD: not a new ACK, reset
    ACK_REFUSED_ACK     // it acknowledges something never sent, or is older than SND.UNA -
                        // MAX.SND.WND (RFC 5961 5.2): an ACK, the segment dropped
  } ack_answer_e;
  typedef struct packed {
    seg_case_e   seg_case;
    ack_answer_e ack_answer;
    tcp_state_e  st_ack;    // a synchronized state after the ACK of a segment that goes on
    logic        goes_on;   // the ACK does not end the step: payload and FIN are taken
    logic        held_joins;  // it establishes the connection, and data its SYN carried joins
  } seg_plan_t;
  function automatic seg_plan_t seg_plan_of(input tcp_state_e st, input pre_t p);
    seg_plan_t y;
    y.seg_case = new_sess ? SEG_NEW :
                 p.no_conn && listening ? SEG_LISTEN :
                 p.no_conn ? SEG_NO_CONN :
                 st == SYN_SENT && g.flags[F_SYN] && g.flags[F_FIN] && cfg.drop_synfin ? SEG_SYN_FIN :
                 st == SYN_SENT ? SEG_SYN_SENT :
                 st == SYN_RCVD && g.flags[F_SYN] && !g.flags[F_ACK] && p.syn_repeated ? SEG_SYN_REPEATED :
                 !p.acceptable ? SEG_UNACCEPTABLE :
                 g.flags[F_RST] ? SEG_RST :
                 g.flags[F_SYN] && !cfg.rfc5961_syn && st != SYN_RCVD && p.syn_in_window ? SEG_SYN_RESET :
                 g.flags[F_SYN] ? SEG_SYN_CHALLENGE :
                 !g.flags[F_ACK] ? SEG_NO_ACK : SEG_ACK;
    // the state after an acceptable ACK (RFC 9293 3.10.7.4; SYN-RCVD: a new one, else the
    // RST below)
    y.st_ack = st;
    unique case (st)
      SYN_RCVD: y.st_ack = ESTABLISHED;
      FIN_WAIT_1: if (p.fin_acked) y.st_ack = FIN_WAIT_2;
      CLOSING: if (p.fin_acked) y.st_ack = TIME_WAIT;
      LAST_ACK: if (p.fin_acked) y.st_ack = CLOSED;
      default: ;
    endcase
    y.ack_answer = st == SYN_RCVD && p.ack_kind != ACK_NEW ? ACK_REFUSED_RST :
                   p.ack_kind == ACK_UNSENT || p.ack_kind == ACK_TOO_OLD ? ACK_REFUSED_ACK : ACK_TAKEN;
    // the ACK ends the step: it is refused, LAST-ACK's FIN is acknowledged (closed), a FIN
    // in TIME-WAIT (ACK, the timer restarts)
    y.goes_on = y.ack_answer == ACK_TAKEN && !(st == LAST_ACK && p.fin_acked) && !(st == TIME_WAIT && g.flags[F_FIN]);
    y.held_joins = st == SYN_RCVD && y.ack_answer == ACK_TAKEN && s.ooo[0].on;   // syn_data_held
    return y;
  endfunction
  seg_plan_t plan_reg;
  always_ff @(posedge clk) if (at_pre2) plan_reg <= seg_plan_of(s.state, pre_reg);
  // The ACK of a segment in a synchronized state (and SYN-RCVD) that is acceptable, has ACK
  // and neither RST nor SYN (RFC 9293 3.10.7.4 from the ACK field on): the ACK, the payload
  // and the FIN. It is computed apart from the step's other cases, which choose it
  // (ack_path), so that its rules are not behind theirs.
  step_t step_ack;
  always_comb begin
    reasm_t reasm;
    logic fin_acked;
    tcp_state_e st_ack;      // a synchronized state after the ACK of a segment that goes on
    logic goes_on;           // the ACK does not end the step: payload and FIN are taken
    logic took;              // in-order payload taken: RCV.NXT moved to reasm.rcv_nxt
    dack_t dack;
    ack_kind_e ack_kind;
    step_t r;
    r = step_init;
    r.do_steer = 1'b1;
    reasm = place_reg.reasm;
    took = 1'b0;
    dack = '0;
    fin_acked = 1'b0;
    ack_kind = pre_reg.ack_kind;
    // the state after an acceptable ACK (seg_plan_of): the ACK step sets it, the payload
    // and FIN steps start from it, when the ACK goes on to them
    st_ack = plan_reg.st_ack;
    goes_on = plan_reg.goes_on;
    // ---- ACK ---- (the state after it is st_ack; the cases below read the state before it)
    if (exec_state == SYN_RCVD && ack_kind == ACK_NEW) begin
      r.do_notif = 1'b1;
      r.notif_kind = NOTIF_NEW;
    end
    if (plan_reg.ack_answer == ACK_REFUSED_RST) begin
      r.send = SEND_RST;
      r.send_seq = g.ack;
    end
    if (plan_reg.ack_answer == ACK_REFUSED_ACK) begin
      r.send = SEND_ACK;
      // an ACK below SND.UNA - MAX.SND.WND gets RFC 5961's challenge ACK (counted as one)
      if (ack_kind == ACK_TOO_OLD) r.count.chall = 1'b1;
      else r.count.wdrop = 1'b1;
    end
    if (plan_reg.ack_answer == ACK_TAKEN) begin
      r.ns = take_ack(r.ns, g, ack_kind == ACK_NEW, !pre_reg.ack_not_max, pre_reg.ack_past_nxt, pre_reg.wnd_ok,
                    pre_reg.wnd_grows, pre_reg.at_rto);
      if (ack_kind == ACK_NEW) begin
        r.una_from_ack = 1'b1;
        if (pre_reg.sample) begin   // RFC 6298 estimator (Karn: one timed segment)
          r.rtt_take = 1'b1;
          r.rto_sampled = 1'b1;     // the timer restarts with the new RTO
          r.ns.rtt_on = 1'b0;
        end
      end
      // an answer to a window or keepalive probe: the peer is alive
      r.heard = 1'b1;
      if (s.snd_wnd == '0 || pre_reg.una_is_max) r.ns.retries = '0;
      fin_acked = pre_reg.fin_acked;
      if (fin_acked) r.ns.tmr_on = 1'b0;
      r.ns.state = st_ack;
      unique case (exec_state)
        CLOSING: if (fin_acked) r = time_wait_begins(r);
        LAST_ACK: if (fin_acked) begin   // closed: the step ends (goes_on is 0)
          r.end_marker = 1'b1;
          r.end_tag = 3'(NOTIF_CLOSED);
        end
        TIME_WAIT: if (g.flags[F_FIN]) begin   // the step ends (goes_on is 0)
          r.ns.tmr_at = now_us + cfg.time_wait_us;
          r.rto_sampled = 1'b0;
          r.send = SEND_ACK;
        end
        default: ;
      endcase
    end
    // ---- data the SYN carried (syn_data_held) ----
    // It joins the stream: RCV.NXT moves past it, and a 0-length RX writer job (no payload
    // of its own) carries it as reassembled bytes, so its completion tells the app of them,
    // after the NEW above; their ACK may wait (RFC 1122 4.2.3.2). The payload of this
    // segment is not taken (the peer sends it again: the ACK goes at once).
    if (plan_reg.held_joins) begin
      r.do_rxw = 1'b1;
      r.rxw.offset = s.rcv_nxt;
      r.rxw.reassembled = 16'(s.ooo[0].hi - s.ooo[0].lo);
      r.ns.rcv_nxt = s.ooo[0].hi;
      r.ns.ooo = '0;
      dack = delayed_ack(r.ns, pre_reg.payload, now_us, cfg.delack_us);
      {r.ns, r.ack_now, r.ack_second} = {dack.x, dack.now, dack.second};
      r.count.wdrop = pre_reg.payload;
    end
    // ---- payload ----
    if (goes_on && pre_reg.payload && !plan_reg.held_joins) begin
      if (st_ack == ESTABLISHED || st_ack == FIN_WAIT_1 || st_ack == FIN_WAIT_2) begin
        // RFC 9293 3.10.7.4: only the new part of a segment is taken, and only what
        // fits the window (the ring writer drops the head and cuts the tail); what
        // is new and where it goes, also ahead of RCV.NXT, is reasm_place
        r.rxw.offset = reasm.lo;
        // (the bytes before the new part and the new bytes, from the registered ends: as
        // differences of the place stage's choices they were its deepest path, 12 LUT levels
        // at stop 48)
        r.rxw.skip = 16'(reasm.lo - g.seq);
        r.rxw.length = 17'(reasm.hi - reasm.lo);
        if (pre_reg.in_order) begin
          // in order: stored up to the first stored interval it reaches, which then
          // joins the stream with it (reassembled); ACK at once (RFC 5681 4.2)
          r.steer_accept = 1'b1;
          r.do_rxw = 1'b1;
          r.rxw.reassembled = 16'(reasm.joined);
          r.ns.rcv_nxt = reasm.rcv_nxt;
          r.ns.ooo = reasm.set;
          took = 1'b1;
          dack = delayed_ack(r.ns, place_reg.ack_at_once, now_us, cfg.delack_us);
          {r.ns, r.ack_now, r.ack_second} = {dack.x, dack.now, dack.second};
        end else begin
          // ahead of RCV.NXT (acceptable, so inside the window): its new bytes are
          // stored in place; a duplicate ACK tells the peer of the gap (RFC 5681
          // 4.2). A duplicate, a FIN ahead, or a new interval farther than all the
          // stored ones while they are all in use is dropped.
          r.ack_now = 1'b1;
          if (place_reg.ooo_store) begin
            r.steer_accept = 1'b1;
            r.do_rxw = 1'b1;
            r.rxw.tag = RING_TAG_NONE;     // not in the stream yet: its completion tells nobody
            r.ns.ooo = reasm.set;
            r.count.ooo = 1'b1;
          end else r.count.wdrop = 1'b1;
        end
      end
    end
    // ---- FIN ----
    if (goes_on && g.flags[F_FIN] && !s.fin_rcvd &&
        (took ? place_reg.fin_at_reasm : plan_reg.held_joins ? pre_reg.ooo0_at_end : pre_reg.fin_at_nxt)) begin
      r.ns.rcv_nxt = (took ? reasm.rcv_nxt : plan_reg.held_joins ? s.ooo[0].hi : s.rcv_nxt) + 1;
      r.ns.fin_rcvd = 1'b1;
      r.ack_now = 1'b1;
      unique case (st_ack)
        ESTABLISHED, FIN_WAIT_1: begin
          r.ns.state = st_ack == ESTABLISHED ? CLOSE_WAIT : CLOSING;
          r.end_marker = 1'b1;
          r.end_tag = 3'(NOTIF_PEER_FIN);
          r.peer_fin = 1'b1;
        end
        FIN_WAIT_2: r = time_wait_begins(r);
        default: ;
      endcase
    end
    if (goes_on) r.try_send = 1'b1;
    step_ack = r;
  end

  // the step of the event's kind (step_c), kept for at_tail (step_kept)
  step_t step_c;
  always_comb begin
    logic [31:0] seglen, take;
    logic ack_path;          // the segment's step is step_ack
    step_t r;                // the step's result
    r = step_init;
    seglen = pre_reg.seglen;
    take = '0;
    ack_path = 1'b0;

    unique case (ev)
      // ---- a received segment ----
      EV_SEG: begin
        r.do_steer = 1'b1;
        unique case (plan_reg.seg_case)   // seg_plan_of
          SEG_NEW: begin   // passive open: SYN to a listened port, new session
            r = session_opens(r, SYN_RCVD, g.remote_ip, g.remote_port, g.local_port);
            r.ns.snd_wnd = g.window;
            r.ns.max_sndwnd = g.window;
            r.ns.snd_wl1 = g.seq;
            r.ns.snd_wl2 = isn;
            r = peer_syn_taken(r);
            r = syn_data_held(r);
            r.send = SEND_SYNACK;
            r.count.passive = 1'b1;
          end
          SEG_LISTEN: begin
            // LISTEN (RFC 9293 3.10.7.2): an ACK is answered with <SEQ=SEG.ACK><CTL=RST>; an RST,
            // a FIN/NULL/XMAS probe, a SYN+FIN (drop_synfin) and a SYN refused for want of a
            // session (the peer retries) are dropped
            if (g.flags[F_ACK] && !g.flags[F_RST]) begin
              r.send = SEND_RST;
              r.send_seq = g.ack;
            end else if (g.flags[F_SYN] && g.flags[F_FIN]) r.count.badflags = 1'b1;
            else if (capped) r.count.half_open = 1'b1;
          end
          SEG_NO_CONN: begin
            // no connection: RST unless it is one (RFC 9293 3.10.7.1)
            if (!g.flags[F_RST]) begin
              r.send = SEND_RST;
              if (g.flags[F_ACK]) r.send_seq = g.ack;
              else begin
                r.send_seq = '0;
                r.rst_ack = g.seq + seglen;
                r.rst_with_ack = 1'b1;
              end
            end
          end
          SEG_SYN_FIN: r.count.badflags = 1'b1;
          SEG_SYN_SENT: begin
            if (g.flags[F_ACK] && pre_reg.ack_not_max) begin
              if (!g.flags[F_RST]) begin
                r.send = SEND_RST;
                r.send_seq = g.ack;
              end
            end else if (g.flags[F_RST]) begin
              if (g.flags[F_ACK]) begin
                r.ns.state = CLOSED;
                r.end_marker = 1'b1;
                r.end_tag = 3'(NOTIF_FAILED);
                r.count.fail = 1'b1;
              end
            end else if (g.flags[F_SYN]) begin
              r = peer_syn_taken(r);
              r.ns.snd_wnd = g.window;
              r.ns.max_sndwnd = g.window;
              r.ns.snd_wl1 = g.seq;
              r.ns.snd_wl2 = g.ack;
              if (g.flags[F_ACK]) begin
                r.ns.snd_una = g.ack;
                r.una_from_ack = 1'b1;
                r.ns.state = ESTABLISHED;
                r.ns.retries = '0;
                r.ns.tmr_on = 1'b0;
                if (s.rtt_on) begin
                  r.rtt_take = 1'b1;
                  r.ns.rtt_on = 1'b0;
                end
                r.do_notif = 1'b1;
                r.notif_kind = NOTIF_NEW;
                r.send = SEND_ACK;
                // data on the SYN-ACK is taken, up to the window our SYN offered, and
                // acknowledged with the SYN (RFC 9293 3.10.7.3)
                if (pre_reg.payload) begin
                  take = pre_reg.syn_take;
                  r.steer_accept = 1'b1;
                  r.do_rxw = 1'b1;
                  r.rxw.offset = g.seq + 1;
                  r.rxw.length = 17'(take);
                  r.ns.rcv_nxt = g.seq + 1 + take;
                end
              end else begin
                r.ns.state = SYN_RCVD;   // simultaneous open
                r = syn_data_held(r);
                r.send = SEND_SYNACK;
              end
            end
          end
          SEG_SYN_REPEATED: r.send = SEND_SYNACK;   // our SYN-ACK was lost: the peer repeats its SYN
          // synchronized states (and SYN-RCVD): RFC 9293 3.10.7.4
          SEG_UNACCEPTABLE: begin
            r.count.wdrop = 1'b1;
            if (!g.flags[F_RST]) r.send = SEND_ACK;
            if (exec_state == TIME_WAIT && g.flags[F_FIN]) r.ns.tmr_at = now_us + cfg.time_wait_us;
          end
          SEG_RST: begin
            if (exec_state == TIME_WAIT) begin
              // RFC 1337: an RST does not cut TIME-WAIT short (the session ends once)
            end else if (pre_reg.at_rcv_nxt || !cfg.rfc5961_rst) begin
              r.ns.state = CLOSED;
              r.end_marker = 1'b1;
              r.end_tag = exec_state == SYN_RCVD ? open_fail_tag(s) : 3'(NOTIF_RESET);
              r.count.fail = exec_state == SYN_RCVD;
              r.count.estab_rst = is_estab(exec_state);
            end else begin
              r.send = SEND_ACK;       // RFC 5961 3.2 challenge ACK
              r.count.chall = 1'b1;
            end
          end
          SEG_SYN_RESET: begin
            // RFC 793: an in-window SYN is an error: RST, and the connection is reset (the
            // app of a TIME-WAIT session was told its end already)
            r.send = SEND_RST;
            r.rst_ack = s.rcv_nxt;
            r.rst_with_ack = 1'b1;
            r.ns.state = CLOSED;
            r.count.estab_rst = is_estab(exec_state);
            if (!s.ended) begin
              r.end_marker = 1'b1;
              r.end_tag = 3'(NOTIF_RESET);
            end
          end
          SEG_SYN_CHALLENGE: begin
            r.send = SEND_ACK;         // RFC 5961 4.2 challenge ACK
            r.count.chall = 1'b1;
          end
          SEG_NO_ACK: r.count.badflags = 1'b1;
          default: ack_path = 1'b1;   // SEG_ACK: the ACK of a synchronized segment (step_ack)
        endcase
      end

      // ---- app: active open ----
      EV_OPEN: begin
        r.do_openrsp = 1'b1;
        if (pre_reg.found) begin
          r = session_opens(r, SYN_SENT, open_req.remote_ip, open_req.remote_port, open_lport);
          r.ns.mss = cfg.mss;
          r.ns.rtt_on = 1'b1;
          r.ns.rtt_seq = isn;
          r.ns.rtt_t0 = now_us;
          r.ns.active = 1'b1;
          r.open_ok = 1'b1;
          r.send = SEND_SYN;
          r.send_seq = isn;
          r.count.active = 1'b1;
        end
      end

      // ---- app: close or abort ----
      EV_CLOSE: begin
        if (s.ended && s.orderly && close_rst && exec_state != FREE)
          r.ns.orderly = 1'b0;         // an abort after an orderly end drops the unread data
        else if (exec_state == FREE || exec_state == CLOSED || exec_state == TIME_WAIT || s.ended) r.count.apperr = 1'b1;
        else if (close_rst || exec_state == SYN_SENT) begin
          if (exec_state != SYN_SENT) begin
            r.send = SEND_RST;
            r.count.estab_rst = is_estab(exec_state);
          end
          r.ns.state = CLOSED;
          r.end_marker = 1'b1;
          r.end_tag = 3'(NOTIF_RESET);
        end else begin
          r.ns.close_req = 1'b1;
          r.try_send = 1'b1;
        end
      end

      // ---- the session stopped being sendable (toe_tcp_tx_req): TX_APP is final, so a
      // FIN the app asked for may go now; or the space an app waits for is free (below) ----
      EV_TX_WAKE: r.try_send = 1'b1;

      // ---- completions ----
      EV_TOLD: r.ns.end_told = 1'b1;
      // the app read bytes (toe_tcp_rx_read wakes the session only when the window
      // is under half the ring or the connection waits for reads before its release):
      // a window update when the window opens by a step; the release is checked below
      EV_RD_WAKE: begin
        if (is_estab(exec_state) || exec_state == FIN_WAIT_1 || exec_state == FIN_WAIT_2)
          if (pre_reg.rd_wake_ack) r.ack_now = 1'b1;
      end
      // ---- send queue ----
      EV_SENDQ: begin
        r.ns.in_sendq = 1'b0;
        r.try_send = 1'b1;
      end

      // ---- a deadline passed (timer wheel) ----
      EV_TIMER: begin
        if (pre_reg.tmr_fires) begin
          unique case (pre_reg.tmr_case)
            TMR_TIME_WAIT: begin
              r.ns.state = CLOSED;
              r.ns.tmr_on = 1'b0;
            end
            TMR_PERSIST: begin
              // persist (RFC 9293 3.8.6.1), also with data or a FIN in flight: probe the
              // closed window (an ACK below it elicits its size), with backoff; what was in
              // flight goes again when it opens. Probes are not retransmissions: a peer that
              // answers them keeps the connection (its ACKs reset the count), a silent one
              // is given up.
              if (pre_reg.retry_max) r.gave_up = 1'b1;
              else begin
                r.send = SEND_PROBE;
                r.ns.retries = s.retries + 1'b1;
                r.ns.snd_nxt = s.snd_una;
                r.ns.rtt_on = 1'b0;
                r.ns.rto = pre_reg.rto_backoff;
                r.ns.tmr_at = pre_reg.at_rto_backoff;
              end
            end
            TMR_OVERRIDE: begin
              // data held back by sender SWS avoidance and nothing in flight: send what fits
              r.sws_override = 1'b1;
              r.try_send = 1'b1;
              r.ns.tmr_on = 1'b0;
            end
            TMR_IDLE: begin
              // nothing in flight: the idle timer (FIN-WAIT-2 timeout, keepalive) or none
              if (pre_reg.idle_fw2) r.gave_up = 1'b1;
              else if (pre_reg.idle_keepalive) begin
                if (pre_reg.probes_max) r.gave_up = 1'b1;
                else begin
                  r.send = SEND_PROBE;     // RFC 1122 4.2.3.6: <SEQ=SND.NXT-1>, no data
                  r.ns.retries = s.retries + 1'b1;
                  r.ns.tmr_at = now_us + cfg.keepalive_intvl_us;
                end
              end else r.ns.tmr_on = 1'b0;
            end
            default: begin   // TMR_RETRANS
              if (pre_reg.retry_give_up) r.gave_up = 1'b1;
              else begin
                r.count.retrans = 1'b1;
                r.ns.retries = s.retries + 1'b1;
                r.ns.rto = pre_reg.rto_backoff;
                r.ns.tmr_at = pre_reg.at_rto_backoff;
                r.ns.rtt_on = 1'b0;        // Karn: no samples from retransmitted data
                r.ns.snd_nxt = s.snd_una;  // go back N
                if (exec_state == SYN_SENT || exec_state == SYN_RCVD)
                  r.ns.snd_nxt = s.snd_una + 1;   // the SYN goes again: SND.NXT stays past it
                if (exec_state == SYN_SENT) begin
                  r.send = SEND_SYN;
                  r.send_seq = s.snd_una;
                end else if (exec_state == SYN_RCVD) begin
                  r.send = SEND_SYNACK;
                end else r.try_send = 1'b1;
              end
            end
          endcase
        end else if (pre_reg.dack_fires) begin
          // the delayed ACK rides on the session's data when that waits in the send queue,
          // for up to DACK_DEFERS more delayed-ACK times; else it goes alone. (Both ways,
          // 1024 sessions at 10G: a session's turn in the send queue comes every 1.26 ms,
          // and an ACK alone at 200 us took 5 % of the TX wire.)
          if (s.in_sendq && s.dack_defers != DACK_DEFERS) begin
            r.ns.dack_at = now_us + cfg.delack_us;
            r.ns.dack_defers = s.dack_defers + 1'b1;
          end else r.ack_now = 1'b1;
        end
      end
      // ---- debug snapshot (read-only: writes back what it read) ----
      EV_DBG: r.do_dbg = 1'b1;
      default: ;
    endcase
    step_c = ack_path ? step_ack : r;
  end
  always_ff @(posedge clk) if (at_exec) step_kept <= step_c;
  // RFC 6298 estimator (toe_tcp_rules_pkg::rtt_sample) in three cycles beside the step:
  // the sample in the pre stage (pre_reg.rtt_r), the first half (the new SRTT, the RTTVAR
  // parts) in ST_PRE2 on the record, the second (RTTVAR's sum, the RTO) in ST_EXEC; the
  // tail takes the result when the step took the sample
  rtt_diff_t rtt_diff_reg;
  rtt_t rtt_reg;
  always_ff @(posedge clk) begin
    if (at_pre2) rtt_diff_reg <= rtt_diff(s_rtt, pre_reg.rtt_r);
    if (at_exec) rtt_reg <= rtt_update(rtt_diff_reg, cfg.rto_min_us, cfg.rto_max_us);
  end

  // the tail (at_tail): the rules every kind of event shares, on the step's result
  always_comb begin
    logic [31:0] tx_free;
    logic end_direct;
    step_t t;
    t = step_kept;
    if (t.rtt_take) {t.ns.srtt8, t.ns.rttvar4, t.ns.rto} = rtt_reg;
    if (t.rto_sampled) t.ns.tmr_at = now_us + rtt_reg.rto;
    // ---- a timer gave up (retransmissions, probes, FIN-WAIT-2, keepalive): abort with RST,
    // except a SYN never answered; an open that never got established is told as such ----
    if (t.gave_up) begin
      if (exec_state != SYN_SENT) t.send = SEND_RST;
      t.ns.state = CLOSED;
      t.ns.tmr_on = 1'b0;
      t.end_marker = 1'b1;
      t.end_tag = exec_state == SYN_SENT || exec_state == SYN_RCVD ? open_fail_tag(s) : 3'(NOTIF_RESET);
      t.count.fail = exec_state == SYN_SENT || exec_state == SYN_RCVD;
      t.count.estab_rst = is_estab(exec_state);
    end

    // ---- TX ring space the app waits for: an ACK freed it (NOTIF_TX_SPACE) ----
    // Only a segment frees TX ring space, in an established state that it does not end (a
    // peer's FIN keeps it); there it gives no other notification (NEW comes before the app
    // could have asked, from the states before), so the slot is free. When
    // the TX_WANT was set after this record was read, or the slot was taken, the send
    // engine wakes the session once the space is free (EV_TX_WAKE: no other notification).
    // (TX_APP read with the record may be one request old: the notification is a hint)
    tx_free = t.una_from_ack ? pre_reg.free_ack : pre_reg.free_una;
    if ((ev == EV_SEG || ev == EV_TX_WAKE) && pre_reg.tx_want != '0 && is_estab(exec_state) && !s.close_req &&
        !(t.end_marker && !t.peer_fin) && (t.una_from_ack ? pre_reg.space_ack : pre_reg.space_una)) begin
      t.do_notif = 1'b1;
      t.notif_kind = NOTIF_TX_SPACE;
      t.notif_length = tx_free > 32'hFFFF ? 16'hFFFF : 16'(tx_free);
      t.tx_clear_want = 1'b1;
    end

    // ---- end of the connection: the marker carries the notification ----
    // A connection that ends without having been established never had RX data: its end
    // is told at once (a passive one's to nobody). An established one's end follows its
    // data through the RX writer as a marker, and toe_tcp_rx_deliver tells it. (A peer's FIN
    // on the ACK that establishes a SYN-RCVD session is such data; a new session never ends
    // in its first step.)
    end_direct = t.end_marker && !t.peer_fin && (exec_state == SYN_SENT || exec_state == SYN_RCVD);
    if (t.end_marker) begin
      if (!t.peer_fin) begin   // a peer FIN ends only the receive side
        t.ns.ended = 1'b1;
        t.ns.orderly = t.end_tag == 3'(NOTIF_CLOSED);
      end
      if (end_direct) begin
        if (t.end_tag == RING_TAG_NONE) t.ns.end_told = 1'b1;
        else begin
          t.do_notif = 1'b1;
          t.notif_kind = tcp_notif_kind_e'(t.end_tag);
        end
      end else if (t.do_rxw) t.do_rxw2 = 1'b1;
      else t.do_rxw = 1'b1;
    end
    // ---- an RST for a segment of no connection, or of one not synchronized, goes to the
    // segment's own tuple (the record's may be stale); every other segment to the record's ----
    t.rst_to_seg = t.send == SEND_RST && ev == EV_SEG && (pre_reg.no_conn ||
                                                              exec_state == SYN_SENT || exec_state == SYN_RCVD);
    t.count.rst = t.send == SEND_RST;
    if (t.end_marker && !end_direct && !t.do_rxw2) begin
      t.rxw.length = '0;
      t.rxw.tag = t.end_tag;
    end
    step_tail = t;
  end

`ifndef SYNTHESIS
  // the free TX space's narrow sums are the 32-bit differences' of an established session
  // (and with SEG.ACK when it acknowledges new data); so is the receive window's test
  always @(posedge clk) if (!rst && at_pre && found && is_estab(s.state)) begin
    assert (pre.free_una == RING - (pre.tx_app - s.snd_una) && pre.space_una == (32'(tx_want) <= pre.free_una))
      else $error("toe_tcp_slow_path: session %0d TX space with SND.UNA differs from its difference", sid);
    assert (wnd_below_half(s.rcv_adv, s.rcv_nxt, RING) == (pos(s.rcv_adv - s.rcv_nxt) < (RING >> 1)))
      else $error("toe_tcp_slow_path: session %0d RCV.WND below half the ring differs from its compare", sid);
    if (pre.ack_kind == ACK_NEW)
      assert (pre.free_ack == RING - (pre.tx_app - g.ack) && pre.space_ack == (32'(tx_want) <= pre.free_ack))
        else $error("toe_tcp_slow_path: session %0d TX space with SEG.ACK differs from its difference", sid);
  end
  // the place stage's bits for an in-order segment, from the pre stage, are what the run's
  // ends give: not taken whole (or short), and RCV.NXT after it at its end
  always @(posedge clk) if (!rst && at_pre2 && pre_reg.in_order && pre_reg.payload) begin
    assert (place.ack_at_once == (s.rcv_nxt != g.seq || place.reasm.hi - place.reasm.lo != 32'(g.length) ||
                                  place.reasm.joined != '0 || place.reasm.hi - place.reasm.lo < 32'(s.mss)))
      else $error("toe_tcp_slow_path: session %0d place stage's ack_at_once differs from the run's", sid);
    assert (place.fin_at_reasm == (seg_end == place.reasm.rcv_nxt))
      else $error("toe_tcp_slow_path: session %0d place stage's fin_at_reasm differs from the run's", sid);
  end
  // the kept state is the record's while the step and its tail run
  always @(posedge clk) if (!rst && (at_exec || at_tail))
    assert (exec_state == s.state) else $error("toe_tcp_slow_path: session %0d state changed under the slow step", sid);
  // the segment's case and ACK plan decided in at_pre2 are those of the step's own inputs
  always @(posedge clk) if (!rst && at_exec)
    assert (plan_reg == seg_plan_of(exec_state, pre_reg))
      else $error("toe_tcp_slow_path: session %0d segment plan of at_pre2 differs from the step's inputs", sid);
  // one stage at a time
  always @(posedge clk) if (!rst)
    assert ($onehot0({at_pre, at_pre2, at_exec, at_tail}))
      else $error("toe_tcp_slow_path: stages %b at once", {at_pre, at_pre2, at_exec, at_tail});
`endif
endmodule
