// SPDX-License-Identifier: Apache-2.0
// toe_tap.h: what the real-time harnesses (toe-sim, toe-harness --tap) share.
//   open_tap(name)  a Linux TAP device (created if missing), non-blocking
//   read_frames     every frame the kernel has queued, waiting up to timeout_ms for one
//   write_frame     one frame to the kernel (false if it was not taken: link down, queue full)
//   WallClock       engine time that follows the wall clock: one tick_us pulse per cycle
//                   while the engine's clock is behind, and a jump of the TCP clock when it
//                   is more than JUMP_LAG_US behind (the simulation runs slower than real
//                   time, and sleeps in poll() when idle).
//   RX_QUEUE_MAX_WAIT_US  how long a frame from Linux may wait for the engine's wire
#pragma once
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

inline int open_tap(const std::string& name) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK);
    if (fd < 0) { std::perror("open /dev/net/tun"); std::exit(1); }
    ifreq ifr{};
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) { std::perror("TUNSETIFF (root or CAP_NET_ADMIN needed)"); std::exit(1); }
    return fd;
}

// Appends every frame queued on `fd` to `out`, after waiting up to timeout_ms for one.
template <typename F> void read_frames(int fd, int timeout_ms, F&& take) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return;
    static uint8_t buf[16384];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) take(std::vector<uint8_t>(buf, buf + n));
}

// EIO: the TAP link is down; EAGAIN: the kernel queue is full. Both lose the frame, as a
// cable would.
inline bool write_frame(int fd, const std::vector<uint8_t>& f) {
    if (write(fd, f.data(), f.size()) >= 0) return true;
    if (errno != EIO && errno != EAGAIN) { std::perror("write tap"); std::exit(1); }
    return false;
}

// A frame from Linux waits for the engine's wire at most this long, then it is dropped, as
// a router's full buffer would drop it: in wall-clock time the simulated wire is slow (the
// simulation runs some 30 k cycles/s), and a buffer without bound held frames for tens of
// seconds (Linux's SYN retransmissions reached the engine after it had given up their
// handshake). TCP's initial RTO (RFC 6298, 1 s): a frame is no older than that.
constexpr uint64_t RX_QUEUE_MAX_WAIT_US = 1000000;

class WallClock {
  public:
    static constexpr uint64_t JUMP_LAG_US = 20;
    uint64_t now_us() const {
        return uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - t0_).count());
    }
    // Call once per cycle with the wall time; returns tick_us for this cycle and moves the
    // engine's TCP clock on by `jump` at once when it lags.
    template <typename Jump> bool tick(uint64_t now_us, Jump&& jump) {
        if (ticks_ + JUMP_LAG_US < now_us) {
            jump(uint32_t(now_us - ticks_ - 1));
            ticks_ = now_us - 1;
        }
        bool t = ticks_ < now_us;
        if (t) ++ticks_;
        return t;
    }

  private:
    std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
    uint64_t ticks_ = 0;
};
