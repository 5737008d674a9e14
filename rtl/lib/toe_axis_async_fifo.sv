// SPDX-License-Identifier: Apache-2.0
// toe_axis_async_fifo: AXI-Stream FIFO between two clock domains (e.g. a MAC clock and the
// core clock): the stream's fields as the words of one toe_async_fifo, whose header states
// the crossing, the resets and the timing (a beat is visible to the reader 3-4 read-clock
// cycles after it was written; full throughput on both sides).
module toe_axis_async_fifo #(
  parameter int unsigned DATA_W = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W = 1,   // tuser width
  parameter int unsigned DEPTH  = 64   // beats, power of two, >= 4
) (
  input  logic                s_clk,
  input  logic                s_rst,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic [USER_W-1:0]   s_axis_tuser,
  input  logic                m_clk,
  input  logic                m_rst,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast,
  output logic [USER_W-1:0]   m_axis_tuser
);
  localparam int unsigned W = DATA_W + DATA_W/8 + 1 + USER_W;

  toe_async_fifo #(.WIDTH(W), .DEPTH(DEPTH)) u_fifo (
    .s_clk, .s_rst, .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}),
    .s_valid(s_axis_tvalid), .s_ready(s_axis_tready),
    .m_clk, .m_rst, .m_data({m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser}),
    .m_valid(m_axis_tvalid), .m_ready(m_axis_tready)
  );
endmodule
