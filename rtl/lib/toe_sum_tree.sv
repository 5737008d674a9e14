// SPDX-License-Identifier: Apache-2.0
// toe_sum_tree: sum of N unsigned IN_W-bit terms as a balanced adder tree
// (ceil(log2 N) adder levels, not a chain of N-1), combinational. Used for
// ones'-complement sums, whose end-around carries are folded by the caller.
module toe_sum_tree #(
  parameter int unsigned N     = 8,   // terms, >= 1
  parameter int unsigned IN_W  = 16,  // bits per term
  parameter int unsigned OUT_W = 32   // bits of the sum (no overflow when >= IN_W + log2 N)
) (
  input  logic [N*IN_W-1:0] terms,
  output logic [OUT_W-1:0]  sum
);
  localparam int unsigned LEVELS = N > 1 ? $clog2(N) : 0;
  localparam int unsigned P = 1 << LEVELS;   // N rounded up to a power of two

  // Level l has P >> l nodes; level 0 holds the terms, zero-padded to P.
  for (genvar l = 0; l <= LEVELS; l++) begin : g_level
    logic [OUT_W-1:0] node [P >> l];
    for (genvar i = 0; i < (P >> l); i++) begin : g_node
      if (l == 0 && i < N) begin : g_term
        assign node[i] = OUT_W'(terms[i*IN_W +: IN_W]);
      end else if (l == 0) begin : g_pad
        assign node[i] = '0;
      end else begin : g_add
        assign node[i] = g_level[l-1].node[2*i] + g_level[l-1].node[2*i+1];
      end
    end
  end
  assign sum = g_level[LEVELS].node[0];
endmodule
