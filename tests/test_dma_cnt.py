"""pytest entry: prionic_dma_cnt block test on both simulators (F12, F25)."""

import pytest

from tb.runner import SIMULATORS, SOAK, run_sim

# make test runs the parameter sets that differ most; make soak all of them


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("w", [16] + ([5] if SOAK else []))
def test_dma_cnt(sim, w):
    run_sim(sim, "prionic_dma_cnt", "tb.blocks.dma.cocotb_dma_cnt", {"W": w})
