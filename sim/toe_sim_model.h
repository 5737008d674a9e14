// SPDX-License-Identifier: Apache-2.0
// toe_sim_model.h: the Verilated toe_sim_top with its clocks and resets, AXI4-Lite
// access, FST tracing and one-beat access to its wide and narrow stream ports. Shared by
// toe-sim (TAP bridge), toe-harness and toe-bench (cycle-accurate benchmarks).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>
#include <memory>
#include <string>

#include "Vtoe_sim_top.h"
#include "Vtoe_sim_top___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"

constexpr int W = TOE_DATA_W / 8;   // bytes per beat

// The clocks, as half periods in ps: the core at the reference clock of the width
// (156.25 MHz at 64 bits, 322 MHz at 512), and the memory port's own clock when the build
// gives one (TOE_MEM_CLK_MHZ, the same figure as toe_sim_top's MEM_CLK_MHZ; 0: the memory
// runs on the core clock and mem_clk stays still).
#ifndef TOE_MEM_CLK_MHZ
#define TOE_MEM_CLK_MHZ 0
#endif
constexpr uint64_t CORE_HALF_PS = TOE_DATA_W == 64 ? 3200 : 1553;
constexpr uint64_t MEM_HALF_PS = TOE_MEM_CLK_MHZ ? 500000 / TOE_MEM_CLK_MHZ : 0;

// The wire: 10G at 64 bits (156.25 MHz), 100G at 512 bits (322 MHz), in bytes per cycle.
// A frame of n bytes (without FCS) occupies it for max(n, 60) + 24 bytes (padding, FCS,
// preamble, IFG).
constexpr double WIRE_BYTES_PER_CYCLE = TOE_DATA_W == 64 ? 10e9 / 8 / 156.25e6 : 100e9 / 8 / 322e6;
// Exact wire pacing: a frame occupies the wire for (bytes + FCS, preamble, IFG) / rate,
// a fractional number of cycles, and the next frame starts at the first cycle at or after
// the wire is free. The fractions accumulate (nothing is rounded per frame), so frames
// offered back to back arrive at exactly the wire rate on average.
class WirePacer {
  public:
    bool free(uint64_t cycle) const { return double(cycle) >= free_at_; }
    // A frame of `frame_bytes` (without FCS) starts on the wire at `cycle`.
    void start(uint64_t cycle, size_t frame_bytes) {
        double t = free_at_ > double(cycle) - 1.0 ? free_at_ : double(cycle);   // back to back?
        free_at_ = t + wire_cycles(frame_bytes);
    }
    // The cycles a frame of `frame_bytes` (without FCS) holds the wire: the MAC pads it to
    // 60 bytes and adds the FCS (4), the preamble (8) and the inter-frame gap (12).
    static double wire_cycles(size_t frame_bytes) {
        return double(std::max<size_t>(frame_bytes, 60) + 24) / WIRE_BYTES_PER_CYCLE;
    }
  private:
    double free_at_ = 0;
};

// Wide and narrow Verilator port access, one beat at a time.
template <typename T> void set_beat(T& port, const uint8_t* bytes, int n) {
    if constexpr (sizeof(T) <= 8) {
        uint64_t v = 0;
        for (int i = n - 1; i >= 0; --i) v = (v << 8) | bytes[i];
        port = v;
    } else {
        for (size_t w = 0; w < sizeof(T) / 4; ++w) port[w] = 0;
        for (int i = 0; i < n; ++i) port[i / 4] |= uint32_t(bytes[i]) << (8 * (i % 4));
    }
}
template <typename T> uint8_t get_byte(const T& port, int i) {
    if constexpr (sizeof(T) <= 8) return uint8_t(uint64_t(port) >> (8 * i));
    else return uint8_t(port[i / 4] >> (8 * (i % 4)));
}
template <typename T> void set_keep(T& port, int n) {
    if constexpr (sizeof(T) <= 8) port = n >= 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1);
    else for (int w = 0; w < int(sizeof(T) / 4); ++w) {
        int bits = std::max(0, std::min(32, n - 32 * w));
        port[w] = bits == 32 ? 0xFFFFFFFFu : ((1u << bits) - 1);
    }
}
template <typename T> bool keep_bit(const T& port, int i) {
    if constexpr (sizeof(T) <= 8) return (uint64_t(port) >> i) & 1;
    else return (port[i / 32] >> (i % 32)) & 1;
}

// One beat of `frame`, from byte `off`, onto a stream's tdata and tkeep (an empty frame is
// one beat with tkeep 0). Returns tlast.
template <typename D, typename K> bool put_beat(D& tdata, K& tkeep, const std::vector<uint8_t>& frame, size_t off) {
    int n = std::max(0, std::min<int>(W, int(frame.size()) - int(off)));
    set_beat(tdata, frame.data() + off, n);
    set_keep(tkeep, n);
    return off + n >= frame.size();
}

// Frames into the MAC RX port: one beat per cycle, and a frame starts no sooner than the
// wire allows after the previous one (FCS, preamble and IFG counted). Call drive() before
// the clock edge and advance() with the sampled handshake after it.
class MacRxQueue {
  public:
    // `arrival_us`: when the frame came (only drop_older_than reads it)
    void push(std::vector<uint8_t> frame, uint64_t arrival_us = 0) {
        queue_.push_back({std::move(frame), arrival_us});
    }
    bool busy() const { return !frame_.empty() || !queue_.empty(); }
    size_t queued() const { return queue_.size(); }
    // A bounded buffer in front of the wire (the real-time harnesses): drops the frames at
    // the head that have waited longer than max_wait_us; returns how many.
    size_t drop_older_than(uint64_t now_us, uint64_t max_wait_us) {
        size_t n = 0;
        for (; !queue_.empty() && queue_.front().arrival_us + max_wait_us < now_us; ++n) queue_.pop_front();
        return n;
    }

    template <typename Top> void drive(Top& t, uint64_t cycle) {
        if (frame_.empty() && !queue_.empty() && wire_.free(cycle)) {
            frame_ = std::move(queue_.front().frame);
            queue_.pop_front();
            off_ = 0;
            wire_.start(cycle, frame_.size());
        }
        if (frame_.empty()) { t.s_mac_rx_axis_tvalid = 0; return; }
        t.s_mac_rx_axis_tlast = put_beat(t.s_mac_rx_axis_tdata, t.s_mac_rx_axis_tkeep, frame_, off_);
        t.s_mac_rx_axis_tuser = 0;
        t.s_mac_rx_axis_tvalid = 1;
    }
    // After the edge: `taken` is the sampled valid && ready. True when a frame ended.
    bool advance(bool taken) {
        if (!taken) return false;
        off_ += W;
        if (off_ < frame_.size()) return false;
        frame_.clear();
        return true;
    }

  private:
    struct Queued {
        std::vector<uint8_t> frame;
        uint64_t arrival_us;
    };
    std::deque<Queued> queue_;
    std::vector<uint8_t> frame_;
    size_t off_ = 0;
    WirePacer wire_;
};

class Sim {
  public:
    explicit Sim(const std::string& fst_path = "") : top_(std::make_unique<Vtoe_sim_top>()) {
        if (!fst_path.empty()) {
            Verilated::traceEverOn(true);
            fst_ = std::make_unique<VerilatedFstC>();
            top_->trace(fst_.get(), 99);
            fst_->open(fst_path.c_str());
        }
        top_->rst = 1;
        top_->mem_rst = 1;
        for (int i = 0; i < 8; ++i) step();
        top_->rst = 0;
        top_->mem_rst = 0;
        step();
    }
    ~Sim() { if (fst_) fst_->close(); top_->final(); }

    Vtoe_sim_top* operator->() { return top_.get(); }

    // One cycle of the core clock (its falling, then its rising edge), with the memory
    // clock's edges that fall into it in time order (an edge of both at once in one eval).
    void step() {
        core_edge(0);
        core_edge(1);
        ++cycle_;
    }
    uint64_t cycles() const { return cycle_; }

    // Moves the TCP engine's microsecond clock (toe_tcp's now_us_reg, public for this) on
    // by `us` at once, as `us` tick_us pulses would, for harnesses whose engine time must
    // follow a clock faster than one tick per cycle (wall time, or virtual time over idle
    // stretches). The ARP cache and the ICMP rate limit count tick_us pulses only.
    void jump_tcp_clock_us(uint32_t us) {
        top_->rootp->toe_sim_top__DOT__u_toe__DOT__u_tcp__DOT__now_us_reg += us;
    }

    void csr_write(uint32_t addr, uint32_t data) { csr_write(addr, data, [this] { step(); }); }
    uint32_t csr_read(uint32_t addr) { return csr_read(addr, [this] { step(); }); }

    // The same, with a caller's cycle function (a harness that drives other ports too).
    template <typename Step> void csr_write(uint32_t addr, uint32_t data, Step cycle) {
        top_->s_axil_awaddr = addr;
        top_->s_axil_wdata = data;
        top_->s_axil_wstrb = 0xF;
        top_->s_axil_awvalid = 1;
        top_->s_axil_wvalid = 1;
        top_->s_axil_bready = 1;
        while (!(top_->s_axil_awready && top_->s_axil_wready)) cycle();
        cycle();
        top_->s_axil_awvalid = 0;
        top_->s_axil_wvalid = 0;
        while (!top_->s_axil_bvalid) cycle();
        cycle();
        top_->s_axil_bready = 0;
    }
    template <typename Step> uint32_t csr_read(uint32_t addr, Step cycle) {
        top_->s_axil_araddr = addr;
        top_->s_axil_arvalid = 1;
        top_->s_axil_rready = 1;
        while (!top_->s_axil_arready) cycle();
        cycle();
        top_->s_axil_arvalid = 0;
        while (!top_->s_axil_rvalid) cycle();
        uint32_t v = top_->s_axil_rdata;
        cycle();
        top_->s_axil_rready = 0;
        return v;
    }

  private:
    void core_edge(uint8_t level) {
        now_ps_ += CORE_HALF_PS;
        while (MEM_HALF_PS && mem_edge_ps_ < now_ps_) {
            top_->mem_clk = !top_->mem_clk;
            eval(mem_edge_ps_);
            mem_edge_ps_ += MEM_HALF_PS;
        }
        if (MEM_HALF_PS && mem_edge_ps_ == now_ps_) {
            top_->mem_clk = !top_->mem_clk;
            mem_edge_ps_ += MEM_HALF_PS;
        }
        top_->clk = level;
        eval(now_ps_);
    }
    void eval(uint64_t ps) {
        top_->eval();
        if (fst_) fst_->dump(ps);
    }

    std::unique_ptr<Vtoe_sim_top> top_;
    std::unique_ptr<VerilatedFstC> fst_;
    uint64_t cycle_ = 0;
    uint64_t now_ps_ = 0;                  // simulated time of the last edge
    uint64_t mem_edge_ps_ = MEM_HALF_PS;   // the memory clock's next edge
};

