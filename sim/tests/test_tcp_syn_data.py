"""Data on the SYN-ACK (RFC 9293 3.10.7.3, the shared script
rcv-syn-ack-with-data-syn-sent-ack-left-edge checks the wire with zeros): the bytes reach
the application that opened the connection, byte-exact, and the handshake's ACK covers
them."""
import pytest
from scapy.all import TCP

from opentoe import Engine


@pytest.mark.parametrize("data_w", [64, 512])
def test_data_on_the_syn_ack_is_delivered(data_w):
    payload = bytes(range(256)) * 4 + b"tail"
    with Engine(data_w=data_w) as e:
        s = e.connect(e.peer_ip, 8000, wait=False)
        _, syn = e.recv_frame()
        assert syn[TCP].flags == "S"
        e.inject_tcp(8000, syn[TCP].sport, "SA", 5000, ack=syn[TCP].seq + 1, payload=payload)
        _, ack = e.recv_frame()
        assert ack[TCP].flags == "A" and ack[TCP].ack == 5001 + len(payload)
        assert e.run_until(lambda: s.established, timeout_us=100)
        assert s.recv_exactly(len(payload)) == payload
