// SPDX-License-Identifier: Apache-2.0
// toe_tcp_slow_path_tb: toe_tcp_slow_path with the record fields the connection's state
// machine reads on ports of their own (the others zero: no RTT sample, no stored
// out-of-order intervals but interval 0, the data a SYN carried, held in SYN-RECEIVED),
// the segment's fields, and the result's fields the unit test checks against its Python
// reference of the RFC text. The test runs the four stages as
// the core's sequencer does (at_pre, at_pre2, at_exec, then at_tail, read combinationally).
module toe_tcp_slow_path_tb
  import toe_tcp_pkg::*;
  import toe_tcp_sess_pkg::*;
  import toe_tcp_step_pkg::*;
(
  input  logic        clk,
  input  logic        rst,
  input  logic        at_pre, at_pre2, at_exec, at_tail,
  input  logic [3:0]  ev,
  input  logic        found, new_sess, listening, capped,
  input  logic        close_rst,       // EV_CLOSE: an abort
  input  logic        cfg_drop_synfin, cfg_rfc5961_rst, cfg_rfc5961_syn,
  input  logic [31:0] cfg_rto_max_us,
  input  logic [3:0]  cfg_max_retries, cfg_synrcvd_retries,
  input  logic [31:0] isn, now_us,
  input  logic [31:0] seg_seq, seg_ack,
  input  logic [7:0]  seg_flags,
  input  logic [15:0] seg_window,
  input  logic [15:0] seg_length,      // payload bytes
  // the record
  input  logic [3:0]  i_state,
  input  logic [31:0] i_snd_una, i_snd_nxt, i_snd_max, i_snd_wl1, i_snd_wl2,
  input  logic [15:0] i_snd_wnd, i_max_sndwnd,
  input  logic [31:0] i_tx_done, i_rcv_nxt, i_rcv_adv,
  input  logic [31:0] i_rto,
  input  logic [3:0]  i_retries,
  input  logic        i_tmr_on,
  input  logic [31:0] i_tmr_at,
  input  logic        i_dack_on,
  input  logic [31:0] i_dack_at,
  input  logic        i_fin_rcvd, i_fin_sent, i_active, i_ended, i_orderly, i_close_req,
  input  logic        i_ooo0_on,
  input  logic [31:0] i_ooo0_lo, i_ooo0_hi,
  // the result
  output logic [3:0]  o_state,
  output logic [2:0]  o_send,
  output logic [31:0] o_send_seq, o_rst_ack,
  output logic        o_rst_with_ack, o_ack_now,
  output logic        o_end_marker,
  output logic [2:0]  o_end_tag,
  output logic        o_do_notif,
  output logic [2:0]  o_notif_kind,
  output logic        o_chall, o_wdrop, o_badflags, o_apperr,
  output logic        o_open_rsp, o_open_ok, o_try_send, o_close_req, o_orderly,
  output logic [31:0] o_rcv_nxt, o_snd_una, o_snd_nxt,
  output logic [3:0]  o_retries,
  output logic [31:0] o_rto,
  output logic        o_tmr_on,
  output logic [31:0] o_tmr_at,
  output logic        o_ooo0_on,
  output logic [31:0] o_ooo0_lo, o_ooo0_hi,
  // the RX writer job and the payload's verdict
  output logic        o_do_rxw, o_steer_accept,
  output logic [31:0] o_rxw_offset,
  output logic [16:0] o_rxw_length,
  output logic [2:0]  o_rxw_tag,
  output logic [15:0] o_rxw_reassembled
);
  localparam int unsigned MAX_SESSIONS = 16;
  localparam int unsigned RING_BYTES = 65536;

  sess_t rec;
  always_comb begin
    rec = '0;
    rec.state = tcp_state_e'(i_state);
    {rec.snd_una, rec.snd_nxt, rec.snd_max, rec.snd_wl1, rec.snd_wl2} = {i_snd_una, i_snd_nxt, i_snd_max, i_snd_wl1, i_snd_wl2};
    {rec.snd_wnd, rec.max_sndwnd, rec.tx_done, rec.rcv_nxt, rec.rcv_adv} = {i_snd_wnd, i_max_sndwnd, i_tx_done, i_rcv_nxt, i_rcv_adv};
    {rec.mss, rec.rto, rec.retries} = {16'd1460, i_rto, i_retries};
    {rec.tmr_on, rec.tmr_at, rec.dack_on, rec.dack_at} = {i_tmr_on, i_tmr_at, i_dack_on, i_dack_at};
    {rec.fin_rcvd, rec.fin_sent, rec.active, rec.ended, rec.orderly, rec.close_req} =
      {i_fin_rcvd, i_fin_sent, i_active, i_ended, i_orderly, i_close_req};
    {rec.remote_ip, rec.remote_port, rec.local_port} = {32'hC0000201, 16'd40000, 16'd80};
    rec.ooo[0] = '{on: i_ooo0_on, lo: i_ooo0_lo, hi: i_ooo0_hi};
  end
  tcp_seg_t seg;
  assign seg = '{remote_ip: 32'hC0000201, remote_port: 16'd40000, local_port: 16'd80, seq: seg_seq, ack: seg_ack,
                 flags: seg_flags, window: seg_window, mss: '0, length: seg_length};
  wire [31:0] seg_len = 32'(seg_length) + 32'(seg_flags[F_SYN]) + 32'(seg_flags[F_FIN]);
  proto_cfg_t cfg;
  assign cfg = '{mem_base: '0, mss: 16'd1460, mss_min: 16'd536, fin_wait_2_us: '0, keepalive_idle_us: '0,
                 keepalive_intvl_us: 32'd75000000, keepalive_probes: 4'd9, rto_init_us: 32'd1000000,
                 rto_min_us: 32'd200000, rto_max_us: cfg_rto_max_us, max_retries: cfg_max_retries,
                 synrcvd_retries: cfg_synrcvd_retries, delack_us: 32'd40000, time_wait_us: 32'd60000000,
                 drop_synfin: cfg_drop_synfin, rfc5961_rst: cfg_rfc5961_rst, rfc5961_syn: cfg_rfc5961_syn, nagle: 1'b0};

  pre_t pre, pre_reg;
  step_t kept, t;
  toe_tcp_slow_path #(.MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES)) u_dut (
    .clk, .rst, .at_pre, .at_pre2, .at_exec, .at_tail, .ev(event_e'(ev)), .sid('0), .rx_base('0), .seg,
    .seg_end(seg_seq + 32'(seg_length)), .seg_last(seg_seq + seg_len - 32'd1), .found, .new_sess, .listening, .capped,
    .open_req('{remote_ip: 32'hC0000202, remote_port: 16'd443}), .open_lport(16'd50000), .close_rst, .isn, .rec,
    .tx_app(i_tx_done), .tx_want('0), .sendable(1'b1), .rx_read(i_rcv_nxt), .rx_req(i_rcv_nxt), .readable(1'b0),
    .rx_done(i_rcv_nxt), .now_us, .cfg, .pre, .pre_reg, .step_kept(kept), .step_tail(t)
  );

  assign {o_state, o_send, o_send_seq, o_rst_ack, o_rst_with_ack, o_ack_now} =
         {4'(t.ns.state), 3'(t.send), t.send_seq, t.rst_ack, t.rst_with_ack, t.ack_now};
  assign {o_end_marker, o_end_tag, o_do_notif, o_notif_kind} = {t.end_marker, t.end_tag, t.do_notif, 3'(t.notif_kind)};
  assign {o_chall, o_wdrop, o_badflags, o_apperr} = {t.count.chall, t.count.wdrop, t.count.badflags, t.count.apperr};
  assign {o_open_rsp, o_open_ok, o_try_send, o_close_req, o_orderly} =
         {t.do_openrsp, t.open_ok, t.try_send, t.ns.close_req, t.ns.orderly};
  assign {o_rcv_nxt, o_snd_una, o_snd_nxt, o_retries, o_rto, o_tmr_on, o_tmr_at} =
         {t.ns.rcv_nxt, t.ns.snd_una, t.ns.snd_nxt, t.ns.retries, t.ns.rto, t.ns.tmr_on, t.ns.tmr_at};
  assign {o_ooo0_on, o_ooo0_lo, o_ooo0_hi} = {t.ns.ooo[0].on, t.ns.ooo[0].lo, t.ns.ooo[0].hi};
  assign {o_do_rxw, o_steer_accept, o_rxw_offset, o_rxw_length, o_rxw_tag, o_rxw_reassembled} =
         {t.do_rxw, t.steer_accept, t.rxw.offset, t.rxw.length, t.rxw.tag, t.rxw.reassembled};
endmodule
