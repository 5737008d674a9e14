// SPDX-License-Identifier: Apache-2.0
// toe_tcp_core: the TCP protocol engine (RFC 9293, RFC 6298, RFC 5961 challenge ACKs,
// RFC 6528 ISNs). It is the only writer of the per-session state table, and handles one
// event at a time, so the RX and TX sides never race on a session:
//   received segment (looked up ahead by toe_tcp_seg_lookup: it comes with its session,
//   which the core trusts only if the record holds the segment's tuple, checked in the
//   cycle the event starts against a copy of the tuples, tuple_mem), app
//   open/close requests, a session whose app
//   reads matter (toe_tcp_rx_read owns the reads: it wakes the core when the window is
//   under half the ring or an ended connection waits for its reads), a session that
//   stopped being sendable (TX_APP is final then) or has new app bytes in its TX ring
//   (TX_DONE moved; toe_tcp_tx_req owns the send requests and their ring writes' completions),
//   a session from the send queue (more data to send), and a session whose earliest
//   deadline has passed (retransmission/persist/TIME-WAIT/idle timer or delayed ACK),
//   from the timer wheel (toe_tcp_timer_wheel), which the core tells every change of a
//   session's earliest deadline: an idle session costs no event.
// Each event reads the session's state, computes the new state and at most one of each
// output (one segment command, one notification, two RX writer jobs), and writes the
// state back. The record's read is issued in the cycle the event is picked, and the event
// starts when its store (toe_tcp_state_store) answers (two cycles on chip); then:
//   fast path (2 cycles): an in-order segment or pure ACK of an ESTABLISHED session that
//     leaves nothing to send executes in the next cycle (ST_PRE) with its own few rules
//     (ACK, window update, payload, delayed ACK: toe_tcp_fast_path); its verdict is
//     registered, and in the cycle after (the verdict cycle) its finish writes the record
//     back and its queue pushes are made while the next event is picked;
//   slow path (6 cycles, 7 when it may send data or a FIN; +3 for an open's table
//     request and +18 for its SipHash ISN; a passive open's ISN is hashed ahead by
//     toe_tcp_seg_lookup and waited for in ST_PRE2 only if not done; its four stages are
//     toe_tcp_slow_path's, this sequencer runs them): the pre stage (ST_PRE)
//     computes every compare and sum of record, segment and engine values for each
//     case the step may take; the second pre stage (ST_PRE2) places the payload among
//     the out-of-order intervals and decides a segment's case (seg_plan_of: which
//     rule of RFC 9293 3.10.7 applies, the state after its ACK); the event step
//     (ST_EXEC) applies the receive rules of the event's kind with them (acceptability, ACK, window update, payload, FIN,
//     timers) and chooses the segment an event must send (an ACK, a SYN-ACK, an RST,
//     a probe); the tail (ST_TAIL) applies the rules all kinds share (a timer that
//     gave up, TX ring space freed, the end of a connection, the RTT sample) and gives
//     the outputs; the size step computes the send rule's sizes and
//     compares, and the send step decides data or a FIN with them (window, send
//     rules, send queue, the timers sending arms: toe_tcp_send_step); its finish, shared with the fast
//     path, arms the idle timer, sends the ACK that is due, moves the advertised
//     edge, builds the segment command, frees the record of a connection that can be
//     released (its session-table release is queued and served before the next event
//     starts) and writes the record back while the next event is picked, which reads
//     it as written; the arm step, a cycle later, tells the timer wheel a changed
//     deadline.
// RX ring bytes are addressed by sequence number modulo RING_BYTES, and so are TX ring
// bytes; the receive window is the free RX ring space (at most 65535, no window scaling).
// A send request refused with TX_NO_SPACE is remembered (toe_tcp_tx_req's TX_WANT), and the
// ACK that frees that much TX ring space gives NOTIF_TX_SPACE, so an app waits for it
// instead of polling.
// RX writer completions are not events here: toe_tcp_rx_deliver takes them, owns RX_DONE
// (read with the record) and gives the DATA notifications. TX writer completions neither:
// toe_tcp_tx_req takes them and owns TX_DONE (read with the record, as its tx_done). Notifications that must follow
// delivered data (peer FIN, closed, reset) travel as 0-length marker jobs through the RX
// writer and are given by it when the marker completes; the end of a connection that was
// never established (no data) is told at once. A session returns to the free pool when it
// has ended, the app has taken the final notification, no ring job of it is in flight and,
// after an orderly end, the app has read every byte it was notified of.
// A segment ahead of RCV.NXT is stored in place in the ring, up to OOO_INTERVALS intervals
// per session (toe_tcp_rules_pkg::reasm_place), with a duplicate ACK; one that straddles
// RCV.NXT or the window's right edge is trimmed to its new, in-window part.
// Congestion control, fast retransmit, SACK, window scaling and timestamps are stage 3.
module toe_tcp_core
  import toe_pkg::*;
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;
  import toe_tcp_sess_pkg::*;
  import toe_tcp_step_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned RING_BYTES   = 65536,
  parameter int unsigned STATE_READ_WAIT = 0   // toe_tcp_state_store's READ_WAIT: 0 on chip; else each record read waits up to this many cycles more
) (
  input  logic          clk,
  input  logic          rst,
  input  logic [31:0]   now_us,            // free-running microsecond clock
  input  proto_cfg_t    cfg,               // the protocol settings (toe_tcp's cfg_* ports)
  // received segments with their session (toe_tcp_seg_lookup; payload frames are steered by m_steer)
  input  logic          s_seg_valid,
  output logic          s_seg_ready,
  input  tcp_seg_lk_t   s_seg,
  // a looked-up segment's session as the table answers it, before the segment comes: its
  // record's store may fetch it ahead (toe_tcp_state_store's pf_*; a hint)
  input  logic          pf_valid,
  input  sid_t          pf_session,
  // the ISNs of the segments with isn_asked, in their order (toe_tcp_seg_lookup hashes them
  // ahead); one is taken in the tail of each such segment's event
  input  logic          s_isn_valid,
  output logic          s_isn_ready,
  input  logic [31:0]   s_isn,
  // an active open's ISN, from the ISN unit (toe_tcp_isn, shared with the lookup's SYNs and
  // serving the core first): asked for the open's tuple once the table gave its local port
  output logic          isn_req_valid,
  input  logic          isn_req_ready,
  output tcp_isn_req_t  isn_req,
  input  logic          isn_rsp_valid,
  input  logic [31:0]   isn_rsp,
  output logic          m_steer_valid,     // one per segment: 1 = payload goes to the RX writer
  input  logic          m_steer_ready,
  output logic          m_steer_accept,
  // session table: active opens and releases
  output logic          tab_req_valid,
  input  logic          tab_req_ready,
  output tcp_tab_req_t  tab_req,
  input  logic          tab_rsp_valid,
  input  tcp_tab_rsp_t  tab_rsp,
  // application requests
  input  logic          open_req_valid,
  output logic          open_req_ready,
  input  tcp_open_req_t open_req,
  output logic          open_rsp_valid,
  input  logic          open_rsp_ready,
  output tcp_open_rsp_t open_rsp,
  input  logic          close_req_valid,
  output logic          close_req_ready,
  input  tcp_close_req_t close_req,
  output logic          notif_valid,
  input  logic          notif_ready,
  output tcp_notif_t    notif,
  input  logic          told_valid,        // the app has taken this session's final notification
  output logic          told_ready,
  input  sid_t          told_session,
  // ring engines: jobs out, completions in
  output logic          m_rxw_job_valid,
  input  logic          m_rxw_job_ready,
  output tcp_ring_job_t m_rxw_job,
  // The engines that own fields of the session state (RX_DONE, RX_REQ/RX_READ, TX_APP/TX_WANT)
  // read them for the session whose record is read: RX_DONE one cycle later, beside it
  // (rec_rd_session); the read and send engines' in two cycles, as the record itself
  // (rec_rd2_session, rec_rd2_hold). The read and send engines are written with every
  // record the post stage writes
  output sid_t          rec_rd_session,    // the session whose record is read (one-cycle reads)
  output sid_t          rec_rd2_session,   // the record's read address (two-cycle reads)
  output logic          rec_rd2_hold,      // the record read's hold (its output stays)
  output logic          post_op_valid,     // a record written (or the reset's init of a session)
  output sid_t          post_op_session,
  // RX delivery (toe_tcp_rx_deliver): takes the RX writer's completions and owns RX_DONE
  output logic          rxd_init_valid,    // a new connection's RX_DONE
  output sid_t          rxd_init_session,
  output logic [31:0]   rxd_init_rx_done,
  input  logic [31:0]   rxd_rd_rx_done,    // RX_DONE of rec_rd_session
  output logic          rxd_drop_valid,    // every record written: its drop bit (aborted)
  output sid_t          rxd_drop_session,
  output logic          rxd_drop_value,
  // app reads (toe_tcp_rx_read): owns RX_REQ and RX_READ, wakes the core when a read matters
  // (with post_op_*: readable, the wake bit, RX_READ as seen)
  output tcp_core2rxread_t rxread_op,
  input  tcp_rxread2core_t rxread_rd,      // RX_REQ, RX_READ, readable, read as the record is
  input  logic          rxread_wake_valid,
  output logic          rxread_wake_ready,
  input  sid_t          rxread_wake_session,
  // app sends (toe_tcp_tx_req): owns TX_APP, TX_WANT and TX_DONE (it takes the TX ring
  // writer's completions), wakes the core when a session stops being sendable, the space
  // its app waits for is free, or bytes were written (with post_op_*)
  output tcp_core2txreq_t txreq_op,
  input  tcp_txreq2core_t txreq_rd,        // TX_APP, TX_DONE, TX_WANT, sendable, read as the record is
  input  logic          txreq_wake_valid,
  output logic          txreq_wake_ready,
  input  sid_t          txreq_wake_session,
  // debug port: a snapshot of one session's state (read-only; an event like the others)
  input  logic          dbg_req_valid,
  output logic          dbg_req_ready,
  input  sid_t          dbg_req,
  output logic          dbg_rsp_valid,
  input  logic          dbg_rsp_ready,
  output tcp_dbg_t      dbg_rsp,
  // segments to send
  output logic          m_cmd_valid,
  input  logic          m_cmd_ready,
  output tcp_tx_cmd_t   m_cmd,
  // counters (one-cycle pulses) and gauges
  output logic          stat_active_opens,
  output logic          stat_passive_opens,
  output logic          stat_attempt_fails,
  output logic          stat_estab_resets,
  output logic          stat_out_rsts,
  output logic          stat_retrans_segs,
  output logic          stat_window_drops,   // unacceptable segments (answered with an ACK)
  output logic          stat_challenge_acks,
  output logic          stat_bad_flags,      // SYN+FIN, or no ACK in a synchronized state
  output logic          stat_app_errors,     // refused reads, and requests for dead sessions
  output logic          stat_mss_clamped,    // a peer's MSS option below cfg_mss_min was raised to it
  output logic          stat_half_open_drops,  // SYNs dropped because half-open sessions reached the cap
  output logic          stat_out_of_order,   // segments stored ahead of RCV.NXT (joined when the gap fills)
  output logic [SID_W:0] curr_estab,
  output logic [SID_W:0] half_open,        // sessions in SYN-RCVD (SYN flood cap; a register)
  output logic          half_open_new,    // one more is being made: a new session's event is past its pick
  output logic          ready             // its records and the timer wheel are cleared after reset: events are taken
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam logic [31:0] RING = 32'(RING_BYTES);
  localparam logic [31:0] MAX_WIN = RING_BYTES > 65535 ? 32'd65535 : 32'(RING_BYTES);


  // the core's sequencer (below)
  typedef enum logic [3:0] {ST_INIT, ST_IDLE, ST_OPEN_REQ, ST_OPEN_WAIT, ST_OPEN_READ, ST_ISN_REQ, ST_ISN_WAIT, ST_PRE,
                            ST_PRE2, ST_EXEC, ST_TAIL} state_e;
  state_e state_reg;
  logic [SW-1:0] sid_reg;                           // the session of the event in progress
  logic fast;                                       // the fast path's verdict (RX fast path, below)
  logic fast_seg_reg, fast_wake_reg, fast_data_reg; // its tests of the event alone, taken at the start
  // The verdict is registered as it is made (fast_reg: the cycle after a fast event's
  // ST_PRE, its verdict cycle), and everything it decides is taken from that register:
  // the next state, the finish's valid and write enables, the refunds and the fast path's
  // pushes. Until stop 73 they were registers loaded from `fast`, each one LUT after it,
  // and the verdict's cone (the record's compares per candidate of its read, their
  // choice, the event's tests) was the deepest logic at both widths (9 LUT levels at 512
  // bits, 13 in toe_top at 64, stop 72). The cycle after a fast ST_PRE is ST_PRE2 with
  // fast_reg set, which is ST_IDLE in every respect (at_idle; at_pre2 is the slow
  // path's): a fast event still takes two cycles, and the next event starts in the
  // second as before. Only the fast path's two pushes move: they are made in the verdict
  // cycle from the job and the verdict registered in ST_PRE, a cycle later than before,
  // which their queues' bypass takes back.
  logic fast_reg;
  always_ff @(posedge clk) begin
    fast_reg <= fast;
    if (rst || state_reg != ST_PRE) fast_reg <= 1'b0;   // the verdict counts in ST_PRE only
  end
  wire at_idle = state_reg == ST_IDLE || fast_reg;
  wire at_pre2 = state_reg == ST_PRE2 && !fast_reg;

  // ---------------- state table (one writer: this module) ----------------
  // The record is read from its store (toe_tcp_state_store: on chip, two toe_state_ram
  // tables, each the block RAM's latch, then its output register), issued two or more
  // cycles before ST_PRE; the finish's writes until the answer are forwarded. The slow
  // path reads the record until ST_TAIL while the next event's read is issued: the read's
  // output stage holds from ST_PRE to ST_TAIL. The hot and cold parts are read together
  // (same address, same hold); the cold part is written by the writes that may change it
  // (wr_cold), so its table forwards only those.
  sess_t rd_sess;
  logic [SW-1:0] rd_addr, wr_addr;
  logic wr_en, wr_cold;
  sess_t wr_sess;
  wire rd_hold = state_reg == ST_PRE || at_pre2 || state_reg == ST_EXEC;
  sess_t rd_ram, rd_new, rd_old;   // rd_sess's candidates, for the fast path's verdict (hot fields only)
  logic rd_is_new, rd_is_old;
  hot_t rd_hot, rd_hot_ram, rd_hot_new, rd_hot_old;
  cold_t rd_cold;
  // The store tells when a read is answered (rd_answered: the read of the cycle before
  // comes in the next); the core takes the record then, with the read's address held while
  // it waits (the reserved session's, or the open's), and every field read with the record
  // (the tuple, RX_DONE, the read and send engines' fields) re-read at that address until
  // then. On chip (STATE_READ_WAIT = 0) every read is answered in two cycles, as before.
  logic rd_answered;
  logic fetch_valid;              // a record fetched ahead (below the pick's sources)
  logic [SW-1:0] fetch_session;
  // the model's lines hold the fetches in flight (the lookup's queue) and the records read last
  toe_tcp_state_store #(.MAX_SESSIONS(MAX_SESSIONS), .READ_WAIT(STATE_READ_WAIT),
                        .LINES(2 * lookup_depth_for(STATE_READ_WAIT))) u_store (
    .clk, .rst, .wr_en, .wr_addr, .wr_hot(hot_of(wr_sess)), .wr_cold, .wr_cold_data(cold_of(wr_sess)),
    .rd_addr, .hold(rd_hold), .rd_answered, .rd_hot, .rd_hot_ram, .rd_hot_new, .rd_hot_old, .rd_is_new, .rd_is_old,
    .rd_cold, .rd_use(state_reg == ST_PRE), .rd_use_addr(sid_reg), .pf_valid(fetch_valid), .pf_session(fetch_session)
  );
  // TX_DONE (toe_tcp_tx_req's) is read as the record is (the same address two cycles
  // before, the same hold; since stop 72, one cycle before), taken in ST_PRE and kept for
  // the event (ev_tx_done_reg): the record's from ST_PRE to the finish, which tells the
  // engine the value it saw (a completion after the read wakes the session again)
  logic [31:0] ev_tx_done_reg;
  always_ff @(posedge clk) if (state_reg == ST_PRE) ev_tx_done_reg <= txreq_rd.tx_done;
  wire [31:0] ev_tx_done = state_reg == ST_PRE ? txreq_rd.tx_done : ev_tx_done_reg;
  assign rd_sess = record_of(rd_hot, rd_cold, ev_tx_done);
  assign rd_ram = record_of(rd_hot_ram, rd_cold, txreq_rd.tx_done);
  assign rd_new = record_of(rd_hot_new, rd_cold, txreq_rd.tx_done);
  assign rd_old = record_of(rd_hot_old, rd_cold, txreq_rd.tx_done);
  if ($bits(hot_t) + $bits(cold_t) + 32 != $bits(sess_t)) begin : g_split_check
    $error("toe_tcp_core: the hot and cold parts and TX_DONE do not hold the record's %0d bits", $bits(sess_t));
  end

  // ---------------- output queues ----------------
  logic q_rxw_ready, q_sendq_ready;   // never low when pushed (rxw_room_reg; a session is in the send queue once)
  logic q_cmd_ready, q_notif_ready, q_steer_ready, q_openrsp_ready, q_dbg_ready;   // never low when pushed (the room flags)
  logic [4:0] rxw_count_reg;   // entries in the RX writer job queue (it takes two per event)
  logic [4:0] cmd_count_reg;   // entries in the segment command queue
  logic [1:0] rel_count_reg;   // session-table releases waiting (ST_IDLE serves them)
  logic do_cmd, do_notif, do_rxw, do_rxw2, do_steer, do_openrsp, do_sendq, do_dbg;
  tcp_dbg_t dbg;
  tcp_tx_cmd_t post_cmd;
  logic [SW-1:0] post_sid_reg; // the session in the post stage
  logic post_valid, post_write;           // the finish holds an event / writes its record
  logic post_cold;                        // ... and its cold part (a slow event's)
  sess_t sent_sess, sent_sess_reg;        // the record the send step made (the finish's input)
  logic size_valid_reg;                    // the size step holds a slow event (the send step follows)
  logic send_valid_reg;                    // the send step holds a slow event (the finish follows)
  logic ev_writes_reg;                     // the event in the send step or the finish writes its record
  tcp_notif_t nt;
  tcp_ring_job_t rxw, rxw2_reg;
  tcp_open_rsp_t opr;
  logic steer_accept;
  logic push_rxw2;
  logic fast_push_rxw, fast_push_steer;   // the fast path's pushes, in its verdict cycle
  tcp_ring_job_t fast_rxw_reg;             // its RX writer job
  logic sq_valid, sq_pop;
  logic [SW-1:0] sq_sid;

  // the segment command queue hands a command pushed into it empty to the TX engine the
  // next cycle (BYPASS, since stop 69): a cycle off every segment's way out
  toe_fifo #(.WIDTH(TCP_TX_CMD_W), .DEPTH(16), .BYPASS(1'b1)) u_q_cmd (.clk, .rst, .s_data(post_cmd), .s_valid(do_cmd),
    .s_ready(q_cmd_ready), .commit(1'b0), .rewind(1'b0), .m_data(m_cmd), .m_valid(m_cmd_valid),
    .m_ready(m_cmd_ready), .uncommitted());
  toe_fifo #(.WIDTH($bits(tcp_notif_t)), .DEPTH(32)) u_q_notif (.clk, .rst, .s_data(nt), .s_valid(do_notif),
    .s_ready(q_notif_ready), .commit(1'b0), .rewind(1'b0), .m_data(notif), .m_valid(notif_valid),
    .m_ready(notif_ready), .uncommitted());
  // The RX writer job and steering queues hand an entry pushed into them empty to their
  // readers (the RX writer, the payload's steering) the next cycle (BYPASS, since stop
  // 73): the fast path pushes them in its verdict cycle, from registers, a cycle after its
  // step, and the bypass takes that cycle back (RX latency as before the verdict's register)
  toe_fifo #(.WIDTH(TCP_RING_JOB_W), .DEPTH(16), .BYPASS(1'b1)) u_q_rxw (.clk, .rst,
    .s_data(push_rxw2 ? rxw2_reg : fast_push_rxw ? fast_rxw_reg : rxw),
    .s_valid(do_rxw || push_rxw2), .s_ready(q_rxw_ready), .commit(1'b0), .rewind(1'b0),
    .m_data(m_rxw_job), .m_valid(m_rxw_job_valid), .m_ready(m_rxw_job_ready), .uncommitted());
  toe_fifo #(.WIDTH(1), .DEPTH(32), .BYPASS(1'b1)) u_q_steer (.clk, .rst, .s_data(steer_accept), .s_valid(do_steer),
    .s_ready(q_steer_ready), .commit(1'b0), .rewind(1'b0), .m_data(m_steer_accept),
    .m_valid(m_steer_valid), .m_ready(m_steer_ready), .uncommitted());
  toe_fifo #(.WIDTH($bits(tcp_open_rsp_t)), .DEPTH(4)) u_q_openrsp (.clk, .rst, .s_data(opr),
    .s_valid(do_openrsp), .s_ready(q_openrsp_ready), .commit(1'b0), .rewind(1'b0), .m_data(open_rsp),
    .m_valid(open_rsp_valid), .m_ready(open_rsp_ready), .uncommitted());
  toe_fifo #(.WIDTH($bits(tcp_dbg_t)), .DEPTH(2)) u_q_dbg (.clk, .rst, .s_data(dbg), .s_valid(do_dbg),
    .s_ready(q_dbg_ready), .commit(1'b0), .rewind(1'b0), .m_data(dbg_rsp), .m_valid(dbg_rsp_valid),
    .m_ready(dbg_rsp_ready), .uncommitted());
  // Send queue: sessions with more to send; each session is in it at most once.
  toe_fifo #(.WIDTH(SW), .DEPTH(MAX_SESSIONS)) u_sendq (.clk, .rst, .s_data(post_sid_reg), .s_valid(do_sendq),
    .s_ready(q_sendq_ready), .commit(1'b0), .rewind(1'b0), .m_data(sq_sid), .m_valid(sq_valid), .m_ready(sq_pop),
    .uncommitted());

  // Timer wheel: told the earliest deadline of a session whenever it changes (and after
  // every timer event), it gives back the sessions whose deadline has passed.
  logic arm_q_ready, arm_valid, arm_ready, do_arm;
  logic fire_valid, fire_pop;
  logic [SW-1:0] fire_sid;
  typedef struct packed {logic [SW-1:0] sid; logic on; logic [31:0] at;} arm_t;
  arm_t arm_in, arm_out;
  logic wheel_ready;
  // entries in the timer wheel's queue (it takes none while it initializes), counted like
  // the fast path's below: the arm step holds a place and gives it back a cycle later when
  // it pushes nothing (do_arm compares the deadline with the one told before: 3.64 ns into
  // the count's sum at 512 bits, stop 52)
  logic [3:0] arm_count_reg;
  logic arm_refund_reg;
  logic arm_step_reg;   // the arm step (the cycle after a finish that wrote its record) holds an event
  toe_fifo #(.WIDTH($bits(arm_t)), .DEPTH(8)) u_q_arm (.clk, .rst, .s_data(arm_in), .s_valid(do_arm),
    .s_ready(arm_q_ready), .commit(1'b0), .rewind(1'b0), .m_data(arm_out), .m_valid(arm_valid),
    .m_ready(arm_ready), .uncommitted());
  toe_tcp_timer_wheel #(.MAX_SESSIONS(MAX_SESSIONS)) u_wheel (
    .clk, .rst, .now_us, .arm_valid, .arm_ready, .arm_session(arm_out.sid), .arm_on(arm_out.on),
    .arm_at(arm_out.at), .fire_valid, .fire_ready(fire_pop), .fire_session(fire_sid), .armed(),
    .ready(wheel_ready)
  );
  assign ready = state_reg != ST_INIT && wheel_ready;

  // The fast path's pushes (a steering verdict; an RX writer job for a segment with
  // payload) are counted ahead of its verdict: in its step's cycle every event that may take
  // the fast path holds a place, and in the verdict cycle one that did not take it gives
  // the place back (the refunds) and one that did pushes. So the counts' sums do not wait
  // for the verdict (which led the steering count's adder: 4.58 ns at 512 bits, stop 51).
  // A count is above its queue's entries by the place held in the cycle before only.
  wire steer_reserve = state_reg == ST_PRE && fast_seg_reg;
  wire rxw_reserve = steer_reserve && fast_data_reg;
  logic steer_reserved_reg, rxw_reserved_reg;   // a place was held in the cycle before
  always_ff @(posedge clk) begin
    steer_reserved_reg <= steer_reserve;
    rxw_reserved_reg <= rxw_reserve;
    if (rst) {steer_reserved_reg, rxw_reserved_reg} <= '0;
  end
  wire steer_refund = steer_reserved_reg && !fast_reg;
  wire rxw_refund = rxw_reserved_reg && !fast_reg;
  wire steer_tail_push = state_reg == ST_TAIL && do_steer;
  wire rxw_tail_push = state_reg == ST_TAIL && do_rxw;
  always_ff @(posedge clk) begin
    rxw_count_reg <= rxw_count_reg + 5'(rxw_reserve) + 5'(rxw_tail_push) + 5'(push_rxw2) - 5'(rxw_refund) -
                     5'(m_rxw_job_valid && m_rxw_job_ready);
    cmd_count_reg <= cmd_count_reg + 5'(do_cmd) - 5'(m_cmd_valid && m_cmd_ready);
    arm_count_reg <= arm_count_reg + 4'(arm_step_reg) - 4'(arm_refund_reg) - 4'(arm_valid && arm_ready);
    if (rst) begin
      rxw_count_reg <= '0;
      cmd_count_reg <= '0;
      arm_count_reg <= '0;
    end
  end
  // Room for what each kind of event may emit. An event is only picked when its outputs
  // fit, and it needs room only in queues whose consumers never wait on the core's other
  // outputs: a read completion must get through while the app waits for notifications.
  // The RX writer's queue takes two entries per event, and a second one may still be on
  // its way (push_rxw2) when the next event is picked.
  // The segment command and the timer wheel's entry of an event are pushed by its finish,
  // after the next event may have been picked (in the size step's, the send step's or the
  // finish's cycle): that one needs room beside them (whether the finish sends is decided
  // in the send step and the finish, so room is kept whenever one of them holds an event;
  // the wheel's entry is pushed by the arm step after the finish).
  // Data is sent only while the segment command queue is short (fewer than four): the
  // queue drains at the wire's pace, and data commands that filled it would shut out the
  // received segments (the peer's ACKs) that need one command each, until the input FIFO
  // overflowed (64 sessions sending at 10G: a third of the peer's ACKs dropped). An event
  // that has data to send while it is long puts the session in the send queue, which is
  // served only while it is short.
  // The flags are registered, so that the pick reads flip-flops: each is computed a cycle
  // ahead on the next cycle's count, bounded by this cycle's plus one event that may leave
  // its step (ST_PRE or ST_TAIL) less what is taken. The bound is exact for the fast path's
  // event, and no event is picked in the cycle after a slow event's ST_PRE.
  wire step_ends = state_reg == ST_PRE || state_reg == ST_TAIL;
  wire [4:0] cmd_count = cmd_count_reg + 5'(post_valid) + 5'(send_valid_reg) + 5'(size_valid_reg);
  wire [4:0] cmd_count_next = cmd_count + 5'(step_ends) - 5'(m_cmd_valid && m_cmd_ready);
  wire [3:0] arm_count_next = arm_count_reg - 4'(arm_refund_reg) + 4'(post_write) +
                              4'((size_valid_reg || send_valid_reg) && ev_writes_reg) +
                              4'(arm_step_reg) + 4'(step_ends) - 4'(arm_valid && arm_ready);
  wire [4:0] rxw_count_next = rxw_count_reg + 5'(push_rxw2) + 5'(step_ends) - 5'(m_rxw_job_valid && m_rxw_job_ready);
  logic rxw_room_reg, cmd_room_reg, arm_room_reg, sendq_room_reg;
  always_ff @(posedge clk) begin
    rxw_room_reg <= rxw_count_next <= 5'd13;
    cmd_room_reg <= cmd_count_next < 5'd16;
    arm_room_reg <= arm_count_next < 4'd8;
    sendq_room_reg <= cmd_count_next < 5'd4;
    if (rst) {rxw_room_reg, cmd_room_reg, arm_room_reg, sendq_room_reg} <= '0;
  end
  wire sendq_room_post = cmd_count_reg < 5'd4;   // the same rule in the send step, beside its own command
  // The queues an event pushes at most one entry into, from its step (ST_PRE or ST_TAIL,
  // never in a cycle an event starts): room for one is what they hold (output register
  // included) below their depth, registered from the next cycle's count.
  logic [5:0] notif_count_reg, steer_count_reg;
  logic [2:0] openrsp_count_reg;
  logic [1:0] dbg_count_reg;
  logic notif_room_reg, steer_room_reg, openrsp_room_reg, dbg_room_reg;
  // The next count is what is kept (less what is taken) plus the push; the room flag is
  // chosen by the push between both outcomes' compares, so that the push comes after the
  // compares, not before an add and a compare. The steering queue, which the fast path's
  // verdict pushes, does not wait for the push at all: its flag counts it as made (room
  // for one below 31 kept, not 32), and its count holds the fast path's place ahead of
  // the verdict (above), so the verdict reaches neither.
  wire [5:0] notif_count_kept = notif_count_reg - 6'(notif_valid && notif_ready);
  // the steering queue's pop comes late (the payload's last beat taken by the RX writer's
  // input FIFO, behind its full compare): it chooses between the count's two sums, made
  // beside it (taken before them it led the count: 3.12 ns at 512 bits, stop 56)
  wire steer_pop = m_steer_valid && m_steer_ready;
  wire [5:0] steer_count_moved = steer_count_reg + 6'(steer_reserve) + 6'(steer_tail_push) - 6'(steer_refund);
  wire [2:0] openrsp_count_kept = openrsp_count_reg - 3'(open_rsp_valid && open_rsp_ready);
  wire [1:0] dbg_count_kept = dbg_count_reg - 2'(dbg_rsp_valid && dbg_rsp_ready);
  always_ff @(posedge clk) begin
    notif_count_reg <= notif_count_kept + 6'(do_notif);
    steer_count_reg <= steer_pop ? steer_count_moved - 6'd1 : steer_count_moved;
    openrsp_count_reg <= openrsp_count_kept + 3'(do_openrsp);
    dbg_count_reg <= dbg_count_kept + 2'(do_dbg);
    notif_room_reg <= do_notif ? notif_count_kept < 6'd31 : notif_count_kept < 6'd32;
    steer_room_reg <= steer_pop ? steer_count_reg < 6'd32 : steer_count_reg < 6'd31;
    openrsp_room_reg <= do_openrsp ? openrsp_count_kept < 3'd3 : openrsp_count_kept < 3'd4;
    dbg_room_reg <= do_dbg ? dbg_count_kept < 2'd1 : dbg_count_kept < 2'd2;
    if (rst) begin
      {notif_count_reg, steer_count_reg, openrsp_count_reg, dbg_count_reg} <= '0;
      {notif_room_reg, steer_room_reg, openrsp_room_reg, dbg_room_reg} <= '0;
    end
  end

  // ---------------- event selection ----------------
  localparam int unsigned N_EV = int'(EV_TOLD) + 1;   // the kinds of event (toe_tcp_step_pkg::event_e)
  event_e ev_reg;
  logic [SW:0] init_reg;
  logic new_reg, found_reg, listening_reg, capped_reg;
  logic [15:0] tab_lport_reg;
  tcp_seg_t seg_reg;
  logic [31:0] seg_end_reg;   // its SEG.SEQ + payload length, added at the pick
  logic [31:0] seg_last_reg;  // its last sequence number, SEG.SEQ + SEG.LEN - 1 (SYN and FIN counted)
  tcp_open_req_t open_reg;
  tcp_close_req_t close_reg;

  // The session of each kind of event (an open's comes from the session table later).
  logic [SW-1:0] ev_sid [N_EV];
  assign ev_sid[EV_RD_WAKE] = SW'(rxread_wake_session);
  assign ev_sid[EV_OPEN] = '0;
  assign ev_sid[EV_CLOSE] = SW'(close_req.session);
  assign ev_sid[EV_TX_WAKE] = SW'(txreq_wake_session);
  assign ev_sid[EV_SEG] = SW'(s_seg.session);
  assign ev_sid[EV_SENDQ] = sq_sid;
  assign ev_sid[EV_TIMER] = fire_sid;
  assign ev_sid[EV_DBG] = SW'(dbg_req);
  assign ev_sid[EV_TOLD] = SW'(told_session);
  // A kind is ready when its source offers an event and the outputs it may emit fit
  // (every flag a flip-flop).
  logic [N_EV-1:0] ev_offered, ev_room, ev_valid;
  assign ev_offered = {told_valid, dbg_req_valid, fire_valid, sq_valid, s_seg_valid, txreq_wake_valid,
                       close_req_valid, open_req_valid, rxread_wake_valid};
  assign ev_room = {1'b1,                                                             // told
                    dbg_room_reg,                                                     // debug
                    cmd_room_reg && notif_room_reg && rxw_room_reg,                   // timer
                    cmd_room_reg && sendq_room_reg,                                   // send queue
                    cmd_room_reg && notif_room_reg && rxw_room_reg && steer_room_reg, // segment
                    cmd_room_reg,                                                     // TX wake
                    cmd_room_reg && notif_room_reg && rxw_room_reg,                   // close
                    openrsp_room_reg && cmd_room_reg,                                 // open
                    cmd_room_reg};                                                    // RX wake
  assign ev_valid = ev_offered & ev_room;
  // Fetches ahead (the store's pf_*): a looked-up segment's session as the table answers it
  // (pf_valid), else the head of another source, one kind a cycle in turn (an open has no
  // session yet), so that the record's wait runs while the events before it are picked
  logic [3:0] fetch_kind_reg;
  always_ff @(posedge clk) begin
    fetch_kind_reg <= fetch_kind_reg == 4'(N_EV - 1) ? '0 : fetch_kind_reg + 1'b1;
    if (rst) fetch_kind_reg <= '0;
  end
  assign fetch_valid = pf_valid || (ev_offered[fetch_kind_reg] && fetch_kind_reg != 4'(EV_OPEN) &&
                                    fetch_kind_reg != 4'(EV_SEG));
  assign fetch_session = pf_valid ? SW'(pf_session) : ev_sid[fetch_kind_reg];
  // The pick: a ready kind is reserved in a register (pick_valid_reg: its one-hot grant,
  // kind and session) while the core works, and started from there, so that the start,
  // the session read and the engines' forwarding compares begin at flip-flops, not behind
  // the grant. A reservation does not pop its source (whose event stays offered until it
  // is taken); it is taken when the core is idle, the kind still offered with room, its
  // session not in the size or send step (that event's finish writes the record within
  // two cycles: the read would come before it) and the wheel's queue and the releases
  // allow; it is dropped when, at idle, its kind is no longer ready, so that a kind
  // without room never holds back one that would drain it. The register is filled in the
  // cycle after a start, in time for the next (events start at least two cycles apart).
  // Round robin over the kinds: the first ready kind after the one reserved last
  // (rr_after_reg: one bit per kind after it), else the first ready kind.
  logic [N_EV-1:0] ev_grant;
  event_e ev_pick;
  logic [N_EV-1:0] rr_after_reg;
  always_comb begin
    logic [N_EV-1:0] after;
    logic [3:0] kind;
    after = ev_valid & rr_after_reg;
    ev_grant = after != '0 ? after & (~after + 1'b1) : ev_valid & (~ev_valid + 1'b1);
    kind = '0;
    for (int i = 0; i < N_EV; i++) kind |= ev_grant[i] ? 4'(i) : 4'd0;
    ev_pick = event_e'(kind);
  end
  logic [SW-1:0] grant_sid;
  always_comb begin
    grant_sid = '0;
    for (int i = 0; i < N_EV; i++) grant_sid |= {SW{ev_grant[i]}} & ev_sid[i];
  end
  logic pick_valid_reg;
  logic [N_EV-1:0] pick_grant_reg;
  event_e pick_kind_reg;
  logic [SW-1:0] pick_sid_reg;
  wire pick_ready = (pick_grant_reg & ev_valid) != '0;
  wire pick_busy = pick_kind_reg != EV_OPEN && (size_valid_reg || send_valid_reg) && pick_sid_reg == post_sid_reg;
  // An event picked during the size step takes the slow path (slow_only_reg): a fast step
  // would overwrite the post stage's registers before the finish read them.
  logic slow_only_reg;
  // the record read two cycles before ST_PRE was issued for the reserved session
  // (pick_read_reg, below the tuple check)
  logic pick_read_reg;
  wire start = at_idle && pick_valid_reg && pick_read_reg && rd_answered && pick_ready && !pick_busy && arm_room_reg &&
               rel_count_reg == '0;
  always_ff @(posedge clk) begin
    if (!pick_valid_reg) begin
      pick_valid_reg <= ev_valid != '0;
      pick_grant_reg <= ev_grant;
      pick_kind_reg <= ev_pick;
      pick_sid_reg <= grant_sid;
      if (ev_valid != '0) rr_after_reg <= ~(ev_grant | (ev_grant - 1'b1));
    end else if (start || (at_idle && !pick_ready)) pick_valid_reg <= 1'b0;
    if (rst) begin
      pick_valid_reg <= 1'b0;
      rr_after_reg <= ~N_EV'(1);
    end
  end

  // The record's read for the next start is issued before the event is reserved: for the
  // reserved session (pick_sid_reg), or, while nothing is reserved, for the segment at the
  // head of the lookup's queue (its session is a register's; the grant's choice among
  // every kind led 11 levels into the record's 49 block RAMs' address and 13 into the
  // forwarding compare). pick_read_reg says the read of the cycle before was the reserved
  // session's: a segment reserved from idle starts at once, another kind a cycle later.
  wire [SW-1:0] next_rd_addr = pick_valid_reg ? pick_sid_reg : ev_sid[EV_SEG];
  always_ff @(posedge clk) pick_read_reg <= pick_valid_reg || ev_grant[EV_SEG];

  // ---------------- the tuple check, at the start ----------------
  // A segment's session as the lookup found it may have been released or reused since: it
  // is the segment's only if the record holds the segment's tuple (or was just made). Each
  // record's tuple is kept apart as well (tuple_mem, written with the record), read for
  // the reserved event's session (pick_sid_reg, or grant_sid as it is reserved) and
  // compared with the segment in the cycle the event starts, as the record is at that
  // time (a write in that cycle or the one before is forwarded): ST_PRE starts from the
  // registered compares (found_now), not from a compare behind the record's read.
  typedef struct packed {logic [31:0] remote_ip; logic [15:0] remote_port, local_port;} tuple_t;
  function automatic tuple_t tuple_of(input sess_t x);
    return '{remote_ip: x.remote_ip, remote_port: x.remote_port, local_port: x.local_port};
  endfunction
  // The table is also where the fast path's finish takes its record's tuple from (the
  // segment command's; the fast path carries no cold part): the event's tuple is kept
  // as it starts (ev_tuple_reg) and goes with the record to the finish (post_tuple_reg).
  tuple_t tuple_mem [MAX_SESSIONS];
  tuple_t tuple_ram_reg, tuple_wr_reg;
  logic tuple_fwd_reg;
  tuple_t ev_tuple_reg, post_tuple_reg;
  wire tuple_t wr_tuple = state_reg == ST_INIT ? '0 : post_tuple_reg;   // the written record's
  wire tuple_t tuple_held = tuple_fwd_reg ? tuple_wr_reg : tuple_ram_reg;
  wire [SW-1:0] tuple_rd_addr = pick_valid_reg ? pick_sid_reg : grant_sid;
  // the write's address against every kind's session at once, then the grant selects: the
  // compare is not behind the pick
  logic [N_EV-1:0] ev_written;
  always_comb for (int i = 0; i < N_EV; i++) ev_written[i] = ev_sid[i] == wr_addr;
  wire tuple_rd_written = pick_valid_reg ? wr_addr == pick_sid_reg : (ev_grant & ev_written) != '0;
  always_ff @(posedge clk) begin
    if (wr_en) tuple_mem[wr_addr] <= wr_tuple;
    tuple_ram_reg <= tuple_mem[tuple_rd_addr];
    tuple_wr_reg <= wr_tuple;
    tuple_fwd_reg <= wr_en && tuple_rd_written;
  end
  // The two candidates (the record written in this cycle, and the RAM's with the last
  // cycle's write forwarded) are compared with the segment side by side, and the three
  // bits (both verdicts, and which candidate holds) are registered at the start: ST_PRE
  // chooses (found_now). Neither 64-bit compare comes after the write's address compare,
  // nor after a choice of tuples. In ST_IDLE, where the bits are taken, the only write is
  // the post stage's.
  wire tuple_t seg_tuple = '{remote_ip: s_seg.seg.remote_ip, remote_port: s_seg.seg.remote_port,
                             local_port: s_seg.seg.local_port};
  // the event is a looked-up segment's, not a new session's: ev_reg == EV_SEG && !new_reg
  // in ST_PRE (SVA), kept as one bit so that found_now is one small function of registers
  logic tuple_check_reg;
  logic tuple_written_reg;    // its record was written in the cycle it started
  logic tuple_ok_written_reg, tuple_ok_held_reg;   // the written / held record has its tuple
  always_ff @(posedge clk) if (start) begin
    tuple_check_reg <= pick_kind_reg == EV_SEG && !s_seg.is_new;
    tuple_written_reg <= post_write && post_sid_reg == pick_sid_reg;
    tuple_ok_written_reg <= post_tuple_reg == seg_tuple;   // the finish's tuple
    tuple_ok_held_reg <= tuple_held == seg_tuple;
    ev_tuple_reg <= post_write && post_sid_reg == pick_sid_reg ? post_tuple_reg : tuple_held;
  end

  assign rxread_wake_ready = start && pick_grant_reg[EV_RD_WAKE];
  assign open_req_ready    = start && pick_grant_reg[EV_OPEN];
  assign close_req_ready   = start && pick_grant_reg[EV_CLOSE];
  assign txreq_wake_ready  = start && pick_grant_reg[EV_TX_WAKE];
  assign s_seg_ready       = start && pick_grant_reg[EV_SEG];
  assign sq_pop            = start && pick_grant_reg[EV_SENDQ];
  assign fire_pop          = start && pick_grant_reg[EV_TIMER];
  assign dbg_req_ready     = start && pick_grant_reg[EV_DBG];
  assign told_ready        = start && pick_grant_reg[EV_TOLD];

  // Releases: the finish frees the record of a connection that ended, was told, and has no
  // ring job in flight (state FREE); its session-table entry is released from ST_IDLE before
  // the next event starts. A segment looked up before that finds the FREE record (no
  // connection). No event starts while one waits, so at most two are queued: the one in the
  // finish and the one picked during its send step.
  typedef struct packed {logic [SW-1:0] sid; logic [31:0] remote_ip; logic [15:0] remote_port, local_port;} rel_t;
  rel_t rel_in, rel_out;
  logic do_release, rel_valid, rel_q_ready;
  toe_fifo #(.WIDTH($bits(rel_t)), .DEPTH(2)) u_q_release (.clk, .rst, .s_data(rel_in), .s_valid(do_release),
    .s_ready(rel_q_ready), .commit(1'b0), .rewind(1'b0), .m_data(rel_out), .m_valid(rel_valid),
    .m_ready(at_idle && tab_req_ready), .uncommitted());
  always_ff @(posedge clk) begin
    rel_count_reg <= rel_count_reg + 2'(do_release) - 2'(rel_valid && at_idle && tab_req_ready);
    if (rst) rel_count_reg <= '0;
  end
  // session table requests: opens from ST_OPEN_REQ, releases from ST_IDLE (segments come
  // looked up)
  assign tab_req_valid = state_reg == ST_OPEN_REQ || (at_idle && rel_valid);
  // the peer of the event: the app's open, or the segment
  wire [31:0] ev_remote_ip = ev_reg == EV_OPEN ? open_reg.remote_ip : seg_reg.remote_ip;
  wire [15:0] ev_remote_port = ev_reg == EV_OPEN ? open_reg.remote_port : seg_reg.remote_port;
  assign tab_req = '{op: at_idle ? TAB_RELEASE : TAB_OPEN,
                     remote_ip: at_idle ? rel_out.remote_ip : ev_remote_ip,
                     remote_port: at_idle ? rel_out.remote_port : ev_remote_port,
                     local_port: rel_out.local_port, alloc: 1'b0,
                     session: SID_W'(at_idle ? rel_out.sid : sid_reg)};
  // SYN flood cap (toe_tcp_seg_lookup): the half-open gauge plus half_open_new counts a new
  // session from its first event on, so the cap is exact. The gauge itself moves in the
  // cycle after the step (step_done, from the post stage's copy of the record), when no
  // other event is past its pick. The two go out apart: the lookup adds the bit after its
  // compares (it only chooses among them), so the event registers are not in front of a sum.
  logic [SID_W:0] half_open_reg;     // sessions in SYN-RCVD
  logic step_done, post_new_reg;
  assign half_open = half_open_reg;
  assign half_open_new = ((state_reg == ST_PRE || at_pre2 || state_reg == ST_EXEC || state_reg == ST_TAIL) &&
                          ev_reg == EV_SEG && new_reg) || (step_done && post_new_reg);

  // ---------------- the event step ----------------
  sess_t s;
  tcp_seg_t g;
  assign s = rd_sess;
  assign g = seg_reg;
  // The engines' fields are read with the record and come in ST_PRE: RX_DONE
  // (toe_tcp_rx_deliver's; one completion old at most), read in the cycle after the pick (a
  // one-cycle read); RX_REQ, RX_READ and readable (toe_tcp_rx_read's), TX_APP, TX_DONE,
  // TX_WANT and sendable (toe_tcp_tx_req's; TX_DONE is the record's tx_done, ev_tx_done),
  // read as the record is and held with it until ST_TAIL (since stop 72). TX_APP is
  // final (no request can be accepted after the read) once the session was read as not
  // sendable; then all granted bytes are written when TX_DONE reaches it. The fast path
  // uses them there; the slow path's pre stage keeps them for its step (pre_reg).
  wire [16:0] tx_want = txreq_rd.tx_want;
  // the fast path's event executes in ST_PRE; the slow path's step runs in ST_EXEC (after
  // ST_PRE2), and its outputs come from ST_TAIL after it (fast: the verdict, declared
  // with the state above)
  // The fast path's verdict (fast_reg, in the verdict cycle) gates only what an event
  // does: the queues' pushes, the record's write, the next state. What it gives (the post
  // stage's registers, the step's outputs) is chosen by the state: in ST_PRE the fast path's values, loaded whether the
  // event is fast or not, and loaded again by a slow event's ST_TAIL before anything reads
  // them. (Chosen by the verdict, the fast path's compares led every register of the post
  // stage and every queue: 14-15 LUT levels at 64 bits, stop 45.) A slow_only_reg event's
  // ST_PRE is beside the previous event's send step, which still reads them: it loads none.
  wire post_load = state_reg == ST_TAIL || (state_reg == ST_PRE && !slow_only_reg);
  // fast_seg_reg, fast_wake_reg: the event alone allows the fast path (segment, app read);
  // fast_data_reg: the event is a segment with payload (ev_reg decoded in ST_PRE led the
  // advertised edge: 13 levels, stop 46); declared with the state above
  // in ST_PRE (pre_reg.found after): the lookup's verdict and the tuple check's
  wire found_now = found_reg && (!tuple_check_reg || (tuple_written_reg ? tuple_ok_written_reg
                                                                        : tuple_ok_held_reg));

  step_t step;       // the event's outputs (ST_TAIL: the slow path's tail; the fast path's in ST_PRE)
  // the segment the send step sends (the event step's or data/FIN), its sequence number, length
  send_e send_post;
  logic [31:0] seq_post;
  logic [15:0] len_post;

  // ISN of a new session. A passive open's comes with its SYN (toe_tcp_seg_lookup had it
  // hashed from the SYN's issue on: s_isn; the slow path waits for it in ST_PRE2 when the
  // hash is not done yet). An active open's is asked for after the session-table answer
  // (the open learns its local port there), in ST_ISN_REQ, and kept as it comes
  // (ST_ISN_WAIT).
  logic [31:0] open_isn;
  assign isn_req_valid = state_reg == ST_ISN_REQ;
  assign isn_req = '{local_port: tab_lport_reg, remote_ip: open_reg.remote_ip, remote_port: open_reg.remote_port};
  logic isn_asked_reg;   // the event is a segment with an ISN hashed for it (s_isn's head)
  wire [31:0] isn = ev_reg == EV_OPEN ? open_isn : s_isn;
  assign s_isn_ready = state_reg == ST_TAIL && ev_reg == EV_SEG && isn_asked_reg;

  // a session's earliest deadline: the retransmission/persist/TIME-WAIT/idle timer or the
  // delayed ACK, whichever comes first (none in FREE and CLOSED)
  function automatic logic deadline_on(input sess_t x);
    return x.state != FREE && x.state != CLOSED && (x.tmr_on || x.dack_on);
  endfunction
  function automatic logic deadline_is_tmr(input sess_t x);
    return x.tmr_on && (!x.dack_on || seq_lt(x.tmr_at, x.dack_at));
  endfunction
  function automatic logic [31:0] deadline_at(input sess_t x);
    return deadline_is_tmr(x) ? x.tmr_at : x.dack_at;
  endfunction

  // the rules of toe_tcp_rules_pkg on a session record (the ones both paths share, take_ack
  // and delayed_ack, are toe_tcp_sess_pkg's)
  // the edge to advertise after the step `x` of record `was`; `dup` while RCV.NXT did not
  // move and bytes past it are held. RFC 5681 needs it only for pure ACKs (duplicate ACKs);
  // a data segment or FIN we send then keeps the edge too, which only delays its opening
  // until the hole fills (one rule for every segment, as the window is one field)
  function automatic logic edge_dup(input sess_t x, input logic [31:0] was_rcv_nxt);
    return x.ooo[0].on && x.rcv_nxt == was_rcv_nxt;
  endfunction
  // that edge, and whether it moves (it differs from RCV.ADV)
  function automatic logic [31:0] adv_edge_of(input sess_t x, input logic [31:0] rd, was_rcv_nxt);
    return adv_edge(x.rcv_adv, x.rcv_nxt, rd, x.mss, edge_dup(x, was_rcv_nxt), RING, MAX_WIN);
  endfunction
  function automatic logic edge_moves_of(input sess_t x, input logic [31:0] rd, was_rcv_nxt);
    return adv_edge_moves(x.rcv_adv, x.rcv_nxt, rd, x.mss, edge_dup(x, was_rcv_nxt), RING, MAX_WIN);
  endfunction

  // the slow path's pre stage (toe_tcp_slow_path): every compare and sum its step uses
  pre_t pre, pre_reg;
  // the event writes its record back (not a segment or an open that found none; the fast
  // path's found it), as the post stage loads it
  wire ev_writes = state_reg == ST_PRE || pre_reg.found;

  // ---------------- RX fast path (toe_tcp_fast_path) ----------------
  // The common segment of a bulk transfer: an in-order segment or pure ACK of an
  // ESTABLISHED session that needs no rule but ACK, window update, payload and delayed
  // ACK, and an app read that opened such a session's window by a step (a window update).
  // Its verdict and result are toe_tcp_fast_path's (that header says which events are
  // fast); anything else is the event step's (the slow path). It does not decide a send:
  // a segment after which data or a FIN waits is the event step's, whose send step sends
  // it at once (with the ACK, when one is due). The send decision leaves the core for a
  // TX scheduler before such ACKs can be fast: through the send queue as it is, they
  // waited for the session's turn (both ways, 1024 sessions at 64 bits: 0.997 -> 0.995 of
  // the wire; echo, one session at 512 bits: 0.33 -> 0.10).
  sess_t fs;                     // the record after it (its hot part; the cold part zero)
  logic fast_ack_now, fast_ack_second;
  toe_tcp_fast_path u_fast (
    .clk, .rst, .check(state_reg == ST_PRE),
    .is_seg(ev_reg == EV_SEG), .is_rd_wake(ev_reg == EV_RD_WAKE), .seg_may(fast_seg_reg), .wake_may(fast_wake_reg),
    .with_data(fast_data_reg), .seg(g), .seg_end(seg_end_reg), .found(found_now),
    .rec(s), .rec_ram(rd_ram), .rec_new(rd_new), .rec_old(rd_old), .rec_is_new(rd_is_new), .rec_is_old(rd_is_old),
    .tx_want, .rd_wake_ack(pre.rd_wake_ack), .now_us, .cfg_delack_us(cfg.delack_us),
    .fast, .next(fs), .ack_now(fast_ack_now), .ack_second(fast_ack_second)
  );

  // ---------------- slow path (toe_tcp_slow_path) ----------------
  // Every other event, and every rule: its pre stage runs in ST_PRE beside the fast path,
  // then ST_PRE2, the step (ST_EXEC) and the tail (ST_TAIL), whose result (slow_tail) is
  // the event's record and outputs. The record and the segment stay the same through the
  // four (the finish in between writes another session's).
  step_t slow_step;         // the step of the event's kind, kept in ST_EXEC (the size step reads it)
  step_t slow_tail;         // the tail's result, in ST_TAIL
  wire [47:0] rx_base = ring_base(cfg.mem_base, SID_W'(sid_reg), 1'b0, RING_BYTES);   // the event's RX ring
  toe_tcp_slow_path #(.MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES)) u_slow (
    .clk, .rst,
    .at_pre(state_reg == ST_PRE), .at_pre2(at_pre2), .at_exec(state_reg == ST_EXEC),
    .at_tail(state_reg == ST_TAIL),
    .ev(ev_reg), .sid(sid_reg), .rx_base, .seg(g), .seg_end(seg_end_reg), .seg_last(seg_last_reg), .found(found_now),
    .new_sess(new_reg), .listening(listening_reg), .capped(capped_reg), .open_req(open_reg),
    .open_lport(tab_lport_reg), .close_rst(close_reg.send_rst), .isn,
    .rec(s), .tx_app(txreq_rd.tx_app), .tx_want, .sendable(txreq_rd.sendable), .rx_read(rxread_rd.rx_read),
    .rx_req(rxread_rd.rx_req), .readable(rxread_rd.readable), .rx_done(rxd_rd_rx_done), .now_us,
    .cfg,
    .pre, .pre_reg, .step_kept(slow_step), .step_tail(slow_tail)
  );
  // the engines' values the executing event uses (the post stage passes them on)
  wire [31:0] ev_rx_read = state_reg == ST_PRE ? rxread_rd.rx_read : pre_reg.rx_read;
  wire [31:0] ev_tx_app = state_reg == ST_PRE ? txreq_rd.tx_app : pre_reg.tx_app;
  wire [16:0] ev_tx_want = state_reg == ST_PRE ? tx_want : pre_reg.tx_want;
  wire ev_tx_app_fixed = state_reg == ST_PRE ? !txreq_rd.sendable : pre_reg.tx_app_fixed;

  // The event's outputs: the slow path's tail in ST_TAIL; or the fast path's event in ST_PRE
  // (its record and every output of its step)
  always_comb begin
    step_t t;
    t = slow_tail;
    if (state_reg == ST_PRE) begin   // the fast path's (its pushes are gated by the verdict below)
      t = step_none(s, g, SID_W'(sid_reg), rx_base);
      t.ns = fs;
      t.ack_now = fast_ack_now;
      t.ack_second = fast_ack_second;
      t.heard = ev_reg == EV_SEG;
      t.steer_accept = fast_data_reg;
      t.rxw.length = 17'(g.length);
    end
    // The fast path pushes only an RX writer job and a steering verdict, in its verdict
    // cycle (below): the step's pushes are the tail's alone, so the fast path's verdict
    // does not lead their queues (nor the second RX writer job's register: 12 LUT levels
    // at 512 bits, stop 48)
    if (state_reg != ST_TAIL) {t.do_notif, t.do_rxw, t.do_rxw2, t.do_steer, t.do_openrsp, t.do_dbg} = '0;
    step = t;
  end
  // The fast path's pushes, in its verdict cycle: the RX writer job its step made (taken
  // in ST_PRE), and the steering verdict. The event's registers (ev_reg, fast_seg_reg,
  // fast_data_reg) are still its own then: the next event loads them as it starts, at the
  // end of this cycle at the earliest.
  always_ff @(posedge clk) if (state_reg == ST_PRE) fast_rxw_reg <= step.rxw;
  assign fast_push_steer = fast_reg && fast_seg_reg;
  assign fast_push_rxw = fast_reg && fast_data_reg;
  // the queues' entries
  assign {do_notif, do_rxw2, do_openrsp, do_dbg} = {step.do_notif, step.do_rxw2, step.do_openrsp, step.do_dbg};
  assign do_rxw = step.do_rxw || fast_push_rxw;
  assign do_steer = step.do_steer || fast_push_steer;
  assign steer_accept = fast_reg ? fast_data_reg : step.steer_accept;
  assign nt = '{session: SID_W'(sid_reg), kind: step.notif_kind, length: step.notif_length, remote_ip: s.remote_ip,
                remote_port: s.remote_port, local_port: s.local_port};
  assign rxw = step.rxw;
  assign opr = '{session: SID_W'(sid_reg), local_port: tab_lport_reg, ok: step.open_ok};
  assign dbg = '{session: SID_W'(sid_reg), state: s.state, snd_una: s.snd_una, snd_nxt: s.snd_nxt,
                 snd_max: s.snd_max, snd_wnd: s.snd_wnd, rcv_nxt: s.rcv_nxt,
                 rcv_wnd: 16'(pre_reg.wnd), retries: s.retries, tmr_on: s.tmr_on,
                 tmr_at: s.tmr_at, dack_on: s.dack_on, dack_at: s.dack_at, now_us: now_us};

  // ---------------- post stage: the size and send steps and the finish ----------------
  // After the event step, on its record: the size and send steps (a slow event's own two
  // cycles) decide what to send (data, a FIN; the send queue when the command queue is
  // long) and the timers that sending arms (retransmission, persist). The finish (every event, the fast
  // path's in the cycle after its step) arms the idle timer, sends the ACK that is due (a
  // sent segment carries the delayed ACK), moves the advertised edge
  // (toe_tcp_rules_pkg::adv_edge), builds the segment command with its window and writes
  // the record back; the arm step after it tells the timer wheel a changed deadline (and
  // after every timer event: its entry was taken off). The next event may be picked in the
  // send step's cycle (not of the same session) or the finish's: it reads the record as
  // written there, and it needs room in the command and wheel queues beside this one's.
  sess_t post_sess_reg, fin_sess;
  logic [31:0] post_was_rcv_nxt_reg, post_old_at_reg, post_rx_read_reg, post_tx_first_reg;
  logic [16:0] post_want_seen_reg;
  logic post_rx_init_reg, post_woken_reg, post_tx_init_reg, post_tx_woken_reg, post_tx_clear_want_reg,
        post_arm_force_reg, post_old_on_reg, post_edge_kept_reg;
  // the event step's verdict: the segment it chose (or none), whether data may go, what
  // restarts the idle timer, and the inputs of the send rule it read with the record
  send_e post_send_reg;
  logic [31:0] post_seq_reg, post_rst_ack_reg, post_tx_app_reg;
  logic [31:0] post_seg_remote_ip_reg;
  logic [15:0] post_seg_remote_port_reg, post_seg_local_port_reg;
  logic post_rst_with_ack_reg, post_rst_to_seg_reg, post_try_send_reg, post_sws_override_reg, post_ack_now_reg,
        post_ack_second_reg,
        post_heard_reg, post_accepted_reg, post_dbg_reg, post_persist_before_reg, post_tx_app_fixed_reg,
        post_counted_reg, post_quiet_reg, post_read_all_reg, post_rx_readable_reg;
  tcp_state_e post_old_state_reg;
  // A received segment after which nothing waits to be sent or resent (no data, no FIN
  // asked for or sent; a segment never adds either) skips the send step, which would find
  // nothing: after a loss every segment is out of order until the gap fills, and one of a
  // single session at 100G comes every 3.7 cycles (64 bytes), under the 4 of the send step
  // (seg_rate data64, 1 session at 512 bits: 451 drops with it, 39 without; stop 30, when
  // the send step was one cycle).
  wire skip_send = state_reg == ST_TAIL && ev_reg == EV_SEG && !pre_reg.wants_window && !s.fin_sent;
  // The finish holds a slow event that skipped the send step or left it (the _slow_reg
  // flags), or a fast one in its verdict cycle (fast_reg); a fast event writes its record's
  // hot part only. The slow event writes its record when it found one (a segment or an
  // open may find none).
  logic step_done_slow_reg, post_valid_slow_reg, post_write_slow_reg;
  always_ff @(posedge clk) begin
    size_valid_reg <= state_reg == ST_TAIL && !skip_send;
    send_valid_reg <= size_valid_reg;
    step_done_slow_reg <= state_reg == ST_TAIL;
    post_valid_slow_reg <= skip_send || send_valid_reg;
    post_write_slow_reg <= skip_send ? pre_reg.found : send_valid_reg && ev_writes_reg;
    if (rst) begin
      size_valid_reg <= 1'b0;
      send_valid_reg <= 1'b0;
      step_done_slow_reg <= 1'b0;
      post_valid_slow_reg <= 1'b0;
      post_write_slow_reg <= 1'b0;
    end
  end
  assign step_done = step_done_slow_reg || fast_reg;
  assign post_valid = post_valid_slow_reg || fast_reg;
  assign post_write = post_write_slow_reg || fast_reg;
  assign post_cold = post_write_slow_reg && !fast_reg;
  // The post stage's session is also the address of the record written: during the reset's
  // init it counts with init_reg, so that the write address is this register alone (no
  // choice by state in front of the forwarding compares, stop 43)
  always_ff @(posedge clk) begin
    if (post_load) post_sid_reg <= sid_reg;
    else if (state_reg == ST_INIT) post_sid_reg <= SW'(init_reg) + 1'b1;
    if (rst) post_sid_reg <= '0;
  end
  // the event's verdict, kept from its step through the send step and the finish
  always_ff @(posedge clk) if (post_load) begin
    ev_writes_reg <= ev_writes;
    post_sess_reg <= step.ns;
    post_was_rcv_nxt_reg <= s.rcv_nxt;
    post_rx_read_reg <= step.rx_init ? step.rx_first : ev_rx_read;
    post_rx_init_reg <= step.rx_init;
    post_woken_reg <= ev_reg == EV_RD_WAKE;
    post_tx_init_reg <= step.tx_init;
    post_tx_first_reg <= isn + 1;
    post_tx_woken_reg <= ev_reg == EV_TX_WAKE;
    post_tx_clear_want_reg <= step.tx_clear_want;
    post_want_seen_reg <= ev_tx_want;
    // a new session's `s` is the stale record of its slot
    post_arm_force_reg <= ev_reg == EV_TIMER || new_reg || ev_reg == EV_OPEN;
    post_old_on_reg <= deadline_on(s);
    post_old_at_reg <= deadline_at(s);
    post_edge_kept_reg <= ev_writes && !new_reg && ev_reg != EV_OPEN && is_estab(s.state) && is_estab(step.ns.state);
    post_send_reg <= step.send;
    post_seq_reg <= step.send_seq;
    post_rst_ack_reg <= step.rst_ack;
    post_rst_with_ack_reg <= step.rst_with_ack;
    post_rst_to_seg_reg <= step.rst_to_seg;
    post_seg_remote_ip_reg <= g.remote_ip;
    post_seg_remote_port_reg <= g.remote_port;
    post_seg_local_port_reg <= g.local_port;
    post_try_send_reg <= step.try_send;
    post_sws_override_reg <= step.sws_override;
    post_ack_now_reg <= step.ack_now;
    post_ack_second_reg <= step.ack_second;
    post_heard_reg <= step.heard;
    post_accepted_reg <= step.steer_accept;
    post_dbg_reg <= ev_reg == EV_DBG;
    // the persist rule: was the running timer the persist timer before this event
    post_persist_before_reg <= s.snd_wnd == '0 && wants_window(s);
    post_tx_app_reg <= ev_tx_app;
    post_tx_app_fixed_reg <= ev_tx_app_fixed;
    // the established gauge counts the state this stage writes (a FIN sent here leaves it)
    post_old_state_reg <= s.state;
    post_counted_reg <= ev_writes && !(new_reg || ev_reg == EV_OPEN);
    post_new_reg <= new_reg;
    // the release's checks (the finish): RX_REQ and RX_READ (toe_tcp_rx_read) are read with
    // the record. No read is accepted after the read of them: after an orderly end every
    // told byte was asked for (RX_REQ = RX_DONE, nothing more to read), after an abortive
    // one the session was read as not readable (the engine wakes the session when the bit
    // goes off). RX_READ may be one completion old: equal to RX_REQ, it is the current
    // value. No TX ring job is in flight when TX_DONE after the step (a completion moves it)
    // is the final TX_APP.
    post_quiet_reg <= state_reg == ST_TAIL && ev_reg != EV_DBG && pre_reg.rx_quiet && pre_reg.tx_app_fixed &&
                      slow_step.ns.tx_done == pre_reg.tx_app;
    post_read_all_reg <= pre_reg.read_all;
    post_rx_readable_reg <= pre_reg.rx_readable;
  end
  // ---- the size step and the send step (a slow event's own two cycles, toe_tcp_send_step):
  // data, then FIN, else the persist timer; a fast event sends nothing here and goes
  // straight to the finish. The post stage's registers do not change in between (no event
  // is picked in the size step). ----
  send_e sent_send, sent_send_reg;
  logic [31:0] sent_seq, sent_seq_reg;
  logic [15:0] sent_len, sent_len_reg;
  logic sent_sendq, sent_sendq_reg;
  toe_tcp_send_step u_send (
    .clk, .rst, .at_tail(state_reg == ST_TAIL), .step_rec(slow_step.ns), .at_size(size_valid_reg),
    .rec(post_sess_reg), .chosen(post_send_reg), .chosen_seq(post_seq_reg), .try_send(post_try_send_reg),
    .sws_override(post_sws_override_reg), .tx_app_fixed(post_tx_app_fixed_reg), .tx_app(post_tx_app_reg),
    .persist_before(post_persist_before_reg), .nagle(cfg.nagle), .now_us, .sendq_room(sendq_room_post),
    .sent_rec(sent_sess), .sent_send, .sent_seq, .sent_len, .sent_sendq
  );
  always_ff @(posedge clk) begin
    if (send_valid_reg) begin
      sent_sess_reg <= sent_sess;
      post_tuple_reg <= tuple_of(sent_sess);
      sent_send_reg <= sent_send;
      sent_seq_reg <= sent_seq;
      sent_len_reg <= sent_len;
      sent_sendq_reg <= sent_sendq;
    end else if (state_reg == ST_PRE) begin
      // the fast path's record, written whether the event is fast or not (its enable is a
      // state, not the fast path's verdict): only a finish reads these, and a slow event's
      // own (after ST_TAIL) writes them again before its finish
      sent_sess_reg <= fs;     // ns is fs then: not through the event step's logic
      post_tuple_reg <= ev_tuple_reg;
      sent_send_reg <= SEND_NONE;
      sent_seq_reg <= step.send_seq;
      sent_len_reg <= '0;
      sent_sendq_reg <= 1'b0;
    end else if (skip_send) begin
      sent_sess_reg <= step.ns;
      post_tuple_reg <= tuple_of(step.ns);
      sent_send_reg <= step.send;
      sent_seq_reg <= step.send_seq;
      sent_len_reg <= '0;
      sent_sendq_reg <= 1'b0;
    end
  end
  // ---- the advertised edge, computed with the step from the values the finish would read
  // (toe_tcp_rules_pkg::adv_edge on post_sess_reg, post_rx_read_reg, post_was_rcv_nxt_reg;
  // an SVA checks they agree), so that the finish only chooses: from it, the edge led the
  // segment command's window and the read engine's wake bit (13 LUT levels at 512 bits,
  // stop 43). It is kept as adv_edge's two parts: whether the edge moves
  // (post_edge_moves_reg) and where it moves to (post_edge_moved_reg); unmoved it is the
  // record's RCV.ADV, which no step but the SYN's changes (the SYN's is a slow step, and
  // ST_TAIL tests its result). The finish chooses, so no value mux follows the move test's
  // carry chains (that mux was the depth-mapped deepest path at 512 bits, 9 levels, stop
  // 57). Its enable is the state, not the fast path's verdict: a slow event's ST_TAIL
  // loads it again, and a fast one's ST_PRE comes after the previous event's finish read it
  // (an event started in a size step is slow_only_reg, its ST_PRE beside the send step). The
  // tail changes none of the fields it reads (RCV.NXT, RCV.ADV, MSS, reassembly, RX_READ).
  // In ST_PRE whether the edge moves (adv_edge_moves, on the record's RCV.ADV, MSS and for
  // a pure ACK its RCV.NXT) is tested on each of the record read's candidates and chosen
  // after, as the fast path's verdict is (the read's 3:1 choice in front of its sums led
  // the edge: 3.19 ns at 512 bits, stop 56); the edges it moves to come from the record
  // read (their sums have no test behind them).
  function automatic logic fast_edge_moves(input sess_t x, input logic with_data, input logic [31:0] seg_end, rx_read);
    return adv_edge_moves(x.rcv_adv, with_data ? seg_end : x.rcv_nxt, rx_read, x.mss, !with_data && x.ooo[0].on,
                          RING, MAX_WIN);
  endfunction
  wire fast_edge_moves_ram = fast_edge_moves(rd_ram, fast_data_reg, seg_end_reg, rxread_rd.rx_read);
  wire fast_edge_moves_new = fast_edge_moves(rd_new, fast_data_reg, seg_end_reg, rxread_rd.rx_read);
  wire fast_edge_moves_old = fast_edge_moves(rd_old, fast_data_reg, seg_end_reg, rxread_rd.rx_read);
  wire fast_edge_moves_read = rd_is_new ? fast_edge_moves_new : rd_is_old ? fast_edge_moves_old : fast_edge_moves_ram;
  wire adv_edges_t fast_edges = adv_edges(fast_data_reg ? seg_end_reg : s.rcv_nxt, rxread_rd.rx_read, RING, MAX_WIN);
  wire [31:0] tail_rx_read = slow_step.rx_init ? slow_step.rx_first : pre_reg.rx_read;
  logic post_edge_moves_reg;
  logic [31:0] post_edge_moved_reg;
  always_ff @(posedge clk) begin
    if (state_reg == ST_TAIL) begin
      post_edge_moves_reg <= edge_moves_of(slow_step.ns, tail_rx_read, s.rcv_nxt);
      post_edge_moved_reg <= adv_edge_target(adv_edges(slow_step.ns.rcv_nxt, tail_rx_read, RING, MAX_WIN));
    end else if (state_reg == ST_PRE && !slow_only_reg) begin   // both values of RCV.NXT side by side
      post_edge_moves_reg <= fast_edge_moves_read;
      post_edge_moved_reg <= adv_edge_target(fast_edges);
    end
  end
  // the window of either edge, side by side (the send decision chooses)
  logic adv_moves;
  wire [31:0] adv_wnd_kept = pos(sent_sess_reg.rcv_adv - sent_sess_reg.rcv_nxt);
  wire [31:0] adv_wnd_moved = pos(post_edge_moved_reg - sent_sess_reg.rcv_nxt);
  // either window below half the ring (wnd_below_half), side by side
  wire adv_kept_below_half = wnd_below_half(sent_sess_reg.rcv_adv, sent_sess_reg.rcv_nxt, RING);
  wire adv_moved_below_half = wnd_below_half(post_edge_moved_reg, sent_sess_reg.rcv_nxt, RING);
  // The idle timer's two deadlines, from now_us of the cycle before (registered, so that the
  // finish's compares of them start at registers), and whether the record the finish
  // writes has its timer before its delayed ACK (deadline_is_tmr's compare), taken for
  // each value its timer deadline may have (the record's, or either idle deadline) side by
  // side and chosen as the finish chooses: the arm step reads it from a register (its
  // compare in front of the arm queue's push and refund: 3.25 ns at 512 bits, stop 56)
  logic [31:0] idle_fw2_at_reg, idle_keep_at_reg;
  always_ff @(posedge clk) begin
    idle_fw2_at_reg <= now_us + cfg.fin_wait_2_us;
    idle_keep_at_reg <= now_us + cfg.keepalive_idle_us;
  end
  wire tmr_first_kept = seq_lt(sent_sess_reg.tmr_at, sent_sess_reg.dack_at);
  wire tmr_first_fw2 = seq_lt(idle_fw2_at_reg, sent_sess_reg.dack_at);
  wire tmr_first_keep = seq_lt(idle_keep_at_reg, sent_sess_reg.dack_at);
  logic fin_tmr_first;   // fin_sess: tmr_at before dack_at (modulo 2^32)
  // ---- the finish (every event): idle timer, ACK, advertised edge, segment command,
  // record write ----
  always_comb begin
    fin_sess = sent_sess_reg;
    // ---- release when ended, told, and no ring job in flight (see post_quiet_reg) ----
    do_release = post_write && fin_sess.state == CLOSED && fin_sess.end_told && post_quiet_reg &&
                 (fin_sess.orderly ? post_read_all_reg : !post_rx_readable_reg);
    if (do_release) fin_sess.state = FREE;
    rel_in = '{sid: post_sid_reg, remote_ip: post_tuple_reg.remote_ip, remote_port: post_tuple_reg.remote_port,
               local_port: post_tuple_reg.local_port};
    send_post = sent_send_reg;
    seq_post = sent_seq_reg;
    len_post = sent_len_reg;
    do_sendq = sent_sendq_reg;
    // ---- idle timer: FIN-WAIT-2 timeout (restarted by data from the peer) and keepalive
    // (restarted by anything acceptable from it), armed when nothing is in flight or waiting
    if (!post_dbg_reg && ((fin_sess.state == FIN_WAIT_2 && cfg.fin_wait_2_us != '0) || (is_estab(fin_sess.state) && cfg.keepalive_idle_us != '0)) &&
        fin_sess.snd_una == fin_sess.snd_max && !wants_window(fin_sess) &&
        (!fin_sess.tmr_on || (fin_sess.state == FIN_WAIT_2 ? post_accepted_reg : post_heard_reg))) begin
      fin_sess.tmr_on = 1'b1;
      fin_sess.tmr_at = fin_sess.state == FIN_WAIT_2 ? idle_fw2_at_reg : idle_keep_at_reg;
      fin_tmr_first = fin_sess.state == FIN_WAIT_2 ? tmr_first_fw2 : tmr_first_keep;
    end else begin
      fin_tmr_first = tmr_first_kept;
    end
    // The ACK of a second full-sized segment waits for the session's data in the send queue
    // (which carries it), no longer than the delayed-ACK timer armed by the first and its
    // DACK_DEFERS waits (the timer event, which is the one bound of both waits): a pure ACK
    // beside it cost 84 bytes of wire per two segments received (both ways, 64 sessions, 64
    // bits: 0.9966 of the wire with, 0.9995 without)
    if ((post_ack_now_reg || (post_ack_second_reg && !fin_sess.in_sendq)) && send_post == SEND_NONE) send_post = SEND_ACK;
    if (send_post != SEND_NONE && send_post != SEND_RST) begin
      fin_sess.dack_on = 1'b0;
      fin_sess.dack_one = 1'b0;
      fin_sess.dack_defers = '0;
    end

    // the advertised edge moves with every segment but an RST (no field it reads is sent
    // here), where the step found it moves: to the edge computed with it
    adv_moves = send_post != SEND_NONE && send_post != SEND_RST && post_edge_moves_reg;
    if (adv_moves) fin_sess.rcv_adv = post_edge_moved_reg;
    // ---- the segment command: the window is the final one (every segment but a SYN or RST) ----
    post_cmd = '{session: SID_W'(post_sid_reg), remote_ip: post_tuple_reg.remote_ip,
                 remote_port: post_tuple_reg.remote_port, local_port: post_tuple_reg.local_port, seq: seq_post, ack: fin_sess.rcv_nxt, flags: 8'd0,
                 window: 16'(adv_moves ? adv_wnd_moved : adv_wnd_kept), length: '0, mss: '0};
    unique case (send_post)
      SEND_ACK:    post_cmd.flags = 8'h10;
      SEND_DATA:   begin
        post_cmd.flags = (seq_post + 32'(len_post) == fin_sess.tx_done) ? 8'h18 : 8'h10;
        post_cmd.length = len_post;
      end
      SEND_SYN:    begin post_cmd.flags = 8'h02; post_cmd.mss = cfg.mss; post_cmd.ack = '0; post_cmd.window = 16'(MAX_WIN); end
      SEND_SYNACK: begin post_cmd.flags = 8'h12; post_cmd.mss = cfg.mss; post_cmd.seq = fin_sess.snd_una; end
      SEND_FIN:    post_cmd.flags = 8'h11;
      SEND_PROBE:  begin post_cmd.flags = 8'h10; post_cmd.seq = fin_sess.snd_una - 1; end
      SEND_RST:    begin
        if (post_rst_to_seg_reg) begin
          post_cmd.remote_ip = post_seg_remote_ip_reg;
          post_cmd.remote_port = post_seg_remote_port_reg;
          post_cmd.local_port = post_seg_local_port_reg;
        end
        post_cmd.flags = post_rst_with_ack_reg ? 8'h14 : 8'h04;
        post_cmd.ack = post_rst_with_ack_reg ? post_rst_ack_reg : '0;
        post_cmd.window = '0;
      end
      default: ;
    endcase
    do_cmd = post_valid && send_post != SEND_NONE;
    if (!post_write) do_sendq = 1'b0;
  end

  // ---- the arm step (the cycle after the finish): the timer wheel is told the session's
  // earliest deadline when it changed, and after every timer event (its entry was taken
  // off), from the record the finish wrote ----
  sess_t arm_sess_reg;   // only its timer fields and state are read (the rest is pruned)
  logic [SW-1:0] arm_sid_reg;
  logic arm_force_reg, arm_old_on_reg, arm_tmr_first_reg;
  logic [31:0] arm_old_at_reg;
  always_ff @(posedge clk) begin
    arm_step_reg <= post_write;
    arm_refund_reg <= arm_step_reg && !do_arm;
    if (post_write) begin
      arm_sess_reg <= fin_sess;
      arm_tmr_first_reg <= fin_tmr_first;
      arm_sid_reg <= post_sid_reg;
      arm_force_reg <= post_arm_force_reg;
      arm_old_on_reg <= post_old_on_reg;
      arm_old_at_reg <= post_old_at_reg;
    end
    if (rst) {arm_step_reg, arm_refund_reg} <= '0;
  end
  // deadline_is_tmr and deadline_at of the record, with the finish's compare
  wire arm_is_tmr = arm_sess_reg.tmr_on && (!arm_sess_reg.dack_on || arm_tmr_first_reg);
  assign arm_in = '{sid: arm_sid_reg, on: deadline_on(arm_sess_reg),
                    at: arm_is_tmr ? arm_sess_reg.tmr_at : arm_sess_reg.dack_at};
  // the deadline moved: both deadlines compared with the old one side by side, chosen as
  // deadline_at chooses (its compare, the choice and the equality were in series into the
  // arm queue and its refund: 3.28 ns at 512 bits, stop 54)
  wire arm_at_moved = arm_is_tmr ? arm_sess_reg.tmr_at != arm_old_at_reg : arm_sess_reg.dack_at != arm_old_at_reg;
  assign do_arm = arm_step_reg && (arm_force_reg || arm_in.on != arm_old_on_reg || (arm_in.on && arm_at_moved));

  // RX delivery: a new connection's RX_DONE, the drop bit of every record written, and
  // RX_DONE read with the record
  assign rxd_init_valid = state_reg == ST_TAIL && pre_reg.found && step.rx_init;   // never the fast path's
  assign rxd_init_session = SID_W'(sid_reg);
  assign rxd_init_rx_done = step.rx_first;
  assign post_op_valid = state_reg == ST_INIT || post_write;
  assign post_op_session = SID_W'(post_sid_reg);
  // the drop bit goes with the record's write in the post stage (from the step it led the
  // fast path into the drop table's LUTRAM write enables: 14 levels at 512 bits); a new
  // connection's first completion comes two or more cycles after its step, so it still
  // reads the bit its record was written with
  assign rxd_drop_valid = post_op_valid;
  assign rxd_drop_session = post_op_session;
  assign rxd_drop_value = state_reg != ST_INIT && fin_sess.ended && !fin_sess.orderly;
  // app reads (toe_tcp_rx_read): with every record written, whether the session is readable,
  // whether the core wants to be woken by reads (the advertised window under half the ring,
  // or an ended connection waiting for reads before its release), the RX_READ it computed
  // with, and a new connection's first sequence number; RX_REQ, RX_READ and readable are
  // read with the record
  assign rxread_op.woken = state_reg == ST_INIT || post_woken_reg;
  assign rxread_op.init = state_reg == ST_INIT || post_rx_init_reg;
  assign rxread_op.rx_first = state_reg == ST_INIT ? '0 : post_rx_read_reg;
  assign rxread_op.seen = post_rx_read_reg;
  // readable: established or later (the app was told NEW), and after an abortive end until
  // the app took the final notification
  assign rxread_op.readable = state_reg != ST_INIT && fin_sess.state != FREE && fin_sess.state != SYN_SENT &&
                           fin_sess.state != SYN_RCVD && (!fin_sess.end_told || fin_sess.orderly);
  assign rxread_op.wake_on = state_reg != ST_INIT && (fin_sess.state == CLOSED ||
    ((is_estab(fin_sess.state) || fin_sess.state == FIN_WAIT_1 || fin_sess.state == FIN_WAIT_2) &&
     (adv_moves ? adv_moved_below_half : adv_kept_below_half)));
  // app sends (toe_tcp_tx_req): with every record written, whether the session is sendable,
  // whether a request now is the app's error (it closed, or was told the end: not a race
  // with a reset whose notification is still on its way), SND.UNA, a new connection's
  // TX_APP, and the TX_WANT a NOTIF_TX_SPACE was given for
  assign txreq_op.woken = state_reg == ST_INIT || post_tx_woken_reg;
  assign txreq_op.init = state_reg == ST_INIT || post_tx_init_reg;
  assign txreq_op.tx_first = state_reg == ST_INIT ? '0 : post_tx_first_reg;
  assign txreq_op.sendable = state_reg != ST_INIT && is_estab(fin_sess.state) && !fin_sess.close_req && !fin_sess.ended;
  assign txreq_op.known_dead = state_reg == ST_INIT || fin_sess.state == FREE || fin_sess.close_req || fin_sess.end_told;
  assign txreq_op.snd_una = fin_sess.snd_una;
  assign txreq_op.clear_want = state_reg != ST_INIT && post_tx_clear_want_reg;
  assign txreq_op.want_seen = post_want_seen_reg;
  assign txreq_op.tx_done_seen = fin_sess.tx_done;

  // second RX writer job of an event (payload and then the end marker), pushed in the
  // cycle after its step (no step runs then: the next event is picked in it at the earliest)
  always_ff @(posedge clk) begin
    if (do_rxw2) begin
      rxw2_reg <= rxw;
      rxw2_reg.length <= '0;
      rxw2_reg.tag <= step.end_tag;
    end
    push_rxw2 <= do_rxw2;
    if (rst) push_rxw2 <= 1'b0;
  end

  // ---------------- sequencing ----------------
  assign wr_en = state_reg == ST_INIT || post_write;
  assign wr_cold = state_reg == ST_INIT || post_cold;
  assign wr_addr = post_sid_reg;
  always_comb begin
    wr_sess = fin_sess;
    if (state_reg == ST_INIT) wr_sess = '0;
  end
  // The record is read two cycles before ST_PRE: for an event from ST_IDLE, in the cycle
  // before its start, for the reserved session (next_rd_addr, pick_read_reg); for an
  // active open's new session, in ST_ISN_REQ (ST_PRE comes two or more cycles later); for
  // an open the table refused, as the table answers (ST_OPEN_WAIT; ST_OPEN_READ waits for
  // the read). The read and send engines' fields are read with it (rec_rd2_session, and
  // held with it); RX_DONE (rec_rd_session) one cycle before ST_PRE: in the cycle of the
  // start, or in the state before ST_PRE.
  wire [SW-1:0] held_sid = state_reg == ST_OPEN_WAIT ? SW'(tab_rsp.session) : sid_reg;   // outside ST_IDLE
  wire [SW-1:0] eng_rd_addr = at_idle ? pick_sid_reg : held_sid;
  assign rec_rd_session = SID_W'(eng_rd_addr);
  assign rec_rd2_session = SID_W'(rd_addr);
  assign rec_rd2_hold = rd_hold;
  assign rd_addr = state_reg == ST_OPEN_REQ || state_reg == ST_OPEN_WAIT || state_reg == ST_OPEN_READ ||
                   state_reg == ST_ISN_REQ || state_reg == ST_ISN_WAIT ? held_sid : next_rd_addr;

  // a fast event's verdict cycle (ST_PRE2 with fast_reg) is ST_IDLE
  wire state_e state_now = at_idle ? ST_IDLE : state_reg;
  always_ff @(posedge clk) begin
    unique case (state_now)
      ST_INIT: begin
        init_reg <= init_reg + 1'b1;
        if (init_reg == (SW+1)'(MAX_SESSIONS - 1)) state_reg <= ST_IDLE;
      end
      ST_IDLE: if (start) begin
        ev_reg <= pick_kind_reg;
        sid_reg <= pick_sid_reg;
        found_reg <= 1'b1;
        new_reg <= 1'b0;
        seg_reg <= s_seg.seg;
        seg_end_reg <= s_seg.seg.seq + 32'(s_seg.seg.length);
        seg_last_reg <= s_seg.seg.seq + (32'(s_seg.seg.length) + 32'(s_seg.seg.flags[F_SYN]) +
                                         32'(s_seg.seg.flags[F_FIN]) - 32'd1);
        slow_only_reg <= size_valid_reg;
        // the fast path's tests of the event alone (not of its record), taken at its start
        fast_seg_reg <= !size_valid_reg && pick_kind_reg == EV_SEG && !s_seg.is_new && s_seg.seg.flags[F_ACK] &&
                        !s_seg.seg.flags[F_SYN] && !s_seg.seg.flags[F_FIN] && !s_seg.seg.flags[F_RST] &&
                        s_seg.seg.window != '0;
        fast_wake_reg <= !size_valid_reg && pick_kind_reg == EV_RD_WAKE;
        fast_data_reg <= pick_kind_reg == EV_SEG && s_seg.seg.length != '0;
        if (pick_kind_reg == EV_SEG) begin
          found_reg <= s_seg.found;
          new_reg <= s_seg.is_new;
          listening_reg <= s_seg.listening;
          capped_reg <= s_seg.capped;
        end
        isn_asked_reg <= pick_kind_reg == EV_SEG && s_seg.isn_asked;
        open_reg <= open_req;
        close_reg <= close_req;
        state_reg <= pick_kind_reg == EV_OPEN ? ST_OPEN_REQ : ST_PRE;
      end else state_reg <= ST_IDLE;
      ST_OPEN_REQ: if (tab_req_ready) state_reg <= ST_OPEN_WAIT;
      ST_OPEN_WAIT: if (tab_rsp_valid) begin
        sid_reg <= SW'(tab_rsp.session);
        found_reg <= tab_rsp.found;
        new_reg <= tab_rsp.is_new;
        tab_lport_reg <= tab_rsp.local_port;
        state_reg <= tab_rsp.found ? ST_ISN_REQ : ST_OPEN_READ;
      end
      ST_OPEN_READ: if (rd_answered) state_reg <= ST_PRE;   // an open's record, read here, is in ST_PRE
      ST_ISN_REQ: if (isn_req_ready) state_reg <= ST_ISN_WAIT;
      ST_ISN_WAIT: if (isn_rsp_valid) begin
        open_isn <= isn_rsp;
        state_reg <= rd_answered ? ST_PRE : ST_OPEN_READ;   // its record's read may still wait
      end
      // the fast path's event executes in ST_PRE, its verdict cycle is ST_PRE2 with fast_reg
      // (ST_IDLE); the slow path's step runs in ST_EXEC after ST_PRE2, its tail in ST_TAIL
      ST_PRE: state_reg <= ST_PRE2;
      ST_PRE2: if (!isn_asked_reg || s_isn_valid) state_reg <= ST_EXEC;   // the step may need the ISN
      ST_EXEC: state_reg <= ST_TAIL;
      ST_TAIL: state_reg <= ST_IDLE;
      default: state_reg <= ST_IDLE;
    endcase
    if (rst) begin
      state_reg <= ST_INIT;
      init_reg <= '0;
    end
  end

  // ---------------- counters and the established gauge ----------------
  always_ff @(posedge clk) begin
    {stat_active_opens, stat_passive_opens, stat_attempt_fails, stat_estab_resets, stat_out_rsts,
     stat_retrans_segs, stat_window_drops, stat_challenge_acks, stat_bad_flags, stat_app_errors, stat_mss_clamped,
     stat_half_open_drops, stat_out_of_order} <=
      state_reg == ST_TAIL ? step.count : '0;   // the fast path counts nothing
    // established gauge: the state the post stage writes (a FIN it sends leaves ESTABLISHED)
    if (post_write && post_counted_reg) begin
      if (!is_estab(post_old_state_reg) && is_estab(fin_sess.state)) curr_estab <= curr_estab + 1'b1;
      if (is_estab(post_old_state_reg) && !is_estab(fin_sess.state)) curr_estab <= curr_estab - 1'b1;
    end
    // half-open gauge: the state the event step wrote (the send step and the finish never
    // leave or enter SYN-RCVD); a new session's old state is the stale record of its slot
    if (step_done && ev_writes_reg) begin
      if (post_sess_reg.state == SYN_RCVD && (post_new_reg || (post_counted_reg && post_old_state_reg != SYN_RCVD)))
        half_open_reg <= half_open_reg + 1'b1;
      if (post_counted_reg && post_old_state_reg == SYN_RCVD && post_sess_reg.state != SYN_RCVD)
        half_open_reg <= half_open_reg - 1'b1;
    end
    if (rst) begin
      {stat_active_opens, stat_passive_opens, stat_attempt_fails, stat_estab_resets, stat_out_rsts,
       stat_retrans_segs, stat_window_drops, stat_challenge_acks, stat_bad_flags, stat_app_errors,
       stat_mss_clamped, stat_half_open_drops, stat_out_of_order} <= '0;
      curr_estab <= '0;
      half_open_reg <= '0;
    end
  end
`ifndef SYNTHESIS
  // A copy of the table written alike and read without delay (the checks below). A write
  // without the cold part (the fast path's) leaves it as it was.
  sess_t written_mem [MAX_SESSIONS];
  always @(posedge clk)
    if (wr_en) written_mem[wr_addr] <= wr_cold ? wr_sess : record_of(hot_of(wr_sess), cold_of(written_mem[wr_addr]), wr_sess.tx_done);
  // the record the finish writes, whole: a fast event's hot part with the stored cold part
  wire sess_t fin_whole = post_cold ? fin_sess : record_of(hot_of(fin_sess), cold_of(written_mem[post_sid_reg]), fin_sess.tx_done);
  // Invariants of every record the core writes back.
  always @(posedge clk) if (!rst && post_write && fin_whole.state != FREE && fin_whole.state != CLOSED) begin
    assert (seq_le(fin_whole.snd_una, fin_whole.snd_nxt) && seq_le(fin_whole.snd_nxt, fin_whole.snd_max))
      else $error("toe_tcp_core: session %0d SND.UNA <= SND.NXT <= SND.MAX broken", post_sid_reg);
    // the stored out-of-order intervals are in order, apart, ahead of RCV.NXT, inside the
    // ring; in SYN-RECEIVED the one there may be is the data the SYN carried, from RCV.NXT
    // (toe_tcp_slow_path's syn_data_held)
    assert (fin_whole.state == SYN_RCVD ? syn_held_ok(fin_whole.ooo, fin_whole.rcv_nxt, RING)
                                        : reasm_set_ok(fin_whole.ooo, fin_whole.rcv_nxt, RING))
      else $error("toe_tcp_core: session %0d out-of-order intervals out of order, adjacent or outside (RCV.NXT, RCV.NXT+ring]", post_sid_reg);
    // an ACK owed for a received segment always has the delayed-ACK timer behind it (the ACK
    // of a second segment may wait for data in the send queue: the timer event bounds the wait)
    assert (!fin_whole.dack_one || fin_whole.dack_on)
      else $error("toe_tcp_core: session %0d owes an ACK without the delayed-ACK timer", post_sid_reg);
    // an ACK that waits for the session's data is still owed (its timer runs)
    assert (fin_whole.dack_defers == '0 || fin_whole.dack_on)
      else $error("toe_tcp_core: session %0d defers an ACK without the delayed-ACK timer", post_sid_reg);
  end
  // ST_PRE to ST_TAIL read the event's record as last written (the read was issued for the
  // event's session in time, and held while the slow path runs): against the copy of the
  // table (toe_state_ram checks its own contract)
  always @(posedge clk)
    if (!rst && (state_reg == ST_PRE || at_pre2 || state_reg == ST_EXEC || state_reg == ST_TAIL))
      assert (hot_of(rd_sess) == hot_of(written_mem[sid_reg]) && cold_of(rd_sess) == cold_of(written_mem[sid_reg]))
        else $error("toe_tcp_core: session %0d record read from ST_PRE to ST_TAIL is not the last written", sid_reg);
  // the two parts together are the record, field for field (hot_of / cold_of / record_of)
  always @(posedge clk) if (!rst && wr_en)
    assert (record_of(hot_of(wr_sess), cold_of(wr_sess), wr_sess.tx_done) == wr_sess)
      else $error("toe_tcp_core: session %0d's record does not survive its split into hot and cold", wr_addr);
  // the tuple the finish sends with and writes to the tuple table is its record's, also
  // for the fast path, which takes it from the table as the event starts
  always @(posedge clk) if (!rst && wr_en && state_reg != ST_INIT)
    assert (wr_tuple == tuple_of(wr_cold ? wr_sess : written_mem[wr_addr]))
      else $error("toe_tcp_core: session %0d's finish has a tuple not its record's", wr_addr);
  always @(posedge clk) if (!rst && state_reg == ST_PRE && fast)
    assert (ev_tuple_reg == tuple_of(s))
      else $error("toe_tcp_core: session %0d's tuple taken at the start is not its record's", sid_reg);
  // the reset's init writes record init_reg, through post_sid_reg (the one write address)
  always @(posedge clk) if (!rst && state_reg == ST_INIT)
    assert (post_sid_reg == SW'(init_reg)) else $error("toe_tcp_core: init writes %0d, not %0d", post_sid_reg, init_reg);
  // the fast path's tests of the event alone, taken at its start, are the event's
  always @(posedge clk) if (!rst && state_reg == ST_PRE)
    assert (fast_seg_reg == (!slow_only_reg && ev_reg == EV_SEG && !new_reg && g.flags[F_ACK] && !g.flags[F_SYN] &&
                             !g.flags[F_FIN] && !g.flags[F_RST] && g.window != '0) &&
            fast_wake_reg == (!slow_only_reg && ev_reg == EV_RD_WAKE) &&
            fast_data_reg == (ev_reg == EV_SEG && g.length != '0))
      else $error("toe_tcp_core: session %0d fast path's event tests differ", sid_reg);
  // the arm step's compare, made by the finish, is the one of the record it wrote
  always @(posedge clk) if (!rst && arm_step_reg)
    assert (arm_tmr_first_reg == seq_lt(arm_sess_reg.tmr_at, arm_sess_reg.dack_at) &&
            arm_is_tmr == deadline_is_tmr(arm_sess_reg))
      else $error("toe_tcp_core: session %0d arm step's timer-first compare differs from its record's", arm_sid_reg);
  // the fast path's edge, its move tested per candidate, is adv_edge's on the record read
  always @(posedge clk) if (!rst && state_reg == ST_PRE && !slow_only_reg)
    assert (fast_edge_moves_read == fast_edge_moves(s, fast_data_reg, seg_end_reg, rxread_rd.rx_read) &&
            (fast_edge_moves_read ? adv_edge_target(fast_edges) : s.rcv_adv) ==
            (fast_data_reg ? adv_edge(s.rcv_adv, seg_end_reg, rxread_rd.rx_read, s.mss, 1'b0, RING, MAX_WIN)
                           : adv_edge(s.rcv_adv, s.rcv_nxt, rxread_rd.rx_read, s.mss, s.ooo[0].on, RING, MAX_WIN)))
      else $error("toe_tcp_core: session %0d fast path's advertised edge differs from adv_edge's", sid_reg);
  // a reserved event starts as the one its source still offers: every source holds its
  // output until taken (the engines' FIFOs; the app's requests by the AXI-Stream rule), so
  // the session read at the start is the event's (an open's session comes later)
  always @(posedge clk) if (!rst && start && pick_kind_reg != EV_OPEN)
    assert (ev_sid[pick_kind_reg] == pick_sid_reg)
      else $error("toe_tcp_core: reserved event of kind %0d for session %0d starts as session %0d",
                  pick_kind_reg, pick_sid_reg, ev_sid[pick_kind_reg]);
  // the tuple check at the start gives what the record read for ST_PRE holds: a found
  // segment (not a new session's) is the session's exactly when the record has its tuple
  always @(posedge clk) if (!rst && state_reg == ST_PRE)
    assert (tuple_check_reg == (ev_reg == EV_SEG && !new_reg))
      else $error("toe_tcp_core: session %0d tuple check bit differs from the event's kind", sid_reg);
  always @(posedge clk) if (!rst && state_reg == ST_PRE && ev_reg == EV_SEG && !new_reg)
    assert (found_now == (found_reg && tuple_of(rd_sess) ==
                          tuple_t'{remote_ip: g.remote_ip, remote_port: g.remote_port, local_port: g.local_port}))
      else $error("toe_tcp_core: session %0d tuple check at the start differs from the record", sid_reg);
  // the edge computed with the step is the one of the record the finish reads
  always @(posedge clk) if (!rst && post_valid)
    assert ((post_edge_moves_reg ? post_edge_moved_reg : post_sess_reg.rcv_adv) ==
            adv_edge_of(post_sess_reg, post_rx_read_reg, post_was_rcv_nxt_reg) &&
            post_edge_moves_reg == edge_moves_of(post_sess_reg, post_rx_read_reg, post_was_rcv_nxt_reg) &&
            (!post_edge_moves_reg || post_edge_moved_reg != post_sess_reg.rcv_adv))
      else $error("toe_tcp_core: session %0d advertised edge computed with the step differs from the finish's", post_sid_reg);
  // the advertised edge's sums are exact in ring width (toe_tcp_pkg::neg_in_ring): the
  // unread bytes and the advertised edge stay within the ring, the window within MAX_WIN
  // (RCV.ADV may trail RCV.NXT by the FIN's one)
  always @(posedge clk) if (!rst && post_valid && post_sess_reg.state != FREE && post_sess_reg.state != SYN_SENT &&
                            post_sess_reg.state != CLOSED)
    assert (post_sess_reg.rcv_nxt - post_rx_read_reg <= RING && post_sess_reg.rcv_adv - post_rx_read_reg + 1 <= RING + 1 &&
            post_sess_reg.rcv_adv - post_sess_reg.rcv_nxt + 1 <= MAX_WIN + 1)
      else $error("toe_tcp_core: session %0d RCV.NXT %0d, RCV.ADV %0d, RX_READ %0d outside the ring's distances",
                  post_sid_reg, post_sess_reg.rcv_nxt, post_sess_reg.rcv_adv, post_rx_read_reg);
  // the read engine's wake bit's window tests are the windows' compares
  always @(posedge clk) if (!rst && post_write && fin_sess.state != FREE && fin_sess.state != SYN_SENT &&
                            fin_sess.state != CLOSED)
    assert (adv_kept_below_half == (adv_wnd_kept < (RING >> 1)) && (!adv_moves || adv_moved_below_half == (adv_wnd_moved < (RING >> 1))))
      else $error("toe_tcp_core: session %0d window below half the ring differs from its compare", post_sid_reg);
  // the arm step's side-by-side test is the chosen deadline's
  always @(posedge clk) if (!rst && arm_step_reg)
    assert (arm_at_moved == (arm_in.at != arm_old_at_reg)) else $error("toe_tcp_core: arm step's deadline test differs");
  // the advertised right edge never moves left within a connection
  always @(posedge clk) if (!rst && post_write && post_edge_kept_reg)
    assert (seq_le(post_sess_reg.rcv_adv, fin_sess.rcv_adv))
      else $error("toe_tcp_core: session %0d advertised right edge moved left", post_sid_reg);
  // queues pushed without a handshake always have room: the post stage's (cmd_room_reg,
  // arm_room_reg), the RX writer's (rxw_room_reg), the step's (notif_room_reg, steer_room_reg,
  // openrsp_room_reg, dbg_room_reg) and the send queue (each session in it once)
  always @(posedge clk) if (!rst) begin
    assert (!(do_cmd && !q_cmd_ready)) else $error("toe_tcp_core: segment command queue overflow");
    assert (!(do_notif && !q_notif_ready)) else $error("toe_tcp_core: notification queue overflow");
    assert (!(do_steer && !q_steer_ready)) else $error("toe_tcp_core: steering queue overflow");
    assert (!(do_openrsp && !q_openrsp_ready)) else $error("toe_tcp_core: open response queue overflow");
    assert (!(do_dbg && !q_dbg_ready)) else $error("toe_tcp_core: debug response queue overflow");
    assert (!(do_arm && !arm_q_ready)) else $error("toe_tcp_core: timer wheel queue overflow");
    assert (!((do_rxw || push_rxw2) && !q_rxw_ready)) else $error("toe_tcp_core: RX writer job queue overflow");
    assert (!(do_sendq && !q_sendq_ready)) else $error("toe_tcp_core: send queue overflow");
    assert (!(do_release && !rel_q_ready)) else $error("toe_tcp_core: release queue overflow");
  end
  // the counts ahead of the verdict: a queue's entries (pushes less pops) plus a refund to come
  logic [5:0] steer_entries_reg;
  logic [4:0] rxw_entries_reg;
  logic [3:0] arm_entries_reg;
  always @(posedge clk) begin
    steer_entries_reg <= steer_entries_reg + 6'(do_steer) - 6'(m_steer_valid && m_steer_ready);
    rxw_entries_reg <= rxw_entries_reg + 5'(do_rxw) + 5'(push_rxw2) - 5'(m_rxw_job_valid && m_rxw_job_ready);
    arm_entries_reg <= arm_entries_reg + 4'(do_arm) - 4'(arm_valid && arm_ready);
    if (rst) {steer_entries_reg, rxw_entries_reg, arm_entries_reg} <= '0;
    else begin
      assert (arm_count_reg == arm_entries_reg + 4'(arm_refund_reg))
        else $error("toe_tcp_core: timer wheel queue count %0d, entries %0d", arm_count_reg, arm_entries_reg);
      assert (steer_count_reg == steer_entries_reg + 6'(steer_reserved_reg))
        else $error("toe_tcp_core: steering count %0d, entries %0d", steer_count_reg, steer_entries_reg);
      assert (rxw_count_reg == rxw_entries_reg + 5'(rxw_reserved_reg))
        else $error("toe_tcp_core: RX writer job count %0d, entries %0d", rxw_count_reg, rxw_entries_reg);
      assert (!(fast_push_steer && !steer_reserved_reg)) else $error("toe_tcp_core: fast steering push without its place");
      assert (!(fast_push_rxw && !rxw_reserved_reg)) else $error("toe_tcp_core: fast RX writer push without its place");
    end
  end
  // the shared ISN unit answers the core only for the hash it asked for
  always @(posedge clk) if (!rst)
    assert (!isn_rsp_valid || state_reg == ST_ISN_WAIT)
      else $error("toe_tcp_core: an active open's ISN outside ST_ISN_WAIT");
  // a passive open's ISN was hashed ahead (a new session comes only from a SYN that asked
  // for one, and asking hashed it); such a segment takes the slow path, whose tail takes
  // the ISN, and its step runs only once the ISN is there
  always @(posedge clk) if (!rst && !at_idle && state_reg != ST_INIT && ev_reg == EV_SEG) begin
    assert (!new_reg || isn_asked_reg) else $error("toe_tcp_core: session %0d new without an ISN", sid_reg);
    assert (!(state_reg == ST_PRE && isn_asked_reg && fast))
      else $error("toe_tcp_core: session %0d: a segment with an ISN took the fast path", sid_reg);
    assert (!(state_reg == ST_EXEC && isn_asked_reg && !s_isn_valid))
      else $error("toe_tcp_core: session %0d: the step ran without its ISN", sid_reg);
  end
`endif
endmodule
