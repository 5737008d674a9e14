"""toe_state_ram against its contract, written from the module's header: a read issued in
cycle t-2 gives in cycle t the record with every write up to cycle t-1 (the writes of
the two cycles in between forwarded), and a hold keeps the output. Random writes, reads
and holds over a few records, so that writes to the record being read fall in both
forwarded cycles and in the read's own; every cycle's output is checked against a
Python copy of the table, and the test counts how often each forwarding case came up.
Some writes are announced a cycle ahead (ann_*): a read whose data comes in the write's
cycle must give the announced record.
The candidates given apart (rd_ram, rd_new, rd_old) and the choice (rd_is_new,
rd_is_old) must give rd_data, and the choice must name the forwarding case."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly

import runner


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def reads_give_the_last_write_and_hold(dut):
    width, depth = int(dut.WIDTH.value), int(dut.DEPTH.value)
    rng = random.Random(width * 1000 + depth)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    table = [rng.getrandbits(width) for _ in range(depth)]
    # the reset state: every record written once, and two idle cycles
    dut.hold.value = 0
    dut.rd_addr.value = 0
    dut.ann_en.value = 0
    for a in range(depth):
        await FallingEdge(dut.clk)
        dut.wr_en.value, dut.wr_addr.value, dut.wr_data.value = 1, a, table[a]
    await FallingEdge(dut.clk)
    dut.wr_en.value = 0
    await FallingEdge(dut.clk)
    await FallingEdge(dut.clk)

    hot = rng.sample(range(depth), min(depth, 3))    # most traffic on a few records
    history = []      # per cycle: (rd_addr, write or None, hold, table after the cycle's write, announce or None)
    out_prev = None
    cases = {"ram": 0, "fwd_old": 0, "fwd_new": 0, "announced": 0, "held": 0}
    ann = None        # the write announced in the cycle before: made in this one
    for cycle in range(4000):
        rd = rng.choice(hot) if rng.random() < 0.8 else rng.randrange(depth)
        wr = ann
        if wr is None and rng.random() < 0.6:
            wr = (rng.choice(hot) if rng.random() < 0.8 else rng.randrange(depth), rng.getrandbits(width))
        ann = None
        if rng.random() < 0.35:
            ann = (rng.choice(hot) if rng.random() < 0.8 else rng.randrange(depth), rng.getrandbits(width))
        hold = rng.random() < 0.25
        dut.rd_addr.value = rd
        dut.hold.value = int(hold)
        dut.wr_en.value = int(wr is not None)
        if wr is not None:
            dut.wr_addr.value, dut.wr_data.value = wr
        dut.ann_en.value = int(ann is not None)
        if ann is not None:
            dut.ann_addr.value, dut.ann_data.value = ann
        await ReadOnly()
        out = int(dut.rd_data.value)
        is_new, is_old = int(dut.rd_is_new.value), int(dut.rd_is_old.value)
        chosen = dut.rd_new if is_new else dut.rd_old if is_old else dut.rd_ram
        assert int(chosen.value) == out, f"cycle {cycle}: the candidates' choice is not rd_data"
        if len(history) >= 2:
            if history[-1][2]:                       # held in the cycle before
                assert out == out_prev, f"cycle {cycle}: output moved under hold"
                cases["held"] += 1
            else:
                addr = history[-2][0]
                want = history[-1][3][addr]          # the table after the write of cycle t-1
                a_new = history[-1][4]               # a write announced in cycle t-1 (made in t)
                ann_hit = a_new is not None and a_new[0] == addr
                if ann_hit:
                    want = a_new[1]
                assert out == want, f"cycle {cycle}: record {addr} read {out:#x}, last written {want:#x}"
                w_new, w_old = history[-1][1], history[-2][1]
                new_hit = ann_hit or (w_new is not None and w_new[0] == addr)
                old_hit = w_old is not None and w_old[0] == addr
                assert is_new == new_hit and (is_new or is_old == old_hit), \
                    f"cycle {cycle}: choice new={is_new} old={is_old}, writes new={new_hit} old={old_hit}"
                if ann_hit:
                    cases["announced"] += 1
                elif w_new is not None and w_new[0] == addr:
                    cases["fwd_new"] += 1
                elif w_old is not None and w_old[0] == addr:
                    cases["fwd_old"] += 1
                else:
                    cases["ram"] += 1
        out_prev = out
        if wr is not None:
            table[wr[0]] = wr[1]
        history.append((rd, wr, hold, list(table), ann))
        history = history[-2:]
        await FallingEdge(dut.clk)
    dut._log.info("checked: %s", cases)
    assert min(cases.values()) > 200, cases


@pytest.mark.parametrize("width,depth", [(8, 4), (875, 16)])
def test_toe_state_ram(width, depth):
    runner.run("toe_state_ram", "test_toe_state_ram", {"WIDTH": width, "DEPTH": depth}, Path(__file__).parent)
