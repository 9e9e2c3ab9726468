"""pytest entry: prionic_flowhash block test on both simulators (F8, docs/frame-path.md s3.1)."""

import pytest

from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("key_width,iw", [(139, 4), (20, 1), (139, 8)])
def test_flowhash(sim, key_width, iw):
    run_sim(sim, "prionic_flowhash", "tb.blocks.flowhash.cocotb_flowhash", {"KEY_WIDTH": key_width, "IW": iw})
