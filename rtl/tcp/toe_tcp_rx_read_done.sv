// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rx_read_done: completions of application reads. It takes the RX ring reader's
// completions (in job order, one per cycle), owns each session's RX_READ (the end of the
// RX ring bytes the application has read, which frees receive window) and wakes the
// protocol core only when a read matters to it, so a read completion costs the core no
// event in the common case (the window is wide open and the connection is not ending).
//   A completion of length L at offset O sets RX_READ = O + L (a session's reads complete
//   in the order they were issued, and the next one starts where the last ended). A
//   completion of length 0 (a refused read) changes nothing.
//   Wake: the core writes, with every record it writes (op_*), whether it wants to be
//   told of reads of the session (op_wake_on: its advertised window is below half the
//   ring, or the connection has ended and waits for reads in flight before its release)
//   and the RX_READ it computed with (op_seen). A session is woken (m_wake) by every
//   completion taken while its wake bit is on, and by a write that turns the bit on while
//   RX_READ already differs from op_seen (a completion that came between the core's read
//   of RX_READ and its write). So no read the core waits for goes untold.
//   A new connection's initial RX_READ is written by the core (op_init); when the session
//   is created no read of it can be in flight (its previous connection's reads all
//   completed before it was released).
// Reads by the core (rd_session/rd_rx_read, one cycle): a write in progress and an init
// being given are forwarded; a completion taken but not yet written is not, so a value is
// at most one completion old, which only makes the core's checks stricter (a smaller
// window, a release later).
// Ordering: the core's writes and the completions go through one two-stage pipeline (the
// core's first when both come in a cycle; a completion waits), each reading the record
// as the one before it wrote it, so the comparison of op_seen is exact.
// Wakes queue in a FIFO of DEPTH; a completion is taken only when the FIFO has room for
// it, for the two entries in the pipeline, and for two core writes that may follow.
module toe_tcp_rx_read_done
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned DEPTH        = 8      // wakes held for the core
) (
  input  logic          clk,
  input  logic          rst,
  // RX ring reader completions
  input  logic          s_done_valid,
  output logic          s_done_ready,
  input  tcp_ring_job_t s_done,
  // the core, with every record it writes
  input  logic          op_valid,
  input  sid_t          op_session,
  input  logic          op_init,       // a new connection: RX_READ = op_rx_read
  input  logic [31:0]   op_rx_read,
  input  logic          op_wake_on,
  input  logic [31:0]   op_seen,       // the RX_READ the core computed with
  // the core reads a session's RX_READ (value one cycle after the address)
  input  sid_t          rd_session,
  output logic [31:0]   rd_rx_read,
  // sessions whose reads the core must look at
  output logic          m_wake_valid,
  input  logic          m_wake_ready,
  output sid_t          m_wake_session
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam int unsigned CW = $clog2(DEPTH) + 1;

  typedef struct packed {
    logic [31:0] rx_read;
    logic        wake_on;
  } rec_t;
  rec_t mem [MAX_SESSIONS];

  // ---- stage 1: an operation taken, its session's record read ----
  logic [CW-1:0] count_reg;            // wakes in the FIFO
  logic st_valid_reg, st_core_reg, st_init_reg, st_wake_on_reg;
  logic [SW-1:0] st_sid_reg;
  logic [31:0] st_value_reg, st_seen_reg;   // op_rx_read, or the completion's end
  logic st_len_zero_reg;
  rec_t st_rec_reg;
  logic wr_en;
  logic [SW-1:0] wr_sid;
  rec_t wr_rec;

  wire [CW+1:0] reserved = (CW+2)'(count_reg) + (CW+2)'(st_valid_reg) + 2;
  assign s_done_ready = !op_valid && reserved < (CW+2)'(DEPTH);
  wire take = s_done_valid && s_done_ready;
  wire [SW-1:0] in_sid = op_valid ? SW'(op_session) : SW'(s_done.session);

  always_ff @(posedge clk) begin
    if (wr_en) mem[wr_sid] <= wr_rec;
    st_rec_reg <= wr_en && wr_sid == in_sid ? wr_rec : mem[in_sid];
    st_valid_reg <= op_valid || take;
    st_core_reg <= op_valid;
    st_sid_reg <= in_sid;
    st_init_reg <= op_init;
    st_wake_on_reg <= op_wake_on;
    st_seen_reg <= op_seen;
    st_value_reg <= op_valid ? op_rx_read : s_done.offset + 32'(s_done.length);
    st_len_zero_reg <= s_done.length == '0;
    if (rst) st_valid_reg <= 1'b0;
  end

  // ---- stage 2: the record written, a wake pushed ----
  logic push;
  always_comb begin
    wr_en = st_valid_reg;
    wr_sid = st_sid_reg;
    wr_rec = st_rec_reg;
    push = 1'b0;
    if (st_valid_reg && st_core_reg) begin
      wr_rec.wake_on = st_wake_on_reg;
      if (st_init_reg) wr_rec.rx_read = st_value_reg;
      else push = st_wake_on_reg && !st_rec_reg.wake_on && st_rec_reg.rx_read != st_seen_reg;
    end else if (st_valid_reg && !st_len_zero_reg) begin
      wr_rec.rx_read = st_value_reg;
      push = st_rec_reg.wake_on;
    end
  end

  // the core's read: the write of this cycle and an init given this cycle are forwarded
  always_ff @(posedge clk) begin
    if (op_valid && op_init && SW'(op_session) == SW'(rd_session)) rd_rx_read <= op_rx_read;
    else if (wr_en && wr_sid == SW'(rd_session)) rd_rx_read <= wr_rec.rx_read;
    else rd_rx_read <= mem[SW'(rd_session)].rx_read;
  end

  logic [SW-1:0] wake_sid;
  toe_fifo #(.WIDTH(SW), .DEPTH(DEPTH)) u_wake (.clk, .rst, .s_data(st_sid_reg), .s_valid(push),
    .s_ready(), .commit(1'b0), .rewind(1'b0), .m_data(wake_sid), .m_valid(m_wake_valid),
    .m_ready(m_wake_ready), .uncommitted());
  assign m_wake_session = SID_W'(wake_sid);
  always_ff @(posedge clk) begin
    count_reg <= count_reg + CW'(push) - CW'(m_wake_valid && m_wake_ready);
    if (rst) count_reg <= '0;
  end

`ifndef SYNTHESIS
  // A core write may wake a session only after a completion it did not see, and the
  // completions stop while the FIFO is short of room, so it never overflows.
  always @(posedge clk) if (!rst && push) assert (count_reg < CW'(DEPTH))
    else $error("toe_tcp_rx_read_done: wake FIFO overflow");
`endif
endmodule
