// SPDX-License-Identifier: Apache-2.0
// toe_axis_register: AXI-Stream pipeline register (skid buffer). One cycle latency, full
// throughput, registered tvalid/tdata and registered tready (see toe_skid_buffer).
module toe_axis_register #(
  parameter int unsigned DATA_W = 64,  // tdata width, multiple of 8
  parameter int unsigned USER_W = 1    // tuser width (bit 0: bad frame, on the last beat)
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
  output logic [USER_W-1:0]   m_axis_tuser
);
  localparam int unsigned W = DATA_W + DATA_W/8 + 1 + USER_W;
  toe_skid_buffer #(.WIDTH(W)) u_skid (
    .clk, .rst,
    .s_data ({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}),
    .s_valid(s_axis_tvalid), .s_ready(s_axis_tready),
    .m_data ({m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser}),
    .m_valid(m_axis_tvalid), .m_ready(m_axis_tready)
  );
endmodule
