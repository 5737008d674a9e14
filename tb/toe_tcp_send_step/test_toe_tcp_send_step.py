"""toe_tcp_send_step against a reference written from the RFC text, not from the RTL: what a
slow event sends after its step, and the timers sending arms.

  - the send rule, RFC 1122 4.2.3.4 (sender silly-window avoidance) with Nagle (RFC 896):
    tb/common/tcp_ref.py (also the rules test's reference); data goes at SND.NXT, and
    SND.MAX moves past it when it is new data;
  - RFC 6298 5.1: every data segment (and the FIN) starts the retransmission timer when it
    is not running (here also when nothing was in flight: a running timer is then the
    idle or persist timer), with the retry count cleared; RFC 6298 3 / Karn: one segment
    at a time is timed, never a retransmission (SND.NXT below SND.MAX);
  - RFC 1122 4.2.3.4: data held back by the rule with nothing in flight (no ACK will come
    to move it) starts the override timer;
  - RFC 9293 3.10.4: the FIN the app asked for goes after all its data (TX_APP final and
    all of it in the ring and sent), taking a sequence number (a byte of window, RFC
    9293 3.8.6's usable window): ESTABLISHED -> FIN-WAIT-1, CLOSE-WAIT -> LAST-ACK; after
    going back N (RFC 9293 3.10.8) the FIN goes again once the data before it has;
  - RFC 9293 3.8.6.1: data or a FIN waiting for a zero window with nothing in flight
    starts the persist timer, unless the persist timer already runs (its backoff stays).
Nothing is sent in SYN-SENT, SYN-RECEIVED, TIME-WAIT, CLOSED (or a free slot), nor when the
event did not ask for a send or its step chose a segment of its own (that one goes). The
command queue being long (the project's flow control) puts the session in the send queue
instead of sending. Every other field of the record is kept."""
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import runner
from seqspace import lt, wrap
from tcp_ref import send_more, send_ref

N_VECTORS = 5000
(FREE, SYN_SENT, SYN_RCVD, ESTABLISHED, FIN_WAIT_1, FIN_WAIT_2, CLOSING, TIME_WAIT, CLOSE_WAIT, LAST_ACK,
 CLOSED) = range(11)
SEND_NONE, SEND_ACK, SEND_DATA, SEND_FIN, SEND_RST = 0, 1, 2, 5, 6
SENDING = (ESTABLISHED, CLOSE_WAIT, FIN_WAIT_1, FIN_WAIT_2, CLOSING, LAST_ACK)
FIN_SENT = (FIN_WAIT_1, FIN_WAIT_2, CLOSING, LAST_ACK, TIME_WAIT)
RECORD = ["state", "snd_una", "snd_nxt", "snd_max", "snd_wnd", "max_sndwnd", "mss", "tx_done", "rto", "retries",
          "tmr_on", "tmr_at", "rtt_on", "rtt_seq", "rtt_t0", "close_req", "fin_sent", "in_sendq"]
CHANGED = ["state", "snd_nxt", "snd_max", "retries", "tmr_on", "tmr_at", "rtt_on", "rtt_seq", "rtt_t0", "fin_sent",
           "in_sendq"]


def reference(r, ev, now):
    """(the fields the step may change, the segment, its sequence number, length, send queue,
    which rule applied)."""
    n = {k: r[k] for k in CHANGED}
    send, seq, length, sendq, kind = ev["chosen"], ev["chosen_seq"], 0, False, "nothing"
    if not (ev["try_send"] and ev["chosen"] == SEND_NONE and r["state"] in SENDING):
        return n, send, seq, length, sendq, kind
    una, nxt, mx, done, wnd, mss = r["snd_una"], r["snd_nxt"], r["snd_max"], r["tx_done"], r["snd_wnd"], r["mss"]
    window_open = lt(nxt, wrap(una + wnd))   # a byte of window for the FIN

    def arm():   # RFC 6298 5.1
        if not n["tmr_on"] or una == mx:
            n.update(tmr_on=1, tmr_at=wrap(now + r["rto"]), retries=0)

    size, held = send_ref(una, nxt, mx, done, wnd, r["max_sndwnd"], mss, ev["nagle"], ev["sws_override"])
    if held:
        if una == mx and not n["tmr_on"]:
            n.update(tmr_on=1, tmr_at=wrap(now + r["rto"]))
            kind = "override timer"
    elif size and not ev["sendq_room"]:
        kind = "send queue"
        if not n["in_sendq"]:
            n["in_sendq"], sendq = 1, True
    elif size:
        send, seq, length, kind = SEND_DATA, nxt, size, "data"
        if not n["rtt_on"] and nxt == mx:
            n.update(rtt_on=1, rtt_seq=nxt, rtt_t0=now)
        n["snd_nxt"] = wrap(nxt + size)
        n["snd_max"] = n["snd_nxt"] if lt(mx, n["snd_nxt"]) else mx
        arm()
        if send_more(una, nxt, done, wnd, mss) and not n["in_sendq"]:
            n["in_sendq"], sendq = 1, True
    elif (r["close_req"] and not r["fin_sent"] and nxt == done and ev["tx_app_fixed"] and done == ev["tx_app"]
          and r["state"] in (ESTABLISHED, CLOSE_WAIT) and window_open):
        send, seq, kind = SEND_FIN, nxt, "fin"
        n.update(snd_nxt=wrap(nxt + 1), snd_max=wrap(nxt + 1), fin_sent=1,
                 state=FIN_WAIT_1 if r["state"] == ESTABLISHED else LAST_ACK)
        arm()
    elif r["fin_sent"] and nxt == done and mx == wrap(done + 1) and window_open:
        send, seq, kind = SEND_FIN, nxt, "fin again"
        n["snd_nxt"] = wrap(nxt + 1)
    elif ((lt(nxt, done) or (r["close_req"] and not r["fin_sent"])) and wnd == 0 and una == mx
          and (not n["tmr_on"] or not ev["persist_before"])):
        n.update(tmr_on=1, tmr_at=wrap(now + r["rto"]))
        kind = "persist timer"
    return n, send, seq, length, sendq, kind


def random_case(rng):
    st = rng.choice([ESTABLISHED] * 4 + [CLOSE_WAIT] * 2 + [FIN_WAIT_1, FIN_WAIT_2, CLOSING, LAST_ACK, TIME_WAIT,
                                                             SYN_SENT, SYN_RCVD, CLOSED, FREE])
    una = rng.getrandbits(32)
    mss = rng.choice([536, 1460, rng.randrange(64, 9000)])
    max_wnd = rng.choice([65535, rng.randrange(1, 65536), rng.randrange(1, 2 * mss)])
    wnd = rng.choice([0, 0, max_wnd, rng.randrange(0, max_wnd + 1), rng.randrange(1, min(mss, max_wnd) + 1)])
    fin_sent = st in FIN_SENT
    if fin_sent:
        done = wrap(una + rng.choice([0, rng.randrange(0, 70000)]))
        mx = wrap(done + 1)
        una = mx if st in (FIN_WAIT_2, TIME_WAIT) or rng.random() < 0.2 else una
    else:
        mx = wrap(una + rng.choice([0, 0, rng.randrange(0, 70000)]))
        done = wrap(mx + rng.choice([0, 0, 1, rng.randrange(0, 3000), rng.randrange(0, 200000)]))
    nxt = rng.choice([mx, mx, una, wrap(una + rng.randrange(0, wrap(mx - una) + 1))])
    r = {"state": st, "snd_una": una, "snd_nxt": nxt, "snd_max": mx, "snd_wnd": wnd, "max_sndwnd": max_wnd,
         "mss": mss, "tx_done": done, "rto": rng.randrange(200000, 60000001), "retries": rng.randrange(16),
         "tmr_on": int(rng.random() < 0.3), "tmr_at": rng.getrandbits(32), "rtt_on": rng.randrange(2),
         "rtt_seq": rng.getrandbits(32), "rtt_t0": rng.getrandbits(32),
         "close_req": int(fin_sent or rng.random() < 0.3), "fin_sent": int(fin_sent), "in_sendq": int(rng.random() < 0.2)}
    ev = {"chosen": rng.choice([SEND_NONE] * 8 + [SEND_ACK, SEND_RST]), "chosen_seq": rng.getrandbits(32),
          "try_send": int(rng.random() < 0.9), "sws_override": int(rng.random() < 0.1),
          "tx_app_fixed": int(rng.random() < 0.7), "tx_app": rng.choice([done, done, wrap(done + rng.randrange(1, 5000))]),
          "persist_before": rng.randrange(2), "nagle": rng.randrange(2), "sendq_room": int(rng.random() < 0.8)}
    return r, ev


@cocotb.test()
async def sends_follow_the_rfc(dut):
    rng = random.Random(66)
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    dut.rst.value, dut.at_tail.value, dut.at_size.value = 0, 0, 0
    await RisingEdge(dut.clk)
    seen = dict.fromkeys(["data", "fin", "fin again", "override timer", "send queue", "persist timer", "nothing"], 0)
    for _ in range(N_VECTORS):
        r, ev = random_case(rng)
        now = rng.getrandbits(32)
        for name in RECORD:
            getattr(dut, "i_" + name).value = r[name]
        for name in ("chosen", "chosen_seq", "try_send", "sws_override", "tx_app_fixed", "tx_app", "persist_before",
                     "nagle", "sendq_room"):
            getattr(dut, name).value = ev[name]
        dut.now_us.value = now
        for stage in ("at_tail", "at_size"):   # the sums, the size step; then the send step
            getattr(dut, stage).value = 1
            await RisingEdge(dut.clk)
            getattr(dut, stage).value = 0
        await ReadOnly()
        want, send, seq, length, sendq, kind = reference(r, ev, now)
        got = {k: int(getattr(dut, "o_" + k).value) for k in CHANGED}
        case = (r, ev, now)
        assert got == want, ({k: (got[k], want[k]) for k in want if got[k] != want[k]}, case)
        assert (int(dut.o_send.value), int(dut.o_seq.value), int(dut.o_len.value), bool(int(dut.o_sendq.value))) == \
            (send, seq, length, sendq), ((int(dut.o_send.value), int(dut.o_len.value)), (send, length), case)
        assert int(dut.o_others_kept.value) == 1, case
        seen[kind] += 1
        await RisingEdge(dut.clk)
    dut._log.info("cases: %s", seen)
    assert min(seen.values()) > N_VECTORS // 200, seen


def test_toe_tcp_send_step():
    runner.run("toe_tcp_send_step_tb", "test_toe_tcp_send_step", {}, Path(__file__).parent,
               extra_sources=[Path(__file__).parent / "toe_tcp_send_step_tb.sv"])
