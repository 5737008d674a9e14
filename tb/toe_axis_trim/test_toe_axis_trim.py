"""toe_axis_trim: frames are cut to their length (sampled on the first beat, here its
first two bytes), padding is swallowed, a frame shorter than its length is marked bad
and counted, and a bad flag on the padding's last beat reaches the kept last beat."""
import random
from pathlib import Path

import cocotb
import pytest

from tbutil import MODES, TB, PulseCounter, random_bytes, set_mode
import runner


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def run_frames(dut):
    rng = random.Random(8)
    tb = TB(dut)
    src, snk = tb.source("s_axis"), tb.sink("m_axis")
    shorts = PulseCounter(tb, dut.short_frame)
    await tb.reset()
    n_short = 0
    for mode in range(len(MODES)):
        set_mode(mode, [src], [snk])
        sent = []
        for _ in range(80):
            actual = rng.randrange(2, 400)
            kind = rng.random()
            length = (rng.randrange(2, actual + 1) if kind < 0.6 else
                      actual if kind < 0.8 else actual + rng.randrange(1, 50))
            data = length.to_bytes(2, "little") + random_bytes(rng, actual - 2)
            bad = int(rng.random() < 0.2)
            await src.send(data, tuser=bad)
            short = length > actual
            n_short += short
            sent.append((data[:length], bad | short))
        for data, bad in sent:
            got, user, _ = await snk.recv()
            assert got == data, f"mode {mode}"
            assert user == bad
    assert shorts.count == n_short


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_axis_trim(data_w):
    here = Path(__file__).parent
    runner.run("test_toe_axis_trim", "test_toe_axis_trim", {"DATA_W": data_w}, here,
               extra_sources=[here / "test_toe_axis_trim.sv"])
