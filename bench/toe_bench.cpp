// SPDX-License-Identifier: Apache-2.0
// toe-bench: cycle-accurate benchmark of toe_sim_top (engine + UDP echo app) at one
// DATA_W. For ICMP echo and UDP echo with Ethernet frames of 64, 512 and 1518 bytes
// (incl. FCS; frames on the MAC port exclude it): offers N requests back to back (the MAC
// port never idles) with the reply port always ready, and reports frames in/out, the
// cycles from the end of the first reply to the end of the last (steady state), the
// achieved frame rate as a fraction of the wire limit (frame + FCS + preamble + IFG
// = L + 24 bytes at 10G for 64 bits / 156.25 MHz, 100G for 512 bits / 322 MHz), and the
// latency in cycles from the first byte of a request into an idle engine to the first
// byte of its reply. Prints a table and writes one JSON object per line to stdout's
// companion file given as argv[1].
#include <algorithm>
#include <deque>
#include <string>
#include <cstdio>
#include <vector>

#include "toe_csr_map.h"
#include "toe_sim_model.h"

namespace {

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

struct Result { uint64_t in = 0, out = 0, first_in = 0, first_out = 0, first_end = 0, last_out = 0; };

// Offer `frames` back to back; run until all replies are out (or a time limit).
Result run(Sim& sim, const std::vector<std::vector<uint8_t>>& frames, size_t expect_out) {
    Result r;
    size_t fi = 0, off = 0;
    bool tx_first = true;
    uint64_t limit = sim.cycles() + 2000000;
    r.first_in = sim.cycles();
    while ((r.out < expect_out || fi < frames.size()) && sim.cycles() < limit) {
        sim->tick_us = 0;
        if (fi < frames.size()) {
            const auto& f = frames[fi];
            sim->s_mac_rx_axis_tlast = put_beat(sim->s_mac_rx_axis_tdata, sim->s_mac_rx_axis_tkeep, f, off);
            sim->s_mac_rx_axis_tvalid = 1;
        } else {
            sim->s_mac_rx_axis_tvalid = 0;
        }
        sim->s_mac_rx_axis_tuser = 0;
        sim->m_mac_tx_axis_tready = 1;
        bool rx_take = sim->s_mac_rx_axis_tvalid && sim->s_mac_rx_axis_tready;
        bool tx_take = sim->m_mac_tx_axis_tvalid;
        if (tx_take && tx_first) { if (r.out == 0) r.first_out = sim.cycles(); tx_first = false; }
        if (tx_take && sim->m_mac_tx_axis_tlast) {
            if (r.out == 0) r.first_end = sim.cycles();
            ++r.out; tx_first = true; r.last_out = sim.cycles();
        }
        sim.step();
        if (rx_take) {
            off += W;
            if (off >= frames[fi].size()) { ++fi; off = 0; ++r.in; }
        }
    }
    return r;
}

// ---------------- TCP ----------------

// A TCP segment from the peer (192.0.2.1) to the engine, padded to the 60-byte minimum.
std::vector<uint8_t> tcp_segment(uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
                                 uint8_t flags, size_t n, bool mss_opt = false) {
    size_t opt = mss_opt ? 4 : 0, tcp_len = 20 + opt + n, ip_len = 20 + tcp_len;
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
    if (mss_opt) { t[20] = 2; t[21] = 4; put16(t + 22, 1460); }
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
// and records engine frames and the cycles of the first app RX/TX beats and of the first
// byte of each engine frame.
struct Peer {
    Sim& sim;
    std::deque<std::vector<uint8_t>> to_send;
    std::vector<uint8_t> cur_out;
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> got;   // (first-byte cycle, frame)
    uint64_t out_start = 0, first_in = 0, app_rx = 0, app_tx = 0;
    size_t off = 0;
    WirePacer wire;
    explicit Peer(Sim& s) : sim(s) {}
    void step() {
        sim->tick_us = (sim.cycles() % (TOE_DATA_W == 64 ? 156 : 322)) == 0;
        if (!to_send.empty() && (off > 0 || wire.free(sim.cycles()))) {
            const auto& f = to_send.front();
            sim->s_mac_rx_axis_tlast = put_beat(sim->s_mac_rx_axis_tdata, sim->s_mac_rx_axis_tkeep, f, off);
            sim->s_mac_rx_axis_tvalid = 1;
        } else sim->s_mac_rx_axis_tvalid = 0;
        sim->s_mac_rx_axis_tuser = 0;
        sim->m_mac_tx_axis_tready = 1;
        bool rx_take = sim->s_mac_rx_axis_tvalid && sim->s_mac_rx_axis_tready;
        if (rx_take && off == 0) {
            if (!first_in) first_in = sim.cycles();
            wire.start(sim.cycles(), to_send.front().size());
        }
        if (sim->tcp_app_rx_beat && !app_rx) app_rx = sim.cycles();
        if (sim->tcp_app_tx_beat && !app_tx) app_tx = sim.cycles();
        if (sim->m_mac_tx_axis_tvalid) {
            if (cur_out.empty()) out_start = sim.cycles();
            for (int i = 0; i < W; ++i)
                if (keep_bit(sim->m_mac_tx_axis_tkeep, i)) cur_out.push_back(get_byte(sim->m_mac_tx_axis_tdata, i));
            if (sim->m_mac_tx_axis_tlast) { got.emplace_back(out_start, std::move(cur_out)); cur_out.clear(); }
        }
        sim.step();
        if (rx_take) {
            off += W;
            if (off >= to_send.front().size()) { to_send.pop_front(); off = 0; }
        }
    }
    void clear() { got.clear(); first_in = app_rx = app_tx = 0; }
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

// Goodput into the discard app: segments of `n` bytes as fast as the window allows, on a
// new connection from `port`. Drops (the engine's input FIFO overflows when it cannot
// keep up) are recovered by going back to the first unacknowledged byte after 2000
// cycles without progress, and counted.
void goodput_rx(Peer& p, FILE* json, uint16_t gport, size_t n, double wire_bytes_per_cycle) {
    Sim& sim = p.sim;
    uint32_t gseq = 5000;
    p.clear();
    p.to_send.push_back(tcp_segment(gport, 5001, gseq, 0, 0x02, 0, true));
    p.until([](const TcpOut& o) { return o.tcp && o.flags == 0x12; });
    uint32_t geng = parse_tcp(p.got.back().second).seq + 1;
    ++gseq;
    p.to_send.push_back(tcp_segment(gport, 5001, gseq, geng, 0x10, 0));
    const uint32_t start = gseq, total = uint32_t(std::min<size_t>(4000000, 3000 * n));
    const uint32_t seg = uint32_t(n);
    uint32_t acked = gseq, wnd = 65535;
    uint64_t bytes0 = sim->tcp_discard_bytes, t0 = 0, t1 = 0, progress = sim.cycles(), resends = 0;
    size_t seen = 0;
    for (uint64_t end = sim.cycles() + 40000000; sim.cycles() < end;) {
        while (p.to_send.size() < 2 && gseq - start < total && gseq + seg - acked <= wnd) {
            p.to_send.push_back(tcp_segment(gport, 5001, gseq, geng, 0x10, seg));
            gseq += seg;
        }
        p.step();
        for (; seen < p.got.size(); ++seen) {
            TcpOut o = parse_tcp(p.got[seen].second);
            if (o.tcp && int32_t(o.ack - acked) > 0) { acked = o.ack; progress = sim.cycles(); }
            if (o.tcp) wnd = o.win;
        }
        if (gseq != acked && sim.cycles() - progress > 2000) {
            gseq = acked;
            progress = sim.cycles();
            ++resends;
        }
        uint64_t delivered = sim->tcp_discard_bytes - bytes0;
        if (!t0 && delivered >= total / 10) t0 = sim.cycles();
        if (delivered >= total) { t1 = sim.cycles(); break; }
    }
    if (!t1) { std::fprintf(stderr, "toe-bench: goodput run (%zu-byte segments) did not finish (delivered %llu, sent %u, acked %u, window %u)\n", n, (unsigned long long)(sim->tcp_discard_bytes - bytes0), gseq - start, acked - start, wnd); std::exit(1); }
    // FIN, so the session does not linger
    p.to_send.push_back(tcp_segment(gport, 5001, gseq, geng, 0x11, 0));
    for (int i = 0; i < 2000; ++i) p.step();
    double bpc = double(total - total / 10) / double(t1 - t0);
    double limit = wire_bytes_per_cycle * double(n) / double(std::max<size_t>(n + 54, 60) + 24);
    std::printf("  %8zu %8.2f bytes/cycle = %5.1f%% of the wire limit (%llu go-back-N resends after drops)\n",
                n, bpc, 100 * bpc / limit, (unsigned long long)resends);
    if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"goodput\", \"direction\": \"rx\", "
                           "\"sessions\": 1, \"payload\": %zu, \"value\": %.4f, \"bytes_per_cycle\": %.3f, \"resends\": %llu}\n",
                           TOE_DATA_W, n, bpc / limit, bpc, (unsigned long long)resends);
}

void tcp_bench(Sim& sim, FILE* json, double wire_bytes_per_cycle) {
    Peer p(sim);
    const uint16_t sport = 40000;
    uint32_t seq = 1000;
    // SYN in -> SYN-ACK out.
    p.to_send.push_back(tcp_segment(sport, 7, seq, 0, 0x02, 0, true));
    uint64_t sa = p.until([](const TcpOut& o) { return o.tcp && o.flags == 0x12; });
    uint64_t syn_ack = sa - p.first_in;
    uint32_t eng = parse_tcp(p.got.back().second).seq + 1;
    ++seq;
    p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x10, 0));
    for (int i = 0; i < 500; ++i) p.step();
    std::printf("\nTCP (one connection to the echo app, memory read latency %d cycles)\n",
                TOE_DATA_W == 64 ? 16 : 32);
    std::printf("  SYN in -> SYN-ACK out: %llu cycles (Sidler 2015: 176)\n", (unsigned long long)syn_ack);
    if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"syn_to_synack_cycles\", \"value\": %llu}\n",
                           TOE_DATA_W, (unsigned long long)syn_ack);
    std::printf("  %8s %18s %18s\n", "payload", "RX latency (cy)", "TX latency (cy)");
    for (size_t n : {1, 64, 536, 1460}) {
        p.clear();
        p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x18, n));
        uint64_t out = p.until([&](const TcpOut& o) { return o.tcp && o.len > 0; });
        uint64_t rx = p.app_rx - p.first_in, tx = out - p.app_tx;
        seq += uint32_t(n);
        eng += uint32_t(n);
        p.to_send.push_back(tcp_segment(sport, 7, seq, eng, 0x10, 0));
        for (int i = 0; i < 2000; ++i) p.step();
        std::printf("  %8zu %18llu %18llu\n", n, (unsigned long long)rx, (unsigned long long)tx);
        if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"payload\": %zu, "
                               "\"rx_latency_cycles\": %llu, \"tx_latency_cycles\": %llu}\n",
                               TOE_DATA_W, n, (unsigned long long)rx, (unsigned long long)tx);
    }

    std::printf("  %8s %22s\n", "segment", "goodput peer -> engine");
    for (size_t n : {64, 128, 256, 536, 1024, 1460}) goodput_rx(p, json, uint16_t(40001 + n), n, wire_bytes_per_cycle);
}

// Segment rate: pure ACKs ("ack"), 1-byte ("data1") and 64-byte ("data64") in-order
// segments offered back to back at exactly the wire rate, round robin over N established
// sessions to the discard app. value = segments the engine took per cycle while they were
// offered ((offered - dropped) / cycles from the first to the end of the last), drops =
// tcpInOverflows + ethInOverflows. When the engine keeps up, value is the wire's own
// segment rate; the FIFOs in front of the protocol core (about 250 minimum frames) can
// flatter a shortfall by at most their depth over the 6000 segments offered.
struct Conn { uint16_t port; uint32_t seq, eng; };

uint32_t read_counter(Peer& p, const char* name) {
    for (int i = 0; i < 4; ++i) p.step();          // the MAC port is idle while csr_read steps
    for (unsigned i = 0; i < toe_csr::N_COUNTERS; ++i)
        if (std::string(toe_csr::COUNTER_NAMES[i]) == name) return p.sim.csr_read(toe_csr::COUNTER_BASE + 4 * i);
    std::fprintf(stderr, "toe-bench: no counter %s\n", name);
    std::exit(1);
}

void seg_rate_bench(Peer& p, FILE* json) {
    const size_t max_sessions = 512, offered = 6000;
    std::vector<Conn> conns;
    size_t refused = 0;
    for (size_t i = 0; i < max_sessions; ++i) {
        Conn c{uint16_t(20000 + i), 1000, 0};
        p.clear();
        p.to_send.push_back(tcp_segment(c.port, 5001, c.seq, 0, 0x02, 0, true));
        if (!p.until([&](const TcpOut& o) { return o.tcp && o.dport == c.port && o.flags == 0x12; }, 5000, false)) {
            ++refused;
            continue;
        }
        for (const auto& g : p.got) {
            TcpOut o = parse_tcp(g.second);
            if (o.tcp && o.dport == c.port && o.flags == 0x12) c.eng = o.seq + 1;
        }
        ++c.seq;
        p.to_send.push_back(tcp_segment(c.port, 5001, c.seq, c.eng, 0x10, 0));
        conns.push_back(c);
    }
    for (int i = 0; i < 2000; ++i) p.step();
    std::printf("\nTCP segment rate: segments offered back to back at the wire rate, round robin over\n"
                "N sessions (%zu opened, %zu refused); per cycle taken, and drops\n", conns.size(), refused);
    std::printf("  %8s %8s %10s %10s %8s\n", "kind", "sessions", "seg/cycle", "wire", "drops");
    struct Kind { const char* name; size_t payload; };
    for (Kind k : {Kind{"ack", 0}, Kind{"data1", 1}, Kind{"data64", 64}}) {
        for (size_t n : {size_t(1), size_t(8), size_t(64), max_sessions}) {
            n = std::min(n, conns.size());
            uint32_t drops0 = read_counter(p, "tcpInOverflows") + read_counter(p, "ethInOverflows");
            p.clear();
            for (size_t i = 0; i < offered; ++i) {
                Conn& c = conns[i % n];
                p.to_send.push_back(tcp_segment(c.port, 5001, c.seq, c.eng, k.payload ? 0x18 : 0x10, k.payload));
                c.seq += uint32_t(k.payload);
            }
            size_t frame = p.to_send.front().size();
            while (!p.to_send.empty()) p.step();
            double cycles = double(p.sim.cycles() - p.first_in - 1) + double(frame + 24) / WIRE_BYTES_PER_CYCLE
                            - double((frame + W - 1) / W);   // to the end of the last frame's wire time
            for (int i = 0; i < 20000; ++i) p.step();
            uint32_t drops = read_counter(p, "tcpInOverflows") + read_counter(p, "ethInOverflows") - drops0;
            double rate = double(offered - drops) / cycles;
            double wire = WIRE_BYTES_PER_CYCLE / double(frame + 24);
            std::printf("  %8s %8zu %10.4f %10.4f %8u\n", k.name, n, rate, wire, drops);
            if (json) std::fprintf(json, "{\"data_w\": %d, \"proto\": \"tcp\", \"metric\": \"seg_rate\", \"kind\": \"%s\", "
                                   "\"sessions\": %zu, \"value\": %.4f, \"wire_value\": %.4f, \"offered\": %zu, \"drops\": %u}\n",
                                   TOE_DATA_W, k.name, n, rate, wire, offered, drops);
            if (!k.payload) continue;
            // Dropped data left gaps: learn each session's RCV.NXT from the ACK that an
            // unacceptable segment (sequence number far outside the window) draws.
            for (size_t i = 0; i < n; ++i) {
                Conn& c = conns[i];
                p.clear();
                p.to_send.push_back(tcp_segment(c.port, 5001, c.seq + 0x40000000u, c.eng, 0x10, 0));
                p.until([&](const TcpOut& o) { return o.tcp && o.dport == c.port && (o.flags & 0x10); });
                for (const auto& g : p.got) {
                    TcpOut o = parse_tcp(g.second);
                    if (o.tcp && o.dport == c.port) c.seq = o.ack;
                }
            }
        }
    }
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

void two_engine_bench(FILE* json, double wire_bytes_per_cycle) {
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
    if (!t1 || !synack_out) { std::fprintf(stderr, "toe-bench: two-engine run did not finish\n"); std::exit(1); }
    double bpc = double(total - total / 10) / double(t1 - t0);
    double limit = wire_bytes_per_cycle * 1460.0 / (1460 + 54 + 24);
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
    Sim sim;
    using namespace toe_csr;
    sim.csr_write(REG_MAC_LO, 0x00000002);
    sim.csr_write(REG_MAC_HI, 0x0200);
    sim.csr_write(REG_IPV4_ADDR, 0xC0000202);
    for (int i = 0; i < 100; ++i) sim.step();
    run(sim, {arp_request()}, 2);   // gratuitous ARP + reply; the engine learns our MAC
    while (!sim->udp_echo_listening) sim.step();

    const double wire_bytes_per_cycle = WIRE_BYTES_PER_CYCLE;
    std::printf("DATA_W=%d  (wire limit %.2f bytes/cycle)\n", TOE_DATA_W, wire_bytes_per_cycle);
    std::printf("%-5s %5s %6s %6s %8s %10s %9s\n", "proto", "frame", "in", "out", "cycles",
                "line-rate", "latency");
    for (bool udp : {false, true}) {
        for (size_t wire_len : {64, 512, 1518}) {
            size_t len = wire_len - 4;
            const size_t n = wire_len < 1000 ? 400 : 100;
            std::vector<std::vector<uint8_t>> reqs(n, request(udp, len));
            for (int i = 0; i < 200; ++i) sim.step();
            Result lat = run(sim, {request(udp, len)}, 1);
            for (int i = 0; i < 200; ++i) sim.step();
            Result r = run(sim, reqs, n);
            // Steady state: the replies after the first, over the cycles they took (so the
            // pipeline and store-and-forward fill is not charged to the rate).
            uint64_t cycles = r.last_out - r.first_end;
            double fraction = (double(r.out - 1) / cycles) / (wire_bytes_per_cycle / (wire_len + 20));
            uint64_t latency = lat.first_out - lat.first_in;
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
    while (!sim->tcp_listening) sim.step();
    tcp_bench(sim, json, wire_bytes_per_cycle);
    {
        Peer p(sim);
        seg_rate_bench(p, json);
    }
    two_engine_bench(json, wire_bytes_per_cycle);
    if (json) std::fclose(json);
    return 0;
}
