// SPDX-License-Identifier: Apache-2.0
// toe_top: the OpenTOE engine with flat ports: Ethernet, ARP, IPv4, ICMP, UDP and TCP.
//
//  MAC RX -> rx FIFO -> eth_rx -+-> arp ----------------------------------+
//                               +-> ipv4_rx -+-> icmp_echo ----------+     |
//                               |            +-> udp_rx -> UDP app   |     |
//                               |            |      +-> icmp_unreach-+     |
//                               |            +-> tcp <-> TCP app     +     |
//                               |                 <-> AXI4 memory    |     |
//                               +-> host RX               UDP app -> udp_tx+-> ip arb -> ip_tx -+
//  MAC TX <- eth arb <- {arp, ip_tx, host TX}
//  (icmp_unreach answers udp_rx's closed ports and ipv4_rx's unknown protocols)
//
// MAC streams carry no preamble or FCS; s_mac_rx_axis_tuser marks a bad frame on its last
// beat. The RX FIFO is store-and-forward and never back-pressures the MAC: bad frames and
// frames that do not fit are dropped and counted. UDP application streams carry
// toe_pkg::udp_meta_t on tuser, valid on every beat. tick_us is a one-cycle pulse per
// microsecond of engine time. Configuration and counters: AXI4-Lite, docs/registers.md.
// TCP application API: docs/tcp_api.md (control channels carry toe_tcp_pkg structs as flat
// vectors). The AXI4 master holds the per-session TCP rings (2 * RING_BYTES per session);
// with MEM_ASYNC = 1 it runs on mem_clk/mem_rst (a DDR4 controller's user clock) through
// toe_axi_cdc, else on clk (mem_clk and mem_rst unused).
module toe_top
  import toe_pkg::*;
  import toe_tcp_pkg::*;
  import toe_csr_pkg::*;
#(
  parameter int unsigned DATA_W        = 64,       // data path width: 64 (10G) .. 512 (100G)
  parameter bit          HOST_EN       = 1'b0,     // forward unsupported EtherTypes to m_host_rx
  parameter int unsigned RX_FIFO_BYTES = 16384,    // MAC RX frame FIFO
  parameter int unsigned ARP_ENTRIES   = 16,       // ARP cache entries (power of two)
  parameter int unsigned ARP_RETRY_US  = 1000000,  // time between ARP requests for one address
  parameter int unsigned ARP_AGE_UNIT_US = 1000000, // unit of ARP_TIMEOUT_S (tests shorten it)
  parameter int unsigned UDP_PORTS     = 8,        // UDP listen table entries
  parameter int unsigned MAX_SESSIONS  = 1024,     // TCP sessions (power of two)
  parameter int unsigned RING_BYTES    = 65536,    // TCP RX and TX ring per session (power of two, >= 4096)
  parameter int unsigned TCP_LISTEN_PORTS = 16,    // TCP listen table entries
  parameter int unsigned MEM_DATA_W    = 512,      // AXI4 data width of the memory port (a DDR4 controller's)
  parameter int unsigned MEM_ADDR_W    = 40,       // AXI4 address width
  parameter int unsigned MEM_ID_W      = 2,        // AXI4 ID width
  parameter bit          MEM_ASYNC     = 1'b0,     // 1: the memory port runs on mem_clk
  parameter int unsigned MEM_RX_FIRST  = 4,        // memory writes: RX ring bursts in a row while TX waits (0: round robin)
  parameter int unsigned TCP_RX_FIFO_BYTES = rx_fifo_bytes_default(DATA_W), // TCP segments waiting for their checksum and the memory (16 KB; 256 KB at 512 bits, where one DDR4 channel is slower than RX: toe_tcp_pkg)
  parameter string       TCP_RX_FIFO_RAM_STYLE = "auto", // that FIFO's ram_style attribute: "ultra" puts it in UltraRAM (UltraScale+: 9 URAMs for 256 KB at 512 bits)
  parameter int unsigned ISN_HALF_ROUNDS = isn_half_rounds_default(DATA_W), // ISN hash: half SipRounds per cycle, 2 at 64 bits (9 cycles, fits 156.25 MHz), 1 above (17 cycles, fits 322 MHz); 1 for a 64-bit path above ~200 MHz
  parameter int unsigned TCP_STATE_READ_WAIT = 0 // TCP session record reads: 0 on chip (two cycles); else each waits up to this many cycles more (a slower store: tests, bench; toe_tcp)
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  tick_us,
  output logic                  tcp_ready,   // TCP has cleared its tables after reset (STATUS.tcp_ready); segments and requests wait until then
  // MAC
  input  logic [DATA_W-1:0]     s_mac_rx_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_mac_rx_axis_tkeep,
  input  logic                  s_mac_rx_axis_tvalid,
  output logic                  s_mac_rx_axis_tready,
  input  logic                  s_mac_rx_axis_tlast,
  input  logic                  s_mac_rx_axis_tuser,
  output logic [DATA_W-1:0]     m_mac_tx_axis_tdata,
  output logic [DATA_W/8-1:0]   m_mac_tx_axis_tkeep,
  output logic                  m_mac_tx_axis_tvalid,
  input  logic                  m_mac_tx_axis_tready,
  output logic                  m_mac_tx_axis_tlast,
  output logic                  m_mac_tx_axis_tuser,
  // CSR
  input  logic [11:0]           s_axil_awaddr,
  input  logic                  s_axil_awvalid,
  output logic                  s_axil_awready,
  input  logic [31:0]           s_axil_wdata,
  input  logic [3:0]            s_axil_wstrb,
  input  logic                  s_axil_wvalid,
  output logic                  s_axil_wready,
  output logic [1:0]            s_axil_bresp,
  output logic                  s_axil_bvalid,
  input  logic                  s_axil_bready,
  input  logic [11:0]           s_axil_araddr,
  input  logic                  s_axil_arvalid,
  output logic                  s_axil_arready,
  output logic [31:0]           s_axil_rdata,
  output logic [1:0]            s_axil_rresp,
  output logic                  s_axil_rvalid,
  input  logic                  s_axil_rready,
  // UDP application
  output logic [DATA_W-1:0]     m_udp_rx_axis_tdata,
  output logic [DATA_W/8-1:0]   m_udp_rx_axis_tkeep,
  output logic                  m_udp_rx_axis_tvalid,
  input  logic                  m_udp_rx_axis_tready,
  output logic                  m_udp_rx_axis_tlast,
  output logic [UDP_META_W-1:0] m_udp_rx_axis_tuser,
  input  logic [DATA_W-1:0]     s_udp_tx_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_udp_tx_axis_tkeep,
  input  logic                  s_udp_tx_axis_tvalid,
  output logic                  s_udp_tx_axis_tready,
  input  logic                  s_udp_tx_axis_tlast,
  input  logic [UDP_META_W-1:0] s_udp_tx_axis_tuser,
  input  logic                  udp_listen_req_valid,
  output logic                  udp_listen_req_ready,
  input  logic [16:0]           udp_listen_req,      // udp_listen_req_t {port, open}
  output logic                  udp_listen_rsp_valid,
  input  logic                  udp_listen_rsp_ready,
  output logic [16:0]           udp_listen_rsp,      // udp_listen_rsp_t {port, ok}
  // Host path: whole Ethernet frames the engine does not terminate, and frames to send.
  output logic [DATA_W-1:0]     m_host_rx_axis_tdata,
  output logic [DATA_W/8-1:0]   m_host_rx_axis_tkeep,
  output logic                  m_host_rx_axis_tvalid,
  input  logic                  m_host_rx_axis_tready,
  output logic                  m_host_rx_axis_tlast,
  output logic                  m_host_rx_axis_tuser,       // bad frame (FCS error): drop it
  input  logic [DATA_W-1:0]     s_host_tx_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_host_tx_axis_tkeep,
  input  logic                  s_host_tx_axis_tvalid,
  output logic                  s_host_tx_axis_tready,
  input  logic                  s_host_tx_axis_tlast,
  // TCP application API (structs of toe_tcp_pkg, flat)
  input  logic                  tcp_listen_req_valid,
  output logic                  tcp_listen_req_ready,
  input  logic [16:0]           tcp_listen_req,      // tcp_listen_req_t
  output logic                  tcp_listen_rsp_valid,
  input  logic                  tcp_listen_rsp_ready,
  output logic [16:0]           tcp_listen_rsp,      // tcp_listen_rsp_t
  input  logic                  tcp_open_req_valid,
  output logic                  tcp_open_req_ready,
  input  logic [47:0]           tcp_open_req,        // tcp_open_req_t
  output logic                  tcp_open_rsp_valid,
  input  logic                  tcp_open_rsp_ready,
  output logic [36:0]           tcp_open_rsp,        // tcp_open_rsp_t
  input  logic                  tcp_close_req_valid,
  output logic                  tcp_close_req_ready,
  input  logic [20:0]           tcp_close_req,       // tcp_close_req_t
  output logic                  tcp_notif_valid,
  input  logic                  tcp_notif_ready,
  output logic [102:0]          tcp_notif,           // tcp_notif_t
  input  logic                  tcp_rd_req_valid,
  output logic                  tcp_rd_req_ready,
  input  logic [35:0]           tcp_rd_req,          // tcp_rd_req_t
  output logic                  tcp_rx_meta_valid,
  input  logic                  tcp_rx_meta_ready,
  output logic [35:0]           tcp_rx_meta,         // tcp_rx_meta_t
  output logic [DATA_W-1:0]     m_tcp_rx_axis_tdata,
  output logic [DATA_W/8-1:0]   m_tcp_rx_axis_tkeep,
  output logic                  m_tcp_rx_axis_tvalid,
  input  logic                  m_tcp_rx_axis_tready,
  output logic                  m_tcp_rx_axis_tlast,
  input  logic                  tcp_tx_req_valid,
  output logic                  tcp_tx_req_ready,
  input  logic [35:0]           tcp_tx_req,          // tcp_tx_req_t
  output logic                  tcp_tx_rsp_valid,
  input  logic                  tcp_tx_rsp_ready,
  output logic [38:0]           tcp_tx_rsp,          // tcp_tx_rsp_t
  input  logic [DATA_W-1:0]     s_tcp_tx_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_tcp_tx_axis_tkeep,
  input  logic                  s_tcp_tx_axis_tvalid,
  output logic                  s_tcp_tx_axis_tready,
  input  logic                  s_tcp_tx_axis_tlast,
  // TCP debug port: snapshot of one session's state (tie valid low and ready high if unused)
  input  logic                  tcp_dbg_req_valid,
  output logic                  tcp_dbg_req_ready,
  input  logic [19:0]           tcp_dbg_req,         // session id
  output logic                  tcp_dbg_rsp_valid,
  input  logic                  tcp_dbg_rsp_ready,
  output logic [$bits(toe_tcp_pkg::tcp_dbg_t)-1:0] tcp_dbg_rsp,   // tcp_dbg_t
  // AXI4 master: TCP ring memory (on mem_clk when MEM_ASYNC = 1, else on clk)
  input  logic                  mem_clk,
  input  logic                  mem_rst,
  output logic [MEM_ID_W-1:0]   m_axi_awid,
  output logic [MEM_ADDR_W-1:0] m_axi_awaddr,
  output logic [7:0]            m_axi_awlen,
  output logic [2:0]            m_axi_awsize,
  output logic [1:0]            m_axi_awburst,
  output logic                  m_axi_awvalid,
  input  logic                  m_axi_awready,
  output logic [MEM_DATA_W-1:0] m_axi_wdata,
  output logic [MEM_DATA_W/8-1:0] m_axi_wstrb,
  output logic                  m_axi_wlast,
  output logic                  m_axi_wvalid,
  input  logic                  m_axi_wready,
  input  logic [MEM_ID_W-1:0]   m_axi_bid,
  input  logic [1:0]            m_axi_bresp,
  input  logic                  m_axi_bvalid,
  output logic                  m_axi_bready,
  output logic [MEM_ID_W-1:0]   m_axi_arid,
  output logic [MEM_ADDR_W-1:0] m_axi_araddr,
  output logic [7:0]            m_axi_arlen,
  output logic [2:0]            m_axi_arsize,
  output logic [1:0]            m_axi_arburst,
  output logic                  m_axi_arvalid,
  input  logic                  m_axi_arready,
  input  logic [MEM_ID_W-1:0]   m_axi_rid,
  input  logic [MEM_DATA_W-1:0] m_axi_rdata,
  input  logic [1:0]            m_axi_rresp,
  input  logic                  m_axi_rlast,
  input  logic                  m_axi_rvalid,
  output logic                  m_axi_rready
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned IPU = IP_RX_META_W + 1;
  localparam int unsigned IPT = IP_TX_META_W + 1;

  logic [N_COUNTERS-1:0] stat_inc;
  logic [47:0] cfg_mac;
  logic [31:0] cfg_ip, cfg_netmask, cfg_gateway;
  logic cfg_icmp_echo, cfg_drop_synfin, cfg_rfc5961_rst, cfg_rfc5961_syn, cfg_nagle;
  logic [15:0] cfg_arp_timeout_s, cfg_unreach_us;
  logic ip_written;
  logic [15:0] cfg_tcp_mss, cfg_tcp_mss_min;
  logic [31:0] cfg_tcp_fin_wait_2_us, cfg_tcp_keepalive_idle_us, cfg_tcp_keepalive_intvl_us;
  logic [3:0] cfg_tcp_keepalive_probes, cfg_tcp_synrcvd_retries;
  logic [31:0] cfg_tcp_half_open_max;
  logic [31:0] cfg_tcp_rto_init_us, cfg_tcp_rto_min_us, cfg_tcp_rto_max_us, cfg_tcp_delack_us,
               cfg_tcp_time_wait_us;
  logic [127:0] cfg_tcp_isn_key;
  logic [3:0] cfg_tcp_max_retries;
  logic [47:0] cfg_mem_base;
  logic [SID_W:0] tcp_curr_estab, tcp_sessions_in_use;

  toe_csr u_csr (
    .clk, .rst,
    .s_axil_awaddr, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata, .s_axil_wstrb,
    .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid, .s_axil_bready,
    .s_axil_araddr, .s_axil_arvalid, .s_axil_arready, .s_axil_rdata, .s_axil_rresp,
    .s_axil_rvalid, .s_axil_rready,
    .stat_inc, .cfg_mac, .cfg_ip, .cfg_netmask, .cfg_gateway,
    .cfg_icmp_echo, .cfg_drop_synfin, .cfg_rfc5961_rst, .cfg_rfc5961_syn, .cfg_nagle,
    .cfg_arp_timeout_s, .cfg_icmp_unreach_interval_us(cfg_unreach_us), .ip_written,
    .cfg_tcp_mss, .cfg_tcp_mss_min, .cfg_tcp_fin_wait_2_us, .cfg_tcp_keepalive_idle_us,
    .cfg_tcp_keepalive_intvl_us, .cfg_tcp_keepalive_probes, .cfg_tcp_half_open_max, .cfg_tcp_synrcvd_retries,
    .cfg_tcp_rto_init_us, .cfg_tcp_rto_min_us, .cfg_tcp_rto_max_us, .cfg_tcp_max_retries,
    .cfg_tcp_delack_us, .cfg_tcp_time_wait_us, .cfg_tcp_isn_key, .cfg_mem_base,
    .status_tcp_curr_estab(32'(tcp_curr_estab)), .status_tcp_sessions_in_use(32'(tcp_sessions_in_use)),
    .status_tcp_ready(tcp_ready)
  );

  // ---------------- receive ----------------
  logic [DATA_W-1:0] rx_tdata;
  logic [W-1:0] rx_tkeep;
  logic rx_tvalid, rx_tready, rx_tlast, rx_tuser;
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(1), .DEPTH(RX_FIFO_BYTES / W), .FRAME(1'b1),
                  .DROP_WHEN_FULL(1'b1)) u_rx_fifo (
    .clk, .rst,
    .s_axis_tdata(s_mac_rx_axis_tdata), .s_axis_tkeep(s_mac_rx_axis_tkeep),
    .s_axis_tvalid(s_mac_rx_axis_tvalid), .s_axis_tready(s_mac_rx_axis_tready),
    .s_axis_tlast(s_mac_rx_axis_tlast), .s_axis_tuser(s_mac_rx_axis_tuser),
    .m_axis_tdata(rx_tdata), .m_axis_tkeep(rx_tkeep), .m_axis_tvalid(rx_tvalid),
    .m_axis_tready(rx_tready), .m_axis_tlast(rx_tlast), .m_axis_tuser(rx_tuser),
    .drop_bad(stat_inc[CNT_ETH_IN_FCS_ERRORS]), .drop_full(stat_inc[CNT_ETH_IN_OVERFLOWS])
  );

  // A SYN to this host, seen as it comes in from the MAC: its ISN hash starts then.
  logic syn_hint_valid;
  toe_tcp_pkg::tcp_isn_req_t syn_hint;
  toe_tcp_syn_hint #(.DATA_W(DATA_W)) u_syn_hint (
    .clk, .rst, .cfg_ip,
    .s_axis_tdata(s_mac_rx_axis_tdata), .s_axis_tkeep(s_mac_rx_axis_tkeep),
    .s_axis_tvalid(s_mac_rx_axis_tvalid), .s_axis_tready(s_mac_rx_axis_tready),
    .s_axis_tlast(s_mac_rx_axis_tlast), .m_hint_valid(syn_hint_valid), .m_hint(syn_hint)
  );

  logic [DATA_W-1:0] l3_tdata;
  logic [W-1:0] l3_tkeep;
  logic l3_tlast, l3_tuser, ip_in_tvalid, ip_in_tready, arp_in_tvalid, arp_in_tready;
  logic host_rx_tvalid;
  logic [DATA_W-1:0] eth_tdata;
  logic [W-1:0] eth_tkeep;
  logic eth_tlast, eth_tuser, eth_ip_tvalid, eth_ip_tready, eth_arp_tvalid, eth_arp_tready;
  toe_eth_rx #(.DATA_W(DATA_W), .HOST_EN(HOST_EN)) u_eth_rx (
    .clk, .rst, .cfg_mac,
    .s_axis_tdata(rx_tdata), .s_axis_tkeep(rx_tkeep), .s_axis_tvalid(rx_tvalid),
    .s_axis_tready(rx_tready), .s_axis_tlast(rx_tlast), .s_axis_tuser(rx_tuser),
    .m_axis_tdata(eth_tdata), .m_axis_tkeep(eth_tkeep), .m_axis_tlast(eth_tlast), .m_axis_tuser(eth_tuser),
    .m_ip_axis_tvalid(eth_ip_tvalid), .m_ip_axis_tready(eth_ip_tready),
    .m_arp_axis_tvalid(eth_arp_tvalid), .m_arp_axis_tready(eth_arp_tready),
    .m_host_axis_tdata(m_host_rx_axis_tdata), .m_host_axis_tkeep(m_host_rx_axis_tkeep),
    .m_host_axis_tvalid(host_rx_tvalid), .m_host_axis_tready(m_host_rx_axis_tready || !HOST_EN),
    .m_host_axis_tlast(m_host_rx_axis_tlast), .m_host_axis_tuser(m_host_rx_axis_tuser),
    .stat_frames(stat_inc[CNT_ETH_IN_FRAMES]), .stat_fcs_errors(),
    .stat_runts(stat_inc[CNT_ETH_IN_RUNTS]), .stat_dst_drops(stat_inc[CNT_ETH_IN_DST_DROPS]),
    .stat_type_drops(stat_inc[CNT_ETH_IN_TYPE_DROPS])
  );
  assign m_host_rx_axis_tvalid = host_rx_tvalid && HOST_EN;

  // Register slice between Ethernet RX and the layer above (ARP and IPv4 share it: the
  // payload stream is one stream, the destination rides on tuser).
  logic l3_is_arp, l3_tvalid, l3_tready, l3_in_ready;
  toe_axis_register #(.DATA_W(DATA_W), .USER_W(2)) u_l3_reg (
    .clk, .rst,
    .s_axis_tdata(eth_tdata), .s_axis_tkeep(eth_tkeep), .s_axis_tvalid(eth_ip_tvalid || eth_arp_tvalid),
    .s_axis_tready(l3_in_ready), .s_axis_tlast(eth_tlast), .s_axis_tuser({eth_arp_tvalid, eth_tuser}),
    .m_axis_tdata(l3_tdata), .m_axis_tkeep(l3_tkeep), .m_axis_tvalid(l3_tvalid),
    .m_axis_tready(l3_tready), .m_axis_tlast(l3_tlast), .m_axis_tuser({l3_is_arp, l3_tuser})
  );
  assign eth_ip_tready = l3_in_ready;
  assign eth_arp_tready = l3_in_ready;
  assign ip_in_tvalid = l3_tvalid && !l3_is_arp;
  assign arp_in_tvalid = l3_tvalid && l3_is_arp;
  assign l3_tready = l3_is_arp ? arp_in_tready : ip_in_tready;
  assign stat_inc[CNT_HOST_RX_FRAMES] = m_host_rx_axis_tvalid && m_host_rx_axis_tready && m_host_rx_axis_tlast;

  // ---------------- ARP ----------------
  logic [DATA_W-1:0] arp_tx_tdata;
  logic [W-1:0] arp_tx_tkeep;
  logic arp_tx_tvalid, arp_tx_tready, arp_tx_tlast, arp_tx_tuser;
  logic [31:0] arp_lookup_ip, arp_miss_ip;
  logic arp_lookup_hit, arp_miss;
  logic [47:0] arp_lookup_mac;
  toe_arp #(.DATA_W(DATA_W), .ENTRIES(ARP_ENTRIES), .RETRY_US(ARP_RETRY_US),
            .AGE_UNIT_US(ARP_AGE_UNIT_US)) u_arp (
    .clk, .rst, .tick_us, .cfg_mac, .cfg_ip, .cfg_timeout_s(cfg_arp_timeout_s),
    .announce(ip_written),
    .s_axis_tdata(l3_tdata), .s_axis_tkeep(l3_tkeep), .s_axis_tvalid(arp_in_tvalid),
    .s_axis_tready(arp_in_tready), .s_axis_tlast(l3_tlast), .s_axis_tuser(l3_tuser),
    .m_axis_tdata(arp_tx_tdata), .m_axis_tkeep(arp_tx_tkeep), .m_axis_tvalid(arp_tx_tvalid),
    .m_axis_tready(arp_tx_tready), .m_axis_tlast(arp_tx_tlast), .m_axis_tuser(arp_tx_tuser),
    .lookup_ip(arp_lookup_ip), .lookup_hit(arp_lookup_hit), .lookup_mac(arp_lookup_mac),
    .miss(arp_miss), .miss_ip(arp_miss_ip),
    .stat_in_requests(stat_inc[CNT_ARP_IN_REQUESTS]), .stat_in_replies(stat_inc[CNT_ARP_IN_REPLIES]),
    .stat_in_errors(stat_inc[CNT_ARP_IN_ERRORS]), .stat_out_requests(stat_inc[CNT_ARP_OUT_REQUESTS]),
    .stat_out_replies(stat_inc[CNT_ARP_OUT_REPLIES]), .stat_resolve_fails(stat_inc[CNT_ARP_RESOLVE_FAILS]),
    .stat_reply_drops(stat_inc[CNT_ARP_REPLY_DROPS])
  );

  // ---------------- IPv4 RX ----------------
  logic [DATA_W-1:0] l4_tdata;
  logic [W-1:0] l4_tkeep;
  logic l4_tlast, icmp_in_tvalid, icmp_in_tready, udp_in_tvalid, udp_in_tready, tcp_in_tvalid, tcp_in_tready;
  logic [IPU-1:0] l4_tuser;
  logic [1:0] unreach_valid;             // [0] UDP port unreachable, [1] IP protocol unreachable
  logic [1:0][159:0] unreach_ip_hdr;
  logic [1:0][63:0] unreach_l4_hdr;
  toe_ipv4_rx #(.DATA_W(DATA_W)) u_ipv4_rx (
    .clk, .rst, .cfg_ip, .cfg_netmask,
    .s_axis_tdata(l3_tdata), .s_axis_tkeep(l3_tkeep), .s_axis_tvalid(ip_in_tvalid),
    .s_axis_tready(ip_in_tready), .s_axis_tlast(l3_tlast), .s_axis_tuser(l3_tuser),
    .m_axis_tdata(l4_tdata), .m_axis_tkeep(l4_tkeep), .m_axis_tlast(l4_tlast), .m_axis_tuser(l4_tuser),
    .m_icmp_axis_tvalid(icmp_in_tvalid), .m_icmp_axis_tready(icmp_in_tready),
    .m_udp_axis_tvalid(udp_in_tvalid), .m_udp_axis_tready(udp_in_tready),
    .m_tcp_axis_tvalid(tcp_in_tvalid), .m_tcp_axis_tready(tcp_in_tready),
    .unreach_valid(unreach_valid[1]), .unreach_ip_hdr(unreach_ip_hdr[1]), .unreach_l4_hdr(unreach_l4_hdr[1]),
    .stat_in_receives(stat_inc[CNT_IP_IN_RECEIVES]), .stat_in_hdr_errors(stat_inc[CNT_IP_IN_HDR_ERRORS]),
    .stat_in_addr_errors(stat_inc[CNT_IP_IN_ADDR_ERRORS]), .stat_in_truncated(stat_inc[CNT_IP_IN_TRUNCATED_PKTS]),
    .stat_reasm_reqds(stat_inc[CNT_IP_REASM_REQDS]), .stat_in_unknown_protos(stat_inc[CNT_IP_IN_UNKNOWN_PROTOS]),
    .stat_in_delivers(stat_inc[CNT_IP_IN_DELIVERS])
  );

  // ---------------- ICMP, UDP and TCP ----------------
  logic [3:0][DATA_W-1:0] ipt_tdata;
  logic [3:0][W-1:0] ipt_tkeep;
  logic [3:0] ipt_tvalid, ipt_tready, ipt_tlast;
  logic [3:0][IPT-1:0] ipt_tuser;

  toe_icmp_echo #(.DATA_W(DATA_W)) u_icmp_echo (
    .clk, .rst, .cfg_enable(cfg_icmp_echo),
    .s_axis_tdata(l4_tdata), .s_axis_tkeep(l4_tkeep), .s_axis_tvalid(icmp_in_tvalid),
    .s_axis_tready(icmp_in_tready), .s_axis_tlast(l4_tlast), .s_axis_tuser(l4_tuser),
    .m_axis_tdata(ipt_tdata[0]), .m_axis_tkeep(ipt_tkeep[0]), .m_axis_tvalid(ipt_tvalid[0]),
    .m_axis_tready(ipt_tready[0]), .m_axis_tlast(ipt_tlast[0]), .m_axis_tuser(ipt_tuser[0]),
    .stat_in_msgs(stat_inc[CNT_ICMP_IN_MSGS]), .stat_in_echos(stat_inc[CNT_ICMP_IN_ECHOS]),
    .stat_in_errors(stat_inc[CNT_ICMP_IN_ERRORS]), .stat_out_echo_reps(stat_inc[CNT_ICMP_OUT_ECHO_REPS]),
    .stat_drops(stat_inc[CNT_ICMP_ECHO_DROPS])
  );

  toe_udp_rx #(.DATA_W(DATA_W), .UDP_PORTS(UDP_PORTS)) u_udp_rx (
    .clk, .rst,
    .s_axis_tdata(l4_tdata), .s_axis_tkeep(l4_tkeep), .s_axis_tvalid(udp_in_tvalid),
    .s_axis_tready(udp_in_tready), .s_axis_tlast(l4_tlast), .s_axis_tuser(l4_tuser),
    .m_axis_tdata(m_udp_rx_axis_tdata), .m_axis_tkeep(m_udp_rx_axis_tkeep),
    .m_axis_tvalid(m_udp_rx_axis_tvalid), .m_axis_tready(m_udp_rx_axis_tready),
    .m_axis_tlast(m_udp_rx_axis_tlast), .m_axis_tuser(m_udp_rx_axis_tuser),
    .listen_req_valid(udp_listen_req_valid), .listen_req_ready(udp_listen_req_ready),
    .listen_req(udp_listen_req), .listen_rsp_valid(udp_listen_rsp_valid),
    .listen_rsp_ready(udp_listen_rsp_ready), .listen_rsp(udp_listen_rsp),
    .unreach_valid(unreach_valid[0]), .unreach_ip_hdr(unreach_ip_hdr[0]), .unreach_l4_hdr(unreach_l4_hdr[0]),
    .stat_in_datagrams(stat_inc[CNT_UDP_IN_DATAGRAMS]), .stat_no_ports(stat_inc[CNT_UDP_NO_PORTS]),
    .stat_in_errors(stat_inc[CNT_UDP_IN_ERRORS]), .stat_in_overflows(stat_inc[CNT_UDP_IN_OVERFLOWS])
  );

  toe_icmp_unreach #(.DATA_W(DATA_W), .N_REQ(2), .REQ_CODES({8'd2, 8'd3})) u_icmp_unreach (
    .clk, .rst, .tick_us, .cfg_interval_us(cfg_unreach_us),
    .req_valid(unreach_valid), .req_ip_hdr(unreach_ip_hdr), .req_l4_hdr(unreach_l4_hdr),
    .m_axis_tdata(ipt_tdata[1]), .m_axis_tkeep(ipt_tkeep[1]), .m_axis_tvalid(ipt_tvalid[1]),
    .m_axis_tready(ipt_tready[1]), .m_axis_tlast(ipt_tlast[1]), .m_axis_tuser(ipt_tuser[1]),
    .stat_out_dest_unreachs(stat_inc[CNT_ICMP_OUT_DEST_UNREACHS]),
    .stat_rate_limited(stat_inc[CNT_ICMP_OUT_RATE_LIMITED])
  );

  toe_udp_tx #(.DATA_W(DATA_W)) u_udp_tx (
    .clk, .rst, .cfg_ip,
    .s_axis_tdata(s_udp_tx_axis_tdata), .s_axis_tkeep(s_udp_tx_axis_tkeep),
    .s_axis_tvalid(s_udp_tx_axis_tvalid), .s_axis_tready(s_udp_tx_axis_tready),
    .s_axis_tlast(s_udp_tx_axis_tlast), .s_axis_tuser(s_udp_tx_axis_tuser),
    .m_axis_tdata(ipt_tdata[2]), .m_axis_tkeep(ipt_tkeep[2]), .m_axis_tvalid(ipt_tvalid[2]),
    .m_axis_tready(ipt_tready[2]), .m_axis_tlast(ipt_tlast[2]), .m_axis_tuser(ipt_tuser[2]),
    .stat_out_datagrams(stat_inc[CNT_UDP_OUT_DATAGRAMS]), .stat_out_errors(stat_inc[CNT_UDP_OUT_ERRORS])
  );

  // ---------------- IPv4 TX ----------------
  logic [DATA_W-1:0] arb_tdata;
  logic [W-1:0] arb_tkeep;
  logic arb_tvalid, arb_tready, arb_tlast;
  logic [IPT-1:0] arb_tuser;
  logic [MEM_ID_W-1:0] mem_awid, mem_bid, mem_arid, mem_rid;
  logic [MEM_ADDR_W-1:0] mem_awaddr, mem_araddr;
  logic [7:0] mem_awlen, mem_arlen;
  logic [2:0] mem_awsize, mem_arsize;
  logic [1:0] mem_awburst, mem_arburst, mem_bresp, mem_rresp;
  logic [MEM_DATA_W-1:0] mem_wdata, mem_rdata;
  logic [MEM_DATA_W/8-1:0] mem_wstrb;
  logic mem_awvalid, mem_awready, mem_wlast, mem_wvalid, mem_wready, mem_bvalid, mem_bready,
        mem_arvalid, mem_arready, mem_rlast, mem_rvalid, mem_rready;
  toe_tcp #(.DATA_W(DATA_W), .MEM_DATA_W(MEM_DATA_W), .MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES),
            .LISTEN_PORTS(TCP_LISTEN_PORTS), .ADDR_W(MEM_ADDR_W), .ID_W(MEM_ID_W),
            .MEM_RX_FIRST(MEM_RX_FIRST), .RX_FIFO_BYTES(TCP_RX_FIFO_BYTES),
            .RX_FIFO_RAM_STYLE(TCP_RX_FIFO_RAM_STYLE), .ISN_HALF_ROUNDS(ISN_HALF_ROUNDS),
            .STATE_READ_WAIT(TCP_STATE_READ_WAIT)) u_tcp (
    .clk, .rst, .tick_us, .cfg_ip, .cfg_mem_base, .cfg_mss(cfg_tcp_mss), .cfg_mss_min(cfg_tcp_mss_min),
    .cfg_fin_wait_2_us(cfg_tcp_fin_wait_2_us), .cfg_keepalive_idle_us(cfg_tcp_keepalive_idle_us),
    .cfg_keepalive_intvl_us(cfg_tcp_keepalive_intvl_us), .cfg_keepalive_probes(cfg_tcp_keepalive_probes),
    .cfg_half_open_max(cfg_tcp_half_open_max), .cfg_synrcvd_retries(cfg_tcp_synrcvd_retries),
    .cfg_rto_init_us(cfg_tcp_rto_init_us), .cfg_rto_min_us(cfg_tcp_rto_min_us),
    .cfg_rto_max_us(cfg_tcp_rto_max_us), .cfg_max_retries(cfg_tcp_max_retries),
    .cfg_delack_us(cfg_tcp_delack_us), .cfg_time_wait_us(cfg_tcp_time_wait_us), .cfg_isn_key(cfg_tcp_isn_key),
    .cfg_drop_synfin, .cfg_rfc5961_rst, .cfg_rfc5961_syn, .cfg_nagle,
    .s_syn_hint_valid(syn_hint_valid), .s_syn_hint(syn_hint),
    .s_axis_tdata(l4_tdata), .s_axis_tkeep(l4_tkeep), .s_axis_tvalid(tcp_in_tvalid),
    .s_axis_tready(tcp_in_tready), .s_axis_tlast(l4_tlast), .s_axis_tuser(l4_tuser),
    .m_axis_tdata(ipt_tdata[3]), .m_axis_tkeep(ipt_tkeep[3]), .m_axis_tvalid(ipt_tvalid[3]),
    .m_axis_tready(ipt_tready[3]), .m_axis_tlast(ipt_tlast[3]), .m_axis_tuser(ipt_tuser[3]),
    .listen_req_valid(tcp_listen_req_valid), .listen_req_ready(tcp_listen_req_ready),
    .listen_req(tcp_listen_req_t'(tcp_listen_req)), .listen_rsp_valid(tcp_listen_rsp_valid),
    .listen_rsp_ready(tcp_listen_rsp_ready), .listen_rsp(tcp_listen_rsp),
    .open_req_valid(tcp_open_req_valid), .open_req_ready(tcp_open_req_ready),
    .open_req(tcp_open_req_t'(tcp_open_req)), .open_rsp_valid(tcp_open_rsp_valid),
    .open_rsp_ready(tcp_open_rsp_ready), .open_rsp(tcp_open_rsp),
    .close_req_valid(tcp_close_req_valid), .close_req_ready(tcp_close_req_ready),
    .close_req(tcp_close_req_t'(tcp_close_req)),
    .notif_valid(tcp_notif_valid), .notif_ready(tcp_notif_ready), .notif(tcp_notif),
    .rd_req_valid(tcp_rd_req_valid), .rd_req_ready(tcp_rd_req_ready), .rd_req(tcp_rd_req_t'(tcp_rd_req)),
    .rx_meta_valid(tcp_rx_meta_valid), .rx_meta_ready(tcp_rx_meta_ready), .rx_meta(tcp_rx_meta),
    .m_rx_axis_tdata(m_tcp_rx_axis_tdata), .m_rx_axis_tkeep(m_tcp_rx_axis_tkeep),
    .m_rx_axis_tvalid(m_tcp_rx_axis_tvalid), .m_rx_axis_tready(m_tcp_rx_axis_tready),
    .m_rx_axis_tlast(m_tcp_rx_axis_tlast),
    .tx_req_valid(tcp_tx_req_valid), .tx_req_ready(tcp_tx_req_ready), .tx_req(tcp_tx_req_t'(tcp_tx_req)),
    .tx_rsp_valid(tcp_tx_rsp_valid), .tx_rsp_ready(tcp_tx_rsp_ready), .tx_rsp(tcp_tx_rsp),
    .s_tx_axis_tdata(s_tcp_tx_axis_tdata), .s_tx_axis_tkeep(s_tcp_tx_axis_tkeep),
    .s_tx_axis_tvalid(s_tcp_tx_axis_tvalid), .s_tx_axis_tready(s_tcp_tx_axis_tready),
    .s_tx_axis_tlast(s_tcp_tx_axis_tlast),
    .dbg_req_valid(tcp_dbg_req_valid), .dbg_req_ready(tcp_dbg_req_ready), .dbg_req(tcp_dbg_req),
    .dbg_rsp_valid(tcp_dbg_rsp_valid), .dbg_rsp_ready(tcp_dbg_rsp_ready), .dbg_rsp(tcp_dbg_rsp),
    .m_axi_awid(mem_awid), .m_axi_awaddr(mem_awaddr), .m_axi_awlen(mem_awlen), .m_axi_awsize(mem_awsize),
    .m_axi_awburst(mem_awburst), .m_axi_awvalid(mem_awvalid), .m_axi_awready(mem_awready),
    .m_axi_wdata(mem_wdata), .m_axi_wstrb(mem_wstrb), .m_axi_wlast(mem_wlast), .m_axi_wvalid(mem_wvalid),
    .m_axi_wready(mem_wready), .m_axi_bid(mem_bid), .m_axi_bresp(mem_bresp), .m_axi_bvalid(mem_bvalid),
    .m_axi_bready(mem_bready), .m_axi_arid(mem_arid), .m_axi_araddr(mem_araddr), .m_axi_arlen(mem_arlen),
    .m_axi_arsize(mem_arsize), .m_axi_arburst(mem_arburst), .m_axi_arvalid(mem_arvalid),
    .m_axi_arready(mem_arready), .m_axi_rid(mem_rid), .m_axi_rdata(mem_rdata), .m_axi_rresp(mem_rresp),
    .m_axi_rlast(mem_rlast), .m_axi_rvalid(mem_rvalid), .m_axi_rready(mem_rready),
    .stat_in_segs(stat_inc[CNT_TCP_IN_SEGS]), .stat_in_errs(stat_inc[CNT_TCP_IN_ERRS]),
    .stat_out_segs(stat_inc[CNT_TCP_OUT_SEGS]), .stat_rx_overflows(stat_inc[CNT_TCP_IN_OVERFLOWS]),
    .stat_active_opens(stat_inc[CNT_TCP_ACTIVE_OPENS]), .stat_passive_opens(stat_inc[CNT_TCP_PASSIVE_OPENS]),
    .stat_attempt_fails(stat_inc[CNT_TCP_ATTEMPT_FAILS]), .stat_estab_resets(stat_inc[CNT_TCP_ESTAB_RESETS]),
    .stat_out_rsts(stat_inc[CNT_TCP_OUT_RSTS]), .stat_retrans_segs(stat_inc[CNT_TCP_RETRANS_SEGS]),
    .stat_window_drops(stat_inc[CNT_TCP_IN_WINDOW_DROPS]), .stat_challenge_acks(stat_inc[CNT_TCP_CHALLENGE_ACKS]),
    .stat_bad_flags(stat_inc[CNT_TCP_IN_BAD_FLAGS]), .stat_app_errors(stat_inc[CNT_TCP_APP_ERRORS]),
    .stat_mss_clamped(stat_inc[CNT_TCP_MSS_CLAMPED]), .stat_half_open_drops(stat_inc[CNT_TCP_HALF_OPEN_DROPS]),
    .stat_out_of_order(stat_inc[CNT_TCP_OUT_OF_ORDER_SEGS]),
    .stat_alloc_fails(stat_inc[CNT_TCP_ALLOC_FAILS]), .stat_mem_errors(stat_inc[CNT_MEM_ERRORS]),
    .stat_app_len_errors(stat_inc[CNT_TCP_APP_LEN_ERRORS]),
    .curr_estab(tcp_curr_estab), .sessions_in_use(tcp_sessions_in_use), .ready(tcp_ready)
  );

  // The TCP rings' memory port, carried to mem_clk when MEM_ASYNC = 1
  toe_axi_cdc #(.ASYNC(MEM_ASYNC), .DATA_W(MEM_DATA_W), .ADDR_W(MEM_ADDR_W), .ID_W(MEM_ID_W)) u_mem_cdc (
    .s_clk(clk), .s_rst(rst),
    .s_axi_awid(mem_awid), .s_axi_awaddr(mem_awaddr), .s_axi_awlen(mem_awlen), .s_axi_awsize(mem_awsize),
    .s_axi_awburst(mem_awburst), .s_axi_awvalid(mem_awvalid), .s_axi_awready(mem_awready),
    .s_axi_wdata(mem_wdata), .s_axi_wstrb(mem_wstrb), .s_axi_wlast(mem_wlast), .s_axi_wvalid(mem_wvalid),
    .s_axi_wready(mem_wready), .s_axi_bid(mem_bid), .s_axi_bresp(mem_bresp), .s_axi_bvalid(mem_bvalid),
    .s_axi_bready(mem_bready), .s_axi_arid(mem_arid), .s_axi_araddr(mem_araddr), .s_axi_arlen(mem_arlen),
    .s_axi_arsize(mem_arsize), .s_axi_arburst(mem_arburst), .s_axi_arvalid(mem_arvalid),
    .s_axi_arready(mem_arready), .s_axi_rid(mem_rid), .s_axi_rdata(mem_rdata), .s_axi_rresp(mem_rresp),
    .s_axi_rlast(mem_rlast), .s_axi_rvalid(mem_rvalid), .s_axi_rready(mem_rready),
    .m_clk(mem_clk), .m_rst(mem_rst),
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awvalid,
    .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid,
    .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready
  );

  toe_axis_arb_mux #(.N(4), .DATA_W(DATA_W), .USER_W(IPT)) u_ip_arb (
    .clk, .rst,
    .s_axis_tdata(ipt_tdata), .s_axis_tkeep(ipt_tkeep), .s_axis_tvalid(ipt_tvalid),
    .s_axis_tready(ipt_tready), .s_axis_tlast(ipt_tlast), .s_axis_tuser(ipt_tuser),
    .m_axis_tdata(arb_tdata), .m_axis_tkeep(arb_tkeep), .m_axis_tvalid(arb_tvalid),
    .m_axis_tready(arb_tready), .m_axis_tlast(arb_tlast), .m_axis_tuser(arb_tuser)
  );
  // (toe_ip_tx's input register slice cuts the ready chain from the MAC back into the IP
  // sources)

  logic [2:0][DATA_W-1:0] tx_tdata;
  logic [2:0][W-1:0] tx_tkeep;
  logic [2:0] tx_tvalid, tx_tready, tx_tlast, tx_tuser;
  toe_ip_tx #(.DATA_W(DATA_W)) u_ip_tx (
    .clk, .rst, .cfg_mac, .cfg_ip, .cfg_netmask, .cfg_gateway,
    .s_axis_tdata(arb_tdata), .s_axis_tkeep(arb_tkeep), .s_axis_tvalid(arb_tvalid),
    .s_axis_tready(arb_tready), .s_axis_tlast(arb_tlast), .s_axis_tuser(arb_tuser),
    .m_axis_tdata(tx_tdata[1]), .m_axis_tkeep(tx_tkeep[1]), .m_axis_tvalid(tx_tvalid[1]),
    .m_axis_tready(tx_tready[1]), .m_axis_tlast(tx_tlast[1]), .m_axis_tuser(tx_tuser[1]),
    .arp_lookup_ip, .arp_lookup_hit, .arp_lookup_mac, .arp_miss, .arp_miss_ip,
    .stat_out_requests(stat_inc[CNT_IP_OUT_REQUESTS]), .stat_out_arp_misses(stat_inc[CNT_IP_OUT_ARP_MISSES])
  );

  // ---------------- Ethernet TX ----------------
  assign tx_tdata[0] = arp_tx_tdata;
  assign tx_tkeep[0] = arp_tx_tkeep;
  assign tx_tvalid[0] = arp_tx_tvalid;
  assign arp_tx_tready = tx_tready[0];
  assign tx_tlast[0] = arp_tx_tlast;
  assign tx_tuser[0] = arp_tx_tuser;
  assign tx_tdata[2] = s_host_tx_axis_tdata;
  assign tx_tkeep[2] = s_host_tx_axis_tkeep;
  assign tx_tvalid[2] = s_host_tx_axis_tvalid;
  assign s_host_tx_axis_tready = tx_tready[2];
  assign tx_tlast[2] = s_host_tx_axis_tlast;
  assign tx_tuser[2] = 1'b0;
  assign stat_inc[CNT_HOST_TX_FRAMES] = s_host_tx_axis_tvalid && s_host_tx_axis_tready && s_host_tx_axis_tlast;

  // Simulation-only AXI-Stream rule checks on the engine's outputs and internal merges.
  toe_axis_protocol_check #(.DATA_W(DATA_W), .USER_W(IPT)) u_check_ip_tx (
    .clk, .rst, .tdata(arb_tdata), .tkeep(arb_tkeep), .tvalid(arb_tvalid), .tready(arb_tready),
    .tlast(arb_tlast), .tuser(arb_tuser));
  toe_axis_protocol_check #(.DATA_W(DATA_W), .USER_W(1)) u_check_mac_tx (
    .clk, .rst, .tdata(m_mac_tx_axis_tdata), .tkeep(m_mac_tx_axis_tkeep),
    .tvalid(m_mac_tx_axis_tvalid), .tready(m_mac_tx_axis_tready), .tlast(m_mac_tx_axis_tlast),
    .tuser(m_mac_tx_axis_tuser));
  toe_axis_protocol_check #(.DATA_W(DATA_W), .USER_W(UDP_META_W)) u_check_udp_rx (
    .clk, .rst, .tdata(m_udp_rx_axis_tdata), .tkeep(m_udp_rx_axis_tkeep),
    .tvalid(m_udp_rx_axis_tvalid), .tready(m_udp_rx_axis_tready), .tlast(m_udp_rx_axis_tlast),
    .tuser(m_udp_rx_axis_tuser));

  logic [DATA_W-1:0] mac_tdata;
  logic [W-1:0] mac_tkeep;
  logic mac_tvalid, mac_tready, mac_tlast, mac_tuser;
  toe_axis_arb_mux #(.N(3), .DATA_W(DATA_W), .USER_W(1)) u_eth_arb (
    .clk, .rst,
    .s_axis_tdata(tx_tdata), .s_axis_tkeep(tx_tkeep), .s_axis_tvalid(tx_tvalid),
    .s_axis_tready(tx_tready), .s_axis_tlast(tx_tlast), .s_axis_tuser(tx_tuser),
    .m_axis_tdata(mac_tdata), .m_axis_tkeep(mac_tkeep), .m_axis_tvalid(mac_tvalid),
    .m_axis_tready(mac_tready), .m_axis_tlast(mac_tlast), .m_axis_tuser(mac_tuser)
  );
  // Registered MAC TX port: no combinational path from the MAC's tready into the engine.
  toe_axis_register #(.DATA_W(DATA_W), .USER_W(1)) u_mac_tx_reg (
    .clk, .rst,
    .s_axis_tdata(mac_tdata), .s_axis_tkeep(mac_tkeep), .s_axis_tvalid(mac_tvalid),
    .s_axis_tready(mac_tready), .s_axis_tlast(mac_tlast), .s_axis_tuser(mac_tuser),
    .m_axis_tdata(m_mac_tx_axis_tdata), .m_axis_tkeep(m_mac_tx_axis_tkeep),
    .m_axis_tvalid(m_mac_tx_axis_tvalid), .m_axis_tready(m_mac_tx_axis_tready),
    .m_axis_tlast(m_mac_tx_axis_tlast), .m_axis_tuser(m_mac_tx_axis_tuser)
  );
endmodule
