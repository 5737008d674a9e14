#!/usr/bin/env python3
"""Collect Yosys `stat` and `ltp` output into build/synth/report.json and print it."""
import json
import re
import sys
from pathlib import Path

out_dir = Path(sys.argv[1])
report = {}
for w in sys.argv[2:]:
    stat = (out_dir / f"stat-{w}.txt").read_text()
    cells = {m.group(2): int(m.group(1)) for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?\$?(\S+)\s*$", stat, re.M)}
    if not cells:
        cells = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", stat, re.M)}
    luts = sum(v for k, v in cells.items() if re.fullmatch(r"LUT\d", k))
    ffs = sum(v for k, v in cells.items() if re.fullmatch(r"FD[RSCP]E?", k))
    bram = sum(v for k, v in cells.items() if k.startswith("RAMB"))
    lutram = sum(v for k, v in cells.items() if k.startswith("RAM") and not k.startswith("RAMB"))
    dsp = sum(v for k, v in cells.items() if k.startswith("DSP"))
    ltp = re.search(r"Longest topological path.*?\(length=(\d+)\)", (out_dir / f"ltp-{w}.txt").read_text())
    report[f"DATA_W={w}"] = {"LUT": luts, "FF": ffs, "BRAM": bram, "LUTRAM": lutram, "DSP": dsp,
                             "longest_path_cells": int(ltp.group(1)) if ltp else None}
(out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
print(json.dumps(report, indent=2))
