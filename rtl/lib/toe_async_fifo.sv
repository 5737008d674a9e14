// SPDX-License-Identifier: Apache-2.0
// toe_async_fifo: FIFO of WIDTH-bit words between two clock domains (a MAC clock, a
// memory controller's clock and the core clock). Gray-coded pointers crossed through
// two-flop synchronisers, storage in one dual-clock RAM (one write port on s_clk, one
// registered read port on m_clk; infers block or distributed RAM). Each side has its own
// synchronous reset; reset both sides together (both held for at least three cycles of
// the slower clock).
// Timing: s_ready and m_valid come from registers of their own domain; a word becomes
// visible to the reader 3-4 m_clk cycles after it was written; one word per cycle on
// both sides. Only Gray-coded pointers cross between the domains (the synchroniser
// flops are named *_sync1_reg / *_sync2_reg for the constraints: a max delay of one
// destination period from the source pointer register, as for any Gray-code FIFO).
module toe_async_fifo #(
  parameter int unsigned WIDTH = 8,   // word bits
  parameter int unsigned DEPTH = 16   // words, power of two, >= 4
) (
  input  logic             s_clk,
  input  logic             s_rst,
  input  logic [WIDTH-1:0] s_data,
  input  logic             s_valid,
  output logic             s_ready,
  input  logic             m_clk,
  input  logic             m_rst,
  output logic [WIDTH-1:0] m_data,
  output logic             m_valid,
  input  logic             m_ready
);
  localparam int unsigned AW = $clog2(DEPTH);
  initial if (DEPTH != (1 << AW) || DEPTH < 4)
    $fatal(0, "toe_async_fifo: DEPTH must be a power of two >= 4 (instance %m)");

  function automatic logic [AW:0] bin2gray(input logic [AW:0] b); return b ^ (b >> 1); endfunction
  function automatic logic [AW:0] gray2bin(input logic [AW:0] g);
    for (int i = AW; i >= 0; i--) gray2bin[i] = (i == AW) ? g[i] : gray2bin[i+1] ^ g[i];
  endfunction

  logic [WIDTH-1:0] mem [DEPTH];

  logic [AW:0] wr_bin_reg, wr_gray_reg, rd_gray_sync1_reg, rd_gray_sync2_reg;
  logic [AW:0] rd_bin_reg, rd_gray_reg, wr_gray_sync1_reg, wr_gray_sync2_reg;

  // Write side.
  wire [AW:0] rd_bin_in_wr = gray2bin(rd_gray_sync2_reg);
  wire full = (wr_bin_reg - rd_bin_in_wr) == (AW+1)'(DEPTH);
  wire write = s_valid && !full;
  assign s_ready = !full;

  always_ff @(posedge s_clk) begin
    if (write) mem[wr_bin_reg[AW-1:0]] <= s_data;
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
  logic [WIDTH-1:0] out_reg;
  logic out_valid_reg;
  wire empty = rd_gray_reg == wr_gray_sync2_reg;
  wire read = !empty && (!out_valid_reg || m_ready);
  assign m_data = out_reg;
  assign m_valid = out_valid_reg;

  always_ff @(posedge m_clk) begin
    if (read) out_reg <= mem[rd_bin_reg[AW-1:0]];
  end
  always_ff @(posedge m_clk) begin
    if (read) begin
      rd_bin_reg  <= rd_bin_reg + 1'b1;
      rd_gray_reg <= bin2gray(rd_bin_reg + 1'b1);
      out_valid_reg <= 1'b1;
    end else if (m_ready) begin
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

`ifndef SYNTHESIS
  // The reader never passes the writer, as each side sees the other (occupancy in range).
  wire [AW:0] wr_bin_in_rd = gray2bin(wr_gray_sync2_reg);
  a_occupancy_wr: assert property (@(posedge s_clk) disable iff (s_rst)
    (wr_bin_reg - rd_bin_in_wr) <= (AW+1)'(DEPTH));
  a_occupancy_rd: assert property (@(posedge m_clk) disable iff (m_rst)
    (wr_bin_in_rd - rd_bin_reg) <= (AW+1)'(DEPTH));
  // The output word is held while it waits to be taken.
  a_m_hold: assert property (@(posedge m_clk) disable iff (m_rst)
    m_valid && !m_ready |=> m_valid && $stable(m_data));
`endif
endmodule
