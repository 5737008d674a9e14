"""Out-of-order segments on the bytes (the script out-of-order-segments-are-kept.pkt checks
the wire; its payload is zeros): a segment ahead of RCV.NXT is stored in place in the
receive ring and joins the stream when the gap fills, byte-exact; the first stored copy of
a byte wins, also ahead of RCV.NXT (a hostile repeat with altered bytes is not delivered);
and a peer that reorders, duplicates and resends at random gets its stream through intact."""
import random

import pytest
from scapy.all import TCP

from opentoe import Engine


def connect(e):
    s, isn = e.accept_from_peer(e.listen(7), 40000)

    def seg(seq, payload):
        e.inject_tcp(40000, 7, "PA", seq, ack=isn + 1, payload=payload)
        e.run(200)
        frames = [p for _, p in e.frames]
        e.frames.clear()
        return frames[-1][TCP].ack if frames else None
    return s, seg


def altered(b):
    return bytes(x ^ 0x5A for x in b)


@pytest.mark.parametrize("data_w", [64, 512])
def test_first_stored_copy_wins_ahead_of_rcv_nxt(data_w):
    rng = random.Random(8)
    stream = rng.randbytes(600)
    with Engine(data_w=data_w) as e:
        s, seg = connect(e)
        base = 1001
        at = lambda i, j: (base + i, stream[i:j])           # noqa: E731
        assert seg(*at(0, 100)) == base + 100
        assert seg(*at(200, 300)) == base + 100             # starts the interval
        # 200..300 again but altered, with 300..400 new: only the new part is stored
        assert seg(base + 200, altered(stream[200:300]) + stream[300:400]) == base + 100
        # 150..250 with 200..250 altered adjoins it on the left: 150..200 is stored
        assert seg(base + 150, stream[150:200] + altered(stream[200:250])) == base + 100
        # the fill, reaching into the interval with altered bytes: stored up to it only
        assert seg(base + 100, stream[100:150] + altered(stream[150:400])) == base + 400
        assert s.recv_exactly(400) == stream[:400]
        assert e.csr_read("tcpOutOfOrderSegs") == 3
        assert e.csr_read("tcpAppErrors") == 0


@pytest.mark.parametrize("data_w", [64, 512])
def test_random_reordering_duplication_and_resends_deliver_the_stream(data_w):
    rng = random.Random(data_w)
    stream = rng.randbytes(200_000)
    with Engine(data_w=data_w) as e:
        s, seg = connect(e)
        base, acked, got = 1001, 0, b""
        rounds = 0
        while acked < len(stream):
            rounds += 1
            # a flight of up to 8 segments of random size from the acknowledged point,
            # sent shuffled, some twice, some not at all (lost)
            cuts, pos = [], acked
            while len(cuts) < 8 and pos < len(stream):
                n = rng.randint(1, 1460)
                cuts.append((pos, min(pos + n, len(stream))))
                pos = cuts[-1][1]
            flight = [c for c in cuts if rng.random() > 0.1]
            flight += rng.sample(flight, len(flight) // 4)
            rng.shuffle(flight)
            for i, j in flight:
                ack = seg(base + i, stream[i:j])
                if ack is not None:
                    assert base + acked <= ack <= base + len(stream)
                    acked = ack - base
            got += s.recv_exactly(acked - len(got)) if acked > len(got) else b""
        assert got == stream
        stored = e.csr_read("tcpOutOfOrderSegs")
        print(f"{len(stream)} bytes in {rounds} flights, {stored} segments stored out of order")
        assert stored > 0
        assert e.csr_read("tcpAppErrors") == 0
