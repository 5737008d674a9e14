"""Issue 8 bug 8 on the engine: receiver silly-window avoidance also out of a zero window
(RFC 1122 4.2.3.3: the window opens only by min(ring/2, MSS) or more), and Nagle (RFC 896,
CTRL bit 4): a short segment waits while data is unacknowledged. Sender SWS avoidance is
checked by conformance/scripts/sender-sws-avoidance.pkt."""
from scapy.all import TCP

from opentoe import Engine


def connect(e):
    s, isn = e.accept_from_peer(e.listen(7), 40000)

    def seg(seq, payload=b"", flags="PA", ack=0):
        e.inject_tcp(40000, 7, flags, seq, ack=isn + 1 + ack, payload=payload)
        e.run(300)   # past the delayed ACK (200 us) a lone full segment waits for
    return s, seg


def test_zero_window_opens_by_a_full_step_only():
    with Engine() as e:
        s, seg = connect(e)
        seq, last = 1001, None
        while last is None or last[TCP].window != 0:           # fill the window, reading nothing
            seg(seq, bytes(1460))
            seq += 1460
            acks = [p for _, p in e.frames]
            e.frames.clear()
            last = acks[-1] if acks else last
            if last is not None and last[TCP].window < 1460:
                seg(seq, bytes(last[TCP].window))
                seq += last[TCP].window
                last = [p for _, p in e.frames][-1]
                e.frames.clear()
        assert last[TCP].window == 0
        # the app reads a little: no window update (it would invite a tiny segment)
        s._read(100)
        e.run(1000)
        assert not e.frames, [p[TCP].window for _, p in e.frames]
        # once a full MSS of room is free, the window opens (by the room there is)
        s._read(1460)
        e.run(1000)
        ups = [p[TCP] for _, p in e.frames]
        assert len(ups) == 1 and ups[0].window >= 1460 and ups[0].ack == seq, ups


def test_nagle_holds_a_short_segment_while_data_is_in_flight():
    with Engine(regs={"CTRL": 0x1F}) as e:
        s, seg = connect(e)
        s.send(b"a" * 100)
        _, first = e.recv_frame()
        assert bytes(first[TCP].payload) == b"a" * 100
        s.send(b"b" * 100)
        s.send(b"c" * 100)
        e.run(5000)
        assert not e.frames, "a short segment went with data unacknowledged"
        seg(1001, flags="A", ack=100)
        _, nxt = e.recv_frame()
        assert bytes(nxt[TCP].payload) == b"b" * 100 + b"c" * 100
    with Engine() as e:                                          # off (the default): no wait
        s, seg = connect(e)
        s.send(b"a" * 100)
        s.send(b"b" * 100)
        e.run(5000)
        assert [len(p[TCP].payload) for _, p in e.frames] == [100, 100]
