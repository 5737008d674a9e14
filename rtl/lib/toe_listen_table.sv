// SPDX-License-Identifier: Apache-2.0
// toe_listen_table: the set of local ports an application listens on (UDP RX and the TCP
// session table each own one). listen_req {port, open} adds (open = 1) or removes a port
// and is answered on listen_rsp {port, ok}: ok = 0 when the table is full (open) or the
// port was not listened (close); opening a listened port again is ok. query_hit says,
// combinationally, whether query_port is listened.
// Timing: one request at a time, in two stages: the cycle after it is taken, the request
// is compared with every entry (one hit bit per entry, and the first free entry, all
// registered); in the next, the table is written and the answer given. A request is taken
// when no request is in flight and no answer waits, so an answer comes two cycles after
// its request and query_hit follows the table from the cycle the answer appears.
// Listen requests are control-plane traffic: one per three cycles is ample.
module toe_listen_table
  import toe_pkg::*;
#(
  parameter int unsigned ENTRIES = 8
) (
  input  logic         clk,
  input  logic         rst,
  input  logic         listen_req_valid,
  output logic         listen_req_ready,
  input  listen_req_t  listen_req,
  output logic         listen_rsp_valid,
  input  logic         listen_rsp_ready,
  output listen_rsp_t  listen_rsp,
  input  logic [15:0]  query_port,
  output logic         query_hit
);
  logic [ENTRIES-1:0] valid_reg;
  logic [15:0] port_reg [ENTRIES];

  always_comb begin
    query_hit = 1'b0;
    for (int i = 0; i < ENTRIES; i++) if (valid_reg[i] && port_reg[i] == query_port) query_hit = 1'b1;
  end

  // ---- stage 1: the request compared with every entry ----
  logic cmp_valid_reg;
  listen_req_t cmp_req_reg;
  logic [ENTRIES-1:0] hit_reg;     // entries holding the request's port
  logic [ENTRIES-1:0] free_reg;    // the first free entry (one-hot), or none
  assign listen_req_ready = !cmp_valid_reg && !listen_rsp_valid;
  wire take = listen_req_valid && listen_req_ready;
  wire [ENTRIES-1:0] free_now = ~valid_reg;
  always_ff @(posedge clk) begin
    cmp_valid_reg <= take;
    if (take) begin
      cmp_req_reg <= listen_req;
      for (int i = 0; i < ENTRIES; i++) hit_reg[i] <= valid_reg[i] && port_reg[i] == listen_req.port;
      free_reg <= free_now & (~free_now + 1'b1);   // lowest set bit
    end
    if (rst) cmp_valid_reg <= 1'b0;
  end

  // ---- stage 2: the table written and the answer given ----
  wire any_hit = |hit_reg;
  wire any_free = |free_reg;
  always_ff @(posedge clk) begin
    if (listen_rsp_valid && listen_rsp_ready) listen_rsp_valid <= 1'b0;
    if (cmp_valid_reg) begin
      listen_rsp_valid <= 1'b1;
      listen_rsp.port <= cmp_req_reg.port;
      listen_rsp.ok <= any_hit || (cmp_req_reg.open && any_free);
      for (int i = 0; i < ENTRIES; i++) begin
        if (cmp_req_reg.open && !any_hit && free_reg[i]) begin
          valid_reg[i] <= 1'b1;
          port_reg[i] <= cmp_req_reg.port;
        end
        if (!cmp_req_reg.open && hit_reg[i]) valid_reg[i] <= 1'b0;
      end
    end
    if (rst) begin
      valid_reg <= '0;
      listen_rsp_valid <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // a port is held by one entry at most (an open of a listened port only answers ok)
  always @(posedge clk) if (!rst && cmp_valid_reg)
    assert ($countones(hit_reg) <= 1) else $error("toe_listen_table: port %0d held twice", cmp_req_reg.port);
`endif
endmodule
