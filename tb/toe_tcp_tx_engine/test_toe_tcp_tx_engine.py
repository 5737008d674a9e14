"""toe_tcp_tx_engine: segment commands in, TCP segments (header, checksum, IPv4 TX meta) out,
payload from a ring-reader model. Written from the module's contract, not its code:
- every command gives exactly one segment: its ports, sequence and acknowledgement numbers,
  flags and window; the MSS option when it has one; payload = the session's TX ring bytes
  [seq, seq + length); a TCP checksum that verifies over the IPv4 pseudo-header; meta =
  (remote IP, protocol 6, TCP length);
- data and FIN segments leave in command order, and so do header-only ones (pure ACK,
  probe, RST, SYN and SYN-ACK: sent only in SYN-SENT and SYN-RECEIVED, where their
  session has no data to overtake);
- a header-only segment, a SYN-ACK too, does not wait for the payload of a data segment
  commanded before it (the header-only fast path), while a FIN does;
- random idle cycles on the ring reader's data, random read latency, random back-pressure
  on the output, at 64 and 512 bits."""
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly
from scapy.layers.inet import IP, TCP

import runner
from tbutil import MODES, TB, set_mode
from tcp_job import unpack_job

LOCAL_IP = 0xC0000201              # 192.0.2.1
SID_W = 20
FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10
META_W = 32 + 8 + 16


def ring_byte(session, offset):
    return (session * 131 + offset * 7 + (offset >> 8)) & 0xFF


def pack_cmd(c):
    v = 0
    for val, w in ((c["session"], SID_W), (c["remote_ip"], 32), (c["remote_port"], 16), (c["local_port"], 16),
                   (c["seq"], 32), (c["ack"], 32), (c["flags"], 8), (c["window"], 16), (c["length"], 16),
                   (c["mss"], 16)):
        v = v << w | val
    return v


def header_only(c):
    return c["length"] == 0 and not c["flags"] & FIN


def random_cmd(rng, n):
    kind = rng.choice(["data", "data", "ack", "ack", "rst", "probe", "fin", "syn", "finack_data"])
    c = dict(session=rng.randrange(16), remote_ip=0xC6336400 | rng.randrange(256),
             remote_port=rng.randrange(1024, 65536), local_port=rng.choice([7, 9, 80]),
             seq=rng.getrandbits(32), ack=rng.getrandbits(32), flags=ACK, window=rng.getrandbits(16),
             length=0, mss=0, n=n)
    if kind == "data":
        c["flags"] = ACK | PSH
        c["length"] = rng.choice([1, 7, 64, rng.randrange(1, 1461), 1460])
    elif kind == "rst":
        c["flags"] = RST | rng.choice([0, ACK])
        c["window"] = 0
    elif kind == "fin":
        c["flags"] = FIN | ACK
    elif kind == "finack_data":
        c["flags"] = FIN | ACK | PSH
        c["length"] = rng.randrange(1, 600)
    elif kind == "syn":
        c["flags"] = SYN | rng.choice([0, ACK])
        c["mss"] = rng.choice([1460, 536, rng.randrange(1, 65536)])   # every bit of the option's checksum share
    return c


class Env:
    def __init__(self, dut, rng):
        self.dut, self.rng = dut, rng
        self.tb = TB(dut)
        self.rd = self.tb.source("s_rd")
        self.out = self.tb.sink("m_axis")
        self.held = False           # the ring reader holds its data back (directed tests)
        self.latency = (0, 0)
        dut.cfg_ip.value = LOCAL_IP
        dut.cfg_mem_base.value = 0
        dut.s_cmd_valid.value = 0
        dut.m_rd_job_ready.value = 0
        self.jobs = deque()

    async def start(self):
        await self.tb.reset()
        cocotb.start_soon(self._reader())

    async def _reader(self):
        """The ring reader: takes jobs (random ready), returns their bytes after a latency."""
        pending = deque()
        cycle = 0
        while True:
            await FallingEdge(self.tb.clk)
            cycle += 1
            self.dut.m_rd_job_ready.value = int(self.rng.random() < 0.7)
            await ReadOnly()
            if self.dut.m_rd_job_valid.value and self.dut.m_rd_job_ready.value:
                j = unpack_job(int(self.dut.m_rd_job.value))
                self.jobs.append(j)
                pending.append((cycle + self.rng.randint(*self.latency), j))
            while pending and pending[0][0] <= cycle and not self.held:
                _, j = pending.popleft()
                self.rd.send_nowait(bytes(ring_byte(j["session"], (j["offset"] + i) % 65536)
                                          for i in range(j["length"])))

    async def send(self, c):
        await self.tb.push("s_cmd", pack_cmd(c))

    async def recv(self, limit=20000):
        for _ in range(limit):
            if not self.out.empty():
                return await self.out.recv()
            await FallingEdge(self.tb.clk)
        raise AssertionError("no segment came out")


def check_segment(frame, c):
    data, tuser, _ = frame
    meta = tuser >> 1
    dst_ip, proto, length = meta >> 24, (meta >> 16) & 0xFF, meta & 0xFFFF
    assert dst_ip == c["remote_ip"] and proto == 6 and length == len(data), (hex(dst_ip), proto, length, len(data))
    ip = IP(src=f"{LOCAL_IP >> 24}.{LOCAL_IP >> 16 & 255}.{LOCAL_IP >> 8 & 255}.{LOCAL_IP & 255}",
            dst=".".join(str(dst_ip >> s & 255) for s in (24, 16, 8, 0)), proto=6) / data
    ip = IP(bytes(ip))
    t = ip[TCP]
    chk = t.chksum
    del t.chksum
    assert IP(bytes(ip))[TCP].chksum == chk, f"bad checksum on command {c['n']}"
    assert (t.sport, t.dport, t.seq, t.ack, int(t.flags), t.window) == \
        (c["local_port"], c["remote_port"], c["seq"], c["ack"], c["flags"], c["window"]), (t.summary(), c)
    opts = bytes(data[20:t.dataofs * 4])
    assert opts == (b"\x02\x04" + c["mss"].to_bytes(2, "big") if c["mss"] else b""), (opts, c)
    payload = bytes(data[t.dataofs * 4:])
    assert payload == bytes(ring_byte(c["session"], (c["seq"] + i) % 65536) for i in range(c["length"])), \
        f"payload of command {c['n']}"


@cocotb.test()
async def random_commands_give_exact_segments_in_order_per_path(dut):
    rng = random.Random(11)
    env = Env(dut, rng)
    await env.start()
    n = 0
    reads = []
    for mode in range(len(MODES)):
        set_mode(mode, sources=[env.rd], sinks=[env.out])
        env.latency = rng.choice([(0, 4), (20, 120)])
        cmds = [random_cmd(rng, n + i) for i in range(150)]
        n += len(cmds)
        out = []

        async def collect():
            for _ in cmds:
                out.append(await env.recv())
        task = cocotb.start_soon(collect())
        for c in cmds:
            await env.send(c)
        await task
        ordered = [c for c in cmds if not header_only(c)]
        fast = [c for c in cmds if header_only(c)]
        reads += [c for c in ordered if c["length"]]
        for frame in out:
            t = TCP(frame[0])
            is_fast = not t.flags & FIN and len(frame[0]) == t.dataofs * 4
            check_segment(frame, (fast if is_fast else ordered).pop(0))
        assert not fast and not ordered
        for _ in range(50):
            await FallingEdge(env.tb.clk)
        assert env.out.empty(), "a segment more than commanded"
    # each command with payload read its bytes once, at its sequence number, from its
    # session's TX ring (right after its RX ring), in command order
    assert [(j["session"], j["base"], j["offset"], j["length"]) for j in env.jobs] == \
        [(c["session"], (2 * c["session"] + 1) * 65536, c["seq"], c["length"]) for c in reads]


@cocotb.test()
async def header_only_segments_pass_a_data_segment_waiting_for_its_payload(dut):
    rng = random.Random(5)
    env = Env(dut, rng)
    await env.start()
    data = dict(random_cmd(rng, 0), flags=ACK | PSH, length=1000, mss=0)
    env.held = True
    await env.send(data)
    for kind in ("ack", "rst", "probe", "syn_ack", "syn"):
        c = dict(random_cmd(rng, 1), flags={"ack": ACK, "rst": RST | ACK, "probe": ACK, "syn_ack": SYN | ACK,
                                            "syn": SYN}[kind], length=0, mss=1460 if "syn" in kind else 0)
        await env.send(c)
        check_segment(await env.recv(limit=200), c)
    # a FIN takes sequence space: it waits behind the data
    fin = dict(random_cmd(rng, 2), flags=FIN | ACK, length=0, mss=0)
    await env.send(fin)
    for _ in range(300):
        await FallingEdge(env.tb.clk)
    assert env.out.empty(), "a FIN overtook the data segment before it"
    env.held = False
    check_segment(await env.recv(), data)
    check_segment(await env.recv(), fin)


@pytest.mark.parametrize("data_w", [64, 512])
def test_toe_tcp_tx_engine(data_w):
    runner.run("toe_tcp_tx_engine", "test_toe_tcp_tx_engine", {"DATA_W": data_w}, Path(__file__).parent)
