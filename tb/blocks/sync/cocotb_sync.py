"""Block tests of prionic_sync_count and the prionic_sync_bit inside it (F29,
docs/board.md). Run through tests/test_async_fifo.py (pytest, both simulators)."""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from tb.common import make_rng, param


async def _start(dut, s_ps: int, m_ps: int, rng) -> list:
    """Both clocks (returned: cancel them before starting others) and a reset of both sides."""
    dut.s_rst.value = 1
    dut.m_rst.value = 1
    dut.s_pulse.value = 0
    clocks = [cocotb.start_soon(Clock(dut.s_clk, s_ps, unit="ps", impl="gpi").start(start_high=False))]
    await Timer(rng.randrange(1, 3000), "ps")
    clocks.append(cocotb.start_soon(Clock(dut.m_clk, m_ps, unit="ps", impl="gpi").start(start_high=False)))
    await ClockCycles(dut.s_clk, 8)
    await ClockCycles(dut.m_clk, 8)
    dut.s_rst.value = 0
    dut.m_rst.value = 0
    return clocks


class PulseCounter:
    def __init__(self, dut):
        self.n = 0
        self.task = cocotb.start_soon(self._run(dut))

    async def _run(self, dut) -> None:
        while True:
            await FallingEdge(dut.m_clk)
            self.n += int(dut.m_pulse.value)


@cocotb.test(timeout_time=10, timeout_unit="ms")
async def test_sync_count_pulses(dut):
    """F29: random pulses on s_clk, as dense as one per cycle, into an m_clk 2.3 times
    slower and, then, one 1.7 times faster: m_pulse fires exactly as often (the count of
    outstanding pulses stays below 2^(WIDTH-1) by the gaps the test leaves)."""
    rng = make_rng(dut)
    for s_ps, m_ps in ((8000, 18398), (8000, 4702)):
        clocks = await _start(dut, s_ps, m_ps, rng)
        cnt = PulseCounter(dut)
        sent = 0
        outstanding_max = (1 << (param("WIDTH", 4) - 1)) - 1
        slow = max(1, -(-m_ps // s_ps)) * (param("STAGES", 2) + 3)
        for _ in range(300):
            burst = rng.randint(1, outstanding_max)
            for _ in range(burst):
                await FallingEdge(dut.s_clk)
                dut.s_pulse.value = 1
                sent += 1
            await FallingEdge(dut.s_clk)
            dut.s_pulse.value = 0
            await ClockCycles(dut.s_clk, slow * burst + rng.randint(0, 5))
        await ClockCycles(dut.m_clk, 40)
        assert cnt.n == sent, f"s_clk {s_ps} ps, m_clk {m_ps} ps: {sent} pulses in, {cnt.n} out"
        dut._log.info("s_clk %d ps, m_clk %d ps: %d pulses carried", s_ps, m_ps, sent)
        for task in [*clocks, cnt.task]:
            task.cancel()


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def test_sync_bit_delay(dut):
    """F29: the Gray code crosses through STAGES flip-flops of m_clk: a change of the
    source register is seen at m_pulse after at most STAGES + 3 m_clk edges (1 source
    register, STAGES synchronizer flops, decode register, pulse register) and no sooner
    than STAGES + 1."""
    rng = make_rng(dut)
    await _start(dut, 8000, 8000, rng)
    stages = param("STAGES", 2)
    for _ in range(10):
        await FallingEdge(dut.s_clk)
        dut.s_pulse.value = 1
        await FallingEdge(dut.s_clk)
        dut.s_pulse.value = 0
        edges = 0
        while True:
            await FallingEdge(dut.m_clk)
            edges += 1
            if dut.m_pulse.value == 1:
                break
            assert edges <= stages + 4, "pulse never arrived"
        assert stages + 1 <= edges <= stages + 4, f"pulse after {edges} m_clk edges, STAGES {stages}"
        await ClockCycles(dut.s_clk, 10)
