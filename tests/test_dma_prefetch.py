"""pytest entry: prionic_dma_prefetch block tests on both simulators (F12, F24)."""

import pytest

from tb.runner import SIMULATORS, SOAK, run_sim

# make test runs the parameter sets that differ most; make soak all of them


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width,axi,nq", [(32, 32, 3), (64, 128, 2)] + ([(8, 8, 2)] if SOAK else []))
def test_dma_prefetch(sim, width, axi, nq):
    run_sim(sim, "prionic_dma_prefetch", "tb.blocks.dma.cocotb_dma_prefetch",
            {"DATA_WIDTH": width, "AXI_DATA_WIDTH": axi, "NUM_QUEUES": nq})
