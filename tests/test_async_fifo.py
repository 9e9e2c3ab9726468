"""pytest entry: prionic_async_fifo and the synchronizers on both simulators (F29)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_async_fifo(sim):
    """F29: frames cross whole and in order; frames that do not fit are dropped whole and
    counted; a reset of both sides mid-frame leaves nothing behind."""
    run_sim(sim, "prionic_async_fifo", "tb.blocks.async_fifo.cocotb_async_fifo", {"DATA_WIDTH": 16, "DEPTH": 64})


@pytest.mark.parametrize("sim", SIMULATORS)
def test_sync_count(sim):
    """F29: prionic_sync_count loses no pulse between unrelated clocks; prionic_sync_bit's delay."""
    run_sim(sim, "prionic_sync_count", "tb.blocks.sync.cocotb_sync", {"WIDTH": 4, "STAGES": 3})
