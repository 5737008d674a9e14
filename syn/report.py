#!/usr/bin/env python3
"""Summarise Yosys synthesis (toe_top, toe_tcp) into build/synth/report.json: cell counts from
`stat` and the deepest combinational path in LUT levels, computed from the JSON netlist.
Paths start and end at flip-flops, block RAM, LUT RAM, SRLs and ports; carry chains and
wide muxes add no LUT level but are reported along the deepest path. Besides the one deepest
path, every register (by name, bit indices dropped) that a path of the deepest two depths
ends at is listed: a cut must shorten all of them to lower the figure.
usage: report.py BUILD_DIR TOP:WIDTH...  (keys: "DATA_W=w" for toe_top, "TOP DATA_W=w" else)"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

SEQUENTIAL = re.compile(r"^(FD|RAMB|URAM|RAM\d|RAM[SD]|SRL|DSP|IBUF|OBUF|BUFG)")


def lut_depth(netlist_path):
    """Deepest path in LUT levels, with the registers (or ports) it starts and ends at."""
    modules = json.loads(Path(netlist_path).read_text())["modules"]
    mod = next(m for m in modules.values() if int(m.get("attributes", {}).get("top", "0"), 2))
    name_of = {}
    for net, info in mod["netnames"].items():
        for b in info["bits"]:
            if isinstance(b, int) and (b not in name_of or name_of[b].startswith("$")):
                name_of[b] = net
    driver, typ, ins_of, outs_of, sinks = {}, {}, {}, {}, {}
    for name, cell in mod["cells"].items():
        dirs = cell.get("port_directions", {})
        bits = lambda d: [b for p, bs in cell["connections"].items() if dirs.get(p) == d
                          for b in bs if isinstance(b, int)]
        typ[name], ins_of[name], outs_of[name] = cell["type"], bits("input"), bits("output")
        for b in outs_of[name]:
            driver[b] = name
        for b in ins_of[name]:
            sinks.setdefault(b, []).append(name)
    comb = {n for n, t in typ.items() if not SEQUENTIAL.match(t)}
    level, via = {}, {}
    for start in comb:
        stack = [(start, False)]
        while stack:
            name, ready = stack.pop()
            if name in level:
                continue
            preds = {driver[b] for b in ins_of[name] if driver.get(b) in comb}
            if not ready:
                stack.append((name, True))
                stack += [(p, False) for p in preds if p not in level]
                continue
            best = max(preds, key=lambda p: level[p], default=None)
            level[name] = (level[best] if best else 0) + (1 if typ[name].startswith("LUT") else 0)
            via[name] = best
    end = max(level, key=level.get)
    first, cells = end, []
    while first:
        cells.append(typ[first])
        if not via[first]:
            break
        first = via[first]
    starts = sorted({name_of.get(b, "?") for b in ins_of[first] if b in driver})[:3]
    ends = sorted({name_of.get(o, "?") for b in outs_of[end] for s in sinks.get(b, [])
                   if SEQUENTIAL.match(typ[s]) for o in outs_of[s]})[:3]
    deep = {}
    for name, t in typ.items():
        if not SEQUENTIAL.match(t):
            continue
        d = max((level[driver[b]] for b in ins_of[name] if driver.get(b) in comb), default=0)
        if d >= level[end] - 1:
            for o in outs_of[name]:
                reg = re.sub(r"\[\d+\]$", "", name_of.get(o, "?"))
                deep[reg] = max(deep.get(reg, 0), d)
    ends_by_depth = {str(d): sorted(r for r, rd in deep.items() if rd == d)
                     for d in sorted(set(deep.values()), reverse=True)}
    return level[end], dict(Counter(cells)), starts, ends, ends_by_depth


def main():
    out_dir = Path(sys.argv[1])
    report = {}
    for target in sys.argv[2:]:
        top, w = target.split(":")
        tag = f"{top}-{w}"
        stat = (out_dir / f"stat-{tag}.txt").read_text()
        cells = {m.group(2): int(m.group(1))
                 for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?(\S+)\s*$", stat, re.M)}
        count = lambda pat: sum(v for k, v in cells.items() if re.fullmatch(pat, k))
        depth, path_cells, starts, ends, ends_by_depth = lut_depth(out_dir / f"netlist-{tag}.json")
        report[f"DATA_W={w}" if top == "toe_top" else f"{top} DATA_W={w}"] = {
            "LUT": count(r"LUT\d"), "FF": count(r"FD[RSCP]E?"), "BRAM36_or_18": count(r"RAMB\w+"),
            "URAM": count(r"URAM\w+"),
            "LUTRAM": count(r"RAM(?!B)\w+"), "SRL": count(r"SRL\w+"), "DSP": count(r"DSP\w+"),
            "CARRY": count(r"CARRY\d"), "max_lut_levels": depth, "deepest_path_cells": path_cells,
            "deepest_path_from": starts, "deepest_path_to": ends,
            "registers_ending_deepest_paths": ends_by_depth}
    (out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
