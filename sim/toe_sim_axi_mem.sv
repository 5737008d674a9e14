// SPDX-License-Identifier: Apache-2.0
// toe_sim_axi_mem: behavioural AXI4 slave memory for simulation (not synthesizable).
// Sparse (an associative array of DATA_W-bit words, so rings of idle sessions cost
// nothing), INCR bursts of full-width beats, byte strobes. Reads: each AR is answered
// READ_LATENCY cycles after it was accepted, bursts in order, one beat per cycle when
// rready allows. Writes: AW and W are accepted at one beat per cycle; B follows the last
// beat after WRITE_LATENCY cycles. Unwritten memory reads as zero.
module toe_sim_axi_mem #(
  parameter int unsigned DATA_W        = 64,
  parameter int unsigned ADDR_W        = 40,
  parameter int unsigned ID_W          = 2,
  parameter int unsigned READ_LATENCY  = 16,   // cycles from AR to the first R beat
  parameter int unsigned WRITE_LATENCY = 4     // cycles from the last W beat to B
) (
  input  logic                clk,
  input  logic                rst,
  input  logic [ID_W-1:0]     s_axi_awid,
  input  logic [ADDR_W-1:0]   s_axi_awaddr,
  input  logic [7:0]          s_axi_awlen,
  input  logic [2:0]          s_axi_awsize,
  input  logic [1:0]          s_axi_awburst,
  input  logic                s_axi_awvalid,
  output logic                s_axi_awready,
  input  logic [DATA_W-1:0]   s_axi_wdata,
  input  logic [DATA_W/8-1:0] s_axi_wstrb,
  input  logic                s_axi_wlast,
  input  logic                s_axi_wvalid,
  output logic                s_axi_wready,
  output logic [ID_W-1:0]     s_axi_bid,
  output logic [1:0]          s_axi_bresp,
  output logic                s_axi_bvalid,
  input  logic                s_axi_bready,
  input  logic [ID_W-1:0]     s_axi_arid,
  input  logic [ADDR_W-1:0]   s_axi_araddr,
  input  logic [7:0]          s_axi_arlen,
  input  logic [2:0]          s_axi_arsize,
  input  logic [1:0]          s_axi_arburst,
  input  logic                s_axi_arvalid,
  output logic                s_axi_arready,
  output logic [ID_W-1:0]     s_axi_rid,
  output logic [DATA_W-1:0]   s_axi_rdata,
  output logic [1:0]          s_axi_rresp,
  output logic                s_axi_rlast,
  output logic                s_axi_rvalid,
  input  logic                s_axi_rready
);
  localparam int unsigned W = DATA_W / 8;
  localparam int unsigned OW = $clog2(W);
  typedef logic [ADDR_W-OW-1:0] word_addr_t;
  typedef struct packed {
    logic [ID_W-1:0] id;
    word_addr_t      word;
    logic [7:0]      len;
    logic [63:0]     due;
  } burst_t;

  logic [DATA_W-1:0] mem [word_addr_t];
  burst_t aw_q[$], ar_q[$], b_q[$];
  logic [63:0] cycle;
  logic [8:0] w_beat, r_beat;

  function automatic logic [DATA_W-1:0] read_word(input word_addr_t a);
    return mem.exists(a) ? mem[a] : '0;
  endfunction

  assign s_axi_awready = 1'b1;
  assign s_axi_arready = 1'b1;
  assign s_axi_wready = aw_q.size() != 0;
  assign s_axi_bresp = 2'b00;
  assign s_axi_rresp = 2'b00;
  // B and R outputs are registers, recomputed from the queues at every clock edge.

  always_ff @(posedge clk) begin
    if (rst) begin
      aw_q.delete();
      ar_q.delete();
      b_q.delete();
      cycle <= '0;
      w_beat <= '0;
      r_beat = '0;
      s_axi_bvalid <= 1'b0;
      s_axi_rvalid <= 1'b0;
    end else begin
      cycle <= cycle + 1;
      if (s_axi_wvalid && s_axi_wready) begin
        automatic word_addr_t a = aw_q[0].word + word_addr_t'(w_beat);
        automatic logic [DATA_W-1:0] d = read_word(a);
        for (int i = 0; i < W; i++) if (s_axi_wstrb[i]) d[8*i +: 8] = s_axi_wdata[8*i +: 8];
        mem[a] = d;
        if (w_beat == {1'b0, aw_q[0].len}) begin
          automatic burst_t b = aw_q.pop_front();
          b.due = cycle + 64'(WRITE_LATENCY);
          b_q.push_back(b);
          w_beat <= '0;
        end else w_beat <= w_beat + 1'b1;
      end
      if (s_axi_bvalid && s_axi_bready) void'(b_q.pop_front());
      if (s_axi_rvalid && s_axi_rready) begin
        if (s_axi_rlast) begin
          void'(ar_q.pop_front());
          r_beat = '0;
        end else r_beat = r_beat + 1'b1;
      end
      s_axi_bvalid <= b_q.size() != 0 && b_q[0].due <= cycle + 1;
      s_axi_bid <= b_q.size() != 0 ? b_q[0].id : '0;
      s_axi_rvalid <= ar_q.size() != 0 && ar_q[0].due <= cycle + 1;
      s_axi_rid <= ar_q.size() != 0 ? ar_q[0].id : '0;
      s_axi_rdata <= ar_q.size() != 0 ? read_word(ar_q[0].word + word_addr_t'(r_beat)) : '0;
      s_axi_rlast <= ar_q.size() != 0 && r_beat == {1'b0, ar_q[0].len};
      if (s_axi_awvalid) aw_q.push_back('{id: s_axi_awid, word: s_axi_awaddr[ADDR_W-1:OW], len: s_axi_awlen, due: '0});
      if (s_axi_arvalid) ar_q.push_back('{id: s_axi_arid, word: s_axi_araddr[ADDR_W-1:OW], len: s_axi_arlen,
                                          due: cycle + 64'(READ_LATENCY)});
    end
  end
endmodule
