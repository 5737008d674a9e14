// SPDX-License-Identifier: Apache-2.0
// toe_tcp_mem_arb: shares one AXI4 master among N_WR burst writers and N_RD burst
// readers (the ring writers and readers). Writes: a writer is granted for one burst, its
// AW first and then its W beats up to wlast; grants rotate. AWID/ARID carry the client
// index, and B and R are returned to the client named by BID/RID (the slave may
// interleave read bursts of different IDs). Reads: one AR per grant, round robin.
// Writer 0 first (WR0_FIRST > 0): writer 0 is the one that cannot wait (the RX ring
// writer: the wire does not wait, so a writer that falls behind drops segments at its
// input, and every drop costs the peer a retransmission or an RTO), the others can (an
// application's TX data waits in its own buffer). Writer 0 is granted whenever it asks,
// up to WR0_FIRST grants in a row while another writer waits; then the others' round
// robin has one grant, so no writer waits for more than (N_WR - 1) * WR0_FIRST of
// writer 0's bursts (WR0_FIRST with two writers).
// WR0_FIRST = 0: one round robin for all.
// Bursts are INCR of full-width beats; AWSIZE/ARSIZE are log2(DATA_W/8).
// Timing: the AW grant is combinational (a burst's address may go out in the cycle it is
// requested); W beats follow the registered grant, from the cycle after the AW's grant on
// (the ring writers send a burst's data from the cycle after its address), so the W
// channel's valid and ready are a mux of flip-flops deep.
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

  // ---- writes: grant held from AW through wlast ----
  logic w_busy_reg, aw_done_reg;
  logic [WI-1:0] w_gnt_reg, w_last_reg;
  logic [7:0] wr0_run_reg;          // writer 0's grants in a row while another writer waited
  wire others_wait = |(8'(s_awvalid) & ~8'd1);
  wire wr0_first = WR0_FIRST != 0 && s_awvalid[0] && (!others_wait || wr0_run_reg < 8'(WR0_FIRST));
  wire wr0_held = WR0_FIRST != 0 && others_wait && wr0_run_reg >= 8'(WR0_FIRST);
  pick_t w_pick;
  assign w_pick = wr0_first ? '{found: 1'b1, index: 3'd0}
                : pick(8'(s_awvalid) & ~{7'd0, wr0_held}, 3'(w_last_reg));
  wire [WI-1:0] w_gnt = w_busy_reg ? w_gnt_reg : WI'(w_pick.index);
  wire w_on = w_busy_reg || w_pick.found;
  always_comb begin
    s_awready = '0;
    s_wready = '0;
    m_axi_awvalid = 1'b0;
    m_axi_awaddr = '0;
    m_axi_awlen = '0;
    m_axi_wvalid = 1'b0;
    m_axi_wdata = '0;
    m_axi_wstrb = '0;
    m_axi_wlast = 1'b0;
    m_axi_awid = '0;
    if (w_on) begin
      m_axi_awid = ID_W'(w_gnt);
      m_axi_awvalid = !aw_done_reg && s_awvalid[w_gnt];
      m_axi_awaddr = s_awaddr[w_gnt];
      m_axi_awlen = s_awlen[w_gnt];
      s_awready[w_gnt] = !aw_done_reg && m_axi_awready;
    end
    if (w_busy_reg) begin
      m_axi_wvalid = s_wvalid[w_gnt_reg];
      m_axi_wdata = s_wdata[w_gnt_reg];
      m_axi_wstrb = s_wstrb[w_gnt_reg];
      m_axi_wlast = s_wlast[w_gnt_reg];
      s_wready[w_gnt_reg] = m_axi_wready;
    end
  end
  assign m_axi_awsize = SIZE;
  assign m_axi_awburst = 2'b01;
  always_ff @(posedge clk) begin
    if (!w_busy_reg && w_pick.found) begin
      w_busy_reg <= 1'b1;
      w_gnt_reg <= WI'(w_pick.index);
      // writer 0's place in the round robin is kept while it goes first
      if (!wr0_first) w_last_reg <= WI'(w_pick.index);
      wr0_run_reg <= wr0_first && others_wait ? wr0_run_reg + 8'd1 : '0;
    end
    if (m_axi_awvalid && m_axi_awready) aw_done_reg <= 1'b1;
    if (m_axi_wvalid && m_axi_wready && m_axi_wlast) begin
      w_busy_reg <= 1'b0;
      aw_done_reg <= 1'b0;
    end
    if (rst) begin
      w_busy_reg <= 1'b0;
      aw_done_reg <= 1'b0;
      w_gnt_reg <= '0;
      w_last_reg <= '0;
      wr0_run_reg <= '0;
    end
  end
`ifndef SYNTHESIS
  // no writer waits for more than (N_WR - 1) * WR0_FIRST of writer 0's bursts: counted
  // per waiting writer, apart from the grant logic's own count
  int unsigned waited_wr0[N_WR];
  always @(posedge clk) begin
    for (int i = 1; i < N_WR; i++) begin
      if (rst || !s_awvalid[i] || (!w_busy_reg && w_pick.found && int'(w_pick.index) == i)) waited_wr0[i] <= 0;
      else if (!w_busy_reg && w_pick.found && w_pick.index == 3'd0) waited_wr0[i] <= waited_wr0[i] + 1;
      if (!rst && WR0_FIRST != 0)
        assert (waited_wr0[i] <= (N_WR - 1) * WR0_FIRST)
          else $error("toe_tcp_mem_arb: writer %0d waited for more than (N_WR - 1) * WR0_FIRST of writer 0's bursts", i);
    end
  end
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
