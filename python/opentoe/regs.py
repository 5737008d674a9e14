"""The register map as Python sees it, read from its one source, rtl/top/toe_regs.rdl,
through systemrdl-compiler's API (the same compile that scripts/regs.py feeds to the
PeakRDL exporters, so the Python tests, the RTL, the C header and the docs cannot drift).

    REGS      name -> byte address of every configuration register and gauge
    COUNTERS  name -> byte address of every counter (MIB names), in stat_inc order
    REGISTERS name -> Register (address, kind, reset value, writable bits)
"""
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RDL = Path(__file__).resolve().parents[2] / "rtl" / "top" / "toe_regs.rdl"


@dataclass(frozen=True)
class Register:
    name: str
    address: int
    kind: str          # "config" (read/write), "id" (read-only constant), "gauge", "counter"
    reset: int         # value after reset (0 for gauges, whose value the engine drives)
    writable: int      # mask of the bits a write changes (for counters: a write clears all)
    desc: str


def compile_map():
    """Compile the RDL; returns the top addrmap node (systemrdl.node.AddrmapNode)."""
    from peakrdl_regblock.udps import ALL_UDPS
    from systemrdl import RDLCompiler
    rdlc = RDLCompiler()
    for udp in ALL_UDPS:   # the regblock exporter's own properties (buffer_writes, ...)
        rdlc.register_udp(udp)
    rdlc.compile_file(str(RDL))
    return rdlc.elaborate().top


def register_kind(reg):
    fields = reg.fields()
    if any(f.get_property("counter") for f in fields):
        return "counter"
    if not reg.has_sw_writable:
        return "gauge" if any(f.is_hw_writable for f in fields) else "id"
    return "config"


@lru_cache(maxsize=1)
def registers():
    out = {}
    for reg in compile_map().registers():
        reset = writable = 0
        for f in reg.fields():
            mask = ((1 << f.width) - 1) << f.lsb
            reset |= (f.get_property("reset") or 0) << f.lsb
            if f.is_sw_writable:
                writable |= mask
        out[reg.inst_name] = Register(reg.inst_name, reg.absolute_address, register_kind(reg), reset,
                                      writable, reg.get_property("desc") or reg.get_property("name"))
    return out


REGISTERS = registers()
REGS = {r.name: r.address for r in REGISTERS.values() if r.kind != "counter"}
COUNTERS = {r.name: r.address for r in REGISTERS.values() if r.kind == "counter"}
