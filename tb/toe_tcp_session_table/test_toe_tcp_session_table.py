"""toe_tcp_session_table against its contract: a table that does not refuse (0 refused
allocations up to 90 % of MAX_SESSIONS, for the adversarial-looking case of one peer
address with consecutive ports, for random tuples, and for active opens), lookups that find
exactly what was inserted, releases that free exactly what they name, a full table that
refuses and counts, and hostile requests (a release with the wrong id, a lookup without
allocation, a SYN to a port nobody listens on) that change nothing."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB
from tcp_structs import TAB_REQ, TAB_RSP

LOOKUP, OPEN, RELEASE = 0, 1, 2
LISTEN_PORT = 5001


class Table:
    def __init__(self, dut):
        self.dut = dut
        self.tb = TB(dut)
        self.max_sessions = int(dut.MAX_SESSIONS.value)
        self.alloc_fails = 0
        cocotb.start_soon(self._count_fails())

    async def _count_fails(self):
        while True:
            await ReadOnly()
            self.alloc_fails += int(self.dut.stat_alloc_fails.value)
            await FallingEdge(self.dut.clk)

    async def start(self):
        d = self.dut
        d.req_valid.value = 0
        d.listen_req_valid.value = 0
        d.listen_rsp_ready.value = 1
        await self.tb.reset()
        await self.tb.push("listen_req", (LISTEN_PORT << 1) | 1)
        # the table takes requests once it has cleared itself and filled the id pool
        await self.wait_high(d.req_ready, 4 * self.max_sessions, "the table never became ready")
        await FallingEdge(d.clk)

    async def request(self, op, rip, rport, lport=LISTEN_PORT, alloc=0, session=0):
        """One request; returns the response as a dict (None for RELEASE)."""
        d = self.dut
        await FallingEdge(d.clk)
        TAB_REQ.drive(d.req, op=op, remote_ip=rip, remote_port=rport, local_port=lport, alloc=alloc,
                      session=session)
        d.req_tag.value = 0
        d.req_valid.value = 1
        await self.wait_high(d.req_ready, 100, "request not taken")
        await FallingEdge(d.clk)
        d.req_valid.value = 0
        if op == RELEASE:
            return None
        await self.wait_high(d.rsp_valid, 100, "no response")
        rsp = TAB_RSP.read(d.rsp)
        await FallingEdge(d.clk)
        return rsp

    async def wait_high(self, signal, limit, what):
        """Wait (in the ReadOnly phase of the cycle) until `signal` is 1."""
        for _ in range(limit):
            await ReadOnly()
            if int(signal.value):
                return
            await FallingEdge(self.dut.clk)
        raise AssertionError(what)

    async def syn(self, rip, rport, lport=LISTEN_PORT):
        return await self.request(LOOKUP, rip, rport, lport, alloc=1)

    async def in_use(self):
        await ReadOnly()
        n = int(self.dut.sessions_in_use.value)
        await FallingEdge(self.dut.clk)
        return n


async def fill(t, tuples):
    """Allocate a session for each (ip, port) tuple; returns {tuple: session} and refusals."""
    sessions, refused = {}, 0
    for rip, rport in tuples:
        r = await t.syn(rip, rport)
        if r["found"] and r["is_new"]:
            sessions[(rip, rport)] = r["session"]
        else:
            assert r["full"] and not r["found"], r
            refused += 1
    return sessions, refused


async def check_all_found(t, sessions):
    for (rip, rport), sid in sessions.items():
        r = await t.request(LOOKUP, rip, rport)
        assert r["found"] and not r["is_new"] and r["session"] == sid, ((rip, rport), sid, r)


@cocotb.test()
async def one_address_consecutive_ports_to_90_percent(dut):
    t = Table(dut)
    await t.start()
    n = t.max_sessions * 9 // 10
    tuples = [(0xC0000202, 20000 + i) for i in range(n)]
    sessions, refused = await fill(t, tuples)
    dut._log.info("one address, %d consecutive ports: %d refused", n, refused)
    assert refused == 0 and t.alloc_fails == 0, f"{refused} of {n} SYNs refused"
    assert len(set(sessions.values())) == n, "a session id was given twice"
    assert all(s < t.max_sessions for s in sessions.values())
    assert await t.in_use() == n
    await check_all_found(t, sessions)


@cocotb.test()
async def random_tuples_with_churn(dut):
    t = Table(dut)
    await t.start()
    rng = random.Random(9293)
    n = t.max_sessions * 9 // 10
    tuples = list({(rng.getrandbits(32), rng.getrandbits(16)) for _ in range(n)})
    sessions, refused = await fill(t, tuples)
    assert refused == 0, f"{refused} of {len(tuples)} refused"
    # churn: release a third, allocate as many new ones, several rounds
    for _ in range(3):
        gone = rng.sample(sorted(sessions), len(sessions) // 3)
        for key in gone:
            await t.request(RELEASE, *key, session=sessions.pop(key))
        for key in gone:
            r = await t.request(LOOKUP, *key)
            assert not r["found"] and not r["is_new"], (key, r)
        fresh = [(rng.getrandbits(32), rng.getrandbits(16)) for _ in range(len(gone))]
        fresh = [k for k in dict.fromkeys(fresh) if k not in sessions]
        more, refused = await fill(t, fresh)
        assert refused == 0, f"{refused} refused after churn"
        sessions.update(more)
        assert len(set(sessions.values())) == len(sessions)
    assert await t.in_use() == len(sessions)
    await check_all_found(t, sessions)


@cocotb.test()
async def active_opens_to_one_peer(dut):
    t = Table(dut)
    await t.start()
    n = t.max_sessions * 9 // 10
    ports = set()
    for _ in range(n):
        r = await t.request(OPEN, 0xC6336401, 443)
        assert r["found"] and r["is_new"], r
        assert 49152 <= r["local_port"] <= 65535 and r["local_port"] not in ports, r
        ports.add(r["local_port"])
    assert t.alloc_fails == 0
    # every opened tuple is found by the segments of its peer
    for p in sorted(ports)[:64]:
        r = await t.request(LOOKUP, 0xC6336401, 443, lport=p)
        assert r["found"] and not r["is_new"], r


@cocotb.test()
async def full_table_refuses_counts_and_recovers(dut):
    t = Table(dut)
    await t.start()
    rng = random.Random(1)
    # fill every id (above 90 % a refused tuple is allowed: another one takes its place)
    sessions, refused = {}, 0
    for _ in range(2 * t.max_sessions):
        if len(sessions) == t.max_sessions:
            break
        key = (rng.getrandbits(32), rng.getrandbits(16))
        if key not in sessions:
            more, r = await fill(t, [key])
            sessions.update(more)
            refused += r
    dut._log.info("filling all %d ids with random tuples: %d refused", t.max_sessions, refused)
    assert len(sessions) == t.max_sessions and await t.in_use() == t.max_sessions
    fails = t.alloc_fails
    r = await t.syn(0x0A000001, 1)
    assert not r["found"] and r["full"], r
    assert t.alloc_fails == fails + 1, "a refused allocation is counted"
    key = next(iter(sessions))
    await t.request(RELEASE, *key, session=sessions.pop(key))
    r = await t.syn(0x0A000001, 1)
    assert r["found"] and r["is_new"], r
    assert await t.in_use() == t.max_sessions


@cocotb.test()
async def hostile_requests_change_nothing(dut):
    t = Table(dut)
    await t.start()
    sessions, _ = await fill(t, [(0xC0000201, 1000 + i) for i in range(8)])
    key, sid = next(iter(sessions.items()))
    # a release naming the tuple with another session id frees nothing
    await t.request(RELEASE, *key, session=(sid + 1) % t.max_sessions)
    assert await t.in_use() == 8
    r = await t.request(LOOKUP, *key)
    assert r["found"] and r["session"] == sid
    # a release of a tuple that does not exist frees nothing
    await t.request(RELEASE, 0x01020304, 7, session=sid)
    assert await t.in_use() == 8
    # a segment without SYN for an unknown tuple allocates nothing
    r = await t.request(LOOKUP, 0xC0000299, 1)
    assert not r["found"] and not r["is_new"] and r["listening"], r
    # a SYN to a port nobody listens on allocates nothing
    r = await t.syn(0xC0000299, 1, lport=5002)
    assert not r["found"] and not r["is_new"] and not r["listening"], r
    # the same SYN twice: one session
    r = await t.syn(*key)
    assert r["found"] and not r["is_new"] and r["session"] == sid, r
    assert await t.in_use() == 8 and t.alloc_fails == 0


async def stream(t, reqs):
    """Offer `reqs` [(op, rip, rport, alloc, session, tag)] back to back (the next one in the
    cycle after each acceptance); returns the answers in arrival order and the cycles from
    the first acceptance to the last answer."""
    d = t.dut
    answers, cycles, taken = [], 0, 0
    await FallingEdge(d.clk)
    while taken < len(reqs) or len(answers) < sum(r[0] != RELEASE for r in reqs):
        if taken < len(reqs):
            op, rip, rport, alloc, session, tag = reqs[taken]
            TAB_REQ.drive(d.req, op=op, remote_ip=rip, remote_port=rport, local_port=LISTEN_PORT,
                          alloc=alloc, session=session)
            d.req_tag.value, d.req_valid.value = tag, 1
        else:
            d.req_valid.value = 0
        await ReadOnly()
        if taken < len(reqs) and int(d.req_ready.value):
            taken += 1
        if int(d.rsp_valid.value):
            rsp = TAB_RSP.read(d.rsp)
            answers.append({"found": rsp["found"], "is_new": rsp["is_new"], "session": rsp["session"],
                            "tag": int(d.rsp_tag.value)})
        if taken:
            cycles += 1
        assert cycles < 20 * len(reqs) + 100, "the table stopped answering"
        await FallingEdge(d.clk)
    d.req_valid.value = 0
    return answers, cycles


@cocotb.test()
async def back_to_back_lookups_one_per_cycle_in_order(dut):
    """Lookups are taken one per cycle and answered in order with their tags; SYNs and
    releases mixed into the stream see (and are seen by) every request around them."""
    t = Table(dut)
    await t.start()
    rng = random.Random(5)
    sessions, _ = await fill(t, [(0xC0000300 + i, 4000 + i) for i in range(t.max_sessions // 2)])
    keys = sorted(sessions)
    # 1. read-only lookups of present and absent tuples, back to back
    n = 200
    reqs, want = [], []
    for i in range(n):
        if rng.random() < 0.7:
            key = rng.choice(keys)
            want.append({"found": 1, "is_new": 0, "session": sessions[key], "tag": i & 1})
        else:
            key = (0x0A000000 + i, 9)
            want.append({"found": 0, "is_new": 0, "session": None, "tag": i & 1})
        reqs.append((LOOKUP, *key, 0, 0, i & 1))
    answers, cycles = await stream(t, reqs)
    for a, w in zip(answers, want):
        if w["session"] is None:
            a["session"] = None
    assert answers == want
    dut._log.info("%d lookups back to back: %d cycles from the first taken to the last answer", n, cycles)
    assert cycles <= n + 4, f"{n} lookups took {cycles} cycles: not one per cycle"
    # 2. a mixed stream: a release, a lookup of the released tuple right behind it, a SYN
    # for a new tuple and a lookup of it right behind that, a repeated SYN
    gone = keys[0]
    fresh = (0x0B000001, 7)
    reqs = [(LOOKUP, *gone, 0, 0, 0), (RELEASE, *gone, 0, sessions[gone], 1), (LOOKUP, *gone, 0, 0, 0),
            (LOOKUP, *fresh, 1, 0, 0), (LOOKUP, *fresh, 0, 0, 1), (LOOKUP, *fresh, 1, 0, 0),
            (LOOKUP, *keys[1], 0, 0, 1)]
    answers, _ = await stream(t, reqs)
    assert [(a["found"], a["is_new"]) for a in answers] == [(1, 0), (0, 0), (1, 1), (1, 0), (1, 0), (1, 0)], answers
    assert answers[0]["session"] == sessions[gone]
    assert answers[2]["session"] == answers[3]["session"] == answers[4]["session"], answers
    assert answers[5]["session"] == sessions[keys[1]]
    assert [a["tag"] for a in answers] == [0, 0, 0, 1, 0, 1]
    assert await t.in_use() == len(sessions), "one released, one made"


@pytest.mark.parametrize("max_sessions", [64, 1024])
def test_toe_tcp_session_table(max_sessions):
    runner.run("toe_tcp_session_table", "test_toe_tcp_session_table",
               {"MAX_SESSIONS": max_sessions}, Path(__file__).parent)
