// SPDX-License-Identifier: Apache-2.0
// toe_udp_rx: UDP receive (RFC 768, RFC 1122 4.1.3). Splits off the 8-byte header, cuts
// the payload to the UDP length, verifies the checksum (a zero checksum field means none)
// and delivers datagrams for listened ports to the application with udp_meta_t on tuser
// (valid on every beat). Datagrams are verified in a store-and-forward FIFO; an
// application that does not read loses datagrams (counted), never blocks the engine.
// Dropped and counted: UDP length < 8 or beyond the IP payload, bad checksum
// (udpInErrors); closed port (udpNoPorts: a port-unreachable request is raised for
// good, unicast datagrams with a 20-byte IP header); FIFO full (udpInOverflows).
// Listen table: UDP_PORTS entries, opened and closed through listen_req/listen_rsp.
// Timing: the checksum has csum_latency(DATA_W) register stages, with the datagram beside it
// (toe_axis_csum_stream); the frame FIFO takes every beat (it drops whole datagrams).
module toe_udp_rx
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W     = 64,
  parameter int unsigned UDP_PORTS  = 8,     // listen table entries
  parameter int unsigned FIFO_BYTES = 8192
) (
  input  logic                  clk,
  input  logic                  rst,
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
  output logic [UDP_META_W-1:0] m_axis_tuser,
  input  logic                  listen_req_valid,
  output logic                  listen_req_ready,
  input  udp_listen_req_t       listen_req,
  output logic                  listen_rsp_valid,
  input  logic                  listen_rsp_ready,
  output udp_listen_rsp_t       listen_rsp,
  output logic                  unreach_valid,
  output logic [159:0]          unreach_ip_hdr,
  output logic [63:0]           unreach_l4_hdr,
  output logic                  stat_in_datagrams,
  output logic                  stat_no_ports,
  output logic                  stat_in_errors,
  output logic                  stat_in_overflows
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned TW = 32 + 64 + IP_RX_META_W + 2;   // {seed, udp hdr, open, ip meta, bad}

  // ---- listen table ----
  logic [15:0] query_port;
  logic is_open;
  toe_listen_table #(.ENTRIES(UDP_PORTS)) u_listen (
    .clk, .rst, .listen_req_valid, .listen_req_ready, .listen_req, .listen_rsp_valid,
    .listen_rsp_ready, .listen_rsp, .query_port, .query_hit(is_open)
  );

  // ---- header ----
  logic [DATA_W-1:0] pl_tdata;
  logic [W-1:0] pl_tkeep;
  logic pl_tvalid, pl_tready, pl_tlast, short_frame;
  logic [IP_RX_META_W:0] pl_tuser;
  logic [63:0] hdr_bytes;
  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(IP_RX_META_W + 1), .MAX_HDR_BYTES(UDP_HDR_BYTES)) u_extract (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast, .s_axis_tuser,
    .s_hdr_len(4'(UDP_HDR_BYTES)),
    .m_axis_tdata(pl_tdata), .m_axis_tkeep(pl_tkeep), .m_axis_tvalid(pl_tvalid),
    .m_axis_tready(pl_tready), .m_axis_tlast(pl_tlast), .m_axis_tuser(pl_tuser),
    .m_hdr(hdr_bytes), .short_frame
  );
  ip_rx_meta_t ipm;
  udp_hdr_t uh;
  assign ipm = pl_tuser[IP_RX_META_W:1];
  assign uh = udp_unpack(hdr_bytes);
  wire len_error = uh.length < 16'd8 || uh.length > ipm.length;
  assign query_port = uh.dst_port;

  // ---- the checksum's seed (pseudo-header + UDP header, checksum field included), summed
  // beside the header and registered with the trim ----
  ipv4_hdr_t iph;
  assign iph = ipv4_unpack(ipm.raw_hdr);
  logic [31:0] seed_in;
  toe_sum_tree #(.N(10), .IN_W(16), .OUT_W(32)) u_seed (
    .terms({iph.src_ip[31:16], iph.src_ip[15:0], iph.dst_ip[31:16], iph.dst_ip[15:0],
            16'(IP_PROTO_UDP), uh.length, uh.src_port, uh.dst_port, uh.length, uh.checksum}),
    .sum(seed_in));

  // ---- trim to the UDP length, then checksum ----
  logic [DATA_W-1:0] tr_tdata;
  logic [W-1:0] tr_tkeep;
  logic tr_tvalid, tr_tready, tr_tlast;
  logic [TW-1:0] tr_tuser;
  toe_axis_trim #(.DATA_W(DATA_W), .USER_W(TW)) u_trim (
    .clk, .rst,
    .s_axis_tdata(pl_tdata), .s_axis_tkeep(pl_tkeep), .s_axis_tvalid(pl_tvalid),
    .s_axis_tready(pl_tready), .s_axis_tlast(pl_tlast),
    .s_axis_tuser({seed_in, hdr_bytes, is_open, ipm, pl_tuser[0] | len_error}),
    .s_len(uh.length - 16'd8),   // a length error is marked bad on tuser[0]: its frame is dropped whole
    .m_axis_tdata(tr_tdata), .m_axis_tkeep(tr_tkeep), .m_axis_tvalid(tr_tvalid),
    .m_axis_tready(tr_tready), .m_axis_tlast(tr_tlast), .m_axis_tuser(tr_tuser),
    .short_frame()
  );
  logic [31:0] seed;
  assign seed = tr_tuser[TW-1 -: 32];

  // ---- the datagram beside its checksum (the FIFO takes every beat: it drops whole frames
  // when full), so that the verdict rides on the last beat into the FIFO's commit ----
  localparam int unsigned CW = TW - 32;   // {udp hdr, open, ip meta, bad}
  logic [DATA_W-1:0] c_tdata;
  logic [W-1:0] c_tkeep;
  logic c_tvalid, c_tlast;
  logic [CW-1:0] c_tuser;
  logic sum_ok;
  toe_axis_csum_stream #(.DATA_W(DATA_W), .USER_W(CW), .LATENCY(csum_latency(DATA_W))) u_csum (
    .clk, .rst, .s_axis_tdata(tr_tdata), .s_axis_tkeep(tr_tkeep), .s_axis_tvalid(tr_tvalid),
    .s_axis_tlast(tr_tlast), .s_axis_tuser(tr_tuser[CW-1:0]), .start(16'd0), .seed,
    .m_axis_tdata(c_tdata), .m_axis_tkeep(c_tkeep), .m_axis_tvalid(c_tvalid),
    .m_axis_tlast(c_tlast), .m_axis_tuser(c_tuser), .m_sum_ok(sum_ok)
  );
  udp_hdr_t th;
  ip_rx_meta_t tm;
  ipv4_hdr_t tiph;
  assign th = udp_unpack(c_tuser[CW-1 -: 64]);
  assign tm = c_tuser[IP_RX_META_W:1];
  assign tiph = ipv4_unpack(tm.raw_hdr);
  wire t_open = c_tuser[IP_RX_META_W+1];
  wire bad = c_tuser[0] || (th.checksum != 16'd0 && !sum_ok);

  // ---- deliver open ports through the frame FIFO; consume the rest ----
  udp_meta_t am;
  assign am = '{remote_ip: tiph.src_ip, remote_port: th.src_port, local_port: th.dst_port,
                length: th.length - 16'd8};
  logic fifo_ready, drop_bad, drop_full;
  logic [UDP_META_W:0] f_tuser;
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(UDP_META_W + 1), .DEPTH(FIFO_BYTES / W),
                  .FRAME(1'b1), .DROP_WHEN_FULL(1'b1)) u_fifo (
    .clk, .rst,
    .s_axis_tdata(c_tdata), .s_axis_tkeep(c_tkeep), .s_axis_tvalid(c_tvalid && t_open),
    .s_axis_tready(fifo_ready), .s_axis_tlast(c_tlast), .s_axis_tuser({am, bad}),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast,
    .m_axis_tuser(f_tuser), .drop_bad, .drop_full
  );
  assign m_axis_tuser = f_tuser[UDP_META_W:1];
  assign tr_tready = 1'b1;
`ifndef SYNTHESIS
  always @(posedge clk) if (!rst)
    assert (fifo_ready) else $error("toe_udp_rx: the FIFO held a beat back (instance %m)");
`endif

  wire closed_end = c_tvalid && c_tlast && !t_open;
  always_ff @(posedge clk) begin
    stat_in_datagrams <= m_axis_tvalid && m_axis_tready && m_axis_tlast;
    stat_in_errors    <= drop_bad || (closed_end && bad) || short_frame;
    stat_no_ports     <= closed_end && !bad;
    stat_in_overflows <= drop_full;
    unreach_valid     <= closed_end && !bad && !tm.broadcast && tiph.ihl == 4'd5;
    unreach_ip_hdr    <= tm.raw_hdr;
    unreach_l4_hdr    <= c_tuser[CW-1 -: 64];
    if (rst) begin
      {stat_in_datagrams, stat_in_errors, stat_no_ports, stat_in_overflows, unreach_valid} <= '0;
    end
  end
endmodule
