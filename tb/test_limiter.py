"""prionic_limiter block test (F9): per-rule rate limiters as deferrable servers.

Run through tests/test_limiter.py (pytest, both simulators, several NUM_LIMITERS). The
reference is model/limiter.py, written from docs/limiter.md. Inputs for edge k are driven
at the falling edge before it (tb/common.py); q_pass is combinational, so it is read 1 ns
later, still before edge k, and compared with the model's verdict for edge k at every
edge (also when q_valid is low: the verdict is defined, a look that spends nothing).
Directed tests check floods against hand-worked numbers: exactly BUDGET per epoch.
"""

from __future__ import annotations

from collections.abc import Callable

import cocotb
from cocotb.triggers import FallingEdge, Timer

from model.limiter import BYTES, FRAMES, Limiter, LimiterConfig
from tb.common import Clocked, make_rng, param, soak

MAX_ID = 255  # q_id is 8 bits (0xFF: "no rule")


def _pack(values: list[int], width: int) -> int:
    return sum(v << (width * i) for i, v in enumerate(values))


Query = tuple[int, int, bool, bool]  # (q_id, q_cost, q_valid, q_consume)


class Bench:
    """Drives the block at falling edges and holds one model Limiter per limiter."""

    def __init__(self, dut):
        self.dut = dut
        self.n = param("NUM_LIMITERS", 4)
        self.cfg = [LimiterConfig() for _ in range(self.n)]
        self.model = [Limiter() for _ in range(self.n)]
        self.clocked = Clocked(dut)
        self.k = 0  # the edge the inputs being driven are for
        self.restart_bits = 0
        self.stats = {"pass": 0, "fail": 0, "valid": 0, "out_of_range": 0}

    async def start(self) -> None:
        d = self.dut
        for s in ("cfg_budget", "cfg_period", "cfg_mode", "cfg_restart", "q_valid", "q_id", "q_cost",
                  "q_consume"):
            getattr(d, s).value = 0
        await self.clocked.start()
        assert self.clocked.cycle_at_falling() == 0

    def change(self, i: int, cfg: LimiterConfig, restart: bool) -> None:
        """Limiter i sees ``cfg`` from edge k on; ``restart``: cfg_restart[i] sampled high at k."""
        d = self.dut
        self.cfg[i] = cfg
        d.cfg_budget.value = _pack([c.budget for c in self.cfg], 32)
        d.cfg_period.value = _pack([c.period for c in self.cfg], 32)
        d.cfg_mode.value = _pack([c.mode for c in self.cfg], 1)
        if restart:
            self.restart_bits |= 1 << i
            self.model[i].restart(self.k, cfg.budget, cfg.period, cfg.mode)
        else:
            self.model[i].configure(self.k, cfg.budget, cfg.period, cfg.mode)

    def restart(self, i: int) -> None:
        self.change(i, self.cfg[i], True)

    async def edge(self, q: Query | None) -> bool:
        """Drive the query for edge k (None: q_valid 0, the rest 0), compare q_pass with the
        model before the edge, step past it; returns q_pass."""
        d = self.dut
        q_id, cost, valid, consume = q if q is not None else (0, 0, False, False)
        d.cfg_restart.value = self.restart_bits
        d.q_valid.value = int(valid)
        d.q_id.value = q_id
        d.q_cost.value = cost
        d.q_consume.value = int(consume)
        await Timer(1, unit="ns")
        got = bool(int(d.q_pass.value))
        if q_id < self.n:
            want = self.model[q_id].query(self.k, cost, consume=valid and consume)
        else:
            want = True  # no such limiter: passes, changes nothing
            self.stats["out_of_range"] += 1
        assert got == want, (
            f"edge {self.k}: q_pass {int(got)}, model {int(want)} (q_id {q_id} cost {cost} valid {int(valid)} "
            f"consume {int(consume)}; config {self.cfg[q_id] if q_id < self.n else '-'})"
        )
        if valid:
            self.stats["valid"] += 1
            self.stats["pass" if got else "fail"] += 1
        await FallingEdge(d.clk)
        self.k += 1
        self.restart_bits = 0
        return got


def _random_config(rng) -> LimiterConfig:
    mode = rng.choice([FRAMES, BYTES])
    if mode == FRAMES:
        budget = rng.choice([0, 1, 1, 2, 3, 5, 10, 40])
    else:
        budget = rng.choice([0, 60, 100, 1000, 1518, 3000, 10_000, 0xFFFF_FFFF])
    period = rng.choice([0, 1, 2, 3, 7, 16, 16, 50, 50, 200, 1000, 0xFFFF_FFFF])
    return LimiterConfig(budget, period, mode)


@cocotb.test()
async def limiter_random_vs_model(dut):
    """F9: random configurations, restarts with and without new values, changes without
    restart (BUDGET, MODE, PERIOD from or to 0: the contract takes any other PERIOD change
    with cfg_restart), and query streams in phases (floods with a query on most edges, on/off bursts,
    sparse queries, idle gaps), random byte costs; q_pass equals the model at every edge."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    n = b.n
    for i in range(n):
        b.change(i, _random_config(rng), True)
    edges = 200_000 if soak() else 20_000
    phase, left = "flood", 0
    burst_on = True
    ids = list(range(n))
    changes = {"restart": 0, "configure": 0, "bare_restart": 0}
    for _ in range(edges):
        if left == 0:
            phase = rng.choice(["flood", "flood", "burst", "sparse", "idle"])
            left = rng.randint(20, 600)
            # floods concentrate on one or two limiters, so their budgets run out
            ids = rng.sample(range(n), min(n, rng.choice([1, 1, 2]))) if n > 1 else [0]
        left -= 1
        if rng.random() < 0.008:
            i = rng.randrange(n)
            restart = rng.random() < 0.8
            cfg = _random_config(rng)
            old = b.cfg[i].period
            if not restart and old != 0 and cfg.period != 0 and cfg.period != old:
                # the block's contract: cfg_period is taken with cfg_restart (one nonzero
                # PERIOD to another needs R; from or to 0 does not)
                cfg = LimiterConfig(cfg.budget, old, cfg.mode)
            b.change(i, cfg, restart)
            changes["restart" if restart else "configure"] += 1
        elif rng.random() < 0.003:
            b.restart(rng.randrange(n))
            changes["bare_restart"] += 1
        if phase == "flood":
            valid = rng.random() < 0.95
        elif phase == "burst":
            if rng.random() < 0.1:
                burst_on = not burst_on
            valid = burst_on
        elif phase == "sparse":
            valid = rng.random() < 0.05
        else:
            valid = False
        q_id = rng.choice(ids)
        if n < 16 and rng.random() < 0.02:
            q_id = rng.randint(n, MAX_ID)
        cost = rng.choice([0, 1, 60, 64, 1518, 9000, 0xFFFF, rng.randint(60, 1518), rng.randint(60, 1518)])
        consume = rng.random() < 0.9
        if not valid and rng.random() < 0.5:
            await b.edge(None)
        else:
            await b.edge((q_id, cost, valid, consume))
    s = b.stats
    dut._log.info("%d edges, queries %s, changes %s", edges, s, changes)
    assert s["pass"] > 1000 and s["fail"] > 1000, f"too few passes or fails to mean anything: {s}"


async def scripted(dut, n_edges: int, changes: dict[int, list[tuple[int, LimiterConfig, bool]]],
                   query: Callable[[int], Query | None]) -> dict[int, list[int]]:
    """Changes {edge: [(limiter, config, restart)]} and query(edge) for edges 0..n_edges-1,
    checked against the model at every edge; returns {limiter id: edges where a valid query
    passed}."""
    b = Bench(dut)
    await b.start()
    passed: dict[int, list[int]] = {}
    for k in range(n_edges):
        for i, cfg, restart in changes.get(k, []):
            b.change(i, cfg, restart)
        q = query(k)
        if await b.edge(q) and q is not None and q[2]:
            passed.setdefault(q[0], []).append(k)
    return passed


def per_epoch(passes: list[int], start: int, period: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for e in passes:
        if e >= start:
            counts[(e - start) // period] = counts.get((e - start) // period, 0) + 1
    return counts


@cocotb.test()
async def limiter_flood_frames(dut):
    """F9, limiter.md s6: limiter 0 off (reset values) until BUDGET 3, PERIOD 10, frames mode
    and a restart seen at edge 5; a consuming query at every edge 0..64: 0..4 pass (off),
    then exactly 3 per epoch: 5-7, 15-17, 25-27, 35-37, 45-47, 55-57."""
    passed = await scripted(dut, 65, {5: [(0, LimiterConfig(3, 10, FRAMES), True)]},
                            lambda k: (0, 64, True, True))
    assert passed[0] == [0, 1, 2, 3, 4] + [s + j for s in range(5, 65, 10) for j in range(3)]
    assert per_epoch(passed[0], 5, 10) == {ep: 3 for ep in range(6)}


@cocotb.test()
async def limiter_flood_bytes(dut):
    """F9, limiter.md s5: BUDGET 1000 bytes, PERIOD 8, restart at 0, a 250-byte frame at every
    edge: 1000/250 = 4 pass per epoch (0-3, 8-11, ...), exactly 1000 bytes per epoch. From
    edge 40 (restart, PERIOD 20) costs alternate 300/60 (limiter.md s6): passes at offsets
    0, 1, 2, 3, 5, 7, 9, 11 of each epoch: 960 bytes."""
    cfg1 = LimiterConfig(1000, 8, BYTES)
    cfg2 = LimiterConfig(1000, 20, BYTES)

    def q(k: int) -> Query:
        return (0, 250, True, True) if k < 40 else (0, 300 if k % 2 == 0 else 60, True, True)

    passed = await scripted(dut, 100, {0: [(0, cfg1, True)], 40: [(0, cfg2, True)]}, q)
    first = [s + j for s in range(0, 40, 8) for j in range(4)]
    second = [s + j for s in range(40, 100, 20) for j in (0, 1, 2, 3, 5, 7, 9, 11)]
    assert passed[0] == first + second
    assert sum(250 for e in passed[0] if e < 40) == 5 * 1000  # 5 epochs, 1000 bytes each


@cocotb.test()
async def limiter_independent(dut):
    """F9: with two limiters, limiter 0 (BUDGET 2, PERIOD 10) asked at even edges passes 0, 2,
    10, 12, 20, 22; limiter 1 (BUDGET 1, PERIOD 4) asked at odd edges passes the first odd
    edge of each epoch: 1, 5, 9, ... With one limiter, id 1 is "no limiter" and always
    passes. Every 7th query has q_consume 0 (a look): edges 0, 7, 14, 21, 28 spend nothing."""
    n = param("NUM_LIMITERS", 4)
    changes = {0: [(0, LimiterConfig(2, 10, FRAMES), True)]}
    if n > 1:
        changes[0].append((1, LimiterConfig(1, 4, FRAMES), True))
    passed = await scripted(dut, 30, changes, lambda k: (k % 2, 1, True, k % 7 != 0))
    # limiter 0: epoch 0: 0 (a look, spends nothing), 2, 4 pass; epoch 1: 10, 12; epoch 2: 20, 22
    assert passed[0] == [0, 2, 4, 10, 12, 20, 22]
    if n > 1:
        # limiter 1 epochs 0-3, 4-7, ...: 1 passes; 5; 7 is a look after 5 (fails, 0 left);
        # 9; 13; 17; 21 is a look at a full budget (passes) and 23 still passes
        assert passed[1] == [1, 5, 9, 13, 17, 21, 23, 25, 29]
    else:
        assert passed[1] == list(range(1, 30, 2))


@cocotb.test()
async def limiter_restart_and_changes(dut):
    """F9, limiter.md s5, on limiter n-1: BUDGET 2, PERIOD 10 restarted at 0; query at 3 passes
    (1 left); a bare restart at 7 cuts the epoch: 7, 8 pass, 9 fails. Off (PERIOD 0, no
    restart) from 12: 12..14 pass. PERIOD 4, BUDGET 1 from 15 without restart: 15 opens an
    epoch: 15 passes, 19 passes. BUDGET 2 from 21 without restart (a PERIOD change between
    values other than 0 would need the restart: the block's contract): the epoch 19-22 keeps
    what is left (0): 21, 22 fail; 23, 24 pass, then 2 in every epoch of 4."""
    n = param("NUM_LIMITERS", 4)
    lim = n - 1
    changes = {
        0: [(lim, LimiterConfig(2, 10, FRAMES), True)],
        7: [(lim, LimiterConfig(2, 10, FRAMES), True)],
        12: [(lim, LimiterConfig(2, 0, FRAMES), False)],
        15: [(lim, LimiterConfig(1, 4, FRAMES), False)],
        21: [(lim, LimiterConfig(2, 4, FRAMES), False)],
    }

    def q(k: int) -> Query | None:
        return (lim, 1, True, True) if (k == 3 or k >= 7) else None

    passed = await scripted(dut, 42, changes, q)
    assert passed[lim] == [3, 7, 8, 12, 13, 14, 15, 19, 23, 24, 27, 28, 31, 32, 35, 36, 39, 40]
