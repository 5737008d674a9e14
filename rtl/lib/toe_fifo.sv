// SPDX-License-Identifier: Apache-2.0
// toe_fifo: synchronous FIFO of WIDTH-bit words in one simple-dual-port RAM (infers block
// RAM: one write port, one registered read port). With FRAME=0 every written word is
// readable the cycle after next. With FRAME=1 written words stay invisible to the reader
// until `commit` (make everything written so far readable) and are thrown away by
// `rewind` (return the write pointer to the last commit); both may coincide with a write
// and then include it. Timing: read latency 2 cycles from write (FRAME=0), registered
// m_valid/m_data, full throughput. `s_ready` is a function of registered pointers.
// BYPASS=1 (FRAME=0 only): a word written while the FIFO holds nothing else goes straight
// to the output register, readable the next cycle; the output register then has a mux in
// front of the RAM's read, so the register is fabric's, not the RAM's: in block RAM the
// read leaves the RAM's latch unregistered, with its slower clock-to-out (Yosys, 1024 x
// 10 bits for UltraScale+: one RAMB18 either way, 11 FF and 10 LUT more). For a latency path.
// RAM_STYLE is the RAM's ram_style attribute for the synthesis tool (Vivado, Yosys):
// "auto" lets the tool choose; "ultra" asks for UltraRAM (UltraScale+ only), "block" or
// "distributed" for those.
module toe_fifo #(
  parameter int unsigned WIDTH = 8,    // word bits
  parameter int unsigned DEPTH = 512,  // words, power of two
  parameter bit          FRAME = 1'b0, // 1: commit/rewind control visibility
  parameter bit          BYPASS = 1'b0, // 1: a word into an empty FIFO is readable the next cycle
  /* verilator lint_off UNUSEDPARAM */  // (read by synthesis only, through the attribute)
  parameter string       RAM_STYLE = "auto" // the RAM's ram_style attribute
  /* verilator lint_on UNUSEDPARAM */
) (
  input  logic             clk,
  input  logic             rst,
  input  logic [WIDTH-1:0] s_data,
  input  logic             s_valid,
  output logic             s_ready,
  input  logic             commit,
  input  logic             rewind,
  output logic [WIDTH-1:0] m_data,
  output logic             m_valid,
  input  logic             m_ready,
  output logic [$clog2(DEPTH):0] uncommitted  // words written but not yet committed
);
  localparam int unsigned AW = $clog2(DEPTH);
  initial if (DEPTH != (1 << AW)) $fatal(0, "toe_fifo: DEPTH must be a power of two (instance %m)");
  initial if (BYPASS && FRAME) $fatal(0, "toe_fifo: BYPASS needs FRAME=0 (instance %m)");

  (* ram_style = RAM_STYLE *) logic [WIDTH-1:0] mem [DEPTH];
  logic [AW:0] wr_ptr_reg, commit_ptr_reg, rd_ptr_reg;
  logic [WIDTH-1:0] out_reg;
  logic out_valid_reg;

  wire full  = (wr_ptr_reg - rd_ptr_reg) == (AW+1)'(DEPTH);
  wire write = s_valid && !full;
  // the write only selects the incremented pointer (its clock enable): s_valid comes late
  // from the writer's logic, and does not go through the increment's carry chain
  wire [AW:0] wr_ptr_plus1 = wr_ptr_reg + 1'b1;
  wire [AW:0] wr_ptr_inc = write ? wr_ptr_plus1 : wr_ptr_reg;
  wire [AW:0] visible = FRAME ? commit_ptr_reg : wr_ptr_reg;
  wire out_free = !out_valid_reg || m_ready;
  wire read = (rd_ptr_reg != visible) && out_free;
  // the written word is the only one: it passes the RAM (written there all the same, and
  // read at once: both pointers move)
  wire direct = BYPASS && write && rd_ptr_reg == wr_ptr_reg && out_free;

  assign s_ready = !full;
  assign m_data = out_reg;
  assign m_valid = out_valid_reg;
  assign uncommitted = wr_ptr_reg - commit_ptr_reg;

  always_ff @(posedge clk) begin
    if (write) mem[wr_ptr_reg[AW-1:0]] <= s_data;
    if (direct)    out_reg <= s_data;
    else if (read) out_reg <= mem[rd_ptr_reg[AW-1:0]];
  end

  always_ff @(posedge clk) begin
    if (write) wr_ptr_reg <= wr_ptr_plus1;
    if (FRAME) begin
      if (rewind) wr_ptr_reg <= commit_ptr_reg;
      else if (commit) commit_ptr_reg <= wr_ptr_inc;
    end
    if (read || direct) begin
      rd_ptr_reg <= rd_ptr_reg + 1'b1;
      out_valid_reg <= 1'b1;
    end else if (m_ready) begin
      out_valid_reg <= 1'b0;
    end
    if (rst) begin
      wr_ptr_reg <= '0;
      commit_ptr_reg <= '0;
      rd_ptr_reg <= '0;
      out_valid_reg <= 1'b0;
    end
  end
`ifndef SYNTHESIS
  // The reader never passes the writer, nor the writer the reader by more than DEPTH, and
  // the output word is held while it waits to be taken.
  a_occupancy: assert property (@(posedge clk) disable iff (rst) (wr_ptr_reg - rd_ptr_reg) <= (AW+1)'(DEPTH));
  a_m_hold: assert property (@(posedge clk) disable iff (rst) m_valid && !m_ready |=> m_valid && $stable(m_data));
`endif
endmodule
