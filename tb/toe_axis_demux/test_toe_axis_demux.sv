// SPDX-License-Identifier: Apache-2.0
// Test wrapper: a frame's first byte chooses its output (0..2; 3 and up are out of
// range and dropped) and bit 7 of it asks for a drop; three flat outputs m0_, m1_, m2_.
module test_toe_axis_demux #(
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
  output logic [DATA_W-1:0]   m0_axis_tdata, m1_axis_tdata, m2_axis_tdata,
  output logic [DATA_W/8-1:0] m0_axis_tkeep, m1_axis_tkeep, m2_axis_tkeep,
  output logic                m0_axis_tvalid, m1_axis_tvalid, m2_axis_tvalid,
  input  logic                m0_axis_tready, m1_axis_tready, m2_axis_tready,
  output logic                m0_axis_tlast, m1_axis_tlast, m2_axis_tlast,
  output logic                m0_axis_tuser, m1_axis_tuser, m2_axis_tuser
);
  logic [DATA_W-1:0] d;
  logic [DATA_W/8-1:0] k;
  logic l, u;
  toe_axis_demux #(.N(3), .DATA_W(DATA_W), .USER_W(1)) dut (
    .clk, .rst, .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast,
    .s_axis_tuser, .sel(s_axis_tdata[1:0]), .drop(s_axis_tdata[7]),
    .m_axis_tdata(d), .m_axis_tkeep(k), .m_axis_tvalid({m2_axis_tvalid, m1_axis_tvalid, m0_axis_tvalid}),
    .m_axis_tready({m2_axis_tready, m1_axis_tready, m0_axis_tready}), .m_axis_tlast(l), .m_axis_tuser(u)
  );
  assign {m0_axis_tdata, m1_axis_tdata, m2_axis_tdata} = {3{d}};
  assign {m0_axis_tkeep, m1_axis_tkeep, m2_axis_tkeep} = {3{k}};
  assign {m0_axis_tlast, m1_axis_tlast, m2_axis_tlast} = {3{l}};
  assign {m0_axis_tuser, m1_axis_tuser, m2_axis_tuser} = {3{u}};
endmodule
