"""toe_axis_hdr_extract: header split off, payload realigned, for runtime header lengths,
empty payloads, frames shorter than their header, and the bad flag carried to the end."""
import random
from pathlib import Path

import cocotb
import pytest

from tbutil import MODES, TB, PulseCounter, random_bytes, set_mode
import runner

MAX_HDR = 60


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def run_frames(dut):
    data_w = len(dut.s_axis_tdata)
    gran = int(dut.LEN_GRAN.value)
    rng = random.Random(data_w)
    tb = TB(dut)
    src = tb.source("s_axis")
    snk = tb.sink("m_axis")
    shorts = PulseCounter(tb, dut.short_frame)
    await tb.reset()
    n_short = 0
    for mode in range(len(MODES)):
        set_mode(mode, [src], [snk])
        expect = []
        for _ in range(150):
            k = rng.randrange(gran, MAX_HDR + 1, gran)
            kind = rng.random()
            if kind < 0.1:
                length = rng.randrange(1, k) if k > 1 else 1  # shorter than its header
            elif kind < 0.2:
                length = k                                     # empty payload
            else:
                length = k + rng.randrange(1, 300)
            data = bytes([k]) + random_bytes(rng, length - 1)
            bad = int(rng.random() < 0.2)
            await src.send(data, tuser=bad)
            if length < k:
                n_short += 1
            else:
                expect.append((data[:k], data[k:], bad))
        for hdr, payload, bad in expect:
            data, user, _ = await snk.recv()
            assert data == payload, f"payload mismatch (K={len(hdr)}, mode {mode})"
            assert user & 1 == bad, "bad flag lost"
            got_hdr = (user >> 1).to_bytes(MAX_HDR, "little")[:len(hdr)]
            assert got_hdr == hdr, "header mismatch"
        await tb.cycles(20)
        assert snk.empty(), "unexpected extra frame"
        assert shorts.count == n_short, f"short_frame pulses {shorts.count}, expected {n_short}"


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def back_to_back_rate(dut):
    """Frames of two or more beats in a row: the input never waits."""
    tb = TB(dut)
    src = tb.source("s_axis")
    snk = tb.sink("m_axis")
    await tb.reset()
    w = len(dut.s_axis_tdata) // 8
    k = 20
    beats = 0
    for i in range(40):
        n = k + 2 * w + 1 + i % w   # ends in a partial beat, so most frames flush
        beats += -(-n // w)
        await src.send(bytes([k]) + bytes([i]) * (n - 1))
    start = tb.now_cycles()
    await src.wait_idle()
    elapsed = tb.now_cycles() - start
    assert elapsed <= beats + 2, f"{beats} input beats took {elapsed} cycles"
    for _ in range(40):
        await snk.recv()


@pytest.mark.parametrize("data_w", [64, 512])
@pytest.mark.parametrize("gran", [1, 4])
def test_toe_axis_hdr_extract(data_w, gran):
    here = Path(__file__).parent
    runner.run("test_toe_axis_hdr_extract", "test_toe_axis_hdr_extract",
               {"DATA_W": data_w, "MAX_HDR_BYTES": MAX_HDR, "LEN_GRAN": gran}, here,
               extra_sources=[here / "test_toe_axis_hdr_extract.sv"])
