"""pytest entry: prionic_regs block tests on both simulators (F11-F15)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq,nr,dw,rpc,entries", [(2, 4, 32, 4, 16), (4, 16, 64, 3, 0)])
def test_regs(sim, nq, nr, dw, rpc, entries):
    run_sim(sim, "prionic_regs", "tb.cocotb_regs", {"NUM_QUEUES": nq, "NUM_RULES": nr, "DATA_WIDTH": dw,
                                                  "RULES_PER_CYCLE": rpc, "FLOW_ENTRIES": entries})


@pytest.mark.parametrize("sim", SIMULATORS)
def test_regs_16_queues_cause(sim):
    """IRQ_CAUSE clears with more than 8 queues: bits 8..15 live in byte 1 (byte strobes)."""
    run_sim(sim, "prionic_regs", "tb.cocotb_regs", {"NUM_QUEUES": 16, "NUM_RULES": 2, "DATA_WIDTH": 32},
            testcase="test_irq_cause_clear")
