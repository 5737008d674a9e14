// SPDX-License-Identifier: Apache-2.0
// toe_pkg: constants, header structs and the byte-order helpers shared by every OpenTOE
// module. Streams carry frame byte 0 in tdata[7:0]; headers captured from a stream are
// byte vectors in the same order (byte k at [8*k +: 8]). The *_unpack / *_pack functions
// are the only places where network byte order is turned into fields and back.
package toe_pkg;

  localparam logic [15:0] ETHERTYPE_IPV4 = 16'h0800;
  localparam logic [15:0] ETHERTYPE_ARP  = 16'h0806;

  localparam logic [7:0] IP_PROTO_ICMP = 8'd1;
  localparam logic [7:0] IP_PROTO_TCP  = 8'd6;
  localparam logic [7:0] IP_PROTO_UDP  = 8'd17;

  localparam int unsigned ETH_HDR_BYTES  = 14;
  localparam int unsigned IPV4_HDR_BYTES = 20;  // without options
  localparam int unsigned IPV4_MAX_HDR_BYTES = 60;
  localparam int unsigned UDP_HDR_BYTES  = 8;
  localparam int unsigned ARP_PKT_BYTES  = 28;

  typedef struct packed {
    logic [47:0] dst_mac;
    logic [47:0] src_mac;
    logic [15:0] ethertype;
  } eth_hdr_t;

  typedef struct packed {
    logic [3:0]  version;
    logic [3:0]  ihl;
    logic [7:0]  tos;
    logic [15:0] total_len;
    logic [15:0] id;
    logic [2:0]  flags;      // {reserved, DF, MF}
    logic [12:0] frag_off;
    logic [7:0]  ttl;
    logic [7:0]  protocol;
    logic [15:0] checksum;
    logic [31:0] src_ip;
    logic [31:0] dst_ip;
  } ipv4_hdr_t;

  typedef struct packed {
    logic [15:0] src_port;
    logic [15:0] dst_port;
    logic [15:0] length;
    logic [15:0] checksum;
  } udp_hdr_t;

  typedef struct packed {
    logic [15:0] htype;
    logic [15:0] ptype;
    logic [7:0]  hlen;
    logic [7:0]  plen;
    logic [15:0] oper;
    logic [47:0] sha;
    logic [31:0] spa;
    logic [47:0] tha;
    logic [31:0] tpa;
  } arp_pkt_t;

  // UDP application metadata, one per datagram, both directions.
  // RX: remote = sender; TX: remote = destination. length = payload bytes.
  typedef struct packed {
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;
    logic [15:0] length;
  } udp_meta_t;
  localparam int unsigned UDP_META_W = $bits(udp_meta_t);

  // Listen request / response (app <-> engine), for UDP and TCP ports alike.
  typedef struct packed {
    logic [15:0] port;
    logic        open;   // 1 = listen, 0 = stop listening
  } listen_req_t;
  typedef struct packed {
    logic [15:0] port;
    logic        ok;     // 0 = table full (open) or port not listening (close)
  } listen_rsp_t;
  typedef listen_req_t udp_listen_req_t;
  typedef listen_rsp_t udp_listen_rsp_t;

  // What a layer hands to IPv4 TX with every frame (sideband on each beat).
  typedef struct packed {
    logic [31:0] dst_ip;
    logic [7:0]  protocol;
    logic [15:0] length;   // IP payload bytes
  } ip_tx_meta_t;
  localparam int unsigned IP_TX_META_W = $bits(ip_tx_meta_t);

  // What IPv4 RX hands up with every frame (sideband on each beat): the raw 20-byte
  // base header (options are skipped), whether it was addressed to a broadcast address,
  // and the payload length.
  typedef struct packed {
    logic [159:0] raw_hdr;    // stream byte order (byte 0 at [7:0])
    logic         broadcast;
    logic [15:0]  length;     // IP payload bytes
  } ip_rx_meta_t;
  localparam int unsigned IP_RX_META_W = $bits(ip_rx_meta_t);

  // Byte vector (byte k at [8k+:8]) <-> packed big-endian value (byte 0 in the MSBs).
  function automatic logic [159:0] swap20(input logic [159:0] v);
    for (int k = 0; k < 20; k++) swap20[8*(19-k) +: 8] = v[8*k +: 8];
  endfunction
  function automatic logic [223:0] swap28(input logic [223:0] v);
    for (int k = 0; k < 28; k++) swap28[8*(27-k) +: 8] = v[8*k +: 8];
  endfunction
  function automatic logic [111:0] swap14(input logic [111:0] v);
    for (int k = 0; k < 14; k++) swap14[8*(13-k) +: 8] = v[8*k +: 8];
  endfunction
  function automatic logic [63:0] swap8(input logic [63:0] v);
    for (int k = 0; k < 8; k++) swap8[8*(7-k) +: 8] = v[8*k +: 8];
  endfunction

  function automatic eth_hdr_t  eth_unpack (input logic [111:0] b); return eth_hdr_t'(swap14(b)); endfunction
  function automatic logic [111:0] eth_pack(input eth_hdr_t h);   return swap14(h); endfunction
  function automatic ipv4_hdr_t ipv4_unpack(input logic [159:0] b); return ipv4_hdr_t'(swap20(b)); endfunction
  function automatic logic [159:0] ipv4_pack(input ipv4_hdr_t h); return swap20(h); endfunction
  function automatic udp_hdr_t  udp_unpack (input logic [63:0] b);  return udp_hdr_t'(swap8(b)); endfunction
  function automatic logic [63:0] udp_pack(input udp_hdr_t h);    return swap8(h); endfunction
  function automatic arp_pkt_t  arp_unpack (input logic [223:0] b); return arp_pkt_t'(swap28(b)); endfunction
  function automatic logic [223:0] arp_pack(input arp_pkt_t h);   return swap28(h); endfunction

  // Ones'-complement helpers. Sums are carried wide and folded at the end.
  function automatic logic [15:0] csum_fold(input logic [31:0] s);
    logic [16:0] t;
    t = {1'b0, s[15:0]} + {1'b0, s[31:16]};
    return t[15:0] + {15'd0, t[16]};
  endfunction
  // csum_fold(s) == 16'hFFFF (a received checksum verifies) without the fold's two adds:
  // the first fold's 17-bit sum lo + hi is FFFF (then hi = ~lo, no carry) or 1FFFE (then
  // lo = hi = FFFF); the second fold changes neither. Bitwise compares only, no carry chain.
  function automatic logic csum_verifies(input logic [31:0] s);
    return s[15:0] == ~s[31:16] || &s;
  endfunction

  // Register stages (toe_axis_csum LATENCY) of a checksum over a stream whose verdict
  // decides a frame (TCP RX parser, UDP RX, ICMP echo) or fills a header (TCP TX engine):
  // two above 128 bits, where a tree of 16 or 32 words and the fold do not fit a cycle
  // beside the rest; one at 64 bits (the beat's sum registered: without it the sum, the
  // fold and a frame FIFO's commit made one 15-16 LUT path).
  function automatic int unsigned csum_latency(input int unsigned data_w);
    return data_w > 128 ? 2 : 1;
  endfunction

endpackage
