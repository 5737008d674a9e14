"""opentoe in real time: the engine's sockets driven from Python while its MAC port is a
TAP device and the Linux kernel is the peer (a namespace made for the test, documentation
addresses, nothing leaves it). Python is the application on both kinds of connection: it
echoes what a Linux client sends to its listener, and it connects to a Linux listener and
sends to it; every byte is checked, and the sessions end in order."""
import hashlib
import os
import random
import subprocess
import uuid

import pytest

from opentoe import Engine
from toe_sim_ns import HOST_IP, TOE_IP, in_ns, sh

SIZE = 100_000


@pytest.fixture(scope="module")
def engine():
    if os.geteuid() != 0:
        pytest.skip("real time on a TAP device needs root (network namespace and TAP device)")
    ns = f"toe-py-{uuid.uuid4().hex[:6]}"
    if sh("ip", "netns", "add", ns, check=False).returncode != 0:
        pytest.skip("this machine forbids network namespaces (ip netns add failed)")
    try:
        with Engine(data_w=64, ip=TOE_IP, tap="tap0", netns=ns,
                    regs={"TCP_TIME_WAIT_US": 100_000}) as e:
            for cmd in (["ip", "addr", "add", f"{HOST_IP}/24", "dev", "tap0"],
                        ["ip", "link", "set", "tap0", "up"], ["ip", "link", "set", "lo", "up"]):
                sh("ip", "netns", "exec", ns, *cmd)
            yield ns, e
    finally:
        sh("ip", "netns", "del", ns, check=False)


LINUX_CLIENT = """
import hashlib, socket, sys
data = bytes(range(256)) * (int(sys.argv[3]) // 256) + b"x" * (int(sys.argv[3]) % 256)
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
s.sendall(data)
s.shutdown(socket.SHUT_WR)
got = b""
while chunk := s.recv(65536):
    got += chunk
print("echoed byte-exact" if got == data else f"mismatch: {len(got)} of {len(data)} bytes")
"""


def test_python_application_echoes_a_linux_client(engine):
    ns, e = engine
    srv = e.listen(7000)
    client = subprocess.Popen(["ip", "netns", "exec", ns, "python3", "-c", LINUX_CLIENT, TOE_IP, "7000",
                               str(SIZE)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
    assert "echoed byte-exact" in out, out
    assert e.run_until(lambda: conn.ended, timeout_us=5_000_000) and conn.ended == "CLOSED"
    srv.close()


LINUX_LISTENER = """
import hashlib, socket, sys
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind((sys.argv[1], int(sys.argv[2]))); l.listen(1); l.settimeout(30)
print("listening", flush=True)
c, _ = l.accept(); c.settimeout(30)
h, n = hashlib.sha256(), 0
while chunk := c.recv(65536):
    h.update(chunk); n += len(chunk)
c.sendall(b"thanks")
c.close()
print(n, h.hexdigest(), flush=True)
"""


def test_python_application_connects_to_a_linux_listener(engine):
    ns, e = engine
    data = random.Random(5).randbytes(SIZE)
    listener = subprocess.Popen(["ip", "netns", "exec", ns, "python3", "-c", LINUX_LISTENER, HOST_IP, "6000"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert listener.stdout.readline().strip() == "listening"
        conn = e.connect(HOST_IP, 6000, timeout_us=10_000_000)
        assert conn.established, conn
        assert conn.send(data) == SIZE
        conn.shutdown()
        assert conn.recv_exactly(6, timeout_us=10_000_000) == b"thanks"
        assert conn.recv(timeout_us=10_000_000) == b""           # Linux's FIN
        out = listener.communicate(timeout=30)[0]
    finally:
        listener.kill()
    assert out.split() == [str(SIZE), hashlib.sha256(data).hexdigest()], out
    assert e.run_until(lambda: conn.ended, timeout_us=5_000_000) and conn.ended == "CLOSED"
    # the engine closed first: its session is free after TIME-WAIT (100 ms here)
    assert e.run_until(lambda: e.csr_read("TCP_SESSIONS_IN_USE") == 0, timeout_us=2_000_000, step_us=10_000)
