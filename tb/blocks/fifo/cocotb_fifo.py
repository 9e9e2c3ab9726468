"""Block tests of prionic_fifo, the first-word-fall-through frame FIFO (F1, F12).

Run through tests/test_fifo.py (pytest, both simulators, several WIDTH/ADDR_WIDTH).
The reference is a Python deque of depth 2**ADDR_WIDTH, stepped once per rising edge:
a push happens when s_valid is high and the FIFO is not full, a pop when m_ready is high
and the oldest entry is visible, both judged on the state before the edge (the header of
rtl/prionic_fifo.v: s_ready is low only when full, an entry written at edge k shows at
m_data after edge k, or after edge k+1 with OUTPUT_REG 1; status_count counts every entry
pushed and not popped). Inputs are driven and outputs compared at falling edges
(tb/common.py): what is seen there is what the next rising edge samples.
"""

from __future__ import annotations

from collections import deque

import cocotb
from cocotb.triggers import FallingEdge

from tb.common import Clocked, make_rng, param


class FifoBench:
    def __init__(self, dut):
        self.dut = dut
        self.width = param("WIDTH", 32)
        self.depth = 1 << param("ADDR_WIDTH", 4)
        self.latency = 2 if param("OUTPUT_REG", 0) else 1   # edges from push to visible
        self.ref: deque[int] = deque()
        self.pushed_at: deque[int] = deque()   # the step of each entry's push
        self.clocked = Clocked(dut)
        self.cycles = 0
        self.pushes = 0
        self.pops = 0
        self.both = {"full": 0, "empty": 0, "mid": 0}

    async def start(self) -> None:
        self.dut.s_valid.value = 0
        self.dut.s_data.value = 0
        self.dut.m_ready.value = 0
        await self.clocked.start()

    def visible(self) -> bool:
        """The oldest entry shows at m_data (pushed latency edges ago or earlier)."""
        return bool(self.ref) and self.pushed_at[0] <= self.cycles - self.latency

    def check_outputs(self) -> None:
        """Outputs seen at this falling edge against the reference (state after the last edge)."""
        d = self.dut
        n = len(self.ref)
        cyc = self.clocked.cycle_at_falling()
        assert int(d.status_count.value) == n, f"cycle {cyc}: status_count {int(d.status_count.value)} != {n}"
        assert int(d.s_ready.value) == (n < self.depth), f"cycle {cyc}: s_ready {int(d.s_ready.value)} with {n} entries"
        vis = self.visible()
        assert int(d.m_valid.value) == vis, f"cycle {cyc}: m_valid {int(d.m_valid.value)} with {n} entries"
        if vis:
            got = int(d.m_data.value)
            assert got == self.ref[0], f"cycle {cyc}: m_data {got:#x} != {self.ref[0]:#x}"

    async def step(self, push: bool, pop: bool, data: int | None = None) -> None:
        """Check the outputs, drive one cycle's inputs, and step the reference over the edge."""
        d = self.dut
        self.check_outputs()
        if data is None:
            data = 0
        d.s_valid.value = int(push)
        d.s_data.value = data
        d.m_ready.value = int(pop)
        n = len(self.ref)
        do_push = push and n < self.depth
        do_pop = pop and self.visible()
        if push and pop:
            self.both["full" if n == self.depth else "empty" if n == 0 else "mid"] += 1
        if do_pop:
            self.ref.popleft()
            self.pushed_at.popleft()
            self.pops += 1
        if do_push:
            self.ref.append(data)
            self.pushed_at.append(self.cycles)
            self.pushes += 1
        self.cycles += 1
        await FallingEdge(d.clk)

    async def idle(self, cycles: int = 1) -> None:
        for _ in range(cycles):
            await self.step(False, False)


@cocotb.test()
async def test_fifo_random(dut):
    """F1, F12: random push/pop traffic in phases of different push/pop rates; every cycle
    m_valid, m_data, s_ready and status_count equal the deque reference."""
    b = FifoBench(dut)
    rng = make_rng(dut)
    await b.start()
    mask = (1 << b.width) - 1
    b.check_outputs()  # out of reset: empty
    phases = [(0.5, 0.5), (0.9, 0.2), (0.2, 0.9), (0.8, 0.8), (1.0, 0.5), (0.5, 1.0), (0.3, 0.3)]
    for _ in range(3):
        for p_push, p_pop in phases:
            for _ in range(rng.randint(8 * b.depth, 16 * b.depth)):
                await b.step(rng.random() < p_push, rng.random() < p_pop, rng.getrandbits(b.width) & mask)
    # drain, so the last entries are compared too
    for _ in range(b.depth + 3):
        await b.step(False, True)
    b.check_outputs()
    assert not b.ref
    dut._log.info("%d cycles, %d pushes, %d pops, push+pop at full/empty/mid: %s",
                  b.cycles, b.pushes, b.pops, b.both)
    assert b.both["full"] > 0 and b.both["empty"] > 0, f"corner cases not reached: {b.both}"


@cocotb.test()
async def test_fifo_fill_drain(dut):
    """F1, F12: fill to full (s_ready falls exactly at depth, further pushes are refused and
    leave the contents alone), then drain to empty (m_valid falls after the last entry)."""
    b = FifoBench(dut)
    rng = make_rng(dut)
    await b.start()
    for _ in range(2):
        values = [rng.getrandbits(b.width) for _ in range(b.depth)]
        for v in values:
            await b.step(True, False, v)
        assert len(b.ref) == b.depth
        b.check_outputs()
        assert int(dut.s_ready.value) == 0, "s_ready high while full"
        # pushes while full are refused
        for _ in range(3):
            await b.step(True, False, rng.getrandbits(b.width))
        assert list(b.ref) == values
        got = []
        for _ in range(b.depth):
            got.append(int(dut.m_data.value))
            await b.step(False, True)
        assert got == values, "drained data differs from filled data"
        b.check_outputs()
        assert int(dut.m_valid.value) == 0 and int(dut.status_count.value) == 0
        # pops while empty do nothing
        await b.step(False, True)
        await b.step(False, True)
        b.check_outputs()
        # back-to-back push then pop of a single entry: latency of one cycle (two registered)
        v = rng.getrandbits(b.width)
        await b.step(True, False, v)
        if b.latency == 2:
            assert int(dut.m_valid.value) == 0, "registered output visible one cycle after the push"
            await b.idle()
        assert int(dut.m_valid.value) == 1 and int(dut.m_data.value) == v, "write-to-read latency is wrong"
        await b.step(False, True)
        b.check_outputs()


@cocotb.test()
async def test_fifo_push_pop_full_and_empty(dut):
    """F1, F12: simultaneous push and pop when full (only the pop happens: s_ready is low)
    and when empty (only the push happens: m_valid is low), repeated, then when half full
    (both happen, occupancy unchanged)."""
    b = FifoBench(dut)
    rng = make_rng(dut)
    await b.start()
    for _ in range(3):
        # empty: push + pop -> one entry
        assert len(b.ref) == 0
        await b.step(True, True, rng.getrandbits(b.width))
        assert len(b.ref) == 1
        b.check_outputs()
        # fill up
        while len(b.ref) < b.depth:
            await b.step(True, False, rng.getrandbits(b.width))
        # full: push + pop -> pop only
        for _ in range(2):
            await b.step(True, True, rng.getrandbits(b.width))
            assert len(b.ref) == b.depth - 1
            b.check_outputs()
            await b.step(True, False, rng.getrandbits(b.width))
            assert len(b.ref) == b.depth
        # half full: push + pop each cycle keeps occupancy
        while len(b.ref) > b.depth // 2:
            await b.step(False, True)
        for _ in range(2 * b.depth):
            await b.step(True, True, rng.getrandbits(b.width))
            assert len(b.ref) == b.depth // 2
        while b.ref:
            await b.step(False, True)
        b.check_outputs()
    assert b.both["full"] == 6 and b.both["empty"] == 3
