// SPDX-License-Identifier: Apache-2.0
// toe_sim_axi_mem: behavioural AXI4 slave memory for simulation (not synthesizable).
// Sparse (an associative array of DATA_W-bit words, so rings of idle sessions cost
// nothing), INCR bursts of full-width beats, byte strobes. Reads: each AR is answered
// READ_LATENCY cycles after it was accepted, bursts in order, one beat per cycle when
// rready allows. Writes: AW and W are accepted at one beat per cycle; B follows the last
// beat after WRITE_LATENCY cycles. Unwritten memory reads as zero.
// Ideal (BYTES_PER_KCYCLE = 0): R and W each move a beat every cycle. DDR4 channel
// (BYTES_PER_KCYCLE > 0): the two share one data bus of BYTES_PER_KCYCLE bytes per 1000
// cycles (fractions carried: a token bucket of at most two beats), which is closed for
// REFRESH_CYCLES every REFRESH_EVERY cycles (tRFC, tREFI) and for TURNAROUND cycles when
// it changes direction (write-to-read and read-to-write), and each read waits
// READ_LATENCY plus a random 0..LATENCY_JITTER cycles (bursts stay in order). The bus
// keeps its direction while that side has beats waiting, as a controller batches.
module toe_sim_axi_mem #(
  parameter int unsigned DATA_W        = 64,
  parameter int unsigned ADDR_W        = 40,
  parameter int unsigned ID_W          = 2,
  parameter int unsigned READ_LATENCY  = 16,   // cycles from AR to the first R beat
  parameter int unsigned WRITE_LATENCY = 4,    // cycles from the last W beat to B
  parameter int unsigned BYTES_PER_KCYCLE = 0, // shared R+W bandwidth per 1000 cycles (0: ideal)
  parameter int unsigned REFRESH_EVERY  = 0,   // cycles between refreshes (0: none)
  parameter int unsigned REFRESH_CYCLES = 0,   // cycles a refresh closes the bus
  parameter int unsigned TURNAROUND     = 0,   // cycles lost when the bus changes direction
  parameter int unsigned LATENCY_JITTER = 0    // extra read latency, uniform 0..this
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
  // ---- the data bus (DDR4 mode): who may move a beat in the next cycle ----
  localparam bit SHARED = BYTES_PER_KCYCLE != 0;
  localparam longint unsigned BEAT_COST = 1000 * W;       // a beat, in bytes/1000
  logic w_grant_reg, dir_w_reg;
  localparam int unsigned BATCH = 32;                     // beats before the bus turns for a waiting side
  int unsigned run_reg;                                   // beats in the current direction
  longint unsigned credit_reg;
  int unsigned refresh_cnt_reg, blocked_reg;
  assign s_axi_wready = aw_q.size() != 0 && (!SHARED || w_grant_reg);
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
      w_grant_reg <= 1'b0;
      dir_w_reg <= 1'b0;
      credit_reg <= '0;
      refresh_cnt_reg <= '0;
      blocked_reg <= '0;
      run_reg <= '0;
    end else begin : step
      automatic logic r_gnt = 1'b1, w_gnt = 1'b1;       // who may move a beat in the next cycle
      cycle <= cycle + 1;
      if (SHARED) begin
        // this cycle's beat spends credit; then who moves a beat in the next cycle
        automatic longint unsigned c = credit_reg + longint'(BYTES_PER_KCYCLE);
        automatic logic r_want = ar_q.size() != 0 && ar_q[0].due <= cycle + 1 &&
                                 !(s_axi_rvalid && s_axi_rready && s_axi_rlast && ar_q.size() == 1);
        automatic logic w_want = aw_q.size() != 0 && s_axi_wvalid;
        automatic logic r_held = s_axi_rvalid && !s_axi_rready;   // AXI: valid stays until taken
        automatic int unsigned blocked = blocked_reg > 0 ? blocked_reg - 1 : 0;
        if ((s_axi_wvalid && s_axi_wready) || (s_axi_rvalid && s_axi_rready)) c = c - BEAT_COST;
        if (c > 2 * BEAT_COST) c = 2 * BEAT_COST;
        if (REFRESH_EVERY != 0) begin
          refresh_cnt_reg <= refresh_cnt_reg + 1;
          if (refresh_cnt_reg + 1 >= REFRESH_EVERY) begin
            refresh_cnt_reg <= '0;
            if (!r_held) blocked = REFRESH_CYCLES;
          end
        end
        // keep the direction while it has beats waiting (up to BATCH beats while the other side
        // waits), else turn and pay for it
        if ((s_axi_wvalid && s_axi_wready) || (s_axi_rvalid && s_axi_rready)) run_reg <= run_reg + 1;
        if (!r_held && ((dir_w_reg && r_want && (!w_want || run_reg >= BATCH)) ||
                        (!dir_w_reg && w_want && (!r_want || run_reg >= BATCH)))) begin
          dir_w_reg <= !dir_w_reg;
          run_reg <= '0;
          if (TURNAROUND > blocked) blocked = TURNAROUND;
          r_gnt = 1'b0;
          w_gnt = 1'b0;
        end else begin
          r_gnt = r_held || (blocked == 0 && c >= BEAT_COST && !dir_w_reg && r_want);
          w_gnt = !r_held && blocked == 0 && c >= BEAT_COST && dir_w_reg && w_want;
        end
        w_grant_reg <= w_gnt;
        credit_reg <= c;
        blocked_reg <= blocked;
      end
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
      s_axi_rvalid <= ar_q.size() != 0 && ar_q[0].due <= cycle + 1 && r_gnt;
      s_axi_rid <= ar_q.size() != 0 ? ar_q[0].id : '0;
      s_axi_rdata <= ar_q.size() != 0 ? read_word(ar_q[0].word + word_addr_t'(r_beat)) : '0;
      s_axi_rlast <= ar_q.size() != 0 && r_beat == {1'b0, ar_q[0].len};
      if (s_axi_awvalid) aw_q.push_back('{id: s_axi_awid, word: s_axi_awaddr[ADDR_W-1:OW], len: s_axi_awlen, due: '0});
      if (s_axi_arvalid) ar_q.push_back('{id: s_axi_arid, word: s_axi_araddr[ADDR_W-1:OW], len: s_axi_arlen,
                                          due: cycle + 64'(READ_LATENCY) +
                                               64'(LATENCY_JITTER != 0 ? $urandom_range(LATENCY_JITTER) : 0)});
    end
  end
endmodule
