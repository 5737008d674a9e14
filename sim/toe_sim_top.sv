// SPDX-License-Identifier: Apache-2.0
// toe_sim_top: what toe-sim, toe-bench and toe-harness simulate: toe_top and the
// behavioural memory behind the TCP rings (MEM_DATA_W bits wide, MEM_LATENCY_NS per read),
// on the core clock (MEM_CLK_MHZ = 0) or, as behind a real DDR4 controller, on its own
// clock mem_clk of MEM_CLK_MHZ (toe_top's MEM_ASYNC crossing; the C++ model drives both
// clocks). The memory is ideal, or with MEM_DDR4 = 1 one DDR4-2400 x64 channel: 19.2 GB/s
// shared by reads and writes, refresh every 7.8 us for 350 ns, 10 ns per bus turnaround,
// reads up to 50 ns later. Applications: either the built-in ones
// (APPS_EN = 1: UDP echo on port 7; TCP echo on port 7, discard/iperf sink on port 5001,
// pattern source on port 19, and a client that connects out on client_start) or, with
// APPS_EN = 0, the TCP and UDP application APIs as flat ports (app_*) for a harness that
// plays the application (toe-harness, driven from Python). MAC, CSR, time and the TCP
// debug port are flat for the C++ harnesses.
module toe_sim_top
  import toe_pkg::*;
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned RING_BYTES = 65536,
  parameter int unsigned MEM_DATA_W = 512,
  parameter int unsigned MEM_LATENCY_NS = 100, // read latency of the memory model
  parameter int unsigned MEM_CLK_MHZ = 0,     // memory port clock (mem_clk); 0: the core clock
  parameter bit          MEM_DDR4 = 1'b0,     // 1: the memory model is a DDR4 channel (else ideal)
  parameter bit          APPS_EN = 1'b1,      // 0: the application APIs are the app_* ports
  parameter int unsigned APP_SENDERS = 4,     // sender slots of the example apps (sources, parked echoes)
  parameter int unsigned TCP_RX_FIFO_BYTES = rx_fifo_bytes_default(DATA_W),  // toe_top's
  parameter int unsigned TCP_STATE_READ_WAIT = 0   // toe_top's: each TCP record read waits up to this many cycles more
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                mem_clk,            // memory port clock when MEM_CLK_MHZ > 0
  input  logic                mem_rst,
  input  logic                tick_us,
  input  logic [DATA_W-1:0]   s_mac_rx_axis_tdata,
  input  logic [DATA_W/8-1:0] s_mac_rx_axis_tkeep,
  input  logic                s_mac_rx_axis_tvalid,
  output logic                s_mac_rx_axis_tready,
  input  logic                s_mac_rx_axis_tlast,
  input  logic                s_mac_rx_axis_tuser,
  output logic [DATA_W-1:0]   m_mac_tx_axis_tdata,
  output logic [DATA_W/8-1:0] m_mac_tx_axis_tkeep,
  output logic                m_mac_tx_axis_tvalid,
  input  logic                m_mac_tx_axis_tready,
  output logic                m_mac_tx_axis_tlast,
  output logic                m_mac_tx_axis_tuser,
  input  logic [11:0]         s_axil_awaddr,
  input  logic                s_axil_awvalid,
  output logic                s_axil_awready,
  input  logic [31:0]         s_axil_wdata,
  input  logic [3:0]          s_axil_wstrb,
  input  logic                s_axil_wvalid,
  output logic                s_axil_wready,
  output logic [1:0]          s_axil_bresp,
  output logic                s_axil_bvalid,
  input  logic                s_axil_bready,
  input  logic [11:0]         s_axil_araddr,
  input  logic                s_axil_arvalid,
  output logic                s_axil_arready,
  output logic [31:0]         s_axil_rdata,
  output logic [1:0]          s_axil_rresp,
  output logic                s_axil_rvalid,
  input  logic                s_axil_rready,
  output logic                udp_echo_listening,
  output logic                tcp_listening,
  output logic [63:0]         tcp_discard_bytes,
  output logic                tcp_app_rx_beat,    // a TCP payload beat reaches the app (bench probe)
  output logic                tcp_app_tx_beat,    // a TCP payload beat leaves the app (bench probe)
  output logic [63:0]         mem_rd_beats,       // read beats on the memory port (bench probe)
  output logic [63:0]         mem_wr_beats,       // write beats on the memory port (bench probe)
  input  logic                client_start,       // the TCP client app (toe_app_tcp_services)
  input  logic [31:0]         client_ip,
  input  logic [15:0]         client_port,
  input  logic [31:0]         client_bytes,
  output logic [2:0]          client_state,
  output logic [31:0]         client_sent,
  // TCP debug port (toe_top)
  input  logic                tcp_dbg_req_valid,
  output logic                tcp_dbg_req_ready,
  input  logic [19:0]         tcp_dbg_req,
  output logic                tcp_dbg_rsp_valid,
  input  logic                tcp_dbg_rsp_ready,
  output tcp_dbg_t            tcp_dbg_rsp,
  // Application APIs when APPS_EN = 0 (structs of toe_tcp_pkg / toe_pkg; see docs/tcp_api.md)
  input  logic                app_tcp_listen_req_valid,
  output logic                app_tcp_listen_req_ready,
  input  tcp_listen_req_t     app_tcp_listen_req,
  output logic                app_tcp_listen_rsp_valid,
  input  logic                app_tcp_listen_rsp_ready,
  output tcp_listen_rsp_t     app_tcp_listen_rsp,
  input  logic                app_tcp_open_req_valid,
  output logic                app_tcp_open_req_ready,
  input  tcp_open_req_t       app_tcp_open_req,
  output logic                app_tcp_open_rsp_valid,
  input  logic                app_tcp_open_rsp_ready,
  output tcp_open_rsp_t       app_tcp_open_rsp,
  input  logic                app_tcp_close_req_valid,
  output logic                app_tcp_close_req_ready,
  input  tcp_close_req_t      app_tcp_close_req,
  output logic                app_tcp_notif_valid,
  input  logic                app_tcp_notif_ready,
  output tcp_notif_t          app_tcp_notif,
  input  logic                app_tcp_rd_req_valid,
  output logic                app_tcp_rd_req_ready,
  input  tcp_rd_req_t         app_tcp_rd_req,
  output logic                app_tcp_rx_meta_valid,
  input  logic                app_tcp_rx_meta_ready,
  output tcp_rx_meta_t        app_tcp_rx_meta,
  output logic [DATA_W-1:0]   app_tcp_rx_axis_tdata,
  output logic [DATA_W/8-1:0] app_tcp_rx_axis_tkeep,
  output logic                app_tcp_rx_axis_tvalid,
  input  logic                app_tcp_rx_axis_tready,
  output logic                app_tcp_rx_axis_tlast,
  input  logic                app_tcp_tx_req_valid,
  output logic                app_tcp_tx_req_ready,
  input  tcp_tx_req_t         app_tcp_tx_req,
  output logic                app_tcp_tx_rsp_valid,
  input  logic                app_tcp_tx_rsp_ready,
  output tcp_tx_rsp_t         app_tcp_tx_rsp,
  input  logic [DATA_W-1:0]   app_tcp_tx_axis_tdata,
  input  logic [DATA_W/8-1:0] app_tcp_tx_axis_tkeep,
  input  logic                app_tcp_tx_axis_tvalid,
  output logic                app_tcp_tx_axis_tready,
  input  logic                app_tcp_tx_axis_tlast,
  output logic [DATA_W-1:0]   app_udp_rx_axis_tdata,
  output logic [DATA_W/8-1:0] app_udp_rx_axis_tkeep,
  output logic                app_udp_rx_axis_tvalid,
  input  logic                app_udp_rx_axis_tready,
  output logic                app_udp_rx_axis_tlast,
  output udp_meta_t           app_udp_rx_axis_tuser,
  input  logic [DATA_W-1:0]   app_udp_tx_axis_tdata,
  input  logic [DATA_W/8-1:0] app_udp_tx_axis_tkeep,
  input  logic                app_udp_tx_axis_tvalid,
  output logic                app_udp_tx_axis_tready,
  input  logic                app_udp_tx_axis_tlast,
  input  udp_meta_t           app_udp_tx_axis_tuser,
  input  logic                app_udp_listen_req_valid,
  output logic                app_udp_listen_req_ready,
  input  udp_listen_req_t     app_udp_listen_req,
  output logic                app_udp_listen_rsp_valid,
  input  logic                app_udp_listen_rsp_ready,
  output udp_listen_rsp_t     app_udp_listen_rsp
);
  logic [DATA_W-1:0] urx_tdata, utx_tdata;
  logic [DATA_W/8-1:0] urx_tkeep, utx_tkeep;
  logic urx_tvalid, urx_tready, urx_tlast, utx_tvalid, utx_tready, utx_tlast;
  logic [UDP_META_W-1:0] urx_tuser, utx_tuser;
  logic lreq_valid, lreq_ready, lrsp_valid, lrsp_ready;
  udp_listen_req_t lreq;
  udp_listen_rsp_t lrsp;

  localparam int unsigned AW = 40;
  localparam int unsigned IW = 2;
  logic [IW-1:0] awid, bid, arid, rid;
  logic [AW-1:0] awaddr, araddr;
  logic [7:0] awlen, arlen;
  logic [2:0] awsize, arsize;
  logic [1:0] awburst, arburst, bresp, rresp;
  logic awvalid, awready, wlast, wvalid, wready, bvalid, bready, arvalid, arready, rlast, rvalid, rready;
  logic [MEM_DATA_W-1:0] wdata, rdata;
  logic [MEM_DATA_W/8-1:0] wstrb;
  logic tl_req_valid, tl_req_ready, tl_rsp_valid, tl_rsp_ready, notif_valid, notif_ready,
        close_valid, close_ready, rd_valid, rd_ready, meta_valid, meta_ready, txq_valid, txq_ready,
        txr_valid, txr_ready, open_valid, open_ready, open_rsp_valid, open_rsp_ready;
  tcp_listen_req_t tl_req;
  tcp_listen_rsp_t tl_rsp;
  tcp_notif_t notif;
  tcp_close_req_t close_req;
  tcp_open_req_t open_req;
  tcp_open_rsp_t open_rsp;
  tcp_rd_req_t rd_req;
  tcp_rx_meta_t meta;
  tcp_tx_req_t txq;
  tcp_tx_rsp_t txr;
  logic [DATA_W-1:0] trx_tdata, ttx_tdata;
  logic [DATA_W/8-1:0] trx_tkeep, ttx_tkeep;
  logic trx_tvalid, trx_tready, trx_tlast, ttx_tvalid, ttx_tready, ttx_tlast;

  toe_top #(.DATA_W(DATA_W), .MEM_DATA_W(MEM_DATA_W), .MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES), .MEM_ADDR_W(AW),
            .MEM_ID_W(IW), .MEM_ASYNC(MEM_CLK_MHZ > 0), .TCP_RX_FIFO_BYTES(TCP_RX_FIFO_BYTES),
            .TCP_STATE_READ_WAIT(TCP_STATE_READ_WAIT)) u_toe (
    .clk, .rst, .mem_clk, .mem_rst, .tick_us, .tcp_ready(),
    .s_mac_rx_axis_tdata, .s_mac_rx_axis_tkeep, .s_mac_rx_axis_tvalid, .s_mac_rx_axis_tready,
    .s_mac_rx_axis_tlast, .s_mac_rx_axis_tuser,
    .m_mac_tx_axis_tdata, .m_mac_tx_axis_tkeep, .m_mac_tx_axis_tvalid, .m_mac_tx_axis_tready,
    .m_mac_tx_axis_tlast, .m_mac_tx_axis_tuser,
    .s_axil_awaddr, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata, .s_axil_wstrb,
    .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arvalid, .s_axil_arready, .s_axil_rdata, .s_axil_rresp,
    .s_axil_rvalid, .s_axil_rready,
    .m_udp_rx_axis_tdata(urx_tdata), .m_udp_rx_axis_tkeep(urx_tkeep),
    .m_udp_rx_axis_tvalid(urx_tvalid), .m_udp_rx_axis_tready(urx_tready),
    .m_udp_rx_axis_tlast(urx_tlast), .m_udp_rx_axis_tuser(urx_tuser),
    .s_udp_tx_axis_tdata(utx_tdata), .s_udp_tx_axis_tkeep(utx_tkeep),
    .s_udp_tx_axis_tvalid(utx_tvalid), .s_udp_tx_axis_tready(utx_tready),
    .s_udp_tx_axis_tlast(utx_tlast), .s_udp_tx_axis_tuser(utx_tuser),
    .udp_listen_req_valid(lreq_valid), .udp_listen_req_ready(lreq_ready), .udp_listen_req(lreq),
    .udp_listen_rsp_valid(lrsp_valid), .udp_listen_rsp_ready(lrsp_ready), .udp_listen_rsp(lrsp),
    .m_host_rx_axis_tdata(), .m_host_rx_axis_tkeep(), .m_host_rx_axis_tvalid(),
    .m_host_rx_axis_tready(1'b1), .m_host_rx_axis_tlast(), .m_host_rx_axis_tuser(),
    .s_host_tx_axis_tdata('0), .s_host_tx_axis_tkeep('0), .s_host_tx_axis_tvalid(1'b0),
    .s_host_tx_axis_tready(), .s_host_tx_axis_tlast(1'b0),
    .tcp_listen_req_valid(tl_req_valid), .tcp_listen_req_ready(tl_req_ready), .tcp_listen_req(tl_req),
    .tcp_listen_rsp_valid(tl_rsp_valid), .tcp_listen_rsp_ready(tl_rsp_ready), .tcp_listen_rsp(tl_rsp),
    .tcp_open_req_valid(open_valid), .tcp_open_req_ready(open_ready), .tcp_open_req(open_req),
    .tcp_open_rsp_valid(open_rsp_valid), .tcp_open_rsp_ready(open_rsp_ready), .tcp_open_rsp(open_rsp),
    .tcp_close_req_valid(close_valid), .tcp_close_req_ready(close_ready), .tcp_close_req(close_req),
    .tcp_notif_valid(notif_valid), .tcp_notif_ready(notif_ready), .tcp_notif(notif),
    .tcp_rd_req_valid(rd_valid), .tcp_rd_req_ready(rd_ready), .tcp_rd_req(rd_req),
    .tcp_rx_meta_valid(meta_valid), .tcp_rx_meta_ready(meta_ready), .tcp_rx_meta(meta),
    .m_tcp_rx_axis_tdata(trx_tdata), .m_tcp_rx_axis_tkeep(trx_tkeep), .m_tcp_rx_axis_tvalid(trx_tvalid),
    .m_tcp_rx_axis_tready(trx_tready), .m_tcp_rx_axis_tlast(trx_tlast),
    .tcp_tx_req_valid(txq_valid), .tcp_tx_req_ready(txq_ready), .tcp_tx_req(txq),
    .tcp_tx_rsp_valid(txr_valid), .tcp_tx_rsp_ready(txr_ready), .tcp_tx_rsp(txr),
    .s_tcp_tx_axis_tdata(ttx_tdata), .s_tcp_tx_axis_tkeep(ttx_tkeep), .s_tcp_tx_axis_tvalid(ttx_tvalid),
    .s_tcp_tx_axis_tready(ttx_tready), .s_tcp_tx_axis_tlast(ttx_tlast),
    .tcp_dbg_req_valid, .tcp_dbg_req_ready, .tcp_dbg_req, .tcp_dbg_rsp_valid, .tcp_dbg_rsp_ready,
    .tcp_dbg_rsp,
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid), .m_axi_wready(wready),
    .m_axi_bid(bid), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid), .m_axi_bready(bready),
    .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen), .m_axi_arsize(arsize),
    .m_axi_arburst(arburst), .m_axi_arvalid(arvalid), .m_axi_arready(arready),
    .m_axi_rid(rid), .m_axi_rdata(rdata), .m_axi_rresp(rresp), .m_axi_rlast(rlast), .m_axi_rvalid(rvalid),
    .m_axi_rready(rready)
  );

  assign tcp_app_rx_beat = trx_tvalid && trx_tready;
  assign tcp_app_tx_beat = ttx_tvalid && ttx_tready;
  // The memory side's clock: mem_clk, or the core clock when the port is not crossed
  wire m_clk = MEM_CLK_MHZ > 0 ? mem_clk : clk;
  wire m_rst = MEM_CLK_MHZ > 0 ? mem_rst : rst;
  always_ff @(posedge m_clk) begin
    mem_rd_beats <= mem_rd_beats + 64'(rvalid && rready);
    mem_wr_beats <= mem_wr_beats + 64'(wvalid && wready);
    if (m_rst) begin
      mem_rd_beats <= '0;
      mem_wr_beats <= '0;
    end
  end

  // DDR4-2400 x64 at the memory clock: its own, or the reference clock of the width
  // (156.25 MHz at 64 bits, 322 MHz at 512)
  localparam real MHZ = MEM_CLK_MHZ > 0 ? real'(MEM_CLK_MHZ) : DATA_W > 64 ? 322.0 : 156.25;
  localparam int unsigned DDR4_BYTES_PER_KCYCLE = int'(19.2e9 / (MHZ * 1.0e6) * 1000.0);
  localparam int unsigned NS_CYCLES_10 = int'(MHZ / 100.0 + 0.5);   // 10 ns
  localparam int unsigned MEM_LATENCY = int'(real'(MEM_LATENCY_NS) * MHZ / 1000.0 + 0.5);
  toe_sim_axi_mem #(.DATA_W(MEM_DATA_W), .ADDR_W(AW), .ID_W(IW), .READ_LATENCY(MEM_LATENCY),
    .BYTES_PER_KCYCLE(MEM_DDR4 ? DDR4_BYTES_PER_KCYCLE : 0),
    .REFRESH_EVERY(MEM_DDR4 ? int'(7.8 * MHZ) : 0), .REFRESH_CYCLES(MEM_DDR4 ? int'(0.35 * MHZ) : 0),
    .TURNAROUND(MEM_DDR4 ? NS_CYCLES_10 : 0), .LATENCY_JITTER(MEM_DDR4 ? MEM_LATENCY / 2 : 0)) u_mem (
    .clk(m_clk), .rst(m_rst),
    .s_axi_awid(awid), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
    .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
    .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid), .s_axi_wready(wready),
    .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid), .s_axi_bready(bready),
    .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen), .s_axi_arsize(arsize),
    .s_axi_arburst(arburst), .s_axi_arvalid(arvalid), .s_axi_arready(arready),
    .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rlast(rlast), .s_axi_rvalid(rvalid),
    .s_axi_rready(rready)
  );

  if (APPS_EN) begin : g_apps
    toe_app_tcp_services #(.DATA_W(DATA_W), .SENDERS(APP_SENDERS)) u_tcp_services (
      .clk, .rst,
      .listen_req_valid(tl_req_valid), .listen_req_ready(tl_req_ready), .listen_req(tl_req),
      .listen_rsp_valid(tl_rsp_valid), .listen_rsp_ready(tl_rsp_ready), .listen_rsp(tl_rsp),
      .open_req_valid(open_valid), .open_req_ready(open_ready), .open_req,
      .open_rsp_valid, .open_rsp_ready, .open_rsp,
      .notif_valid, .notif_ready, .notif,
      .close_req_valid(close_valid), .close_req_ready(close_ready), .close_req,
      .rd_req_valid(rd_valid), .rd_req_ready(rd_ready), .rd_req,
      .rx_meta_valid(meta_valid), .rx_meta_ready(meta_ready), .rx_meta(meta),
      .s_rx_axis_tdata(trx_tdata), .s_rx_axis_tkeep(trx_tkeep), .s_rx_axis_tvalid(trx_tvalid),
      .s_rx_axis_tready(trx_tready), .s_rx_axis_tlast(trx_tlast),
      .tx_req_valid(txq_valid), .tx_req_ready(txq_ready), .tx_req(txq),
      .tx_rsp_valid(txr_valid), .tx_rsp_ready(txr_ready), .tx_rsp(txr),
      .m_tx_axis_tdata(ttx_tdata), .m_tx_axis_tkeep(ttx_tkeep), .m_tx_axis_tvalid(ttx_tvalid),
      .m_tx_axis_tready(ttx_tready), .m_tx_axis_tlast(ttx_tlast),
      .client_start, .client_ip, .client_port, .client_bytes, .client_state, .client_sent,
      .listening(tcp_listening), .discard_bytes(tcp_discard_bytes)
    );

    toe_app_udp_echo #(.DATA_W(DATA_W)) u_echo (
      .clk, .rst,
      .s_axis_tdata(urx_tdata), .s_axis_tkeep(urx_tkeep), .s_axis_tvalid(urx_tvalid),
      .s_axis_tready(urx_tready), .s_axis_tlast(urx_tlast), .s_axis_tuser(urx_tuser),
      .m_axis_tdata(utx_tdata), .m_axis_tkeep(utx_tkeep), .m_axis_tvalid(utx_tvalid),
      .m_axis_tready(utx_tready), .m_axis_tlast(utx_tlast), .m_axis_tuser(utx_tuser),
      .listen_req_valid(lreq_valid), .listen_req_ready(lreq_ready), .listen_req(lreq),
      .listen_rsp_valid(lrsp_valid), .listen_rsp_ready(lrsp_ready), .listen_rsp(lrsp),
      .listening(udp_echo_listening)
    );
    assign {app_tcp_listen_req_ready, app_tcp_listen_rsp_valid, app_tcp_open_req_ready,
            app_tcp_open_rsp_valid, app_tcp_close_req_ready, app_tcp_notif_valid, app_tcp_rd_req_ready,
            app_tcp_rx_meta_valid, app_tcp_rx_axis_tvalid, app_tcp_tx_req_ready, app_tcp_tx_rsp_valid,
            app_tcp_tx_axis_tready, app_udp_rx_axis_tvalid, app_udp_tx_axis_tready,
            app_udp_listen_req_ready, app_udp_listen_rsp_valid} = '0;
    assign {app_tcp_listen_rsp, app_tcp_open_rsp, app_tcp_notif, app_tcp_rx_meta, app_tcp_rx_axis_tdata,
            app_tcp_rx_axis_tkeep, app_tcp_rx_axis_tlast, app_tcp_tx_rsp, app_udp_rx_axis_tdata,
            app_udp_rx_axis_tkeep, app_udp_rx_axis_tlast, app_udp_rx_axis_tuser, app_udp_listen_rsp} = '0;
  end else begin : g_ext_apps
    assign tl_req_valid = app_tcp_listen_req_valid;
    assign app_tcp_listen_req_ready = tl_req_ready;
    assign tl_req = app_tcp_listen_req;
    assign app_tcp_listen_rsp_valid = tl_rsp_valid;
    assign tl_rsp_ready = app_tcp_listen_rsp_ready;
    assign app_tcp_listen_rsp = tl_rsp;
    assign open_valid = app_tcp_open_req_valid;
    assign app_tcp_open_req_ready = open_ready;
    assign open_req = app_tcp_open_req;
    assign app_tcp_open_rsp_valid = open_rsp_valid;
    assign open_rsp_ready = app_tcp_open_rsp_ready;
    assign app_tcp_open_rsp = open_rsp;
    assign close_valid = app_tcp_close_req_valid;
    assign app_tcp_close_req_ready = close_ready;
    assign close_req = app_tcp_close_req;
    assign app_tcp_notif_valid = notif_valid;
    assign notif_ready = app_tcp_notif_ready;
    assign app_tcp_notif = notif;
    assign rd_valid = app_tcp_rd_req_valid;
    assign app_tcp_rd_req_ready = rd_ready;
    assign rd_req = app_tcp_rd_req;
    assign app_tcp_rx_meta_valid = meta_valid;
    assign meta_ready = app_tcp_rx_meta_ready;
    assign app_tcp_rx_meta = meta;
    assign app_tcp_rx_axis_tdata = trx_tdata;
    assign app_tcp_rx_axis_tkeep = trx_tkeep;
    assign app_tcp_rx_axis_tvalid = trx_tvalid;
    assign trx_tready = app_tcp_rx_axis_tready;
    assign app_tcp_rx_axis_tlast = trx_tlast;
    assign txq_valid = app_tcp_tx_req_valid;
    assign app_tcp_tx_req_ready = txq_ready;
    assign txq = app_tcp_tx_req;
    assign app_tcp_tx_rsp_valid = txr_valid;
    assign txr_ready = app_tcp_tx_rsp_ready;
    assign app_tcp_tx_rsp = txr;
    assign ttx_tdata = app_tcp_tx_axis_tdata;
    assign ttx_tkeep = app_tcp_tx_axis_tkeep;
    assign ttx_tvalid = app_tcp_tx_axis_tvalid;
    assign app_tcp_tx_axis_tready = ttx_tready;
    assign ttx_tlast = app_tcp_tx_axis_tlast;
    assign app_udp_rx_axis_tdata = urx_tdata;
    assign app_udp_rx_axis_tkeep = urx_tkeep;
    assign app_udp_rx_axis_tvalid = urx_tvalid;
    assign urx_tready = app_udp_rx_axis_tready;
    assign app_udp_rx_axis_tlast = urx_tlast;
    assign app_udp_rx_axis_tuser = urx_tuser;
    assign utx_tdata = app_udp_tx_axis_tdata;
    assign utx_tkeep = app_udp_tx_axis_tkeep;
    assign utx_tvalid = app_udp_tx_axis_tvalid;
    assign app_udp_tx_axis_tready = utx_tready;
    assign utx_tlast = app_udp_tx_axis_tlast;
    assign utx_tuser = app_udp_tx_axis_tuser;
    assign lreq_valid = app_udp_listen_req_valid;
    assign app_udp_listen_req_ready = lreq_ready;
    assign lreq = app_udp_listen_req;
    assign app_udp_listen_rsp_valid = lrsp_valid;
    assign lrsp_ready = app_udp_listen_rsp_ready;
    assign app_udp_listen_rsp = lrsp;
    assign {udp_echo_listening, tcp_listening, tcp_discard_bytes, client_state, client_sent} = '0;
  end
endmodule
