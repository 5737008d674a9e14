"""toe_fifo (FRAME=0): random writes and reads with random back-pressure; every word comes
out once, in order, unchanged; s_ready is low exactly when DEPTH words wait behind the output
word (the RAM is full); m_data holds
while not taken; a word written while the FIFO holds nothing appears exactly 2 cycles later,
1 with BYPASS; a FIFO kept busy on both sides moves a word every cycle."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

from tbutil import TB
import runner


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def order_latency_throughput(dut):
    depth, width = int(dut.DEPTH.value), len(dut.s_data)
    latency = 1 if int(dut.BYPASS.value) else 2
    tb = TB(dut)
    rng = random.Random(11)
    dut.s_valid.value = dut.m_ready.value = dut.commit.value = dut.rewind.value = 0
    await tb.reset()
    held = deque()                # (data, cycle written, written into an empty FIFO)
    last_out = None               # the word on m_data that was not taken last cycle
    checked_latency = moved = 0
    for cycle in range(6000):
        phase = (cycle // 500) % 3     # writer-heavy, reader-heavy, both busy
        p_write, p_read = [(0.8, 0.3), (0.3, 0.9), (1.0, 1.0)][phase]
        valid, ready = rng.random() < p_write, rng.random() < p_read
        data = rng.getrandbits(width)
        dut.s_valid.value, dut.s_data.value, dut.m_ready.value = int(valid), data, int(ready)
        await ReadOnly()
        in_ram = len(held) - int(dut.m_valid.value)
        assert int(dut.s_ready.value) == (in_ram < depth), f"cycle {cycle}: s_ready with {len(held)} held"
        if int(dut.m_valid.value):
            assert held, f"cycle {cycle}: m_valid with nothing written"
            want, written, into_empty = held[0]
            assert int(dut.m_data.value) == want, f"cycle {cycle}: word out of order or changed"
            if last_out is None and into_empty:
                assert cycle - written == latency, f"cycle {cycle}: {cycle - written} cycles from an empty FIFO"
                checked_latency += 1
            if ready:
                held.popleft()
                last_out = None
                moved += phase == 2
            else:
                last_out = want
        else:
            assert last_out is None, f"cycle {cycle}: m_valid dropped before the word was taken"
            if held:
                assert cycle - held[0][1] < latency, f"cycle {cycle}: a word held back"
        if valid and int(dut.s_ready.value):
            held.append((data, cycle, not held))
        await FallingEdge(tb.clk)
    assert checked_latency > 50, checked_latency
    # both sides always busy: one word a cycle (less the fill at each phase start)
    assert moved > 2 * 500 * 0.95, moved


@pytest.mark.parametrize("bypass", [0, 1])
@pytest.mark.parametrize("depth", [2, 8])
def test_toe_fifo(depth, bypass):
    runner.run("toe_fifo", "test_toe_fifo", {"WIDTH": 13, "DEPTH": depth, "BYPASS": bypass},
               Path(__file__).parent)
