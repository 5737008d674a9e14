"""toe_tcp_rx_parse under an option fuzz: segments with random option lists (every option
length 0-255 behind random NOP runs, chains of options behind NOP runs whose last one ends
a byte before, at or a byte past the options' end, and fully random option bytes) must each end,
within a bound of cycles, either as one parsed segment (with the right MSS) or as one
tcpInErrs drop, as a reference walk of RFC 9293 3.1 option rules says. One segment with
options 01 01 b9 ff once wrapped the walk's position and stopped the parser for good.
A segment with one bit flipped anywhere (bad checksum) must be a drop. Segments with the
options Linux puts on data segments (NOP NOP timestamps), and SYNs with the option lists
of Linux, Windows and macOS, pass as fast as segments of the same length without options."""
import random
import struct
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly
from scapy.layers.inet import in4_pseudoheader, IP
from scapy.utils import checksum

import runner
from tbutil import TB

SRC, DST = "198.51.100.1", "192.0.2.2"


def ref_walk(opts):
    """(ok, mss) by the parser's contract: NOP is one byte, EOL ends the list, every other
    option has a length >= 2 that stays inside the header, MSS has length 4."""
    pos, mss = 0, 0
    while pos < len(opts):
        kind = opts[pos]
        if kind == 0:
            break
        if kind == 1:
            pos += 1
            continue
        if pos + 1 >= len(opts):
            return False, 0
        olen = opts[pos + 1]
        if olen < 2 or pos + olen > len(opts) or (kind == 2 and olen != 4):
            return False, 0
        if kind == 2:
            mss = opts[pos + 2] << 8 | opts[pos + 3]
        pos += olen
    return True, mss


def segment(opts, payload):
    opts = opts + bytes(-len(opts) % 4)
    hdr = struct.pack("!HHIIBBHHH", 40000, 7, 1000, 0, (5 + len(opts) // 4) << 4, 0x02, 65535, 0, 0)
    seg = hdr + opts + payload
    ck = checksum(in4_pseudoheader(6, IP(src=SRC, dst=DST), len(seg)) + seg)
    return seg[:16] + ck.to_bytes(2, "big") + seg[18:], opts


def ip_meta(length):
    """toe_pkg::ip_rx_meta_t {raw_hdr (stream byte order), broadcast, length} and the bad bit."""
    raw = bytes(IP(src=SRC, dst=DST, proto=6, len=20 + length))[:20]
    return ((int.from_bytes(raw, "little") << 17 | length) << 1)


def syn_layouts(rng):
    """The SYN option lists of the common stacks, with random values."""
    mss, ws, ts = rng.getrandbits(16).to_bytes(2, "big"), bytes([rng.randrange(15)]), rng.randbytes(8)
    m = bytes([2, 4]) + mss
    return {
        "linux": m + bytes([4, 2, 8, 10]) + ts + bytes([1, 3, 3]) + ws,
        "linux_nosack": m + bytes([1, 1, 8, 10]) + ts + bytes([1, 3, 3]) + ws,
        "linux_nots": m + bytes([1, 1, 4, 2, 1, 3, 3]) + ws,
        "windows": m + bytes([1, 3, 3]) + ws + bytes([1, 1, 4, 2]),
        "macos": m + bytes([1, 3, 3]) + ws + bytes([1, 1, 8, 10]) + ts + bytes([4, 2, 0, 0]),
    }


async def start(dut, idle, backpressure):
    """The parser out of reset, with a source and a sink of the given idle and back-pressure."""
    tb = TB(dut)
    src = tb.source("s_axis", idle=idle)
    sink = tb.sink("m_axis", backpressure=backpressure)
    dut.m_seg_ready.value = 1
    await tb.reset()
    return tb, src, sink


def cases(rng):
    for olen in range(256):                       # every length, after a random NOP run
        nops = rng.randrange(0, 6)
        kind = rng.choice([2, 3, 4, 5, 8, 0x1E, 0xB9, 0xFE])
        body = bytes([1] * nops + [kind, olen]) + bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 40)))
        yield body[:40]
    yield bytes([1, 1, 0xB9, 0xFF])               # the frame that stopped the engine
    for _ in range(200):                          # random option bytes, random header lengths
        yield bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 41)))
    for _ in range(300):                          # chains of options behind NOP runs, the last
        size = 4 * rng.randrange(2, 11)           # one ending a byte before, at or a byte past the end
        body = bytearray()
        for _ in range(rng.randrange(0, 4)):
            olen = rng.randrange(2, 7)
            body += bytes([1] * rng.randrange(0, 4) + [rng.choice([3, 4, 8, 0x1E]), olen]) + bytes(olen - 2)
        body += bytes([1] * rng.randrange(0, 4))
        if len(body) + 2 > size:
            continue
        filler = size - len(body) - 2
        body += bytes([rng.choice([3, 8, 0xFE]), size - len(body) + rng.choice([-1, 0, 1])]) + bytes(filler)
        yield bytes(body)
    for _ in range(40):                           # well-formed lists as Linux sends them
        yield bytes([2, 4, 5, 0xB4, 4, 2, 8, 10]) + rng.getrandbits(64).to_bytes(8, "big") + bytes([1, 3, 3, 7])
    for _ in range(30):                           # the stacks' SYN lists (matched whole by the
        for opts in syn_layouts(rng).values():    # parser), as sent and with one byte changed
            yield opts
            at = rng.randrange(len(opts))
            yield opts[:at] + bytes([rng.choice([0, 1, 2, 3, 4, 8, 10, rng.getrandbits(8)])]) + opts[at + 1:]


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def option_fuzz(dut):
    w = len(dut.s_axis_tdata) // 8
    rng = random.Random(8)
    tb, src, sink = await start(dut, idle=0.2, backpressure=0.2)
    good = bad = corrupt = 0
    for opts in cases(rng):
        payload = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 3 * w)))
        seg, padded = segment(opts, payload)
        ok, mss = ref_walk(padded)
        if rng.random() < 0.15:                   # a flipped bit anywhere: bad checksum
            at = rng.randrange(len(seg))
            seg = seg[:at] + bytes([seg[at] ^ (1 << rng.randrange(8))]) + seg[at + 1:]
            ok = False
            corrupt += 1
        src.send_nowait(seg, tuser=ip_meta(len(seg)))
        # bound: the frame's beats with idle cycles, the checksum FIFO, and one walk step
        # per option byte
        bound = 4 * (len(seg) // w + 1) + 2 * 40 + 40
        seen = None
        for cyc in range(bound):
            await FallingEdge(tb.clk)
            await ReadOnly()
            if dut.m_seg_valid.value:
                seen = ("seg", int(dut.m_seg.value))
                break
            if dut.stat_in_errs.value:
                seen = ("err", None)
                break
        assert seen is not None, f"options {opts.hex()}: no segment and no drop in {bound} cycles"
        if ok:
            assert seen[0] == "seg", f"options {opts.hex()}: well-formed but dropped"
            got_mss = (seen[1] >> 16) & 0xFFFF      # tcp_seg_t: ... mss, length
            assert got_mss == mss, f"options {opts.hex()}: MSS {got_mss}, want {mss}"
            frame, _, _ = await sink.recv()
            assert frame == payload
            good += 1
        else:
            assert seen[0] == "err", f"options {opts.hex()}: malformed but delivered"
            bad += 1
        await FallingEdge(tb.clk)
    assert good > 40 and bad > 100 and corrupt > 30, (good, bad, corrupt)
    assert sink.empty()


async def stream_cycles(tb, dut, src, sink, segs):
    """Cycles from the first beat offered until every segment is out, back to back."""
    for seg in segs:
        src.send_nowait(seg, tuser=ip_meta(len(seg)))
    seen = 0
    for cyc in range(100 * len(segs)):
        await FallingEdge(tb.clk)
        await ReadOnly()
        seen += int(dut.m_seg_valid.value)
        if seen == len(segs):
            break
    assert seen == len(segs), f"{seen} of {len(segs)} segments out"
    for _ in segs:
        await sink.recv()
    await FallingEdge(tb.clk)
    return cyc


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def linux_options_cost_no_cycles(dut):
    """Data segments with NOP NOP timestamps (Linux's layout) and the same segments with the
    12 option bytes as payload instead: the same cycles for a back-to-back run."""
    tb, src, sink = await start(dut, idle=0.0, backpressure=0.0)
    n, payload = 64, bytes(range(64))
    ts = bytes([1, 1, 8, 10]) + bytes(range(8))
    with_opts = await stream_cycles(tb, dut, src, sink, [segment(ts, payload)[0] for _ in range(n)])
    without = await stream_cycles(tb, dut, src, sink, [segment(b"", ts + payload)[0] for _ in range(n)])
    dut._log.info("%d segments: %d cycles with NOP NOP TS, %d with the bytes as payload", n, with_opts, without)
    assert with_opts <= without + 2, f"{with_opts} cycles with options vs {without} without"


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def syn_layouts_cost_no_cycles(dut):
    """SYNs with the option lists of Linux, Windows, macOS: as fast as the same segments with
    the option bytes as payload (the walk would take 2 cycles per option past the first)."""
    tb, src, sink = await start(dut, idle=0.0, backpressure=0.0)
    n = 32
    for name, opts in syn_layouts(random.Random(9)).items():
        with_opts = await stream_cycles(tb, dut, src, sink, [segment(opts, b"")[0] for _ in range(n)])
        without = await stream_cycles(tb, dut, src, sink, [segment(b"", opts)[0] for _ in range(n)])
        dut._log.info("%s: %d SYNs in %d cycles, %d with the bytes as payload", name, n, with_opts, without)
        assert with_opts <= without + 2, f"{name}: {with_opts} cycles with options vs {without} without"


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_tcp_rx_parse(data_w):
    runner.run("toe_tcp_rx_parse", "test_toe_tcp_rx_parse", {"DATA_W": data_w}, Path(__file__).parent)
