// SPDX-License-Identifier: Apache-2.0
// toe_axis_trim: cuts every frame to `s_len` bytes (sampled with the first beat) and
// discards what follows (e.g. Ethernet padding behind an IP packet). A frame shorter than
// s_len is forwarded whole with tuser[0] set on its last beat and pulses `short_frame`.
// The last kept beat is held until the input frame really ends, so that tuser[0] of the
// true last input beat (e.g. an FCS error) reaches the output's last beat.
// A frame trimmed to 0 bytes leaves as one beat with tkeep = 0. tkeep is contiguous from
// byte 0 on every beat (AXI4-Stream packed bytes), as everywhere in the design.
// Timing: one register stage on the data path (registered outputs), full throughput;
// the input of a padded frame waits one cycle while the held beat leaves.
module toe_axis_trim #(
  parameter int unsigned DATA_W = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W = 1    // tuser width, bit 0 = bad frame
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic [USER_W-1:0]   s_axis_tuser,
  input  logic [15:0]         s_len,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast,
  output logic [USER_W-1:0]   m_axis_tuser,
  output logic                short_frame
);
  localparam int unsigned W = DATA_W / 8;

  logic        first_reg, done_reg;   // done: the kept part has been output already
  logic [15:0] remain_reg;            // bytes still to keep
  logic        out_valid_reg, out_last_reg, held_reg;
  logic [DATA_W-1:0] out_data_reg;
  logic [W-1:0]      out_keep_reg;
  logic [USER_W-1:0] out_user_reg;

  wire [15:0] remain = first_reg ? s_len : remain_reg;
  logic [W-1:0] keep_mask;
  always_comb
    for (int i = 0; i < W; i++) keep_mask[i] = 16'(i) < remain;
  wire reaches_len = remain <= 16'(W);          // this beat holds the last kept byte
  // the frame ends before its length: past this beat, or before this beat's last byte to
  // keep, byte remain-1 (tkeep is contiguous from byte 0, so that byte's keep bit tells; one
  // mux by remain, not a compare per byte reduced behind it; remain = 0 keeps nothing)
  wire [W:0] keep_from_1 = {s_axis_tkeep, 1'b1};   // bit b: byte b-1 is there (b = 0: none needed)
  wire too_short   = s_axis_tlast && (!reaches_len || !keep_from_1[remain[$clog2(W):0]]);

  // The output register can take a beat unless it holds one that is not leaving.
  wire out_free = !out_valid_reg || (m_axis_tready && !held_reg);
  assign s_axis_tready = done_reg || out_free;   // padding is swallowed without output

  assign m_axis_tdata  = out_data_reg;
  assign m_axis_tkeep  = out_keep_reg;
  assign m_axis_tvalid = out_valid_reg && !held_reg;
  assign m_axis_tlast  = out_last_reg;
  assign m_axis_tuser  = out_user_reg;

  wire take = s_axis_tvalid && s_axis_tready;

  always_ff @(posedge clk) begin
    short_frame <= 1'b0;
    if (m_axis_tvalid && m_axis_tready) out_valid_reg <= 1'b0;
    if (take) begin
      first_reg <= s_axis_tlast;
      if (done_reg) begin
        // Padding: swallow; release the held beat with the frame's final verdict.
        if (s_axis_tlast) begin
          held_reg <= 1'b0;
          out_user_reg[0] <= out_user_reg[0] | s_axis_tuser[0];
          done_reg <= 1'b0;
        end
      end else begin
        out_valid_reg <= 1'b1;
        out_data_reg  <= s_axis_tdata;
        out_keep_reg  <= s_axis_tkeep & keep_mask;
        out_user_reg  <= s_axis_tuser;
        remain_reg    <= remain - 16'(W);
        out_last_reg  <= s_axis_tlast || reaches_len;
        if (too_short) begin
          out_user_reg[0] <= 1'b1;
          short_frame <= 1'b1;
        end
        if (reaches_len && !s_axis_tlast) begin
          held_reg <= 1'b1;
          done_reg <= 1'b1;
        end
      end
    end
    if (rst) begin
      first_reg <= 1'b1;
      done_reg <= 1'b0;
      held_reg <= 1'b0;
      out_valid_reg <= 1'b0;
      short_frame <= 1'b0;
    end
  end
endmodule
