"""pytest entry: prionic_fifo block tests on both simulators (F1, F12)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width,addr_width,output_reg", [(8, 2, 0), (32, 4, 0), (8, 2, 1), (32, 4, 1), (16, 3, 1)])
def test_fifo(sim, width, addr_width, output_reg):
    run_sim(sim, "prionic_fifo", "tb.blocks.fifo.cocotb_fifo",
            {"WIDTH": width, "ADDR_WIDTH": addr_width, "OUTPUT_REG": output_reg})
