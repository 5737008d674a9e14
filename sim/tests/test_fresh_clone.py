"""A newcomer's first command: `make demo` in a fresh clone of this repository, from
nothing (no build/, no .venv: it must install and build what it needs). It once failed on
every fresh clone because build/ did not exist yet. Needs root and network namespaces
(the demo makes a TAP device in one); skipped with the reason where they are forbidden."""
import os
import subprocess

from toe_sim_ns import ROOT, namespace


def test_make_demo_from_a_fresh_clone(tmp_path):
    with namespace("toe-probe", "make demo"):     # skips where the demo could not run
        pass
    clone = tmp_path / "opentoe"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    assert not (clone / "build").exists() and not (clone / ".venv").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "VERILATOR_ROOT")}
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if ".venv" not in p)
    r = subprocess.run(["make", "demo"], cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
    out = r.stdout + r.stderr
    assert r.returncode == 0, f"make demo failed in a fresh clone:\n{out[-4000:]}"
    assert "sha256 equal" in out and "Every frame of the demo" in out, out[-2000:]
