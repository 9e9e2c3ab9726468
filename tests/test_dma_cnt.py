"""pytest entry: prionic_dma_cnt block test on both simulators (F12, F25)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("w", [5, 16])
def test_dma_cnt(sim, w):
    run_sim(sim, "prionic_dma_cnt", "tb.cocotb_dma_cnt", {"W": w})
