// SPDX-License-Identifier: Apache-2.0
// toe_tcp: the TCP subsystem. Segments from IPv4 RX are parsed (toe_tcp_rx_parse), looked
// up one per cycle (toe_tcp_seg_lookup on toe_tcp_session_table) and processed by the
// protocol core (toe_tcp_core); a passive open's ISN (toe_tcp_isn) is hashed from its
// SYN's arrival at the MAC on (s_syn_hint from toe_tcp_syn_hint, into
// toe_tcp_isn_prefetch), an active open's when the core asks; accepted
// payload is written to the session's RX ring in memory (toe_tcp_ring_writer) and read
// back for the application on request (toe_tcp_ring_reader); application data is written
// to the TX ring and segments are built from it by toe_tcp_tx_engine. All ring traffic
// shares one AXI4 master (toe_tcp_mem_arb) of its own width MEM_DATA_W (a DDR4
// controller's AXI port is typically 512 bits): the ring engines work at that width, with
// width converters to and from the DATA_W streams, so at DATA_W 64 the memory port carries
// eight times the wire's bytes per cycle and RX, TX and echo no longer share 10 Gb/s of
// port bandwidth. Notifications reach the application through a
// per-session coalescer (toe_tcp_notif_coalesce). The application API is documented in
// docs/tcp_api.md; ring layout: session s has its RX ring at cfg_mem_base + 2s*RING_BYTES
// and its TX ring right after it.
module toe_tcp
  import toe_pkg::*;
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W       = 64,
  parameter int unsigned MEM_DATA_W   = 512,   // memory port width, a multiple or divisor of DATA_W
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned RING_BYTES   = 65536,
  parameter int unsigned LISTEN_PORTS = 16,
  parameter int unsigned ADDR_W       = 40,
  parameter int unsigned ID_W         = 2,
  parameter int unsigned MEM_RX_FIRST = 4,     // RX ring writer's bursts in a row while the TX writer waits (0: round robin)
  parameter int unsigned RX_FIFO_BYTES = rx_fifo_bytes_default(DATA_W), // received segments waiting for their checksum and the memory (toe_tcp_rx_parse)
  parameter string       RX_FIFO_RAM_STYLE = "auto", // that FIFO's ram_style attribute: "ultra" puts it in UltraRAM (UltraScale+)
  parameter int unsigned ISN_HALF_ROUNDS = isn_half_rounds_default(DATA_W), // ISN unit's half SipRounds per cycle: 2 (9-cycle hash) fits 156.25 MHz, 1 (17) 322 MHz
  parameter int unsigned STATE_READ_WAIT = 0 // the session record's store: 0 on chip (answered in two cycles); else each read waits up to this many cycles more (a slower store, for tests and the bench: toe_tcp_state_store), and the lookup's queue of fetches ahead deepens to cover it (toe_tcp_pkg::lookup_depth_for)
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  tick_us,
  input  logic [31:0]           cfg_ip,
  input  logic [47:0]           cfg_mem_base,
  input  logic [15:0]           cfg_mss,
  input  logic [15:0]           cfg_mss_min,       // floor on the peer's MSS
  input  logic [31:0]           cfg_fin_wait_2_us, // FIN-WAIT-2 idle timeout (0: none)
  input  logic [31:0]           cfg_keepalive_idle_us,   // 0: keepalive off
  input  logic [31:0]           cfg_keepalive_intvl_us,
  input  logic [3:0]            cfg_keepalive_probes,
  input  logic [31:0]           cfg_half_open_max,   // SYN-flood cap (0: MAX_SESSIONS/4)
  input  logic [3:0]            cfg_synrcvd_retries,
  input  logic [31:0]           cfg_rto_init_us,
  input  logic [31:0]           cfg_rto_min_us,
  input  logic [31:0]           cfg_rto_max_us,
  input  logic [3:0]            cfg_max_retries,
  input  logic [31:0]           cfg_delack_us,
  input  logic [31:0]           cfg_time_wait_us,
  input  logic [127:0]          cfg_isn_key,       // RFC 6528 ISN key (SipHash-2-4)
  input  logic                  cfg_drop_synfin,   // drop SYN+FIN in LISTEN/SYN-SENT (else: a SYN)
  input  logic                  cfg_rfc5961_rst,   // challenge ACK for an in-window RST not at RCV.NXT
  input  logic                  cfg_rfc5961_syn,   // challenge ACK for a SYN in a synchronized state
  input  logic                  cfg_nagle,         // hold a short segment while data is unacknowledged
  // a SYN's tuple as it arrives from the MAC (toe_tcp_syn_hint): its passive open's ISN
  // hash starts then. Tied to 0: the hash starts at the session lookup (a slower open).
  input  logic                  s_syn_hint_valid,
  input  tcp_isn_req_t          s_syn_hint,
  // from IPv4 RX / to the IP arbiter
  input  logic [DATA_W-1:0]     s_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_axis_tkeep,
  input  logic                  s_axis_tvalid,
  output logic                  s_axis_tready,
  input  logic                  s_axis_tlast,
  input  logic [IP_RX_META_W:0] s_axis_tuser,
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic [IP_TX_META_W:0] m_axis_tuser,
  // application API
  input  logic                  listen_req_valid,
  output logic                  listen_req_ready,
  input  tcp_listen_req_t       listen_req,
  output logic                  listen_rsp_valid,
  input  logic                  listen_rsp_ready,
  output tcp_listen_rsp_t       listen_rsp,
  input  logic                  open_req_valid,
  output logic                  open_req_ready,
  input  tcp_open_req_t         open_req,
  output logic                  open_rsp_valid,
  input  logic                  open_rsp_ready,
  output tcp_open_rsp_t         open_rsp,
  input  logic                  close_req_valid,
  output logic                  close_req_ready,
  input  tcp_close_req_t        close_req,
  output logic                  notif_valid,
  input  logic                  notif_ready,
  output tcp_notif_t            notif,
  input  logic                  rd_req_valid,
  output logic                  rd_req_ready,
  input  tcp_rd_req_t           rd_req,
  output logic                  rx_meta_valid,
  input  logic                  rx_meta_ready,
  output tcp_rx_meta_t          rx_meta,
  output logic [DATA_W-1:0]     m_rx_axis_tdata,
  output logic [DATA_W/8-1:0]   m_rx_axis_tkeep,
  output logic                  m_rx_axis_tvalid,
  input  logic                  m_rx_axis_tready,
  output logic                  m_rx_axis_tlast,
  input  logic                  tx_req_valid,
  output logic                  tx_req_ready,
  input  tcp_tx_req_t           tx_req,
  output logic                  tx_rsp_valid,
  input  logic                  tx_rsp_ready,
  output tcp_tx_rsp_t           tx_rsp,
  input  logic [DATA_W-1:0]     s_tx_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_tx_axis_tkeep,
  input  logic                  s_tx_axis_tvalid,
  output logic                  s_tx_axis_tready,
  input  logic                  s_tx_axis_tlast,
  // debug: session state snapshots (toe_tcp_core)
  input  logic                  dbg_req_valid,
  output logic                  dbg_req_ready,
  input  sid_t                  dbg_req,
  output logic                  dbg_rsp_valid,
  input  logic                  dbg_rsp_ready,
  output tcp_dbg_t              dbg_rsp,
  // memory
  output logic [ID_W-1:0]       m_axi_awid,
  output logic [ADDR_W-1:0]     m_axi_awaddr,
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
  input  logic [ID_W-1:0]       m_axi_bid,
  input  logic [1:0]            m_axi_bresp,
  input  logic                  m_axi_bvalid,
  output logic                  m_axi_bready,
  output logic [ID_W-1:0]       m_axi_arid,
  output logic [ADDR_W-1:0]     m_axi_araddr,
  output logic [7:0]            m_axi_arlen,
  output logic [2:0]            m_axi_arsize,
  output logic [1:0]            m_axi_arburst,
  output logic                  m_axi_arvalid,
  input  logic                  m_axi_arready,
  input  logic [ID_W-1:0]       m_axi_rid,
  input  logic [MEM_DATA_W-1:0] m_axi_rdata,
  input  logic [1:0]            m_axi_rresp,
  input  logic                  m_axi_rlast,
  input  logic                  m_axi_rvalid,
  output logic                  m_axi_rready,
  // counters (pulses) and gauges
  output logic                  stat_in_segs,
  output logic                  stat_in_errs,
  output logic                  stat_out_segs,
  output logic                  stat_rx_overflows,
  output logic                  stat_active_opens,
  output logic                  stat_passive_opens,
  output logic                  stat_attempt_fails,
  output logic                  stat_estab_resets,
  output logic                  stat_out_rsts,
  output logic                  stat_retrans_segs,
  output logic                  stat_window_drops,
  output logic                  stat_challenge_acks,
  output logic                  stat_bad_flags,
  output logic                  stat_app_errors,
  output logic                  stat_mss_clamped,
  output logic                  stat_half_open_drops,
  output logic                  stat_out_of_order,     // segments stored ahead of RCV.NXT
  output logic                  stat_alloc_fails,
  output logic                  stat_mem_errors,
  output logic                  stat_app_len_errors,   // tx_data frame length differed from tx_req
  output logic [SID_W:0]        curr_estab,
  output logic [SID_W:0]        sessions_in_use,
  output logic                  ready       // every table is cleared after reset (about MAX_SESSIONS cycles); before, segments and requests wait
);
  localparam int unsigned W = DATA_W / 8;

  // The engine's microsecond clock. Public so a virtual-time harness (sim/toe_harness.cpp)
  // can jump it to the next timer deadline while the engine is idle.
  logic [31:0] now_us_reg /* verilator public_flat_rw */;
  always_ff @(posedge clk) begin
    if (tick_us) now_us_reg <= now_us_reg + 1'b1;
    if (rst) now_us_reg <= '0;
  end

  // ---------------- receive ----------------
  logic seg_valid, seg_ready;
  tcp_seg_t seg;
  logic [DATA_W-1:0] pl_tdata;
  logic [W-1:0] pl_tkeep;
  logic pl_tvalid, pl_tready, pl_tlast;
  toe_tcp_rx_parse #(.DATA_W(DATA_W), .FIFO_BYTES(RX_FIFO_BYTES), .FIFO_RAM_STYLE(RX_FIFO_RAM_STYLE)) u_parse (
    .clk, .rst, .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast, .s_axis_tuser,
    .m_seg_valid(seg_valid), .m_seg_ready(seg_ready), .m_seg(seg),
    .m_axis_tdata(pl_tdata), .m_axis_tkeep(pl_tkeep), .m_axis_tvalid(pl_tvalid),
    .m_axis_tready(pl_tready), .m_axis_tlast(pl_tlast),
    .stat_in_segs, .stat_in_errs, .stat_overflows(stat_rx_overflows)
  );

  // Session table: lookups of received segments (toe_tcp_seg_lookup, one per cycle) and
  // the core's opens and releases (first), told apart by the answer's tag.
  logic tab_req_valid, tab_req_ready, tab_req_tag, tab_rsp_valid, tab_rsp_tag;
  tcp_tab_req_t tab_req;
  tcp_tab_rsp_t tab_rsp;
  logic table_ready, coalesce_ready, core_ready;   // each block has cleared its tables after reset
  toe_tcp_session_table #(.MAX_SESSIONS(MAX_SESSIONS), .LISTEN_PORTS(LISTEN_PORTS)) u_table (
    .clk, .rst,
    .req_valid(tab_req_valid), .req_ready(tab_req_ready), .req(tab_req), .req_tag(tab_req_tag),
    .rsp_valid(tab_rsp_valid), .rsp_tag(tab_rsp_tag), .rsp(tab_rsp),
    .listen_req_valid, .listen_req_ready, .listen_req, .listen_rsp_valid, .listen_rsp_ready, .listen_rsp,
    .sessions_in_use, .stat_alloc_fails, .ready(table_ready)
  );
  logic core_tab_req_valid, lk_tab_req_valid;
  tcp_tab_req_t core_tab_req, lk_tab_req;
  localparam logic TAG_LOOKUP = 1'b0, TAG_CORE = 1'b1;
  assign tab_req_tag = core_tab_req_valid ? TAG_CORE : TAG_LOOKUP;
  assign tab_req_valid = core_tab_req_valid || lk_tab_req_valid;
  assign tab_req = core_tab_req_valid ? core_tab_req : lk_tab_req;

  // One ISN unit (RFC 6528) for both kinds of open, like the table: the core's active
  // opens first (tag 1), the passive opens' prefetch (tag 0) when the core does not ask.
  // The prefetch hashes a SYN's ISN from its hint from the MAC side on and hands it to the
  // lookup's claim (one per session-asking SYN, in order).
  logic isn_ready, isn_done, isn_done_core;
  logic [31:0] isn_value;
  logic core_isn_req_valid, pre_isn_req_valid;
  tcp_isn_req_t core_isn_req, pre_isn_req, isn_req;
  assign isn_req = core_isn_req_valid ? core_isn_req : pre_isn_req;
  toe_tcp_isn #(.HALF_ROUNDS(ISN_HALF_ROUNDS)) u_isn (
    .clk, .rst, .now_us(now_us_reg), .key(cfg_isn_key),
    .req_valid(core_isn_req_valid || pre_isn_req_valid), .req_ready(isn_ready), .req_tag(core_isn_req_valid),
    .local_ip(cfg_ip), .local_port(isn_req.local_port), .remote_ip(isn_req.remote_ip),
    .remote_port(isn_req.remote_port), .rsp_valid(isn_done), .rsp_tag(isn_done_core), .isn(isn_value)
  );
  logic isn_claim_soon, isn_claim_valid, isn_claim_ready, claimed_isn_valid;
  tcp_isn_req_t isn_claim;
  logic [31:0] claimed_isn;
  toe_tcp_isn_prefetch u_isn_prefetch (
    .clk, .rst, .s_hint_valid(s_syn_hint_valid), .s_hint(s_syn_hint), .s_claim_soon(isn_claim_soon),
    .s_claim_valid(isn_claim_valid), .s_claim_ready(isn_claim_ready), .s_claim(isn_claim),
    .isn_req_valid(pre_isn_req_valid), .isn_req_ready(isn_ready && !core_isn_req_valid), .isn_req(pre_isn_req),
    .isn_rsp_valid(isn_done && !isn_done_core), .isn_rsp(isn_value),
    .m_isn_valid(claimed_isn_valid), .m_isn(claimed_isn)
  );

  logic [SID_W:0] half_open;
  logic half_open_new;
  logic seg_lk_valid, seg_lk_ready, seg_isn_valid, seg_isn_ready;
  tcp_seg_lk_t seg_lk;
  logic [31:0] seg_isn;
  toe_tcp_seg_lookup #(.MAX_SESSIONS(MAX_SESSIONS), .DEPTH(lookup_depth_for(STATE_READ_WAIT))) u_lookup (
    .clk, .rst, .cfg_drop_synfin,
    .cfg_half_open_max((SID_W+1)'(cfg_half_open_max > 32'(MAX_SESSIONS) ? 32'(MAX_SESSIONS) : cfg_half_open_max)),
    .half_open, .half_open_new, .s_seg_valid(seg_valid), .s_seg_ready(seg_ready), .s_seg(seg),
    .tab_req_valid(lk_tab_req_valid), .tab_req_ready(tab_req_ready && !core_tab_req_valid),
    .tab_req(lk_tab_req), .tab_rsp_valid(tab_rsp_valid && tab_rsp_tag == TAG_LOOKUP), .tab_rsp,
    .m_seg_valid(seg_lk_valid), .m_seg_ready(seg_lk_ready), .m_seg(seg_lk),
    .isn_claim_soon, .isn_claim_valid, .isn_claim_ready, .isn_claim,
    .isn_rsp_valid(claimed_isn_valid), .isn_rsp(claimed_isn),
    .m_isn_valid(seg_isn_valid), .m_isn_ready(seg_isn_ready), .m_isn(seg_isn)
  );

  // ---------------- protocol core ----------------
  logic steer_valid, steer_ready, steer_accept;
  logic rxw_job_valid, rxw_job_ready, rxw_done_valid, rxw_done_ready;
  logic rd_job_valid, rd_job_ready, rd_done_valid, rd_done_ready;
  logic txw_job_valid, txw_job_ready, txw_done_valid, txw_done_ready;
  tcp_ring_job_t rxw_job, rxw_done, rd_job, rd_done, txw_job, txw_done;
  logic cmd_valid, cmd_ready;
  tcp_tx_cmd_t cmd;
  // Notifications: the core's and RX delivery's (toe_tcp_rx_deliver, which takes the RX
  // writer's completions), coalesced per session, so a slow application never stops the core.
  logic core_notif_valid, core_notif_ready, rx_notif_valid, rx_notif_ready, told_valid, told_ready;
  tcp_notif_t core_notif, rx_notif;
  sid_t told_session;
  logic rxd_init_valid, rxd_drop_valid, rxd_drop_value;
  sid_t rxd_init_session, rxd_rd2_session, rxd_drop_session;
  // the core's record read and written: the session RX delivery reads for (one cycle), the
  // record's read address and hold the read and send engines read with (two cycles), and
  // the write the read and send engines take with every record
  sid_t rec_rd_session, rec_rd2_session, post_op_session;
  logic rec_rd2_hold;
  logic post_op_valid;
  logic [31:0] rxd_init_rx_done, rxd_rd_rx_done, rxd_rd2_rx_done;
  toe_tcp_rx_deliver #(.MAX_SESSIONS(MAX_SESSIONS)) u_rx_deliver (
    .clk, .rst, .s_done_valid(rxw_done_valid), .s_done_ready(rxw_done_ready), .s_done(rxw_done),
    .s_core_notif_valid(core_notif_valid), .s_core_notif_ready(core_notif_ready), .s_core_notif(core_notif),
    .m_notif_valid(rx_notif_valid), .m_notif_ready(rx_notif_ready), .m_notif(rx_notif),
    .init_valid(rxd_init_valid), .init_session(rxd_init_session), .init_rx_done(rxd_init_rx_done),
    .rd_session(rec_rd_session), .rd_rx_done(rxd_rd_rx_done),
    .rd2_session(rxd_rd2_session), .rd2_rx_done(rxd_rd2_rx_done),
    .drop_wr_valid(rxd_drop_valid), .drop_wr_session(rxd_drop_session), .drop_wr_value(rxd_drop_value)
  );
  // App reads (toe_tcp_rx_read): requests, ring read jobs and their completions; owns
  // RX_REQ and RX_READ, wakes the core only when a read matters to it (a small window, or
  // an ended connection waiting for its reads).
  logic rxread_wake_valid, rxread_wake_ready, rd_refused, core_app_error;
  sid_t rxread_wake_session;
  tcp_core2rxread_t core2rxread;
  tcp_rxread2core_t rxread2core;
  toe_tcp_rx_read #(.MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES)) u_rx_read (
    .clk, .rst, .cfg_mem_base, .s_req_valid(rd_req_valid), .s_req_ready(rd_req_ready), .s_req(rd_req),
    .m_job_valid(rd_job_valid), .m_job_ready(rd_job_ready), .m_job(rd_job),
    .s_done_valid(rd_done_valid), .s_done_ready(rd_done_ready), .s_done(rd_done),
    .rx_done_session(rxd_rd2_session), .rx_done(rxd_rd2_rx_done),
    .op_valid(post_op_valid), .op_session(post_op_session), .op(core2rxread),
    .rd_session(rec_rd2_session), .rd_hold(rec_rd2_hold), .rd(rxread2core),
    .m_wake_valid(rxread_wake_valid), .m_wake_ready(rxread_wake_ready), .m_wake_session(rxread_wake_session),
    .stat_refused(rd_refused)
  );
  // App sends (toe_tcp_tx_req): requests, their answers, the TX ring write jobs and their
  // completions; owns TX_APP, TX_WANT and TX_DONE, wakes the core when a session stops
  // being sendable, the space its app waits for is free, or bytes were written.
  logic txreq_wake_valid, txreq_wake_ready, tx_req_error;
  sid_t txreq_wake_session;
  tcp_core2txreq_t core2txreq;
  tcp_txreq2core_t txreq2core;
  toe_tcp_tx_req #(.MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES)) u_tx_req (
    .clk, .rst, .cfg_mem_base, .s_req_valid(tx_req_valid), .s_req_ready(tx_req_ready), .s_req(tx_req),
    .m_rsp_valid(tx_rsp_valid), .m_rsp_ready(tx_rsp_ready), .m_rsp(tx_rsp),
    .m_job_valid(txw_job_valid), .m_job_ready(txw_job_ready), .m_job(txw_job),
    .op_valid(post_op_valid), .op_session(post_op_session), .op(core2txreq),
    .s_done_valid(txw_done_valid), .s_done_ready(txw_done_ready), .s_done(txw_done),
    .rd_session(rec_rd2_session), .rd_hold(rec_rd2_hold), .rd(txreq2core),
    .m_wake_valid(txreq_wake_valid), .m_wake_ready(txreq_wake_ready), .m_wake_session(txreq_wake_session),
    .stat_error(tx_req_error)
  );
  toe_tcp_notif_coalesce #(.MAX_SESSIONS(MAX_SESSIONS)) u_notif (
    .clk, .rst, .s_valid(rx_notif_valid), .s_ready(rx_notif_ready), .s_notif(rx_notif),
    .m_valid(notif_valid), .m_ready(notif_ready), .m_notif(notif),
    .m_told_valid(told_valid), .m_told_ready(told_ready), .m_told_session(told_session),
    .ready(coalesce_ready)
  );

  toe_tcp_core #(.MAX_SESSIONS(MAX_SESSIONS), .RING_BYTES(RING_BYTES), .STATE_READ_WAIT(STATE_READ_WAIT)) u_core (
    .clk, .rst, .now_us(now_us_reg),
    .cfg('{mem_base: cfg_mem_base, mss: cfg_mss, mss_min: cfg_mss_min, fin_wait_2_us: cfg_fin_wait_2_us,
           keepalive_idle_us: cfg_keepalive_idle_us, keepalive_intvl_us: cfg_keepalive_intvl_us,
           keepalive_probes: cfg_keepalive_probes, rto_init_us: cfg_rto_init_us, rto_min_us: cfg_rto_min_us,
           rto_max_us: cfg_rto_max_us, max_retries: cfg_max_retries, synrcvd_retries: cfg_synrcvd_retries,
           delack_us: cfg_delack_us, time_wait_us: cfg_time_wait_us, drop_synfin: cfg_drop_synfin,
           rfc5961_rst: cfg_rfc5961_rst, rfc5961_syn: cfg_rfc5961_syn, nagle: cfg_nagle}),
    .s_seg_valid(seg_lk_valid), .s_seg_ready(seg_lk_ready), .s_seg(seg_lk),
    // every looked-up segment's session, fetched ahead while the segment waits for the core
    .pf_valid(tab_rsp_valid && tab_rsp_tag == TAG_LOOKUP && (tab_rsp.found || tab_rsp.is_new)),
    .pf_session(tab_rsp.session),
    .s_isn_valid(seg_isn_valid), .s_isn_ready(seg_isn_ready), .s_isn(seg_isn),
    .isn_req_valid(core_isn_req_valid), .isn_req_ready(isn_ready), .isn_req(core_isn_req),
    .isn_rsp_valid(isn_done && isn_done_core), .isn_rsp(isn_value),
    .m_steer_valid(steer_valid), .m_steer_ready(steer_ready), .m_steer_accept(steer_accept),
    .tab_req_valid(core_tab_req_valid), .tab_req_ready, .tab_req(core_tab_req),
    .tab_rsp_valid(tab_rsp_valid && tab_rsp_tag == TAG_CORE), .tab_rsp,
    .open_req_valid, .open_req_ready, .open_req, .open_rsp_valid, .open_rsp_ready, .open_rsp,
    .close_req_valid, .close_req_ready, .close_req,
    .notif_valid(core_notif_valid), .notif_ready(core_notif_ready), .notif(core_notif),
    .told_valid, .told_ready, .told_session,
    .m_rxw_job_valid(rxw_job_valid), .m_rxw_job_ready(rxw_job_ready), .m_rxw_job(rxw_job),
    .rec_rd_session, .rec_rd2_session, .rec_rd2_hold, .post_op_valid, .post_op_session,
    .rxd_init_valid, .rxd_init_session, .rxd_init_rx_done, .rxd_rd_rx_done,
    .rxd_drop_valid, .rxd_drop_session, .rxd_drop_value,
    .rxread_op(core2rxread), .rxread_rd(rxread2core), .rxread_wake_valid, .rxread_wake_ready, .rxread_wake_session,
    .txreq_op(core2txreq), .txreq_rd(txreq2core), .txreq_wake_valid, .txreq_wake_ready, .txreq_wake_session,
    .dbg_req_valid, .dbg_req_ready, .dbg_req, .dbg_rsp_valid, .dbg_rsp_ready, .dbg_rsp,
    .m_cmd_valid(cmd_valid), .m_cmd_ready(cmd_ready), .m_cmd(cmd),
    .stat_active_opens, .stat_passive_opens, .stat_attempt_fails, .stat_estab_resets, .stat_out_rsts,
    .stat_retrans_segs, .stat_window_drops, .stat_challenge_acks, .stat_bad_flags, .stat_app_errors(core_app_error), .stat_mss_clamped, .stat_half_open_drops, .stat_out_of_order,
    .curr_estab, .half_open, .half_open_new, .ready(core_ready)
  );
  always_ff @(posedge clk) begin
    ready <= table_ready && coalesce_ready && core_ready;
    if (rst) ready <= 1'b0;
  end

  // ---------------- payload steering: accepted payload to the RX writer, the rest away ----------------
  logic [DATA_W-1:0] rxd_tdata;
  logic [W-1:0] rxd_tkeep;
  logic rxd_tvalid, rxd_tready, rxd_tlast;
  // tcpAppErrors counts the core's refused requests, the read engine's refused reads and
  // the send engine's requests for sessions the app knew dead, a cycle after them (the
  // engines' refusals come from their table reads); when two or three come in one cycle
  // the others are counted from a backlog in later cycles (it saturates: counts are lost
  // only after some 10^4 cycles of floods on two of them at once)
  logic [2:0] app_errors_reg;
  logic [15:0] app_error_backlog_reg;
  assign stat_app_errors = app_errors_reg != '0 || app_error_backlog_reg != '0;
  wire [16:0] app_error_backlog = 17'(app_error_backlog_reg) + 17'(app_errors_reg[0]) + 17'(app_errors_reg[1]) +
                                 17'(app_errors_reg[2]) - 17'(stat_app_errors);
  always_ff @(posedge clk) begin
    app_errors_reg <= {core_app_error, rd_refused, tx_req_error};
    app_error_backlog_reg <= app_error_backlog[16] ? '1 : app_error_backlog[15:0];
    if (rst) {app_errors_reg, app_error_backlog_reg} <= '0;
  end

  assign rxd_tdata = pl_tdata;
  assign rxd_tkeep = pl_tkeep;
  assign rxd_tlast = pl_tlast;
  assign rxd_tvalid = pl_tvalid && steer_valid && steer_accept;
  assign pl_tready = steer_valid && (!steer_accept || rxd_tready);
  assign steer_ready = pl_tvalid && pl_tready && pl_tlast;

  // ---------------- ring engines and memory (at MEM_DATA_W) ----------------
  localparam int unsigned MW = MEM_DATA_W / 8;
  logic [1:0][ADDR_W-1:0] awaddr, araddr;
  logic [1:0][7:0] awlen, arlen;
  logic [1:0] awvalid, awready, aw_soon, wlast, wvalid, wready, bvalid, arvalid, arready, rvalid, rready;
  logic [1:0][MEM_DATA_W-1:0] wdata;
  logic [1:0][MW-1:0] wstrb;
  logic [MEM_DATA_W-1:0] rdata;

  // the two byte streams into the rings (RX payload, app TX data), at the memory width
  logic [1:0][MEM_DATA_W-1:0] wr_tdata;
  logic [1:0][MW-1:0] wr_tkeep;
  logic [1:0] wr_tvalid, wr_tready, wr_tlast;
  toe_axis_width_conv #(.S_DATA_W(DATA_W), .M_DATA_W(MEM_DATA_W)) u_rx_to_mem (
    .clk, .rst, .s_axis_tdata(rxd_tdata), .s_axis_tkeep(rxd_tkeep), .s_axis_tvalid(rxd_tvalid),
    .s_axis_tready(rxd_tready), .s_axis_tlast(rxd_tlast), .s_axis_tuser(1'b0),
    .m_axis_tdata(wr_tdata[0]), .m_axis_tkeep(wr_tkeep[0]), .m_axis_tvalid(wr_tvalid[0]),
    .m_axis_tready(wr_tready[0]), .m_axis_tlast(wr_tlast[0]), .m_axis_tuser()
  );
  toe_axis_width_conv #(.S_DATA_W(DATA_W), .M_DATA_W(MEM_DATA_W)) u_tx_to_mem (
    .clk, .rst, .s_axis_tdata(s_tx_axis_tdata), .s_axis_tkeep(s_tx_axis_tkeep), .s_axis_tvalid(s_tx_axis_tvalid),
    .s_axis_tready(s_tx_axis_tready), .s_axis_tlast(s_tx_axis_tlast), .s_axis_tuser(1'b0),
    .m_axis_tdata(wr_tdata[1]), .m_axis_tkeep(wr_tkeep[1]), .m_axis_tvalid(wr_tvalid[1]),
    .m_axis_tready(wr_tready[1]), .m_axis_tlast(wr_tlast[1]), .m_axis_tuser()
  );

  toe_tcp_ring_writer #(.DATA_W(MEM_DATA_W), .ADDR_W(ADDR_W), .RING_BYTES(RING_BYTES)) u_rx_writer (
    .clk, .rst, .s_job_valid(rxw_job_valid), .s_job_ready(rxw_job_ready), .s_job(rxw_job),
    .s_axis_tdata(wr_tdata[0]), .s_axis_tkeep(wr_tkeep[0]), .s_axis_tvalid(wr_tvalid[0]),
    .s_axis_tready(wr_tready[0]), .s_axis_tlast(wr_tlast[0]),
    .m_axi_awaddr(awaddr[0]), .m_axi_awlen(awlen[0]), .m_axi_awvalid(awvalid[0]), .m_axi_awready(awready[0]), .m_aw_soon(aw_soon[0]),
    .m_axi_wdata(wdata[0]), .m_axi_wstrb(wstrb[0]), .m_axi_wlast(wlast[0]), .m_axi_wvalid(wvalid[0]),
    .m_axi_wready(wready[0]), .m_axi_bvalid(bvalid[0]), .m_axi_bready(),
    .m_done_valid(rxw_done_valid), .m_done_ready(rxw_done_ready), .m_done(rxw_done), .stat_len_err()
  );
  toe_tcp_ring_writer #(.DATA_W(MEM_DATA_W), .ADDR_W(ADDR_W), .RING_BYTES(RING_BYTES)) u_tx_writer (
    .clk, .rst, .s_job_valid(txw_job_valid), .s_job_ready(txw_job_ready), .s_job(txw_job),
    .s_axis_tdata(wr_tdata[1]), .s_axis_tkeep(wr_tkeep[1]), .s_axis_tvalid(wr_tvalid[1]),
    .s_axis_tready(wr_tready[1]), .s_axis_tlast(wr_tlast[1]),
    .m_axi_awaddr(awaddr[1]), .m_axi_awlen(awlen[1]), .m_axi_awvalid(awvalid[1]), .m_axi_awready(awready[1]), .m_aw_soon(aw_soon[1]),
    .m_axi_wdata(wdata[1]), .m_axi_wstrb(wstrb[1]), .m_axi_wlast(wlast[1]), .m_axi_wvalid(wvalid[1]),
    .m_axi_wready(wready[1]), .m_axi_bvalid(bvalid[1]), .m_axi_bready(),
    .m_done_valid(txw_done_valid), .m_done_ready(txw_done_ready), .m_done(txw_done), .stat_len_err(stat_app_len_errors)
  );

  // app reads: rx_meta, then the data frame; its last beat reports the read as done
  logic rdm_valid, rdm_ready, rdd_valid, rdd_ready;
  tcp_ring_job_t rdm;
  // the two byte streams out of the rings (app reads, segment payloads), back at DATA_W
  logic [1:0][MEM_DATA_W-1:0] rd_tdata;
  logic [1:0][MW-1:0] rd_tkeep;
  logic [1:0] rd_tvalid, rd_tready, rd_tlast;
  toe_tcp_ring_reader #(.DATA_W(MEM_DATA_W), .ADDR_W(ADDR_W), .RING_BYTES(RING_BYTES)) u_rx_reader (
    .clk, .rst, .s_job_valid(rd_job_valid), .s_job_ready(rd_job_ready), .s_job(rd_job),
    .m_axi_araddr(araddr[0]), .m_axi_arlen(arlen[0]), .m_axi_arvalid(arvalid[0]), .m_axi_arready(arready[0]),
    .m_axi_rdata(rdata), .m_axi_rvalid(rvalid[0]), .m_axi_rready(rready[0]),
    .m_meta_valid(rdm_valid), .m_meta_ready(rdm_ready), .m_meta(rdm),
    .m_axis_tdata(rd_tdata[0]), .m_axis_tkeep(rd_tkeep[0]), .m_axis_tvalid(rd_tvalid[0]),
    .m_axis_tready(rd_tready[0]), .m_axis_tlast(rd_tlast[0])
  );
  toe_axis_width_conv #(.S_DATA_W(MEM_DATA_W), .M_DATA_W(DATA_W)) u_rx_from_mem (
    .clk, .rst, .s_axis_tdata(rd_tdata[0]), .s_axis_tkeep(rd_tkeep[0]), .s_axis_tvalid(rd_tvalid[0]),
    .s_axis_tready(rd_tready[0]), .s_axis_tlast(rd_tlast[0]), .s_axis_tuser(1'b0),
    .m_axis_tdata(m_rx_axis_tdata), .m_axis_tkeep(m_rx_axis_tkeep), .m_axis_tvalid(rdd_valid),
    .m_axis_tready(rdd_ready), .m_axis_tlast(m_rx_axis_tlast), .m_axis_tuser()
  );
  assign rx_meta_valid = rdm_valid;
  assign rdm_ready = rx_meta_ready;
  assign rx_meta = '{session: rdm.session, length: 16'(rdm.length)};
  tcp_ring_job_t rd_cur_reg;
  always_ff @(posedge clk) if (rdm_valid && rdm_ready) rd_cur_reg <= rdm;
  // The last beat waits (valid and ready both held) while the done queue is full, so
  // the app and the reader always agree on which beats were transferred.
  logic rdq_ready;
  wire rd_beat_go = !m_rx_axis_tlast || rdq_ready;
  assign m_rx_axis_tvalid = rdd_valid && rd_beat_go;
  assign rdd_ready = m_rx_axis_tready && rd_beat_go;
  toe_fifo #(.WIDTH(TCP_RING_JOB_W), .DEPTH(4)) u_rd_done (
    .clk, .rst, .s_data(rd_cur_reg), .s_valid(m_rx_axis_tvalid && m_rx_axis_tready && m_rx_axis_tlast),
    .s_ready(rdq_ready), .commit(1'b0), .rewind(1'b0),
    .m_data(rd_done), .m_valid(rd_done_valid), .m_ready(rd_done_ready), .uncommitted()
  );

  // segment payloads
  logic tr_job_valid, tr_job_ready;
  tcp_ring_job_t tr_job;
  logic [DATA_W-1:0] tr_tdata;
  logic [W-1:0] tr_tkeep;
  logic tr_tvalid, tr_tready, tr_tlast;
  toe_tcp_ring_reader #(.DATA_W(MEM_DATA_W), .ADDR_W(ADDR_W), .RING_BYTES(RING_BYTES)) u_tx_reader (
    .clk, .rst, .s_job_valid(tr_job_valid), .s_job_ready(tr_job_ready), .s_job(tr_job),
    .m_axi_araddr(araddr[1]), .m_axi_arlen(arlen[1]), .m_axi_arvalid(arvalid[1]), .m_axi_arready(arready[1]),
    .m_axi_rdata(rdata), .m_axi_rvalid(rvalid[1]), .m_axi_rready(rready[1]),
    .m_meta_valid(), .m_meta_ready(1'b1), .m_meta(),
    .m_axis_tdata(rd_tdata[1]), .m_axis_tkeep(rd_tkeep[1]), .m_axis_tvalid(rd_tvalid[1]),
    .m_axis_tready(rd_tready[1]), .m_axis_tlast(rd_tlast[1])
  );
  toe_axis_width_conv #(.S_DATA_W(MEM_DATA_W), .M_DATA_W(DATA_W)) u_tx_from_mem (
    .clk, .rst, .s_axis_tdata(rd_tdata[1]), .s_axis_tkeep(rd_tkeep[1]), .s_axis_tvalid(rd_tvalid[1]),
    .s_axis_tready(rd_tready[1]), .s_axis_tlast(rd_tlast[1]), .s_axis_tuser(1'b0),
    .m_axis_tdata(tr_tdata), .m_axis_tkeep(tr_tkeep), .m_axis_tvalid(tr_tvalid),
    .m_axis_tready(tr_tready), .m_axis_tlast(tr_tlast), .m_axis_tuser()
  );
  toe_tcp_tx_engine #(.DATA_W(DATA_W), .RING_BYTES(RING_BYTES)) u_tx_engine (
    .clk, .rst, .cfg_ip, .cfg_mem_base,
    .s_cmd_valid(cmd_valid), .s_cmd_ready(cmd_ready), .s_cmd(cmd),
    .m_rd_job_valid(tr_job_valid), .m_rd_job_ready(tr_job_ready), .m_rd_job(tr_job),
    .s_rd_tdata(tr_tdata), .s_rd_tkeep(tr_tkeep), .s_rd_tvalid(tr_tvalid), .s_rd_tready(tr_tready),
    .s_rd_tlast(tr_tlast),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser,
    .stat_out_segs
  );

  // Writers: 0 the RX ring writer, 1 the TX ring writer. The RX writer goes first, up to
  // MEM_RX_FIRST bursts in a row while the TX writer waits: the wire does not wait, the
  // application's data does. Its bursts of a 1460-byte segment are 23 beats at 512 bits,
  // the TX writer's up to 32 (IN_BEATS), so the default four to one gives RX at least 74 % of a
  // contended W channel, and 100G RX needs 64 % of a 512-bit port at 300 MHz. (Round robin
  // gave each about half: both ways of 64 sessions at 512 bits behind an ideal memory
  // dropped RX segments at the full input FIFO, 0.147 of the wire; 0.674 with no drop
  // since, stop 58. Behind one DDR4 channel, where reads and writes share one bus and
  // neither keeps up, it takes from TX what RX cannot use: docs/architecture.md.)
  logic mem_err;
  toe_tcp_mem_arb #(.DATA_W(MEM_DATA_W), .ADDR_W(ADDR_W), .N_WR(2), .N_RD(2), .ID_W(ID_W),
                    .WR0_FIRST(MEM_RX_FIRST)) u_mem_arb (
    .clk, .rst,
    .s_awaddr(awaddr), .s_awlen(awlen), .s_awvalid(awvalid), .s_awready(awready), .s_awsoon(aw_soon),
    .s_wdata(wdata), .s_wstrb(wstrb), .s_wlast(wlast), .s_wvalid(wvalid), .s_wready(wready),
    .s_bvalid(bvalid), .s_araddr(araddr), .s_arlen(arlen), .s_arvalid(arvalid), .s_arready(arready),
    .s_rdata(rdata), .s_rvalid(rvalid), .s_rready(rready),
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awvalid,
    .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid,
    .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready,
    .stat_mem_errors(mem_err)
  );
  assign stat_mem_errors = mem_err;
endmodule
