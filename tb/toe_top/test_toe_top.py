"""toe_top at 64 and 512 bits with scapy-built frames: ARP, ICMP echo, UDP both ways and
the bad-input battery. Every bad frame must be dropped and counted in the right counter
(and nothing else answered), and a valid ping right after it must still be answered.
MAC and application streams run with random idle cycles and back-pressure. The TCP
application API is driven directly (DRAM is cocotbext-axi's AxiRam) with bad requests:
each is refused or cut as documented, counted, and the connection keeps working."""
import random
from pathlib import Path

import cocotb
import pytest
import logging

from cocotb.triggers import with_timeout
from cocotbext.axi import AxiBus, AxiRam
from scapy.all import ARP, ICMP, IP, TCP, UDP, Ether, Raw

from axil import AxilMaster
from regmap_py import COUNTER, REG
from tbutil import TB
import runner

TOE_MAC, TOE_IP = "02:00:00:00:00:02", "192.0.2.2"
PEER_MAC, PEER_IP = "02:00:00:00:00:01", "192.0.2.1"


def udp_meta(remote_ip, remote_port, local_port, length):
    ip = int.from_bytes(bytes(map(int, remote_ip.split("."))), "big")
    return (ip << 48) | (remote_port << 32) | (local_port << 16) | length


def checksums_ok(pkt):
    """True if every checksum in pkt equals what scapy computes afresh."""
    fresh = pkt.copy()
    for layer in (IP, ICMP, UDP):
        if layer in fresh:
            del fresh[layer].chksum
    fresh = Ether(bytes(fresh))
    return all(pkt[l].chksum == fresh[l].chksum for l in (IP, ICMP, UDP) if l in pkt)


class Top:
    def __init__(self, dut):
        self.tb = TB(dut)
        self.dut = dut
        self.mac_rx = self.tb.source("s_mac_rx_axis", idle=0.2, seed=3)
        self.mac_tx = self.tb.sink("m_mac_tx_axis", backpressure=0.3, seed=4)
        self.app_rx = self.tb.sink("m_udp_rx_axis", backpressure=0.3, seed=5)
        self.app_tx = self.tb.source("s_udp_tx_axis", idle=0.2, seed=6)
        self.csr = AxilMaster(self.tb)
        self.ping_seq = 0
        dut.tick_us.value = 0
        dut.udp_listen_req_valid.value = 0
        dut.udp_listen_rsp_ready.value = 0
        dut.m_host_rx_axis_tready.value = 1
        dut.s_host_tx_axis_tvalid.value = 0

    async def start(self):
        await self.tb.reset()
        mac = int(TOE_MAC.replace(":", ""), 16)
        await self.csr.write(REG["MAC_LO"], mac & 0xFFFFFFFF)
        await self.csr.write(REG["MAC_HI"], mac >> 32)
        await self.csr.write(REG["IPV4_NETMASK"], 0xFFFFFF00)
        await self.csr.write(REG["ICMP_UNREACH_INTERVAL_US"], 0)
        await self.csr.write(REG["IPV4_ADDR"], 0xC0000202)
        garp = await self.expect()
        assert ARP in garp and garp[ARP].op == 1 and garp[ARP].psrc == garp[ARP].pdst == TOE_IP
        # Teach the engine our MAC, as Linux does by asking for its address.
        await self.send(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) /
                        ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=TOE_IP))
        reply = await self.expect()
        assert reply[ARP].op == 2 and reply[ARP].hwsrc == TOE_MAC and reply[ARP].psrc == TOE_IP
        assert reply[Ether].dst == PEER_MAC and reply[ARP].pdst == PEER_IP

    async def send(self, pkt, bad_fcs=False):
        await self.mac_rx.send(bytes(pkt), tuser=int(bad_fcs))

    async def expect(self, timeout_us=200):
        data, _, _ = await with_timeout(self.mac_tx.recv(), timeout_us, "us")
        return Ether(data)

    async def counters(self):
        return {name: await self.csr.read(addr) for name, addr in COUNTER.items()}

    def echo_request(self, size=56, ip_opts=None):
        self.ping_seq += 1
        payload = bytes(random.Random(self.ping_seq).getrandbits(8) for _ in range(size))
        ip = IP(src=PEER_IP, dst=TOE_IP, options=ip_opts) if ip_opts else IP(src=PEER_IP, dst=TOE_IP)
        return Ether(dst=TOE_MAC, src=PEER_MAC) / ip / ICMP(type=8, id=0x77, seq=self.ping_seq) / Raw(payload)

    async def ping(self, size=56, ip_opts=None):
        req = self.echo_request(size, ip_opts)
        await self.send(req)
        rep = await self.expect()
        assert ICMP in rep and rep[ICMP].type == 0, rep.summary()
        assert rep[IP].src == TOE_IP and rep[IP].dst == PEER_IP and rep[Ether].dst == PEER_MAC
        assert rep[ICMP].seq == req[ICMP].seq and bytes(rep[ICMP].payload) == bytes(req[ICMP].payload)
        assert checksums_ok(rep), "bad checksum in echo reply"
        return rep


def delta(before, after):
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def ping_and_bad_input_battery(dut):
    t = Top(dut)
    await t.start()
    for size in (0, 1, 56, 1000, 1472):
        await t.ping(size)

    good = t.echo_request()
    raw = bytes(good)
    ip_ofs = 14

    def with_ip(**fields):
        p = good.copy()
        for k, v in fields.items():
            setattr(p[IP], k, v)
        return p

    def bad_ip_checksum():
        b = bytearray(raw)
        b[ip_ofs + 10] ^= 0xFF
        return bytes(b)

    def bad_icmp_checksum():
        b = bytearray(raw)
        b[ip_ofs + 20 + 2] ^= 0x01
        return bytes(b)

    def total_len_too_long():
        b = bytearray(bytes(with_ip(len=len(raw) - 14 + 20)))
        return bytes(b)

    # (name, frame, bad FCS, counters that must rise by one, expect an answer)
    battery = [
        ("runt frame", raw[:10], False, {"ethInRunts": 1}),
        ("shorter than IPv4 header", raw[:14 + 12], False, {"ipInHdrErrors": 1}),
        ("bad IP header checksum", bad_ip_checksum(), False, {"ipInHdrErrors": 1}),
        # Truncation shows only at the frame's end: the packet reaches ICMP marked bad and
        # ICMP's FIFO drops it, so ICMP counts it as a received message in error too.
        ("total length past frame end", total_len_too_long(), False,
         {"ipInTruncatedPkts": 1, "ipInDelivers": 1, "icmpInMsgs": 1, "icmpInEchos": 1,
          "icmpInErrors": 1}),
        ("IHL below 5", bytes(with_ip(ihl=4)), False, {"ipInHdrErrors": 1}),
        ("version 6 in an IPv4 frame", bytes(with_ip(version=6)), False, {"ipInHdrErrors": 1}),
        ("fragment (MF)", bytes(with_ip(flags="MF")), False, {"ipReasmReqds": 1}),
        ("fragment (offset)", bytes(with_ip(frag=10)), False, {"ipReasmReqds": 1}),
        ("wrong destination MAC", bytes(Ether(dst="02:00:00:00:00:99", src=PEER_MAC) / good[IP]),
         False, {"ethInDstDrops": 1}),
        ("wrong destination IP", bytes(with_ip(dst="192.0.2.99")), False, {"ipInAddrErrors": 1}),
        ("ARP for another host", bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) /
                                       ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst="192.0.2.77")),
         False, {"arpInRequests": 1}),
        ("ARP with bad hardware length", bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) /
                                               ARP(op=1, hwlen=8, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=TOE_IP)),
         False, {"arpInErrors": 1}),
        ("FCS error", raw, True, {"ethInFcsErrors": 1}),
        ("bad ICMP checksum", bad_icmp_checksum(), False, {"icmpInErrors": 1, "icmpInMsgs": 1,
                                                            "icmpInEchos": 1, "ipInDelivers": 1}),
        ("oversize echo request", bytes(t.echo_request(size=6000)), False,
         {"icmpEchoDrops": 1, "icmpInMsgs": 1, "icmpInEchos": 1, "ipInDelivers": 1}),
        ("unknown EtherType", bytes(Ether(dst=TOE_MAC, src=PEER_MAC, type=0x88B5) / Raw(b"x" * 50)),
         False, {"ethInTypeDrops": 1}),
        ("unknown protocol to the broadcast address", bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) /
                                          IP(src=PEER_IP, dst="255.255.255.255", proto=132) / Raw(b"\0" * 20)),
         False, {"ipInUnknownProtos": 1}),
        ("unknown protocol from a multicast source", bytes(Ether(dst=TOE_MAC, src=PEER_MAC) /
                                          IP(src="224.0.0.5", dst=TOE_IP, proto=132) / Raw(b"\0" * 20)),
         False, {"ipInUnknownProtos": 1}),
        ("TCP with a bad checksum", bytes(Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP, proto=6) /
                                          Raw(b"\0" * 20)), False,
         {"ipInDelivers": 1, "tcpInSegs": 1, "tcpInErrs": 1}),
    ]
    for name, frame, bad_fcs, rises in battery:
        before = await t.counters()
        await t.mac_rx.send(frame, tuser=int(bad_fcs))
        await t.mac_rx.wait_idle()
        # The RX FIFO is store-and-forward: the frame leaves it only now.
        await t.tb.cycles(200 + 2 * len(frame) // (len(dut.s_mac_rx_axis_tdata) // 8))
        got = delta(before, await t.counters())
        got.pop("ethInFrames", None)
        for k in ("ipInReceives",):
            got.pop(k, None)
        assert t.mac_tx.empty(), f"{name}: unexpected answer"
        assert got == rises, f"{name}: counters moved {got}, expected {rises}"
        await t.ping()

    # IP options are skipped, not refused: a ping with options is answered.
    await t.ping(ip_opts=b"\x01\x01\x01\x00")

    # Random garbage: no hang, no answer, then a ping still works.
    rng = random.Random(11)
    for i in range(30):
        hdr = bytes.fromhex(TOE_MAC.replace(":", "")) + bytes.fromhex(PEER_MAC.replace(":", ""))
        etype = rng.choice([b"\x08\x00", b"\x08\x06", bytes([rng.getrandbits(8), rng.getrandbits(8)])])
        body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 200)))
        await t.mac_rx.send(hdr + etype + body)
    await t.tb.cycles(500)
    while not t.mac_tx.empty():
        # Random bytes can form a valid request only by astronomically rare chance.
        data, _, _ = await t.mac_tx.recv()
        raise AssertionError(f"garbage was answered: {Ether(data).summary()}")
    await t.ping()


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def back_to_back_minimum_pings(dut):
    t = Top(dut)
    t.mac_rx.set_idle(0)
    t.mac_tx.set_backpressure(0)
    await t.start()
    reqs = [t.echo_request(size=18) for _ in range(50)]   # 60-byte frames
    for r in reqs:
        await t.send(r)
    for r in reqs:
        rep = await t.expect()
        assert rep[ICMP].seq == r[ICMP].seq and checksums_ok(rep)
    c = await t.counters()
    assert c["icmpOutEchoReps"] == 50 and c["ethInOverflows"] == 0


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def udp_both_ways(dut):
    t = Top(dut)
    await t.start()
    # Listen on 5000; a datagram to it reaches the application with its metadata.
    await t.tb.push("udp_listen_req", (5000 << 1) | 1)
    assert await t.tb.pop("udp_listen_rsp") == (5000 << 1) | 1
    rng = random.Random(5)
    sent = []
    for i in range(20):
        payload = bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 17, 64, 500, 1472])))
        sport = 40000 + i
        await t.send(Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) /
                     UDP(sport=sport, dport=5000) / Raw(payload))
        sent.append((sport, payload))
    for sport, payload in sent:
        data, meta, _ = await with_timeout(t.app_rx.recv(), 200, "us")
        assert data == payload
        assert meta == udp_meta(PEER_IP, sport, 5000, len(payload))

    # Bad datagrams: dropped and counted, never delivered.
    before = await t.counters()
    ok = Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) / UDP(sport=1, dport=5000) / Raw(b"abcdefgh")
    b = bytearray(bytes(ok))
    b[-1] ^= 0x55                                      # payload no longer matches the checksum
    await t.mac_rx.send(bytes(b))
    long_len = ok.copy()
    long_len[UDP].len = 200                            # UDP length beyond the IP payload
    await t.send(long_len)
    await t.send(Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) /
                 UDP(sport=1, dport=5000, chksum=0) / Raw(b"no checksum"))   # 0 = none: delivered
    data, _, _ = await with_timeout(t.app_rx.recv(), 200, "us")
    assert data == b"no checksum"
    await t.tb.cycles(100)
    assert t.app_rx.empty()
    d = delta(before, await t.counters())
    assert d.get("udpInErrors") == 2 and d.get("udpInDatagrams") == 1, d

    # Closed port: ICMP port unreachable quoting the datagram.
    probe = Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) / UDP(sport=999, dport=9) / Raw(b"q" * 30)
    await t.send(probe)
    un = await t.expect()
    assert un[ICMP].type == 3 and un[ICMP].code == 3 and checksums_ok(un)
    assert bytes(un[ICMP].payload)[:28] == bytes(probe[IP])[:28]

    # Unknown IP protocol: protocol unreachable quoting the header and the first 8 bytes of
    # the datagram (RFC 1122 3.2.2.1); a datagram shorter than that is quoted zero-filled.
    for body in (b"sctp-chunk-header", b"\x01\x02\x03"):
        before = await t.counters()
        probe = Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP, proto=132) / Raw(body)
        await t.send(probe)
        un = await t.expect()
        assert un[ICMP].type == 3 and un[ICMP].code == 2 and checksums_ok(un), un.summary()
        assert bytes(un[ICMP].payload)[:28] == (bytes(probe[IP]) + bytes(8))[:28]
        d = delta(before, await t.counters())
        assert d.get("ipInUnknownProtos") == 1 and d.get("icmpOutDestUnreachs") == 1, d

    # Application sends: the engine builds UDP/IP/Ethernet with correct checksums.
    for size in (0, 1, 33, 1472):
        payload = bytes(rng.getrandbits(8) for _ in range(size))
        await t.app_tx.send(payload, tuser=udp_meta(PEER_IP, 6000, 5000, size))
        out = await t.expect()
        assert out[UDP].sport == 5000 and out[UDP].dport == 6000 and out[IP].dst == PEER_IP
        assert bytes(out[UDP].payload) == payload and checksums_ok(out)
    # A wrong length from the application, a datagram longer than MTU - 28, or one that is
    # not packed (a beat before the last not full) is dropped and counted; the next good one
    # goes out.
    w = t.app_tx.width
    bad_sends = [
        (b"12345", 9),                                # 5 bytes, says 9
        (bytes(w + 3), 3),                            # one full beat too many
        (bytes(2 * w), 2 * w - 1),                    # one byte too many, in a full beat
        (bytes(2 * w), 2 * w + 1),                    # one byte short
        (bytes(1473), 1473),                          # consistent, but over MAX_PAYLOAD
        ([bytes(w - 1), bytes(2)], w + 1),            # not packed: right total, short first beat
    ]
    for data, length in bad_sends:
        before = await t.counters()
        await t.app_tx.send(data, tuser=udp_meta(PEER_IP, 6000, 5000, length))
        await t.tb.cycles(400)
        assert t.mac_tx.empty(), (length, "sent")
        assert delta(before, await t.counters()) == {"udpOutErrors": 1}, length
    payload = bytes(range(2 * w + 5))
    await t.app_tx.send(payload, tuser=udp_meta(PEER_IP, 6000, 5000, len(payload)))
    out = await t.expect()
    assert bytes(out[UDP].payload) == payload and checksums_ok(out)


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def arp_resolution_and_rate_limit(dut):
    """A send to an unknown neighbour is dropped and counted and starts ARP: requests are
    repeated every ARP_RETRY_US, then given up; a reply makes later sends go out.
    Port-unreachable messages are rate-limited."""
    t = Top(dut)
    await t.start()
    if int(dut.HOST_EN.value):
        return
    stranger = "192.0.2.51"   # a slot of its own (.50 would evict the peer, .1)
    before = await t.counters()
    await t.app_tx.send(b"hello", tuser=udp_meta(stranger, 6000, 5000, 5))
    req = await t.expect()
    assert ARP in req and req[ARP].op == 1 and req[ARP].pdst == stranger and req[Ether].dst == "ff:ff:ff:ff:ff:ff"
    dut.tick_us.value = 1                       # engine time runs one microsecond per cycle
    for _ in range(2):
        again = await t.expect(timeout_us=10)
        assert again[ARP].pdst == stranger
    await t.tb.cycles(int(dut.ARP_RETRY_US.value) * 2)
    assert t.mac_tx.empty(), "more than 3 requests"
    d = delta(before, await t.counters())
    assert d == {"udpOutDatagrams": 1, "ipOutRequests": 1, "ipOutArpMisses": 1,
                 "arpOutRequests": 3, "arpResolveFails": 1}, d
    # The neighbour answers a fresh attempt (engine time stopped: no retry in between);
    # then the datagram goes out.
    dut.tick_us.value = 0
    await t.app_tx.send(b"hello", tuser=udp_meta(stranger, 6000, 5000, 5))
    await t.expect()
    await t.send(Ether(dst=TOE_MAC, src="02:00:00:00:00:51") /
                 ARP(op=2, hwsrc="02:00:00:00:00:51", psrc=stranger, hwdst=TOE_MAC, pdst=TOE_IP))
    await t.tb.cycles(50)
    await t.app_tx.send(b"hello", tuser=udp_meta(stranger, 6000, 5000, 5))
    out = await t.expect()
    assert out[Ether].dst == "02:00:00:00:00:51" and bytes(out[UDP].payload) == b"hello"

    # Rate limit: with a 1000 us interval and no time passing, one unreachable of three.
    await t.csr.write(REG["ICMP_UNREACH_INTERVAL_US"], 1000)
    before = await t.counters()
    for port in (9, 10, 11):
        await t.send(Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) /
                     UDP(sport=999, dport=port) / Raw(b"q"))
    first = await t.expect()
    assert ICMP in first and first[ICMP].type == 3, first.summary()
    await t.tb.cycles(300)
    assert t.mac_tx.empty()
    d = delta(before, await t.counters())
    assert d.get("icmpOutDestUnreachs") == 1 and d.get("icmpOutRateLimited") == 2, d


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def arp_entry_ages_out(dut):
    """An ARP entry older than ARP_TIMEOUT_S units is a miss: the reply it would carry is
    dropped (counted) and the neighbour is asked again."""
    t = Top(dut)
    await t.start()
    if int(dut.HOST_EN.value):
        return
    await t.csr.write(REG["ARP_TIMEOUT_S"], 2)
    await t.ping()                                   # entry fresh
    unit = int(dut.ARP_AGE_UNIT_US.value)
    dut.tick_us.value = 1
    await t.tb.cycles(3 * unit)                      # older than 2 units
    dut.tick_us.value = 0
    before = await t.counters()
    await t.send(t.echo_request())
    again = await t.expect()
    assert ARP in again and again[ARP].op == 1 and again[ARP].pdst == PEER_IP
    await t.tb.cycles(100)
    assert t.mac_tx.empty()
    d = delta(before, await t.counters())
    assert d.get("ipOutArpMisses") == 1 and d.get("icmpOutEchoReps", 0) == 1, d


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def host_path(dut):
    """HOST_EN=1: frames of other EtherTypes reach the host port whole (bad ones marked),
    and host frames go out to the MAC."""
    t = Top(dut)
    if not int(dut.HOST_EN.value):
        return
    host_rx = t.tb.sink("m_host_rx_axis", backpressure=0.3, seed=8)
    host_tx = t.tb.source("s_host_tx_axis", idle=0.2, seed=9)
    await t.start()
    frames = [bytes(Ether(dst=TOE_MAC, src=PEER_MAC, type=0x88B5) / Raw(bytes([i]) * (20 + 37 * i)))
              for i in range(10)]
    for i, f in enumerate(frames):
        await t.mac_rx.send(f, tuser=int(i == 3))
    for i, f in enumerate(frames):
        if i == 3:
            continue   # the RX FIFO drops a frame with an FCS error before the host sees it
        data, user, _ = await with_timeout(host_rx.recv(), 200, "us")
        assert data == f and user == 0
    out = [bytes(Ether(dst=PEER_MAC, src=TOE_MAC, type=0x88B6) / Raw(bytes([i]) * (50 + i))) for i in range(5)]
    for f in out:
        await host_tx.send(f)
    for f in out:
        data, _, _ = await with_timeout(t.mac_tx.recv(), 200, "us")
        assert data == f
    c = await t.counters()
    assert c["hostRxFrames"] == 9 and c["hostTxFrames"] == 5 and c["ethInFcsErrors"] == 1


class TcpApi:
    """The TCP application API of toe_top, one request or response at a time."""

    REQS = ("tcp_listen_req", "tcp_open_req", "tcp_close_req", "tcp_rd_req", "tcp_tx_req")
    RSPS = ("tcp_listen_rsp", "tcp_open_rsp", "tcp_notif", "tcp_rx_meta", "tcp_tx_rsp")

    def __init__(self, t):
        self.dut = t.dut
        self.push, self.pop = t.tb.push, t.tb.pop
        for ch in self.REQS:
            getattr(self.dut, ch + "_valid").value = 0
        for ch in self.RSPS:
            getattr(self.dut, ch + "_ready").value = 0
        self.rx = t.tb.sink("m_tcp_rx_axis", backpressure=0.3, seed=11)
        self.tx = t.tb.source("s_tcp_tx_axis", idle=0.2, seed=12)

    async def notif(self):
        v = await self.pop("tcp_notif")   # {session 20, kind 3, length 16, ip, ports}
        return v >> 83, (v >> 80) & 7, (v >> 64) & 0xFFFF

    async def read(self, session, length):
        await self.push("tcp_rd_req", (session << 16) | length)
        return (await self.pop("tcp_rx_meta")) & 0xFFFF

    async def send(self, session, length):
        await self.push("tcp_tx_req", (session << 16) | length)
        return ((await self.pop("tcp_tx_rsp")) >> 17) & 3   # 0 accepted, 1 no space, 2 not connected


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def tcp_api_bad_requests(dut):
    t = Top(dut)
    AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=2**22)
    logging.getLogger("cocotb.toe_top.m_axi").setLevel(logging.WARNING)
    api = TcpApi(t)
    await t.start()
    await api.push("tcp_listen_req", (80 << 1) | 1)
    assert (await api.pop("tcp_listen_rsp")) & 1
    # Linux-like peer: handshake, then 100 bytes.
    seg = lambda flags, seq, ack, data=b"": (Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) /
                                             TCP(sport=40000, dport=80, flags=flags, seq=seq, ack=ack) / Raw(data))
    await t.send(seg("S", 100, 0))
    sa = await t.expect()
    assert sa[TCP].flags == "SA"
    rcv = sa[TCP].seq + 1
    await t.send(seg("A", 101, rcv))
    session, kind, _ = await api.notif()
    assert kind == 0                                        # NEW
    await t.send(seg("PA", 101, rcv, b"A" * 100))
    assert await api.notif() == (session, 1, 100)           # DATA, 100 bytes
    before = await t.counters()

    assert await api.read(session, 200) == 0                # more than was notified: refused
    assert await api.send(session ^ 5, 10) == 2             # a session that is not open
    assert await api.read(session, 100) == 100              # the data is intact
    data, _, _ = await api.rx.recv()
    assert data == b"A" * 100
    # A data frame longer than its request is cut to the request.
    assert await api.send(session, 10) == 0
    await api.tx.send(b"B" * 20)
    assert await api.send(session, 5) == 0
    await api.tx.send(b"C" * 5)
    got = b""
    while len(got) < 15:
        p = await t.expect(timeout_us=500)
        if TCP in p and bytes(p[TCP].payload):
            assert p[TCP].seq == (rcv + len(got)) % 2**32
            got += bytes(p[TCP].payload)
    assert got == b"B" * 10 + b"C" * 5
    # Abort, then close the same session again: refused.
    await api.push("tcp_close_req", (session << 1) | 1)
    rst = await t.expect()
    assert "R" in rst[TCP].flags
    assert (await api.notif())[1] == 4                      # RESET
    await api.push("tcp_close_req", session << 1)
    await t.tb.cycles(100)
    d = delta(before, await t.counters())
    assert d.get("tcpAppErrors") == 3 and d.get("tcpAppLenErrors") == 1, d


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def tcp_ready_after_reset(dut):
    """STATUS.tcp_ready and the tcp_ready port are 0 while TCP clears its tables after reset
    (the timer wheel's 1024 slots are the longest) and rise once, together; a SYN that comes
    before waits and is answered after."""
    t = Top(dut)
    AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=2**22)
    logging.getLogger("cocotb.toe_top.m_axi").setLevel(logging.WARNING)
    api = TcpApi(t)
    await t.tb.reset()
    assert int(dut.tcp_ready.value) == 0
    assert (await t.csr.read(REG["STATUS"])) & 1 == 0
    await t.start()                                         # resets again, then ARP
    await api.push("tcp_listen_req", (80 << 1) | 1)
    assert (await api.pop("tcp_listen_rsp")) & 1
    assert int(dut.tcp_ready.value) == 0, "the premise: the SYN comes before TCP is ready"
    await t.send(Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) /
                 TCP(sport=40001, dport=80, flags="S", seq=7))
    waited = 0
    while not int(dut.tcp_ready.value):
        await t.tb.cycles(1)
        waited += 1
        assert waited < 2000, "tcp_ready did not rise"
    sa = await t.expect(timeout_us=50)
    assert TCP in sa and sa[TCP].flags == "SA" and sa[TCP].ack == 8
    assert (await t.csr.read(REG["STATUS"])) & 1 == 1
    await t.tb.cycles(3000)                                 # it stays up
    assert int(dut.tcp_ready.value) == 1


@pytest.mark.parametrize("data_w,host_en", [(64, 0), (512, 0), (64, 1)])
def test_toe_top(data_w, host_en):
    tests = ["host_path"] if host_en else None
    runner.run("toe_top", "test_toe_top",
               {"DATA_W": data_w, "HOST_EN": host_en, "ARP_RETRY_US": 50, "ARP_AGE_UNIT_US": 200,
                "MAX_SESSIONS": 16},
               Path(__file__).parent, testcase=tests, ports_only=True)
