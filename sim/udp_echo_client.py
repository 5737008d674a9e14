#!/usr/bin/env python3
"""Send N UDP datagrams of random sizes to an echo server and check every reply byte for
byte. Prints one summary line; exits non-zero on any loss or mismatch.
usage: udp_echo_client.py HOST PORT COUNT [MAX_SIZE] [SEED]"""
import random
import socket
import sys
import time


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    max_size = int(sys.argv[4]) if len(sys.argv) > 4 else 1472
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(2.0)
    ok = lost = bad = 0
    rtts = []
    for i in range(count):
        size = rng.randint(1, max_size)
        payload = rng.randbytes(size)
        t0 = time.perf_counter()
        sock.sendto(payload, (host, port))
        try:
            data, _ = sock.recvfrom(65536)
        except socket.timeout:
            lost += 1
            continue
        rtts.append(time.perf_counter() - t0)
        if data == payload:
            ok += 1
        else:
            bad += 1
    avg = sum(rtts) / len(rtts) * 1e6 if rtts else 0
    print(f"udp echo: {count} sent, {ok} echoed byte-exact, {bad} wrong, {lost} lost, "
          f"avg rtt {avg:.0f} us")
    sys.exit(0 if ok == count else 1)


if __name__ == "__main__":
    main()
