#!/usr/bin/env bash
# Idempotent setup: Debian packages the tests use (via apt, only when missing) and a
# Python venv (.venv) from the pinned requirements.txt. Safe to run on every make call;
# it returns in well under a second once everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PKGS=(g++ make ccache liblz4-dev zlib1g-dev iproute2 iputils-ping netcat-openbsd tcpdump iperf python3-venv)
missing=()
for p in "${DEB_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to apt-get install ${missing[*]} (run: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

stamp=.venv/.requirements.stamp
if [ ! -f "$stamp" ] || ! cmp -s requirements.txt "$stamp"; then
  echo "setup: creating .venv from requirements.txt"
  python3 -m venv .venv
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -r requirements.txt
  cp requirements.txt "$stamp"
fi
