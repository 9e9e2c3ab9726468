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


# a 32-set table (128 entries, filled with 160 flows: FULL answers) beside two wildcard rules
TABLE_PARAMS = {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4, "FLOW_ENTRIES": 0, "FLOW_TABLE_SETS": 32}


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_flow_table(sim):
    """F31, F5, F6, F9: tb/top/cocotb_flowtable.py FlowTableTest on prionic_rx with a flow
    table: entries inserted, refused (FULL), deleted, re-inserted and updated through the
    registers before and during traffic; every frame and register checked against the model."""
    run_sim(sim, "prionic_rx", "tb.top.cocotb_flowtable", TABLE_PARAMS, testcase="FlowTableTest")
