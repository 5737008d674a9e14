// SPDX-License-Identifier: Apache-2.0
// toe_udp_tx: UDP transmit. The application sends a datagram's payload with udp_meta_t
// on tuser (remote address/port, local port, length; read on the last beat). The payload
// is held in a store-and-forward FIFO while its checksum is summed, then leaves with the
// UDP header (checksum over pseudo-header, header and payload) in front. The payload's sum
// is csum_latency(DATA_W) register stages deep (toe_axis_csum): the datagram's meta waits
// beside it as long, so its side entry is written when the sum is there.
// Dropped and counted (udpOutErrors): a payload whose byte count differs from
// meta.length, longer than MAX_PAYLOAD (no fragmentation), or not packed (a beat before
// the last that is not full).
// Output: IP payload with ip_tx_meta_t on tuser[IP_TX_META_W:1], through a register slice
// (the header's checksum and the insert's funnel are not in front of IPv4 TX's next-hop
// choice).
module toe_udp_tx
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W      = 64,
  parameter int unsigned MAX_PAYLOAD = 1472,  // MTU 1500 - 20 - 8
  parameter int unsigned FIFO_BYTES  = 4096   // >= MAX_PAYLOAD + DATA_W/8
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [31:0]           cfg_ip,
  input  logic [DATA_W-1:0]     s_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_axis_tkeep,
  input  logic                  s_axis_tvalid,
  output logic                  s_axis_tready,
  input  logic                  s_axis_tlast,
  input  logic [UDP_META_W-1:0] s_axis_tuser,
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic [IP_TX_META_W:0] m_axis_tuser,
  output logic                  stat_out_datagrams,
  output logic                  stat_out_errors
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned DEPTH = FIFO_BYTES / W;
  initial if (FIFO_BYTES < MAX_PAYLOAD + W)
    $fatal(0, "toe_udp_tx: FIFO_BYTES must hold MAX_PAYLOAD (instance %m)");

  udp_meta_t meta;
  assign meta = s_axis_tuser;
  wire take = s_axis_tvalid && s_axis_tready;

  // Length check without a byte count's sum: streams are packed (every beat full but the
  // last), so the full beats before the last one are counted (beats_reg, and beats_reg + 1
  // beside it), and meta.length's high bits are compared with that count while its low
  // bits are compared, as a keep mask, with the last beat's tkeep. A non-last beat that is
  // not full marks the datagram bad (partial_reg).
  localparam int unsigned LW = $clog2(W);
  logic [15-LW:0] beats_reg, beats_next_reg;
  logic partial_reg;
  wire full = &s_axis_tkeep;
  wire [15-LW:0] len_beats = meta.length[15:LW];
  wire [LW-1:0] len_tail = meta.length[LW-1:0];
  logic [W-1:0] tail_keep;   // the tkeep of a last beat of len_tail bytes
  always_comb for (int i = 0; i < W; i++) tail_keep[i] = LW'(i) < len_tail;
  wire length_ok = full ? len_tail == '0 && len_beats == beats_next_reg
                        : len_beats == beats_reg && s_axis_tkeep == tail_keep;
  // too long is tested on the length it must equal
  wire bad = partial_reg || !length_ok || meta.length > 16'(MAX_PAYLOAD);
  logic [15:0] sum;
  logic sum_valid;
  localparam int unsigned CSUM_LATENCY = csum_latency(DATA_W);
  toe_axis_csum #(.DATA_W(DATA_W), .LATENCY(CSUM_LATENCY)) u_csum (
    .clk, .rst, .tdata(s_axis_tdata), .tkeep(s_axis_tkeep), .beat(take), .tlast(s_axis_tlast),
    .start(16'd0), .seed(32'd0), .sum, .sum_wide(), .sum_ok(), .sum_valid
  );

  // Payload FIFO and, per committed datagram, its meta and payload sum. A side entry is
  // written for each datagram the FIFO commits and read with its last beat out, so the side
  // FIFO (as deep) holds at most as many entries as the payload FIFO holds datagrams: it
  // cannot overflow, and the input does not wait for it.
  logic fifo_ready, side_ready, drop_bad;
  logic [DATA_W-1:0] f_tdata;
  logic [W-1:0] f_tkeep;
  logic f_tvalid, f_tready, f_tlast;
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(1), .DEPTH(DEPTH), .FRAME(1'b1)) u_fifo (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid,
    .s_axis_tready(fifo_ready), .s_axis_tlast, .s_axis_tuser(bad),
    .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
    .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(),
    .drop_bad, .drop_full()
  );
  assign s_axis_tready = fifo_ready;

  // A committed datagram's meta, CSUM_LATENCY cycles on, beside its payload's sum.
  logic sum_push;
  udp_meta_t sum_meta;
  toe_delay #(.WIDTH(UDP_META_W), .STAGES(CSUM_LATENCY)) u_meta_delay (
    .clk, .rst, .s_valid(take && s_axis_tlast && !bad), .s_data(meta), .m_valid(sum_push), .m_data(sum_meta));

  // The pseudo-header's and header's share of the checksum is summed from the datagram's
  // meta and kept beside the payload's sum, so the output adds only the two.
  wire [15:0] in_udp_len = sum_meta.length + 16'd8;
  logic [31:0] in_hdr_sum;
  toe_sum_tree #(.N(9), .IN_W(16), .OUT_W(32)) u_hdr_sum (
    .terms({cfg_ip[31:16], cfg_ip[15:0], sum_meta.remote_ip[31:16], sum_meta.remote_ip[15:0],
            16'(IP_PROTO_UDP), in_udp_len, sum_meta.local_port, sum_meta.remote_port, in_udp_len}),
    .sum(in_hdr_sum));

  // The checksum is made in a stage of its own before the side FIFO: the header's share
  // (folded) and the payload's sum registered, then added, folded and tested for zero into
  // the FIFO. Made at the FIFO's output, behind the block RAM's clock-to-out (2.5 ns in
  // Yosys' cell-delay model), they led the header insert: toe_top's slowest path at 64
  // bits, 5.95 ns (stop 72). A datagram leaves a cycle later when its side entry is the
  // last to come (at 64 bits, one cycle after the payload FIFO shows it).
  logic side_push_reg;
  udp_meta_t side_in_meta_reg;
  logic [15:0] side_in_sum_reg, side_in_hdr_reg;
  always_ff @(posedge clk) begin
    side_push_reg <= sum_push;
    if (sum_push) {side_in_meta_reg, side_in_sum_reg, side_in_hdr_reg} <= {sum_meta, sum, csum_fold(in_hdr_sum)};
    if (rst) side_push_reg <= 1'b0;
  end
  wire [15:0] csum_raw = ~csum_fold({15'd0, {1'b0, side_in_sum_reg} + {1'b0, side_in_hdr_reg}});
  wire [15:0] side_in_csum = csum_raw == 16'd0 ? 16'hFFFF : csum_raw;   // 0 means "none"

  udp_meta_t side_meta;
  logic [15:0] csum;
  logic side_valid;
  toe_fifo #(.WIDTH(UDP_META_W + 16), .DEPTH(DEPTH)) u_side (
    .clk, .rst,
    .s_data({side_in_meta_reg, side_in_csum}), .s_valid(side_push_reg), .s_ready(side_ready),
    .commit(1'b0), .rewind(1'b0),
    .m_data({side_meta, csum}), .m_valid(side_valid),
    .m_ready(f_tvalid && f_tready && f_tlast), .uncommitted()
  );

  wire [15:0] udp_len = side_meta.length + 16'd8;
  udp_hdr_t uh;
  assign uh = '{src_port: side_meta.local_port, dst_port: side_meta.remote_port,
                length: udp_len, checksum: csum};
  ip_tx_meta_t im;
  assign im = '{dst_ip: side_meta.remote_ip, protocol: IP_PROTO_UDP, length: udp_len};

  // A datagram leaves once both its payload and its side entry are there.
  logic ins_ready;
  assign f_tready = ins_ready && side_valid;
  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(IP_TX_META_W + 1), .HDR_BYTES(UDP_HDR_BYTES), .OUT_REG(1)) u_insert (
    .clk, .rst,
    .s_axis_tdata(f_tdata), .s_axis_tkeep(f_tkeep), .s_axis_tvalid(f_tvalid && side_valid),
    .s_axis_tready(ins_ready), .s_axis_tlast(f_tlast), .s_axis_tuser({im, 1'b0}),
    .s_hdr(udp_pack(uh)),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );

  always_ff @(posedge clk) begin
    stat_out_datagrams <= f_tvalid && f_tready && f_tlast;   // its last beat into the insert
    stat_out_errors <= drop_bad;
    if (take) begin
      beats_reg <= s_axis_tlast ? '0 : beats_next_reg;
      beats_next_reg <= s_axis_tlast ? (16-LW)'(1) : beats_next_reg + 1'b1;
      partial_reg <= !s_axis_tlast && (partial_reg || !full);
    end
    if (rst) begin
      beats_reg <= '0;
      beats_next_reg <= (16-LW)'(1);
      partial_reg <= 1'b0;
      stat_out_datagrams <= 1'b0;
      stat_out_errors <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // the payload's sum is there with its datagram's side entry, and the side FIFO has room
  always @(posedge clk) if (!rst && sum_push)
    assert (sum_valid) else $error("toe_udp_tx: side entry without its payload sum");
  always @(posedge clk) if (!rst && side_push_reg)
    assert (side_ready) else $error("toe_udp_tx: side FIFO overflow");
`endif
endmodule
