"""toe_tcp_rx_read: the application's read requests, the ring reader's completions and the
core's record writes in; ring read jobs, RX_REQ/RX_READ and wakes out. Written from the
contract, not the code:
- a request of length L is accepted when the session is readable, 0 < L and
  L <= RX_DONE - RX_REQ: a job [RX_REQ, RX_REQ + L) on the session's RX ring, and RX_REQ += L;
  otherwise a job of length 0 and a stat_refused pulse; jobs in request order;
- a completion of length L > 0 at offset O makes RX_READ = O + L;
- the core's write sets readable and the wake bit, and for a new connection RX_REQ = RX_READ;
- a session is queued for the core by a completion while its wake bit is on, by a core
  write with the bit on and RX_READ differing from what the core saw, and by a core write
  that turns readable off with the bit on; at most once (until the write of the event that
  took it); no other wakes, and each in the order the contract gives them (a late wake is a
  wrong one);
- RX_REQ, RX_READ and readable read by the core (two cycles after the address) are values
  of the current connection at most one operation old, and the latest when idle (the
  read's hold is toe_state_ram's, tested there; low here);
- random request lengths (refused ones too), idle cycles, back-pressure on jobs and wakes,
  the core's writes back to back at reset and every third cycle after."""
import random
from collections import Counter, deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import runner
from tbutil import TB
from tcp_job import pack_job, unpack_job
from tcp_structs import CORE2RXREAD, RXREAD2CORE

SESSIONS = 16
RING = 65536
MEM_BASE = 0x100000
M32 = 0xFFFFFFFF


class Model:
    def __init__(self):
        self.rx_req = [0] * SESSIONS
        self.rx_read = [0] * SESSIONS
        self.readable = [False] * SESSIONS
        self.wake_on = [False] * SESSIONS
        self.queued = [False] * SESSIONS
        self.hist = [{"req": [0], "read": [0], "readable": [False]} for _ in range(SESSIONS)]
        self.rx_done = [0] * SESSIONS        # the deliver engine's, grows
        self.jobs = deque()                  # expected jobs, in order
        self.in_flight = [0] * SESSIONS      # accepted, not completed
        self.wakes = Counter()
        self.wake_order = deque()   # the wake queue: sessions in the order they were queued
        self.refused = 0

    def _note(self, sid):
        h = self.hist[sid]
        h["req"].append(self.rx_req[sid])
        h["read"].append(self.rx_read[sid])
        h["readable"].append(self.readable[sid])

    def _wake(self, sid):
        if not self.queued[sid]:
            self.queued[sid] = True
            self.wakes[sid] += 1
            self.wake_order.append(sid)

    def core_write(self, sid, woken, init, first, readable, wake_on, seen):
        was_readable = self.readable[sid]
        if woken:
            self.queued[sid] = False
        self.readable[sid], self.wake_on[sid] = readable, wake_on
        if init:
            self.rx_req[sid] = self.rx_read[sid] = first
            self.hist[sid] = {"req": [], "read": [], "readable": []}
        elif wake_on and (self.rx_read[sid] != seen or (was_readable and not readable)):
            self._wake(sid)
        self._note(sid)

    def completion(self, sid, offset, length):
        self.in_flight[sid] -= 1
        self.rx_read[sid] = (offset + length) & M32
        if self.wake_on[sid]:
            self._wake(sid)
        self._note(sid)

    def request(self, sid, length, rx_done):
        ok = self.readable[sid] and 0 < length <= ((rx_done - self.rx_req[sid]) & M32)
        self.jobs.append({"session": sid, "offset": self.rx_req[sid], "length": length if ok else 0,
                          "base": MEM_BASE + (sid * 2) * RING})
        if ok:
            self.rx_req[sid] = (self.rx_req[sid] + length) & M32
            self.in_flight[sid] += 1
        else:
            self.refused += 1
        self._note(sid)
        return ok


@cocotb.test(timeout_time=60, timeout_unit="ms")
async def reads_completions_wakes(dut):
    tb = TB(dut)
    rng = random.Random(9)
    m = Model()
    for name in ("s_req_valid", "s_done_valid", "op_valid", "m_wake_ready", "m_job_ready"):
        getattr(dut, name).value = 0
    dut.cfg_mem_base.value = MEM_BASE
    dut.rd_session.value = 0
    dut.rd_hold.value = 0
    dut.rx_done.value = 0
    await tb.reset()
    for s in range(SESSIONS):       # the core initializes every session back to back after reset
        await FallingEdge(tb.clk)
        dut.op_valid.value = 1
        dut.op_session.value = s
        CORE2RXREAD.drive(dut.op, woken=1, init=1, rx_first=0)
    await FallingEdge(tb.clk)
    dut.op_valid.value = 0
    await RisingEdge(tb.clk)

    reqs = deque()            # the app's requests (session, length)
    reader = deque()          # accepted jobs the ring reader will complete
    ev = None                 # the test core's event: [cycle of its write, session, woken, seen]
    cur_req = cur_done = None
    rx_done_next = 0          # the RX_DONE read of last cycle's address
    reads = deque()           # the core's reads in flight (two cycles): [session, values allowed, its event]
    got_wakes = Counter()
    popped = [False] * SESSIONS
    jobs_checked = stat = reads_checked = writes = accepted = 0
    cycle = 0
    while cycle < 60000 or reqs or reader or cur_req or cur_done or m.jobs or ev:
        await FallingEdge(tb.clk)
        busy = cycle < 60000
        dut.rx_done.value = rx_done_next
        # the deliver engine tells the app of more bytes now and then
        if busy and rng.random() < 0.3:
            s = rng.randrange(SESSIONS)
            m.rx_done[s] = (m.rx_done[s] + rng.choice([1, 100, 1460, 5000])) & M32
        # the core: an event reads a session (a wake's, or any) and writes it three cycles later
        op = None
        if ev and ev[0] == cycle:
            _, sid, woken, seen = ev
            ev = None
            readable = rng.random() < 0.8
            if m.in_flight[sid] == 0 and not any(r[0] == sid for r in reqs) and \
                    (cur_req is None or cur_req[0] != sid) and rng.random() < 0.05:
                first = rng.getrandbits(32)
                m.rx_done[sid] = first
                op = (sid, woken, 1, first, readable, rng.random() < 0.5, 0)
            else:
                op = (sid, woken, 0, 0, readable, rng.random() < 0.5, seen)
        dut.op_valid.value = int(op is not None)
        if op:
            dut.op_session.value = op[0]
            woken, init, rx_first, readable, wake_on, seen = map(int, op[1:])
            CORE2RXREAD.drive(dut.op, woken=woken, init=init, rx_first=rx_first, readable=readable,
                              wake_on=wake_on, seen=seen)
        # (the wake queue's output is settled here: a wake taken is the session read)
        start = ev is None and (busy or any(m.queued))
        take_wake = start and bool(dut.m_wake_valid.value) and rng.random() < 0.7
        dut.m_wake_ready.value = int(take_wake)
        rd = int(dut.m_wake_session.value) if take_wake else rng.randrange(SESSIONS)
        dut.rd_session.value = rd
        # the app's requests and the reader's completions
        if busy and rng.random() < 0.4:
            s = rng.randrange(SESSIONS)
            avail = (m.rx_done[s] - m.rx_req[s]) & M32
            reqs.append((s, rng.choice([0, 1, min(avail, 65535), rng.randrange(1, 3000), avail + 1]) & 0xFFFF))
        if cur_req is None and reqs and rng.random() < 0.8:
            cur_req = reqs.popleft()
        dut.s_req_valid.value = int(cur_req is not None)
        if cur_req:
            dut.s_req.value = cur_req[0] << 16 | cur_req[1]
        if cur_done is None and reader and rng.random() < 0.6:
            cur_done = reader.popleft()
        dut.s_done_valid.value = int(cur_done is not None)
        if cur_done:
            sid, offset, length, base = cur_done
            dut.s_done.value = pack_job(sid, base=base, offset=offset, length=length)
        dut.m_job_ready.value = int(rng.random() < 0.7)

        await ReadOnly()
        if len(reads) == 2:          # the read of two cycles before
            s, allowed, read_ev = reads.popleft()
            got = RXREAD2CORE.read(dut.rd)
            v = (got["rx_req"], got["rx_read"], got["readable"])
            assert v[0] in allowed["req"] and v[1] in allowed["read"] and bool(v[2]) in allowed["readable"], \
                f"session {s}: read {v} is not of its connection, at most one operation old"
            reads_checked += 1
            if read_ev is not None:
                read_ev[3] = v[1]             # the event's `seen`: the RX_READ its read gave
        if op:
            m.core_write(*op)
            writes += 1
        if take_wake:
            got_wakes[rd] += 1
            assert m.queued[rd] and not popped[rd], f"session {rd}: a wake the contract does not give"
            assert m.wake_order.popleft() == rd, f"session {rd}: woken out of order (a wake late or missing)"
            popped[rd] = True
            ev = [cycle + 3, rd, 1, None]
        elif start and busy and rng.random() < 0.5:
            ev = [cycle + 3, rd, 0, None]
        if op and op[1]:
            popped[op[0]] = False
        # the read of the cycle before gives, in the next, its session's values as of now
        # (every write up to the cycle before its data, and an init given then) or one
        # operation older
        if reads:
            reads[-1][1] = {k: v[-2:] for k, v in m.hist[reads[-1][0]].items()}
        reads.append([rd, None, ev if ev is not None and ev[0] == cycle + 3 else None])
        rx_done_next = m.rx_done[int(dut.rx_done_session.value) % SESSIONS]
        if cur_done and dut.s_done_ready.value:
            assert not op, "a completion was taken in the cycle of a core write"
            m.completion(cur_done[0], cur_done[1], cur_done[2])
            cur_done = None
        elif cur_req and dut.s_req_ready.value:
            assert not op, "a request was taken in the cycle of a core write"
            if m.request(cur_req[0], cur_req[1], rx_done_next):
                accepted += 1
            cur_req = None
        stat += int(dut.stat_refused.value)
        if dut.m_job_valid.value and dut.m_job_ready.value:
            j = unpack_job(int(dut.m_job.value))
            assert m.jobs, f"a job nobody asked for: {j}"
            e = m.jobs.popleft()
            assert {k: j[k] for k in e} == e, f"job {j}, want {e}"
            jobs_checked += 1
            if e["length"]:
                reader.append((e["session"], e["offset"], e["length"], e["base"]))
        await RisingEdge(tb.clk)
        cycle += 1
        assert cycle < 300_000, "did not drain"
    for _ in range(10):
        await FallingEdge(tb.clk)
        dut.s_req_valid.value = dut.s_done_valid.value = dut.op_valid.value = 0
        dut.m_wake_ready.value = 1
        await ReadOnly()
        if dut.m_wake_valid.value:
            got_wakes[int(dut.m_wake_session.value)] += 1
            assert m.wake_order.popleft() == int(dut.m_wake_session.value), "woken out of order"
        await RisingEdge(tb.clk)
    assert got_wakes == m.wakes, f"wakes {dict(got_wakes)} want {dict(m.wakes)}"
    await FallingEdge(tb.clk)
    dut.m_wake_ready.value = 0
    for s in range(SESSIONS):
        await FallingEdge(tb.clk)
        dut.rd_session.value = s
        await RisingEdge(tb.clk)
        await RisingEdge(tb.clk)
        await ReadOnly()
        got = RXREAD2CORE.read(dut.rd)
        assert (got["rx_req"], got["rx_read"]) == (m.rx_req[s], m.rx_read[s]), \
            f"session {s}: not the latest"
    await RisingEdge(tb.clk)
    assert stat == m.refused, (stat, m.refused)
    assert jobs_checked > 5000 and accepted > 1000 and m.refused > 1000 and writes > 5000 and \
        sum(m.wakes.values()) > 500 and reads_checked > 20000, \
        (jobs_checked, accepted, m.refused, writes, m.wakes, reads_checked)
    dut._log.info("%d jobs (%d accepted, %d refused), %d core writes, %d wakes, %d reads checked",
                  jobs_checked, accepted, m.refused, writes, sum(m.wakes.values()), reads_checked)


@pytest.mark.parametrize("sessions", [SESSIONS])
def test_toe_tcp_rx_read(sessions):
    runner.run("toe_tcp_rx_read", "test_toe_tcp_rx_read", {"MAX_SESSIONS": sessions, "RING_BYTES": RING},
               Path(__file__).parent)
