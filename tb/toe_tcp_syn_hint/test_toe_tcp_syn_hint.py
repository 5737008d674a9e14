"""toe_tcp_syn_hint against a reference of its contract that reads each frame with scapy:
a frame taken from the MAC's stream gives a hint, one cycle after the beat holding its
byte 47 (the TCP flags of an IPv4 header without options) is taken, exactly when it is
IPv4 with a 20-byte header, not a fragment, TCP, to the host's address, and its flags
say SYN without ACK or RST; the hint's tuple is (destination port, source address,
source port). Everything else gives none: SYN-ACKs, ACKs, RSTs, SYN+RST, SYNs to another
address, with IP options, fragments, UDP, ARP, VLAN-tagged and IPv6 frames, frames cut
before the flags byte, random bytes and valid SYNs with one header byte changed. Beats
offered without tready (random back-pressure) and idle gaps must not count; frames go
back to back too."""
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly
from scapy.layers.inet import IP, TCP, UDP, IPOption_NOP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import ARP, Dot1Q, Ether

import runner
from tbutil import TB

LOCAL = "192.0.2.2"
OTHER = "192.0.2.3"
FLAGS_BYTE = 47


def reference(frame):
    """The hint a frame gives ((local_port, remote_ip, remote_port)), or None."""
    if len(frame) <= FLAGS_BYTE:
        return None
    eth = Ether(frame)
    if not isinstance(eth, Ether) or eth.type != 0x0800 or IP not in eth:   # (a length, not a type: Dot3)
        return None
    ip = eth[IP]
    if ip.version != 4 or ip.ihl != 5 or ip.flags.MF or ip.frag != 0 or ip.proto != 6 or ip.dst != LOCAL:
        return None
    flags = frame[FLAGS_BYTE]       # TCP header byte 13, behind 14 + 20 bytes
    if not flags & 0x02 or flags & 0x14:
        return None
    ports = frame[34:38]
    return (int.from_bytes(ports[2:4], "big"), int.from_bytes(bytes(map(int, ip.src.split("."))), "big"),
            int.from_bytes(ports[0:2], "big"))


def tcp_frame(rng, flags="S", dst=LOCAL, ip_kw=None, opts=None, payload=b""):
    eth = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
    src = f"198.51.100.{rng.randrange(1, 255)}"
    tcp = TCP(sport=rng.getrandbits(16), dport=rng.getrandbits(16), flags=flags, seq=rng.getrandbits(32),
              options=opts if opts is not None else [("MSS", 1460)])
    return bytes(eth / IP(src=src, dst=dst, **(ip_kw or {})) / tcp / payload)


def frames(rng):
    """Named cases, then a random mix of them with mutations."""
    linux = [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (1, 0)), ("NOP", None), ("WScale", 7)]
    cases = [
        ("syn", tcp_frame(rng)), ("syn_linux", tcp_frame(rng, opts=linux)),
        ("syn_no_options", tcp_frame(rng, opts=[])), ("syn_df", tcp_frame(rng, ip_kw={"flags": "DF"})),
        ("syn_ece_cwr", tcp_frame(rng, flags="SEC")), ("syn_fin", tcp_frame(rng, flags="SF")),
        ("syn_data", tcp_frame(rng, payload=rng.randbytes(200))),
        ("syn_ack", tcp_frame(rng, flags="SA")), ("ack", tcp_frame(rng, flags="A")),
        ("rst", tcp_frame(rng, flags="R")), ("syn_rst", tcp_frame(rng, flags="SR")),
        ("fin_ack", tcp_frame(rng, flags="FA")), ("syn_other_host", tcp_frame(rng, dst=OTHER)),
        ("syn_ip_options", tcp_frame(rng, ip_kw={"options": [IPOption_NOP()] * 4})),
        ("syn_first_fragment", tcp_frame(rng, ip_kw={"flags": "MF"})),
        ("syn_later_fragment", tcp_frame(rng, ip_kw={"frag": 3})),
        ("udp", bytes(Ether() / IP(dst=LOCAL) / UDP(sport=1, dport=2) / rng.randbytes(40))),
        ("arp", bytes(Ether(dst="ff:ff:ff:ff:ff:ff") / ARP(pdst=LOCAL))),
        ("vlan_syn", bytes(Ether() / Dot1Q(vlan=5) / IP(dst=LOCAL) / TCP(flags="S"))),
        ("ipv6_syn", bytes(Ether() / IPv6() / TCP(flags="S"))),
        ("syn_cut_before_flags", tcp_frame(rng)[:FLAGS_BYTE]),
        ("syn_cut_after_flags", tcp_frame(rng)[:FLAGS_BYTE + 1]),
        ("runt", tcp_frame(rng)[:10]),
    ]
    for name, f in cases:
        yield name, f
    key = [12, 13, 14, 20, 21, 23, 30, 31, 32, 33, FLAGS_BYTE]
    for i in range(400):
        r = rng.random()
        if r < 0.3:
            yield "random_syn", tcp_frame(rng, opts=rng.choice([[], linux, [("MSS", 536)]]),
                                          payload=rng.randbytes(rng.choice([0, 0, 1, 64, 300])))
        elif r < 0.6:                         # a valid SYN with one header byte changed
            f = bytearray(tcp_frame(rng))
            f[rng.choice(key)] = rng.getrandbits(8)
            yield "mutated_syn", bytes(f)
        elif r < 0.75:
            yield "cut_syn", tcp_frame(rng)[:rng.randrange(1, 70)]
        elif r < 0.85:
            yield "random_bytes", rng.randbytes(rng.randrange(1, 130))
        else:
            yield rng.choice(cases)


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def hints_follow_the_contract(dut):
    rng = random.Random(7)
    tb = TB(dut)
    w = len(dut.s_axis_tdata) // 8
    dut.cfg_ip.value = int.from_bytes(bytes(map(int, LOCAL.split("."))), "big")
    dut.s_axis_tready.value = 1
    src = tb.source("s_axis", idle=0.0)
    await tb.reset()

    taken = []          # (cycle, beat bytes, last) of every beat taken
    hints = []          # (cycle, tuple)
    state = {"cycle": 0, "backpressure": 0.0}

    async def ready_driver():
        pause = rng.random
        while True:
            await FallingEdge(tb.clk)
            dut.s_axis_tready.value = int(pause() >= state["backpressure"])

    async def monitor():
        while True:
            await FallingEdge(tb.clk)
            await ReadOnly()
            c = state["cycle"]
            state["cycle"] += 1
            if int(dut.s_axis_tvalid.value) and int(dut.s_axis_tready.value):
                keep = int(dut.s_axis_tkeep.value)
                n = bin(keep).count("1")
                assert keep == (1 << n) - 1
                taken.append((c, int(dut.s_axis_tdata.value).to_bytes(w, "little")[:n],
                              int(dut.s_axis_tlast.value)))
            if int(dut.m_hint_valid.value):
                h = int(dut.m_hint.value)     # tcp_isn_req_t {local_port, remote_ip, remote_port}
                hints.append((c, (h >> 48, (h >> 16) & 0xFFFFFFFF, h & 0xFFFF)))
    cocotb.start_soon(ready_driver())
    cocotb.start_soon(monitor())
    await tb.cycles(2)

    names = []
    phases = [(0.0, 0.0), (0.3, 0.0), (0.0, 0.3), (0.4, 0.4)]   # (source idle, back-pressure)
    all_frames = list(frames(rng))
    per_phase = -(-len(all_frames) // len(phases))
    for p, (idle, bp) in enumerate(phases):
        src.set_idle(idle, seed=p + 1)
        state["backpressure"] = bp
        for name, f in all_frames[p * per_phase:(p + 1) * per_phase]:
            names.append(name)
            src.send_nowait(f)
        await src.wait_idle()
    await tb.cycles(10)

    # the frames as taken, with the cycle their flags' beat was taken
    want, frame, flags_cycle = [], b"", None
    got_frames = []
    for c, data, last in taken:
        if len(frame) <= FLAGS_BYTE < len(frame) + len(data):
            flags_cycle = c
        frame += data
        if last:
            got_frames.append(frame)
            h = reference(frame)
            if h is not None:
                want.append((flags_cycle + 1, h))
            frame, flags_cycle = b"", None
    assert len(got_frames) == len(names)
    hinted = {n for n, f in zip(names, got_frames) if reference(f)}
    dut._log.info("%d frames, %d hints; hinted kinds: %s", len(names), len(want), sorted(hinted))
    assert hints == want, f"{len(hints)} hints, {len(want)} wanted; first difference at " \
        f"{next((i for i, (a, b) in enumerate(zip(hints, want)) if a != b), min(len(hints), len(want)))}"
    # the contract's cases, by name: which of them give a hint
    assert hinted >= {"syn", "syn_linux", "syn_no_options", "syn_df", "syn_ece_cwr", "syn_fin", "syn_data",
                      "syn_cut_after_flags", "random_syn"}
    assert not hinted & {"syn_ack", "ack", "rst", "syn_rst", "fin_ack", "syn_other_host", "syn_ip_options",
                         "syn_first_fragment", "syn_later_fragment", "udp", "arp", "vlan_syn", "ipv6_syn",
                         "syn_cut_before_flags", "runt"}
    assert len(want) > 100


@pytest.mark.parametrize("data_w", [64, 256, 512])
def test_toe_tcp_syn_hint(data_w):
    runner.run("toe_tcp_syn_hint", "test_toe_tcp_syn_hint", {"DATA_W": data_w}, Path(__file__).parent)
