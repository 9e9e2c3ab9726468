"""pytest entry: prionic_flowtable block tests on both simulators (F31, docs/flowtable.md)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("sets", [4, 512])
def test_flowtable(sim, sets):
    """F31: every test of tb/blocks/flowtable/cocotb_flowtable.py with 4 sets (16 entries: FULL
    answers, dense collisions) and with the default 512 (2,048 entries: 1,024 flows)."""
    run_sim(sim, "prionic_flowtable", "tb.blocks.flowtable.cocotb_flowtable", {"SETS": sets})


@pytest.mark.parametrize("sim", SIMULATORS)
def test_flowtable_hash(sim):
    """F31: tb/blocks/flowtable/cocotb_flowtable_hash.py, bank 1 with 1,024 sets (bank 0 with
    512 sets is checked through test_flowtable: its lookups use the model's sets, its host
    commands the RTL's)."""
    run_sim(sim, "prionic_flowtable_hash", "tb.blocks.flowtable.cocotb_flowtable_hash",
            {"KEY_WIDTH": 139, "IW": 10, "BANK": 1})

