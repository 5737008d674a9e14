// SPDX-License-Identifier: Apache-2.0
// toe_tcp_mem_arb: shares one AXI4 master among N_WR burst writers and N_RD burst
// readers (the ring writers and readers). Writes: AWs are granted one at a time, and
// every AW taken queues its writer for the W channel, whose beats follow the AWs' order
// (AXI4) up to each burst's WLAST; so one writer's AW goes out while another's beats
// run, and the W channel has no idle cycle between bursts of different writers. A
// client sends a burst's W beats only after its AW is taken (the ring writers do).
// AWID/ARID carry the client index, and B and R are returned to the client named by
// BID/RID (the slave may interleave read bursts of different IDs). Reads: one AR per
// grant, round robin.
// Writer 0 first (WR0_FIRST > 0): writer 0 is the one that cannot wait (the RX ring
// writer: the wire does not wait, so a writer that falls behind drops segments at its
// input, and every drop costs the peer a retransmission or an RTO), the others can (an
// application's TX data waits in its own buffer). While writer 0 asks or has a burst
// open, the others' AWs wait, up to WR0_FIRST of writer 0's AWs in a row while another
// writer asks or has a burst open; then the others' round robin has one AW, so no
// writer waits for more than (N_WR - 1) * WR0_FIRST of writer 0's bursts (WR0_FIRST with
// two writers), and in saturation the W channel carries WR0_FIRST of writer 0's bursts,
// then one other's, in turn. WR0_FIRST = 0: one round robin for all.
// Bursts are INCR of full-width beats; AWSIZE/ARSIZE are log2(DATA_W/8).
// Timing: the AW grant is a register (aw_gnt_reg, chosen from the requests the cycle
// before), so a writer's AWVALID reaches the master through one mux and its AWREADY does
// not depend on any AWVALID; a burst's W beats may follow from the cycle after its AW.
// An AW asked for while the grant names another, idle writer waits one cycle for it to
// move, unless the writer said so before on s_awsoon: a grant that no AW holds moves to
// a writer that will ask soon (writer 0 first), else rests on writer 0 (WR0_FIRST) or
// stays. s_awsoon never moves a grant an asking writer holds, and needs no timing: the
// ring writers raise it from their job queue and while they wait for a burst's beats.
module toe_tcp_mem_arb #(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned ADDR_W = 40,
  parameter int unsigned N_WR   = 2,
  parameter int unsigned N_RD   = 2,
  parameter int unsigned ID_W   = 2,
  parameter int unsigned WR0_FIRST = 0    // writer 0's grants in a row while another waits (0: round robin)
) (
  input  logic                           clk,
  input  logic                           rst,
  // clients
  input  logic [N_WR-1:0][ADDR_W-1:0]    s_awaddr,
  input  logic [N_WR-1:0][7:0]           s_awlen,
  input  logic [N_WR-1:0]                s_awvalid,
  output logic [N_WR-1:0]                s_awready,
  input  logic [N_WR-1:0]                s_awsoon,  // a hint: the writer will ask for an AW soon (tie to s_awvalid if unknown)
  input  logic [N_WR-1:0][DATA_W-1:0]    s_wdata,
  input  logic [N_WR-1:0][DATA_W/8-1:0]  s_wstrb,
  input  logic [N_WR-1:0]                s_wlast,
  input  logic [N_WR-1:0]                s_wvalid,
  output logic [N_WR-1:0]                s_wready,
  output logic [N_WR-1:0]                s_bvalid,
  input  logic [N_RD-1:0][ADDR_W-1:0]    s_araddr,
  input  logic [N_RD-1:0][7:0]           s_arlen,
  input  logic [N_RD-1:0]                s_arvalid,
  output logic [N_RD-1:0]                s_arready,
  output logic [DATA_W-1:0]              s_rdata,
  output logic [N_RD-1:0]                s_rvalid,
  input  logic [N_RD-1:0]                s_rready,
  // AXI4 master
  output logic [ID_W-1:0]                m_axi_awid,
  output logic [ADDR_W-1:0]              m_axi_awaddr,
  output logic [7:0]                     m_axi_awlen,
  output logic [2:0]                     m_axi_awsize,
  output logic [1:0]                     m_axi_awburst,
  output logic                           m_axi_awvalid,
  input  logic                           m_axi_awready,
  output logic [DATA_W-1:0]              m_axi_wdata,
  output logic [DATA_W/8-1:0]            m_axi_wstrb,
  output logic                           m_axi_wlast,
  output logic                           m_axi_wvalid,
  input  logic                           m_axi_wready,
  input  logic [ID_W-1:0]                m_axi_bid,
  input  logic [1:0]                     m_axi_bresp,
  input  logic                           m_axi_bvalid,
  output logic                           m_axi_bready,
  output logic [ID_W-1:0]                m_axi_arid,
  output logic [ADDR_W-1:0]              m_axi_araddr,
  output logic [7:0]                     m_axi_arlen,
  output logic [2:0]                     m_axi_arsize,
  output logic [1:0]                     m_axi_arburst,
  output logic                           m_axi_arvalid,
  input  logic                           m_axi_arready,
  input  logic [ID_W-1:0]                m_axi_rid,
  input  logic [DATA_W-1:0]              m_axi_rdata,
  input  logic [1:0]                     m_axi_rresp,
  input  logic                           m_axi_rlast,      // unused: clients count their beats
  input  logic                           m_axi_rvalid,
  output logic                           m_axi_rready,
  output logic                           stat_mem_errors   // a B or R response was not OKAY
);
  localparam logic [2:0] SIZE = 3'($clog2(DATA_W / 8));
  localparam int unsigned WI = N_WR > 1 ? $clog2(N_WR) : 1;   // a writer's index
  localparam int unsigned RI = N_RD > 1 ? $clog2(N_RD) : 1;   // a reader's index
  initial if (N_WR > (1 << ID_W) || N_RD > (1 << ID_W) || N_WR > 8 || N_RD > 8 || WR0_FIRST > 255)
    $fatal(0, "toe_tcp_mem_arb: ID_W too small for the clients, more than 8 of a kind, or WR0_FIRST above 255 (instance %m)");

  // Round-robin pick among `req` (up to 8 clients), starting after `last`: the lowest
  // request above `last`, else the lowest of all. {found, index}; compares of `last` with
  // constants and two priority encoders, no sum and no modulo.
  typedef struct packed {
    logic       found;
    logic [2:0] index;
  } pick_t;
  function automatic pick_t pick(input logic [7:0] req, input logic [2:0] last);
    pick_t r;
    r = '0;
    for (int k = 7; k >= 0; k--) if (req[k]) r = '{found: 1'b1, index: 3'(k)};
    for (int k = 7; k >= 0; k--) if (req[k] && 3'(k) > last) r = '{found: 1'b1, index: 3'(k)};
    return r;
  endfunction

  // ---- writes: AWs granted from a register, W beats in the AWs' order ----
  // aw_gnt_reg names the writer whose AW goes out next. It moves only when no AW waits at
  // the master (that writer's AW is taken now, or it asks for none), so an AW, once
  // valid, holds. Every AW taken queues its writer in w_order; W beats come from the
  // writer at its head until WLAST. An AW may so go out while another burst's beats run.
  localparam int unsigned ORDER_DEPTH = N_WR > 2 ? 1 << $clog2(N_WR) : 2;
  localparam int unsigned OC = $clog2(ORDER_DEPTH) + 2;   // counts bursts in w_order and its output
  logic [WI-1:0] aw_gnt_reg, aw_last_reg;
  logic order_ready, order_valid;
  logic [WI-1:0] order_head;
  logic [7:0] wr0_run_reg;          // writer 0's AWs in a row while another writer asked or had a burst open
  logic [OC-1:0] wr0_open_reg, others_open_reg;   // bursts queued or in W: writer 0's, the others'
  wire aw_take = m_axi_awvalid && m_axi_awready;
  wire w_end = m_axi_wvalid && m_axi_wready && m_axi_wlast;
  // The next grant, among the writers asking less the one taken now. Writer 0 first: while
  // it asks or has a burst open and its run is short of WR0_FIRST, the others wait (so in
  // saturation writer 0 has WR0_FIRST bursts, then one other, in turn); once the run is
  // reached while another asks, writer 0 waits for one other. Nobody to grant: a writer
  // that will ask soon (the same rules), else park on writer 0 (WR0_FIRST), else stay.
  wire [7:0] aw_taken = aw_take ? 8'd1 << aw_gnt_reg : 8'd0;
  wire [7:0] aw_ask = 8'(s_awvalid) & ~aw_taken;
  wire others_ask = |(aw_ask & ~8'd1);
  // the run with the AW taken now: another writer's ends it, writer 0's may complete it
  wire others_busy = others_ask || others_open_reg != '0;
  wire run_ends = aw_take && aw_gnt_reg != '0;
  wire run_fills = aw_take && aw_gnt_reg == '0 && others_busy && wr0_run_reg == 8'(WR0_FIRST - 1);
  wire wr0_run_short = run_ends || (wr0_run_reg < 8'(WR0_FIRST) && !run_fills);
  wire others_held = WR0_FIRST != 0 && (s_awvalid[0] || wr0_open_reg != '0) && wr0_run_short;
  // The rule, for a set of writers: writer 0 first while its run is short or no other is
  // in the set; the others wait while writer 0 holds its place; else round robin.
  function automatic pick_t grant_pick(input logic [7:0] req);
    logic others = |(req & ~8'd1);
    if (WR0_FIRST != 0 && req[0] && (!others || wr0_run_short)) return '{found: 1'b1, index: 3'd0};
    return pick(others_held ? req & 8'd1 : WR0_FIRST != 0 && !wr0_run_short ? req & ~8'd1 : req, 3'(aw_last_reg));
  endfunction
  pick_t w_pick, soon_pick;
  assign w_pick = grant_pick(aw_ask);
  assign soon_pick = grant_pick(8'(s_awsoon) & ~aw_taken);
  wire [WI-1:0] aw_park = soon_pick.found ? WI'(soon_pick.index) : WR0_FIRST != 0 ? '0 : aw_gnt_reg;
  wire aw_move = aw_take || !s_awvalid[aw_gnt_reg];
  always_comb begin
    s_awready = '0;
    s_wready = '0;
    s_awready[aw_gnt_reg] = order_ready && m_axi_awready;
    if (order_valid) s_wready[order_head] = m_axi_wready;
  end
  assign m_axi_awid = ID_W'(aw_gnt_reg);
  assign m_axi_awvalid = s_awvalid[aw_gnt_reg] && order_ready;
  assign m_axi_awaddr = s_awaddr[aw_gnt_reg];
  assign m_axi_awlen = s_awlen[aw_gnt_reg];
  assign m_axi_awsize = SIZE;
  assign m_axi_awburst = 2'b01;
  assign m_axi_wvalid = order_valid && s_wvalid[order_head];
  assign m_axi_wdata = s_wdata[order_head];
  assign m_axi_wstrb = s_wstrb[order_head];
  assign m_axi_wlast = s_wlast[order_head];
  // a writer's burst is readable at the head the cycle after its AW (BYPASS)
  toe_fifo #(.WIDTH(WI), .DEPTH(ORDER_DEPTH), .BYPASS(1'b1)) u_w_order (
    .clk, .rst, .s_data(aw_gnt_reg), .s_valid(aw_take), .s_ready(order_ready), .commit(1'b0),
    .rewind(1'b0), .m_data(order_head), .m_valid(order_valid), .m_ready(w_end), .uncommitted()
  );
  always_ff @(posedge clk) begin
    if (aw_move) aw_gnt_reg <= w_pick.found ? WI'(w_pick.index) : aw_park;
    if (aw_take) begin
      // writer 0's place in the round robin is kept while it goes first
      if (aw_gnt_reg != '0 || WR0_FIRST == 0) aw_last_reg <= aw_gnt_reg;
      wr0_run_reg <= aw_gnt_reg == '0 && others_busy ? wr0_run_reg + 8'd1 : '0;
    end
    wr0_open_reg <= wr0_open_reg + OC'(aw_take && aw_gnt_reg == '0) - OC'(w_end && order_head == '0);
    others_open_reg <= others_open_reg + OC'(aw_take && aw_gnt_reg != '0) - OC'(w_end && order_head != '0);
    if (rst) begin
      aw_gnt_reg <= '0;
      aw_last_reg <= '0;
      wr0_run_reg <= '0;
      wr0_open_reg <= '0;
      others_open_reg <= '0;
    end
  end
`ifndef SYNTHESIS
  // no writer waits for more than (N_WR - 1) * WR0_FIRST of writer 0's bursts: counted
  // per waiting writer (AWs taken while it asks), apart from the grant logic's own count
  int unsigned waited_wr0[N_WR];
  always @(posedge clk) begin
    for (int i = 1; i < N_WR; i++) begin
      if (rst || !s_awvalid[i] || (aw_take && int'(aw_gnt_reg) == i)) waited_wr0[i] <= 0;
      else if (aw_take && aw_gnt_reg == '0) waited_wr0[i] <= waited_wr0[i] + 1;
      if (!rst && WR0_FIRST != 0)
        assert (waited_wr0[i] <= (N_WR - 1) * WR0_FIRST)
          else $error("toe_tcp_mem_arb: writer %0d waited for more than (N_WR - 1) * WR0_FIRST of writer 0's bursts", i);
    end
  end
  // an AW, once valid at the master, holds until taken
  a_aw_hold: assert property (@(posedge clk) disable iff (rst)
    m_axi_awvalid && !m_axi_awready |=> m_axi_awvalid && $stable(m_axi_awid) && $stable(m_axi_awaddr) && $stable(m_axi_awlen));
`endif
  assign m_axi_bready = 1'b1;
  always_comb for (int i = 0; i < N_WR; i++) s_bvalid[i] = m_axi_bvalid && int'(m_axi_bid) == i;

  // ---- reads: a grant holds until its AR is taken ----
  logic [RI-1:0] r_last_reg, r_gnt_reg;
  logic r_hold_reg;
  pick_t r_next;
  assign r_next = pick(8'(s_arvalid), 3'(r_last_reg));
  wire r_found = r_hold_reg || r_next.found;
  wire [RI-1:0] r_pick = r_hold_reg ? r_gnt_reg : RI'(r_next.index);
  always_comb begin
    s_arready = '0;
    m_axi_arvalid = r_found;
    m_axi_arid = r_found ? ID_W'(r_pick) : '0;
    m_axi_araddr = r_found ? s_araddr[r_pick] : '0;
    m_axi_arlen = r_found ? s_arlen[r_pick] : '0;
    if (r_found) s_arready[r_pick] = m_axi_arready;
  end
  assign m_axi_arsize = SIZE;
  assign m_axi_arburst = 2'b01;
  always_ff @(posedge clk) begin
    r_hold_reg <= m_axi_arvalid && !m_axi_arready;
    r_gnt_reg <= r_pick;
    if (m_axi_arvalid && m_axi_arready) r_last_reg <= r_pick;
    stat_mem_errors <= (m_axi_bvalid && m_axi_bresp != 2'b00) || (m_axi_rvalid && m_axi_rready && m_axi_rresp != 2'b00);
    if (rst) begin
      r_last_reg <= '0;
      r_hold_reg <= 1'b0;
      stat_mem_errors <= 1'b0;
    end
  end
  assign s_rdata = m_axi_rdata;
  always_comb for (int i = 0; i < N_RD; i++) s_rvalid[i] = m_axi_rvalid && int'(m_axi_rid) == i;
  assign m_axi_rready = s_rready[int'(m_axi_rid) % N_RD];
endmodule
