"""prionic_stats block test (F13, F25): counters in block RAM behind per-counter accumulators,
edge by edge against ``Stats`` of model/stats.py (docs/stats.md).

Run through tests/test_stats.py (pytest, both simulators, the default 16 counters and the
narrowest block: 3 counters of 34 bits with 28-bit increments, which wrap in 64 edges).
Inputs for edge k are driven at the falling edge before it (tb/common.py); the model steps
edge k with the same inputs, and at the falling edge after k rd_busy, rd_done, ready and,
with rd_done, rd_data must equal the model's. Beside the model, each test ends with an
independent check: once the increments stop and a scan round has landed, every counter
read equals the Python sum of its increments modulo 2^CNT_WIDTH.
"""

from __future__ import annotations

import random
from collections import Counter

import cocotb
from cocotb.triggers import FallingEdge

from model.stats import Stats
from tb.common import Clocked, amount, make_rng, param


class Bench:
    """Drives the block at falling edges, steps the model with it and keeps the true sums."""

    def __init__(self, dut):
        self.dut = dut
        self.n = param("N", 16)
        self.inc_width = param("INC_WIDTH", 16)
        self.cnt_width = param("CNT_WIDTH", 64)
        self.model = Stats(self.n, self.inc_width, self.cnt_width)
        self.clocked = Clocked(dut)
        self.sums = [0] * self.n
        self.k = 0
        self.stats: Counter[str] = Counter()
        self.answers: list[int] = []     # rd_data of every rd_done, in order

    async def start(self) -> None:
        self.dut.inc.value = 0
        self.dut.inc_amt.value = 0
        self.dut.rd_req.value = 0
        self.dut.rd_addr.value = 0
        await self.clocked.start()

    async def edge(self, inc: list[int] | None = None, rd: int | None = None, rst: bool = False) -> None:
        """Drive edge k (``inc[i]`` counter i's increment, 0 none; ``rd`` a read request), step
        the model, check after it."""
        d, w = self.dut, self.inc_width
        inc = inc or [0] * self.n
        d.inc.value = sum(1 << i for i, a in enumerate(inc) if a)
        d.inc_amt.value = sum(a << (i * w) for i, a in enumerate(inc))
        d.rd_req.value = int(rd is not None)
        d.rd_addr.value = 0 if rd is None else rd
        d.rst.value = int(rst)
        if rd is not None and self.model.busy and not rst:
            self.stats["read while busy"] += 1
        want = self.model.step(rst, inc, rd is not None, 0 if rd is None else rd)
        if rst:
            self.sums = [0] * self.n
        else:
            self.sums = [s + a for s, a in zip(self.sums, inc, strict=True)]
        self.k += 1
        await FallingEdge(d.clk)
        got = (int(d.rd_busy.value), int(d.rd_done.value), int(d.ready.value))
        assert got == (int(want.rd_busy), int(want.rd_done), int(want.ready)), (
            f"after edge {self.k - 1}: rd_busy, rd_done, ready {got}, model "
            f"{(int(want.rd_busy), int(want.rd_done), int(want.ready))}")
        if want.rd_done:
            data = int(d.rd_data.value)
            assert data == want.rd_data, f"after edge {self.k - 1}: rd_data {data:#x}, model {want.rd_data:#x}"
            self.answers.append(data)
            self.stats["reads answered"] += 1
        self.stats["edges"] += 1

    async def read(self, addr: int, inc: list[int] | None = None) -> int:
        """Request counter ``addr`` when the block is not busy; its answer."""
        while self.model.busy:
            await self.edge(inc)
        n = len(self.answers)
        await self.edge(inc, addr)
        while len(self.answers) == n:
            await self.edge(inc)
        return self.answers[-1]

    async def check_sums(self) -> None:
        """Increments stopped: after a round and the pipeline, every counter is the sum of its
        increments (the independent reference)."""
        for _ in range(2 * self.n + 6):
            await self.edge()
        assert int(self.dut.ready.value) == 1
        mask = (1 << self.cnt_width) - 1
        for i in range(self.n):
            got = await self.read(i)
            want = self.sums[i] & mask
            assert got == want, f"counter {i}: {got:#x}, the sum of its increments {want:#x}"
        self.stats["sums checked"] += self.n

    def random_inc(self, rng: random.Random, p: float) -> list[int]:
        top = (1 << self.inc_width) - 1
        return [(top if rng.random() < 0.2 else rng.randint(1, top)) if rng.random() < p else 0
                for _ in range(self.n)]


@cocotb.test()
async def stats_random_vs_model(dut):
    """F13: random increments on random counters (the largest amount a fifth of the time),
    reads of random counters at random edges, requests while busy (ignored), reads before
    ready (0); every edge against the model, then every counter against its true sum."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    for k in range(amount(4000)):
        p = rng.choice((0.05, 0.3, 0.9))
        rd = rng.randrange(b.n) if rng.random() < (0.5 if k < 2 * b.n else 0.2) else None
        await b.edge(b.random_inc(rng, p), rd)
    await b.check_sums()
    dut._log.info("stats: %s", dict(b.stats))
    assert b.stats["read while busy"] > 0 and b.stats["reads answered"] > 10, dict(b.stats)


@cocotb.test()
async def stats_every_edge(dut):
    """F13, F25: every counter counts up by the largest amount at every edge for several
    rounds while the host reads at every edge it may (2N increments of the largest amount
    between two takes: the accumulators' bound), against the model and the true sums."""
    b = Bench(dut)
    await b.start()
    top = (1 << b.inc_width) - 1
    for k in range(amount(8 * b.n + 40, least=6 * b.n + 40)):
        await b.edge([top] * b.n, None if b.model.busy else k % b.n)
    await b.check_sums()
    assert b.stats["reads answered"] > 2 * b.n // 3, dict(b.stats)


@cocotb.test()
async def stats_reset_midway(dut):
    """F13, F24: reset with increments in the accumulators, sums in the pipeline and a read in
    flight: the counters start again from 0 (the first round writes 0 plus the accumulator),
    reads answer 0 until it has landed."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    for _ in range(2 * b.n + 10):
        await b.edge(b.random_inc(rng, 0.7))
    await b.check_sums()
    while not b.model.busy:                  # a read in flight at the reset
        await b.edge(b.random_inc(rng, 0.7), rng.randrange(b.n))
    await b.edge(b.random_inc(rng, 0.7), rst=True)
    zeros = 0
    for k in range(4 * b.n + 20):
        before = b.model.out.ready
        await b.edge(b.random_inc(rng, 0.5), rng.randrange(b.n) if k % 3 == 0 else None)
        zeros += int(not before and b.model.out.rd_done)
    assert zeros > 0, "no read answered before ready"
    await b.check_sums()
