// SPDX-License-Identifier: Apache-2.0
// toe_axis_hdr_extract: splits the first K bytes of every frame off into a header vector
// and streams the rest of the frame realigned to byte 0, for any K and any width.
// K is `s_hdr_len`, sampled with the first beat of each frame (tie it to a constant for a
// fixed header; give the IHL-derived length for IPv4). The header (byte k at [8k+:8];
// bytes at and past K are don't-care) is presented on m_hdr with every payload beat of
// its frame. A frame whose payload is empty leaves as one beat with tkeep = 0 and tlast.
// A frame that ends before K bytes is consumed, not forwarded, and pulses `short_frame`.
// tuser is forwarded; the last payload beat carries the tuser of the last input beat.
// tkeep is contiguous from byte 0 (a packed stream, as a MAC gives), all ones but on last
// beats. s_axis_tready depends on no tkeep: a frame that ends on its completing beat waits
// for m_axis_tready even when it is short (and then consumed without output).
// Timing: combinational data path (add a toe_axis_register where needed); full
// throughput: the input never waits for a flush beat except when a one-beat frame (with
// K <= DATA_W/8) follows a frame that ended with a flush.
module toe_axis_hdr_extract #(
  parameter int unsigned DATA_W = 64,          // tdata width, multiple of 8, power of two
  parameter int unsigned USER_W = 1,           // tuser width
  parameter int unsigned MAX_HDR_BYTES = 14,   // largest K
  parameter int unsigned LEN_GRAN = 1          // K is always a multiple of this
) (
  input  logic                          clk,
  input  logic                          rst,
  input  logic [DATA_W-1:0]             s_axis_tdata,
  input  logic [DATA_W/8-1:0]           s_axis_tkeep,
  input  logic                          s_axis_tvalid,
  output logic                          s_axis_tready,
  input  logic                          s_axis_tlast,
  input  logic [USER_W-1:0]             s_axis_tuser,
  input  logic [$clog2(MAX_HDR_BYTES+1)-1:0] s_hdr_len,  // K, 1..MAX_HDR_BYTES
  output logic [DATA_W-1:0]             m_axis_tdata,
  output logic [DATA_W/8-1:0]           m_axis_tkeep,
  output logic                          m_axis_tvalid,
  input  logic                          m_axis_tready,
  output logic                          m_axis_tlast,
  output logic [USER_W-1:0]             m_axis_tuser,
  output logic [8*MAX_HDR_BYTES-1:0]    m_hdr,
  output logic                          short_frame
);
  localparam int unsigned W  = DATA_W / 8;
  localparam int unsigned LW = $clog2(MAX_HDR_BYTES + 1);
  localparam int unsigned BW = $clog2(MAX_HDR_BYTES / W + 2);  // header beat index
  localparam int unsigned SW = $clog2(W + 1);                  // 1..W
  localparam int unsigned IW = W > 1 ? $clog2(W) : 1;          // a byte lane
  initial if (W != (1 << $clog2(W)) || W % LEN_GRAN != 0)
    $fatal(0, "toe_axis_hdr_extract: DATA_W/8 must be a power of two and a multiple of LEN_GRAN (instance %m)");

  logic              payload_reg, flush_reg;
  logic [BW-1:0]     beat_reg;
  logic [LW-1:0]     k_reg;
  logic [SW-1:0]     s_reg;        // header bytes in the completing beat, 1..W
  logic [8*MAX_HDR_BYTES-1:0] hdr_acc_reg, hdr_out_reg, hdr_next;
  logic [DATA_W-1:0] save_data_reg;
  logic [W-1:0]      save_keep_reg;
  logic [USER_W-1:0] save_user_reg;

  // Header-phase view of the current input beat.
  wire            first    = beat_reg == '0;
  wire [LW-1:0]   k        = first ? s_hdr_len : k_reg;
  wire [LW-1:0]   k_m1     = k - 1'b1;
  wire [BW-1:0]   cb       = BW'(int'(k_m1) / W);              // completing beat index
  wire [SW-1:0]   s_now    = SW'(int'(k_m1) % W + 1);
  wire [IW-1:0]   s_last   = IW'(int'(k_m1) % W);           // its last header byte's lane
  // The completing beat holds fewer than s_now bytes when byte s_now - 1 is not kept (tkeep
  // is contiguous from byte 0), a bit select rather than a count of the beat's bytes.
  wire completes = beat_reg == cb;
  wire ends_here = completes && s_axis_tlast;   // the frame ends on its completing beat
  wire is_short  = s_axis_tlast && (beat_reg < cb || (completes && !s_axis_tkeep[s_last]));
  wire emits     = ends_here && !is_short;

  always_comb begin
    hdr_next = first ? '0 : hdr_acc_reg;
    for (int i = 0; i < W; i++) begin
      int unsigned pos;
      pos = int'(beat_reg) * W + i;
      if (pos < MAX_HDR_BYTES) hdr_next[8*pos +: 8] = s_axis_tdata[8*i +: 8];
    end
  end

  // Funnel: W bytes starting at byte `sh` of {hi, lo}. sh is a multiple of LEN_GRAN.
  function automatic logic [DATA_W-1:0] funnel_data(input logic [DATA_W-1:0] hi, lo, input logic [SW-1:0] sh);
    logic [2*DATA_W-1:0] both = {hi, lo};
    return DATA_W'(both >> (8 * LEN_GRAN * (int'(sh) / LEN_GRAN)));
  endfunction
  function automatic logic [W-1:0] funnel_keep(input logic [W-1:0] hi, lo, input logic [SW-1:0] sh);
    logic [2*W-1:0] both = {hi, lo};
    return W'(both >> (LEN_GRAN * (int'(sh) / LEN_GRAN)));
  endfunction

  // Bytes of the last input beat that land beyond the current output beat: its byte s_reg
  // is kept (tkeep is contiguous from byte 0; one bit selected, not a shift and an OR).
  wire spill = s_reg < SW'(W) && s_axis_tkeep[IW'(s_reg)];

  always_comb begin
    s_axis_tready = 1'b0;
    m_axis_tvalid = 1'b0;
    m_axis_tdata  = funnel_data(s_axis_tdata, save_data_reg, s_reg);
    m_axis_tkeep  = funnel_keep(s_axis_tkeep, save_keep_reg, s_reg);
    m_axis_tlast  = s_axis_tlast && !spill;
    m_axis_tuser  = s_axis_tuser;
    m_hdr         = hdr_out_reg;
    if (payload_reg) begin
      m_axis_tvalid = s_axis_tvalid;
      s_axis_tready = m_axis_tready;
    end else if (flush_reg) begin
      m_axis_tvalid = 1'b1;
      m_axis_tdata  = funnel_data('0, save_data_reg, s_reg);
      m_axis_tkeep  = funnel_keep('0, save_keep_reg, s_reg);
      m_axis_tlast  = 1'b1;
      m_axis_tuser  = save_user_reg;
      s_axis_tready = m_axis_tready && !ends_here;   // take the next header beat alongside
    end else begin
      m_axis_tvalid = s_axis_tvalid && emits;
      m_axis_tdata  = funnel_data('0, s_axis_tdata, s_now);
      m_axis_tkeep  = funnel_keep('0, s_axis_tkeep, s_now);
      m_axis_tlast  = 1'b1;
      m_hdr         = hdr_next;
      s_axis_tready = ends_here ? m_axis_tready : 1'b1;   // (a short one waits too: no tkeep in the ready)
    end
  end

  wire take = s_axis_tvalid && s_axis_tready;

  always_ff @(posedge clk) begin
    short_frame <= 1'b0;
    if (flush_reg && m_axis_tready) flush_reg <= 1'b0;
    if (take) begin
      if (payload_reg) begin
        save_data_reg <= s_axis_tdata;
        save_keep_reg <= s_axis_tkeep;
        save_user_reg <= s_axis_tuser;
        if (s_axis_tlast) begin
          payload_reg <= 1'b0;
          flush_reg <= spill;
        end
      end else begin
        hdr_acc_reg <= hdr_next;
        k_reg <= k;
        if (s_axis_tlast) begin
          beat_reg <= '0;
          short_frame <= is_short;
        end else if (completes) begin
          beat_reg <= '0;
          payload_reg <= 1'b1;
          hdr_out_reg <= hdr_next;
          s_reg <= s_now;
          save_data_reg <= s_axis_tdata;
          save_keep_reg <= s_axis_tkeep;
          save_user_reg <= s_axis_tuser;
        end else begin
          beat_reg <= beat_reg + 1'b1;
        end
      end
    end
    if (rst) begin
      payload_reg <= 1'b0;
      flush_reg <= 1'b0;
      beat_reg <= '0;
      short_frame <= 1'b0;
    end
  end
endmodule
