"""pytest entry: host-side faults of prionic_rx on both simulators (F24, docs/faults.md).

The fault matrix (every row of docs/faults.md, each with the driver's recovery), the
resets with a B and an R owed and the stalls (three cocotb modules on tb/top/faults_base.py)
run in one simulator process on one build, at 32 and 64 bits: the builds of
tests/test_top.py's directed test and of its 64-bit line-rate test (a 32-set flow table, F31,
and no flow cache; the faults meet a NIC whose verdicts take the table's latency).
"""

import pytest

from tb.runner import SIMULATORS, run_sim
from tests.test_top import TABLE_64

FAULT_MODULES = ["tb.top.cocotb_faults", "tb.top.cocotb_faults_reset", "tb.top.cocotb_faults_stall"]


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width", [32, 64])
def test_faults(sim, width):
    """F24: FaultMatrixTest and WbLostTest (tb/top/cocotb_faults.py), ResetTest and BusResetTest
    (tb/top/cocotb_faults_reset.py), StallTest (tb/top/cocotb_faults_stall.py), checked against the model."""
    params = TABLE_64 if width == 64 else {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4}
    run_sim(sim, "prionic_rx", FAULT_MODULES, params,
            testcase=["FaultMatrixTest", "ResetTest", "BusResetTest", "WbLostTest", "StallTest"])
