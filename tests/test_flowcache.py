"""pytest entry: prionic_flowcache block tests on both simulators (F8, docs/frame-path.md s3.1)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("entries,key_width", [(2, 20), (256, 139)])
def test_flowcache(sim, entries, key_width):
    run_sim(sim, "prionic_flowcache", "tb.cocotb_flowcache",
            {"ENTRIES": entries, "KEY_WIDTH": key_width, "VAL_WIDTH": 8, "TS_WIDTH": 16})
