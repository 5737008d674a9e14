#!/usr/bin/env python3
"""TCP test peer for the engine's services (Linux's own TCP stack as the peer).

  tcp_client.py IP PORT echo N SIZE [S]  N concurrent connections, each sends SIZE random
                                         bytes and must get them back byte-exact (limit S s)
  tcp_client.py IP PORT bulk SIZE [S]    one connection, SIZE bytes sent and echoed while
                                         sending; SHA-256 of both directions compared;
                                         gives up after S seconds (default 600)
  tcp_client.py IP PORT rst SIZE         send SIZE bytes, then abort with RST (SO_LINGER 0)
  tcp_client.py IP PORT halfclose SIZE   send SIZE bytes, shut down the write side, read
                                         the echo until the engine's FIN
  tcp_client.py IP PORT sink SIZE        send SIZE random bytes to the discard service,
                                         shut down the write side and wait for the
                                         engine's FIN (all data in order before it)
  tcp_client.py IP PORT source SIZE      read SIZE bytes from the engine's source (port 19)
                                         and check the pattern (byte n is n mod 251)
  tcp_client.py IP PORT stall            send to the echo service without ever reading, until
                                         nothing more goes (engine and kernel buffers full);
                                         print "stalled"; abort (RST) at a line on stdin
  tcp_client.py IP PORT listen SIZE [S]  listen on IP:PORT (a local address), print
                                         "listening", take one connection (the engine's
                                         client app), read to its FIN, check it is SIZE
                                         bytes of the pattern (prints "closed" at its close)

Prints one summary line; exits non-zero on any mismatch, error or timeout.
"""
import asyncio
import hashlib
import os
import random
import socket
import struct
import sys
import time


async def echo_one(ip, port, size, seed):
    data = random.Random(seed).randbytes(size)
    reader, writer = await asyncio.open_connection(ip, port)
    writer.write(data)
    await writer.drain()
    got = await reader.readexactly(size)
    writer.close()
    await writer.wait_closed()
    return got == data


async def echo_many(ip, port, n, size, limit_s=600):
    results = await asyncio.wait_for(
        asyncio.gather(*(echo_one(ip, port, size, i) for i in range(n)), return_exceptions=True),
        timeout=limit_s)
    bad = [r for r in results if r is not True]
    print(f"{n - len(bad)} of {n} connections echoed {size} bytes byte-exact")
    if bad:
        print("failures:", bad[:5])
    return not bad


async def bulk(ip, port, size, limit_s=600):
    reader, writer = await asyncio.open_connection(ip, port, limit=1 << 20)
    sent, got = hashlib.sha256(), hashlib.sha256()
    rng = random.Random(7)

    async def send():
        left = size
        while left:
            chunk = rng.randbytes(min(left, 65536))
            sent.update(chunk)
            writer.write(chunk)
            await writer.drain()
            left -= len(chunk)

    async def recv():
        left = size
        while left:
            chunk = await reader.read(min(left, 1 << 20))
            if not chunk:
                raise EOFError(f"EOF with {left} bytes missing")
            got.update(chunk)
            left -= len(chunk)

    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await asyncio.wait_for(asyncio.gather(send(), recv()), timeout=limit_s)
    dt = loop.time() - t0
    writer.close()
    await writer.wait_closed()
    ok = sent.digest() == got.digest()
    print(f"{size} bytes echoed in {dt:.1f} s, sha256 {'equal' if ok else 'DIFFERENT'} "
          f"({got.hexdigest()[:16]})")
    return ok


def rst(ip, port, size):
    s = socket.create_connection((ip, port), timeout=10)
    s.sendall(os.urandom(size))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    print(f"sent {size} bytes, then RST")
    return True


def halfclose(ip, port, size):
    data = os.urandom(size)
    s = socket.create_connection((ip, port), timeout=20)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    s.close()
    ok = got == data
    print(f"half-closed after {size} bytes: echo {'complete' if ok else 'WRONG'} ({len(got)} bytes), then FIN")
    return ok


def sink(ip, port, size):
    s = socket.create_connection((ip, port), timeout=120)
    s.sendall(os.urandom(size))
    s.shutdown(socket.SHUT_WR)
    extra = s.recv(1)   # b"" at the engine's FIN
    s.close()
    print(f"sent {size} bytes to the sink, then FIN; {'FIN back' if not extra else 'DATA back'}")
    return not extra


def stall(ip, port):
    s = socket.create_connection((ip, port), timeout=20)
    s.setblocking(False)
    sent, idle_since = 0, time.monotonic()
    while time.monotonic() - idle_since < 3:
        try:
            sent += s.send(os.urandom(65536))
            idle_since = time.monotonic()
        except BlockingIOError:
            time.sleep(0.05)
    print(f"stalled after {sent} bytes", flush=True)
    sys.stdin.readline()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    return True


def pattern_ok(data, start=0):
    return data == bytes((start + i) % 251 for i in range(len(data)))


def source(ip, port, size):
    s = socket.create_connection((ip, port), timeout=20)
    got = b""
    while len(got) < size:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    s.close()
    ok = len(got) >= size and pattern_ok(got)
    print(f"read {len(got)} bytes from the source: pattern {'ok' if ok else 'WRONG'}")
    return ok


def listen(ip, port, size, limit_s=120):
    srv = socket.create_server((ip, port))
    srv.settimeout(limit_s)
    print("listening", flush=True)
    conn, peer = srv.accept()
    conn.settimeout(limit_s)
    got = bytearray()
    while True:
        chunk = conn.recv(1 << 20)
        if not chunk:
            break
        got += chunk
    conn.close()
    print("closed", flush=True)   # our FIN is out (a mark for timing tests)
    ok = len(got) == size and pattern_ok(bytes(got))
    print(f"received {len(got)} bytes from {peer[0]}:{peer[1]} until FIN: "
          f"pattern {'ok' if ok else 'WRONG'}", flush=True)
    return ok


def main():
    ip, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    args = [int(a) for a in sys.argv[4:]]
    if mode == "echo":
        ok = asyncio.run(echo_many(ip, port, *args))
    elif mode == "bulk":
        ok = asyncio.run(bulk(ip, port, *args))
    elif mode == "rst":
        ok = rst(ip, port, *args)
    elif mode == "halfclose":
        ok = halfclose(ip, port, *args)
    elif mode == "stall":
        ok = stall(ip, port)
    elif mode == "sink":
        ok = sink(ip, port, *args)
    elif mode == "source":
        ok = source(ip, port, *args)
    elif mode == "listen":
        ok = listen(ip, port, *args)
    else:
        sys.exit(f"unknown mode {mode}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
