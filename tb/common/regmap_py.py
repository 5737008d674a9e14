"""The register map for Python tests: names and addresses read from its one source,
rtl/top/toe_regs.rdl, through systemrdl-compiler (opentoe.regs)."""
from opentoe.regs import COUNTERS as COUNTER
from opentoe.regs import REGS as REG

__all__ = ["REG", "COUNTER"]
