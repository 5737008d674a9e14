"""TCP scenarios against toe_sim_top (engine + behavioural DRAM + echo/discard apps) with a
scapy peer: handshakes, data both ways, closes, timeouts, and hostile segments."""
from pathlib import Path

import cocotb
import pytest
from scapy.all import TCP

import runner
from tcp_peer import TcpPeer

ROOT = Path(__file__).resolve().parents[2]


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def echo_small(dut):
    t = TcpPeer(dut)
    await t.start()
    c = t.conn(dport=7)
    await c.open(options=[("MSS", 1460), ("SAckOK", b""), ("Timestamp", (1, 0)), ("NOP", None),
                          ("WScale", 10)])
    await c.send("PA", b"hello world")
    got = await c.recv_data(11)
    assert got == b"hello world"
    assert await t.status("TCP_CURR_ESTAB") == 1


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_tcp(data_w):
    runner.run("toe_sim_top", "test_toe_tcp", {"DATA_W": data_w, "MAX_SESSIONS": 1024},
               Path(__file__).parent,
               extra_sources=[ROOT / "sim/toe_sim_axi_mem.sv", ROOT / "sim/toe_sim_top.sv"],
               ports_only=True)
