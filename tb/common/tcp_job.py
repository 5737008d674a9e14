"""toe_tcp_pkg::tcp_ring_job_t as an integer, for the tests that drive or read ring jobs:
{session, tag, base, offset, length, skip, reassembled}, the session in the top bits
(the layout is read from the package: tcp_structs)."""
from tcp_structs import from_package

JOB = from_package("tcp_ring_job_t")


def pack_job(session, tag=0, base=0, offset=0, length=0, skip=0, reassembled=0):
    """Each field modulo its width (offsets are sequence numbers)."""
    return JOB.pack(wrap=True, session=session, tag=tag, base=base, offset=offset, length=length, skip=skip,
                    reassembled=reassembled)


def unpack_job(v):
    """A dict of the fields."""
    return JOB.unpack(v)
