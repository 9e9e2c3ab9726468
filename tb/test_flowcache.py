"""prionic_flowcache block test (F8): the direct-mapped exact-match flow cache.

Run through tests/test_flowcache.py (pytest, both simulators, several ENTRIES/KEY_WIDTH).
The reference is ``FlowCache`` of model/flowcache.py (docs/frame-path.md s3.1) with
``ts_shift`` 0: the testbench drives ``now`` = edge number mod 2**16 and gives the model
the unbounded edge number, so a lookup that saw an aliased 16-bit age would differ.
Inputs for edge k are driven at the falling edge before it (tb/common.py); l_hit and l_val
are combinational, read 1 ns later and compared with ``model.probe`` at every edge, then
the updates for edge k are driven. Updates at one edge follow the RTL header (later ones
win): clr, evict, touch, install, so an install at a clr edge survives it. Every cfg_idle
change comes with a clr at the same edge (the engine clears the cache on a FLOW_IDLE
write, and ignores the lookup at a clr edge: prionic_classifier gates l_hit with it). At
such an edge the flusher has run under the old cfg_idle, so a lookup may miss an entry
the new one calls fresh: there only a hit is checked (it must be the model's). The model
has no flusher, so status_valid is checked against the header's bound: an entry still
fresh at the last edge is valid, one expired for ENTRIES edges or more is gone (exact
while cfg_idle is 0).
"""

from __future__ import annotations

import random
from collections import Counter, deque

import cocotb
from cocotb.triggers import FallingEdge, Timer

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
        self.idle = 0            # cfg_idle at edge k
        self.idle_prev = 0       # cfg_idle at edge k-1
        self.clr = False         # clr at edge k
        self.key = 0             # l_key at edge k (set by look)
        self.why = ""            # the model's probe of it: "hit", "empty", "other", "expired"
        self.clr_install: tuple[int, int] | None = None  # (key, edge) of the last install at a clr edge
        self.stats: Counter[str] = Counter()
        self.history: deque[str] = deque(maxlen=12)  # the last edges, for failure messages

    async def start(self) -> None:
        d = self.dut
        for s in ("now", "cfg_idle", "clr", "l_key", "touch", "evict", "install", "i_val"):
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
        """A FLOW_IDLE write: cfg_idle ``idle`` and clr from edge k."""
        self.idle = idle
        self.clr = True
        self.stats["idle_change"] += 1

    def status_bounds(self) -> tuple[int, int]:
        """(least, most) valid entries after edge k-1, what status_valid shows before edge k.

        The model keeps expired entries (it has no flusher). Every entry in it was installed
        under the cfg_idle of edge k-1 (a change clears). Fresh at edge k-1: the flusher has
        not cleared it. Expired at edge x = used + idle: gone after edge x + ENTRIES - 1.
        """
        # each entry's last-use edge (ts_shift 0: units are edges)
        live = self.model.live()
        idle = self.idle_prev
        if idle == 0:
            return len(live), len(live)
        lo = sum(1 for e in live if self.k - 1 - e.used < idle)
        hi = sum(1 for e in live if self.k - (e.used + idle) < self.entries)
        return lo, hi

    def check_status(self) -> int:
        got = int(self.dut.status_valid.value)
        lo, hi = self.status_bounds()
        assert lo <= got <= hi, (
            f"edge {self.k}: status_valid {got}, expected {lo}..{hi} (cfg_idle {self.idle_prev} at edge "
            f"{self.k - 1}, {self.model.valid_entries()} entries in the model)"
        )
        self.stats["status_max"] = max(self.stats["status_max"], got)
        if got == self.entries:
            self.stats["full"] += 1
        return got

    async def look(self, key: int) -> str:
        """Drive l_key, now and cfg_idle for edge k; compare l_hit, l_val and status_valid
        with the model before the edge; returns the model's reason ("hit" or why it missed)."""
        d = self.dut
        d.now.value = self.k & TS_MASK
        d.cfg_idle.value = self.idle
        d.l_key.value = key
        await Timer(1, unit="ns")
        rule, why = self.model.probe(key, self.k, self.idle)
        hit = int(d.l_hit.value)
        ctx = (f"edge {self.k}: key {key:#x} (index {self.model.index(key)}) cfg_idle {self.idle}; "
               f"last edges: {'; '.join(self.history)}")
        if self.idle != self.idle_prev and not hit:
            # cfg_idle changed at this edge (with a clr, so the engine ignores this lookup):
            # the flusher cleared entries under the old cfg_idle that the new one may call
            # fresh; a hit must still be one of the model's
            self.stats["idle_edge_flushed" if rule is not None else "idle_edge_miss"] += 1
        else:
            assert hit == (rule is not None), f"{ctx}: l_hit {hit}, model {why}"
        if hit:
            val = int(d.l_val.value)
            assert val == rule, f"{ctx}: l_val {val:#x}, model {rule:#x}"
        self.check_status()
        self.stats[why] += 1
        if why == "hit" and self.clr_install == (key, self.k - 1):
            self.stats["clr_install_hit"] += 1  # the install won over the clr of its edge
        self.key, self.why = key, why
        return why

    async def commit(self, op: str = "", val: int = 0) -> None:
        """Drive edge k's update of the looked-up key (``op`` one of OPS, or "" for none) and
        clr when pending, apply them to the model in the RTL's order, step past the edge."""
        d = self.dut
        assert op in OPS or op == ""
        assert op == "install" or op == "" or self.why == "hit", "touch and evict follow a hit (the engine's use)"
        d.clr.value = int(self.clr)
        for o in OPS:
            getattr(d, o).value = int(op == o)
        d.i_val.value = val
        if self.clr:
            self.model.clear()
            self.stats["clr"] += 1
        if op == "evict":
            self.model.evict(self.key)
        elif op == "touch" and not self.clr:
            # at a clr edge the RTL rewrites the cleared entry's time stamp: invisible
            self.model.touch(self.key, self.k)
        elif op == "install":
            self.model.install(self.key, val, self.k)
        if op:
            self.stats[op] += 1
            if self.clr:
                self.stats[f"clr_{op}"] += 1
                if op == "install":
                    self.clr_install = (self.key, self.k)
        self.history.append(f"{self.k} key {self.key:#x} idx {self.model.index(self.key)} idle {self.idle} "
                            f"{self.why} {op or '-'}{' clr' if self.clr else ''}")
        await FallingEdge(d.clk)
        self.k += 1
        self.idle_prev = self.idle
        self.clr = False

    async def edge(self, key: int, op: str = "", val: int = 0) -> str:
        why = await self.look(key)
        await self.commit(op, val)
        return why

    async def wait(self, n: int) -> None:
        """``n`` edges with no update and no check, ``now`` still counting (one write a cycle)."""
        assert not self.clr
        d = self.dut
        for o in OPS + ("clr",):
            getattr(d, o).value = 0
        for _ in range(n):
            d.now.value = self.k & TS_MASK
            await FallingEdge(d.clk)
            self.k += 1
        self.idle_prev = self.idle
        assert self.clocked.cycle_at_falling() == self.k


@cocotb.test()
async def flowcache_random_vs_model(dut):
    """F8, frame-path.md s3.1: random lookups on a small pool of keys (several per index, so
    flows collide as well as hit) with locality; on a hit touch, evict or nothing, on a miss
    install a random value or nothing; clr now and then and with every cfg_idle change
    (phases of 0, 1, small and large idle times), an install at a clr edge looked up at the
    next; every 4th phase sweeps one key per index in order and fills the cache (cfg_idle
    0 or the largest). l_hit, l_val every edge equal the model's probe; status_valid within
    the flusher bound. Runs until every kind of event is seen enough times (a cap: error)."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    need = {"hit": 400, "empty": 100, "other": 100, "expired": 150, "touch": 200, "evict": 80, "install": 400,
            "clr": 40, "idle_change": 12, "clr_install": 10, "clr_install_hit": 5, "clr_touch": 2, "clr_evict": 1,
            "full": 1}
    min_edges = 100_000 if soak() else 12_000
    cap = 20 * min_edges
    pool = b.pool(rng, 8)
    recent: deque[int] = deque(maxlen=4)
    left = phase = 0
    sweep = False
    sweep_keys: list[int] = []
    follow: int | None = None  # a key to look up at the next edge
    while b.k < min_edges or any(b.stats[c] < n for c, n in need.items()):
        if b.k >= cap:
            raise AssertionError(f"coverage not reached in {cap} edges: {dict(b.stats)}, need {need}")
        if left == 0:  # a phase: one cfg_idle, sometimes a new pool of keys
            phase += 1
            sweep = phase % 4 == 0
            if sweep:  # one key per index, in order, for over two rounds: the cache fills up
                left = 2 * b.entries + rng.randint(0, 200)
                b.set_idle(rng.choice([0, IDLE_MAX]))
                sweep_keys = [b.key_at(rng, i) for i in range(b.entries)]
            else:
                left = rng.randint(100, 1500)
                b.set_idle(rng.choice(IDLES))
                if rng.random() < 0.4:
                    pool = b.pool(rng, rng.choice([2, 4, 8, 16, 64]))
                    recent.clear()
        left -= 1
        if sweep:
            key = sweep_keys[b.k % b.entries]
        else:
            if rng.random() < 0.005:
                b.clr = True
            if follow is not None:
                key = follow
            elif rng.random() < 0.02:
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
            op = "install" if rng.random() < (0.9 if b.clr else 0.6) else ""
        follow = key if b.clr and op == "install" else None
        await b.commit(op, rng.getrandbits(b.val_width))
        recent.append(key)
    dut._log.info("%d edges, %s", b.k, dict(sorted(b.stats.items())))


@cocotb.test()
async def flowcache_same_edge(dut):
    """F8, the RTL header's update order at one edge (later wins: clr, evict, touch, install):
    install at a clr edge survives it, alone; touch and evict at a clr edge leave nothing;
    expiry exactly at idle (age idle-1 hits, age idle misses) and a touch restarting it."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    e = b.entries
    i0, i1 = rng.sample(range(e), 2)
    a, a2, c = b.key_at(rng, i0), b.key_at(rng, i0), b.key_at(rng, i1)
    assert await b.edge(a, "install", 0x11) == "empty"
    assert await b.edge(c, "install", 0x22) == "empty"
    assert await b.edge(a) == "hit" and await b.edge(c) == "hit"
    assert b.check_status() == 2
    # clr + install of a2 (a's index): only a2 is left
    b.clr = True
    assert await b.edge(a2, "install", 0x33) == "other"
    assert b.check_status() == 1
    assert await b.edge(a2) == "hit" and int(dut.l_val.value) == 0x33
    assert await b.edge(a) == "other" and await b.edge(c) == "empty"
    # clr + touch of a hit, clr + evict of a hit: gone
    b.clr = True
    assert await b.edge(a2, "touch") == "hit"
    assert await b.edge(a2, "install", 0x44) == "empty"
    b.clr = True
    assert await b.edge(a2, "evict") == "hit"
    assert await b.edge(a2) == "empty" and b.check_status() == 0
    # expiry at exactly idle edges after the last use; a touch restarts the count
    idle = 5
    b.set_idle(idle)
    assert await b.edge(a, "install", 0x55) == "empty"  # at the clr edge: survives
    t = b.k - 1
    while b.k < t + idle - 1:
        assert await b.edge(c, "install" if b.k == t + 1 else "", 0x66) in ("empty", "hit")
    assert await b.edge(a, "touch") == "hit"  # age idle-1
    t = b.k - 1
    while b.k < t + idle:
        await b.edge(c)
    assert await b.edge(a) == "expired"  # age idle
    await b.wait(e + 2)
    b.check_status()
    assert await b.edge(a) == "expired" and await b.edge(c) == "expired"
    assert b.check_status() == 0
    # a lookup of an expired entry installs over it (the flusher's clear loses too)
    assert await b.edge(a, "install", 0x77) == "expired"
    assert await b.edge(a) == "hit" and int(dut.l_val.value) == 0x77
    dut._log.info("%d edges, %s", b.k, dict(sorted(b.stats.items())))


@cocotb.test()
async def flowcache_flusher_wrap(dut):
    """F8, the flusher: cfg_idle 3; a few entries installed and touched, then left alone for
    more than 2**16 edges, so now wraps. Looked up at the three edges at which their 16-bit
    age (now - ts mod 2**16) is 0, 1, 2 again, below cfg_idle: only a flusher that cleared
    them makes these misses; status_valid is 0. Then a new install after the wrap hits."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    idle = 3
    b.set_idle(idle)
    n = min(b.entries, 4)
    keys = [b.key_at(rng, idx) for idx in rng.sample(range(b.entries), n)]
    ts = []
    for i, key in enumerate(keys):  # key i: installed at 3i, touched at 3i+1 (ts), hit at 3i+2
        assert await b.edge(key, "install", i) == "empty"
        assert await b.edge(key, "touch") == "hit"
        ts.append(b.k - 1)
        assert await b.edge(key) == "hit"
        assert b.check_status() >= 1
    # every entry has expired; within ENTRIES edges the flusher clears it
    while b.k < ts[-1] + idle + b.entries:
        await b.edge(keys[b.k % n])
    assert b.check_status() == 0
    await b.wait(ts[0] + (1 << TS_BITS) - b.k)
    aliased = 0
    for i, key in enumerate(keys):
        for age in range(idle):
            assert b.k == ts[i] + (1 << TS_BITS) + age
            assert (b.k - ts[i]) & TS_MASK == age < idle
            assert await b.look(key) == "expired"  # the RTL: l_hit 0 (checked by look)
            assert b.check_status() == 0
            await b.commit()
            aliased += 1
    assert aliased == n * idle
    # after the wrap a new entry works as before
    assert await b.edge(keys[0], "install", 0x5A) == "expired"
    assert await b.edge(keys[0]) == "hit" and int(dut.l_val.value) == 0x5A
    assert b.check_status() == 1
    dut._log.info("%d edges, %d aliased lookups missed, %s", b.k, aliased, dict(sorted(b.stats.items())))
