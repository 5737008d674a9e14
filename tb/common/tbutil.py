"""Shared cocotb helpers: clock and reset, lean AXI-Stream source and sink with random
idle cycles and back-pressure, and pulse counters.

Sampling model (exact for single-clock DUTs under Verilator): every test-bench write
happens just after a falling clock edge, and every handshake is sampled in the ReadOnly
phase after it. Nothing changes between that point and the next rising edge, so what is
sampled is exactly what the DUT's flops see at that edge.
"""
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge, ReadOnly


def pause_gen(prob, seed):
    """Endless pattern: True (pause) with probability `prob` each cycle."""
    rng = random.Random(seed)
    while True:
        yield prob > 0 and rng.random() < prob


def _bind(endpoint, tb, prefix, extra, clk):
    """Attach the `prefix`_t* signals of tb.dut (and `extra` signals) to a stream endpoint."""
    dut = tb.dut
    endpoint.tb = tb
    endpoint.clk = clk if clk is not None else tb.clk
    for name in ("tdata", "tkeep", "tvalid", "tready", "tlast"):
        setattr(endpoint, name, getattr(dut, f"{prefix}_{name}"))
    endpoint.tuser = getattr(dut, f"{prefix}_tuser", None)
    endpoint.extra = {name: getattr(dut, name) for name in extra}
    endpoint.width = len(endpoint.tdata) // 8


class AxisSource:
    """Drives frames (bytes, tuser, extra signals held for the whole frame)."""

    def __init__(self, tb, prefix, idle=0.0, seed=1, extra=(), clk=None):
        _bind(self, tb, prefix, extra, clk)
        self.queue = deque()
        self.pause = pause_gen(idle, seed)
        self.idle_event = Event()
        self.tvalid.value = 0
        cocotb.start_soon(self._run())

    def send_nowait(self, data, tuser=0, **extra):
        """data: the frame's bytes, cut into full beats; or a list of beats' bytes, sent as
        given (for frames that break the packing rule)."""
        self.queue.append(([bytes(c) for c in data] if isinstance(data, list) else bytes(data),
                           tuser, extra))
        self.idle_event.clear()

    async def send(self, data, tuser=0, **extra):
        self.send_nowait(data, tuser, **extra)

    def set_idle(self, prob, seed=1):
        self.pause = pause_gen(prob, seed)

    def empty(self):
        return not self.queue

    async def wait_idle(self):
        if self.queue:
            await self.idle_event.wait()

    async def _run(self):
        beats = deque()
        offered = False   # a beat is on the bus and has not been taken yet
        while True:
            await FallingEdge(self.clk)
            if not beats and self.queue:
                data, tuser, extra = self.queue[0]
                for name, value in extra.items():
                    self.extra[name].value = value
                w = self.width
                chunks = data if isinstance(data, list) else \
                    [data[i:i + w] for i in range(0, len(data), w)] or [b""]
                for i, c in enumerate(chunks):
                    beats.append((c, i == len(chunks) - 1, tuser))
            # A beat once offered stays offered until taken (AXI-Stream); pauses fall
            # only between beats.
            if beats and (offered or not next(self.pause)):
                c, last, tuser = beats[0]
                self.tdata.value = int.from_bytes(c.ljust(self.width, b"\0"), "little")
                self.tkeep.value = (1 << len(c)) - 1
                self.tlast.value = int(last)
                if self.tuser is not None:
                    self.tuser.value = tuser
                self.tvalid.value = 1
                offered = True
            else:
                self.tvalid.value = 0
            await ReadOnly()
            if self.tvalid.value and self.tready.value:
                offered = False
                _, last, _ = beats.popleft()
                if last:
                    self.queue.popleft()
                    if not self.queue:
                        self.idle_event.set()


class AxisSink:
    """Collects frames as (bytes, tuser of the last beat, {extra: value at first beat})."""

    def __init__(self, tb, prefix, backpressure=0.0, seed=2, extra=(), clk=None):
        _bind(self, tb, prefix, extra, clk)
        self.frames = deque()
        self.event = Event()
        self.pause = pause_gen(backpressure, seed)
        self.beats = 0
        self.tready.value = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        data = bytearray()
        side = None
        while True:
            await FallingEdge(self.clk)
            self.tready.value = 0 if next(self.pause) else 1
            await ReadOnly()
            if self.tvalid.value and self.tready.value:
                self.beats += 1
                if side is None:
                    side = {n: int(s.value) for n, s in self.extra.items()}
                keep = int(self.tkeep.value)
                raw = int(self.tdata.value).to_bytes(self.width, "little")
                data += bytes(b for i, b in enumerate(raw) if keep >> i & 1)
                if self.tlast.value:
                    user = int(self.tuser.value) if self.tuser is not None else 0
                    self.frames.append((bytes(data), user, side))
                    self.event.set()
                    data = bytearray()
                    side = None

    def set_backpressure(self, prob, seed=2):
        self.pause = pause_gen(prob, seed)

    def empty(self):
        return not self.frames

    async def recv(self):
        """Next frame; returns just after a falling edge, so the caller may drive signals."""
        while not self.frames:
            self.event.clear()
            await self.event.wait()
        await FallingEdge(self.clk)
        return self.frames.popleft()


class PulseCounter:
    """Counts the cycles in which a 1-bit DUT signal is high."""

    def __init__(self, tb, signal):
        self.tb = tb
        self.signal = signal
        self.count = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await FallingEdge(self.tb.clk)
            await ReadOnly()
            self.count += int(self.signal.value)


class TB:
    """Clock and reset of a DUT, factories for its stream endpoints, and one-transfer
    drivers for its valid/ready struct channels."""

    def __init__(self, dut, clk="clk", rst="rst", period_ns=4):
        self.dut = dut
        self.clk = getattr(dut, clk)
        self.rst = getattr(dut, rst)
        self.period_ns = period_ns
        cocotb.start_soon(Clock(self.clk, period_ns, unit="ns").start())

    def source(self, prefix, idle=0.0, seed=1, extra=(), clk=None):
        return AxisSource(self, prefix, idle, seed, extra, clk)

    def sink(self, prefix, backpressure=0.0, seed=2, extra=(), clk=None):
        return AxisSink(self, prefix, backpressure, seed, extra, clk)

    async def reset(self, cycles=4):
        await FallingEdge(self.clk)
        self.rst.value = 1
        await self.cycles(cycles)
        self.rst.value = 0
        await FallingEdge(self.clk)

    async def cycles(self, n):
        for _ in range(n):
            await FallingEdge(self.clk)

    async def push(self, ch, value, limit=5000):
        """One transfer on the request channel `ch` (signals ch, ch_valid, ch_ready)."""
        await FallingEdge(self.clk)
        getattr(self.dut, ch).value = value
        getattr(self.dut, ch + "_valid").value = 1
        for _ in range(limit):
            await ReadOnly()
            if getattr(self.dut, ch + "_ready").value:
                break
            await FallingEdge(self.clk)
        else:
            raise AssertionError(f"{ch} not taken in {limit} cycles")
        await FallingEdge(self.clk)
        getattr(self.dut, ch + "_valid").value = 0

    async def pop(self, ch, limit=5000):
        """The value of one transfer on the response channel `ch` (ch, ch_valid, ch_ready)."""
        await FallingEdge(self.clk)
        getattr(self.dut, ch + "_ready").value = 1
        for _ in range(limit):
            await ReadOnly()
            if getattr(self.dut, ch + "_valid").value:
                value = int(getattr(self.dut, ch).value)
                break
            await FallingEdge(self.clk)
        else:
            raise AssertionError(f"no {ch} in {limit} cycles")
        await FallingEdge(self.clk)
        getattr(self.dut, ch + "_ready").value = 0
        return value

    def now_cycles(self):
        return cocotb.utils.get_sim_time("ns") / self.period_ns


def random_bytes(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def word_sum(data, start=0):
    """The unfolded sum of `data`'s big-endian 16-bit words from byte `start` on (bytes
    before it count as zero; an odd last byte is a word's high byte)."""
    b = bytes(len(data[:start])) + data[start:]
    if len(b) % 2:
        b += b"\0"
    return sum((b[i] << 8) | b[i + 1] for i in range(0, len(b), 2))


def inet_sum(data, start=0, seed=0):
    """RFC 1071: the folded ones'-complement sum (not complemented) of `data`'s big-endian
    16-bit words from byte `start` on (bytes before it count as zero), plus `seed`."""
    s = seed + word_sum(data, start)
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def csum_frame_beats(rng, w, frames):
    """Random frames for the checksum blocks' tests, cycle by cycle: lengths 1-1599 bytes in
    beats of `w` bytes, random start offsets (< 80) and seeds on each frame's first beat
    (noise on its other beats, which must be ignored), idle cycles between beats (None).
    A frame's last beat carries the frame's RFC 1071 sum ("sum"). One frame in three
    verifies (sum 0xFFFF): its seed completes the words' unfolded sum to a multiple of
    0xFFFF, or to 0xFFFFFFFF (the unfolded sum whose halves are equal)."""
    for _ in range(frames):
        frame = random_bytes(rng, rng.randrange(1, 1600))
        start = rng.randrange(0, min(len(frame), 80))
        seed = rng.getrandbits(rng.choice([16, 20, 31]))
        if rng.random() < 1 / 3:
            if rng.random() < 0.5:   # folded words' sum + seed = 0xFFFF (+ a multiple of it)
                seed = 0xFFFF - inet_sum(frame, start) + 0xFFFF * rng.randrange(0, 1 << 15)
            else:                    # the words' unfolded sum + seed = 0xFFFFFFFF
                seed = 0xFFFFFFFF - word_sum(frame, start)
        chunks = [frame[i:i + w] for i in range(0, len(frame), w)]
        for i, c in enumerate(chunks):
            while rng.random() < 0.2:
                yield None
            last = i == len(chunks) - 1
            yield {"data": int.from_bytes(c.ljust(w, b"\0"), "little"), "keep": (1 << len(c)) - 1,
                   "last": int(last), "start": start if i == 0 else rng.getrandbits(16),
                   "seed": seed if i == 0 else rng.getrandbits(32),
                   "sum": inet_sum(frame, start, seed) if last else None}


# The traffic modes every stream test runs in: (source idle probability, sink back-pressure).
MODES = [(0.0, 0.0), (0.3, 0.0), (0.0, 0.5), (0.4, 0.4)]


def set_mode(mode, sources=(), sinks=()):
    """Apply traffic mode `mode` (an index into MODES) to endpoints."""
    idle, bp = MODES[mode]
    for i, s in enumerate(sources):
        s.set_idle(idle, seed=mode * 10 + i)
    for i, s in enumerate(sinks):
        s.set_backpressure(bp, seed=mode * 10 + 5 + i)
