"""toe_tcp_seg_lookup, from its contract (not the code), between a model of the session
table (pipelined, answers 4 cycles after it takes a request, in order; a request that may
allocate is taken only into an empty pipeline, as the table's contract says), a model of
the ISN prefetch (one claim at a time, answered a random time later, in order) and a model
of the protocol core (takes segments under random back-pressure, takes one ISN for every
isn_asked segment, counts a new session as half-open from its take on: half_open_new while
its event runs, then in its gauge, and finishes half-open sessions at random):
- every segment comes out once, in arrival order, unchanged, with the answer the table gave
  to its own lookup; the lookup asks for the segment's tuple, with alloc only for a SYN
  without ACK or RST (and without FIN when cfg_drop_synfin);
- a SYN that may open is either given alloc (isn_asked) or refused (capped), never both;
- the SYN flood cap is never passed: at every allocating lookup the half-open sessions and
  the allocations in flight are below the cap; and it is exact: a burst of SYNs into a
  stalled core gets exactly the room left, and once the core finishes half-open sessions
  the next SYN is allowed again;
- every isn_asked segment's ISN is the one claimed for its own tuple, in order;
- hostile input: floods of SYNs far past the cap, SYN+FIN, SYN+RST, SYN+ACK, data to unknown
  tuples, at random back-pressure from the table, the prefetch and the core: no hang, no
  segment lost, nothing past the cap."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB
from tcp_structs import ISN_REQ, SEG, SEG_LK, TAB_REQ, TAB_RSP

FIN, SYN, RST, ACK = 0x01, 0x02, 0x04, 0x10
LISTENED = (80, 5001)
TABLE_LATENCY = 4
ISN_BASE = 0x15A00000     # the prefetch model's answer to claim i: ISN_BASE + i


class Bench:
    def __init__(self, dut, rng):
        self.dut, self.rng = dut, rng
        self.max_sessions = int(dut.MAX_SESSIONS.value)
        self.cycle = 0
        self.cap = 6
        self.caps = deque([0, 0, 0], maxlen=3)   # the cap of this cycle and the two before
        self.drop_synfin = 1
        # the input
        self.inbox = deque()          # segments (dicts) waiting to be offered
        self.sent = []                # segments taken by the lookup, in order
        self.in_stall = 0.0
        # the table model
        self.sessions = {}            # tuple -> session id
        self.next_sid = 1
        self.table_stall = 0.0
        self.table_full = 0.0         # chance that an allocation finds no free way
        self.pipe = deque()           # [answer cycle, request, is_writer]
        self.answers = []             # the table's answers, in request order
        self.requests = []            # TAB_REQ fields, in order
        # the prefetch model
        self.claims = []              # tuples claimed, in order
        self.claim_busy = False
        self.isn_due = deque()        # [cycle, value]
        # the core model
        self.core_stall = 0.0
        self.gauge = 0                # half-open sessions (the core's gauge)
        self.making = 0               # cycles left of a new session's event (half_open_new)
        self.finish_p = 0.0           # chance per cycle that a half-open session finishes
        self.out = []                 # segments taken from the lookup (SEG_LK dicts)
        self.isns = []                # ISNs taken, in order
        self.isn_owed = 0             # isn_asked segments taken whose ISN is not yet taken
        self.allocs_in_flight = 0     # alloc lookups not yet refused by the table or taken new
        for name in ("s_seg_valid", "tab_req_ready", "tab_rsp_valid", "m_seg_ready", "isn_claim_ready",
                     "isn_rsp_valid", "m_isn_ready", "half_open", "half_open_new"):
            getattr(dut, name).value = 0

    # ---- traffic ----
    def tuple_(self, known=0.5, ports=LISTENED + (7,)):
        r = self.rng
        if self.sessions and r.random() < known:
            return r.choice(list(self.sessions))
        return (r.choice(ports), r.getrandbits(32), r.getrandbits(16))

    def segment(self, tup, flags, length=0):
        lport, rip, rport = tup
        r = self.rng
        return dict(remote_ip=rip, remote_port=rport, local_port=lport, seq=r.getrandbits(32),
                    ack=r.getrandbits(32), flags=flags, window=r.getrandbits(16),
                    mss=1460 if flags & SYN else 0, length=length)

    def syn(self, tup=None):
        self.inbox.append(self.segment(tup or self.tuple_(known=0, ports=LISTENED), SYN))

    def random_segment(self):
        r = self.rng
        flags = r.choice([SYN, SYN, SYN | ACK, SYN | FIN, SYN | RST, ACK, ACK, ACK | FIN, RST, 0])
        self.inbox.append(self.segment(self.tuple_(), flags, r.choice([0, 0, 1, 1460])))

    def may_open(self, g):
        f = g["flags"]
        return bool(f & SYN) and not f & (ACK | RST) and not (f & FIN and self.drop_synfin)

    # ---- one cycle ----
    async def step(self):
        dut, rng = self.dut, self.rng
        await FallingEdge(dut.clk)
        self.cycle += 1
        c = self.cycle
        dut.cfg_half_open_max.value = self.cap
        self.caps.append(self.cap)
        dut.cfg_drop_synfin.value = self.drop_synfin
        # core: gauge and half_open_new are registers of the core, set before the edge
        dut.half_open.value = self.gauge
        dut.half_open_new.value = int(self.making > 0)
        # input
        offer = bool(self.inbox) and rng.random() >= self.in_stall
        dut.s_seg_valid.value = int(offer)
        if offer:
            SEG.drive(dut.s_seg, **self.inbox[0])
        # table: answers due now; takes a request unless stalled, a writer is in its pipeline,
        # or (for a request that may allocate) any request is in it
        answer = self.pipe[0] if self.pipe and self.pipe[0][0] == c else None
        dut.tab_rsp_valid.value = int(answer is not None)
        if answer:
            TAB_RSP.drive(dut.tab_rsp, **answer[1])
        busy = [p for p in self.pipe if p[0] > c]     # (the answering one has left)
        writer_inside = any(writer for _, _, writer in busy)
        may_alloc = offer and self.may_open(self.inbox[0])
        table_ready = (rng.random() >= self.table_stall and not writer_inside and not (may_alloc and busy))
        dut.tab_req_ready.value = int(table_ready)
        # prefetch: one claim at a time; its answers in order
        dut.isn_claim_ready.value = int(not self.claim_busy)
        isn = self.isn_due[0] if self.isn_due and self.isn_due[0][0] <= c else None
        dut.isn_rsp_valid.value = int(isn is not None)
        dut.isn_rsp.value = isn[1] if isn else 0
        if isn:
            self.isn_due.popleft()
            self.claim_busy = False
        # core
        core_ready = self.making == 0 and rng.random() >= self.core_stall
        dut.m_seg_ready.value = int(core_ready)
        # the core takes an ISN owed by an isn_asked segment it took, when one is there (a
        # register of the lookup's: settled since the edge)
        take_isn = self.isn_owed > 0 and int(dut.m_isn_valid.value) == 1
        dut.m_isn_ready.value = int(take_isn)
        await ReadOnly()
        if answer:
            self.pipe.popleft()
        if take_isn:
            self.isns.append(int(dut.m_isn.value))
            self.isn_owed -= 1
        if int(dut.tab_req_valid.value) and table_ready:
            req = TAB_REQ.read(dut.tab_req)
            g = self.inbox.popleft()
            assert int(dut.s_seg_ready.value), f"cycle {c}: table took a request the input did not give"
            self.sent.append(dict(g, may_open=self.may_open(g)))
            self.requests.append(req)
            tup = (g["local_port"], g["remote_ip"], g["remote_port"])
            assert (req["op"], req["local_port"], req["remote_ip"], req["remote_port"]) == (0,) + tup, \
                f"cycle {c}: the lookup asks for another tuple than its segment's: {req}"
            if req["alloc"]:
                assert self.may_open(g), f"cycle {c}: alloc asked for flags {g['flags']:#x}"
                # (a new cap takes effect two cycles after it is set: the lookup registers it)
                held = self.gauge + int(self.making > 0) + self.allocs_in_flight
                assert held < max(self.caps), f"cycle {c}: an allocation past the cap ({held} held, cap {self.caps})"
                self.allocs_in_flight += 1
                assert int(dut.isn_claim_valid.value), f"cycle {c}: an allocating SYN without its ISN claim"
                self.claims.append(tuple(ISN_REQ.read(dut.isn_claim)[k] for k in ("local_port", "remote_ip", "remote_port")))
                self.claim_busy = True
                self.isn_due.append([c + rng.randrange(1, 20), ISN_BASE + len(self.claims) - 1])
            else:
                assert not int(dut.isn_claim_valid.value), f"cycle {c}: an ISN claim without allocation"
            rsp = self.table_answer(tup, req["alloc"])
            self.answers.append(rsp)
            self.pipe.append([c + TABLE_LATENCY, rsp, bool(req["alloc"])])
        elif int(dut.isn_claim_valid.value):
            raise AssertionError(f"cycle {c}: an ISN claim without a lookup taken")
        if int(dut.m_seg_valid.value) and core_ready:
            lk = SEG_LK.read(dut.m_seg)
            self.out.append(lk)
            if lk["isn_asked"]:
                self.isn_owed += 1
            if lk["is_new"]:
                self.allocs_in_flight -= 1
                self.making = rng.randrange(1, 6)
        if answer and answer[2] and not answer[1]["is_new"]:
            self.allocs_in_flight -= 1      # refused by the table (full)
        # the core's half-open sessions: a new one enters the gauge when its event ends
        if self.making:
            self.making -= 1
            if self.making == 0:
                self.gauge += 1
        if self.gauge and rng.random() < self.finish_p:
            self.gauge -= 1

    def table_answer(self, tup, alloc):
        listening = tup[0] in LISTENED
        sid = self.sessions.get(tup)
        if sid is not None:
            return dict(found=1, is_new=0, session=sid, listening=int(listening))
        if alloc and listening and self.rng.random() >= self.table_full:
            sid = self.next_sid % self.max_sessions
            self.next_sid += 1
            self.sessions[tup] = sid
            return dict(found=1, is_new=1, session=sid, listening=1)
        return dict(found=0, is_new=0, session=0, listening=int(listening), full=int(alloc and listening))

    async def run(self, cycles):
        for _ in range(cycles):
            await self.step()

    async def drain(self, limit=20000):
        self.in_stall = self.table_stall = self.core_stall = 0.0
        for _ in range(limit):
            if not self.inbox and len(self.out) == len(self.sent) and not self.isn_owed and not self.pipe:
                return
            await self.step()
        raise AssertionError(f"not drained: {len(self.inbox)} waiting, {len(self.sent) - len(self.out)} "
                             f"inside, {self.isn_owed} ISNs owed")

    def check(self):
        assert len(self.out) == len(self.sent)
        for i, (g, lk, rsp, req) in enumerate(zip(self.sent, self.out, self.answers, self.requests)):
            g = dict(g)
            may_open = g.pop("may_open")
            assert SEG.unpack(lk["seg"]) == g, f"segment {i} changed or out of order"
            for k in ("session", "found", "is_new", "listening"):
                assert lk[k] == rsp[k], f"segment {i}: {k} {lk[k]}, the table said {rsp[k]}"
            assert lk["isn_asked"] == req["alloc"], f"segment {i}: isn_asked {lk['isn_asked']}, alloc {req['alloc']}"
            assert lk["capped"] == int(may_open and not req["alloc"]), \
                f"segment {i}: capped {lk['capped']} for flags {g['flags']:#x}, alloc {req['alloc']}"
        # ISNs: one per isn_asked segment, the one claimed for its tuple
        asked = [(SEG.unpack(lk["seg"])) for lk in self.out if lk["isn_asked"]]
        assert len(self.isns) == len(asked) == len(self.claims)
        for g, isn in zip(asked, self.isns):
            i = isn - ISN_BASE
            assert 0 <= i < len(self.claims) and self.claims[i] == (g["local_port"], g["remote_ip"], g["remote_port"]), \
                f"a segment of {g['remote_ip']:#x}:{g['remote_port']} got the ISN of claim {i}"


async def start(dut, seed):
    tb = TB(dut)
    b = Bench(dut, random.Random(seed))
    await tb.reset()
    return b


@cocotb.test()
async def burst_gets_exactly_the_room_left(dut):
    """A stalled core with 2 half-open sessions and a cap of 6: of 8 SYNs (as many as the
    lookup holds for the core), exactly 4 get a session; once the core finishes two half-open sessions, the next 2 SYNs get one too and
    the third is refused."""
    b = await start(dut, 1)
    b.gauge = 2
    b.core_stall = 1.0
    for _ in range(8):
        b.syn()
    await b.run(120)
    opened = sum(r["alloc"] for r in b.requests)
    assert opened == 4, f"{opened} of 8 SYNs allocated with room for 4"
    assert len(b.sent) == 8
    b.core_stall = 0.0
    await b.drain()
    assert b.gauge == 6
    b.gauge = 4
    await b.run(2)                  # (the room is reckoned from registers: two cycles)
    for _ in range(3):
        b.syn()
    await b.drain()
    assert [r["alloc"] for r in b.requests[8:]] == [1, 1, 0]
    b.check()


@cocotb.test()
async def hostile_flags_never_allocate(dut):
    """SYN+ACK, SYN+RST, SYN+FIN (dropped by cfg_drop_synfin) and plain segments to listened
    ports ask no session and claim no ISN; with cfg_drop_synfin off a SYN+FIN may open."""
    b = await start(dut, 2)
    b.cap = 50
    for flags in (SYN | ACK, SYN | RST, SYN | FIN, ACK, RST, 0, FIN):
        b.inbox.append(b.segment((80, 0xC0000201, 1000 + flags), flags))
    await b.drain()
    assert not any(r["alloc"] for r in b.requests) and not b.claims
    b.drop_synfin = 0
    b.inbox.append(b.segment((80, 0xC0000202, 2000), SYN | FIN))
    await b.drain()
    assert b.requests[-1]["alloc"] == 1
    b.check()


@cocotb.test()
async def random_traffic_at_back_pressure(dut):
    """Random segments (a third SYNs, mostly to tuples seen before) and SYN floods far past
    the cap, with the table, the prefetch and the core stalling at random and the table
    refusing some allocations as full."""
    b = await start(dut, 3)
    rng = b.rng
    b.in_stall, b.table_stall, b.core_stall = 0.2, 0.3, 0.3
    b.table_full, b.finish_p = 0.1, 0.05
    for phase in range(6):
        b.cap = rng.choice([1, 3, 6, 16])
        flood = phase % 2 == 1
        for _ in range(600):
            if len(b.inbox) < 4:
                if flood:
                    b.syn()
                else:
                    b.random_segment()
            if rng.random() < 0.01 and b.sessions:
                del b.sessions[rng.choice(list(b.sessions))]      # a session closed
            await b.step()
        assert len(b.out) > 0
    await b.drain()
    b.check()
    capped = sum(lk["capped"] for lk in b.out)
    opened = sum(lk["is_new"] for lk in b.out)
    assert capped > 50 and opened > 20, f"the floods did not reach the cap ({opened} opened, {capped} capped)"


@pytest.mark.parametrize("max_sessions", [64])
def test_toe_tcp_seg_lookup(max_sessions):
    runner.run("toe_tcp_seg_lookup", "test_toe_tcp_seg_lookup", {"MAX_SESSIONS": max_sessions},
               Path(__file__).parent)
