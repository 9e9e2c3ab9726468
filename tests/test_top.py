"""pytest entry: top-level prionic_rx tests on both simulators (F17, F19, F20)."""

import pytest

from tests.sim import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_random_traffic(sim):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="RandomTrafficTest")


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_scoreboard_bites(sim):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="ScoreboardBitesTest")
