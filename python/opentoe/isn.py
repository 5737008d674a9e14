"""RFC 6528 initial sequence numbers as the engine computes them (toe_tcp_isn.sv), written
from the SipHash paper (Aumasson and Bernstein, 2012) and checked against its test
vectors: the reference the RTL is tested against."""
import struct

MASK64 = (1 << 64) - 1


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK64


def _round(v0, v1, v2, v3):
    v0 = (v0 + v1) & MASK64; v1 = _rotl(v1, 13) ^ v0; v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & MASK64; v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & MASK64; v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & MASK64; v1 = _rotl(v1, 17) ^ v2; v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def siphash24(key: bytes, msg: bytes) -> int:
    """SipHash-2-4 of msg under a 16-byte key, as a 64-bit integer."""
    k0, k1 = struct.unpack("<QQ", key)
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573
    tail = len(msg) % 8
    blocks = [struct.unpack("<Q", msg[i:i + 8])[0] for i in range(0, len(msg) - tail, 8)]
    blocks.append(int.from_bytes(msg[len(msg) - tail:], "little") | (len(msg) & 0xFF) << 56)
    for m in blocks:
        v3 ^= m
        for _ in range(2):
            v0, v1, v2, v3 = _round(v0, v1, v2, v3)
        v0 ^= m
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def key_bytes(words):
    """The 16-byte key from the registers TCP_ISN_KEY0..3 (KEY0 holds key bytes 0..3)."""
    return b"".join(struct.pack("<I", w) for w in words)


def isn_hash(key: bytes, local_ip: int, local_port: int, remote_ip: int, remote_port: int) -> int:
    """F of RFC 6528: the low 32 bits of SipHash-2-4 over local IP, remote IP, local port,
    remote port (network byte order)."""
    msg = struct.pack(">IIHH", local_ip, remote_ip, local_port, remote_port)
    return siphash24(key, msg) & 0xFFFFFFFF


def isn(key, local_ip, local_port, remote_ip, remote_port, now_us_34bit: int) -> int:
    """ISN = M + F with M the 4-microsecond clock modulo 2^32."""
    return ((now_us_34bit >> 2) + isn_hash(key, local_ip, local_port, remote_ip, remote_port)) & 0xFFFFFFFF
