"""toe_csr (the peakrdl-regblock block generated from rtl/top/toe_regs.rdl, and its wrapper)
against the register map read from the same source (opentoe.regs): reset values, the
bits each register keeps, byte strobes, the cfg_* outputs, counters (one per stat_inc
bit, independent, write-to-clear), the gauges, unmapped addresses, and the ip_written
pulse."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from axil import AxilMaster
from opentoe.regs import REGISTERS
from tbutil import TB

CONFIG = [r for r in REGISTERS.values() if r.kind == "config"]
COUNTERS = sorted((r for r in REGISTERS.values() if r.kind == "counter"), key=lambda r: r.address)


async def start(dut):
    tb = TB(dut)
    dut.stat_inc.value = 0
    dut.status_tcp_curr_estab.value = 0
    dut.status_tcp_sessions_in_use.value = 0
    dut.status_tcp_ready.value = 0
    await tb.reset()
    return tb, AxilMaster(tb)


@cocotb.test()
async def reset_values_and_writable_bits_follow_the_map(dut):
    tb, axil = await start(dut)
    for r in REGISTERS.values():
        assert await axil.read(r.address) == r.reset, f"{r.name} after reset"
    rng = random.Random(4)
    for r in CONFIG:
        v = rng.getrandbits(32)
        await axil.write(r.address, v)
        assert await axil.read(r.address) == v & r.writable, r.name
        await axil.write(r.address, 0xFFFFFFFF)
        assert await axil.read(r.address) == r.writable, r.name
    # read-only registers ignore writes
    await axil.write(REGISTERS["ID"].address, 0)
    assert await axil.read(REGISTERS["ID"].address) == REGISTERS["ID"].reset
    dut.status_tcp_curr_estab.value = 0x1234
    dut.status_tcp_sessions_in_use.value = 0xABCDE
    await axil.write(REGISTERS["TCP_CURR_ESTAB"].address, 0)
    assert await axil.read(REGISTERS["TCP_CURR_ESTAB"].address) == 0x1234
    assert await axil.read(REGISTERS["TCP_SESSIONS_IN_USE"].address) == 0xABCDE
    dut.status_tcp_ready.value = 1
    await axil.write(REGISTERS["STATUS"].address, 0)
    assert await axil.read(REGISTERS["STATUS"].address) == 1
    dut.status_tcp_ready.value = 0
    assert await axil.read(REGISTERS["STATUS"].address) == 0


@cocotb.test()
async def byte_strobes_and_outputs(dut):
    tb, axil = await start(dut)
    a = REGISTERS["IPV4_NETMASK"].address
    await axil.write(a, 0x11223344)
    await axil.write(a, 0xAABBCCDD, strb=0b0101)
    assert await axil.read(a) == 0x11BB33DD
    await axil.write(REGISTERS["MAC_LO"].address, 0x33445566)
    await axil.write(REGISTERS["MAC_HI"].address, 0xFFFF1122)
    for i, k in enumerate(("TCP_ISN_KEY0", "TCP_ISN_KEY1", "TCP_ISN_KEY2", "TCP_ISN_KEY3")):
        await axil.write(REGISTERS[k].address, 0x01010101 * (i + 1))
    await axil.write(REGISTERS["MEM_BASE_LO"].address, 0x89ABCDEF)
    await axil.write(REGISTERS["MEM_BASE_HI"].address, 0x76543210)
    await axil.write(REGISTERS["CTRL"].address, 0b10110)
    await ReadOnly()
    assert int(dut.cfg_mac.value) == 0x112233445566
    assert int(dut.cfg_netmask.value) == 0x11BB33DD
    assert int(dut.cfg_tcp_isn_key.value) == 0x04040404_03030303_02020202_01010101
    assert int(dut.cfg_mem_base.value) == 0x3210_89ABC000     # 4 KB aligned, 48 bits
    got = [int(getattr(dut, f"cfg_{n}").value) for n in
           ("icmp_echo", "drop_synfin", "rfc5961_rst", "rfc5961_syn", "nagle")]
    assert got == [0, 1, 1, 0, 1]


@cocotb.test()
async def counters_count_their_own_events_and_clear_on_write(dut):
    tb, axil = await start(dut)
    n = len(COUNTERS)
    assert len(dut.stat_inc) == n
    rng = random.Random(7)
    expect = [0] * n
    for _ in range(300):                   # random subsets of events, up to all at once
        await FallingEdge(tb.clk)
        bits = rng.getrandbits(n) if rng.random() < 0.8 else (1 << n) - 1
        dut.stat_inc.value = bits
        for i in range(n):
            expect[i] += bits >> i & 1
    await FallingEdge(tb.clk)
    dut.stat_inc.value = 0
    for i, r in enumerate(COUNTERS):
        assert await axil.read(r.address) == expect[i], r.name
    # a write of any value clears that counter and no other
    victim = COUNTERS[5]
    await axil.write(victim.address, 0xDEADBEEF)
    assert await axil.read(victim.address) == 0
    assert await axil.read(COUNTERS[4].address) == expect[4]
    assert await axil.read(COUNTERS[6].address) == expect[6]
    # counting goes on after the clear
    dut.stat_inc.value = 1 << 5
    await FallingEdge(tb.clk)
    dut.stat_inc.value = 0
    assert await axil.read(victim.address) == 1


@cocotb.test()
async def unmapped_addresses_read_zero_and_change_nothing(dut):
    tb, axil = await start(dut)
    mapped = {r.address for r in REGISTERS.values()}
    # every unmapped word of the 4 KB space (12-bit AXI4-Lite address), taken from the map
    # itself (a register added later cannot break the test): the first and last ones and
    # six spread between them
    unmapped = [a for a in range(0, 0x1000, 4) if a not in mapped]
    holes = [unmapped[i * (len(unmapped) - 1) // 7] for i in range(8)]
    assert unmapped[0] < max(mapped) and holes[-1] == 0xFFC and len(set(holes)) == 8
    before = {r.name: await axil.read(r.address) for r in REGISTERS.values()}
    for a in holes:
        await axil.write(a, 0xFFFFFFFF)
        assert await axil.read(a) == 0, hex(a)
    after = {r.name: await axil.read(r.address) for r in REGISTERS.values()}
    assert after == before


@cocotb.test()
async def ip_written_pulses_once_with_the_new_address(dut):
    tb, axil = await start(dut)
    pulses = []

    async def watch():
        while True:
            await FallingEdge(tb.clk)
            await ReadOnly()
            if int(dut.ip_written.value):
                pulses.append(int(dut.cfg_ip.value))

    cocotb.start_soon(watch())
    await axil.write(REGISTERS["IPV4_NETMASK"].address, 0xFFFF0000)
    await axil.write(REGISTERS["IPV4_ADDR"].address, 0xC0000201)
    await tb.cycles(5)
    assert pulses == [0xC0000201]
    await axil.write(REGISTERS["IPV4_ADDR"].address, 0xC0000202)
    await tb.cycles(5)
    assert pulses == [0xC0000201, 0xC0000202]


@pytest.mark.parametrize("dummy", [0])
def test_toe_csr(dummy):
    runner.run("toe_csr", "test_toe_csr", {}, Path(__file__).parent)
