// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rx_parse: turns the TCP segments IPv4 RX delivers (IP payload, ip_rx_meta_t on
// tuser) into one tcp_seg_t per segment on m_seg plus the payload as one frame on m_axis
// (an empty payload is one beat with tkeep = 0). The checksum (with the pseudo-header) is
// verified in a store-and-forward FIFO; then the 20-byte header and the options are split
// off (the header length comes from the data offset), and the options are walked one per
// cycle for the MSS option. Unknown options are skipped.
// Dropped and counted on stat_in_errs (tcpInErrs): bad checksum, shorter than 20 bytes or
// than its data offset, data offset < 5, an option with length < 2 or running past the
// header, an MSS option whose length is not 4. Frames that find the checksum FIFO full
// are dropped and counted on stat_overflows. stat_in_segs counts every segment received.
// Timing: registered output; a segment with options waits one cycle per option. At
// DATA_W above 128 the checksum is pipelined (CSUM_LATENCY register stages, see
// toe_axis_csum) and the segment goes through as many registers beside it, so that the
// verdict rides on its last beat into the FIFO (which always takes a beat: it drops whole
// frames when full).
module toe_tcp_rx_parse
  import toe_pkg::*;
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W        = 64,
  parameter int unsigned FIFO_BYTES    = 16384,  // checksum (store-and-forward) FIFO
  parameter int unsigned PAYLOAD_BYTES = 4096    // payload FIFO behind m_seg
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [DATA_W-1:0]     s_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_axis_tkeep,
  input  logic                  s_axis_tvalid,
  output logic                  s_axis_tready,
  input  logic                  s_axis_tlast,
  input  logic [IP_RX_META_W:0] s_axis_tuser,
  output logic                  m_seg_valid,
  input  logic                  m_seg_ready,
  output tcp_seg_t              m_seg,
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic                  stat_in_segs,
  output logic                  stat_in_errs,
  output logic                  stat_overflows
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned UW = 32 + 16 + 1;   // {src_ip, segment length, bad}

  // ---- checksum, then store-and-forward (bad frames dropped whole) ----
  ip_rx_meta_t ipm;
  ipv4_hdr_t iph;
  assign ipm = s_axis_tuser[IP_RX_META_W:1];
  assign iph = ipv4_unpack(ipm.raw_hdr);
  logic [31:0] seed;
  toe_sum_tree #(.N(6), .IN_W(16), .OUT_W(32)) u_seed (
    .terms({iph.src_ip[31:16], iph.src_ip[15:0], iph.dst_ip[31:16], iph.dst_ip[15:0],
            16'(IP_PROTO_TCP), ipm.length}),
    .sum(seed));
  localparam int unsigned CSUM_LATENCY = tcp_csum_latency(DATA_W);
  logic [15:0] sum;
  logic sum_valid;
  wire in_take = s_axis_tvalid && s_axis_tready;
  toe_axis_csum #(.DATA_W(DATA_W), .LATENCY(CSUM_LATENCY)) u_csum (
    .clk, .rst, .tdata(s_axis_tdata), .tkeep(s_axis_tkeep), .beat(in_take), .tlast(s_axis_tlast),
    .start(16'd0), .seed, .sum, .sum_valid
  );
  // the segment, CSUM_LATENCY cycles later (s_axis_tready is always 1: no beat waits)
  typedef struct packed {
    logic valid, last; logic [DATA_W-1:0] data; logic [W-1:0] keep; logic [31:0] src_ip; logic [15:0] length;
    logic bad;
  } beat_t;
  beat_t stage [CSUM_LATENCY + 1];
  assign stage[0] = '{valid: s_axis_tvalid, last: s_axis_tlast, data: s_axis_tdata, keep: s_axis_tkeep,
                      src_ip: iph.src_ip, length: ipm.length, bad: s_axis_tuser[0]};
  for (genvar k = 0; k < CSUM_LATENCY; k++) begin : g_delay
    always_ff @(posedge clk) begin
      stage[k + 1] <= stage[k];
      if (rst) stage[k + 1].valid <= 1'b0;
    end
  end
  beat_t cs;   // the beat beside its checksum
  assign cs = stage[CSUM_LATENCY];
  wire cs_bad = cs.bad || sum != 16'hFFFF;

  logic [DATA_W-1:0] cf_tdata;
  logic [W-1:0] cf_tkeep;
  logic cf_tvalid, cf_tready, cf_tlast, drop_bad, drop_full;
  logic [UW-1:0] cf_tuser;
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(UW), .DEPTH(FIFO_BYTES / W), .FRAME(1'b1),
                  .DROP_WHEN_FULL(1'b1)) u_csum_fifo (
    .clk, .rst,
    .s_axis_tdata(cs.data), .s_axis_tkeep(cs.keep), .s_axis_tvalid(cs.valid), .s_axis_tready,
    .s_axis_tlast(cs.last), .s_axis_tuser({cs.src_ip, cs.length, cs_bad}),
    .m_axis_tdata(cf_tdata), .m_axis_tkeep(cf_tkeep), .m_axis_tvalid(cf_tvalid),
    .m_axis_tready(cf_tready), .m_axis_tlast(cf_tlast), .m_axis_tuser(cf_tuser),
    .drop_bad, .drop_full
  );

`ifndef SYNTHESIS
  // the checksum of a segment comes with its last beat at the FIFO (and at no other time)
  always @(posedge clk) if (!rst) begin
    assert (sum_valid == (cs.valid && cs.last))
      else $error("toe_tcp_rx_parse: checksum out of step with its segment (instance %m)");
    assert (s_axis_tready) else $error("toe_tcp_rx_parse: the checksum FIFO held a beat back (instance %m)");
  end
`endif

  // ---- first 16 header bytes (ports, sequence numbers, data offset, flags, window) ----
  logic [DATA_W-1:0] h1_tdata;
  logic [W-1:0] h1_tkeep;
  logic h1_tvalid, h1_tready, h1_tlast, short1;
  logic [UW-1:0] h1_tuser;
  logic [127:0] h16;
  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(UW), .MAX_HDR_BYTES(16)) u_hdr16 (
    .clk, .rst,
    .s_axis_tdata(cf_tdata), .s_axis_tkeep(cf_tkeep), .s_axis_tvalid(cf_tvalid),
    .s_axis_tready(cf_tready), .s_axis_tlast(cf_tlast), .s_axis_tuser(cf_tuser),
    .s_hdr_len(5'd16),
    .m_axis_tdata(h1_tdata), .m_axis_tkeep(h1_tkeep), .m_axis_tvalid(h1_tvalid),
    .m_axis_tready(h1_tready), .m_axis_tlast(h1_tlast), .m_axis_tuser(h1_tuser),
    .m_hdr(h16), .short_frame(short1)
  );
  logic [DATA_W-1:0] r_tdata;
  logic [W-1:0] r_tkeep;
  logic r_tvalid, r_tready, r_tlast;
  logic [UW+128-1:0] r_tuser;
  toe_axis_register #(.DATA_W(DATA_W), .USER_W(UW + 128)) u_reg (
    .clk, .rst,
    .s_axis_tdata(h1_tdata), .s_axis_tkeep(h1_tkeep), .s_axis_tvalid(h1_tvalid),
    .s_axis_tready(h1_tready), .s_axis_tlast(h1_tlast), .s_axis_tuser({h16, h1_tuser}),
    .m_axis_tdata(r_tdata), .m_axis_tkeep(r_tkeep), .m_axis_tvalid(r_tvalid),
    .m_axis_tready(r_tready), .m_axis_tlast(r_tlast), .m_axis_tuser(r_tuser)
  );
  tcp_hdr_t rh;
  assign rh = tcp_unpack({32'd0, r_tuser[UW +: 128]});
  wire doff_bad = rh.doff < 4'd5;

  // ---- the rest of the header: checksum, urgent pointer, options (4..44 bytes) ----
  logic [DATA_W-1:0] h2_tdata;
  logic [W-1:0] h2_tkeep;
  logic h2_tvalid, h2_tready, h2_tlast, short2;
  logic [UW+128:0] h2_tuser;
  logic [8*44-1:0] rest;
  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(UW + 129), .MAX_HDR_BYTES(44), .LEN_GRAN(4)) u_hdr_rest (
    .clk, .rst,
    .s_axis_tdata(r_tdata), .s_axis_tkeep(r_tkeep), .s_axis_tvalid(r_tvalid),
    .s_axis_tready(r_tready), .s_axis_tlast(r_tlast), .s_axis_tuser({doff_bad, r_tuser}),
    .s_hdr_len(doff_bad ? 6'd4 : 6'({rh.doff, 2'b00} - 6'd16)),
    .m_axis_tdata(h2_tdata), .m_axis_tkeep(h2_tkeep), .m_axis_tvalid(h2_tvalid),
    .m_axis_tready(h2_tready), .m_axis_tlast(h2_tlast), .m_axis_tuser(h2_tuser),
    .m_hdr(rest), .short_frame(short2)
  );
  tcp_hdr_t hh;
  assign hh = tcp_unpack({rest[31:0], h2_tuser[UW +: 128]});
  wire [31:0] src_ip = h2_tuser[UW-1 -: 32];
  wire [15:0] seg_len = h2_tuser[16:1];
  wire h2_doff_bad = h2_tuser[UW + 128];
  wire [5:0] opt_len = h2_doff_bad ? 6'd0 : 6'({hh.doff, 2'b00} - 6'd20);
  wire [8*TCP_MAX_OPT_BYTES-1:0] opts = rest[8*44-1:32];

  // ---- option walk (on the first beat of each segment) ----
  logic head_reg, walked_reg, opt_bad_reg;
  logic [5:0] pos_reg;
  logic [15:0] mss_reg;
  wire [7:0] kind = opts[8*pos_reg +: 8];
  wire [7:0] olen = (pos_reg + 6'd1 < 6'(TCP_MAX_OPT_BYTES)) ? opts[8*(pos_reg + 6'd1) +: 8] : 8'd0;
  wire walk = h2_tvalid && head_reg && !walked_reg;
  wire walk_end = pos_reg >= opt_len || kind == 8'd0;
  // Bounds in 9 bits: an option length is 8 bits and must not be cut (a length of 0xFF
  // once wrapped the position and the walk never ended). A well-formed option advances
  // the position by 1 (NOP) or by its length >= 2 and never past opt_len, so the walk
  // ends after at most TCP_MAX_OPT_BYTES steps.
  wire opt_malformed = kind != 8'd1 && (pos_reg + 6'd1 >= opt_len || olen < 8'd2 ||
                       9'(pos_reg) + 9'(olen) > 9'(opt_len) || (kind == 8'd2 && olen != 8'd4));

  always_ff @(posedge clk) begin
    if (walk) begin
      if (walk_end || opt_malformed) begin
        walked_reg <= 1'b1;
        opt_bad_reg <= !walk_end && opt_malformed;
      end else begin
        if (kind == 8'd2) mss_reg <= {opts[8*(pos_reg + 6'd2) +: 8], opts[8*(pos_reg + 6'd3) +: 8]};
        pos_reg <= pos_reg + (kind == 8'd1 ? 6'd1 : olen[5:0]);
      end
    end
    if (h2_tvalid && h2_tready) begin
      head_reg <= h2_tlast;
      if (h2_tlast) begin
        walked_reg <= 1'b0;
        pos_reg <= '0;
        mss_reg <= '0;
        opt_bad_reg <= 1'b0;
      end
    end
    if (rst) begin
      head_reg <= 1'b1;
      walked_reg <= 1'b0;
      pos_reg <= '0;
      mss_reg <= '0;
      opt_bad_reg <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // The walk of one segment's options ends within TCP_MAX_OPT_BYTES + 1 cycles.
  int unsigned walk_cycles;
  always_ff @(posedge clk) begin
    walk_cycles <= walk ? walk_cycles + 1 : 0;
    if (!rst && walk_cycles > TCP_MAX_OPT_BYTES + 1)
      $error("toe_tcp_rx_parse: option walk did not end after %0d cycles (instance %m)", walk_cycles);
  end
`endif

  // ---- deliver good segments: meta to the segment FIFO, payload to the payload FIFO ----
  wire seg_bad = h2_doff_bad || opt_bad_reg;
  logic seg_keep_reg;   // the frame in flight (past its first beat) is delivered
  wire deliver = head_reg ? !seg_bad : seg_keep_reg;
  logic seg_fifo_ready, pl_ready;
  wire can_pass = head_reg ? (walked_reg && (seg_bad || (seg_fifo_ready && pl_ready))) :
                             (!seg_keep_reg || pl_ready);
  assign h2_tready = can_pass;
  wire pass = h2_tvalid && can_pass;
  tcp_seg_t seg;
  assign seg = '{remote_ip: src_ip, remote_port: hh.src_port, local_port: hh.dst_port,
                 seq: hh.seq, ack: hh.ack, flags: hh.flags, window: hh.window, mss: mss_reg,
                 length: seg_len - 16'({hh.doff, 2'b00})};
  always_ff @(posedge clk) begin
    if (pass && head_reg) seg_keep_reg <= !seg_bad;
    if (rst) seg_keep_reg <= 1'b0;
  end

  toe_fifo #(.WIDTH(TCP_SEG_W), .DEPTH(32)) u_seg_fifo (
    .clk, .rst, .s_data(seg), .s_valid(pass && head_reg && !seg_bad), .s_ready(seg_fifo_ready),
    .commit(1'b0), .rewind(1'b0),
    .m_data(m_seg), .m_valid(m_seg_valid), .m_ready(m_seg_ready), .uncommitted()
  );
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(1), .DEPTH(PAYLOAD_BYTES / W), .FRAME(1'b0)) u_payload_fifo (
    .clk, .rst,
    .s_axis_tdata(h2_tdata), .s_axis_tkeep(h2_tkeep), .s_axis_tvalid(pass && deliver),
    .s_axis_tready(pl_ready), .s_axis_tlast(h2_tlast), .s_axis_tuser(1'b0),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast,
    .m_axis_tuser(), .drop_bad(), .drop_full()
  );

  always_ff @(posedge clk) begin
    stat_in_segs   <= in_take && s_axis_tlast;
    stat_in_errs   <= drop_bad || short1 || short2 || (pass && head_reg && seg_bad);
    stat_overflows <= drop_full;
    if (rst) {stat_in_segs, stat_in_errs, stat_overflows} <= '0;
  end
endmodule
