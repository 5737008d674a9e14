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
  logic ar_busy_reg;
  tcp_ring_job_t ar_job_reg;
  logic [RW-1:0] ar_word_reg;
  logic [16:0] ar_left_reg;
  logic infl_ready, infl_valid;
  tcp_ring_job_t infl_job;
  wire [8:0] burst = next_burst(32'(ar_word_reg), ar_left_reg, DATA_W);
  assign s_job_ready = !ar_busy_reg && infl_ready;
  wire job_take = s_job_valid && s_job_ready;
  // room for the burst in the read buffer: the credit covers the fewer of the beats to the
  // boundary and the beats left, i.e. one of them (both compared at once, not after the min)
  wire [16:0] credit = 17'(credit_reg);
  assign m_axi_arvalid = ar_busy_reg && (credit >= beats_to_boundary(32'(ar_word_reg), DATA_W) || credit >= ar_left_reg);
  assign m_axi_araddr = ADDR_W'(ar_job_reg.base) + ADDR_W'({ar_word_reg, {OW{1'b0}}});
  assign m_axi_arlen = 8'(burst - 9'd1);
  always_ff @(posedge clk) begin
    if (job_take) begin
      ar_job_reg <= s_job;
      ar_word_reg <= s_job.offset[OW +: RW];
      ar_left_reg <= mem_beats(s_job);
      ar_busy_reg <= s_job.length != '0;
    end else if (m_axi_arvalid && m_axi_arready) begin
      ar_word_reg <= ar_word_reg + RW'(burst);
      ar_left_reg <= ar_left_reg - 17'(burst);
      if (17'(burst) == ar_left_reg) ar_busy_reg <= 1'b0;
    end
    credit_reg <= credit_reg - ((m_axi_arvalid && m_axi_arready) ? ($clog2(RBUF)+1)'(burst) : '0)
                  + ($clog2(RBUF)+1)'(buf_valid && buf_ready);
    if (rst) begin
      ar_busy_reg <= 1'b0;
      credit_reg <= ($clog2(RBUF)+1)'(RBUF);
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
`endif
endmodule
