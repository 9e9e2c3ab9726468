"""pytest entry: prionic_dma block tests on both simulators (F12)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width,axi", [(8, 8), (32, 32), (64, 64), (64, 128)])
def test_dma(sim, width, axi):
    """AXI_DATA_WIDTH = DATA_WIDTH, and 2x at 64 bits as prionic_rx instantiates it (F25: a
    one-beat write-back, whose B may come the edge after its only W beat)."""
    run_sim(
        sim, "prionic_dma", "tb.blocks.dma.cocotb_dma",
        {"DATA_WIDTH": width, "AXI_DATA_WIDTH": axi, "NUM_QUEUES": 2},
    )
