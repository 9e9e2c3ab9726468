"""pytest entry: prionic_parser block test on both simulators and three widths (F1, F3)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width", [8, 32, 64])
def test_parser(sim, width):
    run_sim(sim, "prionic_parser", "tb.blocks.parser.cocotb_parser", {"DATA_WIDTH": width})
