// SPDX-License-Identifier: Apache-2.0
// Test wrapper: the header to insert rides on s_axis_tuser above the bad bit.
module test_toe_axis_hdr_insert #(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned HDR_BYTES = 14,
  parameter bit          OUT_REG = 0
) (
  input  logic                       clk,
  input  logic                       rst,
  input  logic [DATA_W-1:0]          s_axis_tdata,
  input  logic [DATA_W/8-1:0]        s_axis_tkeep,
  input  logic                       s_axis_tvalid,
  output logic                       s_axis_tready,
  input  logic                       s_axis_tlast,
  input  logic [8*HDR_BYTES:0]       s_axis_tuser,
  output logic [DATA_W-1:0]          m_axis_tdata,
  output logic [DATA_W/8-1:0]        m_axis_tkeep,
  output logic                       m_axis_tvalid,
  input  logic                       m_axis_tready,
  output logic                       m_axis_tlast,
  output logic                       m_axis_tuser
);
  toe_axis_hdr_insert #(.DATA_W(DATA_W), .USER_W(1), .HDR_BYTES(HDR_BYTES), .OUT_REG(OUT_REG)) dut (
    .clk, .rst, .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast,
    .s_axis_tuser(s_axis_tuser[0]), .s_hdr(s_axis_tuser[8*HDR_BYTES:1]),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );
endmodule
