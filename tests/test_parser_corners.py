"""pytest entry: prionic_parser corner test on both simulators (F3, F30; tb/blocks/parser/cocotb_parser_corners.py)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
def test_parser_corners(sim):
    run_sim(sim, "prionic_parser", "tb.blocks.parser.cocotb_parser_corners", {"DATA_WIDTH": 8})
