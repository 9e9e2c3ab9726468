"""prionic_flowcache block test (F8, F25): the direct-mapped exact-match flow cache and
its three-edge lookup pipeline.

Run through tests/test_flowcache.py (pytest, both simulators, several ENTRIES/KEY_WIDTH).
The reference is ``FlowCache`` of model/flowcache.py (docs/frame-path.md s3.1) with
``ts_shift`` 0: the testbench drives ``now`` = edge number mod 2**16 and gives the model
the unbounded edge number, so a lookup that saw an aliased 16-bit age would differ.
The cache is used as the classification engine uses it (docs/timing.md s3.1): a lookup
starts at edge s (``l_start``, ``l_key``; a ``clr`` and a ``cfg_idle`` change only at a
start edge, as the engine restarts a lookup that sees one later), l_hit and l_val are
read before edge s+3 and compared with ``model.probe(key, s + 2)`` (the age is taken at
the compare edge s+2), the update (touch, evict, install) is driven at edge s+3, the
engine's verdict edge, and the next lookup starts at s+4 at the earliest. Inputs for
edge k are driven at the falling edge before it (tb/common.py). The model has no
flusher, so status_valid is checked against the header's bound: an entry still fresh at
the last edge is valid, one expired for ENTRIES + 1 edges or more is gone (exact while
cfg_idle is 0).
"""

from __future__ import annotations

import random
from collections import Counter, deque

import cocotb
from cocotb.triggers import FallingEdge

from model.flowcache import TS_BITS, FlowCache, flow_index
from tb.common import Clocked, make_rng, param, soak

TS_MASK = (1 << TS_BITS) - 1
IDLE_MAX = (1 << (TS_BITS - 1)) - 1  # cfg_idle is TS_WIDTH-1 bits
# cfg_idle values of the random test: never, 1 (an entry is fresh only at its own edge),
# small ones that expire flows between lookups, and large ones
IDLES = (0, 0, 1, 2, 3, 3, 4, 5, 8, 16, 50, 300, IDLE_MAX)
OPS = ("touch", "evict", "install")


class Bench:
    """Drives the cache at falling edges and holds the model ``FlowCache``."""

    def __init__(self, dut):
        self.dut = dut
        self.entries = param("ENTRIES", 16)
        self.key_width = param("KEY_WIDTH", 139)
        self.val_width = param("VAL_WIDTH", 8)
        assert param("TS_WIDTH", TS_BITS) == TS_BITS, "the model keeps 16-bit time stamps"
        self.index_bits = self.entries.bit_length() - 1
        self.model = FlowCache(self.entries, ts_shift=0)
        self.clocked = Clocked(dut)
        self.k = 0               # the edge the inputs being driven are for
        self.idle = 0            # cfg_idle from the last lookup's start edge on
        self.clr = False         # clr at the next lookup's start edge
        self.key = 0             # the key of the lookup in progress
        self.why = ""            # the model's probe of it: "hit", "empty", "other", "expired"
        self.stats: Counter[str] = Counter()
        self.history: deque[str] = deque(maxlen=12)  # the last lookups, for failure messages

    async def start(self) -> None:
        d = self.dut
        for s in ("now", "cfg_idle", "clr", "l_start", "l_key", "l_idx", "touch", "evict", "install", "i_val"):
            getattr(d, s).value = 0
        await self.clocked.start()
        assert self.clocked.cycle_at_falling() == 0
        self.check_status()  # out of reset: empty

    def key_at(self, rng: random.Random, idx: int) -> int:
        """A random key whose index is ``idx`` (flipping low key bits flips the same index bits)."""
        key = rng.getrandbits(self.key_width)
        return key ^ (flow_index(key, self.index_bits) ^ idx)

    def pool(self, rng: random.Random, n_idx: int) -> list[int]:
        """Keys on ``n_idx`` random indices, one to three per index: they hit, and collide."""
        keys = []
        for idx in rng.sample(range(self.entries), min(n_idx, self.entries)):
            keys += [self.key_at(rng, idx) for _ in range(rng.choice([1, 2, 2, 3]))]
        return keys

    def set_idle(self, idle: int) -> None:
        """A FLOW_IDLE write: cfg_idle ``idle`` and clr at the next start edge."""
        self.idle = idle
        self.clr = True
        self.stats["idle_change"] += 1

    def status_bounds(self) -> tuple[int, int]:
        """(least, most) valid entries after edge k-1, what status_valid shows before edge k.

        The model keeps expired entries (it has no flusher). Every entry in it was installed
        under the current cfg_idle (a change clears). Fresh at edge k-1: the flusher has not
        cleared it. Expired at edge x = used + idle: gone after edge x + ENTRIES.
        """
        live = self.model.live()  # each entry's last-use edge (ts_shift 0: units are edges)
        idle = self.idle
        if idle == 0:
            return len(live), len(live)
        lo = sum(1 for e in live if self.k - 1 - e.used < idle)
        hi = sum(1 for e in live if self.k - (e.used + idle) < self.entries + 1)
        return lo, hi

    def check_status(self) -> int:
        got = int(self.dut.status_valid.value)
        lo, hi = self.status_bounds()
        assert lo <= got <= hi, (
            f"edge {self.k}: status_valid {got}, expected {lo}..{hi} (cfg_idle {self.idle}, "
            f"{self.model.valid_entries()} entries in the model)"
        )
        self.stats["status_max"] = max(self.stats["status_max"], got)
        if got == self.entries:
            self.stats["full"] += 1
        return got

    async def _edge(self, start: bool = False) -> None:
        """Drive the inputs of edge k other than the update, step past it."""
        d = self.dut
        d.now.value = self.k & TS_MASK
        d.cfg_idle.value = self.idle
        d.l_start.value = int(start)
        d.clr.value = int(start and self.clr)
        for o in OPS:
            getattr(d, o).value = 0
        await FallingEdge(d.clk)
        self.k += 1

    async def look(self, key: int) -> str:
        """A lookup of ``key`` started at edge s = k (with clr when pending): steps to the
        verdict edge s+3, compares l_hit, l_val and status_valid before it with the model's
        probe at the compare edge s+2; returns the model's reason ("hit" or why it missed)."""
        d = self.dut
        s = self.k
        d.l_key.value = key
        d.l_idx.value = flow_index(key, self.index_bits)   # what prionic_flowhash computes
        if self.clr:
            self.model.clear()
            self.stats["clr"] += 1
        await self._edge(start=True)
        self.clr = False
        await self._edge()
        await self._edge()
        rule, why = self.model.probe(key, s + 2, self.idle)
        hit = int(d.l_hit.value)
        ctx = (f"lookup started at edge {s}: key {key:#x} (index {self.model.index(key)}) cfg_idle {self.idle}; "
               f"last lookups: {'; '.join(self.history)}")
        assert hit == (rule is not None), f"{ctx}: l_hit {hit}, model {why}"
        if hit:
            val = int(d.l_val.value)
            assert val == rule, f"{ctx}: l_val {val:#x}, model {rule:#x}"
        self.check_status()
        self.stats[why] += 1
        self.key, self.why = key, why
        return why

    async def commit(self, op: str = "", val: int = 0) -> None:
        """Drive the verdict edge's update of the looked-up key (``op`` one of OPS, or "" for
        none), apply it to the model, step past the edge."""
        d = self.dut
        assert op in OPS or op == ""
        assert op == "install" or op == "" or self.why == "hit", "touch and evict follow a hit (the engine's use)"
        d.now.value = self.k & TS_MASK
        d.l_start.value = 0
        d.clr.value = 0
        for o in OPS:
            getattr(d, o).value = int(op == o)
        d.i_val.value = val
        if op == "evict":
            self.model.evict(self.key)
        elif op == "touch":
            self.model.touch(self.key, self.k)
        elif op == "install":
            self.model.install(self.key, val, self.k)
        if op:
            self.stats[op] += 1
        self.history.append(f"{self.k - 3} key {self.key:#x} idx {self.model.index(self.key)} idle {self.idle} "
                            f"{self.why} {op or '-'}")
        await FallingEdge(d.clk)
        self.k += 1

    async def edge(self, key: int, op: str = "", val: int = 0) -> str:
        """One lookup and its update: four edges."""
        why = await self.look(key)
        await self.commit(op, val)
        return why

    async def wait(self, n: int) -> None:
        """``n`` edges with no lookup and no update, ``now`` still counting."""
        assert not self.clr and n >= 0
        for _ in range(n):
            await self._edge()
        assert self.clocked.cycle_at_falling() == self.k


@cocotb.test()
async def flowcache_random_vs_model(dut):
    """F8, F25, frame-path.md s3.1: random lookups on a small pool of keys (several per
    index, so flows collide as well as hit) with locality; on a hit touch, evict or nothing,
    on a miss install a random value or nothing; clr now and then and with every cfg_idle
    change (phases of 0, 1, small and large idle times); every 4th phase sweeps one key per
    index in order and fills the cache (cfg_idle 0 or the largest). Every lookup's l_hit and
    l_val equal the model's probe at its compare edge; status_valid within the flusher
    bound. Runs until every kind of event is seen enough times (a cap: error)."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    need = {"hit": 400, "empty": 100, "other": 100, "expired": 150, "touch": 200, "evict": 80, "install": 400,
            "clr": 40, "idle_change": 12, "full": 1}
    min_edges = 100_000 if soak() else 12_000
    cap = 20 * min_edges
    pool = b.pool(rng, 8)
    recent: deque[int] = deque(maxlen=4)
    left = phase = n = 0
    sweep = False
    sweep_keys: list[int] = []
    while b.k < min_edges or any(b.stats[c] < n for c, n in need.items()):
        if b.k >= cap:
            raise AssertionError(f"coverage not reached in {cap} edges: {dict(b.stats)}, need {need}")
        if left == 0:  # a phase: one cfg_idle, sometimes a new pool of keys
            phase += 1
            sweep = phase % 4 == 0
            if sweep:  # one key per index, in order, for over two rounds: the cache fills up
                left = 2 * b.entries + rng.randint(0, 50)
                b.set_idle(rng.choice([0, IDLE_MAX]))
                sweep_keys = [b.key_at(rng, i) for i in range(b.entries)]
            else:
                left = rng.randint(25, 400)
                b.set_idle(rng.choice(IDLES))
                if rng.random() < 0.4:
                    pool = b.pool(rng, rng.choice([2, 4, 8, 16, 64]))
                    recent.clear()
        left -= 1
        n += 1
        if sweep:
            key = sweep_keys[n % b.entries]
        else:
            if rng.random() < 0.01:
                b.clr = True
            if rng.random() < 0.02:
                key = rng.getrandbits(b.key_width)  # mostly a miss anywhere
            elif recent and rng.random() < 0.5:
                key = rng.choice(recent)
            else:
                key = rng.choice(pool)
        why = await b.look(key)
        if sweep:
            op = "touch" if why == "hit" else "install"
        elif why == "hit":
            op = rng.choices(["touch", "evict", ""], [6, 2, 2])[0]
        else:
            op = "install" if rng.random() < 0.6 else ""
        await b.commit(op, rng.getrandbits(b.val_width))
        if rng.random() < 0.1:
            await b.wait(rng.randint(1, 6))  # the engine idle between frames
        recent.append(key)
    dut._log.info("%d edges, %s", b.k, dict(sorted(b.stats.items())))


@cocotb.test()
async def flowcache_sequence(dut):
    """F8, F25: install then hit at the next lookup (the update at one verdict edge is seen
    by a lookup started at the next); a collision replaces the entry; a clr at a start edge
    empties the cache for that lookup; an evict; expiry exactly at idle (age idle-1 at the
    compare edge hits, age idle misses) and a touch restarting the count."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    e = b.entries
    i0, i1 = rng.sample(range(e), 2)
    a, a2, c = b.key_at(rng, i0), b.key_at(rng, i0), b.key_at(rng, i1)
    assert await b.edge(a, "install", 0x11) == "empty"
    assert await b.edge(c, "install", 0x22) == "empty"
    assert await b.edge(a) == "hit" and int(dut.l_val.value) == 0x11
    assert await b.edge(c) == "hit" and int(dut.l_val.value) == 0x22
    assert b.check_status() == 2
    assert await b.edge(a2, "install", 0x33) == "other"      # a's index: replaces a
    assert await b.edge(a2) == "hit" and int(dut.l_val.value) == 0x33
    assert await b.edge(a) == "other" and await b.edge(c) == "hit"
    b.clr = True
    assert await b.edge(a2) == "empty" and b.check_status() == 0
    assert await b.edge(a2, "install", 0x44) == "empty"
    assert await b.edge(a2, "evict") == "hit"
    assert await b.edge(a2) == "empty" and b.check_status() == 0
    # expiry at exactly idle edges after the last use (the age is taken at s+2)
    idle = 9
    b.set_idle(idle)
    assert await b.edge(a, "install", 0x55) == "empty"
    used = b.k - 1
    await b.wait(used + idle - 1 - 2 - b.k)
    assert await b.edge(a, "touch") == "hit"  # age idle-1 at the compare edge
    used = b.k - 1
    await b.wait(used + idle - 2 - b.k)
    assert await b.edge(a) == "expired"  # age idle
    await b.wait(e + 2)
    assert await b.edge(a) == "expired" and b.check_status() == 0
    # a lookup of an expired entry installs over it (the flusher's clear loses too)
    assert await b.edge(a, "install", 0x77) == "expired"
    assert await b.edge(a) == "hit" and int(dut.l_val.value) == 0x77
    dut._log.info("%d edges, %s", b.k, dict(sorted(b.stats.items())))


@cocotb.test()
async def flowcache_flusher_wrap(dut):
    """F8, the flusher: cfg_idle 12; a few entries installed and touched, then left alone for
    more than 2**16 edges, so now wraps. Looked up so that their 16-bit age (now - ts mod
    2**16) at the compare edge is 0, 4, 8 again, below cfg_idle: only a flusher that cleared
    them makes these misses; status_valid is 0. Then a new install after the wrap hits."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    idle = 12
    b.set_idle(idle)
    n = min(b.entries, 4)
    keys = [b.key_at(rng, idx) for idx in rng.sample(range(b.entries), n)]
    ts = []
    for i, key in enumerate(keys):  # key i: installed, touched (ts), hit
        assert await b.edge(key, "install", i) == "empty"
        assert await b.edge(key, "touch") == "hit"
        ts.append(b.k - 1)
        assert await b.edge(key) == "hit"
        assert b.check_status() >= 1
    # every entry has expired; within ENTRIES + 1 edges the flusher clears it
    await b.wait(ts[-1] + idle + b.entries + 1 - b.k)
    assert b.check_status() == 0
    aliased = 0
    for i, key in enumerate(keys):
        for age in (0, 4, 8):
            await b.wait(ts[i] + (1 << TS_BITS) + age - 2 - b.k)
            assert (b.k + 2 - ts[i]) & TS_MASK == age < idle
            assert await b.look(key) == "expired"  # the RTL: l_hit 0 (checked by look)
            assert b.check_status() == 0
            await b.commit()
            aliased += 1
    assert aliased == n * 3
    # after the wrap a new entry works as before
    assert await b.edge(keys[0], "install", 0x5A) == "expired"
    assert await b.edge(keys[0]) == "hit" and int(dut.l_val.value) == 0x5A
    assert b.check_status() == 1
    dut._log.info("%d edges, %d aliased lookups missed, %s", b.k, aliased, dict(sorted(b.stats.items())))
