// SPDX-License-Identifier: Apache-2.0
// toe_arp: ARP for one IPv4 address (RFC 826).
// RX (ARP payload from toe_eth_rx): well-formed Ethernet/IPv4 ARP packets aimed at our
// address teach the cache the sender (requests and replies alike); requests for our
// address are answered. Malformed ones (hardware/protocol type or lengths wrong, opcode
// not 1/2, shorter than 28 bytes) are dropped and counted.
// Resolution: IPv4 TX looks addresses up combinationally (`lookup_*`); on a miss it
// drops its frame and pulses `miss`, and this block broadcasts a request for that address,
// repeated every RETRY_US microseconds up to RETRIES times while unanswered, then gives
// up (counted). One address is resolved at a time; misses for others meanwhile are
// ignored (their senders' frames are still dropped and counted by IPv4 TX).
// Announce: a pulse on `announce` (our address written) sends a gratuitous ARP request.
// TX frames are complete Ethernet frames (42 bytes; the MAC pads to 60).
module toe_arp
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W   = 64,
  parameter int unsigned ENTRIES  = 16,       // cache entries, power of two
  parameter int unsigned RETRY_US = 1000000,  // time between requests for one address
  parameter int unsigned RETRIES  = 3,        // requests sent before giving up
  parameter int unsigned AGE_UNIT_US = 1000000 // length of the ageing unit (cfg_timeout_s counts these)
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                tick_us,
  input  logic [47:0]         cfg_mac,
  input  logic [31:0]         cfg_ip,
  input  logic [15:0]         cfg_timeout_s,
  input  logic                announce,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic                s_axis_tuser,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast,
  output logic                m_axis_tuser,
  input  logic [31:0]         lookup_ip,
  output logic                lookup_hit,
  output logic [47:0]         lookup_mac,
  input  logic                miss,          // pulse: miss_ip missed and its frame was dropped
  input  logic [31:0]         miss_ip,
  output logic                stat_in_requests,
  output logic                stat_in_replies,
  output logic                stat_in_errors,
  output logic                stat_out_requests,
  output logic                stat_out_replies,
  output logic                stat_resolve_fails,
  output logic                stat_reply_drops   // request while a reply was still queued
);
  // ---- seconds clock for ageing (AGE_UNIT_US, one second unless a test shortens it) ----
  logic [19:0] us_reg;
  logic [15:0] now_s_reg;
  always_ff @(posedge clk) begin
    if (tick_us) begin
      us_reg <= us_reg + 1'b1;
      if (us_reg == 20'(AGE_UNIT_US - 1)) begin
        us_reg <= '0;
        now_s_reg <= now_s_reg + 1'b1;
      end
    end
    if (rst) begin
      us_reg <= '0;
      now_s_reg <= '0;
    end
  end

  // ---- RX ----
  logic [DATA_W-1:0] pl_tdata;
  logic [DATA_W/8-1:0] pl_tkeep;
  logic pl_tvalid, pl_tlast, pl_tuser, short_frame;
  logic [8*ARP_PKT_BYTES-1:0] pkt_bytes;
  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(1), .MAX_HDR_BYTES(ARP_PKT_BYTES)) u_extract (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast, .s_axis_tuser,
    .s_hdr_len(5'(ARP_PKT_BYTES)),
    .m_axis_tdata(pl_tdata), .m_axis_tkeep(pl_tkeep), .m_axis_tvalid(pl_tvalid),
    .m_axis_tready(1'b1), .m_axis_tlast(pl_tlast), .m_axis_tuser(pl_tuser),
    .m_hdr(pkt_bytes), .short_frame
  );
  // A whole, FCS-good packet is registered before it is judged: the packet of a frame that
  // ends on its last ARP byte is combinational at the extractor's output.
  arp_pkt_t pkt;
  logic pkt_end;
  always_ff @(posedge clk) begin
    pkt_end <= pl_tvalid && pl_tlast && !pl_tuser;
    if (pl_tvalid && pl_tlast) pkt <= arp_unpack(pkt_bytes);
    if (rst) pkt_end <= 1'b0;
  end
  wire well_formed = pkt.htype == 16'd1 && pkt.ptype == ETHERTYPE_IPV4 && pkt.hlen == 8'd6 &&
                     pkt.plen == 8'd4 && (pkt.oper == 16'd1 || pkt.oper == 16'd2);
  wire for_us    = pkt.tpa == cfg_ip && cfg_ip != '0;
  wire rx_ok     = pkt_end && well_formed;
  wire learn     = rx_ok && for_us && pkt.spa != '0;
  wire want_reply = rx_ok && for_us && pkt.oper == 16'd1;

  toe_arp_cache #(.ENTRIES(ENTRIES)) u_cache (
    .clk, .rst, .now_s(now_s_reg), .cfg_timeout_s,
    .learn, .learn_ip(pkt.spa), .learn_mac(pkt.sha),
    .lookup_ip, .lookup_hit, .lookup_mac
  );

  // ---- resolution of one address at a time ----
  localparam int unsigned RW = $clog2(RETRIES + 1);
  logic        pending_reg;
  logic [31:0] pending_ip_reg;
  logic [RW-1:0] sent_reg;
  logic [31:0] wait_us_reg;
  logic        req_due_reg;     // a request for pending_ip is to be sent

  // ---- TX: one frame generator, replies first ----
  logic        reply_valid_reg, announce_reg;
  logic [47:0] reply_mac_reg;
  logic [31:0] reply_ip_reg;
  logic        tx_busy_reg;     // a frame is being sent
  typedef enum logic [1:0] {TX_REPLY, TX_REQUEST, TX_ANNOUNCE} tx_kind_e;
  tx_kind_e    tx_kind_reg;
  arp_pkt_t    tx_pkt;
  eth_hdr_t    tx_eth;
  always_comb begin
    tx_pkt = '{htype: 16'd1, ptype: ETHERTYPE_IPV4, hlen: 8'd6, plen: 8'd4, oper: 16'd1,
               sha: cfg_mac, spa: cfg_ip, tha: 48'd0, tpa: pending_ip_reg};
    tx_eth = '{dst_mac: 48'hFFFF_FFFF_FFFF, src_mac: cfg_mac, ethertype: ETHERTYPE_ARP};
    unique case (tx_kind_reg)
      TX_REPLY: begin
        tx_pkt.oper = 16'd2;
        tx_pkt.tha = reply_mac_reg;
        tx_pkt.tpa = reply_ip_reg;
        tx_eth.dst_mac = reply_mac_reg;
      end
      TX_ANNOUNCE: tx_pkt.tpa = cfg_ip;
      default: ;
    endcase
  end

  logic ins_ready;
  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(1), .HDR_BYTES(ETH_HDR_BYTES + ARP_PKT_BYTES)) u_tx (
    .clk, .rst,
    .s_axis_tdata('0), .s_axis_tkeep('0), .s_axis_tvalid(tx_busy_reg), .s_axis_tready(ins_ready),
    .s_axis_tlast(1'b1), .s_axis_tuser(1'b0), .s_hdr({arp_pack(tx_pkt), eth_pack(tx_eth)}),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );
  wire tx_done = tx_busy_reg && ins_ready;

  always_ff @(posedge clk) begin
    stat_in_requests   <= rx_ok && pkt.oper == 16'd1;
    stat_in_replies    <= rx_ok && pkt.oper == 16'd2;
    stat_in_errors     <= short_frame || (pkt_end && !well_formed);
    stat_out_requests  <= tx_done && tx_kind_reg != TX_REPLY;
    stat_out_replies   <= tx_done && tx_kind_reg == TX_REPLY;
    stat_resolve_fails <= 1'b0;
    stat_reply_drops   <= want_reply && reply_valid_reg;

    if (want_reply && !reply_valid_reg) begin
      reply_valid_reg <= 1'b1;
      reply_mac_reg <= pkt.sha;
      reply_ip_reg <= pkt.spa;
    end
    if (announce) announce_reg <= 1'b1;

    // Start a frame when idle: replies, then announcements, then requests.
    if (!tx_busy_reg) begin
      if (reply_valid_reg) begin
        tx_busy_reg <= 1'b1;
        tx_kind_reg <= TX_REPLY;
      end else if (announce_reg) begin
        tx_busy_reg <= 1'b1;
        tx_kind_reg <= TX_ANNOUNCE;
      end else if (req_due_reg) begin
        tx_busy_reg <= 1'b1;
        tx_kind_reg <= TX_REQUEST;
      end
    end
    if (tx_done) begin
      tx_busy_reg <= 1'b0;
      unique case (tx_kind_reg)
        TX_REPLY:    reply_valid_reg <= 1'b0;
        TX_ANNOUNCE: announce_reg <= 1'b0;
        default:     req_due_reg <= 1'b0;
      endcase
    end

    // Resolution.
    if (pending_reg) begin
      if (tick_us) wait_us_reg <= wait_us_reg + 1'b1;
      if (learn && pkt.spa == pending_ip_reg) begin
        pending_reg <= 1'b0;
        req_due_reg <= 1'b0;
      end else if (wait_us_reg >= RETRY_US && !req_due_reg) begin
        wait_us_reg <= '0;
        if (int'(sent_reg) >= RETRIES) begin
          pending_reg <= 1'b0;
          stat_resolve_fails <= 1'b1;
        end else begin
          sent_reg <= sent_reg + 1'b1;
          req_due_reg <= 1'b1;
        end
      end
    end else if (miss && cfg_ip != '0) begin
      pending_reg <= 1'b1;
      pending_ip_reg <= miss_ip;
      sent_reg <= RW'(1);
      wait_us_reg <= '0;
      req_due_reg <= 1'b1;
    end

    if (rst) begin
      reply_valid_reg <= 1'b0;
      announce_reg <= 1'b0;
      tx_busy_reg <= 1'b0;
      pending_reg <= 1'b0;
      req_due_reg <= 1'b0;
      {stat_in_requests, stat_in_replies, stat_in_errors, stat_out_requests,
       stat_out_replies, stat_resolve_fails, stat_reply_drops} <= '0;
    end
  end
endmodule
