"""pytest entry: prionic_admit block test on both simulators (F12, F13)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq,frames", [(1, 64), (4, 4)])
def test_admit(sim, nq, frames):
    # a small on-chip buffer so that QBUF_FULL happens often: by its words (one queue, many
    # frames), or by its frame count as well (four queues)
    run_sim(
        sim, "prionic_admit", "tb.blocks.admit.cocotb_admit",
        {"NUM_QUEUES": nq, "QBUF_WORDS": 500, "QBUF_FRAMES": frames},
    )
