// SPDX-License-Identifier: Apache-2.0
// toe_impair.h: a seeded impairment stage for one direction of a frame stream, standing in
// for the kernel's netem (which this kernel lacks). Each frame offered is, independently:
//   lost       with probability loss (nothing else happens to it),
//   corrupted  with probability corrupt: one random bit flipped past the Ethernet header, so
//              the frame still reaches the IP/TCP/UDP checks that must catch it,
//   duplicated with probability dup (the copy follows the original at once),
//   reordered  with probability reorder: held back for reorder_us, so later frames overtake.
// Time is the caller's (wall-clock or virtual microseconds). Same seed, same offers, same
// decisions. Specification syntax (toe-sim --impair):
//   DIR:KEY=VALUE[,KEY=VALUE...]   DIR rx (into the engine) or tx (out of it)
//   loss=P%  dup=P%  corrupt=P%  reorder=P%[:DELAY]   DELAY in us or ms (default 1ms)
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

class Impairment {
  public:
    struct Spec {
        double loss = 0, dup = 0, corrupt = 0, reorder = 0;
        uint64_t reorder_us = 1000;
        bool any() const { return loss > 0 || dup > 0 || corrupt > 0 || reorder > 0; }
    };
    struct Counters { uint64_t offered = 0, lost = 0, duplicated = 0, corrupted = 0, reordered = 0; };
    using Frame = std::vector<uint8_t>;

    // Parses the part after "DIR:"; returns false with a message in err on a bad spec.
    static bool parse(const std::string& text, Spec& spec, std::string& err) {
        size_t pos = 0;
        while (pos < text.size()) {
            size_t end = text.find(',', pos);
            if (end == std::string::npos) end = text.size();
            std::string item = text.substr(pos, end - pos);
            pos = end + 1;
            size_t eq = item.find('=');
            if (eq == std::string::npos) { err = "'" + item + "' is not KEY=VALUE"; return false; }
            std::string key = item.substr(0, eq), value = item.substr(eq + 1);
            double* prob = key == "loss" ? &spec.loss : key == "dup" ? &spec.dup
                         : key == "corrupt" ? &spec.corrupt : key == "reorder" ? &spec.reorder : nullptr;
            if (!prob) { err = "unknown impairment '" + key + "' (loss, dup, corrupt, reorder)"; return false; }
            char* rest = nullptr;
            double pct = std::strtod(value.c_str(), &rest);
            if (rest == value.c_str() || *rest != '%' || pct < 0 || pct > 100) {
                err = "'" + item + "': want a percentage 0-100%"; return false;
            }
            *prob = pct / 100;
            ++rest;
            if (*rest == ':' && key == "reorder") {
                char* unit = nullptr;
                double d = std::strtod(rest + 1, &unit);
                std::string u = unit;
                if (unit == rest + 1 || d < 0 || (u != "us" && u != "ms")) {
                    err = "'" + item + "': reorder delay wants a number with us or ms"; return false;
                }
                spec.reorder_us = uint64_t(u == "ms" ? d * 1000 : d);
            } else if (*rest) {
                err = "'" + item + "': unexpected '" + rest + "'"; return false;
            }
        }
        return true;
    }

    Impairment() = default;
    Impairment(const Spec& spec, uint64_t seed) : spec_(spec), rng_(seed) {}

    bool active() const { return spec_.any(); }
    const Counters& counters() const { return counters_; }
    const Spec& spec() const { return spec_; }

    // A frame enters at now_us; what leaves at once is appended to out.
    void offer(Frame frame, uint64_t now_us, std::vector<Frame>& out) {
        ++counters_.offered;
        if (!active()) { out.push_back(std::move(frame)); return; }
        if (chance(spec_.loss)) { ++counters_.lost; return; }
        if (chance(spec_.corrupt) && frame.size() > 14) {
            size_t byte = 14 + pick(frame.size() - 14);
            frame[byte] ^= uint8_t(1u << pick(8));
            ++counters_.corrupted;
        }
        int copies = 1;
        if (chance(spec_.dup)) { ++copies; ++counters_.duplicated; }
        for (int i = 0; i < copies; ++i) {
            if (chance(spec_.reorder)) {
                ++counters_.reordered;
                held_.push_back({now_us + spec_.reorder_us, frame});
            } else {
                out.push_back(frame);
            }
        }
    }
    // Held frames whose time has come, in the order they were held (delays are equal).
    void release(uint64_t now_us, std::vector<Frame>& out) {
        while (!held_.empty() && held_.front().due_us <= now_us) {
            out.push_back(std::move(held_.front().frame));
            held_.pop_front();
        }
    }
    bool holding() const { return !held_.empty(); }

    void print(FILE* f, const char* dir) const {
        std::fprintf(f, "  impair %s: offered %llu lost %llu duplicated %llu corrupted %llu reordered %llu\n", dir,
                     (unsigned long long)counters_.offered, (unsigned long long)counters_.lost,
                     (unsigned long long)counters_.duplicated, (unsigned long long)counters_.corrupted,
                     (unsigned long long)counters_.reordered);
    }

  private:
    struct Held { uint64_t due_us; Frame frame; };
    bool chance(double p) { return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

    Spec spec_;
    std::mt19937_64 rng_{1};
    Counters counters_;
    std::deque<Held> held_;
};
