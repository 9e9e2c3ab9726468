# Read by the make that builds a Verilator model for a test (tb/runner.py puts this file
# in MAKEFILES when OPT_FAST and OPT_SLOW are the same, as in every test build).
#
# verilated.mk precompiles the model's header twice, once with OPT_FAST for the "fast"
# objects and once with OPT_SLOW for the "slow" ones: 70 MB and about 5 CPU-seconds
# each. With the same flags the two are the same file, so the second is a copy of the
# first (an explicit rule beats verilated.mk's pattern rule): a third of the CPU time of
# -O0 build of the design (measured: 20.1 -> 13.6 s for prionic_rx).
Vtop__pch.h.slow.gch: Vtop__pch.h.fast.gch
	cp $< $@
