"""pytest entry: host-side faults of prionic_rx on both simulators (F24, docs/faults.md).

The fault matrix (every row of docs/faults.md, each with the driver's recovery) and the
resets with a B and an R owed run in one simulator process, at 32 and 64 bits (the builds
of tests/test_top.py's directed and 64-bit line-rate tests).
"""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width", [32, 64])
def test_faults(sim, width):
    """F24: FaultMatrixTest, ResetTest, BusResetTest, WbLostTest and StallTest
    (tb/cocotb_faults.py), checked against the model."""
    run_sim(sim, "prionic_rx", "tb.cocotb_faults", {"DATA_WIDTH": width, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase=["FaultMatrixTest", "ResetTest", "BusResetTest", "WbLostTest", "StallTest"])
