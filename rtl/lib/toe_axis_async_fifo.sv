// SPDX-License-Identifier: Apache-2.0
// toe_axis_async_fifo: AXI-Stream FIFO between two clock domains (e.g. a MAC clock and the
// core clock). Gray-coded pointers crossed through two-flop synchronisers, storage in one
// dual-clock RAM. Each side has its own synchronous reset; reset both sides together.
// Timing: registered output; a beat becomes visible to the reader 3-4 read-clock cycles
// after it was written; full throughput on both sides.
module toe_axis_async_fifo #(
  parameter int unsigned DATA_W = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W = 1,   // tuser width
  parameter int unsigned DEPTH  = 64   // beats, power of two, >= 4
) (
  input  logic                s_clk,
  input  logic                s_rst,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic [USER_W-1:0]   s_axis_tuser,
  input  logic                m_clk,
  input  logic                m_rst,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast,
  output logic [USER_W-1:0]   m_axis_tuser
);
  localparam int unsigned AW = $clog2(DEPTH);
  localparam int unsigned W  = DATA_W + DATA_W/8 + 1 + USER_W;
  initial if (DEPTH != (1 << AW) || DEPTH < 4)
    $fatal(0, "toe_axis_async_fifo: DEPTH must be a power of two >= 4 (instance %m)");

  function automatic logic [AW:0] bin2gray(input logic [AW:0] b); return b ^ (b >> 1); endfunction
  function automatic logic [AW:0] gray2bin(input logic [AW:0] g);
    for (int i = AW; i >= 0; i--) gray2bin[i] = (i == AW) ? g[i] : gray2bin[i+1] ^ g[i];
  endfunction

  logic [W-1:0] mem [DEPTH];

  logic [AW:0] wr_bin_reg, wr_gray_reg, rd_gray_sync1_reg, rd_gray_sync2_reg;
  logic [AW:0] rd_bin_reg, rd_gray_reg, wr_gray_sync1_reg, wr_gray_sync2_reg;

  // Write side.
  wire [AW:0] rd_bin_in_wr = gray2bin(rd_gray_sync2_reg);
  wire full = (wr_bin_reg - rd_bin_in_wr) == (AW+1)'(DEPTH);
  wire write = s_axis_tvalid && !full;
  assign s_axis_tready = !full;

  always_ff @(posedge s_clk) begin
    if (write) mem[wr_bin_reg[AW-1:0]] <= {s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser};
  end
  always_ff @(posedge s_clk) begin
    if (write) begin
      wr_bin_reg  <= wr_bin_reg + 1'b1;
      wr_gray_reg <= bin2gray(wr_bin_reg + 1'b1);
    end
    rd_gray_sync1_reg <= rd_gray_reg;
    rd_gray_sync2_reg <= rd_gray_sync1_reg;
    if (s_rst) begin
      wr_bin_reg <= '0;
      wr_gray_reg <= '0;
      rd_gray_sync1_reg <= '0;
      rd_gray_sync2_reg <= '0;
    end
  end

  // Read side.
  logic [W-1:0] out_reg;
  logic out_valid_reg;
  wire empty = rd_gray_reg == wr_gray_sync2_reg;
  wire read = !empty && (!out_valid_reg || m_axis_tready);
  assign {m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser} = out_reg;
  assign m_axis_tvalid = out_valid_reg;

  always_ff @(posedge m_clk) begin
    if (read) out_reg <= mem[rd_bin_reg[AW-1:0]];
  end
  always_ff @(posedge m_clk) begin
    if (read) begin
      rd_bin_reg  <= rd_bin_reg + 1'b1;
      rd_gray_reg <= bin2gray(rd_bin_reg + 1'b1);
      out_valid_reg <= 1'b1;
    end else if (m_axis_tready) begin
      out_valid_reg <= 1'b0;
    end
    wr_gray_sync1_reg <= wr_gray_reg;
    wr_gray_sync2_reg <= wr_gray_sync1_reg;
    if (m_rst) begin
      rd_bin_reg <= '0;
      rd_gray_reg <= '0;
      out_valid_reg <= 1'b0;
      wr_gray_sync1_reg <= '0;
      wr_gray_sync2_reg <= '0;
    end
  end
endmodule
