// SPDX-License-Identifier: Apache-2.0
// toe_csa_tree: sum of N unsigned IN_W-bit terms in carry-save form: two OUT_W-bit words
// whose sum (mod 2^OUT_W) is the terms' sum, from levels of counters side by side, no carry
// chain. A counter takes up to six words and gives three: per bit position the count of
// its ones (0..6) as bits of weight 1, 2 and 4, each a function of the six bits (one LUT6
// each); three words go to two (a full adder per bit). A level halves the words (3:2
// compressors alone take a third off: a 512-bit beat's 32 words took 8 levels, 9 LUT
// levels after mapping at stop 56; counters take 5: 32 -> 17 -> 9 -> 5 -> 3 -> 2).
// A pipeline registers the two words and adds them in its next stage, with whatever else
// that stage adds: the carry chain of the whole sum leaves the stage that compresses
// (a 512-bit beat summed in one stage with its carry chain, toe_sum_tree, took 3.86 ns in
// Yosys' cell-delay model).
// The two words sum to the terms' sum modulo 2^OUT_W (a counter keeps a+b+c+d+e+f =
// s + 2*w2 + 4*w4, and dropping the bits above OUT_W keeps it modulo 2^OUT_W):
// OUT_W >= IN_W + ceil(log2 N) makes it exact.
module toe_csa_tree #(
  parameter int unsigned N     = 8,   // terms, >= 1
  parameter int unsigned IN_W  = 16,  // bits per term
  parameter int unsigned OUT_W = 32   // bits of each output word
) (
  input  logic [N*IN_W-1:0] terms,
  output logic [OUT_W-1:0]  sum_s,    // the sum is sum_s + sum_c (mod 2^OUT_W)
  output logic [OUT_W-1:0]  sum_c
);
  typedef logic [OUT_W-1:0] word_t;
  function automatic word_t maj(input word_t a, b, c);
    return (a & b) | (a & c) | (b & c);
  endfunction

  // Each level takes the words in sixes, and the rest (fewer than six) as one counter
  // when there are four or five, as a full adder when three, else passes them on (absent
  // words are zero). The loops' bounds are constants.
  always_comb begin
    word_t t [N+5];
    word_t u [N+5];
    int unsigned n, m, rest;
    for (int unsigned i = 0; i < N + 5; i++) t[i] = i < N ? OUT_W'(terms[i*IN_W +: IN_W]) : '0;
    n = N;
    for (int unsigned level = 0; level < N; level++) begin
      if (n > 2) begin
        m = 0;
        for (int unsigned i = 0; i < N + 5; i++) u[i] = '0;
        rest = n % 6;
        for (int unsigned i = 0; i < N; i += 6) begin
          if (i + 6 <= n || (i < n && rest >= 4)) begin
            // six words (two of them zero for a counter of four): the count's bits
            word_t s1, k1, s2, k2, h;
            s1 = t[i] ^ t[i+1] ^ t[i+2];
            k1 = maj(t[i], t[i+1], t[i+2]);
            s2 = t[i+3] ^ t[i+4] ^ t[i+5];
            k2 = maj(t[i+3], t[i+4], t[i+5]);
            h = s1 & s2;
            u[m] = s1 ^ s2;
            u[m+1] = (k1 ^ k2 ^ h) << 1;
            u[m+2] = maj(k1, k2, h) << 2;
            m += 3;
          end else if (i < n && rest == 3) begin
            u[m] = t[i] ^ t[i+1] ^ t[i+2];
            u[m+1] = maj(t[i], t[i+1], t[i+2]) << 1;
            m += 2;
          end else if (i < n) begin
            u[m] = t[i];
            u[m+1] = rest == 2 ? t[i+1] : '0;
            m += rest;
          end
        end
        t = u;
        n = m;
      end
    end
    sum_s = t[0];
    sum_c = t[1];
  end
endmodule
