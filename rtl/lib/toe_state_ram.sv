// SPDX-License-Identifier: Apache-2.0
// toe_state_ram: a table of DEPTH records of WIDTH bits, one write port and one read port,
// read in two cycles so that it maps onto a block RAM with its output register: the logic
// after the read starts from the register's clock-to-out, not from the RAM's (2.45 ns
// without the register on Artix-7 in Yosys' cell model, 0.88 ns with it: at 322 MHz no
// logic fits behind the RAM's output in the same cycle).
// Contract:
//   - wr_en, wr_addr, wr_data write the record in the cycle they are given.
//   - A read is issued every cycle, at rd_addr. If hold was low in cycle t-1, rd_data in
//     cycle t is the record at rd_addr of cycle t-2 with every write up to cycle t-1: the
//     writes of cycles t-2 and t-1 to it are forwarded (the later one wins). If hold was
//     high in cycle t-1, rd_data in cycle t is rd_data of cycle t-1.
//   - ann_en, ann_addr, ann_data announce the write of the next cycle (wr_en must then
//     write ann_data at ann_addr: asserted), for a writer that knows a record a cycle
//     before its pipeline writes it: a read whose data comes in that next cycle, which
//     the write itself would miss, gets the announced record (the newest of all).
//   - hold stops the output stage only (the RAM's output register, the forwarded records
//     and their selects): the reads issued while it is high go on, so the cycle after the
//     last held one already gives the read issued two cycles before it.
//   - rd_data is a 3:1 choice of registers (the output register, the last two writes).
//     The three are also given apart (rd_ram, rd_new, rd_old) with the choice (rd_is_new,
//     rd_is_old; rd_data = rd_is_new ? rd_new : rd_is_old ? rd_old : rd_ram), for a
//     reader that computes a few results of the record once per candidate and chooses
//     after: its compares then start at registers, not behind the choice.
// This is the state read of a fixed latency; a read of unknown latency (a cache with DRAM
// behind it) will answer with a valid instead.
module toe_state_ram #(
  parameter int unsigned WIDTH = 8,
  parameter int unsigned DEPTH = 16,
  localparam int unsigned AW = DEPTH > 1 ? $clog2(DEPTH) : 1
) (
  input  logic             clk,
  input  logic             wr_en,
  input  logic [AW-1:0]    wr_addr,
  input  logic [WIDTH-1:0] wr_data,
  input  logic             ann_en,
  input  logic [AW-1:0]    ann_addr,
  input  logic [WIDTH-1:0] ann_data,
  input  logic [AW-1:0]    rd_addr,
  input  logic             hold,
  output logic [WIDTH-1:0] rd_data,
  output logic [WIDTH-1:0] rd_ram, rd_new, rd_old,
  output logic             rd_is_new, rd_is_old
);
  logic [WIDTH-1:0] mem [DEPTH];
  // the stages before the output never hold: the RAM's latch, the last write, the read's
  // address and its compare with the write of the read's cycle
  logic [WIDTH-1:0] latch_reg, wr_last_reg;
  logic [AW-1:0] rd_addr_reg;
  logic fwd_old_reg;
  always_ff @(posedge clk) begin
    if (wr_en) mem[wr_addr] <= wr_data;
    latch_reg <= mem[rd_addr];
    wr_last_reg <= wr_data;
    rd_addr_reg <= rd_addr;
    fwd_old_reg <= wr_en && wr_addr == rd_addr;
  end
  // the output stage: the RAM's output register (nothing but the register and its enable,
  // so that it maps onto DOA_REG and REGCE), the writes of the read's cycle and the next
  // (the next one's, or the write announced for the cycle after, which is newer), and
  // whether each was to the record read
  logic [WIDTH-1:0] out_ram_reg, out_new_reg, out_old_reg;
  logic fwd_new_reg, fwd_old2_reg;
  wire ann_hit = ann_en && ann_addr == rd_addr_reg;
  always_ff @(posedge clk) if (!hold) begin
    out_ram_reg <= latch_reg;
    out_new_reg <= ann_hit ? ann_data : wr_data;
    out_old_reg <= wr_last_reg;
    fwd_new_reg <= ann_hit || (wr_en && wr_addr == rd_addr_reg);
    fwd_old2_reg <= fwd_old_reg;
  end
  assign rd_data = fwd_new_reg ? out_new_reg : fwd_old2_reg ? out_old_reg : out_ram_reg;
  assign {rd_ram, rd_new, rd_old, rd_is_new, rd_is_old} = {out_ram_reg, out_new_reg, out_old_reg, fwd_new_reg, fwd_old2_reg};

`ifndef SYNTHESIS
  // the contract, against a copy of the table read without delay (records never written
  // are not checked: the RAM and the copy start with different contents)
  logic [WIDTH-1:0] copy [DEPTH];
  logic [DEPTH-1:0] copy_set;
  logic [AW-1:0] addr_d1_reg, addr_d2_reg;   // rd_addr one and two cycles before
  logic hold_d1_reg;                         // hold in the cycle before
  logic [WIDTH-1:0] data_d1_reg;             // rd_data in the cycle before
  logic [1:0] age_reg;                       // cycles run, up to 2
  logic ann_d1_reg;                          // a write announced in the cycle before
  logic [AW-1:0] ann_addr_d1_reg;
  logic [WIDTH-1:0] ann_data_d1_reg;
  // the record the read gives: the announced one when the announce of the cycle before
  // was to it (its write is in this cycle), else the copy's
  wire [WIDTH-1:0] expect_rd = ann_d1_reg && ann_addr_d1_reg == addr_d2_reg ? ann_data_d1_reg : copy[addr_d2_reg];
  initial begin
    copy_set = '0;
    age_reg = '0;
    ann_d1_reg = 1'b0;
  end
  always @(posedge clk) begin
    if (age_reg == 2'd2 && !hold_d1_reg && (copy_set[addr_d2_reg] || (ann_d1_reg && ann_addr_d1_reg == addr_d2_reg)))
      assert (rd_data == expect_rd)
        else $error("toe_state_ram: record %0d read is not the last written (instance %m)", addr_d2_reg);
    if (age_reg == 2'd2 && hold_d1_reg)
      assert (rd_data == data_d1_reg) else $error("toe_state_ram: rd_data moved under hold (instance %m)");
    // an announced write is made in the next cycle, as announced
    if (age_reg != 2'd0 && ann_d1_reg)
      assert (wr_en && wr_addr == ann_addr_d1_reg && wr_data == ann_data_d1_reg)
        else $error("toe_state_ram: the write announced for record %0d was not made as announced (instance %m)", ann_addr_d1_reg);
    ann_d1_reg <= ann_en;
    ann_addr_d1_reg <= ann_addr;
    ann_data_d1_reg <= ann_data;
    if (wr_en) begin
      copy[wr_addr] <= wr_data;
      copy_set[wr_addr] <= 1'b1;
    end
    addr_d1_reg <= rd_addr;
    addr_d2_reg <= addr_d1_reg;
    hold_d1_reg <= hold;
    data_d1_reg <= rd_data;
    if (age_reg != 2'd2) age_reg <= age_reg + 2'd1;
  end
`endif
endmodule
