// SPDX-License-Identifier: Apache-2.0
// toe_listen_table: the set of local ports an application listens on (UDP RX and the TCP
// session table each own one). listen_req {port, open} adds (open = 1) or removes a port
// and is answered on listen_rsp {port, ok}: ok = 0 when the table is full (open) or the
// port was not listened (close); opening a listened port again is ok. query_hit says,
// combinationally, whether query_port is listened.
// Timing: a request is taken when no answer is pending; the answer follows one cycle later.
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

  assign listen_req_ready = !listen_rsp_valid || listen_rsp_ready;
  always_comb begin
    query_hit = 1'b0;
    for (int i = 0; i < ENTRIES; i++) if (valid_reg[i] && port_reg[i] == query_port) query_hit = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (listen_rsp_valid && listen_rsp_ready) listen_rsp_valid <= 1'b0;
    if (listen_req_valid && listen_req_ready) begin
      automatic int free = -1;
      automatic int hit = -1;
      for (int i = ENTRIES - 1; i >= 0; i--) begin
        if (!valid_reg[i]) free = i;
        if (valid_reg[i] && port_reg[i] == listen_req.port) hit = i;
      end
      listen_rsp_valid <= 1'b1;
      listen_rsp.port <= listen_req.port;
      if (listen_req.open) begin
        listen_rsp.ok <= hit >= 0 || free >= 0;
        if (hit < 0 && free >= 0) begin
          valid_reg[free] <= 1'b1;
          port_reg[free] <= listen_req.port;
        end
      end else begin
        listen_rsp.ok <= hit >= 0;
        if (hit >= 0) valid_reg[hit] <= 1'b0;
      end
    end
    if (rst) begin
      valid_reg <= '0;
      listen_rsp_valid <= 1'b0;
    end
  end
endmodule
