"""toe_tcp_fast_path against a reference written from the RFC text and the module's contract
(which events are fast), not from the RTL.

Which events are fast is the design's choice, stated in the module's header: an in-order
segment of an ESTABLISHED session that needs no rule but the ACK, the window update, the
payload and the delayed ACK, and an app read of an ESTABLISHED session. What a fast event
does to the record is the RFC's:
  - (an ACK below SND.UNA is not fast: RFC 5961 5.2's check of it is the slow path's)
  - RFC 9293 3.10.7.4, ACK: SND.UNA < SEG.ACK =< SND.NXT (the highest sent, SND.MAX here)
    moves SND.UNA (and SND.NXT along, after going back N); "If SND.UNA =< SEG.ACK =<
    SND.NXT, the send window should be updated. If (SND.WL1 < SEG.SEQ or (SND.WL1 =
    SEG.SEQ and SND.WL2 =< SEG.ACK))": SND.WND, SND.WL1, SND.WL2 (and the largest window
    offered, RFC 1122 4.2.3.4's Max(SND.WND));
  - RFC 6298 5.2/5.3: all data acknowledged stops the retransmission timer; an ACK of new
    data restarts it at now + RTO; Karn's sample (an ACK past the timed segment) is the
    slow path's;
  - RFC 9293 3.10.7.4, text: in-order payload moves RCV.NXT over it; RFC 1122 4.2.3.2 /
    RFC 5681 4.2: delayed ACK, an ACK at least for every second full-sized segment (here:
    a short segment is ACKed at once);
  - an ACK with nothing in flight answers a probe: the retry count starts over (RFC 1122
    4.2.2.17, 4.2.3.6).
Every other field is kept, the cold part is not carried, and the verdict and result come
from the record read, not from the other two candidates of the read (decoys)."""
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

import runner
from seqspace import M, le, lt, wrap

N_VECTORS = 4000
ESTABLISHED, N_STATES = 3, 11
F_FIN, F_SYN, F_RST, F_PSH, F_ACK = 1, 2, 4, 8, 16
HOT = [("state", 4), ("snd_una", 32), ("snd_nxt", 32), ("snd_max", 32), ("snd_wl1", 32), ("snd_wl2", 32),
       ("snd_wnd", 16), ("max_sndwnd", 16), ("tx_done", 32), ("rcv_nxt", 32), ("rcv_adv", 32), ("mss", 16),
       ("rto", 32), ("rtt_on", 1), ("rtt_seq", 32), ("retries", 4), ("tmr_on", 1), ("tmr_at", 32),
       ("dack_on", 1), ("dack_at", 32), ("dack_one", 1), ("dack_defers", 3), ("fin_rcvd", 1),
       ("fin_sent", 1), ("close_req", 1), ("in_sendq", 1), ("ended", 1), ("end_told", 1), ("orderly", 1),
       ("ooo0_on", 1), ("ooo0_lo", 32)]


def reference(ev, r, seg, now, delack):
    """(fast, the record after it, ACK now, ACK of a second full-sized segment)."""
    n = dict(r)
    if ev["kind"] == "wake":
        return ev["wake_may"] and r["state"] == ESTABLISHED, n, ev["rd_wake_ack"], False
    ack, seq, length = seg["ack"], seg["seq"], seg["length"]
    end = wrap(seq + length)
    ack_new = lt(r["snd_una"], ack) and le(ack, r["snd_max"])
    nxt_after = ack if ack_new and lt(r["snd_nxt"], ack) else r["snd_nxt"]
    waits_after = lt(nxt_after, r["tx_done"]) or (r["close_req"] and not r["fin_sent"])
    fits = not r["ooo0_on"] and le(end, r["rcv_adv"])
    karn_sample = ack_new and r["rtt_on"] and lt(r["rtt_seq"], ack)
    fast = (ev["seg_may"] and ev["found"] and ev["tx_want"] == 0 and r["state"] == ESTABLISHED
            and le(r["snd_una"], ack) and le(ack, r["snd_max"]) and seq == r["rcv_nxt"] and (length == 0 or fits)
            and not karn_sample and r["snd_wnd"] != 0 and not waits_after)
    if ack_new:
        n["snd_una"] = ack
        n["retries"] = 0
        n["tmr_on"] = int(ack != r["snd_max"])
        n["tmr_at"] = wrap(now + r["rto"])
        n["snd_nxt"] = nxt_after
    if le(r["snd_una"], ack) and (lt(r["snd_wl1"], seq) or (r["snd_wl1"] == seq and le(r["snd_wl2"], ack))):
        n["snd_wnd"], n["snd_wl1"], n["snd_wl2"] = seg["window"], seq, ack
        n["max_sndwnd"] = max(r["max_sndwnd"], seg["window"])
    if r["snd_una"] == r["snd_max"]:
        n["retries"] = 0
    ack_now = ack_second = False
    if length:
        n["rcv_nxt"] = end
        if length < r["mss"]:
            ack_now = True
        elif r["dack_one"]:
            ack_second = True
        else:
            n["dack_one"] = 1
            if not r["dack_on"]:
                n["dack_on"], n["dack_at"] = 1, wrap(now + delack)
    return fast, n, ack_now, ack_second


def near(rng, x, span=1 << 16):
    return wrap(x + rng.choice([0, 0, 1, -1, rng.randrange(-span, span)]))


def random_case(rng):
    r = {name: rng.getrandbits(w) for name, w in HOT}
    r["state"] = ESTABLISHED if rng.random() < 0.8 else rng.randrange(N_STATES)
    una = rng.choice([rng.getrandbits(32), M - 1 - rng.getrandbits(12)])   # often across the wrap
    r["snd_una"] = una
    r["snd_max"] = wrap(una + rng.choice([0, 0, 1, rng.randrange(1 << 17)]))
    r["snd_nxt"] = rng.choice([r["snd_max"], r["snd_max"], wrap(una + rng.randrange(wrap(r["snd_max"] - una) + 1))])
    r["tx_done"] = rng.choice([r["snd_max"], r["snd_max"], wrap(r["snd_max"] + rng.randrange(1, 3000)),
                               r["snd_nxt"]])
    r["snd_wnd"] = rng.choice([0, rng.getrandbits(16), 65535])
    r["mss"] = rng.choice([536, 1460, rng.randrange(1, 9000)])
    r["rcv_nxt"] = rng.getrandbits(32)
    r["rcv_adv"] = wrap(r["rcv_nxt"] + rng.choice([0, rng.randrange(65536), 65535]))
    r["ooo0_on"] = int(rng.random() < 0.15)
    r["rtt_on"] = int(rng.random() < 0.4)
    r["rtt_seq"] = near(rng, una, 1 << 17)
    r["close_req"] = int(rng.random() < 0.1)
    r["fin_sent"] = int(rng.random() < 0.5)
    r["snd_wl1"] = near(rng, r["rcv_nxt"])
    r["snd_wl2"] = near(rng, una)
    r["rto"] = rng.randrange(1000, 1 << 20)
    seg = {"seq": r["rcv_nxt"] if rng.random() < 0.85 else near(rng, r["rcv_nxt"]),
           "ack": rng.choice([una, r["snd_max"], near(rng, una), wrap(r["snd_max"] + 1), wrap(una - 1),
                              wrap(una + rng.randrange(wrap(r["snd_max"] - una) + 1))]),
           "window": rng.choice([0, rng.getrandbits(16), 65535, r["max_sndwnd"]]),
           "length": rng.choice([0, 0, 1, rng.randrange(1, 1460), r["mss"], rng.randrange(1, 65536)]) & 0xFFFF,
           "flags": F_ACK | (F_PSH if rng.random() < 0.5 else 0)}
    if rng.random() < 0.1:
        seg["flags"] ^= rng.choice([F_SYN, F_FIN, F_RST, F_ACK])
    # the segment alone allows the fast path: ACK, no SYN, FIN or RST, a window that is not
    # zero (and, not modelled here, not a new session nor behind a slow event's send step)
    seg_may = (bool(seg["flags"] & F_ACK) and not seg["flags"] & (F_SYN | F_FIN | F_RST) and seg["window"] != 0
               and rng.random() < 0.95)
    kind = "wake" if rng.random() < 0.1 else "seg"
    ev = {"kind": kind, "seg_may": seg_may and kind == "seg", "wake_may": kind == "wake" and rng.random() < 0.9,
          "found": rng.random() < 0.95, "tx_want": 0 if rng.random() < 0.9 else rng.randrange(1, 1 << 17),
          "rd_wake_ack": rng.random() < 0.5}
    return ev, r, seg


@cocotb.test()
async def fast_events_follow_the_rfc(dut):
    rng = random.Random(9)
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    dut.rst.value = 0
    kinds = {"fast seg": 0, "fast seg with data": 0, "fast wake": 0, "slow": 0}
    for _ in range(N_VECTORS):
        ev, r, seg = random_case(rng)
        now, delack = rng.getrandbits(32), rng.randrange(1, 500000)
        for name, _w in HOT:
            getattr(dut, "i_" + name).value = r[name]
        with_data = ev["kind"] == "seg" and seg["length"] != 0
        dut.is_seg.value, dut.is_rd_wake.value = int(ev["kind"] == "seg"), int(ev["kind"] == "wake")
        dut.seg_may.value, dut.wake_may.value = int(ev["seg_may"]), int(ev["wake_may"])
        dut.with_data.value, dut.found.value, dut.rd_wake_ack.value = int(with_data), int(ev["found"]), int(ev["rd_wake_ack"])
        dut.seg_seq.value, dut.seg_ack.value, dut.seg_flags.value = seg["seq"], seg["ack"], seg["flags"]
        dut.seg_window.value, dut.seg_length.value = seg["window"], seg["length"]
        dut.seg_end.value = wrap(seg["seq"] + seg["length"])
        dut.pick.value, dut.tx_want.value = rng.randrange(3), ev["tx_want"]
        dut.now_us.value, dut.cfg_delack_us.value = now, delack
        dut.cold_in.value = rng.getrandbits(len(dut.cold_in))
        await Timer(1, "ns")
        fast, want, ack_now, ack_second = reference(ev, r, seg, now, delack)
        case = (ev, r, seg)
        assert bool(dut.fast.value) == fast, case
        assert int(dut.cold_zero.value) == 1, case
        if fast:
            got = {name: int(getattr(dut, "o_" + name).value) for name, _w in HOT}
            diff = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
            assert not diff, (diff, case)
            assert (bool(dut.ack_now.value), bool(dut.ack_second.value)) == (ack_now, ack_second), case
            kinds["fast wake" if ev["kind"] == "wake" else "fast seg with data" if with_data else "fast seg"] += 1
        else:
            kinds["slow"] += 1
        await RisingEdge(dut.clk)   # the module's assertions see the vector
    assert min(kinds.values()) > N_VECTORS // 40, kinds


def test_toe_tcp_fast_path():
    runner.run("toe_tcp_fast_path_tb", "test_toe_tcp_fast_path", {}, Path(__file__).parent,
               extra_sources=[Path(__file__).parent / "toe_tcp_fast_path_tb.sv"])
