"""The files generated from the register map rtl/top/toe_regs.rdl (register block, C
headers, docs) are current: scripts/regs.py --check regenerates them and compares."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_generated_register_files_are_current():
    r = subprocess.run([sys.executable, str(ROOT / "scripts/regs.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
