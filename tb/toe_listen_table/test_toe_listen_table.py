"""toe_listen_table against a set of ports: random opens and closes of ports from a small
pool (so that ports are opened twice, closed when not listened, and the table fills and
refuses), answers under random back-pressure, in order, each with its port and the verdict
of the set; and query_hit for every port of the pool after every answer."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def opens_and_closes_follow_a_set(dut):
    entries = int(dut.ENTRIES.value)
    tb = TB(dut)
    rng = random.Random(5)
    pool = [rng.randrange(1, 65536) for _ in range(entries + 4)] + [0, 65535]
    dut.listen_req_valid.value = 0
    dut.listen_rsp_ready.value = 0
    dut.query_port.value = 0
    await tb.reset()
    listened = set()
    answers = {True: 0, False: 0}
    for n in range(600):
        port = rng.choice(pool)
        opening = rng.random() < (0.7 if n < 300 else 0.4)    # fill the table, then empty it
        await tb.push("listen_req", (port << 1) | int(opening))
        for _ in range(rng.choice([0, 0, 1, 3])):                # the answer waits for its reader
            await FallingEdge(dut.clk)
        rsp = await tb.pop("listen_rsp")
        if opening:
            want = port in listened or len(listened) < entries
            if want:
                listened.add(port)
        else:
            want = port in listened
            listened.discard(port)
        assert rsp >> 1 == port, f"answer for port {rsp >> 1}, asked {port}"
        assert rsp & 1 == int(want), f"{'open' if opening else 'close'} {port}: ok {rsp & 1}, want {int(want)}"
        answers[want] += 1
        for q in pool:
            dut.query_port.value = q
            await ReadOnly()
            assert int(dut.query_hit.value) == (q in listened), f"query {q}: hit {dut.query_hit.value}"
            await FallingEdge(dut.clk)
    assert answers[True] > 100 and answers[False] > 100, answers
    dut._log.info("answers: %d ok, %d refused", answers[True], answers[False])


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def back_to_back_requests_wait_their_turn(dut):
    """A request held valid the whole time (an application that never lets go) is taken
    once per answer: no answer is lost or doubled while the reader is slow."""
    entries = int(dut.ENTRIES.value)
    tb = TB(dut)
    rng = random.Random(6)
    dut.listen_req_valid.value = 0
    dut.listen_rsp_ready.value = 0
    await tb.reset()
    ports = [1000 + i for i in range(entries + 2)]
    taken, got = [], []
    await FallingEdge(dut.clk)
    i = 0
    while len(got) < len(ports):
        if i < len(ports):
            dut.listen_req.value = (ports[i] << 1) | 1
            dut.listen_req_valid.value = 1
        else:
            dut.listen_req_valid.value = 0
        dut.listen_rsp_ready.value = int(rng.random() < 0.3)
        await ReadOnly()
        if int(dut.listen_req_valid.value) and int(dut.listen_req_ready.value):
            taken.append(ports[i])
            i += 1
        if int(dut.listen_rsp_valid.value) and int(dut.listen_rsp_ready.value):
            got.append(int(dut.listen_rsp.value))
        await FallingEdge(dut.clk)
    assert taken == ports
    assert [r >> 1 for r in got] == ports
    assert [r & 1 for r in got] == [1] * entries + [0, 0], got


@pytest.mark.parametrize("entries", [1, 8])
def test_toe_listen_table(entries):
    runner.run("toe_listen_table", "test_toe_listen_table", {"ENTRIES": entries}, Path(__file__).parent)
