// SPDX-License-Identifier: Apache-2.0
// toe_axis_protocol_check: simulation-only AXI-Stream rule checker. Attach it to any
// stream (all inputs). It asserts that once tvalid is high it stays high, with tdata,
// tkeep, tlast and tuser unchanged, until tready takes the beat, and that no beat has X
// on its control signals. Compiled only when SYNTHESIS is not defined; Verilator checks it
// with --assert (the test benches build with it).
module toe_axis_protocol_check #(
  parameter int unsigned DATA_W = 64,
  parameter int unsigned USER_W = 1
) (
  input logic                clk,
  input logic                rst,
  input logic [DATA_W-1:0]   tdata,
  input logic [DATA_W/8-1:0] tkeep,
  input logic                tvalid,
  input logic                tready,
  input logic                tlast,
  input logic [USER_W-1:0]   tuser
);
`ifndef SYNTHESIS
  logic stalled_reg;
  logic [DATA_W+DATA_W/8+USER_W:0] held_reg;
  wire [DATA_W+DATA_W/8+USER_W:0] beat = {tdata, tkeep, tlast, tuser};
  always_ff @(posedge clk) begin
    if (!rst && stalled_reg) begin
      assert (tvalid) else $error("%m: tvalid dropped before tready");
      assert (beat == held_reg) else $error("%m: beat changed while waiting for tready");
    end
    stalled_reg <= !rst && tvalid && !tready;
    held_reg <= beat;
  end
`endif
endmodule
