"""pytest entry: prionic_limiter block tests on both simulators (F9, docs/limiter.md)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("num_limiters", [1, 3, 4])
def test_limiter(sim, num_limiters):
    run_sim(sim, "prionic_limiter", "tb.blocks.limiter.cocotb_limiter", {"NUM_LIMITERS": num_limiters})
