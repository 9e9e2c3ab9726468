"""The harness of prionic_classifier's block test (tb/blocks/classifier/cocotb_classifier.py): random rule tables
and parse results, the DUT driven edge by edge and held against the model's
``ClassifyEngine`` at every edge, with the coverage the test runs until (``Bench``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from cocotb.triggers import FallingEdge

from model import regmap
from model.classifier import ClassifyEngine, EngineConfig, EngineFrame, TableView
from model.flowcache import TCP_FIN, TCP_RST, flow_index, flow_key
from tb.blocks.classifier.stim import (
    CLASSIFIER_CODES,
    S_FIELDS,
    S_WIDTHS,
    TCP_ACK,
    Cfg,
    F,
    Rec,
    expected_verdict,
    flow_pool,
    random_parse,
    random_rule,
    rec_of,
    tcp_flags,
)
from tb.common import Clocked, make_rng, param, soak


class Bench:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.nr = param("NUM_RULES", 4)
        self.nq = param("NUM_QUEUES", 2)
        self.rpc = param("RULES_PER_CYCLE", 0)
        self.entries = param("FLOW_ENTRIES", 0)
        self.shift = param("FLOW_TS_SHIFT", 14)
        self.depth = 1 << param("QUEUE_ADDR_WIDTH", 3)
        self.rng = make_rng(dut)
        self.engine = ClassifyEngine(EngineConfig(self.nr, self.rpc, self.entries, self.shift))
        self.S = self.engine.S
        self.clocked = Clocked(dut)
        self.s_handles = [getattr(dut, n) for n in S_FIELDS]
        self.cov: Counter[str] = Counter()
        self.n = 20 if soak() else 3              # times each coverage item is to be seen
        self.pool = flow_pool(self.rng, 6)
        # idle times (units of 2**shift cycles) of some tens to a thousand cycles; 0: never
        self.idles = [0, 0] + sorted({max(1, c >> self.shift) for c in (30, 120, 400, 1500)})
        # edge numbering: now_ts at edge k (k = 0 first out of reset) is base + k. A free-running
        # TIMESTAMP has any value when traffic starts; sometimes the run crosses its 32-bit wrap,
        # and with long time units a unit boundary comes 1500 to 3000 edges into the run (an
        # expiry episode waits for it, see run()).
        unit = 1 << self.shift
        top = (1 << 32) if self.rng.random() < 0.3 else self.rng.randrange(1 << 20, 1 << 31)
        self.base = top - top % unit - self.rng.randint(1500, 3000) if unit >= 4096 else top - self.rng.randint(0, 5000)
        self.long_units = unit >= 4096
        self.cfg = Cfg([random_rule(self.rng, self.nq) for _ in range(self.nr)], self.random_default(),
                       self.random_frag(), True, self.rng.choice(self.idles))
        self.index_bits = max(self.entries, 1).bit_length() - 1
        self.installed: dict[int, int] = {}       # cache index -> unit of its entry's install
        self.last_use: tuple[int, int] | None = None   # (edge, pool flow) of the last install or touch
        # pool flows with distinct cache indices (one per index): they never evict each other
        by_index = {flow_index(flow_key(p), self.index_bits): i for i, p in enumerate(self.pool)}
        self.pool_apart = sorted(by_index.values())

    # ------------------------------------------------------------------ driving
    def drive_cfg(self) -> None:
        d, c = self.dut, self.cfg
        rs = c.rules
        d.cfg_rule_ctrl.value = sum(r.ctrl << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_dport.value = sum(r.dport << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_sport.value = sum(r.sport << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_ethertype.value = sum(r.ethertype << 16 * i for i, r in enumerate(rs))
        d.cfg_rule_src_ip.value = sum(r.src_ip << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_src_mask.value = sum(r.src_mask << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_dst_ip.value = sum(r.dst_ip << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_dst_mask.value = sum(r.dst_mask << 32 * i for i, r in enumerate(rs))
        d.cfg_rule_vlan.value = sum(r.vlan << 16 * i for i, r in enumerate(rs))
        d.cfg_default_action.value = c.default
        d.cfg_frag_action.value = c.frag
        d.cfg_flow_enable.value = int(c.flow_enable)
        d.cfg_flow_idle.value = c.flow_idle

    def drive_s(self, values) -> None:
        for h, v in zip(self.s_handles, values, strict=True):
            h.value = v

    def random_default(self) -> int:
        return self.rng.choice([0, 1 | self.rng.randint(0, self.nq) << F["DEFAULT_ACTION_QUEUE_LSB"]])

    def random_frag(self) -> int:
        return self.rng.choice([0, 1 | self.rng.randint(0, self.nq) << F["FRAG_ACTION_QUEUE_LSB"]])

    def random_change(self) -> None:
        """A register write: one or more of table, default, fragment action, cache control."""
        rng, c = self.rng, self.cfg
        r = rng.random()
        if r < 0.35:
            c.rules = [random_rule(rng, self.nq) for _ in range(self.nr)]
        elif r < 0.45:
            i = rng.randrange(self.nr)
            c.rules = c.rules[:i] + [random_rule(rng, self.nq)] + c.rules[i + 1:]
        elif r < 0.6:
            c.default = self.random_default()
        elif r < 0.7:
            c.frag = self.random_frag()
        elif r < 0.8:
            # the cache is mostly on: off now and then, back on at the next such write
            c.flow_enable = not c.flow_enable or rng.random() < 0.6
        elif r < 0.95:
            c.flow_idle = rng.choice(self.idles)
        # else: a write of an unchanged value, which clears all the same

    def new_frame(self, flow: int | None = None) -> Rec:
        """A parse result: a pool flow or a fresh one (random drops and TCP flags); with
        ``flow`` given, that pool flow, classifiable, with TCP ACK only (expiry episodes)."""
        rng = self.rng
        p, bad, oversize = random_parse(rng)
        if flow is not None:
            p = dataclasses.replace(self.pool[flow], length=p.length)
            p = dataclasses.replace(p, tcp_flags=TCP_ACK if p.ports_valid and p.proto == 6 else 0)
            bad = oversize = False
        else:
            flow = -1
            if rng.random() < 0.65:
                flow = rng.randrange(len(self.pool))
                p = dataclasses.replace(self.pool[flow], length=p.length)
            elif self.cov["FRAGMENT"] < self.n and rng.random() < 0.1 and not p.malformed:
                # fragments are rare in random_parse: more of them until FRAGMENT is seen
                v6 = p.is_ipv6
                p = dataclasses.replace(p, is_ipv4=not v6, is_ipv6=v6, ethertype=0x86DD if v6 else 0x0800,
                                        ports_valid=False, frag=True)
            p = dataclasses.replace(p, tcp_flags=tcp_flags(rng, p))
        info = p.info | rng.getrandbits(8) << 32   # status flags [39:32], passed through
        return Rec(p, bad, oversize, rng.getrandbits(16), rng.getrandbits(32), info, flow)

    def verdict_change(self, missing: list[str]) -> bool:
        """A register write that makes each missing verdict code reachable; False: none missing."""
        c, nq = self.cfg, self.nq
        q = F["DEFAULT_ACTION_QUEUE_LSB"]
        todo = [v for v in ("FRAGMENT", "UNREGISTERED", "RULE_DROP", "ACCEPT") if v in missing]
        if not todo:
            return False
        v = self.rng.choice(todo)
        if v == "FRAGMENT":
            c.frag = 0
        elif v == "UNREGISTERED":
            c.default = 0
            c.rules = [dataclasses.replace(r, ctrl=r.ctrl & ~(1 << F["RULE_CTRL_ENABLE"])) if i % 2 else r
                       for i, r in enumerate(c.rules)]
        elif v == "RULE_DROP":
            c.default = 1 | nq << q       # a default queue beyond NUM_QUEUES drops
        else:
            c.default = 1 | self.rng.randrange(nq) << q
        return True

    # ------------------------------------------------------------------ checking
    def check(self, k: int, exp: EngineFrame | None, hit: bool, miss: bool, pending: int) -> None:
        """Outputs at the falling edge before edge k: registered at edge k - 1."""
        d = self.dut
        got = (int(d.m_valid.value), int(d.stat_flow_hit.value), int(d.stat_flow_miss.value),
               int(d.status_pending.value))
        want = (int(exp is not None), int(hit), int(miss), pending)
        where = f"edge {k - 1} (now_ts {(self.base + k - 1) & 0xFFFFFFFF:#x})"
        assert got == want, f"{where}: (m_valid, stat_flow_hit, stat_flow_miss, status_pending) DUT {got} model {want}"
        if exp is None:
            return
        rec = rec_of(exp)
        code, queue, rule = expected_verdict(exp, self.nq)
        want_o = (code, queue, rule, rec.p.length, rec.words, rec.ts, rec.info)
        got_o = (int(d.m_code.value), int(d.m_queue.value), int(d.m_rule.value), int(d.m_len.value),
                 int(d.m_words.value), int(d.m_ts.value), int(d.m_info.value))
        assert got_o == want_o, (
            f"{where}: (code, queue, rule, len, words, ts, info) DUT {got_o} model {want_o}; frame {rec}, "
            f"flow {exp.flow!r} why {exp.why!r}, S={self.S}")
        self.cov[regmap.VERDICT_NAMES[code]] += 1

    # ------------------------------------------------------------------ coverage
    def required(self) -> dict[str, int]:
        """Coverage items this build can produce, each to be seen n times."""
        n = self.n
        req = dict.fromkeys(CLASSIFIER_CODES, n)
        if self.entries:
            req.update(dict.fromkeys(("hit", "miss", "evict", "why_syn", "why_expired", "expired_at_idle",
                                      "hit_last_unit"), n))
            if not self.long_units:
                req["refresh"] = n        # a unit lasts 2**14 cycles and more: out of reach
            req["late_enable"] = n
        req.update({"restart": n, "queued2": n})
        return req

    def missing(self, req: dict[str, int]) -> list[str]:
        return [k for k, n in req.items() if self.cov[k] < n]

    def probe_age(self, f: EngineFrame, m: int) -> tuple[int | None, int | None]:
        """At edge m, for a frame the engine is about to look up (nothing changes the cache
        in between but the flusher, which the model has not): (units since the
        entry's last use, units since its install), None when its key has no entry."""
        cache = self.engine.cache
        assert cache is not None
        key = flow_key(f.parsed)
        idx = cache.index(key)
        e = cache.slot(idx)  # read only, for coverage
        if e is None or e.key != key:
            return None, None
        inst = self.installed.get(idx)
        return (m >> self.shift) - e.used, None if inst is None else (m >> self.shift) - inst

    def observe(self, m: int, taken: EngineFrame | None, ages: tuple[int | None, int | None],
                exp: EngineFrame | None) -> None:
        """Coverage of model step m: ``taken`` the frame taken at m (if any), with its entry's
        ages at its compare edge m + 2; ``exp`` the frame whose verdict was registered at m
        (a hit's refresh or evict, a miss's install happen there)."""
        idle = self.cfg.flow_idle
        if taken is not None and taken.flow:
            self.cov[taken.flow] += 1
            self.cov["why_" + taken.why] += 1
            used, inst = ages
            if taken.why == "hit":
                if idle and used is not None and used == idle - 1:
                    self.cov["hit_last_unit"] += 1        # the entry's last unit before it expires
                if idle and inst is not None and inst >= idle:
                    self.cov["refresh"] += 1              # alive only because hits refreshed it
            elif taken.why == "expired" and used == idle:
                self.cov["expired_at_idle"] += 1          # the first unit at which it has expired
        if exp is not None and not exp.skip and self.cache_on:
            flags = exp.parsed.tcp_flags
            if exp.flow == "hit":
                if exp.evicted:
                    self.cov["evict"] += 1
                else:
                    self.last_use = (m, rec_of(exp).flow)  # refreshed at m
            elif exp.flow == "miss" and not flags & (TCP_FIN | TCP_RST):
                # installed at m (the model's _finish)
                self.installed[flow_index(flow_key(exp.parsed), self.index_bits)] = m >> self.shift
                self.last_use = (m, rec_of(exp).flow)
            elif not exp.flow and self.entries:
                self.cov["late_enable"] += 1              # taken with the cache off, done with it on

    @property
    def cache_on(self) -> bool:
        return bool(self.entries) and self.cfg.flow_enable

    # ------------------------------------------------------------------ run
    async def run(self) -> None:
        d, rng, eng = self.dut, self.rng, self.engine
        d.s_valid.value = 0
        self.drive_s((0,) * len(S_FIELDS))
        d.cfg_table_clr.value = 0
        d.now_ts.value = self.base & 0xFFFFFFFF
        self.drive_cfg()
        await self.clocked.start()
        req = self.required()
        min_cycles = 100000 if soak() else 10000
        cap = 200000 if soak() else 40000
        unit = 1 << self.shift
        exp: EngineFrame | None = None   # expected outputs of the last edge (none before edge 0)
        hit = miss = False
        rate, mode_left = 0.3, 0
        clr_prev = s_prev = False
        rec: Rec | None
        # expiry episodes (F8): idle of some 24 S + 40 cycles, at least one unit
        ep_idle = max(1, (24 * self.S + 40) >> self.shift)
        ep, kind, ep_until = "off", "", 0
        ep_todo: list[int] = []
        k = 0
        while True:
            m = self.base + k
            pending = len(eng.queue)
            # status_pending seen before edge k counts the frames pushed at edges < k whose
            # verdict is not registered at an edge < k: the model queue after step(k - 1). A
            # frame taken and classified at its arrival edge bypasses the FIFO (never counted);
            # one whose scan starts there is written and counts until its verdict edge.
            self.check(k, exp, hit, miss, pending)
            if pending >= 2:
                self.cov["queued2"] += 1
            miss_list = self.missing(req)
            if not miss_list and k >= min_cycles:
                break
            assert k < cap, f"coverage not closed in {cap} cycles: missing {miss_list}; seen {dict(self.cov)}"

            # ---- cache episode (F8, by construction): with the cache on and idle = ep_idle,
            # look every pool flow up ("fill"), let the engine drain, then
            #   expire:  stay silent until the last-used entry's first expired unit, look the
            #            pool up again, that flow first (expiry at age == idle, and others)
            #   fresh:   the same one unit earlier (a hit in the entry's last unit)
            #   refresh: keep looking the pool up for idle + 1 units (hits refresh entries
            #            that would have expired since their install)
            # with no other register write meanwhile. Long units: "expire" starts 1000 edges
            # before a unit boundary.
            if ep == "off" and self.entries and k >= 200:
                kinds = [kd for kd, cov in (("expire", "expired_at_idle"), ("expire", "why_expired"),
                                            ("fresh", "hit_last_unit"), ("refresh", "refresh"))
                         if cov in miss_list]
                if self.long_units and "expire" in kinds and unit - m % unit > 1000:
                    kinds = [kd for kd in kinds if kd != "expire"]
                if kinds and rng.random() < (1.0 if "expire" in kinds and self.long_units else 1 / 300):
                    kind = rng.choice(kinds)
                    fill = self.pool_apart if kind == "refresh" else range(len(self.pool))
                    ep, ep_todo = "fill", rng.sample(fill, len(fill))
                    self.last_use = None
                    self.cov["episode_" + kind] += 1

            # ---- configuration: a register write at k - 1, seen with cfg_table_clr at edge k
            clr = False
            c = self.cfg
            if ep == "fill" and not (c.flow_enable and c.flow_idle == ep_idle):
                c.flow_enable, c.flow_idle = True, ep_idle
                clr = True
            elif ep == "off":
                p_cfg = 1 / 150
                if eng.busy and self.cov["restart"] < req.get("restart", 0):
                    p_cfg = 1 / 20       # restarts: table writes during lookups
                if "late_enable" in miss_list and eng.busy and not c.flow_enable and not eng.queue[0].flow:
                    c.flow_enable = True     # the cache goes on during a scan started with it off
                    clr = True
                elif "late_enable" in miss_list and c.flow_enable and k % 700 == 350:
                    c.flow_enable = False
                    clr = True
                elif k % 500 == 499 and self.verdict_change(miss_list):
                    clr = True
                elif rng.random() < p_cfg:
                    self.random_change()
                    clr = True
            if clr:
                self.drive_cfg()
            if clr != clr_prev:
                d.cfg_table_clr.value = int(clr)
                clr_prev = clr
            d.now_ts.value = m & 0xFFFFFFFF

            # ---- parse result at edge k
            if mode_left == 0:
                rate, mode_left = rng.choice([1.0, 1.0, 0.6, 0.3, 0.1, 0.02]), rng.randint(10, 200)
            mode_left -= 1
            # the top's throttle: status_pending + in flight < depth - 1 (nothing is in flight
            # here: every earlier result already shows in status_pending)
            room = pending < self.depth - 1
            if ep == "off":
                present = room and rng.random() < rate
                rec = self.new_frame() if present else None
            else:
                present = room and ep in ("fill", "probe", "keep")
                if present and not ep_todo:     # keep: the flows that do not evict each other
                    ep_todo = rng.sample(self.pool_apart, len(self.pool_apart))
                rec = self.new_frame(ep_todo.pop()) if present else None
            if rec is not None:
                self.drive_s(rec.values())
                p = rec.p
                eng.push(EngineFrame(p, m, rec.bad or rec.oversize or p.malformed or p.frag, rec))
            elif s_prev and rng.random() < 0.2:
                # s_valid low: the fields are junk that must not matter
                self.drive_s(tuple(rng.getrandbits(w) for w in S_WIDTHS))
            if present != s_prev:
                d.s_valid.value = int(present)
                s_prev = present
            if ep == "fill" and not ep_todo:
                ep = "drain"
            elif ep == "drain" and not eng.queue:
                if kind == "refresh":
                    ep, ep_until = "keep", ((m >> self.shift) + ep_idle + 1) << self.shift
                elif self.last_use is None:
                    ep = "off"            # nothing installed (a write of the cache control intervened)
                else:
                    # the last-used entry expires at unit(last use) + idle; the probe's age is
                    # taken 2 edges after the take
                    last, flow = self.last_use
                    ep = "wait"
                    ep_until = (((last >> self.shift) + ep_idle - (kind == "fresh")) << self.shift) - 2
                    ep_todo = [i for i in rng.sample(range(len(self.pool)), len(self.pool)) if i != flow] + [flow]
            elif ep == "wait" and m + 1 >= ep_until:
                ep = "probe"
            elif (ep == "probe" and not ep_todo) or (ep == "keep" and m + 1 >= ep_until):
                ep, ep_todo = "off", []

            # ---- the model's edge k
            if clr and eng.busy:
                self.cov["restart"] += 1
            taken = eng.queue[0] if eng.queue and not eng.busy else None
            ages: tuple[int | None, int | None] = (None, None)
            if taken is not None and not taken.skip and self.cache_on and not clr:
                ages = self.probe_age(taken, m + 2)   # the age is taken at the compare edge
            if clr:
                self.installed.clear()
            h0, m0 = eng.hits, eng.misses

            def view(e: int, m: int = m) -> TableView:
                assert e == m, f"view({e}) asked at edge {m}"
                return self.cfg.view()

            exp = eng.step(m, clr, view)
            hit, miss = eng.hits != h0, eng.misses != m0
            self.observe(m, taken, ages, exp)
            await FallingEdge(d.clk)
            k += 1
        d._log.info("%d cycles (S=%d, now_ts from %#x), %d frames classified; coverage %s", k, self.S,
                    self.base & 0xFFFFFFFF, sum(self.cov[c] for c in CLASSIFIER_CODES),
                    dict(sorted(self.cov.items())))
