// SPDX-License-Identifier: Apache-2.0
// toe_tcp_step_pkg: what passes between the protocol core's sequencer (toe_tcp_core) and
// the two paths an event takes (toe_tcp_fast_path, toe_tcp_slow_path): the event's kind,
// the slow path's pre-stage compares (pre_t), an event step's result (step_t: the record
// after it and every output) and the settings the slow path reads (proto_cfg_t). No
// state, no clock.
package toe_tcp_step_pkg;
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;
  import toe_tcp_sess_pkg::*;

  // The core's events, by source (toe_tcp_core picks one at a time)
  typedef enum logic [3:0] {
    EV_RD_WAKE, EV_OPEN, EV_CLOSE, EV_TX_WAKE, EV_SEG,
    EV_SENDQ, EV_TIMER, EV_DBG, EV_TOLD
  } event_e;   // (EV_TOLD last: the core counts the kinds by it)

  // The protocol settings (toe_tcp's cfg_* ports, which say what each is; docs/registers.md)
  typedef struct packed {
    logic [47:0] mem_base;
    logic [15:0] mss, mss_min;
    logic [31:0] fin_wait_2_us, keepalive_idle_us, keepalive_intvl_us;
    logic [3:0]  keepalive_probes;
    logic [31:0] rto_init_us, rto_min_us, rto_max_us;
    logic [3:0]  max_retries, synrcvd_retries;
    logic [31:0] delack_us, time_wait_us;
    logic        drop_synfin, rfc5961_rst, rfc5961_syn, nagle;
  } proto_cfg_t;

  // What to send, decided during the step and built at its end (with the final window).
  typedef enum logic [2:0] {SEND_NONE, SEND_ACK, SEND_DATA, SEND_SYN, SEND_SYNACK, SEND_FIN, SEND_RST, SEND_PROBE} send_e;
  // the counters an event step moves
  typedef struct packed {
    logic active, passive, fail, estab_rst, rst, retrans, wdrop, chall, badflags, apperr, mss_clamp, half_open, ooo;
  } step_count_t;
  // An event step's result: the record and every output
  typedef struct packed {
    sess_t         ns;             // the record after it
    send_e         send;           // the segment it chose (or none)
    logic [31:0]   send_seq, rst_ack;
    logic          rst_with_ack;
    logic          rst_to_seg;     // the RST goes to the segment's tuple, not the record's
    logic          do_notif;       // a notification, of this kind and length
    tcp_notif_kind_e notif_kind;
    logic [15:0]   notif_length;
    logic          do_rxw, do_rxw2; // RX writer jobs (the second: the end marker after payload)
    tcp_ring_job_t rxw;
    logic          do_steer, steer_accept;   // the segment's payload verdict
    logic          do_openrsp, open_ok;      // the answer to an app's open
    logic          do_dbg;
    step_count_t   count;
    // what it leaves to the send step (post stage)
    logic          try_send;       // data or a FIN may go
    logic          sws_override;   // the SWS override timer fired: send what fits
    logic          ack_now;        // an ACK is due (unless another segment goes)
    logic          ack_second;     // the ACK of a second full-sized segment is due: it rides on
                                   // the session's data when that waits in the send queue
    logic          heard;          // an acceptable ACK: restarts the keepalive timer
    // what its kind's step leaves to the tail
    logic          end_marker;     // the connection ends in this step: queue the final marker
    logic [2:0]    end_tag;        // the notification the marker gives
    logic          peer_fin;       // the end marker tells the peer's FIN (the receive side ends only)
    logic          gave_up;        // a timer gave up: abort
    logic          una_from_ack;   // SND.UNA becomes SEG.ACK
    logic          rtt_take;       // an RTT sample: SRTT, RTTVAR and RTO from the estimator (rtt_reg)
    logic          rto_sampled;    // the retransmission timer restarts now with that RTO
    logic          rx_init;        // the step makes a new connection's RX_DONE, RX_REQ and RX_READ
    logic [31:0]   rx_first;       // its first sequence number
    logic          tx_init;        // the step makes a new connection's TX_APP (ISN + 1)
    logic          tx_clear_want;  // the step gave NOTIF_TX_SPACE for the TX_WANT it read
  } step_t;

  // The step that does nothing: every output's value when a step does not set it (ACKs
  // and RSTs carry SND.MAX: after going back N, SND.NXT can be below the peer's RCV.NXT,
  // and the peer would drop them as old segments; a payload job goes to the session's RX
  // ring at `rx_base`, from the segment's first byte, and tells DATA)
  function automatic step_t step_none(input sess_t s, input tcp_seg_t g, input sid_t sid, input logic [47:0] rx_base);
    step_t y = '0;
    y.ns = s;
    y.send = SEND_NONE;
    y.send_seq = s.snd_max;
    y.notif_kind = NOTIF_DATA;
    y.rxw = '{session: sid, tag: 3'(NOTIF_DATA), base: rx_base, offset: g.seq, length: '0, skip: '0, reassembled: '0};
    y.end_tag = RING_TAG_NONE;
    y.rx_first = g.seq + 1;
    return y;
  endfunction

  // which of the session's timers a due deadline is (the timer event's step, in this order)
  typedef enum logic [2:0] {
    TMR_TIME_WAIT,   // TIME-WAIT ends
    TMR_PERSIST,     // the peer's window is closed: probe it
    TMR_OVERRIDE,    // data held back by sender SWS avoidance, nothing in flight: send it
    TMR_IDLE,        // nothing in flight: FIN-WAIT-2 timeout, keepalive, or none
    TMR_RETRANS      // retransmission (or SYN, SYN-ACK)
  } tmr_case_e;
  // the slow path's pre stage: every compare and sum its step uses, of the record, the
  // segment and the engines' values (toe_tcp_slow_path; the fast path takes rd_wake_ack)
  typedef struct packed {
    logic        found, no_conn;       // the event's session (for a segment: its tuple's); none or closed
    logic        payload;              // the segment carries data
    logic [31:0] seglen, wnd;          // SEG.LEN with SYN and FIN; RCV.WND as advertised
    ack_kind_e   ack_kind;
    logic        acceptable, syn_in_window, syn_repeated, at_rcv_nxt, ack_not_max, ack_past_nxt,
                 una_is_max, wnd_ok, wnd_grows, fin_acked;
    logic        sample;               // the ACK covers the timed segment
    logic [31:0] rtt_r;                // the RTT sample: s.rtt_t0 .. now, at least 1
    logic [31:0] at_rto;               // now + RTO (before a sample)
    logic [31:0] syn_take;             // data on a SYN-ACK that fits our SYN's window
    mss_t        peer;                 // the peer's MSS option, clamped (peer_mss)
    logic [31:0] reasm_hi;             // the segment's end within the window (reasm_place's seg_hi)
    reasm_rel_t  reasm_cmp;            // reasm_place's compares and stop (reasm_cmp: the rest not derived)
    logic        in_order, ooo_ahead, fin_at_nxt;
    logic        past_adv;             // the segment ends past the window
    logic        seg_short;            // SEG.LEN < MSS
    logic        ooo0_at_end;          // interval 0 ends at the segment's end
    logic        rd_wake_ack;          // a read opened the window by a step (EV_RD_WAKE)
    logic        tmr_due, dack_due, retry_max, retry_give_up, probes_max, data_waiting, wants_window;
    logic        tmr_fires, dack_fires;  // a live session's timer / delayed ACK is due
    tmr_case_e   tmr_case;             // which timer it is
    logic        idle_fw2, idle_keepalive;  // the idle timer is FIN-WAIT-2's timeout / keepalive
    logic [31:0] rto_backoff, at_rto_backoff;
    logic        space_una, space_ack; // TX_WANT fits the TX ring with SND.UNA as read / SEG.ACK
    logic [31:0] free_una, free_ack;
    logic        rx_quiet, read_all;
    logic        rx_readable, tx_app_fixed;
    logic [31:0] rx_read, tx_app;
    logic [16:0] tx_want;
  } pre_t;
endpackage
