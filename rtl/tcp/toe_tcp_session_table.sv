// SPDX-License-Identifier: Apache-2.0
// toe_tcp_session_table: owns the map 4-tuple -> session id, the pool of free session
// ids, the listen-port table and the ephemeral-port counter. Requests:
//   LOOKUP  {remote ip/port, local port, alloc}: the session of the tuple; with alloc set
//           (a SYN) and no session yet, a listened local port gets a new session (is_new).
//   OPEN    {remote ip/port}: a new session with the next free ephemeral local port
//           (49152..65535; ports whose tuple is taken are skipped, up to 8 tries).
//   RELEASE {tuple, session}: forget the tuple and return the id to the pool. No response.
// The map is a d-left hash with two choices in block RAM: two halves (left, right) of
// MAX_SESSIONS/2 rows of WAYS entries each, every half indexed by its own hash of the
// tuple. A tuple lives in any way of its row in either half; a new one goes to the half
// whose row holds fewer (the left on a tie). With two choices the fullest row grows like
// log log n instead of log n / log log n: one row of four ways (the only structure before)
// refused 3 of 921 SYNs from one address with consecutive ports (90 % of 1024 sessions)
// and refused active opens to one peer before 90 %; two choices refuse none up to a full
// table in the unit test. A new tuple whose two rows are both full, or no free id, refuses
// the allocation (stat_alloc_fails). Both rows are read at once (2*WAYS compares).
// The row hashes are Toeplitz hashes (the one RSS uses, with the RSS key; the left half
// from its first 96 bits, the right from the next 96): linear over GF(2), so each row bit
// is the parity of a fixed set of tuple bits, two LUT levels and no carry chain.
// The hash is not keyed per device: a peer that knows it can aim tuples at one row pair;
// such SYNs are refused and counted, and the SYN flood cap bounds what they hold.
// Listen requests go to toe_listen_table.
// Pipeline: a request is taken into READ (rows read), then CMP (each way compared with the
// tuple; the free way of the less loaded row found), then PICK (the hit or that free way
// taken, the write, the answer); the answer comes 4 cycles after acceptance, in request
// order, with the request's tag.
// Lookups without alloc only read, and are taken one per cycle back to back. A request
// that writes (alloc, OPEN, RELEASE) is taken only into an empty pipeline and holds it
// until it has written, so every read sees every earlier write.
// After reset the unit clears the table and fills the id pool (MAX_SESSIONS cycles)
// before it answers.
module toe_tcp_session_table
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,  // power of two, >= 4
  parameter int unsigned LISTEN_PORTS = 16,    // listen table entries
  parameter int unsigned WAYS         = 4      // hash ways
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        req_valid,
  output logic        req_ready,
  input  tcp_tab_req_t req,
  input  logic        req_tag,          // returned with the answer (who asked)
  output logic        rsp_valid,        // one cycle; the requester always takes it
  output logic        rsp_tag,
  output tcp_tab_rsp_t rsp,
  input  logic        listen_req_valid,
  output logic        listen_req_ready,
  input  tcp_listen_req_t listen_req,
  output logic        listen_rsp_valid,
  input  logic        listen_rsp_ready,
  output tcp_listen_rsp_t listen_rsp,
  output logic [SID_W:0] sessions_in_use,
  output logic        stat_alloc_fails,
  output logic        ready             // rows cleared and id pool filled after reset (MAX_SESSIONS cycles)
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam int unsigned ROWS = MAX_SESSIONS / 2;   // rows per half
  localparam int unsigned BW = $clog2(ROWS);
  localparam int unsigned HALVES = 2;
  localparam int unsigned INIT_N = MAX_SESSIONS;   // cycles to fill the id pool (clears the rows too)
  initial if (MAX_SESSIONS != (1 << SW) || MAX_SESSIONS < 4 || MAX_SESSIONS > (1 << SID_W))
    $fatal(0, "toe_tcp_session_table: MAX_SESSIONS must be a power of two in 4..2^20 (instance %m)");

  typedef struct packed {
    logic        valid;
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;
    logic [SW-1:0] session;
  } entry_t;

  // a request in the pipeline
  typedef struct packed {
    logic [1:0]  op;
    logic [31:0] rip;
    logic [15:0] rport, lport;
    logic        alloc;
    logic [SW-1:0] sid;
    logic [2:0]  tries;
    logic        tag;
  } preq_t;
  function automatic logic writes_table(input preq_t r);
    return r.op != TAB_LOOKUP || r.alloc;
  endfunction

  logic init_done;
  assign ready = init_done;
  logic [SW:0] init_reg;
  logic [15:0] eph_reg;
  logic rd_valid, cmp_valid, pick_valid;   // a request in READ, in CMP, in PICK
  preq_t rd_req, cmp_req, pick_req;
  preq_t in_req;
  assign in_req = '{op: req.op, rip: req.remote_ip, rport: req.remote_port,
                    lport: req.op == TAB_OPEN ? eph_reg : req.local_port, alloc: req.alloc,
                    sid: SW'(req.session), tries: '0, tag: req_tag};

  // ---- row hashes: Toeplitz over the 64-bit tuple {remote ip, remote port, local port} ----
  // Output bit j of the hash with key K: the parity of the tuple bits i (i = 0 the tuple's
  // most significant bit) for which key bit i + j (0 the key's most significant bit) is set.
  localparam logic [319:0] RSS_KEY = 320'h6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa;
  function automatic logic [63:0] row_bit_mask(input int half, input int j);
    logic [63:0] m;
    for (int i = 0; i < 64; i++) m[63 - i] = RSS_KEY[319 - (96 * half + i + j)];
    return m;
  endfunction
  wire [63:0] rd_tuple = {rd_req.rip, rd_req.rport, rd_req.lport};
  logic [BW-1:0] row [HALVES];
  for (genvar h = 0; h < HALVES; h++) begin : g_hash
    for (genvar j = 0; j < BW; j++) begin : g_bit
      localparam logic [63:0] MASK = row_bit_mask(h, j);
      assign row[h][j] = ^(rd_tuple & MASK);
    end
  end
  logic [BW-1:0] cmp_row [HALVES], pick_row [HALVES];
  always_ff @(posedge clk) begin
    cmp_row <= row;
    pick_row <= cmp_row;
  end

  // ---- the ways: one RAM per way and half, registered read ----
  localparam int unsigned NW = HALVES * WAYS;        // way w lives in half w / WAYS
  entry_t rd_entry [NW];
  logic [NW-1:0] way_we;
  entry_t wr_entry;
  logic [BW-1:0] wr_row [HALVES];
  for (genvar w = 0; w < NW; w++) begin : g_way
    entry_t mem [ROWS];
    always_ff @(posedge clk) begin
      if (way_we[w]) mem[wr_row[w / WAYS]] <= wr_entry;
      rd_entry[w] <= mem[row[w / WAYS]];
    end
  end

  // ---- listen table (asked in CMP, answer used in PICK) ----
  logic listening, pick_listening;
  toe_listen_table #(.ENTRIES(LISTEN_PORTS)) u_listen (
    .clk, .rst, .listen_req_valid, .listen_req_ready, .listen_req, .listen_rsp_valid,
    .listen_rsp_ready, .listen_rsp, .query_port(cmp_req.lport), .query_hit(listening)
  );

  // ---- free id pool ----
  logic pool_in_valid, pool_in_ready, pool_out_valid, pool_pop;
  logic gauge_up_reg, gauge_down_reg;   // a session taken from / given back to the pool (sessions_in_use)
  logic [SW-1:0] pool_in, pool_out;
  toe_fifo #(.WIDTH(SW), .DEPTH(MAX_SESSIONS)) u_pool (
    .clk, .rst, .s_data(pool_in), .s_valid(pool_in_valid), .s_ready(pool_in_ready),
    .commit(1'b0), .rewind(1'b0), .m_data(pool_out), .m_valid(pool_out_valid), .m_ready(pool_pop),
    .uncommitted()
  );

  // ---- CMP: each way against the tuple, and where a new tuple would go; registered ----
  logic [NW-1:0] match, pick_match;
  logic [SW-1:0] pick_sid [NW];
  always_comb
    for (int w = 0; w < NW; w++)
      match[w] = rd_entry[w].valid && rd_entry[w].remote_ip == cmp_req.rip &&
                 rd_entry[w].remote_port == cmp_req.rport && rd_entry[w].local_port == cmp_req.lport;
  // the less loaded row (a full row counts as fully loaded; both full: none); the first
  // vacant way of the chosen row. Counts compared as thermometer codes and the first way
  // found by a priority walk, AND/OR logic of the 2 * WAYS vacancy bits, placed in its
  // half by a 2:1 choice (counted with adders, isolated as v & -v and placed by a part
  // select at a variable offset, they were carry chains in series from the rows' read: 9
  // LUT levels at 512 bits depth-mapped, the deepest with one other, stop 57).
  function automatic logic [WAYS-1:0] at_least(input logic [WAYS-1:0] v);   // [k]: more than k bits set
    logic [WAYS:0] t;   // [k]: at least k of the bits so far
    t = '0;
    t[0] = 1'b1;
    for (int w = 0; w < WAYS; w++)
      for (int k = WAYS; k >= 1; k--) t[k] = t[k] | (v[w] & t[k-1]);
    return t[WAYS:1];
  endfunction
  function automatic logic [WAYS-1:0] first_set(input logic [WAYS-1:0] v);
    logic [WAYS-1:0] f;
    logic seen;
    seen = 1'b0;
    for (int w = 0; w < WAYS; w++) begin
      f[w] = v[w] && !seen;
      seen = seen || v[w];
    end
    return f;
  endfunction
  logic [NW-1:0] free_way, pick_free_way;   // one-hot or zero
  always_comb begin
    logic [WAYS-1:0] vac [HALVES];
    logic right;   // the right row has more vacant ways
    for (int h = 0; h < HALVES; h++)
      for (int w = 0; w < WAYS; w++) vac[h][w] = !rd_entry[h * WAYS + w].valid;
    right = |(at_least(vac[1]) & ~at_least(vac[0]));
    free_way = right ? {first_set(vac[1]), WAYS'(0)} : {WAYS'(0), first_set(vac[0])};
  end
  always_ff @(posedge clk) begin
    for (int w = 0; w < NW; w++) begin
      pick_match[w] <= match[w];
      pick_sid[w] <= rd_entry[w].session;
    end
    pick_free_way <= free_way;
  end

  // ---- PICK: the hit, or where a new tuple would go ----
  // A tuple is in at most one way (asserted below), so the hit's id is an OR of the ways.
  wire hit = |pick_match;
  logic [SW-1:0] hit_sid;
  always_comb begin
    hit_sid = '0;
    for (int w = 0; w < NW; w++) hit_sid |= pick_match[w] ? pick_sid[w] : '0;
  end
  wire can_alloc = pick_free_way != '0 && pool_out_valid;
  wire want_new = pick_req.op == TAB_OPEN ? !hit :
                  (pick_req.op == TAB_LOOKUP && !hit && pick_req.alloc && pick_listening);
  // an OPEN whose tuple is taken tries the next ephemeral port: back to READ
  wire open_retry = pick_valid && pick_req.op == TAB_OPEN && hit && pick_req.tries != 3'd7;

  assign req_ready = init_done && !(rd_valid && writes_table(rd_req)) && !(cmp_valid && writes_table(cmp_req)) &&
                     !(pick_valid && writes_table(pick_req)) &&
                     (!writes_table(in_req) || (!rd_valid && !cmp_valid && !pick_valid));
  wire take = req_valid && req_ready;
  wire [15:0] eph_next = eph_reg == 16'hFFFF ? 16'd49152 : eph_reg + 1'b1;

  always_comb begin
    way_we = '0;
    wr_row = pick_row;   // the rows read for this request
    wr_entry = '{valid: 1'b1, remote_ip: pick_req.rip, remote_port: pick_req.rport, local_port: pick_req.lport,
                 session: pool_out};
    pool_pop = 1'b0;
    pool_in_valid = 1'b0;
    pool_in = pick_req.sid;
    if (!init_done) begin
      wr_row = '{default: BW'(init_reg)};
      wr_entry = '0;
      if (init_reg < (SW+1)'(ROWS)) way_we = '1;
      pool_in_valid = 1'b1;
      pool_in = SW'(init_reg);
    end else if (pick_valid) begin
      if (want_new && can_alloc) begin
        way_we = pick_free_way;
        pool_pop = 1'b1;
      end
      if (pick_req.op == TAB_RELEASE && hit && hit_sid == pick_req.sid) begin
        way_we = pick_match;
        wr_entry = '0;
        pool_in_valid = 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    rsp_valid <= 1'b0;
    stat_alloc_fails <= 1'b0;
    if (!init_done) begin
      init_reg <= init_reg + 1'b1;
      if (init_reg == (SW+1)'(INIT_N - 1)) init_done <= 1'b1;
    end
    rd_valid <= take || open_retry;
    rd_req <= in_req;
    if (open_retry) begin
      rd_req <= pick_req;
      rd_req.lport <= eph_next;
      rd_req.tries <= pick_req.tries + 1'b1;
    end
    cmp_valid <= rd_valid;
    cmp_req <= rd_req;
    pick_valid <= cmp_valid;
    pick_req <= cmp_req;
    pick_listening <= listening;
    if (pick_valid) begin
      if (pick_req.op == TAB_OPEN) eph_reg <= eph_next;
      if (pick_req.op != TAB_RELEASE && !open_retry) begin
        rsp_valid <= 1'b1;
        rsp_tag <= pick_req.tag;
        rsp.is_new <= want_new && can_alloc;
        rsp.found <= (pick_req.op == TAB_LOOKUP && hit) || (want_new && can_alloc);
        rsp.session <= SID_W'(want_new ? pool_out : hit_sid);
        rsp.local_port <= pick_req.lport;
        stat_alloc_fails <= want_new && !can_alloc;
        rsp.full <= want_new && !can_alloc;
        rsp.listening <= pick_listening;
      end
    end
    // the gauge moves a cycle after the pool (registered, so that the pick's decision is
    // not in front of the count's adder: 4.2 ns at 512 bits in the cell-delay model)
    gauge_up_reg <= pool_pop && !pool_in_valid;
    gauge_down_reg <= pool_in_valid && !pool_pop && init_done;
    sessions_in_use <= sessions_in_use + (SID_W+1)'(gauge_up_reg) - (SID_W+1)'(gauge_down_reg);
    if (rst) begin
      init_done <= 1'b0;
      init_reg <= '0;
      eph_reg <= 16'd49152;
      sessions_in_use <= '0;
      {gauge_up_reg, gauge_down_reg} <= '0;
      rsp_valid <= 1'b0;
      rd_valid <= 1'b0;
      cmp_valid <= 1'b0;
      pick_valid <= 1'b0;
    end
  end
`ifndef SYNTHESIS
  // a tuple is stored at most once, and an id returns to the pool only when it is out of it
  always @(posedge clk) if (!rst && pick_valid)
    assert ($countones(pick_match) <= 1) else $error("toe_tcp_session_table: a tuple is stored in %0d ways", $countones(pick_match));
  always @(posedge clk) if (!rst && pool_in_valid)
    assert (pool_in_ready) else $error("toe_tcp_session_table: id pool overflow (an id released twice)");
  // a request that writes is alone in the pipeline (reads never miss a write before them)
  always @(posedge clk) if (!rst && int'(rd_valid) + int'(cmp_valid) + int'(pick_valid) > 1)
    assert (!(rd_valid && writes_table(rd_req)) && !(cmp_valid && writes_table(cmp_req)) &&
            !(pick_valid && writes_table(pick_req)))
      else $error("toe_tcp_session_table: a writing request shares the pipeline");
  // the free way is the lowest vacant way of the row with more vacant ways (left on a tie)
  always @(posedge clk) if (!rst && cmp_valid) begin
    int n_left, n_right, want;
    n_left = 0;
    n_right = 0;
    for (int w = 0; w < WAYS; w++) begin
      n_left += int'(!rd_entry[w].valid);
      n_right += int'(!rd_entry[WAYS + w].valid);
    end
    want = -1;
    for (int w = NW - 1; w >= 0; w--)
      if (!rd_entry[w].valid && (n_right > n_left) == (w >= WAYS)) want = w;
    assert (free_way == (want < 0 ? NW'(0) : NW'(1) << want))
      else $error("toe_tcp_session_table: free way %b, vacant counts %0d / %0d", free_way, n_left, n_right);
  end
`endif
endmodule
