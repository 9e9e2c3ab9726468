"""pytest entry: prionic_dma_owe block test on both simulators (F24)."""

import os

import pytest

from tb.runner import SIMULATORS, run_sim

# make test runs the parameter sets that differ most; make soak (PRIONIC_SOAK=1) all of them
SOAK = os.environ.get("PRIONIC_SOAK") == "1"


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("cpl_beats", [1, 16] + ([4] if SOAK else []))
def test_dma_owe(sim, cpl_beats):
    run_sim(sim, "prionic_dma_owe", "tb.cocotb_dma_owe", {"CPL_BEATS": cpl_beats})
