"""pytest entry: prionic_dma_owe block test on both simulators (F24)."""

import pytest

from tb.runner import SIMULATORS, SOAK, run_sim

# make test runs the parameter sets that differ most; make soak all of them


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("cpl_beats", [1, 16] + ([4] if SOAK else []))
def test_dma_owe(sim, cpl_beats):
    run_sim(sim, "prionic_dma_owe", "tb.blocks.dma.cocotb_dma_owe", {"CPL_BEATS": cpl_beats})
