"""toe_tcp_rules_pkg against references written from the RFC text (not from the RTL):
random inputs across the whole sequence space (so across the 2^32 wrap) and the edge
cases each rule names. Sequence comparisons are RFC 9293 3.4's modulo-2^32 arithmetic:
a < b when a - b, as a signed 32-bit number, is negative."""
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import cocotb
from cocotb.triggers import Timer

import runner
from seqspace import M, le, lt, wrap
from tcp_ref import acceptable_ref, send_more, send_ref

N_RANDOM = 3000


async def settle():
    await Timer(1, "ns")


def rand_seq(rng):
    """A sequence number, often near the wrap."""
    return rng.choice([rng.getrandbits(32), M - 1 - rng.getrandbits(12), rng.getrandbits(12)])


# ---- RFC 9293 3.10.7.4: acceptability (acceptable_ref, tb/common/tcp_ref.py) ----
@cocotb.test()
async def acceptability_is_the_rfc_table(dut):
    """The engine gives the window as its right edge RCV.ADV = RCV.NXT + RCV.WND (an edge
    behind RCV.NXT is a window of 0) and the segment as its first and last sequence numbers;
    the reference takes the RFC's RCV.WND and SEG.LEN."""
    rng = random.Random(1)
    cases = []
    for _ in range(N_RANDOM):
        nxt = rand_seq(rng)
        wnd = rng.choice([0, 1, rng.randrange(1, 65536), 65535, rng.randrange(1, 1 << 31), (1 << 31) - 1])
        seg_len = rng.choice([0, 1, rng.randrange(1, 1462)])
        adv = wrap(nxt + wnd)
        if rng.random() < 0.1:   # an edge behind RCV.NXT (by up to 2^31): no window
            adv, wnd = wrap(nxt - rng.randrange(1, (1 << 31) + 1)), 0
        # segments around the window's edges, and anywhere
        seq = rng.choice([nxt, wrap(nxt - seg_len), wrap(nxt + wnd), wrap(nxt + wnd - 1), adv, wrap(adv - 1),
                          wrap(nxt - 1), wrap(nxt + rng.randrange(-70000, 70000)), wrap(nxt + (1 << 31)),
                          rng.getrandbits(32)])
        cases.append((seq, seg_len, nxt, wnd, adv))
    accepted = 0
    for seq, seg_len, nxt, wnd, adv in cases:
        dut.acc_seq.value, dut.acc_last.value, dut.acc_empty.value = seq, wrap(seq + seg_len - 1), int(seg_len == 0)
        dut.acc_rcv_nxt.value, dut.acc_rcv_adv.value = nxt, adv
        await settle()
        want = acceptable_ref(seq, seg_len, nxt, wnd)
        accepted += want
        assert int(dut.acc_ok.value) == want, (seq, seg_len, nxt, wnd, adv, want)
    assert 0.2 < accepted / len(cases) < 0.8, "the cases exercise both answers"


# ---- RFC 9293 3.10.7.4: the ACK field, and the send-window update ----
ACK_OLD, ACK_NEW, ACK_UNSENT, ACK_TOO_OLD = 0, 1, 2, 3


def ack_ref(ack, una, snd_max, max_wnd):
    """SEG.ACK =< SND.UNA: duplicate; SND.UNA < SEG.ACK =< SND.NXT (the highest sent):
    new; SEG.ACK > SND.NXT: acknowledges something not yet sent. RFC 5961 5.2 (a MUST of
    RFC 9293 3.10.7.4 for a stack with RFC 5961): acceptable only when "(SND.UNA -
    MAX.SND.WND) =< SEG.ACK", so an older one is refused too."""
    if lt(snd_max, ack):
        return ACK_UNSENT
    if lt(una, ack) and le(ack, snd_max):
        return ACK_NEW
    if lt(ack, wrap(una - max_wnd)):
        return ACK_TOO_OLD
    return ACK_OLD


def wnd_update_ref(una, wl1, wl2, seq, ack):
    """"If SND.UNA =< SEG.ACK =< SND.NXT, the send window should be updated. If (SND.WL1 <
    SEG.SEQ or (SND.WL1 = SEG.SEQ and SND.WL2 =< SEG.ACK))" (the upper bound is the
    caller's: an ACK of something not yet sent is refused before)."""
    return le(una, ack) and (lt(wl1, seq) or (wl1 == seq and le(wl2, ack)))


@cocotb.test()
async def ack_and_window_update_follow_the_rfc(dut):
    rng = random.Random(2)
    kinds = [0, 0, 0, 0]
    updates = Counter()
    for _ in range(N_RANDOM):
        una = rand_seq(rng)
        snd_max = wrap(una + rng.choice([0, 1, rng.randrange(0, 1 << 20)]))
        max_wnd = rng.choice([0, 1, 65535, rng.getrandbits(16)])
        ack = rng.choice([una, snd_max, wrap(snd_max + 1), wrap(una - 1), wrap(una + rng.randrange(0, 1 << 21)),
                          rng.getrandbits(32), wrap(una - max_wnd), wrap(una - max_wnd - 1),
                          wrap(una - rng.randrange(0, 1 << 17))])
        dut.ack_ack.value, dut.ack_una.value, dut.ack_max.value, dut.ack_max_wnd.value = ack, una, snd_max, max_wnd
        wl1, wl2 = rand_seq(rng), rand_seq(rng)
        seq = rng.choice([wl1, wrap(wl1 + 1), wrap(wl1 - 1), rng.getrandbits(32)])
        wack = rng.choice([wl2, wrap(wl2 + 1), wrap(wl2 - 1), rng.getrandbits(32)])
        wuna = rng.choice([wack, wrap(wack + 1), wrap(wack - 1), wrap(wack - rng.randrange(1 << 20)), wl2])
        dut.wu_una.value, dut.wu_wl1.value, dut.wu_wl2.value = wuna, wl1, wl2
        dut.wu_seq.value, dut.wu_ack.value = seq, wack
        await settle()
        want = ack_ref(ack, una, snd_max, max_wnd)
        kinds[want] += 1
        assert int(dut.ack_kind.value) == want, (ack, una, snd_max, max_wnd, want)
        want_wu = wnd_update_ref(wuna, wl1, wl2, seq, wack)
        wl_newer = lt(wl1, seq) or (wl1 == seq and le(wl2, wack))
        updates[(want_wu, lt(wack, wuna), wl_newer)] += 1
        assert int(dut.wu_ok.value) == want_wu, (wuna, wl1, wl2, seq, wack)
    assert min(kinds) > N_RANDOM // 20, kinds
    # taken, refused by the WL rule, and refused for an old ACK that the WL rule allows
    assert updates[(True, False, True)] > N_RANDOM // 10 and updates[(False, False, False)] > N_RANDOM // 10, updates
    assert updates[(False, True, True)] > N_RANDOM // 40, updates


# ---- RFC 6298: the RTT estimator ----
def rtt_exact(srtt, rttvar, r):
    """2.2 (first sample, srtt = 0: none yet) and 2.3, in exact fractions, alpha = 1/8,
    beta = 1/4 (RTTVAR is updated with the SRTT before its update)."""
    r = max(r, 1)
    if srtt == 0:
        return Fraction(r), Fraction(r, 2)
    return Fraction(7, 8) * srtt + Fraction(r, 8), Fraction(3, 4) * rttvar + abs(srtt - r) / 4


def rto_ref(srtt, rttvar, rto_min, rto_max):
    """RTO = SRTT + max(G, K*RTTVAR), G = 1 us, K = 4, in whole us (SRTT rounded down);
    kept within [min, max] (2.4, 2.5)."""
    return min(max(int(srtt) + max(1, int(4 * rttvar)), rto_min), rto_max)


async def rtt_step(dut, srtt, rttvar, r, rto_min, rto_max):
    """One sample on an estimate in us (exact fractions of 1/8 and 1/4 us: the RTL keeps
    8*SRTT and 4*RTTVAR); returns the new SRTT, RTTVAR and RTO in us."""
    dut.rtt_srtt8.value, dut.rtt_rttvar4.value, dut.rtt_r.value = int(8 * srtt), int(4 * rttvar), r
    dut.rtt_min.value, dut.rtt_max.value = rto_min, rto_max
    await settle()
    return (Fraction(int(dut.rtt_srtt8_o.value), 8), Fraction(int(dut.rtt_rttvar4_o.value), 4),
            int(dut.rtt_rto_o.value))


@cocotb.test()
async def rtt_estimator_is_rfc6298(dut):
    rng = random.Random(3)
    # one step from random states: SRTT within 1/4 us and RTTVAR within 1/2 us of the exact
    # update (the only rounding is SRTT to whole us inside |SRTT - R'|)
    for _ in range(N_RANDOM):
        srtt = rng.choice([0, Fraction(rng.randrange(8, 1 << 29), 8)])
        rttvar = Fraction(rng.randrange(0, 1 << 27), 4) if srtt else 0
        r = rng.choice([0, 1, rng.randrange(0, 1 << 26)])
        rto_min, rto_max = rng.choice([(1000, 60_000_000), (200_000, 60_000_000), (1, 1 << 31)])
        s, v, rto = await rtt_step(dut, srtt, rttvar, r, rto_min, rto_max)
        es, ev = rtt_exact(srtt, rttvar, r)
        assert abs(s - es) <= Fraction(1, 4) and abs(v - ev) <= Fraction(1, 2), \
            (float(srtt), float(rttvar), r, float(s), float(v), float(es), float(ev))
        assert rto == rto_ref(s, v, rto_min, rto_max), (float(s), float(v), rto)
    # a run of samples follows the exact recursion (rounding does not pile up), and a
    # steady RTT gives SRTT within 1 us of it and RTTVAR under 1 us
    srtt = rttvar = 0
    es = ev = Fraction(0)
    for i in range(400):
        r = 1000 + (rng.randrange(0, 200) if i < 300 else 0)
        srtt, rttvar, rto = await rtt_step(dut, srtt, rttvar, r, 1, 1 << 31)
        es, ev = rtt_exact(es, ev, r)
        assert abs(srtt - es) <= 1 and abs(rttvar - ev) <= 1, (i, float(srtt), float(rttvar), float(es), float(ev))
    assert abs(srtt - 1000) <= 1 and rttvar < 1 and rto == rto_ref(srtt, rttvar, 1, 1 << 31), (srtt, rttvar, rto)
    # the first sample, and the bounds of 2.4 and 2.5
    assert await rtt_step(dut, 0, 0, 3000, 1, 1 << 31) == (3000, 1500, 3000 + 6000)
    assert (await rtt_step(dut, 0, 0, 10, 1_000_000, 60_000_000))[2] == 1_000_000
    assert (await rtt_step(dut, 0, 0, 100_000_000, 1_000_000, 60_000_000))[2] == 60_000_000
    # the bounds at and next to the RTO (RFC 6298 2.4, 2.5: kept within [rto_min, rto_max]),
    # and a minimum above the maximum (the maximum wins)
    for _ in range(N_RANDOM // 4):
        srtt = rng.choice([0, Fraction(rng.randrange(8, 1 << 29), 8)])
        rttvar = Fraction(rng.randrange(0, 1 << 27), 4) if srtt else 0
        r = rng.randrange(0, 1 << 26)
        s, v, rto = await rtt_step(dut, srtt, rttvar, r, 1, 1 << 31)
        assert rto == rto_ref(s, v, 1, 1 << 31)
        for rto_min, rto_max in [(rto, rto), (rto + 1, 1 << 31), (rto - 1, rto - 1), (1, rto - 1), (1, rto + 1),
                                 (rto + 1, rto - 1), (rto, rto + 1), (rto - 1, rto)]:
            got = (await rtt_step(dut, srtt, rttvar, r, rto_min, rto_max))[2]
            want = rto_ref(s, v, rto_min, rto_max)
            assert got == want, (float(s), float(v), rto, rto_min, rto_max, got, want)
    # K*RTTVAR = 0 (RTTVAR 0 and a sample equal to SRTT): G, 1 us, counts instead (2.3)
    assert await rtt_step(dut, Fraction(1000), 0, 1000, 1, 1 << 31) == (1000, 0, 1001)
    # the sample the core takes: now - sent modulo 2^32 (the microsecond clock wraps), and a
    # sample of 0 counts as 1 us (2.2's G)
    for now, sent in [(5, 5), (6, 5), (1000, 0), (3, 0xFFFFFFFE), (0, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF)] + \
            [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(100)]:
        dut.rtt_now.value, dut.rtt_sent.value = now, sent
        await settle()
        assert int(dut.rtt_us_o.value) == max(1, wrap(now - sent)), (now, sent)


# ---- RFC 1122 4.2.3.4 (sender SWS avoidance) with Nagle (RFC 896): send_ref, tb/common/tcp_ref.py ----
@cocotb.test()
async def send_decision_is_rfc1122_with_nagle(dut):
    rng = random.Random(4)
    sent = held = 0
    for _ in range(N_RANDOM):
        una = rand_seq(rng)
        snd_max = wrap(una + rng.choice([0, rng.randrange(0, 70000)]))
        nxt = wrap(una + rng.randrange(0, wrap(snd_max - una) + 1))        # go back: una <= nxt <= max
        queued_end = wrap(snd_max + rng.choice([0, 1, rng.randrange(0, 3000), rng.randrange(0, 70000)]))
        mss = rng.choice([536, 1460, rng.randrange(64, 9000)])
        max_wnd = rng.choice([rng.randrange(0, 65536), 65535, rng.randrange(1, 2 * mss)])
        wnd = rng.choice([0, max_wnd, rng.randrange(0, max_wnd + 1)])
        nagle, force = rng.getrandbits(1), int(rng.random() < 0.1)
        for name, v in (("una", una), ("nxt", nxt), ("max", snd_max), ("queued_end", queued_end), ("wnd", wnd),
                        ("max_wnd", max_wnd), ("mss", mss), ("nagle", nagle), ("force", force)):
            getattr(dut, "snd_" + name).value = v
        await settle()
        want = send_ref(una, nxt, snd_max, queued_end, wnd, max_wnd, mss, nagle, force)
        got = (int(dut.snd_len.value), bool(int(dut.snd_held.value)))
        assert got == want, dict(una=una, nxt=nxt, max=snd_max, end=queued_end, wnd=wnd, max_wnd=max_wnd,
                                 mss=mss, nagle=nagle, force=force, got=got, want=want)
        # SND.NXT and SND.MAX after the segment; whether data and window go on past a full one
        nxt_after = wrap(nxt + want[0])
        max_after = nxt_after if lt(snd_max, nxt_after) else snd_max
        more = send_more(una, nxt, queued_end, wnd, mss)
        got = (int(dut.snd_nxt_o.value), int(dut.snd_max_o.value), bool(int(dut.snd_more.value)),
               bool(int(dut.snd_go.value)))
        assert got == (nxt_after, max_after, more, want[0] > 0), (got, nxt_after, max_after, more, mss)
        sent += want[0] > 0
        held += want[1]
    assert sent > N_RANDOM // 4 and held > N_RANDOM // 100, (sent, held)


# ---- RFC 1122 4.2.3.3 (receiver SWS avoidance); RFC 9293: never shrink the window ----
def adv_ref(rcv_adv, rcv_nxt, rx_read, mss, ring, max_win, dup):
    """The edge the buffer allows (every unread byte and the window within the ring, at
    most max_win past RCV.NXT) is offered only when it moves the advertised edge right
    by at least min(Fr * RCV.BUFF, MSS), Fr = 1/2; otherwise the edge stays. A duplicate
    ACK (RCV.NXT repeated while data past a hole is held) repeats the last window: RFC 5681
    section 2, a duplicate ACK's "advertised window ... equals the advertised window in
    the last incoming acknowledgment"."""
    if dup:
        return rcv_adv
    allowed = wrap(rx_read + ring)
    if lt(wrap(rcv_nxt + max_win), allowed):
        allowed = wrap(rcv_nxt + max_win)
    if lt(rcv_adv, allowed) and wrap(allowed - rcv_adv) >= min(Fraction(ring, 2), mss):
        return allowed
    return rcv_adv


@cocotb.test()
async def window_advertisement_avoids_silly_windows(dut):
    rng = random.Random(5)
    moved = held = 0
    for _ in range(N_RANDOM):
        dup = int(rng.random() < 0.25)
        ring = rng.choice([4096, 16384, 65536, 1 << 20])
        max_win = min(ring, 65535)
        rx_read = rand_seq(rng)
        rcv_nxt = wrap(rx_read + rng.randrange(0, ring + 1))              # unread bytes fit the ring
        rcv_adv = wrap(rcv_nxt + rng.randrange(0, max_win + 1))          # the edge we offered
        if lt(wrap(rx_read + ring), rcv_adv):
            rcv_adv = wrap(rx_read + ring)
        mss = rng.choice([536, 1460, rng.randrange(64, 9000)])
        if rng.random() < 0.2:   # the edge a step short of the allowed one, give or take a byte
            allowed = wrap(rx_read + ring)
            if lt(wrap(rcv_nxt + max_win), allowed):
                allowed = wrap(rcv_nxt + max_win)
            rcv_adv = wrap(allowed - min(ring // 2, mss) + rng.choice([-1, 0, 1]))
        for name, v in (("rcv_adv", rcv_adv), ("rcv_nxt", rcv_nxt), ("rx_read", rx_read), ("ring", ring),
                        ("max_win", max_win), ("mss", mss), ("dup", dup)):
            getattr(dut, "adv_" + name).value = v
        await settle()
        want = adv_ref(rcv_adv, rcv_nxt, rx_read, mss, ring, max_win, dup)
        got = int(dut.adv_edge_o.value)
        assert got == want, (rcv_adv, rcv_nxt, rx_read, mss, ring, got, want)
        assert int(dut.adv_moves_o.value) == (want != rcv_adv), (rcv_adv, rcv_nxt, rx_read, mss, ring, dup)
        assert le(rcv_adv, got), "the advertised edge moved left"
        moved += got != rcv_adv
        held += dup and adv_ref(rcv_adv, rcv_nxt, rx_read, mss, ring, max_win, 0) != rcv_adv
    assert N_RANDOM // 10 < moved < N_RANDOM * 9 // 10, moved
    assert held > N_RANDOM // 50, "duplicate ACKs that would otherwise have moved the edge were tried"


# ---- RFC 9293 3.7.1: the send MSS ----
@cocotb.test()
async def peer_mss_defaults_clamps_and_caps(dut):
    rng = random.Random(6)
    cases = [(0, 1460, 536), (0, 1460, 1000), (1460, 1460, 536), (9000, 1460, 536), (1, 1460, 536),
             (88, 1460, 88), (536, 500, 536)]
    # equal and next-to-equal values on each compare (option, floor, ours; 536 by default)
    cases += [(1000, 1000, 1000), (999, 1000, 1000), (1001, 1000, 536), (1000, 999, 1000), (600, 1460, 600),
              (599, 1460, 600), (601, 1460, 600), (0, 536, 536), (0, 535, 536), (0, 537, 536), (0, 1460, 537),
              (0, 1460, 535), (0, 535, 535), (700, 600, 650), (700, 650, 600), (0, 600, 650)]
    cases += [(rng.choice([0, rng.randrange(1, 65536)]), rng.randrange(536, 9001), rng.randrange(64, 1461))
              for _ in range(500)]
    for opt, ours, floor in cases:
        dut.mss_opt.value, dut.mss_our.value, dut.mss_floor.value = opt, ours, floor
        await settle()
        peer = opt if opt else 536                   # no option: 536
        want = min(max(peer, floor), ours)
        assert (int(dut.mss_o.value), int(dut.mss_clamped.value)) == (want, int(peer < floor)), (opt, ours, floor)


# ---- out-of-order reassembly (RFC 9293 3.10.7.4: segments ahead of RCV.NXT may be held) ----
OOO_INTERVALS = 4
IV_BITS = 65                      # {on, lo[31:0], hi[31:0]}, interval 0 in the low bits


def pack_set(ivs):
    v = 0
    for k, (lo, hi) in enumerate(ivs):
        v |= ((1 << 64) | (lo << 32) | hi) << (k * IV_BITS)
    return v


def unpack_set(v):
    out = []
    for k in range(OOO_INTERVALS):
        e = (v >> (k * IV_BITS)) & ((1 << IV_BITS) - 1)
        if e >> 64:
            out.append(((e >> 32) & (M - 1), e & (M - 1)))
        elif e:
            out.append(("off but not zero", e))
    return out


def runs(byte_set):
    """The maximal runs of consecutive offsets of a set, in order, as [lo, hi)."""
    out = []
    for b in sorted(byte_set):
        if out and out[-1][1] == b:
            out[-1][1] = b + 1
        else:
            out.append([b, b + 1])
    return [tuple(r) for r in out]


def reasm_ref(ivs, rcv_nxt, seg_lo, seg_hi):
    """The rule in bytes, on offsets from RCV.NXT: stored = the bytes held ahead. The new
    bytes are the run from the first byte at or after the segment's start (or RCV.NXT) that
    is not stored, up to the next stored byte or the segment's end. In order, the stream
    takes them and the stored run that follows them. Otherwise they are stored; if that
    makes more than OOO_INTERVALS runs, the farthest run is forgotten, unless it is the new
    one: then nothing is stored. Returns (store, lo, hi, rcv_nxt, joined, evicted, ivs)."""
    off = lambda x: wrap(x - rcv_nxt)                                   # noqa: E731
    stored = set()
    for lo, hi in ivs:
        stored |= set(range(off(lo), off(hi)))
    a = 0 if le(seg_lo, rcv_nxt) else off(seg_lo)
    b = off(seg_hi)
    x = a
    while x in stored:
        x += 1
    if x >= b:
        return (0, 0, 0, rcv_nxt, 0, 0, ivs)
    y = x + 1
    while y < b and y not in stored:
        y += 1
    absolute = lambda o: wrap(rcv_nxt + o)                              # noqa: E731
    if a == 0:
        nxt, joined = y, 0
        while nxt in stored:
            nxt += 1
            joined += 1
        left = [(absolute(lo), absolute(hi)) for lo, hi in runs(stored) if lo > nxt]
        return (1, absolute(x), absolute(y), absolute(nxt), joined, 0, left)
    new = runs(stored | set(range(x, y)))
    evicted = 0
    if len(new) > OOO_INTERVALS:
        if new[-1][0] <= x < new[-1][1]:
            return (0, 0, 0, rcv_nxt, 0, 0, ivs)
        new, evicted = new[:OOO_INTERVALS], 1
    return (1, absolute(x), absolute(y), rcv_nxt, 0, evicted, [(absolute(lo), absolute(hi)) for lo, hi in new])


def rand_ivs(rng, span):
    """Up to OOO_INTERVALS stored intervals (offsets from RCV.NXT): past it, apart."""
    n = rng.randrange(0, OOO_INTERVALS + 1)
    cuts = sorted(rng.sample(range(1, span), 2 * n))
    ivs = []
    for k in range(n):
        lo, hi = cuts[2 * k], cuts[2 * k + 1]
        if ivs and ivs[-1][1] >= lo:            # keep a gap of at least one byte
            continue
        ivs.append((lo, hi))
    return ivs


async def reasm_step(dut, ivs, rcv_nxt, seg_lo, seg_hi, ring=65536):
    dut.ra_set.value = pack_set(ivs)
    dut.ra_rcv_nxt.value, dut.ra_lo.value, dut.ra_hi.value, dut.ra_ring.value = rcv_nxt, seg_lo, seg_hi, ring
    await settle()
    got_set = unpack_set(int(dut.ra_set_o.value))
    store = int(dut.ra_store.value)
    return (store, int(dut.ra_lo_o.value) if store else 0, int(dut.ra_hi_o.value) if store else 0,
            int(dut.ra_rcv_nxt_o.value), int(dut.ra_joined.value), int(dut.ra_evicted.value), got_set)


@cocotb.test()
async def reassembly_stores_each_byte_once_and_keeps_the_nearest_intervals(dut):
    rng = random.Random(7)
    seen = {"in order": 0, "joined": 0, "new interval": 0, "merged": 0, "evicted": 0, "refused": 0,
            "duplicate": 0}
    for _ in range(N_RANDOM):
        span = rng.choice([40, 300, 6000, 65000])
        rcv_nxt = rand_seq(rng)
        ivs_off = rand_ivs(rng, span)
        ivs = [(wrap(rcv_nxt + lo), wrap(rcv_nxt + hi)) for lo, hi in ivs_off]
        edges = [0, span] + [e + d for iv in ivs_off for e in iv for d in (-1, 0, 1)]
        a = rng.choice([rng.choice(edges), rng.randrange(0, span), -rng.randrange(1, 1500)])
        length = rng.choice([1, rng.randrange(1, 1461), rng.randrange(1, span + 1)])
        b = min(a + length, span)               # the caller cuts the segment at the window's edge
        if b <= 0 or a >= span:
            continue
        seg_lo, seg_hi = wrap(rcv_nxt + a), wrap(rcv_nxt + b)
        want = reasm_ref(ivs, rcv_nxt, seg_lo, seg_hi)
        got = await reasm_step(dut, ivs, rcv_nxt, seg_lo, seg_hi)
        assert got == want, dict(rcv_nxt=rcv_nxt, ivs=ivs_off, seg=(a, b), got=got, want=want)
        assert int(dut.ra_set_ok.value) == 1, ivs_off
        assert int(dut.ra_set_o_ok.value) == 1, (ivs_off, (a, b), got)
        store, _, _, _, joined, evicted, _ = want
        seen["in order"] += a <= 0 and store
        seen["joined"] += joined > 0
        seen["new interval"] += a > 0 and store and len(want[6]) > len(ivs)
        seen["merged"] += a > 0 and store and len(want[6]) < len(ivs)
        seen["evicted"] += evicted
        seen["refused"] += a > 0 and not store and len(ivs) == OOO_INTERVALS
        seen["duplicate"] += not store
    assert all(n > 20 for n in seen.values()), seen


@cocotb.test()
async def reassembly_invariant_catches_bad_sets(dut):
    """reasm_set_ok (the core's assertion) rejects each way a set can be wrong."""
    nxt = M - 100                               # across the wrap
    good = [(wrap(nxt + 10), wrap(nxt + 20)), (wrap(nxt + 30), wrap(nxt + 40))]
    bad = {"adjacent": [(wrap(nxt + 10), wrap(nxt + 20)), (wrap(nxt + 20), wrap(nxt + 40))],
           "out of order": [good[1], good[0]],
           "at RCV.NXT": [(nxt, wrap(nxt + 5))],
           "empty": [(wrap(nxt + 10), wrap(nxt + 10))],
           "past the ring": [(wrap(nxt + 10), wrap(nxt + 70000))]}
    for name, ivs in [("good", good)] + list(bad.items()):
        dut.ra_set.value = pack_set(ivs)
        dut.ra_rcv_nxt.value, dut.ra_ring.value = nxt, 65536
        await settle()
        assert int(dut.ra_set_ok.value) == (name == "good"), name
    # an interval that is off between two that are on
    dut.ra_set.value = pack_set(good[:1]) | (pack_set([good[1]]) << (2 * IV_BITS))
    await settle()
    assert int(dut.ra_set_ok.value) == 0


def test_toe_tcp_rules():
    runner.run("toe_tcp_rules_tb", "test_toe_tcp_rules", {}, Path(__file__).parent,
               extra_sources=[Path(__file__).parent / "toe_tcp_rules_tb.sv"])
