// SPDX-License-Identifier: Apache-2.0
// toe_tcp_tx_engine: builds the segments the protocol core asks for. For each command it
// reads the payload [seq, seq+length) from the session's TX ring (through a ring reader
// job; up to the reader's JOBS_AHEAD commands are in flight), sums it while it fills a
// store-and-forward FIFO, and then sends the 20-byte header with the checksum (pseudo-
// header + header + payload) in front of it, with ip_tx_meta_t on tuser[IP_TX_META_W:1].
// A command with mss != 0 (a SYN or SYN-ACK; it has no payload: asserted) carries the
// MSS option (data offset 6).
// Header-only fast path: a command without payload or FIN (a pure ACK, a window or
// keepalive probe, an RST, a SYN or SYN-ACK with its option) reads no ring and does not
// wait behind the data segments whose payload is still being read: it has its own queue,
// and between two segments the output takes the next header-only one and the next data
// segment in turn. Such a segment may overtake a data segment commanded before it: its
// ACK and window are newer, and the data segment's older ones are ones the peer has
// already had or ignores (RFC 9293 3.10.7.4: SND.WL1/WL2); a SYN or SYN-ACK is sent
// only in SYN-SENT or SYN-RECEIVED, where its session has no data or FIN segment to
// overtake (before stop 69 it took the data path: 3 cycles more on every open). FINs
// occupy sequence space behind the data and stay in order with it. Data and FIN
// segments leave in command order, and so do header-only ones.
// Timing: payload is store-and-forward (the checksum leads the segment); one beat per
// cycle; FIFO_BYTES must hold at least two largest segments for back-to-back streaming.
// The header's share of the checksum (pseudo-header and header fields) is summed when a
// command is queued, unfolded (HDR_SUM_W bits: folded in front of the queues, it made the
// command's way into them 12 LUT levels at 512 bits, stop 43), in two steps: its 15 terms
// compressed to two words (toe_csa_tree, no carry chain) as the command is taken, and the
// two added (one carry chain) from a register per queue into the queue (summed in one
// step, 4 carry chains from the protocol core's queue into these, the longest path at
// 512 bits in Yosys' cell-delay model: 3.54 ns, stop 57). The queues pass a command into
// an empty queue straight to their output (BYPASS), so a command is readable two cycles
// after it was taken, as before the register. A data (SYN, FIN) segment's
// share seeds its payload's checksum (pipelined, CSUM_LATENCY stages: csum_latency, see
// toe_axis_csum), whose running sum is registered unfolded and folded into the checksum
// field behind the register; the fields join their commands in the header queue's order,
// so nothing is added between the queues and the output (the header's share and the
// payload's sum added and folded there were three carry chains into the output, 3.62 ns
// at 512 bits, stop 52). A header-only segment's field is its share, folded at the
// queue's output. The segment leaves through a register slice.
module toe_tcp_tx_engine
  import toe_pkg::*;
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W     = 64,
  parameter int unsigned RING_BYTES = 65536,
  parameter int unsigned FIFO_BYTES = 4096,   // payload FIFO; > the largest segment
  parameter int unsigned CMD_AHEAD  = 8       // commands between read issue and payload
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [31:0]           cfg_ip,
  input  logic [47:0]           cfg_mem_base,
  input  logic                  s_cmd_valid,
  output logic                  s_cmd_ready,
  input  tcp_tx_cmd_t           s_cmd,
  // TX ring reader
  output logic                  m_rd_job_valid,
  input  logic                  m_rd_job_ready,
  output tcp_ring_job_t         m_rd_job,
  input  logic [DATA_W-1:0]     s_rd_tdata,
  input  logic [DATA_W/8-1:0]   s_rd_tkeep,
  input  logic                  s_rd_tvalid,
  output logic                  s_rd_tready,
  input  logic                  s_rd_tlast,
  // segments to IPv4 TX
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic [IP_TX_META_W:0] m_axis_tuser,
  output logic                  stat_out_segs
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned HDR_TERMS = 14;
  localparam int unsigned HDR_SUM_W = 16 + $clog2(HDR_TERMS);   // the header's 16-bit terms, summed unfolded

  // ---- issue: header-only commands to their own queue; else start the payload read and
  // remember the command; each through its own register (below), so a header-only command
  // is not held behind a data command waiting for room ----
  logic pend_ready, pend_valid, pend_pop;
  tcp_tx_cmd_t pend;
  logic [HDR_SUM_W-1:0] pend_hdr_sum;   // its header's share of the checksum (unfolded)
  wire header_only = s_cmd.length == '0 && !s_cmd.flags[F_FIN];
  wire needs_read = s_cmd.length != '0;
  logic hof_ready, hof_valid, hof_pop;
  tcp_tx_cmd_t hof_cmd;
  logic [HDR_SUM_W-1:0] hof_hdr_sum;
  // a command taken and its header's share in carry-save form, before its queue
  typedef struct packed {
    tcp_tx_cmd_t          cmd;
    logic [HDR_SUM_W-1:0] hdr_s, hdr_c;
  } staged_t;
  staged_t taken, pend_in_reg, hof_in_reg;
  logic pend_in_valid_reg, hof_in_valid_reg;
  wire pend_in_free = !pend_in_valid_reg || pend_ready;   // empty, or moves into its queue now
  wire hof_in_free = !hof_in_valid_reg || hof_ready;
  assign s_cmd_ready = header_only ? hof_in_free : pend_in_free && (!needs_read || m_rd_job_ready);
  assign m_rd_job_valid = s_cmd_valid && needs_read && pend_in_free;
  assign m_rd_job = '{session: s_cmd.session, tag: 3'd0,
                      base: ring_base(cfg_mem_base, s_cmd.session, 1'b1, RING_BYTES),
                      offset: s_cmd.seq, length: 17'(s_cmd.length), skip: '0, reassembled: '0};
  // the MSS option's 4 bytes (kind 2, length 4, the MSS) in stream order, none without one
  // (the header-only beat's payload)
  function automatic logic [31:0] mss_option(input logic [15:0] mss);
    return mss != '0 ? {mss[7:0], mss[15:8], 8'd4, 8'd2} : '0;
  endfunction
  // The checksum's share of the pseudo-header, the header fields and the MSS option (both
  // queues keep it): the output adds the payload's and folds.
  // The pseudo-header's TCP length (header, option, payload: below 2^16) is two terms, the
  // header's bytes and the payload's length: their sum in the tree, not a carry chain in
  // front of it. The protocol, the header's bytes and the option's first word (kind 2,
  // length 4) are constants chosen by one bit: one term; the option's second word (the
  // MSS) shares a term with the payload's length, which is 0 when there is an option
  // (asserted below): their OR is their sum. (With 17 or 16 terms the tree was 13 LUT
  // levels at 64 bits, 12 with 14; stop 69.)
  function automatic logic [HDR_TERMS*16-1:0] hdr_terms(input tcp_tx_cmd_t c);
    return {cfg_ip[31:16], cfg_ip[15:0], c.remote_ip[31:16], c.remote_ip[15:0],
            c.mss != '0 ? 16'(32'(IP_PROTO_TCP) + TCP_HDR_BYTES + 4 + 32'h0204) : 16'(32'(IP_PROTO_TCP) + TCP_HDR_BYTES),
            c.length | c.mss,
            c.local_port, c.remote_port, c.seq[31:16], c.seq[15:0], c.ack[31:16], c.ack[15:0],
            {c.mss != '0 ? 4'd6 : 4'd5, 4'd0, c.flags}, c.window};
  endfunction
  assign taken.cmd = s_cmd;
  toe_csa_tree #(.N(HDR_TERMS), .IN_W(16), .OUT_W(HDR_SUM_W)) u_cmd_hdr_sum (
    .terms(hdr_terms(s_cmd)), .sum_s(taken.hdr_s), .sum_c(taken.hdr_c));
  always_ff @(posedge clk) begin
    if (pend_in_free) begin
      pend_in_valid_reg <= s_cmd_valid && s_cmd_ready && !header_only;
      pend_in_reg <= taken;
    end
    if (hof_in_free) begin
      hof_in_valid_reg <= s_cmd_valid && header_only;
      hof_in_reg <= taken;
    end
    if (rst) {pend_in_valid_reg, hof_in_valid_reg} <= 2'b00;
  end
  toe_fifo #(.WIDTH(TCP_TX_CMD_W + HDR_SUM_W), .DEPTH(CMD_AHEAD), .BYPASS(1'b1)) u_pending (
    .clk, .rst, .s_data({pend_in_reg.cmd, pend_in_reg.hdr_s + pend_in_reg.hdr_c}), .s_valid(pend_in_valid_reg),
    .s_ready(pend_ready), .commit(1'b0), .rewind(1'b0), .m_data({pend, pend_hdr_sum}), .m_valid(pend_valid),
    .m_ready(pend_pop),
    .uncommitted()
  );
  toe_fifo #(.WIDTH(TCP_TX_CMD_W + HDR_SUM_W), .DEPTH(8), .BYPASS(1'b1)) u_header_only (
    .clk, .rst, .s_data({hof_in_reg.cmd, hof_in_reg.hdr_s + hof_in_reg.hdr_c}), .s_valid(hof_in_valid_reg),
    .s_ready(hof_ready), .commit(1'b0), .rewind(1'b0), .m_data({hof_cmd, hof_hdr_sum}), .m_valid(hof_valid),
    .m_ready(hof_pop),
    .uncommitted()
  );
`ifndef SYNTHESIS
  // the two words are the header's share: the sum of its terms (exact in HDR_SUM_W bits)
  always @(posedge clk) if (!rst && s_cmd_valid && s_cmd_ready) begin
    logic [HDR_TERMS*16-1:0] t;
    logic [HDR_SUM_W-1:0] want;
    t = hdr_terms(s_cmd);
    want = '0;
    for (int i = 0; i < HDR_TERMS; i++) want += HDR_SUM_W'(t[16*i +: 16]);
    assert (HDR_SUM_W'(taken.hdr_s + taken.hdr_c) == want)
      else $error("toe_tcp_tx_engine: header share %0h, terms sum to %0h", taken.hdr_s + taken.hdr_c, want);
    assert (s_cmd.mss == '0 || s_cmd.length == '0)
      else $error("toe_tcp_tx_engine: a command with the MSS option and payload (the option goes header-only)");
  end
`endif

  // ---- payload: ring bytes, or nothing (a FIN's: one empty beat) ----
  logic [DATA_W-1:0] pl_tdata;
  logic [W-1:0] pl_tkeep;
  logic pl_tvalid, pl_tready, pl_tlast;
  wire from_ring = pend.length != '0;
  always_comb begin
    pl_tdata = s_rd_tdata;
    pl_tkeep = s_rd_tkeep;
    pl_tlast = s_rd_tlast;
    pl_tvalid = pend_valid && s_rd_tvalid;
    if (!from_ring) begin
      pl_tdata = '0;
      pl_tkeep = '0;
      pl_tlast = 1'b1;
      pl_tvalid = pend_valid;
    end
  end
  assign s_rd_tready = pend_valid && from_ring && pl_tready;
  wire pl_take = pl_tvalid && pl_tready;
  assign pend_pop = pl_take && pl_tlast;

  // the TCP checksum field of an unfolded sum (header's share and payload)
  function automatic logic [15:0] checksum_field(input logic [31:0] sum);
    return ~csum_fold(sum);
  endfunction
  localparam int unsigned CSUM_LATENCY = csum_latency(DATA_W);
  logic [31:0] pl_sum_wide;   // the header's share and the payload's sum, unfolded, registered
  logic pl_sum_valid;
  toe_axis_csum #(.DATA_W(DATA_W), .LATENCY(CSUM_LATENCY), .OUT_REG(1'b1)) u_csum (
    .clk, .rst, .tdata(pl_tdata), .tkeep(pl_tkeep), .beat(pl_take), .tlast(pl_tlast),
    .start(16'd0), .seed(32'(pend_hdr_sum)), .sum(), .sum_wide(pl_sum_wide), .sum_ok(), .sum_valid(pl_sum_valid)
  );

  // ---- store and forward; the command is queued when the payload is complete, and its
  // checksum field CSUM_LATENCY + 1 cycles later in a queue as deep (never fuller than the
  // command queue: a field is pushed after its command and popped with it) ----
  logic hdr_ready, hdr_valid, hdr_pop, hsum_ready, hsum_valid;
  tcp_tx_cmd_t hcmd;
  logic [15:0] hsum;          // the head segment's checksum field
  logic [DATA_W-1:0] sf_tdata;
  logic [W-1:0] sf_tkeep;
  logic sf_tvalid, sf_tready, sf_tlast, fifo_ready;
  assign pl_tready = fifo_ready && hdr_ready;
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(1), .DEPTH(FIFO_BYTES / W), .FRAME(1'b1)) u_sf (
    .clk, .rst,
    .s_axis_tdata(pl_tdata), .s_axis_tkeep(pl_tkeep), .s_axis_tvalid(pl_tvalid && hdr_ready),
    .s_axis_tready(fifo_ready), .s_axis_tlast(pl_tlast), .s_axis_tuser(1'b0),
    .m_axis_tdata(sf_tdata), .m_axis_tkeep(sf_tkeep), .m_axis_tvalid(sf_tvalid),
    .m_axis_tready(sf_tready), .m_axis_tlast(sf_tlast), .m_axis_tuser(),
    .drop_bad(), .drop_full()
  );
  toe_fifo #(.WIDTH(TCP_TX_CMD_W), .DEPTH(16)) u_hdr (
    .clk, .rst, .s_data(pend), .s_valid(pend_pop), .s_ready(hdr_ready),
    .commit(1'b0), .rewind(1'b0), .m_data(hcmd), .m_valid(hdr_valid), .m_ready(hdr_pop),
    .uncommitted()
  );
  // the running sum is registered unfolded before its queue (OUT_REG) and folded behind the
  // register (the running sum and the fold in one cycle: 4.25 ns at 512 bits), and the
  // queue hands a field to an empty output the next cycle (BYPASS): a field is there when
  // the sum was before the register
  toe_fifo #(.WIDTH(16), .DEPTH(16), .BYPASS(1'b1)) u_hsum (
    .clk, .rst, .s_data(checksum_field(pl_sum_wide)), .s_valid(pl_sum_valid), .s_ready(hsum_ready),
    .commit(1'b0), .rewind(1'b0), .m_data(hsum), .m_valid(hsum_valid), .m_ready(hdr_pop),
    .uncommitted()
  );
`ifndef SYNTHESIS
  always @(posedge clk) if (!rst) begin
    assert (!(pl_sum_valid && !hsum_ready)) else $error("toe_tcp_tx_engine: payload sum queue overflow");
    assert (!(hdr_pop && !hsum_valid)) else $error("toe_tcp_tx_engine: a segment left without its payload sum");
  end
`endif

  // ---- the next segment: a data (or FIN) one or a header-only one (one beat: its option's
  // 4 bytes or none),
  // in turn when both wait (toe_axis_arb_mux: a whole segment at a time); the command and
  // the checksum ride on tuser ----
  localparam int unsigned SEG_USER_W = TCP_TX_CMD_W + 16;
  logic [1:0] arb_tready;
  logic [DATA_W-1:0] ins_tdata;
  logic [W-1:0] ins_tkeep;
  logic ins_valid, ins_ready, ins_last;
  tcp_tx_cmd_t seg_cmd;
  logic [15:0] seg_checksum;
  toe_axis_arb_mux #(.N(2), .DATA_W(DATA_W), .USER_W(SEG_USER_W)) u_arb (
    .clk, .rst,
    .s_axis_tdata({DATA_W'(mss_option(hof_cmd.mss)), sf_tdata}),
    .s_axis_tkeep({hof_cmd.mss != '0 ? W'(4'hF) : W'(0), sf_tkeep}),
    .s_axis_tvalid({hof_valid, sf_tvalid && hdr_valid && hsum_valid}), .s_axis_tready(arb_tready),
    .s_axis_tlast({1'b1, sf_tlast}),
    .s_axis_tuser({{hof_cmd, checksum_field(32'(hof_hdr_sum))}, {hcmd, hsum}}),
    .m_axis_tdata(ins_tdata), .m_axis_tkeep(ins_tkeep), .m_axis_tvalid(ins_valid), .m_axis_tready(ins_ready),
    .m_axis_tlast(ins_last), .m_axis_tuser({seg_cmd, seg_checksum})
  );
  assign sf_tready = arb_tready[0] && hdr_valid && hsum_valid;
  assign hdr_pop = sf_tvalid && sf_tready && sf_tlast;
  assign hof_pop = arb_tready[1];

  // ---- header with checksum (the header's share and the payload's) ----
  wire [15:0] tcp_len = 16'(TCP_HDR_BYTES) + (seg_cmd.mss != '0 ? 16'd4 : 16'd0) + seg_cmd.length;
  tcp_hdr_t h;
  always_comb begin
    h = '0;
    h.src_port = seg_cmd.local_port;
    h.dst_port = seg_cmd.remote_port;
    h.seq = seg_cmd.seq;
    h.ack = seg_cmd.ack;
    h.doff = seg_cmd.mss != '0 ? 4'd6 : 4'd5;
    h.flags = seg_cmd.flags;
    h.window = seg_cmd.window;
    h.checksum = seg_checksum;
  end
  ip_tx_meta_t im;
  assign im = '{dst_ip: seg_cmd.remote_ip, protocol: IP_PROTO_TCP, length: tcp_len};

  // the segment leaves through a register slice (the header's checksum and the insert's
  // funnel are not in front of IPv4 TX's next-hop choice)
  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(IP_TX_META_W + 1), .HDR_BYTES(TCP_HDR_BYTES), .OUT_REG(1)) u_insert (
    .clk, .rst,
    .s_axis_tdata(ins_tdata), .s_axis_tkeep(ins_tkeep),
    .s_axis_tvalid(ins_valid), .s_axis_tready(ins_ready), .s_axis_tlast(ins_last), .s_axis_tuser({im, 1'b0}),
    .s_hdr(tcp_pack(h)),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );
  always_ff @(posedge clk) begin
    stat_out_segs <= ins_valid && ins_ready && ins_last;
    if (rst) stat_out_segs <= 1'b0;
  end
endmodule
