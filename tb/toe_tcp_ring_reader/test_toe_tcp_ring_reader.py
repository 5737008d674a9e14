"""toe_tcp_ring_reader, from its contract (not the code):
- a job {session, base, offset, length} gives m_meta (the job) and then, for length > 0,
  the ring's bytes at offsets offset .. offset+length-1 (modulo RING_BYTES) as one frame,
  realigned to byte 0, every beat full but the last (tkeep); a 0-length job gives its meta
  and no frame; jobs come out in order;
- bursts are INCR of full beats, aligned, inside the ring, never across a 4 KB boundary
  (nor longer than 256 beats), and together read exactly the beats the bytes lie in;
- R is never back-pressured (m_axi_rready = 1): however late the application takes the
  data, the reader asks for no more than its buffer holds, so no beat is lost.
Random idle cycles on jobs, random back-pressure on AR, meta and m_axis, random R
latencies (in order), at 64 and 512 bits."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB
from tcp_job import pack_job

RING = 4096 * 2
BOUNDARY = 4096


class ReadMemory:
    """AXI4 read slave: AR with random back-pressure; each burst's beats come on R, in
    order, after a random latency, with no regard for the reader's readiness (it has none)."""

    def __init__(self, tb, w, rng, data):
        self.tb, self.dut, self.w, self.rng, self.data = tb, tb.dut, w, rng, data
        self.beats = deque()       # (cycle due, word address) of R beats to give
        self.bursts = []           # (addr, beats) as asked
        self.ar_pressure = 0.0
        self.cycle = 0
        self.dut.m_axi_arready.value = 0
        self.dut.m_axi_rvalid.value = 0
        cocotb.start_soon(self._run())

    def word(self, addr):
        return int.from_bytes(bytes(self.data.get(addr + i, 0) for i in range(self.w)), "little")

    async def _run(self):
        dut, w = self.dut, self.w
        while True:
            await FallingEdge(self.tb.clk)
            self.cycle += 1
            dut.m_axi_arready.value = int(self.rng.random() >= self.ar_pressure)
            if self.beats and self.beats[0][0] <= self.cycle:
                _, addr = self.beats.popleft()
                dut.m_axi_rvalid.value, dut.m_axi_rdata.value = 1, self.word(addr)
            else:
                dut.m_axi_rvalid.value = 0
            await ReadOnly()
            assert int(dut.m_axi_rready.value) == 1
            if int(dut.m_axi_arvalid.value) and int(dut.m_axi_arready.value):
                addr, n = int(dut.m_axi_araddr.value), int(dut.m_axi_arlen.value) + 1
                assert addr % w == 0, f"unaligned burst at {addr:#x}"
                assert n * w <= BOUNDARY and addr // BOUNDARY == (addr + n * w - 1) // BOUNDARY, \
                    f"burst {addr:#x} + {n} beats crosses a 4 KB boundary"
                self.bursts.append((addr, n))
                due = max(self.cycle + self.rng.randrange(2, 40), self.beats[-1][0] if self.beats else 0)
                for k in range(n):
                    self.beats.append((due + k, addr + k * w))


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def jobs_read_their_bytes(dut):
    w = len(dut.m_axis_tdata) // 8
    rng = random.Random(w)
    tb = TB(dut)
    data = {}
    mem = ReadMemory(tb, w, rng, data)
    dut.s_job_valid.value = 0
    dut.m_meta_ready.value = 0
    dut.m_axis_tready.value = 0
    await tb.reset()

    sessions = 8
    base = {s: 0x10000 + 2 * s * RING for s in range(sessions)}   # rings apart, like ring_base's
    for s in range(sessions):
        for i in range(RING):
            data[base[s] + i] = rng.getrandbits(8)
    jobs = []
    for i in range(120):
        s = rng.randrange(sessions)
        length = rng.choice([0, 1, w - 1, w, w + 1, rng.randrange(1, 3000), rng.randrange(1, RING)])
        jobs.append((s, rng.randrange(RING), length))
    jobs += [(0, RING - 3, 7), (1, BOUNDARY - 1, 2), (2, 0, RING)]          # ring wrap, boundary, whole ring

    expected = deque()
    for s, off, length in jobs:
        expected.append((s, off, length, bytes(data[base[s] + (off + i) % RING] for i in range(length))))

    async def give_jobs():
        for s, off, length in jobs:
            while rng.random() < 0.3:
                await FallingEdge(tb.clk)
            await tb.push("s_job", pack_job(s, base=base[s], offset=off, length=length), limit=100_000)
    cocotb.start_soon(give_jobs())

    phase_len = 8000
    frame, meta = bytearray(), None
    cycle = 0
    while expected:
        phase = (cycle // phase_len) % 3          # all ready; a slow application; slow AR
        mem.ar_pressure = 0.5 if phase == 2 else 0.0
        slow = 0.85 if phase == 1 else 0.0
        dut.m_meta_ready.value = int(rng.random() >= slow)
        dut.m_axis_tready.value = int(rng.random() >= slow)
        await ReadOnly()
        if meta is None and int(dut.m_meta_valid.value) and int(dut.m_meta_ready.value):
            v = int(dut.m_meta.value)
            s, off, length, want = expected[0]
            assert v == pack_job(s, base=base[s], offset=off, length=length), "meta is not the job, in order"
            if length == 0:
                expected.popleft()
            else:
                meta = want
        if int(dut.m_axis_tvalid.value) and int(dut.m_axis_tready.value):
            assert meta is not None, "data before its meta"
            keep = int(dut.m_axis_tkeep.value)
            last = int(dut.m_axis_tlast.value)
            beat = int(dut.m_axis_tdata.value).to_bytes(w, "little")
            assert last or keep == (1 << w) - 1, "a beat not full before the last"
            n = bin(keep).count("1")
            assert keep == (1 << n) - 1, f"tkeep {keep:#x} not contiguous from byte 0"
            frame += beat[:n]
            if last:
                assert bytes(frame) == meta, f"frame of {len(frame)} bytes differs from the ring's {len(meta)}"
                expected.popleft()
                frame, meta = bytearray(), None
        await FallingEdge(tb.clk)
        cycle += 1
        assert cycle < 400_000, f"stuck with {len(expected)} jobs left"
    # the bursts read exactly the beats the jobs' bytes lie in
    want_beats = 0
    for s, off, length in jobs:
        if length:
            first = off // w
            want_beats += (off + length - 1) // w - first + 1
    assert sum(n for _, n in mem.bursts) == want_beats, (sum(n for _, n in mem.bursts), want_beats)
    for addr, n in mem.bursts:
        s = (addr - 0x10000) // (2 * RING)
        assert base[s] <= addr and addr + n * w <= base[s] + RING, f"burst {addr:#x} outside ring {s}"


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_tcp_ring_reader(data_w):
    runner.run("toe_tcp_ring_reader", "test_toe_tcp_ring_reader",
               {"DATA_W": data_w, "ADDR_W": 40, "RING_BYTES": RING}, Path(__file__).parent)
