"""pytest entry: prionic_classifier block test on both simulators (F5, F6)."""

import pytest

from tests.sim import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nr,nq", [(4, 2), (16, 8)])
def test_classifier(sim, nr, nq):
    run_sim(sim, "prionic_classifier", "tb.test_classifier", {"NUM_RULES": nr, "NUM_QUEUES": nq})
