// SPDX-License-Identifier: Apache-2.0
// toe_sim_top: what toe-sim simulates: toe_top with the built-in applications (UDP echo
// on port 7). MAC, CSR and time ports are flat for the C++ harness.
module toe_sim_top
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W = 64
) (
  input  logic                clk,
  input  logic                rst,
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
  output logic                udp_echo_listening
);
  logic [DATA_W-1:0] urx_tdata, utx_tdata;
  logic [DATA_W/8-1:0] urx_tkeep, utx_tkeep;
  logic urx_tvalid, urx_tready, urx_tlast, utx_tvalid, utx_tready, utx_tlast;
  logic [UDP_META_W-1:0] urx_tuser, utx_tuser;
  logic lreq_valid, lreq_ready, lrsp_valid, lrsp_ready;
  udp_listen_req_t lreq;
  udp_listen_rsp_t lrsp;

  toe_top #(.DATA_W(DATA_W)) u_toe (
    .clk, .rst, .tick_us,
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
    .s_host_tx_axis_tready(), .s_host_tx_axis_tlast(1'b0)
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
endmodule
