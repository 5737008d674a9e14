// SPDX-License-Identifier: Apache-2.0
// test_toe_axi_cdc: toe_axi_cdc with the behavioural memory (toe_sim_axi_mem, DDR4 mode:
// it holds W back when its write buffer is full and answers reads after a jittered
// latency) on the m_ side, so the test drives AXI4 on s_clk and checks what comes back.
module test_toe_axi_cdc #(
  parameter int unsigned DATA_W = 512,
  parameter bit          ASYNC  = 1'b1
) (
  input  logic                s_clk,
  input  logic                s_rst,
  input  logic                m_clk,
  input  logic                m_rst,
  input  logic [1:0]          s_axi_awid,
  input  logic [39:0]         s_axi_awaddr,
  input  logic [7:0]          s_axi_awlen,
  input  logic                s_axi_awvalid,
  output logic                s_axi_awready,
  input  logic [DATA_W-1:0]   s_axi_wdata,
  input  logic [DATA_W/8-1:0] s_axi_wstrb,
  input  logic                s_axi_wlast,
  input  logic                s_axi_wvalid,
  output logic                s_axi_wready,
  output logic [1:0]          s_axi_bid,
  output logic [1:0]          s_axi_bresp,
  output logic                s_axi_bvalid,
  input  logic                s_axi_bready,
  input  logic [1:0]          s_axi_arid,
  input  logic [39:0]         s_axi_araddr,
  input  logic [7:0]          s_axi_arlen,
  input  logic                s_axi_arvalid,
  output logic                s_axi_arready,
  output logic [1:0]          s_axi_rid,
  output logic [DATA_W-1:0]   s_axi_rdata,
  output logic [1:0]          s_axi_rresp,
  output logic                s_axi_rlast,
  output logic                s_axi_rvalid,
  input  logic                s_axi_rready
);
  localparam logic [2:0] SIZE = 3'($clog2(DATA_W / 8));
  logic [1:0] awid, bid, arid, rid, awburst, arburst, bresp, rresp;
  logic [39:0] awaddr, araddr;
  logic [7:0] awlen, arlen;
  logic [2:0] awsize, arsize;
  logic [DATA_W-1:0] wdata, rdata;
  logic [DATA_W/8-1:0] wstrb;
  logic awvalid, awready, wlast, wvalid, wready, bvalid, bready, arvalid, arready, rlast, rvalid, rready;
  wire mem_clk = ASYNC ? m_clk : s_clk;
  wire mem_rst = ASYNC ? m_rst : s_rst;

  toe_axi_cdc #(.ASYNC(ASYNC), .DATA_W(DATA_W), .ADDR_W(40), .ID_W(2)) u_dut (
    .s_clk, .s_rst, .s_axi_awid, .s_axi_awaddr, .s_axi_awlen, .s_axi_awsize(SIZE), .s_axi_awburst(2'b01),
    .s_axi_awvalid, .s_axi_awready, .s_axi_wdata, .s_axi_wstrb, .s_axi_wlast, .s_axi_wvalid,
    .s_axi_wready, .s_axi_bid, .s_axi_bresp, .s_axi_bvalid, .s_axi_bready,
    .s_axi_arid, .s_axi_araddr, .s_axi_arlen, .s_axi_arsize(SIZE), .s_axi_arburst(2'b01),
    .s_axi_arvalid, .s_axi_arready, .s_axi_rid, .s_axi_rdata, .s_axi_rresp, .s_axi_rlast,
    .s_axi_rvalid, .s_axi_rready,
    .m_clk, .m_rst,
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
    .m_axi_wready(wready), .m_axi_bid(bid), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
    .m_axi_bready(bready), .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arvalid(arvalid),
    .m_axi_arready(arready), .m_axi_rid(rid), .m_axi_rdata(rdata), .m_axi_rresp(rresp),
    .m_axi_rlast(rlast), .m_axi_rvalid(rvalid), .m_axi_rready(rready)
  );

  // One DDR4 channel's share per cycle (about half a 512-bit beat), refresh, turnaround,
  // jitter: W and R both see back-pressure and gaps from the memory side.
  toe_sim_axi_mem #(.DATA_W(DATA_W), .ADDR_W(40), .ID_W(2), .READ_LATENCY(24),
    .BYTES_PER_KCYCLE(DATA_W * 1000 / 16), .REFRESH_EVERY(2000), .REFRESH_CYCLES(100),
    .TURNAROUND(3), .BATCH(8), .WBUF_BEATS(8), .LATENCY_JITTER(16)) u_mem (
    .clk(mem_clk), .rst(mem_rst),
    .s_axi_awid(awid), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
    .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
    .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid),
    .s_axi_wready(wready), .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid),
    .s_axi_bready(bready), .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
    .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arvalid(arvalid),
    .s_axi_arready(arready), .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp),
    .s_axi_rlast(rlast), .s_axi_rvalid(rvalid), .s_axi_rready(rready)
  );
endmodule
