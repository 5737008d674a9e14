#!/usr/bin/env bash
# make demo: the simulated OpenTOE engine on a TAP device in a private network namespace,
# with the Linux kernel as its peer: ARP, ping of several sizes, UDP echo, TCP echo,
# iperf, the engine's pattern source, its client app connecting to Linux, counters.
# Uses documentation addresses (192.0.2.0/24) that exist only inside the namespace.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "make demo needs root: it creates a network namespace and a TAP device." >&2
  echo "Run it as root (e.g. sudo make demo)." >&2
  exit 1
fi

NS="toe-demo-$$"
HOST_IP=192.0.2.1
TOE_IP=192.0.2.2
LOG=build/demo-toe-sim.log
SIM_PID=""

cleanup() {
  if [ -n "$SIM_PID" ] && kill -0 "$SIM_PID" 2>/dev/null; then
    kill -TERM "$SIM_PID"; wait "$SIM_PID" 2>/dev/null || true
  fi
  ip netns del "$NS" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

if ! ip netns add "$NS" 2>/dev/null; then
  echo "make demo: cannot create a network namespace on this machine (ip netns add failed)." >&2
  exit 1
fi
ip netns exec "$NS" ip link set lo up

echo "== starting toe-sim (engine $TOE_IP) in namespace $NS"
ip netns exec "$NS" ./build/toe-sim --tap tap0 --ip "$TOE_IP/24" --pcap build/demo.pcap \
  --connect "$HOST_IP:5555" --send 1000000 > "$LOG" 2>&1 &
SIM_PID=$!
for _ in $(seq 50); do grep -q ready "$LOG" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$LOG" || { echo "toe-sim did not start:"; cat "$LOG"; exit 1; }
ip netns exec "$NS" ip addr add "$HOST_IP/24" dev tap0
ip netns exec "$NS" ip link set tap0 up
sleep 0.3

echo
echo "== ping from Linux ($HOST_IP) to the engine, several payload sizes"
for size in 0 56 1000 1472; do
  out=$(ip netns exec "$NS" ping -c 5 -i 0.2 -W 2 -s "$size" "$TOE_IP" || true)
  printf '  %5s bytes: %s | %s\n' "$size" "$(echo "$out" | grep -o '[0-9]* received')" \
    "$(echo "$out" | grep -o 'rtt.*' || echo 'rtt not measured (no timestamp in a 0-byte payload)')"
done

echo
echo "== ARP: Linux's neighbour entry for the engine"
echo "  $(ip netns exec "$NS" ip neigh show "$TOE_IP")"

echo
echo "== UDP echo (port 7): 200 datagrams of 1..1472 random bytes, checked byte for byte"
echo "  $(ip netns exec "$NS" python3 sim/udp_echo_client.py "$TOE_IP" 7 200 1472 || true)"

echo
echo "== TCP echo (port 7): 1 MB through one connection, sent and echoed at once, SHA-256 compared"
echo "  $(ip netns exec "$NS" python3 sim/tcp_client.py "$TOE_IP" 7 bulk 1000000 || true)"
echo "== TCP echo: 64 concurrent connections of 4 KB each"
echo "  $(ip netns exec "$NS" python3 sim/tcp_client.py "$TOE_IP" 7 echo 64 4096 || true)"
echo "== iperf 2 client to the engine's discard sink (port 5001), 5 s"
echo "   (throughput is bound by simulation speed, not by the engine)"
ip netns exec "$NS" iperf -c "$TOE_IP" -p 5001 -t 5 -f m 2>&1 | grep -E "Mbits|connected" | sed 's/^/  /' || true
echo "== TCP source (port 19): Linux reads 1 MB of the engine's pattern (byte n = n mod 251)"
echo "  $(ip netns exec "$NS" python3 sim/tcp_client.py "$TOE_IP" 19 source 1000000 || true)"
echo "== the engine's client app opens a connection to a Linux listener ($HOST_IP:5555),"
echo "   sends 1 MB of the pattern and closes"
LISTEN_OUT=$(mktemp)
ip netns exec "$NS" python3 sim/tcp_client.py "$HOST_IP" 5555 listen 1000000 60 > "$LISTEN_OUT" 2>&1 &
LISTEN_PID=$!
for _ in $(seq 50); do grep -q listening "$LISTEN_OUT" && break; sleep 0.1; done
kill -USR2 "$SIM_PID"
wait "$LISTEN_PID" || true
echo "  $(tail -1 "$LISTEN_OUT")"
rm -f "$LISTEN_OUT"

echo
echo "== stopping toe-sim; the engine's counters:"
kill -TERM "$SIM_PID"; wait "$SIM_PID" 2>/dev/null || true
SIM_PID=""
sed 1d "$LOG"
echo
echo "Every frame of the demo is in build/demo.pcap (open it in Wireshark)."
