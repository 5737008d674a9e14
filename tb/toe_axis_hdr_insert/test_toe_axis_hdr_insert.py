"""toe_axis_hdr_insert: header in front, payload realigned, empty payloads give the
header alone, the bad flag reaches the last beat; header lengths below, at and above
the bus width; with and without the output register slice."""
import random
from pathlib import Path

import cocotb
import pytest

from tbutil import MODES, TB, random_bytes, set_mode
import runner


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def run_frames(dut):
    n = int(dut.HDR_BYTES.value)
    rng = random.Random(n)
    tb = TB(dut)
    src, snk = tb.source("s_axis"), tb.sink("m_axis")
    await tb.reset()
    for mode in range(len(MODES)):
        set_mode(mode, [src], [snk])
        expect = []
        for _ in range(80):
            hdr = random_bytes(rng, n)
            payload = b"" if rng.random() < 0.15 else random_bytes(rng, rng.randrange(1, 300))
            bad = int(rng.random() < 0.2)
            await src.send(payload, tuser=(int.from_bytes(hdr, "little") << 1) | bad)
            expect.append((hdr + payload, bad))
        for data, bad in expect:
            got, user, _ = await snk.recv()
            assert got == data, f"mode {mode}"
            assert user == bad


@pytest.mark.parametrize("data_w,hdr_bytes,out_reg",
                         [(w, n, 0) for w in (64, 512) for n in (8, 14, 42, 64)]
                         + [(64, 42, 1), (512, 42, 1)])
def test_toe_axis_hdr_insert(data_w, hdr_bytes, out_reg):
    here = Path(__file__).parent
    runner.run("test_toe_axis_hdr_insert", "test_toe_axis_hdr_insert",
               {"DATA_W": data_w, "HDR_BYTES": hdr_bytes, "OUT_REG": out_reg}, here,
               extra_sources=[here / "test_toe_axis_hdr_insert.sv"])
