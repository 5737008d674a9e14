// SPDX-License-Identifier: Apache-2.0
// toe_ipv4_rx: IPv4 receive (RFC 791 / RFC 1122 host rules). Splits off the header
// (IHL-derived length, 20..60 bytes; options are skipped), cuts the payload to the total
// length (drops Ethernet padding) and sends it to m_icmp, m_udp or m_tcp with ip_rx_meta_t on
// tuser[IP_RX_META_W:1] (tuser[0] = bad frame, on the last beat).
// Dropped and counted at the header: version != 4, IHL < 5, header checksum wrong, total
// length shorter than the header (all ipInHdrErrors), destination neither our address
// nor a broadcast, and TCP to a broadcast address (ipInAddrErrors), fragments (ipReasmReqds:
// no reassembly), protocols other than ICMP, UDP and TCP (ipInUnknownProtos: answered with
// ICMP protocol unreachable through unreach_*, RFC 1122 3.2.2.1, unless the datagram went to
// a broadcast address or carries IP options; the quote is the 20-byte header and up to 8
// payload bytes, zero-filled past the datagram's end). A frame shorter than its
// total length is forwarded marked bad and counted (ipInTruncatedPkts), so the
// consumer's frame FIFO drops it. A frame shorter than its header counts as a header error.
// Timing: three register stages: after the header split; after the header checks (the
// checksum's sum in two halves, the address, protocol and length checks); toe_axis_trim's.
// The halves' sum, the checksum's fold and the verdict sit between the last two.
module toe_ipv4_rx
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W = 64
) (
  input  logic                    clk,
  input  logic                    rst,
  input  logic [31:0]             cfg_ip,
  input  logic [31:0]             cfg_netmask,
  input  logic [DATA_W-1:0]       s_axis_tdata,
  input  logic [DATA_W/8-1:0]     s_axis_tkeep,
  input  logic                    s_axis_tvalid,
  output logic                    s_axis_tready,
  input  logic                    s_axis_tlast,
  input  logic                    s_axis_tuser,
  output logic [DATA_W-1:0]       m_axis_tdata,
  output logic [DATA_W/8-1:0]     m_axis_tkeep,
  output logic                    m_axis_tlast,
  output logic [IP_RX_META_W:0]   m_axis_tuser,
  output logic                    m_icmp_axis_tvalid,
  input  logic                    m_icmp_axis_tready,
  output logic                    m_udp_axis_tvalid,
  input  logic                    m_udp_axis_tready,
  output logic                    m_tcp_axis_tvalid,
  input  logic                    m_tcp_axis_tready,
  output logic                    unreach_valid,      // one-cycle request: protocol unreachable
  output logic [159:0]            unreach_ip_hdr,     // the datagram's header, stream byte order
  output logic [63:0]             unreach_l4_hdr,     // its first 8 payload bytes
  output logic                    stat_in_receives,
  output logic                    stat_in_hdr_errors,
  output logic                    stat_in_addr_errors,
  output logic                    stat_in_truncated,
  output logic                    stat_reasm_reqds,
  output logic                    stat_in_unknown_protos,
  output logic                    stat_in_delivers
);
  localparam int unsigned MAXB = IPV4_MAX_HDR_BYTES;

  logic [DATA_W-1:0] ex_tdata, pl_tdata;
  logic [DATA_W/8-1:0] ex_tkeep, pl_tkeep;
  logic ex_tvalid, ex_tready, ex_tlast, ex_tuser, pl_tvalid, pl_tready, pl_tlast, pl_tuser, short_frame;
  logic [8*MAXB-1:0] ex_hdr, hdr_bytes;

  // Header length from the IHL nibble of byte 0 (at least 20, so a bad IHL still parses).
  wire [3:0] ihl_in = s_axis_tdata[3:0];
  wire [5:0] hdr_len = ihl_in < 4'd5 ? 6'd20 : {ihl_in, 2'b00};

  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(1), .MAX_HDR_BYTES(MAXB), .LEN_GRAN(4)) u_extract (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast, .s_axis_tuser,
    .s_hdr_len(hdr_len),
    .m_axis_tdata(ex_tdata), .m_axis_tkeep(ex_tkeep), .m_axis_tvalid(ex_tvalid),
    .m_axis_tready(ex_tready), .m_axis_tlast(ex_tlast), .m_axis_tuser(ex_tuser),
    .m_hdr(ex_hdr), .short_frame
  );

  // Register the realigned stream and its header: the checks below start from flops.
  toe_axis_register #(.DATA_W(DATA_W), .USER_W(8 * MAXB + 1)) u_hdr_reg (
    .clk, .rst,
    .s_axis_tdata(ex_tdata), .s_axis_tkeep(ex_tkeep), .s_axis_tvalid(ex_tvalid),
    .s_axis_tready(ex_tready), .s_axis_tlast(ex_tlast), .s_axis_tuser({ex_hdr, ex_tuser}),
    .m_axis_tdata(pl_tdata), .m_axis_tkeep(pl_tkeep), .m_axis_tvalid(pl_tvalid),
    .m_axis_tready(pl_tready), .m_axis_tlast(pl_tlast), .m_axis_tuser({hdr_bytes, pl_tuser})
  );

  ipv4_hdr_t h;
  assign h = ipv4_unpack(hdr_bytes[159:0]);
  wire [5:0] hl = {h.ihl, 2'b00};

  // Header checksum over IHL*4 bytes: sum of the 16-bit words must fold to FFFF. The words
  // are summed in two halves (15 each: four adder levels, not five); the halves are added
  // after the register, before the check (csum_verifies).
  localparam int unsigned HALF = MAXB / 4;   // words per half
  logic [8*MAXB-1:0] hwords;
  always_comb
    for (int w = 0; w < MAXB / 2; w++)
      hwords[16*w +: 16] = w < 2 * int'(h.ihl) ? {hdr_bytes[16*w +: 8], hdr_bytes[16*w+8 +: 8]} : 16'd0;
  logic [19:0] hsum_lo, hsum_hi;
  toe_sum_tree #(.N(HALF), .IN_W(16), .OUT_W(20)) u_hsum_lo (.terms(hwords[0 +: 16*HALF]), .sum(hsum_lo));
  toe_sum_tree #(.N(HALF), .IN_W(16), .OUT_W(20)) u_hsum_hi (.terms(hwords[16*HALF +: 16*HALF]), .sum(hsum_hi));

  // The checks, registered with the stream (the checksum's sum not yet folded).
  typedef struct packed {
    logic [159:0] raw_hdr;
    logic [19:0]  hsum_lo, hsum_hi;   // the header's two halves' sums
    logic         fields_bad;   // version, IHL, total length shorter than the header
    logic         addr_error, fragment, unknown, is_tcp, is_udp, bcast, plain;   // plain: IHL 5
    logic [15:0]  length;
  } chk_t;
  chk_t chk_in, chk;
  always_comb begin
    logic bcast, is_tcp, is_udp;
    bcast = h.dst_ip == 32'hFFFF_FFFF || h.dst_ip == (cfg_ip | ~cfg_netmask);
    is_tcp = h.protocol == IP_PROTO_TCP;
    is_udp = h.protocol == IP_PROTO_UDP;
    chk_in = '{raw_hdr: hdr_bytes[159:0], hsum_lo: hsum_lo, hsum_hi: hsum_hi,
               fields_bad: h.version != 4'd4 || h.ihl < 4'd5 || h.total_len < 16'(hl),
               addr_error: !(h.dst_ip == cfg_ip || bcast) || cfg_ip == '0 || (is_tcp && bcast),
               fragment: h.flags[0] || h.frag_off != '0,
               unknown: !(h.protocol == IP_PROTO_ICMP || is_udp || is_tcp),
               is_tcp: is_tcp, is_udp: is_udp, bcast: bcast, plain: h.ihl == 4'd5,
               length: h.total_len - 16'(hl)};
  end
  logic [DATA_W-1:0] ck_tdata;
  logic [DATA_W/8-1:0] ck_tkeep;
  logic ck_tvalid, ck_tready, ck_tlast, ck_tuser;
  toe_axis_register #(.DATA_W(DATA_W), .USER_W($bits(chk_t) + 1)) u_chk_reg (
    .clk, .rst,
    .s_axis_tdata(pl_tdata), .s_axis_tkeep(pl_tkeep), .s_axis_tvalid(pl_tvalid),
    .s_axis_tready(pl_tready), .s_axis_tlast(pl_tlast), .s_axis_tuser({chk_in, pl_tuser}),
    .m_axis_tdata(ck_tdata), .m_axis_tkeep(ck_tkeep), .m_axis_tvalid(ck_tvalid),
    .m_axis_tready(ck_tready), .m_axis_tlast(ck_tlast), .m_axis_tuser({chk, ck_tuser})
  );

  wire hdr_error  = chk.fields_bad || !csum_verifies(32'(chk.hsum_lo) + 32'(chk.hsum_hi));
  wire drop       = hdr_error || chk.addr_error || chk.fragment || chk.unknown;
  wire [1:0] sel  = chk.is_tcp ? 2'd2 : (chk.is_udp ? 2'd1 : 2'd0);

  ip_rx_meta_t meta;
  assign meta = '{raw_hdr: chk.raw_hdr, broadcast: chk.bcast, length: chk.length};

  // Trim to the total length; the per-frame decision rides along on tuser.
  logic [DATA_W-1:0] tr_tdata;
  logic [DATA_W/8-1:0] tr_tkeep;
  logic tr_tvalid, tr_tready, tr_tlast, tr_short;
  logic [IP_RX_META_W+3:0] tr_tuser;   // {drop, sel, meta, bad}
  toe_axis_trim #(.DATA_W(DATA_W), .USER_W(IP_RX_META_W + 4)) u_trim (
    .clk, .rst,
    .s_axis_tdata(ck_tdata), .s_axis_tkeep(ck_tkeep), .s_axis_tvalid(ck_tvalid),
    .s_axis_tready(ck_tready), .s_axis_tlast(ck_tlast), .s_axis_tuser({drop, sel, meta, ck_tuser}),
    .s_len(meta.length),   // not gated by `drop`: the demux discards dropped frames
    .m_axis_tdata(tr_tdata), .m_axis_tkeep(tr_tkeep), .m_axis_tvalid(tr_tvalid),
    .m_axis_tready(tr_tready), .m_axis_tlast(tr_tlast), .m_axis_tuser(tr_tuser),
    .short_frame(tr_short)
  );

  logic [2:0] dm_tvalid;
  toe_axis_demux #(.N(3), .DATA_W(DATA_W), .USER_W(IP_RX_META_W + 1)) u_demux (
    .clk, .rst,
    .s_axis_tdata(tr_tdata), .s_axis_tkeep(tr_tkeep), .s_axis_tvalid(tr_tvalid),
    .s_axis_tready(tr_tready), .s_axis_tlast(tr_tlast), .s_axis_tuser(tr_tuser[IP_RX_META_W:0]),
    .sel(tr_tuser[IP_RX_META_W+2 -: 2]), .drop(tr_tuser[IP_RX_META_W+3]),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid(dm_tvalid),
    .m_axis_tready({m_tcp_axis_tready, m_udp_axis_tready, m_icmp_axis_tready}), .m_axis_tlast, .m_axis_tuser
  );
  assign m_icmp_axis_tvalid = dm_tvalid[0];
  assign m_udp_axis_tvalid  = dm_tvalid[1];
  assign m_tcp_axis_tvalid  = dm_tvalid[2];

  // A frame is counted (and answered) when its first beat is first offered, not when it is
  // taken: the verdict then does not wait for the ready chain of the protocol behind the
  // demux. The beat and its check stay on the output while they wait (AXI4-Stream).
  logic first_reg, counted_reg;   // counted: the first beat on offer was counted already
  wire head = ck_tvalid && first_reg && !counted_reg;
  always_ff @(posedge clk) begin
    counted_reg            <= ck_tvalid && first_reg && !ck_tready;
    stat_in_receives       <= head || short_frame;
    stat_in_hdr_errors     <= (head && hdr_error) || short_frame;
    stat_in_addr_errors    <= head && !hdr_error && chk.addr_error;
    stat_reasm_reqds       <= head && !hdr_error && !chk.addr_error && chk.fragment;
    stat_in_unknown_protos <= head && !hdr_error && !chk.addr_error && !chk.fragment && chk.unknown;
    unreach_valid          <= head && !hdr_error && !chk.addr_error && !chk.fragment && chk.unknown && !chk.bcast &&
                              chk.plain;
    unreach_ip_hdr         <= chk.raw_hdr;
    for (int b = 0; b < 8; b++)
      unreach_l4_hdr[8*b +: 8] <= 16'(b) < chk.length && ck_tkeep[b] ? ck_tdata[8*b +: 8] : 8'd0;
    stat_in_delivers       <= head && !drop;
    stat_in_truncated      <= tr_short && !tr_tuser[IP_RX_META_W+3];   // same beat as tr_short
    if (ck_tvalid && ck_tready) first_reg <= ck_tlast;
    if (rst) begin
      first_reg <= 1'b1;
      counted_reg <= 1'b0;
      {stat_in_receives, stat_in_hdr_errors, stat_in_addr_errors, stat_reasm_reqds,
       stat_in_unknown_protos, stat_in_delivers, stat_in_truncated, unreach_valid} <= '0;
    end
  end
endmodule
