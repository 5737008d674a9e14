// SPDX-License-Identifier: Apache-2.0
// toe_tcp_fast_path_tb: toe_tcp_fast_path with the record's hot fields on ports of their
// own, for the unit test against the Python reference of the RFC text. The record read is
// given as one of the three candidates (`pick`: 0 the RAM's, 1 the newest write, 2 the one
// before); the other two are decoys (every hot bit inverted), so a verdict taken from the
// wrong candidate shows. The cold part is `cold_in`, which the result must not carry.
module toe_tcp_fast_path_tb
  import toe_tcp_pkg::*;
  import toe_tcp_sess_pkg::*;
(
  input  logic        clk,
  input  logic        rst,
  input  logic        is_seg, is_rd_wake, seg_may, wake_may, with_data, found, rd_wake_ack,
  input  logic [31:0] seg_seq, seg_ack,
  input  logic [7:0]  seg_flags,
  input  logic [15:0] seg_window, seg_length,
  input  logic [31:0] seg_end,
  input  logic [1:0]  pick,
  input  logic [16:0] tx_want,
  input  logic [31:0] now_us, cfg_delack_us,
  input  logic [$bits(cold_t)-1:0] cold_in,
  // the record's hot fields and TX_DONE, in and out
  input  logic [3:0]  i_state,
  input  logic [31:0] i_snd_una, i_snd_nxt, i_snd_max, i_snd_wl1, i_snd_wl2,
  input  logic [15:0] i_snd_wnd, i_max_sndwnd,
  input  logic [31:0] i_tx_done, i_rcv_nxt, i_rcv_adv,
  input  logic [15:0] i_mss,
  input  logic [31:0] i_rto,
  input  logic        i_rtt_on,
  input  logic [31:0] i_rtt_seq,
  input  logic [3:0]  i_retries,
  input  logic        i_tmr_on,
  input  logic [31:0] i_tmr_at,
  input  logic        i_dack_on,
  input  logic [31:0] i_dack_at,
  input  logic        i_dack_one,
  input  logic [2:0]  i_dack_defers,
  input  logic        i_fin_rcvd, i_fin_sent, i_close_req, i_in_sendq, i_ended, i_end_told, i_orderly,
  input  logic        i_ooo0_on,
  input  logic [31:0] i_ooo0_lo,
  output logic        fast, ack_now, ack_second,
  output logic        cold_zero,   // the result's cold part is zero
  output logic [3:0]  o_state,
  output logic [31:0] o_snd_una, o_snd_nxt, o_snd_max, o_snd_wl1, o_snd_wl2,
  output logic [15:0] o_snd_wnd, o_max_sndwnd,
  output logic [31:0] o_tx_done, o_rcv_nxt, o_rcv_adv,
  output logic [15:0] o_mss,
  output logic [31:0] o_rto,
  output logic        o_rtt_on,
  output logic [31:0] o_rtt_seq,
  output logic [3:0]  o_retries,
  output logic        o_tmr_on,
  output logic [31:0] o_tmr_at,
  output logic        o_dack_on,
  output logic [31:0] o_dack_at,
  output logic        o_dack_one,
  output logic [2:0]  o_dack_defers,
  output logic        o_fin_rcvd, o_fin_sent, o_close_req, o_in_sendq, o_ended, o_end_told, o_orderly,
  output logic        o_ooo0_on,
  output logic [31:0] o_ooo0_lo
);
  hot_t hot, decoy_hot;
  assign hot = '{state: tcp_state_e'(i_state), snd_una: i_snd_una, snd_nxt: i_snd_nxt, snd_max: i_snd_max,
                 snd_wl1: i_snd_wl1, snd_wl2: i_snd_wl2, snd_wnd: i_snd_wnd, max_sndwnd: i_max_sndwnd,
                 rcv_nxt: i_rcv_nxt, rcv_adv: i_rcv_adv, mss: i_mss, rto: i_rto, rtt_on: i_rtt_on,
                 rtt_seq: i_rtt_seq, retries: i_retries, tmr_on: i_tmr_on, tmr_at: i_tmr_at, dack_on: i_dack_on,
                 dack_at: i_dack_at, dack_one: i_dack_one, dack_defers: i_dack_defers, fin_rcvd: i_fin_rcvd,
                 fin_sent: i_fin_sent, close_req: i_close_req, in_sendq: i_in_sendq, ended: i_ended,
                 end_told: i_end_told, orderly: i_orderly, ooo0_on: i_ooo0_on, ooo0_lo: i_ooo0_lo};
  assign decoy_hot = ~hot;
  sess_t rec, decoy, next;
  assign rec = record_of(hot, cold_t'(cold_in), i_tx_done);
  assign decoy = record_of(decoy_hot, cold_t'(cold_in), ~i_tx_done);
  tcp_seg_t seg;
  assign seg = '{remote_ip: '0, remote_port: '0, local_port: '0, seq: seg_seq, ack: seg_ack, flags: seg_flags,
                 window: seg_window, mss: '0, length: seg_length};

  toe_tcp_fast_path u_dut (
    .clk, .rst, .check(1'b1), .is_seg, .is_rd_wake, .seg_may, .wake_may, .with_data, .seg, .seg_end, .found,
    .rec, .rec_ram(pick == 2'd0 ? rec : decoy), .rec_new(pick == 2'd1 ? rec : decoy),
    .rec_old(pick == 2'd2 ? rec : decoy), .rec_is_new(pick == 2'd1), .rec_is_old(pick == 2'd2),
    .tx_want, .rd_wake_ack, .now_us, .cfg_delack_us, .fast, .next, .ack_now, .ack_second
  );

  hot_t o;
  assign o = hot_of(next);
  assign cold_zero = cold_of(next) == '0;
  assign {o_state, o_snd_una, o_snd_nxt, o_snd_max, o_snd_wl1, o_snd_wl2, o_snd_wnd, o_max_sndwnd} =
         {4'(o.state), o.snd_una, o.snd_nxt, o.snd_max, o.snd_wl1, o.snd_wl2, o.snd_wnd, o.max_sndwnd};
  assign {o_tx_done, o_rcv_nxt, o_rcv_adv, o_mss, o_rto, o_rtt_on, o_rtt_seq, o_retries} =
         {next.tx_done, o.rcv_nxt, o.rcv_adv, o.mss, o.rto, o.rtt_on, o.rtt_seq, o.retries};
  assign {o_tmr_on, o_tmr_at, o_dack_on, o_dack_at, o_dack_one, o_dack_defers} =
         {o.tmr_on, o.tmr_at, o.dack_on, o.dack_at, o.dack_one, o.dack_defers};
  assign {o_fin_rcvd, o_fin_sent, o_close_req, o_in_sendq, o_ended, o_end_told, o_orderly, o_ooo0_on, o_ooo0_lo} =
         {o.fin_rcvd, o.fin_sent, o.close_req, o.in_sendq, o.ended, o.end_told, o.orderly, o.ooo0_on, o.ooo0_lo};
endmodule
