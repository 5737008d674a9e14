"""Every packetdrill script of ../shared/conformance (the freebsd-net tcp-testsuite state x
event matrix) and of conformance/scripts (the project's own) against the RTL through
toe-pkt, at 64 and 512 bits. A script must pass unless conformance/expected-failures.txt
lists it with its reason; a listed script that passes fails this test too (remove its
line), so the file stays true. Where the shared scripts are not beside the repository (a
clone elsewhere), the project's own still run."""
import multiprocessing
from pathlib import Path

import pytest

from opentoe.engine import build_harness
from opentoe.packetdrill import _run_one, collect

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "conformance"


def expected_failures():
    out = {}
    for line in (ROOT / "conformance" / "expected-failures.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, _, reason = line.partition(" :: ")
            out[path.strip()] = reason.strip()
    return out


def rel(path):
    p = Path(path).resolve()
    for base in (SHARED, ROOT):
        try:
            return str(p.relative_to(base.resolve()))
        except ValueError:
            pass
    return str(p)


@pytest.mark.parametrize("data_w", [64, 512])
def test_conformance(data_w):
    build_harness(data_w)
    own = collect([ROOT / "conformance" / "scripts"])
    shared = collect([SHARED]) if SHARED.is_dir() else []
    if not shared:
        print(f"{SHARED} is not there (the shared scripts sit beside the repository): the project's own only")
    assert len(own) >= 17 and (not shared or len(shared) >= 307), (len(own), len(shared))
    scripts = shared + own
    with multiprocessing.Pool(2) as pool:
        results = pool.map(_run_one, [(str(p), data_w, False) for p in scripts])
    xfail = expected_failures()
    unexpected = [f"{rel(r.path)}:{r.line}: {r.reason}" for r in results
                  if r.result != "pass" and rel(r.path) not in xfail]
    now_passing = [rel(r.path) for r in results if r.result == "pass" and rel(r.path) in xfail]
    passed = sum(r.result == "pass" for r in results)
    print(f"DATA_W={data_w}: {passed} passed, {len(results) - passed} failed "
          f"({len(xfail)} expected failures)")
    assert not unexpected, "scripts failing that are not expected failures:\n" + "\n".join(unexpected)
    assert not now_passing, ("expected failures that pass now (remove them from "
                             "conformance/expected-failures.txt):\n" + "\n".join(now_passing))
