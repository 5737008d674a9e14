// SPDX-License-Identifier: Apache-2.0
// toe_tcp_ring_writer: writes byte streams into per-session rings in memory through the
// write half of an AXI4 master. Each job {base, offset, length, skip} takes the next
// `skip + length` bytes of s_axis (one frame, all beats full but the last), drops the
// first `skip` (they are not strobed) and stores the next `length` at ring offsets
// offset .. offset+length-1 (modulo RING_BYTES) of the ring at `base`: the bytes
// are shifted to the address lanes, strobed, and cut into INCR bursts that never cross a
// BURST_BYTES boundary (so never the ring's end, nor a 4 KB page). A job completes on
// m_done (in job order) once every burst of it has its write response; a 0-length job
// is a marker that completes in order without touching memory. m_done comes from a
// register slice (a cycle after the last response).
// A frame shorter than its job is zero-filled, a longer one is cut (the RX side trims a
// segment at the window's right edge this way); both pulse stat_len_err
// (also when only the last beat's tkeep disagrees with the job's length).
// Bursts are at most IN_BEATS long, and one is requested only when all of its input beats
// are in the writer's IN_BEATS-deep input FIFO (or the frame's end is): a source slower
// than the memory port (a 64-bit data path, an application, the wire at 100G) never holds
// the write channel it shares with the other writer (toe_tcp_mem_arb; AXI4 W beats follow
// their AW in order), so two writers fed at full rate each get it.
// Timing: one beat per cycle inside a burst, one idle cycle per burst for the address; a
// burst waits for at most IN_BEATS input beats. The next job is taken in the cycle of the
// last beat of the one before, so a one-beat job takes 2 cycles (address, data): 0.5 jobs
// per cycle, above the 0.46 minimum segments per cycle of 100G at 512 bits (3 cycles and
// 0.33 per cycle when a job waited for an idle cycle).
module toe_tcp_ring_writer
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W     = 64,
  parameter int unsigned ADDR_W     = 40,
  parameter int unsigned RING_BYTES = 65536,  // power of two, >= 4096
  parameter int unsigned IN_BEATS   = 32      // input FIFO and longest burst, beats (power of two)
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                s_job_valid,
  output logic                s_job_ready,
  input  tcp_ring_job_t       s_job,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  output logic [ADDR_W-1:0]   m_axi_awaddr,
  output logic [7:0]          m_axi_awlen,
  output logic                m_axi_awvalid,
  input  logic                m_axi_awready,
  output logic                m_aw_soon,       // an AW is near: a job waits, or a burst waits for its beats (toe_tcp_mem_arb's s_awsoon)
  output logic [DATA_W-1:0]   m_axi_wdata,
  output logic [DATA_W/8-1:0] m_axi_wstrb,
  output logic                m_axi_wlast,
  output logic                m_axi_wvalid,
  input  logic                m_axi_wready,
  input  logic                m_axi_bvalid,
  output logic                m_axi_bready,
  output logic                m_done_valid,
  input  logic                m_done_ready,
  output tcp_ring_job_t       m_done,
  output logic                stat_len_err
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned OW = $clog2(W);
  localparam int unsigned RING_WORDS = RING_BYTES / W;
  localparam int unsigned RW = $clog2(RING_WORDS);
  initial if (RING_BYTES != (1 << $clog2(RING_BYTES)) || RING_BYTES < 4096)
    $fatal(0, "toe_tcp_ring_writer: RING_BYTES must be a power of two >= 4096 (instance %m)");
  initial if (DATA_W % 8 != 0 || W > MAX_BUS_BYTES)
    $fatal(0, "toe_tcp_ring_writer: DATA_W must be whole bytes, at most 8 * MAX_BUS_BYTES (instance %m)");
  initial if (IN_BEATS != (1 << $clog2(IN_BEATS)) || IN_BEATS < 2)
    $fatal(0, "toe_tcp_ring_writer: IN_BEATS must be a power of two >= 2 (instance %m)");

  // ---- input FIFO: a burst starts only when its beats are here ----
  logic [DATA_W-1:0] in_tdata;
  logic [W-1:0] in_tkeep;
  logic in_tvalid, in_tready, in_tlast;
  logic [$clog2(IN_BEATS):0] in_count_reg;   // beats in the FIFO
  logic [$clog2(IN_BEATS):0] in_lasts_reg;   // frame ends in the FIFO
  toe_fifo #(.WIDTH(DATA_W + W + 1), .DEPTH(IN_BEATS)) u_in (
    .clk, .rst, .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast}), .s_valid(s_axis_tvalid),
    .s_ready(s_axis_tready), .commit(1'b0), .rewind(1'b0), .m_data({in_tdata, in_tkeep, in_tlast}),
    .m_valid(in_tvalid), .m_ready(in_tready), .uncommitted()
  );
  wire in_push = s_axis_tvalid && s_axis_tready, in_pop = in_tvalid && in_tready;
  always_ff @(posedge clk) begin
    in_count_reg <= in_count_reg + ($clog2(IN_BEATS)+1)'(in_push) - ($clog2(IN_BEATS)+1)'(in_pop);
    in_lasts_reg <= in_lasts_reg + ($clog2(IN_BEATS)+1)'(in_push && s_axis_tlast) -
                    ($clog2(IN_BEATS)+1)'(in_pop && in_tlast);
    if (rst) begin
      in_count_reg <= '0;
      in_lasts_reg <= '0;
    end
  end

  typedef enum logic [1:0] {ST_IDLE, ST_ADDR, ST_DATA, ST_DRAIN} state_e;
  state_e state_reg;
  tcp_ring_job_t job_reg;
  logic [OW-1:0] lane_reg;         // offset % W
  logic [RW-1:0] word_reg;         // ring word of the next output beat
  logic [16:0] out_left_reg;       // output beats left in the job
  logic out_one_reg;               // out_left_reg == 1
  logic [16:0] in_left_reg;        // input beats left to take
  logic [8:0] burst_left_reg;      // beats left in the current burst
  // The strobed bytes of the next output beat are its lanes from strobe_from_reg up to
  // strobe_to_reg (exclusive): the job's first and end stream bytes (skip, skip + length)
  // less the stream byte at lane 0. Set when the job is taken, lowered by W each beat, so a
  // lane's strobe compares registered values with its own index (no sum before it).
  localparam int unsigned PW = 20;   // signed: from lane + skip + length (< 2^18) down to -(length + W)
  logic signed [PW-1:0] strobe_from_reg, strobe_to_reg;
  logic [DATA_W-1:0] prev_reg;
  logic need_in_reg;               // input beats left to take and the frame not ended early
                                   // (else zero-fill the rest); kept, not compared from in_left_reg
  logic in_one_reg;                // in_left_reg == 1
  logic over_reg;                  // the job's last input beat was not the frame's last
  logic [16:0] bursts_reg;         // bursts issued for this job

  logic [W-1:0] last_keep_reg;     // tkeep of the frame's last beat when it is exactly the job's length
  wire [31:0] s_start = s_job.offset - 32'(s_job.skip);           // ring offset of frame byte 0
  wire [17:0] s_stream = 18'(s_job.skip) + 18'(s_job.length);
  // The job's output beats, ceil((lane + skip + length) / W) with lane = (offset - skip) mod
  // W. As lane + skip = W * (skip / W + borrow) + offset mod W, where borrow = offset mod W
  // < skip mod W, they are
  //   skip / W + length / W + (borrow + carry + (end lane != 0))
  // with carry and end lane the carry out and the sum of offset mod W + length mod W: lane
  // sums beside the high parts' sum (the frame's start, its lane end and the rounding were
  // three carry chains in series: 3.30 ns into out_left_reg at 512 bits, stop 54). One
  // output beat: that sum is 1, tested on its parts.
  wire [OW-1:0] off_lane = s_job.offset[OW-1:0];
  wire [OW:0] end_lane = (OW+1)'(off_lane) + (OW+1)'(s_job.length[OW-1:0]);
  wire [1:0] beats_low = 2'(off_lane < s_job.skip[OW-1:0]) + 2'(end_lane[OW]) + 2'(end_lane[OW-1:0] != '0);
  wire [15-OW:0] skip_high = s_job.skip[15:OW];
  wire [16-OW:0] length_high = s_job.length[16:OW];
  wire [16:0] job_out_beats = 17'(skip_high) + 17'(length_high) + 17'(beats_low);
  wire job_out_one = (skip_high == '0 && length_high == '0 && beats_low == 2'd1) ||
                     (beats_low == 2'd0 && ((skip_high == 1 && length_high == '0) || (skip_high == '0 && length_high == 1)));
  wire [16:0] job_in_beats  = 17'((s_stream + 18'(W - 1)) >> OW);
  // The next burst: the fewest of the job's output beats left, the beats to the burst
  // boundary (next_burst's rule) and IN_BEATS, compared side by side (no compare waits
  // for another's minimum). The beats to the boundary are kept in a register that counts
  // down with word_reg, and AWLEN chooses among the three candidates less one, each made
  // beside the compares. (From word_reg, the boundary distance, the choice and burst - 1
  // were three carry chains in series: 3.49 ns into the arbiter at 512 bits, stop 53.)
  localparam int unsigned BMAX = burst_beats_max(DATA_W);
  logic [8:0] to_boundary_reg;     // beats from word_reg to the next BURST_BYTES boundary (1..BMAX)
  wire [16:0] to_boundary = 17'(to_boundary_reg);
  wire left_least = out_left_reg <= to_boundary && out_left_reg <= 17'(IN_BEATS);
  wire boundary_least = to_boundary <= 17'(IN_BEATS);
  wire [8:0] burst = left_least ? 9'(out_left_reg) : boundary_least ? to_boundary_reg : 9'(IN_BEATS);
  wire [7:0] left_len = 8'(out_left_reg - 17'd1), boundary_len = 8'(to_boundary_reg - 9'd1);

  // The pending-completion FIFO: {job, bursts}; sized for the bursts a job can make.
  logic pend_ready, pend_valid, pend_push, done_take;
  tcp_ring_job_t pend_job;
  logic [16:0] pend_bursts;
  logic [16:0] b_count_reg;
  logic [4:0] pend_count_reg;      // jobs in the pending-completion FIFO (16 deep) and its input register

  // ---- data path: shift the input to the address lanes ----
  wire [DATA_W-1:0] cur = need_in_reg ? in_tdata : '0;
  wire [2*DATA_W-1:0] both = {cur, prev_reg};
  assign m_axi_wdata = DATA_W'(both >> (8 * (W - int'(lane_reg))));
  // lane l >= a bound: a bound at or below lane 0, or within the beat and at most l
  function automatic logic lane_at_or_past(input logic signed [PW-1:0] bound, input int unsigned l);
    return bound[PW-1] || (bound[PW-2:OW] == '0 && int'(bound[OW-1:0]) <= l);
  endfunction
  always_comb
    for (int l = 0; l < W; l++)
      m_axi_wstrb[l] = lane_at_or_past(strobe_from_reg, l) && !lane_at_or_past(strobe_to_reg, l);
  assign m_axi_wvalid = state_reg == ST_DATA && (!need_in_reg || in_tvalid);
  assign m_axi_wlast = burst_left_reg == 9'd1;
  wire w_take = m_axi_wvalid && m_axi_wready;
  // the job's frame ends with its last beat (no longer frame left to cut and drain)
  wire frame_ends = !(over_reg || (need_in_reg && !in_tlast && in_one_reg));

  // A job is taken when the writer is idle, or in the cycle the last beat of the job
  // before it is written (that job's completion is queued in the same cycle: room for two,
  // and a marker, which is queued when taken, waits for an idle cycle).
  wire job_end_data, job_marker;
  wire job_next = job_end_data && frame_ends && s_job.length != '0 && pend_count_reg <= 5'd14;
  assign s_job_ready = (state_reg == ST_IDLE && pend_count_reg <= 5'd15) || job_next;
  wire job_take = s_job_valid && s_job_ready;
  assign in_tready = (state_reg == ST_DATA && need_in_reg && m_axi_wready) || state_reg == ST_DRAIN;

  // A burst is requested only once every input beat it takes is in the FIFO (or the
  // frame's end is, for a frame shorter than its job), so W never waits on the source: at
  // least as many as the fewest of the burst's length and the input beats left, i.e. at
  // least as many as one of them (each compared with the count at once).
  wire [16:0] in_count = 17'(in_count_reg);
  wire burst_here = !need_in_reg || in_lasts_reg != '0 || in_count >= out_left_reg || in_count >= to_boundary ||
                    in_count >= 17'(IN_BEATS) || in_count >= in_left_reg;
  assign m_axi_awvalid = state_reg == ST_ADDR && burst_here;
  assign m_aw_soon = state_reg == ST_ADDR || s_job_valid;
  assign m_axi_awaddr = ADDR_W'(job_reg.base) + ADDR_W'({word_reg, {OW{1'b0}}});
  assign m_axi_awlen = left_least ? left_len : boundary_least ? boundary_len : 8'(IN_BEATS - 1);

  always_ff @(posedge clk) begin
    stat_len_err <= 1'b0;
    unique case (state_reg)
      ST_IDLE: ;
      ST_ADDR: if (m_axi_awvalid && m_axi_awready) begin
        burst_left_reg <= burst;
        bursts_reg <= bursts_reg + 1'b1;
        state_reg <= ST_DATA;
      end
      ST_DATA: if (w_take) begin
        word_reg <= word_reg + 1'b1;
        to_boundary_reg <= to_boundary_reg == 9'd1 ? 9'(BMAX) : to_boundary_reg - 9'd1;
        strobe_from_reg <= strobe_from_reg - PW'(W);
        strobe_to_reg <= strobe_to_reg - PW'(W);
        out_left_reg <= out_left_reg - 1'b1;
        out_one_reg <= out_left_reg == 17'd2;
        burst_left_reg <= burst_left_reg - 1'b1;
        prev_reg <= cur;
        if (need_in_reg) begin
          in_left_reg <= in_left_reg - 1'b1;
          in_one_reg <= in_left_reg == 17'd2;
          need_in_reg <= !in_one_reg && !in_tlast;
          if (in_tlast && !in_one_reg) stat_len_err <= 1'b1;   // frame shorter than the job: zero-filled
          if (in_tlast && in_one_reg && in_tkeep != last_keep_reg)
            stat_len_err <= 1'b1;   // right number of beats, wrong bytes in the last one
          if (!in_tlast && in_one_reg) over_reg <= 1'b1;
        end
        if (out_one_reg) begin
          // a frame longer than its job: cut the rest
          if (!frame_ends) begin
            state_reg <= ST_DRAIN;
            stat_len_err <= 1'b1;
          end else state_reg <= ST_IDLE;
        end else if (burst_left_reg == 9'd1) state_reg <= ST_ADDR;
      end
      ST_DRAIN: if (in_tvalid && in_tlast) state_reg <= ST_IDLE;
      default: state_reg <= ST_IDLE;
    endcase
    // a job taken (idle, or at the last beat of the one before): its first burst next
    if (job_take) begin
      job_reg <= s_job;
      last_keep_reg <= W'(last_beat_keep(17'(s_stream), W));
      lane_reg <= s_start[OW-1:0];
      word_reg <= s_start[OW +: RW];
      to_boundary_reg <= 9'(beats_to_boundary(32'(s_start[OW +: RW]), DATA_W));
      out_left_reg <= job_out_beats;
      out_one_reg <= job_out_one;
      in_left_reg <= job_in_beats;
      strobe_from_reg <= PW'(s_start[OW-1:0]) + PW'(s_job.skip);
      strobe_to_reg <= PW'(s_start[OW-1:0]) + PW'(s_stream);
      prev_reg <= '0;
      need_in_reg <= s_stream != '0;
      in_one_reg <= s_stream != '0 && s_stream <= 18'(W);
      over_reg <= 1'b0;
      bursts_reg <= '0;
      if (s_job.length != '0) state_reg <= ST_ADDR;
    end
    if (rst) begin
      state_reg <= ST_IDLE;
      need_in_reg <= 1'b0;
    end
  end

  // ---- completions: a job is pushed when its last beat (or the marker) is sent ----
  assign job_end_data = state_reg == ST_DATA && w_take && out_one_reg;
  assign job_marker = state_reg == ST_IDLE && job_take && s_job.length == '0;
  assign pend_push = job_end_data || job_marker;
  // pushed a cycle later from a register (pend_count_reg counts it from the push on)
  logic pend_push_reg;
  logic [TCP_RING_JOB_W+16:0] pend_data_reg;
  always_ff @(posedge clk) begin
    pend_push_reg <= pend_push;
    pend_data_reg <= job_marker ? {s_job, 17'd0} : {job_reg, bursts_reg};
    if (rst) pend_push_reg <= 1'b0;
  end
  toe_fifo #(.WIDTH(TCP_RING_JOB_W + 17), .DEPTH(16)) u_pending (
    .clk, .rst,
    .s_data(pend_data_reg),
    .s_valid(pend_push_reg), .s_ready(pend_ready), .commit(1'b0), .rewind(1'b0),
    .m_data({pend_job, pend_bursts}), .m_valid(pend_valid), .m_ready(done_take),
    .uncommitted()
  );
  assign m_axi_bready = 1'b1;
  wire [16:0] b_have = b_count_reg + 17'(m_axi_bvalid);
  // a job is done once its bursts' responses are counted; it leaves through a register
  // slice, so the count's compare is not in front of the consumer's choice
  wire done_valid = pend_valid && b_count_reg >= pend_bursts;
  logic done_ready;
  assign done_take = done_valid && done_ready;
  toe_skid_buffer #(.WIDTH(TCP_RING_JOB_W)) u_done (
    .clk, .rst,
    .s_data(pend_job), .s_valid(done_valid), .s_ready(done_ready),
    .m_data(m_done), .m_valid(m_done_valid), .m_ready(m_done_ready)
  );
  always_ff @(posedge clk) begin
    b_count_reg <= b_have - (done_take ? pend_bursts : 17'd0);
    pend_count_reg <= pend_count_reg + 5'(pend_push) - 5'(done_take);
    if (rst) begin
      b_count_reg <= '0;
      pend_count_reg <= '0;
    end
  end

`ifndef SYNTHESIS
  // the burst is next_burst's, capped at IN_BEATS
  always @(posedge clk) if (!rst && m_axi_awvalid) begin
    assert (burst == (next_burst(32'(word_reg), out_left_reg, DATA_W) > 9'(IN_BEATS) ? 9'(IN_BEATS) :
                      next_burst(32'(word_reg), out_left_reg, DATA_W)) && 9'(m_axi_awlen) == burst - 9'd1)
      else $error("toe_tcp_ring_writer: burst length differs from next_burst");
  end
  // the kept flags and distance agree with the counts they stand for
  always @(posedge clk) if (!rst && state_reg != ST_IDLE)
    assert (out_one_reg == (out_left_reg == 17'd1) && in_one_reg == (in_left_reg == 17'd1) &&
            (!need_in_reg || in_left_reg != '0) &&
            to_boundary == beats_to_boundary(32'(word_reg), DATA_W))
      else $error("toe_tcp_ring_writer: a kept flag differs from its count");
  // a job's output beats (from its parts) are the frame's lane end rounded up to beats
  always @(posedge clk) if (!rst && job_take && s_job.length != '0)
    assert (32'(job_out_beats) == (32'(s_start[OW-1:0]) + 32'(s_stream) + W - 1) / W)
      else $error("toe_tcp_ring_writer: a job's output beats differ from its lane end rounded up");
  // Inside a burst the W channel never waits on the source: its beats were all here.
  always @(posedge clk) if (!rst && state_reg == ST_DATA && need_in_reg)
    assert (in_tvalid) else $error("toe_tcp_ring_writer: W waits for input inside a burst");
  // A job is taken only with room for its completion (also the one taken at the last beat
  // of the job before, whose completion is queued in the same cycle).
  always @(posedge clk) if (!rst)
    assert (!(pend_push_reg && !pend_ready)) else $error("toe_tcp_ring_writer: completion queue overflow");
`endif
endmodule
