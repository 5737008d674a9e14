"""Stress: segments back to back into ESTABLISHED sessions, of one session and of eight
interleaved at random, while the engine's MAC TX and app RX ports refuse beats at random
(toe-harness `stall`), checked against a model of each stream written from RFC 9293:
every ACK lies between the previous one and what was sent (3.10.7.4: RCV.NXT only moves
forward over received bytes), the right edge it advertises never moves left (3.8.6.2.2),
and the application reads each stream whole, in order, byte for byte. Segments of random
size (half of them 1..64 bytes, the rest up to 1460) arrive at the wire rate, so the
engine's input FIFOs may overflow: the peer then goes back to the last ACK, as a sender's
retransmission would, and the drops are printed. A second test opens new connections
while the others stream: each handshake's segments go among the data segments, so a
connection's NEW meets the others' DATA on the way to the application, which must get
each notification with its own connection's tuple (the harness checks every one)."""
import random

import pytest
from scapy.all import TCP

from opentoe import Engine

M = 1 << 32


def seq_diff(a, b):
    """a - b as a signed sequence-space distance."""
    d = (a - b) % M
    return d - M if d >= 1 << 31 else d


class Stream:
    """One session as the peer sees it: the bytes to send and what the engine has told."""

    def __init__(self, rng, sock, sport, isn_peer, isn_engine, size):
        self.sock, self.sport = sock, sport
        self.ack = (isn_engine + 1) % M           # what our segments acknowledge
        self.base = (isn_peer + 1) % M            # sequence number of byte 0
        self.data = rng.randbytes(size)
        self.sent = 0                             # bytes offered so far (end of the flight)
        self.acked = 0                            # bytes the engine acknowledged
        self.right_edge = None                    # ack + window of the last ACK
        self.read = b""

    def on_ack(self, ack, window):
        got = seq_diff(ack, self.base)
        assert self.acked <= got <= self.sent, \
            f"port {self.sport}: ACK of byte {got} outside [{self.acked}, {self.sent}]"
        self.acked = got
        edge = (ack + window) % M
        if self.right_edge is not None:
            assert seq_diff(edge, self.right_edge) >= 0, f"port {self.sport}: right edge moved left"
        self.right_edge = edge

    def send(self, e, off, payload):
        self.sent = max(self.sent, off + len(payload))
        e.inject_tcp(self.sport, 80, "PA", (self.base + off) % M, ack=self.ack, payload=payload)

    def read_acked(self):
        """The application reads what the engine acknowledged; it must be the stream's bytes."""
        if len(self.read) < self.acked:
            self.read += self.sock.recv_exactly(self.acked - len(self.read))
        assert self.read == self.data[:len(self.read)], f"port {self.sport}: wrong bytes delivered"


def engine_segments(e):
    """The TCP headers of the frames the engine sent; the peer sends data, so none has any."""
    while e.frames:
        t = e.frames.popleft()[1][TCP]
        assert not len(t.payload), "the engine sent data nobody asked for"
        yield t


def check_streams(e, streams):
    """Every stream read byte-exact and no app error; returns the segments the engine
    dropped at full FIFOs (sent again by the streams)."""
    for s in streams:
        assert s.read == s.data
    assert e.csr_read("tcpAppErrors") == 0
    return e.csr_read("tcpInOverflows") + e.csr_read("ethInOverflows")


def flight(rng, s, limit):
    """Segments (offset, payload) from the last ACK up to `limit` bytes past it."""
    out, pos, end = [], s.acked, min(len(s.data), s.acked + limit)
    while pos < end:
        n = min(rng.choice([rng.randint(1, 64), rng.randint(1, 1460)]), end - pos)
        out.append((pos, s.data[pos:pos + n]))
        pos += n
    return out


@pytest.mark.parametrize("data_w", [64, 512])
@pytest.mark.parametrize("sessions", [1, 8])
def test_back_to_back_segments_under_back_pressure(data_w, sessions):
    rng = random.Random(data_w * 10 + sessions)
    size = 96_000 // sessions
    with Engine(data_w=data_w) as e:
        listener = e.listen(80)
        streams = []
        for i in range(sessions):
            isn_peer = rng.getrandbits(32)
            sock, isn_engine = e.accept_from_peer(listener, 41000 + i, seq=isn_peer)
            streams.append(Stream(rng, sock, 41000 + i, isn_peer, isn_engine, size))
        e.frames.clear()
        e.stall(0.3, seed=data_w + sessions)
        by_port = {s.sport: s for s in streams}
        rounds = 0
        while any(s.acked < len(s.data) for s in streams):
            rounds += 1
            assert rounds < 200, "no progress"
            # every session's next flight (at most 16 kB past its last ACK), segments in
            # order within a session, sessions interleaved at random, all back to back
            queues = [[(s, off, p) for off, p in flight(rng, s, 16384)] for s in streams]
            order = [q for q in queues for _ in q]
            rng.shuffle(order)
            for q in order:
                s, off, payload = q.pop(0)
                s.send(e, off, payload)
            e.run(3000)
            for t in engine_segments(e):
                by_port[t.dport].on_ack(t.ack, t.window)
            for s in streams:
                s.read_acked()
        drops = check_streams(e, streams)
        print(f"DATA_W={data_w}, {sessions} sessions: {size * sessions} bytes in {rounds} rounds "
              f"under 30 % back-pressure, {drops} segments dropped by full FIFOs and sent again")


@pytest.mark.parametrize("data_w", [64, 512])
def test_connections_opened_while_others_stream(data_w):
    rng = random.Random(data_w + 77)
    with Engine(data_w=data_w) as e:
        listener = e.listen(80)
        streams = []
        for i in range(4):
            isn_peer = rng.getrandbits(32)
            sock, isn_engine = e.accept_from_peer(listener, 42000 + i, seq=isn_peer)
            streams.append(Stream(rng, sock, 42000 + i, isn_peer, isn_engine, 40_000))
        e.frames.clear()
        e.stall(0.3, seed=data_w)
        by_port = {s.sport: s for s in streams}
        opening = {}                 # port -> [peer ISN, engine ISN once its SYN-ACK came]
        next_port, to_open, rounds = 43000, 12, 0
        while to_open or opening or any(s.acked < len(s.data) for s in streams):
            rounds += 1
            assert rounds < 300, "no progress"
            # this round's segments, interleaved at random: every stream's next flight, a
            # new connection's SYN, and the ACK of each SYN-ACK that came
            # (again, until answered: a full input FIFO may drop any of them)
            items = [[(s, off, p) for off, p in flight(rng, s, 8192)] for s in streams]
            if to_open:
                to_open -= 1
                opening[next_port] = [rng.getrandbits(32), None]
                next_port += 1
            items += [[("ACK" if isn is not None else "SYN", port)] for port, (_, isn) in opening.items()]
            order = [q for q in items for _ in q]
            rng.shuffle(order)
            for q in order:
                it = q.pop(0)
                if it[0] == "SYN":
                    e.inject_tcp(it[1], 80, "S", opening[it[1]][0])
                elif it[0] == "ACK":
                    isn_peer, isn_engine = opening[it[1]]
                    e.inject_tcp(it[1], 80, "A", (isn_peer + 1) % M, ack=(isn_engine + 1) % M)
                else:
                    it[0].send(e, it[1], it[2])
            e.run(3000)
            for t in engine_segments(e):
                if t.flags == "SA" and t.dport in opening:
                    opening[t.dport][1] = t.seq          # a repeated SYN-ACK has the same ISN
                elif t.dport in by_port:
                    by_port[t.dport].on_ack(t.ack, t.window)
            while listener.pending:                       # NEW came: the connection streams too
                sock = listener.pending.popleft()
                port = sock.remote[1]
                isn_peer, isn_engine = opening.pop(port)
                s = Stream(rng, sock, port, isn_peer, isn_engine, 20_000)
                streams.append(s)
                by_port[port] = s
            for s in streams:
                s.read_acked()
        assert len(streams) == 16
        drops = check_streams(e, streams)
        print(f"DATA_W={data_w}: 4 streams, 12 connections opened among their segments, "
              f"{sum(len(s.data) for s in streams)} bytes in {rounds} rounds, {drops} segments dropped and sent again")
