// SPDX-License-Identifier: Apache-2.0
// toe_sim_axi_mem: behavioural AXI4 slave memory for simulation (not synthesizable).
// Sparse (an associative array of DATA_W-bit words, so rings of idle sessions cost
// nothing), INCR bursts of full-width beats, byte strobes. Reads: each AR is answered
// READ_LATENCY cycles after it was accepted, bursts in order, one beat per cycle when
// rready allows. Writes: AW and W are accepted at one beat per cycle; B follows the last
// beat after WRITE_LATENCY cycles. Unwritten memory reads as zero.
// Ideal (BYTES_PER_KCYCLE = 0): R and W each move a beat every cycle. DDR4 channel
// (BYTES_PER_KCYCLE > 0): the AXI side still moves a beat each way per cycle, through a
// write buffer (WBUF_BEATS) and the read data of bursts in flight, but the DRAM behind it
// has one half-duplex data bus of BYTES_PER_KCYCLE bytes per 1000 cycles (fractions
// carried) shared by reads and writes: it drains the write buffer and fetches read beats
// in batches of up to BATCH beats while the other side waits, loses TURNAROUND cycles at
// each change of direction (write-to-read, read-to-write) and REFRESH_CYCLES every
// REFRESH_EVERY cycles (tRFC, tREFI); a full write buffer holds W back, an unfetched
// beat holds R back. Each read also waits READ_LATENCY plus a random 0..LATENCY_JITTER
// cycles (bursts stay in order).
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
  parameter int unsigned BATCH          = 32,  // beats one direction keeps the bus while the other waits
  parameter int unsigned WBUF_BEATS     = 64,  // write buffer of the controller
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
  // ---- the DRAM behind the port (DDR4 mode) ----
  localparam bit SHARED = BYTES_PER_KCYCLE != 0;
  localparam longint BEAT = 1000 * longint'(W);           // bus time of a beat, in bytes/1000
  longint credit_reg;                                     // bus time available, in bytes/1000
  int unsigned wbuf_reg;        // W beats taken and not yet written to the DRAM
  int unsigned to_fetch_reg;    // read beats asked for and not yet fetched
  int unsigned fetched_reg;     // read beats fetched and not yet given on R
  logic dir_w_reg;              // the bus is writing
  int unsigned run_reg;         // beats since it last turned
  int unsigned refresh_cnt_reg;
  // W is ready from registers only (the AW queue is updated by blocking calls, which a
  // master on this clock could see before or after this edge's update).
  int unsigned aw_open_reg;     // AW bursts accepted whose last W beat has not come
  assign s_axi_wready = aw_open_reg != 0 && (!SHARED || wbuf_reg < WBUF_BEATS);
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
      credit_reg <= '0;
      wbuf_reg <= '0;
      to_fetch_reg <= '0;
      fetched_reg <= '0;
      dir_w_reg <= 1'b0;
      run_reg <= '0;
      refresh_cnt_reg <= '0;
      aw_open_reg <= '0;
    end else begin : step
      automatic int unsigned fetched = fetched_reg;     // after this cycle's R beat and fetches
      automatic logic burst_done = 1'b0;                // this cycle's W beat ends its burst
      cycle <= cycle + 1;
      if (SHARED) begin
        automatic longint c = credit_reg + longint'(BYTES_PER_KCYCLE);
        automatic int unsigned wbuf = wbuf_reg + int'(s_axi_wvalid && s_axi_wready);
        automatic int unsigned to_fetch = to_fetch_reg + (s_axi_arvalid ? int'(s_axi_arlen) + 1 : 0);
        automatic logic dir_w = dir_w_reg;
        automatic int unsigned run = run_reg;
        if (s_axi_rvalid && s_axi_rready) fetched--;
        if (c > 2 * BEAT) c = 2 * BEAT;                 // an idle bus banks no time
        if (REFRESH_EVERY != 0) begin
          refresh_cnt_reg <= refresh_cnt_reg + 1;
          if (refresh_cnt_reg + 1 >= REFRESH_EVERY) begin
            refresh_cnt_reg <= '0;
            c = c - longint'(REFRESH_CYCLES) * longint'(BYTES_PER_KCYCLE);
          end
        end
        // the bus serves beats while it has time: stay on a direction while it has beats
        // (up to BATCH while the other side waits), else turn and pay for it
        for (int k = 0; k < 4 && c >= BEAT; k++) begin
          automatic logic want_w = wbuf != 0;
          automatic logic want_r = to_fetch != 0;
          automatic logic stay = dir_w ? want_w && !(want_r && run >= BATCH) : want_r && !(want_w && run >= BATCH);
          if (!want_w && !want_r) break;
          if (!stay) begin
            dir_w = !dir_w;
            run = 0;
            c = c - longint'(TURNAROUND) * longint'(BYTES_PER_KCYCLE);
            continue;
          end
          c = c - BEAT;
          run++;
          if (dir_w) wbuf--;
          else begin
            to_fetch--;
            fetched++;
          end
        end
        credit_reg <= c;
        wbuf_reg <= wbuf;
        to_fetch_reg <= to_fetch;
        fetched_reg <= fetched;
        dir_w_reg <= dir_w;
        run_reg <= run;
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
          burst_done = 1'b1;
          w_beat <= '0;
        end else w_beat <= w_beat + 1'b1;
      end
      aw_open_reg <= aw_open_reg + int'(s_axi_awvalid) - int'(burst_done);
      if (s_axi_bvalid && s_axi_bready) void'(b_q.pop_front());
      if (s_axi_rvalid && s_axi_rready) begin
        if (s_axi_rlast) begin
          void'(ar_q.pop_front());
          r_beat = '0;
        end else r_beat = r_beat + 1'b1;
      end
      s_axi_bvalid <= b_q.size() != 0 && b_q[0].due <= cycle + 1;
      s_axi_bid <= b_q.size() != 0 ? b_q[0].id : '0;
      s_axi_rvalid <= ar_q.size() != 0 && ar_q[0].due <= cycle + 1 && (!SHARED || fetched != 0);
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
