"""toe_tcp_rx_deliver: RX writer completions in, RX_DONE and the application's notifications
out, written from the contract, not the code:
- an in-stream data job gives DATA of length + reassembled and RX_DONE = offset + length +
  reassembled, also with length 0 (held bytes joining); an out-of-order store (tag 7) gives
  nothing; a marker (length 0, an end's tag) gives its tag's kind, whatever reassembled
  count it carries (the core's marker after a data job copies that job's);
- a session whose drop bit the core set before the completion was taken gets no DATA (its
  markers still come);
- the core's own notifications pass unchanged, and a connection's NEW comes before its data;
- RX_DONE read by the core is always a value of the session's current connection (its
  initial value right after the init, then at most one completion old) and the latest once
  the engine is idle;
- a notification given is held, unchanged, until it is taken (a core notification that
  comes meanwhile waits);
- with the output always ready, completions are taken one per cycle.
Random idle cycles on the completions and random back-pressure on the notifications."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import runner
from tcp_notif import CLOSED, DATA, NEW, PEER_FIN, RESET, pack_notif, unpack_notif
from tbutil import TB
from tcp_job import pack_job

TAG_NONE = 7
SESSIONS = 16


class Model:
    """The test's core: connections per session, their jobs, what must come out."""

    def __init__(self, rng):
        self.rng = rng
        self.jobs = deque()                  # jobs to complete, in writer order
        self.core = deque()                  # the core's notifications to present
        self.expect = {s: deque() for s in range(SESSIONS)}   # per session, in order
        self.hist = {s: [] for s in range(SESSIONS)}          # RX_DONE values of the current connection
        self.drop_at = {s: None for s in range(SESSIONS)}     # cycle the drop bit was set
        self.in_flight = {s: 0 for s in range(SESSIONS)}      # jobs not yet taken
        self.ended = {s: True for s in range(SESSIONS)}
        self.ids = 0

    def job(self, sid, tag, offset, length, reassembled=0):
        self.ids += 1
        self.in_flight[sid] += 1
        return {"id": self.ids, "sid": sid, "tag": tag, "offset": offset & 0xFFFFFFFF,
                "length": length, "reassembled": reassembled}

    def connection(self, sid, plain=None):
        """A new connection: its init value, its NEW, and its jobs (returned, in order).
        plain=k: exactly k in-stream data jobs and a final marker."""
        rng = self.rng
        init = rng.getrandbits(32)
        self.hist[sid] = []                  # until the init is given
        self.drop_at[sid] = None
        self.ended[sid] = False
        tup = (rng.getrandbits(32), rng.randrange(1, 65536), rng.randrange(1, 65536))
        self.core.append(pack_notif(sid, NEW, 0, *tup))
        self.expect[sid].append({"kind": NEW, "length": 0, "tup": tup})
        jobs, nxt = [], init
        for _ in range(plain or rng.randrange(1, 12)):
            if plain is None and rng.random() < 0.2:      # stored ahead of RCV.NXT: tells nobody
                jobs.append(self.job(sid, TAG_NONE, nxt + rng.randrange(1, 3000), rng.randrange(1, 1500)))
                continue
            n = rng.randrange(1, 1500)
            r = 0 if plain or rng.random() < 0.75 else rng.randrange(1, 3000)
            if r and rng.random() < 0.3:
                n = 0   # no bytes of its own: data a SYN carried joins the stream (reassembled only)
            jobs.append(self.job(sid, DATA, nxt, n, r))
            self.expect[sid].append({"kind": DATA, "length": n + r, "id": jobs[-1]["id"]})
            nxt += n + r
        if plain is None and rng.random() < 0.6:
            jobs.append(self.job(sid, PEER_FIN, nxt, 0, rng.choice([0, rng.randrange(1, 3000)])))
            self.expect[sid].append({"kind": PEER_FIN, "length": 0})
        final = rng.choice([CLOSED, RESET])
        jobs.append(self.job(sid, final, nxt, 0))
        self.expect[sid].append({"kind": final, "length": 0})
        return init, jobs


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def completions_to_notifications(dut):
    tb = TB(dut)
    rng = random.Random(11)
    m = Model(rng)
    for name in ("s_done_valid", "s_core_notif_valid", "m_notif_ready", "init_valid", "drop_wr_valid"):
        getattr(dut, name).value = 0
    dut.rd_session.value = 0
    await tb.reset()
    for s in range(SESSIONS):                 # the core clears every session's drop bit
        await FallingEdge(tb.clk)
        dut.drop_wr_valid.value = 1
        dut.drop_wr_session.value = s
        dut.drop_wr_value.value = 0
    await FallingEdge(tb.clk)
    dut.drop_wr_valid.value = 0

    # First a burst: 16 connections, their 64 data completions round robin, the output
    # always ready; then random connections, idle cycles, back-pressure and drops.
    inits = deque()
    burst = []
    for s in range(SESSIONS):
        init, jobs = m.connection(s, plain=4)
        inits.append((s, init))
        burst.append(jobs)
    burst_jobs = [j for i in range(5) for jobs in burst for j in jobs[i:i + 1]]
    burst_first = burst_last = None

    cycle = 0
    conns = SESSIONS
    rd_prev = None                            # (session, allowed values) of last cycle's read
    init_prev = None
    reads_checked = fresh_reads = drops = suppressed = held_checked = 0
    out_waiting = None
    cur_job = cur_core = None
    later = deque()                           # a new connection's jobs, with the cycle they may come
    while conns < 150 or inits or burst_jobs or later or m.jobs or m.core or cur_job or cur_core \
            or any(m.expect[s] for s in range(SESSIONS)):
        await FallingEdge(tb.clk)
        in_burst = not inits and not m.core and cur_core is None and bool(burst_jobs)
        while later and later[0][0] <= cycle:
            m.jobs.extend(later.popleft()[1])
        if in_burst:
            m.jobs.extend(burst_jobs)
            burst_jobs = []
        # the core: an init (never in two cycles in a row: a core event takes two)
        init_now = None
        if init_prev is None:
            if inits:
                init_now = inits.popleft()
            elif conns < 150 and not burst_jobs and rng.random() < 0.05:
                idle = [s for s in range(SESSIONS) if m.ended[s] and not m.in_flight[s] and not m.expect[s]]
                if idle:
                    sid = rng.choice(idle)
                    init, jobs = m.connection(sid)
                    later.append((cycle + 2, jobs))   # through the writer: not before 2 cycles
                    init_now = (sid, init)
                    conns += 1
        dut.init_valid.value = int(init_now is not None)
        if init_now:
            m.hist[init_now[0]] = [init_now[1]]
            dut.init_session.value, dut.init_rx_done.value = init_now
        # the core writes the drop bit with every record: clear for a new connection, and set
        # now and then (an abort; data taken from the next cycle on is not told)
        drop_now = None
        if init_now is None and not burst_jobs and rng.random() < 0.01:
            live = [s for s in range(SESSIONS) if not m.ended[s] and m.drop_at[s] is None and m.in_flight[s]]
            if live:
                drop_now = rng.choice(live)
                m.drop_at[drop_now] = cycle
                drops += 1
        dut.drop_wr_valid.value = int(drop_now is not None or init_now is not None)
        if drop_now is not None:
            dut.drop_wr_session.value, dut.drop_wr_value.value = drop_now, 1
        if init_now is not None:
            dut.drop_wr_session.value, dut.drop_wr_value.value = init_now[0], 0

        fast = burst_last is None and burst_first is not None or in_burst
        if cur_job is None and m.jobs and (fast or rng.random() < 0.7):
            cur_job = m.jobs.popleft()
        dut.s_done_valid.value = int(cur_job is not None)
        if cur_job:
            dut.s_done.value = pack_job(cur_job["sid"], tag=cur_job["tag"], base=0x10000, offset=cur_job["offset"],
                                        length=cur_job["length"], reassembled=cur_job["reassembled"])
        if cur_core is None and m.core:
            cur_core = m.core.popleft()
        dut.s_core_notif_valid.value = int(cur_core is not None)
        if cur_core:
            dut.s_core_notif.value = cur_core
        dut.m_notif_ready.value = int(fast or rng.random() < 0.7)
        # the core reads RX_DONE; the cycle after an init, the session it made
        rd = init_prev[0] if init_prev is not None else rng.randrange(SESSIONS)
        dut.rd_session.value = rd

        await ReadOnly()
        if rd_prev is not None:
            s, allowed = rd_prev
            v = int(dut.rd_rx_done.value)
            assert v in allowed, f"session {s}: RX_DONE {v:#x} is not of its connection ({len(allowed)} values)"
            reads_checked += 1
        # what the read asked for now may give: a value of the current connection written by
        # now (the init of this cycle is seen from the next cycle on)
        rd_prev = None if (init_now and init_now[0] == rd) or not m.hist[rd] else (rd, list(m.hist[rd]))
        fresh_reads += init_prev is not None
        init_prev = init_now
        if cur_job and dut.s_done_ready.value:
            sid = cur_job["sid"]
            if burst_first is None and fast:
                burst_first = cycle
            if cur_job["tag"] == DATA:
                m.hist[sid].append((cur_job["offset"] + cur_job["length"] + cur_job["reassembled"]) & 0xFFFFFFFF)
                if m.drop_at[sid] is not None and m.drop_at[sid] < cycle:
                    m.expect[sid] = deque(e for e in m.expect[sid] if e.get("id") != cur_job["id"])
                    suppressed += 1
            if cur_job["tag"] in (CLOSED, RESET):
                m.ended[sid] = True
            m.in_flight[sid] -= 1
            if burst_first is not None and burst_last is None and not m.jobs:
                burst_last = cycle
            cur_job = None
        if cur_core and dut.s_core_notif_ready.value:
            cur_core = None
        # a notification given is held, unchanged, until it is taken
        if out_waiting is not None:
            assert dut.m_notif_valid.value and int(dut.m_notif.value) == out_waiting, \
                "a notification given changed before it was taken"
            held_checked += 1
        out_waiting = int(dut.m_notif.value) if dut.m_notif_valid.value and not dut.m_notif_ready.value else None
        if dut.m_notif_valid.value and dut.m_notif_ready.value:
            sid, kind, length, tup = unpack_notif(int(dut.m_notif.value))
            assert m.expect[sid], f"session {sid}: unexpected notification {kind}/{length}"
            e = m.expect[sid].popleft()
            assert (kind, length) == (e["kind"], e["length"]), f"session {sid}: got {kind}/{length}, want {e}"
            assert tup == e.get("tup", (0, 0, 0)), f"session {sid}: tuple {tup}"
        await RisingEdge(tb.clk)
        cycle += 1
        assert cycle < 400_000, "did not drain"

    # idle: RX_DONE read now is each session's latest
    for s in range(SESSIONS):
        await FallingEdge(tb.clk)
        dut.rd_session.value = s
        await RisingEdge(tb.clk)
        await ReadOnly()
        assert int(dut.rd_rx_done.value) == m.hist[s][-1], f"session {s}: RX_DONE not the latest"
    assert reads_checked > 1000 and fresh_reads > 100, (reads_checked, fresh_reads)
    assert held_checked > 200, held_checked
    assert drops and suppressed, (drops, suppressed)
    took = burst_last - burst_first + 1
    assert took <= 80 + 2, f"80 completions took {took} cycles"
    dut._log.info("%d connections, %d reads checked (%d the cycle after an init), %d drops suppressing "
                  "%d DATA, 80 completions in %d cycles", conns, reads_checked, fresh_reads, drops,
                  suppressed, took)


@pytest.mark.parametrize("sessions", [SESSIONS])
def test_toe_tcp_rx_deliver(sessions):
    runner.run("toe_tcp_rx_deliver", "test_toe_tcp_rx_deliver", {"MAX_SESSIONS": sessions},
               Path(__file__).parent)
