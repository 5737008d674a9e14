// SPDX-License-Identifier: Apache-2.0
// toe_ip_tx: IPv4 transmit. Takes IP payloads with ip_tx_meta_t on tuser[IP_TX_META_W:1],
// chooses the next hop (the destination when on our subnet or a broadcast, else the
// gateway), looks its MAC up in the ARP cache and sends the frame with Ethernet and IPv4
// headers in front (IHL 5, TTL 64, DF clear, ID counting up, header checksum).
// Unresolved next hop: the frame is dropped and counted, and ARP is told (`arp_miss`) to
// resolve it; later frames go out once the reply is in (no queueing while unresolved).
// Timing: two register slices (skid buffers: they also cut the ready chain from the MAC
// back into the IP sources): the next hop's address is chosen on the input beat and
// registered with it; the ARP cache is looked up from that register and its answer
// registered with the beat in the second, beside the header's checksum summed but for the
// ID; the header starts from there. Frames leave back
// to back; the input waits while the 34 header bytes go out. A frame whose first beat was
// in the slices while its next hop was resolved is dropped as unresolved (the sender
// retransmits), as one that came a few cycles earlier would have been.
module toe_ip_tx
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W = 64
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [47:0]           cfg_mac,
  input  logic [31:0]           cfg_ip,
  input  logic [31:0]           cfg_netmask,
  input  logic [31:0]           cfg_gateway,
  input  logic [DATA_W-1:0]     s_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_axis_tkeep,
  input  logic                  s_axis_tvalid,
  output logic                  s_axis_tready,
  input  logic                  s_axis_tlast,
  input  logic [IP_TX_META_W:0] s_axis_tuser,
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic                  m_axis_tuser,
  output logic [31:0]           arp_lookup_ip,
  input  logic                  arp_lookup_hit,
  input  logic [47:0]           arp_lookup_mac,
  output logic                  arp_miss,      // pulse: arp_miss_ip was not resolved
  output logic [31:0]           arp_miss_ip,
  output logic                  stat_out_requests,
  output logic                  stat_out_arp_misses
);
  // ---- the next hop's address, on the input beat ----
  ip_tx_meta_t in_meta;
  assign in_meta = s_axis_tuser[IP_TX_META_W:1];
  typedef struct packed {
    logic        bcast;
    logic [31:0] ip;
  } next_hop_t;
  next_hop_t in_nh, nh;
  always_comb begin
    logic on_link;
    on_link = ((in_meta.dst_ip ^ cfg_ip) & cfg_netmask) == '0;
    in_nh = '{bcast: in_meta.dst_ip == 32'hFFFF_FFFF || in_meta.dst_ip == (cfg_ip | ~cfg_netmask),
              ip: on_link ? in_meta.dst_ip : cfg_gateway};
  end
  logic [DATA_W-1:0] a_tdata;
  logic [DATA_W/8-1:0] a_tkeep;
  logic a_tvalid, a_tready, a_tlast;
  logic [IP_TX_META_W:0] a_tuser;
  toe_axis_register #(.DATA_W(DATA_W), .USER_W($bits(next_hop_t) + IP_TX_META_W + 1)) u_in_reg (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast,
    .s_axis_tuser({in_nh, s_axis_tuser}),
    .m_axis_tdata(a_tdata), .m_axis_tkeep(a_tkeep), .m_axis_tvalid(a_tvalid), .m_axis_tready(a_tready),
    .m_axis_tlast(a_tlast), .m_axis_tuser({nh, a_tuser})
  );

  // ---- its MAC, from the ARP cache ----
  typedef struct packed {
    logic        resolved, bcast;
    logic [47:0] mac;
    logic [31:0] ip;
  } hop_t;
  hop_t a_hop, hop;
  assign arp_lookup_ip = nh.ip;
  assign a_hop = '{resolved: nh.bcast || arp_lookup_hit, bcast: nh.bcast, mac: arp_lookup_mac, ip: nh.ip};

  // ---- the IPv4 header's checksum, summed here but for the ID (known only as the frame
  // leaves): the insert adds the ID and folds ----
  ip_tx_meta_t a_meta;
  assign a_meta = a_tuser[IP_TX_META_W:1];
  logic [31:0] a_hsum, hsum;
  toe_sum_tree #(.N(7), .IN_W(16), .OUT_W(32)) u_hsum (
    .terms({16'h4500, a_meta.length + 16'd20, {8'd64, a_meta.protocol}, cfg_ip[31:16], cfg_ip[15:0],
            a_meta.dst_ip[31:16], a_meta.dst_ip[15:0]}),
    .sum(a_hsum));

  logic [DATA_W-1:0] r_tdata;
  logic [DATA_W/8-1:0] r_tkeep;
  logic r_tvalid, r_tready, r_tlast;
  logic [IP_TX_META_W:0] r_tuser;
  toe_axis_register #(.DATA_W(DATA_W), .USER_W($bits(hop_t) + 32 + IP_TX_META_W + 1)) u_hop_reg (
    .clk, .rst,
    .s_axis_tdata(a_tdata), .s_axis_tkeep(a_tkeep), .s_axis_tvalid(a_tvalid), .s_axis_tready(a_tready),
    .s_axis_tlast(a_tlast), .s_axis_tuser({a_hop, a_hsum, a_tuser}),
    .m_axis_tdata(r_tdata), .m_axis_tkeep(r_tkeep), .m_axis_tvalid(r_tvalid), .m_axis_tready(r_tready),
    .m_axis_tlast(r_tlast), .m_axis_tuser({hop, hsum, r_tuser})
  );

  // ---- the frame with its headers ----
  ip_tx_meta_t meta;
  assign meta = r_tuser[IP_TX_META_W:1];
  wire resolved = hop.resolved;

  logic first_reg, drop_reg;
  logic [15:0] id_reg;
  logic [47:0] dst_mac_reg;
  wire drop_now = first_reg ? !resolved : drop_reg;
  wire [47:0] dst_mac = first_reg ? (hop.bcast ? 48'hFFFF_FFFF_FFFF : hop.mac) : dst_mac_reg;

  ipv4_hdr_t iph;
  always_comb begin
    iph = '{version: 4'd4, ihl: 4'd5, tos: 8'd0, total_len: meta.length + 16'd20,
            id: id_reg, flags: 3'b000, frag_off: 13'd0, ttl: 8'd64, protocol: meta.protocol,
            checksum: ~csum_fold(hsum + 32'(id_reg)), src_ip: cfg_ip, dst_ip: meta.dst_ip};
  end
  eth_hdr_t eh;
  assign eh = '{dst_mac: dst_mac, src_mac: cfg_mac, ethertype: ETHERTYPE_IPV4};

  logic ins_ready;
  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(1), .HDR_BYTES(ETH_HDR_BYTES + IPV4_HDR_BYTES)) u_insert (
    .clk, .rst,
    .s_axis_tdata(r_tdata), .s_axis_tkeep(r_tkeep), .s_axis_tvalid(r_tvalid && !drop_now),
    .s_axis_tready(ins_ready), .s_axis_tlast(r_tlast), .s_axis_tuser(r_tuser[0]),
    .s_hdr({ipv4_pack(iph), eth_pack(eh)}),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );
  assign r_tready = drop_now ? 1'b1 : ins_ready;

  wire take = r_tvalid && r_tready;
  // an unresolved frame's first beat is taken whatever the output's ready (it is dropped),
  // so the miss is told without the ready: the ready chain from the MAC (through the
  // Ethernet arbiter's grant) stays out of it (13 LUT levels into arp_miss at 64 bits,
  // stop 57)
  wire miss = r_tvalid && first_reg && !resolved;
  always_ff @(posedge clk) begin
    stat_out_requests   <= take && first_reg;
    stat_out_arp_misses <= miss;
    arp_miss            <= miss;
    arp_miss_ip         <= hop.ip;
    if (take) begin
      first_reg <= r_tlast;
      drop_reg <= drop_now;
      dst_mac_reg <= dst_mac;
      if (r_tlast && !drop_now) id_reg <= id_reg + 1'b1;
    end
    if (rst) begin
      first_reg <= 1'b1;
      drop_reg <= 1'b0;
      id_reg <= '0;
      {stat_out_requests, stat_out_arp_misses, arp_miss} <= '0;
    end
  end
`ifndef SYNTHESIS
  // a miss is told for a first beat taken, once per dropped frame (as `take && first_reg &&
  // !resolved` would)
  always @(posedge clk) if (!rst && miss) assert (take) else $error("toe_ip_tx: a miss told for a beat not taken");
`endif
endmodule
