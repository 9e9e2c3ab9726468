"""pytest entry: top-level prionic_rx tests on both simulators (F11-F17, F19, F20).

Random traffic over 2, 4 and 8 queues: 500 + 400 + 400 = 1300 frames on Verilator, 100 +
140 + 100 on Icarus (`make soak`: ten times as many). Over 4 and 8 queues the host memory is a legal but
unhelpful AXI4 slave (AWREADY waits for the first W beat, random stalls on every channel,
F25) that also answers about one burst in 250 with an error or not at all, and the host
recovers stopped queues and resets single queues at random (F24); over 2 queues it
answers at once.
"""

import json
import os
import random

import pytest

from tb.common import amount
from tb.runner import SIMULATORS, run_sim


# (queues, rules, RULES_PER_CYCLE, FLOW_ENTRIES, FLOW_TS_SHIFT, frames): one-cycle table;
# a scan of 8 cycles with a 4-entry cache; a scan of 4 cycles with 16 entries (F8)
@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq,nr,rpc,entries,shift,frames",
                         [(4, 8, 1, 4, 4, 400), (8, 16, 4, 16, 6, 400)])
def test_top_random_traffic(sim, nq, nr, rpc, entries, shift, frames):
    run_sim(sim, "prionic_rx", "tb.top.cocotb_top",
            {"DATA_WIDTH": 32, "NUM_QUEUES": nq, "NUM_RULES": nr, "RULES_PER_CYCLE": rpc,
             "FLOW_ENTRIES": entries, "FLOW_TS_SHIFT": shift},
            testcase="RandomTrafficTest",
            extra_env={"PRIONIC_FRAMES": str(amount(frames, sim, icarus=0.35 if nq == 4 else 0.25)),
                       "PRIONIC_MEM": "unhelpful", "PRIONIC_FAULTS": "0.004"})


# tests that share the default build run in one simulator process (one start-up, one build);
# RandomTrafficTest here is the 2-queue, 4-rule, one-cycle-table case of the random traffic
DIRECTED = ["RandomTrafficTest", "ScoreboardBitesTest", "FloodLimitTest", "LatencyTest", "LineRateTest",
            "DeliveryLineRateTest"]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_directed(sim):
    """On the default build, in one process: random traffic over 2 queues (500 frames on
    Verilator, 100 on Icarus, whose event-driven run of the whole NIC is the slower);
    the scoreboard bites (a wrong model fails it);
    F9, F10: a flood cut by its rule's rate limiter, interrupts by the global budget;
    tlast-to-irq latency; back-to-back 60-byte frames at 32 bits with no stall."""
    run_sim(sim, "prionic_rx", "tb.top.cocotb_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase=DIRECTED, extra_env={"PRIONIC_FRAMES": str(amount(500, sim, icarus=0.2))})


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_head_of_line(sim):
    """F11, F12: HeadOfLineTest, 200 frames per phase (50 on Icarus: still over twice the
    16 slots of queue 0's ring in bulk frames while it is stalled), on the default build of
    test_top_directed: the test needs two queues, the lowest and the top one (each further
    queue makes every cycle on Icarus slower)."""
    run_sim(sim, "prionic_rx", "tb.top.cocotb_top", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4},
            testcase="HeadOfLineTest", extra_env={"PRIONIC_FRAMES": str(amount(200, sim, icarus=0.25))})


# 64 bits on a build with a 32-set flow table (F31: 128 entries, no flow cache); 8 bits:
# test_top_line_rate_cached (a minimum frame is 60 beats there, longer than any scan); 32 bits:
# test_top_directed
TABLE_64 = {"DATA_WIDTH": 64, "NUM_QUEUES": 2, "NUM_RULES": 4, "FLOW_ENTRIES": 0, "FLOW_TABLE_SETS": 32}


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_flow_table_line_rate_64(sim):
    """F1, F12, F25, F31 at 64 bits with a flow table: minimum frames back to back and
    delivery at line rate (LineRateTest: the registered flow a table entry, every lookup 5
    edges against 8 beats a frame); FlowTableTest (tb/top/cocotb_flowtable.py): 160 flows of
    every action inserted, refused (FULL), deleted, re-inserted and updated through the
    registers before and during traffic; every frame and register checked against the model."""
    run_sim(sim, "prionic_rx", ["tb.top.cocotb_top", "tb.top.cocotb_flowtable"], TABLE_64,
            testcase=["LineRateTest", "DeliveryLineRateTest", "FlowTableTest"])


# a 16-rule table scanned one rule per cycle, an 8-entry cache with a short time unit (idle
# expiry within the run): the flow cache's on/off test and the 32-bit cached line rate
FLOW_PARAMS = {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 16, "RULES_PER_CYCLE": 1,
               "FLOW_ENTRIES": 8, "FLOW_TS_SHIFT": 6}


@pytest.mark.parametrize("sim", SIMULATORS)
def test_top_flow_cache_on_off(sim, tmp_path):
    """F8: the same traffic (same seed) with the flow cache off and on gives
    the DUT identical verdicts, queues and rule ids for every frame, across TCP SYN/FIN/RST,
    idle expiry and rule changes between bursts (FlowCacheTest); each run is also checked
    cycle for cycle against the model."""
    seed = int(os.environ.get("SEED") or random.randrange(1, 2**31))
    got = {}
    for mode in ("off", "on"):
        path = tmp_path / f"{mode}.json"
        run_sim(sim, "prionic_rx", "tb.top.cocotb_top", FLOW_PARAMS, testcase="FlowCacheTest",
                extra_env={"PRIONIC_FLOW": mode, "PRIONIC_OUTCOMES": str(path)}, seed=seed)
        got[mode] = json.loads(path.read_text())
    assert got["on"]["hits"] > 0 and got["off"]["hits"] == 0
    on, off = got["on"]["verdicts"], got["off"]["verdicts"]
    assert len(on) == len(off)
    diff = [i for i, (a, b) in enumerate(zip(on, off, strict=True)) if a != b]
    assert not diff, (f"seed {seed}: the cache changed {len(diff)} outcomes, "
                      f"first frame {diff[0]}: {on[diff[0]]} vs {off[diff[0]]}")


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("width", [8, 32, 64])
def test_top_line_rate_cached(sim, width):
    """F8: minimum-size frames back to back over a 16-rule table scanned one
    rule per cycle (S = 16): no tready stall with the cache on at any width; with it then
    switched off the input must stall at 64 bits (a minimum frame is 8 beats there). At 32
    bits on the flow cache test's build (the same table, an 8-entry cache)."""
    params = {"DATA_WIDTH": width, "NUM_QUEUES": 2, "NUM_RULES": 16, "RULES_PER_CYCLE": 1}
    run_sim(sim, "prionic_rx", "tb.top.cocotb_top", FLOW_PARAMS if width == 32 else params,
            testcase=["CachedLineRateTest"] + (["DeliveryLineRateTest"] if width == 8 else []))
