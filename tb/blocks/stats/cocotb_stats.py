"""prionic_stats block test (F13, F25): counters in block RAM behind per-counter accumulators,
edge by edge against ``Stats`` of model/stats.py (docs/stats.md).

Run through tests/test_stats.py (pytest, both simulators, the default 16 counters and the
narrowest block: 5 counters of 34 bits with 28-bit increments, which wrap in 64 edges).
Inputs for edge k are driven at the falling edge before it (tb/common.py); the model steps
edge k with the same inputs, and at the falling edge after k rd_busy, rd_done and, with
rd_done, rd_data must equal the model's. Beside the model, the bench checks every answer on
its own from docs/stats.md section 3: a request for counter a taken at edge t (counted from
reset) is answered after edge s+4 exactly, s = the first edge after t with s mod N == a, with
the Python sum of a's increments at edges before t modulo 2^CNT_WIDTH (the counter at the
request, whatever the edges t..s add); rd_busy is high from
the take to the answer. Each test ends with every counter read and compared with the sum of
all its increments.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from model.stats import Stats, scan_edge
from tb.common import Clocked, amount, make_rng, param


class Bench:
    """Drives the block at falling edges, steps the model with it and keeps the true sums."""

    def __init__(self, dut):
        self.dut = dut
        self.n = param("N", 16)
        self.inc_width = param("INC_WIDTH", 16)
        self.cnt_width = param("CNT_WIDTH", 64)
        self.aw = (self.n - 1).bit_length()
        self.top = (1 << self.inc_width) - 1
        self.mask = (1 << self.cnt_width) - 1
        self.model = Stats(self.n, self.inc_width, self.cnt_width)
        self.clocked = Clocked(dut)
        self.sums = [0] * self.n         # every counter's increments since reset (before the next edge)
        self.k = 0                       # the next edge's number since reset
        self.busy = False                # rd_busy after the last edge (the DUT's)
        self.pending: tuple[int, int, int] | None = None    # the read taken: (counter, t, s)
        self.want: int | None = None     # its answer: the counter at t
        self.stats: Counter[str] = Counter()
        self.answers: list[int] = []     # rd_data of every rd_done, in order
        self.latencies: set[int] = set()  # s + 4 - t of every answer
        self.taken_at: list[int] = []    # the edges (since reset) at which a request was taken

    async def start(self) -> None:
        self.dut.inc.value = 0
        self.dut.inc_amt.value = 0
        self.dut.rd_req.value = 0
        self.dut.rd_addr.value = 0
        await self.clocked.start()

    async def edge(self, inc: list[int] | None = None, rd: int | None = None, rst: bool = False) -> None:
        """Drive one edge (``inc[i]`` counter i's increment, 0 none; ``rd`` a read request of
        that index, which may name no counter), step the model, check after it."""
        d, w = self.dut, self.inc_width
        inc = inc or [0] * self.n
        d.inc.value = sum(1 << i for i, a in enumerate(inc) if a)
        d.inc_amt.value = sum(a << (i * w) for i, a in enumerate(inc))
        d.rd_req.value = int(rd is not None)
        d.rd_addr.value = 0 if rd is None else rd
        d.rst.value = int(rst)
        taken = rd is not None and not rst and not self.busy and rd < self.n
        if rd is not None and not rst and not taken:
            self.stats["requests ignored (busy)" if self.busy else "requests ignored (no such counter)"] += 1
        want = self.model.step(rst, inc, rd is not None, 0 if rd is None else rd)
        k = self.k
        if rst:
            self.sums = [0] * self.n
            self.k = 0
            if self.pending is not None:
                self.stats["reads dropped by reset"] += 1
            self.pending, self.want = None, None
        else:
            if taken:
                assert rd is not None
                # C_a(t): the increments before the take's edge
                self.pending, self.want = (rd, k, scan_edge(k, rd, self.n)), self.sums[rd] & self.mask
                self.taken_at.append(k)
            self.sums = [s + a for s, a in zip(self.sums, inc, strict=True)]
            self.k += 1
        await FallingEdge(d.clk)
        where = "reset edge" if rst else f"edge {k}"
        busy, done = int(d.rd_busy.value), int(d.rd_done.value)
        assert (busy, done) == (int(want.rd_busy), int(want.rd_done)), (
            f"after {where}: rd_busy, rd_done {(busy, done)}, model {(int(want.rd_busy), int(want.rd_done))}")
        if done:
            data = int(d.rd_data.value)
            assert data == want.rd_data, f"after {where}: rd_data {data:#x}, model {want.rd_data:#x}"
            assert self.pending is not None, f"after {where}: rd_done without a read taken"
            a, t, s = self.pending
            assert k == s + 4, f"after {where}: counter {a} taken at {t} answered, its take at {s}: due after {s + 4}"
            assert data == self.want, f"after {where}: counter {a} {data:#x}, its increments before {t}: {self.want:#x}"
            self.answers.append(data)
            self.latencies.add(s + 4 - t)
            self.pending, self.want = None, None
            self.stats["reads answered"] += 1
        elif self.pending is not None:
            assert rst or k < self.pending[2] + 4, f"after {where}: no answer for the read {self.pending}"
        assert busy == int(self.pending is not None), f"after {where}: rd_busy {busy}, read taken {self.pending}"
        self.busy = bool(busy)
        self.stats["edges"] += 1

    async def idle(self, edges: int, inc: list[int]) -> None:
        """``edges`` edges with the same increments and no request, the simulator running on its
        own (no Python at each edge); the model and the sums follow, the outputs are checked
        after the last (no read may be taken: nothing is answered in between)."""
        assert not self.busy and edges > 0
        d, w = self.dut, self.inc_width
        d.inc.value = sum(1 << i for i, a in enumerate(inc) if a)
        d.inc_amt.value = sum(a << (i * w) for i, a in enumerate(inc))
        d.rd_req.value = 0
        d.rst.value = 0
        for _ in range(edges):
            want = self.model.step(False, inc)
        self.sums = [s + a * edges for s, a in zip(self.sums, inc, strict=True)]
        self.k += edges
        await ClockCycles(d.clk, edges, rising=False)
        busy, done = int(d.rd_busy.value), int(d.rd_done.value)
        assert (busy, done) == (0, 0) == (int(want.rd_busy), int(want.rd_done)), (busy, done, want)
        self.stats["edges"] += edges

    async def read(self, addr: int, inc: list[int] | None = None) -> int:
        """Request counter ``addr`` as soon as the block is not busy; its answer."""
        while self.busy:
            await self.edge(inc)
        n = len(self.answers)
        await self.edge(inc, addr)
        while len(self.answers) == n:
            await self.edge(inc)
        return self.answers[-1]

    async def check_sums(self) -> None:
        """Increments stopped: every counter read is the sum of all its increments (the
        independent reference; no wait for a round: a read is answered by the scan)."""
        for i in range(self.n):
            got = await self.read(i)
            want = self.sums[i] & self.mask
            assert got == want, f"counter {i}: {got:#x}, the sum of its increments {want:#x}"
        self.stats["sums checked"] += self.n

    def random_inc(self, rng: random.Random, p: float) -> list[int]:
        """Each counter counts with probability p, the largest amount a fifth of the time."""
        return [(self.top if rng.random() < 0.2 else rng.randint(1, self.top)) if rng.random() < p else 0
                for _ in range(self.n)]

    def random_addr(self, rng: random.Random) -> int:
        """A counter, or now and then an index that names none (when N is not a power of 2)."""
        if (1 << self.aw) > self.n and rng.random() < 0.1:
            return rng.randrange(self.n, 1 << self.aw)
        return rng.randrange(self.n)


@cocotb.test()
async def stats_random_vs_model(dut):
    """F13, F25: random increments (sparse, dense, every counter at once with the largest
    amount), requests at random edges (ignored while busy or for no counter); every edge
    against the model, every answer against its counter's increments before its request, then
    every counter against the sum of all its increments."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    for _ in range(amount(4000)):
        mode = rng.random()
        if mode < 0.1:
            inc = [b.top] * b.n
        else:
            inc = b.random_inc(rng, rng.choice((0.05, 0.3, 0.9, 1.0)))
        await b.edge(inc, b.random_addr(rng) if rng.random() < 0.3 else None)
    await b.check_sums()
    dut._log.info("stats: %s, latencies %s", dict(b.stats), sorted(b.latencies))
    assert b.stats["requests ignored (busy)"] > 0 and b.stats["reads answered"] > 10, dict(b.stats)
    if (1 << b.aw) > b.n:
        assert b.stats["requests ignored (no such counter)"] > 0, dict(b.stats)


@cocotb.test()
async def stats_every_latency(dut):
    """F13, F25: a read of every counter at every distance from the scan, so every latency
    5..N+4 (taken at the edge after its counter's take: N+4; just before it: 5), amid random
    increments, each answer the counter's increments before its request."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    for a in range(b.n):
        for d in rng.sample(range(b.n), b.n):
            inc = b.random_inc(rng, 0.5)
            while b.busy or (a - b.k) % b.n != d:
                await b.edge(inc)
                inc = b.random_inc(rng, 0.5)
            await b.edge(inc, a)
    while b.busy:
        await b.edge(b.random_inc(rng, 0.5))
    assert b.latencies == set(range(5, b.n + 5)), sorted(b.latencies)
    await b.check_sums()


@cocotb.test()
async def stats_every_edge(dut):
    """F13, F25: every counter counts up by the largest amount at every edge for several
    rounds (N increments of the largest amount between two takes: the accumulators' bound;
    the narrow block's counters wrap) while the host reads back to back, a request at every
    edge: each next one taken at s+5, the first edge rd_busy is low."""
    b = Bench(dut)
    await b.start()
    for k in range(amount(8 * b.n + 80, least=6 * b.n + 80)):
        await b.edge([b.top] * b.n, k % b.n)
    while b.busy:
        await b.edge([b.top] * b.n)
    gaps = {t1 - t0 for t0, t1 in pairwise(b.taken_at)}
    assert gaps <= set(range(6, b.n + 6)) and b.taken_at[0] == 0, (b.taken_at, gaps)
    assert b.stats["reads answered"] == len(b.taken_at) > 6, dict(b.stats)
    assert max(b.sums) > b.mask or b.cnt_width == 64, "the narrow block's counters did not wrap"
    await b.check_sums()


@cocotb.test()
async def stats_carry(dut):
    """F13, F25: every counter counts the largest amount at every edge until just below 2^32,
    then on across it while the host reads back to back: answers on both sides of the sum's
    split after bit 31 (the carry into the high half, a cycle of its own); the narrow block's
    34-bit counters wrap as well."""
    b = Bench(dut)
    await b.start()
    full = [b.top] * b.n
    cross = -(-(1 << 32) // (b.top * b.n)) * b.n          # edges to 2^32, whole rounds
    before = cross - 2 * b.n
    if before > 0:
        await b.idle(before, full)
    for k in range(6 * b.n):
        await b.edge(full, k % b.n)
    while b.busy:
        await b.edge(full)
    assert min(b.answers) < 1 << 32 <= max(b.answers) or b.cnt_width < 64, sorted(b.answers)
    await b.check_sums()


@cocotb.test()
async def stats_busy_blocks(dut):
    """F13, F25: while a read is taken and not answered, a second request at every edge
    (another counter, the same, none) is ignored: one answer, for the first counter, at s+4,
    and nothing after it for the ignored ones."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    for _ in range(3 * b.n):
        await b.edge(b.random_inc(rng, 0.7))
    for _ in range(amount(12, least=6)):
        a = rng.randrange(b.n)
        n_answers = len(b.answers)
        await b.edge(b.random_inc(rng, 0.7), a)
        assert b.busy
        while b.busy:
            await b.edge(b.random_inc(rng, 0.7), rng.choice(((a + 1) % b.n, a, b.random_addr(rng))))
        assert len(b.answers) == n_answers + 1
        for _ in range(b.n + 5):         # no answer for an ignored request
            await b.edge(b.random_inc(rng, 0.7))
        assert len(b.answers) == n_answers + 1
    assert b.stats["requests ignored (busy)"] >= 6 * 4, dict(b.stats)
    await b.check_sums()


@cocotb.test()
async def stats_reset_midway(dut):
    """F13, F25: reset amid increments with a read taken, at each stage of it (waiting for
    its take, in the pipeline, at its answer's edge s+4), also held for a few edges: the read
    is never answered, the counters start again from 0 (the first round adds 0 in place of
    the RAM's stale words) and a read from edge 0 on is answered right."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    for trial in range(amount(2 * b.n + 8, least=b.n + 8)):
        for _ in range(rng.randrange(b.n, 3 * b.n)):
            await b.edge(b.random_inc(rng, 0.7), b.random_addr(rng) if rng.random() < 0.2 else None)
        while b.busy:
            await b.edge(b.random_inc(rng, 0.7))
        await b.edge(b.random_inc(rng, 0.7), rng.randrange(b.n))
        assert b.pending is not None
        _, t, s = b.pending
        # the reset edge: t+1 .. s+4, the answer's own edge s+4 every fourth trial
        at = s + 4 if trial % 4 == 0 else rng.randint(t + 1, s + 4)
        while b.k < at:
            await b.edge(b.random_inc(rng, 0.7))
        n_answers = len(b.answers)
        for _ in range(1 if trial % 3 else rng.randint(2, 4)):
            await b.edge(b.random_inc(rng, 0.7), rng.randrange(b.n), rst=True)
        assert not b.busy and len(b.answers) == n_answers
        if trial % 2:                    # a read at edge 0, amid increments
            await b.read(rng.randrange(b.n), b.random_inc(rng, 0.7))
    assert b.stats["reads dropped by reset"] >= amount(2 * b.n + 8, least=b.n + 8), dict(b.stats)
    await b.check_sums()
