"""toe_tcp_mem_arb, from its contract (not the code):
- every writer's bursts reach the AXI master whole and in the writer's order: AWID names
  the writer, the W beats follow their AWs in order, each burst's beats are its own writer's
  with WLAST on the last; each B goes back to the writer AWID named, and only to it;
- every reader's ARs reach the master in the reader's order with ARID naming it, and the R
  beats (interleaved across IDs by the memory) go back to the reader RID names, only while
  that reader is ready;
- writer 0 first (WR0_FIRST = K > 0): while another writer waits, writer 0 takes at most
  K grants before one of the others, so no writer waits for more than (N_WR - 1) * K of
  writer 0's bursts; with every writer always asking the grants are exactly K of writer
  0's bursts, then one other's, in turn. K = 0: one round robin for all;
- one writer's AW goes out while another's beats run: with every writer always asking
  and the memory always ready, a burst of one writer follows one of another on W with
  no idle cycle between them;
- s_awsoon moves a grant no AW holds: a writer that said it will ask (a few cycles
  ahead) while the others are idle has its AW taken in the first cycle it asks.
Random idle cycles at the clients, random back-pressure on AW, W, AR and at the readers,
random B and R delays, random s_awsoon leads; then an announced phase for s_awsoon and a
saturated phase for the grant pattern."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB

ADDR_W = 40


def beat_word(w_bits, writer, burst, beat):
    """The data of one W beat: its writer, burst number and beat, repeated across the bus."""
    tag = (writer << 40) | (burst << 16) | beat
    return sum(tag << (64 * k) for k in range(w_bits // 64))


def read_word(w_bits, addr, beat):
    tag = ((addr + beat) & ((1 << ADDR_W) - 1)) | (0x5A << 48)
    return sum(tag << (64 * k) for k in range(w_bits // 64))


def field(value, i, width):
    return value << (i * width)


class Bench:
    """One cycle model of the clients (writers, readers) and the AXI memory, driven at the
    falling edge and sampled in ReadOnly, with every check of the contract."""

    def __init__(self, dut, rng, n_wr, n_rd, k):
        self.dut, self.rng, self.n_wr, self.n_rd, self.k = dut, rng, n_wr, n_rd, k
        self.w_bits = len(dut.m_axi_wdata)
        # clients
        self.wr_todo = [deque() for _ in range(n_wr)]       # bursts to send: [addr, beats, number]
        self.wr_cur = [None] * n_wr                           # [addr, beats, number, aw_taken, beats_taken, lead]
        self.lead = 0              # most cycles a writer raises s_awsoon before its AW (random 0..lead)
        self.aw_from = [None] * n_wr                          # [cycle first valid, cycles with AWREADY] of a writer's AW
        self.aw_waits = []         # [writer, cycles its AW waited at the master with AWREADY high] of every AW
        self.wr_b = [deque() for _ in range(n_wr)]          # bursts awaiting their B (numbers)
        self.wr_count = [0] * n_wr
        self.wr_wait_from = [None] * n_wr                     # writer 0's AW count when AWVALID rose
        self.rd_todo = [deque() for _ in range(n_rd)]
        self.rd_cur = [None] * n_rd
        self.rd_expect = [deque() for _ in range(n_rd)]     # beats expected back, in order
        self.rd_count = [0] * n_rd
        # memory
        self.aw = deque()          # [id, addr, beats, beats seen]
        self.b_due = []            # [cycle, id, number]
        self.ar_by_id = {}         # per ARID: deque of [addr, beats, beats given, cycle due]
        self.cycle = 0
        self.grants = []           # AWID of every AW taken, in order
        self.w_bursts = []         # [writer, cycle of the first W beat, cycle of WLAST] of every burst
        self.wr0_grants = 0
        self.max_waited = [0] * n_wr
        self.idle = self.bp = 0.0
        self.b_delay = self.r_delay = 0

    # ---- stimulus ----
    def add_write(self, i, beats):
        n = self.wr_count[i]
        self.wr_count[i] += 1
        self.wr_todo[i].append([0x1000 * (i + 1) + 64 * n, beats, n])

    def add_read(self, i, beats):
        n = self.rd_count[i]
        self.rd_count[i] += 1
        addr = 0x80000 * (i + 1) + 64 * n
        self.rd_todo[i].append([addr, beats])

    def busy(self):
        return (any(self.wr_todo) or any(c is not None for c in self.wr_cur) or any(self.wr_b)
                or any(self.rd_todo) or any(c is not None for c in self.rd_cur) or any(self.rd_expect))

    def chance(self, p):
        return self.rng.random() < p

    async def run(self, limit):
        for _ in range(limit):
            if not self.busy():
                return
            await self.step()
        raise AssertionError(f"traffic not done in {limit} cycles: writers {self.wr_cur}, readers {self.rd_cur}")

    async def step(self):
        dut, rng, wb = self.dut, self.rng, self.w_bits
        await FallingEdge(dut.clk)
        self.cycle += 1
        # writers: AW of the current burst, then its beats
        awaddr = awlen = awvalid = awsoon = wdata = wlast = wvalid = 0
        for i in range(self.n_wr):
            if self.wr_cur[i] is None and self.wr_todo[i] and not self.chance(self.idle):
                self.wr_cur[i] = self.wr_todo[i].popleft() + [False, 0, self.rng.randrange(self.lead + 1)]
            c = self.wr_cur[i]
            if c is None:
                continue
            addr, beats, n, aw_taken, taken, lead = c
            if not aw_taken and lead:
                c[5] -= 1          # announced on s_awsoon, not asking yet
                awsoon |= 1 << i
            elif not aw_taken:
                awsoon |= 1 << i
                if self.aw_from[i] is None:
                    self.aw_from[i] = [self.cycle, 0]
                awvalid |= 1 << i
                awaddr |= field(addr, i, ADDR_W)
                awlen |= field(beats - 1, i, 8)
                if self.wr_wait_from[i] is None:
                    self.wr_wait_from[i] = self.wr0_grants
            elif not self.chance(self.idle):
                wvalid |= 1 << i
                wdata |= field(beat_word(wb, i, n, taken), i, wb)
                wlast |= int(taken == beats - 1) << i
        dut.s_awaddr.value, dut.s_awlen.value, dut.s_awvalid.value = awaddr, awlen, awvalid
        dut.s_awsoon.value = awsoon
        dut.s_wdata.value, dut.s_wlast.value, dut.s_wvalid.value = wdata, wlast, wvalid
        dut.s_wstrb.value = (1 << (self.n_wr * wb // 8)) - 1
        # readers: one AR at a time, any number outstanding
        araddr = arlen = arvalid = 0
        for i in range(self.n_rd):
            if self.rd_cur[i] is None and self.rd_todo[i] and not self.chance(self.idle):
                self.rd_cur[i] = self.rd_todo[i].popleft()
            if self.rd_cur[i] is not None:
                addr, beats = self.rd_cur[i]
                arvalid |= 1 << i
                araddr |= field(addr, i, ADDR_W)
                arlen |= field(beats - 1, i, 8)
        dut.s_araddr.value, dut.s_arlen.value, dut.s_arvalid.value = araddr, arlen, arvalid
        dut.s_rready.value = sum(int(not self.chance(self.bp)) << i for i in range(self.n_rd))
        # memory
        dut.m_axi_awready.value = int(not self.chance(self.bp))
        dut.m_axi_wready.value = int(not self.chance(self.bp))
        dut.m_axi_arready.value = int(not self.chance(self.bp))
        b = next((x for x in self.b_due if x[0] <= self.cycle), None)   # the first due: same-ID order kept
        dut.m_axi_bvalid.value = int(b is not None)
        dut.m_axi_bid.value = b[1] if b else 0
        dut.m_axi_bresp.value = 0
        ready_ids = [i for i, q in self.ar_by_id.items() if q and q[0][3] <= self.cycle]
        rid = rng.choice(ready_ids) if ready_ids and not self.chance(self.idle) else None
        dut.m_axi_rvalid.value = int(rid is not None)
        if rid is not None:
            addr, beats, beat, _ = self.ar_by_id[rid][0]
            dut.m_axi_rid.value = rid
            dut.m_axi_rdata.value = read_word(wb, addr, beat)
            dut.m_axi_rlast.value = int(beat == beats - 1)
        dut.m_axi_rresp.value = 0
        await ReadOnly()
        self.sample(b, rid)

    def sample(self, b, rid):
        dut, wb = self.dut, self.w_bits
        # ---- AW ----
        for i in range(self.n_wr):
            if self.aw_from[i] is not None and dut.m_axi_awready.value:
                self.aw_from[i][1] += 1          # a cycle the memory would have taken an AW
        if dut.m_axi_awvalid.value and dut.m_axi_awready.value:
            wid, addr, beats = int(dut.m_axi_awid.value), int(dut.m_axi_awaddr.value), int(dut.m_axi_awlen.value) + 1
            c = self.wr_cur[wid]
            assert c is not None and not c[3], f"AW with AWID {wid}: that writer has no AW to give"
            assert int(dut.s_awready.value) == 1 << wid, f"AW taken, s_awready {int(dut.s_awready.value):b} not writer {wid}"
            assert (addr, beats) == (c[0], c[1]), f"writer {wid}: AW {addr:#x}+{beats}, its burst is {c[0]:#x}+{c[1]}"
            assert int(dut.m_axi_awsize.value) == (wb // 8).bit_length() - 1 and int(dut.m_axi_awburst.value) == 1
            c[3] = True
            self.aw_waits.append([wid, self.aw_from[wid][1] - 1])
            self.aw_from[wid] = None
            self.aw.append([wid, c[2], beats, 0])
            self.grants.append(wid)
            if wid == 0:
                self.wr0_grants += 1
            else:
                waited = self.wr0_grants - self.wr_wait_from[wid]
                self.max_waited[wid] = max(self.max_waited[wid], waited)
                # counted in AWs taken: one of writer 0 granted before this writer asked may
                # be taken after (AWREADY low), hence the + 1
                bound = (self.n_wr - 1) * max(self.k, 1) + 1
                assert waited <= bound, f"writer {wid} waited for {waited} of writer 0's bursts (K = {self.k})"
            self.wr_wait_from[wid] = None
        else:
            assert int(dut.s_awready.value) & int(dut.s_awvalid.value) == 0, "a writer's AW taken, none at the master"
        # ---- W ----
        if dut.m_axi_wvalid.value and dut.m_axi_wready.value:
            assert self.aw, "a W beat before its burst's AW"
            wid, n, beats, seen = self.aw[0]
            assert int(dut.m_axi_wdata.value) == beat_word(wb, wid, n, seen), \
                f"W beat {seen} of writer {wid}'s burst {n}: other data"
            assert bool(dut.m_axi_wlast.value) == (seen == beats - 1), f"WLAST wrong at beat {seen} of {beats}"
            assert int(dut.s_wready.value) == 1 << wid, "W beat taken from another writer than its AW's"
            c = self.wr_cur[wid]
            c[4] += 1
            if seen == 0:
                self.w_bursts.append([wid, self.cycle, None])
            if seen == beats - 1:
                self.w_bursts[-1][2] = self.cycle
            self.aw[0][3] += 1
            if seen == beats - 1:
                self.aw.popleft()
                # B of one ID in order (AXI): due no earlier than the ID's B before
                due = max([self.cycle + self.rng.randrange(self.b_delay + 1)] + [x[0] for x in self.b_due if x[1] == wid])
                self.b_due.append([due, wid, n])
                self.wr_b[wid].append(n)
                self.wr_cur[wid] = None
        else:
            assert int(dut.s_wready.value) & int(dut.s_wvalid.value) == 0, \
                "a writer's beat taken without a W beat at the master"
        # ---- B ----
        sb = int(dut.s_bvalid.value)
        if b is not None:
            assert int(dut.m_axi_bready.value) == 1
            assert sb == 1 << b[1], f"B of writer {b[1]} went to {sb:b}"
            assert self.wr_b[b[1]] and self.wr_b[b[1]][0] == b[2]
            self.wr_b[b[1]].popleft()
            self.b_due.remove(b)
        else:
            assert sb == 0, "a B reached a writer with none at the master"
        # ---- AR ----
        if dut.m_axi_arvalid.value and dut.m_axi_arready.value:
            i, addr, beats = int(dut.m_axi_arid.value), int(dut.m_axi_araddr.value), int(dut.m_axi_arlen.value) + 1
            assert self.rd_cur[i] is not None and self.rd_cur[i] == [addr, beats], f"AR of reader {i}: not its request"
            assert int(dut.s_arready.value) == 1 << i, "AR taken, s_arready not its reader's"
            self.rd_cur[i] = None
            self.ar_by_id.setdefault(i, deque()).append([addr, beats, 0, self.cycle + self.rng.randrange(self.r_delay + 1)])
            self.rd_expect[i].extend(read_word(wb, addr, k) for k in range(beats))
        else:
            assert int(dut.s_arready.value) & int(dut.s_arvalid.value) == 0, "a reader's AR taken, none at the master"
        # ---- R ----
        sr = int(dut.s_rvalid.value)
        if rid is not None:
            assert sr == 1 << rid, f"R of reader {rid} went to {sr:b}"
            assert int(dut.m_axi_rready.value) == (int(dut.s_rready.value) >> rid) & 1, "RREADY not its reader's"
            if dut.m_axi_rready.value:
                assert int(dut.s_rdata.value) == self.rd_expect[rid].popleft(), f"reader {rid}: wrong beat"
                q = self.ar_by_id[rid]
                q[0][2] += 1
                if q[0][2] == q[0][1]:
                    q.popleft()
        else:
            assert sr == 0, "an R beat reached a reader with none at the master"


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def run_traffic(dut):
    tb = TB(dut)
    n_wr, n_rd, k = int(dut.N_WR.value), int(dut.N_RD.value), int(dut.WR0_FIRST.value)
    for name in ("s_awvalid", "s_wvalid", "s_arvalid", "s_rready", "m_axi_awready", "m_axi_wready",
                 "m_axi_bvalid", "m_axi_arready", "m_axi_rvalid"):
        getattr(dut, name).value = 0
    await tb.reset()
    rng = random.Random(1000 * n_wr + k)
    bench = Bench(dut, rng, n_wr, n_rd, k)
    # random phase: idle clients, back-pressure, delays
    for idle, bp, delay, lead in ((0.0, 0.0, 0, 0), (0.3, 0.3, 8, 2), (0.6, 0.1, 20, 3)):
        bench.idle, bench.bp, bench.b_delay, bench.r_delay, bench.lead = idle, bp, delay, delay, lead
        for _ in range(60):
            for i in range(n_wr):
                if rng.random() < 0.7:
                    bench.add_write(i, rng.choice([1, 2, rng.randrange(1, 33)]))
            for i in range(n_rd):
                if rng.random() < 0.7:
                    bench.add_read(i, rng.choice([1, rng.randrange(1, 33)]))
        await bench.run(200000)
    assert bench.wr_b == [deque() for _ in range(n_wr)] and all(not q for q in bench.ar_by_id.values())
    bench.lead = 0
    # announced phase: the last writer alone says on s_awsoon 1 to 3 cycles ahead that it
    # will ask; the others idle and the memory ready: no AW of it waits
    bench.idle = bench.bp = 0.0
    bench.b_delay = bench.r_delay = 0
    last = n_wr - 1
    for _ in range(20):
        bench.add_write(last, rng.choice([1, 3]))
    first = len(bench.aw_waits)
    while bench.busy():
        c = bench.wr_cur[last]
        if c is None and bench.wr_todo[last]:
            # the next burst: announced 1 to 3 cycles ahead
            bench.wr_cur[last] = bench.wr_todo[last].popleft() + [False, 0, rng.randrange(1, 4)]
        await bench.step()
    waits = bench.aw_waits[first:]
    assert len(waits) == 20 and all(w == [last, 0] for w in waits), f"announced AWs waited: {waits}"
    # saturated phase: every writer always has a burst of the same length waiting, the
    # memory always ready: the grant pattern is the arbitration rule
    bench.idle = bench.bp = 0.0
    bench.b_delay = bench.r_delay = 0
    start = len(bench.grants)
    w_start = len(bench.w_bursts)
    for _ in range(40):
        for i in range(n_wr):
            bench.add_write(i, 4)
    while all(bench.wr_todo[i] for i in range(n_wr)):
        await bench.step()
    await bench.run(20000)
    # the grants while every writer still had bursts waiting (the last few drain alone)
    got = bench.grants[start:start + 30]
    if k:
        # the others in their round robin, from the one granted first
        first = got[k]
        others = [1 + (first - 1 + j) % (n_wr - 1) for j in range(n_wr - 1)]
        expect = []
        j = 0
        while len(expect) < len(got):
            expect += [0] * k + [others[j % len(others)]]
            j += 1
        assert got == expect[:len(got)], f"grants {got}, writer 0 first by {k} expects {expect[:len(got)]}"
    else:
        assert got == [g % n_wr for g in range(got[0], got[0] + len(got))], f"grants {got}: not round robin"
    # the W channel in saturation: no idle cycle where the writer changes
    sat = bench.w_bursts[w_start:w_start + 30]
    gaps = [(a[0], b[0], b[1] - a[2] - 1) for a, b in zip(sat, sat[1:]) if a[0] != b[0]]
    assert gaps and all(g == 0 for _, _, g in gaps), f"idle W cycles between writers' bursts: {gaps}"
    dut._log.info("grants in saturation %s; most of writer 0's bursts another writer waited for: %s",
                  got, bench.max_waited)


@pytest.mark.parametrize("n_wr,k", [(2, 4), (2, 0), (3, 2)])
def test_toe_tcp_mem_arb(n_wr, k):
    here = Path(__file__).parent
    runner.run("toe_tcp_mem_arb", "test_toe_tcp_mem_arb",
               {"DATA_W": 128, "N_WR": n_wr, "N_RD": 2, "ID_W": 2, "WR0_FIRST": k}, here)
