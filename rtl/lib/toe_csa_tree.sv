// SPDX-License-Identifier: Apache-2.0
// toe_csa_tree: sum of N unsigned IN_W-bit terms in carry-save form: two OUT_W-bit words
// whose sum (mod 2^OUT_W) is the terms' sum, from levels of 3:2 compressors (full adders
// side by side: a LUT per bit and level, no carry chain). A pipeline registers the two
// words and adds them in its next stage, with whatever else that stage adds (one more
// compressor level and one carry chain): the carry chain of the whole sum leaves the stage
// that compresses. For a 512-bit beat (32 words) the compression is 8 levels; summed in
// one stage with its carry chain (toe_sum_tree) the beat took 3.86 ns in Yosys' cell-delay
// model, 3.02 ns without the chain.
// The two words sum to the terms' sum modulo 2^OUT_W (a compressor keeps a+b+c = s + 2*maj,
// and dropping the bits above OUT_W keeps it modulo 2^OUT_W): OUT_W >= IN_W + ceil(log2 N)
// makes it exact.
module toe_csa_tree #(
  parameter int unsigned N     = 8,   // terms, >= 1
  parameter int unsigned IN_W  = 16,  // bits per term
  parameter int unsigned OUT_W = 32   // bits of each output word
) (
  input  logic [N*IN_W-1:0] terms,
  output logic [OUT_W-1:0]  sum_s,    // the sum is sum_s + sum_c (mod 2^OUT_W)
  output logic [OUT_W-1:0]  sum_c
);
  // Each level takes the words in threes (s = a^b^c, c = majority << 1) and passes the
  // rest on: n words become 2*(n/3) + n%3, down to two. The loops' bounds are constants.
  always_comb begin
    logic [OUT_W-1:0] t [N];
    logic [OUT_W-1:0] u [N];
    int unsigned n, m;
    for (int unsigned i = 0; i < N; i++) t[i] = OUT_W'(terms[i*IN_W +: IN_W]);
    n = N;
    for (int unsigned level = 0; level < N; level++) begin
      if (n > 2) begin
        m = 0;
        for (int unsigned i = 0; i < N; i++) u[i] = '0;
        for (int unsigned i = 0; i + 2 < N; i += 3) begin
          if (i + 2 < n) begin
            u[m] = t[i] ^ t[i+1] ^ t[i+2];
            u[m+1] = ((t[i] & t[i+1]) | (t[i] & t[i+2]) | (t[i+1] & t[i+2])) << 1;
            m += 2;
          end
        end
        for (int unsigned i = 0; i < N; i++)
          if (i >= (n / 3) * 3 && i < n) begin
            u[m] = t[i];
            m += 1;
          end
        t = u;
        n = m;
      end
    end
    sum_s = t[0];
    sum_c = N > 1 ? t[1] : '0;
  end
endmodule
