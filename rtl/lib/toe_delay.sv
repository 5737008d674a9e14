// SPDX-License-Identifier: Apache-2.0
// toe_delay: a valid bit and its data, STAGES register stages later (STAGES 0: a wire). No
// back-pressure: what goes in comes out STAGES cycles later, in order. The valid bits are
// reset, the data is not. Used to keep a stream or a frame's meta beside a pipelined sum
// (toe_axis_csum_stream, toe_udp_tx).
module toe_delay #(
  parameter int unsigned WIDTH  = 1,
  parameter int unsigned STAGES = 1
) (
  input  logic             clk,
  input  logic             rst,
  input  logic             s_valid,
  input  logic [WIDTH-1:0] s_data,
  output logic             m_valid,
  output logic [WIDTH-1:0] m_data
);
  logic             valid [STAGES + 1];
  logic [WIDTH-1:0] data  [STAGES + 1];
  assign valid[0] = s_valid;
  assign data[0] = s_data;
  for (genvar k = 0; k < STAGES; k++) begin : g_stage
    always_ff @(posedge clk) begin
      valid[k + 1] <= valid[k];
      data[k + 1] <= data[k];
      if (rst) valid[k + 1] <= 1'b0;
    end
  end
  assign m_valid = valid[STAGES];
  assign m_data = data[STAGES];
endmodule
