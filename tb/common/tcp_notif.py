"""toe_tcp_pkg::tcp_notif_t as an integer, for the tests that drive or read it: kinds
(tcp_notif_kind_e) and packing {session, kind[3], length[16], remote_ip[32],
remote_port[16], local_port[16]}, the session in the top bits."""

NEW, DATA, PEER_FIN, CLOSED, RESET, FAILED, TX_SPACE = range(7)


def pack_notif(session, kind, length, ip=0, rport=0, lport=0):
    v = session
    for val, w in ((kind, 3), (length, 16), (ip, 32), (rport, 16), (lport, 16)):
        v = v << w | val
    return v


def unpack_notif(v):
    """(session, kind, length, (remote_ip, remote_port, local_port))"""
    lport, v = v & 0xFFFF, v >> 16
    rport, v = v & 0xFFFF, v >> 16
    ip, v = v & 0xFFFFFFFF, v >> 32
    length, v = v & 0xFFFF, v >> 16
    return v >> 3, v & 7, length, (ip, rport, lport)
