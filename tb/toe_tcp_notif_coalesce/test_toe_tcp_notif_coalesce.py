"""toe_tcp_notif_coalesce: the core's notifications go in at the core's pace while the
application stops taking them for long stretches. The input, offered every cycle, must never wait
more than one cycle (for a pop of the application's); per session the application must see each connection's life in order (NEW,
DATA summing to exactly what went in, PEER_FIN, one final notification; TX_SPACE anywhere
between NEW and the final one, coalesced: never more than went in, and the last one with
the last free space that went in), and m_told must name a session only after its final
notification was taken.
Only a connection's first notification carries its tuple (NEW, or FAILED of one that was
never established), as the core and RX delivery give them; the application must get the
tuple with every notification of the connection."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import runner
from tcp_notif import CLOSED, DATA, FAILED, NEW, PEER_FIN, RESET, TX_SPACE, pack_notif, unpack_notif
from tbutil import TB

SESSIONS = 16


def life(rng, sid):
    """One connection's notifications as the core and RX delivery give them, and its tuple."""
    tup = (rng.getrandbits(32), rng.randrange(1, 65536), rng.randrange(1, 65536))
    if rng.random() < 0.15:                  # an active open that failed: its only notification
        return [(FAILED, 0, sid, tup)], tup
    out = [(NEW, 0, sid, tup)]
    # at most a ring (64 KiB) of data in a life, as the core guarantees for what it has
    # not yet told; now and then exactly 64 KiB, which is told in two pieces; and now and
    # then the contract's most, 128 KiB - 1 (three pieces when untold at once)
    left = 0x1FFFF if rng.random() < 0.1 else 65536
    for _ in range(rng.randrange(0, 60)):
        n = min(left, rng.randrange(1, 3000))
        if n:
            out.append((DATA, n, sid, None))
            left -= n
    if rng.random() < 0.2 and left:          # the rest, in notifications of at most 65535
        while left:
            out.append((DATA, min(left, 0xFFFF), sid, None))
            left -= min(left, 0xFFFF)
    if rng.random() < 0.7:
        out.append((PEER_FIN, 0, sid, None))
    # TX ring space freed after a refused send: between NEW and the end (also after the
    # peer's FIN, as the core's CLOSE-WAIT gives it)
    for _ in range(rng.choice([0, 0, 1, 3, 12])):
        out.insert(rng.randrange(1, len(out) + 1), (TX_SPACE, rng.randrange(1, 65536), sid, None))
    out.append((rng.choice([CLOSED, RESET]), 0, sid, None))
    return out, tup


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def slow_application(dut):
    tb = TB(dut)
    rng = random.Random(5)
    dut.s_valid.value = 0
    dut.m_ready.value = 0
    dut.m_told_ready.value = 1
    await tb.reset()
    for _ in range(SESSIONS + 4):           # the records are cleared after reset
        await RisingEdge(tb.clk)

    told = set(range(SESSIONS))             # sessions free to start a connection
    expect = {}                             # session -> [data sum, saw NEW, FIN, final]
    given = {s: [] for s in range(SESSIONS)}
    got = {s: [] for s in range(SESSIONS)}
    pending = []                            # what the "core" still has to give
    # the rest of a life held back after its DATA (the core has nothing more to tell for a
    # while): [cycle due, the DATA part still in pending, the rest]. The application may
    # then find exactly 64 KiB and nothing after it, the last piece's own case.
    deferred = []
    lives = 0
    stall_until = 0
    cycle = 0
    worst_wait = wait = 0
    done_finals = 0
    split = 0

    async def consumer_state():
        nonlocal stall_until
        if cycle >= stall_until and rng.random() < 0.01:
            stall_until = cycle + rng.randrange(500, 3000)   # the app stops taking notifications
        dut.m_ready.value = int(cycle >= stall_until and rng.random() < 0.7)

    cur = None
    while lives < 60 or pending or deferred or cur is not None or len(told) < SESSIONS:
        # the core: a new connection on a told session now and then
        if lives < 60 and told and rng.random() < 0.02:
            sid = rng.choice(sorted(told))
            told.discard(sid)
            lives += 1
            items, tup = life(rng, sid)
            given[sid].append((list(items), tup))
            last_data = max((i for i, it in enumerate(items) if it[0] == DATA), default=None)
            if last_data is not None and rng.random() < 0.3:
                first, rest = items[:last_data + 1], items[last_data + 1:]
                pending.append(first)
                deferred.append([cycle + rng.randrange(2000, 6000), first, rest])
            else:
                pending.append(items)
        for d in list(deferred):             # the rest of a life once its DATA part is given
            due, first, rest = d
            if cycle >= due and not any(lst is first for lst in pending):
                deferred.remove(d)
                pending.append(rest)
        if cur is None and pending:          # back to back: one notification per cycle
            lst = rng.choice(pending)
            kind, length, sid, tup = lst.pop(0)
            if not lst:
                pending.remove(lst)
            cur = pack_notif(sid, kind, length, *(tup or (0, 0, 0)))
        dut.s_valid.value = int(cur is not None)
        dut.s_notif.value = cur or 0
        await consumer_state()
        await FallingEdge(tb.clk)
        await ReadOnly()
        if cur is not None:
            if dut.s_ready.value:
                cur = None
                wait = 0
            else:
                wait += 1
                worst_wait = max(worst_wait, wait)
        if dut.m_valid.value and dut.m_ready.value:
            sid, kind, length, tup = unpack_notif(int(dut.m_notif.value))
            got[sid].append((kind, length, tuple(tup)))
            split += kind == DATA and length == 0xFFFF
            if kind in (CLOSED, RESET, FAILED):
                done_finals += 1
        if dut.m_told_valid.value:
            sid = int(dut.m_told_session.value)
            assert got[sid] and got[sid][-1][0] in (CLOSED, RESET, FAILED), f"told {sid} before its final"
            told.add(sid)
        await RisingEdge(tb.clk)
        cycle += 1
        assert cycle < 2_000_000, "did not drain"

    # one operation per cycle, inputs and pops in turn: an input waits for at most one pop
    assert worst_wait <= 1, f"an input waited {worst_wait} cycles (one pop at most)"
    failed = spaces_told = coalesced = 0
    for sid in range(SESSIONS):
        seq = got[sid]
        for items, tup in given[sid]:
            n = 1 if items[0][0] == FAILED else next(i for i, g in enumerate(seq) if g[0] in (CLOSED, RESET)) + 1
            for kind, length, t in seq[:n]:
                assert t == tup, f"session {sid}: {kind} carries {t}, want the connection's {tup}"
            seq = [(k, l) for k, l, _ in seq[:n]] + seq[n:]
            # TX_SPACE: coalesced, so at most as many as went in, at least one if any did,
            # and the last told is the last that went in; then the rest in life order
            spaces_in = [l for k, l, *_ in items if k == TX_SPACE]
            spaces_out = [l for k, l in seq[:n] if k == TX_SPACE]
            assert len(spaces_out) <= len(spaces_in) and bool(spaces_out) == bool(spaces_in), \
                f"session {sid}: TX_SPACE {spaces_out}, went in {spaces_in}"
            assert not spaces_in or spaces_out[-1] == spaces_in[-1], \
                f"session {sid}: last TX_SPACE {spaces_out[-1]}, want {spaces_in[-1]}"
            spaces_told += len(spaces_out)
            coalesced += len(spaces_in) - len(spaces_out)
            seq = [g for g in seq[:n] if g[0] != TX_SPACE] + seq[n:]
            items = [it for it in items if it[0] != TX_SPACE]
            if items[0][0] == FAILED:
                assert seq[0] == (FAILED, 0), f"session {sid}: {seq[:3]}"
                seq = seq[1:]
                failed += 1
                continue
            want_data = sum(l for k, l, *_ in items if k == DATA)
            assert seq[0] == (NEW, 0), f"session {sid}: {seq[:3]}"
            i, data = 1, 0
            while i < len(seq) and seq[i][0] == DATA:
                assert 0 < seq[i][1] <= 0xFFFF
                data += seq[i][1]
                i += 1
            assert data == want_data, f"session {sid}: DATA {data}, want {want_data}"
            if any(k == PEER_FIN for k, *_ in items):
                assert seq[i] == (PEER_FIN, 0)
                i += 1
            assert seq[i][0] == items[-1][0], f"session {sid}: final {seq[i]}, want {items[-1]}"
            seq = seq[i + 1:]
        assert not seq, f"session {sid}: extra {seq}"
    assert done_finals == lives == 60
    assert failed, "no life without NEW"
    assert split, "no 64 KiB life was told in two pieces"
    assert spaces_told and coalesced, f"TX_SPACE told {spaces_told}, coalesced {coalesced}: not both seen"


@pytest.mark.parametrize("sessions", [SESSIONS])
def test_toe_tcp_notif_coalesce(sessions):
    runner.run("toe_tcp_notif_coalesce", "test_toe_tcp_notif_coalesce", {"MAX_SESSIONS": sessions},
               Path(__file__).parent)
