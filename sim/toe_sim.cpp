// SPDX-License-Identifier: Apache-2.0
// toe-sim: runs toe_sim_top (the engine plus its built-in applications) under Verilator
// and bridges its MAC port to a Linux TAP device, so that the kernel and ordinary tools
// are its peers. Engine time (tick_us) follows wall-clock time; frames from Linux enter
// no faster than the wire (10G at 64 bits, 100G at 512 bits, with IFG), from a buffer
// that holds a frame --rx-queue-ms at most (see there). Runs until SIGINT or SIGTERM, then
// prints the engine's counters. See --help.
// Engine time: see WallClock in toe_tap.h.
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <memory>
#include <string>
#include <vector>

#include "toe_csr_map.h"
#include "toe_impair.h"
#include "toe_sim_model.h"
#include "toe_tap.h"

namespace {

volatile sig_atomic_t g_stop = 0, g_report = 0, g_client = 0;
void on_signal(int) { g_stop = 1; }
void on_report(int) { g_report = 1; }
void on_client(int) { g_client = 1; }

const char* const CLIENT_STATES[] = {"idle", "connecting", "sending", "closing", "closed", "reset", "failed", "?"};

struct Options {
    std::string tap = "toe0";
    std::string ip = "192.0.2.2/24";
    std::string mac = "02:00:00:00:00:02";
    std::string gateway = "0.0.0.0";
    std::string pcap;
    std::string fst;
    std::string connect;                                  // IP:PORT of the client app
    uint32_t send_bytes = 1000000;
    std::vector<std::pair<uint32_t, uint32_t>> csr_sets;  // --set
    Impairment::Spec impair_rx, impair_tx;                // --impair
    uint64_t seed = 0;                                    // --seed (0: random)
    uint64_t rx_queue_us = RX_QUEUE_MAX_WAIT_US;          // --rx-queue-ms (0: unbounded)
};


void usage() {
    std::printf(
        "toe-sim: the OpenTOE engine (DATA_W=%d) on a Linux TAP device\n"
        "  --tap IFNAME      TAP device to open, created if missing (default toe0)\n"
        "  --ip ADDR/PREFIX  engine IPv4 address (default 192.0.2.2/24)\n"
        "  --mac MAC         engine MAC address (default 02:00:00:00:00:02)\n"
        "  --gateway ADDR    default gateway (default none)\n"
        "  --pcap FILE       write every frame at the engine's MAC port, both directions, to\n"
        "                    a pcap file (after the rx impairments, before the tx ones; frames\n"
        "                    from Linux as they enter the input buffer)\n"
        "  --fst FILE        write an FST waveform (large and slow: for short runs)\n"
        "  --connect IP:PORT the TCP client app's peer; SIGUSR2 starts it (again)\n"
        "  --send BYTES      bytes the client sends, then it closes (default 1000000)\n"
        "  --set REG=VALUE   write a configuration register after reset, e.g.\n"
        "                    --set TCP_TIME_WAIT_US=1000000 (names: docs/registers.md);\n"
        "                    TCP_ISN_KEY0..3 are random per run unless set\n"
        "  --impair DIR:SPEC impair frames into (rx) or out of (tx) the engine, e.g.\n"
        "                    --impair rx:loss=1%%,dup=5%%,corrupt=1%%,reorder=25%%:1ms\n"
        "                    (counters printed on exit; may be given once per direction)\n"
        "  --seed N          seed of the impairments and the ISN key (default: random,\n"
        "                    printed at start so that a run can be repeated)\n"
        "  --rx-queue-ms N   frames from Linux that waited N ms for the engine's wire are\n"
        "                    dropped (default 1000: TCP's initial RTO; 0: never). The wire\n"
        "                    is slow in wall-clock time (the simulation is), and an unbounded\n"
        "                    buffer delivered SYNs tens of seconds old (toe_tap.h)\n"
        "  --help            this text\n"
        "Built-in apps: UDP echo 7; TCP echo 7, discard/iperf sink 5001, pattern source 19\n"
        "(byte n of the stream is n mod 251), and the client (same pattern).\n"
        "Runs until SIGINT/SIGTERM, then prints the engine's counters. SIGUSR1 prints a status\n"
        "line: tcpCurrEstab N tcpSessionsInUse N client STATE sent BYTES discarded BYTES.\n", TOE_DATA_W);
}

[[noreturn]] void die(const char* what) {
    std::fprintf(stderr, "toe-sim: %s: %s\n", what, std::strerror(errno));
    std::exit(1);
}

uint32_t parse_ip(const std::string& s) {
    in_addr a{};
    if (inet_pton(AF_INET, s.c_str(), &a) != 1) {
        std::fprintf(stderr, "toe-sim: bad IPv4 address '%s'\n", s.c_str());
        std::exit(2);
    }
    return ntohl(a.s_addr);
}

uint64_t parse_mac(const std::string& s) {
    unsigned b[6];
    if (std::sscanf(s.c_str(), "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6) {
        std::fprintf(stderr, "toe-sim: bad MAC address '%s'\n", s.c_str());
        std::exit(2);
    }
    uint64_t m = 0;
    for (unsigned x : b) m = (m << 8) | (x & 0xFF);
    return m;
}

// --set NAME=VALUE -> {register offset, value}
std::pair<uint32_t, uint32_t> parse_set(const std::string& s) {
    size_t eq = s.find('=');
    if (eq != std::string::npos)
        for (const auto& r : toe_csr::CONFIG_REGS)
            if (s.compare(0, eq, r.name) == 0 && std::strlen(r.name) == eq)
                return {r.offset, uint32_t(std::strtoul(s.c_str() + eq + 1, nullptr, 0))};
    std::fprintf(stderr, "toe-sim: bad --set '%s': want NAME=VALUE with a register of docs/registers.md\n", s.c_str());
    std::exit(2);
}

void parse_impair(const std::string& s, Options& o) {
    std::string err;
    size_t colon = s.find(':');
    std::string dir = s.substr(0, colon);
    Impairment::Spec* spec = dir == "rx" ? &o.impair_rx : dir == "tx" ? &o.impair_tx : nullptr;
    if (!spec || colon == std::string::npos) err = "want rx:SPEC or tx:SPEC";
    else Impairment::parse(s.substr(colon + 1), *spec, err);
    if (!err.empty()) {
        std::fprintf(stderr, "toe-sim: bad --impair '%s': %s\n", s.c_str(), err.c_str());
        std::exit(2);
    }
}

class Pcap {
  public:
    explicit Pcap(const std::string& path) {
        if (path.empty()) return;
        f_ = std::fopen(path.c_str(), "wb");
        if (!f_) die("open pcap");
        const uint32_t hdr[] = {0xA1B2C3D4, 0x00040002, 0, 0, 65535, 1};   // Ethernet
        std::fwrite(hdr, 1, 24, f_);
    }
    ~Pcap() { if (f_) std::fclose(f_); }
    void write(const std::vector<uint8_t>& frame) {
        if (!f_) return;
        timeval tv{};
        gettimeofday(&tv, nullptr);
        const uint32_t rec[] = {uint32_t(tv.tv_sec), uint32_t(tv.tv_usec), uint32_t(frame.size()),
                                uint32_t(frame.size())};
        std::fwrite(rec, 1, 16, f_);
        std::fwrite(frame.data(), 1, frame.size(), f_);
        std::fflush(f_);
    }
  private:
    FILE* f_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "toe-sim: %s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") { usage(); return 0; }
        else if (a == "--tap") o.tap = next();
        else if (a == "--ip") o.ip = next();
        else if (a == "--mac") o.mac = next();
        else if (a == "--gateway") o.gateway = next();
        else if (a == "--pcap") o.pcap = next();
        else if (a == "--fst") o.fst = next();
        else if (a == "--connect") o.connect = next();
        else if (a == "--send") o.send_bytes = uint32_t(std::stoul(next(), nullptr, 0));
        else if (a == "--set") o.csr_sets.push_back(parse_set(next()));
        else if (a == "--impair") parse_impair(next(), o);
        else if (a == "--seed") o.seed = std::stoull(next(), nullptr, 0);
        else if (a == "--rx-queue-ms") o.rx_queue_us = 1000 * std::stoull(next(), nullptr, 0);
        else { std::fprintf(stderr, "toe-sim: unknown option %s (see --help)\n", a.c_str()); return 2; }
    }
    size_t slash = o.ip.find('/');
    int prefix = slash == std::string::npos ? 24 : std::atoi(o.ip.c_str() + slash + 1);
    uint32_t ip = parse_ip(o.ip.substr(0, slash));
    uint32_t mask = prefix == 0 ? 0 : ~uint32_t(0) << (32 - prefix);
    uint64_t mac = parse_mac(o.mac);

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGUSR1, on_report);
    int tap = open_tap(o.tap);
    Pcap pcap(o.pcap);
    Sim sim(o.fst);

    using namespace toe_csr;
    sim.csr_write(REG_MAC_LO, uint32_t(mac));
    sim.csr_write(REG_MAC_HI, uint32_t(mac >> 32));
    sim.csr_write(REG_IPV4_NETMASK, mask);
    sim.csr_write(REG_IPV4_GATEWAY, parse_ip(o.gateway));
    if (o.seed == 0) o.seed = std::random_device{}() | uint64_t(std::random_device{}()) << 32;
    std::mt19937_64 key_rng(o.seed ^ 0x15E15E15E15EULL);
    for (uint32_t reg : {REG_TCP_ISN_KEY0, REG_TCP_ISN_KEY1, REG_TCP_ISN_KEY2, REG_TCP_ISN_KEY3})
        sim.csr_write(reg, uint32_t(key_rng()));             // --set TCP_ISN_KEYn overrides it
    for (auto [reg, value] : o.csr_sets) sim.csr_write(reg, value);
    Impairment impair_rx(o.impair_rx, o.seed), impair_tx(o.impair_tx, o.seed + 1);
    sim.csr_write(REG_IPV4_ADDR, ip);
    if (!o.connect.empty()) {
        size_t colon = o.connect.rfind(':');
        if (colon == std::string::npos) { std::fprintf(stderr, "toe-sim: --connect wants IP:PORT\n"); return 2; }
        sim->client_ip = parse_ip(o.connect.substr(0, colon));
        sim->client_port = uint16_t(std::atoi(o.connect.c_str() + colon + 1));
        sim->client_bytes = o.send_bytes;
        signal(SIGUSR2, on_client);
    }
    std::printf("toe-sim: DATA_W=%d tap=%s ip=%s mac=%s seed=%llu ready\n", TOE_DATA_W, o.tap.c_str(),
                o.ip.c_str(), o.mac.c_str(), (unsigned long long)o.seed);
    std::fflush(stdout);

    MacRxQueue rx_queue;
    std::vector<uint8_t> tx_frame;
    std::vector<Impairment::Frame> passed;   // frames through an impairment stage
    uint64_t frames_in = 0, frames_out = 0, frames_lost = 0, frames_stale = 0, idle_cycles = 0;
    WallClock clock;
    auto to_engine = [&](uint64_t now_us) {
        impair_rx.release(now_us, passed);
        for (auto& f : passed) {
            pcap.write(f);
            rx_queue.push(std::move(f), now_us);
        }
        passed.clear();
    };
    auto to_linux = [&] {
        for (auto& f : passed) frames_lost += !write_frame(tap, f);
        passed.clear();
    };

    sim->m_mac_tx_axis_tready = 1;
    // One clock cycle with both MAC ports driven and watched. Register reads step through
    // it too: a read that stepped the bare simulation would lose the TX beats of its cycles
    // and repeat an RX beat into the engine.
    auto cycle = [&] {
        // Frames from Linux: poll the TAP every 64 cycles, and sleep in poll() when idle.
        uint64_t now_us = clock.now_us();
        if ((sim.cycles() & 63) == 0) {
            read_frames(tap, idle_cycles > 20000 ? 1 : 0,
                        [&](std::vector<uint8_t> f) { impair_rx.offer(std::move(f), now_us, passed); });
            to_engine(now_us);
            if (o.rx_queue_us) frames_stale += rx_queue.drop_older_than(now_us, o.rx_queue_us);
            impair_tx.release(now_us, passed);
            to_linux();
        }
        sim->tick_us = clock.tick(now_us, [&](uint32_t us) { sim.jump_tcp_clock_us(us); });

        // Drive the MAC RX port, no faster than the wire.
        rx_queue.drive(*sim.operator->(), sim.cycles());
        bool busy = rx_queue.busy() || impair_rx.holding() || impair_tx.holding();
        // Sample handshakes before the edge.
        bool rx_take = sim->s_mac_rx_axis_tvalid && sim->s_mac_rx_axis_tready;
        bool tx_take = sim->m_mac_tx_axis_tvalid && sim->m_mac_tx_axis_tready;
        if (tx_take) {
            busy = true;
            for (int i = 0; i < W; ++i)
                if (keep_bit(sim->m_mac_tx_axis_tkeep, i)) tx_frame.push_back(get_byte(sim->m_mac_tx_axis_tdata, i));
            if (sim->m_mac_tx_axis_tlast) {
                pcap.write(tx_frame);
                impair_tx.offer(std::move(tx_frame), now_us, passed);
                to_linux();
                tx_frame.clear();
                ++frames_out;
            }
        }
        sim->client_start = g_client;
        g_client = 0;
        sim.step();
        if (rx_queue.advance(rx_take)) ++frames_in;
        idle_cycles = busy ? 0 : idle_cycles + 1;
    };
    auto csr_read = [&](uint32_t addr) { return sim.csr_read(addr, cycle); };
    while (!g_stop) {
        cycle();
        if (g_report) {   // SIGUSR1: one status line, for tests
            g_report = 0;
            std::printf("status: tcpCurrEstab %u tcpSessionsInUse %u client %s sent %u discarded %llu\n",
                        csr_read(REG_TCP_CURR_ESTAB), csr_read(REG_TCP_SESSIONS_IN_USE),
                        CLIENT_STATES[sim->client_state & 7], sim->client_sent,
                        (unsigned long long)sim->tcp_discard_bytes);
            std::fflush(stdout);
        }
    }
    sim->s_mac_rx_axis_tvalid = 0;
    std::printf("toe-sim: stopped after %llu cycles, %llu frames in, %llu frames out "
                "(%llu not taken by the TAP), %llu frames from Linux dropped after waiting "
                "%llu ms for the wire\n",
                (unsigned long long)sim.cycles(), (unsigned long long)frames_in,
                (unsigned long long)frames_out, (unsigned long long)frames_lost,
                (unsigned long long)frames_stale, (unsigned long long)(o.rx_queue_us / 1000));
    for (unsigned i = 0; i < N_COUNTERS; ++i) {
        uint32_t v = sim.csr_read(COUNTER_BASE + 4 * i);
        if (v) std::printf("  %-22s %u\n", COUNTER_NAMES[i], v);
    }
    std::printf("  %-22s %u\n", "tcpCurrEstab", sim.csr_read(REG_TCP_CURR_ESTAB));
    std::printf("  %-22s %u\n", "tcpSessionsInUse", sim.csr_read(REG_TCP_SESSIONS_IN_USE));
    if (impair_rx.active()) impair_rx.print(stdout, "rx");
    if (impair_tx.active()) impair_tx.print(stdout, "tx");
    close(tap);
    return 0;
}
