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
def namespace(prefix, needs):
    """A network namespace made for one test module, deleted at the end; skips with a
    clear reason where root or namespaces are missing (`needs`: what the test needs them for)."""
    if os.geteuid() != 0:
        pytest.skip(f"{needs} needs root (network namespace and TAP device)")
    ns = f"{prefix}-{uuid.uuid4().hex[:6]}"
    if sh("ip", "netns", "add", ns, check=False).returncode != 0:
        pytest.skip("this machine forbids network namespaces (ip netns add failed)")
    try:
        yield ns
    finally:
        sh("ip", "netns", "del", ns, check=False)


def bring_up_tap(ns):
    """Linux at HOST_IP on the engine's TAP device tap0 (once the engine has opened it)."""
    for cmd in (["ip", "addr", "add", f"{HOST_IP}/24", "dev", "tap0"], ["ip", "link", "set", "tap0", "up"],
                ["ip", "link", "set", "lo", "up"]):       # lo: local sockets work too
        sh("ip", "netns", "exec", ns, *cmd)
    time.sleep(0.3)


@contextlib.contextmanager
def toe_sim_namespace(width, *toe_sim_args):
    """Builds toe-sim for `width`, starts it in a new namespace with Linux at HOST_IP on
    its TAP device, and yields (namespace, process); prints toe-sim's exit report (counters,
    impairment counts) at the end. Skips where root or namespaces are missing."""
    with namespace("toe-test", "Linux interop") as ns:
        proc = None
        try:
            build_toe_sim(width)
            proc = subprocess.Popen(["ip", "netns", "exec", ns, str(ROOT / f"build/toe-sim-{width}"),
                                     "--tap", "tap0", "--ip", f"{TOE_IP}/24", "--mac", TOE_MAC,
                                     *toe_sim_args],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            proc.width = width
            assert "ready" in proc.stdout.readline()
            bring_up_tap(ns)
            yield ns, proc
        finally:
            if proc:
                proc.terminate()
                proc.report = proc.communicate(timeout=30)[0]
                print(proc.report)


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
