"""Corner tests of prionic_regs for `make coverage` (F24, F30), against tb/blocks/regs/ref.py's
``RegModel`` like tb/blocks/regs/cocotb_regs.py: writes whose strobes select no byte at all (WSTRB 0)
to every RW register, and the DMA window registers written while their queue is not idle.

Run through tests/test_regs_corners.py (pytest, both simulators).
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from model import regmap
from tb.blocks.regs.ref import RW_REGS, RegsBench

WINDOW = ("DMA_WIN_LO", "DMA_WIN_HI", "DMA_WIN_BITS")


async def write_no_strobe(b: RegsBench, name: str, i: int) -> None:
    """A full-word write to ``name[i]`` whose WSTRB is 0 (the master's beat rewritten on its
    way out): AXI4-Lite allows it, and it must change nothing (F24)."""
    ch = b.axil.write_if.w_channel
    send = ch.send

    async def no_strobe(w) -> None:
        ch.send = send
        w.wstrb = 0
        await send(w)

    ch.send = no_strobe
    await b.write_reg(name, i, 0xFFFF_FFFF)


@cocotb.test()
async def test_no_strobe_and_window_refused(dut):
    """F24: a WSTRB-0 write to every RW register of every queue and rule (idle or not, for the
    ring registers; a doorbell also to a ring of size 0, where any doorbell is refused)
    changes nothing and pulses nothing; a DMA window register written while
    its queue is not idle is refused: with a byte of it selected, QUEUE_STATUS.RING_REFUSED
    and CNT_RING_REFUSED, without, nothing. Every cfg_* output every cycle and every register
    read back against the model."""
    b = RegsBench(dut)
    await b.start()
    for name in RW_REGS:
        for i in range(b.model.count(name)):
            await b.write_reg(name, i, b.rand_value(name) | 0x20)
    pulses = list(b.mon.seen_pulses)
    for idle in (True, False):
        await FallingEdge(dut.clk)
        b.model.status_ring_idle = (1 << b.nq) - 1 if idle else 0
        dut.status_ring_idle.value = b.model.status_ring_idle
        for name in RW_REGS:
            for i in range(b.model.count(name)):
                await write_no_strobe(b, name, i)
        await ClockCycles(dut.clk, 2)
        assert b.mon.seen_pulses == pulses, f"a WSTRB-0 write pulsed (ring idle {idle})"
        await b.check_all(f"WSTRB-0 writes, ring idle {idle}")
    # a doorbell refused (RING_SIZE 0: no slot) that selects no byte: no flag, no count
    await FallingEdge(dut.clk)
    b.model.status_ring_idle = (1 << b.nq) - 1
    dut.status_ring_idle.value = b.model.status_ring_idle
    for q in range(b.nq):
        await b.write_reg("RING_SIZE", q, 0)
        await write_no_strobe(b, "RING_TAIL", q)
    await b.check_all("WSTRB-0 doorbells of rings of size 0")
    await FallingEdge(dut.clk)
    b.model.status_ring_idle = 0
    dut.status_ring_idle.value = 0
    # ring registers not idle: the DMA window refused, counted once per selecting write
    refused = [await b.read_reg("CNT_RING_REFUSED", q) for q in range(b.nq)]
    for q in range(b.nq):
        for name in WINDOW:
            await b.write_reg(name, q, b.rand_value(name))
    await b.check_all("DMA window writes while not idle")
    for q in range(b.nq):
        got = await b.read_reg("CNT_RING_REFUSED", q)
        assert got == refused[q] + len(WINDOW), f"queue {q}: CNT_RING_REFUSED {got}, was {refused[q]}"
        assert await b.read_reg("QUEUE_STATUS", q) >> regmap.FIELDS["QUEUE_STATUS_RING_REFUSED"] & 1
    await FallingEdge(dut.clk)
    b.model.status_ring_idle = (1 << b.nq) - 1
    dut.status_ring_idle.value = b.model.status_ring_idle
    await b.finish()
