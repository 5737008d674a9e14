"""opentoe in real time: the engine's sockets driven from Python while its MAC port is a
TAP device and the Linux kernel is the peer (a namespace made for the test, documentation
addresses, nothing leaves it). Python is the application on both kinds of connection: it
echoes what a Linux client sends to its listener, and it connects to a Linux listener and
sends to it; every byte is checked, and the sessions end in order."""
import subprocess

import pytest

from opentoe import Engine
from toe_sim_ns import HOST_IP, ROOT, TOE_IP, bring_up_tap, namespace

SIZE = 100_000


@pytest.fixture(scope="module")
def engine():
    with namespace("toe-py", "Real time on a TAP device") as ns:
        with Engine(data_w=64, ip=TOE_IP, tap="tap0", netns=ns, regs={"TCP_TIME_WAIT_US": 100_000}) as e:
            bring_up_tap(ns)
            yield ns, e


def linux_peer(ns, *args):
    """sim/tcp_client.py in the namespace, as a process (its modes: see its docstring)."""
    return subprocess.Popen(["ip", "netns", "exec", ns, "python3", str(ROOT / "sim/tcp_client.py"), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_python_application_echoes_a_linux_client(engine):
    """Linux sends SIZE random bytes, shuts down its write side and reads the echo to the
    engine's FIN; the echo is a Python application on the engine's sockets."""
    ns, e = engine
    srv = e.listen(7000)
    client = linux_peer(ns, TOE_IP, 7000, "halfclose", SIZE)
    try:
        conn = srv.accept(timeout_us=10_000_000)
        assert conn is not None, "no connection from Linux"
        total = 0
        while chunk := conn.recv(65535, timeout_us=10_000_000):   # b"" after Linux's FIN
            assert conn.send(chunk) == len(chunk)
            total += len(chunk)
        conn.close()
        out = client.communicate(timeout=30)[0]
    finally:
        client.kill()
    assert total == SIZE
    assert "echo complete" in out and client.returncode == 0, out
    assert e.run_until(lambda: conn.ended, timeout_us=5_000_000) and conn.ended == "CLOSED"
    srv.close()


def test_python_application_connects_to_a_linux_listener(engine):
    """The Python application opens the connection, sends SIZE bytes of the pattern the
    Linux listener checks (byte n is n mod 251), and closes first."""
    ns, e = engine
    listener = linux_peer(ns, HOST_IP, 6000, "listen", SIZE, 30)
    try:
        assert listener.stdout.readline().strip() == "listening"
        conn = e.connect(HOST_IP, 6000, timeout_us=10_000_000)
        assert conn.established, conn
        assert conn.send(bytes(i % 251 for i in range(SIZE))) == SIZE
        conn.shutdown()
        assert conn.recv(timeout_us=10_000_000) == b""           # Linux's FIN
        out = listener.communicate(timeout=30)[0]
    finally:
        listener.kill()
    assert f"received {SIZE} bytes" in out and "pattern ok" in out and listener.returncode == 0, out
    assert e.run_until(lambda: conn.ended, timeout_us=5_000_000) and conn.ended == "CLOSED"
    # the engine closed first: its session is free after TIME-WAIT (100 ms here)
    assert e.run_until(lambda: e.csr_read("TCP_SESSIONS_IN_USE") == 0, timeout_us=2_000_000, step_us=10_000)
