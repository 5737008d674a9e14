// SPDX-License-Identifier: Apache-2.0
// Test wrapper: three flat input streams for toe_axis_arb_mux (tuser = input index).
module test_toe_axis_arb_mux #(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned N = 3
) (
  input  logic clk,
  input  logic rst,
  input  logic [DATA_W-1:0] s0_axis_tdata,
  input  logic [DATA_W/8-1:0] s0_axis_tkeep,
  input  logic s0_axis_tvalid,
  output logic s0_axis_tready,
  input  logic s0_axis_tlast,
  input  logic [1:0] s0_axis_tuser,
  input  logic [DATA_W-1:0] s1_axis_tdata,
  input  logic [DATA_W/8-1:0] s1_axis_tkeep,
  input  logic s1_axis_tvalid,
  output logic s1_axis_tready,
  input  logic s1_axis_tlast,
  input  logic [1:0] s1_axis_tuser,
  input  logic [DATA_W-1:0] s2_axis_tdata,
  input  logic [DATA_W/8-1:0] s2_axis_tkeep,
  input  logic s2_axis_tvalid,
  output logic s2_axis_tready,
  input  logic s2_axis_tlast,
  input  logic [1:0] s2_axis_tuser,
  output logic [DATA_W-1:0] m_axis_tdata,
  output logic [DATA_W/8-1:0] m_axis_tkeep,
  output logic m_axis_tvalid,
  input  logic m_axis_tready,
  output logic m_axis_tlast,
  output logic [1:0] m_axis_tuser
);
  toe_axis_arb_mux #(.N(3), .DATA_W(DATA_W), .USER_W(2)) dut (
    .clk, .rst,
    .s_axis_tdata({s2_axis_tdata, s1_axis_tdata, s0_axis_tdata}),
    .s_axis_tkeep({s2_axis_tkeep, s1_axis_tkeep, s0_axis_tkeep}),
    .s_axis_tvalid({s2_axis_tvalid, s1_axis_tvalid, s0_axis_tvalid}),
    .s_axis_tready({s2_axis_tready, s1_axis_tready, s0_axis_tready}),
    .s_axis_tlast({s2_axis_tlast, s1_axis_tlast, s0_axis_tlast}),
    .s_axis_tuser({s2_axis_tuser, s1_axis_tuser, s0_axis_tuser}),
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );
  toe_axis_protocol_check #(.DATA_W(DATA_W), .USER_W(2)) u_check (
    .clk, .rst, .tdata(m_axis_tdata), .tkeep(m_axis_tkeep), .tvalid(m_axis_tvalid),
    .tready(m_axis_tready), .tlast(m_axis_tlast), .tuser(m_axis_tuser));
endmodule
