#!/usr/bin/env python3
"""make bench's report: build/bench/results.json -> build/bench/report.html, one
self-contained page (matplotlib PNGs inline) with

  latency     TCP RX and TX latency against payload size, 64 and 512 bits, in cycles and
              in ns at the reference clocks (156.25 MHz at 64 bits, 322 MHz at 512 bits)
  goodput     TCP goodput into the engine against segment size, in Gb/s, with the wire's
              payload limit as a line
  flows       TCP goodput (rx, tx, both) and echo at MSS 1460 against the session count
  seg_rate    TCP segments taken per cycle against the number of sessions, per segment
              kind, with the wire's own segment rate as a line and the drops written on
  echo        ICMP and UDP echo throughput against frame size, as a fraction of the wire

beside the published figures of the seed papers (../shared/papers) as reference points,
and a table of every row of results.json. Usage: report.py RESULTS.json REPORT.html
"""
import base64
import html
import io
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CLOCK_MHZ = {64: 156.25, 512: 322.0}
LINE_GBPS = {64: 10.0, 512: 100.0}
COLOR = {64: "tab:blue", 512: "tab:red"}

# Published figures (the papers in ../shared/papers), each with where it comes from.
# Sidler 2015, Table III (64 bits at 156.25 MHz, loopback app, DDR3 buffers): cycles.
SIDLER_RX = {1: 170, 536: 375}
SIDLER_TX = {1: 131, 536: 402}
SIDLER_SYNACK = 176
# Yang 2023, Fig. 16 and text: RX latency (PHY-side first byte in -> first app byte out)
# of the double-queue TOE (fixed 600 ns for 64..1024 B), of BRAM-buffered designs
# ([9,21]: 700 ns at 64 B, 1.344 us at 1024 B) and of a DDR3-buffered design ([8]: 1.21 us
# at 64 B, 2.62 us at 1024 B); RX throughput 9.5 Gb/s.
YANG_RX_NS = {"Yang 2023 double queue": {64: 600, 1024: 600},
              "BRAM designs (Yang 2023)": {64: 700, 1024: 1344},
              "DDR3 design (Yang 2023)": {64: 1210, 1024: 2620}}
YANG_RX_GBPS = 9.5
# The 100G multi-level-cache paper (2023), Fig. 7 and text, 8192-byte packets: hot
# sessions (state in BRAM) RX 100 Gb/s, TX above 85 Gb/s; cold sessions (state in DDR)
# RX 85 Gb/s, TX 61 Gb/s.
MLC_8192 = {"100G cache paper, RX hot": 100, "100G cache paper, TX hot": 85,
            "100G cache paper, RX cold": 85, "100G cache paper, TX cold": 61}


def png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def wire_payload_fraction(n):
    """Payload share of the wire for n-byte TCP segments: Ethernet + IPv4 + TCP headers
    (54 B, padded to the 60-byte minimum), FCS, preamble and IFG (24 B)."""
    return n / (max(n + 54, 60) + 24)


def latency_plot(rows):
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    for r_i, (key, name, sidler) in enumerate((("rx_latency_cycles", "RX", SIDLER_RX),
                                                ("tx_latency_cycles", "TX", SIDLER_TX))):
        for c_i, unit in enumerate(("cycles", "ns")):
            ax = axes[r_i][c_i]
            for w in (64, 512):
                pts = sorted((r["payload"], r[key]) for r in rows if r.get("data_w") == w and key in r)
                if not pts:
                    continue
                x = [p for p, _ in pts]
                y = [c if unit == "cycles" else c * 1000 / CLOCK_MHZ[w] for _, c in pts]
                ax.plot(x, y, "o-", color=COLOR[w], label=f"OpenTOE {w} bits ({CLOCK_MHZ[w]:g} MHz)")
            sx = sorted(sidler)
            sy = [sidler[p] if unit == "cycles" else sidler[p] * 1000 / 156.25 for p in sx]
            ax.plot(sx, sy, "s--", color="gray", label="Sidler 2015 (64 bits, 156.25 MHz)")
            if name == "RX" and unit == "ns":
                for (label, pts), m in zip(YANG_RX_NS.items(), ("^", "v", "D")):
                    ax.plot(sorted(pts), [pts[p] for p in sorted(pts)], m + ":", color="green", alpha=0.7,
                            label=label)
            ax.set_xscale("log")
            ax.set_xlabel("payload (bytes)")
            ax.set_ylabel(f"{name} latency ({unit})")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle("TCP latency: RX = first frame byte in -> first payload byte to the app; "
                 "TX = first app byte -> first segment byte out", fontsize=9)
    return png(fig)


def goodput_plot(rows):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, w in zip(axes, (64, 512)):
        pts = sorted((r["payload"], r["value"], r["drops"]) for r in rows
                     if r.get("metric") == "goodput" and r.get("data_w") == w and r["direction"] == "rx"
                     and r["sessions"] == 1)
        sizes = [64, 128, 256, 536, 1024, 1460, 8192]
        ax.plot(sizes, [LINE_GBPS[w] * wire_payload_fraction(n) for n in sizes], "k-", lw=1,
                label=f"wire limit ({LINE_GBPS[w]:g} Gb/s, headers and IFG counted)")
        if pts:
            ax.plot([p for p, _, _ in pts], [LINE_GBPS[w] * v * wire_payload_fraction(p) for p, v, _ in pts],
                    "o-", color=COLOR[w], label=f"OpenTOE {w} bits, 1 session, RX")
            for p, v, drops in pts:
                if drops:
                    ax.annotate(f"{drops} drops", (p, LINE_GBPS[w] * v * wire_payload_fraction(p)),
                                fontsize=7, textcoords="offset points", xytext=(0, -12))
        if w == 64:
            ax.axhline(YANG_RX_GBPS, color="green", ls=":", label="Yang 2023 RX, 9.5 Gb/s (segment size not given)")
        else:
            for (label, gbps), m in zip(MLC_8192.items(), ("^", "v", "D", "s")):
                ax.plot([8192], [gbps], m, color="purple", alpha=0.7, label=label + " (8192 B packets)")
        ax.set_xscale("log")
        ax.set_xlabel("TCP payload per segment (bytes)")
        ax.set_ylabel("goodput (Gb/s)")
        ax.set_title(f"{w} bits", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    return png(fig)


def sessions_axes(ax, ylabel, title):
    """An axis over the session count (log 2) from zero up, with grid and legend."""
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sessions")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def flows_plot(rows):
    """Goodput (MSS 1460) and echo against the session count, per direction: the median
    run, with the spread of the runs (rows of more than one session) as an error bar."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    series = [("goodput", "rx", "o-"), ("goodput", "tx", "s-"), ("goodput", "both", "^-"), ("echo_goodput", None, "D--")]
    for ax, w in zip(axes, (64, 512)):
        for metric, direction, style in series:
            pts = sorted((r["sessions"], r["value"], r["drops"], r.get("value_min", r["value"]),
                          r.get("value_max", r["value"])) for r in rows
                         if r.get("metric") == metric and r.get("data_w") == w and r.get("value") is not None
                         and r.get("direction") == direction and r.get("payload", 1460) == 1460
                         and not r.get("nagle"))
            if not pts:
                continue
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=direction or "echo")
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts], fmt="none", ecolor=line.get_color(), capsize=3,
                        yerr=[[p[1] - p[3] for p in pts], [p[4] - p[1] for p in pts]])
            for s_, v, d, _, _ in pts:
                if d:
                    ax.annotate(f"{d} drops", (s_, v), fontsize=7, color=line.get_color(),
                                textcoords="offset points", xytext=(2, 4))
        ax.axhline(1.0, color="k", lw=1, label="wire limit")
        sessions_axes(ax, "payload / payload wire limit", f"{w} bits ({CLOCK_MHZ[w]:g} MHz)")
    return png(fig)


def seg_rate_plot(rows):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    styles = {"ack": "o-", "data1": "s-", "data64": "^-"}
    for ax, w in zip(axes, (64, 512)):
        for k_i, (kind, style) in enumerate(styles.items()):
            pts = sorted((r["sessions"], r["value"], r["drops"], r["wire_value"]) for r in rows
                         if r.get("metric") == "seg_rate" and r.get("data_w") == w and r["kind"] == kind)
            if not pts:
                continue
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=f"{kind}")
            ax.axhline(pts[0][3], color=line.get_color(), ls=":", lw=1)
            for s, v, d, _ in pts:
                if d:
                    ax.annotate(f"{d} drops", (s, v), fontsize=7, color=line.get_color(),
                                textcoords="offset points", xytext=(2, 6 - 9 * k_i))
        sessions_axes(ax, "segments per cycle (round robin over the sessions)",
                      f"{w} bits ({CLOCK_MHZ[w]:g} MHz): dotted = the wire's segment rate per kind")
    return png(fig)


def echo_plot(rows):
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for w in (64, 512):
        for proto, style in (("icmp", "o-"), ("udp", "s--")):
            pts = sorted((r["frame_bytes"], r["line_rate_fraction"]) for r in rows
                         if r.get("proto") == proto and r.get("data_w") == w and "frame_bytes" in r)
            if pts:
                ax.plot([p for p, _ in pts], [v for _, v in pts], style, color=COLOR[w], label=f"{proto} echo, {w} bits")
    ax.axhline(1.0, color="k", lw=1, label="wire limit")
    ax.set_xlabel("frame (bytes, with FCS)")
    ax.set_ylabel("replies / wire limit")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return png(fig)


def table(rows):
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r.get(k, '')))}</td>" for k in keys) + "</tr>"
                   for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def main(results, out):
    rows = json.load(open(results))
    sections = [
        ("TCP latency against payload size", latency_plot(rows),
         "Cycles (left) and ns at the reference clock of each width (right). The gray squares are "
         "Sidler 2015 (Table III, DDR3 buffers, 64 bits at 156.25 MHz); the green points in the RX/ns "
         "panel are Yang 2023 (Fig. 16: its double-queue TOE and the BRAM and DDR3 designs it compares). "
         "The reference clock is where the cycle counts would be ns; synthesis (make synth) says "
         "which clock the logic closes at today."),
        ("TCP goodput against segment size", goodput_plot(rows),
         "One session, peer to engine's discard app, segments offered at exactly the wire rate by a "
         "peer that behaves as Linux (slow start, fast retransmit, RTO). The "
         "black line is the wire's payload limit (Ethernet, IPv4 and TCP headers, FCS, preamble and "
         "IFG counted); the engine's drops are written on the points. References: Yang "
         "2023's RX throughput, and the 100G multi-level-cache paper's 8192-byte figures."),
        ("TCP goodput and echo against session count", flows_plot(rows),
         "MSS 1460: rx into the discard app, tx from the pattern source, both directions at once "
         "on each session, and echo; both directions of the wire paced at the wire rate. Rows "
         "without a value (the example source app's sender slots) are listed in the table."),
        ("TCP segment rate against session count", seg_rate_plot(rows),
         "Pure ACKs, 1-byte and 64-byte segments offered back to back at the wire rate, round robin "
         "over N established sessions. A point below its dotted line is a shortfall; its drops "
         "(tcpInOverflows + ethInOverflows) are written beside it. No seed paper publishes a "
         "segment rate; Sidler 2015 budgets 15 Mpps (one minimum frame per 10.5 cycles at 10G)."),
        ("ICMP and UDP echo against frame size", echo_plot(rows),
         "Replies per wire limit with requests back to back; above 1 the engine is faster than the wire."),
    ]
    body = "".join(f"<h2>{html.escape(t)}</h2><p>{html.escape(d)}</p><img src='data:image/png;base64,{img}'>"
                   for t, img, d in sections)
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>OpenTOE benchmark report</title>"
            "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}img{max-width:100%}"
            "table{border-collapse:collapse;font-size:11px}td,th{border:1px solid #ccc;padding:2px 4px}</style>"
            "</head><body><h1>OpenTOE benchmark report</h1>"
            "<p>Cycle-accurate simulation (make bench, Verilator) of toe_sim_top: the engine with its "
            "built-in apps and a behavioural memory. Every figure is in build/bench/results.json.</p>"
            f"{body}<h2>Every row of results.json</h2>{table(rows)}</body></html>")
    with open(out, "w") as f:
        f.write(page)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
