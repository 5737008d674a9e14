"""toe_delay: random valid bits and data come out exactly STAGES cycles later, in order,
none lost or added; a reset in the middle clears the valid bits in flight."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

from tbutil import TB
import runner


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def delays_exactly(dut):
    stages = int(dut.STAGES.value)
    width = len(dut.s_data)
    tb = TB(dut)
    rng = random.Random(3)
    dut.s_valid.value = 0
    await tb.reset()
    sent = {}     # cycle -> data presented with valid in that cycle
    seen = 0
    for cycle in range(400):
        valid = rng.random() < 0.6
        data = rng.getrandbits(width)
        dut.s_valid.value, dut.s_data.value = int(valid), data
        if valid:
            sent[cycle] = data
        await ReadOnly()   # the output of this cycle: what came in STAGES cycles before
        want = sent.pop(cycle - stages, None)
        assert int(dut.m_valid.value) == (want is not None), f"cycle {cycle}: m_valid {dut.m_valid.value}"
        if want is not None:
            assert int(dut.m_data.value) == want, f"cycle {cycle}"
            seen += 1
        await FallingEdge(tb.clk)
    assert seen > 200
    # a reset clears what is in flight: a cycle of reset behind a run of valid inputs, and
    # none of them comes out
    dut.s_valid.value = 1
    await tb.cycles(stages + 1)
    dut.s_valid.value = 0
    tb.rst.value = 1
    await FallingEdge(tb.clk)
    tb.rst.value = 0
    for _ in range(stages + 1):
        await ReadOnly()
        assert int(dut.m_valid.value) == 0, "a valid bit survived the reset"
        await FallingEdge(tb.clk)


@pytest.mark.parametrize("stages", [0, 1, 3])
def test_toe_delay(stages):
    runner.run("toe_delay", "test_toe_delay", {"WIDTH": 37, "STAGES": stages}, Path(__file__).parent)
