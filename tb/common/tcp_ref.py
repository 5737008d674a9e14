"""Rules of the RFC text as the tests' references use them (the rules test, the slow path's
and the send step's): RFC 9293 3.10.7.4's acceptability, and the send rule of RFC 1122
4.2.3.4 (sender silly-window avoidance) with Nagle (RFC 896)."""
from fractions import Fraction

from seqspace import le, lt, wrap


def in_window_ref(x, rcv_nxt, rcv_wnd):
    """RCV.NXT =< x < RCV.NXT + RCV.WND."""
    return le(rcv_nxt, x) and lt(x, wrap(rcv_nxt + rcv_wnd))


def acceptable_ref(seq, seg_len, rcv_nxt, rcv_wnd):
    """RFC 9293 3.10.7.4, the four cases of the table."""
    if seg_len == 0 and rcv_wnd == 0:
        return seq == rcv_nxt
    if seg_len == 0:
        return in_window_ref(seq, rcv_nxt, rcv_wnd)
    if rcv_wnd == 0:
        return False
    return in_window_ref(seq, rcv_nxt, rcv_wnd) or in_window_ref(wrap(seq + seg_len - 1), rcv_nxt, rcv_wnd)


def send_ref(una, nxt, snd_max, queued_end, wnd, max_wnd, mss, nagle, force):
    """D = data queued and unsent, U = SND.UNA + SND.WND - SND.NXT (usable window). A
    segment of min(MSS, D, U) goes when (1) min(D, U) >= MSS; (2) all queued data can go
    (application data counts as pushed), with Nagle only if nothing is unacknowledged;
    (3) min(D, U) >= Fs * Max(SND.WND), Fs = 1/2; (4) the override timer fired. A
    retransmission (below the highest sequence sent) always goes. Returns (len, held)."""
    def pos(x):
        x = wrap(x)
        return 0 if x >= 1 << 31 else x
    d = pos(queued_end - nxt)
    u = pos(una + wnd - nxt)
    n = min(mss, d, u)
    if n == 0:
        return 0, False
    go = (min(d, u) >= mss or (d <= u and (not nagle or nxt == una))
          or Fraction(min(d, u)) >= Fraction(max_wnd, 2) or force or lt(nxt, snd_max))
    return (n, False) if go else (0, True)


def send_more(una, nxt, queued_end, wnd, mss):
    """Data and usable window both go on past a full-sized segment: D > MSS and U > MSS."""
    d, u = (wrap(x) if wrap(x) < 1 << 31 else 0 for x in (queued_end - nxt, una + wnd - nxt))
    return d > mss and u > mss
