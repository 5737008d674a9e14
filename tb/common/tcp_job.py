"""toe_tcp_pkg::tcp_ring_job_t as an integer, for the tests that drive or read ring jobs:
{session, tag[3], base[48], offset[32], length[17], skip[16], reassembled[16]}, the
session in the top bits."""

FIELDS = (("tag", 3), ("base", 48), ("offset", 32), ("length", 17), ("skip", 16), ("reassembled", 16))


def pack_job(session, tag=0, base=0, offset=0, length=0, skip=0, reassembled=0):
    v = session
    for (_, w), val in zip(FIELDS, (tag, base, offset, length, skip, reassembled)):
        v = v << w | (val & ((1 << w) - 1))
    return v


def unpack_job(v, sid_w=20):
    """A dict of the fields, the session's sid_w bits included."""
    f = {}
    for name, w in reversed(FIELDS):
        f[name] = v & ((1 << w) - 1)
        v >>= w
    f["session"] = v & ((1 << sid_w) - 1)
    return f
