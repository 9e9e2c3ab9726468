"""prionic_limiter block test (F9): per-rule rate limiters as deferrable servers.

Run through tests/test_limiter.py (pytest, both simulators, several NUM_LIMITERS). The
reference is model/limiter.py, written from docs/limiter.md. Inputs for edge k are driven
at the falling edge before it (tb/common.py). The block takes its configuration, its id
map and the query's cost one edge ahead (limiter.md s3), so the bench drives those for
edge k + 1 beside the query of edge k: every test is a plan of edges, {edge: changes seen
at that edge} and a query per edge. q_pass is read 1 ns after the inputs, before edge k,
and compared with the model's verdict for edge k at every edge (also when q_valid is low:
the verdict is defined, a look that spends nothing). Contract 2 of the block (a query
right after its limiter passed one, or two edges after it spent, is refused) is part of
the reference. Directed tests check
floods against hand-worked numbers: exactly BUDGET per epoch.
"""

from __future__ import annotations

from collections.abc import Callable

import cocotb
from cocotb.triggers import FallingEdge, Timer

from model.limiter import BYTES, FRAMES, Limiter, LimiterConfig
from tb.common import Clocked, make_rng, param, soak

MAX_ID = 255  # q_id is 8 bits (0xFF: "no rule")
NONE = 0xFF   # a cfg_lim_id that names no limiter


def _pack(values: list[int], width: int) -> int:
    return sum(v << (width * i) for i, v in enumerate(values))


Query = tuple[int, int, bool, bool]  # (q_id, cost, q_valid, q_consume)
# (limiter, config, restart) or ("map", query id, limiter id)
Change = tuple


class Bench:
    """Drives the block at falling edges from a plan and holds one model Limiter per limiter."""

    def __init__(self, dut):
        self.dut = dut
        self.n = param("NUM_LIMITERS", 4)
        self.model = [Limiter() for _ in range(self.n)]
        self.clocked = Clocked(dut)
        self.stats = {"pass": 0, "fail": 0, "valid": 0, "out_of_range": 0, "refused": 0, "unmapped": 0}
        # what the block sees at the edge being driven: configuration and id map
        self.cfg = [LimiterConfig() for _ in range(self.n)]
        self.map = list(range(self.n))
        # ... and at the next edge (the raw inputs driven now)
        self.cfg1 = list(self.cfg)
        self.map1 = list(self.map)
        # contract 2: limiters that passed a valid query at the previous edge, and that spent
        # at the edge before it
        self.asked: set[int] = set()
        self.spent: list[set[int]] = [set(), set()]   # [at k - 1, at k - 2]

    def _drive_ahead(self, changes: list[Change], query: Query | None) -> None:
        """Drive the inputs the block takes one edge ahead: the configuration, restarts and
        map seen at the next edge (``changes`` are that edge's) and the next query's cost."""
        d = self.dut
        restarts = 0
        for ch in changes:
            if ch[0] == "map":
                self.map1[ch[1]] = ch[2]
            else:
                i, cfg, restart = ch
                self.cfg1[i] = cfg
                restarts |= int(restart) << i
        d.cfg_budget.value = _pack([c.budget for c in self.cfg1], 32)
        d.cfg_period.value = _pack([c.period for c in self.cfg1], 32)
        d.cfg_mode.value = _pack([c.mode for c in self.cfg1], 1)
        d.cfg_lim_id.value = _pack(self.map1, 8)
        d.cfg_restart.value = restarts
        d.p_cost.value = query[1] if query is not None else 0

    def _apply(self, k: int, changes: list[Change]) -> None:
        """The model sees edge k's changes (after the raw inputs of edge k - 1)."""
        for ch in changes:
            if ch[0] == "map":
                self.map[ch[1]] = ch[2]
                continue
            i, cfg, restart = ch
            self.cfg[i] = cfg
            if restart:
                self.model[i].restart(k, cfg.budget, cfg.period, cfg.mode)
            else:
                self.model[i].configure(k, cfg.budget, cfg.period, cfg.mode)

    async def run(self, n_edges: int, changes: Callable[[int], list[Change]],
                  query: Callable[[int], Query | None]) -> dict[int, list[int]]:
        """Edges 0..n_edges-1: ``changes(k)`` seen at edge k, ``query(k)`` at edge k (None:
        q_valid 0, the rest 0), each compared with the model; returns {query id: edges where
        a valid query passed}. ``changes`` and ``query`` are called once per edge, in order,
        one edge ahead of the edge being checked."""
        d = self.dut
        for s in ("q_valid", "q_id", "q_consume"):
            getattr(d, s).value = 0
        ch_next, q_next = changes(0), query(0)
        self._drive_ahead(ch_next, q_next)   # seen at edge 0: sampled during reset
        await self.clocked.start()
        assert self.clocked.cycle_at_falling() == 0
        passed: dict[int, list[int]] = {}
        for k in range(n_edges):
            self._apply(k, ch_next)
            q = q_next
            if k + 1 < n_edges:
                ch_next, q_next = changes(k + 1), query(k + 1)
            else:
                ch_next, q_next = [], None
            self._drive_ahead(ch_next, q_next)
            if await self._edge(k, q) and q is not None and q[2]:
                passed.setdefault(q[0], []).append(k)
        return passed

    async def _edge(self, k: int, q: Query | None) -> bool:
        """Drive the query of edge k, compare q_pass with the reference, step past the edge."""
        d = self.dut
        q_id, cost, valid, consume = q if q is not None else (0, 0, False, False)
        d.q_valid.value = int(valid)
        d.q_id.value = q_id
        d.q_consume.value = int(consume)
        await Timer(1, unit="ns")
        got = bool(int(d.q_pass.value))
        lim = self.map[q_id] if q_id < self.n else NONE
        asked: set[int] = set()
        spent: set[int] = set()
        if q_id >= self.n:
            want = True  # no such query id: passes, changes nothing
            self.stats["out_of_range"] += 1
        elif lim >= self.n:
            want = True  # the id asks no limiter
            self.stats["unmapped"] += 1
        elif (lim in self.asked or lim in self.spent[1]) and self.cfg[lim].period != 0:
            want = False  # contract 2: refused after a pass at k - 1 or a spend at k - 2
            self.stats["refused"] += 1
        else:
            want = self.model[lim].query(k, cost, consume=valid and consume)
            if want and valid and self.cfg[lim].period != 0:
                asked.add(lim)
                if consume:
                    spent.add(lim)
        assert got == want, (
            f"edge {k}: q_pass {int(got)}, model {int(want)} (q_id {q_id} -> limiter {lim}, cost {cost} "
            f"valid {int(valid)} consume {int(consume)}; config {self.cfg[lim] if lim < self.n else '-'}; "
            f"passed at {k - 1}: {sorted(self.asked)}, spent at {k - 2}: {sorted(self.spent[1])})"
        )
        self.asked = asked
        self.spent = [spent, self.spent[0]]
        if valid:
            self.stats["valid"] += 1
            self.stats["pass" if got else "fail"] += 1
        await FallingEdge(d.clk)
        return got


def _random_config(rng) -> LimiterConfig:
    mode = rng.choice([FRAMES, BYTES])
    if mode == FRAMES:
        budget = rng.choice([0, 1, 1, 2, 3, 5, 10, 40])
    else:
        # 0x1_0000 + 100 and 0x1_0400: the remaining budget crosses 2^16 (the compare splits there)
        budget = rng.choice([0, 60, 100, 1000, 1518, 3000, 10_000, 0x1_0000 + 100, 0x1_0400, 0xFFFF_FFFF])
    period = rng.choice([0, 1, 2, 3, 7, 16, 16, 50, 50, 200, 1000, 0xFFFF_FFFF])
    return LimiterConfig(budget, period, mode)


@cocotb.test()
async def limiter_random_vs_model(dut):
    """F9: random configurations, restarts with and without new values, changes without
    restart (BUDGET, MODE, PERIOD from or to 0: the contract takes any other PERIOD change
    with cfg_restart), id map changes (shared limiters, ids that ask none), and query
    streams in phases (floods with a query on most edges or every other edge, which meet
    contract 2, floods on every fourth edge as the top asks at most, on/off bursts, sparse
    queries, idle gaps), random
    byte costs; q_pass equals the reference at every edge."""
    rng = make_rng(dut)
    b = Bench(dut)
    n = b.n
    edges = 200_000 if soak() else 20_000
    st = {"phase": "flood", "left": 0, "burst_on": True, "ids": list(range(n)), "cfg": [LimiterConfig()] * n}
    counts = {"restart": 0, "configure": 0, "bare_restart": 0, "map": 0}

    def changes(k: int) -> list[Change]:
        if k == 0:
            st["cfg"] = [_random_config(rng) for _ in range(n)]
            return [(i, st["cfg"][i], True) for i in range(n)]
        if rng.random() < 0.008:
            i = rng.randrange(n)
            restart = rng.random() < 0.8
            cfg = _random_config(rng)
            old = st["cfg"][i].period
            if not restart and old != 0 and cfg.period != 0 and cfg.period != old:
                # the block's contract: cfg_period is taken with cfg_restart (one nonzero
                # PERIOD to another needs R; from or to 0 does not)
                cfg = LimiterConfig(cfg.budget, old, cfg.mode)
            st["cfg"][i] = cfg
            counts["restart" if restart else "configure"] += 1
            return [(i, cfg, restart)]
        if rng.random() < 0.003:
            i = rng.randrange(n)
            counts["bare_restart"] += 1
            return [(i, st["cfg"][i], True)]
        if rng.random() < 0.002:
            r = rng.randrange(n)
            counts["map"] += 1
            # mostly its own or a shared limiter, sometimes none (an id >= NUM_LIMITERS)
            return [("map", r, rng.choice([r, r, rng.randrange(n), rng.randint(n, 255)]))]
        return []

    def query(k: int) -> Query | None:
        if st["left"] == 0:
            st["phase"] = rng.choice(["flood", "flood2", "flood4", "flood4", "burst", "sparse", "idle"])
            st["left"] = rng.randint(20, 600)
            # floods concentrate on one or two ids, so their budgets run out
            st["ids"] = rng.sample(range(n), min(n, rng.choice([1, 1, 2]))) if n > 1 else [0]
        st["left"] -= 1
        phase = st["phase"]
        if phase == "flood":
            valid = rng.random() < 0.95
        elif phase == "flood2":   # every other edge: meets contract 2 after spends only
            valid = k % 2 == 0 and rng.random() < 0.95
        elif phase == "flood4":   # every fourth edge: the most the top asks
            valid = k % 4 == 0 and rng.random() < 0.95
        elif phase == "burst":
            if rng.random() < 0.1:
                st["burst_on"] = not st["burst_on"]
            valid = st["burst_on"]
        elif phase == "sparse":
            valid = rng.random() < 0.05
        else:
            valid = False
        q_id = rng.choice(st["ids"])
        if n < 16 and rng.random() < 0.02:
            q_id = rng.randint(n, MAX_ID)
        cost = rng.choice([0, 1, 60, 64, 1518, 9000, 0xFFFF, rng.randint(60, 1518), rng.randint(60, 1518)])
        consume = rng.random() < 0.9
        if not valid and rng.random() < 0.5:
            return None
        return (q_id, cost, valid, consume)

    await b.run(edges, changes, query)
    s = b.stats
    dut._log.info("%d edges, queries %s, changes %s", edges, s, counts)
    assert s["pass"] > 1000 and s["fail"] > 1000, f"too few passes or fails to mean anything: {s}"
    assert s["refused"] > 100, f"contract 2 was hardly met: {s}"


async def scripted(dut, n_edges: int, changes: dict[int, list[Change]],
                   query: Callable[[int], Query | None]) -> dict[int, list[int]]:
    """Changes {edge: [(limiter, config, restart)]} seen at those edges and query(edge) for
    edges 0..n_edges-1, checked against the reference at every edge; returns {query id:
    edges where a valid query passed}."""
    return await Bench(dut).run(n_edges, lambda k: changes.get(k, []), query)


def per_epoch(passes: list[int], start: int, period: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for e in passes:
        if e >= start:
            counts[(e - start) // period] = counts.get((e - start) // period, 0) + 1
    return counts


@cocotb.test()
async def limiter_flood_frames(dut):
    """F9, limiter.md s6: limiter 0 off (reset values) until BUDGET 3, PERIOD 20, frames mode
    and a restart seen at edge 5; a consuming query at every fourth edge 0..64 (as often as
    the top asks): 0, 4 pass (off), then exactly 3 per epoch: 8, 12, 16 (20, 24 fail); 28,
    32, 36; 48, 52, 56."""
    passed = await scripted(dut, 65, {5: [(0, LimiterConfig(3, 20, FRAMES), True)]},
                            lambda k: (0, 64, True, True) if k % 4 == 0 else None)
    assert passed[0] == [0, 4, 8, 12, 16, 28, 32, 36, 48, 52, 56]
    assert per_epoch(passed[0], 5, 20) == {ep: 3 for ep in range(3)}


@cocotb.test()
async def limiter_back_to_back(dut):
    """F9, limiter.md s2 contract 2: with a consuming query at every edge, a query right
    after its limiter passed one, or two edges after it spent, is refused and spends
    nothing. BUDGET 3, PERIOD 10, restart seen at edge 5: 0..4 pass (off: nothing is spent,
    nothing refused), then 5, 8, 11 pass (6, 7, 9, 10, 12, 13 refused, 14 fails with
    nothing left), 15, 18, 21, and so on: still exactly 3 per epoch. Turned off at 40
    (PERIOD 0, no restart): every edge passes again."""
    changes = {5: [(0, LimiterConfig(3, 10, FRAMES), True)], 40: [(0, LimiterConfig(3, 0, FRAMES), False)]}
    passed = await scripted(dut, 50, changes, lambda k: (0, 64, True, True))
    assert passed[0] == ([0, 1, 2, 3, 4] + [s + j for s in (5, 15, 25) for j in (0, 3, 6)] + [35, 38]
                         + list(range(40, 50)))


@cocotb.test()
async def limiter_flood_bytes(dut):
    """F9, limiter.md s5: BUDGET 1000 bytes, PERIOD 16, restart at 0, a 250-byte frame at every
    fourth edge: 1000/250 = 4 pass per epoch (0, 4, 8, 12; 16, ...), exactly 1000 bytes per
    epoch. From edge 40 (restart, PERIOD 40) costs alternate 300/60 (limiter.md s6): passes
    at offsets 0 (700 left), 4 (640), 8 (340), 12 (280), 16 fails (300), 20 (220), 24
    fails, 28 (160), 32 fails, 36 (100): 900 bytes per epoch."""
    cfg1 = LimiterConfig(1000, 16, BYTES)
    cfg2 = LimiterConfig(1000, 40, BYTES)

    def q(k: int) -> Query | None:
        if k % 4:
            return None
        return (0, 250, True, True) if k < 40 else (0, 300 if k % 8 == 0 else 60, True, True)

    passed = await scripted(dut, 120, {0: [(0, cfg1, True)], 40: [(0, cfg2, True)]}, q)
    first = list(range(0, 40, 4))
    second = [s + j for s in (40, 80) for j in (0, 4, 8, 12, 20, 28, 36)]
    assert passed[0] == first + second
    assert per_epoch([e for e in passed[0] if e < 32], 0, 16) == {0: 4, 1: 4}  # 1000 bytes each


@cocotb.test()
async def limiter_independent(dut):
    """F9: limiter 0 (BUDGET 2, PERIOD 10) asked at edges 0, 4, 8, ..., limiter 1 (BUDGET 1,
    PERIOD 8) at 2, 6, 10, ...; queries at edges that are multiples of 7 have q_consume 0
    (a look: 0, 14, 28, 42, 56 spend nothing). Limiter 0: 0 (a look), 4, 8; 12, 16; 20, 24
    (28, a look with nothing left, fails); 32, 36; 40, 44; 52, 56 (a look, 1 left). Limiter
    1: the first query of each epoch of 8: 2, 10, 18, 26, 34, then 42 (a look at a full
    budget) and 46, 50, 58. With one limiter, id 1 is "no limiter" and always passes."""
    n = param("NUM_LIMITERS", 4)
    changes = {0: [(0, LimiterConfig(2, 10, FRAMES), True)]}
    if n > 1:
        changes[0].append((1, LimiterConfig(1, 8, FRAMES), True))
    passed = await scripted(dut, 60, changes,
                            lambda k: ((k // 2) % 2, 1, True, k % 7 != 0) if k % 2 == 0 else None)
    assert passed[0] == [0, 4, 8, 12, 16, 20, 24, 32, 36, 40, 44, 52, 56]
    if n > 1:
        assert passed[1] == [2, 10, 18, 26, 34, 42, 46, 50, 58]
    else:
        assert passed[1] == list(range(2, 60, 4))


@cocotb.test()
async def limiter_shared(dut):
    """F9, limiter.md s8: ids 0 and 1 both ask limiter 0 (BUDGET 3, PERIOD 40) from edge 0;
    id 0 at edges 0, 8, 16, ..., id 1 at 4, 12, 20, ...: together they get 3 per epoch (0, 4,
    8). From edge 30 id 1 asks no limiter (255) and passes at every query, and id 0 has the
    budget alone: 40, 48, 56 pass in the epoch 40-79. With one limiter, id 1 is out of range
    and always passes."""
    n = param("NUM_LIMITERS", 4)
    changes: dict[int, list[Change]] = {0: [(0, LimiterConfig(3, 40, FRAMES), True)]}
    if n > 1:
        changes[0].append(("map", 1, 0))
        changes[30] = [("map", 1, NONE)]
    passed = await scripted(dut, 80, changes, lambda k: ((k // 4) % 2, 1, True, True) if k % 4 == 0 else None)
    if n > 1:
        assert sorted(e for e in passed[0] + passed[1] if e < 30) == [0, 4, 8]
        assert [e for e in passed[1] if e >= 30] == list(range(36, 80, 8))
        assert [e for e in passed[0] if e >= 30] == [40, 48, 56]
    else:
        assert passed[1] == list(range(4, 80, 8))


@cocotb.test()
async def limiter_restart_and_changes(dut):
    """F9, limiter.md s5, on limiter n-1, a query at edge 3 and every third edge from 7:
    BUDGET 2, PERIOD 10 restarted at 0; query at 3 passes (1 left); a bare restart at 7
    cuts the epoch: 7, 10 pass (0 left). Off (PERIOD 0, no restart) from 12: 13 passes.
    PERIOD 4, BUDGET 1 from 15 without restart: 15 opens an epoch: 16 passes, 19 (epoch
    19-22) passes. BUDGET 2 from 21 without restart (a PERIOD change between values other
    than 0 would need the restart: the block's contract): the epoch 19-22 keeps what is
    left (0): 22 fails; from 23 every query passes (at most 2 per epoch of 4)."""
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
        return (lim, 1, True, True) if (k == 3 or (k >= 7 and (k - 7) % 3 == 0)) else None

    passed = await scripted(dut, 42, changes, q)
    assert passed[lim] == [3, 7, 10, 13, 16, 19, 25, 28, 31, 34, 37, 40]
