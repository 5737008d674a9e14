"""toe_tcp_slow_path against a reference written from the RFC text, not from the RTL: what
a segment does to a connection in each state, and what the retransmission and TIME-WAIT
timers do, through the slow path's four stages.

Segments (SYN, FIN and the payload count in SEG.LEN; a payload only where the handshake
decides its fate: to no connection, in SYN-SENT, and in SYN-RECEIVED with data held), RFC
9293 3.10.7 with RFC 5961:
  - 3.10.7.1 CLOSED (no session, port not listened): an RST is dropped; an ACK gets
    <SEQ=SEG.ACK><CTL=RST>; else <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>.
  - 3.10.7.2 LISTEN: an RST is dropped; an ACK gets <SEQ=SEG.ACK><CTL=RST>; a SYN given a
    session enters SYN-RECEIVED (RCV.NXT = SEG.SEQ + 1, SND.UNA = ISS) and sends the
    SYN-ACK; anything else is dropped.
  - 3.10.7.3 SYN-SENT: an ACK other than ISS + 1 gets <SEQ=SEG.ACK><CTL=RST> (unless it is
    an RST); an RST with the acceptable ACK resets (the app told FAILED), without ACK it is
    dropped; a SYN sets RCV.NXT = SEG.SEQ + 1 and with the ACK enters ESTABLISHED and ACKs
    (the app told NEW; its data is taken, RCV.NXT past it, and told), without it enters
    SYN-RECEIVED and sends the SYN-ACK.
  - Data on a SYN without ACK (3.10.7.2's passive open, 3.10.7.3's simultaneous open) is
    "queued for processing after the ESTABLISHED state has been reached": stored in the
    ring from SEG.SEQ + 1 (up to the window), told to nobody, RCV.NXT after the SYN only;
    held as interval 0 from RCV.NXT. The ACK that establishes the connection moves RCV.NXT
    past it and tells it (a 0-length ring job whose reassembled bytes are the held ones);
    a FIN right after it is taken; that segment's own payload is not (ACK at once).
  - 3.10.7.4 synchronized states: an unacceptable segment (the four-case test against
    RCV.NXT and RCV.WND) gets an ACK unless it is an RST; an RST at RCV.NXT resets (RFC
    5961 3.2; in window elsewhere: a challenge ACK), except in TIME-WAIT (RFC 1337); a SYN
    gets a challenge ACK (RFC 5961 4.2); no ACK: dropped; SYN-RECEIVED: SND.UNA < SEG.ACK
    =< SND.NXT enters ESTABLISHED (the app told NEW), another ACK gets
    <SEQ=SEG.ACK><CTL=RST>; else an ACK past SND.NXT gets an ACK and is dropped, one below
    SND.UNA - MAX.SND.WND gets a challenge ACK and is dropped (RFC 5961 5.2), a new one
    moves SND.UNA; our FIN acknowledged: FIN-WAIT-1 -> FIN-WAIT-2, CLOSING -> TIME-WAIT,
    LAST-ACK -> CLOSED; TIME-WAIT: a FIN is ACKed; a FIN at RCV.NXT moves RCV.NXT over it,
    is ACKed and moves ESTABLISHED -> CLOSE-WAIT, FIN-WAIT-1 -> CLOSING (TIME-WAIT when
    its ACK acknowledged our FIN), FIN-WAIT-2 -> TIME-WAIT.
  The project's choices where the RFC leaves one: a SYN-RECEIVED session that gets its
  peer's SYN again (SEG.SEQ = RCV.NXT - 1, no ACK) repeats its SYN-ACK (Linux does the
  same); the app is told the peer's FIN (PEER_FIN), an orderly end (CLOSED) and a reset
  (RESET; FAILED for an app's open; nothing for a passive one never announced); a FIN on
  a SYN-ACK is not taken (RFC 9293 3.10.7.3 goes on to the FIN step; Linux drops the
  segment after its SYN and ACK, and the peer sends the FIN again). A SYN
  to a SYN-RECEIVED session that is not its repeat is not generated: RFC 9293 returns a
  passive one to LISTEN, Linux resets it, this core challenges it (all three drop it).
App calls (RFC 9293 3.10.1, 3.10.4, 3.10.5): an OPEN with a session enters SYN-SENT and
  sends <SEQ=ISS><CTL=SYN> (SND.UNA = ISS, SND.NXT = ISS + 1), the retransmission timer
  at the initial RTO; without one it is refused. A CLOSE in SYN-SENT ends the connection
  (no segment); in SYN-RECEIVED, ESTABLISHED and CLOSE-WAIT it is queued until the data
  is sent (the send step then sends the FIN: tb/toe_tcp_send_step); in the closing states
  it changes nothing. An ABORT sends <SEQ=SND.NXT><CTL=RST> (but in SYN-SENT) and ends
  the connection (the app told RESET). After the end (CLOSED, TIME-WAIT) both are app
  errors, but an abort after an orderly end, which drops the data not yet read. (RFC
  9293's SND.NXT, the next new sequence number, is the record's SND.MAX: the record's
  SND.NXT goes back after a timeout.)
Timers (RFC 6298 5.4-5.6, RFC 1122 4.2.3.5, RFC 9293 3.10.8): the retransmission timer
  goes back N (SND.NXT = SND.UNA, past the SYN in SYN-SENT and SYN-RECEIVED), resends the
  SYN or SYN-ACK of a handshake, doubles the RTO (up to its maximum) and restarts with it;
  after the retries allowed it gives up: RST (not for an unanswered SYN), CLOSED. The
  TIME-WAIT timer ends in CLOSED."""
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import runner
from seqspace import le, lt, wrap
from tcp_ref import acceptable_ref, in_window_ref

N_VECTORS = 10000
(FREE, SYN_SENT, SYN_RCVD, ESTABLISHED, FIN_WAIT_1, FIN_WAIT_2, CLOSING, TIME_WAIT, CLOSE_WAIT, LAST_ACK,
 CLOSED) = range(11)
STATE_NAMES = ["FREE", "SYN-SENT", "SYN-RECEIVED", "ESTABLISHED", "FIN-WAIT-1", "FIN-WAIT-2", "CLOSING", "TIME-WAIT",
               "CLOSE-WAIT", "LAST-ACK", "CLOSED"]
F_FIN, F_SYN, F_RST, F_PSH, F_ACK = 1, 2, 4, 8, 16
EV_OPEN, EV_CLOSE, EV_SEG, EV_TIMER = 1, 2, 4, 6
SEND = {0: "none", 1: "ack", 2: "data", 3: "syn", 4: "synack", 5: "fin", 6: "rst", 7: "probe"}
NEW, DATA, PEER_FIN, CLOSED_TOLD, RESET, FAILED, TAG_NONE = 0, 1, 2, 3, 4, 5, 7
RECORD = ["state", "snd_una", "snd_nxt", "snd_max", "snd_wl1", "snd_wl2", "snd_wnd", "max_sndwnd", "tx_done",
          "rcv_nxt", "rcv_adv", "rto", "retries", "tmr_on", "tmr_at", "dack_on", "dack_at", "fin_rcvd",
          "fin_sent", "active", "ended", "orderly", "close_req", "ooo0_on", "ooo0_lo", "ooo0_hi"]
FLAGS = [F_SYN, F_SYN | F_ACK, F_ACK, F_ACK | F_PSH, F_RST, F_RST | F_ACK, F_FIN | F_ACK, F_FIN, F_SYN | F_FIN,
         F_SYN | F_FIN | F_ACK, 0, F_RST | F_SYN]


def window(r):
    """RCV.NXT and RCV.WND (= RCV.ADV - RCV.NXT) of record r."""
    return r["rcv_nxt"], wrap(r["rcv_adv"] - r["rcv_nxt"])


ANY = object()   # a reference value that is not checked


def segment_reference(r, seg, ev, cfg):
    """The answer to a segment: dict(state, send, rst_seq, rst_ack, end, notif, chall, rcv_nxt,
    snd_una). `end` and `notif` are the app's notifications (None: none); rst_ack None: an RST
    without ACK."""
    flags, seq, ack, length = seg["flags"], seg["seq"], seg["ack"], seg["length"]
    syn, fin, rst, has_ack = flags & F_SYN, flags & F_FIN, flags & F_RST, flags & F_ACK
    seglen = length + (1 if syn else 0) + (1 if fin else 0)
    held = (r["ooo0_lo"], r["ooo0_hi"]) if r["ooo0_on"] else None
    out = {"state": r["state"], "send": "none", "rst_seq": ANY, "rst_ack": ANY, "end": None, "notif": None,
           "chall": False, "rcv_nxt": r["rcv_nxt"], "snd_una": r["snd_una"],
           "held": held if r["state"] in (SYN_SENT, SYN_RCVD) else ANY,
           "rxw": None if r["state"] in (SYN_SENT, SYN_RCVD) else ANY}
    take = min(length, 65535)

    def syn_data_held():
        """3.10.7.2-3: "queue them for processing after the ESTABLISHED state has been reached"."""
        if length:
            out.update(held=(wrap(seq + 1), wrap(seq + 1 + take)),
                       rxw=(wrap(seq + 1), take, False, 0, True))   # (offset, length, told, reassembled, steer)

    def rst_to(seq_, ack_=None):
        out.update(send="rst", rst_seq=seq_, rst_ack=ack_)

    def ends(tag, state=CLOSED):
        out.update(state=state, end=tag)
        if state == CLOSED:
            out["held"] = ANY

    if not ev["found"] or r["state"] == CLOSED:
        out["state"] = out["rcv_nxt"] = out["snd_una"] = ANY   # no record is written
        if ev["listening"]:                       # 3.10.7.2
            if rst:
                pass
            elif has_ack:
                rst_to(ack)
            elif ev["new_sess"]:
                out.update(state=SYN_RCVD, send="synack", rcv_nxt=wrap(seq + 1), snd_una=ev["isn"], held=None,
                           rxw=None)
                syn_data_held()
        elif not rst:                             # 3.10.7.1
            if has_ack:
                rst_to(ack)
            else:
                rst_to(0, wrap(seq + seglen))
        return out
    st = r["state"]
    if st == SYN_SENT:                            # 3.10.7.3
        if syn and fin and cfg["drop_synfin"]:
            return out
        ack_ok = ack == r["snd_max"]
        if has_ack and not ack_ok:
            if not rst:
                rst_to(ack)
            return out
        if rst:
            if has_ack:
                ends(FAILED)
            return out
        if syn:
            out["rcv_nxt"] = wrap(seq + 1)
            if has_ack:
                out.update(state=ESTABLISHED, send="ack", notif=NEW, snd_una=ack)
                if length:   # data on the SYN-ACK is taken with it
                    out.update(rcv_nxt=wrap(seq + 1 + take), rxw=(wrap(seq + 1), take, True, 0, True))
            else:
                out.update(state=SYN_RCVD, send="synack")
                syn_data_held()
        return out
    if st == SYN_RCVD and syn and not has_ack and wrap(seq + 1) == r["rcv_nxt"]:
        out["send"] = "synack"                    # the peer repeats its SYN
        return out
    if not acceptable_ref(seq, seglen, *window(r)):            # 3.10.7.4 first
        if not rst:
            out["send"] = "ack"
        return out
    if rst:                                       # second (RFC 5961 3.2, RFC 1337)
        if st == TIME_WAIT:
            return out
        if seq == r["rcv_nxt"] or not cfg["rfc5961_rst"]:
            ends(((FAILED if r["active"] else TAG_NONE) if st == SYN_RCVD else RESET))
        else:
            out.update(send="ack", chall=True)
        return out
    if syn:                                       # fourth (RFC 5961 4.2)
        if cfg["rfc5961_syn"]:
            out.update(send="ack", chall=True)
        elif window(r)[1] and in_window_ref(seq, *window(r)):                   # RFC 793: "If the SYN is in the window it is an error, send
            rst_to(r["snd_max"], r["rcv_nxt"])    # a reset"
            out.update(state=CLOSED, end=None if r["ended"] else RESET)
        else:                                     # "If the SYN is not in the window ... an ack would have been
            out.update(send="ack", chall=ANY)     # sent in the first step" (the segment reaches in)
        return out
    if not has_ack:                               # fifth
        return out
    una, mx = r["snd_una"], r["snd_max"]
    if st == SYN_RCVD:
        if lt(una, ack) and le(ack, mx):
            out.update(state=ESTABLISHED, notif=NEW, snd_una=ack)
            st = ESTABLISHED
            if held:         # the held data joins the stream and is told; this payload is not taken
                out.update(rcv_nxt=held[1], held=None, rxw=(held[0], 0, True, wrap(held[1] - held[0]), False))
                if length:
                    out["send"] = "ack"
        else:
            rst_to(ack)
            return out
    else:
        if lt(mx, ack):
            out["send"] = "ack"
            return out
        if lt(ack, wrap(una - r["max_sndwnd"])):
            out.update(send="ack", chall=True)
            return out
        if lt(una, ack):
            out["snd_una"] = ack
        fin_acked = r["fin_sent"] and ack == mx
        if st == FIN_WAIT_1 and fin_acked:
            out["state"] = st = FIN_WAIT_2
        elif st == CLOSING and fin_acked:
            out.update(state=TIME_WAIT, end=CLOSED_TOLD)
            st = TIME_WAIT
        elif st == LAST_ACK and fin_acked:
            ends(CLOSED_TOLD)
            return out
        elif st == TIME_WAIT and fin:
            out["send"] = "ack"
            return out
    if fin and wrap(seq + length) == out["rcv_nxt"] and not r["fin_rcvd"]:   # eighth
        out["rcv_nxt"] = wrap(out["rcv_nxt"] + 1)
        out["send"] = "ack"
        if st == ESTABLISHED:
            out.update(state=CLOSE_WAIT, end=PEER_FIN)
        elif st == FIN_WAIT_1:
            out.update(state=CLOSING, end=PEER_FIN)
        elif st == FIN_WAIT_2:
            out.update(state=TIME_WAIT, end=CLOSED_TOLD)
    elif fin and not r["fin_rcvd"]:
        out["send"] = ANY                         # a FIN ahead of RCV.NXT: held or dropped, ACK or not
    return out


def timer_reference(r, now, cfg):
    """The retransmission and TIME-WAIT timers (records with nothing but these running)."""
    st = r["state"]
    out = {"state": st, "send": "none", "rst_seq": ANY, "rst_ack": ANY, "end": None, "notif": None,
           "chall": False, "rcv_nxt": r["rcv_nxt"], "snd_una": r["snd_una"]}
    if st == TIME_WAIT:
        out.update(state=CLOSED, tmr_on=False)
        return out
    limit = cfg["synrcvd_retries"] if st == SYN_RCVD else cfg["max_retries"]
    if r["retries"] >= limit:                     # give up
        if st != SYN_SENT:
            out.update(send="rst", rst_seq=r["snd_max"], rst_ack=None)
        end = (FAILED if r["active"] else TAG_NONE) if st in (SYN_SENT, SYN_RCVD) else RESET
        out.update(state=CLOSED, end=end, tmr_on=False)
        return out
    rto = min(2 * r["rto"], cfg["rto_max_us"])
    out.update(retries=r["retries"] + 1, rto=rto, tmr_on=True, tmr_at=wrap(now + rto),
               snd_nxt=wrap(r["snd_una"] + (1 if st in (SYN_SENT, SYN_RCVD) else 0)),
               send={SYN_SENT: "syn", SYN_RCVD: "synack"}.get(st, "none"))
    return out


def app_reference(r, ev, now, cfg):
    """An app's OPEN (a new session: `found`) or CLOSE / ABORT (`close_rst`) of session r."""
    st = r["state"]
    out = {"state": st, "send": "none", "rst_seq": ANY, "rst_ack": ANY, "end": None, "notif": None, "chall": False,
           "rcv_nxt": r["rcv_nxt"], "snd_una": r["snd_una"], "apperr": False, "close_req": r["close_req"],
           "orderly": r["orderly"], "try_send": False}
    if ev["kind"] == "open":
        if not ev["found"]:
            return dict(out, open_rsp=True, open_ok=False, state=ANY, rcv_nxt=ANY, snd_una=ANY, close_req=ANY,
                        orderly=ANY)
        isn = ev["isn"]
        return dict(out, open_rsp=True, open_ok=True, state=SYN_SENT, send="syn", rst_seq=ANY, syn_seq=isn,
                    snd_una=isn, snd_nxt=wrap(isn + 1), tmr_on=True, tmr_at=wrap(now + cfg["rto_init_us"]),
                    rcv_nxt=0, close_req=0, orderly=0)
    if r["ended"] and r["orderly"] and ev["close_rst"] and st != FREE:
        return dict(out, orderly=0)
    if st in (FREE, CLOSED, TIME_WAIT) or r["ended"]:
        return dict(out, apperr=True)
    if ev["close_rst"] or st == SYN_SENT:
        if st != SYN_SENT:
            out.update(send="rst", rst_seq=r["snd_max"], rst_ack=None)
        return dict(out, state=CLOSED, end=RESET)
    return dict(out, close_req=1, try_send=True)


def random_record(rng, st):
    """A consistent record in state `st` (our ISS, the peer's IRS and both windows random)."""
    iss, irs = rng.getrandbits(32), rng.getrandbits(32)
    wnd = rng.choice([0, 1, rng.randrange(2, 65536), 65535])
    r = dict.fromkeys(RECORD, 0)
    flight = rng.choice([0, 1, rng.randrange(2, 40000)])
    data_end = wrap(iss + 1 + rng.randrange(0, 100000))
    r.update(state=st, rcv_nxt=wrap(irs + 1), rcv_adv=wrap(irs + 1 + wnd), rto=rng.randrange(200000, 60000001),
             retries=rng.randrange(0, 16), tmr_on=1, tmr_at=rng.getrandbits(32), active=rng.randrange(2),
             snd_wnd=rng.randrange(1, 65536))
    r["max_sndwnd"] = rng.randrange(r["snd_wnd"], 65536)
    if st in (SYN_SENT, SYN_RCVD):
        r.update(snd_una=iss, snd_nxt=wrap(iss + 1), snd_max=wrap(iss + 1), tx_done=wrap(iss + 1))
        if st == SYN_SENT:
            r.update(rcv_nxt=0, rcv_adv=0, active=1)
        return r
    fin_sent = st in (FIN_WAIT_1, FIN_WAIT_2, CLOSING, LAST_ACK, TIME_WAIT)
    fin_rcvd = st in (CLOSE_WAIT, CLOSING, LAST_ACK, TIME_WAIT)
    mx = wrap(data_end + (1 if fin_sent else 0))
    if st in (FIN_WAIT_2, TIME_WAIT):
        flight = 0
    elif st in (FIN_WAIT_1, CLOSING, LAST_ACK):
        flight = max(flight, 1)                   # our FIN is not acknowledged yet
    una = wrap(mx - flight)
    r.update(snd_una=una, snd_max=mx, snd_nxt=rng.choice([mx, una]), tx_done=data_end, fin_sent=int(fin_sent),
             fin_rcvd=int(fin_rcvd), ended=int(st == TIME_WAIT), snd_wl1=wrap(irs - rng.randrange(100000)),
             snd_wl2=wrap(una - rng.randrange(100000)))
    return r


def random_segment(rng, r):
    nxt, wnd = r["rcv_nxt"], wrap(r["rcv_adv"] - r["rcv_nxt"])
    una, mx = r["snd_una"], r["snd_max"]
    seq = rng.choice([nxt, nxt, wrap(nxt - 1), wrap(nxt + rng.randrange(1, max(wnd, 2))), wrap(nxt + wnd),
                      wrap(nxt + wnd + rng.randrange(1, 1 << 20)), rng.getrandbits(32)])
    ack = rng.choice([una, mx, mx, wrap(una + rng.randrange(0, wrap(mx - una) + 1)), wrap(una - 1), wrap(mx + 1),
                      wrap(una - r["max_sndwnd"]), wrap(una - r["max_sndwnd"] - 1), rng.getrandbits(32)])
    return {"seq": seq, "ack": ack, "flags": rng.choice(FLAGS), "window": rng.randrange(1, 65536), "length": 0}


def random_length(rng):
    return rng.choice([0, 0, 1, rng.randrange(2, 1500), rng.randrange(1500, 9000)])


def random_case(rng):
    cfg = {"drop_synfin": rng.randrange(2), "rfc5961_rst": rng.random() < 0.8, "rfc5961_syn": rng.random() < 0.8,
           "rto_max_us": rng.choice([60000000, 4000000]), "max_retries": rng.randrange(1, 16),
           "synrcvd_retries": rng.randrange(1, 16), "rto_init_us": 1000000}   # the wrapper's initial RTO
    kind = rng.choices(["seg", "no session", "timer", "close", "open"], [6, 1, 2, 2, 1])[0]
    ev = {"kind": kind, "found": True, "listening": False, "new_sess": False, "capped": False,
          "isn": rng.getrandbits(32), "close_rst": int(rng.random() < 0.5)}
    if kind in ("close", "open"):
        r = random_record(rng, rng.choice(range(11)))
        r["ended"] = int(r["state"] in (TIME_WAIT, CLOSED) or (r["state"] != FREE and rng.random() < 0.1))
        r["orderly"] = int(r["ended"] and rng.random() < 0.5)
        r["close_req"] = int(r["state"] in (FIN_WAIT_1, FIN_WAIT_2, CLOSING, LAST_ACK, TIME_WAIT) or rng.random() < 0.2)
        ev["found"] = kind == "close" or rng.random() < 0.8
        return cfg, ev, r, None
    if kind == "timer":
        st = rng.choice([SYN_SENT, SYN_RCVD, ESTABLISHED, FIN_WAIT_1, CLOSING, LAST_ACK, CLOSE_WAIT, TIME_WAIT])
        r = random_record(rng, st)
        if st not in (SYN_SENT, SYN_RCVD, TIME_WAIT):   # something in flight: the retransmission timer
            r["snd_una"] = wrap(r["snd_max"] - max(1, wrap(r["snd_max"] - r["snd_una"])))
        return cfg, ev, r, None
    if kind == "no session":
        r = random_record(rng, rng.choice([ESTABLISHED, CLOSED]))
        seg = random_segment(rng, r)
        ev["found"] = r["state"] == CLOSED and rng.random() < 0.5   # a found CLOSED record is no connection too
        ev["listening"] = rng.random() < 0.6
        ev["new_sess"] = ev["listening"] and seg["flags"] == F_SYN and rng.random() < 0.7
        ev["capped"] = ev["listening"] and seg["flags"] == F_SYN and not ev["new_sess"]
        seg["length"] = random_length(rng)
        return cfg, ev, r, seg
    r = random_record(rng, rng.choice([SYN_SENT, SYN_RCVD, ESTABLISHED, FIN_WAIT_1, FIN_WAIT_2, CLOSING, TIME_WAIT,
                                       CLOSE_WAIT, LAST_ACK]))
    wnd = wrap(r["rcv_adv"] - r["rcv_nxt"])
    if r["state"] == SYN_RCVD and wnd and rng.random() < 0.5:   # data its SYN carried, held
        r.update(ooo0_on=1, ooo0_lo=r["rcv_nxt"], ooo0_hi=wrap(r["rcv_nxt"] + rng.randrange(1, min(wnd, 1500) + 1)))
    seg = random_segment(rng, r)
    if r["state"] == SYN_SENT:
        seg["ack"] = rng.choice([r["snd_una"], r["snd_max"], r["snd_max"], wrap(r["snd_max"] + 1), rng.getrandbits(32)])
        seg["seq"] = rng.getrandbits(32)
    if r["state"] == SYN_SENT and rng.random() < 0.2:   # the SYN-ACK of our SYN
        seg.update(flags=F_SYN | F_ACK, ack=r["snd_max"])
    if r["state"] == SYN_SENT or r["ooo0_on"]:
        seg["length"] = random_length(rng)
    if r["ooo0_on"] and rng.random() < 0.5:   # the peer's ACK of our SYN, after its SYN's data
        seg.update(seq=r["ooo0_hi"], ack=r["snd_max"], flags=rng.choice([F_ACK, F_ACK | F_PSH, F_FIN | F_ACK]))
    if r["state"] == SYN_RCVD and seg["flags"] & F_SYN:   # only the peer's repeated SYN (see above)
        seg.update(flags=F_SYN, seq=wrap(r["rcv_nxt"] - 1))
    return cfg, ev, r, seg


async def run_stages(dut):
    """at_pre, at_pre2, at_exec, then at_tail (the result read in that cycle)."""
    for stage in ("at_pre", "at_pre2", "at_exec"):
        getattr(dut, stage).value = 1
        await RisingEdge(dut.clk)
        getattr(dut, stage).value = 0
    dut.at_tail.value = 1
    await ReadOnly()


@cocotb.test()
async def slow_events_follow_the_rfc(dut):
    rng = random.Random(65)
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    dut.rst.value = 0
    for s in ("at_pre", "at_pre2", "at_exec", "at_tail"):
        getattr(dut, s).value = 0
    await RisingEdge(dut.clk)
    seen = {}
    for _ in range(N_VECTORS):
        cfg, ev, r, seg = random_case(rng)
        now = rng.getrandbits(32)
        if ev["kind"] == "timer":
            r["tmr_at"] = wrap(now - rng.randrange(0, 1000))   # due
        for name in RECORD:
            getattr(dut, "i_" + name).value = int(r[name])
        dut.ev.value = {"timer": EV_TIMER, "close": EV_CLOSE, "open": EV_OPEN}.get(ev["kind"], EV_SEG)
        dut.close_rst.value = ev["close_rst"]
        dut.found.value, dut.new_sess.value = int(ev["found"]), int(ev["new_sess"])
        dut.listening.value, dut.capped.value, dut.isn.value = int(ev["listening"]), int(ev["capped"]), ev["isn"]
        dut.cfg_drop_synfin.value, dut.cfg_rfc5961_rst.value = int(cfg["drop_synfin"]), int(cfg["rfc5961_rst"])
        dut.cfg_rfc5961_syn.value, dut.cfg_rto_max_us.value = int(cfg["rfc5961_syn"]), cfg["rto_max_us"]
        dut.cfg_max_retries.value, dut.cfg_synrcvd_retries.value = cfg["max_retries"], cfg["synrcvd_retries"]
        dut.now_us.value = now
        seg = seg or {"seq": 0, "ack": 0, "flags": 0, "window": 0, "length": 0}
        dut.seg_seq.value, dut.seg_ack.value = seg["seq"], seg["ack"]
        dut.seg_flags.value, dut.seg_window.value, dut.seg_length.value = seg["flags"], seg["window"], seg["length"]
        await run_stages(dut)
        want = (timer_reference(r, now, cfg) if ev["kind"] == "timer" else
                app_reference(r, ev, now, cfg) if ev["kind"] in ("close", "open") else
                segment_reference(r, seg, ev, cfg))
        send = SEND[int(dut.o_send.value)]
        if send == "none" and int(dut.o_ack_now.value):
            send = "ack"
        got = {"state": int(dut.o_state.value), "send": send, "chall": bool(int(dut.o_chall.value)),
               "rcv_nxt": int(dut.o_rcv_nxt.value), "snd_una": int(dut.o_snd_una.value),
               "snd_nxt": int(dut.o_snd_nxt.value), "retries": int(dut.o_retries.value), "rto": int(dut.o_rto.value),
               "tmr_on": bool(int(dut.o_tmr_on.value)), "tmr_at": int(dut.o_tmr_at.value),
               "end": int(dut.o_end_tag.value) if int(dut.o_end_marker.value) else None,
               "notif": int(dut.o_notif_kind.value) if int(dut.o_do_notif.value) else None,
               "apperr": bool(int(dut.o_apperr.value)), "open_rsp": bool(int(dut.o_open_rsp.value)),
               "open_ok": bool(int(dut.o_open_ok.value)), "try_send": bool(int(dut.o_try_send.value)),
               "close_req": int(dut.o_close_req.value), "orderly": int(dut.o_orderly.value),
               "held": ((int(dut.o_ooo0_lo.value), int(dut.o_ooo0_hi.value)) if int(dut.o_ooo0_on.value) else None),
               "rxw": ((int(dut.o_rxw_offset.value), int(dut.o_rxw_length.value), int(dut.o_rxw_tag.value) == DATA,
                        int(dut.o_rxw_reassembled.value), bool(int(dut.o_steer_accept.value)))
                       if int(dut.o_do_rxw.value) else None)}
        if send == "syn":
            got["syn_seq"] = int(dut.o_send_seq.value)
        if send == "rst":
            got["rst_seq"] = int(dut.o_send_seq.value)
            got["rst_ack"] = int(dut.o_rst_ack.value) if int(dut.o_rst_with_ack.value) else None
        if got["notif"] is not None and got["notif"] == got["end"]:
            got["notif"] = None   # an end before the connection was established is told at once
        diff = {k: (got.get(k), v) for k, v in want.items() if v is not ANY and got.get(k) != v}
        assert not diff, f"got/want {diff} for {seg} on {r} ({ev}, {cfg})"
        key = (("open" if ev["found"] else "open refused") if ev["kind"] == "open" else
               ev["kind"] + " " + (STATE_NAMES[r["state"]] if ev["found"] else "none"))
        seen[key] = seen.get(key, 0) + 1
        if want.get("rxw") not in (None, ANY):   # SYN data held, taken or joined
            kind = "joined" if want["rxw"][3] else "taken" if want["rxw"][2] else "held"
            seen["SYN data " + kind] = seen.get("SYN data " + kind, 0) + 1
        await RisingEdge(dut.clk)
        dut.at_tail.value = 0
    dut._log.info("cases: %s", seen)
    assert min(seen.values()) > N_VECTORS // 400 and len(seen) >= 35, seen


def test_toe_tcp_slow_path():
    runner.run("toe_tcp_slow_path_tb", "test_toe_tcp_slow_path", {}, Path(__file__).parent,
               extra_sources=[Path(__file__).parent / "toe_tcp_slow_path_tb.sv"])
