"""toe_tcp_state_store against its contract, written from the module's header: a read held
at one address is answered (rd_answered) after a wait of 0..READ_WAIT cycles, stays
answered while held, and the record that comes the cycle after is the one at the read's
address with every write up to then (the hot part from every write, the cold part from
the writes that carry it). Random writes to a few records, reads held for random runs,
random holds; every read that was held long enough must have been answered within
READ_WAIT, and every wait from 0 to READ_WAIT must come up. The reader's use of an
answer (rd_use) is driven whenever it is allowed, so the store's own check runs, and
records are fetched ahead (pf_*) at random. Then, with READ_WAIT > 0, records fetched
ahead and given their time are read back to back: each must be answered at once."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly

import runner


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def reads_are_answered_within_the_wait_with_every_write(dut):
    read_wait = int(dut.READ_WAIT.value)
    depth = int(dut.MAX_SESSIONS.value)
    hot_w, cold_w = len(dut.wr_hot), len(dut.wr_cold_data)
    rng = random.Random(read_wait * 7 + depth)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.hold.value = 0
    dut.rd_addr.value = 0
    dut.rd_use.value = 0
    dut.rd_use_addr.value = 0
    dut.wr_cold.value = 1
    dut.pf_valid.value = 0
    dut.pf_session.value = 0
    hot = [rng.getrandbits(hot_w) for _ in range(depth)]
    cold = [rng.getrandbits(cold_w) for _ in range(depth)]
    for a in range(depth):                           # every record written once
        await FallingEdge(dut.clk)
        dut.wr_en.value, dut.wr_addr.value = 1, a
        dut.wr_hot.value, dut.wr_cold_data.value = hot[a], cold[a]
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    dut.wr_en.value = 0
    for _ in range(3):
        await FallingEdge(dut.clk)

    busy = rng.sample(range(depth), min(depth, 3))   # most traffic on a few records
    last = []         # the last two cycles: (rd_addr, hold, answered, hot table, cold table after the cycle's write)
    run_start, run_addr, run_answered = None, None, False   # the read being issued (None: the first, not timed)
    waits = {}        # wait -> reads answered after it
    cases = {"checked": 0, "held": 0, "used": 0}
    run_left, rd, prev_out = 0, None, None
    for cycle in range(6000):
        if run_left == 0:                            # a new read, held for a random run
            rd = rng.choice(busy) if rng.random() < 0.5 else rng.randrange(depth)
            run_left = rng.choice([1, 2, 3, read_wait + 1, read_wait + 2, read_wait + 5])
        run_left -= 1
        hold = rng.random() < 0.2
        wr = None
        if rng.random() < 0.6:
            wr = (rng.choice(busy) if rng.random() < 0.8 else rng.randrange(depth),
                  rng.getrandbits(hot_w), rng.random() < 0.5, rng.getrandbits(cold_w))
        # the reader uses the answer when it may: answered and unheld in the cycle before
        use = len(last) == 2 and last[-1][2] and not last[-1][1] and rng.random() < 0.7
        dut.rd_use.value = int(use)
        if use:
            dut.rd_use_addr.value = last[-2][0]
            cases["used"] += 1
        pf = rng.random() < 0.1
        dut.pf_valid.value = int(pf)
        if pf:
            dut.pf_session.value = rng.choice(busy) if rng.random() < 0.5 else rng.randrange(depth)
        dut.rd_addr.value = rd
        dut.hold.value = int(hold)
        dut.wr_en.value = int(wr is not None)
        if wr is not None:
            dut.wr_addr.value, dut.wr_hot.value, dut.wr_cold.value, dut.wr_cold_data.value = \
                wr[0], wr[1], int(wr[2]), wr[3]
        await ReadOnly()
        answered = bool(dut.rd_answered.value)
        out = (int(dut.rd_hot.value), int(dut.rd_cold.value))
        # the data: held in the cycle before, as it was; answered in the cycle before, the read
        # of two cycles before with every write up to the cycle before
        if len(last) == 2:
            if last[-1][1]:
                assert out == prev_out, f"cycle {cycle}: output moved under hold"
                cases["held"] += 1
            elif last[-1][2]:
                addr = last[-2][0]
                assert out[0] == last[-1][3][addr], f"cycle {cycle}: record {addr}'s hot part is not the last written"
                assert out[1] == last[-1][4][addr], f"cycle {cycle}: record {addr}'s cold part is not the last written"
                cases["checked"] += 1
        prev_out = out
        # the wait: answered in this cycle, the read of the cycle before comes in the next
        if run_start is not None:
            w = cycle - 1 - run_start                # cycles the read was issued before the last
            if run_answered:
                assert answered, f"cycle {cycle}: a read still held lost its answer"
            elif answered:
                assert w <= read_wait, f"cycle {cycle}: a read waited {w} cycles, READ_WAIT is {read_wait}"
                waits[w] = waits.get(w, 0) + 1
                run_answered = True
            else:
                assert w < read_wait, f"cycle {cycle}: a read held {w + 1} cycles is not answered (READ_WAIT {read_wait})"
        if rd != run_addr:                           # this cycle issues a new read
            run_start = cycle if run_addr is not None else None
            run_addr, run_answered = rd, False
        if wr is not None:
            hot[wr[0]] = wr[1]
            if wr[2]:
                cold[wr[0]] = wr[3]
        last = (last + [(rd, hold, answered, list(hot), list(cold))])[-2:]
        await FallingEdge(dut.clk)
    dut._log.info("waits %s, cases %s", dict(sorted(waits.items())), cases)
    assert set(waits) == set(range(read_wait + 1)), f"waits seen {sorted(waits)}, every 0..{read_wait} expected"
    assert cases["checked"] > 500 and cases["used"] > 300 and cases["held"] > 300, cases
    if read_wait == 0:
        return

    # fetched ahead: LINES - 2 records, each fetched once, given READ_WAIT cycles; then each
    # read for one cycle: answered in that cycle (the record comes in the next)
    lines = int(dut.LINES.value)
    dut.pf_valid.value = 0
    dut.rd_use.value = 0
    dut.wr_en.value = 0
    dut.hold.value = 0
    ahead = rng.sample(range(depth), min(depth - 1, lines - 2))
    parked = [a for a in range(depth) if a not in ahead][0]   # read meanwhile
    dut.rd_addr.value = parked
    for a in ahead:
        await FallingEdge(dut.clk)
        dut.pf_valid.value, dut.pf_session.value = 1, a
    await FallingEdge(dut.clk)
    dut.pf_valid.value = 0
    for _ in range(read_wait + 1):
        await FallingEdge(dut.clk)
    for a in ahead:
        dut.rd_addr.value = a
        await FallingEdge(dut.clk)
        await ReadOnly()
        assert dut.rd_answered.value, f"record {a}, fetched ahead {read_wait + 1} cycles before, waits at its read"
        await FallingEdge(dut.clk)
    dut._log.info("%d records fetched ahead, each answered at its read", len(ahead))


@pytest.mark.parametrize("read_wait", [0, 5])
def test_toe_tcp_state_store(read_wait):
    runner.run("toe_tcp_state_store", "test_toe_tcp_state_store", {"MAX_SESSIONS": 16, "READ_WAIT": read_wait, "LINES": 6},
               Path(__file__).parent)
