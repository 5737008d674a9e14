// SPDX-License-Identifier: Apache-2.0
// toe_tcp_isn_prefetch: starts a passive open's ISN hash when its SYN arrives, so that
// the hash (toe_tcp_isn: 17 cycles at 322 MHz) runs beside the receive layers, the
// checksum and the parser instead of after the session lookup, where the core's step
// waited for it.
//   Hint (s_hint_*): the tuple of a SYN (no ACK, no RST) as it comes in from the MAC
//   (toe_tcp_syn_hint), before any check. Never held back: taken when the unit may start a
//   hash for it (below), dropped otherwise. A hint's hash goes into the one entry
//   (tuple, state, ISN).
//   Claim (s_claim_*): a SYN that asks for a session claims its ISN at the lookup's issue,
//   with its tuple. One claim is held at a time (s_claim_ready: none held). In the cycle
//   after, it is compared with the entry: the same tuple, not claimed yet, and hashing or
//   hashed within FRESH_CYCLES (an answer is M + F and M is the clock of the hash's
//   start) -> the entry's ISN is the claim's: out now if hashed, else with the answer.
//   Otherwise the claim waits for the unit and has its own hash.
//   Out (m_isn_*): one ISN per claim, in the claims' order. No ready: the lookup keeps
//   room for every claim's ISN.
// A hint starts a hash only when the unit is idle (isn_req_ready), no claim is held or
// waiting at the lookup (s_claim_soon), and the entry holds no fresh unclaimed answer
// (one whose SYN may still be on its way; a stale one, of a SYN dropped in between,
// expires). So claims are never later than without hints by more than a hash in progress
// when their SYN reaches the lookup, and a SYN flood costs no more hashes than claims.
// isn_req_valid only with isn_req_ready (toe_tcp serves the core's active opens first);
// isn_req is a mux from registers and the hint, which the unit samples while idle.
module toe_tcp_isn_prefetch
  import toe_tcp_pkg::*;
#(
  parameter int unsigned FRESH_CYCLES = 1024   // an unclaimed answer's life: 3.2 us at 322 MHz
) (
  input  logic          clk,
  input  logic          rst,
  input  logic          s_hint_valid,
  input  tcp_isn_req_t  s_hint,
  input  logic          s_claim_soon,     // the lookup holds a session-asking SYN at its input (up with every claim)
  input  logic          s_claim_valid,
  output logic          s_claim_ready,
  input  tcp_isn_req_t  s_claim,
  // the ISN unit (toe_tcp_isn)
  output logic          isn_req_valid,
  input  logic          isn_req_ready,
  output tcp_isn_req_t  isn_req,
  input  logic          isn_rsp_valid,
  input  logic [31:0]   isn_rsp,
  // the claims' ISNs, in order
  output logic          m_isn_valid,
  output logic [31:0]   m_isn
);
  localparam int unsigned AW = $clog2(FRESH_CYCLES + 1);
  typedef enum logic [1:0] {E_NONE, E_HASHING, E_DONE} entry_e;

  entry_e entry_reg;
  logic entry_claimed_reg;          // hashing for a claim: its answer goes out as it comes
  tcp_isn_req_t entry_tuple_reg;
  logic [31:0] entry_isn_reg;
  logic [AW-1:0] entry_age_reg;     // cycles since the answer (saturates at FRESH_CYCLES)
  logic held_reg;                   // a claim taken, not yet matched or hashing
  tcp_isn_req_t held_tuple_reg;
  logic held_match_reg;             // its tuple is the entry's: compared as the claim is taken
                                    // (no hint starts a hash then: s_claim_soon is up with every
                                    // claim), and the entry's tuple does not change while a claim
                                    // is held but by the claim's own hash

  wire fresh = entry_age_reg != AW'(FRESH_CYCLES);
  assign s_claim_ready = !held_reg;
  wire hit = held_reg && held_match_reg && !entry_claimed_reg &&
             (entry_reg == E_HASHING || (entry_reg == E_DONE && fresh));
  wire hint_room = entry_reg == E_NONE || (entry_reg == E_DONE && !fresh) ||
                   (entry_reg == E_HASHING && entry_claimed_reg);
  wire hint_start = s_hint_valid && !held_reg && !s_claim_soon && hint_room;
  assign isn_req_valid = isn_req_ready && ((held_reg && !hit) || hint_start);
  assign isn_req = held_reg ? held_tuple_reg : s_hint;

  // the entry's answer: out with a claim (held in it, or matching it now), kept otherwise
  wire answer_out = isn_rsp_valid && (entry_claimed_reg || hit);
  assign m_isn_valid = answer_out || (hit && entry_reg == E_DONE);
  assign m_isn = isn_rsp_valid ? isn_rsp : entry_isn_reg;

  always_ff @(posedge clk) begin
    if (entry_reg == E_DONE && fresh) entry_age_reg <= entry_age_reg + 1'b1;
    if (isn_rsp_valid) begin
      entry_reg <= answer_out ? E_NONE : E_DONE;
      entry_isn_reg <= isn_rsp;
      entry_age_reg <= '0;
    end else if (hit && entry_reg == E_DONE) begin
      entry_reg <= E_NONE;
    end
    if (hit && entry_reg == E_HASHING) entry_claimed_reg <= 1'b1;
    if (answer_out) entry_claimed_reg <= 1'b0;
    if (isn_req_valid) begin       // a new hash (after the last answer, taken above)
      entry_reg <= E_HASHING;
      entry_claimed_reg <= held_reg;
      entry_tuple_reg <= isn_req;
    end
    if (hit || isn_req_valid) held_reg <= 1'b0;
    if (s_claim_valid && s_claim_ready) begin
      held_reg <= 1'b1;
      held_tuple_reg <= s_claim;
      held_match_reg <= s_claim == entry_tuple_reg;   // (no hash starts now: s_claim_soon is up)
    end
    if (rst) begin
      entry_reg <= E_NONE;
      entry_claimed_reg <= 1'b0;
      held_reg <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // every claim gets one ISN: at most the held claim and the entry's are waiting
  logic [1:0] owed_reg;
  always_ff @(posedge clk) begin
    owed_reg <= owed_reg + 2'(s_claim_valid && s_claim_ready) - 2'(m_isn_valid);
    if (rst) owed_reg <= '0;
  end
  always_ff @(posedge clk) if (!rst) begin
    assert (owed_reg == 2'(held_reg) + 2'(entry_claimed_reg))
      else $error("toe_tcp_isn_prefetch: claims and ISNs out of step");
    assert (!isn_rsp_valid || entry_reg == E_HASHING)
      else $error("toe_tcp_isn_prefetch: an answer to a hash it did not ask for");
    assert (!s_claim_valid || s_claim_ready)
      else $error("toe_tcp_isn_prefetch: a claim while one is held");
    assert (!s_claim_valid || s_claim_soon)
      else $error("toe_tcp_isn_prefetch: a claim without s_claim_soon");
    assert (!(hit && isn_req_valid)) else $error("toe_tcp_isn_prefetch: a claim both matched and hashed");
    assert (!held_reg || held_match_reg == (held_tuple_reg == entry_tuple_reg))
      else $error("toe_tcp_isn_prefetch: the held claim's match is stale");
  end
`endif
endmodule
