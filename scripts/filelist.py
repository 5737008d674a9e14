#!/usr/bin/env python3
"""rtl/files.f from the FuseSoC cores: every synthesizable source of toe_top and the
example applications, in the dependency order FuseSoC resolves from the .core files
(rtl/*/*.core). The Makefile (lint, toe-sim, toe-harness, bench, synth) and the cocotb
runner read it; nobody edits it by hand. `--check` fails when it is out of date."""
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "rtl" / "files.f"
CORE = "opentoe:toe:sim"         # everything; the simulation top's own files are left out


def resolve():
    with tempfile.TemporaryDirectory() as build:
        subprocess.run(["fusesoc", "--cores-root", str(ROOT), "run", "--setup", "--no-export",
                        "--build-root", build, "--target", "lint", CORE],
                       check=True, capture_output=True, text=True)
        eda = next(Path(build).rglob("*.eda.yml"))
        files = yaml.safe_load(eda.read_text())["files"]
        paths = [(eda.parent / f["name"]).resolve().relative_to(ROOT) for f in files
                 if f["file_type"] == "systemVerilogSource"]
    return "".join(f"{p}\n" for p in paths if p.parts[0] == "rtl")


if __name__ == "__main__":
    text = resolve()
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text() != text:
            print("rtl/files.f is out of date with the .core files: run scripts/filelist.py")
            sys.exit(1)
        sys.exit(0)
    OUT.write_text(text)
