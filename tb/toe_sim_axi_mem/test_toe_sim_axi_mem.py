"""toe_sim_axi_mem, the memory model behind the benchmarks: in DDR4 mode, reads and writes
streaming at once share the channel's bandwidth (at least 85 % of BYTES_PER_KCYCLE: refresh
and turnarounds counted against it, never above it); in ideal mode each direction moves a
beat every cycle; every byte written reads back; R stays valid until taken under random
back-pressure; reads come no earlier than READ_LATENCY and no later than READ_LATENCY +
LATENCY_JITTER after their address (on an idle channel)."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB

ROOT = Path(__file__).resolve().parents[2]
BURST = 64          # beats per burst (4 KB at 512 bits)


class Mem:
    def __init__(self, dut):
        self.dut = dut
        self.tb = TB(dut)
        self.w = len(dut.s_axi_wdata) // 8
        self.rng = random.Random(7)
        self.r_beats = self.w_beats = 0
        self.rready_prob = 1.0
        self.r_data = []
        for s in ("awvalid", "wvalid", "arvalid", "bready", "rready"):
            getattr(dut, f"s_axi_{s}").value = 0
        for s in ("awid", "awaddr", "awlen", "awsize", "awburst", "wdata", "wstrb", "wlast",
                  "arid", "araddr", "arlen", "arsize", "arburst"):
            getattr(dut, f"s_axi_{s}").value = 0

    async def start(self):
        await self.tb.reset()
        self.dut.s_axi_bready.value = 1
        cocotb.start_soon(self._r_sink())

    async def _r_sink(self):
        d = self.dut
        held = None
        while True:
            await ReadOnly()
            if int(d.s_axi_rvalid.value):
                beat = int(d.s_axi_rdata.value)
                if held is not None:
                    assert beat == held, "R changed while valid and not taken"
                if int(d.s_axi_rready.value):
                    self.r_beats += 1
                    self.r_data.append(beat)
                    held = None
                else:
                    held = beat
            else:
                assert held is None, "R valid dropped before it was taken"
            await FallingEdge(d.clk)
            d.s_axi_rready.value = int(self.rng.random() < self.rready_prob)

    async def write(self, addr, beats):
        """One burst per BURST beats; AW then W at full speed while wready."""
        d = self.dut
        for b0 in range(0, len(beats), BURST):
            chunk = beats[b0:b0 + BURST]
            d.s_axi_awaddr.value = addr + b0 * self.w
            d.s_axi_awlen.value = len(chunk) - 1
            d.s_axi_awvalid.value = 1
            await FallingEdge(d.clk)
            d.s_axi_awvalid.value = 0
            for i, beat in enumerate(chunk):
                d.s_axi_wdata.value = beat
                d.s_axi_wstrb.value = (1 << self.w) - 1
                d.s_axi_wlast.value = int(i == len(chunk) - 1)
                d.s_axi_wvalid.value = 1
                while True:
                    await ReadOnly()
                    taken = int(d.s_axi_wready.value)
                    await FallingEdge(d.clk)
                    if taken:
                        self.w_beats += 1
                        break
            d.s_axi_wvalid.value = 0

    async def read(self, addr, n):
        d = self.dut
        for b0 in range(0, n, BURST):
            d.s_axi_araddr.value = addr + b0 * self.w
            d.s_axi_arlen.value = min(BURST, n - b0) - 1
            d.s_axi_arvalid.value = 1
            await FallingEdge(d.clk)
            d.s_axi_arvalid.value = 0


def beats_of(seed, n, w):
    rng = random.Random(seed)
    return [rng.getrandbits(8 * w) for _ in range(n)]


@cocotb.test()
async def shared_bandwidth_and_data(dut):
    m = Mem(dut)
    await m.start()
    budget = int(dut.BYTES_PER_KCYCLE.value) / 1000          # bytes per cycle, 0: ideal
    n = 2048
    data = beats_of(1, n, m.w)
    await m.write(0, data)                                     # fill, then stream both ways
    await m.tb.cycles(200)
    m.r_data.clear()
    m.r_beats = m.w_beats = 0
    m.rready_prob = 1.0
    t0 = 0
    cycles = 0
    wr = cocotb.start_soon(m.write(1 << 20, beats_of(2, n, m.w)))
    rd = cocotb.start_soon(m.read(0, n))
    while not (wr.done() and m.r_beats >= n):
        await FallingEdge(dut.clk)
        cycles += 1
        assert cycles < 40 * n, "the streams did not finish"
    rate = (m.r_beats + m.w_beats) * m.w / (cycles - t0)
    dut._log.info("R+W %.1f bytes/cycle (budget %s)", rate, budget or "ideal")
    if budget:
        assert rate <= budget * 1.001, rate
        assert rate >= budget * 0.85, rate   # refresh takes 4.5 %, a turnaround per 32-beat batch 8.6 %
    else:
        assert rate >= 2 * m.w * 0.95, rate             # each direction a beat a cycle
    assert m.r_data == data, "read data differs from what was written"
    await rd


@cocotb.test()
async def back_pressure_and_latency(dut):
    m = Mem(dut)
    await m.start()
    lat, jitter = int(dut.READ_LATENCY.value), int(dut.LATENCY_JITTER.value)
    data = beats_of(3, 256, m.w)
    await m.write(4096, data)
    await m.tb.cycles(100)
    # latency of single reads on an idle channel
    for k in range(20):
        m.r_data.clear()
        before = m.r_beats
        await m.read(4096 + k * m.w, 1)
        waited = 1
        while m.r_beats == before:
            await FallingEdge(dut.clk)
            waited += 1
        slack = int(dut.REFRESH_CYCLES.value) + int(dut.TURNAROUND.value) + 4
        assert lat - 2 <= waited <= lat + jitter + slack, (waited, lat, jitter)
        assert m.r_data == [data[k]]
    # everything again under random back-pressure: same bytes, R held while not taken
    m.r_data.clear()
    m.rready_prob = 0.6
    await m.read(4096, 256)
    for _ in range(20000):
        if len(m.r_data) == 256:
            break
        await FallingEdge(dut.clk)
    assert m.r_data == data


@pytest.mark.parametrize("mode", ["ideal", "ddr4"])
def test_toe_sim_axi_mem(mode):
    # DDR4-2400 x64 at 322 MHz, as toe_sim_top sets it for 512 bits
    params = {"DATA_W": 512, "READ_LATENCY": 32}
    if mode == "ddr4":
        params.update({"BYTES_PER_KCYCLE": 59627, "REFRESH_EVERY": 2512, "REFRESH_CYCLES": 113,
                       "TURNAROUND": 3, "LATENCY_JITTER": 16})
    runner.run("toe_sim_axi_mem", "test_toe_sim_axi_mem", params, Path(__file__).parent,
               extra_sources=[ROOT / "sim/toe_sim_axi_mem.sv"])
