"""The register map for Python tests: the names and addresses of opentoe (read from the
single source, scripts/regmap.py)."""
from opentoe.engine import COUNTERS as COUNTER
from opentoe.engine import REGS as REG

__all__ = ["REG", "COUNTER"]
