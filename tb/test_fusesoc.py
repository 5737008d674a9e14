"""The FuseSoC cores: `fusesoc core list` finds every layer, each layer lints through
FuseSoC (verilator --lint-only -Wall over it and the layers below it), a module that uses
one from a layer above it fails that lint, and rtl/files.f is what the cores resolve to."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["lib", "net", "tcp", "top", "app", "sim"]


def fusesoc(root, *args, build=None):
    cmd = ["fusesoc", "--cores-root", str(root), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=build or root)


def test_core_list_finds_every_layer():
    r = fusesoc(ROOT, "core", "list")
    assert r.returncode == 0, r.stderr
    for layer in LAYERS + ["lint_waivers"]:
        assert f"opentoe:toe:{layer}:" in r.stdout, r.stdout


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_lints_through_fusesoc(layer, tmp_path):
    r = fusesoc(ROOT, "run", "--build-root", str(tmp_path), "--target", "lint", f"opentoe:toe:{layer}")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def test_a_module_using_a_layer_above_fails_the_lint(tmp_path):
    """The network layer does not depend on TCP: once its lint top (IPv4 RX) instantiates
    a TCP module, the network layer's lint fails."""
    for d in ("rtl", "syn"):
        shutil.copytree(ROOT / d, tmp_path / d)
    src = tmp_path / "rtl/net/toe_ipv4_rx.sv"
    text = src.read_text()
    end = text.rindex("endmodule")
    src.write_text(text[:end] + "  toe_tcp_isn u_layer_violation (.clk, .rst);\n" + text[end:])
    r = fusesoc(tmp_path, "run", "--build-root", str(tmp_path / "build"), "--target", "lint", "opentoe:toe:net")
    assert r.returncode != 0
    assert "toe_tcp_isn" in r.stdout + r.stderr


def test_files_f_is_what_the_cores_resolve_to():
    r = subprocess.run([sys.executable, str(ROOT / "scripts/filelist.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
