// SPDX-License-Identifier: Apache-2.0
// toe_icmp_unreach: sends ICMP destination unreachable (type 3) with the code of the
// requester: port unreachable (3) for datagrams UDP could not deliver, protocol
// unreachable (2) for IP protocols nobody handles, quoting the original IP header and the
// first 8 bytes of the datagram (RFC 792, RFC 1122 3.2.2.1). Requesters are one-cycle
// pulses; the lowest index wins a cycle. Rate-limited: at most one message per
// `cfg_interval_us` microseconds; requests meanwhile (and a requester that lost the cycle)
// are dropped and counted, at most one count per cycle. No message for a datagram whose
// source is not a unicast host (0.0.0.0, 127/8, 224/4 and up; RFC 1122 3.2.2).
// Output: IP payload (36 bytes) with ip_tx_meta_t on tuser[IP_TX_META_W:1], offered three
// cycles after the request: the checksum is registered, and the message leaves through a
// register slice (IPv4 TX chooses the next hop from the arbiter's output beat; the slice
// keeps this module's state out of that path).
module toe_icmp_unreach
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned N_REQ  = 2,
  parameter logic [N_REQ-1:0][7:0] REQ_CODES = {8'd2, 8'd3}   // per requester; [0] = UDP port
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  tick_us,
  input  logic [15:0]           cfg_interval_us,
  input  logic [N_REQ-1:0]        req_valid,       // one-cycle requests
  input  logic [N_REQ-1:0][159:0] req_ip_hdr,      // original IP header, stream byte order
  input  logic [N_REQ-1:0][63:0]  req_l4_hdr,      // its first 8 payload bytes
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic [IP_TX_META_W:0] m_axis_tuser,
  output logic                  stat_out_dest_unreachs,
  output logic                  stat_rate_limited
);
  localparam int unsigned MSG_BYTES = 36;

  logic          busy_reg;
  logic [223:0]  quote_reg;        // 28 bytes quoted
  logic [7:0]    code_reg;
  logic [15:0]   since_us_reg;     // microseconds since the last message (saturating)

  wire [31:0] dst_ip = ipv4_unpack(quote_reg[159:0]).src_ip;
  // Sum: the type/code word plus the quoted 28 bytes (the unused word adds nothing).
  logic [239:0] words;
  always_comb begin
    words[239:224] = {8'd3, code_reg};
    for (int w = 0; w < 14; w++) words[16*w +: 16] = {quote_reg[16*w +: 8], quote_reg[16*w+8 +: 8]};
  end
  logic [31:0] s;
  toe_sum_tree #(.N(15), .IN_W(16), .OUT_W(32)) u_sum (.terms(words), .sum(s));
  // the checksum is registered: a message goes out the cycle after it is summed
  logic [15:0] csum_reg;
  logic summed_reg;   // csum_reg holds the sum of the message in quote_reg
  wire [63:0] icmp_hdr = {32'd0, csum_reg[7:0], csum_reg[15:8], code_reg, 8'd3};   // stream byte order

  // The winning requester, and whether its datagram came from a unicast host.
  logic pick_valid;
  logic [$clog2(N_REQ+1)-1:0] pick;
  always_comb begin
    pick_valid = 1'b0;
    pick = '0;
    for (int r = N_REQ - 1; r >= 0; r--)
      if (req_valid[r]) begin
        pick_valid = 1'b1;
        pick = ($clog2(N_REQ+1))'(r);
      end
  end
  wire [31:0] req_src = ipv4_unpack(req_ip_hdr[pick]).src_ip;
  wire unicast_src = req_src != '0 && req_src[31:24] != 8'd127 && req_src[31:28] < 4'hE;

  logic ins_ready;
  ip_tx_meta_t meta;
  assign meta = '{dst_ip: dst_ip, protocol: IP_PROTO_ICMP, length: 16'(MSG_BYTES)};
  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(IP_TX_META_W + 1), .HDR_BYTES(MSG_BYTES), .OUT_REG(1)) u_tx (
    .clk, .rst,
    .s_axis_tdata('0), .s_axis_tkeep('0), .s_axis_tvalid(busy_reg && summed_reg), .s_axis_tready(ins_ready),
    .s_axis_tlast(1'b1), .s_axis_tuser({meta, 1'b0}), .s_hdr({quote_reg, icmp_hdr}),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );

  wire allowed = !busy_reg && since_us_reg >= cfg_interval_us;
  wire take = pick_valid && unicast_src && allowed;
  wire sent = busy_reg && summed_reg && ins_ready;
  always_ff @(posedge clk) begin
    stat_out_dest_unreachs <= sent;
    csum_reg <= ~csum_fold(s);
    summed_reg <= busy_reg && !sent;
    stat_rate_limited <= (pick_valid && unicast_src && !allowed) || (req_valid & ~(N_REQ'(1) << pick)) != '0;
    if (tick_us && since_us_reg != 16'hFFFF) since_us_reg <= since_us_reg + 1'b1;
    if (sent) busy_reg <= 1'b0;
    if (take) begin
      busy_reg <= 1'b1;
      quote_reg <= {req_l4_hdr[pick], req_ip_hdr[pick]};
      code_reg <= REQ_CODES[pick];
      since_us_reg <= '0;
    end
    if (rst) begin
      busy_reg <= 1'b0;
      summed_reg <= 1'b0;
      since_us_reg <= 16'hFFFF;
      stat_out_dest_unreachs <= 1'b0;
      stat_rate_limited <= 1'b0;
    end
  end
endmodule
