"""toe_tcp_isn_prefetch, from its contract (not the code), against a model of the ISN unit
that answers every hash 17 cycles after it was asked for with a number of its own (the
request's index), so that every ISN handed out names the hash it came from:
- every claim gets exactly one ISN, in the claims' order, from a hash of its own tuple;
  no hash serves two claims; the hash answered at most FRESH_CYCLES before the claim was
  taken (an ISN is M + F, and M is the clock of the hash's start);
- a SYN hinted a hash's time before its claim has its ISN in the cycle after the claim,
  without another hash; hinted a few cycles before, with the hint's hash, as it answers;
- hints never displace a fresh unclaimed answer, never start while a claim is held or
  waiting at the lookup (a SYN flood costs no hash more than its claims), and never while
  the unit is busy (the model's core occupies it at random);
- an answer older than FRESH_CYCLES is not handed out: the claim has a new hash;
- hostile input: a flood of hints of SYNs that never reach the lookup (bad checksums),
  claims without hints, the same tuple claimed twice (a retransmitted SYN), at random
  claim stalls."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB

HASH_CYCLES = 17          # toe_tcp_isn at 322 MHz: the answer 17 cycles after the request
ISN_BASE = 0x5EED0000     # the model's answer to request i: ISN_BASE + i


def pack(t):
    lport, rip, rport = t
    return (lport << 48) | (rip << 16) | rport


class Bench:
    def __init__(self, dut, rng):
        self.dut, self.rng = dut, rng
        self.fresh = int(dut.FRESH_CYCLES.value)
        self.cycle = 0
        self.requests = []        # [cycle, tuple] of every hash asked of the unit
        self.busy_until = -1      # the unit answers at this cycle (-1: idle)
        self.core_busy_p = 0.0    # chance per idle cycle that the core's open takes the unit
        self.core_hash = False    # the hash in progress is the core's
        self.hints = {}           # cycle -> tuple
        self.claims = deque()     # tuples waiting at the lookup's input
        self.claim_stall = 0.0
        self.claimed = []         # [cycle, tuple] of every claim taken
        self.isns = []            # [cycle, value] of every ISN out
        self.flood_hints = set()  # tuples hinted during a flood (never claimed)
        self.flood = False
        self.arriving = []        # (cycle, tuple): a SYN reaches the lookup then
        dut.s_hint_valid.value = 0
        dut.s_claim_soon.value = 0
        dut.s_claim_valid.value = 0
        dut.isn_req_ready.value = 0
        dut.isn_rsp_valid.value = 0

    def tuple_(self):
        r = self.rng
        return (r.getrandbits(16), r.getrandbits(32), r.getrandbits(16))

    async def step(self):
        dut, rng = self.dut, self.rng
        await FallingEdge(dut.clk)
        self.cycle += 1
        c = self.cycle
        # the unit: busy until its answer; the core's opens take it now and then
        answering = self.busy_until == c
        if self.busy_until < c and not answering and rng.random() < self.core_busy_p:
            self.busy_until, self.core_hash = c + HASH_CYCLES, True
        idle = self.busy_until <= c
        dut.isn_req_ready.value = int(idle)
        dut.isn_rsp_valid.value = int(answering and not self.core_hash)
        dut.isn_rsp.value = ISN_BASE + len(self.requests) - 1 if answering else 0
        hint = self.hints.pop(c, None)
        if self.flood and hint is None:
            hint = self.tuple_()
            self.flood_hints.add(hint)
        dut.s_hint_valid.value = int(hint is not None)
        dut.s_hint.value = pack(hint) if hint else 0
        # the lookup: its SYN claims when the slot is free (s_claim_ready is a register)
        dut.s_claim_soon.value = int(bool(self.claims))
        go = bool(self.claims) and rng.random() >= self.claim_stall and int(dut.s_claim_ready.value)
        dut.s_claim_valid.value = int(go)
        dut.s_claim.value = pack(self.claims[0]) if go else 0
        await ReadOnly()
        if int(dut.isn_req_valid.value):
            assert idle, f"cycle {c}: a hash asked for while the unit is busy"
            t = int(dut.isn_req.value)
            tup = (t >> 48, (t >> 16) & 0xFFFFFFFF, t & 0xFFFF)
            if self.flood and self.claims:
                assert tup not in self.flood_hints, f"cycle {c}: a hint's hash started while a claim waits"
            self.requests.append([c, tup])
            self.busy_until, self.core_hash = c + HASH_CYCLES, False
        if int(dut.s_claim_valid.value):
            self.claimed.append([c, self.claims.popleft()])
        if int(dut.m_isn_valid.value):
            self.isns.append([c, int(dut.m_isn.value)])
        # SYNs reaching the lookup
        for due, t in list(self.arriving):
            if due <= c:
                self.claims.append(t)
                self.arriving.remove((due, t))

    async def run(self, cycles):
        for _ in range(cycles):
            await self.step()

    def check(self):
        assert len(self.isns) == len(self.claimed), (len(self.isns), len(self.claimed))
        used = set()
        for (cc, tup), (ic, value) in zip(self.claimed, self.isns):
            i = value - ISN_BASE
            assert 0 <= i < len(self.requests), f"ISN {value:#x} from no hash"
            assert i not in used, f"hash {i} handed to two claims"
            used.add(i)
            rc, rtup = self.requests[i]
            assert rtup == tup, f"claim at {cc} got the hash of another tuple"
            assert ic > cc, f"claim at {cc}: ISN at {ic}"
            assert rc + HASH_CYCLES >= cc - self.fresh, f"claim at {cc}: a stale answer (hash at {rc})"


async def start(dut, seed):
    tb = TB(dut)
    dut.rst.value = 1
    b = Bench(dut, random.Random(seed))
    await tb.reset()
    return b


@cocotb.test()
async def hinted_syn_claims_at_once(dut):
    b = await start(dut, 1)
    t = b.tuple_()
    b.hints[b.cycle + 3] = t
    await b.run(3 + HASH_CYCLES + 5)
    b.claims.append(t)
    await b.run(10)
    b.check()
    assert len(b.requests) == 1, "the hinted SYN was hashed again"
    (cc, _), (ic, _) = b.claimed[0], b.isns[0]
    assert ic == cc + 1, f"ISN {ic - cc} cycles after the claim"
    # hinted just before its claim: served by the hint's hash, as it answers
    t = b.tuple_()
    b.hints[b.cycle + 1] = t
    await b.run(4)
    b.claims.append(t)
    await b.run(HASH_CYCLES + 5)
    b.check()
    assert len(b.requests) == 2, "a claim did not take its hint's hash"
    assert b.isns[1][0] == b.requests[1][0] + HASH_CYCLES, "the ISN did not go out with its answer"


@cocotb.test()
async def stale_answer_is_not_handed_out(dut):
    b = await start(dut, 2)
    t = b.tuple_()
    b.hints[b.cycle + 2] = t
    await b.run(2 + HASH_CYCLES + b.fresh + 10)
    b.claims.append(t)
    await b.run(2 * HASH_CYCLES + 5)
    b.check()
    assert len(b.requests) == 2 and b.requests[1][0] >= b.claimed[0][0], "a stale answer was used"
    # a fresh unclaimed answer is not displaced by another SYN's hint
    t1, t2 = b.tuple_(), b.tuple_()
    b.hints[b.cycle + 2] = t1
    b.hints[b.cycle + 2 + HASH_CYCLES + 3] = t2
    await b.run(2 * HASH_CYCLES + 10)
    assert [r[1] for r in b.requests[2:]] == [t1], "a hint displaced a fresh answer"
    b.claims.append(t1)
    await b.run(5)
    b.check()
    assert b.isns[-1][0] == b.claimed[-1][0] + 1


@cocotb.test()
async def syn_flood_and_random_traffic(dut):
    b = await start(dut, 3)
    # a flood of hints that never reach the lookup while claims without hints queue up:
    # every hash is a claim's, so the flood costs nothing
    b.flood = True
    for _ in range(20):
        b.claims.append(b.tuple_())
    await b.run(20 * (HASH_CYCLES + 2))
    b.check()
    assert len(b.claimed) == 20
    b.flood = False
    # random traffic: SYNs hinted (some dropped before the lookup) and claimed some cycles
    # later, retransmitted SYNs, unhinted claims, the core's opens, claim stalls
    b.core_busy_p, b.claim_stall = 0.005, 0.3
    rng = b.rng
    seen = []
    for _ in range(4000):          # a SYN every 50 cycles on average: the unit is not saturated
        if rng.random() < 1 / 50:
            t = rng.choice(seen) if seen and rng.random() < 0.1 else b.tuple_()
            seen.append(t)
            lead = rng.randrange(40)
            if rng.random() < 0.8:
                b.hints[b.cycle + 1] = t
            if rng.random() < 0.85:         # else dropped between the parser and the lookup
                b.arriving.append((b.cycle + 1 + lead, t))
        await b.run(1)
    b.core_busy_p = 0.0
    b.claim_stall = 0.0
    await b.run(50)
    await b.run(len(b.claims) * (HASH_CYCLES + 2) + 60)
    assert not b.claims
    b.check()
    # the mechanism at work: a good part of the claims found their hint's hash (the others'
    # hints came while the unit was busy, too late, or not at all)
    random_phase = list(zip(b.claimed, b.isns))[20:]
    hinted = sum(1 for (cc, _), (_, v) in random_phase if b.requests[v - ISN_BASE][0] < cc)
    assert hinted > len(random_phase) // 4, f"only {hinted} of {len(random_phase)} claims found their hint's hash"


@pytest.mark.parametrize("fresh", [64])
def test_toe_tcp_isn_prefetch(fresh):
    runner.run("toe_tcp_isn_prefetch", "test_toe_tcp_isn_prefetch", {"FRESH_CYCLES": fresh},
               Path(__file__).parent)
