// SPDX-License-Identifier: Apache-2.0
// toe_axis_width_conv: AXI-Stream width converter for an integer ratio in either
// direction (e.g. a 64-bit MAC to a 512-bit core). Upsizing packs S/M beats into one and
// ends an output beat early at tlast; downsizing splits a beat into pieces and stops at
// the last piece that holds a byte (tkeep must be contiguous from byte 0 on last beats).
// tuser: the output beat carries the tuser of the last input beat it contains
// (upsizing) or of the beat it came from (downsizing).
// Timing: upsizing registers the output (full input rate); downsizing is combinational
// from a one-beat holding register (full output rate); equal widths are a wire (so a
// width-generic client instantiates it unconditionally).
module toe_axis_width_conv #(
  parameter int unsigned S_DATA_W = 64,   // input width, multiple of 8
  parameter int unsigned M_DATA_W = 512,  // output width, multiple of 8
  parameter int unsigned USER_W   = 1
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [S_DATA_W-1:0]   s_axis_tdata,
  input  logic [S_DATA_W/8-1:0] s_axis_tkeep,
  input  logic                  s_axis_tvalid,
  output logic                  s_axis_tready,
  input  logic                  s_axis_tlast,
  input  logic [USER_W-1:0]     s_axis_tuser,
  output logic [M_DATA_W-1:0]   m_axis_tdata,
  output logic [M_DATA_W/8-1:0] m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic [USER_W-1:0]     m_axis_tuser
);
  localparam int unsigned SK = S_DATA_W / 8;
  localparam int unsigned MK = M_DATA_W / 8;
  localparam bit UP = M_DATA_W >= S_DATA_W;
  localparam int unsigned RATIO = UP ? M_DATA_W / S_DATA_W : S_DATA_W / M_DATA_W;
  localparam int unsigned IW = RATIO > 1 ? $clog2(RATIO) : 1;
  initial if ((UP ? M_DATA_W % S_DATA_W : S_DATA_W % M_DATA_W) != 0)
    $fatal(0, "toe_axis_width_conv: widths must be integer multiples (instance %m)");

  if (S_DATA_W == M_DATA_W) begin : g_same
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_clk_rst = clk ^ rst;   // a wire needs neither
    /* verilator lint_on UNUSEDSIGNAL */
    assign m_axis_tdata = s_axis_tdata;
    assign m_axis_tkeep = s_axis_tkeep;
    assign m_axis_tvalid = s_axis_tvalid;
    assign s_axis_tready = m_axis_tready;
    assign m_axis_tlast = s_axis_tlast;
    assign m_axis_tuser = s_axis_tuser;
  end else if (UP) begin : g_up
    logic [IW-1:0] idx_reg;
    logic [M_DATA_W-1:0] data_reg;
    logic [MK-1:0]       keep_reg;
    logic                valid_reg, last_reg;
    logic [USER_W-1:0]   user_reg;
    assign s_axis_tready = !valid_reg || m_axis_tready;
    assign m_axis_tdata = data_reg;
    assign m_axis_tkeep = keep_reg;
    assign m_axis_tvalid = valid_reg;
    assign m_axis_tlast = last_reg;
    assign m_axis_tuser = user_reg;
    always_ff @(posedge clk) begin
      if (m_axis_tvalid && m_axis_tready) valid_reg <= 1'b0;
      if (s_axis_tvalid && s_axis_tready) begin
        data_reg[S_DATA_W*idx_reg +: S_DATA_W] <= s_axis_tdata;
        keep_reg[SK*idx_reg +: SK] <= s_axis_tkeep;
        if (idx_reg == '0) keep_reg[MK-1:SK] <= '0;
        user_reg <= s_axis_tuser;
        last_reg <= s_axis_tlast;
        idx_reg <= idx_reg + 1'b1;
        if (s_axis_tlast || int'(idx_reg) == RATIO - 1) begin
          valid_reg <= 1'b1;
          idx_reg <= '0;
        end
      end
      if (rst) begin
        valid_reg <= 1'b0;
        idx_reg <= '0;
      end
    end
  end else begin : g_down
    logic [IW-1:0] idx_reg;
    logic [S_DATA_W-1:0] data_reg;
    logic [SK-1:0]       keep_reg;
    logic                valid_reg, last_reg;
    logic [USER_W-1:0]   user_reg;
    wire [MK-1:0] piece_keep = keep_reg[MK*idx_reg +: MK];
    wire more = int'(idx_reg) < RATIO - 1 && keep_reg[MK*(int'(idx_reg)+1)];
    wire piece_last = !more;
    assign m_axis_tdata = data_reg[M_DATA_W*idx_reg +: M_DATA_W];
    assign m_axis_tkeep = piece_keep;
    assign m_axis_tvalid = valid_reg;
    assign m_axis_tlast = last_reg && piece_last;
    assign m_axis_tuser = user_reg;
    assign s_axis_tready = !valid_reg || (m_axis_tready && piece_last);
    always_ff @(posedge clk) begin
      if (m_axis_tvalid && m_axis_tready) begin
        idx_reg <= idx_reg + 1'b1;
        if (piece_last) begin
          valid_reg <= 1'b0;
          idx_reg <= '0;
        end
      end
      if (s_axis_tvalid && s_axis_tready) begin
        data_reg <= s_axis_tdata;
        keep_reg <= s_axis_tkeep;
        last_reg <= s_axis_tlast;
        user_reg <= s_axis_tuser;
        valid_reg <= 1'b1;
        idx_reg <= '0;
      end
      if (rst) begin
        valid_reg <= 1'b0;
        idx_reg <= '0;
      end
    end
  end
endmodule
