// SPDX-License-Identifier: Apache-2.0
// toe_tcp_notif_coalesce: per-session coalescing of the notifications the protocol core
// gives the application, so that an application slow to take them never stops the core
// (and with it every other session): the input is taken within a few cycles whatever the
// application does.
//   Per session it keeps what is pending: NEW, the sum of DATA lengths, TX_SPACE (the
//   latest free space), PEER_FIN and the final notification (CLOSED, RESET or FAILED), and
//   a queue of sessions with something pending holds each session at most once (it cannot
//   overflow). A session taken from the queue is given to the application in the order of
//   a connection's life: NEW, DATA (in pieces of at most 65535 bytes), TX_SPACE, PEER_FIN,
//   final.
//   When the final notification has been taken by the application, the session id goes out
//   on m_told (to the core, which frees the session only then), so a session id is never
//   reused while an older connection's notifications are still pending here.
// Contract: the core gives at most one final notification per connection and nothing for
// a session after its final one until m_told has said so; a DATA length is never 0, and
// the DATA not yet told of a session is below 128 KiB (the core's is at most its ring).
// The tuple comes with a connection's first notification (NEW, or the final one of a
// connection that was never established); the application gets it with every one.
// Timing: one input or queue pop per cycle: the session's record is read in the cycle the
// operation is taken and merged and written in the next, while the next operation reads
// (the write is forwarded to a read of the same record), so a notification per segment of
// 100G at 512 bits (0.46 per cycle) and the application's pops fit together. (Three
// cycles per operation before: 1-byte segments stopped the RX writer's completions.)
module toe_tcp_notif_coalesce
  import toe_tcp_pkg::*;
#(
  parameter int unsigned MAX_SESSIONS = 1024
) (
  input  logic       clk,
  input  logic       rst,
  input  logic       s_valid,
  output logic       s_ready,
  input  tcp_notif_t s_notif,
  output logic       m_valid,
  input  logic       m_ready,
  output tcp_notif_t m_notif,
  output logic       m_told_valid,      // the application took the final notification
  input  logic       m_told_ready,
  output sid_t       m_told_session,
  output logic       ready              // its records are cleared after reset (MAX_SESSIONS cycles)
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);

  typedef struct packed {
    logic        queued;          // the session is in the pending queue
    logic        known;           // the tuple below is the current connection's
    logic        new_p, space_p, fin_p, final_p;
    logic [15:0] space;           // TX_SPACE: free TX ring bytes (the latest told)
    tcp_notif_kind_e final_kind;
    logic [16:0] data;            // DATA bytes not yet told (at most the ring, 64 KiB)
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;
  } rec_t;

  rec_t mem [MAX_SESSIONS];
  logic [SW-1:0] rd_addr;    // the record of the operation taken now
  logic [SW-1:0] addr_reg;   // the record of the operation merged now (taken a cycle ago)
  rec_t rd_rec, wr_rec;
  logic wr_en;
  logic [SW:0] init_reg;     // after reset, every record is cleared first
  wire init = !init_reg[SW];
  assign ready = !init;
  always_ff @(posedge clk) begin
    if (init) mem[SW'(init_reg)] <= '0;
    else if (wr_en) mem[addr_reg] <= wr_rec;
    rd_rec <= wr_en && addr_reg == rd_addr ? wr_rec : mem[rd_addr];
    init_reg <= init ? init_reg + 1'b1 : init_reg;
    if (rst) init_reg <= '0;
  end
  logic held_last;           // the notification given now is the final one

  // sessions with something pending, each at most once
  logic q_push, q_valid, q_pop, q_room;
  logic [SW-1:0] q_sid;
  toe_fifo #(.WIDTH(SW), .DEPTH(MAX_SESSIONS)) u_pending (.clk, .rst, .s_data(addr_reg), .s_valid(q_push),
    .s_ready(q_room), .commit(1'b0), .rewind(1'b0), .m_data(q_sid), .m_valid(q_valid), .m_ready(q_pop),
    .uncommitted());

  // sessions whose final notification was taken
  logic told_ready;
  toe_fifo #(.WIDTH(SID_W), .DEPTH(4)) u_told (.clk, .rst, .s_data(m_notif.session),
    .s_valid(m_valid && m_ready && held_last), .s_ready(told_ready), .commit(1'b0), .rewind(1'b0),
    .m_data(m_told_session), .m_valid(m_told_valid), .m_ready(m_told_ready), .uncommitted());

  // ---- record access: an input merge or a queue pop per cycle, each taken in one cycle
  // (the record read) and done in the next (the record written) ----
  typedef enum logic [1:0] {OP_IDLE, OP_IN, OP_OUT} op_e;
  op_e op_reg;               // the operation done now (taken a cycle ago)
  tcp_notif_t in_reg;        // its notification, for an input
  logic prefer_out_reg;      // alternate when both wait
  rec_t held_reg;            // the record being given to the application
  logic held_valid_reg;
  sid_t held_sid_reg;
  // one record is held for the application: a pop waits while one is held or being taken
  wire want_out = q_valid && !held_valid_reg && op_reg != OP_OUT;
  wire pick_in = !init && s_valid && (!want_out || !prefer_out_reg);

  assign s_ready = pick_in;
  assign q_pop = !init && !pick_in && want_out;
  assign rd_addr = pick_in ? SW'(s_notif.session) : q_sid;
  assign wr_en = op_reg != OP_IDLE;
  assign q_push = op_reg == OP_IN && !rd_rec.queued;
  always_comb begin
    wr_rec = rd_rec;
    if (op_reg == OP_OUT) begin
      // what is pending goes to the application; the tuple stays for the connection's
      // later notifications, until its final one
      {wr_rec.queued, wr_rec.new_p, wr_rec.space_p, wr_rec.fin_p, wr_rec.final_p, wr_rec.data} = '0;
      if (rd_rec.final_p) wr_rec = '0;
    end else begin
      wr_rec.queued = 1'b1;
      // the tuple comes with the first notification of a connection (NEW, or the final one
      // of a connection that was never established); the others carry none
      if (in_reg.kind == NOTIF_NEW || !rd_rec.known) begin
        wr_rec.known = 1'b1;
        wr_rec.remote_ip = in_reg.remote_ip;
        wr_rec.remote_port = in_reg.remote_port;
        wr_rec.local_port = in_reg.local_port;
      end
      unique case (in_reg.kind)
        NOTIF_NEW: wr_rec.new_p = 1'b1;
        NOTIF_DATA: wr_rec.data = rd_rec.data + 17'(in_reg.length);
        NOTIF_TX_SPACE: begin
          wr_rec.space_p = 1'b1;
          wr_rec.space = in_reg.length;
        end
        NOTIF_PEER_FIN: wr_rec.fin_p = 1'b1;
        default: begin
          wr_rec.final_p = 1'b1;
          wr_rec.final_kind = in_reg.kind;
        end
      endcase
    end
  end

  // ---- the held record, given in the order of a connection's life ----
  wire [16:0] piece = held_reg.data > 17'hFFFF ? 17'hFFFF : held_reg.data;
  // what a piece of 65535 leaves of a length above it (data - 65535 = low 16 bits + 1),
  // made when the record is taken, so the held record's update has no adder (the
  // subtraction was 11 LUT levels from held_reg into itself at 512 bits, stop 53)
  logic [16:0] held_rest_reg;
  always_comb begin
    m_notif = '{session: held_sid_reg, kind: NOTIF_NEW, length: '0, remote_ip: held_reg.remote_ip,
                remote_port: held_reg.remote_port, local_port: held_reg.local_port};
    held_last = 1'b0;
    if (held_reg.new_p) m_notif.kind = NOTIF_NEW;
    else if (held_reg.data != '0) begin
      m_notif.kind = NOTIF_DATA;
      m_notif.length = 16'(piece);
    end else if (held_reg.space_p) begin
      m_notif.kind = NOTIF_TX_SPACE;
      m_notif.length = held_reg.space;
    end else if (held_reg.fin_p) m_notif.kind = NOTIF_PEER_FIN;
    else begin
      m_notif.kind = held_reg.final_kind;
      held_last = 1'b1;
    end
  end
  // a final notification waits for room to report it
  assign m_valid = held_valid_reg && (!held_last || told_ready);
  // what is left once the application takes the notification given now
  rec_t held_next;
  always_comb begin
    held_next = held_reg;
    if (held_reg.new_p) held_next.new_p = 1'b0;
    else if (held_reg.data != '0) held_next.data = held_reg.data[16] ? held_rest_reg : '0;
    else if (held_reg.space_p) held_next.space_p = 1'b0;
    else if (held_reg.fin_p) held_next.fin_p = 1'b0;
    else held_next.final_p = 1'b0;
  end
  // something is left after it: written from held_reg's flags, not from held_next (whose
  // DATA length is a subtraction: its test for zero led 11 LUT levels into held_valid_reg
  // at 512 bits). A DATA piece leaves bytes exactly when the length is above 65535 (bit 16).
  wire held_data = held_reg.data != '0;
  wire held_after_data = held_reg.space_p || held_reg.fin_p || held_reg.final_p;
  wire held_more = held_reg.new_p ? held_data || held_after_data
                 : held_data      ? held_reg.data[16] || held_after_data
                 : held_reg.space_p ? held_reg.fin_p || held_reg.final_p
                 : held_reg.fin_p && held_reg.final_p;

  always_ff @(posedge clk) begin
    op_reg <= pick_in ? OP_IN : q_pop ? OP_OUT : OP_IDLE;
    addr_reg <= rd_addr;
    in_reg <= s_notif;
    if (pick_in) prefer_out_reg <= 1'b1;
    else if (q_pop) prefer_out_reg <= 1'b0;
    if (op_reg == OP_OUT) begin
      held_reg <= rd_rec;
      held_rest_reg <= 17'(rd_rec.data[15:0]) + 17'd1;
      held_sid_reg <= SID_W'(addr_reg);
      held_valid_reg <= 1'b1;
    end
    if (m_valid && m_ready) begin
      held_reg <= held_next;
      // a piece of 65535 taken from a length above it: the rest's own rest (a rest of
      // 65536, from 131071, leaves 1)
      if (!held_reg.new_p && held_reg.data[16]) held_rest_reg <= 17'(held_rest_reg[15:0]) + 17'd1;
      if (!held_more) held_valid_reg <= 1'b0;
    end
    if (rst) begin
      op_reg <= OP_IDLE;
      prefer_out_reg <= 1'b0;
      held_valid_reg <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // The input holds a notification, once given, until it is taken (AXI-Stream rule).
  logic in_wait_reg;
  tcp_notif_t in_prev_reg;
  always @(posedge clk) begin
    if (!rst && in_wait_reg)
      assert (s_valid && s_notif == in_prev_reg)
        else $error("toe_tcp_notif_coalesce: input notification changed before it was taken");
    in_wait_reg <= s_valid && !s_ready;
    in_prev_reg <= s_notif;
  end
  // the precomputed rest is the subtraction's
  always @(posedge clk) if (!rst && held_valid_reg && held_reg.data[16])
    assert (held_rest_reg == held_reg.data - 17'hFFFF) else $error("toe_tcp_notif_coalesce: DATA rest wrong");
  // held_more is what held_next leaves pending
  always @(posedge clk) if (!rst && held_valid_reg)
    assert (held_more == (held_next.new_p || held_next.data != '0 || held_next.space_p || held_next.fin_p ||
                          held_next.final_p)) else $error("toe_tcp_notif_coalesce: held_more disagrees with held_next");
  // A session is in the pending queue at most once (its record's queued bit): it never overflows.
  always @(posedge clk) if (!rst)
    assert (!(q_push && !q_room)) else $error("toe_tcp_notif_coalesce: pending queue overflow");
  // The application never sees an empty record: a queued session has something pending.
  always @(posedge clk) if (!rst && op_reg == OP_OUT)
    assert (rd_rec.new_p || rd_rec.data != '0 || rd_rec.space_p || rd_rec.fin_p || rd_rec.final_p)
      else $error("toe_tcp_notif_coalesce: session %0d queued with nothing pending", addr_reg);
  // Untold DATA stays within 17 bits (the core never has more than its 64 KiB ring untold).
  always @(posedge clk) if (!rst && op_reg == OP_IN && in_reg.kind == NOTIF_DATA)
    assert (18'(rd_rec.data) + 18'(in_reg.length) < 18'h20000)
      else $error("toe_tcp_notif_coalesce: untold DATA of session %0d overflows", addr_reg);
  // Nothing arrives for a session after its final notification until it was told.
  always @(posedge clk) if (!rst && op_reg == OP_IN)
    assert (!rd_rec.final_p)
      else $error("toe_tcp_notif_coalesce: notification for session %0d after its final one", addr_reg);
`endif
endmodule
