// SPDX-License-Identifier: Apache-2.0
// toe-bench: cycle-accurate benchmark of toe_sim_top (engine + UDP echo app) at one
// DATA_W. For ICMP echo and UDP echo with Ethernet frames of 64, 512 and 1518 bytes
// (incl. FCS; frames on the MAC port exclude it): offers N requests at exactly the wire
// rate and takes the replies at exactly the wire rate (Peer), and reports frames in/out, the
// cycles from the first byte of the first reply to that of the last (steady state), the
// achieved frame rate as a fraction of the wire limit (frame + FCS + preamble + IFG
// = L + 24 bytes at 10G for 64 bits / 156.25 MHz, 100G for 512 bits / 322 MHz), and the
// latency in cycles from the first byte of a request into an idle engine to the first
// byte of its reply. Prints a table and writes one JSON object per line to stdout's
// companion file given as argv[1].
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <cstdio>
#include <vector>

#include "toe_csr_map.h"
#include "toe_sim_model.h"

#ifndef TOE_APP_SENDERS
#define TOE_APP_SENDERS 4
#endif
#ifndef TOE_MEM_DATA_W
#define TOE_MEM_DATA_W 512
#endif
#ifndef TOE_TCP_STATE_READ_WAIT
#define TOE_TCP_STATE_READ_WAIT 0   // toe_top's TCP_STATE_READ_WAIT: 0, the record store on chip
#endif

namespace {

constexpr int APP_SENDERS = TOE_APP_SENDERS;   // sender slots of the example apps (toe_sim_top)
constexpr int MEM_BYTES = TOE_MEM_DATA_W / 8;   // bytes per memory port beat

const uint8_t TOE_MAC[6] = {2, 0, 0, 0, 0, 2}, PEER_MAC[6] = {2, 0, 0, 0, 0, 1};
const uint8_t TOE_IP[4] = {192, 0, 2, 2}, PEER_IP[4] = {192, 0, 2, 1};

uint16_t csum(const uint8_t* p, size_t n) {
    uint32_t s = 0;
    for (size_t i = 0; i < n; i += 2) s += (p[i] << 8) | (i + 1 < n ? p[i + 1] : 0);
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return uint16_t(~s);
}

// An Ethernet/IPv4 request of `len` bytes (without FCS) to the engine.
std::vector<uint8_t> request(bool udp, size_t len) {
    std::vector<uint8_t> f(len, 0);
    std::copy(TOE_MAC, TOE_MAC + 6, f.begin());
    std::copy(PEER_MAC, PEER_MAC + 6, f.begin() + 6);
    f[12] = 0x08; f[13] = 0x00;
    uint8_t* ip = &f[14];
    size_t ip_len = len - 14;
    ip[0] = 0x45; ip[2] = uint8_t(ip_len >> 8); ip[3] = uint8_t(ip_len);
    ip[8] = 64; ip[9] = udp ? 17 : 1;
    std::copy(PEER_IP, PEER_IP + 4, ip + 12);
    std::copy(TOE_IP, TOE_IP + 4, ip + 16);
    uint16_t h = csum(ip, 20); ip[10] = uint8_t(h >> 8); ip[11] = uint8_t(h);
    uint8_t* l4 = ip + 20;
    size_t l4_len = ip_len - 20;
    for (size_t i = 8; i < l4_len; ++i) l4[i] = uint8_t(i * 7);
    if (udp) {
        l4[0] = 0x9C; l4[1] = 0x40; l4[2] = 0; l4[3] = 7;   // 40000 -> 7, no checksum
        l4[4] = uint8_t(l4_len >> 8); l4[5] = uint8_t(l4_len);
    } else {
        l4[0] = 8;
        uint16_t c = csum(l4, l4_len); l4[2] = uint8_t(c >> 8); l4[3] = uint8_t(c);
    }
    return f;
}

std::vector<uint8_t> arp_request() {
    std::vector<uint8_t> f(42, 0);
    std::fill(f.begin(), f.begin() + 6, 0xFF);
    std::copy(PEER_MAC, PEER_MAC + 6, f.begin() + 6);
    const uint8_t body[] = {0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1};
    std::copy(body, body + 10, f.begin() + 12);
    std::copy(PEER_MAC, PEER_MAC + 6, f.begin() + 22);
    std::copy(PEER_IP, PEER_IP + 4, f.begin() + 28);
    std::copy(TOE_IP, TOE_IP + 4, f.begin() + 38);
    return f;
}

// ---------------- TCP ----------------

// SYN options: the MSS alone, and what Linux sends (MSS, SACK permitted, timestamps, NOP,
// window scale)
const std::vector<uint8_t> MSS_OPT = {2, 4, 0x05, 0xB4};
const std::vector<uint8_t> LINUX_SYN_OPTS = {2, 4, 0x05, 0xB4, 4, 2, 8, 10, 0, 0, 0x30, 0x39, 0, 0, 0, 0, 1, 3, 3, 7};

// A TCP segment from the peer (192.0.2.1) to the engine, padded to the 60-byte minimum;
// `opts` a multiple of 4 bytes.
std::vector<uint8_t> tcp_segment(uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
                                 uint8_t flags, size_t n, const std::vector<uint8_t>& opts = {}) {
    size_t opt = opts.size(), tcp_len = 20 + opt + n, ip_len = 20 + tcp_len;
    std::vector<uint8_t> f(std::max<size_t>(14 + ip_len, 60), 0);
    std::copy(TOE_MAC, TOE_MAC + 6, f.begin());
    std::copy(PEER_MAC, PEER_MAC + 6, f.begin() + 6);
    f[12] = 0x08; f[13] = 0x00;
    uint8_t* ip = &f[14];
    ip[0] = 0x45; ip[2] = uint8_t(ip_len >> 8); ip[3] = uint8_t(ip_len); ip[8] = 64; ip[9] = 6;
    std::copy(PEER_IP, PEER_IP + 4, ip + 12);
    std::copy(TOE_IP, TOE_IP + 4, ip + 16);
    uint16_t h = csum(ip, 20); ip[10] = uint8_t(h >> 8); ip[11] = uint8_t(h);
    uint8_t* t = ip + 20;
    auto put16 = [](uint8_t* p, uint32_t v) { p[0] = uint8_t(v >> 8); p[1] = uint8_t(v); };
    auto put32 = [&](uint8_t* p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); };
    put16(t, sport); put16(t + 2, dport); put32(t + 4, seq); put32(t + 8, ack);
    t[12] = uint8_t((5 + opt / 4) << 4); t[13] = flags; put16(t + 14, 65535);
    std::copy(opts.begin(), opts.end(), t + 20);
    for (size_t i = 0; i < n; ++i) t[20 + opt + i] = uint8_t(i * 13 + 1);
    std::vector<uint8_t> pseudo(12 + tcp_len);
    std::copy(PEER_IP, PEER_IP + 4, pseudo.begin());
    std::copy(TOE_IP, TOE_IP + 4, pseudo.begin() + 4);
    pseudo[9] = 6; put16(&pseudo[10], uint32_t(tcp_len));
    std::copy(t, t + tcp_len, pseudo.begin() + 12);
    uint16_t c = csum(pseudo.data(), pseudo.size()); put16(t + 16, c);
    return f;
}

// What the peer sees of an engine frame: the TCP fields it needs.
struct TcpOut { bool tcp = false; uint16_t dport = 0; uint32_t seq = 0, ack = 0; uint16_t win = 0; uint8_t flags = 0; size_t len = 0; };
TcpOut parse_tcp(const std::vector<uint8_t>& f) {
    TcpOut o;
    if (f.size() < 54 || f[12] != 0x08 || f[13] != 0x00 || f[14 + 9] != 6) return o;
    const uint8_t* t = &f[34];
    auto get16 = [](const uint8_t* p) { return uint32_t(p[0] << 8 | p[1]); };
    o.tcp = true;
    o.dport = uint16_t(get16(t + 2));
    o.seq = get16(t + 4) << 16 | get16(t + 6);
    o.ack = get16(t + 8) << 16 | get16(t + 10);
    o.flags = t[13];
    o.win = uint16_t(get16(t + 14));
    o.len = get16(&f[16]) - 20 - (t[12] >> 4) * 4;
    return o;
}


// A cycle-by-cycle peer: sends queued frames at exactly the wire rate at most (WirePacer),
// takes the engine's frames at exactly the wire rate at most (a second WirePacer holds the
// MAC TX port's tready low while the wire carries the last frame), records engine frames and the cycles of the first app RX/TX beats and of the first
// byte of each engine frame.
struct Peer {
    Sim& sim;
    std::deque<std::vector<uint8_t>> to_send;
    std::vector<uint8_t> cur_out;
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> got;   // (first-byte cycle, frame)
    uint64_t out_start = 0, first_in = 0, last_in = 0, app_rx = 0, app_tx = 0;   // first_in: since clear(); last_in: the latest frame's first beat
    uint64_t app_tx_beats = 0;   // TCP payload beats the apps gave the engine, ever
    double out_wire_cycles = 0;  // cycles the engine's frames held the wire to the peer, ever
    size_t off = 0;
    WirePacer wire, wire_out;                      // peer -> engine, engine -> peer
    explicit Peer(Sim& s) : sim(s) {}
    void step() {
        sim->tick_us = (sim.cycles() % (TOE_DATA_W == 64 ? 156 : 322)) == 0;
        if (!to_send.empty() && (off > 0 || wire.free(sim.cycles()))) {
            const auto& f = to_send.front();
            sim->s_mac_rx_axis_tlast = put_beat(sim->s_mac_rx_axis_tdata, sim->s_mac_rx_axis_tkeep, f, off);
            sim->s_mac_rx_axis_tvalid = 1;
        } else sim->s_mac_rx_axis_tvalid = 0;
        sim->s_mac_rx_axis_tuser = 0;
        // the engine's frames leave at exactly the wire rate too: a frame runs at one beat
        // per cycle, the next one starts when the wire has carried it (FCS, preamble, IFG)
        sim->m_mac_tx_axis_tready = !cur_out.empty() || wire_out.free(sim.cycles());
        bool rx_take = sim->s_mac_rx_axis_tvalid && sim->s_mac_rx_axis_tready;
        if (rx_take && off == 0) {
            if (!first_in) first_in = sim.cycles();
            last_in = sim.cycles();
            wire.start(sim.cycles(), to_send.front().size());
        }
        if (sim->tcp_app_rx_beat && !app_rx) app_rx = sim.cycles();
        if (sim->tcp_app_tx_beat && !app_tx) app_tx = sim.cycles();
        app_tx_beats += sim->tcp_app_tx_beat;
        if (sim->m_mac_tx_axis_tvalid && sim->m_mac_tx_axis_tready) {
            if (cur_out.empty()) out_start = sim.cycles();
            for (int i = 0; i < W; ++i)
                if (keep_bit(sim->m_mac_tx_axis_tkeep, i)) cur_out.push_back(get_byte(sim->m_mac_tx_axis_tdata, i));
            if (sim->m_mac_tx_axis_tlast) {
                wire_out.start(out_start, cur_out.size());
                out_wire_cycles += WirePacer::wire_cycles(cur_out.size());
                got.emplace_back(out_start, std::move(cur_out));
                cur_out.clear();
            }
        }
        sim.step();
        if (rx_take) {
            off += W;
            if (off >= to_send.front().size()) { to_send.pop_front(); off = 0; }
        }
    }
    void clear() { got.clear(); first_in = app_rx = app_tx = 0; }
    // Send one frame and let the engine take it in peace: RSTs that end a run go one by
    // one, so that an engine slower than the wire does not drop them (a dropped RST leaves
    // its session taken for the runs after it).
    void send_alone(std::vector<uint8_t> f, int gap = 64) {
        to_send.push_back(std::move(f));
        while (!to_send.empty()) step();
        for (int i = 0; i < gap; ++i) step();
    }
    // Run until an engine TCP frame matching `pred` arrives; returns its first-byte cycle.
    // With must = false, returns 0 when no such frame came within `limit` cycles.
    template <class P> uint64_t until(P pred, uint64_t limit = 200000, bool must = true) {
        size_t seen = 0;
        for (uint64_t end = sim.cycles() + limit; sim.cycles() < end;) {
            step();
            for (; seen < got.size(); ++seen)
                if (pred(parse_tcp(got[seen].second))) return got[seen].first;
        }
        if (!must) return 0;
        std::fprintf(stderr, "toe-bench: TCP frame not seen\n");
        std::exit(1);
    }
};

// ICMP/UDP rows: offer `frames` through the peer (both directions paced at exactly the wire
// rate); run until `expect_out` replies are out (or a time limit). Cycles are the first
// bytes of frames on the MAC ports.
struct Result { uint64_t in = 0, out = 0, first_in = 0, first_out = 0, last_out = 0; };
Result run(Peer& p, const std::vector<std::vector<uint8_t>>& frames, size_t expect_out) {
    Result r;
    p.clear();
    for (const auto& f : frames) p.to_send.push_back(f);
    for (uint64_t limit = p.sim.cycles() + 2000000; (p.got.size() < expect_out || !p.to_send.empty()) &&
                                                    p.sim.cycles() < limit;)
        p.step();
    r.in = frames.size() - p.to_send.size();
    r.out = p.got.size();
    r.first_in = p.first_in;
    if (r.out) {
        r.first_out = p.got.front().first;
        r.last_out = p.got.back().first;
    }
    p.to_send.clear();
    return r;
}

// Register reads step the simulation through the peer, so that the MAC ports keep being
// driven and watched while the AXI-Lite read runs (the engine may be sending: a read that
// stepped the bare simulation left tready high and lost the beats of those cycles, which
// cut a frame short and merged it with the next).
uint32_t csr_read(Peer& p, uint32_t addr) { return p.sim.csr_read(addr, [&p] { p.step(); }); }
void csr_write(Peer& p, uint32_t addr, uint32_t data) { p.sim.csr_write(addr, data, [&p] { p.step(); }); }
uint32_t read_counter(Peer& p, const char* name) {
    for (unsigned i = 0; i < toe_csr::N_COUNTERS; ++i)
        if (std::string(toe_csr::COUNTER_NAMES[i]) == name) return csr_read(p, toe_csr::COUNTER_BASE + 4 * i);
    std::fprintf(stderr, "toe-bench: no counter %s\n", name);
    std::exit(1);
}
// Segments the engine lost for want of room (its input FIFOs overflowed).
uint32_t engine_drops(Peer& p) { return read_counter(p, "tcpInOverflows") + read_counter(p, "ethInOverflows"); }
// Sessions the engine still holds (after a run has reset its own: the ones it leaked).
uint32_t sessions_in_use(Peer& p) { return csr_read(p, toe_csr::REG_TCP_SESSIONS_IN_USE); }

bool seq_lt(uint32_t a, uint32_t b) { return int32_t(a - b) < 0; }

// One connection of the peer to the engine, as Linux would run it: the peer's data goes out
// under the engine's window and a congestion window (initial 10 segments, slow start,
// congestion avoidance), losses are recovered by fast retransmit after three duplicate
// ACKs with NewReno partial ACKs (RFC 6582), else by the RTO (RFC 6298: SRTT and RTTVAR
// from one timed segment at a time, never a retransmitted one (Karn), RTO = SRTT +
// 4 RTTVAR with a minimum of 1 ms: a data-centre rto_min, as 200 ms would idle the bench
// for millions of cycles), going back to the first unacknowledged byte, the timer doubled
// until the next valid RTT sample (on which Linux resets its backoff too). The engine's data is
// acknowledged every second segment, else after a delayed-ACK time of 1 ms, at once when
// out of order (a duplicate ACK); the peer's ACKs ride on its data segments when it has
// some. The engine's window is taken from a segment only if it is not older than the one
// that set it (RFC 9293 3.10.7.4, SND.WL1/SND.WL2, as Linux's tcp_may_update_window): the
// engine's pure ACKs may overtake its data segments, whose older window would otherwise
// reopen a right edge the engine has since left behind (the peer then sent past the window,
// 512 bits behind an ideal memory, echo of one session: 0.036 of the wire, stop 58).
struct Flow {
    uint16_t port = 0, dport = 0;
    uint32_t snd_una = 0, snd_nxt = 0, snd_max = 0, snd_end = 0, wnd = 0, recover = 0;
    uint32_t snd_wl1 = 0, snd_wl2 = 0;          // SEG.SEQ and SEG.ACK of the window's segment
    double cwnd = 0, ssthresh = 1e9;
    int dupacks = 0;
    bool recovery = false, rexmit = false;
    uint64_t rto = 0, rto_at = 0;
    double srtt = 0, rttvar = 0;                // RFC 6298, in cycles (srtt 0: no sample yet)
    bool timing = false;                        // a segment is timed: rtt_seq sent at rtt_t0
    uint32_t rtt_seq = 0;
    uint64_t rtt_t0 = 0;
    uint32_t rcv_nxt = 0, unacked = 0;
    uint64_t dack_at = 0, rcvd = 0;
    bool ack_now = false;
};

struct Flows {
    Peer& p;
    size_t mss;
    std::vector<Flow> f;
    uint16_t base_port;
    size_t rr = 0, seen = 0;
    uint64_t fast_rexmits = 0, timeouts = 0, rexmit_segs = 0;
    uint64_t engine_data_segs = 0, engine_pure_acks = 0;   // the engine's frames to the flows
    uint64_t engine_data_bytes = 0;                          // and their payload
    // ACKs that repeat SND.UNA with data in flight but carry another window: RFC 5681 (and
    // Linux) does not count them as duplicates, so they cannot trigger fast retransmit
    uint64_t dupacks_window_moved = 0;
    const uint64_t per_ms = TOE_DATA_W == 64 ? 156250 : 322000;
    Flows(Peer& peer, size_t seg) : p(peer), mss(seg) {}

    // Open n connections to `dport` from ports base.. (one handshake at a time); each will
    // send `bytes` of data. Returns how many the engine refused.
    size_t open(uint16_t dport, uint16_t base, size_t n, uint32_t bytes) {
        base_port = base;
        size_t refused = 0;
        // The engine's frames are kept from the first SYN on: an app that sends at once (the
        // pattern source) sends to the sessions opened first while later ones are opened, and
        // the peer must see that data (dropping it cost every multi-session TX run a loss per
        // session at its start, recovered by the engine's RTO, and 0.13 of the wire in some).
        p.clear();
        for (size_t i = 0; i < n; ++i) {
            Flow x;
            x.port = uint16_t(base + i);
            x.dport = dport;
            p.to_send.push_back(tcp_segment(x.port, dport, 1000, 0, 0x02, 0, MSS_OPT));
            if (!p.until([&](const TcpOut& o) { return o.tcp && o.dport == x.port && o.flags == 0x12; }, 20000, false)) {
                ++refused;
                x.port = 0;                       // keeps the port -> flow index mapping
                f.push_back(x);
                continue;
            }
            for (const auto& g : p.got) {
                TcpOut o = parse_tcp(g.second);
                if (o.tcp && o.dport == x.port && o.flags == 0x12) {
                    x.rcv_nxt = o.seq + 1;
                    x.wnd = o.win;
                    x.snd_wl1 = o.seq;
                    x.snd_wl2 = o.ack;
                }
            }
            x.snd_una = x.snd_nxt = x.snd_max = 1001;
            x.snd_end = 1001 + bytes;
            x.cwnd = 10.0 * double(mss);
            x.rto = per_ms;
            p.to_send.push_back(tcp_segment(x.port, dport, x.snd_nxt, x.rcv_nxt, 0x10, 0));
            f.push_back(x);
        }
        seen = 0;                                 // step() gives every frame kept to the flows
        for (int i = 0; i < 2000; ++i) p.step();
        return refused;
    }
    Flow* of(uint16_t port) {
        size_t i = size_t(uint16_t(port - base_port));
        return i < f.size() && f[i].port == port ? &f[i] : nullptr;
    }
    void on_engine_frame(const TcpOut& o, uint64_t now) {
        Flow* x = o.tcp ? of(o.dport) : nullptr;
        if (!x) return;
        if (o.len > 0) { ++engine_data_segs; engine_data_bytes += o.len; }
        else if (o.flags == 0x10) ++engine_pure_acks;
        if (o.flags & 0x10) {
            uint32_t flight = x->snd_max - x->snd_una;
            // RFC 9293 3.10.7.4: the window of an acceptable ACK not older than the last
            // window's segment (decided on SND.UNA before this ACK moves it)
            const bool window_update = !seq_lt(o.ack, x->snd_una) && !seq_lt(x->snd_max, o.ack) &&
                                       (seq_lt(x->snd_wl1, o.seq) || (x->snd_wl1 == o.seq && !seq_lt(o.ack, x->snd_wl2)));
            if (seq_lt(x->snd_una, o.ack) && !seq_lt(x->snd_max, o.ack)) {      // new data acknowledged
                uint32_t newly = o.ack - x->snd_una;
                // the timed segment acknowledged: an RTT sample (RFC 6298 2.2-2.4), and the
                // RTO recomputed from it (which also ends a backoff)
                if (x->timing && seq_lt(x->rtt_seq, o.ack)) {
                    double r = double(now - x->rtt_t0);
                    if (x->srtt == 0) { x->srtt = r; x->rttvar = r / 2; }
                    else { x->rttvar = 0.75 * x->rttvar + 0.25 * std::fabs(x->srtt - r); x->srtt = 0.875 * x->srtt + 0.125 * r; }
                    x->rto = std::min<uint64_t>(std::max<uint64_t>(per_ms, uint64_t(x->srtt + 4 * x->rttvar)), 60 * per_ms);
                    x->timing = false;
                }
                x->snd_una = o.ack;
                if (seq_lt(x->snd_nxt, x->snd_una)) x->snd_nxt = x->snd_una;
                x->dupacks = 0;
                if (x->recovery) {
                    if (!seq_lt(o.ack, x->recover)) { x->recovery = false; x->cwnd = x->ssthresh; }
                    else { x->rexmit = true; x->cwnd = std::max(x->cwnd - newly + mss, double(mss)); }   // partial ACK
                } else if (x->cwnd < x->ssthresh) x->cwnd += std::min<double>(newly, mss);
                else x->cwnd += double(mss) * mss / x->cwnd;
                x->rto_at = x->snd_una == x->snd_max ? 0 : now + x->rto;
            } else if (o.ack == x->snd_una && o.len == 0 && !(o.flags & 0x03) && flight > 0 && o.win == x->wnd) {
                if (++x->dupacks == 3 && !x->recovery) {
                    x->ssthresh = std::max(double(flight) / 2, 2.0 * mss);
                    x->cwnd = x->ssthresh + 3.0 * mss;
                    x->recovery = true;
                    x->recover = x->snd_max;
                    x->rexmit = true;
                    ++fast_rexmits;
                } else if (x->recovery) x->cwnd += mss;
            } else if (o.ack == x->snd_una && o.len == 0 && !(o.flags & 0x03) && flight > 0) {
                ++dupacks_window_moved;
            }
            if (window_update) {
                x->wnd = o.win;
                x->snd_wl1 = o.seq;
                x->snd_wl2 = o.ack;
            }
        }
        if (o.len > 0 || (o.flags & 0x01)) {
            if (o.seq == x->rcv_nxt) {
                x->rcv_nxt += uint32_t(o.len) + (o.flags & 0x01);
                x->rcvd += o.len;
                if (++x->unacked >= 2 || (o.flags & 0x01)) x->ack_now = true;
                else if (!x->dack_at) x->dack_at = now + per_ms;
            } else x->ack_now = true;              // out of order or a repeat: a duplicate ACK at once
        }
    }
    std::vector<uint8_t> segment(Flow& x, uint32_t seq, size_t n) {
        x.unacked = 0;
        x.dack_at = 0;
        x.ack_now = false;
        return tcp_segment(x.port, x.dport, seq, x.rcv_nxt, n ? 0x18 : 0x10, n);
    }
    // The next frame of flow x, if it has one: a retransmission, new data, else a due ACK.
    bool next_of(Flow& x, uint64_t now, std::vector<uint8_t>& out) {
        if (!x.port) return false;
        if (x.rexmit) {
            x.rexmit = false;
            x.timing = false;                           // Karn: no sample across a retransmission
            ++rexmit_segs;
            if (!x.rto_at) x.rto_at = now + x.rto;
            size_t n = std::min<size_t>(mss, x.snd_max - x.snd_una);
            out = segment(x, x.snd_una, n);
            return true;
        }
        uint32_t flight = x.snd_nxt - x.snd_una;
        size_t n = std::min<size_t>(mss, x.snd_end - x.snd_nxt);
        if (n > 0 && seq_lt(x.snd_nxt, x.snd_end) && flight + n <= std::min<double>(x.wnd, x.cwnd)) {
            if (seq_lt(x.snd_nxt, x.snd_max)) ++rexmit_segs;
            else if (!x.timing) { x.timing = true; x.rtt_seq = x.snd_nxt; x.rtt_t0 = now; }
            out = segment(x, x.snd_nxt, n);
            x.snd_nxt += uint32_t(n);
            if (seq_lt(x.snd_max, x.snd_nxt)) x.snd_max = x.snd_nxt;
            if (!x.rto_at) x.rto_at = now + x.rto;
            return true;
        }
        if (x.ack_now || (x.dack_at && now >= x.dack_at)) {
            out = segment(x, x.snd_nxt, 0);
            return true;
        }
        return false;
    }
    // One cycle: the engine's frames in, the flows' frames out (round robin, at most two
    // waiting at the MAC port so the wire never idles while a flow has something), RTOs.
    void step() {
        uint64_t now = p.sim.cycles();
        for (; seen < p.got.size(); ++seen) on_engine_frame(parse_tcp(p.got[seen].second), now);
        if (p.got.size() > 4096) { p.got.clear(); seen = 0; }
        for (size_t k = 0; k < f.size() && p.to_send.size() < 2; ++k) {
            Flow& x = f[rr];
            rr = (rr + 1) % f.size();
            std::vector<uint8_t> fr;
            if (next_of(x, now, fr)) p.to_send.push_back(std::move(fr));
        }
        if (now % 64 == 0)
            for (Flow& x : f)
                if (x.rto_at && now >= x.rto_at) {       // RTO: back to SND.UNA, one segment
                    ++timeouts;
                    x.ssthresh = std::max(double(x.snd_max - x.snd_una) / 2, 2.0 * mss);
                    x.cwnd = mss;
                    x.recovery = false;
                    x.dupacks = 0;
                    x.snd_nxt = x.snd_una;
                    x.timing = false;
                    x.rto = std::min<uint64_t>(2 * x.rto, 60 * per_ms);
                    x.rto_at = x.snd_una == x.snd_max ? 0 : now + x.rto;
                }
        p.step();
    }
    // Stop sending, let what is in flight be acknowledged (and the engine's delayed ACK of
    // the last segment come: an RST left of its RCV.NXT is outside the window and dropped
    // in silence, RFC 9293 3.10.7.4, which left sessions open at 512 bits, where 200 us
    // is longer than the 40000 cycles once waited), then reset every connection at the
    // engine's RCV.NXT (its last ACK: SND.UNA here), the one sequence number RFC 5961
    // takes, so that the sessions are free for the next run.
    void close() {
        for (Flow& x : f) x.snd_end = x.snd_nxt;
        for (uint64_t i = 0; i < 40000 + per_ms / 2; ++i) step();
        reset();
    }
    // RST every connection at SND.UNA (the engine's RCV.NXT as its last ACK told), one by one.
    // Any ACK the engine still sends to a flow (one that was on its way) is answered with a
    // RST at its ACK number (RFC 9293 3.10.7.1), as Linux answers segments of a connection
    // it no longer has. That includes the delayed ACK of a segment retransmitted while the
    // run closed (the RST before it was left of the engine's RCV.NXT and dropped in
    // silence), so the answers go on until the engine holds no session or the delayed-ACK
    // time has passed twice (1-2 sessions per 64-session row were left open otherwise).
    void reset() {
        size_t answered = seen;
        auto answer = [&] {
            for (; answered < p.got.size(); ++answered) {
                TcpOut o = parse_tcp(p.got[answered].second);
                Flow* x = o.tcp ? of(o.dport) : nullptr;
                if (x && (o.flags & 0x10) && !(o.flags & 0x04))
                    p.to_send.push_back(tcp_segment(x->port, x->dport, o.ack, 0, 0x04, 0));
            }
        };
        for (Flow& x : f)
            if (x.port) {
                answer();
                p.send_alone(tcp_segment(x.port, x.dport, x.snd_una, 0, 0x04, 0));
            }
        for (uint64_t i = 0; i < 20000 + per_ms / 2; ++i) {
            answer();
            p.step();
            if (i % 8192 == 8191 && sessions_in_use(p) == 0) break;
        }
        p.clear();
    }
    uint64_t rcvd() const { uint64_t n = 0; for (const Flow& x : f) n += x.rcvd; return n; }
};

// Payload wire limit in bytes per cycle for n-byte segments (Ethernet + IPv4 + TCP headers
// of 54 bytes, padded to 60, and FCS, preamble and IFG).
double payload_limit(size_t n) { return double(n) / WirePacer::wire_cycles(n + 54); }

// A rate over the last 90 % of a transfer: the bytes between the sample that reached 10 %
// of `total` and the one that reached 100 % (or the last sample, if the transfer did not
// finish), over the cycles between them. Both ends are samples, so bytes that arrive at
// once (the backlog the peer reads after opening many sessions) do not count for cycles
// they did not take.
struct Meter {
    uint64_t total, t0 = 0, t1 = 0, d0 = 0, d1 = 0, done = 0, now = 0;
    void at(uint64_t d, uint64_t t) {
        done = d;
        now = t;
        if (!t0 && d >= total / 10) { t0 = t; d0 = d; }
        if (!t1 && d >= total) { t1 = t; d1 = d; }
    }
    double bytes_per_cycle() const {
        if (!t0) return 0.0;
        uint64_t end = t1 ? t1 : now, bytes = (t1 ? d1 : done) - d0;
        return end > t0 ? double(bytes) / double(end - t0) : 0.0;
    }
};
// Cycles a transfer of `total` payload bytes may take before the bench gives up on it and
// reports what it measured: four times its wire time, plus 2 M cycles.
uint64_t patience(uint64_t total, size_t seg) { return uint64_t(4.0 * double(total) / payload_limit(seg)) + 2000000; }

// The goodput and echo transfers' length: BENCH_GOODPUT_SCALE (a whole number, default 1)
// times the rows' own (4 MB or 16 KB per session; echo 2 MB). The peers' minimum RTO is
// 1 ms, longer than a 4 MB transfer at 100G (0.32 ms): where drops end in timeouts, a
// longer transfer shows how much of a row's shortfall is that wait.
uint64_t goodput_scale() {
    const char* v = std::getenv("BENCH_GOODPUT_SCALE");
    return v && std::atoi(v) > 0 ? uint64_t(std::atoi(v)) : 1;
}

// A row with more than one session is run ROW_RUNS times, each run after the one before
// (so from another engine history: which sessions, ring addresses, ISNs and timer phases
// meet the wire and the memory when); the row's value is the median run's, with the spread
// beside it, so that a figure that depends on the history shows it. (The TX rows of 64
// sessions once spread over 0.13 of the wire: the peer dropped the data sent to sessions
// opened first while it opened the others, see Flows::open.)
constexpr int ROW_RUNS = 3;

// One run of a goodput row: the figures of its table line and JSON row.
struct GoodputRun {
    double value = 0, rx_value = 0, tx_value = 0, dram = 0;
    uint32_t drops = 0, eng_rexmit = 0, left = 0;
    size_t refused = 0;
    uint64_t fast_rexmits = 0, timeouts = 0, dup_wnd = 0, data_segs = 0, pure_acks = 0;
    // the engine's data segments while the measured transfer ran (from its first tenth to
    // its end; TX rows): their mean payload, which the app's writes and Nagle decide
    double measured_seg_bytes = 0;
    // the app's TCP payload beats over the same span, times DATA_W/8 bytes, over the payload
    // wire limit: what the app gave the engine (exact for whole beats: the source's 2008-byte
    // requests at 64 bits; an upper bound with a partial last beat)
    double app_tx_value = 0;
    // the share of the same span's cycles in which the engine's frames (all of them: data,
    // ACKs, anything) held the wire to the peer: 1 when the engine left the wire no idle
    // cycle, whatever the segments' sizes; below 1, the engine (or the app feeding it) is slow
    double out_wire_busy = 0;
};

// The runs of a row, sorted by value; the median run, and the spread as JSON fields
// (runs, value_min, value_max, run_values and run_drops in the order of the values).
struct RowRuns {
    std::vector<GoodputRun> runs;
    const GoodputRun& median() const { return runs[runs.size() / 2]; }
    void sort() { std::sort(runs.begin(), runs.end(), [](const GoodputRun& a, const GoodputRun& b) { return a.value < b.value; }); }
    std::string spread_json() const {
        std::string v, d;
        for (const GoodputRun& r : runs) {
            char b[32];
            std::snprintf(b, sizeof b, "%s%.4f", v.empty() ? "" : ", ", r.value);
            v += b;
            d += (d.empty() ? "" : ", ") + std::to_string(r.drops);
        }
        char b[96];
        std::snprintf(b, sizeof b, "\"runs\": %zu, \"value_min\": %.4f, \"value_max\": %.4f, ", runs.size(),
                      runs.front().value, runs.back().value);
        return b + std::string("\"run_values\": [") + v + "], \"run_drops\": [" + d + "]";
    }
    void print_spread() const {
        if (runs.size() > 1)
            std::printf("  %14s median of %zu runs %8.4f, spread %.4f .. %.4f\n", "", runs.size(), median().value,
                        runs.front().value, runs.back().value);
    }
};

// Goodput with n sessions and segments of `seg` bytes, in one of three directions:
//   rx    the peer sends to the discard app (port 5001)
//   tx    the pattern source (port 19) sends to the peer
//   both  the peer sends to the pattern source while it sends (the source reads and drops)
// value = payload bytes per cycle over the payload wire limit (the lower of the two
// directions for "both"); drops = segments the engine lost for want of room.
GoodputRun goodput_run(Peer& p, const char* dir, size_t sessions, size_t seg, uint16_t base) {
    const bool rx = dir[0] != 't', tx = dir[0] != 'r';
    const uint64_t total = goodput_scale() * std::max<uint64_t>(4000000, sessions * 16384);
    GoodputRun r;
    Flows fl(p, seg);
    r.refused = fl.open(tx ? 19 : 5001, base, sessions, rx ? uint32_t(total / sessions + 65536) : 0);
    // The source sends to the sessions opened first while the others open (Flows::open keeps
    // those frames): they are given to the flows here and not measured. At 1024 sessions the
    // whole transfer had gone by then, and the TX rows measured nothing.
    fl.step();
    const uint64_t rcvd0 = fl.rcvd();
    uint32_t drops0 = engine_drops(p), rexmit0 = read_counter(p, "tcpRetransSegs");
    uint64_t disc0 = p.sim->tcp_discard_bytes;
    Meter mrx{total}, mtx{total};
    // the TX counters at the Meter's t0 and t1
    struct TxCounts {
        bool taken = false;
        uint64_t segs = 0, bytes = 0, beats = 0;
        double wire = 0;
    } at0, at1;
    auto take = [&](TxCounts& c) { c = {true, fl.engine_data_segs, fl.engine_data_bytes, p.app_tx_beats, p.out_wire_cycles}; };
    for (uint64_t end = p.sim.cycles() + patience(total, seg); p.sim.cycles() < end;) {
        fl.step();
        if (rx) mrx.at(p.sim->tcp_discard_bytes - disc0, p.sim.cycles());
        if (tx) {
            mtx.at(fl.rcvd() - rcvd0, p.sim.cycles());
            if (mtx.t0 && !at0.taken) take(at0);
            if (mtx.t1 && !at1.taken) take(at1);
        }
        if ((!rx || mrx.t1) && (!tx || mtx.t1)) break;
    }
    if (at1.segs > at0.segs) r.measured_seg_bytes = double(at1.bytes - at0.bytes) / double(at1.segs - at0.segs);
    if (mtx.t1 > mtx.t0 && mtx.t0) {
        const double span = double(mtx.t1 - mtx.t0);
        r.app_tx_value = double(at1.beats - at0.beats) * (TOE_DATA_W / 8) / span / payload_limit(seg);
        r.out_wire_busy = (at1.wire - at0.wire) / span;
    }
    fl.close();
    r.drops = engine_drops(p) - drops0;
    r.eng_rexmit = read_counter(p, "tcpRetransSegs") - rexmit0;
    r.left = sessions_in_use(p);
    double lim = payload_limit(seg);
    r.rx_value = rx ? mrx.bytes_per_cycle() / lim : 0.0;
    r.tx_value = tx ? mtx.bytes_per_cycle() / lim : 0.0;
    r.value = rx && tx ? std::min(r.rx_value, r.tx_value) : rx ? r.rx_value : r.tx_value;
    r.fast_rexmits = fl.fast_rexmits;
    r.timeouts = fl.timeouts;
    r.dup_wnd = fl.dupacks_window_moved;
    r.data_segs = fl.engine_data_segs;
    r.pure_acks = fl.engine_pure_acks;
    std::printf("  %5s %8zu %6zu %8.4f %8u %6llu %5llu %6u %5u %8llu %8llu %s\n", dir, sessions, seg, r.value, r.drops,
                (unsigned long long)r.fast_rexmits, (unsigned long long)r.timeouts, r.eng_rexmit, r.left,
                (unsigned long long)r.dup_wnd, (unsigned long long)r.pure_acks,
                r.refused ? ("(" + std::to_string(r.refused) + " refused)").c_str() : "");
    if (rx && tx) std::printf("  %14s rx %.4f, tx %.4f\n", "", r.rx_value, r.tx_value);
    if (tx) std::printf("  %14s while measured: the engine's data segments %.0f payload bytes on average, "
                        "the app gave %.4f of the payload wire limit, the engine's frames held the wire %.4f of the time\n",
                        "", r.measured_seg_bytes, r.app_tx_value, r.out_wire_busy);
    return r;
}

// A goodput row: one run for one session, ROW_RUNS for more; the JSON row is the median
// run's, with the spread.
void goodput(Peer& p, FILE* json, const char* dir, size_t sessions, size_t seg, uint16_t base, bool nagle = false) {
    RowRuns row;
    for (int k = 0; k < (sessions > 1 ? ROW_RUNS : 1); ++k)
        row.runs.push_back(goodput_run(p, dir, sessions, seg, uint16_t(base + k * sessions)));
    row.sort();
    row.print_spread();
    const GoodputRun& r = row.median();
    if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"goodput\", \"direction\": \"%s\", "
                           "\"sessions\": %zu, \"payload\": %zu, \"value\": %.4f, \"rx_value\": %.4f, \"tx_value\": %.4f, "
                           "\"drops\": %u, \"peer_fast_retransmits\": %llu, \"peer_timeouts\": %llu, "
                           "\"engine_retrans_segs\": %u, \"refused\": %zu, \"sessions_left\": %u, "
                           "\"peer_dupacks_window_moved\": %llu, \"engine_data_segs\": %llu, \"engine_pure_acks\": %llu, "
                           "\"engine_measured_seg_bytes\": %.1f, \"app_tx_value\": %.4f, \"engine_wire_busy\": %.4f, \"nagle\": %d, \"transfer_scale\": %llu, %s}\n",
                           TOE_DATA_W, dir, sessions, seg, r.value, r.rx_value, r.tx_value, r.drops,
                           (unsigned long long)r.fast_rexmits, (unsigned long long)r.timeouts, r.eng_rexmit, r.refused,
                           r.left, (unsigned long long)r.dup_wnd, (unsigned long long)r.data_segs,
                           (unsigned long long)r.pure_acks, r.measured_seg_bytes, r.app_tx_value, r.out_wire_busy, int(nagle), (unsigned long long)goodput_scale(),
                           row.spread_json().c_str());
}

// Echo goodput: n sessions to the echo app (port 7), the peer sending 1460-byte segments
// as fast as the windows allow and taking the echo back; value = echoed payload bytes per
// cycle over the payload wire limit; dram_bytes_per_payload_byte = bytes that crossed the
// memory port (reads + writes, whole beats) per payload byte received.
GoodputRun echo_run(Peer& p, size_t sessions, uint16_t base) {
    const uint64_t total = goodput_scale() * std::max<uint64_t>(2000000, sessions * 16384);
    GoodputRun r;
    Flows fl(p, 1460);
    r.refused = fl.open(7, base, sessions, uint32_t(total / sessions + 65536));
    uint32_t drops0 = engine_drops(p);
    uint64_t rd0 = p.sim->mem_rd_beats, wr0 = p.sim->mem_wr_beats;   // memory port beats (probes)
    Meter m{total};
    for (uint64_t end = p.sim.cycles() + patience(total, 1460); !m.t1 && p.sim.cycles() < end;) {
        fl.step();
        m.at(fl.rcvd(), p.sim.cycles());
    }
    uint64_t echoed = fl.rcvd();
    r.dram = echoed ? double((p.sim->mem_rd_beats - rd0) + (p.sim->mem_wr_beats - wr0)) * MEM_BYTES / double(echoed) : 0.0;
    fl.close();
    r.drops = engine_drops(p) - drops0;
    r.left = sessions_in_use(p);
    r.value = m.bytes_per_cycle() / payload_limit(1460);
    r.fast_rexmits = fl.fast_rexmits;
    r.timeouts = fl.timeouts;
    std::printf("  echo  %8zu %6d %8.4f %8u %6llu %5llu        %5u DRAM bytes per payload byte %.2f %s\n", sessions,
                1460, r.value, r.drops, (unsigned long long)r.fast_rexmits, (unsigned long long)r.timeouts, r.left,
                r.dram, r.refused ? ("(" + std::to_string(r.refused) + " refused)").c_str() : "");
    return r;
}

void echo_goodput(Peer& p, FILE* json, size_t sessions, uint16_t base) {
    RowRuns row;
    for (int k = 0; k < (sessions > 1 ? ROW_RUNS : 1); ++k)
        row.runs.push_back(echo_run(p, sessions, uint16_t(base + k * sessions)));
    row.sort();
    row.print_spread();
    const GoodputRun& r = row.median();
    if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"echo_goodput\", \"sessions\": %zu, "
                           "\"value\": %.4f, \"dram_bytes_per_payload_byte\": %.3f, \"drops\": %u, "
                           "\"peer_fast_retransmits\": %llu, \"peer_timeouts\": %llu, \"refused\": %zu, \"sessions_left\": %u, "
                           "\"transfer_scale\": %llu, %s}\n",
                           TOE_DATA_W, sessions, r.value, r.dram, r.drops, (unsigned long long)r.fast_rexmits,
                           (unsigned long long)r.timeouts, r.refused, r.left, (unsigned long long)goodput_scale(),
                           row.spread_json().c_str());
}

// SYN -> SYN-ACK, and RX/TX latency of one connection to the echo app.
void tcp_latency_bench(Peer& p, FILE* json) {
    const uint16_t sport = 40000;
    uint32_t seq = 1000;
    // SYN in -> SYN-ACK out, first with Linux's options (the connection then reset), then
    // with the MSS alone (the row kept since stop 24; the connection the runs below use)
    p.clear();
    p.to_send.push_back(tcp_segment(sport + 1, 7, seq, 0, 0x02, 0, LINUX_SYN_OPTS));
    uint64_t sa_linux = p.until([](const TcpOut& o) { return o.tcp && o.flags == 0x12; }) - p.first_in;
    p.to_send.push_back(tcp_segment(sport + 1, 7, seq + 1, 0, 0x04, 0));
    for (int i = 0; i < 200; ++i) p.step();
    p.clear();
    p.to_send.push_back(tcp_segment(sport, 7, seq, 0, 0x02, 0, MSS_OPT));
    uint64_t sa = p.until([](const TcpOut& o) { return o.tcp && o.flags == 0x12; });
    uint64_t syn_ack = sa - p.first_in;
    uint32_t eng = parse_tcp(p.got.back().second).seq + 1;
    ++seq;
    p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x10, 0));
    for (int i = 0; i < 500; ++i) p.step();
    std::printf("\nTCP (one connection to the echo app; memory reads 100 ns and more, memory clock %s)\n",
                TOE_MEM_CLK_MHZ ? (std::to_string(TOE_MEM_CLK_MHZ) + " MHz").c_str() : "the core clock");
    std::printf("  SYN in -> SYN-ACK out: %llu cycles (Sidler 2015: 176); with Linux's SYN options %llu\n",
                (unsigned long long)syn_ack, (unsigned long long)sa_linux);
    if (json) {
        std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"syn_to_synack_cycles\", \"value\": %llu}\n",
                     TOE_DATA_W, (unsigned long long)syn_ack);
        std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"syn_to_synack_cycles\", \"options\": \"linux\", \"value\": %llu}\n",
                     TOE_DATA_W, (unsigned long long)sa_linux);
    }
    // Each size LATENCY_RUNS times: the memory model's refresh and read jitter fall on a
    // run or not; the median is the figure, min and max beside it.
    constexpr int LATENCY_RUNS = 9;
    std::printf("  %8s %24s %24s\n", "payload", "RX latency (cy) med/min/max", "TX latency (cy) med/min/max");
    for (size_t n : {1, 64, 536, 1460}) {
        std::vector<uint64_t> rxs, txs;
        for (int r = 0; r < LATENCY_RUNS; ++r) {
            p.clear();
            p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x18, n));
            uint64_t out = p.until([&](const TcpOut& o) { return o.tcp && o.len > 0; });
            rxs.push_back(p.app_rx - p.first_in);
            txs.push_back(out - p.app_tx);
            seq += uint32_t(n);
            eng += uint32_t(n);
            p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x10, 0));
            for (int i = 0; i < 2000 + 97 * r; ++i) p.step();   // runs start at other refresh phases
        }
        std::sort(rxs.begin(), rxs.end());
        std::sort(txs.begin(), txs.end());
        uint64_t rx = rxs[LATENCY_RUNS / 2], tx = txs[LATENCY_RUNS / 2];
        std::printf("  %8zu %14llu / %3llu / %3llu %14llu / %3llu / %3llu\n", n, (unsigned long long)rx,
                    (unsigned long long)rxs.front(), (unsigned long long)rxs.back(), (unsigned long long)tx,
                    (unsigned long long)txs.front(), (unsigned long long)txs.back());
        if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"payload\": %zu, "
                               "\"rx_latency_cycles\": %llu, \"tx_latency_cycles\": %llu, \"rx_latency_min\": %llu, "
                               "\"rx_latency_max\": %llu, \"tx_latency_min\": %llu, \"tx_latency_max\": %llu, \"runs\": %d}\n",
                               TOE_DATA_W, n, (unsigned long long)rx, (unsigned long long)tx,
                               (unsigned long long)rxs.front(), (unsigned long long)rxs.back(),
                               (unsigned long long)txs.front(), (unsigned long long)txs.back(), LATENCY_RUNS);
    }

    p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x04, 0));   // frees its session
    for (int i = 0; i < 2000; ++i) p.step();
}

// Goodput against segment size (rx, one session), then rx/tx/both against session count.
void tcp_goodput_bench(Peer& p, FILE* json) {
    std::printf("\nTCP goodput (peer as Linux: slow start, fast retransmit, RTO; ACKs every second\n"
                "segment; both directions paced at the wire rate); value = payload over its wire limit\n");
    std::printf("  %5s %8s %6s %8s %8s %6s %5s %6s %5s %8s %8s\n", "dir", "sessions", "seg", "value", "drops", "fastrx",
                "rto", "eng-rx", "left", "dup-wnd", "eng-ack");
    uint16_t base = 30000;
    for (size_t n : {64, 128, 256, 536, 1024, 1460}) { goodput(p, json, "rx", 1, n, base); base += 1; }
    for (const char* dir : {"rx", "tx", "both"})
        for (size_t sessions : {size_t(1), size_t(64), size_t(1024)}) {
            if (dir[0] != 'r' && sessions > APP_SENDERS) {
                // the pattern source serves APP_SENDERS sessions at once (sender slots)
                std::printf("  %5s %8zu %6d not measured: the example source app has %d sender slots\n", dir,
                            sessions, 1460, APP_SENDERS);
                if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"goodput\", "
                                       "\"direction\": \"%s\", \"sessions\": %zu, \"payload\": 1460, \"value\": null, "
                                       "\"why\": \"the example source app has %d sender slots\"}\n",
                                       TOE_DATA_W, dir, sessions, APP_SENDERS);
                continue;
            }
            if (dir[0] == 'r' && sessions == 1) continue;    // the 1460-byte row of the sweep above
            goodput(p, json, dir, sessions, 1460, base);
            base = uint16_t(base + sessions * (sessions > 1 ? ROW_RUNS : 1));
        }
    // The rows above run with Nagle off, the engine's default (CTRL.nagle, like TCP_NODELAY):
    // the example apps write 2008-byte chunks, and a chunk alone in the ring goes as a full
    // segment and a 548-byte one. With Nagle on (RFC 896, Linux's default) the short tail
    // waits while data is in flight and joins the next chunk. Rows with "nagle": 1.
    std::printf("  with Nagle on (CTRL.nagle):\n");
    const uint32_t ctrl = csr_read(p, toe_csr::REG_CTRL);
    csr_write(p, toe_csr::REG_CTRL, ctrl | TOE_REGS__CTRL__NAGLE_bm);
    for (const char* dir : {"tx", "both"})
        for (size_t sessions : {size_t(64), size_t(1024)}) {
            if (sessions > APP_SENDERS) continue;
            goodput(p, json, dir, sessions, 1460, base, true);
            base = uint16_t(base + sessions * ROW_RUNS);
        }
    csr_write(p, toe_csr::REG_CTRL, ctrl);
}

void tcp_echo_bench(Peer& p, FILE* json) {
    uint16_t base = 50000;
    for (size_t sessions : {size_t(1), size_t(64)}) {
        echo_goodput(p, json, sessions, base);
        base = uint16_t(base + sessions * (sessions > 1 ? ROW_RUNS : 1));
    }
}

// Segment rate: pure ACKs ("ack"), 1-byte ("data1") and 64-byte ("data64") in-order
// segments offered back to back at exactly the wire rate, round robin over N established
// sessions to the discard app. value = segments the engine took per cycle ((offered -
// dropped) / cycles from the first segment's arrival until the engine has worked through
// the last), drops = tcpInOverflows + ethInOverflows. When the engine keeps up, value is
// the wire's own segment rate. The FIFOs in front of the protocol core hold up to about
// 2000 minimum segments at 512 bits (the 256 KB TCP RX FIFO): taken as offered, a
// backlog there would flatter a shortfall. So a drain probe follows the last segment: an
// ACK to a port nobody listens on, which the engine answers with an RST (RFC 9293
// 3.10.7.1) once it has come through every FIFO behind the segments before it. The
// probe's wait beyond its answer time on an idle engine (backlog) is added to the cycles.
void seg_rate_bench(Peer& p, FILE* json) {
    const size_t max_sessions = 1024, offered = 6000;
    const uint16_t probe_sport = 19000, closed_port = 1;   // below the sessions' ports; no listener on 1
    // the sessions, opened as Flows: SND.NXT is the peer's next sequence number, RCV.NXT the engine's
    Flows fl(p, 0);
    size_t refused = fl.open(5001, 20000, max_sessions, 0);
    std::vector<Flow*> conns;
    for (Flow& x : fl.f)
        if (x.port) conns.push_back(&x);
    // The drain probe is answered once the engine has worked through every segment offered
    // before it. A probe may find a full FIFO and be dropped, so one goes every 128 cycles,
    // each from its own port, until an RST answers one. On an idle engine the first is
    // answered (in less than 128 cycles): that is the answer time, `probe_idle`; after a
    // row, the RST's cycle less it is when the engine had drained (late by at most 128).
    struct Probes { uint64_t first_in = 0, rst = 0; size_t sent = 0; };
    auto is_probe_rst = [&](const TcpOut& o, size_t sent) {
        return o.tcp && o.dport >= probe_sport && o.dport < probe_sport + sent && (o.flags & 0x04);
    };
    auto probe = [&]() {
        Probes r;
        size_t seen = p.got.size();
        for (uint64_t next = 0, end = p.sim.cycles() + 200000; p.sim.cycles() < end;) {
            if (p.to_send.empty() && p.sim.cycles() >= next && r.sent < 512) {
                p.to_send.push_back(tcp_segment(uint16_t(probe_sport + r.sent++), closed_port, 1, 1, 0x10, 0));
                next = p.sim.cycles() + 128;
            }
            p.step();
            if (!r.first_in && p.to_send.empty()) r.first_in = p.last_in;
            for (; seen < p.got.size(); ++seen)
                if (is_probe_rst(parse_tcp(p.got[seen].second), r.sent)) { r.rst = p.got[seen].first; return r; }
        }
        std::fprintf(stderr, "toe-bench: no drain probe answered\n");
        std::exit(1);
    };
    p.clear();
    const Probes idle = probe();
    const uint64_t probe_idle = idle.rst - idle.first_in;
    for (int i = 0; i < 2000; ++i) p.step();
    std::printf("\nTCP segment rate: segments offered back to back at the wire rate, round robin over\n"
                "N sessions (%zu opened, %zu refused); per cycle taken, and drops; backlog: cycles the\n"
                "engine took after the last segment's wire time (the drain probe's wait; its idle answer: %llu cycles)\n",
                conns.size(), refused, (unsigned long long)probe_idle);
    if (TOE_TCP_STATE_READ_WAIT)
        std::printf("  session record store: a record fetched ahead or read that is in none of the store's lines\n"
                    "  waits 0..%d cycles more (TCP_STATE_READ_WAIT)\n", TOE_TCP_STATE_READ_WAIT);
    std::printf("  %8s %8s %10s %10s %8s %8s\n", "kind", "sessions", "seg/cycle", "wire", "drops", "backlog");
    struct Kind { const char* name; size_t payload; };
    for (Kind k : {Kind{"ack", 0}, Kind{"data1", 1}, Kind{"data64", 64}}) {
        for (size_t n : {size_t(1), size_t(8), size_t(64), max_sessions}) {
            n = std::min(n, conns.size());
            uint32_t drops0 = engine_drops(p);
            p.clear();
            for (size_t i = 0; i < offered; ++i) {
                Flow& c = *conns[i % n];
                p.to_send.push_back(tcp_segment(c.port, 5001, c.snd_nxt, c.rcv_nxt, k.payload ? 0x18 : 0x10, k.payload));
                c.snd_nxt += uint32_t(k.payload);
            }
            size_t frame = p.to_send.front().size();
            while (!p.to_send.empty()) p.step();
            double cycles = double(p.sim.cycles() - p.first_in - 1) + WirePacer::wire_cycles(frame)
                            - double((frame + W - 1) / W);   // to the end of the last frame's wire time
            const Probes drain = probe();
            double backlog = std::max(double(drain.rst - probe_idle) - (double(p.first_in) + cycles), 0.0);
            for (int i = 0; i < 20000; ++i) p.step();
            size_t answered = 0;   // probes the engine dropped are not the row's drops
            for (const auto& g : p.got) answered += is_probe_rst(parse_tcp(g.second), drain.sent);
            uint32_t drops = engine_drops(p) - drops0 - uint32_t(drain.sent - answered);
            double rate = double(offered - drops) / (cycles + backlog);
            double wire = 1.0 / WirePacer::wire_cycles(frame);
            std::printf("  %8s %8zu %10.4f %10.4f %8u %8.0f\n", k.name, n, rate, wire, drops, backlog);
            if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"seg_rate\", \"kind\": \"%s\", "
                                   "\"sessions\": %zu, \"value\": %.4f, \"wire_value\": %.4f, \"offered\": %zu, \"drops\": %u, "
                                   "\"backlog_cycles\": %.0f, \"state_read_wait\": %d}\n",
                                   TOE_DATA_W, k.name, n, rate, wire, offered, drops, backlog, TOE_TCP_STATE_READ_WAIT);
            if (!k.payload) continue;
            // Dropped data left gaps: learn each session's RCV.NXT from the ACK that an
            // unacceptable segment (sequence number far outside the window) draws.
            for (size_t i = 0; i < n; ++i) {
                Flow& c = *conns[i];
                p.clear();
                p.to_send.push_back(tcp_segment(c.port, 5001, c.snd_nxt + 0x40000000u, c.rcv_nxt, 0x10, 0));
                p.until([&](const TcpOut& o) { return o.tcp && o.dport == c.port && (o.flags & 0x10); });
                for (const auto& g : p.got) {
                    TcpOut o = parse_tcp(g.second);
                    if (o.tcp && o.dport == c.port) c.snd_nxt = o.ack;
                }
            }
        }
    }
    // the engine's RCV.NXT is where the peer is now: reset there, and the ids are free again
    for (Flow* c : conns) c->snd_una = c->snd_nxt;
    fl.reset();
}

// Two engines back to back, A (client app) -> B (discard app), through a modelled wire
// (WirePacer), so goodput is bounded by the real wire limit. Measures SYN -> SYN-ACK at B, the first data byte from
// A's app to B's app, and the goodput of one connection (A's TX path and B's RX path).
struct Wire {
    Sim& from;
    Sim& to;
    WirePacer wire;
    std::vector<uint8_t> frame;
    uint64_t frame_start = 0;
    // Before the edge: A's frame beat onto B's RX port (or the wire is still busy).
    void drive() {
        bool idle = frame.empty() && !wire.free(from.cycles());
        to->s_mac_rx_axis_tvalid = !idle && from->m_mac_tx_axis_tvalid;
        to->s_mac_rx_axis_tdata = from->m_mac_tx_axis_tdata;
        to->s_mac_rx_axis_tkeep = from->m_mac_tx_axis_tkeep;
        to->s_mac_rx_axis_tlast = from->m_mac_tx_axis_tlast;
        to->s_mac_rx_axis_tuser = 0;
        from->m_mac_tx_axis_tready = !idle && to->s_mac_rx_axis_tready;
    }
    // Returns the finished frame (and its first-beat cycle) when this beat ended one.
    bool sample(std::vector<uint8_t>& out, uint64_t& start) {
        if (!(from->m_mac_tx_axis_tvalid && from->m_mac_tx_axis_tready)) return false;
        if (frame.empty()) frame_start = from.cycles();
        for (int i = 0; i < W; ++i)
            if (keep_bit(from->m_mac_tx_axis_tkeep, i)) frame.push_back(get_byte(from->m_mac_tx_axis_tdata, i));
        if (!from->m_mac_tx_axis_tlast) return false;
        wire.start(frame_start, frame.size());
        out = std::move(frame);
        frame.clear();
        start = frame_start;
        return true;
    }
};

void configure(Sim& s, uint32_t mac_lo, uint32_t ip) {
    using namespace toe_csr;
    s.csr_write(REG_MAC_LO, mac_lo);
    s.csr_write(REG_MAC_HI, 0x0200);
    s.csr_write(REG_TCP_RTO_INIT_US, 1000);   // the first SYN goes before ARP has resolved
    s.csr_write(REG_IPV4_ADDR, ip);
}

void two_engine_bench(FILE* json) {
    const uint64_t per_us = TOE_DATA_W == 64 ? 156 : 322;
    Sim a, b;
    configure(a, 0x00000001, 0xC0000201);
    configure(b, 0x00000002, 0xC0000202);
    Wire ab{a, b}, ba{b, a};
    const uint32_t total = 4000000;
    a->client_ip = 0xC0000202;
    a->client_port = 5001;
    a->client_bytes = total;
    uint64_t syn_in = 0, synack_out = 0, first_tx = 0, first_rx = 0, t0 = 0, t1 = 0;
    bool started = false;
    for (uint64_t end = a.cycles() + 60000000; a.cycles() < end && !t1;) {
        a->tick_us = b->tick_us = (a.cycles() % per_us) == 0;
        a->client_start = !started && a->tcp_listening && b->tcp_listening;
        started = started || a->client_start;
        ab.drive();
        ba.drive();
        if (a->tcp_app_tx_beat && !first_tx) first_tx = a.cycles();
        if (b->tcp_app_rx_beat && !first_rx) first_rx = b.cycles();
        std::vector<uint8_t> f;
        uint64_t start;
        if (ab.sample(f, start)) {
            TcpOut o = parse_tcp(f);
            if (o.tcp && o.flags == 0x02) syn_in = start;   // the last (answered) SYN
        }
        if (ba.sample(f, start)) {
            TcpOut o = parse_tcp(f);
            if (o.tcp && o.flags == 0x12 && !synack_out) synack_out = start;
        }
        a.step();
        b.step();
        uint64_t got = b->tcp_discard_bytes;
        if (!t0 && got >= total / 10) t0 = b.cycles();
        if (got >= total) t1 = b.cycles();
    }
    if (!t1 || !synack_out) {
        // a shortfall to report, not a reason to lose the other rows
        uint64_t got = b->tcp_discard_bytes;
        std::printf("\nTCP, two engines back to back: did not finish (%llu of %u bytes in 60 M cycles)\n",
                    (unsigned long long)got, total);
        if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp2\", \"finished\": false, "
                               "\"bytes_delivered\": %llu, \"goodput_1conn_fraction\": null}\n",
                               TOE_DATA_W, (unsigned long long)got);
        return;
    }
    double bpc = double(total - total / 10) / double(t1 - t0);
    double limit = payload_limit(1460);
    std::printf("\nTCP, two engines back to back (A's client app -> B's discard app, wire with IFG)\n");
    std::printf("  SYN in -> SYN-ACK out at B: %llu cycles\n", (unsigned long long)(synack_out - syn_in));
    std::printf("  first data byte, A's app -> B's app: %llu cycles\n", (unsigned long long)(first_rx - first_tx));
    std::printf("  goodput, 1 connection, A -> B, MSS 1460: %.2f bytes/cycle = %.1f%% of the wire limit\n",
                bpc, 100 * bpc / limit);
    if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp2\", \"syn_to_synack_cycles\": %llu, "
                           "\"app_to_app_first_byte_cycles\": %llu, \"goodput_1conn_fraction\": %.4f, "
                           "\"bytes_per_cycle\": %.3f}\n", TOE_DATA_W,
                           (unsigned long long)(synack_out - syn_in), (unsigned long long)(first_rx - first_tx),
                           bpc / limit, bpc);
}

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    FILE* json = argc > 1 ? std::fopen(argv[1], "w") : nullptr;
    // BENCH_ONLY=seg_rate,goodput (any of icmp_udp, seg_rate, latency, goodput, tcp_echo,
    // two_engines): only those parts
    const char* only = std::getenv("BENCH_ONLY");
    auto wanted = [only](const char* part) { return !only || std::strstr(only, part) != nullptr; };
    Sim sim;
    using namespace toe_csr;
    sim.csr_write(REG_MAC_LO, 0x00000002);
    sim.csr_write(REG_MAC_HI, 0x0200);
    sim.csr_write(REG_IPV4_ADDR, 0xC0000202);
    for (int i = 0; i < 100; ++i) sim.step();
    Peer p(sim);
    run(p, {arp_request()}, 2);   // gratuitous ARP + reply; the engine learns our MAC
    while (!sim->udp_echo_listening) p.step();

    std::printf("DATA_W=%d  (wire limit %.2f bytes/cycle)\n", TOE_DATA_W, WIRE_BYTES_PER_CYCLE);
    std::printf("%-5s %5s %6s %6s %8s %10s %9s\n", "proto", "frame", "in", "out", "cycles",
                "line-rate", "latency");
    for (bool udp : {false, true}) {
        if (!wanted("icmp_udp")) break;
        for (size_t wire_len : {64, 512, 1518}) {
            size_t len = wire_len - 4;
            const size_t n = wire_len < 1000 ? 400 : 100;
            std::vector<std::vector<uint8_t>> reqs(n, request(udp, len));
            for (int i = 0; i < 200; ++i) p.step();
            Result lat = run(p, {request(udp, len)}, 1);
            for (int i = 0; i < 200; ++i) p.step();
            Result r = run(p, reqs, n);
            // Steady state: replies per cycle from the first reply's first byte to the last
            // one's (the pipeline fill is not charged to the rate), over the wire's frame rate.
            uint64_t cycles = r.last_out - r.first_out;
            double fraction = r.out > 1 ? (double(r.out - 1) / double(cycles)) * WirePacer::wire_cycles(len)
                                        : 0.0;
            uint64_t latency = lat.out ? lat.first_out - lat.first_in : 0;
            std::printf("%-5s %5zu %6llu %6llu %8llu %9.1f%% %6llu cy\n", udp ? "udp" : "icmp", wire_len,
                        (unsigned long long)r.in, (unsigned long long)r.out,
                        (unsigned long long)cycles, 100 * fraction, (unsigned long long)latency);
            if (json)
                std::fprintf(json, "{\"data_w\": %d, \"proto\": \"%s\", \"frame_bytes\": %zu, "
                             "\"frames_in\": %llu, \"frames_out\": %llu, \"cycles\": %llu, "
                             "\"line_rate_fraction\": %.4f, \"latency_cycles\": %llu}\n",
                             TOE_DATA_W, udp ? "udp" : "icmp", wire_len, (unsigned long long)r.in,
                             (unsigned long long)r.out, (unsigned long long)cycles, fraction,
                             (unsigned long long)latency);
        }
    }
    while (!sim->tcp_listening) p.step();
    // TCP clears its session tables after reset (about MAX_SESSIONS cycles): a SYN before
    // that waits, and would add the wait to the handshake's latency
    while (!(csr_read(p, toe_csr::REG_STATUS) & TOE_REGS__STATUS__TCP_READY_bm)) p.step();
    if (wanted("seg_rate")) seg_rate_bench(p, json);    // first, while every session id is free
    if (wanted("latency")) tcp_latency_bench(p, json);
    if (wanted("goodput")) tcp_goodput_bench(p, json);
    if (wanted("tcp_echo")) tcp_echo_bench(p, json);
    if (wanted("two_engines")) two_engine_bench(json);
    if (json) std::fclose(json);
    return 0;
}
