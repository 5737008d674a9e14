"""toe-pkt and the opentoe package themselves: the script parser, sequence arithmetic, the
matcher (a script that must fail does fail, at the line and for the reason it should),
virtual time (a 60 s TIME-WAIT in well under a second of wall time, deterministic), and
the regression of issue 8's bug 0 (one SYN with options 01 01 b9 ff stopped all TCP)."""
import time
from pathlib import Path

import pytest
from scapy.all import IP, TCP, Ether, Raw
from scapy.layers.inet import in4_pseudoheader
from scapy.utils import checksum

from opentoe import Engine
from opentoe.engine import build_harness
from opentoe.packetdrill import (Mismatch, ScriptError, parse_script, parse_segment, run_script,
                                 seq_add, seq_sub)



@pytest.fixture(scope="module", autouse=True)
def harness():
    """Build the 64-bit harness once, before any test times a run."""
    build_harness(64)


HANDSHAKE = """--tolerance_usecs=10000
 0.00 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
+0.00 bind(3, ..., ...) = 0
+0.00 listen(3, 1) = 0
+0.10 < S 0:0(0) win 32767 <mss 1460,sackOK,eol,eol>
+0.00 > S. 0:0(0) ack 1 win 65535 <mss 1460>
+0.01 < . 1:1(0) ack 1 win 32767
+0.00 accept(3, ..., ...) = 4
"""


def test_parse_segments():
    s = parse_segment("> S. 0:0(0) ack 1 win 65535 <mss 1460,nop,wscale 6,sackOK,TS val 100 ecr 0>")
    assert (s.direction, s.flags, s.seq, s.length, s.ack, s.win) == (">", 0x12, 0, 0, 1, 65535)
    assert [o[0] for o in s.options] == ["MSS", "NOP", "WScale", "SAckOK", "Timestamp"]
    assert s.options[4] == ("Timestamp", (100, 0))
    s = parse_segment("< P. 1:1001(1000) ack 1 win 257 <sack 5:9 10:20,eol>")
    assert (s.flags, s.seq, s.end, s.length) == (0x18, 1, 1001, 1000)
    assert s.options[0] == ("SAck", (5, 9, 10, 20))
    s = parse_segment("> S.     ...(0)     ack 65538 win 65535")
    assert s.seq is None and s.ack == 65538
    for bad in ["> S 0:5(4) win 1", "< Q 0:0(0)", "> S 0:0(0) win 1 <bogus 3>"]:
        with pytest.raises(ScriptError):
            parse_segment(bad)


def test_parse_script_times_and_ifdefs():
    headers, lines = parse_script("""--tolerance_usecs=75000
 0.50 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
+0.25 `sysctl -w net.inet.tcp.insecure_rst=1`
#ifdef FreeBSD
+0.00 `tcpdrop -s TIME_WAIT`
#endif
#ifdef STANDARD
+1.00 %{ assert tcpi_state == TCPI_CLOSED }%
#endif
 3.00 close(3) = 0
""")
    assert headers["tolerance_usecs"] == "75000"
    assert [(l.kind, l.time) for l in lines] == [("syscall", 0.5), ("shell", 0.75), ("code", 1.75),
                                                 ("syscall", 3.0)]
    assert lines[0].call == "socket" and lines[0].ret == "3"
    with pytest.raises(ScriptError):
        parse_script("+0.1 frobnicate\n")


def test_sequence_arithmetic():
    assert seq_add(2**32 - 1, 2) == 1
    assert seq_sub(1, 2**32 - 1) == 2
    assert seq_sub(2**32 - 1, 1) == -2
    assert seq_sub(5, 5) == 0


def run_text(tmp_path, text, name="t.pkt"):
    p = tmp_path / name
    p.write_text(text)
    return run_script(p)


def test_script_passes(tmp_path):
    r = run_text(tmp_path, HANDSHAKE + "+0.00 close(4) = 0\n+0.00 > F. 1:1(0) ack 1 win 65535\n")
    assert r.result == "pass", r


@pytest.mark.parametrize("tail,line,reason", [
    ("+0.00 close(4) = 0\n+0.00 > F. 1:1(0) ack 2 win 65535\n", 10, "acknowledgment number"),
    ("+0.00 close(4) = 0\n+0.00 > F. 7:7(0) ack 1 win 65535\n", 10, "sequence number"),
    ("+0.00 close(4) = 0\n+0.00 > R. 1:1(0) ack 1 win 65535\n", 10, "flags"),
    ("+0.50 close(4) = 0\n+0.00 > F. 1:1(0) ack 1 win 65535\n+0.00 > . 1:1(0) ack 1 win 1\n", 11, "nothing was sent"),
    ("+0.00 close(4) = 0\n+0.30 > F. 1:1(0) ack 1 win 65535\n", 10, "came early"),
    ("+0.00 close(4) = 0\n+0.10 < . 1:1(0) ack 2 win 32767\n", 10, "unexpected outbound"),
    ("+0.00 getsockopt(4, SOL_SOCKET, SO_ERROR, [ECONNRESET], [4]) = 0\n", 9, "SO_ERROR"),
    ("+0.01 %{ assert tcpi_state == TCPI_CLOSE_WAIT }%\n", 9, "state is ESTABLISHED"),
])
def test_script_that_must_fail_fails(tmp_path, tail, line, reason):
    r = run_text(tmp_path, HANDSHAKE + tail)
    assert r.result == "fail" and r.line == line and reason in r.reason, r


def test_window_and_options_loose_by_default_strict_on_request(tmp_path):
    text = HANDSHAKE.replace("win 65535 <mss 1460>", "win 1234 <mss 1460,nop,wscale 7>")
    r = run_text(tmp_path, text)
    assert r.result == "pass" and any("win 65535 (script 1234)" in n for n in r.notes), r
    p = tmp_path / "strict.pkt"
    p.write_text(text)
    assert run_script(p, strict=True).result == "fail"


def test_virtual_time_is_fast_and_deterministic():
    def once():
        with Engine(regs={"TCP_TIME_WAIT_US": 60_000_000}) as e:
            lst = e.listen(7)
            e.inject(Ether(dst=e.mac, src=e.peer_mac) / IP(src=e.peer_ip, dst=e.ip) /
                     TCP(sport=40000, dport=7, flags="S", seq=100))
            _, sa = e.recv_frame()
            isn = sa[TCP].seq
            e.inject(Ether(dst=e.mac, src=e.peer_mac) / IP(src=e.peer_ip, dst=e.ip) /
                     TCP(sport=40000, dport=7, flags="A", seq=101, ack=isn + 1))
            s = lst.accept()
            s.shutdown()
            _, fin = e.recv_frame()
            assert fin[TCP].flags == "FA"
            e.inject(Ether(dst=e.mac, src=e.peer_mac) / IP(src=e.peer_ip, dst=e.ip) /
                     TCP(sport=40000, dport=7, flags="FA", seq=101, ack=isn + 2))
            e.run(1000)
            assert e.state(s.sid)["state"] == "TIME_WAIT"
            t_tw = e.now_ns
            e.run_until(lambda: e.state(s.sid)["state"] == "FREE", timeout_us=70_000_000, step_us=100_000)
            held = (e.now_ns - t_tw) / 1e9
            return isn, held, e.now_ns
    t0 = time.time()
    a = once()
    wall = time.time() - t0
    assert 59.9 < a[1] < 60.2, f"TIME-WAIT held {a[1]:.3f} s of virtual time"
    # virtual time does not follow the wall clock: 60 s of it take a few seconds (half the
    # bound leaves room for a loaded machine: 12.6 s beside two syntheses on 2 cores)
    assert wall < 30, f"60 s of TIME-WAIT took {wall:.1f} s of wall time"
    assert once() == a, "the same script must give the same ISN, times and cycles"


def test_option_walk_cannot_stop_tcp():
    """Issue 8 bug 0: after a SYN with options NOP NOP kind 0xb9 length 0xff (malformed:
    dropped and counted), the engine still completes a handshake and echoes data."""
    with Engine() as e:
        lst = e.listen(7)
        before = e.csr_read("tcpInErrs")
        hdr = bytearray(bytes(TCP(sport=40001, dport=7, flags="S", seq=5, window=1000)))
        hdr[12] = 6 << 4
        seg = bytes(hdr) + bytes([1, 1, 0xB9, 0xFF])
        ck = checksum(in4_pseudoheader(6, IP(src=e.peer_ip, dst=e.ip), len(seg)) + seg)
        seg = seg[:16] + ck.to_bytes(2, "big") + seg[18:]
        e.inject(Ether(dst=e.mac, src=e.peer_mac) / IP(src=e.peer_ip, dst=e.ip, proto=6) / Raw(seg))
        e.run(100)
        assert e.csr_read("tcpInErrs") == before + 1
        assert not e.frames
        e.inject(Ether(dst=e.mac, src=e.peer_mac) / IP(src=e.peer_ip, dst=e.ip) /
                 TCP(sport=40002, dport=7, flags="S", seq=100))
        _, sa = e.recv_frame()
        assert sa[TCP].flags == "SA"
        e.inject(Ether(dst=e.mac, src=e.peer_mac) / IP(src=e.peer_ip, dst=e.ip) /
                 TCP(sport=40002, dport=7, flags="PA", seq=101, ack=sa[TCP].seq + 1) / b"still alive")
        s = lst.accept()
        assert s.recv() == b"still alive"


def test_isn_is_rfc6528_siphash_of_the_whole_tuple():
    """Issue 8 bug 9: ISN = M + F(local IP, local port, remote IP, remote port, key), F =
    SipHash-2-4 under the 128-bit key of TCP_ISN_KEY0..3 (opentoe.isn, checked against the
    SipHash paper's vectors), M = the 4 us clock. Passive and active opens, two keys, and a
    passive open after SYNs that were hashed for and got no new session."""
    from opentoe.engine import ip2int
    from opentoe.isn import isn_hash, key_bytes
    for words in ((0x03020100, 0x07060504, 0x0B0A0908, 0x0F0E0D0C), (0xDEADBEEF, 0x0, 0x12345678, 0x9ABCDEF0)):
        regs = {f"TCP_ISN_KEY{i}": w for i, w in enumerate(words)}
        key = key_bytes(words)
        with Engine(regs=regs) as e:
            e.listen(7)
            for sport in (40000, 40001, 65535):
                e.inject_tcp(sport, 7, "S", 100)
                t_sa, sa = e.recv_frame()
                f = isn_hash(key, ip2int(e.ip), 7, ip2int(e.peer_ip), sport)
                m = (sa[TCP].seq - f) % 2**32
                # M is the 4 us clock when the SYN was taken: at most a few us before it left
                assert 0 <= t_sa // 1000 // 4 - m <= 2, (hex(sa[TCP].seq), m, t_sa)
            # SYNs that ask for a session and get none (the hash is made ahead of the answer,
            # in order): a repeated one of a session that exists, one to a port nobody
            # listens on; the next new session's ISN is still its own tuple's
            e.inject_tcp(40000, 7, "S", 100)
            e.inject_tcp(40003, 9, "S", 100)
            e.run(2000)
            assert any(p[TCP].flags == "RA" and p[TCP].dport == 40003 for _, p in e.frames), e.frames
            e.frames.clear()
            e.inject_tcp(40002, 7, "S", 100)
            t_sa, sa = e.recv_frame()
            f = isn_hash(key, ip2int(e.ip), 7, ip2int(e.peer_ip), 40002)
            assert sa[TCP].flags == "SA" and 0 <= t_sa // 1000 // 4 - (sa[TCP].seq - f) % 2**32 <= 2, hex(sa[TCP].seq)
            s = e.connect(e.peer_ip, 5555, wait=False)
            t_syn, syn = e.recv_frame()
            assert syn[TCP].flags == "S"
            f = isn_hash(key, ip2int(e.ip), syn[TCP].sport, ip2int(e.peer_ip), 5555)
            assert 0 <= t_syn // 1000 // 4 - (syn[TCP].seq - f) % 2**32 <= 2
