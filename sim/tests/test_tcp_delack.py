"""RFC 1122 4.2.3.2 on the engine: the ACK of a received segment may be delayed so that it
rides on data, but never for long. The engine's delayed ACK (DELACK_US) waits further,
for at most DACK_DEFERS more delayed-ACK times, while the session's data waits to be sent
(in the send queue, when the wire is the bottleneck); then it goes alone.

The engine's wire is made slow (the MAC TX refuses 99 or 99.8 % of beats: a 536-byte segment
of the default MSS takes 50 or 240 us), each session has data waiting, and each receives
one full segment. With 5 sessions on the faster wire every session's turn to send
comes before the bound, and its data carries the ACK; with 16 on the slower one the
turns of some come after it, and their ACKs go alone at the bound."""
import statistics

import pytest
from scapy.all import TCP

from opentoe import Engine

DELACK_US = 200      # the engine's default delayed-ACK time (TCP_DELACK_US)
DACK_DEFERS = 7      # more delayed-ACK times an ACK may wait for its session's data
PORT, BASE = 5000, 41000


def ack_delays(n, stall):
    """n sessions, each with data waiting and one full segment received on a slow wire:
    per session (delay of the first frame that acknowledges the segment in us, whether
    that frame carried data), and the median gap between the engine's frames in us."""
    with Engine() as e:
        lst = e.listen(PORT)
        conns = [e.accept_from_peer(lst, BASE + i) for i in range(n)]
        e.stall(stall)
        for s, _ in conns:
            assert s.send(bytes(16 * 1460)) == 16 * 1460
        e.run(1000)                      # every session sends; the command queue is long
        e.frames.clear()
        t0 = e.now_ns
        for i, (_, isn) in enumerate(conns):
            e.inject_tcp(BASE + i, PORT, "PA", 1001, ack=isn + 1, payload=bytes(1460))
        frames = []

        def acked():
            frames.extend(e.frames)
            e.frames.clear()
            return {p[TCP].dport for _, p in frames if p[TCP].ack - 1001 >= 1460} >= {BASE + i for i in range(n)}
        e.run_until(acked, timeout_us=20_000, step_us=100)
        times = [t for t, _ in frames]
        gap_us = statistics.median(b - a for a, b in zip(times, times[1:])) / 1000
        out = {}
        for t, p in frames:
            g = p[TCP]
            i = g.dport - BASE
            if i not in out and g.ack - 1001 >= 1460:
                out[i] = ((t - t0) / 1000, len(g.payload) > 0)
        return out, gap_us


@pytest.mark.parametrize("n,stall", [(5, 0.99), (16, 0.998)])
def test_delayed_ack_rides_on_waiting_data_within_its_bound(n, stall):
    acks, gap_us = ack_delays(n, stall)
    assert sorted(acks) == list(range(n)), f"segments never acknowledged: {set(range(n)) - set(acks)}"
    bound_us = (1 + DACK_DEFERS) * DELACK_US
    # An ACK that rides on data leaves with that data, after the frames queued before it on
    # the slow wire; one that goes alone goes only at the bound, as its session's data
    # waited all the time. (All came within 20 ms: RFC 1122 asks for under 0.5 s.)
    alone = sorted(i for i, (_, on_data) in acks.items() if not on_data)
    early = {i: acks[i][0] for i in alone if acks[i][0] < bound_us}
    assert not early, f"ACKs that went alone before the bound while their data waited: {early}"
    # a turn of the send queue (one frame per session) against the bound
    turn_us = n * gap_us
    assert turn_us > DELACK_US, f"the wire is not slow enough to test the wait ({gap_us:.0f} us per frame)"
    if turn_us < bound_us / 2:
        assert not alone, f"ACKs that went alone although their session's turn came in time: {alone}"
    else:
        assert turn_us > 2 * bound_us, f"a turn of {turn_us:.0f} us tests neither case"
        assert alone, "no ACK went alone although sessions waited past the bound"
