#!/usr/bin/env python3
"""The CSR register map: the single source for rtl/top/toe_csr_pkg.sv (addresses, reset
values, counter indices) and docs/registers.md. `regmap.py --check` fails when either
generated file is out of date (the test suite runs it).

Configuration registers are read/write; counters are read-only 32-bit, wrapping, and
cleared by writing any value to them. Counter names follow IP-MIB (RFC 4293), UDP-MIB
(RFC 4113), ICMP-MIB (RFC 4293 icmpMsgStats) and TCP-MIB (RFC 4022); names without a MIB are drop counters.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name, offset, reset, description
CONFIG = [
    ("ID",           0x000, 0x544F4501, "Read-only identification: 'TOE' and version 1"),
    ("MAC_LO",       0x004, 0x00000000, "Our MAC address, bytes 2..5 (MAC 02:00:00:00:00:01 -> 0x00000001)"),
    ("MAC_HI",       0x008, 0x00000200, "Our MAC address, bytes 0..1 in bits 15:0 (-> 0x0200)"),
    ("IPV4_ADDR",    0x00C, 0x00000000, "Our IPv4 address (0 = unconfigured: nothing is answered). Writing sends a gratuitous ARP"),
    ("IPV4_NETMASK", 0x010, 0xFFFFFF00, "Subnet mask"),
    ("IPV4_GATEWAY", 0x014, 0x00000000, "Default gateway (next hop off the subnet)"),
    ("CTRL",         0x018, 0x0000000F, "bit 0: answer ICMP echo requests; bit 1: drop TCP SYN+FIN segments in LISTEN and SYN-SENT (0: handle them as a SYN, as FreeBSD's drop_synfin=0); bit 2: RFC 5961 3.2 RST check (an in-window RST not at RCV.NXT gets a challenge ACK; 0: it resets the connection, RFC 793); bit 3: RFC 5961 4.2 SYN check (a SYN in a synchronized state gets a challenge ACK; 0: an in-window SYN is answered with RST and resets the connection, RFC 793); bit 4: Nagle (RFC 896, RFC 1122 4.2.3.4) for every session: a segment shorter than the MSS waits while data is unacknowledged (0: off, like TCP_NODELAY)"),
    ("ARP_TIMEOUT_S", 0x01C, 60,        "ARP cache entry lifetime in seconds (bits 15:0)"),
    ("ICMP_UNREACH_INTERVAL_US", 0x020, 1000, "Minimum time between ICMP destination-unreachable messages (port and protocol), microseconds (bits 15:0)"),
    ("TCP_MSS",          0x024, 1460,     "TCP MSS we announce, and the largest segment we send (bits 15:0; at most 1460)"),
    ("TCP_RTO_INIT_US",  0x028, 1000000,  "Initial retransmission timeout, microseconds (RFC 6298: 1 s)"),
    ("TCP_RTO_MIN_US",   0x02C, 200000,   "Lower bound of the retransmission timeout, microseconds"),
    ("TCP_RTO_MAX_US",   0x030, 60000000, "Upper bound of the retransmission timeout (and of its backoff), microseconds"),
    ("TCP_MAX_RETRIES",  0x034, 8,        "Retransmissions of one segment before the connection is aborted (bits 3:0)"),
    ("TCP_DELACK_US",    0x038, 200,      "Delayed-ACK timeout, microseconds (every second full segment is acknowledged at once)"),
    ("TCP_TIME_WAIT_US", 0x03C, 60000000, "TIME-WAIT duration (2*MSL), microseconds"),
    ("TCP_ISN_KEY0",     0x040, 0x5EED0001, "Secret 128-bit key of the RFC 6528 ISN hash (SipHash-2-4), bytes 0..3 (byte 0 in bits 7:0): write random values to KEY0..3 at start-up"),
    ("TCP_ISN_KEY1",     0x044, 0x00000000, "ISN key bytes 4..7"),
    ("TCP_ISN_KEY2",     0x048, 0x00000000, "ISN key bytes 8..11"),
    ("TCP_ISN_KEY3",     0x04C, 0x00000000, "ISN key bytes 12..15"),
    ("MEM_BASE_LO",      0x050, 0x00000000, "Base address of the TCP ring memory, bits 31:0 (4 KB aligned)"),
    ("MEM_BASE_HI",      0x054, 0x00000000, "Base address of the TCP ring memory, bits 47:32 (bits 15:0)"),
    ("TCP_MSS_MIN",      0x058, 536,      "Floor on the peer's MSS (bits 15:0): a smaller MSS option is raised to it and counted (tcpMssClamped); RFC 1122 hosts accept 536"),
    ("TCP_FIN_WAIT_2_US", 0x05C, 60000000, "FIN-WAIT-2 idle timeout, microseconds: a session whose peer sends no data and no FIN for this long after our FIN was acknowledged is aborted (RST; the app is told RESET). 0 = never"),
    ("TCP_KEEPALIVE_IDLE_US", 0x060, 0,   "Keepalive (RFC 1122 4.2.3.6): idle time before the first probe, microseconds; 0 = off (the RFC's default)"),
    ("TCP_KEEPALIVE_INTVL_US", 0x064, 75000000, "Keepalive: time between unanswered probes, microseconds"),
    ("TCP_KEEPALIVE_PROBES", 0x068, 9,    "Keepalive: unanswered probes before the connection is aborted (bits 3:0)"),
    ("TCP_HALF_OPEN_MAX", 0x06C, 0,       "SYN-flood cap: sessions that half-open (SYN-RCVD) connections may hold; a SYN beyond it is dropped and counted (tcpHalfOpenDrops). 0 = a quarter of MAX_SESSIONS"),
    ("TCP_SYN_RCVD_RETRIES", 0x070, 2,    "SYN-ACK retransmissions before a half-open connection is dropped (bits 3:0; TCP_MAX_RETRIES applies once established)"),
]

# Read-only gauges: name, offset, description
STATUS = [
    ("TCP_CURR_ESTAB",      0x080, "tcpCurrEstab: connections in ESTABLISHED or CLOSE-WAIT"),
    ("TCP_SESSIONS_IN_USE", 0x084, "Session ids allocated (any state, including TIME-WAIT and closing)"),
]

COUNTER_BASE = 0x100
# name, description
COUNTERS = [
    ("ethInFrames",          "Frames received from the MAC"),
    ("ethInFcsErrors",       "Frames the MAC marked bad (tuser[0]); dropped"),
    ("ethInOverflows",       "Frames dropped because the receive FIFO was full"),
    ("ethInRunts",           "Frames shorter than an Ethernet header; dropped"),
    ("ethInDstDrops",        "Frames to another MAC address; dropped"),
    ("ethInTypeDrops",       "Frames of an unsupported EtherType with no host path; dropped"),
    ("arpInRequests",        "ARP requests received"),
    ("arpInReplies",         "ARP replies received"),
    ("arpInErrors",          "Malformed or truncated ARP packets; dropped"),
    ("arpOutRequests",       "ARP requests sent (resolution and gratuitous)"),
    ("arpOutReplies",        "ARP replies sent"),
    ("arpResolveFails",      "Addresses given up on after all retries"),
    ("arpReplyDrops",        "ARP requests not answered because a reply was still queued"),
    ("ipInReceives",         "IPv4 packets received"),
    ("ipInHdrErrors",        "Bad version, IHL, header checksum, total length, or shorter than its header; dropped"),
    ("ipInAddrErrors",       "Not addressed to us or a broadcast; dropped"),
    ("ipInTruncatedPkts",    "Shorter than their total length; dropped"),
    ("ipReasmReqds",         "Fragments received; dropped (no reassembly)"),
    ("ipInUnknownProtos",    "Protocols other than ICMP, UDP and TCP; dropped (answered with protocol unreachable unless broadcast)"),
    ("ipInDelivers",         "Packets passed to ICMP, UDP or TCP"),
    ("ipOutRequests",        "Packets handed to IPv4 TX"),
    ("ipOutArpMisses",       "Packets dropped because the next hop's MAC was not known"),
    ("icmpInMsgs",           "ICMP messages received"),
    ("icmpInEchos",          "Echo requests received (unicast, echo enabled)"),
    ("icmpInErrors",         "Echo requests with a bad checksum or truncated; dropped"),
    ("icmpOutEchoReps",      "Echo replies sent"),
    ("icmpOutDestUnreachs",  "Destination-unreachable messages sent (UDP port, IP protocol)"),
    ("icmpOutRateLimited",   "Destination-unreachable messages suppressed by the rate limit"),
    ("icmpEchoDrops",        "Echo requests dropped because the echo FIFO was full"),
    ("udpInDatagrams",       "Datagrams delivered to the application"),
    ("udpNoPorts",           "Datagrams to a port nobody listens on; dropped"),
    ("udpInErrors",          "Bad length or checksum; dropped"),
    ("udpInOverflows",       "Datagrams dropped because the application's FIFO was full"),
    ("udpOutDatagrams",      "Datagrams sent"),
    ("udpOutErrors",         "Datagrams from the application with a wrong length or too long; dropped"),
    ("hostRxFrames",         "Frames passed to the host path"),
    ("hostTxFrames",         "Frames sent from the host path"),
    ("tcpActiveOpens",       "Active opens (SYN sent for an app open request)"),
    ("tcpPassiveOpens",      "Passive opens (SYN to a listened port accepted)"),
    ("tcpAttemptFails",      "Connections that went to CLOSED from SYN-SENT or SYN-RCVD"),
    ("tcpEstabResets",       "Connections reset or aborted from ESTABLISHED or CLOSE-WAIT"),
    ("tcpInSegs",            "Segments received, including those in error"),
    ("tcpOutSegs",           "Segments sent, including retransmissions and RSTs"),
    ("tcpRetransSegs",       "Segments retransmitted after a timeout"),
    ("tcpInErrs",            "Bad checksum, too short, bad data offset or malformed options; dropped"),
    ("tcpOutRsts",           "Segments sent with RST"),
    ("tcpInWindowDrops",     "Unacceptable segments (outside the window, acking unsent data) and out-of-order ones not stored (a second gap, a duplicate, a FIN ahead); answered with an ACK"),
    ("tcpChallengeAcks",     "RFC 5961 challenge ACKs (in-window RST not at RCV.NXT, SYN in a synchronized state)"),
    ("tcpInBadFlags",        "SYN with FIN, or no ACK in a synchronized state; dropped"),
    ("tcpInOverflows",       "Segments dropped because the TCP checksum FIFO was full"),
    ("tcpAllocFails",        "SYNs and opens refused: no free session id, or a full hash row"),
    ("tcpAppErrors",         "App requests refused: reads beyond the data, sends after the app closed or was told the end"),
    ("tcpAppLenErrors",      "tx_data frames whose length differed from their accepted tx_req"),
    ("tcpHalfOpenDrops",     "SYNs dropped because half-open sessions reached TCP_HALF_OPEN_MAX"),
    ("tcpMssClamped",        "Connections whose peer announced an MSS below TCP_MSS_MIN (raised to it)"),
    ("tcpOutOfOrderSegs",    "Segments stored ahead of RCV.NXT in the one out-of-order interval per session (they join the stream when the gap fills)"),
    ("memErrors",            "AXI4 memory responses that were not OKAY"),
]


def snake_upper(name):
    out = ""
    for i, c in enumerate(name):
        if c.isupper() and i and not name[i - 1].isupper():
            out += "_"
        out += c.upper()
    return out


def gen_sv():
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// GENERATED by scripts/regmap.py from its register table: do not edit by hand.",
        "// toe_csr_pkg: CSR addresses, reset values and counter indices.",
        "package toe_csr_pkg;",
        f"  localparam int unsigned N_COUNTERS = {len(COUNTERS)};",
        f"  localparam logic [11:0] COUNTER_BASE = 12'h{COUNTER_BASE:03X};",
    ]
    for name, off, reset, _ in CONFIG:
        lines.append(f"  localparam logic [11:0] REG_{name} = 12'h{off:03X};")
        lines.append(f"  localparam logic [31:0] RST_{name} = 32'h{reset:08X};")
    for name, off, _ in STATUS:
        lines.append(f"  localparam logic [11:0] REG_{name} = 12'h{off:03X};")
    for i, (name, _) in enumerate(COUNTERS):
        lines.append(f"  localparam int unsigned CNT_{snake_upper(name)} = {i};")
    lines.append("endpackage")
    return "\n".join(lines) + "\n"


def gen_md():
    lines = [
        "# OpenTOE CSR register map",
        "",
        "Generated by `scripts/regmap.py` (the single source); do not edit by hand.",
        "AXI4-Lite, 32-bit data, 12-bit byte addresses. Counters are read-only, 32-bit,",
        "wrapping; writing any value to a counter clears it.",
        "",
        "## Configuration",
        "",
        "| offset | name | reset | description |",
        "|---|---|---|---|",
    ]
    for name, off, reset, desc in CONFIG:
        lines.append(f"| 0x{off:03X} | {name} | 0x{reset:08X} | {desc} |")
    lines += ["", "## Status (read-only)", "", "| offset | name | description |", "|---|---|---|"]
    for name, off, desc in STATUS:
        lines.append(f"| 0x{off:03X} | {name} | {desc} |")
    lines += ["", "## Counters", "", "| offset | name | description |", "|---|---|---|"]
    for i, (name, desc) in enumerate(COUNTERS):
        lines.append(f"| 0x{COUNTER_BASE + 4 * i:03X} | {name} | {desc} |")
    return "\n".join(lines) + "\n"


def gen_cpp():
    lines = [
        "// GENERATED by scripts/regmap.py from its register table: do not edit by hand.",
        "#pragma once",
        "#include <cstdint>",
        "namespace toe_csr {",
    ]
    for name, off, _, _ in CONFIG:
        lines.append(f"constexpr uint32_t REG_{name} = 0x{off:03X};")
    for name, off, _ in STATUS:
        lines.append(f"constexpr uint32_t REG_{name} = 0x{off:03X};")
    lines.append("struct ConfigReg { const char* name; uint32_t offset; };")
    lines.append("constexpr ConfigReg CONFIG_REGS[] = {")
    lines += [f'    {{"{name}", 0x{off:03X}}},' for name, off, _, _ in CONFIG]
    lines.append("};")
    lines.append(f"constexpr uint32_t COUNTER_BASE = 0x{COUNTER_BASE:03X};")
    lines.append("constexpr const char* COUNTER_NAMES[] = {")
    lines += [f'    "{name}",' for name, _ in COUNTERS]
    lines += ["};", f"constexpr unsigned N_COUNTERS = {len(COUNTERS)};", "}  // namespace toe_csr"]
    return "\n".join(lines) + "\n"


OUTPUTS = {ROOT / "rtl/top/toe_csr_pkg.sv": gen_sv, ROOT / "docs/registers.md": gen_md,
           ROOT / "sim/toe_csr_map.h": gen_cpp}

if __name__ == "__main__":
    stale = [p for p, f in OUTPUTS.items() if not p.exists() or p.read_text() != f()]
    if "--check" in sys.argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: run scripts/regmap.py")
        sys.exit(1 if stale else 0)
    for p, f in OUTPUTS.items():
        p.write_text(f())
