// SPDX-License-Identifier: Apache-2.0
// toe_tcp_timer_wheel: the sessions with an armed timer, each filed under the wheel slot
// of its deadline, so that an idle session costs nothing and the protocol core is asked
// about a session only when its deadline has passed (it then checks which of its timers
// is due). It replaces a scan over every session, which took event slots from the core.
//   arm   {session, on, at}: the session's earliest deadline is now `at` (on = 0: none).
//         Several arms of one session: the last one counts.
//   fire  session: its deadline has passed. Given once per arm whose deadline passes
//         while it is armed; the core answers with an arm (the next deadline, or none).
// The wheel has SLOTS slots of 2^TICK_LOG2 us; slot k holds a doubly linked list (one
// next/prev pair per session in block RAM) of the sessions whose deadline falls in a tick
// = k mod SLOTS. A cursor visits the slot of each tick once that tick has passed, takes
// its sessions off one by one, fires those whose deadline has passed and files the others
// again (deadlines beyond one turn are filed in the farthest slot and go round once per
// turn: a 200 ms RTO with the defaults is filed 49 times). A deadline is fired at most one
// tick after it passes (4 us with the defaults) plus the wait for the sessions ahead of
// it, whatever the number of sessions.
// Moving a deadline later (an RTO restarted by an ACK: the common case) only rewrites it
// (the old slot comes first, and files the session again); moving it earlier or disarming
// unlinks and refiles. After a jump of the clock (virtual time in the test harness) the
// cursor skips whole turns and visits every slot once, in order.
// Timing: an arm takes 3 cycles (later deadline) to 8; a run of empty slots up to the end
// of its group of 32 takes 3 cycles (the group's occupancy is selected in one, the run
// looked up in the next, skipped in the third), a slot with sessions 5 (its occupancy is
// looked up in the first two), a session taken off it 5 (8 when filed again). Arms are taken before slot visits, and slot visits start only when the
// fire queue has room, so arms never wait on fires (no deadlock with the core).
module toe_tcp_timer_wheel #(
  parameter int unsigned MAX_SESSIONS = 1024,   // power of two
  parameter int unsigned SLOTS        = 1024,   // power of two
  parameter int unsigned TICK_LOG2    = 2       // tick = 4 us
) (
  input  logic        clk,
  input  logic        rst,
  input  logic [31:0] now_us,
  input  logic        arm_valid,
  output logic        arm_ready,
  input  logic [$clog2(MAX_SESSIONS)-1:0] arm_session,
  input  logic        arm_on,
  input  logic [31:0] arm_at,
  output logic        fire_valid,
  input  logic        fire_ready,
  output logic [$clog2(MAX_SESSIONS)-1:0] fire_session,
  output logic [$clog2(MAX_SESSIONS):0]   armed,       // sessions in the wheel (gauge)
  output logic        ready         // its RAMs are cleared after reset (max(MAX_SESSIONS, SLOTS) cycles)
);
  localparam int unsigned SW = $clog2(MAX_SESSIONS);
  localparam int unsigned KW = $clog2(SLOTS);
  localparam int unsigned INIT_N = MAX_SESSIONS > SLOTS ? MAX_SESSIONS : SLOTS;
  localparam int unsigned IW = $clog2(INIT_N) + 1;   // the init counter covers both RAMs
  typedef logic [SW:0] link_t;                   // a session, or NIL (top bit set)
  localparam link_t NIL = link_t'(1) << SW;
  initial if (MAX_SESSIONS != (1 << SW) || SLOTS != (1 << KW) || SLOTS < 4)
    $fatal(0, "toe_tcp_timer_wheel: MAX_SESSIONS and SLOTS must be powers of two (instance %m)");

  // ---- state per session and per slot (one read and one write port each) ----
  logic [31:0] at_mem   [MAX_SESSIONS];
  logic        inw_mem  [MAX_SESSIONS];          // filed in a slot
  logic [KW-1:0] slot_mem [MAX_SESSIONS];        // which slot
  link_t       prev_mem [MAX_SESSIONS];          // NIL: first of its slot
  link_t       next_mem [MAX_SESSIONS];
  link_t       head_mem [SLOTS];

  typedef enum logic [3:0] {ST_INIT, ST_IDLE, ST_ARM_READ, ST_ARM, ST_UNLINK, ST_VISIT_READ, ST_VISIT,
                            ST_POP_READ, ST_POP, ST_FILE_READ, ST_FILE, ST_FILE_LINK} state_e;
  state_e state_reg;
  assign ready = state_reg != ST_INIT;
  logic [IW-1:0] init_reg;
  logic [SW-1:0] sid_reg;
  logic on_reg;
  logic [31:0] at_reg;
  localparam int unsigned TW = 32 - TICK_LOG2;   // ticks of the 32-bit us clock wrap at 2^TW
  logic [TW-1:0] cursor_reg;                     // the tick whose slot is visited next
  logic [KW-1:0] file_slot_reg;                  // where sid_reg is being filed
  link_t old_head_reg;                           // the session it is filed in front of
  logic arm_turn_reg;                            // arms and visits alternate when both wait

  // registered reads: per-session RAMs at rd_sid, the head RAM at rd_slot
  logic [SW-1:0] rd_sid;
  logic [KW-1:0] rd_slot;
  logic [31:0] at_q;
  logic inw_q;
  logic [KW-1:0] slot_q;
  link_t prev_q, next_q, head_q;
  always_ff @(posedge clk) begin
    at_q <= at_mem[rd_sid];
    inw_q <= inw_mem[rd_sid];
    slot_q <= slot_mem[rd_sid];
    prev_q <= prev_mem[rd_sid];
    next_q <= next_mem[rd_sid];
    head_q <= head_mem[rd_slot];
  end

  wire [TW-1:0] now_tick = TW'(now_us >> TICK_LOG2);
  // comparisons modulo the wrap: of microseconds (32 bits) and of ticks (TW bits)
  function automatic logic us_lt(input logic [31:0] a, b); return $signed(a - b) < 0; endfunction
  function automatic logic tick_lt(input logic [TW-1:0] a, b);
    logic [TW-1:0] d = a - b;
    return d[TW-1];
  endfunction
  // the slot a deadline is filed in: its tick's, the cursor's if that tick is past, the
  // farthest (one turn ahead) if it is further
  function automatic logic [KW-1:0] file_slot(input logic [31:0] at, input logic [TW-1:0] cursor);
    logic [TW-1:0] t = TW'(at >> TICK_LOG2);
    logic [TW-1:0] ahead = t - cursor;
    if (tick_lt(t, cursor)) return KW'(cursor);
    if (ahead >= TW'(SLOTS)) return KW'(cursor + TW'(SLOTS - 1));
    return KW'(t);
  endfunction
  wire [KW-1:0] cur_slot = KW'(cursor_reg);

  // the fire queue (its room gates slot visits)
  logic fq_ready, fq_push;
  toe_fifo #(.WIDTH(SW), .DEPTH(4)) u_fire_q (.clk, .rst, .s_data(sid_reg), .s_valid(fq_push),
    .s_ready(fq_ready), .commit(1'b0), .rewind(1'b0), .m_data(fire_session), .m_valid(fire_valid),
    .m_ready(fire_ready), .uncommitted());

  // Which slots hold sessions (a flop per slot): the cursor passes a run of empty slots,
  // up to the end of its group of GW, at once, so a cursor that fell behind (a slow
  // simulation on the wall clock, a clock jump) catches up at GW slots per three cycles,
  // and only the slots that hold sessions cost a visit. The run is looked up in two
  // registered steps while the cursor and the occupancy stay (run_ok_reg): the cursor's
  // group's occupied slots from it on, shifted down to it (group_after_reg: the wide mux
  // of occ_reg and the shift), then the run's length (empty_run_reg: the first set bit).
  localparam int unsigned GW = SLOTS >= 32 ? 32 : SLOTS;
  localparam int unsigned GB = $clog2(GW);
  logic [SLOTS-1:0] occ_reg;
  wire [GW-1:0] group_occ = occ_reg[{cur_slot[KW-1:GB], {GB{1'b0}}} +: GW];
  logic [GW-1:0] group_after_reg;                // bit i: the cursor's slot + i, in its group, is occupied
  // the first of them (one-hot, by the lowest-set-bit identity x & -x: a carry chain, not
  // a priority chain of GW); the run is its index (or the slots to the group's end)
  wire [GW-1:0] first_occ = group_after_reg & (~group_after_reg + GW'(1));
  logic [GB:0] empty_run;                        // empty slots from the cursor's to the next occupied one or the group's end
  always_comb begin
    logic [GB-1:0] first_at;
    first_at = '0;
    for (int i = 0; i < GW; i++) first_at |= first_occ[i] ? GB'(i) : '0;
    empty_run = group_after_reg == '0 ? (GB+1)'(GW) - (GB+1)'(cur_slot[GB-1:0]) : (GB+1)'(first_at);
  end
  logic [GB:0] empty_run_reg;
  logic run_ok_reg;
  logic stays_reg;                               // the cursor and the occupancy stayed in the last cycle
  // The clock's tick and the ticks passed and not visited, as of the last cycle: the
  // cursor's decisions (visit, skip, turn) are taken only while it stays (run_ok_reg), so
  // these are its own, a cycle old, and the clock only moves on (at most one cycle later
  // than on the clock as it is now; no decision waits for a difference with the clock:
  // the skip's minimum and sum behind it were two carry chains in series into the cursor,
  // 3.44 ns at 512 bits, stop 53).
  logic [TW-1:0] tick_reg, lag_reg;
  wire behind = run_ok_reg && lag_reg != '0 && !lag_reg[TW-1];   // the cursor's tick has passed: visit its slot
  wire far_behind = lag_reg > TW'(2 * SLOTS);
  // the cursor moved on by whole turns to one to two turns behind the clock: its slot,
  // and the turn of the clock's tick two turns back (one turn later if that slot is
  // below the clock's: then it is less than two turns behind)
  wire [TW-KW-1:0] turn_now = tick_reg[TW-1:KW];
  wire [TW-1:0] turned_cursor = {turn_now - (TW-KW)'(2) + (TW-KW)'(cur_slot < KW'(tick_reg)), cur_slot};
  // past the run (to the next occupied slot or the group's end), or to the clock's tick
  // when that comes first: the sum beside the compare, which chooses
  wire run_first = TW'(empty_run_reg) < lag_reg;
  wire [TW-1:0] past_run = cursor_reg + TW'(empty_run_reg);
  // the cursor's slot's occupancy, looked up with the run (valid with run_ok_reg), so the
  // wide mux of occ_reg does not feed the state
  logic occ_here_reg;
  wire take_arm = state_reg == ST_IDLE && arm_valid && (arm_turn_reg || !(behind && fq_ready));
  wire empty_here = !far_behind && !occ_here_reg;
  wire skip_empty = state_reg == ST_IDLE && !take_arm && behind && empty_here;
  wire start_visit = state_reg == ST_IDLE && !take_arm && behind && !empty_here && fq_ready;
  wire stays = state_reg == ST_IDLE && !skip_empty && !start_visit;
  assign arm_ready = take_arm;
  wire popped_due = state_reg == ST_POP && !us_lt(now_us, at_q);   // at <= now

  always_comb begin
    rd_sid = sid_reg;
    rd_slot = cur_slot;
    if (take_arm) rd_sid = arm_session;
    if (state_reg == ST_VISIT) rd_sid = SW'(head_q);
    if (state_reg == ST_FILE_READ) rd_slot = file_slot(at_reg, cursor_reg);
  end
  // at_reg holds the deadline to file: the arm's, or the popped session's
  wire link_t sid_link = link_t'(sid_reg);
  assign fq_push = popped_due;

  always_ff @(posedge clk) begin
    unique case (state_reg)
      ST_INIT: begin
        init_reg <= init_reg + 1'b1;
        if (init_reg < IW'(MAX_SESSIONS)) inw_mem[SW'(init_reg)] <= 1'b0;
        if (init_reg < IW'(SLOTS)) head_mem[KW'(init_reg)] <= NIL;
        if (init_reg == IW'(INIT_N - 1)) state_reg <= ST_IDLE;
      end
      ST_IDLE: begin
        if (take_arm) begin
          sid_reg <= arm_session;
          on_reg <= arm_on;
          at_reg <= arm_at;
          arm_turn_reg <= 1'b0;
          state_reg <= ST_ARM_READ;
        end else if (skip_empty) begin
          arm_turn_reg <= 1'b1;
          cursor_reg <= run_first ? past_run : tick_reg;
        end else if (start_visit) begin
          arm_turn_reg <= 1'b1;
          // more than two turns behind (a jump of the clock, or a clock faster than the
          // sweep): whole turns are skipped, so the cursor keeps its slot and lags by
          // one to two turns; every slot gets its visit, in order, before the cursor
          // reaches the clock. (Restarting the sweep at the clock's slot instead skipped
          // the slots the sweep had not reached, and a clock that kept outrunning the
          // sweep kept skipping them: fires up to 200 ms late in the wall-clock harness.)
          if (far_behind) cursor_reg <= turned_cursor;
          else state_reg <= ST_VISIT_READ;
        end
      end
      // ---- arm: rewrite a later deadline, else unlink and file again ----
      ST_ARM_READ: state_reg <= ST_ARM;
      ST_ARM: begin
        if (on_reg) at_mem[sid_reg] <= at_reg;
        if (inw_q && on_reg && !us_lt(at_reg, at_q)) state_reg <= ST_IDLE;      // later: its slot comes first
        else if (inw_q) begin
          if (prev_q == NIL) head_mem[slot_q] <= next_q;
          else next_mem[SW'(prev_q)] <= next_q;
          inw_mem[sid_reg] <= 1'b0;
          state_reg <= ST_UNLINK;
        end else state_reg <= on_reg ? ST_FILE_READ : ST_IDLE;
      end
      ST_UNLINK: begin
        if (next_q != NIL) prev_mem[SW'(next_q)] <= prev_q;
        state_reg <= on_reg ? ST_FILE_READ : ST_IDLE;
      end
      // ---- visit the cursor's slot: take its sessions off one by one ----
      ST_VISIT_READ: state_reg <= ST_VISIT;
      ST_VISIT: begin
        if (head_q == NIL) begin
          cursor_reg <= cursor_reg + 1'b1;
          state_reg <= ST_IDLE;
        end else begin
          sid_reg <= SW'(head_q);
          state_reg <= ST_POP_READ;
        end
      end
      ST_POP_READ: state_reg <= ST_POP;
      ST_POP: begin
        head_mem[cur_slot] <= next_q;
        if (next_q != NIL) prev_mem[SW'(next_q)] <= NIL;
        inw_mem[sid_reg] <= 1'b0;
        at_reg <= at_q;
        // due: fired (the queue had room when the visit started; one fire per visit
        // start); not yet: filed again. The slot is visited again until it is empty.
        state_reg <= popped_due ? ST_IDLE : ST_FILE_READ;
      end
      // ---- file sid_reg under the slot of at_reg (at the front of its list) ----
      ST_FILE_READ: begin
        file_slot_reg <= rd_slot;
        state_reg <= ST_FILE;
      end
      ST_FILE: begin
        head_mem[file_slot_reg] <= sid_link;
        next_mem[sid_reg] <= head_q;
        prev_mem[sid_reg] <= NIL;
        slot_mem[sid_reg] <= file_slot_reg;
        inw_mem[sid_reg] <= 1'b1;
        old_head_reg <= head_q;
        state_reg <= ST_FILE_LINK;
      end
      ST_FILE_LINK: begin
        if (old_head_reg != NIL) prev_mem[SW'(old_head_reg)] <= sid_link;
        state_reg <= ST_IDLE;
      end
      default: state_reg <= ST_IDLE;
    endcase
    // the empty run of the cursor's group as the cursor and the occupancy are now, in two
    // steps: used two cycles later if neither changes in this cycle or the next (only
    // ST_IDLE's skip or visit, and the states after it, change them)
    group_after_reg <= group_occ >> cur_slot[GB-1:0];
    empty_run_reg <= empty_run;
    tick_reg <= now_tick;
    lag_reg <= now_tick - cursor_reg;
    occ_here_reg <= group_after_reg[0];
    stays_reg <= stays;
    run_ok_reg <= stays && stays_reg;
    // slot occupancy follows every write of a head: filed (occupied), its last session
    // popped or unlinked (empty)
    if (state_reg == ST_FILE) occ_reg[file_slot_reg] <= 1'b1;
    if (state_reg == ST_POP && next_q == NIL) occ_reg[cur_slot] <= 1'b0;
    if (state_reg == ST_ARM && inw_q && !(on_reg && !us_lt(at_reg, at_q)) && prev_q == NIL && next_q == NIL)
      occ_reg[slot_q] <= 1'b0;
    // the gauge: filed +1, taken off (popped or unlinked) -1
    if (state_reg == ST_FILE) armed <= armed + 1'b1;
    if (state_reg == ST_POP || (state_reg == ST_ARM && inw_q && !(on_reg && !us_lt(at_reg, at_q))))
      armed <= armed - 1'b1;
    if (rst) begin
      armed <= '0;
      state_reg <= ST_INIT;
      init_reg <= '0;
      cursor_reg <= now_tick;
      arm_turn_reg <= 1'b0;
      occ_reg <= '0;
      run_ok_reg <= 1'b0;
      stays_reg <= 1'b0;
    end
  end
`ifndef SYNTHESIS
  // the occupancy flop of a visited slot agrees with its list
  always @(posedge clk) if (!rst && state_reg == ST_VISIT)
    assert (occ_reg[cur_slot] == (head_q != NIL)) else $error("toe_tcp_timer_wheel: slot %0d occupancy wrong", cur_slot);
  // the looked-up run and occupancy, when used, are the cursor's as it is now: the
  // occupancy flops of its slot, and the empty slots from it to the next occupied one or
  // its group's end, counted one by one
  always @(posedge clk) if (!rst && state_reg == ST_IDLE && run_ok_reg) begin
    int unsigned run;
    run = 0;
    while (32'(cur_slot[GB-1:0]) + run < GW && !occ_reg[cur_slot + KW'(run)]) run++;
    assert (occ_here_reg == occ_reg[cur_slot] && empty_run_reg == (GB+1)'(run))
      else $error("toe_tcp_timer_wheel: run %0d / occupancy %0d looked up for slot %0d, not %0d / %0d",
                  empty_run_reg, occ_here_reg, cur_slot, run, occ_reg[cur_slot]);
  end
  // a session is filed at most once, and the fire queue never overflows
  always @(posedge clk) if (!rst && state_reg == ST_FILE)
    assert (!inw_mem[sid_reg]) else $error("toe_tcp_timer_wheel: session %0d filed twice", sid_reg);
  always @(posedge clk) if (!rst && fq_push)
    assert (fq_ready) else $error("toe_tcp_timer_wheel: fire queue overflow");
`endif
endmodule
