// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rules_tb: every function of toe_tcp_rules_pkg on its own ports (combinational),
// for the unit test against the Python reference of the RFC text.
module toe_tcp_rules_tb
  import toe_tcp_pkg::*;
  import toe_tcp_rules_pkg::*;
(
  input  logic [31:0] acc_seq, acc_last, acc_rcv_nxt, acc_rcv_adv,
  input  logic        acc_empty,
  output logic        acc_ok,
  input  logic [31:0] ack_ack, ack_una, ack_max,
  input  logic [15:0] ack_max_wnd,
  output logic [1:0]  ack_kind,
  input  logic [31:0] wu_una, wu_wl1, wu_wl2, wu_seq, wu_ack,
  output logic        wu_ok,
  input  logic [31:0] rtt_srtt8, rtt_rttvar4, rtt_r, rtt_min, rtt_max,
  output logic [31:0] rtt_srtt8_o, rtt_rttvar4_o, rtt_rto_o,
  input  logic [31:0] rtt_now, rtt_sent,
  output logic [31:0] rtt_us_o,
  input  logic [31:0] snd_una, snd_nxt, snd_max, snd_queued_end,
  input  logic [15:0] snd_wnd, snd_max_wnd, snd_mss,
  input  logic        snd_nagle, snd_force,
  output logic [15:0] snd_len,
  output logic        snd_go, snd_held, snd_more,
  output logic [31:0] snd_nxt_o, snd_max_o,
  input  logic [31:0] adv_rcv_adv, adv_rcv_nxt, adv_rx_read, adv_ring, adv_max_win,
  input  logic [15:0] adv_mss,
  input  logic        adv_dup,
  output logic [31:0] adv_edge_o,
  output logic        adv_moves_o,
  input  logic [15:0] mss_opt, mss_our, mss_floor,
  output logic [15:0] mss_o,
  output logic        mss_clamped,
  input  ooo_set_t    ra_set,
  input  logic [31:0] ra_rcv_nxt, ra_lo, ra_hi, ra_ring,
  output logic        ra_store, ra_evicted,
  output logic [31:0] ra_lo_o, ra_hi_o, ra_rcv_nxt_o, ra_joined,
  output ooo_set_t    ra_set_o,
  output logic        ra_set_ok,      // reasm_set_ok of the input set
  output logic        ra_set_o_ok     // and of the one reasm_place returns
);
  rtt_t rtt;
  send_t snd;
  mss_t mss;
  assign acc_ok = seg_acceptable(acc_seq, acc_last, acc_empty, acc_rcv_nxt, acc_rcv_adv);
  assign ack_kind = ack_check(ack_ack, ack_una, ack_max, ack_max_wnd);
  assign wu_ok = wnd_update_ok(wu_una, wu_wl1, wu_wl2, wu_seq, wu_ack);
  assign rtt = rtt_sample('{srtt8: rtt_srtt8, rttvar4: rtt_rttvar4, rto: '0}, rtt_r, rtt_min, rtt_max);
  assign {rtt_srtt8_o, rtt_rttvar4_o, rtt_rto_o} = {rtt.srtt8, rtt.rttvar4, rtt.rto};
  assign rtt_us_o = rtt_sample_us(rtt_now, rtt_sent);
  assign snd = send_size(snd_una, snd_nxt, snd_max, snd_queued_end, snd_wnd, snd_max_wnd, snd_mss,
                         snd_nagle, snd_force);
  assign {snd_len, snd_go, snd_held, snd_nxt_o, snd_max_o, snd_more} = {snd.len, snd.go, snd.held, snd.nxt, snd.max, snd.more};
  assign adv_edge_o = adv_edge(adv_rcv_adv, adv_rcv_nxt, adv_rx_read, adv_mss, adv_dup, adv_ring, adv_max_win);
  assign adv_moves_o = adv_edge_moves(adv_rcv_adv, adv_rcv_nxt, adv_rx_read, adv_mss, adv_dup, adv_ring, adv_max_win);
  assign mss = peer_mss(mss_opt, mss_our, mss_floor);
  assign {mss_o, mss_clamped} = {mss.mss, mss.clamped};
  reasm_t ra;
  assign ra = reasm_place(ra_set, ra_rcv_nxt, ra_lo, ra_hi);
  assign {ra_store, ra_evicted, ra_lo_o, ra_hi_o, ra_rcv_nxt_o, ra_joined, ra_set_o} =
         {ra.store, ra.evicted, ra.lo, ra.hi, ra.rcv_nxt, ra.joined, ra.set};
  assign ra_set_ok = reasm_set_ok(ra_set, ra_rcv_nxt, ra_ring);
  assign ra_set_o_ok = reasm_set_ok(ra.set, ra.rcv_nxt, ra_ring);
endmodule
