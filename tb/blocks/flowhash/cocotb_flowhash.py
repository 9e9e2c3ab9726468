"""prionic_flowhash block test (F8, F25): the flow cache index of a key, against
``model.flowcache.flow_index`` (docs/frame-path.md s3.1: key bit b lands on index bit
b mod log2(ENTRIES)). Run through tests/test_flowhash.py on both simulators."""

from __future__ import annotations

import cocotb
from cocotb.triggers import Timer

from model.flowcache import flow_index
from tb.common import make_rng, param


@cocotb.test()
async def flowhash_vs_model(dut):
    """F8: 2000 random keys, each single-bit key, the all-ones key and the keys 0 .. 2^IW - 1
    (which fold onto themselves): idx equals the model's fold, and every index value comes
    out."""
    rng = make_rng(dut)
    kw, iw = param("KEY_WIDTH", 139), param("IW", 4)
    keys = [rng.getrandbits(kw) for _ in range(2000)] + [1 << b for b in range(kw)] + [(1 << kw) - 1]
    keys += list(range(1 << iw))
    seen = set()
    for key in keys:
        dut.l_key.value = key
        await Timer(1, unit="ns")
        got, want = int(dut.l_idx.value), flow_index(key, iw)
        assert got == want, f"key {key:#x}: idx {got}, model {want}"
        seen.add(got)
    assert seen == set(range(1 << iw)), f"indices never produced: {set(range(1 << iw)) - seen}"
    dut._log.info("%d keys, %d index values", len(keys), len(seen))
