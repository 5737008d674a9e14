// SPDX-License-Identifier: Apache-2.0
// Test wrapper: each frame's kept length is its first two bytes (little-endian).
module test_toe_axis_trim #(
  parameter int unsigned DATA_W = 64
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [DATA_W-1:0]   s_axis_tdata,
  input  logic [DATA_W/8-1:0] s_axis_tkeep,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic                s_axis_tlast,
  input  logic                s_axis_tuser,
  output logic [DATA_W-1:0]   m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic                m_axis_tvalid,
  input  logic                m_axis_tready,
  output logic                m_axis_tlast,
  output logic                m_axis_tuser,
  output logic                short_frame
);
  toe_axis_trim #(.DATA_W(DATA_W), .USER_W(1)) dut (
    .clk, .rst, .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast,
    .s_axis_tuser, .s_len(s_axis_tdata[15:0]),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser,
    .short_frame
  );
endmodule
