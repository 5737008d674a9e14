// SPDX-License-Identifier: Apache-2.0
// toe_icmp_echo: answers ICMP echo requests (RFC 792, RFC 1122 3.2.2.6) of any size the
// FIFO holds. Input: ICMP messages from toe_ipv4_rx (ip_rx_meta_t on tuser[..:1]).
// Echo requests to a unicast address are verified (checksum, >= 8 bytes) in a
// store-and-forward FIFO and sent back with type 0 and the checksum updated
// incrementally (RFC 1624); the payload is returned unchanged. Other ICMP types and echo
// requests to broadcast addresses are dropped and counted (icmpInMsgs counts them all).
// Output: IP payload stream with ip_tx_meta_t on tuser[IP_TX_META_W:1].
// Timing: never back-pressures (s_axis_tready is 1); store-and-forward, the checksum's
// csum_latency register stages beside the message (toe_axis_csum_stream): the reply
// starts 2 + csum_latency(DATA_W) cycles after the request's last beat.
module toe_icmp_echo
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned FIFO_BYTES = 4096   // holds requests waiting to be answered
) (
  input  logic                   clk,
  input  logic                   rst,
  input  logic                   cfg_enable,
  input  logic [DATA_W-1:0]      s_axis_tdata,
  input  logic [DATA_W/8-1:0]    s_axis_tkeep,
  input  logic                   s_axis_tvalid,
  output logic                   s_axis_tready,
  input  logic                   s_axis_tlast,
  input  logic [IP_RX_META_W:0]  s_axis_tuser,
  output logic [DATA_W-1:0]      m_axis_tdata,
  output logic [DATA_W/8-1:0]    m_axis_tkeep,
  output logic                   m_axis_tvalid,
  input  logic                   m_axis_tready,
  output logic                   m_axis_tlast,
  output logic [IP_TX_META_W:0]  m_axis_tuser,
  output logic                   stat_in_msgs,
  output logic                   stat_in_echos,
  output logic                   stat_in_errors,   // bad checksum or truncated
  output logic                   stat_out_echo_reps,
  output logic                   stat_drops        // FIFO full
);
  localparam int unsigned W = DATA_W / 8;
  initial if (W < 4) $fatal(0, "toe_icmp_echo: DATA_W must be >= 32 (instance %m)");

  ip_rx_meta_t meta;
  ipv4_hdr_t   iph;
  assign meta = s_axis_tuser[IP_RX_META_W:1];
  assign iph  = ipv4_unpack(meta.raw_hdr);

  logic first_reg;
  wire take = s_axis_tvalid && s_axis_tready;
  wire [7:0] icmp_type = s_axis_tdata[7:0];
  wire [7:0] icmp_code = s_axis_tdata[15:8];
  wire is_echo = icmp_type == 8'd8 && icmp_code == 8'd0 && !meta.broadcast && cfg_enable;
  logic keep_reg;                         // this frame goes into the FIFO
  wire keep_now = first_reg ? is_echo : keep_reg;

  // the message beside its checksum (the FIFO takes every beat: it drops whole frames when
  // full), so that the verdict rides on the last beat into the FIFO's commit
  logic [DATA_W-1:0] c_tdata;
  logic [W-1:0] c_tkeep;
  logic c_tvalid, c_tlast, c_keep, c_bad_in;
  logic [47:0] c_reply;   // {src ip, length}
  logic c_sum_ok;
  toe_axis_csum_stream #(.DATA_W(DATA_W), .USER_W(50), .LATENCY(csum_latency(DATA_W))) u_csum (
    .clk, .rst, .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid(take), .s_axis_tlast,
    .s_axis_tuser({iph.src_ip, meta.length, keep_now, s_axis_tuser[0] || meta.length < 16'd8}),
    .start(16'd0), .seed(32'd0),
    .m_axis_tdata(c_tdata), .m_axis_tkeep(c_tkeep), .m_axis_tvalid(c_tvalid),
    .m_axis_tlast(c_tlast), .m_axis_tuser({c_reply, c_keep, c_bad_in}), .m_sum_ok(c_sum_ok)
  );
  wire bad = c_bad_in || !c_sum_ok;

  logic fifo_ready, drop_bad, drop_full;
  logic [DATA_W-1:0] f_tdata;
  logic [W-1:0] f_tkeep;
  logic f_tvalid, f_tready, f_tlast;
  logic [48:0] f_tuser;   // {src ip, length, bad}
  toe_axis_fifo #(.DATA_W(DATA_W), .USER_W(49), .DEPTH(FIFO_BYTES / W), .FRAME(1'b1),
                  .DROP_WHEN_FULL(1'b1)) u_fifo (
    .clk, .rst,
    .s_axis_tdata(c_tdata), .s_axis_tkeep(c_tkeep), .s_axis_tvalid(c_tvalid && c_keep),
    .s_axis_tready(fifo_ready), .s_axis_tlast(c_tlast), .s_axis_tuser({c_reply, bad}),
    .m_axis_tdata(f_tdata), .m_axis_tkeep(f_tkeep), .m_axis_tvalid(f_tvalid),
    .m_axis_tready(f_tready), .m_axis_tlast(f_tlast), .m_axis_tuser(f_tuser),
    .drop_bad, .drop_full
  );
  assign s_axis_tready = 1'b1;
`ifndef SYNTHESIS
  always @(posedge clk) if (!rst)
    assert (fifo_ready) else $error("toe_icmp_echo: the FIFO held a beat back (instance %m)");
`endif

  // Reply: type 8 -> 0 changes word 0 from 0x0800 to 0x0000, so the checksum grows by
  // 0x0800 (ones'-complement add, RFC 1624).
  logic out_first_reg;
  wire [15:0] old_csum = {f_tdata[23:16], f_tdata[31:24]};
  wire [16:0] csum_add = {1'b0, old_csum} + 17'h0800;
  wire [15:0] new_csum = csum_add[15:0] + {15'd0, csum_add[16]};
  always_comb begin
    m_axis_tdata = f_tdata;
    if (out_first_reg) begin
      m_axis_tdata[7:0]   = 8'd0;
      m_axis_tdata[23:16] = new_csum[15:8];
      m_axis_tdata[31:24] = new_csum[7:0];
    end
  end
  ip_tx_meta_t out_meta;
  assign out_meta = '{dst_ip: f_tuser[48:17], protocol: IP_PROTO_ICMP, length: f_tuser[16:1]};
  assign m_axis_tkeep  = f_tkeep;
  assign m_axis_tvalid = f_tvalid;
  assign f_tready      = m_axis_tready;
  assign m_axis_tlast  = f_tlast;
  assign m_axis_tuser  = {out_meta, 1'b0};

  always_ff @(posedge clk) begin
    stat_in_msgs       <= take && first_reg;
    stat_in_echos      <= take && first_reg && is_echo;
    stat_in_errors     <= drop_bad;
    stat_drops         <= drop_full;
    stat_out_echo_reps <= m_axis_tvalid && m_axis_tready && m_axis_tlast;
    if (take) begin
      first_reg <= s_axis_tlast;
      keep_reg <= keep_now;
    end
    if (m_axis_tvalid && m_axis_tready) out_first_reg <= m_axis_tlast;
    if (rst) begin
      first_reg <= 1'b1;
      out_first_reg <= 1'b1;
      keep_reg <= 1'b0;
      {stat_in_msgs, stat_in_echos, stat_in_errors, stat_drops, stat_out_echo_reps} <= '0;
    end
  end
endmodule
