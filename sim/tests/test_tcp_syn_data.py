"""Data on a SYN and on a SYN-ACK, against the RFC text, not the implementation.

RFC 9293 3.10.7.3 (SYN-SENT): data on the SYN-ACK is taken with it; data on a SYN without
ACK (a simultaneous open), like data on a SYN to a listening port (3.10.7.2), is queued
"for processing after the ESTABLISHED state has been reached": the SYN-ACK acknowledges the
SYN only, the application hears of nothing before the connection is established, and then
gets NEW and the bytes, byte-exact, without the peer sending them again. The shared
scripts rcv-syn-with-data-syn-sent and rcv-syn-fin-with-data-syn-sent check the wire of the
simultaneous open with three bytes; these tests add payloads of several beats at both
widths, the passive open, and hostile ends: an RST before the handshake completes (the
held bytes are never told), data and a FIN on the establishing segment."""
import pytest
from scapy.all import TCP

from opentoe import Engine

PAYLOAD = bytes(range(256)) * 4 + b"tail"   # 1028 bytes: 17 beats at 64 bits, 3 at 512
PORT = 8000


@pytest.mark.parametrize("data_w", [64, 512])
def test_data_on_the_syn_ack_is_delivered(data_w):
    with Engine(data_w=data_w) as e:
        s = e.connect(e.peer_ip, PORT, wait=False)
        _, syn = e.recv_frame()
        assert syn[TCP].flags == "S"
        e.inject_tcp(PORT, syn[TCP].sport, "SA", 5000, ack=syn[TCP].seq + 1, payload=PAYLOAD)
        _, ack = e.recv_frame()
        assert ack[TCP].flags == "A" and ack[TCP].ack == 5001 + len(PAYLOAD)
        assert e.run_until(lambda: s.established, timeout_us=100)
        assert s.recv_exactly(len(PAYLOAD)) == PAYLOAD


def simultaneous_open(e, payload):
    """The engine's SYN crosses the peer's SYN (ISN 5000) carrying `payload`: returns the
    socket, the engine's ISN and its SYN-ACK."""
    s = e.connect(e.peer_ip, PORT, wait=False)
    _, syn = e.recv_frame()
    assert syn[TCP].flags == "S"
    e.inject_tcp(PORT, syn[TCP].sport, "S", 5000, payload=payload)
    _, synack = e.recv_frame()
    return s, syn[TCP].seq, synack


def notifs_of(e, s):
    return [(kind, length) for kind, sid, length in e.notifs if sid == s.sid]


def owed_ack(e, want_ack, timeout_us=1_000_000):
    """The engine's next pure ACK; it must acknowledge exactly `want_ack`."""
    _, a = e.recv_frame(timeout_us)
    assert a[TCP].flags == "A" and len(a[TCP].payload) == 0 and a[TCP].ack == want_ack, a.summary()


@pytest.mark.parametrize("data_w", [64, 512])
def test_simultaneous_open_syn_data_is_held_until_established(data_w):
    with Engine(data_w=data_w) as e:
        s, isn, synack = simultaneous_open(e, PAYLOAD)
        # the SYN-ACK repeats our SYN and acknowledges the peer's SYN only
        assert synack[TCP].flags == "SA" and synack[TCP].seq == isn and synack[TCP].ack == 5001
        e.run(200)
        assert not s.established and s.readable == 0 and notifs_of(e, s) == []
        # the peer's ACK of our SYN (its sequence number past the data it sent) establishes
        e.inject_tcp(PORT, s.local_port, "A", 5001 + len(PAYLOAD), ack=isn + 1)
        assert e.run_until(lambda: s.established, timeout_us=100)
        assert s.recv_exactly(len(PAYLOAD)) == PAYLOAD
        assert notifs_of(e, s)[:2] == [("NEW", 0), ("DATA", len(PAYLOAD))]
        owed_ack(e, 5001 + len(PAYLOAD))   # delayed, not lost
        assert s.send(b"reply") == 5
        _, d = e.recv_frame()
        assert bytes(d[TCP].payload) == b"reply" and d[TCP].seq == isn + 1


@pytest.mark.parametrize("data_w", [64, 512])
def test_passive_open_syn_data_is_held_until_established(data_w):
    with Engine(data_w=data_w) as e:
        lst = e.listen(PORT)
        e.inject_tcp(41000, PORT, "S", 7000, payload=PAYLOAD)
        _, synack = e.recv_frame()
        assert synack[TCP].flags == "SA" and synack[TCP].ack == 7001
        e.run(200)
        assert not lst.pending
        e.inject_tcp(41000, PORT, "A", 7001 + len(PAYLOAD), ack=synack[TCP].seq + 1)
        s = lst.accept(timeout_us=100)
        assert s is not None
        assert s.recv_exactly(len(PAYLOAD)) == PAYLOAD
        owed_ack(e, 7001 + len(PAYLOAD))


@pytest.mark.parametrize("data_w", [64, 512])
def test_reset_before_established_tells_nothing_of_held_data(data_w):
    with Engine(data_w=data_w) as e:
        s, isn, _ = simultaneous_open(e, PAYLOAD)
        e.inject_tcp(PORT, s.local_port, "R", 5001)       # at RCV.NXT: it resets
        assert e.run_until(lambda: s.ended, timeout_us=100)
        assert s.ended == "FAILED" and s.readable == 0
        assert [k for k, _ in notifs_of(e, s)] == ["FAILED"]
        assert e.run_until(lambda: not e.sessions(), timeout_us=1000)


@pytest.mark.parametrize("data_w", [64, 512])
def test_data_on_the_establishing_ack_is_sent_again(data_w):
    """The held bytes join with the ACK; that segment's own payload is not taken, and the ACK
    goes at once, so the peer resends it: every byte arrives once, in order."""
    more = bytes(range(200, 256)) * 10
    with Engine(data_w=data_w) as e:
        s, isn, _ = simultaneous_open(e, PAYLOAD)
        after = 5001 + len(PAYLOAD)
        e.inject_tcp(PORT, s.local_port, "PA", after, ack=isn + 1, payload=more)
        owed_ack(e, after, timeout_us=100)
        e.inject_tcp(PORT, s.local_port, "PA", after, ack=isn + 1, payload=more)
        assert s.recv_exactly(len(PAYLOAD) + len(more)) == PAYLOAD + more


@pytest.mark.parametrize("data_w", [64, 512])
def test_fin_after_the_held_data_is_taken(data_w):
    with Engine(data_w=data_w) as e:
        s, isn, _ = simultaneous_open(e, PAYLOAD)
        e.inject_tcp(PORT, s.local_port, "FA", 5001 + len(PAYLOAD), ack=isn + 1)
        owed_ack(e, 5001 + len(PAYLOAD) + 1, timeout_us=100)   # the FIN's, at once
        assert s.recv_exactly(len(PAYLOAD)) == PAYLOAD
        assert s.recv() == b"" and s.peer_fin
        assert [k for k, _ in notifs_of(e, s)] == ["NEW", "DATA", "PEER_FIN"]
