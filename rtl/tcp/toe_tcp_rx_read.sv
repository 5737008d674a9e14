// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rx_read: the application's reads. It takes the application's read requests and
// the RX ring reader's completions, owns each session's RX_REQ (the end of the RX ring
// bytes the application asked for) and RX_READ (the end of those it has read, which frees
// receive window), and wakes the protocol core only when a read matters to it, so a read
// costs the core no event in the common case (the window is wide open and the connection
// is not ending).
//   Request of length L: accepted when the session is readable (a bit the core owns: the
//   connection is established or later and, after an abortive end, the application has
//   not yet taken its final notification), 0 < L and L <= RX_DONE - RX_REQ (RX_DONE:
//   toe_tcp_rx_deliver's, the bytes told to the application); then a ring read job
//   [RX_REQ, RX_REQ + L) is given and RX_REQ += L. Refused: a job of length 0 (the reader
//   gives rx_meta with length 0 and no data) and a stat_refused pulse.
//   Completion of length L at offset O: RX_READ = O + L (a session's reads complete in the
//   order they were issued). One of length 0 changes nothing.
//   The core writes, with every record it writes (op_*): readable; whether it wants to be
//   told of reads (op.wake_on: its advertised window is below half the ring, or the
//   connection has ended and waits for reads before its release); the RX_READ it computed
//   with (op.seen); and, for a new connection, the initial RX_REQ = RX_READ (op.init; no
//   read of the session can be in flight then: its previous connection's reads all
//   completed before it was released).
//   Wake (m_wake): a session is queued for the core by a completion taken while its wake
//   bit is on; by a core write with the bit on while RX_READ differs from op.seen (a
//   completion came between the core's read and its write); and by a core write that
//   turns readable off with the bit on (the core releases an aborted connection only once
//   it has read the bit off: from then on no request is accepted, so the RX_REQ it read
//   is final). A session is in the queue at most once (a queued bit, cleared by the write
//   of the core's event that took it, op.woken), so the queue, MAX_SESSIONS deep, cannot
//   overflow; what happens while it waits is seen by that event.
// Reads by the core (rd_*): in two cycles, as the core reads its record (a toe_state_ram of
// the three fields it reads, beside the table, at the record's address and with its hold:
// from the block RAM's output register, not its latch, whose clock-to-out led the
// advertised edge's compares at 64 bits: 5.28 ns in Yosys' cell-delay model, stop 72):
// every write up to the cycle before the data is forwarded, and an init given in that
// cycle (announced: its write comes a cycle later); an operation taken but not yet written
// is not, so a value is at most one operation old, which only makes the core's checks
// stricter.
// Ordering: the core's writes, completions and requests go through one two-stage pipeline
// (the core's first, then completions, then requests), each reading the record as the one
// before it wrote it. A request is taken only when the job FIFO (DEPTH) has room for it and
// the pipeline's entry.
module toe_tcp_rx_read
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned RING_BYTES   = 65536,
  parameter int unsigned DEPTH        = 8      // jobs held for the ring reader
) (
  input  logic          clk,
  input  logic          rst,
  input  logic [47:0]   cfg_mem_base,
  // application read requests
  input  logic          s_req_valid,
  output logic          s_req_ready,
  input  tcp_rd_req_t   s_req,
  // ring read jobs, and their completions
  output logic          m_job_valid,
  input  logic          m_job_ready,
  output tcp_ring_job_t m_job,
  input  logic          s_done_valid,
  output logic          s_done_ready,
  input  tcp_ring_job_t s_done,
  // toe_tcp_rx_deliver: RX_DONE (value one cycle after the address)
  output sid_t          rx_done_session,
  input  logic [31:0]   rx_done,
  // the core, with every record it writes
  input  logic          op_valid,
  input  sid_t          op_session,
  input  tcp_core2rxread_t op,         // woken (or the reset's clear), init, readable, wake_on, seen
  // the core reads a session's fields (values two cycles after the address; rd_hold keeps them)
  input  sid_t          rd_session,
  input  logic          rd_hold,
  output tcp_rxread2core_t rd,
  // sessions whose reads the core must look at
  output logic          m_wake_valid,
  input  logic          m_wake_ready,
  output sid_t          m_wake_session,
  output logic          stat_refused   // a request refused (one-cycle pulse)
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam int unsigned CW = $clog2(DEPTH) + 1;

  typedef struct packed {
    logic [31:0] rx_req;
    logic [31:0] rx_read;
    logic        readable;
    logic        wake_on;
    logic        queued;      // in the wake queue
  } rec_t;
  rec_t mem [MAX_SESSIONS];

  typedef enum logic [1:0] {OP_CORE, OP_DONE, OP_REQ} op_e;

  // ---- stage 1: an operation taken, its session's record read ----
  logic [CW-1:0] job_count_reg;   // entries in the job FIFO
  logic st_valid_reg, st_woken_reg, st_init_reg, st_readable_reg, st_wake_on_reg;
  op_e st_op_reg;
  logic [SW-1:0] st_sid_reg;
  logic [31:0] st_value_reg, st_seen_reg;   // op.rx_first, or the completion's end
  logic [16:0] st_len_reg;                  // the completion's or the request's length
  rec_t st_rec_reg;
  logic wr_en;
  logic [SW-1:0] wr_sid;
  rec_t wr_rec;

  wire st_jobs = st_valid_reg && st_op_reg == OP_REQ;
  assign s_done_ready = !op_valid;
  wire take_done = s_done_valid && s_done_ready;
  assign s_req_ready = !op_valid && !take_done && (CW+1)'(job_count_reg) + (CW+1)'(st_jobs) < (CW+1)'(DEPTH);
  wire take_req = s_req_valid && s_req_ready;
  wire [SW-1:0] in_sid = op_valid ? SW'(op_session) : take_done ? SW'(s_done.session) : SW'(s_req.session);
  assign rx_done_session = SID_W'(in_sid);

  always_ff @(posedge clk) begin
    if (wr_en) mem[wr_sid] <= wr_rec;
    st_rec_reg <= wr_en && wr_sid == in_sid ? wr_rec : mem[in_sid];
    st_valid_reg <= op_valid || take_done || take_req;
    st_op_reg <= op_valid ? OP_CORE : take_done ? OP_DONE : OP_REQ;
    st_sid_reg <= in_sid;
    st_woken_reg <= op.woken;
    st_init_reg <= op.init;
    st_readable_reg <= op.readable;
    st_wake_on_reg <= op.wake_on;
    st_seen_reg <= op.seen;
    st_value_reg <= op_valid ? op.rx_first : s_done.offset + 32'(s_done.length);
    st_len_reg <= take_done ? s_done.length : 17'(s_req.length);
    if (rst) st_valid_reg <= 1'b0;
  end

  // ---- stage 2: the record written, a wake or a job pushed ----
  logic push_wake, push_job, accept;
  tcp_ring_job_t job;
  always_comb begin
    wr_en = st_valid_reg;
    wr_sid = st_sid_reg;
    wr_rec = st_rec_reg;
    push_wake = 1'b0;
    // L <= RX_DONE - RX_REQ as one sum (RX_REQ never passes RX_DONE: exact)
    accept = st_rec_reg.readable && st_len_reg != '0 && !neg(rx_done - 32'(st_len_reg) - st_rec_reg.rx_req);
    push_job = st_valid_reg && st_op_reg == OP_REQ;
    job = '{session: SID_W'(st_sid_reg), tag: 3'd0,
            base: ring_base(cfg_mem_base, SID_W'(st_sid_reg), 1'b0, RING_BYTES),
            offset: st_rec_reg.rx_req, length: accept ? st_len_reg : '0, skip: '0, reassembled: '0};
    if (st_valid_reg) unique case (st_op_reg)
      OP_CORE: begin
        wr_rec.readable = st_readable_reg;
        wr_rec.wake_on = st_wake_on_reg;
        if (st_woken_reg) wr_rec.queued = 1'b0;
        if (st_init_reg) {wr_rec.rx_req, wr_rec.rx_read} = {st_value_reg, st_value_reg};
        else push_wake = !wr_rec.queued && st_wake_on_reg &&
                         (st_rec_reg.rx_read != st_seen_reg || (st_rec_reg.readable && !st_readable_reg));
      end
      OP_DONE: if (st_len_reg != '0) begin
        wr_rec.rx_read = st_value_reg;
        push_wake = st_rec_reg.wake_on && !st_rec_reg.queued;
      end
      default: if (accept) wr_rec.rx_req = st_rec_reg.rx_req + 32'(st_len_reg);
    endcase
    if (push_wake) wr_rec.queued = 1'b1;
  end
  assign stat_refused = push_job && !accept;

  // The core's read: the fields it reads, in a table of their own written with the record
  // (toe_state_ram: its output register and the forwarding of the writes in between); a
  // core init's write comes a cycle after the init, so the init is announced (not in reset,
  // where the pipeline takes nothing).
  function automatic tcp_rxread2core_t core_view(input rec_t r);
    return '{rx_req: r.rx_req, rx_read: r.rx_read, readable: r.readable};
  endfunction
  tcp_rxread2core_t init_view;   // the fields an init writes (stage 2 above)
  assign init_view = '{rx_req: op.rx_first, rx_read: op.rx_first, readable: op.readable};
  toe_state_ram #(.WIDTH($bits(tcp_rxread2core_t)), .DEPTH(MAX_SESSIONS)) u_core_rd (
    .clk, .wr_en, .wr_addr(wr_sid), .wr_data(core_view(wr_rec)),
    .ann_en(op_valid && op.init && !rst), .ann_addr(SW'(op_session)), .ann_data(init_view),
    .rd_addr(SW'(rd_session)), .hold(rd_hold), .rd_data(rd), .rd_ram(), .rd_new(), .rd_old(), .rd_is_new(),
    .rd_is_old()
  );

  logic [SW-1:0] wake_sid;
  logic wake_q_ready;     // never low when pushed: a session is queued at most once
  toe_fifo #(.WIDTH(SW), .DEPTH(MAX_SESSIONS)) u_wake (.clk, .rst, .s_data(st_sid_reg), .s_valid(push_wake),
    .s_ready(wake_q_ready), .commit(1'b0), .rewind(1'b0), .m_data(wake_sid), .m_valid(m_wake_valid),
    .m_ready(m_wake_ready), .uncommitted());
  assign m_wake_session = SID_W'(wake_sid);
  toe_fifo #(.WIDTH(TCP_RING_JOB_W), .DEPTH(DEPTH)) u_job (.clk, .rst, .s_data(job), .s_valid(push_job),
    .s_ready(), .commit(1'b0), .rewind(1'b0), .m_data(m_job), .m_valid(m_job_valid),
    .m_ready(m_job_ready), .uncommitted());
  always_ff @(posedge clk) begin
    job_count_reg <= job_count_reg + CW'(push_job) - CW'(m_job_valid && m_job_ready);
    if (rst) begin
      job_count_reg <= '0;
    end
  end

`ifndef SYNTHESIS
  // a session is queued at most once, so the wake queue never overflows
  always @(posedge clk) if (!rst && push_wake) assert (wake_q_ready) else $error("toe_tcp_rx_read: wake queue overflow");
  always @(posedge clk) if (!rst && push_job) assert (job_count_reg < CW'(DEPTH))
    else $error("toe_tcp_rx_read: job FIFO overflow");
  // RX_READ never passes RX_REQ (a completion ends a read that was accepted)
  always @(posedge clk) if (!rst && wr_en && st_op_reg == OP_DONE && st_len_reg != '0)
    assert (!seq_lt(st_rec_reg.rx_req, st_value_reg))
      else $error("toe_tcp_rx_read: session %0d read past its requests", st_sid_reg);
`endif
endmodule
