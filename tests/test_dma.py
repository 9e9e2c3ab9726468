"""pytest entry: prionic_dma block tests on both simulators (F12)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width", [8, 32, 64])
def test_dma(sim, width):
    run_sim(sim, "prionic_dma", "tb.test_dma", {"DATA_WIDTH": width, "NUM_QUEUES": 2})
