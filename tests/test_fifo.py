"""pytest entry: prionic_fifo block tests on both simulators (F1, F12)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width,addr_width", [(8, 2), (32, 4)])
def test_fifo(sim, width, addr_width):
    run_sim(sim, "prionic_fifo", "tb.test_fifo", {"WIDTH": width, "ADDR_WIDTH": addr_width})
