"""toe_tcp_isn against the Python reference (opentoe.isn, checked against the SipHash
paper's vectors): random keys and tuples, the key's byte order, the answer latency, and M
across the wrap of the 32-bit microsecond clock (RFC 6528: M wraps modulo 2^32, it never
jumps back)."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import RisingEdge, ReadOnly

import runner
from opentoe.isn import isn_hash, siphash24
from tbutil import TB


async def ask(dut, key, lip, lport, rip, rport, tag=0):
    """One request; returns (isn, cycles from the request to rsp_valid). The tuple, the tag
    and the key change while the hash runs: the unit samples them in the request's cycle
    only, and answers with the request's tag."""
    dut.key.value = int.from_bytes(key, "little")
    dut.req_tag.value = tag
    dut.local_ip.value, dut.local_port.value = lip, lport
    dut.remote_ip.value, dut.remote_port.value = rip, rport
    dut.req_valid.value = 1
    await RisingEdge(dut.clk)           # the request is taken here
    dut.req_valid.value = 0
    cycles = 0
    scramble = random.Random(lip ^ rport)
    while True:
        dut.key.value = scramble.getrandbits(128)
        dut.local_ip.value, dut.remote_ip.value = scramble.getrandbits(32), scramble.getrandbits(32)
        dut.local_port.value, dut.remote_port.value = scramble.getrandbits(16), scramble.getrandbits(16)
        dut.req_tag.value = scramble.getrandbits(1)
        await ReadOnly()
        if cycles == 0:
            assert int(dut.req_ready.value) == 0, "request not taken"
        if int(dut.rsp_valid.value):
            got = int(dut.isn.value)
            assert int(dut.rsp_tag.value) == tag, "answer with another request's tag"
            await RisingEdge(dut.clk)
            return got, cycles
        await RisingEdge(dut.clk)
        cycles += 1
        assert cycles < 50, "no answer"


async def start(dut):
    dut.req_valid.value = 0
    dut.req_tag.value = 0
    dut.now_us.value = 0
    await TB(dut).reset()


@cocotb.test()
async def hash_matches_reference(dut):
    await start(dut)
    # the paper's key: bytes 00..0f; tuple bytes 00..0b -> SipHash vector 12 (fbe50e86bc8f1e75)
    key = bytes(range(16))
    assert siphash24(key, bytes(range(12))) == 0x751E8FBC860EE5FB
    got, cycles = await ask(dut, key, 0x00010203, 0x0809, 0x04050607, 0x0A0B)
    assert got == 0x860EE5FB, hex(got)
    assert cycles == 16 // int(dut.HALF_ROUNDS.value) + 1, cycles
    rng = random.Random(6528)
    t_us = 0                              # the clock moves forward (and wraps) between requests
    for _ in range(200):
        key = rng.randbytes(16)
        t = (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(32), rng.getrandbits(16))
        t_us += rng.getrandbits(30)
        dut.now_us.value = t_us % 2**32
        await RisingEdge(dut.clk)
        got, _ = await ask(dut, key, *t, tag=rng.getrandbits(1))
        assert got == ((t_us >> 2) + isn_hash(key, *t)) & 0xFFFFFFFF, (key.hex(), t, t_us)


@cocotb.test()
async def m_wraps_modulo_2_32(dut):
    await start(dut)
    key, t = bytes(16), (0xC0000202, 7, 0xC0000201, 40000)
    f = isn_hash(key, *t)
    # 2^34 us later M has wrapped once; in between it only moves forward (mod 2^32)
    last = None
    for wraps in range(5):
        for now in (0xFFFFFFF0, 0x00000010):
            dut.now_us.value = now
            await RisingEdge(dut.clk)
            await RisingEdge(dut.clk)
            got, _ = await ask(dut, key, *t)
            t_us = (wraps + (1 if now == 0x10 else 0)) * 2**32 + now
            assert got == ((t_us >> 2) + f) & 0xFFFFFFFF, (wraps, hex(now), hex(got))
            if last is not None:
                assert 0 < (got - last) % 2**32 < 2**31, "ISN clock went back"
            last = got


@pytest.mark.parametrize("half_rounds", [1, 2])
def test_toe_tcp_isn(half_rounds):
    runner.run("toe_tcp_isn", "test_toe_tcp_isn", {"HALF_ROUNDS": half_rounds}, Path(__file__).parent)
