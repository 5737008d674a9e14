// SPDX-License-Identifier: Apache-2.0
// toe_tcp_tx_req: the application's send requests and their completions. It answers the
// requests (tx_rsp), owns each session's TX_APP (the end of the TX ring bytes the
// application has been granted), TX_WANT (the free space an application waits for after
// TX_NO_SPACE) and TX_DONE (the end of the bytes the TX ring writer has written), gives the
// writer its jobs and takes its completions, so a send request costs the protocol core no
// event and its completion at most a wake (none while the session's wake is queued).
//   Request of length L: TX_NOT_CONNECTED unless the session is sendable (a bit the core
//   owns: established or CLOSE-WAIT, no close asked for, not ended), with a stat_error
//   pulse when the application knew (a core bit: FREE, close asked for, or told the end);
//   else with AVAIL = RING_BYTES - (TX_APP - SND.UNA): TX_NO_SPACE (space = AVAIL) when
//   L = 0 or L > AVAIL, and TX_WANT = min(L, RING_BYTES); else TX_ACCEPTED (space =
//   AVAIL - L), a job [TX_APP, TX_APP + L) and TX_APP += L.
//   SND.UNA is the core's: it writes it with every record (op.snd_una), so AVAIL is at
//   most one record write old, which only makes the check stricter.
//   Completion (s_done, the writer's, in job order): TX_DONE = offset + length (the job's
//   end: jobs complete in the order they were given, so each continues TX_DONE, asserted).
//   The core writes, with every record it writes (op_*): sendable, the error bit, SND.UNA,
//   and for a new connection the initial TX_APP and TX_DONE (op.init; TX_WANT = 0). After it told the
//   application NOTIF_TX_SPACE it asks for TX_WANT to be cleared (op.clear_want): cleared
//   only if it still holds the value the core saw (op.want_seen), so a newer TX_NO_SPACE
//   waits for its own notification.
//   Wake (m_wake): by the core write that turns sendable off (the core trusts TX_APP, to
//   send its FIN after the last byte or to release the session, only once it has read
//   sendable off: from then on no request is accepted); and by a core write after which
//   a sendable session's TX_WANT (not 0) fits in the free space with the SND.UNA written
//   (a TX_NO_SPACE decided with an older SND.UNA than the ACK the core had just taken, or
//   an ACK that could not notify: the core gives NOTIF_TX_SPACE on the wake, so no app
//   waits for an ACK that will not come); by a completion (the core sends the bytes
//   written); and by the write of the event that took the wake when TX_DONE is no longer
//   the one that event read (op.tx_done_seen: a completion came while the wake was taken,
//   and found it queued). A session is in the queue at most once (a queued bit, cleared by
//   the write of the core's event that took it, op.woken), so the queue, MAX_SESSIONS
//   deep, cannot overflow.
// Reads by the core (rd_*): in two cycles, as the core reads its record (a toe_state_ram of
// the four fields it reads, beside the table: block RAM with its output register, so the
// fast path's compares of TX_DONE and TX_WANT start at registers, not at the RAM's latch,
// whose clock-to-out led them at 64 bits: 5.77 ns in Yosys' cell-delay model, stop 72):
// rd in cycle t is the session at rd_session of cycle t-2 with every write up to cycle t-1
// and an init given in cycle t-1 (written in t: announced); rd_hold holds it (the core's
// slow path reads it for several cycles). A request taken but not yet written is not
// forwarded (one request old at most).
// Ordering: the core's writes, the completions and the requests go through one two-stage
// pipeline (in that priority), each reading the record as the one before it wrote it. A request is taken
// only when the response and job FIFOs (DEPTH) have room for it and the pipeline's entry.
// A request holds a job place from stage 2 (job_count_reg counts it) until the cycle after,
// when a refused one gives it back (job_refused_reg): the count does not wait for the
// space compare, which comes after the record's RAM read.
module toe_tcp_tx_req
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned RING_BYTES   = 65536,
  parameter int unsigned DEPTH        = 8      // responses held for the app, jobs for the writer
) (
  input  logic          clk,
  input  logic          rst,
  input  logic [47:0]   cfg_mem_base,
  // application send requests and their answers
  input  logic          s_req_valid,
  output logic          s_req_ready,
  input  tcp_tx_req_t   s_req,
  output logic          m_rsp_valid,
  input  logic          m_rsp_ready,
  output tcp_tx_rsp_t   m_rsp,
  // TX ring write jobs, and their completions
  output logic          m_job_valid,
  input  logic          m_job_ready,
  output tcp_ring_job_t m_job,
  input  logic          s_done_valid,
  output logic          s_done_ready,
  input  tcp_ring_job_t s_done,
  // the core, with every record it writes
  input  logic          op_valid,
  input  sid_t          op_session,
  input  tcp_core2txreq_t op,          // woken (or the reset's clear), init (TX_WANT = 0), known_dead:
                                       // a request now is the application's error
  // the core reads a session's fields (values two cycles after the address; rd_hold keeps them)
  input  sid_t          rd_session,
  input  logic          rd_hold,
  output tcp_txreq2core_t rd,
  // sessions that stopped being sendable, whose TX_WANT fits now, or with bytes written
  output logic          m_wake_valid,
  input  logic          m_wake_ready,
  output sid_t          m_wake_session,
  output logic          stat_error     // a request the application should have known to fail
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam int unsigned CW = $clog2(DEPTH) + 1;
  localparam logic [31:0] RING = 32'(RING_BYTES);

  typedef struct packed {
    logic [31:0] tx_app;
    logic [31:0] tx_done;
    logic [16:0] tx_want;
    logic [31:0] snd_una;
    logic        sendable;
    logic        known_dead;
    logic        queued;      // in the wake queue
  } rec_t;
  rec_t mem [MAX_SESSIONS];

  // ---- stage 1: an operation taken, its session's record read ----
  logic [CW-1:0] rsp_count_reg, job_count_reg;   // job_count_reg: jobs queued or held
  logic job_refused_reg;                          // last cycle's request queued no job
  logic st_valid_reg, st_core_reg, st_done_reg, st_woken_reg, st_init_reg, st_sendable_reg, st_known_dead_reg,
        st_clear_want_reg;
  logic [SW-1:0] st_sid_reg;
  logic [31:0] st_first_reg, st_snd_una_reg, st_done_seen_reg;
  logic [31:0] st_done_offset_reg, st_done_end_reg;   // the completion's job
  logic [16:0] st_want_seen_reg;
  logic [15:0] st_len_reg;
  rec_t st_rec_reg;
  logic wr_en;
  logic [SW-1:0] wr_sid;
  rec_t wr_rec;

  wire st_req = st_valid_reg && !st_core_reg && !st_done_reg;
  assign s_done_ready = !op_valid;
  wire done_take = s_done_valid && s_done_ready;
  assign s_req_ready = !op_valid && !s_done_valid && (CW+1)'(rsp_count_reg) + (CW+1)'(st_req) < (CW+1)'(DEPTH) &&
                       (CW+1)'(job_count_reg) + (CW+1)'(st_req) < (CW+1)'(DEPTH);
  wire take = s_req_valid && s_req_ready;
  wire [SW-1:0] in_sid = op_valid ? SW'(op_session) : s_done_valid ? SW'(s_done.session) : SW'(s_req.session);

  always_ff @(posedge clk) begin
    if (wr_en) mem[wr_sid] <= wr_rec;
    st_rec_reg <= wr_en && wr_sid == in_sid ? wr_rec : mem[in_sid];
    st_valid_reg <= op_valid || done_take || take;
    st_core_reg <= op_valid;
    st_done_reg <= done_take;
    st_done_offset_reg <= s_done.offset;
    st_done_end_reg <= s_done.offset + 32'(s_done.length);
    st_done_seen_reg <= op.tx_done_seen;
    st_sid_reg <= in_sid;
    st_woken_reg <= op.woken;
    st_init_reg <= op.init;
    st_first_reg <= op.tx_first;
    st_sendable_reg <= op.sendable;
    st_known_dead_reg <= op.known_dead;
    st_snd_una_reg <= op.snd_una;
    st_clear_want_reg <= op.clear_want;
    st_want_seen_reg <= op.want_seen;
    st_len_reg <= s_req.length;
    if (rst) st_valid_reg <= 1'b0;
  end

  // ---- stage 2: the record written; an answer, a job or a wake pushed ----
  logic push_wake, push_rsp, push_job;
  logic [31:0] avail;
  logic [31:0] avail_after;   // avail - L
  tcp_tx_rsp_t rsp;
  tcp_ring_job_t job;
  // The core's wake rule on the record it writes, its compares side by side (not through
  // the written fields): TX_WANT stays (not cleared by the core) and fits the TX ring's
  // free space with SND.UNA as the core read it.
  wire want_cleared = st_clear_want_reg && st_rec_reg.tx_want == st_want_seen_reg;
  // The free space, the space after L and the fits are toe_tcp_pkg's tx_ring_* rule (the
  // core's too): single sums, not the space, then L's difference and its compare in series
  // (3.19 ns into the answer at 512 bits, stop 54).
  wire want_fits = st_rec_reg.tx_want != '0 &&
                   tx_ring_fits(st_snd_una_reg, st_rec_reg.tx_app, 32'(st_rec_reg.tx_want), RING);
  always_comb begin
    wr_en = st_valid_reg;
    wr_sid = st_sid_reg;
    wr_rec = st_rec_reg;
    push_wake = 1'b0;
    push_rsp = st_req;
    push_job = 1'b0;
    avail = tx_ring_free(st_rec_reg.snd_una, st_rec_reg.tx_app, RING);
    avail_after = tx_ring_left(st_rec_reg.snd_una, st_rec_reg.tx_app, 32'(st_len_reg), RING);
    rsp = '{session: SID_W'(st_sid_reg), status: TX_NOT_CONNECTED, space: '0};
    job = '{session: SID_W'(st_sid_reg), tag: 3'd0, base: ring_base(cfg_mem_base, SID_W'(st_sid_reg), 1'b1, RING_BYTES),
            offset: st_rec_reg.tx_app, length: 17'(st_len_reg), skip: '0, reassembled: '0};
    if (st_valid_reg && st_core_reg) begin
      wr_rec.sendable = st_sendable_reg;
      wr_rec.known_dead = st_known_dead_reg;
      wr_rec.snd_una = st_snd_una_reg;
      if (st_woken_reg) wr_rec.queued = 1'b0;
      if (st_clear_want_reg && st_rec_reg.tx_want == st_want_seen_reg) wr_rec.tx_want = '0;
      if (st_init_reg) begin
        wr_rec.tx_app = st_first_reg;
        wr_rec.tx_done = st_first_reg;
        wr_rec.tx_want = '0;
      end else push_wake = !(st_rec_reg.queued && !st_woken_reg) &&
                           ((st_rec_reg.sendable && !st_sendable_reg) || (st_sendable_reg && !want_cleared && want_fits) ||
                            (st_woken_reg && st_rec_reg.tx_done != st_done_seen_reg));
    end else if (st_done_reg) begin
      wr_rec.tx_done = st_done_end_reg;
      push_wake = !st_rec_reg.queued;
    end else if (st_req && st_rec_reg.sendable) begin
      // L > avail (one sum beside avail's)
      if (st_len_reg == '0 || !tx_ring_fits(st_rec_reg.snd_una, st_rec_reg.tx_app, 32'(st_len_reg), RING)) begin
        rsp.status = TX_NO_SPACE;
        rsp.space = 17'(avail);
        // NOTIF_TX_SPACE once that much is free (a request above the ring: when it is empty)
        wr_rec.tx_want = 32'(st_len_reg) > RING ? 17'(RING) : 17'(st_len_reg);
      end else begin
        rsp.status = TX_ACCEPTED;
        rsp.space = 17'(avail_after);
        wr_rec.tx_app = st_rec_reg.tx_app + 32'(st_len_reg);
        push_job = 1'b1;
      end
    end
    if (push_wake) wr_rec.queued = 1'b1;
  end
  assign stat_error = st_req && !st_rec_reg.sendable && st_rec_reg.known_dead;

  // The core's read: the fields it reads, in a table of their own written with the record
  // (toe_state_ram: its output register and the forwarding of the writes in between); a
  // core init's write comes a cycle after the init, so the init is announced (not in reset,
  // where the pipeline takes nothing).
  function automatic tcp_txreq2core_t core_view(input rec_t r);
    return '{tx_app: r.tx_app, tx_done: r.tx_done, tx_want: r.tx_want, sendable: r.sendable};
  endfunction
  tcp_txreq2core_t init_view;   // the fields an init writes (stage 2 above)
  assign init_view = '{tx_app: op.tx_first, tx_done: op.tx_first, tx_want: 17'd0, sendable: op.sendable};
  toe_state_ram #(.WIDTH($bits(tcp_txreq2core_t)), .DEPTH(MAX_SESSIONS)) u_core_rd (
    .clk, .wr_en, .wr_addr(wr_sid), .wr_data(core_view(wr_rec)),
    .ann_en(op_valid && op.init && !rst), .ann_addr(SW'(op_session)), .ann_data(init_view),
    .rd_addr(SW'(rd_session)), .hold(rd_hold), .rd_data(rd), .rd_ram(), .rd_new(), .rd_old(), .rd_is_new(),
    .rd_is_old()
  );

  logic [SW-1:0] wake_sid;
  logic wake_q_ready;     // never low when pushed: a session is queued at most once
  // BYPASS: a wake into an empty queue is offered the next cycle (a completion's wake is on
  // the TX latency path: app bytes written -> the core sends them); the queue's output
  // register is then fabric's, after the block RAM's latch (toe_fifo)
  toe_fifo #(.WIDTH(SW), .DEPTH(MAX_SESSIONS), .BYPASS(1'b1)) u_wake (.clk, .rst, .s_data(st_sid_reg), .s_valid(push_wake),
    .s_ready(wake_q_ready), .commit(1'b0), .rewind(1'b0), .m_data(wake_sid), .m_valid(m_wake_valid),
    .m_ready(m_wake_ready), .uncommitted());
  assign m_wake_session = SID_W'(wake_sid);
  toe_fifo #(.WIDTH($bits(tcp_tx_rsp_t)), .DEPTH(DEPTH)) u_rsp (.clk, .rst, .s_data(rsp), .s_valid(push_rsp),
    .s_ready(), .commit(1'b0), .rewind(1'b0), .m_data(m_rsp), .m_valid(m_rsp_valid),
    .m_ready(m_rsp_ready), .uncommitted());
  toe_fifo #(.WIDTH(TCP_RING_JOB_W), .DEPTH(DEPTH)) u_job (.clk, .rst, .s_data(job), .s_valid(push_job),
    .s_ready(), .commit(1'b0), .rewind(1'b0), .m_data(m_job), .m_valid(m_job_valid),
    .m_ready(m_job_ready), .uncommitted());
  always_ff @(posedge clk) begin
    rsp_count_reg <= rsp_count_reg + CW'(push_rsp) - CW'(m_rsp_valid && m_rsp_ready);
    job_count_reg <= job_count_reg + CW'(st_req) - CW'(job_refused_reg) - CW'(m_job_valid && m_job_ready);
    job_refused_reg <= st_req && !push_job;
    if (rst) begin
      rsp_count_reg <= '0;
      job_count_reg <= '0;
      job_refused_reg <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // the ring-width tests are the 32-bit compares: a request to a sendable session sees an
  // occupancy of -1 .. RING
  always @(posedge clk) if (!rst && st_req && st_rec_reg.sendable)
    assert (st_rec_reg.tx_app - st_rec_reg.snd_una + 1 <= RING + 1 && avail == RING - (st_rec_reg.tx_app - st_rec_reg.snd_una) &&
            !tx_ring_fits(st_rec_reg.snd_una, st_rec_reg.tx_app, 32'(st_len_reg), RING) == (32'(st_len_reg) > avail))
      else $error("toe_tcp_tx_req: session %0d TX space test differs from its compare", st_sid_reg);
  // the writer completes a session's jobs in the order they were given: each completion
  // continues TX_DONE, and none comes for bytes not granted (TX_APP)
  always @(posedge clk) if (!rst && st_done_reg)
    assert (st_done_offset_reg == st_rec_reg.tx_done && !seq_lt(st_rec_reg.tx_app, st_done_end_reg))
      else $error("toe_tcp_tx_req: session %0d completion [%0d, %0d) does not continue TX_DONE %0d within TX_APP %0d",
                  st_sid_reg, st_done_offset_reg, st_done_end_reg, st_rec_reg.tx_done, st_rec_reg.tx_app);
  // a session is queued at most once, so the wake queue never overflows
  always @(posedge clk) if (!rst && push_wake) assert (wake_q_ready) else $error("toe_tcp_tx_req: wake queue overflow");
  always @(posedge clk) if (!rst && push_rsp) assert (rsp_count_reg < CW'(DEPTH))
    else $error("toe_tcp_tx_req: response FIFO overflow");
  always @(posedge clk) if (!rst && push_job) assert (job_count_reg < CW'(DEPTH))
    else $error("toe_tcp_tx_req: job FIFO overflow");
  // the count holds every queued job (the FIFO's own occupancy is its pointer difference)
  always @(posedge clk) if (!rst) assert (job_count_reg >= CW'(u_job.wr_ptr_reg - u_job.rd_ptr_reg) + CW'(u_job.m_valid))
    else $error("toe_tcp_tx_req: job count below the jobs queued");
`endif
endmodule
