// SPDX-License-Identifier: Apache-2.0
// toe_app_udp_echo: UDP echo service (RFC 862). After reset it asks the engine to listen
// on PORT, then sends every datagram it receives back to its sender: the UDP metadata
// {remote ip, remote port, local port, length} already names the sender and our port,
// so the datagram and its tuser pass straight through.
module toe_app_udp_echo
  import toe_pkg::*;
#(
  parameter int unsigned DATA_W = 64,
  parameter logic [15:0] PORT   = 16'd7
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [DATA_W-1:0]     s_axis_tdata,
  input  logic [DATA_W/8-1:0]   s_axis_tkeep,
  input  logic                  s_axis_tvalid,
  output logic                  s_axis_tready,
  input  logic                  s_axis_tlast,
  input  logic [UDP_META_W-1:0] s_axis_tuser,
  output logic [DATA_W-1:0]     m_axis_tdata,
  output logic [DATA_W/8-1:0]   m_axis_tkeep,
  output logic                  m_axis_tvalid,
  input  logic                  m_axis_tready,
  output logic                  m_axis_tlast,
  output logic [UDP_META_W-1:0] m_axis_tuser,
  output logic                  listen_req_valid,
  input  logic                  listen_req_ready,
  output udp_listen_req_t       listen_req,
  input  logic                  listen_rsp_valid,
  output logic                  listen_rsp_ready,
  input  udp_listen_rsp_t       listen_rsp,
  output logic                  listening
);
  toe_axis_register #(.DATA_W(DATA_W), .USER_W(UDP_META_W)) u_reg (
    .clk, .rst,
    .s_axis_tdata, .s_axis_tkeep, .s_axis_tvalid, .s_axis_tready, .s_axis_tlast, .s_axis_tuser,
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tvalid, .m_axis_tready, .m_axis_tlast, .m_axis_tuser
  );

  logic asked_reg;
  assign listen_req_valid = !asked_reg;
  assign listen_req = '{port: PORT, open: 1'b1};
  assign listen_rsp_ready = 1'b1;
  always_ff @(posedge clk) begin
    if (listen_req_valid && listen_req_ready) asked_reg <= 1'b1;
    if (listen_rsp_valid && listen_rsp.port == PORT) listening <= listen_rsp.ok;
    if (rst) begin
      asked_reg <= 1'b0;
      listening <= 1'b0;
    end
  end
endmodule
