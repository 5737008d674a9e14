// SPDX-License-Identifier: Apache-2.0
// toe_axis_fifo: AXI-Stream FIFO in block RAM (toe_fifo), with an optional frame mode.
// FRAME=0: plain FIFO with back-pressure. FRAME=1: store-and-forward; a frame is readable
// only after its last beat was written, and it is dropped whole (counted on drop_bad) when
// tuser[0] is set on its last beat, or (counted on drop_full) when it does not fit: a frame
// larger than the FIFO always, and any frame that meets a full FIFO when DROP_WHEN_FULL=1
// (then s_axis_tready is always 1, as a MAC needs). Drop pulses last one cycle.
// Timing: registered output; frames start to leave two cycles after their last beat.
module toe_axis_fifo #(
  parameter int unsigned DATA_W = 64,   // tdata width, multiple of 8
  parameter int unsigned USER_W = 1,    // tuser width, bit 0 = bad frame on last beat
  parameter int unsigned DEPTH  = 512,  // beats, power of two
  parameter bit          FRAME  = 1'b1,
  parameter bit          DROP_WHEN_FULL = 1'b0,
  parameter string       RAM_STYLE = "auto"  // the RAM's ram_style attribute (toe_fifo)
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic [USER_W-1:0]   s_axis_tuser,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast,
  output logic [USER_W-1:0]   m_axis_tuser,
  output logic                drop_bad,
  output logic                drop_full
);
  localparam int unsigned W = DATA_W + DATA_W/8 + 1 + USER_W;
  initial if (DROP_WHEN_FULL && !FRAME)
    $fatal(0, "toe_axis_fifo: DROP_WHEN_FULL needs FRAME (instance %m)");

  logic fifo_ready, dropping_reg;
  logic [$clog2(DEPTH):0] uncommitted;

  // A beat that finds the FIFO full drops its frame when the frame can never fit or the
  // FIFO is in drop mode; otherwise it waits.
  wire frame_too_big = uncommitted == ($clog2(DEPTH)+1)'(DEPTH);
  wire overflow = FRAME && !fifo_ready && (DROP_WHEN_FULL || frame_too_big);
  wire discard  = dropping_reg || overflow;
  wire take     = s_axis_tvalid && s_axis_tready;
  wire write    = s_axis_tvalid && !discard;

  assign s_axis_tready = discard || fifo_ready || (FRAME && DROP_WHEN_FULL);

  toe_fifo #(.WIDTH(W), .DEPTH(DEPTH), .FRAME(FRAME), .RAM_STYLE(RAM_STYLE)) u_fifo (
    .clk, .rst,
    .s_data ({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}),
    .s_valid(write), .s_ready(fifo_ready),
    .commit (take && s_axis_tlast && !discard && !s_axis_tuser[0]),
    .rewind (take && (discard ? (overflow && !dropping_reg) || s_axis_tlast : s_axis_tlast && s_axis_tuser[0])),
    .m_data ({m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser}),
    .m_valid(m_axis_tvalid), .m_ready(m_axis_tready),
    .uncommitted
  );

  always_ff @(posedge clk) begin
    drop_bad  <= FRAME && take && s_axis_tlast && !discard && s_axis_tuser[0];
    drop_full <= take && s_axis_tlast && discard;
    if (take) dropping_reg <= discard && !s_axis_tlast;
    if (rst) begin
      dropping_reg <= 1'b0;
      drop_bad <= 1'b0;
      drop_full <= 1'b0;
    end
  end
endmodule
