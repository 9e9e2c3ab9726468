"""pytest entry: prionic_gmii_rx block tests on both simulators (F2, the GMII front end)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_gmii_rx(sim):
    """F2: preamble/SFD stripping, FCS check and strip, rx_er, verdicts and counters."""
    run_sim(sim, "prionic_gmii_rx", "tb.blocks.gmii_rx.cocotb_gmii_rx", {"DATA_WIDTH": 8})
