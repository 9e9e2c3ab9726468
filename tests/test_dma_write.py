"""pytest entry: prionic_dma_write block test on both simulators (F12, F24)."""

import pytest

from tb.runner import SIMULATORS, SOAK, run_sim

# make test runs the parameter sets that differ most; make soak all of them


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width,axi", [(8, 8), (64, 128)] + ([(32, 32)] if SOAK else []))
def test_dma_write(sim, width, axi):
    run_sim(sim, "prionic_dma_write", "tb.blocks.dma.cocotb_dma_write", {"DATA_WIDTH": width, "AXI_DATA_WIDTH": axi})
