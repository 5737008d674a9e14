// SPDX-License-Identifier: Apache-2.0
// toe_tcp_ring_reader: reads byte ranges of per-session rings in memory through the read
// half of an AXI4 master. Each job {session, base, offset, length} yields m_meta
// {session, length} and then, for length > 0, the bytes at ring offsets offset ..
// offset+length-1 (modulo RING_BYTES) as one frame on m_axis, realigned to byte 0, all
// beats full but the last. Read bursts never cross a BURST_BYTES boundary. Addresses are
// issued up to JOBS_AHEAD jobs ahead of the data, so memory latency overlaps with the
// data of earlier jobs.
// Timing: one beat per cycle once data flows; m_axis is combinational from the R channel.
module toe_tcp_ring_reader
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W     = 64,
  parameter int unsigned ADDR_W     = 40,
  parameter int unsigned RING_BYTES = 65536,  // power of two, >= 4096
  parameter int unsigned JOBS_AHEAD = 8       // power of two
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                s_job_valid,
  output logic                s_job_ready,
  input  tcp_ring_job_t       s_job,
  output logic [ADDR_W-1:0]   m_axi_araddr,
  output logic [7:0]          m_axi_arlen,
  output logic                m_axi_arvalid,
  input  logic                m_axi_arready,
  input  logic [DATA_W-1:0]   m_axi_rdata,
  input  logic                m_axi_rvalid,
  output logic                m_axi_rready,
  output logic                m_meta_valid,
  input  logic                m_meta_ready,
  output tcp_ring_job_t       m_meta,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned OW = $clog2(W);
  localparam int unsigned RW = $clog2(RING_BYTES / W);
  initial if (RING_BYTES != (1 << $clog2(RING_BYTES)) || RING_BYTES < 4096)
    $fatal(0, "toe_tcp_ring_reader: RING_BYTES must be a power of two >= 4096 (instance %m)");
  initial if (DATA_W % 8 != 0 || W > MAX_BUS_BYTES)
    $fatal(0, "toe_tcp_ring_reader: DATA_W must be whole bytes, at most 8 * MAX_BUS_BYTES (instance %m)");

  function automatic logic [16:0] mem_beats(input tcp_ring_job_t j);
    return 17'((18'(j.offset[OW-1:0]) + 18'(j.length) + 18'(W - 1)) >> OW);
  endfunction

  // ---- read buffer and its credits: beats not yet promised to an issued burst ----
  localparam int unsigned RBUF = 2 * burst_beats_max(DATA_W);
  logic [$clog2(RBUF):0] credit_reg;
  logic [DATA_W-1:0] buf_data;
  logic buf_valid, buf_ready;
  toe_fifo #(.WIDTH(DATA_W), .DEPTH(RBUF)) u_rbuf (
    .clk, .rst, .s_data(m_axi_rdata), .s_valid(m_axi_rvalid), .s_ready(),
    .commit(1'b0), .rewind(1'b0), .m_data(buf_data), .m_valid(buf_valid), .m_ready(buf_ready),
    .uncommitted()
  );
  assign m_axi_rready = 1'b1;

  // ---- address side ----
  // A burst ends at the next BURST_BYTES boundary or at the job's end, whichever is first
  // (next_burst). The beats to the boundary are kept in a register (a whole burst after
  // every burst but a job's last), and the credit's tests and next values are each one sum
  // of registers, side by side, chosen after: the issue (behind the AR handshake) only
  // chooses. (Computed in series, the boundary, the burst, the credit's compare and its sum
  // were 3.65 ns into credit_reg at 512 bits, stop 52.)
  localparam int unsigned CW = $clog2(RBUF) + 1;
  localparam int unsigned BMAX = burst_beats_max(DATA_W);
  logic ar_busy_reg;
  tcp_ring_job_t ar_job_reg;
  logic [RW-1:0] ar_word_reg;
  logic [16:0] ar_left_reg;
  logic [16:0] ar_tb_reg;        // beats from ar_word_reg to the next boundary
  logic pop_reg;                 // a beat left the read buffer last cycle (its credit comes back now)
  logic infl_ready, infl_valid;
  tcp_ring_job_t infl_job;
  wire tb_first = ar_tb_reg <= ar_left_reg;            // the burst ends at the boundary
  assign s_job_ready = !ar_busy_reg && infl_ready;
  wire job_take = s_job_valid && s_job_ready;
  // room for the burst in the read buffer: the credit covers the fewer of the beats to the
  // boundary and the beats left, i.e. one of them (each a sign of a difference)
  wire [17:0] room_tb = 18'(credit_reg) - 18'(ar_tb_reg);
  wire [17:0] room_left = 18'(credit_reg) - 18'(ar_left_reg);
  assign m_axi_arvalid = ar_busy_reg && (!room_tb[17] || !room_left[17]);
  assign m_axi_araddr = ADDR_W'(ar_job_reg.base) + ADDR_W'({ar_word_reg, {OW{1'b0}}});
  assign m_axi_arlen = tb_first ? 8'(ar_tb_reg - 17'd1) : 8'(ar_left_reg - 17'd1);
  wire issue = m_axi_arvalid && m_axi_arready;
  wire [CW-1:0] credit_kept = credit_reg + CW'(pop_reg);
  wire [CW-1:0] credit_tb = credit_reg + CW'(pop_reg) - CW'(ar_tb_reg);
  wire [CW-1:0] credit_left = credit_reg + CW'(pop_reg) - CW'(ar_left_reg);
  always_ff @(posedge clk) begin
    if (job_take) begin
      ar_job_reg <= s_job;
      ar_word_reg <= s_job.offset[OW +: RW];
      ar_left_reg <= mem_beats(s_job);
      ar_tb_reg <= beats_to_boundary(32'(s_job.offset[OW +: RW]), DATA_W);
      ar_busy_reg <= s_job.length != '0;
    end else if (issue) begin
      // to the boundary (past it nothing is read when the job ends here)
      ar_word_reg <= ar_word_reg + RW'(ar_tb_reg);
      ar_left_reg <= tb_first ? ar_left_reg - ar_tb_reg : '0;
      ar_tb_reg <= 17'(BMAX);
      if (!tb_first || ar_tb_reg == ar_left_reg) ar_busy_reg <= 1'b0;
    end
    pop_reg <= buf_valid && buf_ready;
    credit_reg <= !issue ? credit_kept : tb_first ? credit_tb : credit_left;
    if (rst) begin
      ar_busy_reg <= 1'b0;
      pop_reg <= 1'b0;
      credit_reg <= CW'(RBUF);
    end
  end
  toe_fifo #(.WIDTH(TCP_RING_JOB_W), .DEPTH(JOBS_AHEAD)) u_inflight (
    .clk, .rst, .s_data(s_job), .s_valid(job_take), .s_ready(infl_ready),
    .commit(1'b0), .rewind(1'b0), .m_data(infl_job), .m_valid(infl_valid),
    .m_ready(m_meta_valid && m_meta_ready), .uncommitted()
  );

  // ---- data side: meta first, then output beat k = bytes lane.. of {beat k+1, beat k} ----
  typedef enum logic [1:0] {ST_META, ST_DATA} state_e;
  state_e state_reg;
  tcp_ring_job_t job_reg;
  logic [16:0] r_left_reg, o_left_reg;
  logic o_last_reg;            // o_left_reg == 1: the next output beat is the frame's last
  logic [DATA_W-1:0] lo_reg;
  logic lo_valid_reg;
  assign m_meta_valid = state_reg == ST_META && infl_valid;
  assign m_meta = infl_job;

  wire last_mem = r_left_reg == '0;
  wire [DATA_W-1:0] hi = last_mem ? '0 : buf_data;
  wire [2*DATA_W-1:0] both = {hi, lo_reg};
  assign m_axis_tdata = DATA_W'(both >> (8 * int'(job_reg.offset[OW-1:0])));
  assign m_axis_tlast = o_last_reg;
  assign m_axis_tkeep = m_axis_tlast ? W'(last_beat_keep(job_reg.length, W)) : '1;
  assign m_axis_tvalid = state_reg == ST_DATA && lo_valid_reg && (last_mem || buf_valid);
  wire out_take = m_axis_tvalid && m_axis_tready;
  assign buf_ready = state_reg == ST_DATA && !last_mem && (!lo_valid_reg || out_take);

  always_ff @(posedge clk) begin
    unique case (state_reg)
      ST_META: if (m_meta_valid && m_meta_ready && infl_job.length != '0) begin
        job_reg <= infl_job;
        r_left_reg <= mem_beats(infl_job);
        o_left_reg <= 17'((18'(infl_job.length) + 18'(W - 1)) >> OW);
        o_last_reg <= 18'(infl_job.length) <= 18'(W);
        lo_valid_reg <= 1'b0;
        state_reg <= ST_DATA;
      end
      ST_DATA: begin
        if (buf_valid && buf_ready) begin
          lo_reg <= buf_data;
          lo_valid_reg <= 1'b1;
          r_left_reg <= r_left_reg - 1'b1;
        end else if (out_take) lo_valid_reg <= 1'b0;
        if (out_take) begin
          o_left_reg <= o_left_reg - 1'b1;
          o_last_reg <= o_left_reg == 17'd2;
          if (m_axis_tlast) state_reg <= ST_META;
        end
      end
      default: state_reg <= ST_META;
    endcase
    if (rst) state_reg <= ST_META;
  end
`ifndef SYNTHESIS
  // the registered last-beat flag agrees with the beat count it stands for
  always @(posedge clk) if (!rst && state_reg == ST_DATA)
    assert (o_last_reg == (o_left_reg == 17'd1)) else $error("toe_tcp_ring_reader: last-beat flag wrong");
  // the registered distance to the boundary is next_burst's, and the credit never goes
  // below 0 (no burst is issued that the read buffer could not take)
  wire [8:0] burst = tb_first ? 9'(ar_tb_reg) : 9'(ar_left_reg);
  always @(posedge clk) if (!rst && ar_busy_reg) begin
    assert (ar_tb_reg == beats_to_boundary(32'(ar_word_reg), DATA_W))
      else $error("toe_tcp_ring_reader: the beats to the boundary are not the word's");
    assert (burst == next_burst(32'(ar_word_reg), ar_left_reg, DATA_W))
      else $error("toe_tcp_ring_reader: the burst differs from next_burst");
  end
  always @(posedge clk) if (!rst)
    assert (credit_reg <= CW'(RBUF)) else $error("toe_tcp_ring_reader: read buffer credit out of range");
`endif
endmodule
