"""pytest entry: host-side faults of prionic_rx on both simulators (F24, docs/faults.md).

The fault matrix (every row of docs/faults.md, each with the driver's recovery) and the
reset with a B owed run in one simulator process on the default build.
"""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_faults(sim):
    """F24: FaultMatrixTest and ResetTest (tb/test_faults.py), checked against the model."""
    run_sim(sim, "prionic_rx", "tb.test_faults", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase=["FaultMatrixTest", "ResetTest"])
