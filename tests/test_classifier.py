"""pytest entry: prionic_classifier block test on both simulators (F5, F6, F7, F8).

Parameter sets (NUM_RULES, NUM_QUEUES, RULES_PER_CYCLE, FLOW_ENTRIES, FLOW_TS_SHIFT): the
one-cycle table without a cache; the one-cycle table with a 16-entry cache in long time
units; a 6-edge scan (16 rules, 3 per edge) with an 8-entry cache in 4-cycle units; a
16-edge scan (one rule per edge) with a 4-entry cache in 1-cycle units.
"""

import pytest

from tb.runner import SIMULATORS, run_sim

CONFIGS = [(4, 2, 0, 0, 14), (16, 8, 0, 16, 14), (16, 4, 3, 8, 2), (16, 4, 1, 4, 0)]


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nr,nq,rpc,entries,shift", CONFIGS)
def test_classifier(sim, nr, nq, rpc, entries, shift):
    run_sim(sim, "prionic_classifier", "tb.blocks.classifier.cocotb_classifier",
            {"NUM_RULES": nr, "NUM_QUEUES": nq, "RULES_PER_CYCLE": rpc, "FLOW_ENTRIES": entries,
             "FLOW_TS_SHIFT": shift})
