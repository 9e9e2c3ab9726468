"""Block test of prionic_dma_cnt, the DMA's down counter with zero/one flags (F12, F25).

Run through tests/test_dma_cnt.py (pytest, both simulators, W = 5 and 16). The reference
is the header of rtl/prionic_dma_cnt.v: at a rising edge ``ld`` loads ``ld_val`` (with
the flags ``ld_val != 0`` and ``ld_val == 1``), else ``dec`` counts down by one, else the
count holds; ``nz`` and ``one`` always say ``q != 0`` and ``q == 1``. Inputs are driven
and outputs compared at falling edges (tb/common.py).
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from tb.common import make_rng, param


@cocotb.test()
async def cnt_vs_reference(dut):
    """F25: 3000 cycles of random loads (small values, 0, 1, 2 and the top), decrements
    down through 2, 1 and 0 (and wrapping below 0: the flags follow), loads beside a
    decrement: q, nz and one against the reference after every edge."""
    rng = make_rng(dut)
    w = param("W", 16)
    top = (1 << w) - 1
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start(start_high=False))
    q = None
    seen = {"ld_dec": 0, "to_zero": 0, "wrap": 0}
    for _ in range(3000):
        await FallingEdge(dut.clk)
        if q is not None:
            got = (int(dut.q.value), int(dut.nz.value), int(dut.one.value))
            assert got == (q, int(q != 0), int(q == 1)), f"q, nz, one {got}, reference {q}"
        ld = q is None or rng.random() < 0.2
        dec = rng.random() < 0.7
        val = rng.choice([0, 1, 2, 3, top, rng.randint(0, min(top, 40))])
        dut.ld.value, dut.dec.value, dut.ld_val.value = int(ld), int(dec), val
        dut.ld_nz.value, dut.ld_one.value = int(val != 0), int(val == 1)
        if ld:
            seen["ld_dec"] += dec
            q = val
        elif dec:
            seen["to_zero"] += q == 1
            seen["wrap"] += q == 0
            q = (q - 1) & top
    assert all(seen.values()), f"cases never met: {seen}"
