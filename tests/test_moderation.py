"""pytest entry: prionic_moderation block tests on both simulators (F14, F15)."""

import pytest

from tests.sim import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq", [2, 4])
def test_moderation(sim, nq):
    run_sim(sim, "prionic_moderation", "tb.test_moderation", {"NUM_QUEUES": nq})
