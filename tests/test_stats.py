"""pytest entry: prionic_stats block tests on both simulators (F13, F25, docs/stats.md)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("params", [{}, {"N": 5, "INC_WIDTH": 28, "CNT_WIDTH": 34}], ids=["default", "narrow"])
def test_stats(sim, params):
    """F13, F25: every test of tb/blocks/stats/cocotb_stats.py with the default 16 counters of
    64 bits and with the narrowest block (5 counters, the fewest its scan allows, so a word is
    read again the edge after its write; 34-bit counters that 28-bit increments wrap within a
    test; counter indices 5..7 that name no counter)."""
    run_sim(sim, "prionic_stats", "tb.blocks.stats.cocotb_stats", params)
