"""pytest entry: prionic_dma_owe block test on both simulators (F24)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("cpl_beats", [1, 4, 16])
def test_dma_owe(sim, cpl_beats):
    run_sim(sim, "prionic_dma_owe", "tb.cocotb_dma_owe", {"CPL_BEATS": cpl_beats})
