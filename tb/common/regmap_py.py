"""The register map for Python tests, read from the single source (scripts/regmap.py)."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "regmap", Path(__file__).resolve().parents[2] / "scripts" / "regmap.py")
regmap = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regmap)

REG = {name: off for name, off, _, _ in regmap.CONFIG}
REG.update({name: off for name, off, _ in regmap.STATUS})
COUNTER = {name: regmap.COUNTER_BASE + 4 * i for i, (name, _) in enumerate(regmap.COUNTERS)}
