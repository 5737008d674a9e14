"""toe_axis_demux: each frame reaches exactly the output chosen on its first beat, whole
and in order; frames marked for dropping or with an out-of-range choice vanish."""
import random
from pathlib import Path

import cocotb
import pytest

from tbutil import MODES, TB, random_bytes
import runner


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def run_frames(dut):
    tb = TB(dut)
    src = tb.source("s_axis")
    snks = [tb.sink(f"m{i}_axis") for i in range(3)]
    await tb.reset()
    rng = random.Random(12)
    for mode, (idle, bp) in enumerate(MODES):
        src.set_idle(idle, seed=mode)
        for i, s in enumerate(snks):
            s.set_backpressure(bp, seed=mode * 10 + i)
        sent = [[] for _ in range(3)]
        for _ in range(90):
            sel = rng.choice([0, 1, 2, 3, 0x80, 0x81])
            data = bytes([sel]) + random_bytes(rng, rng.randrange(0, 300))
            await src.send(data, tuser=rng.getrandbits(1))
            if sel < 3:
                sent[sel].append(data)
        for i in range(3):
            for data in sent[i]:
                got, _, _ = await snks[i].recv()
                assert got == data, f"mode {mode} output {i}"
        await tb.cycles(20)
        assert all(s.empty() for s in snks)


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_axis_demux(data_w):
    here = Path(__file__).parent
    runner.run("test_toe_axis_demux", "test_toe_axis_demux", {"DATA_W": data_w}, here,
               extra_sources=[here / "test_toe_axis_demux.sv"])
