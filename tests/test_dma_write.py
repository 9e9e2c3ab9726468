"""pytest entry: prionic_dma_write block test on both simulators (F12, F24)."""

import os

import pytest

from tb.runner import SIMULATORS, run_sim

# make test runs the parameter sets that differ most; make soak (PRIONIC_SOAK=1) all of them
SOAK = os.environ.get("PRIONIC_SOAK") == "1"


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width,axi", [(8, 8), (64, 128)] + ([(32, 32)] if SOAK else []))
def test_dma_write(sim, width, axi):
    run_sim(sim, "prionic_dma_write", "tb.cocotb_dma_write", {"DATA_WIDTH": width, "AXI_DATA_WIDTH": axi})
