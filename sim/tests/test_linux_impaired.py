"""Linux interop under impairment: toe-sim's own impairment stage (--impair; this kernel has
no netem) loses, duplicates, corrupts or reorders the frames of one direction, seeded, and
the kernel's TCP must still complete, byte-exact, a 256 kB echo, a 256 kB read from the
source and 256 kB into the sink, with every session freed afterwards. Times are printed,
not checked: speed under loss comes with congestion control and out-of-order queueing.
The protocol core is the same at both widths; the profiles run at 64 bits (the 512-bit
engine runs the clean set in test_linux_interop.py)."""
import concurrent.futures
import re
import time

import pytest

from toe_sim_ns import status, tcp_client, toe_sim_namespace, wait_sessions_free

SIZE = 256 * 1024
LIMIT_S = 150            # per transfer; a stall past it fails the profile
PROFILES = [f"{d}:{p}" for d in ("rx", "tx")
            for p in ("loss=1%", "loss=5%", "reorder=25%:1ms", "dup=5%", "corrupt=1%")]


@pytest.mark.parametrize("profile", PROFILES)
def test_transfers_complete_under(profile):
    with toe_sim_namespace(64, "--impair", profile, "--seed", "1",
                           "--set", "TCP_TIME_WAIT_US=1000000") as (ns, proc):
        sunk0 = status(proc)["discarded"]
        t0 = time.monotonic()
        jobs = {"echo": (7, "bulk", SIZE, LIMIT_S), "source": (19, "source", SIZE),
                "sink": (5001, "sink", SIZE)}
        with concurrent.futures.ThreadPoolExecutor(len(jobs)) as pool:
            runs = {name: pool.submit(tcp_client, ns, *args, timeout=LIMIT_S + 10)
                    for name, args in jobs.items()}
            results = {name: f.result() for name, f in runs.items()}
        took = time.monotonic() - t0
        for name, r in results.items():
            print(f"{profile} {name}: {r.stdout.strip()}")
            assert r.returncode == 0, f"{name}: {r.stdout}{r.stderr}"
        assert "sha256 equal" in results["echo"].stdout
        assert "pattern ok" in results["source"].stdout
        # the sink's FIN can come back before the discard app has counted its last read
        # (the count moves with read completions): wait a little for it, then check
        deadline = time.monotonic() + 10
        while status(proc)["discarded"] - sunk0 < SIZE and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status(proc)["discarded"] - sunk0 == SIZE
        assert wait_sessions_free(proc) == 0
        print(f"{profile}: all three transfers done in {took:.1f} s")
    m = re.search(r"impair (rx|tx): offered (\d+) lost (\d+) duplicated (\d+) corrupted (\d+) "
                  r"reordered (\d+)", proc.report)
    assert m and int(m.group(2)) > 0, proc.report
    kind = profile.split(":")[1].split("=")[0]
    column = {"loss": 3, "dup": 4, "corrupt": 5, "reorder": 6}[kind]
    assert int(m.group(column)) > 0, f"the impairment did nothing: {m.group(0)}"
