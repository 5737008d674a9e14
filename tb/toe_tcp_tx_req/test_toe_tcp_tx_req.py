"""toe_tcp_tx_req: the application's send requests, the TX ring writer's completions and the
core's record writes in; answers, TX ring write jobs, TX_APP/TX_DONE/TX_WANT and wakes out.
Written from the contract, not the code:
- a request of length L for a session that is not sendable: TX_NOT_CONNECTED, and a
  stat_error pulse when the core marked the session as known dead to the app;
- else with AVAIL = RING - (TX_APP - SND.UNA) (SND.UNA as the core last wrote it):
  TX_NO_SPACE with space AVAIL when L = 0 or L > AVAIL, and TX_WANT = min(L, RING);
  otherwise TX_ACCEPTED with space AVAIL - L, a job [TX_APP, TX_APP + L) on the session's
  TX ring, TX_APP += L; answers and jobs in request order;
- a completion (the jobs given, in order, after a random delay) sets TX_DONE to its end;
- the core's write sets sendable, the error bit and SND.UNA; for a new connection TX_APP =
  TX_DONE = its first sequence number and TX_WANT = 0 (only for a session with no job
  outstanding, as the core's release guarantees); its clear of TX_WANT happens only if
  TX_WANT still is the value it saw;
- a session is queued for the core by the core write that turns sendable off, by one
  after which a sendable session's TX_WANT (not 0) fits in RING - (TX_APP - SND.UNA), by
  a completion, and by the write of the event that took the wake when TX_DONE is not the
  one that event read; at most once until the write of the event that took it; no other
  wakes, and each in the order the contract gives them (a late wake is a wrong one);
- TX_APP, TX_DONE, TX_WANT and sendable read by the core (two cycles after the address)
  are values of the current connection at most one operation old, and the latest when
  idle (the read's hold is toe_state_ram's, tested there; low here);
- random request lengths, idle cycles, back-pressure on answers, jobs and wakes, the core's
  writes back to back at reset and every third cycle after."""
import random
from collections import Counter, deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import runner
from tbutil import TB
from tcp_job import pack_job, unpack_job
from tcp_structs import CORE2TXREQ, TXREQ2CORE

SESSIONS = 16
RING = 4096
MEM_BASE = 0x200000
M32 = 0xFFFFFFFF
ACCEPTED, NO_SPACE, NOT_CONNECTED = 0, 1, 2


def unpack_rsp(v):
    return {"space": v & 0x1FFFF, "status": (v >> 17) & 3, "session": v >> 19}


class Model:
    def __init__(self):
        self.tx_app = [0] * SESSIONS
        self.tx_done = [0] * SESSIONS
        self.outstanding = [0] * SESSIONS   # jobs accepted and not completed
        self.tx_want = [0] * SESSIONS
        self.snd_una = [0] * SESSIONS
        self.sendable = [False] * SESSIONS
        self.dead = [True] * SESSIONS
        self.queued = [False] * SESSIONS
        self.hist = [{"app": [0], "done": [0], "want": [0], "sendable": [False]} for _ in range(SESSIONS)]
        self.rsps = deque()
        self.jobs = deque()
        self.wakes = Counter()
        self.wake_order = deque()   # the wake queue: sessions in the order they were queued
        self.errors = 0
        self.count = Counter()
        self.wake_why = Counter()

    def _note(self, sid):
        h = self.hist[sid]
        h["app"].append(self.tx_app[sid])
        h["done"].append(self.tx_done[sid])
        h["want"].append(self.tx_want[sid])
        h["sendable"].append(self.sendable[sid])

    def _wake(self, sid, why):
        self.queued[sid] = True
        self.wakes[sid] += 1
        self.wake_order.append(sid)
        self.wake_why[why] += 1

    def core_write(self, sid, woken, init, first, sendable, dead, snd_una, clear, want_seen, done_seen):
        was = self.sendable[sid]
        if woken:
            self.queued[sid] = False
        self.sendable[sid], self.dead[sid], self.snd_una[sid] = sendable, dead, snd_una
        if clear and self.tx_want[sid] == want_seen:
            self.tx_want[sid] = 0
        if init:
            assert self.outstanding[sid] == 0
            self.tx_app[sid], self.tx_done[sid], self.tx_want[sid] = first, first, 0
            self.hist[sid] = {"app": [], "done": [], "want": [], "sendable": []}
        elif not self.queued[sid]:
            if (was and not sendable) or (sendable and self.tx_want[sid] and
                                          self.tx_want[sid] <= (RING - ((self.tx_app[sid] - snd_una) & M32)) & M32):
                self._wake(sid, "core")
            elif woken and self.tx_done[sid] != done_seen:
                self._wake(sid, "done_after_read")
        self._note(sid)

    def complete(self, sid, offset, length):
        assert offset == self.tx_done[sid] and self.outstanding[sid] > 0
        self.tx_done[sid] = (offset + length) & M32
        self.outstanding[sid] -= 1
        if not self.queued[sid]:
            self._wake(sid, "done")
        self._note(sid)

    def request(self, sid, length):
        if not self.sendable[sid]:
            self.rsps.append({"session": sid, "status": NOT_CONNECTED, "space": 0})
            self.errors += self.dead[sid]
            self.count["not_connected"] += 1
        else:
            avail = (RING - ((self.tx_app[sid] - self.snd_una[sid]) & M32)) & M32
            if length == 0 or length > avail:
                self.rsps.append({"session": sid, "status": NO_SPACE, "space": avail & 0x1FFFF})
                self.tx_want[sid] = min(length, RING)
                self.count["no_space"] += 1
            else:
                self.rsps.append({"session": sid, "status": ACCEPTED, "space": avail - length})
                self.jobs.append({"session": sid, "offset": self.tx_app[sid], "length": length,
                                  "base": MEM_BASE + (sid * 2 + 1) * RING})
                self.tx_app[sid] = (self.tx_app[sid] + length) & M32
                self.outstanding[sid] += 1
                self.count["accepted"] += 1
        self._note(sid)


@cocotb.test(timeout_time=60, timeout_unit="ms")
async def requests_answers_wakes(dut):
    tb = TB(dut)
    rng = random.Random(3)
    m = Model()
    for name in ("s_req_valid", "s_done_valid", "op_valid", "m_wake_ready", "m_job_ready", "m_rsp_ready"):
        getattr(dut, name).value = 0
    dut.cfg_mem_base.value = MEM_BASE
    dut.rd_session.value = 0
    dut.rd_hold.value = 0
    await tb.reset()
    for s in range(SESSIONS):       # the core initializes every session back to back after reset
        await FallingEdge(tb.clk)
        dut.op_valid.value = 1
        dut.op_session.value = s
        CORE2TXREQ.drive(dut.op, woken=1, init=1, known_dead=1)
    await FallingEdge(tb.clk)
    dut.op_valid.value = 0
    await RisingEdge(tb.clk)

    reqs = deque()
    ev = None                 # the test core's event: [cycle of its write, session, woken, seen want, seen TX_DONE]
    cur = None
    written = deque()         # the test writer: jobs taken, (cycle they complete, job), in order
    cur_done = None
    reads = deque()           # the core's reads in flight (two cycles): [session, values allowed, its event]
    got_wakes = Counter()
    popped = [False] * SESSIONS
    rsps_checked = jobs_checked = stat = reads_checked = writes = clears = 0
    cycle = 0
    while cycle < 40000 or reqs or cur or m.rsps or m.jobs or ev or written or cur_done:
        await FallingEdge(tb.clk)
        busy = cycle < 40000
        op = None
        if ev and ev[0] == cycle:
            _, sid, woken, seen_want, seen_done = ev
            ev = None
            # the core: SND.UNA moves up to TX_APP (ACKs), sendable and the error bit change now
            # and then, a TX_SPACE clear for the TX_WANT it saw, a new connection now and then
            una = (m.snd_una[sid] + rng.randrange(0, ((m.tx_app[sid] - m.snd_una[sid]) & M32) + 1)) & M32
            sendable = rng.random() < 0.85
            dead = not sendable and rng.random() < 0.5
            clear = seen_want is not None and rng.random() < 0.5
            if rng.random() < 0.03 and m.outstanding[sid] == 0:
                first = rng.getrandbits(32)
                op = (sid, woken, 1, first, sendable, dead, first, 0, 0, 0)
            else:
                op = (sid, woken, 0, 0, sendable, dead, una, int(clear), seen_want or 0, seen_done)
            clears += clear
        dut.op_valid.value = int(op is not None)
        if op:
            dut.op_session.value = op[0]
            woken, init, tx_first, sendable, known_dead, snd_una, clear_want, want_seen, tx_done_seen = map(int, op[1:])
            CORE2TXREQ.drive(dut.op, woken=woken, init=init, tx_first=tx_first, sendable=sendable,
                             known_dead=known_dead, snd_una=snd_una, clear_want=clear_want, want_seen=want_seen,
                             tx_done_seen=tx_done_seen)
        start = ev is None and (busy or any(m.queued))
        take_wake = start and bool(dut.m_wake_valid.value) and rng.random() < 0.7
        dut.m_wake_ready.value = int(take_wake)
        rd = int(dut.m_wake_session.value) if take_wake else rng.randrange(SESSIONS)
        dut.rd_session.value = rd
        if busy and rng.random() < 0.45:
            s = rng.randrange(SESSIONS)
            avail = (RING - ((m.tx_app[s] - m.snd_una[s]) & M32)) & M32
            reqs.append((s, rng.choice([0, 1, avail, avail + 1, rng.randrange(1, 1500), 0xFFFF]) & 0xFFFF))
        if cur is None and reqs and rng.random() < 0.8:
            cur = reqs.popleft()
        dut.s_req_valid.value = int(cur is not None)
        if cur:
            dut.s_req.value = cur[0] << 16 | cur[1]
        if cur_done is None and written and written[0][0] <= cycle and rng.random() < 0.7:
            cur_done = written.popleft()[1]
        dut.s_done_valid.value = int(cur_done is not None)
        if cur_done:
            dut.s_done.value = pack_job(**cur_done)
        dut.m_job_ready.value = int(rng.random() < 0.6)
        dut.m_rsp_ready.value = int(rng.random() < 0.6)

        await ReadOnly()
        if len(reads) == 2:          # the read of two cycles before
            s, allowed, read_ev = reads.popleft()
            got = TXREQ2CORE.read(dut.rd)
            v = (got["tx_app"], got["tx_want"], bool(got["sendable"]), got["tx_done"])
            assert v[0] in allowed["app"] and v[1] in allowed["want"] and v[2] in allowed["sendable"] and \
                v[3] in allowed["done"], f"session {s}: read {v} is not of its connection, at most one operation old: {allowed}"
            reads_checked += 1
            if read_ev is not None:
                read_ev[3] = v[1] if v[1] else None    # a TX_WANT to clear, as the core saw it
                read_ev[4] = v[3]                      # the TX_DONE the event read
        if op:
            m.core_write(*op)
            writes += 1
            if op[1]:
                popped[op[0]] = False
        if take_wake:
            got_wakes[rd] += 1
            assert m.queued[rd] and not popped[rd], f"session {rd}: a wake the contract does not give"
            assert m.wake_order.popleft() == rd, f"session {rd}: woken out of order (a wake late or missing)"
            popped[rd] = True
            ev = [cycle + 3, rd, 1, None, None]
        elif start and busy and rng.random() < 0.5:
            ev = [cycle + 3, rd, 0, None, None]
        # the read of the cycle before gives, in the next, its session's values as of now
        # (every write up to the cycle before its data, and an init given then) or one
        # operation older
        if reads:
            reads[-1][1] = {k: v[-2:] for k, v in m.hist[reads[-1][0]].items()}
        reads.append([rd, None, ev if ev is not None and ev[0] == cycle + 3 else None])
        done_taken = cur_done is not None and bool(dut.s_done_ready.value)
        if done_taken:
            assert not op, "a completion was taken in the cycle of a core write"
            m.complete(cur_done["session"], cur_done["offset"], cur_done["length"])
            cur_done = None
        if cur and dut.s_req_ready.value:
            assert not op and not done_taken, "a request was taken in the cycle of a core write or a completion"
            m.request(*cur)
            cur = None
        stat += int(dut.stat_error.value)
        if dut.m_rsp_valid.value and dut.m_rsp_ready.value:
            r = unpack_rsp(int(dut.m_rsp.value))
            assert m.rsps, f"an answer nobody asked for: {r}"
            e = m.rsps.popleft()
            assert r == e, f"answer {r}, want {e}"
            rsps_checked += 1
        if dut.m_job_valid.value and dut.m_job_ready.value:
            j = unpack_job(int(dut.m_job.value))
            assert m.jobs, f"a job nobody asked for: {j}"
            e = m.jobs.popleft()
            assert {k: j[k] for k in e} == e, f"job {j}, want {e}"
            jobs_checked += 1
            written.append((cycle + rng.randrange(0, 24), j))
        await RisingEdge(tb.clk)
        cycle += 1
        assert cycle < 200_000, "did not drain"
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
        got = TXREQ2CORE.read(dut.rd)
        assert (got["tx_app"], got["tx_want"], got["tx_done"]) == \
            (m.tx_app[s], m.tx_want[s], m.tx_done[s]), f"session {s}: not the latest"
        assert m.tx_done[s] == m.tx_app[s], f"session {s}: granted bytes not all written"
    assert stat == m.errors, (stat, m.errors)
    assert min(m.count.values()) > 500 and len(m.count) == 3 and m.errors > 100 and clears > 100 and \
        m.wake_why["core"] > 500 and m.wake_why["done"] > 500 and m.wake_why["done_after_read"] > 20 and \
        reads_checked > 20000, (m.count, m.errors, clears, m.wake_why, reads_checked)
    dut._log.info("%d answers %s, %d jobs, %d errors, %d core writes (%d TX_WANT clears), %d wakes %s, "
                  "%d reads checked", rsps_checked, dict(m.count), jobs_checked, m.errors, writes, clears,
                  sum(m.wakes.values()), dict(m.wake_why), reads_checked)


@pytest.mark.parametrize("sessions", [SESSIONS])
def test_toe_tcp_tx_req(sessions):
    runner.run("toe_tcp_tx_req", "test_toe_tcp_tx_req", {"MAX_SESSIONS": sessions, "RING_BYTES": RING},
               Path(__file__).parent)
