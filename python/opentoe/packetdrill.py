"""toe-pkt: packetdrill-format scripts against the OpenTOE RTL, in virtual time.

The language as the freebsd-net/tcp-testsuite uses it: `--ip_version`/`--tolerance_usecs`
headers; absolute and `+` relative times; inbound `<` and outbound `>` TCP segments (flags
S F R P . E W U, `start:end(len)` or `...(len)`, `ack`, `win`, options mss, nop, eol,
wscale, sackOK, sack blocks, TS val/ecr) with packetdrill's relative sequence numbers; the
syscalls socket, bind, listen, accept, connect, write/send, read/recv, shutdown, close,
setsockopt(SO_LINGER, 0) (close then aborts), getsockopt(SO_ERROR); `#ifdef STANDARD` /
`#ifdef FreeBSD` blocks (STANDARD is defined); `%{ assert tcpi_state == ... }%` and shell
lines that count connections in a state (`sockstat ... | grep -c TIME_WAIT | grep 1`),
both mapped onto the engine's debug port. fcntl, buffer-size options and other shell lines
are accepted and ignored; the sysctls the engine has a register for are mapped onto it
(`rexmit_initial` -> TCP_RTO_INIT_US).

Matching: flags, sequence and acknowledgment numbers and payload length exactly; the
time within the script's tolerance; window and options loosely (differences are reported
as notes) unless strict (--strict, or a `--strict=1` header in the script). The engine
plays the local host 192.0.2.2 (port 8080 for bind); the script's remote end is
192.0.2.1, port 40000 for connections it opens, with initial sequence number REMOTE_ISN.
Payload bytes of inbound segments are zeros.
"""
import argparse
import json
import multiprocessing
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from scapy.all import IP, TCP, Ether, Raw

from .engine import Engine, EngineError, build_harness

LOCAL_PORT = 8080       # what bind() gives a listening socket
REMOTE_PORT = 40000     # the remote end's port for connections it opens
REMOTE_ISN = 1_000_000
SETTLE_US = 20          # after an inbound segment or a syscall, as a kernel handles it at once
FLAG_BITS = {"F": 0x01, "S": 0x02, "R": 0x04, "P": 0x08, ".": 0x10, "U": 0x20, "E": 0x40, "W": 0x80}
TCPI_STATES = {"TCPI_CLOSED": {"FREE", "CLOSED"}, "TCPI_LISTEN": {"LISTEN"}, "TCPI_SYN_SENT": {"SYN_SENT"},
               "TCPI_SYN_RECEIVED": {"SYN_RCVD"}, "TCPI_ESTABLISHED": {"ESTABLISHED"},
               "TCPI_CLOSE_WAIT": {"CLOSE_WAIT"}, "TCPI_FIN_WAIT_1": {"FIN_WAIT_1"},
               "TCPI_CLOSING": {"CLOSING"}, "TCPI_LAST_ACK": {"LAST_ACK"}, "TCPI_FIN_WAIT_2": {"FIN_WAIT_2"},
               "TCPI_TIME_WAIT": {"TIME_WAIT"}}
# sysctl -> (bit of the CTRL register, the sysctl value that sets it)
CTRL_BITS = {"net.inet.tcp.drop_synfin": (2, 1), "net.inet.tcp.insecure_rst": (4, 0),
             "net.inet.tcp.insecure_syn": (8, 0)}
SYSCTL_REGS = {"net.inet.tcp.rexmit_initial": ("TCP_RTO_INIT_US", 1000)}   # name -> (register, scale)


class ScriptError(Exception):
    """A line of the script is not understood."""


class Mismatch(Exception):
    """The engine did not do what the script says."""


@dataclass
class Segment:
    direction: str          # "<" inbound, ">" outbound
    flags: int
    seq: int = None         # None: "..." (not checked)
    end: int = None
    length: int = 0
    ack: int = None
    win: int = None
    options: list = field(default_factory=list)   # scapy option tuples
    options_text: str = ""


@dataclass
class Line:
    number: int
    time: float             # absolute script time, seconds
    kind: str               # "packet", "syscall", "shell", "code"
    text: str
    segment: Segment = None
    call: str = None
    args: list = None
    ret: str = None


# ---------------- parsing ----------------
SEG_RE = re.compile(
    r"^(?P<dir>[<>])\s+(?P<flags>[SFRPUEW.]+)\s+(?:(?P<start>\d+):(?P<end>\d+)|(?P<ellipsis>\.\.\.))\((?P<len>\d+)\)"
    r"(?:\s+ack\s+(?P<ack>\d+))?(?:\s+win\s+(?P<win>\d+))?\s*(?:<(?P<opts>[^>]*)>)?\s*$")
CALL_RE = re.compile(r"^(?P<name>\w+)\((?P<args>.*)\)\s*=\s*(?P<ret>.+)$")


def parse_options(text):
    opts = []
    for item in [x.strip() for x in text.split(",") if x.strip()]:
        w = item.split()
        if w[0] == "mss":
            opts.append(("MSS", int(w[1])))
        elif w[0] == "nop":
            opts.append(("NOP", None))
        elif w[0] == "eol":
            opts.append(("EOL", None))
        elif w[0] == "wscale":
            opts.append(("WScale", int(w[1])))
        elif w[0] == "sackOK":
            opts.append(("SAckOK", b""))
        elif w[0] == "TS":
            opts.append(("Timestamp", (int(w[2]), int(w[4]))))
        elif w[0] == "sack":
            blocks = []
            for b in w[1:]:
                lo, hi = b.split(":")
                blocks += [int(lo), int(hi)]
            opts.append(("SAck", tuple(blocks)))
        else:
            raise ScriptError(f"unknown option '{item}'")
    return opts


def parse_segment(text):
    m = SEG_RE.match(text)
    if not m:
        raise ScriptError(f"cannot parse segment '{text}'")
    flags = 0
    for c in m["flags"]:
        flags |= FLAG_BITS[c]
    seg = Segment(direction=m["dir"], flags=flags, length=int(m["len"]))
    if not m["ellipsis"]:
        seg.seq, seg.end = int(m["start"]), int(m["end"])
        if seg.end - seg.seq != seg.length:
            raise ScriptError(f"segment {seg.seq}:{seg.end} does not have length {seg.length}")
    seg.ack = int(m["ack"]) if m["ack"] is not None else None
    seg.win = int(m["win"]) if m["win"] is not None else None
    seg.options_text = (m["opts"] or "").strip()
    seg.options = parse_options(seg.options_text)
    return seg


def split_args(s):
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "[{(":
            depth += 1
        elif c in "]})":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_script(text, defines=("STANDARD",)):
    """(headers, lines): the script as Line records with absolute times."""
    headers, lines = {}, []
    t = 0.0
    skipping = []
    for number, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("//"):
            continue
        if s.startswith("#ifdef") or s.startswith("#ifndef"):
            name = s.split()[1]
            on = (name in defines) == s.startswith("#ifdef")
            skipping.append(not on)
            continue
        if s.startswith("#else"):
            skipping[-1] = not skipping[-1]
            continue
        if s.startswith("#endif"):
            skipping.pop()
            continue
        if any(skipping):
            continue
        if s.startswith("--"):
            k, _, v = s[2:].partition("=")
            headers[k] = v
            continue
        m = re.match(r"^([+]?)(\d+(?:\.\d+)?)\s+(.*)$", s)
        if not m:
            raise ScriptError(f"line {number}: no time in '{s}'")
        t = t + float(m[2]) if m[1] else float(m[2])
        body = m[3].strip()
        if "//" in body and not body.startswith("`"):
            body = body[:body.index("//")].strip()
        if body.startswith("<") or body.startswith(">"):
            lines.append(Line(number, t, "packet", body, segment=parse_segment(body)))
        elif body.startswith("`"):
            lines.append(Line(number, t, "shell", body.strip("`")))
        elif body.startswith("%{"):
            lines.append(Line(number, t, "code", body[2:].rstrip("}%").strip()))
        else:
            c = CALL_RE.match(body)
            if not c:
                raise ScriptError(f"line {number}: cannot parse '{body}'")
            lines.append(Line(number, t, "syscall", body, call=c["name"], args=split_args(c["args"]),
                              ret=c["ret"].strip()))
    return headers, lines


# ---------------- sequence arithmetic ----------------
def seq_add(a, b):
    return (a + b) % 2**32


def seq_sub(a, b):
    """a - b modulo 2^32, as a signed number."""
    d = (a - b) % 2**32
    return d - 2**32 if d >= 2**31 else d


# ---------------- running ----------------
@dataclass
class Result:
    path: str
    result: str             # "pass" / "fail" / "error"
    line: int = None
    reason: str = ""
    notes: list = field(default_factory=list)
    wall_s: float = 0.0


class Runner:
    def __init__(self, engine, headers, strict=False):
        self.e = engine
        # a script may ask for exact windows and options itself (--strict=1): the project's
        # own scripts that specify a window
        self.strict = strict or headers.get("strict", "0") == "1"
        self.tol_ns = int(headers.get("tolerance_usecs", "4000")) * 1000
        self.t0 = engine.now_ns
        self.local_isn = None
        self.local_port = LOCAL_PORT
        self.remote_port = REMOTE_PORT
        self.fds = {}                  # fd -> dict(kind, listener/socket, linger0)
        self.conn = None               # the script's connection (Socket)
        self.notes = []

    # -- time --
    def at(self, line):
        return self.t0 + int(round(line.time * 1e9))

    def run_to(self, t_ns, line):
        """Let time pass to t_ns; an outbound segment meanwhile is unexpected."""
        while self.e.now_ns < t_ns:
            self.e.run_until(lambda: self.e.frames, timeout_us=max(1, (t_ns - self.e.now_ns) / 1000))
            if self.e.frames:
                when, pkt = self.e.frames.popleft()
                raise Mismatch(f"unexpected outbound segment at {self._rel_time(when)}: {self.describe(pkt)}")

    def _rel_time(self, t_ns):
        return f"{(t_ns - self.t0) / 1e9:.6f}s"

    @staticmethod
    def payload_len(pkt):
        """TCP payload bytes by the IP total length (so Ethernet padding never counts)."""
        return pkt[IP].len - pkt[IP].ihl * 4 - pkt[TCP].dataofs * 4

    def describe(self, pkt):
        if TCP not in pkt:
            return pkt.summary()
        t = pkt[TCP]
        flags = "".join(c for c, b in FLAG_BITS.items() if c != "." and t.flags & b) + ("." if t.flags & 0x10 else "")
        li = self.local_isn or 0
        ln = self.payload_len(pkt)
        seq = seq_sub(t.seq, li) % 2**32
        out = f"{flags} {seq}:{(seq + ln) % 2**32}({ln})"
        if t.flags & 0x10:
            out += f" ack {seq_sub(t.ack, REMOTE_ISN) % 2**32}"
        out += f" win {t.window}"
        if t.options:
            out += " <" + ",".join(str(o[0]) for o in t.options) + ">"
        return out

    # -- packets --
    def inbound(self, seg):
        sport, dport = self.remote_port, self.local_port
        seq = REMOTE_ISN if seg.seq is None else seq_add(REMOTE_ISN, seg.seq)
        ack = 0 if seg.ack is None else seq_add(self.local_isn or 0, seg.ack)
        flags = seg.flags
        tcp = TCP(sport=sport, dport=dport, seq=seq, ack=ack, flags=flags,
                  window=seg.win if seg.win is not None else 65535, options=seg.options)
        pkt = Ether(dst=self.e.mac, src=self.e.peer_mac) / IP(src=self.e.peer_ip, dst=self.e.ip) / tcp
        if seg.length:
            pkt = pkt / Raw(bytes(seg.length))
        self.e.inject(pkt)

    def outbound(self, seg, line):
        t = self.at(line)
        deadline = t + self.tol_ns
        self.e.run_until(lambda: self.e.frames, timeout_us=max(1, (deadline - self.e.now_ns) / 1000))
        if not self.e.frames:
            raise Mismatch(f"expected '{line.text}' by {self._rel_time(deadline)}, nothing was sent")
        when, pkt = self.e.frames.popleft()
        if TCP not in pkt:
            raise Mismatch(f"expected '{line.text}', got {pkt.summary()}")
        tcp = pkt[TCP]
        if seg.flags & FLAG_BITS["S"] and self.local_isn is None:
            self.local_isn = tcp.seq
            self.local_port = tcp.sport
        if tcp.dport != self.remote_port:
            raise Mismatch(f"expected a segment to port {self.remote_port}, got {self.describe(pkt)}")
        got = self.describe(pkt)
        if when < t - self.tol_ns:
            raise Mismatch(f"'{line.text}' came early, at {self._rel_time(when)} "
                           f"(script {self._rel_time(t)} +- {self.tol_ns / 1e6:.0f} ms)")
        if int(tcp.flags) & 0xFF != seg.flags:
            raise Mismatch(f"expected '{line.text}', got '{got}' (flags)")
        li = self.local_isn or 0
        if seg.seq is not None and seq_sub(tcp.seq, li) % 2**32 != seg.seq:
            raise Mismatch(f"expected '{line.text}', got '{got}' (sequence number)")
        if self.payload_len(pkt) != seg.length:
            raise Mismatch(f"expected '{line.text}', got '{got}' (payload length)")
        if seg.ack is not None:
            if not tcp.flags & 0x10:
                raise Mismatch(f"expected '{line.text}', got '{got}' (no ACK)")
            if seq_sub(tcp.ack, REMOTE_ISN) % 2**32 != seg.ack:
                raise Mismatch(f"expected '{line.text}', got '{got}' (acknowledgment number)")
        diffs = []
        if seg.win is not None and tcp.window != seg.win:
            diffs.append(f"win {tcp.window} (script {seg.win})")
        want_opts = [o[0] for o in seg.options]
        got_opts = [o[0] for o in tcp.options]
        if want_opts != got_opts:
            diffs.append(f"options <{','.join(got_opts)}> (script <{seg.options_text}>)")
        if diffs:
            if self.strict:
                raise Mismatch(f"expected '{line.text}', got '{got}' ({'; '.join(diffs)})")
            self.notes.append(f"line {line.number}: " + "; ".join(diffs))

    # -- syscalls --
    def fd(self, arg):
        n = int(arg)
        if n not in self.fds:
            raise ScriptError(f"fd {n} is not open")
        return self.fds[n]

    @staticmethod
    def expect_ret(line, got):
        want = line.ret.split()[0]
        if want != str(got):
            raise Mismatch(f"{line.call} returned {got}, script says {line.ret}")

    def syscall(self, line):
        c, a = line.call, line.args
        if c == "socket":
            self.fds[int(line.ret.split()[0])] = {"kind": "socket", "obj": None, "linger0": False}
        elif c in ("fcntl", "bind"):
            pass
        elif c == "setsockopt":
            if "SO_LINGER" in line.args[2] and re.search(r"l_onoff\s*=\s*1.*l_linger\s*=\s*0", line.text):
                self.fd(a[0])["linger0"] = True
        elif c == "getsockopt":
            if a[2] == "SO_ERROR":
                self.so_error(line)
        elif c == "listen":
            f = self.fd(a[0])
            f["kind"] = "listener"
            f["obj"] = self.e.listen(LOCAL_PORT)
        elif c == "accept":
            f = self.fd(a[0])
            s = f["obj"].accept(timeout_us=self.tol_ns / 1000) if f["kind"] == "listener" else None
            if s is None:
                raise Mismatch("accept: no established connection")
            fd = int(line.ret.split()[0])
            self.fds[fd] = {"kind": "socket", "obj": s, "linger0": False}
            self.conn = s
        elif c == "connect":
            f = self.fd(a[0])
            self.remote_port = LOCAL_PORT
            s = self.e.connect(self.e.peer_ip, LOCAL_PORT, wait=False)
            f["obj"] = s
            self.conn = s
            self.local_port = s.local_port
        elif c in ("write", "send"):
            s = self.fd(a[0])["obj"]
            n = int(a[2])
            sent = s.send(bytes(n), timeout_us=self.tol_ns / 1000)
            self.expect_ret(line, sent)
        elif c in ("read", "recv"):
            s = self.fd(a[0])["obj"]
            n = int(a[2])
            if line.ret.startswith("-1"):
                err = line.ret.split()[1]
                if err in ("EWOULDBLOCK", "EAGAIN") and (s.readable or s.rx):
                    raise Mismatch(f"read: {s.readable + len(s.rx)} bytes readable, script says {line.ret}")
                return
            want = int(line.ret.split()[0])
            got = b""
            self.e.run_until(lambda: s.readable + len(s.rx) >= want or s.ended or s.peer_fin,
                             timeout_us=self.tol_ns / 1000)
            while len(got) < min(n, want):
                chunk = s.recv(min(n, want) - len(got), timeout_us=1)
                if not chunk:
                    break
                got += chunk
            self.expect_ret(line, len(got))
        elif c == "shutdown":
            s = self.fd(a[0])["obj"]
            if a[1] in ("SHUT_WR", "SHUT_RDWR"):
                s.shutdown()
        elif c == "close":
            fd = int(a[0])
            f = self.fds.pop(fd, None)
            if f is None:
                raise Mismatch(f"close of fd {fd} that is not open")
            o = f["obj"]
            if f["kind"] == "listener":
                o.close()
            elif o is not None and not o.ended:
                if f["linger0"] or o.readable:
                    o.abort()           # SO_LINGER 0, or unread data (RFC 9293 3.10.4)
                else:
                    o.shutdown()
        else:
            raise ScriptError(f"syscall {c} is not supported")

    def so_error(self, line):
        s = self.fd(line.args[0])["obj"]
        want = line.args[3].strip("[]")
        got = "0"
        if s is not None:
            got = {"RESET": "ECONNRESET", "FAILED": "ECONNREFUSED"}.get(s.ended, "0")
        if want != got:
            raise Mismatch(f"SO_ERROR is {got}, script says {want}")

    # -- state checks --
    def count_state(self, state):
        n = 0
        for st in self.e.sessions().values():
            if st["state"] == state:
                n += 1
        if state == "CLOSED":      # ended connections whose descriptor is still open
            n += sum(1 for f in self.fds.values() if f["kind"] == "socket" and f["obj"] is not None and f["obj"].ended)
        return n

    def shell(self, line):
        m = re.match(r"sysctl -w ([\w.]+)=(\S+)", line.text)
        if m:
            if m[1] in CTRL_BITS:
                bit, on_when = CTRL_BITS[m[1]]
                ctrl = self.e.csr_read("CTRL")
                self.e.csr_write("CTRL", (ctrl & ~bit) | (bit if int(m[2]) == on_when else 0))
            elif m[1] in SYSCTL_REGS:
                reg, scale = SYSCTL_REGS[m[1]]
                self.e.csr_write(reg, int(m[2]) * scale)
            return
        m = re.search(r"grep -c (\w+)\s*\|\s*grep (\d+)", line.text)
        if "sockstat" in line.text and m:
            n = self.count_state(m[1])
            if n != int(m[2]):
                raise Mismatch(f"{n} connections in {m[1]}, script says {m[2]}")

    def code(self, line):
        m = re.match(r"assert\s+tcpi_state\s*==\s*(\w+)", line.text)
        if not m:
            return      # other Python blocks (tcpi_* fields) are not supported: ignored
        want = TCPI_STATES.get(m[1])
        if want is None:
            raise ScriptError(f"unknown state {m[1]}")
        got = self.conn.state()["state"] if self.conn is not None and self.conn.sid is not None else "FREE"
        if self.conn is not None and self.conn.ended:
            got = "CLOSED"
        if got not in want:
            raise Mismatch(f"state is {got}, script says {m[1]}")

    def run(self, lines):
        for line in lines:
            try:
                if line.kind == "packet" and line.segment.direction == ">":
                    self.outbound(line.segment, line)
                    continue
                self.run_to(self.at(line), line)
                if line.kind == "packet":
                    self.inbound(line.segment)
                    self.e.run(SETTLE_US)
                elif line.kind == "syscall":
                    self.syscall(line)
                    self.e.run(SETTLE_US)
                elif line.kind == "shell":
                    self.shell(line)
                else:
                    self.code(line)
            except (Mismatch, ScriptError, EngineError) as err:
                err.line = line
                raise


def run_script(path, data_w=64, strict=False):
    t0 = time.time()
    text = Path(path).read_text()
    try:
        headers, lines = parse_script(text)
    except ScriptError as err:
        return Result(str(path), "error", None, str(err), wall_s=time.time() - t0)
    with Engine(data_w=data_w, build=False) as e:
        r = Runner(e, headers, strict)
        try:
            r.run(lines)
        except (Mismatch, EngineError) as err:
            return Result(str(path), "fail", err.line.number, str(err), r.notes, time.time() - t0)
        except ScriptError as err:
            return Result(str(path), "error", getattr(err, "line", None) and err.line.number, str(err),
                          r.notes, time.time() - t0)
        return Result(str(path), "pass", None, "", r.notes, time.time() - t0)


def _run_one(args):
    path, data_w, strict = args
    try:
        return run_script(path, data_w, strict)
    except Exception as err:     # a crash of one script is that script's failure
        return Result(str(path), "error", None, f"{type(err).__name__}: {err}")


def collect(paths):
    out = []
    for p in paths:
        p = Path(p)
        out += sorted(p.rglob("*.pkt")) if p.is_dir() else [p]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="toe-pkt", description=__doc__.split("\n\n")[0])
    ap.add_argument("scripts", nargs="+", help="packetdrill scripts or folders of them")
    ap.add_argument("--data-w", type=int, default=64, choices=[64, 512])
    ap.add_argument("--strict", action="store_true", help="window and options must match too")
    ap.add_argument("--json", help="write one row per script to this file")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("-v", "--verbose", action="store_true", help="print the notes of passing scripts")
    ap.add_argument("--expected", help="expected-failure file (lines 'SCRIPT :: reason', SCRIPT relative "
                    "to a folder given on the command line): exit 0 when exactly those fail")
    args = ap.parse_args(argv)
    build_harness(args.data_w)
    paths = collect(args.scripts)
    work = [(str(p), args.data_w, args.strict) for p in paths]
    results = []
    with multiprocessing.Pool(args.jobs) as pool:
        for i, r in enumerate(pool.imap(_run_one, work), 1):
            results.append(r)
            where = f":{r.line}" if r.line else ""
            if r.result == "pass":
                print(f"[{i}/{len(work)}] PASS {r.path}", flush=True)
                if args.verbose:
                    for n in r.notes:
                        print(f"    note: {n}")
            else:
                print(f"[{i}/{len(work)}] {r.result.upper()} {r.path}{where}: {r.reason}", flush=True)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps([r.__dict__ for r in results], indent=1))
    passed = sum(r.result == "pass" for r in results)
    ok = passed == len(results)
    if args.expected:
        expected = set()
        for line in Path(args.expected).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                expected.add(line.partition(" :: ")[0].strip())
        def listed(path):
            return any(path.endswith("/" + e) or path == e for e in expected)
        surprises = [r.path for r in results if (r.result == "pass") == listed(r.path)]
        for p in surprises:
            print(f"not as expected ({'passes' if listed(p) else 'fails'}): {p}")
        print(f"{len(results) - passed} failures expected in {args.expected}: "
              f"{'all as expected' if not surprises else f'{len(surprises)} not as expected'}")
        ok = not surprises
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
