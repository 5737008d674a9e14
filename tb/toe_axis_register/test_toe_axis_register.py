"""toe_axis_register: every frame passes unchanged (data, keep, tuser) under random idle
cycles and back-pressure, and a full-rate stream passes at one beat per cycle."""
import random
from pathlib import Path

import cocotb
import pytest

from tbutil import MODES, TB, random_bytes, set_mode
import runner


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def run_frames(dut):
    rng = random.Random(7)
    tb = TB(dut)
    src = tb.source("s_axis")
    snk = tb.sink("m_axis")
    await tb.reset()
    for mode in range(len(MODES)):
        set_mode(mode, [src], [snk])
        sent = []
        for _ in range(60):
            data = random_bytes(rng, rng.randrange(1, 400))
            user = rng.getrandbits(len(dut.s_axis_tuser))
            sent.append((data, user))
            await src.send(data, tuser=user)
        for data, user in sent:
            got, got_user, _ = await snk.recv()
            assert got == data, f"mode {mode}"
            assert got_user == user
        await tb.cycles(10)
        assert snk.empty()


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def full_rate(dut):
    """With no idle and no back-pressure, N beats take N cycles (plus latency)."""
    tb = TB(dut)
    src = tb.source("s_axis")
    snk = tb.sink("m_axis")
    await tb.reset()
    width = len(dut.s_axis_tdata) // 8
    for i in range(20):
        await src.send(bytes([i]) * (width * 4))
    start = tb.now_cycles()
    for i in range(20):
        got, _, _ = await snk.recv()
        assert got == bytes([i]) * (width * 4)
    assert tb.now_cycles() - start <= 80 + 4, "not one beat per cycle"


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_axis_register(data_w):
    runner.run("toe_axis_register", "test_toe_axis_register",
               {"DATA_W": data_w, "USER_W": 5}, Path(__file__).parent)
