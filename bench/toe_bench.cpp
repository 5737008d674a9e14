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
            int n = std::min<int>(W, int(f.size() - off));
            set_beat(sim->s_mac_rx_axis_tdata, f.data() + off, n);
            set_keep(sim->s_mac_rx_axis_tkeep, n);
            sim->s_mac_rx_axis_tlast = off + n >= f.size();
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

    const double wire_bytes_per_cycle = TOE_DATA_W == 64 ? 10e9 / 8 / 156.25e6 : 100e9 / 8 / 322e6;
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
    if (json) std::fclose(json);
    return 0;
}
