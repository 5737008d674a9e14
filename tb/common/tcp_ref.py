"""The send rule of RFC 1122 4.2.3.4 (sender silly-window avoidance) with Nagle (RFC 896),
for the tests' references (the rules test and the send step's)."""
from fractions import Fraction

from seqspace import lt, wrap


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
