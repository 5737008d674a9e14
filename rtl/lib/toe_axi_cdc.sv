// SPDX-License-Identifier: Apache-2.0
// toe_axi_cdc: an AXI4 master port carried from one clock domain to another (the TCP
// rings' memory port from the core clock to a DDR4 controller's clock). Each of the five
// channels is its own toe_async_fifo: AW, W and AR from the s_ side (s_clk) to the m_ side
// (m_clk), B and R back. AXI4 needs no more: the channels' mutual order (W after its AW,
// B after the last W, R after its AR) is kept by the endpoints, which wait for each other
// on their own side, and each channel keeps its own order.
// With ASYNC = 0 both sides are on one clock and the channels pass through as wires
// (m_clk and m_rst unused), so a top can offer the crossing as a parameter.
// Timing (ASYNC = 1): every output is registered; a beat crosses in 3-4 cycles of the
// receiving clock; each channel can carry a beat per cycle of the slower clock while its
// FIFO covers the crossing's round trip (about 4 cycles of each clock: DATA_DEPTH 16 for
// the W and R bursts; the address and response channels see a beat per burst).
module toe_axi_cdc #(
  parameter bit          ASYNC      = 1'b1, // 0: one clock, no crossing (wires)
  parameter int unsigned DATA_W     = 512, // AXI4 data width
  parameter int unsigned ADDR_W     = 40,  // AXI4 address width
  parameter int unsigned ID_W       = 2,   // AXI4 ID width
  parameter int unsigned DATA_DEPTH = 16,  // W and R beats buffered, power of two >= 4
  parameter int unsigned ADDR_DEPTH = 8    // AW, B and AR entries buffered, power of two >= 4
) (
  input  logic                s_clk,
  input  logic                s_rst,
  input  logic [ID_W-1:0]     s_axi_awid,
  input  logic [ADDR_W-1:0]   s_axi_awaddr,
  input  logic [7:0]          s_axi_awlen,
  input  logic [2:0]          s_axi_awsize,
  input  logic [1:0]          s_axi_awburst,
  input  logic                s_axi_awvalid,
  output logic                s_axi_awready,
  input  logic [DATA_W-1:0]   s_axi_wdata,
  input  logic [DATA_W/8-1:0] s_axi_wstrb,
  input  logic                s_axi_wlast,
  input  logic                s_axi_wvalid,
  output logic                s_axi_wready,
  output logic [ID_W-1:0]     s_axi_bid,
  output logic [1:0]          s_axi_bresp,
  output logic                s_axi_bvalid,
  input  logic                s_axi_bready,
  input  logic [ID_W-1:0]     s_axi_arid,
  input  logic [ADDR_W-1:0]   s_axi_araddr,
  input  logic [7:0]          s_axi_arlen,
  input  logic [2:0]          s_axi_arsize,
  input  logic [1:0]          s_axi_arburst,
  input  logic                s_axi_arvalid,
  output logic                s_axi_arready,
  output logic [ID_W-1:0]     s_axi_rid,
  output logic [DATA_W-1:0]   s_axi_rdata,
  output logic [1:0]          s_axi_rresp,
  output logic                s_axi_rlast,
  output logic                s_axi_rvalid,
  input  logic                s_axi_rready,
  input  logic                m_clk,
  input  logic                m_rst,
  output logic [ID_W-1:0]     m_axi_awid,
  output logic [ADDR_W-1:0]   m_axi_awaddr,
  output logic [7:0]          m_axi_awlen,
  output logic [2:0]          m_axi_awsize,
  output logic [1:0]          m_axi_awburst,
  output logic                m_axi_awvalid,
  input  logic                m_axi_awready,
  output logic [DATA_W-1:0]   m_axi_wdata,
  output logic [DATA_W/8-1:0] m_axi_wstrb,
  output logic                m_axi_wlast,
  output logic                m_axi_wvalid,
  input  logic                m_axi_wready,
  input  logic [ID_W-1:0]     m_axi_bid,
  input  logic [1:0]          m_axi_bresp,
  input  logic                m_axi_bvalid,
  output logic                m_axi_bready,
  output logic [ID_W-1:0]     m_axi_arid,
  output logic [ADDR_W-1:0]   m_axi_araddr,
  output logic [7:0]          m_axi_arlen,
  output logic [2:0]          m_axi_arsize,
  output logic [1:0]          m_axi_arburst,
  output logic                m_axi_arvalid,
  input  logic                m_axi_arready,
  input  logic [ID_W-1:0]     m_axi_rid,
  input  logic [DATA_W-1:0]   m_axi_rdata,
  input  logic [1:0]          m_axi_rresp,
  input  logic                m_axi_rlast,
  input  logic                m_axi_rvalid,
  output logic                m_axi_rready
);
  if (ASYNC) begin : g_cdc
    localparam int unsigned A_W = ID_W + ADDR_W + 8 + 3 + 2;   // AW and AR

    toe_async_fifo #(.WIDTH(A_W), .DEPTH(ADDR_DEPTH)) u_aw (
      .s_clk, .s_rst, .s_data({s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst}),
      .s_valid(s_axi_awvalid), .s_ready(s_axi_awready),
      .m_clk, .m_rst, .m_data({m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst}),
      .m_valid(m_axi_awvalid), .m_ready(m_axi_awready)
    );
    toe_async_fifo #(.WIDTH(DATA_W + DATA_W/8 + 1), .DEPTH(DATA_DEPTH)) u_w (
      .s_clk, .s_rst, .s_data({s_axi_wdata, s_axi_wstrb, s_axi_wlast}),
      .s_valid(s_axi_wvalid), .s_ready(s_axi_wready),
      .m_clk, .m_rst, .m_data({m_axi_wdata, m_axi_wstrb, m_axi_wlast}),
      .m_valid(m_axi_wvalid), .m_ready(m_axi_wready)
    );
    toe_async_fifo #(.WIDTH(ID_W + 2), .DEPTH(ADDR_DEPTH)) u_b (
      .s_clk(m_clk), .s_rst(m_rst), .s_data({m_axi_bid, m_axi_bresp}),
      .s_valid(m_axi_bvalid), .s_ready(m_axi_bready),
      .m_clk(s_clk), .m_rst(s_rst), .m_data({s_axi_bid, s_axi_bresp}),
      .m_valid(s_axi_bvalid), .m_ready(s_axi_bready)
    );
    toe_async_fifo #(.WIDTH(A_W), .DEPTH(ADDR_DEPTH)) u_ar (
      .s_clk, .s_rst, .s_data({s_axi_arid, s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst}),
      .s_valid(s_axi_arvalid), .s_ready(s_axi_arready),
      .m_clk, .m_rst, .m_data({m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst}),
      .m_valid(m_axi_arvalid), .m_ready(m_axi_arready)
    );
    toe_async_fifo #(.WIDTH(ID_W + DATA_W + 2 + 1), .DEPTH(DATA_DEPTH)) u_r (
      .s_clk(m_clk), .s_rst(m_rst), .s_data({m_axi_rid, m_axi_rdata, m_axi_rresp, m_axi_rlast}),
      .s_valid(m_axi_rvalid), .s_ready(m_axi_rready),
      .m_clk(s_clk), .m_rst(s_rst), .m_data({s_axi_rid, s_axi_rdata, s_axi_rresp, s_axi_rlast}),
      .m_valid(s_axi_rvalid), .m_ready(s_axi_rready)
    );
  end else begin : g_wire
    assign {m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst, m_axi_awvalid} =
           {s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst, s_axi_awvalid};
    assign s_axi_awready = m_axi_awready;
    assign {m_axi_wdata, m_axi_wstrb, m_axi_wlast, m_axi_wvalid} = {s_axi_wdata, s_axi_wstrb, s_axi_wlast, s_axi_wvalid};
    assign s_axi_wready = m_axi_wready;
    assign {s_axi_bid, s_axi_bresp, s_axi_bvalid} = {m_axi_bid, m_axi_bresp, m_axi_bvalid};
    assign m_axi_bready = s_axi_bready;
    assign {m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst, m_axi_arvalid} =
           {s_axi_arid, s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst, s_axi_arvalid};
    assign s_axi_arready = m_axi_arready;
    assign {s_axi_rid, s_axi_rdata, s_axi_rresp, s_axi_rlast, s_axi_rvalid} =
           {m_axi_rid, m_axi_rdata, m_axi_rresp, m_axi_rlast, m_axi_rvalid};
    assign m_axi_rready = s_axi_rready;
    wire unused_clocks = &{1'b0, s_clk, s_rst, m_clk, m_rst};   // one clock: nothing is clocked here
  end
endmodule
