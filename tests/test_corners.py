"""pytest entry: directed corner tests of prionic_rx for `make coverage`'s functional bins
(F30, tb/top/cocotb_corners.py), on both simulators, over 8 queues (the widest build of the
regression: every queue bin exists there), on the build of test_top_random_traffic's 8-queue
case (16 rules scanned four per cycle, a 16-entry flow cache): one Verilator build for both."""

import pytest

from tb.runner import SIMULATORS, run_sim

PARAMS = {"DATA_WIDTH": 32, "NUM_QUEUES": 8, "NUM_RULES": 16, "RULES_PER_CYCLE": 4, "FLOW_ENTRIES": 16,
          "FLOW_TS_SHIFT": 6}


@pytest.mark.parametrize("sim", SIMULATORS)
def test_corners_verdicts(sim):
    """Every class accepted into every queue, each refusal on every queue, the verdicts
    without a queue for every class that can get them, gating on and off and every
    interrupt cause on every queue; checked against the model."""
    run_sim(sim, "prionic_rx", "tb.top.cocotb_corners", PARAMS, testcase="VerdictCornersTest")


@pytest.mark.parametrize("sim", SIMULATORS)
def test_corners_dma(sim):
    """Every DMA event in every state of the DMA that can meet it (tb/top/cocotb_dma_corners.py):
    write-back and descriptor faults placed in time against the traffic; checked against
    the model."""
    run_sim(sim, "prionic_rx", "tb.top.cocotb_dma_corners", PARAMS, testcase="DmaCornersTest")


@pytest.mark.parametrize("sim", SIMULATORS)
def test_corners_flow_clear(sim):
    """F8: cache clears swept over a hitting flow's lookups (tb/top/cocotb_flow_corners.py)."""
    run_sim(sim, "prionic_rx", "tb.top.cocotb_flow_corners", PARAMS, testcase="FlowClearTest")
