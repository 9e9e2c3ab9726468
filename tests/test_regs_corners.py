"""pytest entry: prionic_regs corner tests on both simulators (F24, F30; tb/blocks/regs/cocotb_regs_corners.py)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_regs_corners(sim):
    run_sim(
        sim, "prionic_regs", "tb.blocks.regs.cocotb_regs_corners",
        {"NUM_QUEUES": 2, "NUM_RULES": 4, "DATA_WIDTH": 32},
    )
