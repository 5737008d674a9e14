// SPDX-License-Identifier: Apache-2.0
// toe_csr: the engine's AXI4-Lite register block. The block itself (toe_regs) is generated
// by peakrdl-regblock from the register map rtl/top/toe_regs.rdl (docs/registers.md); this
// wrapper gives its fields the names the engine uses, feeds the gauges, and turns the
// stat_inc vector (one bit per counter, one-cycle pulse per event, index CNT_* of
// toe_csr_pkg) into counter increments. `ip_written` pulses the cycle after a write to
// IPV4_ADDR, when cfg_ip already holds the new address (toe_arp sends a gratuitous ARP).
// Counters wrap at 2^32 and are cleared by a write; unmapped addresses read 0 (OKAY).
// Timing: AXI4-Lite with up to two transactions in flight; read data registered.
module toe_csr
  import toe_csr_pkg::*;
(
  input  logic                  clk,
  input  logic                  rst,
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
  input  logic [N_COUNTERS-1:0] stat_inc,
  output logic [47:0]           cfg_mac,
  output logic [31:0]           cfg_ip,
  output logic [31:0]           cfg_netmask,
  output logic [31:0]           cfg_gateway,
  output logic                  cfg_icmp_echo,        // CTRL fields
  output logic                  cfg_drop_synfin,
  output logic                  cfg_rfc5961_rst,
  output logic                  cfg_rfc5961_syn,
  output logic                  cfg_nagle,
  output logic [15:0]           cfg_arp_timeout_s,
  output logic [15:0]           cfg_icmp_unreach_interval_us,
  output logic                  ip_written,
  // TCP configuration (registers TCP_MSS .. TCP_SYN_RCVD_RETRIES) and status
  output logic [15:0]           cfg_tcp_mss,
  output logic [31:0]           cfg_tcp_rto_init_us,
  output logic [31:0]           cfg_tcp_rto_min_us,
  output logic [31:0]           cfg_tcp_rto_max_us,
  output logic [3:0]            cfg_tcp_max_retries,
  output logic [31:0]           cfg_tcp_delack_us,
  output logic [31:0]           cfg_tcp_time_wait_us,
  output logic [127:0]          cfg_tcp_isn_key,
  output logic [47:0]           cfg_mem_base,
  output logic [15:0]           cfg_tcp_mss_min,
  output logic [31:0]           cfg_tcp_fin_wait_2_us,
  output logic [31:0]           cfg_tcp_keepalive_idle_us,
  output logic [31:0]           cfg_tcp_keepalive_intvl_us,
  output logic [3:0]            cfg_tcp_keepalive_probes,
  output logic [31:0]           cfg_tcp_half_open_max,
  output logic [3:0]            cfg_tcp_synrcvd_retries,
  input  logic [31:0]           status_tcp_curr_estab,
  input  logic [31:0]           status_tcp_sessions_in_use,
  input  logic                  status_tcp_ready
);
  toe_regs_pkg::toe_regs__in_t hwif_in;
  toe_regs_pkg::toe_regs__out_t hwif_out;

  toe_regs u_regs (
    .clk, .rst,
    .s_axil_awready, .s_axil_awvalid, .s_axil_awaddr, .s_axil_awprot(3'b000),
    .s_axil_wready, .s_axil_wvalid, .s_axil_wdata, .s_axil_wstrb,
    .s_axil_bready, .s_axil_bvalid, .s_axil_bresp,
    .s_axil_arready, .s_axil_arvalid, .s_axil_araddr, .s_axil_arprot(3'b000),
    .s_axil_rready, .s_axil_rvalid, .s_axil_rdata, .s_axil_rresp,
    .hwif_in, .hwif_out
  );

  always_comb begin
    hwif_in = count_events(stat_inc);
    hwif_in.TCP_CURR_ESTAB.value.next = status_tcp_curr_estab;
    hwif_in.TCP_SESSIONS_IN_USE.value.next = status_tcp_sessions_in_use;
    hwif_in.STATUS.tcp_ready.next = status_tcp_ready;
  end

  always_ff @(posedge clk) ip_written <= !rst && hwif_out.IPV4_ADDR.addr.swmod;

  assign cfg_mac = {hwif_out.MAC_HI.mac.value, hwif_out.MAC_LO.mac.value};
  assign cfg_ip = hwif_out.IPV4_ADDR.addr.value;
  assign cfg_netmask = hwif_out.IPV4_NETMASK.mask.value;
  assign cfg_gateway = hwif_out.IPV4_GATEWAY.addr.value;
  assign cfg_icmp_echo = hwif_out.CTRL.icmp_echo.value;
  assign cfg_drop_synfin = hwif_out.CTRL.drop_synfin.value;
  assign cfg_rfc5961_rst = hwif_out.CTRL.rst_check.value;
  assign cfg_rfc5961_syn = hwif_out.CTRL.syn_check.value;
  assign cfg_nagle = hwif_out.CTRL.nagle.value;
  assign cfg_arp_timeout_s = hwif_out.ARP_TIMEOUT_S.s.value;
  assign cfg_icmp_unreach_interval_us = hwif_out.ICMP_UNREACH_INTERVAL_US.us.value;
  assign cfg_tcp_mss = hwif_out.TCP_MSS.bytes.value;
  assign cfg_tcp_rto_init_us = hwif_out.TCP_RTO_INIT_US.us.value;
  assign cfg_tcp_rto_min_us = hwif_out.TCP_RTO_MIN_US.us.value;
  assign cfg_tcp_rto_max_us = hwif_out.TCP_RTO_MAX_US.us.value;
  assign cfg_tcp_max_retries = hwif_out.TCP_MAX_RETRIES.count.value;
  assign cfg_tcp_delack_us = hwif_out.TCP_DELACK_US.us.value;
  assign cfg_tcp_time_wait_us = hwif_out.TCP_TIME_WAIT_US.us.value;
  assign cfg_tcp_isn_key = {hwif_out.TCP_ISN_KEY3.key.value, hwif_out.TCP_ISN_KEY2.key.value,
                            hwif_out.TCP_ISN_KEY1.key.value, hwif_out.TCP_ISN_KEY0.key.value};
  assign cfg_mem_base = {hwif_out.MEM_BASE_HI.base.value, hwif_out.MEM_BASE_LO.base.value, 12'd0};
  assign cfg_tcp_mss_min = hwif_out.TCP_MSS_MIN.bytes.value;
  assign cfg_tcp_fin_wait_2_us = hwif_out.TCP_FIN_WAIT_2_US.us.value;
  assign cfg_tcp_keepalive_idle_us = hwif_out.TCP_KEEPALIVE_IDLE_US.us.value;
  assign cfg_tcp_keepalive_intvl_us = hwif_out.TCP_KEEPALIVE_INTVL_US.us.value;
  assign cfg_tcp_keepalive_probes = hwif_out.TCP_KEEPALIVE_PROBES.count.value;
  assign cfg_tcp_half_open_max = hwif_out.TCP_HALF_OPEN_MAX.sessions.value;
  assign cfg_tcp_synrcvd_retries = hwif_out.TCP_SYN_RCVD_RETRIES.count.value;
endmodule
