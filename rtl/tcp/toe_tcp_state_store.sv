// SPDX-License-Identifier: Apache-2.0
// toe_tcp_state_store: the store of the per-session record behind toe_tcp_core, the part
// a multi-level state cache (the hot part on chip, every session in DRAM) will take the
// place of. Here it is on chip: the hot part and the cold part in two toe_state_ram
// tables (same address, same hold; the cold part written only when wr_cold), and the
// read's answer is told (rd_answered) instead of being counted on after two cycles.
// Contract (the core's side of it, which a cache must keep too):
//   - A read is rd_addr, issued every cycle; a read held at one address in consecutive
//     cycles is one read. If rd_answered is high in cycle t, the read of cycle t-1 is
//     answered in cycle t+1: then, with hold low in cycle t, rd_hot and rd_cold in cycle
//     t+1 are the record at rd_addr of cycle t-1 with every write up to cycle t
//     (toe_state_ram's contract; the writes in flight are forwarded). A reader waits for
//     rd_answered with its address held; nothing else waits behind the store.
//   - Once answered, a read stays answered while its address is held.
//   - pf_valid, pf_session: a record that will be read soon (a looked-up segment's
//     session, or the head of another of the core's event sources, before its event
//     starts), which the store may fetch ahead, so
//     that several records' waits overlap instead of each waiting in turn at the read. A
//     hint: the store may ignore it, and a read never depends on one.
//   - How long a read waits: READ_WAIT = 0, not at all (rd_answered is always high: the
//     on-chip read of two cycles, as before the store told its answers). READ_WAIT > 0
//     stands for a cache of LINES records in front of a slower store, for the tests and
//     the bench to show that the core takes the record when it is answered, not two
//     cycles after its read, and what a slower store costs: a record fetched ahead (pf_*)
//     or read last is in a line; a fetch takes a pseudo-random 0..READ_WAIT cycles (an
//     LFSR, so runs repeat); a read of a record in a line is answered once its fetch is
//     done, and a read of any other record waits 0..READ_WAIT cycles more itself, then
//     takes a line. Lines are replaced in turn, the one being read kept (the data stays
//     in the on-chip tables: the lines model when records come, not where).
//   - Writes (wr_en, wr_addr, wr_hot; wr_cold with wr_cold_data) are never refused and
//     never wait.
//   - hold stops the output stage, as toe_state_ram's.
//   - rd_use, rd_use_addr: the reader uses the answer in this cycle as the record of
//     rd_use_addr (the core: ST_PRE and its session). Checked in simulation: the output is
//     the answered read of that record, unheld (the contract above from the reader's side).
module toe_tcp_state_store
  import toe_tcp_sess_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned READ_WAIT    = 0,   // 0: on chip, answered in two cycles; else up to this many cycles more
  parameter int unsigned LINES        = 16,  // with READ_WAIT > 0: the records fetched ahead or read last, answered at once
  localparam int unsigned SW = $clog2(MAX_SESSIONS)
) (
  input  logic          clk,
  input  logic          rst,
  input  logic          wr_en,
  input  logic [SW-1:0] wr_addr,
  input  hot_t          wr_hot,
  input  logic          wr_cold,
  input  cold_t         wr_cold_data,
  input  logic [SW-1:0] rd_addr,
  input  logic          hold,
  output logic          rd_answered,
  output hot_t          rd_hot,
  output hot_t          rd_hot_ram, rd_hot_new, rd_hot_old,   // toe_state_ram's candidates and choice
  output logic          rd_is_new, rd_is_old,
  output cold_t         rd_cold,
  input  logic          rd_use,
  input  logic [SW-1:0] rd_use_addr,
  input  logic          pf_valid,
  input  logic [SW-1:0] pf_session
);
  toe_state_ram #(.WIDTH($bits(hot_t)), .DEPTH(MAX_SESSIONS)) u_hot (
    .clk, .wr_en, .wr_addr, .wr_data(wr_hot), .ann_en(1'b0), .ann_addr('0), .ann_data('0), .rd_addr, .hold,
    .rd_data(rd_hot), .rd_ram(rd_hot_ram), .rd_new(rd_hot_new), .rd_old(rd_hot_old), .rd_is_new, .rd_is_old
  );
  toe_state_ram #(.WIDTH($bits(cold_t)), .DEPTH(MAX_SESSIONS)) u_cold (
    .clk, .wr_en(wr_en && wr_cold), .wr_addr, .wr_data(wr_cold_data), .ann_en(1'b0), .ann_addr('0), .ann_data('0),
    .rd_addr, .hold, .rd_data(rd_cold), .rd_ram(), .rd_new(), .rd_old(), .rd_is_new(), .rd_is_old()
  );

  if (READ_WAIT == 0) begin : g_on_chip
    assign rd_answered = 1'b1;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_pf = pf_valid ^ ^pf_session;   // every record is on chip: nothing to fetch ahead
    /* verilator lint_on UNUSEDSIGNAL */
  end else begin : g_wait
    // The waits are drawn from a 16-bit Fibonacci LFSR (x^16 + x^14 + x^13 + x^11 + 1),
    // stepped every cycle.
    localparam int unsigned CW = $clog2(READ_WAIT + 2);
    localparam int unsigned LW = LINES > 1 ? $clog2(LINES) : 1;
    logic [15:0] lfsr_reg;
    wire [CW-1:0] draw = CW'(lfsr_reg % 16'(READ_WAIT + 1));
    // the read: its address in the cycle before (addr_reg), the cycles it has been issued
    // before that one (since_reg, saturating above the longest wait) and its own wait
    logic [SW-1:0] addr_reg;
    logic [CW-1:0] since_reg, wait_reg;
    // the lines: a record and the cycles left of its fetch
    logic [LINES-1:0] line_on_reg;
    logic [SW-1:0] line_sid_reg [LINES];
    logic [CW-1:0] line_left_reg [LINES];
    logic [LW-1:0] victim_reg;   // the line replaced next
    logic [LINES-1:0] read_in, pf_in, use_in;
    always_comb for (int i = 0; i < LINES; i++) begin
      read_in[i] = line_on_reg[i] && line_sid_reg[i] == addr_reg;
      pf_in[i] = line_on_reg[i] && line_sid_reg[i] == pf_session;
      use_in[i] = line_on_reg[i] && line_sid_reg[i] == rd_use_addr;
    end
    logic read_fetched;   // the read's record is in a line whose fetch is done
    always_comb begin
      read_fetched = 1'b0;
      for (int i = 0; i < LINES; i++) read_fetched |= read_in[i] && line_left_reg[i] == '0;
    end
    assign rd_answered = read_in != '0 ? read_fetched : since_reg >= wait_reg;
    // a line taken: a record fetched ahead that is in none and not being read (that read
    // waits on its own), else a record read that is in none (it came by its own wait); the
    // line being read is passed over
    wire take_pf = pf_valid && pf_in == '0 && pf_session != addr_reg;
    wire take_use = !take_pf && rd_use && use_in == '0;
    wire [LW-1:0] victim = read_in[victim_reg] ? LW'((32'(victim_reg) + 1) % LINES) : victim_reg;
    always_ff @(posedge clk) begin
      lfsr_reg <= {lfsr_reg[14:0], lfsr_reg[15] ^ lfsr_reg[13] ^ lfsr_reg[12] ^ lfsr_reg[10]};
      addr_reg <= rd_addr;
      if (rd_addr != addr_reg) begin
        since_reg <= '0;
        wait_reg <= draw;
      end else if (since_reg <= CW'(READ_WAIT)) since_reg <= since_reg + 1'b1;
      for (int i = 0; i < LINES; i++) if (line_left_reg[i] != '0) line_left_reg[i] <= line_left_reg[i] - 1'b1;
      if (take_pf || take_use) begin
        line_on_reg[victim] <= 1'b1;
        line_sid_reg[victim] <= take_pf ? pf_session : rd_use_addr;
        line_left_reg[victim] <= take_pf ? draw : '0;
        victim_reg <= LW'((32'(victim) + 1) % LINES);
      end
      if (rst) begin
        lfsr_reg <= 16'hACE1;
        since_reg <= '0;
        wait_reg <= CW'(READ_WAIT);
        line_on_reg <= '0;
        victim_reg <= '0;
      end
    end
  end

`ifndef SYNTHESIS
  // The reader uses an answered, unheld read of the record it names: the address two
  // cycles before, answered in the cycle before, the output not held in it.
  logic [SW-1:0] addr_d1_reg, addr_d2_reg;
  logic answered_d1_reg, hold_d1_reg;
  logic [1:0] age_reg;
  initial age_reg = '0;
  always @(posedge clk) begin
    if (rd_use && age_reg == 2'd2)
      assert (answered_d1_reg && !hold_d1_reg && addr_d2_reg == rd_use_addr)
        else $error("toe_tcp_state_store: record %0d used without its answered read (answered %0b, held %0b, read %0d)",
                    rd_use_addr, answered_d1_reg, hold_d1_reg, addr_d2_reg);
    addr_d1_reg <= rd_addr;
    addr_d2_reg <= addr_d1_reg;
    answered_d1_reg <= rd_answered;
    hold_d1_reg <= hold;
    if (age_reg != 2'd2) age_reg <= age_reg + 2'd1;
    if (rst) age_reg <= '0;
  end
`endif
endmodule
