// SPDX-License-Identifier: Apache-2.0
// toe_tcp_pkg: the TCP header, the parsed-segment record, the transmit command, and the
// structs of every TCP application-API channel (docs/tcp_api.md describes the protocol
// on them). Session ids are 20 bits everywhere (up to 2^20 sessions); an instance with
// MAX_SESSIONS = 2^k uses the low k bits and keeps the rest zero.
package toe_tcp_pkg;
  import toe_pkg::*;

  localparam int unsigned TCP_HDR_BYTES     = 20;
  localparam int unsigned TCP_MAX_OPT_BYTES = 40;
  localparam int unsigned SID_W = 20;
  typedef logic [SID_W-1:0] sid_t;

  // Flag bits of tcp_hdr_t.flags.
  localparam int unsigned F_FIN = 0;
  localparam int unsigned F_SYN = 1;
  localparam int unsigned F_RST = 2;
  localparam int unsigned F_PSH = 3;
  localparam int unsigned F_ACK = 4;
  localparam int unsigned F_URG = 5;

  typedef struct packed {
    logic [15:0] src_port;
    logic [15:0] dst_port;
    logic [31:0] seq;
    logic [31:0] ack;
    logic [3:0]  doff;       // header length in 32-bit words
    logic [3:0]  reserved;
    logic [7:0]  flags;      // {CWR, ECE, URG, ACK, PSH, RST, SYN, FIN}
    logic [15:0] window;
    logic [15:0] checksum;
    logic [15:0] urgent;
  } tcp_hdr_t;

  function automatic tcp_hdr_t tcp_unpack(input logic [159:0] b); return tcp_hdr_t'(swap20(b)); endfunction
  function automatic logic [159:0] tcp_pack(input tcp_hdr_t h);  return swap20(h); endfunction

  // A received segment after parsing, one per segment (the payload follows as a frame).
  typedef struct packed {
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;
    logic [31:0] seq;
    logic [31:0] ack;
    logic [7:0]  flags;
    logic [15:0] window;
    logic [15:0] mss;        // MSS option value, 0 when absent
    logic [15:0] length;     // payload bytes
  } tcp_seg_t;
  localparam int unsigned TCP_SEG_W = $bits(tcp_seg_t);
  // Session table operations (toe_tcp_session_table, tcp_tab_req_t.op)
  localparam logic [1:0] TAB_LOOKUP = 2'd0, TAB_OPEN = 2'd1, TAB_RELEASE = 2'd2;
  // A request to the session table (the lookup's of every segment, the core's opens and
  // releases) and its answer
  typedef struct packed {
    logic [1:0]  op;           // TAB_LOOKUP, TAB_OPEN or TAB_RELEASE
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;   // LOOKUP, RELEASE (OPEN takes the next free ephemeral port)
    logic        alloc;        // LOOKUP of a SYN: a listened port gets a new session
    sid_t        session;      // RELEASE
  } tcp_tab_req_t;
  typedef struct packed {
    logic        found;        // LOOKUP: the session exists (or was just made); OPEN: ok
    logic        is_new;       // a new session was made
    sid_t        session;
    logic [15:0] local_port;   // the request's, or OPEN's ephemeral port
    logic        full;         // a wanted new session was refused
    logic        listening;    // LOOKUP: the local port is listened (LISTEN state)
  } tcp_tab_rsp_t;
  // A received segment with the session table's answer (toe_tcp_seg_lookup -> core).
  typedef struct packed {
    tcp_seg_t    seg;
    sid_t        session;
    logic        found;      // the tuple has a session (or just got one)
    logic        is_new;     // a SYN that just got a new session
    logic        listening;  // the local port is listened
    logic        capped;     // a SYN refused a session: half-open sessions at the cap
    logic        isn_asked;  // an ISN was hashed for it (toe_tcp_seg_lookup's m_isn, in order)
  } tcp_seg_lk_t;

  // A request to the ISN unit (toe_tcp_isn): the tuple but our address (cfg_ip)
  typedef struct packed {
    logic [15:0] local_port;
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
  } tcp_isn_req_t;

  // What the protocol core asks the TX engine to send. Payload bytes [seq, seq+length)
  // come from the session's TX ring; a nonzero mss adds the MSS option (SYN only).
  typedef struct packed {
    sid_t        session;
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
    logic [15:0] local_port;
    logic [31:0] seq;
    logic [31:0] ack;
    logic [7:0]  flags;
    logic [15:0] window;
    logic [15:0] length;
    logic [15:0] mss;
  } tcp_tx_cmd_t;
  localparam int unsigned TCP_TX_CMD_W = $bits(tcp_tx_cmd_t);

  // ---------------- application API ----------------
  typedef listen_req_t tcp_listen_req_t;   // toe_pkg: {port, open} -> {port, ok}
  typedef listen_rsp_t tcp_listen_rsp_t;

  typedef struct packed {
    logic [31:0] remote_ip;
    logic [15:0] remote_port;
  } tcp_open_req_t;
  typedef struct packed {
    sid_t        session;
    logic [15:0] local_port;  // the ephemeral port chosen
    logic        ok;          // 0: no free session or no free port; nothing was sent
  } tcp_open_rsp_t;

  typedef struct packed {
    sid_t session;
    logic send_rst;          // 1: abort (send RST, drop everything); 0: orderly FIN after queued data
  } tcp_close_req_t;

  typedef enum logic [2:0] {
    NOTIF_NEW      = 3'd0,   // connection established (passive or active open)
    NOTIF_DATA     = 3'd1,   // `length` more bytes are readable
    NOTIF_PEER_FIN = 3'd2,   // the peer sent FIN: no more data will arrive; we may still send
    NOTIF_CLOSED   = 3'd3,   // the connection ended in order; the session id is no longer ours
    NOTIF_RESET    = 3'd4,   // reset by the peer, aborted, or given up after retries
    NOTIF_FAILED   = 3'd5,   // an active open failed (refused or timed out)
    NOTIF_TX_SPACE = 3'd6    // after a TX_NO_SPACE: the TX ring has room for that request now
                             // (`length`: free bytes, at most 65535)
  } tcp_notif_kind_e;
  typedef struct packed {
    sid_t            session;
    tcp_notif_kind_e kind;
    logic [15:0]     length;
    logic [31:0]     remote_ip;
    logic [15:0]     remote_port;
    logic [15:0]     local_port;
  } tcp_notif_t;

  typedef struct packed {
    sid_t        session;
    logic [15:0] length;
  } tcp_rd_req_t;            // also the rx_meta that heads every rx_data frame
  typedef tcp_rd_req_t tcp_rx_meta_t;   // length 0: the request was refused (no data frame follows)

  typedef struct packed {
    sid_t        session;
    logic [15:0] length;
  } tcp_tx_req_t;
  typedef enum logic [1:0] {
    TX_ACCEPTED      = 2'd0, // send exactly `length` bytes on tx_data now
    TX_NO_SPACE      = 2'd1, // the TX ring has only `space` bytes free; ask again later
    TX_NOT_CONNECTED = 2'd2  // the session is not (or no longer) open for sending
  } tcp_tx_status_e;
  typedef struct packed {
    sid_t           session;
    tcp_tx_status_e status;
    logic [16:0]    space;   // free TX ring bytes after this request
  } tcp_tx_rsp_t;

  // What the core's post stage tells the engines that own the app-side pointers with every
  // record it writes (beside its valid and session), and what they answer for the session
  // whose record it reads (a cycle later, beside the record).
  // The read engine (toe_tcp_rx_read, owns RX_REQ and RX_READ):
  typedef struct packed {
    logic        woken;        // the event took the session's wake
    logic        init;         // a new connection: RX_REQ = RX_READ = rx_first
    logic [31:0] rx_first;
    logic        readable;     // the app may read (not ended, not aborted)
    logic        wake_on;      // wake the core on reads (a small window, or an end waiting for them)
    logic [31:0] seen;         // the RX_READ the core computed with
  } tcp_core2rxread_t;
  typedef struct packed {
    logic [31:0] rx_req;
    logic [31:0] rx_read;
    logic        readable;
  } tcp_rxread2core_t;
  // The send engine (toe_tcp_tx_req, owns TX_APP, TX_WANT and TX_DONE):
  typedef struct packed {
    logic        woken;        // the event took the session's wake
    logic        init;         // a new connection: TX_APP = TX_DONE = tx_first
    logic [31:0] tx_first;
    logic        sendable;     // the app may send
    logic        known_dead;   // the app was told of the end
    logic [31:0] snd_una;
    logic        clear_want;   // NOTIF_TX_SPACE given for TX_WANT = want_seen
    logic [16:0] want_seen;
    logic [31:0] tx_done_seen; // the TX_DONE the event read
  } tcp_core2txreq_t;
  typedef struct packed {
    logic [31:0] tx_app;
    logic [31:0] tx_done;
    logic [16:0] tx_want;
    logic        sendable;
  } tcp_txreq2core_t;

  // Connection states (RFC 9293 3.3.2; FREE: the session id is unused).
  typedef enum logic [3:0] {
    FREE, SYN_SENT, SYN_RCVD, ESTABLISHED, FIN_WAIT_1, FIN_WAIT_2, CLOSING, TIME_WAIT,
    CLOSE_WAIT, LAST_ACK, CLOSED
  } tcp_state_e;

  // Debug port: a read-only snapshot of one session's state, for test harnesses, drivers
  // and bring-up (the packetdrill runner's state checks, virtual time's next deadline).
  typedef struct packed {
    sid_t        session;
    tcp_state_e  state;
    logic [31:0] snd_una, snd_nxt, snd_max;
    logic [15:0] snd_wnd;
    logic [31:0] rcv_nxt;
    logic [15:0] rcv_wnd;    // right edge we advertised minus RCV.NXT
    logic [3:0]  retries;
    logic        tmr_on;     // retransmission / persist / SYN / TIME-WAIT timer
    logic [31:0] tmr_at;     // its deadline, in the engine's microsecond clock
    logic        dack_on;    // delayed ACK
    logic [31:0] dack_at;
    logic [31:0] now_us;     // the engine's microsecond clock when the snapshot was taken
  } tcp_dbg_t;

  // One job for a ring reader or writer: `length` bytes at ring offset `offset` of the
  // ring whose base address is `base`; `session` and `tag` come back with the completion
  // (the core uses the tag of 0-length marker jobs for the notification to give then).
  typedef struct packed {
    sid_t        session;
    logic [2:0]  tag;
    logic [47:0] base;
    logic [31:0] offset;     // reduced modulo the ring size by the engine
    logic [16:0] length;     // 0 = a marker: completes in order, moves no data
    logic [15:0] skip;       // writers: leading stream bytes not stored (the part of a
                             // segment below RCV.NXT); offset is where byte `skip` goes
    logic [15:0] reassembled; // RX writer: bytes stored earlier out of order that join
                             // the stream with this job (passed through to the completion)
  } tcp_ring_job_t;
  localparam int unsigned TCP_RING_JOB_W = $bits(tcp_ring_job_t);
  // The tag of RX writer jobs that tell nobody (bytes stored ahead of RCV.NXT); other tags
  // of RX jobs name the notification their completion gives (tcp_notif_kind_e): NOTIF_DATA
  // for bytes that join the stream, an end's kind for a 0-length marker
  localparam logic [2:0] RING_TAG_NONE = 3'd7;

  // Default size of the TCP checksum FIFO (toe_tcp_rx_parse), where received segments wait
  // for their verdict and for the RX ring writer. At 512 bits (100G) one DDR4 channel is
  // slower than RX needs (every payload byte written and read back: 25 GB/s against 19.2),
  // so segments queue there while the memory is behind and a full FIFO drops them; with 16
  // KB, 64 sessions lost several segments of one window at once and waited for their RTOs
  // (RX 0.21 of the wire behind DDR4), with 256 KB every loss was recovered by fast
  // retransmit (0.63; the memory's ceiling is about 0.68). 256 KB is 61 more BRAM36 in
  // Yosys' mapping of toe_tcp (177 against 116), or 9 URAMs with toe_top's
  // TCP_RX_FIFO_RAM_STYLE = "ultra" (UltraScale+). Below 512 bits the 512-bit memory port
  // is several times the wire, and 16 KB is plenty.
  function automatic int unsigned rx_fifo_bytes_default(input int unsigned data_w);
    return data_w >= 512 ? 262144 : 16384;
  endfunction

  // Half SipRounds per cycle of the ISN unit (toe_tcp_isn) by data path width, for its
  // reference clock: two (a whole round, 4.6 ns in the cell-delay model; the hash in 9
  // cycles) within 156.25 MHz at 64 bits and below, one (17 cycles) at 322 MHz above. A
  // passive open's SYN-ACK waits for it. A 64-bit path clocked above about 200 MHz (25G)
  // wants one: toe_top's ISN_HALF_ROUNDS.
  function automatic int unsigned isn_half_rounds_default(input int unsigned data_w);
    return data_w <= 64 ? 2 : 1;
  endfunction

  // Segments between the session table and the core (toe_tcp_seg_lookup's DEPTH), by the
  // longest wait of the record's store (toe_tcp_state_store's READ_WAIT): each one's record
  // is fetched ahead as it enters, so they are the fetches in flight, and they must cover
  // the longest wait at one segment per 2 cycles (100G's minimum frames) for segments of
  // sessions that all miss: 8 on chip and up to a wait of 16 cycles, else the power of
  // two at or above half the wait (32 for 64 cycles, about 200 ns at 322 MHz).
  function automatic int unsigned lookup_depth_for(input int unsigned read_wait);
    int unsigned d;
    d = 8;
    while (d < (read_wait + 1) / 2) d = d * 2;
    return d;
  endfunction

  // Base address of a session's ring: RX ring at 2*session, TX ring at 2*session+1, in
  // units of the ring size, above `mem_base`.
  function automatic logic [47:0] ring_base(input logic [47:0] mem_base, input sid_t session,
                                            input logic tx, input int unsigned ring_bytes);
    return mem_base + 48'({session, tx}) * 48'(ring_bytes);
  endfunction

  // Ring bursts: full-width INCR bursts that never cross a BURST_BYTES boundary (4 KB, or
  // 256 beats when that is less), so never a 4 KB page nor the end of a ring (rings are
  // >= 4 KB, powers of two). Beats of the next burst from ring word `word`, `left` to go.
  function automatic int unsigned burst_beats_max(input int unsigned data_w);
    return (4096 / (data_w / 8)) < 256 ? 4096 / (data_w / 8) : 256;
  endfunction
  function automatic logic [16:0] beats_to_boundary(input logic [31:0] word, input int unsigned data_w);
    return 17'(burst_beats_max(data_w)) - 17'(word % burst_beats_max(data_w));
  endfunction
  function automatic logic [8:0] next_burst(input logic [31:0] word, input logic [16:0] left,
                                            input int unsigned data_w);
    logic [16:0] to_boundary = beats_to_boundary(word, data_w);
    return 9'(to_boundary < left ? to_boundary : left);
  endfunction

  // The widest bus the ring engines take, in bytes (a 2048-bit memory port)
  localparam int unsigned MAX_BUS_BYTES = 256;
  // tkeep of the last beat of a `length`-byte frame on a bus of w bytes (w <= MAX_BUS_BYTES,
  // a power of two): bit l is set when byte l of that beat belongs to the frame. (Until
  // stop 59 it gave 64 bits: behind a 1024-bit memory port the ring reader's last beats
  // lost their bytes 64 to 127.)
  function automatic logic [MAX_BUS_BYTES-1:0] last_beat_keep(input logic [16:0] length, input int unsigned w);
    logic [16:0] tail = length & 17'(w - 1);
    for (int l = 0; l < MAX_BUS_BYTES; l++) last_beat_keep[l] = l < w && (tail == '0 || 17'(l) < tail);
  endfunction

  // Sequence-number comparisons (modulo 2^32, RFC 9293 3.4).
  function automatic logic seq_lt(input logic [31:0] a, b); return $signed(a - b) < 0; endfunction
  // The sign of a 32-bit sum. A test written as neg(a - b + c - d) is one carry chain
  // (synthesis makes one sum of all the operands, if no partial sum is shared with another
  // expression), where a compare of a difference with another value is two in series. Exact
  // when the true value lies in [-2^31, 2^31).
  function automatic logic neg(input logic [31:0] x); return x[31]; endfunction
  // The sign of a sum whose true value lies in [-2 R, 2 R), R = max(ring, 65536) (ring a
  // power of two): bit log2(R) + 1 (bit 31 from R = 2^30 on). A receive ring's sequence
  // distances and windows are such values; with `ring` a constant only the low bits are
  // summed, a carry chain of 18 bits instead of 32 for rings up to 64 KiB.
  function automatic logic neg_in_ring(input logic [31:0] x, input logic [31:0] ring);
    logic sign = x[17];
    for (int b = 17; b < 31; b++) if (ring >= 32'(1) << b) sign = x[b + 1];
    return sign;
  endfunction
  // The window an edge gives, pos(edge - RCV.NXT), is below half the ring: the sign of one
  // sum in ring width (a negative window is below it too; the window, its clamp and a
  // compare were two carry chains in series: 3.82 ns into the pre stage at 512 bits, stop
  // 52, and 3.40 ns into the read engine's wake bit, stop 54)
  function automatic logic wnd_below_half(input logic [31:0] edge_seq, rcv_nxt, ring);
    return neg_in_ring(32'(1) - (ring >> 1) + edge_seq + ~rcv_nxt, ring);
  endfunction
  // The TX ring's free space, ring - (TX_APP - SND.UNA), and the space left after `want`
  // bytes, each one sum with the constants first; `want` fits when what is left is not
  // negative (one sign in ring width). Exact for an occupancy TX_APP - SND.UNA of -1 (a FIN
  // acked) to ring and want <= max(ring, 65535): the slow path's pre stage and the TX request
  // engine test the same rule with these (the difference, the space and a compare in series
  // were 3.61 ns into the pre stage at 512 bits, stop 53).
  function automatic logic [31:0] tx_ring_free(input logic [31:0] snd_una, tx_app, ring);
    return (ring + 32'd1 + snd_una + ~tx_app) & ((ring << 1) - 32'd1);   // 0 .. ring + 1: ring-width bits
  endfunction
  function automatic logic [31:0] tx_ring_left(input logic [31:0] snd_una, tx_app, want, ring);
    return ring + 32'd2 + snd_una + ~tx_app + ~want;
  endfunction
  function automatic logic tx_ring_fits(input logic [31:0] snd_una, tx_app, want, ring);
    return !neg_in_ring(tx_ring_left(snd_una, tx_app, want, ring), ring);
  endfunction
  // a <= b as the equality beside the difference's sign (not $signed(a - b) <= 0, which
  // synthesis made a second carry chain behind the difference's: 0.56 ns in front of the
  // slow path's pre stage at 512 bits, stop 51)
  function automatic logic seq_le(input logic [31:0] a, b); return a == b || seq_lt(a, b); endfunction
endpackage
