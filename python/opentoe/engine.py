"""The engine object and its sockets. See the package docstring and docs/python.md."""
import subprocess
import tempfile
from collections import deque
from pathlib import Path

from scapy.all import ARP, IP, TCP, Ether

from .regs import COUNTERS, REGS

ROOT = Path(__file__).resolve().parents[2]

# toe_tcp_pkg::tcp_state_e and tcp_notif_kind_e
STATES = ["FREE", "SYN_SENT", "SYN_RCVD", "ESTABLISHED", "FIN_WAIT_1", "FIN_WAIT_2", "CLOSING",
          "TIME_WAIT", "CLOSE_WAIT", "LAST_ACK", "CLOSED"]
NOTIF_KINDS = ["NEW", "DATA", "PEER_FIN", "CLOSED", "RESET", "FAILED", "TX_SPACE"]
TX_STATUS = ["ACCEPTED", "NO_SPACE", "NOT_CONNECTED"]


def ip2int(ip):
    a = [int(x) for x in ip.split(".")]
    return a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3]


def int2ip(v):
    return ".".join(str(v >> s & 255) for s in (24, 16, 8, 0))


def build_harness(data_w):
    """make build/toe-harness-<data_w>, one builder at a time (parallel test workers)."""
    import fcntl
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / f".toe-harness-{data_w}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "-s", "-C", str(ROOT), f"build/toe-harness-{data_w}"], check=True,
                       stdout=subprocess.DEVNULL)


class EngineError(Exception):
    """The harness refused a command, died, or an API call ended in an error."""


class Socket:
    """One TCP connection on the engine's application API (session id `sid`).

    Blocking calls let virtual time pass until they can complete (or `timeout_us`)."""

    def __init__(self, engine, sid=None, remote=None, local_port=None):
        self.e = engine
        self.sid = sid
        self.remote = remote            # (ip, port)
        self.local_port = local_port
        self.established = False
        self.readable = 0               # bytes notified and not yet read
        self.rx = bytearray()           # bytes read from the engine, not yet returned by recv
        self.peer_fin = False
        self.ended = None               # None, or "CLOSED" / "RESET" / "FAILED"
        self.shut = False               # we asked for the orderly close
        self.tx_status = deque()
        self.tx_space = None            # free TX ring bytes of the last TX_SPACE notification

    def __repr__(self):
        return f"<Socket sid={self.sid} remote={self.remote} ended={self.ended}>"

    # ---- sending ----
    def send(self, data, timeout_us=10_000_000):
        """Queue `data` for sending; returns once the engine accepted all of it (waiting
        for TX ring space as long as the connection lives: a refused request is answered by
        a TX_SPACE notification once the ring has room for it). Returns the bytes accepted."""
        data = bytes(data)
        sent = 0
        while sent < len(data):
            if self.ended or self.shut:
                raise EngineError(f"send on a connection that is {self.ended or 'shut down'}")
            chunk = data[sent:sent + 16384]
            self.tx_space = None
            status, space = self._tx_req(chunk)
            if status == "ACCEPTED":
                sent += len(chunk)
            elif status == "NO_SPACE":
                if space:
                    chunk = chunk[:space]
                    if self._tx_req(chunk)[0] == "ACCEPTED":
                        sent += len(chunk)
                        continue
                t0 = self.e.now_us
                if not self.e.run_until(lambda: self.ended or self.tx_space is not None, timeout_us=timeout_us):
                    break
                timeout_us -= self.e.now_us - t0
            else:
                raise EngineError(f"send refused: {status}")
        return sent

    def _tx_req(self, chunk):
        self.e._cmd(f"send {self.sid} {chunk.hex() or '-'}")
        if not self.e.run_until(lambda: self.tx_status, timeout_us=self.e.reply_us):
            raise EngineError("no tx_rsp")
        return self.tx_status.popleft()

    # ---- receiving ----
    def recv(self, n=65535, timeout_us=1_000_000):
        """Up to n bytes; b"" once the peer has closed (or the connection ended) and
        everything was read. Waits up to timeout_us of virtual time for data."""
        if not self.rx:
            self.e.run_until(lambda: self.readable or self.peer_fin or self.ended, timeout_us=timeout_us)
            if self.readable:
                self._read(min(self.readable, 65535))
        out = bytes(self.rx[:n])
        del self.rx[:n]
        return out

    def recv_exactly(self, n, timeout_us=10_000_000):
        out = b""
        while len(out) < n:
            got = self.recv(n - len(out), timeout_us)
            if not got:
                raise EngineError(f"connection ended after {len(out)} of {n} bytes")
            out += got
        return out

    def _read(self, n):
        before = len(self.rx)
        self.e._cmd(f"read {self.sid} {n}")
        self.e._pending_reads[self.sid] = self.e._pending_reads.get(self.sid, 0) + 1
        self.e.run_until(lambda: self.e._pending_reads.get(self.sid, 0) == 0, timeout_us=self.e.reply_us)
        return len(self.rx) - before

    # ---- closing ----
    def shutdown(self):
        """Orderly close: FIN after the queued data (the receive side stays open)."""
        if not self.shut and not self.ended:
            self.shut = True
            self.e._cmd(f"close {self.sid} 0")

    def close(self):
        self.shutdown()

    def abort(self):
        """Abort: RST to the peer, everything dropped. After an orderly end, drops the data
        not yet read (the engine frees the session then)."""
        if not self.ended:
            self.e._cmd(f"close {self.sid} 1")
            self.e.run_until(lambda: self.ended, timeout_us=self.e.reply_us)
        elif self.readable:
            self.e._cmd(f"close {self.sid} 1")
            self.readable = 0
            self.e.sockets.pop(self.sid, None)

    def state(self):
        """The engine's state of this connection: a dict (see Engine.state)."""
        return self.e.state(self.sid)


class Listener:
    def __init__(self, engine, port):
        self.e, self.port = engine, port
        self.pending = deque()

    def accept(self, timeout_us=5_000_000):
        """The next established connection to this port (None after timeout_us)."""
        self.e.run_until(lambda: self.pending, timeout_us=timeout_us)
        return self.pending.popleft() if self.pending else None

    def close(self):
        self.e._cmd(f"listen {self.port} 0")
        self.e.run_until(lambda: self.e._listen_rsp.get(self.port) is not None, timeout_us=self.e.reply_us)
        self.e.listeners.pop(self.port, None)


class Engine:
    """The RTL engine in a toe-harness process (virtual time).

    ip/mac: the engine's addresses; peer_ip/peer_mac: the simulated peer's (ARP requests
    for any address are answered with peer_mac). regs: configuration registers to write
    after reset, by name (docs/registers.md).

    Real time: with tap="IFNAME" the engine's MAC port is a Linux TAP device (created by
    the harness; run as root), Linux is the peer, and time is wall-clock time (`run(us)`
    waits `us` of it; the engine also runs between calls). netns="NAME" starts the harness
    in that network namespace. peer_ip/peer_mac are not used then: the engine resolves
    Linux's address by ARP, and `frames` stays empty (tcpdump the TAP instead)."""

    def __init__(self, data_w=64, ip="192.0.2.2", mac="02:00:00:00:00:02", peer_ip="192.0.2.1",
                 peer_mac="02:00:00:00:00:01", regs=None, binary=None, build=True, tap=None, netns=None):
        self.data_w = data_w
        self.ip, self.mac, self.peer_ip, self.peer_mac = ip, mac, peer_ip, peer_mac
        self.real_time = tap is not None
        # how long an API request may take to be answered (µs of virtual or wall time)
        self.reply_us = 2_000_000 if self.real_time else 1000
        binary = Path(binary) if binary else ROOT / "build" / f"toe-harness-{data_w}"
        if build:
            build_harness(data_w)
        argv = [str(binary)] + (["--tap", tap] if tap else [])
        if netns:
            argv = ["ip", "netns", "exec", netns] + argv
        self._stderr = tempfile.TemporaryFile(mode="w+")     # kept for the error of a crash
        self._sim_output = deque(maxlen=4)                    # likewise
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, text=True, bufsize=1)
        hello = self.proc.stdout.readline().split()
        if not hello or hello[0] != "ok":
            raise EngineError(f"toe-harness did not start: {hello}")
        self.max_sessions = int(next(w for w in hello if w.startswith("MAX_SESSIONS=")).split("=")[1])
        self.now_ns = 0
        self.frames = deque()          # (time_ns, scapy Ether) sent by the engine, not ARP
        self.sockets = {}              # sid -> Socket
        self.listeners = {}            # port -> Listener
        self.notifs = deque()          # every notification, (kind, sid, length)
        self._opens = deque()          # sockets waiting for their open_rsp
        self._listen_rsp = {}
        self._pending_reads = {}
        self.udp_rx = deque()          # (ip, remote_port, local_port, payload)
        m = int(mac.replace(":", ""), 16)
        self.csr_write("MAC_LO", m & 0xFFFFFFFF)
        self.csr_write("MAC_HI", m >> 32)
        self.csr_write("IPV4_NETMASK", 0xFFFFFF00)
        for name, value in (regs or {}).items():
            self.csr_write(name, value)
        self.csr_write("IPV4_ADDR", ip2int(ip))
        if self.real_time:
            return
        # the peer introduces itself, so the engine knows its MAC before it sends
        self.inject(Ether(dst="ff:ff:ff:ff:ff:ff", src=peer_mac) /
                    ARP(op=1, hwsrc=peer_mac, psrc=peer_ip, pdst=ip))
        self.run(20)
        self.frames.clear()

    # ---- plumbing ----
    def _cmd(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        while True:
            out = self.proc.stdout.readline()
            if not out:
                self._stderr.seek(0)
                why = " | ".join(list(self._sim_output) + self._stderr.read().strip().splitlines()[-3:])
                raise EngineError(f"toe-harness exited (command: {line[:80]}): {why}")
            parts = out.split()
            if parts[0] == "ok":
                return parts[1:]
            if parts[0] == "err":
                raise EngineError(out.strip())
            self._event(parts)

    def _event(self, p):
        kind = p[0]
        if kind == "frame":
            t, raw = int(p[1]), bytes.fromhex(p[2]) if p[2] != "-" else b""
            pkt = Ether(raw)
            if ARP in pkt:
                a = pkt[ARP]
                if a.op == 1 and a.pdst != self.ip:     # answer for the peer's side
                    self.inject(Ether(dst=a.hwsrc, src=self.peer_mac) /
                                ARP(op=2, hwsrc=self.peer_mac, psrc=a.pdst, hwdst=a.hwsrc, pdst=a.psrc))
                return
            self.frames.append((t, pkt))
        elif kind == "notif":
            sid, k, length, ip, rport, lport = (int(x) for x in p[1:7])
            name = NOTIF_KINDS[k] if k < len(NOTIF_KINDS) else str(k)
            self.notifs.append((name, sid, length))
            s = self.sockets.get(sid)
            # every notification of a connection carries its tuple (docs/tcp_api.md)
            if s is not None and s.remote is not None and (s.remote, s.local_port) != ((int2ip(ip), rport), lport):
                raise EngineError(f"{name} of session {sid} carries {int2ip(ip)}:{rport} -> :{lport}, "
                                  f"not its connection's {s.remote[0]}:{s.remote[1]} -> :{s.local_port}")
            if name == "NEW":
                if s is None:             # passive open
                    s = Socket(self, sid, (int2ip(ip), rport), lport)
                    self.sockets[sid] = s
                    if lport in self.listeners:
                        self.listeners[lport].pending.append(s)
                s.established = True
            elif s is None:
                return
            elif name == "DATA":
                s.readable += length
            elif name == "PEER_FIN":
                s.peer_fin = True
            elif name == "TX_SPACE":
                s.tx_space = length
            else:                          # CLOSED, RESET, FAILED: the connection is over
                s.ended = name
                # after an orderly end the notified data stays readable, and the id ours
                # until it is read (or dropped by abort())
                if name != "CLOSED" or not s.readable:
                    del self.sockets[sid]
        elif kind == "listen_rsp":
            self._listen_rsp[int(p[1])] = int(p[2])
        elif kind == "open_rsp":
            sid, lport, ok = int(p[1]), int(p[2]), int(p[3])
            s = self._opens.popleft()
            if ok:
                s.sid, s.local_port = sid, lport
                self.sockets[sid] = s
            else:
                s.ended = "FAILED"
        elif kind == "tx_rsp":
            sid, status, space = int(p[1]), int(p[2]), int(p[3])
            s = self.sockets.get(sid)
            if s is not None:
                s.tx_status.append((TX_STATUS[status], space))
        elif kind == "rx":
            sid = int(p[1])
            self._pending_reads[sid] = self._pending_reads.get(sid, 1) - 1
            s = self.sockets.get(sid)
            if s is not None and p[2] != "-":
                data = bytes.fromhex(p[2])
                s.rx += data
                s.readable -= len(data)
                if s.ended and not s.readable:
                    del self.sockets[sid]
        elif kind == "udp_rx":
            self.udp_rx.append((int2ip(int(p[1])), int(p[2]), int(p[3]), bytes.fromhex(p[4]) if p[4] != "-" else b""))
        else:                              # the simulator's own output (e.g. a failed assertion)
            self._sim_output.append(" ".join(p))

    def close(self):
        if self.proc.poll() is None:
            try:
                self._cmd("quit")
            except (EngineError, BrokenPipeError):
                pass
            self.proc.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- time ----
    @property
    def now_us(self):
        return self.now_ns / 1000.0

    def run(self, us, stop_at_event=False):
        """Let `us` microseconds of virtual time pass (less with stop_at_event, at the
        first event). Idle stretches cost almost nothing: the clock jumps to the next
        timer deadline."""
        r = self._cmd(f"run {max(0, int(us))} {int(stop_at_event)}")
        self.now_ns = int(r[0])

    def run_until(self, cond, timeout_us=1_000_000, step_us=None):
        """Run until cond() is true (checked after each event); False after timeout_us."""
        if self.real_time:              # the engine ran on since the last answer
            self.now_ns = int(self._cmd("time")[0])
        end = self.now_ns + timeout_us * 1000
        while not cond():
            left = (end - self.now_ns) / 1000
            if left <= 0:
                return False
            self.run(max(1, left if step_us is None else min(left, step_us)), stop_at_event=True)
        return True

    # ---- frames ----
    def stall(self, probability, seed=1):
        """Back-pressure from now on: the MAC TX and app RX data ports refuse each beat with
        this probability (0: always ready), from a seeded generator."""
        self._cmd(f"stall {probability} {seed}")

    def inject(self, frame):
        """Queue an Ethernet frame (scapy packet or bytes) for the engine's MAC RX."""
        raw = bytes(frame)
        self._cmd(f"inject {raw.hex()}")

    def inject_tcp(self, sport, dport, flags, seq, ack=0, window=65535, payload=b""):
        """Queue a TCP segment from the simulated peer (peer_ip:sport -> our ip:dport)."""
        self.inject(Ether(dst=self.mac, src=self.peer_mac) / IP(src=self.peer_ip, dst=self.ip) /
                    TCP(sport=sport, dport=dport, flags=flags, seq=seq, ack=ack, window=window) / payload)

    def accept_from_peer(self, listener, sport, seq=1000, window=65535):
        """A passive open by the simulated peer, segment by segment: its SYN (ISN `seq`), the
        engine's SYN-ACK, its ACK. Returns (accepted Socket, the engine's ISN)."""
        self.inject_tcp(sport, listener.port, "S", seq, window=window)
        _, sa = self.recv_frame()
        isn = sa[TCP].seq
        self.inject_tcp(sport, listener.port, "A", seq + 1, ack=isn + 1, window=window)
        return listener.accept(), isn

    def recv_frame(self, timeout_us=1_000_000):
        """The next non-ARP frame the engine sent, as (time_ns, scapy packet), or None."""
        self.run_until(lambda: self.frames, timeout_us=timeout_us)
        return self.frames.popleft() if self.frames else None

    # ---- CSR ----
    def csr_read(self, reg):
        addr = reg if isinstance(reg, int) else (REGS.get(reg) if reg in REGS else COUNTERS[reg])
        return int(self._cmd(f"csr_read {addr}")[0])

    def csr_write(self, reg, value):
        addr = reg if isinstance(reg, int) else REGS[reg]
        self._cmd(f"csr_write {addr} {int(value) & 0xFFFFFFFF}")

    def counters(self):
        """Every counter, by its MIB name."""
        return {name: self.csr_read(addr) for name, addr in COUNTERS.items()}

    # ---- sessions ----
    def state(self, sid):
        """The engine's state of session `sid` through the TCP debug port: state name,
        SND.UNA/NXT/MAX, SND.WND, RCV.NXT, RCV.WND, retries, timers (µs deadlines)."""
        f = [int(x) for x in self._cmd(f"state {sid}")]
        keys = ["session", "state", "snd_una", "snd_nxt", "snd_max", "snd_wnd", "rcv_nxt", "rcv_wnd",
                "retries", "tmr_on", "tmr_at", "dack_on", "dack_at", "now_us"]
        d = dict(zip(keys, f))
        d["state"] = STATES[d["state"]] if d["state"] < len(STATES) else str(d["state"])
        return d

    def sessions(self):
        """States of every session id that is in use."""
        out = {}
        for sid in range(self.max_sessions):
            st = self.state(sid)
            if st["state"] != "FREE":
                out[sid] = st
        return out

    # ---- TCP API ----
    def listen(self, port):
        self._listen_rsp.pop(port, None)
        self._cmd(f"listen {port} 1")
        self.run_until(lambda: port in self._listen_rsp, timeout_us=self.reply_us)
        if not self._listen_rsp.get(port):
            raise EngineError(f"listen on {port} refused")
        lst = Listener(self, port)
        self.listeners[port] = lst
        return lst

    def connect(self, ip, port, wait=True, timeout_us=5_000_000):
        """Active open. wait=False returns at once (the SYN is on its way)."""
        s = Socket(self, remote=(ip, port))
        self._opens.append(s)
        self._cmd(f"open {ip2int(ip)} {port}")
        self.run_until(lambda: s.sid is not None or s.ended, timeout_us=self.reply_us)
        if s.ended:
            raise EngineError("open refused: no free session or port")
        if wait:
            self.run_until(lambda: s.established or s.ended, timeout_us=timeout_us)
        return s

    # ---- UDP API ----
    def udp_listen(self, port, open_=True):
        self._cmd(f"udp_listen {port} {int(open_)}")
        self.run(5)

    def udp_send(self, local_port, ip, remote_port, data):
        self._cmd(f"udp_send {local_port} {ip2int(ip)} {remote_port} {bytes(data).hex() or '-'}")
