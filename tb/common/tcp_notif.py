"""toe_tcp_pkg::tcp_notif_t as an integer, for the tests that drive or read it: kinds
(tcp_notif_kind_e) and packing {session, kind, length, remote_ip, remote_port,
local_port}, the session in the top bits (the layout is read from the package:
tcp_structs)."""
from tcp_structs import from_package

NEW, DATA, PEER_FIN, CLOSED, RESET, FAILED, TX_SPACE = range(7)
NOTIF = from_package("tcp_notif_t")


def pack_notif(session, kind, length, ip=0, rport=0, lport=0):
    return NOTIF.pack(session=session, kind=kind, length=length, remote_ip=ip, remote_port=rport, local_port=lport)


def unpack_notif(v):
    """(session, kind, length, (remote_ip, remote_port, local_port))"""
    f = NOTIF.unpack(v)
    return f["session"], f["kind"], f["length"], (f["remote_ip"], f["remote_port"], f["local_port"])
