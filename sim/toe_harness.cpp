// SPDX-License-Identifier: Apache-2.0
// toe-harness: toe_sim_top with APPS_EN = 0 (the engine and its memory, the application
// APIs as ports) driven over stdin/stdout by a client, in virtual time. It is what the
// Python package `opentoe` (sim/opentoe) and the packetdrill runner `toe-pkt` talk to.
//
// Virtual time: the engine's microsecond clock follows simulated cycles (6.4 ns at 64
// bits, 1/322 MHz at 512 bits). While a `run` is asked to let time pass and the engine is
// idle (no frame in or out, no API request pending, no output for IDLE_CYCLES cycles),
// the harness reads every session's timers through the TCP debug port and jumps the
// clock to the earliest deadline (or to the end of the run), so a 60 s TIME-WAIT costs a
// few thousand cycles. The same command sequence always gives the same cycles.
//
// Real time (--tap IFNAME): MAC TX goes to a Linux TAP device and its frames come to MAC
// RX, the engine's clock follows the wall clock (WallClock, toe_tap.h), the engine runs
// between commands too, and `run US` lets US microseconds of wall time pass. Frames are
// then not reported as events; a frame from Linux that waited RX_QUEUE_MAX_WAIT_US for
// the wire is dropped (counted on stderr at exit).
//
// Protocol: one command per line; each answer is zero or more event lines and then one
// line `ok ...` or `err REASON`. Numbers are decimal, byte strings hex ('-' = empty).
//   inject HEX                     queue an Ethernet frame (no FCS) for MAC RX
//   stall P SEED                   back-pressure: MAC TX and app RX refuse each beat with
//                                  probability P (0: off), seeded
//   run US STOP                    let up to US microseconds of virtual time pass; STOP=1
//                                  returns at the first event. -> events, ok NOW_NS
//   listen PORT OPEN               TCP listen (OPEN=1) / unlisten (0) request
//   open IP PORT                   TCP active open (IP as a 32-bit number)
//   close SID RST                  orderly close (RST=0) or abort (1)
//   read SID LEN                   read request
//   send SID HEX                   tx_req of the data's length; data follows when accepted
//   udp_listen PORT OPEN
//   udp_send LPORT IP RPORT HEX
//   csr_read ADDR -> ok VALUE      csr_write ADDR VALUE -> ok
//   state SID -> ok SID STATE SND_UNA SND_NXT SND_MAX SND_WND RCV_NXT RCV_WND RETRIES
//                   TMR_ON TMR_AT DACK_ON DACK_AT NOW_US
//   time -> ok NOW_NS CYCLES        quit
// Events: frame NS HEX (a frame MAC TX sent; NS = virtual time of its last beat),
//   notif SID KIND LEN IP RPORT LPORT, listen_rsp PORT OK, open_rsp SID LPORT OK,
//   tx_rsp SID STATUS SPACE, rx SID HEX (rx_meta and its data; '-' = refused),
//   udp_listen_rsp PORT OK, udp_rx IP RPORT LPORT HEX.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "toe_csr_map.h"
#include "toe_sim_model.h"
#include "toe_tap.h"

namespace {

constexpr double CYCLE_NS = TOE_DATA_W == 64 ? 6.4 : 1e3 / 322.0;
constexpr int IDLE_CYCLES = 400;   // quiet cycles before the harness may jump the clock
// tcp_dbg_t: session, state, snd_una, snd_nxt, snd_max, snd_wnd, rcv_nxt, rcv_wnd, retries,
// tmr_on, tmr_at, dack_on, dack_at, now_us
constexpr int DBG_N = 14;
using DbgSnapshot = std::array<uint64_t, DBG_N>;

// Bit fields of wide and narrow Verilator ports (packed structs: first field in the MSBs).
template <typename T> uint64_t get_bits(const T& port, int lsb, int width) {
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i) {
        int b = lsb + i;
        uint64_t bit;
        if constexpr (sizeof(T) <= 8) bit = (uint64_t(port) >> b) & 1;
        else bit = (port[b / 32] >> (b % 32)) & 1;
        v = (v << 1) | bit;
    }
    return v;
}
template <typename T> void set_bits(T& port, int lsb, int width, uint64_t v) {
    for (int i = 0; i < width; ++i) {
        int b = lsb + i;
        uint64_t bit = (v >> i) & 1;
        if constexpr (sizeof(T) <= 8) port = (uint64_t(port) & ~(uint64_t(1) << b)) | (bit << b);
        else port[b / 32] = (port[b / 32] & ~(1u << (b % 32))) | (uint32_t(bit) << (b % 32));
    }
}
template <typename T> void clear_port(T& port) {
    if constexpr (sizeof(T) <= 8) port = 0;
    else for (size_t w = 0; w < sizeof(T) / 4; ++w) port[w] = 0;
}

std::string hex(const std::vector<uint8_t>& b) {
    if (b.empty()) return "-";
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t x : b) { s += d[x >> 4]; s += d[x & 15]; }
    return s;
}
std::vector<uint8_t> unhex(const std::string& s) {
    std::vector<uint8_t> b;
    if (s == "-") return b;
    for (size_t i = 0; i + 1 < s.size(); i += 2) b.push_back(uint8_t(std::stoul(s.substr(i, 2), nullptr, 16)));
    return b;
}

class Harness {
  public:
    Harness() {
        sim_->m_mac_tx_axis_tready = 1;
        sim_->app_tcp_listen_rsp_ready = 1;
        sim_->app_tcp_open_rsp_ready = 1;
        sim_->app_tcp_notif_ready = 1;
        sim_->app_tcp_rx_meta_ready = 1;
        sim_->app_tcp_rx_axis_tready = 1;
        sim_->app_tcp_tx_rsp_ready = 1;
        sim_->app_udp_rx_axis_tready = 1;
        sim_->app_udp_listen_rsp_ready = 1;
        sim_->tcp_dbg_rsp_ready = 1;
    }

    Sim& sim() { return sim_; }

    // ---- requests from the client ----
    void inject(std::vector<uint8_t> f) { mac_rx_.push(std::move(f)); }
    // Back-pressure: from now on the MAC TX and app RX data ports refuse each beat with
    // probability p (0: always ready), seeded.
    void stall(double p, uint64_t seed) { stall_p_ = p; stall_rng_.seed(seed); }
    void listen(uint64_t port, uint64_t open) { listen_q_.push_back({port, open}); }
    void udp_listen(uint64_t port, uint64_t open) { udp_listen_q_.push_back({port, open}); }
    void open(uint64_t ip, uint64_t port) { open_q_.push_back({ip, port}); }
    void close(uint64_t sid, uint64_t rst) { close_q_.push_back({sid, rst}); }
    void read(uint64_t sid, uint64_t len) { rd_q_.push_back({sid, len}); }
    void send(uint64_t sid, std::vector<uint8_t> data) {
        tx_q_.push_back({sid, data.size()});
        tx_data_.push_back(std::move(data));
    }
    void udp_send(uint64_t lport, uint64_t ip, uint64_t rport, std::vector<uint8_t> data) {
        udp_tx_.push_back({{ip, rport, lport, data.size()}, std::move(data)});
    }

    // One clock cycle: drive every channel, sample handshakes, step, collect outputs.
    void cycle() {
        auto& t = sim_;
        if (tap_ >= 0) {
            // real time: the engine's clock follows the wall clock; frames from Linux
            uint64_t now_us = wall_.now_us();
            vt_ns_ = double(now_us) * 1000.0;
            t->tick_us = wall_.tick(now_us, [&](uint32_t us) { sim_.jump_tcp_clock_us(us); });
            if ((t.cycles() & 63) == 0) from_tap(0);
        } else {
            // virtual time: one tick per microsecond of simulated time
            vt_ns_ += CYCLE_NS;
            t->tick_us = ticks_ < uint64_t(vt_ns_ / 1000.0);
            if (t->tick_us) ++ticks_;
        }

        // MAC RX, no faster than the wire
        mac_rx_.drive(*t.operator->(), t.cycles());
        // request channels
        drive(listen_q_, t->app_tcp_listen_req_valid, [&](auto& v) {
            clear_port(t->app_tcp_listen_req);
            set_bits(t->app_tcp_listen_req, 1, 16, v[0]);
            set_bits(t->app_tcp_listen_req, 0, 1, v[1]);
        });
        drive(udp_listen_q_, t->app_udp_listen_req_valid, [&](auto& v) {
            clear_port(t->app_udp_listen_req);
            set_bits(t->app_udp_listen_req, 1, 16, v[0]);
            set_bits(t->app_udp_listen_req, 0, 1, v[1]);
        });
        drive(open_q_, t->app_tcp_open_req_valid, [&](auto& v) {
            clear_port(t->app_tcp_open_req);
            set_bits(t->app_tcp_open_req, 16, 32, v[0]);
            set_bits(t->app_tcp_open_req, 0, 16, v[1]);
        });
        drive(close_q_, t->app_tcp_close_req_valid, [&](auto& v) {
            clear_port(t->app_tcp_close_req);
            set_bits(t->app_tcp_close_req, 1, 20, v[0]);
            set_bits(t->app_tcp_close_req, 0, 1, v[1]);
        });
        drive(rd_q_, t->app_tcp_rd_req_valid, [&](auto& v) {
            clear_port(t->app_tcp_rd_req);
            set_bits(t->app_tcp_rd_req, 16, 20, v[0]);
            set_bits(t->app_tcp_rd_req, 0, 16, v[1]);
        });
        drive(tx_q_, t->app_tcp_tx_req_valid, [&](auto& v) {
            clear_port(t->app_tcp_tx_req);
            set_bits(t->app_tcp_tx_req, 16, 20, v[0]);
            set_bits(t->app_tcp_tx_req, 0, 16, v[1]);
        });
        drive(dbg_q_, t->tcp_dbg_req_valid, [&](auto& v) { t->tcp_dbg_req = uint32_t(v[0]); });
        // TCP tx data of accepted requests, in order
        if (!tx_stream_.empty()) {
            auto& d = tx_stream_.front();
            t->app_tcp_tx_axis_tlast = put_beat(t->app_tcp_tx_axis_tdata, t->app_tcp_tx_axis_tkeep, d, tx_off_);
            t->app_tcp_tx_axis_tvalid = 1;
        } else {
            t->app_tcp_tx_axis_tvalid = 0;
        }
        // UDP tx: metadata on every beat
        if (!udp_tx_.empty()) {
            auto& [meta, d] = udp_tx_.front();
            t->app_udp_tx_axis_tlast = put_beat(t->app_udp_tx_axis_tdata, t->app_udp_tx_axis_tkeep, d, udp_off_);
            clear_port(t->app_udp_tx_axis_tuser);
            set_bits(t->app_udp_tx_axis_tuser, 48, 32, meta[0]);
            set_bits(t->app_udp_tx_axis_tuser, 32, 16, meta[1]);
            set_bits(t->app_udp_tx_axis_tuser, 16, 16, meta[2]);
            set_bits(t->app_udp_tx_axis_tuser, 0, 16, meta[3]);
            t->app_udp_tx_axis_tvalid = 1;
        } else {
            t->app_udp_tx_axis_tvalid = 0;
        }

        if (stall_p_ > 0) {
            t->m_mac_tx_axis_tready = !stalls();
            t->app_tcp_rx_axis_tready = !stalls();
        }
        // settle the combinational readies on the new inputs, then sample every handshake
        // before the edge
        t->eval();
        bool rx_take = t->s_mac_rx_axis_tvalid && t->s_mac_rx_axis_tready;
        bool active = rx_take || mac_rx_.busy();
        active |= took(listen_q_, t->app_tcp_listen_req_valid, t->app_tcp_listen_req_ready);
        active |= took(udp_listen_q_, t->app_udp_listen_req_valid, t->app_udp_listen_req_ready);
        active |= took(open_q_, t->app_tcp_open_req_valid, t->app_tcp_open_req_ready);
        active |= took(close_q_, t->app_tcp_close_req_valid, t->app_tcp_close_req_ready);
        active |= took(rd_q_, t->app_tcp_rd_req_valid, t->app_tcp_rd_req_ready);
        active |= took(tx_q_, t->app_tcp_tx_req_valid, t->app_tcp_tx_req_ready);
        active |= took(dbg_q_, t->tcp_dbg_req_valid, t->tcp_dbg_req_ready);
        if (t->app_tcp_tx_axis_tvalid && t->app_tcp_tx_axis_tready) {
            active = true;
            tx_off_ += W;
            if (tx_off_ >= tx_stream_.front().size()) { tx_stream_.pop_front(); tx_off_ = 0; }
        }
        if (t->app_udp_tx_axis_tvalid && t->app_udp_tx_axis_tready) {
            active = true;
            udp_off_ += W;
            if (udp_off_ >= udp_tx_.front().second.size()) { udp_tx_.pop_front(); udp_off_ = 0; }
        }
        active |= t->m_mac_tx_axis_tvalid;
        if (t->m_mac_tx_axis_tvalid && t->m_mac_tx_axis_tready) {
            for (int i = 0; i < W; ++i)
                if (keep_bit(t->m_mac_tx_axis_tkeep, i)) mac_tx_.push_back(get_byte(t->m_mac_tx_axis_tdata, i));
            if (t->m_mac_tx_axis_tlast) {
                if (tap_ >= 0) tap_lost_ += !write_frame(tap_, mac_tx_);
                else event("frame " + std::to_string(uint64_t(vt_ns_)) + " " + hex(mac_tx_));
                mac_tx_.clear();
            }
        }
        if (t->app_tcp_listen_rsp_valid)
            event("listen_rsp " + fields(t->app_tcp_listen_rsp, {{1, 16}, {0, 1}}));
        if (t->app_udp_listen_rsp_valid)
            event("udp_listen_rsp " + fields(t->app_udp_listen_rsp, {{1, 16}, {0, 1}}));
        if (t->app_tcp_open_rsp_valid)
            event("open_rsp " + fields(t->app_tcp_open_rsp, {{17, 20}, {1, 16}, {0, 1}}));
        if (t->app_tcp_notif_valid)
            event("notif " + fields(t->app_tcp_notif, {{83, 20}, {80, 3}, {64, 16}, {32, 32}, {16, 16}, {0, 16}}));
        if (t->app_tcp_tx_rsp_valid) {
            uint64_t status = get_bits(t->app_tcp_tx_rsp, 17, 2);
            event("tx_rsp " + fields(t->app_tcp_tx_rsp, {{19, 20}, {17, 2}, {0, 17}}));
            // the data of an accepted request follows; a refused request's data is dropped
            if (status == 0 && !tx_data_.front().empty()) tx_stream_.push_back(std::move(tx_data_.front()));
            tx_data_.pop_front();
        }
        if (t->app_tcp_rx_meta_valid) {
            rx_sid_.push_back(get_bits(t->app_tcp_rx_meta, 16, 20));
            rx_len_.push_back(get_bits(t->app_tcp_rx_meta, 0, 16));
        }
        if (t->app_tcp_rx_axis_tvalid && t->app_tcp_rx_axis_tready) {
            for (int i = 0; i < W; ++i)
                if (keep_bit(t->app_tcp_rx_axis_tkeep, i)) tcp_rx_.push_back(get_byte(t->app_tcp_rx_axis_tdata, i));
        }
        if (t->app_udp_rx_axis_tvalid) {
            for (int i = 0; i < W; ++i)
                if (keep_bit(t->app_udp_rx_axis_tkeep, i)) udp_rx_.push_back(get_byte(t->app_udp_rx_axis_tdata, i));
            if (t->app_udp_rx_axis_tlast)
                event("udp_rx " + fields(t->app_udp_rx_axis_tuser, {{48, 32}, {32, 16}, {16, 16}}) + " " + hex(udp_rx_)),
                    udp_rx_.clear();
        }
        if (t->tcp_dbg_rsp_valid) {
            static constexpr std::pair<int, int> DBG_FIELDS[DBG_N] = {
                {266, 20}, {262, 4}, {230, 32}, {198, 32}, {166, 32}, {150, 16}, {118, 32},
                {102, 16}, {98, 4}, {97, 1}, {65, 32}, {64, 1}, {32, 32}, {0, 32}};
            for (int i = 0; i < DBG_N; ++i) dbg_rsp_[i] = get_bits(t->tcp_dbg_rsp, DBG_FIELDS[i].first, DBG_FIELDS[i].second);
            dbg_done_ = true;
        }
        bool rx_last = t->app_tcp_rx_axis_tvalid && t->app_tcp_rx_axis_tready && t->app_tcp_rx_axis_tlast;
        active |= t->app_tcp_rx_meta_valid || t->app_tcp_rx_axis_tvalid || t->app_udp_rx_axis_tvalid;
        t.step();
        mac_rx_.advance(rx_take);
        // an rx_meta of length 0 (refused read) has no data frame
        while (!rx_len_.empty() && rx_len_.front() == 0) {
            event("rx " + std::to_string(rx_sid_.front()) + " -");
            rx_sid_.pop_front();
            rx_len_.pop_front();
        }
        if (rx_last && !rx_sid_.empty()) {
            event("rx " + std::to_string(rx_sid_.front()) + " " + hex(tcp_rx_));
            tcp_rx_.clear();
            rx_sid_.pop_front();
            rx_len_.pop_front();
        }
        active |= pending();
        quiet_ = active ? 0 : quiet_ + 1;
    }

    bool pending() const {
        return !listen_q_.empty() || !udp_listen_q_.empty() || !open_q_.empty() || !close_q_.empty() ||
               !rd_q_.empty() || !tx_q_.empty() || !tx_stream_.empty() || !udp_tx_.empty() ||
               mac_rx_.busy();
    }

    // The debug snapshot of one session, tcp_dbg_t's fields in order (runs the engine until
    // it answers; false if it never does).
    bool state(uint64_t sid, DbgSnapshot& out) {
        dbg_done_ = false;
        dbg_q_.push_back({sid});
        for (int i = 0; i < 100000 && !dbg_done_; ++i) cycle();
        out = dbg_rsp_;
        return dbg_done_;
    }

    // Earliest armed timer of any session, in microseconds from now (-1: none).
    int64_t next_deadline_us(unsigned max_sessions) {
        int64_t best = -1;
        for (unsigned sid = 0; sid < max_sessions; ++sid) {
            DbgSnapshot f;
            if (!state(sid, f)) continue;
            unsigned st = unsigned(f[1]);
            if (st == 0 || st == 10) continue;   // FREE, CLOSED
            uint32_t now = uint32_t(f[13]);
            for (auto [on, at] : {std::pair{f[9], f[10]}, std::pair{f[11], f[12]}}) {
                if (!on) continue;
                int64_t d = int32_t(uint32_t(at) - now);
                if (d < -1000) continue;         // long past: a stale deadline nobody acts on
                d = std::max<int64_t>(d, 0);
                if (best < 0 || d < best) best = d;
            }
        }
        return best;
    }

    // Let `us` microseconds of virtual time pass, or less if stop_at_event and an event
    // comes. Jumps the clock over idle stretches. In real time: `us` of wall time, and
    // idle stretches wait for a frame from Linux instead.
    void run(uint64_t us, bool stop_at_event, unsigned max_sessions) {
        if (tap_ >= 0) {
            uint64_t end_us = wall_.now_us() + us;
            while (wall_.now_us() < end_us) {
                cycle();
                if (stop_at_event && !events_.empty()) return;
                idle_wait();
            }
            return;
        }
        double end_ns = vt_ns_ + double(us) * 1000.0;
        while (vt_ns_ < end_ns) {
            cycle();
            if (stop_at_event && !events_.empty()) return;
            if (quiet_ >= IDLE_CYCLES) {
                int64_t d = next_deadline_us(max_sessions);
                if (stop_at_event && !events_.empty()) return;
                double left_us = (end_ns - vt_ns_) / 1000.0;
                double jump = d < 0 ? left_us : std::min<double>(double(d), left_us);
                uint64_t j = uint64_t(jump);
                if (j >= 2) jump_us(j - 1);
                quiet_ = 0;
            }
        }
    }

    void jump_us(uint64_t j) {
        sim_.jump_tcp_clock_us(uint32_t(j));
        ticks_ += j;
        vt_ns_ += double(j) * 1000.0;
    }

    // Real time: MAC TX goes to the TAP device `fd`, frames from it go to MAC RX.
    void use_tap(int fd) { tap_ = fd; }
    bool real_time() const { return tap_ >= 0; }
    uint64_t tap_lost() const { return tap_lost_; }
    uint64_t tap_stale() const { return tap_stale_; }
    // Real time, engine idle: sleep in poll() until a frame comes (at most 1 ms).
    void idle_wait() {
        if (quiet_ < IDLE_CYCLES) return;
        from_tap(1);
        quiet_ = 0;
    }

    std::deque<std::string>& events() { return events_; }
    double now_ns() const { return vt_ns_; }

  private:
    template <typename F> void drive(std::deque<std::vector<uint64_t>>& q, uint8_t& valid, F set) {
        if (q.empty()) { valid = 0; return; }
        set(q.front());
        valid = 1;
    }
    static bool took(std::deque<std::vector<uint64_t>>& q, uint8_t valid, uint8_t ready) {
        if (valid && ready) { q.pop_front(); return true; }
        return false;
    }
    template <typename T> static std::string fields(const T& port, std::initializer_list<std::pair<int, int>> f) {
        std::string s;
        for (auto [lsb, w] : f) s += (s.empty() ? "" : " ") + std::to_string(get_bits(port, lsb, w));
        return s;
    }
    void event(std::string e) { events_.push_back(std::move(e)); }
    void from_tap(int timeout_ms) {
        uint64_t now_us = wall_.now_us();
        read_frames(tap_, timeout_ms, [&](std::vector<uint8_t> f) { mac_rx_.push(std::move(f), now_us); });
        tap_stale_ += mac_rx_.drop_older_than(now_us, RX_QUEUE_MAX_WAIT_US);
    }

    Sim sim_;
    int tap_ = -1;
    WallClock wall_;
    uint64_t tap_lost_ = 0, tap_stale_ = 0;
    double vt_ns_ = 0;
    uint64_t ticks_ = 0;
    unsigned quiet_ = 0;
    MacRxQueue mac_rx_;
    double stall_p_ = 0;                 // back-pressure on MAC TX and app RX (stall)
    std::mt19937_64 stall_rng_{1};
    bool stalls() { return std::uniform_real_distribution<double>(0, 1)(stall_rng_) < stall_p_; }
    std::vector<uint8_t> mac_tx_, tcp_rx_, udp_rx_;
    size_t tx_off_ = 0, udp_off_ = 0;
    std::deque<std::vector<uint64_t>> listen_q_, udp_listen_q_, open_q_, close_q_, rd_q_, tx_q_, dbg_q_;
    std::deque<std::vector<uint8_t>> tx_data_, tx_stream_;
    std::deque<std::pair<std::vector<uint64_t>, std::vector<uint8_t>>> udp_tx_;
    std::deque<uint64_t> rx_sid_, rx_len_;
    std::deque<std::string> events_;
    DbgSnapshot dbg_rsp_{};
    bool dbg_done_ = false;
};

// Lines from stdin without blocking the engine: fill() reads what is there (waiting up to
// timeout_ms, -1 = until something comes; false at the end of input), pop() takes one
// complete line.
class LineReader {
  public:
    bool fill(int timeout_ms) {
        pollfd p{0, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) <= 0) return true;
        char buf[65536];
        ssize_t n = read(0, buf, sizeof buf);
        if (n <= 0) return false;
        buf_.append(buf, size_t(n));
        return true;
    }
    bool pop(std::string& line) {
        size_t nl = buf_.find('\n');
        if (nl == std::string::npos) return false;
        line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return true;
    }

  private:
    std::string buf_;
};

// One command line; prints its answer. False for `quit`.
bool handle(Harness& h, const std::string& line, unsigned max_sessions) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    uint64_t a = 0, b = 0, c = 0;
    std::string s;
    try {
        if (cmd == "inject") { in >> s; h.inject(unhex(s)); std::cout << "ok\n"; }
        else if (cmd == "stall") { double p = 0; in >> p >> a; h.stall(p, a); std::cout << "ok\n"; }
        else if (cmd == "run") {
            in >> a >> b;
            h.run(a, b != 0, max_sessions);
            for (auto& e : h.events()) std::cout << e << '\n';
            h.events().clear();
            std::cout << "ok " << uint64_t(h.now_ns()) << '\n';
        }
        else if (cmd == "listen") { in >> a >> b; h.listen(a, b); std::cout << "ok\n"; }
        else if (cmd == "udp_listen") { in >> a >> b; h.udp_listen(a, b); std::cout << "ok\n"; }
        else if (cmd == "open") { in >> a >> b; h.open(a, b); std::cout << "ok\n"; }
        else if (cmd == "close") { in >> a >> b; h.close(a, b); std::cout << "ok\n"; }
        else if (cmd == "read") { in >> a >> b; h.read(a, b); std::cout << "ok\n"; }
        else if (cmd == "send") { in >> a >> s; h.send(a, unhex(s)); std::cout << "ok\n"; }
        else if (cmd == "udp_send") { in >> a >> b >> c >> s; h.udp_send(a, b, c, unhex(s)); std::cout << "ok\n"; }
        else if (cmd == "csr_read") {
            in >> a;
            uint32_t v = h.sim().csr_read(uint32_t(a), [&] { h.cycle(); });
            std::cout << "ok " << v << '\n';
        }
        else if (cmd == "csr_write") { in >> a >> b; h.sim().csr_write(uint32_t(a), uint32_t(b), [&] { h.cycle(); }); std::cout << "ok\n"; }
        else if (cmd == "state") {
            in >> a;
            DbgSnapshot f;
            if (a >= max_sessions || !h.state(a, f)) std::cout << "err no such session or no answer\n";
            else {
                std::cout << "ok";
                for (uint64_t x : f) std::cout << ' ' << x;
                std::cout << '\n';
            }
        }
        else if (cmd == "time") std::cout << "ok " << uint64_t(h.now_ns()) << ' ' << h.sim().cycles() << '\n';
        else if (cmd == "quit") { std::cout << "ok\n" << std::flush; return false; }
        else std::cout << "err unknown command '" << cmd << "'\n";
    } catch (const std::exception& e) {
        std::cout << "err " << e.what() << '\n';
    }
    std::cout << std::flush;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    unsigned max_sessions = TOE_MAX_SESSIONS;
    Harness h;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--tap" && i + 1 < argc) h.use_tap(open_tap(argv[++i]));
        else if (argv[i][0] != '+') {
            std::fprintf(stderr, "usage: toe-harness [--tap IFNAME]\n");
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    std::cout << "ok toe-harness DATA_W=" << TOE_DATA_W << " MAX_SESSIONS=" << max_sessions
              << (h.real_time() ? " real-time" : "") << std::endl;
    LineReader reader;
    std::string line;
    while (true) {
        if (reader.pop(line)) {
            if (!handle(h, line, max_sessions)) break;
            continue;
        }
        if (!h.real_time()) {               // virtual time stands still between commands
            if (!reader.fill(-1)) break;
            continue;
        }
        // real time: the engine runs between commands too (ARP, ACKs, timers)
        h.cycle();
        if ((h.sim().cycles() & 63) == 0 && !reader.fill(0)) break;
        h.idle_wait();
    }
    if (h.real_time() && h.tap_lost())
        std::fprintf(stderr, "toe-harness: %llu frames not taken by the TAP\n", (unsigned long long)h.tap_lost());
    if (h.real_time() && h.tap_stale())
        std::fprintf(stderr, "toe-harness: %llu frames from Linux dropped after waiting %llu ms for the wire\n",
                     (unsigned long long)h.tap_stale(), (unsigned long long)(RX_QUEUE_MAX_WAIT_US / 1000));
    return 0;
}
