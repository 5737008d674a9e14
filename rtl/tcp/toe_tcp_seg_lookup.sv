// SPDX-License-Identifier: Apache-2.0
// toe_tcp_seg_lookup: finds the session of every received segment ahead of the protocol
// core, so the core's segment event starts with its session id (no table round trip in
// the core). Segments go out in arrival order, each with the table's answer:
//   session, found, is_new (a SYN that got a new session), listening (the local port is
//   listened), capped (a SYN that was not allowed a session: half-open sessions at the cap).
// One lookup per cycle into the pipelined toe_tcp_session_table; up to DEPTH segments are
// between the table request and the core (issued or answered and waiting), so the answers
// always have room.
// SYN flood cap: a SYN may allocate only while the half-open sessions (the core's gauge
// and its half_open_new bit, which count a session from its first event) plus the
// allocations not yet taken by the core stay below the cap; the count is exact, a burst of
// SYNs cannot pass it. The room is a register (of the cap's register): a change of
// cfg_half_open_max counts for the SYNs two cycles later, a session leaving the gauge one.
// The answer can be stale by the time the core takes the segment (the core may release
// or reuse the session in between); the core checks the session's tuple and state.
// ISN: a SYN that asks for a session claims its initial sequence number (RFC 6528) at its
// issue (isn_claim_*, its tuple) from toe_tcp_isn_prefetch, which has usually hashed it
// since the SYN came in from the MAC (else it hashes it now), and whose answer comes back on
// isn_rsp, one per claim in order. Its segment goes out with isn_asked set, and the ISNs go
// out on m_isn in the same order (one for every such segment, whether the table gave it a
// session or not: the core takes one per isn_asked segment). At most ISN_DEPTH claimed and
// not yet taken, and one claim at a time at the prefetch (isn_claim_ready, a register):
// such a SYN waits at the input. isn_claim_soon tells the prefetch a claim is coming, so
// that it starts no hash for a later SYN in front of it.
module toe_tcp_seg_lookup
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned DEPTH        = 8,    // segments between table request and core
  parameter int unsigned ISN_DEPTH    = 8     // ISNs hashed and not yet taken by the core
) (
  input  logic           clk,
  input  logic           rst,
  input  logic           cfg_drop_synfin,    // a SYN+FIN is not a SYN (no session for it)
  input  logic [SID_W:0] cfg_half_open_max,  // 0: MAX_SESSIONS/4
  input  logic [SID_W:0] half_open,          // the core's half-open sessions (its gauge, a register)
  input  logic           half_open_new,      // and one more, being made (late in the cycle)
  // segments from the parser
  input  logic           s_seg_valid,
  output logic           s_seg_ready,
  input  tcp_seg_t       s_seg,
  // session table (LOOKUP requests of the segments' tuples; answers in order)
  output logic           tab_req_valid,
  input  logic           tab_req_ready,
  output tcp_tab_req_t   tab_req,
  input  logic           tab_rsp_valid,
  input  tcp_tab_rsp_t   tab_rsp,
  // segments with their session, to the core
  output logic           m_seg_valid,
  input  logic           m_seg_ready,
  output tcp_seg_lk_t    m_seg,
  // the ISN prefetch: the input's SYN claims its ISN (its tuple), and the claims' answers
  output logic           isn_claim_soon,
  output logic           isn_claim_valid,
  input  logic           isn_claim_ready,
  output tcp_isn_req_t   isn_claim,
  input  logic           isn_rsp_valid,
  input  logic [31:0]    isn_rsp,
  // the ISNs of the isn_asked segments, in their order
  output logic           m_isn_valid,
  input  logic           m_isn_ready,
  output logic [31:0]    m_isn
);
  localparam int unsigned CW = $clog2(DEPTH + 1);

  // a SYN that may open a session (not ACK, RST, or a SYN+FIN that is dropped)
  function automatic logic syn_only(input tcp_seg_t g);
    return g.flags[F_SYN] && !g.flags[F_ACK] && !g.flags[F_RST] && (!g.flags[F_FIN] || !cfg_drop_synfin);
  endfunction

  logic [CW-1:0] held_reg;          // segments issued and not yet taken by the core
  logic [SID_W:0] allocs_reg;       // allocations asked or made, not yet taken by the core
  logic [SID_W:0] cap_reg;
  // room for one more half-open session, registered: it lags the count by a cycle, and
  // is exact all the same, because the table takes an allocating request only into an
  // empty pipeline, so no allocation is issued in the cycle after another (asserted below)
  logic room_reg;
  wire capped = syn_only(s_seg) && !room_reg;

  // A SYN that asks for a session needs the prefetch's claim slot and a place for its
  // ISN. The ISNs' queue hands an ISN to the core in the cycle after it comes when empty.
  localparam int unsigned IW = $clog2(ISN_DEPTH + 1);
  logic [IW-1:0] isns_reg;          // ISNs claimed (hashing or hashed) and not yet taken by the core
  wire alloc = syn_only(s_seg) && !capped;
  assign tab_req = '{op: TAB_LOOKUP, remote_ip: s_seg.remote_ip, remote_port: s_seg.remote_port,
                     local_port: s_seg.local_port, alloc: alloc, session: '0};
  assign tab_req_valid = s_seg_valid && held_reg != CW'(DEPTH) &&
                         (!alloc || (isn_claim_ready && isns_reg != IW'(ISN_DEPTH)));
  assign s_seg_ready = tab_req_valid && tab_req_ready;
  wire issue = s_seg_valid && s_seg_ready;
  assign isn_claim_soon = s_seg_valid && alloc;
  assign isn_claim_valid = issue && alloc;
  assign isn_claim = '{local_port: s_seg.local_port, remote_ip: s_seg.remote_ip, remote_port: s_seg.remote_port};

  toe_fifo #(.WIDTH(32), .DEPTH(ISN_DEPTH), .BYPASS(1'b1)) u_isns (
    .clk, .rst, .s_data(isn_rsp), .s_valid(isn_rsp_valid), .s_ready(), .commit(1'b0), .rewind(1'b0),
    .m_data(m_isn), .m_valid(m_isn_valid), .m_ready(m_isn_ready), .uncommitted()
  );

  // segments waiting for their answer
  tcp_seg_t wait_seg;
  logic wait_capped, wait_alloc, wait_valid;
  toe_fifo #(.WIDTH(TCP_SEG_W + 2), .DEPTH(DEPTH)) u_wait (
    .clk, .rst, .s_data({s_seg, capped, alloc}), .s_valid(issue), .s_ready(), .commit(1'b0), .rewind(1'b0),
    .m_data({wait_seg, wait_capped, wait_alloc}), .m_valid(wait_valid), .m_ready(tab_rsp_valid), .uncommitted()
  );
  // answered, for the core
  tcp_seg_lk_t done;
  assign done = '{seg: wait_seg, session: tab_rsp.session, found: tab_rsp.found, is_new: tab_rsp.is_new,
                  listening: tab_rsp.listening, capped: wait_capped, isn_asked: wait_alloc};
  // BYPASS: an answered segment into the empty queue is out the next cycle (since stop 68)
  toe_fifo #(.WIDTH($bits(tcp_seg_lk_t)), .DEPTH(DEPTH), .BYPASS(1'b1)) u_done (
    .clk, .rst, .s_data(done), .s_valid(tab_rsp_valid), .s_ready(), .commit(1'b0), .rewind(1'b0),
    .m_data(m_seg), .m_valid(m_seg_valid), .m_ready(m_seg_ready), .uncommitted()
  );

  wire taken = m_seg_valid && m_seg_ready;
  // a new session taken by the core leaves allocs_reg a cycle later (registered, so the
  // core's choice is not in front of the sum); allocs_now is the count without it (the
  // half-open gauge counts it from the take on), which the room stands for and the cap's
  // check uses
  logic taken_new_reg;
  wire [SID_W:0] allocs_now = allocs_reg - (SID_W+1)'(taken_new_reg);
  // room: half_open + half_open_new + allocs_now < cap. The sum of the two registered counts
  // is compared three ways; the two late bits (half_open_new, taken_new_reg: +1, 0 or -1)
  // only choose a compare, so no carry chain waits for them. One bit wider: no wrap.
  wire [SID_W+1:0] pending_sum = (SID_W+2)'(half_open) + (SID_W+2)'(allocs_reg);
  wire [SID_W+1:0] cap_w = (SID_W+2)'(cap_reg);
  wire fits_sum_plus1 = pending_sum + 1'b1 < cap_w;  // one being made, none taken new
  wire fits_sum = pending_sum < cap_w;
  wire fits_sum_minus1 = pending_sum <= cap_w;    // one taken new (still in allocs_reg), none being made
  always_ff @(posedge clk) begin
    held_reg <= held_reg + CW'(issue) - CW'(taken);
    isns_reg <= isns_reg + IW'(isn_claim_valid) - IW'(m_isn_valid && m_isn_ready);
    cap_reg <= cfg_half_open_max == '0 ? (SID_W+1)'(MAX_SESSIONS / 4) : cfg_half_open_max;
    room_reg <= half_open_new == taken_new_reg ? fits_sum : half_open_new ? fits_sum_plus1 : fits_sum_minus1;
    taken_new_reg <= taken && m_seg.is_new;
    allocs_reg <= allocs_reg + (SID_W+1)'(issue && alloc)
                             - (SID_W+1)'(tab_rsp_valid && wait_alloc && !tab_rsp.is_new)
                             - (SID_W+1)'(taken_new_reg);
    if (rst) begin
      held_reg <= '0;
      isns_reg <= '0;
      taken_new_reg <= 1'b0;
      allocs_reg <= '0;
      room_reg <= 1'b0;
      cap_reg <= '0;
    end
  end
`ifndef SYNTHESIS
  always @(posedge clk) if (!rst && tab_rsp_valid)
    assert (wait_valid) else $error("toe_tcp_seg_lookup: a table answer without a segment waiting for it");
  // the cap holds: no allocation is asked while the half-open sessions and the allocations
  // in flight fill it (the cap that room_reg was reckoned with: a new one counts a cycle on)
  logic [SID_W+1:0] room_cap_reg;
  always @(posedge clk) room_cap_reg <= cap_w;
  always @(posedge clk) if (!rst && issue && alloc)
    assert ((SID_W+2)'(half_open) + (SID_W+2)'(half_open_new) + (SID_W+2)'(allocs_now) < room_cap_reg)
      else $error("toe_tcp_seg_lookup: a SYN allocates past the half-open cap");
  // the core takes an ISN only when one is there, and no more than were asked
  always @(posedge clk) if (!rst) begin
    assert (!m_isn_ready || m_isn_valid) else $error("toe_tcp_seg_lookup: an ISN taken before it is there");
    assert (isns_reg <= IW'(ISN_DEPTH)) else $error("toe_tcp_seg_lookup: more ISNs claimed than ISN_DEPTH");
    assert (!isn_claim_valid || isn_claim_ready) else $error("toe_tcp_seg_lookup: a claim while the prefetch holds one");
  end
`endif
endmodule
