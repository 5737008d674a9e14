"""toe_axis_async_fifo: frames cross between two unrelated clocks (4 ns and 6.4 ns)
byte-exact and in order, in both speed directions, with idle cycles and back-pressure."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from tbutil import MODES, TB, random_bytes, set_mode
import runner


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def run_frames(dut):
    tb = TB(dut, clk="s_clk", rst="s_rst", period_ns=4)
    cocotb.start_soon(Clock(dut.m_clk, 6.4, unit="ns").start())
    src = tb.source("s_axis")
    snk = tb.sink("m_axis", clk=dut.m_clk)
    dut.m_rst.value = 1
    await tb.reset(8)
    await FallingEdge(dut.m_clk)
    dut.m_rst.value = 0
    rng = random.Random(2)
    for mode in range(len(MODES)):
        set_mode(mode, [src], [snk])
        sent = []
        for _ in range(60):
            data = random_bytes(rng, rng.randrange(1, 500))
            user = rng.getrandbits(1)
            sent.append((data, user))
            await src.send(data, tuser=user)
        for data, user in sent:
            got, got_user, _ = await snk.recv()
            assert got == data and got_user == user, f"mode {mode}"


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_axis_async_fifo(data_w):
    runner.run("toe_axis_async_fifo", "test_toe_axis_async_fifo",
               {"DATA_W": data_w, "DEPTH": 16}, Path(__file__).parent)
