"""toe_tcp_ring_writer, from its contract (not the code):
- a job {base, offset, length, skip} takes the next frame of s_axis, drops its first
  `skip` bytes and stores the next `length` at ring offsets offset.. (modulo RING_BYTES) of
  the ring at `base`; a frame shorter than skip + length is zero-filled, a longer one is
  cut, and each such job pulses stat_len_err once; a 0-length job (a marker) takes no frame
  and writes nothing;
- no byte outside the jobs' bytes is strobed; bursts are INCR of full beats, aligned, inside
  the ring and never across a 4 KB boundary, and their W beats follow their AW;
- jobs complete on m_done unchanged and in job order, and only once every byte of the job
  has its write response;
- with the memory, the source and the completions always ready, one-beat jobs back to back
  take 2 cycles each (the next job is taken with the last beat of the one before).
Random idle cycles on jobs and payload, random back-pressure on AW, W and m_done, random B
delays, at 64 and 512 bits."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import MODES, TB, pause_gen
from tcp_job import pack_job

RING = 4096
SESSIONS = 32
BOUNDARY = 4096


class Memory:
    """AXI4 write slave: AW and W with random back-pressure, B in order after a random
    delay. Bytes are written when their beat is taken and 'acknowledged' when the burst's
    B is given; every strobed byte must be one a job owns."""

    def __init__(self, tb, w, owned, rng):
        self.tb, self.dut, self.w, self.owned, self.rng = tb, tb.dut, w, owned, rng
        self.mem, self.acked = {}, {}
        self.aw = deque()        # bursts announced: [addr, beats]
        self.cur = None          # burst whose W beats are coming: [addr, beats, taken, bytes]
        self.b_due = deque()     # [cycle due, bytes of the burst]
        self.cycle = 0
        self.set_pressure(0.0)
        self.dut.m_axi_awready.value = 0
        self.dut.m_axi_wready.value = 0
        self.dut.m_axi_bvalid.value = 0
        cocotb.start_soon(self._run())

    def set_pressure(self, p, seed=5):
        self.aw_pause, self.w_pause = pause_gen(p, seed), pause_gen(p, seed + 1)
        self.b_delay = 6 if p else 0

    async def _run(self):
        dut, w = self.dut, self.w
        while True:
            await FallingEdge(self.tb.clk)
            self.cycle += 1
            dut.m_axi_awready.value = 0 if next(self.aw_pause) else 1
            dut.m_axi_wready.value = 0 if next(self.w_pause) else 1
            give_b = bool(self.b_due) and self.b_due[0][0] <= self.cycle
            dut.m_axi_bvalid.value = int(give_b)
            await ReadOnly()
            if give_b:
                assert dut.m_axi_bready.value == 1, "B not ready"
                for a, v in self.b_due.popleft()[1]:
                    self.acked[a] = v
            if dut.m_axi_awvalid.value and dut.m_axi_awready.value:
                addr, beats = int(dut.m_axi_awaddr.value), int(dut.m_axi_awlen.value) + 1
                assert addr % w == 0, f"burst at {addr:#x} not aligned"
                assert addr // BOUNDARY == (addr + beats * w - 1) // BOUNDARY, \
                    f"burst {addr:#x}+{beats} beats crosses a {BOUNDARY}-byte boundary"
                assert (addr // RING) % 2 == 0, f"burst {addr:#x} outside the RX rings"
                self.aw.append([addr, beats])
            if dut.m_axi_wvalid.value and dut.m_axi_wready.value:
                if self.cur is None:
                    assert self.aw, "a W beat before its burst's AW"
                    self.cur = self.aw.popleft() + [0, []]
                addr, beats, taken, written = self.cur
                data = int(dut.m_axi_wdata.value).to_bytes(w, "little")
                strb = int(dut.m_axi_wstrb.value)
                base = addr + taken * w
                for lane in range(w):
                    if strb >> lane & 1:
                        a = base + lane
                        assert a in self.owned, f"byte {a:#x} strobed, no job owns it"
                        self.mem[a] = data[lane]
                        written.append((a, data[lane]))
                self.cur[2] = taken = taken + 1
                assert bool(dut.m_axi_wlast.value) == (taken == beats), \
                    f"WLAST {int(dut.m_axi_wlast.value)} at beat {taken} of {beats}"
                if taken == beats:
                    self.b_due.append([self.cycle + self.rng.randrange(self.b_delay + 1), written])
                    self.cur = None


class Jobs:
    """The jobs of the test, their frames and the bytes they must leave in memory."""

    def __init__(self, rng, w):
        self.rng, self.w = rng, w
        self.nxt = {s: rng.getrandbits(32) for s in range(SESSIONS)}
        self.used = {s: 0 for s in range(SESSIONS)}
        self.owned = set()
        self.mismatched = 0

    @staticmethod
    def base(s):
        return 0x10000 + s * 2 * RING

    def make(self, s, length, skip=0, frame_delta=0, gap=0):
        """A job of `length` bytes of session s after a gap of `gap` (a stored interval ahead);
        returns (job dict, frame bytes or None, expected {addr: byte})."""
        if length == 0:
            return {"session": s, "tag": 1, "base": self.base(s), "offset": self.nxt[s], "length": 0}, None, {}
        offset = (self.nxt[s] + gap) & 0xFFFFFFFF
        frame = bytes(self.rng.getrandbits(8) for _ in range(max(0, skip + length + frame_delta)))
        padded = frame.ljust(skip + length, b"\0")
        expect = {self.base(s) + (offset + i) % RING: padded[skip + i] for i in range(length)}
        self.owned |= set(expect)
        self.nxt[s] = (offset + length) & 0xFFFFFFFF
        self.used[s] += gap + length
        assert self.used[s] < RING, "the test overwrote a ring"
        self.mismatched += frame_delta != 0
        job = {"session": s, "tag": 0, "base": self.base(s), "offset": offset, "length": length, "skip": skip}
        return job, frame, expect

    def new_round(self):
        """Rings may be written again from here on (the bytes before are checked)."""
        self.used = {s: 0 for s in range(SESSIONS)}

    def random(self):
        rng, w = self.rng, self.w
        s = rng.choice([s for s in range(SESSIONS) if self.used[s] < RING - 1100])
        r = rng.random()
        if r < 0.05:
            return self.make(s, 0)
        length = rng.choice([1, rng.randrange(1, w + 1), rng.randrange(1, 4 * w), rng.randrange(1, 700)])
        skip = rng.randrange(0, 60) if rng.random() < 0.2 else 0
        delta = 0
        if rng.random() < 0.08:
            delta = rng.choice([-1, 1, -rng.randrange(1, skip + length + 1), rng.randrange(1, 3 * w)])
        gap = rng.randrange(1, 200) if rng.random() < 0.1 else 0
        return self.make(s, length, skip, delta, gap)


async def drive_jobs(tb, items, pause):
    dut = tb.dut
    for job, _, _ in items:
        await FallingEdge(tb.clk)
        while next(pause):
            dut.s_job_valid.value = 0
            await FallingEdge(tb.clk)
        dut.s_job.value = pack_job(job["session"], job["tag"], job["base"], job["offset"], job["length"],
                                   job.get("skip", 0))
        dut.s_job_valid.value = 1
        while True:
            await ReadOnly()
            if dut.s_job_ready.value:
                break
            await FallingEdge(tb.clk)
    await FallingEdge(tb.clk)
    dut.s_job_valid.value = 0


async def check_done(tb, items, mem, pause, cycles=200_000):
    """Every completion in job order, each only once its bytes have their B."""
    dut = tb.dut
    want = deque(items)
    for _ in range(cycles):
        if not want:
            return
        await FallingEdge(tb.clk)
        dut.m_done_ready.value = 0 if next(pause) else 1
        await ReadOnly()
        if dut.m_done_valid.value and dut.m_done_ready.value:
            job, _, expect = want.popleft()
            got = int(dut.m_done.value)
            assert got == pack_job(job["session"], job["tag"], job["base"], job["offset"], job["length"],
                                   job.get("skip", 0)), f"completion {got:#x} is not the next job {job}"
            for a, v in expect.items():
                assert mem.acked.get(a) == v, f"job {job} completed before byte {a:#x} was written and acknowledged"
    raise AssertionError(f"{len(want)} jobs never completed")


@cocotb.test()
async def run(dut):
    w = len(dut.s_axis_tdata) // 8
    rng = random.Random(11)
    tb = TB(dut)
    jobs = Jobs(rng, w)
    dut.s_job_valid.value = 0
    dut.m_done_ready.value = 0
    src = tb.source("s_axis")
    mem = Memory(tb, w, jobs.owned, rng)
    errors = 0

    async def count_errors():
        nonlocal errors
        while True:
            await FallingEdge(tb.clk)
            await ReadOnly()
            errors += int(dut.stat_len_err.value)
    await tb.reset()
    cocotb.start_soon(count_errors())

    total = 0
    for mode, (idle, bp) in enumerate(MODES):
        jobs.new_round()
        items = [jobs.random() for _ in range(250)]
        src.set_idle(idle, seed=mode)
        mem.set_pressure(bp, seed=10 + mode)
        for _, frame, _ in items:
            if frame is not None:
                src.send_nowait(frame)
        drv = cocotb.start_soon(drive_jobs(tb, items, pause_gen(idle, 20 + mode)))
        await check_done(tb, items, mem, pause_gen(bp, 30 + mode))
        await drv
        assert src.empty(), "frames left over: a job took the wrong frame"
        total += len(items)

    # every byte a job owned was written (each was checked when its job completed)
    for a in jobs.owned:
        assert a in mem.acked, f"byte {a:#x} never written"
    await tb.cycles(4)
    assert errors == jobs.mismatched, f"stat_len_err pulsed {errors} times for {jobs.mismatched} mismatched frames"

    # one-beat jobs back to back, everything ready: 2 cycles per job
    jobs.new_round()
    src.set_idle(0.0)
    mem.set_pressure(0.0)
    items = []
    for i in range(64):
        s = i % SESSIONS
        room = w - jobs.nxt[s] % w        # bytes left in the word the stream is at
        items.append(jobs.make(s, rng.randrange(1, room + 1)))
    for _, frame, _ in items:
        src.send_nowait(frame)
    await tb.cycles(40)                   # the frames are in the writer's input FIFO
    beats = []

    async def watch_w():
        while True:
            await FallingEdge(tb.clk)
            await ReadOnly()
            if dut.m_axi_wvalid.value and dut.m_axi_wready.value:
                beats.append(mem.cycle)
    watcher = cocotb.start_soon(watch_w())
    start = mem.cycle
    drv = cocotb.start_soon(drive_jobs(tb, items, pause_gen(0.0, 1)))
    await check_done(tb, items, mem, pause_gen(0.0, 2))
    await drv
    watcher.cancel()
    assert len(beats) == len(items), f"{len(beats)} W beats for {len(items)} one-beat jobs"
    took = beats[-1] - start
    assert took <= 2 * len(items) + 4, f"{len(items)} one-beat jobs took {took} cycles (2 each at most)"
    dut._log.info("%d jobs checked byte for byte, %d with a mismatched frame; %d one-beat jobs in %d cycles",
                  total, jobs.mismatched, len(items), took)


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_tcp_ring_writer(data_w):
    runner.run("toe_tcp_ring_writer", "test_toe_tcp_ring_writer",
               {"DATA_W": data_w, "RING_BYTES": RING}, Path(__file__).parent)
