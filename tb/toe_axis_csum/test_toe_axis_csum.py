"""toe_axis_csum: the folded ones'-complement sum of random frames (odd lengths, random
start offsets and seeds) matches an RFC 1071 reference, on the last beat (sum_last) and
one cycle later (sum_reg / sum_valid); idle cycles between beats do not matter."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

from tbutil import TB, random_bytes
import runner


def ref_sum(data, start, seed):
    s = seed
    b = bytes(len(data[:start])) + data[start:]
    if len(b) % 2:
        b += b"\0"
    for i in range(0, len(b), 2):
        s += (b[i] << 8) | b[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def sums(dut):
    w = len(dut.tdata) // 8
    tb = TB(dut)
    rng = random.Random(6)
    dut.beat.value = 0
    await tb.reset()
    for _ in range(300):
        data = random_bytes(rng, rng.randrange(1, 1600))
        start = rng.randrange(0, min(len(data), 80))
        seed = rng.getrandbits(rng.choice([16, 20, 31]))
        chunks = [data[i:i + w] for i in range(0, len(data), w)]
        for i, c in enumerate(chunks):
            while rng.random() < 0.2:
                dut.beat.value = 0
                await FallingEdge(tb.clk)
            dut.tdata.value = int.from_bytes(c.ljust(w, b"\0"), "little")
            dut.tkeep.value = (1 << len(c)) - 1
            dut.tlast.value = int(i == len(chunks) - 1)
            dut.start.value = start if i == 0 else rng.getrandbits(16)   # sampled on beat 0 only
            dut.seed.value = seed if i == 0 else rng.getrandbits(32)
            dut.beat.value = 1
            if i == len(chunks) - 1:
                await ReadOnly()
                assert int(dut.sum_last.value) == ref_sum(data, start, seed)
            await FallingEdge(tb.clk)
        dut.beat.value = 0
        await ReadOnly()
        assert dut.sum_valid.value == 1 and int(dut.sum_reg.value) == ref_sum(data, start, seed)
        await FallingEdge(tb.clk)


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_axis_csum(data_w):
    runner.run("toe_axis_csum", "test_toe_axis_csum", {"DATA_W": data_w}, Path(__file__).parent)
