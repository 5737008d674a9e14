// SPDX-License-Identifier: Apache-2.0
// toe_tcp_syn_hint: watches the MAC's receive stream (Ethernet II frames without preamble
// or FCS, as toe_top takes them) for a TCP SYN to this host and hints its tuple to
// toe_tcp_isn_prefetch, so that a passive open's ISN hash (toe_tcp_isn: 17 cycles at
// 322 MHz) starts as the SYN comes in from the MAC and runs beside the receive FIFO, the
// Ethernet, IPv4 and TCP receive layers and the session lookup, not after them.
//   Watch only: it takes no part in the stream's handshake; a beat counts when
//   s_axis_tvalid && s_axis_tready.
//   Hint (m_hint_*): a one-cycle pulse from a register, the cycle after the beat that
//   holds the frame's byte 47 (the TCP flags) is taken, for a frame whose first 48 bytes
//   say: EtherType IPv4 (0x0800); version 4 with a 20-byte header (IHL 5: a SYN with IP
//   options is not hinted); not a fragment (MF clear, offset 0); protocol TCP; destination
//   cfg_ip; flags SYN without ACK or RST. The tuple: local port = destination port,
//   remote = source address and port.
// A hint is only a hint: nothing is checked beyond these bytes (not the MAC address, not
// a checksum or length), and the frame may still be dropped on its way. The prefetch
// hashes it only when its unit would be idle otherwise and hands the ISN only to a SYN
// of the same tuple that reaches the lookup; a wrong hint costs an idle hash.
module toe_tcp_syn_hint
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W = 64
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [31:0]         cfg_ip,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  input  logic                s_axis_tready,
  input  logic                s_axis_tlast,
  output logic                m_hint_valid,
  output tcp_isn_req_t        m_hint
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned HDR_BYTES = 48;                 // Ethernet 14, IPv4 20, TCP up to its flags 14
  localparam int unsigned FLAGS_BYTE = HDR_BYTES - 1;
  localparam int unsigned LAST_BEAT = FLAGS_BYTE / W;     // the beat holding the flags
  localparam int unsigned BW = $clog2(LAST_BEAT + 2);
  localparam int EARLY_BYTES = int'(LAST_BEAT * W);       // header bytes in the beats before it

  wire take = s_axis_tvalid && s_axis_tready;
  logic [BW-1:0] beat_reg;                                // beats of the frame so far, up to LAST_BEAT + 1
  always_ff @(posedge clk) begin
    if (take) begin
      if (s_axis_tlast) beat_reg <= '0;
      else if (beat_reg != BW'(LAST_BEAT + 1)) beat_reg <= beat_reg + 1'b1;
    end
    if (rst) beat_reg <= '0;
  end

  // The header's bytes: those of the beats before the flags' beat from registers, the
  // rest from the flags' beat itself (at 512 bits all of them: no register).
  logic [HDR_BYTES-1:0][7:0] early_reg;
  logic [HDR_BYTES-1:0][7:0] hdr;
  always_ff @(posedge clk)
    for (int i = 0; i < EARLY_BYTES; i++)
      if (take && beat_reg == BW'(i / W)) early_reg[i] <= s_axis_tdata[8*(i % W) +: 8];
  always_comb
    for (int i = 0; i < HDR_BYTES; i++)
      hdr[i] = i < EARLY_BYTES ? early_reg[i] : s_axis_tdata[8*(i - EARLY_BYTES) +: 8];

  wire [7:0] flags = hdr[FLAGS_BYTE];
  wire is_syn = take && beat_reg == BW'(LAST_BEAT) && s_axis_tkeep[FLAGS_BYTE % W] &&
                {hdr[12], hdr[13]} == 16'h0800 && hdr[14] == 8'h45 &&
                hdr[20][5:0] == '0 && hdr[21] == '0 && hdr[23] == 8'd6 &&
                {hdr[30], hdr[31], hdr[32], hdr[33]} == cfg_ip &&
                flags[F_SYN] && !flags[F_ACK] && !flags[F_RST];
  always_ff @(posedge clk) begin
    m_hint_valid <= is_syn;
    if (is_syn)
      m_hint <= '{remote_ip: {hdr[26], hdr[27], hdr[28], hdr[29]}, remote_port: {hdr[34], hdr[35]},
                  local_port: {hdr[36], hdr[37]}};
    if (rst) m_hint_valid <= 1'b0;
  end
endmodule
