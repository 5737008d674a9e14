"""TX ring space after a refused send (docs/tcp_api.md): a send request the TX ring has no
room for is answered TX_NO_SPACE, and the engine gives NOTIF_TX_SPACE once the peer's
ACKs have freed as much as the request asked for: not before, once, and not for ACKs that
free nothing (duplicates, or ACKs of data never sent), nor after the connection is gone.
The ring is 64 KiB (toe-harness)."""
from scapy.all import TCP

from opentoe import Engine

RING = 65536
SPORT = 40000


def spaces(e, sid):
    return [n for k, s, n in e.notifs if k == "TX_SPACE" and s == sid]


def fill_the_ring(e):
    """A connection whose TX ring the app has filled; the peer acknowledges nothing yet.
    Returns (socket, peer's segment function, ISN)."""
    s, isn = e.accept_from_peer(e.listen(7), SPORT)
    for _ in range(RING // 16384):
        assert s._tx_req(bytes(16384))[0] == "ACCEPTED"
    e.run(2000)                                  # the engine sends what the window allows
    e.frames.clear()

    def ack(n, flags="A"):
        """The peer acknowledges the first n bytes of the engine's stream."""
        e.inject_tcp(SPORT, 7, flags, 1001, ack=isn + 1 + n)
        e.run(200)
    return s, ack, isn


def test_tx_space_when_the_refused_request_fits():
    with Engine() as e:
        s, ack, _ = fill_the_ring(e)
        assert s._tx_req(bytes(4000)) == ("NO_SPACE", 0)
        ack(3000)                                    # 3000 bytes free: the request does not fit
        ack(3000)                                    # a duplicate frees nothing
        assert spaces(e, s.sid) == []
        ack(RING + 1000)                             # acknowledges data never sent: answered, ignored
        assert any(p[TCP].ack and not len(p[TCP].payload) for _, p in e.frames), "no ACK for an ACK of unsent data"
        assert spaces(e, s.sid) == []
        ack(4000)                                    # now 4000 bytes are free: told once
        e.run(1000)
        assert spaces(e, s.sid) == [4000]
        ack(6000)                                    # more room, but nothing is waiting: no more
        assert spaces(e, s.sid) == [4000]
        assert s._tx_req(bytes(6000)) == ("ACCEPTED", 0)
        # a request of length 0 is refused and remembers nothing
        assert s._tx_req(b"")[0] == "NO_SPACE"
        ack(9000)
        assert spaces(e, s.sid) == [4000]


def test_no_tx_space_after_a_reset():
    with Engine() as e:
        s, ack, isn = fill_the_ring(e)
        assert s._tx_req(bytes(100)) == ("NO_SPACE", 0)
        e.inject_tcp(SPORT, 7, "R", 1001)
        e.run(1000)
        assert s.ended == "RESET"
        assert spaces(e, s.sid) == []


def test_a_sender_that_waits_for_tx_space_streams_every_byte():
    """An app that sends 16 KiB requests and, when refused, waits for TX_SPACE instead of
    asking again: four rings' worth arrive byte-exact at a peer that ACKs what it gets,
    and every refusal is answered by exactly one TX_SPACE (none lost, none extra)."""
    with Engine() as e:
        s, isn = e.accept_from_peer(e.listen(7), SPORT)
        data = bytes(i % 251 for i in range(4 * RING))
        got = bytearray()
        sent = refusals = 0
        waiting = None                               # TX_SPACE count when the last refusal came
        for _ in range(20000):
            if sent == len(data) and len(got) == len(data):
                break
            while sent < len(data) and waiting is None:   # request until refused
                chunk = data[sent:sent + 16384]
                status, _ = s._tx_req(chunk)
                if status == "ACCEPTED":
                    sent += len(chunk)
                else:
                    assert status == "NO_SPACE", status
                    refusals += 1
                    waiting = len(spaces(e, s.sid))
            e.run(20)
            while e.frames:                          # the peer: in order, ACK what it has
                _, p = e.frames.popleft()
                pay = bytes(p[TCP].payload)
                if pay and p[TCP].seq - isn - 1 == len(got):
                    got.extend(pay)
                e.inject_tcp(SPORT, 7, "A", 1001, ack=isn + 1 + len(got))
            if waiting is not None and len(spaces(e, s.sid)) > waiting:
                waiting = None
        assert bytes(got) == data, f"{len(got)} of {len(data)} bytes arrived (sent {sent}, waiting {waiting})"
        assert refusals, "the ring never filled"
        assert len(spaces(e, s.sid)) == refusals, (len(spaces(e, s.sid)), refusals)
