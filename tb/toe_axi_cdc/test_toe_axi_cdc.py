"""toe_axi_cdc: AXI4 across two unrelated clocks. A master on s_clk writes random bursts
(random lengths, addresses, IDs and byte strobes) and reads them back while writing
more, into the behavioural DDR4-mode memory on m_clk; every read beat must equal a
shadow memory built from the strobes, RLAST must mark each burst's last beat, BID/RID
must name their request, in order, and every response must be OKAY. Channels run with
random idle cycles and random BREADY/RREADY back-pressure, with the core clock slower
than, faster than and equal in frequency to the memory clock, and with ASYNC = 0 (wires
on one clock)."""
import os
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, Timer

import runner

ROOT = Path(__file__).resolve().parents[2]


class Source:
    """Drives the valid/ready channel s_axi_<name>: values (dict of fields) in order, a
    random idle cycle before a value with probability `idle`, held until taken."""

    def __init__(self, dut, name, fields, rng, idle):
        self.dut, self.name, self.fields, self.rng, self.idle = dut, name, fields, rng, idle
        self.queue = deque()
        getattr(dut, f"s_axi_{name}valid").value = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        d = self.dut
        valid = getattr(d, f"s_axi_{self.name}valid")
        ready = getattr(d, f"s_axi_{self.name}ready")
        while True:
            await FallingEdge(d.s_clk)
            if not self.queue or self.rng.random() < self.idle:
                valid.value = 0
                continue
            for f, v in self.queue[0].items():
                getattr(d, f"s_axi_{self.name}{f}").value = v
            valid.value = 1
            while True:
                await ReadOnly()
                if int(ready.value):
                    break
                await FallingEdge(d.s_clk)
            self.queue.popleft()


class Sink:
    """Takes the valid/ready channel s_axi_<name> with random back-pressure `bp`; checks
    that a value once offered stays until taken."""

    def __init__(self, dut, name, fields, rng, bp):
        self.dut, self.name, self.fields, self.rng, self.bp = dut, name, fields, rng, bp
        self.got = deque()
        getattr(dut, f"s_axi_{name}ready").value = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        d = self.dut
        valid = getattr(d, f"s_axi_{self.name}valid")
        ready = getattr(d, f"s_axi_{self.name}ready")
        held = None
        while True:
            await FallingEdge(d.s_clk)
            ready.value = int(self.rng.random() >= self.bp)
            await ReadOnly()
            if int(valid.value):
                value = {f: int(getattr(d, f"s_axi_{self.name}{f}").value) for f in self.fields}
                assert held is None or value == held, f"{self.name} changed while not taken"
                if int(ready.value):
                    self.got.append(value)
                    held = None
                else:
                    held = value
            else:
                assert held is None, f"{self.name} valid dropped before it was taken"


async def run_traffic(dut, s_period, m_period, idle, bp, seed):
    rng = random.Random(seed)
    w = len(dut.s_axi_wdata) // 8
    cocotb.start_soon(Clock(dut.s_clk, s_period, unit="ps").start())
    cocotb.start_soon(Clock(dut.m_clk, m_period, unit="ps").start())
    await Timer(1234, unit="ps")      # the two clocks out of phase
    dut.s_rst.value = 1
    dut.m_rst.value = 1
    for _ in range(8):
        await FallingEdge(dut.s_clk)
        await FallingEdge(dut.m_clk)
    dut.s_rst.value = 0
    dut.m_rst.value = 0
    aw = Source(dut, "aw", ("id", "addr", "len"), rng, idle)
    wch = Source(dut, "w", ("data", "strb", "last"), rng, idle)
    ar = Source(dut, "ar", ("id", "addr", "len"), rng, idle)
    b = Sink(dut, "b", ("id", "resp"), rng, bp)
    r = Sink(dut, "r", ("id", "data", "resp", "last"), rng, bp)
    shadow = {}                        # word address -> bytes (written so far)
    words = 512                        # region of 512 words (32 KB at 512 bits)

    def write_burst(base, n):
        ident = rng.randrange(4)
        aw.queue.append({"id": ident, "addr": base * w, "len": n - 1})
        for i in range(n):
            data = rng.getrandbits(8 * w)
            strb = rng.choice([(1 << w) - 1, rng.getrandbits(w)])
            wch.queue.append({"data": data, "strb": strb, "last": int(i == n - 1)})
            old = bytearray(shadow.get(base + i, bytes(w)))
            for k in range(w):
                if strb >> k & 1:
                    old[k] = data >> (8 * k) & 0xFF
            shadow[base + i] = bytes(old)
        return ident

    def read_burst(base, n):
        ident = rng.randrange(4)
        ar.queue.append({"id": ident, "addr": base * w, "len": n - 1})
        return ident, [int.from_bytes(shadow.get(base + i, bytes(w)), "little") for i in range(n)]

    async def wait(cond, what, limit=200000):
        for _ in range(limit):
            if cond():
                return
            await FallingEdge(dut.s_clk)
        raise AssertionError(f"timed out waiting for {what}")

    # Phase 1: writes over the first half of the region; phase 2: reads of it while
    # writes go on in the second half (reads never touch words still being written).
    b_expect = []
    for phase in range(2):
        reads = []
        for _ in range(40):
            n = rng.randrange(1, 17)
            lo = phase * words // 2
            base = rng.randrange(lo, lo + words // 2 - n)
            b_expect.append(write_burst(base, n))
            if phase:
                for _ in range(rng.randrange(0, 3)):
                    n = rng.randrange(1, 17)
                    rb = rng.randrange(0, words // 2 - n)
                    reads.append(read_burst(rb, n))
        if phase == 0:   # the first half is written before any read of it
            await wait(lambda: len(b.got) == len(b_expect), "write responses")
    await wait(lambda: len(b.got) == len(b_expect), "write responses")
    assert [x["id"] for x in b.got] == b_expect, "BID out of order or wrong"
    assert all(x["resp"] == 0 for x in b.got)
    expect_beats = sum(len(d) for _, d in reads)
    await wait(lambda: len(r.got) == expect_beats, "read data")
    got = list(r.got)
    for ident, data in reads:
        beats, got = got[:len(data)], got[len(data):]
        assert [x["data"] for x in beats] == data, "read data differs from what was written"
        assert [x["last"] for x in beats] == [0] * (len(data) - 1) + [1], "RLAST misplaced"
        assert all(x["id"] == ident and x["resp"] == 0 for x in beats), "RID or RRESP wrong"
    # finally every word of the region, in bursts of 16, against the shadow
    final = [read_burst(base, 16) for base in range(0, words, 16)]
    r.got.clear()
    await wait(lambda: len(r.got) == words, "final read")
    assert [x["data"] for x in r.got] == [v for _, d in final for v in d]
    dut._log.info("s %d ps, m %d ps, idle %.1f, bp %.1f: %d bursts written, %d read, byte-exact",
                  s_period, m_period, idle, bp, len(b_expect), len(reads) + len(final))


# (core clock, memory clock) in ps: core at 156.25 MHz against 300 MHz, 322 MHz against
# 300 MHz, and the same frequency out of phase
CLOCKS = [(6400, 3334), (3106, 3334), (3334, 3334)]


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def traffic(dut):
    s, m, idle, bp, seed = (float(x) for x in os.environ["CDC_CASE"].split(","))
    if not int(dut.ASYNC.value):
        m = s
    await run_traffic(dut, int(s), int(m), idle, bp, int(seed))


@pytest.mark.parametrize("async_", [1, 0])
@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_axi_cdc(data_w, async_):
    cases = [(s, m, idle, bp) for s, m in CLOCKS for idle, bp in ((0.0, 0.0), (0.3, 0.5))]
    if not async_:
        cases = cases[:2]
    for i, (s, m, idle, bp) in enumerate(cases):
        runner.run("test_toe_axi_cdc", "test_toe_axi_cdc", {"DATA_W": data_w, "ASYNC": async_},
                   Path(__file__).parent,
                   extra_sources=[ROOT / "sim/toe_sim_axi_mem.sv", Path(__file__).parent / "test_toe_axi_cdc.sv"],
                   extra_env={"CDC_CASE": f"{s},{m},{idle},{bp},{i + 1}"})
