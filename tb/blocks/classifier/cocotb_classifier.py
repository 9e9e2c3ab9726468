"""prionic_classifier block test (F5, F6, F7, F8): the classification engine against the
model's ``ClassifyEngine`` (model/classifier.py), cycle for cycle.

Stimulus: parse results at random times (back to back, bursts, gaps), drawn from a small
pool of repeating flows (so the flow cache hits) and from fresh random results, with TCP
flags in ``s_info[23:16]`` (FIN bit 16, SYN bit 17, RST bit 18); random rule tables
(F5), default actions (F6) and fragment actions (F7) changed at random times; the flow
cache (F8) switched on and off and its idle time changed. Every change follows the top's
register-write contract: a write at cycle w changes the value at w and pulses
``cfg_table_clr``, both first sampled at edge w + 1; the model sees the new values from
``view(w + 1)`` on and steps edge w + 1 with ``clr=True``.

Checked at every edge m (values seen at the falling edge before edge m + 1): ``m_valid``
and, when valid, code, queue, rule, len, words, ts and info of the frame the model's
``step(m)`` returned; ``stat_flow_hit``/``stat_flow_miss`` against the model's hit/miss
counters of ``step(m)``; ``status_pending`` against the model's queue (see ``pending``).

The table view is constant between writes, so the model's whole-table classification at
the verdict edge equals the RTL's chunk-by-chunk scan. ``now_ts`` at edge k (k = 0 the
first edge out of reset) is the model's edge number base + k: a free-running TIMESTAMP
with an arbitrary start, sometimes wrapping past 2^32 inside the run.

Coverage is closed by construction: the run lasts at least 10000 edges and goes on until
every item the build can produce has been seen 3 times (20 under ``make soak``), and
fails when the cycle cap (40000 edges) comes first. Items: every verdict code the
classifier produces (ACCEPT, BAD_FRAME, OVERSIZE, MALFORMED, FRAGMENT, RULE_DROP,
UNREGISTERED); lookup restarts (``cfg_table_clr`` while a lookup is in its pipeline,
F25) and queueing (``status_pending`` >= 2); with a cache: hits, misses, FIN/RST evictions, SYN
misses, expiry misses, an expiry exactly at age == FLOW_IDLE, a hit in the entry's last
unit (age == FLOW_IDLE - 1), with short units a hit that only the refresh of earlier hits
kept alive, and a frame taken with the cache off and finished with it on (no install).
Cache episodes (``Bench.run``) steer the timing items; the seed is printed
(tb.common.make_rng), ``SEED=n`` replays.
"""

from __future__ import annotations

import cocotb

from tb.blocks.classifier.ref import Bench


@cocotb.test()
async def classifier_matches_model(dut):
    """F5, F6, F7, F8: every edge's verdict (code, queue, rule and the passthrough fields),
    flow hit/miss pulse and status_pending equal the model ClassifyEngine's, across table
    changes with restarts, cache enable/idle changes, SYN/FIN/RST and idle expiry."""
    await Bench(dut).run()
