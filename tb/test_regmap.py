"""The generated register-map files (SV package, C++ header, docs) match their source."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_generated_register_map_is_current():
    r = subprocess.run([sys.executable, str(ROOT / "scripts/regmap.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
