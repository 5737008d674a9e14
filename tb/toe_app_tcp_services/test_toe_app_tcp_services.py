"""toe_app_tcp_services (the example TCP apps) against a scripted engine, from its contract:
- it listens on the echo, discard and source ports;
- a connection to the source port gets a sender slot, which asks to send CHUNK-byte
  pieces of the pattern, one request at a time;
- a sender request is made only while fewer than TX_AHEAD accepted requests wait for their
  data: with the tx_data port held, exactly TX_AHEAD are made;
- notifications are taken meanwhile, and a DATA notification of the discard port becomes a
  read request of its length (reads are pipelined: several before any rx_meta);
- once the tx_data port moves, every accepted request is one frame of exactly its length,
  in request order, the pattern running on across frames, and requests go on, never more
  than TX_AHEAD ahead of their data."""
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly

import runner
from tbutil import TB
from tcp_notif import DATA, NEW, pack_notif

ECHO, DISCARD, SOURCE = 7, 5001, 19
CHUNK, TX_AHEAD = 2008, 4
SRC_SID, DISC_SID = 5, 9
ACCEPTED = 0


def pattern(offset, n):
    """toe_app_pattern: byte k of a connection's stream is k mod 251."""
    return bytes((offset + i) % 251 for i in range(n))


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def sender_requests_do_not_hold_reads(dut):
    tb = TB(dut)
    for name in ("listen_req_ready", "listen_rsp_valid", "open_req_ready", "open_rsp_valid", "notif_valid",
                 "close_req_ready", "rd_req_ready", "rx_meta_valid", "s_rx_axis_tvalid", "tx_req_ready",
                 "tx_rsp_valid", "m_tx_axis_tready", "client_start"):
        getattr(dut, name).value = 0
    await tb.reset()

    listened, notifs, rd_reqs, tx_reqs = [], [], [], []
    frames, beats = [], bytearray()
    rsp_due = []               # requests to answer (ACCEPTED), in order
    ahead_max = 0
    state = {"tready": 0, "listen": None}
    cycle = 0

    async def step():
        """One cycle: drive after the falling edge, sample the handshakes in ReadOnly."""
        nonlocal cycle, ahead_max
        await FallingEdge(tb.clk)
        cycle += 1
        # the engine: takes listen requests and answers each the cycle after
        dut.listen_req_ready.value = 1
        dut.listen_rsp_valid.value = state["listen"] is not None
        dut.listen_rsp.value = ((state["listen"] or 0) << 1) | 1
        dut.tx_req_ready.value = 1
        dut.tx_rsp_valid.value = bool(rsp_due)
        if rsp_due:
            dut.tx_rsp.value = (rsp_due[0][0] << 19) | (ACCEPTED << 17) | 0x8000
        dut.rd_req_ready.value = 1
        dut.m_tx_axis_tready.value = state["tready"]
        dut.notif_valid.value = bool(notifs)
        if notifs:
            dut.notif.value = notifs[0]
        await ReadOnly()
        if dut.listen_rsp_valid.value and dut.listen_rsp_ready.value:
            state["listen"] = None
        if dut.listen_req_valid.value and dut.listen_req_ready.value:
            listened.append(int(dut.listen_req.value) >> 1)
            state["listen"] = listened[-1]
        if dut.notif_valid.value and dut.notif_ready.value:
            notifs.pop(0)
        if dut.rd_req_valid.value and dut.rd_req_ready.value:
            v = int(dut.rd_req.value)
            rd_reqs.append((v >> 16, v & 0xFFFF))
        if dut.tx_rsp_valid.value and dut.tx_rsp_ready.value:
            rsp_due.pop(0)
        if dut.tx_req_valid.value and dut.tx_req_ready.value:
            v = int(dut.tx_req.value)
            tx_reqs.append((v >> 16, v & 0xFFFF))
            rsp_due.append(tx_reqs[-1])
        if dut.m_tx_axis_tvalid.value and dut.m_tx_axis_tready.value:
            keep, data = int(dut.m_tx_axis_tkeep.value), int(dut.m_tx_axis_tdata.value)
            beats.extend((data >> (8 * i)) & 0xFF for i in range(len(dut.m_tx_axis_tkeep)) if keep >> i & 1)
            if dut.m_tx_axis_tlast.value:
                frames.append(bytes(beats))
                beats.clear()
        answered = len(tx_reqs) - len(rsp_due)
        ahead_max = max(ahead_max, answered - len(frames))

    while not dut.listening.value:
        await step()
        assert cycle < 100, f"not listening after 100 cycles: {listened}"
    assert sorted(listened) == sorted([ECHO, DISCARD, SOURCE]), listened

    # a connection to the source port; the tx_data port held: exactly TX_AHEAD requests
    notifs.append(pack_notif(SRC_SID, NEW, 0, 0xC0000201, 40000, SOURCE))
    for _ in range(300):
        await step()
    assert tx_reqs == [(SRC_SID, CHUNK)] * TX_AHEAD, tx_reqs
    # notifications still go through, and become pipelined reads of their length
    for n in (100, 1460, 7):
        notifs.append(pack_notif(DISC_SID, DATA, n, 0xC0000201, 40001, DISCARD))
    for _ in range(300):
        await step()
    assert not notifs, "notifications not taken while sender requests waited for their data"
    assert rd_reqs == [(DISC_SID, 100), (DISC_SID, 1460), (DISC_SID, 7)], rd_reqs
    assert tx_reqs == [(SRC_SID, CHUNK)] * TX_AHEAD, tx_reqs

    # the tx_data port moves: whole frames of the pattern, and requests go on behind them
    state["tready"] = 1
    while len(frames) < 3 * TX_AHEAD:
        await step()
        assert cycle < 20000, f"{len(frames)} frames after 20000 cycles"
    assert len(tx_reqs) > 3 * TX_AHEAD
    for k, f in enumerate(frames):
        assert f == pattern(k * CHUNK, CHUNK), f"frame {k}: {len(f)} bytes, not the pattern's next {CHUNK}"
    assert ahead_max == TX_AHEAD, f"{ahead_max} accepted requests waited for their data at once"


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_app_tcp_services(data_w):
    runner.run("toe_app_tcp_services", "test_toe_app_tcp_services",
               {"DATA_W": data_w, "SENDERS": 4, "CHUNK": CHUNK, "TX_AHEAD": TX_AHEAD}, Path(__file__).parent)
