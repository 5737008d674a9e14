"""toe_tcp_rx_read_done: RX ring reader completions and the core's record writes in, RX_READ
and wakes out, written from the contract, not the code:
- a completion of length L > 0 at offset O makes RX_READ = O + L; one of length 0 changes
  nothing; the core's init sets it;
- RX_READ read by the core is a value of the session's current connection (its initial value
  from the cycle after the init on, then at most one completion old) and the latest once the
  engine is idle;
- wakes: one for every completion (L > 0) taken while the session's wake bit is on, and one
  for a core write that turns the bit on while RX_READ differs from the value the core saw;
  no others (the core's write comes first when both come in one cycle);
- the wake FIFO never overflows (the module asserts it) under random back-pressure, with the
  core writing back to back; with the wakes always taken and no core writes, completions are
  taken one per cycle."""
import random
from collections import Counter, deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import runner
from tbutil import TB

SESSIONS = 16
M32 = 0xFFFFFFFF


def pack_job(session, offset, length):
    v = session
    for val, w in ((0, 3), (0x10000, 48), (offset & M32, 32), (length, 17), (0, 16), (0, 16)):
        v = v << w | val
    return v


class Model:
    def __init__(self, rng):
        self.rng = rng
        self.rx_read = [0] * SESSIONS       # as the engine has it, in the order it takes things
        self.wake_on = [False] * SESSIONS
        self.hist = [[0] for _ in range(SESSIONS)]   # values of the current connection
        self.issued = [0] * SESSIONS        # end of the reads issued
        self.pending = [0] * SESSIONS       # completions not yet taken
        self.jobs = deque()
        self.wakes = Counter()

    def issue(self, sid):
        length = self.rng.choice([0, 1, 64, self.rng.randrange(1, 1500), 1460])
        self.jobs.append((sid, self.issued[sid], length))
        self.issued[sid] = (self.issued[sid] + length) & M32
        self.pending[sid] += 1

    def core_write(self, sid, init, value, wake_on, seen):
        if init:
            self.rx_read[sid] = value
            self.hist[sid] = [value]
        elif wake_on and not self.wake_on[sid] and self.rx_read[sid] != seen:
            self.wakes[sid] += 1
        self.wake_on[sid] = wake_on

    def completion(self, sid, offset, length):
        self.pending[sid] -= 1
        if length:
            self.rx_read[sid] = (offset + length) & M32
            self.hist[sid].append(self.rx_read[sid])
            if self.wake_on[sid]:
                self.wakes[sid] += 1


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def completions_and_wakes(dut):
    tb = TB(dut)
    rng = random.Random(5)
    m = Model(rng)
    for name in ("s_done_valid", "op_valid", "m_wake_ready"):
        getattr(dut, name).value = 0
    dut.rd_session.value = 0
    await tb.reset()
    # the core initializes every session back to back, as after reset
    for s in range(SESSIONS):
        await FallingEdge(tb.clk)
        dut.op_valid.value, dut.op_session.value, dut.op_init.value = 1, s, 1
        dut.op_rx_read.value, dut.op_wake_on.value, dut.op_seen.value = 0, 0, 0
    await FallingEdge(tb.clk)
    dut.op_valid.value = 0

    # phase 1: a burst of 64 completions, wakes always taken, no core writes
    for i in range(64):
        m.issue(i % SESSIONS)
    burst = len(m.jobs)
    cycle = 0
    first = last = None
    events = deque()          # the test core's events: (cycle of the write, session, seen)
    rd_prev = None
    reads_checked = fresh = writes = wake_writes = 0
    got = Counter()
    cur = None
    while cycle < 60000 or m.jobs or cur or events:
        await FallingEdge(tb.clk)
        phase1 = first is None or last is None
        # the core: an event reads RX_READ of a session and writes its record two cycles later
        op = None
        if events and events[0][0] == cycle:
            _, sid, seen = events.popleft()
            if m.pending[sid] == 0 and rng.random() < 0.1:           # a new connection
                op = (sid, 1, rng.getrandbits(32), rng.random() < 0.5, 0)
                m.issued[sid] = op[2]
            else:
                op = (sid, 0, 0, rng.random() < 0.5, seen)
        dut.op_valid.value = int(op is not None)
        if op:
            dut.op_session.value, dut.op_init.value, dut.op_rx_read.value, dut.op_wake_on.value, \
                dut.op_seen.value = op
        rd = rng.randrange(SESSIONS)
        dut.rd_session.value = rd
        if not phase1 and cycle < 60000 and not events and rng.random() < 0.5:
            events.append((cycle + 2, rd, None))                    # its `seen` is read next cycle
        # completions of reads issued by the test app
        if not phase1 and cycle < 60000 and rng.random() < 0.4:
            m.issue(rng.randrange(SESSIONS))
        if cur is None and m.jobs and (phase1 or rng.random() < 0.8):
            cur = m.jobs.popleft()
        dut.s_done_valid.value = int(cur is not None)
        if cur:
            dut.s_done.value = pack_job(*cur)
        dut.m_wake_ready.value = int(phase1 or rng.random() < 0.5)

        await ReadOnly()
        if rd_prev is not None:
            s, allowed = rd_prev
            v = int(dut.rd_rx_read.value)
            assert v in allowed, f"session {s}: RX_READ {v:#x} is not of its connection"
            reads_checked += 1
            if events and events[-1][1] == s and events[-1][2] is None:
                events[-1] = (events[-1][0], s, v)
        if op:
            m.core_write(*op)
            writes += 1
            wake_writes += op[3]
            fresh += op[1]
        # what this cycle's read may give: the init of this cycle is seen, and any value of the
        # connection from the one the core last saw on
        rd_prev = (rd, list(m.hist[rd][-2:]))
        if cur and dut.s_done_ready.value:
            assert not op, "a completion was taken in the cycle of a core write"
            if phase1 and first is None:
                first = cycle
            m.completion(*cur)
            cur = None
            if phase1 and first is not None and not m.jobs:
                last = cycle
        if dut.m_wake_valid.value and dut.m_wake_ready.value:
            s = int(dut.m_wake_session.value)
            got[s] += 1
            assert got[s] <= m.wakes[s], f"session {s}: a wake the contract does not give"
        await RisingEdge(tb.clk)
        cycle += 1
        assert cycle < 200_000, "did not drain"
    for _ in range(20):
        await FallingEdge(tb.clk)
        dut.m_wake_ready.value = 1
        dut.s_done_valid.value = 0
        dut.op_valid.value = 0
        await ReadOnly()
        if dut.m_wake_valid.value:
            got[int(dut.m_wake_session.value)] += 1
        await RisingEdge(tb.clk)
    assert got == m.wakes, f"wakes {dict(got)} want {dict(m.wakes)}"
    for s in range(SESSIONS):
        await FallingEdge(tb.clk)
        dut.rd_session.value = s
        await RisingEdge(tb.clk)
        await ReadOnly()
        assert int(dut.rd_rx_read.value) == m.rx_read[s], f"session {s}: RX_READ not the latest"
    took = last - first + 1
    assert took <= burst + 1, f"{burst} completions took {took} cycles"
    assert reads_checked > 10000 and writes > 1000 and sum(m.wakes.values()) > 500, \
        (reads_checked, writes, m.wakes)
    dut._log.info("%d reads checked, %d core writes (%d with the wake bit, %d inits), %d wakes, "
                  "%d completions in %d cycles", reads_checked, writes, wake_writes, fresh,
                  sum(m.wakes.values()), burst, took)


@pytest.mark.parametrize("sessions", [SESSIONS])
def test_toe_tcp_rx_read_done(sessions):
    runner.run("toe_tcp_rx_read_done", "test_toe_tcp_rx_read_done", {"MAX_SESSIONS": sessions},
               Path(__file__).parent)
