"""toe-sim on a TAP device in a network namespace made for one test module (documentation
addresses 192.0.2.0/24; nothing leaves the namespace), and the helpers the Linux interop
tests share: commands in the namespace, toe-sim's status line."""
import contextlib
import fcntl
import os
import re
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST_IP, TOE_IP, TOE_MAC = "192.0.2.1", "192.0.2.2", "02:00:00:00:00:02"


def sh(*args, check=True, **kw):
    return subprocess.run(args, check=check, capture_output=True, text=True, **kw)


def build_toe_sim(width):
    """make build/toe-sim-WIDTH, one test process at a time (they share the object folder)."""
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / f".toe-sim-{width}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = sh("make", "-s", f"build/toe-sim-{width}", f"SIM_DATA_W={width}", cwd=ROOT, check=False)
        assert r.returncode == 0, f"building toe-sim-{width} failed:\n{r.stdout}{r.stderr}"


@contextlib.contextmanager
def toe_sim_namespace(width, *toe_sim_args):
    """Builds toe-sim for `width`, starts it in a new namespace with Linux at HOST_IP on
    its TAP device, and yields (namespace, process); prints toe-sim's exit report (counters,
    impairment counts) at the end. Skips where root or namespaces are missing."""
    if os.geteuid() != 0:
        pytest.skip("Linux interop needs root (network namespace and TAP device)")
    ns = f"toe-test-{uuid.uuid4().hex[:6]}"
    if sh("ip", "netns", "add", ns, check=False).returncode != 0:
        pytest.skip("this machine forbids network namespaces (ip netns add failed)")
    proc = None
    try:
        build_toe_sim(width)
        proc = subprocess.Popen(["ip", "netns", "exec", ns, str(ROOT / f"build/toe-sim-{width}"),
                                 "--tap", "tap0", "--ip", f"{TOE_IP}/24", "--mac", TOE_MAC,
                                 *toe_sim_args],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        proc.width = width
        assert "ready" in proc.stdout.readline()
        sh("ip", "netns", "exec", ns, "ip", "addr", "add", f"{HOST_IP}/24", "dev", "tap0")
        sh("ip", "netns", "exec", ns, "ip", "link", "set", "tap0", "up")
        sh("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")   # local sockets work
        time.sleep(0.3)
        yield ns, proc
    finally:
        if proc:
            proc.terminate()
            proc.report = proc.communicate(timeout=30)[0]
            print(proc.report)
        sh("ip", "netns", "del", ns, check=False)


def in_ns(ns, *args, timeout=120):
    return subprocess.run(["ip", "netns", "exec", ns, *args], capture_output=True, text=True,
                          timeout=timeout)


def tcp_client(ns, *args, timeout=300):
    return in_ns(ns, "python3", str(ROOT / "sim/tcp_client.py"), TOE_IP, *map(str, args), timeout=timeout)


def status(proc):
    """Ask toe-sim for its status line (SIGUSR1): {tcpCurrEstab, tcpSessionsInUse, client, sent,
    discarded}."""
    proc.send_signal(signal.SIGUSR1)
    while True:
        line = proc.stdout.readline()
        m = re.search(r"status: tcpCurrEstab (\d+) tcpSessionsInUse (\d+) client (\w+) sent (\d+) "
                      r"discarded (\d+)", line)
        if m:
            return {"tcpCurrEstab": int(m.group(1)), "tcpSessionsInUse": int(m.group(2)),
                    "client": m.group(3), "sent": int(m.group(4)), "discarded": int(m.group(5))}
        assert line, "toe-sim exited"


def sessions_in_use(proc):
    return status(proc)["tcpSessionsInUse"]


def wait_sessions_free(proc, timeout_s=90):
    """Sessions return to the pool once closed (retransmitted FINs may take seconds)."""
    deadline = time.time() + timeout_s
    while (n := sessions_in_use(proc)) and time.time() < deadline:
        time.sleep(1)
    return n
