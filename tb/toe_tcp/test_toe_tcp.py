"""TCP scenarios against toe_sim_top (engine + behavioural DRAM + the example apps) with a
scapy peer, at 64 and 512 bits, 16 sessions and 4 KB rings (so data wraps the rings):
handshakes both ways, data both ways, retransmission and the retry limit, zero window,
every close sequence (peer first, engine first with TIME-WAIT, simultaneous), resets,
refused opens, sequence-number wrap, and hostile segments, each checked for the RFC
answer and the counters it moves."""
import random
from pathlib import Path

import cocotb
import pytest
from scapy.all import IP, TCP, Ether, Raw
from scapy.layers.inet import in4_pseudoheader
from scapy.utils import checksum

import runner
from tcp_peer import PEER_IP, PEER_MAC, TOE_IP, TOE_MAC, TcpPeer, pattern

ROOT = Path(__file__).resolve().parents[2]
LINUX_SYN_OPTS = [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (1, 0)), ("NOP", None), ("WScale", 10)]


def with_tcp_checksum(seg):
    """seg (a TCP header and payload) with its checksum field recomputed."""
    seg = seg[:16] + b"\0\0" + seg[18:]
    ck = checksum(in4_pseudoheader(6, IP(src=PEER_IP, dst=TOE_IP), len(seg)) + seg)
    return seg[:16] + ck.to_bytes(2, "big") + seg[18:]


def with_options(c, opts, payload=b"evil"):
    """A data segment of connection c whose option bytes are exactly `opts` (which scapy
    would refuse to build when malformed), with a correct checksum."""
    hdr = bytearray(bytes(TCP(sport=c.sport, dport=c.dport, seq=c.snd_nxt, ack=c.rcv_nxt,
                              flags="PA", window=65535)))[:20]
    hdr[12] = (5 + len(opts) // 4) << 4
    seg = with_tcp_checksum(bytes(hdr) + opts + payload)
    return bytes(Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP, proto=6) / Raw(seg))


def delta(before, after):
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


async def echo(c, data, chunk=1000):
    """Send data in chunks, collect the echo, check it."""
    got = b""
    for i in range(0, len(data), chunk):
        await c.send("PA", data[i:i + chunk])
        got += await c.recv_data(len(data[i:i + chunk]))
    assert got == data


async def close_from_peer(t, c):
    """Peer FIN -> engine ACK, then the app closes -> engine FIN -> peer ACK; session freed."""
    await c.send("FA")
    fin = None
    while fin is None:
        p = await c.expect()
        if "F" in p[TCP].flags:
            fin = p
    assert fin[TCP].ack == c.snd_nxt
    c.rcv_nxt = (fin[TCP].seq + 1) % 2**32
    await c.send("A")
    await t.wait_sessions_free()


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def handshake_echo_close(dut):
    t = TcpPeer(dut)
    await t.start()
    before = await t.counters()
    c = t.conn(dport=7)
    sa = await c.open(options=LINUX_SYN_OPTS)
    assert dict(sa[TCP].options).get("MSS") == 1460 and sa[TCP].dataofs == 6
    await echo(c, b"hello world")
    assert await t.status("TCP_CURR_ESTAB") == 1
    await close_from_peer(t, c)
    d = delta(before, await t.counters())
    assert d["tcpPassiveOpens"] == 1 and "tcpInErrs" not in d and "tcpRetransSegs" not in d
    assert await t.status("TCP_CURR_ESTAB") == 0


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def data_across_ring_wrap_and_sequence_wrap(dut):
    t = TcpPeer(dut, idle=0.2, backpressure=0.3)
    await t.start()
    rng = random.Random(5)
    c = t.conn(dport=7, isn=2**32 - 3000)       # our sequence numbers wrap past 2^32
    await c.open(mss=1000)
    await echo(c, rng.randbytes(10000), chunk=1000)   # 2.5 times the 4 KB ring
    await close_from_peer(t, c)


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def retransmission_after_timeout(dut):
    t = TcpPeer(dut)
    await t.start(rto_init_us=3000, rto_min_us=1000)
    c = t.conn(dport=7)
    await c.open()
    before = await t.counters()
    await c.send("PA", b"x" * 300)
    first = await c.expect()
    while not bytes(first[TCP].payload):
        first = await c.expect()
    # We do not acknowledge: the engine must send the same bytes again after its RTO.
    again = await c.expect(timeout_us=20000)
    while not bytes(again[TCP].payload):
        again = await c.expect(timeout_us=20000)
    assert again[TCP].seq == first[TCP].seq and bytes(again[TCP].payload)[:300] == b"x" * 300
    c.rcv_nxt = (again[TCP].seq + 300) % 2**32
    await c.send("A")
    d = delta(before, await t.counters())
    assert d.get("tcpRetransSegs", 0) >= 1
    await echo(c, b"after")


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def out_of_order_segment_kept_then_joined(dut):
    t = TcpPeer(dut)
    await t.start()
    c = t.conn(dport=7)
    await c.open()
    a, b = b"A" * 500, b"B" * 500
    base = c.snd_nxt
    await c.send("PA", b, seq=(base + 500) % 2**32)       # second half first
    dup = await c.expect()
    assert dup[TCP].ack == base and not bytes(dup[TCP].payload)   # duplicate ACK, kept
    await c.send("PA", a)                                  # the gap fills: both are echoed
    c.snd_nxt = (base + 1000) % 2**32                      # (b was sent before)
    assert await c.recv_data(1000) == a + b
    await c.send("PA", b, seq=(base + 500) % 2**32)       # an old duplicate changes nothing
    await echo(c, b"after")


@cocotb.test(timeout_time=60, timeout_unit="ms")
async def peer_zero_window_and_persist(dut):
    t = TcpPeer(dut)
    await t.start(rto_init_us=2000, rto_min_us=1000)
    c = t.conn(dport=7)
    await c.open()
    await c.send("A", window=0)                        # we close our window
    await c.send("PA", b"z" * 200, window=0)
    # Only ACKs and window probes may come while the window is shut.
    for _ in range(3):
        p = await c.expect(timeout_us=20000)
        assert not bytes(p[TCP].payload), "data sent into a zero window"
    await c.send("A", window=65535)                    # open it: the echo follows
    assert await c.recv_data(200) == b"z" * 200


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def resets_and_closed_ports(dut):
    t = TcpPeer(dut)
    await t.start()
    # SYN to a port nobody listens on: RST+ACK acknowledging the SYN.
    c = t.conn(dport=9, isn=777)
    await c.send("S")
    r = await c.expect()
    assert r[TCP].flags == "RA" and r[TCP].ack == 778
    # A stray ACK with no connection: RST with the ACK's number as its sequence.
    c2 = t.conn(dport=7)
    await c2.send("A", seq=5000, ack=123456)
    r = await c2.expect()
    assert r[TCP].flags == "R" and r[TCP].seq == 123456
    # In-window RST with the wrong sequence number: challenge ACK, connection lives.
    c3 = t.conn(dport=7)
    await c3.open()
    before = await t.counters()
    await c3.send("R", seq=(c3.snd_nxt + 100) % 2**32, advance=False)
    ch = await c3.expect()
    assert ch[TCP].flags == "A" and ch[TCP].ack == c3.snd_nxt
    await echo(c3, b"still here")
    # RST at RCV.NXT: the connection is reset and its session freed.
    await c3.send("R", advance=False)
    await t.tb.cycles(300)
    d = delta(before, await t.counters())
    assert d.get("tcpChallengeAcks") == 1 and d.get("tcpEstabResets") == 1
    assert await t.status("TCP_SESSIONS_IN_USE") == 0


@cocotb.test(timeout_time=60, timeout_unit="ms")
async def hostile_segments(dut):
    t = TcpPeer(dut, idle=0.1, backpressure=0.2)
    await t.start()
    c = t.conn(dport=7)
    await c.open()
    await echo(c, b"before")

    def raw_with(fn, fix_checksum=True):
        b = bytearray(bytes(c.seg("PA", b"evil")))
        fn(b)
        if fix_checksum:
            b[tcp_ofs:] = with_tcp_checksum(bytes(b[tcp_ofs:]))
        return bytes(b)

    tcp_ofs = 14 + 20
    # (name, frame, counters that must rise, expect an ACK back)
    cases = [
        ("bad checksum", raw_with(lambda b: b.__setitem__(tcp_ofs + 16, b[tcp_ofs + 16] ^ 0xFF), False),
         {"tcpInErrs": 1}, False),
        ("data offset < 5", raw_with(lambda b: b.__setitem__(tcp_ofs + 12, 0x40)), {"tcpInErrs": 1}, False),
        ("data offset past the segment", raw_with(lambda b: b.__setitem__(tcp_ofs + 12, 0xF0)),
         {"tcpInErrs": 1}, False),
        ("option length 0", with_options(c, b"\x08\x00\x00\x00"), {"tcpInErrs": 1}, False),
        ("option running past the header", with_options(c, b"\x01\x01\x05\x0a"), {"tcpInErrs": 1}, False),
        ("MSS option of length 3", with_options(c, b"\x02\x03\x05\x00"), {"tcpInErrs": 1}, False),
    ]
    cases += [
        # a SYN in a synchronized state, FIN or not: RFC 5961 4.2 challenge ACK (SYN+FIN is
        # dropped only in LISTEN and SYN-SENT, CTRL bit 1; the conformance matrix checks those)
        ("SYN+FIN in ESTABLISHED", bytes(c.seg("SF")), {"tcpChallengeAcks": 1}, True),
        ("left of the window", bytes(c.seg("PA", b"old", seq=(c.snd_nxt - 70000) % 2**32)),
         {"tcpInWindowDrops": 1}, True),
        ("right of the window", bytes(c.seg("PA", b"far", seq=(c.snd_nxt + 70000) % 2**32)),
         {"tcpInWindowDrops": 1}, True),
        ("ACK for data never sent", bytes(c.seg("A", ack=(c.rcv_nxt + 5000) % 2**32)),
         {"tcpInWindowDrops": 1}, True),
        ("SYN in ESTABLISHED", bytes(c.seg("S")), {"tcpChallengeAcks": 1}, True),
        # blind data injection (RFC 5961 5.2): an ACK below SND.UNA - MAX.SND.WND is refused
        # with an ACK and its data dropped (the echo after the attack shows none of it)
        ("ACK below the send window", bytes(c.seg("PA", b"inj", ack=(c.rcv_nxt - 70000) % 2**32)),
         {"tcpChallengeAcks": 1}, True),
    ]
    for name, frame, rises, acked in cases:
        before = await t.counters()
        await t.mac_rx.send(frame)
        if acked:
            p = await c.expect()
            assert p[TCP].flags == "A" and p[TCP].ack == c.snd_nxt and p[TCP].seq == c.rcv_nxt, name
        else:
            await t.nothing(us=30)
        d = delta(before, await t.counters())
        for k in ("tcpInSegs", "tcpOutSegs", "ethInFrames", "ipInReceives", "ipInDelivers", "ipOutRequests"):
            d.pop(k, None)
        assert d == rises, f"{name}: counters moved {d}, expected {rises}"
    # The connection under attack still delivers exactly the bytes sent.
    await echo(c, b"after the attack")
    assert await t.status("TCP_CURR_ESTAB") == 1


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def active_open_send_then_close_through_time_wait(dut):
    t = TcpPeer(dut)
    await t.start(time_wait_us=4000)
    before = await t.counters()
    c, syn = await t.start_client(5555, 5000)
    assert dict(syn[TCP].options).get("MSS") == 1460 and 49152 <= syn[TCP].sport
    await c.accept(syn, mss=1000)
    assert await c.recv_data(5000) == pattern(5000)
    fin = await c.expect_fin()                     # engine: FIN-WAIT-1
    assert fin[TCP].ack == c.snd_nxt
    await c.send("A")                              # FIN-WAIT-2
    await t.nothing(us=200)
    await c.send("FA")                             # TIME-WAIT: our FIN is acknowledged
    ack = await c.expect()
    assert ack[TCP].flags == "A" and ack[TCP].ack == c.snd_nxt
    await c.send("FA", seq=(c.snd_nxt - 1) % 2**32, advance=False)   # retransmitted FIN: ACK again
    ack = await c.expect()
    assert ack[TCP].flags == "A" and ack[TCP].ack == c.snd_nxt
    assert await t.status("TCP_SESSIONS_IN_USE") == 1, "TIME-WAIT ended early"
    await t.wait_client("closed")
    await t.wait_sessions_free(cycles=8000)
    d = delta(before, await t.counters())
    assert d.get("tcpActiveOpens") == 1 and "tcpRetransSegs" not in d and "tcpAppErrors" not in d


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def simultaneous_close(dut):
    t = TcpPeer(dut)
    await t.start()
    c, syn = await t.start_client(5556, 300)
    await c.accept(syn)
    assert await c.recv_data(300) == pattern(300)
    fin = await c.expect_fin()
    # Our FIN crosses the engine's: it acknowledges only the data (FIN-WAIT-1 -> CLOSING).
    await c.send("FA", ack=(c.rcv_nxt - 1) % 2**32)
    ack = await c.expect()
    assert ack[TCP].flags == "A" and ack[TCP].ack == c.snd_nxt and ack[TCP].seq == fin[TCP].seq + 1
    await c.send("A")                              # CLOSING -> TIME-WAIT
    await t.wait_client("closed")
    await t.wait_sessions_free()


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def active_open_refused_and_unanswered(dut):
    t = TcpPeer(dut)
    await t.start(rto_init_us=1000, rto_min_us=1000, retries=2)
    before = await t.counters()
    c, syn = await t.start_client(5557, 100)
    await c.send("RA", seq=0, ack=(syn[TCP].seq + 1) % 2**32, advance=False)
    await t.wait_client("failed")
    await t.wait_sessions_free()
    # Nobody answers: the SYN is sent 1 + retries times, then the open fails.
    c, syn = await t.start_client(5558, 100)
    for _ in range(2):
        again = await c.expect(timeout_us=10000)
        assert again[TCP].flags == "S" and again[TCP].seq == syn[TCP].seq
    await t.wait_client("failed", cycles=20000)
    await t.wait_sessions_free()
    d = delta(before, await t.counters())
    assert d.get("tcpAttemptFails") == 2 and d.get("tcpActiveOpens") == 2


@cocotb.test(timeout_time=60, timeout_unit="ms")
async def retry_limit_aborts_the_connection(dut):
    t = TcpPeer(dut)
    await t.start(rto_init_us=1000, rto_min_us=1000, retries=3)
    before = await t.counters()
    c, syn = await t.start_client(5559, 500)
    await c.accept(syn)
    first = await c.expect()
    assert bytes(first[TCP].payload) == pattern(500)
    # Never acknowledged: sent again `retries` times (backing off), then RST and the app told.
    for _ in range(3):
        p = await c.expect(timeout_us=20000)
        assert p[TCP].seq == first[TCP].seq and bytes(p[TCP].payload) == pattern(500), p.summary()
    rst = await c.expect(timeout_us=20000)
    assert "R" in rst[TCP].flags, rst.summary()
    await t.wait_client("reset")
    await t.wait_sessions_free()
    d = delta(before, await t.counters())
    assert d.get("tcpRetransSegs") == 3 and d.get("tcpOutRsts") == 1


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def source_streams_the_pattern_until_reset(dut):
    t = TcpPeer(dut, backpressure=0.2)
    await t.start()
    c = t.conn(dport=19)
    await c.open(mss=1200)
    got = await c.recv_data(9000)                     # across the 4 KB ring, twice
    assert got == pattern(len(got))
    await c.send("R", advance=False)
    await t.wait_sessions_free()


@pytest.mark.parametrize("data_w,sessions,mem_data_w,read_wait", [(64, 16, 512, 0), (512, 16, 512, 0),
                                                                 (64, 16384, 512, 0), (512, 16, 1024, 0),
                                                                 (512, 16, 256, 0), (128, 16, 512, 0),
                                                                 (512, 16, 512, 40)])
def test_toe_tcp(data_w, sessions, mem_data_w, read_wait):
    # 16 sessions: every scenario; 16384 sessions: that the large tables build and work; a
    # memory port wider than the data path (1024 bits: 128 lanes in the ring engines, the
    # width converters' ratio 2 both ways; it lost bytes of the reader's last beats until
    # stop 59) and narrower (256 bits, an HBM port's width); a 128-bit data path (25G/40G
    # MACs; 256 bits passed too at stop 59 and is left out to keep the suite short); every
    # session record read waiting 0 to 40 cycles more (TCP_STATE_READ_WAIT: a slower state
    # store, such as a cache that misses, and the lookup's queue of fetches ahead 32 deep
    # for it; the core must take each record when it is answered, not two cycles after its
    # read).
    params = {"DATA_W": data_w, "MAX_SESSIONS": sessions, "RING_BYTES": 4096, "MEM_DATA_W": mem_data_w}
    if read_wait:
        params["TCP_STATE_READ_WAIT"] = read_wait
    runner.run("toe_sim_top", "test_toe_tcp", params,
               Path(__file__).parent,
               testcase=["handshake_echo_close", "resets_and_closed_ports"] if sessions > 16 else None,
               extra_sources=[ROOT / "sim/toe_sim_axi_mem.sv", ROOT / "sim/toe_sim_top.sv"],
               ports_only=True)
