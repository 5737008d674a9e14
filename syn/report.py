#!/usr/bin/env python3
"""Summarise Yosys synthesis of toe_top into build/synth/report.json: cell counts from
`stat` and the deepest combinational path in LUT levels, computed from the JSON netlist.
Paths start and end at flip-flops, block RAM, LUT RAM, SRLs and ports; carry chains and
wide muxes add no LUT level but are reported along the deepest path.
usage: report.py BUILD_DIR WIDTH..."""
import json
import re
import sys
from collections import Counter
from pathlib import Path

SEQUENTIAL = re.compile(r"^(FD|RAMB|RAM\d|RAM[SD]|SRL|DSP|IBUF|OBUF|BUFG)")


def lut_depth(netlist_path):
    modules = json.loads(Path(netlist_path).read_text())["modules"]
    mod = next(m for m in modules.values() if int(m.get("attributes", {}).get("top", "0"), 2))
    driver, comb = {}, {}
    for name, cell in mod["cells"].items():
        dirs = cell.get("port_directions", {})
        outs = [b for p, bits in cell["connections"].items() if dirs.get(p) == "output" for b in bits]
        ins = [b for p, bits in cell["connections"].items() if dirs.get(p) == "input" for b in bits]
        for b in outs:
            if isinstance(b, int):
                driver[b] = name
        if not SEQUENTIAL.match(cell["type"]):
            comb[name] = (cell["type"], [b for b in ins if isinstance(b, int)])
    level, via = {}, {}
    for start in comb:
        stack = [(start, False)]
        while stack:
            name, ready = stack.pop()
            if name in level:
                continue
            typ, ins = comb[name]
            preds = {driver[b] for b in ins if b in driver and driver[b] in comb}
            if not ready:
                stack.append((name, True))
                stack += [(p, False) for p in preds if p not in level]
                continue
            best = max(preds, key=lambda p: level[p], default=None)
            level[name] = (level[best] if best else 0) + (1 if typ.startswith("LUT") else 0)
            via[name] = best
    end = max(level, key=level.get)
    path, n = [], end
    while n:
        path.append(comb[n][0])
        n = via[n]
    return level[end], dict(Counter(path))


def main():
    out_dir = Path(sys.argv[1])
    report = {}
    for w in sys.argv[2:]:
        stat = (out_dir / f"stat-{w}.txt").read_text()
        cells = {m.group(2): int(m.group(1))
                 for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?(\S+)\s*$", stat, re.M)}
        count = lambda pat: sum(v for k, v in cells.items() if re.fullmatch(pat, k))
        depth, path_cells = lut_depth(out_dir / f"netlist-{w}.json")
        report[f"DATA_W={w}"] = {
            "LUT": count(r"LUT\d"), "FF": count(r"FD[RSCP]E?"), "BRAM36_or_18": count(r"RAMB\w+"),
            "LUTRAM": count(r"RAM(?!B)\w+"), "SRL": count(r"SRL\w+"), "DSP": count(r"DSP\w+"),
            "CARRY": count(r"CARRY\d"), "max_lut_levels": depth, "deepest_path_cells": path_cells}
    (out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
