"""Active opens against a full session table (docs/tcp_api.md: `tcp_open_rsp.ok` 0 means no
free session). With every one of the harness's 16 sessions taken by an active open, the
next open is refused at once and sends nothing; the refusal touches no session (the 16
keep their states, an established one keeps carrying data both ways); once a session is
freed, an open gets through and completes its handshake. Several refusals in a row must
not leak anything either."""
import pytest
from scapy.all import TCP

from opentoe import Engine
from opentoe.engine import EngineError

PEER_PORT = 5001


def syns(e):
    """The engine's SYNs sent since the last call, by local port."""
    out = {p[TCP].sport: p[TCP].seq for _, p in e.frames if TCP in p and p[TCP].flags == "S"}
    e.frames.clear()
    return out


@pytest.mark.parametrize("data_w", [64, 512])
def test_open_refused_when_every_session_is_taken(data_w):
    with Engine(data_w=data_w) as e:
        socks = [e.connect(e.peer_ip, PEER_PORT, wait=False) for _ in range(e.max_sessions)]
        e.run(200)
        sent = syns(e)
        assert sorted(sent) == sorted(s.local_port for s in socks), "one SYN per open, from its own port"
        assert len({s.sid for s in socks}) == e.max_sessions

        # the first connection is answered and established
        first = socks[0]
        e.inject_tcp(PEER_PORT, first.local_port, "SA", 7000, ack=sent[first.local_port] + 1)
        assert e.run_until(lambda: first.established)
        before = {sid: st["state"] for sid, st in e.sessions().items()}
        assert list(before.values()).count("SYN_SENT") == e.max_sessions - 1

        # three opens in a row are refused: no SYN, no session moved
        for _ in range(3):
            with pytest.raises(EngineError, match="no free session"):
                e.connect(e.peer_ip, PEER_PORT, wait=False)
        e.run(200)
        assert syns(e) == {}
        assert {sid: st["state"] for sid, st in e.sessions().items()} == before

        # the established connection still carries data both ways
        e.inject_tcp(PEER_PORT, first.local_port, "PA", 7001, ack=sent[first.local_port] + 1, payload=b"ping")
        assert first.recv() == b"ping"
        first.send(b"pong")
        e.run(200)
        data = [p for _, p in e.frames if TCP in p and bytes(p[TCP].payload) == b"pong"]
        assert data and data[0][TCP].sport == first.local_port
        e.frames.clear()

        # a session freed (an abort of a SYN-SENT one) is taken by the next open
        freed = socks[1]
        freed.abort()
        e.run(200)
        again = e.connect(e.peer_ip, PEER_PORT, wait=False)
        e.run(200)
        got = syns(e)
        assert list(got) == [again.local_port]
        e.inject_tcp(PEER_PORT, again.local_port, "SA", 9000, ack=got[again.local_port] + 1)
        assert e.run_until(lambda: again.established)
