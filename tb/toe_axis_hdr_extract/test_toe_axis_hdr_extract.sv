// SPDX-License-Identifier: Apache-2.0
// Test wrapper: the header length K of each frame is its first byte (as IHL is for
// IPv4), and the extracted header rides on tuser above the bad bit so the sink sees it.
module test_toe_axis_hdr_extract #(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned MAX_HDR_BYTES = 60,
  parameter int unsigned LEN_GRAN = 1
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
  output logic [8*MAX_HDR_BYTES:0] m_axis_tuser,
  output logic                short_frame
);
  logic [8*MAX_HDR_BYTES-1:0] hdr;
  logic bad;
  toe_axis_hdr_extract #(.DATA_W(DATA_W), .USER_W(1), .MAX_HDR_BYTES(MAX_HDR_BYTES),
                         .LEN_GRAN(LEN_GRAN)) dut (
    .clk, .rst, .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready,
    .s_axis_tlast, .s_axis_tuser,
    .s_hdr_len($clog2(MAX_HDR_BYTES+1)'(s_axis_tdata[7:0])),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast,
    .m_axis_tuser(bad), .m_hdr(hdr), .short_frame
  );
  assign m_axis_tuser = {hdr, bad};
endmodule
