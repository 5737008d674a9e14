// SPDX-License-Identifier: Apache-2.0
// toe_skid_buffer: valid/ready pipeline register for a WIDTH-bit payload.
// Timing contract: one cycle latency, full throughput (one transfer per cycle), and
// both paths registered: m_valid/m_data come from flops and s_ready is a flop, so the
// buffer cuts the forward and the backward combinational path. Two entries of storage.
module toe_skid_buffer #(
  parameter int unsigned WIDTH = 8  // payload bits
) (
  input  logic             clk,
  input  logic             rst,
  input  logic [WIDTH-1:0] s_data,
  input  logic             s_valid,
  output logic             s_ready,
  output logic [WIDTH-1:0] m_data,
  output logic             m_valid,
  input  logic             m_ready
);
  logic [WIDTH-1:0] out_reg, skid_reg;
  logic             out_valid_reg, skid_valid_reg;

  assign s_ready = !skid_valid_reg;
  assign m_data  = out_reg;
  assign m_valid = out_valid_reg;

  always_ff @(posedge clk) begin
    if (m_ready || !out_valid_reg) begin
      if (skid_valid_reg) begin
        out_reg        <= skid_reg;
        out_valid_reg  <= 1'b1;
        skid_valid_reg <= 1'b0;
      end else begin
        out_reg        <= s_data;
        out_valid_reg  <= s_valid;
      end
    end else if (s_valid && !skid_valid_reg) begin
      skid_reg       <= s_data;
      skid_valid_reg <= 1'b1;
    end
    if (rst) begin
      out_valid_reg  <= 1'b0;
      skid_valid_reg <= 1'b0;
    end
  end
endmodule
