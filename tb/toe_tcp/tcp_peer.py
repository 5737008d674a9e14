"""A scapy TCP peer for the engine in toe_sim_top: drives the MAC ports, configures the
CSR block, and keeps the state of one or more peer-side connections so tests can write
exact segment exchanges (handshakes, data, closes, hostile segments)."""
import cocotb
from cocotb.triggers import RisingEdge, with_timeout
from scapy.all import ARP, IP, TCP, Ether, Padding, Raw

from axil import AxilMaster
from regmap_py import COUNTER, REG
from tbutil import TB

TOE_MAC, TOE_IP = "02:00:00:00:00:02", "192.0.2.2"
PEER_MAC, PEER_IP = "02:00:00:00:00:01", "192.0.2.1"
CYCLES_PER_US = 1          # engine time runs fast in these tests
CLIENT_STATES = ["idle", "connecting", "sending", "closing", "closed", "reset", "failed"]


def pattern(n, start=0):
    """The source/client apps' stream: byte i is i mod 251."""
    return bytes(i % 251 for i in range(start, start + n))


class Conn:
    """Peer side of one connection: our next sequence number and what we acknowledge."""
    def __init__(self, peer, sport, dport, isn):
        self.peer, self.sport, self.dport = peer, sport, dport
        self.snd_nxt = isn
        self.rcv_nxt = None

    def seg(self, flags="A", payload=b"", seq=None, ack=None, window=65535, options=None):
        t = TCP(sport=self.sport, dport=self.dport, flags=flags, window=window,
                seq=self.snd_nxt if seq is None else seq,
                ack=(self.rcv_nxt or 0) if ack is None else ack, options=options or [])
        p = Ether(dst=TOE_MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=TOE_IP) / t
        return p / Raw(payload) if payload else p

    async def send(self, flags="A", payload=b"", advance=True, **kw):
        await self.peer.send(self.seg(flags, payload, **kw))
        if advance and "seq" not in kw:
            self.snd_nxt = (self.snd_nxt + len(payload) + ("S" in flags) + ("F" in flags)) % 2**32

    async def expect(self, timeout_us=500):
        """The next TCP segment from the engine on this connection."""
        while True:
            p = await self.peer.expect(timeout_us)
            if TCP in p and p[TCP].dport == self.sport and p[TCP].sport == self.dport:
                return p

    async def open(self, mss=1460, window=65535, options=None):
        await self.send("S", options=options or [("MSS", mss)], window=window)
        sa = await self.expect()
        assert sa[TCP].flags == "SA", sa.summary()
        assert sa[TCP].ack == self.snd_nxt
        self.rcv_nxt = (sa[TCP].seq + 1) % 2**32
        self.isn_engine = sa[TCP].seq
        await self.send("A")
        return sa

    async def accept(self, syn, mss=1460):
        """Answer the engine's SYN with SYN-ACK and take its ACK (an active open)."""
        assert syn[TCP].flags == "S", syn.summary()
        self.rcv_nxt = (syn[TCP].seq + 1) % 2**32
        await self.send("SA", options=[("MSS", mss)])
        ack = await self.expect()
        assert ack[TCP].flags == "A" and ack[TCP].ack == self.snd_nxt, ack.summary()

    async def expect_fin(self, timeout_us=2000):
        """Skip data-less segments until the engine's FIN; count it received."""
        while True:
            p = await self.expect(timeout_us)
            if "F" in p[TCP].flags:
                assert p[TCP].seq == self.rcv_nxt, p.summary()
                self.rcv_nxt = (self.rcv_nxt + 1) % 2**32
                return p
            assert not bytes(p[TCP].payload), f"data after the end: {p.summary()}"

    async def recv_data(self, n, timeout_us=2000, ack=True):
        """Collect n bytes of in-order data from the engine, acknowledging each segment."""
        out = b""
        while len(out) < n:
            p = await self.expect(timeout_us)
            data = bytes(p[TCP].payload)
            if Padding in p:
                raise AssertionError(f"frame longer than its IP packet: {p.summary()} len {len(p)} ip.len {p[IP].len}")
            if not data:
                continue
            assert p[TCP].seq == self.rcv_nxt, f"seq {p[TCP].seq} != {self.rcv_nxt}"
            out += data
            self.rcv_nxt = (self.rcv_nxt + len(data)) % 2**32
            if ack:
                await self.send("A")
        return out


class TcpPeer:
    def __init__(self, dut, idle=0.0, backpressure=0.0):
        self.tb = TB(dut)
        self.dut = dut
        self.mac_rx = self.tb.source("s_mac_rx_axis", idle=idle, seed=3)
        self.mac_tx = self.tb.sink("m_mac_tx_axis", backpressure=backpressure, seed=4)
        self.csr = AxilMaster(self.tb)
        dut.tick_us.value = 0
        dut.client_start.value = 0
        self.next_port = 40000

    async def _ticks(self):
        n = 0
        while True:
            await RisingEdge(self.dut.clk)
            n += 1
            self.dut.tick_us.value = int(n % CYCLES_PER_US == 0)

    async def start(self, rto_init_us=3000, rto_min_us=1000, time_wait_us=300, delack_us=20,
                    retries=4):
        await self.tb.reset()
        cocotb.start_soon(self._ticks())
        mac = int(TOE_MAC.replace(":", ""), 16)
        for reg, val in (("MAC_LO", mac & 0xFFFFFFFF), ("MAC_HI", mac >> 32),
                         ("IPV4_NETMASK", 0xFFFFFF00), ("TCP_RTO_INIT_US", rto_init_us),
                         ("TCP_RTO_MIN_US", rto_min_us), ("TCP_TIME_WAIT_US", time_wait_us),
                         ("TCP_DELACK_US", delack_us), ("TCP_MAX_RETRIES", retries),
                         ("IPV4_ADDR", 0xC0000202)):
            await self.csr.write(REG[reg], val)
        garp = await self.expect()
        assert ARP in garp
        await self.send(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) /
                        ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=TOE_IP))
        assert ARP in await self.expect()
        while not int(self.dut.tcp_listening.value):
            await RisingEdge(self.dut.clk)

    async def send(self, pkt):
        await self.mac_rx.send(bytes(pkt))

    async def expect(self, timeout_us=500):
        data, _, _ = await with_timeout(self.mac_tx.recv(), timeout_us, "us")
        return Ether(data)

    async def nothing(self, us=50):
        """Assert that the engine sends nothing for `us` microseconds of simulated time."""
        try:
            p = await self.expect(us)
        except cocotb.triggers.SimTimeoutError:
            return
        raise AssertionError(f"unexpected frame: {p.summary()}")

    async def start_client(self, port, nbytes):
        """Start the client app towards the peer's `port`; return the connection of its SYN."""
        self.dut.client_ip.value = int.from_bytes(bytes(map(int, PEER_IP.split("."))), "big")
        self.dut.client_port.value = port
        self.dut.client_bytes.value = nbytes
        self.dut.client_start.value = 1
        await self.tb.cycles(1)
        self.dut.client_start.value = 0
        while True:
            syn = await self.expect()
            if TCP in syn:
                break
        c = Conn(self, port, syn[TCP].sport, isn=4000)
        return c, syn

    async def wait_client(self, state, cycles=5000):
        for _ in range(cycles // 10):
            if int(self.dut.client_state.value) == CLIENT_STATES.index(state):
                return
            await self.tb.cycles(10)
        raise AssertionError(f"client is {CLIENT_STATES[int(self.dut.client_state.value)]}, not {state}")

    async def wait_sessions_free(self, cycles=5000):
        for _ in range(cycles // 20):
            if await self.status("TCP_SESSIONS_IN_USE") == 0:
                return
            await self.tb.cycles(20)
        raise AssertionError("sessions not freed")

    def conn(self, dport=7, isn=1000):
        self.next_port += 1
        return Conn(self, self.next_port, dport, isn)

    async def counters(self):
        return {name: await self.csr.read(addr) for name, addr in COUNTER.items()}

    async def status(self, name):
        return await self.csr.read(REG[name])
