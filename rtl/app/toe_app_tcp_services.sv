// SPDX-License-Identifier: Apache-2.0
// toe_app_tcp_services: the example TCP applications of toe-sim, on one engine API port:
//   echo (RFC 862) on ECHO_PORT: data -> tx_req(n) -> accepted -> rd_req(n); the read's
//     data goes straight to tx_data (no space: ask again after RETRY_CYCLES);
//   discard (RFC 863; also an iperf 2 server) on DISCARD_PORT: data is read and counted;
//   source (RFC 864 style) on SOURCE_PORT: streams the toe_app_pattern pattern to whoever
//     connects until the peer closes (then FIN) or resets;
//   client: on client_start, opens a connection to client_ip:client_port, sends
//     client_bytes of the pattern, then closes (FIN first, so the engine goes through
//     FIN-WAIT and TIME-WAIT); data it receives is discarded and counted.
// Sources and the client stream through up to SENDERS sender slots (a connection that
// finds none free is aborted); they send in requests of CHUNK bytes (a multiple of 251,
// so the pattern runs on across requests). A slot whose request finds no TX space waits
// for the engine's NOTIF_TX_SPACE of its session (the other slots go on); an echo whose
// session has no TX space is parked in a free sender slot (its later data queues behind
// it there) and waits likewise, so one peer that stops reading does not stop the echo of
// the others; only when every slot is taken does the echo retry in place (RETRY_CYCLES). Data an echo can no longer send (its
// connection ended) is read and dropped, so that the session can be freed. Every peer FIN is answered by a close once the
// app has nothing left to send. Notifications and sender requests are served one at a
// time, alternately (a sender request only while fewer than TX_AHEAD accepted ones wait
// for their data, so that a full TX job queue in the engine never holds the reads); reads
// are pipelined (a small FIFO remembers, per read, whether its data is echoed), and
// tx_data frames go out in the order of the accepted requests.
// client_state: 0 idle, 1 connecting, 2 sending, 3 closing, 4 closed (in order),
// 5 reset, 6 failed (refused, unreachable, or no free session); client_sent counts the
// bytes the engine accepted. `listening` rises when all three ports are open;
// discard_bytes counts the bytes read and dropped (discard, source and client sessions).
module toe_app_tcp_services
  import toe_tcp_pkg::*;
#(
  parameter int unsigned DATA_W       = 64,
  parameter logic [15:0] ECHO_PORT    = 16'd7,
  parameter logic [15:0] DISCARD_PORT = 16'd5001,
  parameter logic [15:0] SOURCE_PORT  = 16'd19,
  parameter int unsigned RETRY_CYCLES = 64,
  parameter int unsigned SENDERS      = 4,
  parameter int unsigned CHUNK        = 2008,   // bytes per sender request: a multiple of 251
  parameter int unsigned TX_AHEAD     = 4       // sender requests accepted ahead of their data
) (
  input  logic                clk,
  input  logic                rst,
  output logic                listen_req_valid,
  input  logic                listen_req_ready,
  output tcp_listen_req_t     listen_req,
  input  logic                listen_rsp_valid,
  output logic                listen_rsp_ready,
  input  tcp_listen_rsp_t     listen_rsp,
  output logic                open_req_valid,
  input  logic                open_req_ready,
  output tcp_open_req_t       open_req,
  input  logic                open_rsp_valid,
  output logic                open_rsp_ready,
  input  tcp_open_rsp_t       open_rsp,
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
  input  logic                client_start,   // pulse: open and send (ignored while busy)
  input  logic [31:0]         client_ip,
  input  logic [15:0]         client_port,
  input  logic [31:0]         client_bytes,
  output logic [2:0]          client_state,
  output logic [31:0]         client_sent,
  output logic                listening,
  output logic [63:0]         discard_bytes
);
  initial if (CHUNK % 251 != 0 || CHUNK == 0 || CHUNK > 65535)
    $fatal(0, "toe_app_tcp_services: CHUNK must be a multiple of 251 below 65536 (instance %m)");
  initial if (TX_AHEAD == 0 || TX_AHEAD > 16)   // the tx_data order FIFO (u_tx_order) holds 16
    $fatal(0, "toe_app_tcp_services: TX_AHEAD must be 1..16 (instance %m)");
  localparam logic [2:0] CL_IDLE = 3'd0, CL_CONNECTING = 3'd1, CL_SENDING = 3'd2,
                         CL_CLOSING = 3'd3, CL_CLOSED = 3'd4, CL_RESET = 3'd5, CL_FAILED = 3'd6;
  localparam int unsigned SLOT_W = SENDERS > 1 ? $clog2(SENDERS) : 1;

  typedef enum logic [3:0] {
    ST_LISTEN, ST_LISTEN_WAIT, ST_READY, ST_OPEN, ST_OPEN_RSP, ST_TX_REQ, ST_TX_RSP, ST_RETRY,
    ST_RD_REQ, ST_CLOSE
  } state_e;
  state_e state_reg;
  logic [1:0] port_idx_reg;        // which port ST_LISTEN asks for
  logic listen_ok_reg;             // the ports asked for so far are open
  tcp_notif_t cur_reg;             // the notification being served
  logic echo_reg;                  // ... is on the echo port
  logic abort_reg;                 // ST_CLOSE sends RST instead of FIN
  logic sender_reg;                // the tx request is a sender slot's (else a direct echo's)
  logic pattern_reg;               // ... and its data is the pattern (else echoed reads)
  logic [SLOT_W-1:0] slot_reg;     // ... that slot
  tcp_tx_req_t txq_reg;
  logic [$clog2(RETRY_CYCLES+1)-1:0] wait_reg;
  logic prefer_send_reg, start_pending_reg;
  logic [2:0] client_state_reg;
  sid_t client_session_reg;
  logic [31:0] client_sent_reg;

  // ---- sender slots ----
  logic [SENDERS-1:0] slot_on_reg, slot_endless_reg, slot_client_reg;
  logic [SENDERS-1:0] slot_echo_reg, slot_fin_reg;   // a parked echo; its peer's FIN came
  logic [SENDERS-1:0] slot_discard_reg;              // ... whose connection went: read and drop
  logic [SENDERS-1:0] slot_wait_reg;                 // refused for TX space: waits for NOTIF_TX_SPACE
  sid_t slot_session_reg [SENDERS];
  logic [31:0] slot_left_reg [SENDERS];
  logic [SLOT_W-1:0] rr_reg;
  logic free_found, hit_found, send_found;
  logic [SLOT_W-1:0] free_slot, hit_slot, send_slot;
  always_comb begin
    free_found = 1'b0;
    hit_found = 1'b0;
    send_found = 1'b0;
    free_slot = '0;
    hit_slot = '0;
    send_slot = '0;
    for (int i = SENDERS - 1; i >= 0; i--) begin
      if (!slot_on_reg[i]) begin
        free_found = 1'b1;
        free_slot = SLOT_W'(i);
      end
      if (slot_on_reg[i] && slot_session_reg[i] == notif.session) begin
        hit_found = 1'b1;
        hit_slot = SLOT_W'(i);
      end
    end
    for (int k = SENDERS; k >= 1; k--) begin   // round robin, starting after rr_reg
      automatic int i = (int'(rr_reg) + k) % SENDERS;
      if (slot_on_reg[i] && !slot_wait_reg[i]) begin
        send_found = 1'b1;
        send_slot = SLOT_W'(i);
      end
    end
  end
  wire is_client_new = client_state_reg == CL_CONNECTING && notif.session == client_session_reg;
  wire is_client_session = (client_state_reg == CL_CONNECTING || client_state_reg == CL_SENDING ||
                            client_state_reg == CL_CLOSING) && notif.session == client_session_reg;
  logic pend_ready;   // room in u_pending (below) for one more read
  // A sender slot's request is made only while fewer than TX_AHEAD accepted requests wait
  // for their data: more only fill the engine's TX job queue, and a request that found it
  // full held this one state machine, and with it the notifications and the reads they
  // ask for (both ways, 1024 sessions, 64 bits: the reads lagged the wire, 0.946 of it)
  // (the count of u_tx_order's entries, which toe_fifo does not give; that FIFO stays 16
  // deep for the echoes' requests, which are not limited)
  logic [4:0] tx_ahead_reg;        // accepted requests whose tx_data frame has not ended
  wire send_ready = send_found && tx_ahead_reg < 5'(TX_AHEAD);
  // A notification is taken only with room for the read it may ask for (u_pending): waiting
  // in ST_RD_REQ for that room held back the sender slots' requests, and the source sending
  // while it read at 10G left its TX rings short (both ways, 64 sessions, 64 bits: 7 % of
  // the TX data path idle, a 548-byte tail segment per 2008-byte chunk, 0.983 of the wire)
  wire take_notif = state_reg == ST_READY && !start_pending_reg && notif_valid && pend_ready &&
                    (!send_ready || !prefer_send_reg);
  wire take_send = state_reg == ST_READY && !start_pending_reg && send_ready && !take_notif;
  wire [31:0] send_left = slot_left_reg[send_slot];

  // ---- order of the tx_data frames: echoed reads and pattern requests ----
  logic ord_ready, ord_valid, ord_pattern;
  logic [15:0] ord_length;
  toe_fifo #(.WIDTH(17), .DEPTH(16)) u_tx_order (
    .clk, .rst, .s_data({pattern_reg, txq_reg.length}),
    .s_valid(state_reg == ST_TX_RSP && tx_rsp_valid && tx_rsp.status == TX_ACCEPTED),
    .s_ready(ord_ready), .commit(1'b0), .rewind(1'b0), .m_data({ord_pattern, ord_length}),
    .m_valid(ord_valid), .m_ready(m_tx_axis_tvalid && m_tx_axis_tready && m_tx_axis_tlast),
    .uncommitted()
  );

  // ---- reads: meta, then the frame (echoed or discarded), in the order of the reads ----
  logic pend_valid, pend_echo, data_on_reg, data_echo_reg;
  toe_fifo #(.WIDTH(1), .DEPTH(8)) u_pending (
    .clk, .rst, .s_data(echo_reg), .s_valid(rd_req_valid && rd_req_ready), .s_ready(pend_ready),
    .commit(1'b0), .rewind(1'b0), .m_data(pend_echo), .m_valid(pend_valid),
    .m_ready(rx_meta_valid && rx_meta_ready), .uncommitted()
  );
  assign rx_meta_ready = pend_valid && !data_on_reg;

  // ---- tx data: the head of the order queue says whose frame goes next ----
  logic [DATA_W-1:0] pat_tdata;
  logic [DATA_W/8-1:0] pat_tkeep;
  logic pat_tvalid, pat_tlast;
  toe_app_pattern #(.DATA_W(DATA_W)) u_pattern (
    .clk, .rst, .s_valid(ord_valid && ord_pattern), .s_ready(), .s_length(ord_length),
    .m_axis_tdata(pat_tdata), .m_axis_tkeep(pat_tkeep), .m_axis_tvalid(pat_tvalid),
    .m_axis_tready(m_tx_axis_tready), .m_axis_tlast(pat_tlast)
  );
  wire echo_turn = ord_valid && !ord_pattern;
  wire echo_beat = data_on_reg && data_echo_reg && s_rx_axis_tvalid;
  assign m_tx_axis_tdata = ord_pattern ? pat_tdata : s_rx_axis_tdata;
  assign m_tx_axis_tkeep = ord_pattern ? pat_tkeep : s_rx_axis_tkeep;
  assign m_tx_axis_tlast = ord_pattern ? pat_tlast : s_rx_axis_tlast;
  assign m_tx_axis_tvalid = pat_tvalid || (echo_turn && echo_beat);
  assign s_rx_axis_tready = data_on_reg && (!data_echo_reg || (echo_turn && m_tx_axis_tready));

  // ---- requests ----
  wire [15:0] port_of_idx = port_idx_reg == 2'd0 ? ECHO_PORT :
                            port_idx_reg == 2'd1 ? DISCARD_PORT : SOURCE_PORT;
  assign listen_req_valid = state_reg == ST_LISTEN;
  assign listen_req = '{port: port_of_idx, open: 1'b1};
  assign listen_rsp_ready = state_reg == ST_LISTEN_WAIT;
  assign open_req_valid = state_reg == ST_OPEN;
  assign open_req = '{remote_ip: client_ip, remote_port: client_port};
  assign open_rsp_ready = state_reg == ST_OPEN_RSP;
  assign notif_ready = take_notif;
  assign tx_req_valid = state_reg == ST_TX_REQ && ord_ready;
  assign tx_req = txq_reg;
  assign tx_rsp_ready = state_reg == ST_TX_RSP;
  assign rd_req_valid = state_reg == ST_RD_REQ && pend_ready;
  assign rd_req = '{session: cur_reg.session, length: cur_reg.length};
  assign close_req_valid = state_reg == ST_CLOSE;
  assign close_req = '{session: cur_reg.session, send_rst: abort_reg};
  assign client_state = client_state_reg;
  assign client_sent = client_sent_reg;

  logic [$clog2(DATA_W/8+1)-1:0] beat_bytes;
  always_comb begin
    beat_bytes = '0;
    for (int i = 0; i < DATA_W / 8; i++) beat_bytes += $bits(beat_bytes)'(s_rx_axis_tkeep[i]);
  end

  always_ff @(posedge clk) begin
    tx_ahead_reg <= tx_ahead_reg + 5'(state_reg == ST_TX_RSP && tx_rsp_valid && tx_rsp.status == TX_ACCEPTED)
                    - 5'(m_tx_axis_tvalid && m_tx_axis_tready && m_tx_axis_tlast);
    if (client_start && !start_pending_reg && (client_state_reg == CL_IDLE ||
        client_state_reg == CL_CLOSED || client_state_reg == CL_RESET || client_state_reg == CL_FAILED))
      start_pending_reg <= 1'b1;
    unique case (state_reg)
      ST_LISTEN: if (listen_req_ready) state_reg <= ST_LISTEN_WAIT;
      ST_LISTEN_WAIT: if (listen_rsp_valid) begin
        // `listening` rises with the third port's answer, when all three are open
        listen_ok_reg <= (port_idx_reg == 2'd0 || listen_ok_reg) && listen_rsp.ok;
        listening <= port_idx_reg == 2'd2 && listen_ok_reg && listen_rsp.ok;
        port_idx_reg <= port_idx_reg + 1'b1;
        state_reg <= port_idx_reg == 2'd2 ? ST_READY : ST_LISTEN;
      end
      ST_READY: begin
        abort_reg <= 1'b0;
        if (start_pending_reg) begin
          start_pending_reg <= 1'b0;
          client_sent_reg <= '0;
          state_reg <= ST_OPEN;
        end else if (take_notif) begin
          prefer_send_reg <= 1'b1;
          cur_reg <= notif;
          echo_reg <= notif.local_port == ECHO_PORT;
          sender_reg <= 1'b0;
          pattern_reg <= 1'b0;
          txq_reg <= '{session: notif.session, length: notif.length};
          unique case (notif.kind)
            NOTIF_NEW: if (notif.local_port == SOURCE_PORT || is_client_new) begin
              if (free_found) begin
                slot_on_reg[free_slot] <= 1'b1;
                slot_session_reg[free_slot] <= notif.session;
                slot_left_reg[free_slot] <= is_client_new ? client_bytes : '0;
                slot_endless_reg[free_slot] <= !is_client_new;
                slot_client_reg[free_slot] <= is_client_new;
                slot_echo_reg[free_slot] <= 1'b0;
                slot_discard_reg[free_slot] <= 1'b0;
                slot_wait_reg[free_slot] <= 1'b0;
                if (is_client_new) client_state_reg <= CL_SENDING;
              end else begin
                abort_reg <= 1'b1;
                state_reg <= ST_CLOSE;
              end
            end
            NOTIF_DATA: if (notif.length != '0) begin
              if (hit_found && slot_echo_reg[hit_slot])   // parked: queue behind
                slot_left_reg[hit_slot] <= slot_left_reg[hit_slot] + 32'(notif.length);
              else state_reg <= notif.local_port == ECHO_PORT ? ST_TX_REQ : ST_RD_REQ;
            end
            NOTIF_TX_SPACE: if (hit_found) slot_wait_reg[hit_slot] <= 1'b0;
            NOTIF_PEER_FIN: if (hit_found && slot_echo_reg[hit_slot]) begin
              slot_fin_reg[hit_slot] <= 1'b1;             // close when the echo is done
            end else if (!(hit_found && !slot_endless_reg[hit_slot]) &&
                                !(is_client_session && client_state_reg == CL_CLOSING)) begin
              // nothing (more) to send: close; a client closes (once) when it has sent all
              if (hit_found) slot_on_reg[hit_slot] <= 1'b0;
              state_reg <= ST_CLOSE;
            end
            default: begin   // closed, reset or failed: the session is gone
              // a parked echo's data ahead of an orderly end is still read (and dropped)
              if (hit_found) slot_wait_reg[hit_slot] <= 1'b0;
              if (hit_found && slot_echo_reg[hit_slot] && notif.kind == NOTIF_CLOSED)
                slot_discard_reg[hit_slot] <= 1'b1;
              else if (hit_found) slot_on_reg[hit_slot] <= 1'b0;
              if (is_client_session)
                client_state_reg <= notif.kind == NOTIF_CLOSED ? CL_CLOSED :
                                    notif.kind == NOTIF_RESET ? CL_RESET : CL_FAILED;
            end
          endcase
        end else if (take_send) begin
          prefer_send_reg <= 1'b0;
          rr_reg <= send_slot;
          slot_reg <= send_slot;
          sender_reg <= 1'b1;
          pattern_reg <= !slot_echo_reg[send_slot];
          echo_reg <= slot_echo_reg[send_slot];
          cur_reg.session <= slot_session_reg[send_slot];
          cur_reg.length <= slot_endless_reg[send_slot] || send_left >= CHUNK ? 16'(CHUNK) : 16'(send_left);
          if (!slot_endless_reg[send_slot] && send_left == '0) begin
            // the client has sent everything, or a parked echo is done after the peer's
            // FIN: close (FIN); a discarding echo has nothing to close
            slot_on_reg[send_slot] <= 1'b0;
            if (slot_client_reg[send_slot]) client_state_reg <= CL_CLOSING;
            if (!slot_discard_reg[send_slot]) state_reg <= ST_CLOSE;
          end else if (slot_discard_reg[send_slot]) begin
            // the echo's connection went: read what is left and drop it (an ended session
            // is freed only when its data has been read)
            echo_reg <= 1'b0;
            slot_left_reg[send_slot] <= send_left - 32'(send_left >= CHUNK ? 16'(CHUNK) : 16'(send_left));
            if (send_left <= CHUNK) slot_on_reg[send_slot] <= 1'b0;
            state_reg <= ST_RD_REQ;
          end else begin
            txq_reg <= '{session: slot_session_reg[send_slot],
                         length: slot_endless_reg[send_slot] || send_left >= CHUNK ? 16'(CHUNK) : 16'(send_left)};
            state_reg <= ST_TX_REQ;
          end
        end
      end
      ST_OPEN: if (open_req_ready) state_reg <= ST_OPEN_RSP;
      ST_OPEN_RSP: if (open_rsp_valid) begin
        client_session_reg <= open_rsp.session;
        client_state_reg <= open_rsp.ok ? CL_CONNECTING : CL_FAILED;
        state_reg <= ST_READY;
      end
      ST_TX_REQ: if (tx_req_valid && tx_req_ready) state_reg <= ST_TX_RSP;
      ST_TX_RSP: if (tx_rsp_valid) begin
        if (sender_reg) begin
          state_reg <= ST_READY;
          unique case (tx_rsp.status)
            TX_ACCEPTED: begin
              if (!slot_endless_reg[slot_reg]) slot_left_reg[slot_reg] <= slot_left_reg[slot_reg] - 32'(txq_reg.length);
              if (slot_client_reg[slot_reg]) client_sent_reg <= client_sent_reg + 32'(txq_reg.length);
              if (slot_echo_reg[slot_reg]) begin
                state_reg <= ST_RD_REQ;        // read what is echoed
                // all echoed and no FIN yet: unpark (a FIN keeps it, to close in turn)
                if (slot_left_reg[slot_reg] == 32'(txq_reg.length) && !slot_fin_reg[slot_reg])
                  slot_on_reg[slot_reg] <= 1'b0;
              end
            end
            TX_NO_SPACE: slot_wait_reg[slot_reg] <= 1'b1;
            default:   // the connection is closing or gone: a parked echo drops its data
              if (slot_echo_reg[slot_reg]) slot_discard_reg[slot_reg] <= 1'b1;
              else slot_on_reg[slot_reg] <= 1'b0;
          endcase
        end else begin
          unique case (tx_rsp.status)
            TX_ACCEPTED: state_reg <= ST_RD_REQ;
            TX_NO_SPACE: if (free_found) begin   // park it in a sender slot
              slot_on_reg[free_slot] <= 1'b1;
              slot_session_reg[free_slot] <= txq_reg.session;
              slot_left_reg[free_slot] <= 32'(txq_reg.length);
              slot_endless_reg[free_slot] <= 1'b0;
              slot_client_reg[free_slot] <= 1'b0;
              slot_echo_reg[free_slot] <= 1'b1;
              slot_fin_reg[free_slot] <= 1'b0;
              slot_discard_reg[free_slot] <= 1'b0;
              slot_wait_reg[free_slot] <= 1'b1;
              state_reg <= ST_READY;
            end else begin
              wait_reg <= '0;
              state_reg <= ST_RETRY;
            end
            default: begin   // not connected: read the data and drop it
              echo_reg <= 1'b0;
              state_reg <= ST_RD_REQ;
            end
          endcase
        end
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
      state_reg <= ST_LISTEN;
      port_idx_reg <= '0;
      listening <= 1'b0;
      discard_bytes <= '0;
      slot_on_reg <= '0;
      rr_reg <= '0;
      slot_wait_reg <= '0;
      prefer_send_reg <= 1'b0;
      start_pending_reg <= 1'b0;
      client_state_reg <= CL_IDLE;
      client_sent_reg <= '0;
      tx_ahead_reg <= '0;
    end
  end
endmodule
