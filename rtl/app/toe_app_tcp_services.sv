// SPDX-License-Identifier: Apache-2.0
// toe_app_tcp_services: example TCP application on the engine's API: echo (RFC 862) on
// ECHO_PORT and discard (RFC 863; also an iperf 2 server) on DISCARD_PORT. After reset it
// listens on both ports, then serves notifications one at a time:
//   data on an echo connection:    tx_req(n) -> accepted -> rd_req(n); its rx_data goes
//                                  straight to tx_data (no space: ask again after RETRY_CYCLES);
//   data on a discard connection:  rd_req(n); its rx_data is consumed and counted;
//   peer FIN:                      close (orderly) once everything is echoed.
// Reads are pipelined: the next notification is served while earlier reads are still in
// flight; a small FIFO remembers, per read, whether its data is echoed or discarded.
// `listening` rises when both ports are open (the second port's answer); discard_bytes counts discarded bytes.
module toe_app_tcp_services
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W       = 64,
  parameter logic [15:0] ECHO_PORT    = 16'd7,
  parameter logic [15:0] DISCARD_PORT = 16'd5001,
  parameter int unsigned RETRY_CYCLES = 64
) (
  input  logic                clk,
  input  logic                rst,
  output logic                listen_req_valid,
  input  logic                listen_req_ready,
  output tcp_listen_req_t     listen_req,
  input  logic                listen_rsp_valid,
  output logic                listen_rsp_ready,
  input  tcp_listen_rsp_t     listen_rsp,
  input  logic                notif_valid,
  output logic                notif_ready,
  input  tcp_notif_t          notif,
  output logic                close_req_valid,
  input  logic                close_req_ready,
  output tcp_close_req_t      close_req,
  output logic                rd_req_valid,
  input  logic                rd_req_ready,
  output tcp_rd_req_t         rd_req,
  input  logic                rx_meta_valid,
  output logic                rx_meta_ready,
  input  tcp_rx_meta_t        rx_meta,
  input  logic [DATA_W-1:0]   s_rx_axis_tdata,
  input  logic [DATA_W/8-1:0] s_rx_axis_tkeep,
  input  logic                s_rx_axis_tvalid,
  output logic                s_rx_axis_tready,
  input  logic                s_rx_axis_tlast,
  output logic                tx_req_valid,
  input  logic                tx_req_ready,
  output tcp_tx_req_t         tx_req,
  input  logic                tx_rsp_valid,
  output logic                tx_rsp_ready,
  input  tcp_tx_rsp_t         tx_rsp,
  output logic [DATA_W-1:0]   m_tx_axis_tdata,
  output logic [DATA_W/8-1:0] m_tx_axis_tkeep,
  output logic                m_tx_axis_tvalid,
  input  logic                m_tx_axis_tready,
  output logic                m_tx_axis_tlast,
  output logic                listening,
  output logic [63:0]         discard_bytes
);
  typedef enum logic [3:0] {
    ST_LISTEN_ECHO, ST_LISTEN_DISCARD, ST_LISTEN_WAIT, ST_READY, ST_TX_REQ, ST_TX_RSP, ST_RETRY,
    ST_RD_REQ, ST_CLOSE
  } state_e;
  state_e state_reg, after_listen_reg;
  tcp_notif_t cur_reg;
  logic echo_reg;
  logic [$clog2(RETRY_CYCLES+1)-1:0] wait_reg;

  assign listen_req_valid = state_reg == ST_LISTEN_ECHO || state_reg == ST_LISTEN_DISCARD;
  assign listen_req = '{port: state_reg == ST_LISTEN_ECHO ? ECHO_PORT : DISCARD_PORT, open: 1'b1};
  assign listen_rsp_ready = state_reg == ST_LISTEN_WAIT;
  assign notif_ready = state_reg == ST_READY;
  assign tx_req_valid = state_reg == ST_TX_REQ;
  assign tx_req = '{session: cur_reg.session, length: cur_reg.length};
  assign tx_rsp_ready = state_reg == ST_TX_RSP;
  logic pend_ready, pend_valid, pend_echo, data_on_reg;
  assign rd_req_valid = state_reg == ST_RD_REQ && pend_ready;
  assign rd_req = '{session: cur_reg.session, length: cur_reg.length};
  // ---- read data: meta, then the frame (echoed or discarded), in the order of the reads ----
  toe_fifo #(.WIDTH(1), .DEPTH(8)) u_pending (
    .clk, .rst, .s_data(echo_reg), .s_valid(rd_req_valid && rd_req_ready), .s_ready(pend_ready),
    .commit(1'b0), .rewind(1'b0), .m_data(pend_echo), .m_valid(pend_valid),
    .m_ready(rx_meta_valid && rx_meta_ready), .uncommitted()
  );
  logic data_echo_reg;
  assign rx_meta_ready = pend_valid && !data_on_reg;
  assign close_req_valid = state_reg == ST_CLOSE;
  assign close_req = '{session: cur_reg.session, send_rst: 1'b0};

  // Data: echo passes rx_data to tx_data; discard consumes it.
  wire in_data = data_on_reg;
  assign m_tx_axis_tdata = s_rx_axis_tdata;
  assign m_tx_axis_tkeep = s_rx_axis_tkeep;
  assign m_tx_axis_tlast = s_rx_axis_tlast;
  assign m_tx_axis_tvalid = in_data && data_echo_reg && s_rx_axis_tvalid;
  assign s_rx_axis_tready = in_data && (!data_echo_reg || m_tx_axis_tready);

  logic [$clog2(DATA_W/8+1)-1:0] beat_bytes;
  always_comb begin
    beat_bytes = '0;
    for (int i = 0; i < DATA_W / 8; i++) beat_bytes += $bits(beat_bytes)'(s_rx_axis_tkeep[i]);
  end

  always_ff @(posedge clk) begin
    unique case (state_reg)
      ST_LISTEN_ECHO: if (listen_req_ready) begin
        state_reg <= ST_LISTEN_WAIT;
        after_listen_reg <= ST_LISTEN_DISCARD;
      end
      ST_LISTEN_DISCARD: if (listen_req_ready) begin
        state_reg <= ST_LISTEN_WAIT;
        after_listen_reg <= ST_READY;
      end
      ST_LISTEN_WAIT: if (listen_rsp_valid) begin
        state_reg <= after_listen_reg;
        if (after_listen_reg == ST_READY) listening <= listen_rsp.ok;   // stays low if refused
      end
      ST_READY: if (notif_valid) begin
        cur_reg <= notif;
        echo_reg <= notif.local_port == ECHO_PORT;
        if (notif.kind == NOTIF_DATA && notif.length != '0)
          state_reg <= notif.local_port == ECHO_PORT ? ST_TX_REQ : ST_RD_REQ;
        else if (notif.kind == NOTIF_PEER_FIN) state_reg <= ST_CLOSE;
      end
      ST_TX_REQ: if (tx_req_ready) state_reg <= ST_TX_RSP;
      ST_TX_RSP: if (tx_rsp_valid) begin
        unique case (tx_rsp.status)
          TX_ACCEPTED: state_reg <= ST_RD_REQ;
          TX_NO_SPACE: begin
            wait_reg <= '0;
            state_reg <= ST_RETRY;
          end
          default: state_reg <= ST_READY;   // not connected: the data is left unread
        endcase
      end
      ST_RETRY: begin
        wait_reg <= wait_reg + 1'b1;
        if (wait_reg == $bits(wait_reg)'(RETRY_CYCLES)) state_reg <= ST_TX_REQ;
      end
      ST_RD_REQ: if (rd_req_valid && rd_req_ready) state_reg <= ST_READY;
      ST_CLOSE: if (close_req_ready) state_reg <= ST_READY;
      default: state_reg <= ST_READY;
    endcase
    if (rx_meta_valid && rx_meta_ready) begin
      data_on_reg <= rx_meta.length != '0;
      data_echo_reg <= pend_echo;
    end
    if (s_rx_axis_tvalid && s_rx_axis_tready) begin
      if (!data_echo_reg) discard_bytes <= discard_bytes + 64'(beat_bytes);
      if (s_rx_axis_tlast) data_on_reg <= 1'b0;
    end
    if (rst) begin
      data_on_reg <= 1'b0;
      state_reg <= ST_LISTEN_ECHO;
      listening <= 1'b0;
      discard_bytes <= '0;
    end
  end
endmodule
