"""pytest entry: prionic_flowcache block tests on both simulators (F8, docs/frame-path.md s3.1)."""

import pytest

from tb.runner import SIMULATORS, run_sim

TESTS = ["flowcache_random_vs_model", "flowcache_sequence", "flowcache_flusher_wrap"]


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("entries,key_width", [(2, 20), (256, 139)])
def test_flowcache(sim, entries, key_width):
    """F8: every test of tb/blocks/flowcache/cocotb_flowcache.py at 2 and 256 entries, except the flusher
    wrap at 256 entries on Icarus: it drives ``now`` from Python for more than 2**16 edges,
    several minutes there; it runs at 256 entries on Verilator and at 2 on both."""
    tests = TESTS if (sim, entries) != ("icarus", 256) else TESTS[:2]
    run_sim(sim, "prionic_flowcache", "tb.blocks.flowcache.cocotb_flowcache",
            {"ENTRIES": entries, "KEY_WIDTH": key_width, "VAL_WIDTH": 8, "TS_WIDTH": 16}, testcase=tests)
