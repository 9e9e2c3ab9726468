"""pytest entry: top-level prionic_rx tests on both simulators (F11-F17, F19, F20).

Random traffic over 2, 4 and 8 queues: 2000 + 1500 + 1500 = 5000 frames per simulator.
"""

import pytest

from tests.sim import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq,nr,frames", [(2, 4, 2000), (4, 8, 1500), (8, 16, 1500)])
def test_top_random_traffic(sim, nq, nr, frames):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": nq, "NUM_RULES": nr},
            testcase="RandomTrafficTest", extra_env={"PRIONIC_FRAMES": str(frames)})


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_scoreboard_bites(sim):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="ScoreboardBitesTest")


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_head_of_line(sim):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 4, "NUM_RULES": 4},
            testcase="HeadOfLineTest")


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_flood_limit(sim):
    """F9, F10: a flood cut by its rule's rate limiter, interrupts by the global budget."""
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="FloodLimitTest")


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_latency(sim):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="LatencyTest")


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width", [8, 32, 64])
def test_top_line_rate(sim, width):
    run_sim(sim, "prionic_rx", "tb.test_top", {"DATA_WIDTH": width, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="LineRateTest")
