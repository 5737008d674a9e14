// SPDX-License-Identifier: Apache-2.0
// toe_axis_hdr_insert: prepends a HDR_BYTES-byte header to every frame, realigning the
// payload behind it, for any HDR_BYTES and any width. The header (byte k at [8k+:8]) is
// taken from s_hdr while the first beat of the frame waits. A payload of one beat with
// tkeep = 0 (empty) yields a frame that is the header alone. tuser is forwarded; the
// last output beat carries the tuser of the last input beat.
// Timing: combinational data path, or with OUT_REG a register slice on the output (one
// cycle more, registered tvalid/tdata/tready: toe_axis_register); the output runs at one
// beat per cycle, so the input waits HDR_BYTES/(DATA_W/8) cycles per frame (plus one when
// the last beat spills over).
module toe_axis_hdr_insert #(
  parameter int unsigned DATA_W    = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W    = 1,   // tuser width
  parameter int unsigned HDR_BYTES = 14,  // header length, >= 1
  parameter bit          OUT_REG   = 0    // 1: the output through a register slice
) (
  input  logic                    clk,
  input  logic                    rst,
  input  logic [DATA_W-1:0]       s_axis_tdata,
  input  logic [DATA_W/8-1:0]     s_axis_tkeep,
  input  logic                    s_axis_tvalid,
  output logic                    s_axis_tready,
  input  logic                    s_axis_tlast,
  input  logic [USER_W-1:0]       s_axis_tuser,
  input  logic [8*HDR_BYTES-1:0]  s_hdr,
  output logic [DATA_W-1:0]       m_axis_tdata,
  output logic [DATA_W/8-1:0]     m_axis_tkeep,
  output logic                    m_axis_tvalid,
  input  logic                    m_axis_tready,
  output logic                    m_axis_tlast,
  output logic [USER_W-1:0]       m_axis_tuser
);
  localparam int unsigned W  = DATA_W / 8;
  localparam int unsigned HB = HDR_BYTES / W;   // whole header beats
  localparam int unsigned R  = HDR_BYTES % W;   // header bytes sharing a beat with payload
  localparam int unsigned CW = $clog2(HB + 1);

  // the insert's output, before the optional slice
  logic [DATA_W-1:0] ins_tdata;
  logic [W-1:0] ins_tkeep;
  logic ins_tvalid, ins_tready, ins_tlast;
  logic [USER_W-1:0] ins_tuser;

  typedef enum logic [1:0] {ST_HDR, ST_PAYLOAD, ST_FLUSH} state_e;
  state_e state_reg;
  logic [CW-1:0] hdr_beat_reg;
  logic first_reg;
  logic [DATA_W-1:0] prev_data_reg;
  logic [W-1:0] prev_keep_reg;
  logic [USER_W-1:0] prev_user_reg;

  // The header padded to whole beats, so the header-beat select is in range for any
  // HDR_BYTES (also when it is shorter than a beat and no header beat is ever sent).
  wire [8*W*(HB+1)-1:0] hdr_beats = (8*W*(HB+1))'(s_hdr);

  // The header's tail (R bytes) placed where the previous beat's spill would be.
  logic [DATA_W-1:0] hdr_tail;
  always_comb begin
    hdr_tail = '0;
    for (int i = 0; i < R; i++) hdr_tail[8*(W-R+i) +: 8] = s_hdr[8*(HB*W+i) +: 8];
  end
  logic [W-1:0] tail_keep;   // the top R byte lanes
  always_comb for (int i = 0; i < W; i++) tail_keep[i] = i >= int'(W - R);

  wire [DATA_W-1:0] carry_data = first_reg ? hdr_tail : prev_data_reg;
  wire [W-1:0]      carry_keep = first_reg ? tail_keep : prev_keep_reg;
  wire [2*DATA_W-1:0] both_data = {s_axis_tdata, carry_data};
  wire [2*W-1:0]      both_keep = {s_axis_tkeep, carry_keep};
  wire [2*DATA_W-1:0] flush_data = {{DATA_W{1'b0}}, prev_data_reg};
  wire [2*W-1:0]      flush_keep = {{W{1'b0}}, prev_keep_reg};
  wire spill = (R != 0) && |(s_axis_tkeep >> (W - R));
  wire empty_payload = s_axis_tlast && s_axis_tkeep == '0;
  wire last_hdr_beat = int'(hdr_beat_reg) == HB - 1;

  always_comb begin
    ins_tdata  = both_data[8*(W-R) +: DATA_W];
    ins_tkeep  = both_keep[(W-R) +: W];
    ins_tvalid = s_axis_tvalid;
    ins_tlast  = s_axis_tlast && !spill;
    ins_tuser  = s_axis_tuser;
    s_axis_tready = ins_tready;
    unique case (state_reg)
      ST_HDR: begin
        ins_tdata  = hdr_beats[8*W*hdr_beat_reg +: DATA_W];
        ins_tkeep  = '1;
        // With no shared beat, an empty payload ends the frame on the last header beat.
        ins_tlast  = R == 0 && last_hdr_beat && empty_payload;
        s_axis_tready = ins_tlast && ins_tready;
      end
      ST_FLUSH: begin
        ins_tdata  = flush_data[8*(W-R) +: DATA_W];
        ins_tkeep  = flush_keep[(W-R) +: W];
        ins_tvalid = 1'b1;
        ins_tlast  = 1'b1;
        ins_tuser  = prev_user_reg;
        s_axis_tready = 1'b0;
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk) begin
    unique case (state_reg)
      ST_HDR: if (ins_tvalid && ins_tready) begin
        hdr_beat_reg <= hdr_beat_reg + 1'b1;
        if (ins_tlast) hdr_beat_reg <= '0;
        else if (last_hdr_beat) begin
          hdr_beat_reg <= '0;
          state_reg <= ST_PAYLOAD;
        end
      end
      ST_PAYLOAD: if (s_axis_tvalid && s_axis_tready) begin
        first_reg <= s_axis_tlast;
        prev_data_reg <= s_axis_tdata;
        prev_keep_reg <= s_axis_tkeep;
        prev_user_reg <= s_axis_tuser;
        if (s_axis_tlast) state_reg <= spill ? ST_FLUSH : (HB == 0 ? ST_PAYLOAD : ST_HDR);
      end
      default: if (ins_tready) begin
        first_reg <= 1'b1;
        state_reg <= HB == 0 ? ST_PAYLOAD : ST_HDR;
      end
    endcase
    if (rst) begin
      state_reg <= HB == 0 ? ST_PAYLOAD : ST_HDR;
      hdr_beat_reg <= '0;
      first_reg <= 1'b1;
    end
  end

  // the output: the insert's beats as they are, or through a register slice
  if (OUT_REG) begin : g_out_reg
    toe_axis_register #(.DATA_W(DATA_W), .USER_W(USER_W)) u_out_reg (
      .clk, .rst,
      .s_axis_tdata(ins_tdata), .s_axis_tkeep(ins_tkeep), .s_axis_tvalid(ins_tvalid),
      .s_axis_tready(ins_tready), .s_axis_tlast(ins_tlast), .s_axis_tuser(ins_tuser),
      .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
    );
  end else begin : g_out_comb
    assign {m_axis_tdata, m_axis_tkeep, m_axis_tvalid, m_axis_tlast, m_axis_tuser} =
           {ins_tdata, ins_tkeep, ins_tvalid, ins_tlast, ins_tuser};
    assign ins_tready = m_axis_tready;
  end
endmodule
