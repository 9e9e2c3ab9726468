"""pytest entry: prionic_qbuf block test on both simulators (F11)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq,width", [(2, 32), (4, 64), (8, 8)])
def test_qbuf(sim, nq, width):
    # small buffers: 128 words, 8 frames per queue, so they fill up
    run_sim(sim, "prionic_qbuf", "tb.blocks.qbuf.cocotb_qbuf",
            {"NUM_QUEUES": nq, "DATA_WIDTH": width, "QBUF_ADDR_WIDTH": 7, "QMETA_ADDR_WIDTH": 3,
             "MAX_FRAME_LEN": 128})
