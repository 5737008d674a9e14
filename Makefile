# OpenTOE top-level Makefile: the only commands a user needs.
#   make demo   build toe-sim and show Linux pinging / exchanging UDP with the engine
#   make test   the whole test suite (cocotb module tests, top-level tests, Linux interop)
#   make lint   verilator --lint-only -Wall over every RTL top
#   make sim    build build/toe-sim
#   make bench  cycle-accurate benchmarks -> build/bench/results.json
#   make synth  Yosys synthesis of toe_top at 64 and 512 bits -> build/synth/report.json
#   make clean
SHELL := /bin/bash
ENV := source scripts/env.sh
JOBS ?= 2

.PHONY: setup test lint sim demo bench synth clean

setup:
	@bash scripts/setup.sh

test: setup
	@$(ENV) && python -m pytest -n $(JOBS) -q -rs $(PYTEST_ARGS)

clean:
	rm -rf build
