"""Issue 8 bug 10 on the bytes (the scripts check the wire; their payload is zeros): a
segment that straddles RCV.NXT gives the application each byte once, and the first copy
wins even when the repeated part differs (a hostile peer cannot rewrite acknowledged
data); a segment past the window's right edge is cut to the window, and the rest is taken
when it comes again."""
import random

import pytest
from scapy.all import TCP

from opentoe import Engine


@pytest.mark.parametrize("data_w", [64, 512])
def test_straddling_segments_are_trimmed_byte_exact(data_w):
    rng = random.Random(10)
    with Engine(data_w=data_w) as e:
        s, isn = e.accept_from_peer(e.listen(7), 40000)

        def seg(seq, payload=b"", flags="PA"):
            e.inject_tcp(40000, 7, flags, seq, ack=isn + 1, payload=payload)
            e.run(300)   # past the delayed ACK (200 us) a lone full segment waits for

        def last_ack():
            frames = [p for _, p in e.frames]
            e.frames.clear()
            return frames[-1][TCP] if frames else None

        a, b = rng.randbytes(100), rng.randbytes(100)
        seg(1001, a)
        assert last_ack().ack == 1101
        seg(1051, bytes(x ^ 0xFF for x in a[50:]) + b)     # 50 old bytes altered, 100 new
        assert last_ack().ack == 1201
        assert s.recv_exactly(200) == a + b

        # fill the window without reading, then one segment past its right edge
        stream = rng.randbytes(70000)
        seq, sent, edge = 1201, 0, None
        while True:
            seg(seq + sent, stream[sent:sent + 1460])
            sent += 1460
            ack = last_ack() or ack
            edge = ack.ack + ack.window               # the right edge the engine advertised
            if edge - (seq + sent) < 1460:
                break
        assert ack.ack == seq + sent
        room = edge - (seq + sent)
        assert 0 < room < 1460
        seg(seq + sent, stream[sent:sent + 1460])
        ack = last_ack()
        assert ack.ack == edge, (ack.ack - seq, edge - seq)
        assert s.recv_exactly(sent + room) == stream[:sent + room]
        # the cut-off part comes again (with one old byte before it) after the window opened
        e.run(1000)
        rest = stream[sent + room:sent + 1460]
        seg(edge - 1, stream[sent + room - 1:sent + 1460])
        assert last_ack().ack == edge + len(rest)
        assert s.recv_exactly(len(rest)) == rest
        assert e.csr_read("tcpAppErrors") == 0
