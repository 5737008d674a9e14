// SPDX-License-Identifier: Apache-2.0
// toe_tcp_send_step_tb: toe_tcp_send_step with the record fields the send decision reads
// and writes on ports of their own (the others zero), for the unit test against its Python
// reference of the RFC text. The record is given as the slow step's (`step_rec`, in
// at_tail) and as the post stage's (`rec`, in the size and send steps): one record.
module toe_tcp_send_step_tb
  import toe_tcp_pkg::*;
  import toe_tcp_sess_pkg::*;
  import toe_tcp_step_pkg::*;
(
  input  logic        clk,
  input  logic        rst,
  input  logic        at_tail, at_size,
  input  logic [2:0]  chosen,
  input  logic [31:0] chosen_seq,
  input  logic        try_send, sws_override, tx_app_fixed, persist_before, nagle, sendq_room,
  input  logic [31:0] tx_app, now_us,
  input  logic [3:0]  i_state,
  input  logic [31:0] i_snd_una, i_snd_nxt, i_snd_max,
  input  logic [15:0] i_snd_wnd, i_max_sndwnd, i_mss,
  input  logic [31:0] i_tx_done, i_rto,
  input  logic [3:0]  i_retries,
  input  logic        i_tmr_on,
  input  logic [31:0] i_tmr_at,
  input  logic        i_rtt_on,
  input  logic [31:0] i_rtt_seq, i_rtt_t0,
  input  logic        i_close_req, i_fin_sent, i_in_sendq,
  output logic [2:0]  o_send,
  output logic [31:0] o_seq,
  output logic [15:0] o_len,
  output logic        o_sendq,
  output logic        o_others_kept,   // the fields not on ports are the record's
  output logic [3:0]  o_state,
  output logic [31:0] o_snd_nxt, o_snd_max,
  output logic [3:0]  o_retries,
  output logic        o_tmr_on,
  output logic [31:0] o_tmr_at,
  output logic        o_rtt_on,
  output logic [31:0] o_rtt_seq, o_rtt_t0,
  output logic        o_fin_sent, o_in_sendq
);
  sess_t rec, sent, sent_ports_cleared;
  always_comb begin
    rec = '0;
    rec.state = tcp_state_e'(i_state);
    {rec.snd_una, rec.snd_nxt, rec.snd_max, rec.snd_wnd, rec.max_sndwnd, rec.mss} =
      {i_snd_una, i_snd_nxt, i_snd_max, i_snd_wnd, i_max_sndwnd, i_mss};
    {rec.tx_done, rec.rto, rec.retries, rec.tmr_on, rec.tmr_at} = {i_tx_done, i_rto, i_retries, i_tmr_on, i_tmr_at};
    {rec.rtt_on, rec.rtt_seq, rec.rtt_t0} = {i_rtt_on, i_rtt_seq, i_rtt_t0};
    {rec.close_req, rec.fin_sent, rec.in_sendq} = {i_close_req, i_fin_sent, i_in_sendq};
    {rec.rcv_nxt, rec.rcv_adv, rec.remote_ip} = {32'h1234_5678, 32'h1234_8678, 32'hC000_0201};
  end
  send_e send;
  toe_tcp_send_step u_dut (
    .clk, .rst, .at_tail, .step_rec(rec), .at_size, .rec, .chosen(send_e'(chosen)), .chosen_seq, .try_send,
    .sws_override, .tx_app_fixed, .tx_app, .persist_before, .nagle, .now_us, .sendq_room,
    .sent_rec(sent), .sent_send(send), .sent_seq(o_seq), .sent_len(o_len), .sent_sendq(o_sendq)
  );
  assign o_send = 3'(send);
  // every field the send step may change, cleared in both: the rest must be equal
  always_comb begin
    sent_ports_cleared = sent;
    sent_ports_cleared.state = rec.state;
    {sent_ports_cleared.snd_nxt, sent_ports_cleared.snd_max, sent_ports_cleared.retries} = {rec.snd_nxt, rec.snd_max, rec.retries};
    {sent_ports_cleared.tmr_on, sent_ports_cleared.tmr_at} = {rec.tmr_on, rec.tmr_at};
    {sent_ports_cleared.rtt_on, sent_ports_cleared.rtt_seq, sent_ports_cleared.rtt_t0} = {rec.rtt_on, rec.rtt_seq, rec.rtt_t0};
    {sent_ports_cleared.fin_sent, sent_ports_cleared.in_sendq} = {rec.fin_sent, rec.in_sendq};
  end
  assign o_others_kept = sent_ports_cleared == rec;
  assign {o_state, o_snd_nxt, o_snd_max, o_retries, o_tmr_on, o_tmr_at} =
         {4'(sent.state), sent.snd_nxt, sent.snd_max, sent.retries, sent.tmr_on, sent.tmr_at};
  assign {o_rtt_on, o_rtt_seq, o_rtt_t0, o_fin_sent, o_in_sendq} =
         {sent.rtt_on, sent.rtt_seq, sent.rtt_t0, sent.fin_sent, sent.in_sendq};
endmodule
