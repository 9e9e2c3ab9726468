"""The register block's 64-bit counters (F13, docs/stats.md), against tb/blocks/regs/ref.py's
``RegModel``: a byte counter carried past 2^32, read as its low word and then ``CNT_HI``;
``CNT_HI`` latched by each counter read and by nothing else; a counter read while its
counter counts returns its value at the read's handshake edge.

Run through tests/test_regs.py (pytest, both simulators), in the same build and process as
tb/blocks/regs/cocotb_regs.py.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from model import regmap
from tb.blocks.regs.ref import RegsBench, V

# a 0xFFFF-byte frame accepted at every edge carries a byte counter past 2^32 in 65,538 edges
CARRY_EDGES = (1 << 32) // 0xFFFF + 2


@cocotb.test()
async def test_counter_64(dut):
    """F13: ACCEPT verdicts of 0xFFFF bytes to the last queue at every edge for CARRY_EDGES
    edges (the inputs held, no per-edge Python): CNT_BYTES reads its low 32 bits and CNT_HI
    then its high 32 bits (a carry past 2^32, not a wrap), CNT_FRAMES and CNT_RX_FRAMES the
    frame count with CNT_HI 0; a read of a register that is no counter leaves CNT_HI as it
    was; the model's tally is compared register by register."""
    b = RegsBench(dut)
    d = dut
    await b.start()
    q = b.nq - 1
    await FallingEdge(d.clk)
    d.stat_verdict_code.value = V["ACCEPT"]
    d.stat_verdict_queue.value = q
    d.stat_verdict_rule.value = 0xFF
    d.stat_verdict_len.value = 0xFFFF
    d.stat_verdict_valid.value = 1
    await ClockCycles(d.clk, CARRY_EDGES, rising=False)
    d.stat_verdict_valid.value = 0
    counts = b.model.counts
    for name, by in (("CNT_RX_FRAMES", 1), ("CNT_FRAMES", 1), ("CNT_BYTES", 0xFFFF)):
        i = 0 if name == "CNT_RX_FRAMES" else q
        counts[(name, i)] = counts.get((name, i), 0) + by * CARRY_EDGES
    total = 0xFFFF * CARRY_EDGES
    assert total >> 32 == 1
    lo = await b.read_reg("CNT_BYTES", q)
    hi = await b.read_reg("CNT_HI")
    assert (hi << 32 | lo) == total, f"CNT_BYTES[{q}] {hi:#x}:{lo:#010x}, expected {total:#x}"
    assert await b.read_reg("ID") == regmap.META["id"]
    assert await b.read_reg("CNT_HI") == hi, "a read of ID changed CNT_HI"
    for name, i in (("CNT_BYTES", q), ("CNT_HI", 0), ("CNT_FRAMES", q), ("CNT_HI", 0), ("CNT_BYTES", q),
                    ("CNT_RX_FRAMES", 0), ("CNT_HI", 0)):
        await b.check_reg(name, i, "after the carry")
    await b.finish()


@cocotb.test()
async def test_counter_read_while_counting(dut):
    """F13, F25: a counter read whose handshake falls while its counter counts at every edge
    returns the count of the edges before the handshake, whatever the edges between the
    handshake and the answer (5 to N+4 of them, docs/stats.md) add; read at several handshake
    edges, so that each meets the block's scan at a different place."""
    b = RegsBench(dut)
    d = dut
    await b.start()
    for k in range(6):
        await FallingEdge(d.clk)
        d.stat_irq.value = 1  # CNT_IRQ[0] counts at every edge from this one
        first = b.clocked.cycle_at_falling()
        await ClockCycles(d.clk, 3 + 7 * k, rising=False)
        read = cocotb.start_soon(b.read_reg("CNT_IRQ", 0))
        while True:  # the handshake edge
            await RisingEdge(d.clk)
            if d.s_axil_arvalid.value == 1 and d.s_axil_arready.value == 1:
                hs = b.clocked.now_cycle()
                break
        got = await read
        await FallingEdge(d.clk)
        d.stat_irq.value = 0  # the last edge that counted was the one before this falling edge
        prev = b.model.counts.get(("CNT_IRQ", 0), 0)
        exp = prev + hs - first
        assert got == exp, f"read {k}: handshake at edge {hs}, counting from {first}: {got}, expected {exp}"
        b.model.counts[("CNT_IRQ", 0)] = prev + b.clocked.cycle_at_falling() - first
    await b.check_reg("CNT_IRQ", 0, "at rest")
    await b.finish()
