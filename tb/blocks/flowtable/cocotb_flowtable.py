"""prionic_flowtable block test (F31, F25): the block-RAM flow table, its lookup pipeline and
its host commands, edge by edge against ``FlowTable`` of model/flowtable.py
(docs/flowtable.md).

Run through tests/test_flowtable.py (pytest, both simulators, a small and the default table).
Inputs for edge k are driven at the falling edge before it (tb/common.py); the model steps
edge k with the same inputs, and at the falling edge after k every status output (busy,
result, bank, way, set, rval, used, overrun) must equal the model's, and a lookup taken at s
must show the model's l_hit and l_val with l_done after edge s+3. The lookup's sets come from
the model's hash while the host's commands are hashed by the RTL: a hash that differs
between the two loses lookups. Lookups are taken at random edges (back to back included),
commands are issued when the table is idle and, now and then, while it is busy (ignored,
``overrun``).
"""

from __future__ import annotations

import random
from collections import Counter

import cocotb
from cocotb.triggers import FallingEdge

from model import flowtable as ft
from tb.common import Clocked, amount, make_rng, param

OUTPUTS = ("busy", "result", "res_bank", "res_way", "res_set", "rval", "used", "overrun")


class Bench:
    """Drives the table at falling edges and steps the model with it."""

    def __init__(self, dut):
        self.dut = dut
        self.sets = param("SETS", 512)
        self.key_bits = param("KEY_WIDTH", 139)
        self.val_bits = param("VAL_WIDTH", 16)
        self.model = ft.FlowTable(self.sets, self.key_bits)
        self.clocked = Clocked(dut)
        self.k = 0
        self.stats: Counter[str] = Counter()

    async def start(self) -> None:
        for s in ("l_take", "l_set0", "l_set1", "l_key", "h_cmd_valid", "h_cmd", "h_key", "h_val"):
            getattr(self.dut, s).value = 0
        await self.clocked.start()
        assert self.clocked.cycle_at_falling() == 0
        self.check()

    def check(self) -> None:
        d, st = self.dut, self.model.status
        want = (st.busy, st.result, st.bank, st.way, st.set, st.rval, st.used, st.overrun)
        got = tuple(int(getattr(d, o).value) for o in OUTPUTS)
        assert got == tuple(int(w) for w in want), (
            f"after edge {self.k - 1}: " + ", ".join(f"{o} {g} (model {int(w)})"
                                                    for o, g, w in zip(OUTPUTS, got, want, strict=True) if g != int(w)))
        res = self.model.lookup_result(self.k - 1)
        assert int(d.l_done.value) == (res is not None), f"after edge {self.k - 1}: l_done {int(d.l_done.value)}"
        if res is not None:
            hit, val = int(d.l_hit.value), int(d.l_val.value)
            assert (hit, val if hit else 0) == (int(res[0]), res[1]), (
                f"lookup done at edge {self.k - 1}: l_hit {hit} l_val {val:#x}, model {res}")
            self.stats["lookup_hit" if hit else "lookup_miss"] += 1

    async def edge(self, take_key: int | None = None, cmd: tuple[int, int, int] | None = None) -> None:
        """Drive edge k, step the model, check after it."""
        d = self.dut
        d.l_take.value = int(take_key is not None)
        if take_key is not None:
            s0, s1 = self.model.hash.sets_of(take_key)
            d.l_set0.value, d.l_set1.value, d.l_key.value = s0, s1, take_key
        d.h_cmd_valid.value = int(cmd is not None)
        if cmd is not None:
            d.h_cmd.value, d.h_key.value, d.h_val.value = cmd
            if self.model.busy:
                self.stats["overrun"] += 1
        self.model.step(self.k, take_key, cmd)
        self.k += 1
        await FallingEdge(d.clk)
        self.check()
        self.stats["edges"] += 1

    async def command(self, rng: random.Random, code: int, key: int, val: int,
                      keys: list[int], p_take: float) -> int:
        """Issue one command when the table is idle, with random lookups around it; return
        its result code."""
        while self.model.busy:
            await self.edge(self._take(rng, keys, p_take))
        await self.edge(self._take(rng, keys, p_take), (code, key, val))
        while self.model.busy:
            cmd = None
            if rng.random() < 0.02:   # a command while busy: ignored, overrun
                cmd = (rng.choice((ft.INSERT, ft.DELETE, ft.FIND)), rng.choice(keys), 0)
            await self.edge(self._take(rng, keys, p_take), cmd)
        self.stats[ft.RESULT_NAMES[self.model.status.result]] += 1
        return self.model.status.result

    def _take(self, rng: random.Random, keys: list[int], p_take: float) -> int | None:
        if rng.random() >= p_take:
            return None
        return rng.choice(keys) if rng.random() < 0.8 else rng.getrandbits(self.key_bits)

    def random_key(self, rng: random.Random) -> int:
        if self.key_bits == ft.KEY_BITS and rng.random() < 0.7:
            return ft.udp_key(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16))
        return rng.getrandbits(self.key_bits)


@cocotb.test()
async def flowtable_random_vs_model(dut):
    """F31: random inserts, updates, deletes, finds, bad commands and clears with lookups
    at random edges, every status output and lookup result against the model; with the
    default table, 1,024 flows inserted, updated, found, half deleted and re-inserted."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    while b.model.busy:                      # the reset's clear
        await b.edge(b._take(rng, [0], 0.3))
    vmask = (1 << b.val_bits) - 1
    n = min(1024, 4 * b.sets + 8)
    keys = [b.random_key(rng) for _ in range(n)]
    # lookups at a third of the edges with every key; none, and at 90% of the edges (the
    # host's read and write wait for an edge without one), with a part of them
    few = keys[: amount(128, least=64)]
    for p_take, pool in ((0.35, keys), (0.0, few), (0.9, few)):
        keys = pool
        for key in keys:                      # fill: INSERTED, and FULL when the sets are full
            await b.command(rng, ft.INSERT, key, rng.getrandbits(16) & vmask, keys, p_take)
        for key in rng.sample(keys, min(len(keys), 64)):   # UPDATED or FULL
            await b.command(rng, ft.INSERT, key, rng.getrandbits(16) & vmask, keys, p_take)
        for key in rng.sample(keys, amount(len(keys), icarus=0.25)):   # FOUND or NOT_FOUND
            await b.command(rng, ft.FIND, key, 0, keys, p_take)
        for key in keys[::2]:                 # DELETED, NOT_FOUND
            await b.command(rng, ft.DELETE, key, 0, keys, p_take)
        for key in keys[: len(keys) // 2]:    # re-insert
            await b.command(rng, ft.INSERT, key, rng.getrandbits(16) & vmask, keys, p_take)
        await b.command(rng, rng.choice((0, 5, 6, 7)), keys[0], 0, keys, p_take)   # BAD_CMD
        await b.command(rng, ft.DELETE, rng.getrandbits(b.key_bits), 0, keys, p_take)
        await b.command(rng, ft.CLEAR, 0, 0, keys, p_take)
        assert b.model.status.used == 0
    for _ in range(8):
        await b.edge(None)
    s = b.stats
    dut._log.info("flowtable: %s", dict(s))
    for name in ("INSERTED", "UPDATED", "DELETED", "FOUND", "NOT_FOUND", "CLEARED", "BAD_CMD"):
        assert s[name] > 0, f"no {name} result in {dict(s)}"
    assert s["lookup_hit"] > 100 and s["lookup_miss"] > 100, dict(s)
    assert s["overrun"] > 0, dict(s)
    if 4 * b.sets < len(few):
        assert s["FULL"] > 0, dict(s)


@cocotb.test()
async def flowtable_reset_midway(dut):
    """F31, F24: reset in the middle of commands and lookups empties the table (the clear
    after reset, lookups during it miss, commands during it are ignored)."""
    b = Bench(dut)
    rng = make_rng(dut)
    await b.start()
    first = True                             # a command during the reset's clear: overrun
    while b.model.busy:
        await b.edge(None, (ft.INSERT, 1, 1) if first or rng.random() < 0.05 else None)
        first = False
    keys = [b.random_key(rng) for _ in range(amount(64, least=16))]
    for key in keys:
        await b.command(rng, ft.INSERT, key, 7, keys, 0.3)
    assert b.model.status.used > 0
    await b.edge(keys[0], (ft.DELETE, keys[1], 0))     # a command and a lookup in flight
    await b.edge(keys[2])
    b.dut.rst.value = 1
    await FallingEdge(b.dut.clk)
    b.dut.rst.value = 0
    b.model = ft.FlowTable(b.sets, b.key_bits)
    b.k = 0
    for k in range(b.sets + 8):              # commands only while the clear runs: ignored
        await b.edge(rng.choice(keys) if rng.random() < 0.5 else None,
                     (ft.INSERT, keys[0], 3) if k < b.sets and (k == 1 or rng.random() < 0.05) else None)
    for key in keys[:8]:
        await b.command(rng, ft.FIND, key, 0, keys, 0.5)
        assert b.model.status.result == ft.NOT_FOUND
    assert b.stats["lookup_hit"] > 0 and b.stats["overrun"] > 0, dict(b.stats)
