"""toe_axis_width_conv: frames of every length pass byte-exact 64->512 and 512->64, with
the last beat's tuser preserved."""
import random
from pathlib import Path

import cocotb
import pytest

from tbutil import MODES, TB, random_bytes, set_mode
import runner


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def run_frames(dut):
    rng = random.Random(4)
    tb = TB(dut)
    src, snk = tb.source("s_axis"), tb.sink("m_axis")
    await tb.reset()
    for mode in range(len(MODES)):
        set_mode(mode, [src], [snk])
        sent = []
        for length in list(range(1, 140)) + [rng.randrange(1, 1500) for _ in range(20)]:
            data = random_bytes(rng, length)
            bad = length % 3 == 0
            sent.append((data, int(bad)))
            await src.send(data, tuser=int(bad))
        for data, bad in sent:
            got, user, _ = await snk.recv()
            assert got == data, f"mode {mode}, length {len(data)}"
            assert user == bad


@pytest.mark.parametrize("s_w,m_w", [(64, 512), (512, 64), (64, 64)])
def test_toe_axis_width_conv(s_w, m_w):
    runner.run("toe_axis_width_conv", "test_toe_axis_width_conv",
               {"S_DATA_W": s_w, "M_DATA_W": m_w}, Path(__file__).parent)
