// SPDX-License-Identifier: Apache-2.0
// toe_tcp_rx_deliver: RX delivery. It takes the RX ring writer's completions (in job order,
// one per cycle), owns each session's RX_DONE (the end of the received bytes written to the
// ring and told to the application) and gives the application's notifications of them, so
// a received data segment costs the protocol core one event, not two.
//   An in-stream data job (tag NOTIF_DATA) ends the stream at offset + length +
//   reassembled (the bytes it stored, and those stored earlier out of order that join the
//   stream with it): that is the new RX_DONE, and a DATA notification of length +
//   reassembled bytes is given, unless the connection was aborted (the core's drop bit;
//   RFC 9293 3.10.7.4: a reset flushes the segment queues).
//   A data job with RING_TAG_NONE stored bytes out of order: nothing to tell yet.
//   A data job may store nothing itself (length 0): the bytes a SYN carried, held until
//   the connection was established, join the stream as reassembled bytes.
//   A 0-length marker job (any other tag) gives the notification its tag names (PEER_FIN,
//   CLOSED, RESET): it follows the session's data jobs through the writer, so it follows
//   their DATA.
// The core's own notifications (NEW, and the end of a connection that never got
// established, which has no data) are merged in ahead of this engine's: the core gives a
// connection's NEW before any of its data jobs, so the application sees NEW first. A
// notification on the output stays there, unchanged, until it is taken (one of this
// engine's that waits is not replaced by a core notification that comes meanwhile).
// Tables (one writer each):
//   rx_done:  written by this engine; a new connection's initial value is written by the
//             core (init_*) when the session is created, when no RX job of the session can
//             be in flight (its previous connection's jobs all completed before the
//             session was released), and the connection's first completion comes two or
//             more cycles later (through the writer). The core reads it through
//             rd_session/rd_rx_done, and the read engine (toe_tcp_rx_read) through
//             rd2_session/rd2_rx_done (one cycle, a pending init is forwarded); a value read
//             while a completion is being written is one completion old, which only makes
//             their checks stricter (the application is told of bytes after they are written).
//   drop:     written by the core only (drop_wr_*, with every record it writes), read here
//             when a completion is taken.
// Notifications carry no tuple (the coalescer gives the application the one of the
// connection's NEW). Timing: a completion is taken per cycle while the output FIFO has
// room; the notification is pushed one cycle later.
module toe_tcp_rx_deliver
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024,
  parameter int unsigned DEPTH        = 8      // notifications held for the coalescer
) (
  input  logic          clk,
  input  logic          rst,
  // RX ring writer completions
  input  logic          s_done_valid,
  output logic          s_done_ready,
  input  tcp_ring_job_t s_done,
  // the core's notifications, given first
  input  logic          s_core_notif_valid,
  output logic          s_core_notif_ready,
  input  tcp_notif_t    s_core_notif,
  // to the notification coalescer
  output logic          m_notif_valid,
  input  logic          m_notif_ready,
  output tcp_notif_t    m_notif,
  // the core: a new connection's RX_DONE (its first sequence number)
  input  logic          init_valid,
  input  sid_t          init_session,
  input  logic [31:0]   init_rx_done,
  // the core: reads a session's RX_DONE (value one cycle after the address)
  input  sid_t          rd_session,
  output logic [31:0]   rd_rx_done,
  // the read engine: the same, for the application's read requests
  input  sid_t          rd2_session,
  output logic [31:0]   rd2_rx_done,
  // the core: a session's drop bit (the connection was aborted: its data is not told)
  input  logic          drop_wr_valid,
  input  sid_t          drop_wr_session,
  input  logic          drop_wr_value
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam int unsigned CW = $clog2(DEPTH) + 1;

  logic [31:0] rx_done_mem [MAX_SESSIONS];
  logic        drop_mem [MAX_SESSIONS];

  // ---- stage 1: a completion taken, its session's drop bit read ----
  logic st_valid_reg;
  tcp_ring_job_t st_job_reg;
  logic st_drop;
  logic [CW-1:0] count_reg;            // notifications in the output FIFO
  logic init_pend_reg;
  logic [SW-1:0] init_sid_reg;
  logic [31:0] init_val_reg;

  wire st_data = st_valid_reg && st_job_reg.tag == 3'(NOTIF_DATA);
  wire st_marker = st_valid_reg && st_job_reg.tag != 3'(NOTIF_DATA) && st_job_reg.tag != RING_TAG_NONE;
  // a pending init takes the table's write port; a completion that writes waits a cycle
  wire st_hold = init_pend_reg && st_data;
  wire st_advance = st_valid_reg && !st_hold;
  assign s_done_ready = (!st_valid_reg || st_advance) && count_reg + CW'(st_valid_reg) < CW'(DEPTH);
  wire take = s_done_valid && s_done_ready;

  always_ff @(posedge clk) begin
    if (drop_wr_valid) drop_mem[SW'(drop_wr_session)] <= drop_wr_value;
    if (take) st_drop <= drop_mem[SW'(s_done.session)];
  end
  always_ff @(posedge clk) begin
    if (take) st_job_reg <= s_done;
    if (take) st_valid_reg <= 1'b1;
    else if (st_advance) st_valid_reg <= 1'b0;
    if (rst) st_valid_reg <= 1'b0;
  end

  // ---- stage 2: RX_DONE written, notification pushed ----
  wire [31:0] st_end = st_job_reg.offset + 32'(st_job_reg.length) + 32'(st_job_reg.reassembled);
  wire push = st_advance && (st_marker || (st_data && !st_drop));
  tcp_notif_t st_notif;
  always_comb begin
    st_notif = '{session: st_job_reg.session, kind: NOTIF_DATA, length: '0, remote_ip: '0,
                 remote_port: '0, local_port: '0};
    if (st_marker) st_notif.kind = tcp_notif_kind_e'(st_job_reg.tag);
    else st_notif.length = 16'(32'(st_job_reg.length) + 32'(st_job_reg.reassembled));
  end

  always_ff @(posedge clk) begin
    if (init_pend_reg) rx_done_mem[init_sid_reg] <= init_val_reg;
    else if (st_advance && st_data) rx_done_mem[SW'(st_job_reg.session)] <= st_end;
    rd_rx_done <= init_pend_reg && init_sid_reg == SW'(rd_session) ? init_val_reg : rx_done_mem[SW'(rd_session)];
    rd2_rx_done <= init_pend_reg && init_sid_reg == SW'(rd2_session) ? init_val_reg : rx_done_mem[SW'(rd2_session)];
  end
  always_ff @(posedge clk) begin
    if (init_valid) begin
      init_pend_reg <= 1'b1;
      init_sid_reg <= SW'(init_session);
      init_val_reg <= init_rx_done;
    end else init_pend_reg <= 1'b0;
    if (rst) init_pend_reg <= 1'b0;
  end

  // ---- output: the core's notifications first ----
  // A notification given and not yet taken stays given (valid and data held until ready):
  // the choice is kept while the output waits, so a core notification that comes meanwhile
  // does not replace it.
  logic own_valid, own_ready;
  tcp_notif_t own_notif;
  toe_fifo #(.WIDTH($bits(tcp_notif_t)), .DEPTH(DEPTH)) u_q (.clk, .rst, .s_data(st_notif), .s_valid(push),
    .s_ready(), .commit(1'b0), .rewind(1'b0), .m_data(own_notif), .m_valid(own_valid), .m_ready(own_ready),
    .uncommitted());
  logic wait_own_reg;        // the output gives this engine's notification and waits
  wire give_core = s_core_notif_valid && !wait_own_reg;
  assign m_notif_valid = s_core_notif_valid || own_valid;
  assign m_notif = give_core ? s_core_notif : own_notif;
  assign s_core_notif_ready = m_notif_ready && give_core;
  assign own_ready = m_notif_ready && !give_core;
  always_ff @(posedge clk) begin
    wait_own_reg <= own_valid && !give_core && !m_notif_ready;
    if (rst) wait_own_reg <= 1'b0;
  end
  always_ff @(posedge clk) begin
    count_reg <= count_reg + CW'(push) - CW'(own_valid && own_ready);
    if (rst) count_reg <= '0;
  end

`ifndef SYNTHESIS
  // The core's init comes at most every other cycle (an event takes two), so one pending
  // init is never overwritten before it was written.
  always @(posedge clk) if (!rst && init_valid)
    assert (!init_pend_reg) else $error("toe_tcp_rx_deliver: init of session %0d while one is pending", init_session);
  // A marker without a notification is no longer a thing the core gives.
  always @(posedge clk) if (!rst && take) begin
    assert (!(s_done.length == '0 && s_done.tag == RING_TAG_NONE))
      else $error("toe_tcp_rx_deliver: marker without a notification for session %0d", s_done.session);
    // a data job brings bytes (its own or reassembled ones); a marker none
    assert (s_done.tag == 3'(NOTIF_DATA) ? s_done.length != '0 || s_done.reassembled != '0 : s_done.tag == RING_TAG_NONE || s_done.length == '0)
      else $error("toe_tcp_rx_deliver: session %0d: a data job without bytes, or a marker with some", s_done.session);
  end
  always @(posedge clk) if (!rst && push) assert (count_reg < CW'(DEPTH))
    else $error("toe_tcp_rx_deliver: notification FIFO overflow");
`endif
endmodule
