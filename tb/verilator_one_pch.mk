# Read by the make that builds a Verilator model for a test (tb/runner.py puts this file
# in MAKEFILES when OPT_FAST and OPT_SLOW are the same, as in every test build).
#
# verilated.mk precompiles the model's header (Vtop__pch.h: Verilator's headers and the
# model's own) twice, once with OPT_FAST for the "fast" objects and once with OPT_SLOW for
# the "slow" ones: 70 MB and about 5 CPU-seconds each, almost all of it Verilator's
# headers, the same for every model built with the same flags.
#
# With PRIONIC_PCH (tb/runner.py: a header beside the shared runtime objects, one per set
# of build flags, including verilated.h and, with --timing, verilated_timing.h), every
# build compiles its objects with that header's precompiled form instead, made once
# under a lock by the first build that needs it; the model's own headers are then read
# as text, by the sources' own include (small). A stale or foreign precompiled header is
# never wrong: the compiler then reads the header itself. Without it, the slow half's header is a
# copy of the fast half's (an explicit rule beats verilated.mk's pattern rule).
ifdef PRIONIC_PCH
override VK_PCH_I_FAST = $(CFG_CXXFLAGS_PCH_I) $(PRIONIC_PCH)
override VK_PCH_I_SLOW = $(CFG_CXXFLAGS_PCH_I) $(PRIONIC_PCH)

Vtop__pch.h.fast.gch Vtop__pch.h.slow.gch: $(PRIONIC_PCH).gch
	touch $@

# (its recipe runs in every build: made, or kept if newer than its header and verilated.h)
$(PRIONIC_PCH).gch: prionic_pch_force
	flock $(PRIONIC_PCH).lock sh -c 'test $@ -nt $(PRIONIC_PCH) -a $@ -nt $(VERILATOR_ROOT)/include/verilated.h || { $(CXX) $(OPT_FAST) $(CXXFLAGS) $(CPPFLAGS) $(CFG_CXXFLAGS_PCH) $(PRIONIC_PCH) -o $@.$$$$ && mv $@.$$$$ $@; }'

.PHONY: prionic_pch_force
prionic_pch_force:
else
Vtop__pch.h.slow.gch: Vtop__pch.h.fast.gch
	cp $< $@
endif
