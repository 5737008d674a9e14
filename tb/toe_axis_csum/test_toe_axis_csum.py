"""toe_axis_csum: the folded ones'-complement sum of random frames (odd lengths, random
start offsets and seeds) matches an RFC 1071 reference, and `sum_ok` says whether it is
0xFFFF (a third of the frames verify, through both forms of the unfolded sum that fold to
it), and `sum_wide` folds to it; `sum_valid` pulses exactly
LATENCY + OUT_REG cycles after each frame's last beat and at no other time, frames back to back
or with idle cycles between beats."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

from tbutil import TB, csum_frame_beats
import runner


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def sums(dut):
    w = len(dut.tdata) // 8
    latency = int(dut.LATENCY.value) + int(dut.OUT_REG.value)
    tb = TB(dut)
    rng = random.Random(6)
    dut.beat.value = 0
    await tb.reset()
    expected = {}   # cycle at which a sum is due -> the reference sum
    seen = []
    now = [0]       # the driver's cycle: a beat presented in cycle c is taken at its end

    async def watch():
        while True:   # from the driver's first cycle on (a beat may come in cycle 0)
            await ReadOnly()   # after the driver's inputs of this cycle
            if dut.sum_valid.value == 1:
                assert now[0] in expected, f"sum_valid in cycle {now[0]}, no frame ended {latency} cycles before"
                want = expected.pop(now[0])
                assert int(dut.sum.value) == want
                wide = int(dut.sum_wide.value)          # the same sum before its fold
                wide = (wide & 0xFFFF) + (wide >> 16)
                assert (wide & 0xFFFF) + (wide >> 16) == want, f"sum_wide {int(dut.sum_wide.value):#x} folds to {wide:#x}"
                assert int(dut.sum_ok.value) == (want == 0xFFFF), f"sum {want:#x}: sum_ok {dut.sum_ok.value}"
                seen.append(want)
            await FallingEdge(tb.clk)
    cocotb.start_soon(watch())
    frames = 300
    for beat in csum_frame_beats(rng, w, frames):
        dut.beat.value = int(beat is not None)
        if beat is not None:
            dut.tdata.value = beat["data"]
            dut.tkeep.value = beat["keep"]
            dut.tlast.value = beat["last"]
            dut.start.value = beat["start"]
            dut.seed.value = beat["seed"]
            if beat["last"]:
                expected[now[0] + latency] = beat["sum"]
        await FallingEdge(tb.clk)
        now[0] += 1
    dut.beat.value = 0
    for _ in range(latency + 2):
        await FallingEdge(tb.clk)
        now[0] += 1
    assert not expected, f"sums never given for frames ending at cycles {sorted(expected)}"
    assert len(seen) == frames
    assert frames // 5 < seen.count(0xFFFF) < frames // 2, f"{seen.count(0xFFFF)} verifying frames"


@pytest.mark.parametrize("data_w,latency,out_reg", [(64, 0, 0), (128, 1, 0), (512, 0, 0), (512, 2, 0), (512, 2, 1)])
def test_toe_axis_csum(data_w, latency, out_reg):
    runner.run("toe_axis_csum", "test_toe_axis_csum", {"DATA_W": data_w, "LATENCY": latency, "OUT_REG": out_reg},
               Path(__file__).parent)
