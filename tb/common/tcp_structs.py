"""The toe_tcp_pkg structs that carry the TCP subsystem's internal channels, as integers,
for the unit tests that drive or read them: the session table's request and answer, and
the core's record writes to (and reads from) the read and send engines. The fields are
read from the package itself (the first in the top bits); `check(signal)` compares the
width with the DUT's port."""

import re
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "rtl" / "tcp" / "toe_tcp_pkg.sv"
SID_W = int(re.search(r"localparam int unsigned SID_W = (\d+);", PKG.read_text()).group(1))   # sid_t


class PackedStruct:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields
        self.width = sum(w for _, w in fields)

    def pack(self, **values):
        unknown = set(values) - {n for n, _ in self.fields}
        assert not unknown, f"{self.name}: no field {sorted(unknown)}"
        v = 0
        for n, w in self.fields:
            x = values.get(n, 0)
            assert 0 <= x < 1 << w, f"{self.name}.{n} = {x} does not fit {w} bits"
            v = v << w | x
        return v

    def unpack(self, v):
        out = {}
        for n, w in reversed(self.fields):
            out[n] = v & ((1 << w) - 1)
            v >>= w
        return out

    def check(self, signal):
        assert len(signal) == self.width, f"{self.name}: the port has {len(signal)} bits, the model {self.width}"
        return signal

    def drive(self, signal, **values):
        self.check(signal).value = self.pack(**values)

    def read(self, signal):
        return self.unpack(int(self.check(signal).value))


def from_package(name, path=PKG):
    """The struct `name` as toe_tcp_pkg declares it (fields of logic vectors and sid_t)."""
    text = re.sub(r"//[^\n]*", "", path.read_text())
    m = re.search(r"typedef struct packed \{([^}]*)\}\s*" + name + r"\s*;", text)
    assert m, f"{name} is not a packed struct of {path.name}"
    fields = []
    for decl in filter(None, (d.strip() for d in m.group(1).split(";"))):
        t = re.fullmatch(r"(logic(?:\s*\[(\d+):0\])?|sid_t)\s+(.+)", decl, re.S)
        assert t, f"{name}: cannot read the field declaration '{decl}'"
        w = SID_W if t.group(1) == "sid_t" else int(t.group(2) or 0) + 1
        fields += [(n.strip(), w) for n in t.group(3).split(",")]
    return PackedStruct(name, tuple(fields))


TAB_REQ = from_package("tcp_tab_req_t")
TAB_RSP = from_package("tcp_tab_rsp_t")
CORE2RXREAD = from_package("tcp_core2rxread_t")
RXREAD2CORE = from_package("tcp_rxread2core_t")
CORE2TXREQ = from_package("tcp_core2txreq_t")
TXREQ2CORE = from_package("tcp_txreq2core_t")
