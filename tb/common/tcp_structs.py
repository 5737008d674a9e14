"""toe_tcp_pkg's packed structs as integers, for the unit tests that drive or read them:
parsed segments and their lookup answers, ISN claims, the session table's request and
answer, the core's record writes to (and reads from) the read and send engines, and
(through tcp_job.py and tcp_notif.py) ring jobs and notifications. The fields are read from the package itself (the first in the top bits);
`check(signal)` compares the width with the DUT's port."""

import re
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "rtl" / "tcp" / "toe_tcp_pkg.sv"
SID_W = int(re.search(r"localparam int unsigned SID_W = (\d+);", PKG.read_text()).group(1))   # sid_t


class PackedStruct:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields
        self.width = sum(w for _, w in fields)

    def pack(self, wrap=False, **values):
        """The fields not given are 0; with wrap, each value is taken modulo its width (a
        sequence number's sum), else one that does not fit is an error."""
        unknown = set(values) - {n for n, _ in self.fields}
        assert not unknown, f"{self.name}: no field {sorted(unknown)}"
        v = 0
        for n, w in self.fields:
            x = int(values.get(n, 0))
            if wrap:
                x &= (1 << w) - 1
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


def _width(type_name, text):
    """Bits of a field type of the package: logic [h:0], sid_t, an enum or a packed struct
    of its own (a struct field packs and unpacks as one integer)."""
    if type_name == "sid_t":
        return SID_W
    m = re.fullmatch(r"logic(?:\s*\[(\d+):0\])?", type_name)
    if m:
        return int(m.group(1) or 0) + 1
    if re.search(r"typedef struct packed \{[^}]*\}\s*" + type_name + r"\s*;", text):
        return _struct(type_name, text).width
    e = re.search(r"typedef enum logic \[(\d+):0\]\s*\{[^}]*\}\s*" + type_name + r"\s*;", text)
    assert e, f"cannot size the type '{type_name}'"
    return int(e.group(1)) + 1


def from_package(name):
    """The struct `name` as toe_tcp_pkg declares it (fields of logic vectors, sid_t and
    the package's enums and structs)."""
    return _struct(name, re.sub(r"//[^\n]*", "", PKG.read_text()))


def _struct(name, text):
    m = re.search(r"typedef struct packed \{([^}]*)\}\s*" + name + r"\s*;", text)
    assert m, f"{name} is not a packed struct of {PKG.name}"
    fields = []
    for decl in filter(None, (d.strip() for d in m.group(1).split(";"))):
        t = re.fullmatch(r"(logic(?:\s*\[\d+:0\])?|\w+)\s+(.+)", decl, re.S)
        assert t, f"{name}: cannot read the field declaration '{decl}'"
        fields += [(n.strip(), _width(t.group(1), text)) for n in t.group(2).split(",")]
    return PackedStruct(name, tuple(fields))


SEG = from_package("tcp_seg_t")
SEG_LK = from_package("tcp_seg_lk_t")
ISN_REQ = from_package("tcp_isn_req_t")
TAB_REQ = from_package("tcp_tab_req_t")
TAB_RSP = from_package("tcp_tab_rsp_t")
CORE2RXREAD = from_package("tcp_core2rxread_t")
RXREAD2CORE = from_package("tcp_rxread2core_t")
CORE2TXREQ = from_package("tcp_core2txreq_t")
TXREQ2CORE = from_package("tcp_txreq2core_t")
