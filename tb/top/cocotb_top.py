"""Top-level tests of prionic_rx: random traffic against the golden model (F17, F19).

Run through tests/test_top.py (pytest, both simulators). Every test prints its seed.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace

import pyuvm
from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB

from model import flowtable as ft
from model import regmap
from model.classifier import LOOKUP_LATENCY
from model.moderation import Moderation, ModerationConfig
from model.nic import PrionicModel
from model.parser import PARSE_LATENCY
from tb.common import amount, param, soak
from tb.top.env import NicTest, ScheduledSeq, TrafficSeq, port_range, rule_ctrl
from tb.top.flows import flow_key
from tb.top.frames import Flow, arp, fragment, parser_frame
from tb.top.hostmem import QueueSetup
from tb.top.procedure import Knobs
from tb.top.scoreboard import compare
from tb.top.traffic import TCP, UDP, mixed_traffic


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class RandomTrafficTest(NicTest):
    """F1, F3, F5, F6, F8, F12, F13, F14, F15, F17: random frames (PRIONIC_FRAMES) over two registered
    flows, an unregistered flood, a blocked port, ARP and bad input, random moderation
    settings rewritten while running, host returning buffers at random times (rings run
    full). Every verdict, completion, buffer byte, interrupt cycle and counter is checked
    against the model. PRIONIC_MEM=unhelpful makes the host memory a legal but unhelpful
    AXI4 slave (F25, tb/top/axi_mem.py): AWREADY only after the burst's first W beat, random
    stall runs on every channel, B and R answered out of order across IDs (checked: at least
    5 Bs, and 3% of them, overtake an older one; a run typically sees 10-23%).
    PRIONIC_FAULTS=p (F24): a burst gets an error response with chance p (half as often no
    response at all or one after DMA_TIMEOUT 3000, a quarter as often a B with the other
    kind's ID: STRAY_B); the host recovers every stopped queue and resets single queues at
    random (docs/faults.md)."""

    def knobs(self, rng: random.Random) -> Knobs:
        n = int(os.environ.get("PRIONIC_FRAMES", "2000"))
        k = mixed_traffic(rng, self.cfg.num_queues, 10 * n if soak() else n)
        mem = os.environ.get("PRIONIC_MEM", "helpful")
        if mem not in ("helpful", "unhelpful"):
            raise ValueError(f"PRIONIC_MEM must be helpful or unhelpful, not {mem!r}")
        if mem == "unhelpful":
            k.mem_stall, k.aw_waits_for_w, k.reorder = 0.2, True, True
        rate = float(os.environ.get("PRIONIC_FAULTS", "0"))
        if rate:  # F24: error responses and lost responses at random, recoveries and queue resets
            k.fault_rate = rate
            k.extra_writes.append(("DMA_TIMEOUT", 0, 3000))
        return k

    def check_phase(self) -> None:
        super().check_phase()
        ro = self.env.host.reorder
        if ro is not None:  # coverage: the memory did reorder (F24, F25: legal but unhelpful)
            self.logger.info("reordered across IDs: B %d of %d, R %d of %d", ro.reordered["b"], ro.count["b"],
                             ro.reordered["r"], ro.count["r"])
            # a floor that shows the memory reorders, far below what a run sees (10-23% of the
            # Bs in runs of 200-1,600): the share moves with the traffic, the floor must not
            assert ro.reordered["b"] >= max(5, 0.03 * ro.count["b"]), f"too few B reordered: {ro.reordered}, {ro.count}"


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class HeadOfLineTest(NicTest):
    """F11, F12: bulk traffic on queue 0 keeps the DMA busy (queue 0's on-chip buffer runs
    full: QBUF_FULL), then the host stops returning queue 0's buffers (RING_FULL). Every
    frame of the top queue still reaches host memory and interrupts, its latency bounded as
    while queue 0 was served (the same worst case: at most one bulk frame's beats more)."""

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        k = Knobs(
            frames=int(os.environ.get("PRIONIC_FRAMES", "200")),   # per phase
            flows=[(1, Flow("ctrl", "udp", 5000, payload=(18, 64))),
                   (3, Flow("bulk", "tcp", 8042, payload=(600, 1400)))],
            setups=[QueueSetup(ring_size=16, buf_size=2048, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000)),
                   (rule_ctrl(queue=0, proto=TCP, dport=True), port_range(8000, 8100))],
            tick_div=1, chaos=False, gap=(0, 40), burst=0.5, return_delay=(0, 200))
        return k

    async def traffic(self) -> None:
        host = self.env.host.driver
        await TrafficSeq("served").start(self.env.seqr)
        self.phase_b = len(self.env.driver.sent)
        host.stalled.add(0)
        await TrafficSeq("stalled").start(self.env.seqr)

    def check_phase(self) -> None:
        super().check_phase()
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        top = self.cfg.num_queues - 1
        cpl = [c for c, q, _s in run.observed.completions if q == top]
        frames = model.expected_completions(top)
        lat = {"served": [], "stalled": []}
        for o, c in zip(frames, cpl, strict=True):
            lat["served" if o.index < self.phase_b else "stalled"].append(c - o.t_last)
        high_sent_b = [o for o in model.outcomes if o.index >= self.phase_b and
                       run.frames[o.index].flow == "ctrl"]
        low_b = [o for o in model.outcomes if o.index >= self.phase_b and run.frames[o.index].flow == "bulk"]
        self.logger.info("tlast -> completion of the top queue, cycles: served max %d, stalled max %d",
                         max(lat["served"]), max(lat["stalled"]))
        assert all(o.verdict == regmap.VERDICTS["ACCEPT"] for o in high_sent_b), "a control frame was lost"
        assert any(o.verdict == regmap.VERDICTS["RING_FULL"] for o in low_b), "queue 0 never ran full"
        # Both phases share one worst case (the control frame's words queue behind a bulk
        # frame in the shared FIFO, then the DMA finishes another bulk frame), which the
        # served phase's random sample may miss by a few cycles: allow one more maximal
        # bulk frame of beats. Head-of-line blocking by the stalled queue would be
        # unbounded (frames wait for queue 0's buffers), far beyond this.
        kw = self.cfg.data_width // 8
        slack = max(-(-len(run.frames[o.index].data) // kw) for o in low_b)
        assert max(lat["stalled"]) <= max(lat["served"]) + slack, (lat, slack)


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class LatencyTest(NicTest):
    """F11, F12, F14: an idle NIC, immediate mode, host memory answering at once: how the
    latency from tlast of a minimum-size high-priority frame to its interrupt splits.
    Checks the spec'd parts (verdict at T+12, stat_irq at C+2) and logs the rest."""

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        return Knobs(
            frames=20, flows=[(1, Flow("ctrl", "udp", 5000, payload=(18, 18)))],
            setups=[QueueSetup(ring_size=32, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000))],
            tick_div=1, chaos=False, gap=(600, 600), burst=0.0, return_delay=(0, 10))

    def check_phase(self) -> None:
        super().check_phase()
        run = self.run_record
        assert run is not None
        obs = run.observed
        cpl = {s: c for c, _q, s in obs.completions}
        fires = [c for c, _q in obs.fires]
        rows = []
        for i, (t, v) in enumerate(zip(obs.frames_t, obs.verdicts, strict=True)):
            spec = t + PARSE_LATENCY + 1 + LOOKUP_LATENCY + 2   # taken at T+7, classified 3 later, pulse at a+1
            assert v[0] == spec, f"frame {i}: verdict at {v[0]}, spec T+12 = {spec}"
            data_aw = min(b.cycle for b in obs.bursts if b.cycle > v[0])
            wb = [b for b in obs.bursts if b.cycle > v[0] and b.b_cycle in cpl.values()][0]
            c = wb.b_cycle
            fire = min(f for f in fires if f > c)
            assert fire == c + 2, f"frame {i}: stat_irq at {fire}, spec C+2 = {c + 2}"
            rows.append((t, v[0] - t, data_aw - v[0], wb.cycle - data_aw, c - wb.cycle, fire - c, fire - t))
        worst = max(rows, key=lambda r: r[-1])
        self.logger.info(
            "tlast -> irq %d cycles: verdict +%d, first data AW +%d (descriptor read), write-back AW +%d "
            "(data and its B), completion B +%d, stat_irq/irq +%d", worst[-1], *worst[1:-1])
        self.latency_rows = rows


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class LineRateTest(NicTest):
    """F1, F11: 400 minimum-size frames (200 at 8 bits; 0.4 of it on Icarus) back to back, one
    word per cycle, half of them to a registered flow and half unregistered: the input
    never stalls (frames the DMA cannot keep up with are dropped as QBUF_FULL or RING_FULL,
    counted, never back-pressured). With a flow table (F31) the registered flow is its entry
    as well as a rule: the table decides it, and every lookup keeps the engine 5 edges."""

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        ctrl = Flow("ctrl", "udp", 5000, payload=(18, 18))
        table = [(ft.INSERT, flow_key(ctrl), (nq - 1) << regmap.FIELDS["FLOW_VAL_QUEUE_LSB"])]
        return Knobs(
            table_cmds=table if self.cfg.flow_table_sets else [],
            # 200 x 60 beats at 8 bits; 0.4 of it on Icarus
            frames=amount(400 if self.cfg.data_width > 8 else 200),
            flows=[(1, ctrl), (1, Flow("flood", "udp", 7000, payload=(18, 18)))],
            setups=[QueueSetup(ring_size=64, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000))],
            tick_div=1, chaos=False, gap=(0, 0), burst=1.0, return_delay=(0, 50))

    def check_phase(self) -> None:
        super().check_phase()
        run = self.run_record
        assert run is not None
        obs = run.observed
        span = obs.frames_t[-1] - obs.frames_t[0] + 1
        beats = sum(-(-len(f.data) // (self.cfg.data_width // 8)) for f in run.frames[1:])
        self.logger.info("%d frames in %d cycles (%d beats after the first frame), %d stall cycles",
                         len(run.frames), span, beats, obs.stalls)
        assert obs.stalls == 0, f"the input stalled for {obs.stalls} cycles"
        assert span == beats + 1, f"frames were not back to back: {span} cycles for {beats} beats"


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class DeliveryLineRateTest(NicTest):
    """F12, F25: frames offered at exactly line rate to a registered
    queue -- each frame followed by the idle time of its 4-byte FCS, 8-byte preamble and
    12-byte gap (24 bytes: a 60-byte frame occupies 84 / 21 / 10.5 cycles at 8 / 32 / 64
    bits) -- 30 frames of 60 bytes then 6 of 1500 bytes, host answering at once, buffers
    posted ahead (64-slot ring, returned at once). Every frame must be delivered (ACCEPT
    and completed: no drop of any kind) and the input must never stall; the scoreboard
    checks every cycle as in every top test."""

    SMALL, LARGE = 30, 6

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        return Knobs(
            frames=self.SMALL + self.LARGE, flows=[(1, Flow("ctrl", "udp", 5000, payload=(18, 18)))],
            setups=[QueueSetup(ring_size=64, buf_size=2048, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000))],
            tick_div=1, chaos=False, gap=(0, 0), burst=1.0, return_delay=(0, 0), isr_delay=(2, 2))

    async def traffic(self) -> None:
        kw = self.cfg.data_width // 8
        small, large = Flow("ctrl", "udp", 5000, payload=(18, 18)), Flow("ctrl", "udp", 5000, payload=(1458, 1458))
        frames = [small.make(self.rng) for _ in range(self.SMALL)] + [large.make(self.rng) for _ in range(self.LARGE)]
        assert {len(f.data) for f in frames} == {60, 1500}, {len(f.data) for f in frames}
        clocked = self.env.driver.clocked
        assert clocked is not None
        start = clocked.now_cycle() + 50
        sched, wire = [], 0  # wire: bytes of line time since start (frame + 24)
        for f in frames:
            sched.append((start + wire // kw, f))
            wire += len(f.data) + 24
        self.offered_cycles = (wire + kw - 1) // kw
        ConfigDB().set(None, "*", "schedule", sched)
        await ScheduledSeq("line_rate").start(self.env.seqr)

    def check_phase(self) -> None:
        super().check_phase()
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        obs = run.observed
        n = len(run.frames)
        top = self.cfg.num_queues - 1
        accepted = sum(o.verdict == regmap.VERDICTS["ACCEPT"] for o in model.outcomes)
        delivered = sum(1 for _c, q, _s in obs.completions if q == top)
        self.logger.info("line rate at %d bits: %d frames offered (%d x 60 B, %d x 1500 B) in %d cycles, "
                         "%d accepted, %d delivered, %d stall cycles", self.cfg.data_width, n, self.SMALL,
                         self.LARGE, self.offered_cycles, accepted, delivered, obs.stalls)
        assert n == self.SMALL + self.LARGE
        assert obs.stalls == 0, f"the input stalled for {obs.stalls} cycles"
        assert accepted == n, f"only {accepted} of {n} frames accepted: " + str(
            sorted({o.verdict for o in model.outcomes}))
        assert delivered == n, f"only {delivered} of {n} frames delivered"
        # delivered throughput equals the offered rate: tlast -> completion does not grow
        # along a run of frames (a DMA that falls behind drops nothing while the buffers
        # absorb it, but its latency grows by the deficit of every frame)
        cpl = [c for c, q, _s in obs.completions if q == top]
        lat = [c - t for c, t in zip(cpl, obs.frames_t, strict=True)]
        kw = self.cfg.data_width // 8
        for name, part, slot in (("60 B", lat[:self.SMALL], (60 + 24 + kw - 1) // kw),
                                 ("1500 B", lat[self.SMALL:], (1500 + 24 + kw - 1) // kw)):
            self.logger.info("%s: tlast -> completion first %d, max %d, last %d cycles",
                             name, part[0], max(part), part[-1])
            assert part[-1] <= part[0] + slot, f"{name}: latency grew from {part[0]} to {part[-1]}: behind line rate"


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class FloodLimitTest(NicTest):
    """F9, F10: a registered control flow and a flood on a registered port whose rule has
    a rate limiter (budget 5 frames per 3000 cycles) and an interrupt budget over the
    flood's queue (2 interrupts per 2000 cycles; the control queue exempt). Everything is
    checked against the model cycle for cycle; on top, from the DUT's own verdict and
    interrupt pulses: every limiter epoch delivers at most 5 flood frames and exactly 5
    whenever the flood offered more and nothing else dropped them, no budget epoch sees
    more than 2 flood-queue interrupts, and no control frame is lost."""

    BUDGET, PERIOD = 5, 3000
    IRQS, IRQ_PERIOD = 2, 2000

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        k = Knobs(
            frames=amount(1200),   # 480 on Icarus
            flows=[(1, Flow("ctrl", "udp", 5000, payload=(18, 64))),
                   (6, Flow("flood", "udp", 7000, payload=(18, 64)))],
            setups=[QueueSetup(ring_size=32, buf_size=2048, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000)),
                   (rule_ctrl(queue=0, proto=UDP, dport=True), port_range(7000))],
            tick_div=1, chaos=False, gap=(0, 30), burst=0.4, return_delay=(0, 60))
        k.extra_writes += [("RULE_LIM_PERIOD", 1, self.PERIOD), ("RULE_LIM_BUDGET", 1, self.BUDGET),
                           ("IRQ_BUDGET_EXEMPT", 0, 1 << (nq - 1)), ("IRQ_BUDGET_PERIOD", 0, self.IRQ_PERIOD),
                           ("IRQ_BUDGET", 0, self.IRQS)]
        return k

    def check_phase(self) -> None:
        super().check_phase()
        run = self.run_record
        assert run is not None
        obs, V = run.observed, regmap.VERDICTS
        writes = {addr: w for w, addr, _d, _s in obs.reg_writes}
        s_lim = writes[regmap.addr("RULE_LIM_BUDGET", 1)] + 2   # the last limiter write restarts it at w+2
        s_irq = writes[regmap.addr("IRQ_BUDGET")] + 1
        per_epoch: dict[int, list[int]] = {}
        for cycle, code, _q, rule in obs.verdicts:
            if rule == 1:
                a = cycle - 1    # the admission edge (T+11)
                per_epoch.setdefault((a - s_lim) // self.PERIOD, []).append(code)
        full = 0
        for epoch, codes in per_epoch.items():
            acc = codes.count(V["ACCEPT"])
            assert acc <= self.BUDGET, f"limiter epoch {epoch}: {acc} flood frames delivered"
            if codes.count(V["RATE_LIMITED"]) and not any(c in codes for c in (V["RING_FULL"], V["QBUF_FULL"])):
                assert acc == self.BUDGET, f"limiter epoch {epoch}: {acc} delivered while frames were cut"
                full += 1
        assert full >= 3, f"only {full} limiter epochs were cut to their budget: {per_epoch}"
        irq_epochs: dict[int, int] = {}
        for cycle, q in obs.fires:
            if q == 0 and cycle - 1 >= s_irq:   # stat_irq at m+1 for a fire decided at edge m
                e = (cycle - 1 - s_irq) // self.IRQ_PERIOD
                irq_epochs[e] = irq_epochs.get(e, 0) + 1
        assert irq_epochs and max(irq_epochs.values()) <= self.IRQS, f"flood-queue interrupts per epoch: {irq_epochs}"
        ctrl = [o for o in self.model.outcomes if run.frames[o.index].flow == "ctrl"] if self.model else []
        assert ctrl and all(o.verdict == V["ACCEPT"] for o in ctrl), "a control frame was lost"
        self.logger.info("limiter: %d epochs cut to exactly %d frames; flood-queue interrupts per epoch: %s",
                         full, self.BUDGET, sorted(irq_epochs.items())[:8])


class OffByOneTick(Moderation):
    """A deliberately wrong model: every packet timer runs one tick too long."""

    def step(self, cpl: bool, tick: bool, clr: bool, cfg: ModerationConfig) -> bool:
        return super().step(cpl, tick, clr, replace(cfg, pkt=cfg.pkt + 1 if cfg.pkt else 0))


class OffByOneModel(PrionicModel):
    moderation_cls = OffByOneTick


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class ScoreboardBitesTest(NicTest):
    """F17: the scoreboard must bite. The same run (300 frames, 120 on Icarus) is checked
    against the true model (no mismatch allowed) and against a model whose packet timer is
    off by one tick, which must be reported as interrupt-cycle mismatches."""

    def knobs(self, rng: random.Random) -> Knobs:
        k = mixed_traffic(rng, self.cfg.num_queues, amount(300))
        for s in k.setups:  # packet timer only, so every interrupt depends on it
            s.itr_frames, s.itr_pkt, s.itr_abs, s.itr_gap, s.immediate = 0, 10, 0, 0, False
        k.chaos = False
        return k

    def check_phase(self) -> None:
        super().check_phase()  # the true model agrees exactly
        assert self.run_record is not None
        assert self.run_record.observed.fires, "no interrupt happened: nothing to bite on"
        wrong = compare(self.run_record, OffByOneModel)
        self.logger.info("wrong model: %d mismatches, first: %s", len(wrong), wrong[:1])
        assert any("stat_irq" in m for m in wrong), "scoreboard missed an off-by-one-tick timer"


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class FlowCacheTest(NicTest):
    """F8 (flow cache), F5: eight bursts of mixed traffic over a rule table scanned in
    S = ceil(NUM_RULES / RULES_PER_CYCLE) cycles: three TCP flows with SYN, FIN and RST among
    their frames, a registered UDP flow, unregistered UDP, ARP, fragments and the parser's mix
    (many one-off keys that overwrite entries). Between bursts, once every frame has its
    verdict, a rule changes (queue, port range, enable) or the line stays quiet for longer
    than FLOW_IDLE, so the cache sees invalidation and idle expiry mid-traffic. Rings and
    buffers are large and there are no limiters: every verdict is the classifier's own and
    cannot depend on timing.

    ``PRIONIC_FLOW=on|off`` enables the cache or not; ``PRIONIC_OUTCOMES`` names a JSON file
    for the DUT's verdicts, which tests/test_top.py compares between the two runs (the
    cache may never change an outcome). Both runs are also checked cycle for cycle against
    the model, which checks every hit against the full rule table; with the cache on the
    run must have seen hits, SYN misses, FIN/RST evictions and expired entries."""

    IDLE_UNITS = 8  # FLOW_IDLE, in units of 2**FLOW_TS_SHIFT cycles

    def build_phase(self) -> None:
        super().build_phase()
        # the traffic draws from its own generator: the host's draws (service delays) come
        # at timing-dependent moments and must not change the frames between the two runs
        ConfigDB().set(None, "*", "rng", random.Random(self.rng.getrandbits(64)))

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        self.flow_on = os.environ.get("PRIONIC_FLOW", "on") == "on"
        tcp_mix = ("A", "A", "A", "PA", "S", "FA", "R")
        k = Knobs(
            frames=amount(60),  # per burst (24 on Icarus)
            flows=[(3, Flow("ctrl", "udp", 5000, payload=(18, 64))),
                   (2, Flow("t1", "tcp", 8042, sport=1001, payload=(6, 64), tcp_flags=tcp_mix)),
                   (2, Flow("t2", "tcp", 8043, sport=1002, payload=(6, 64), tcp_flags=tcp_mix)),
                   (1, Flow("t3", "tcp", 22, sport=1003, payload=(6, 64), tcp_flags=tcp_mix)),
                   (2, Flow("unreg", "udp", 7000, payload=(18, 64))),
                   (1, arp), (1, fragment), (1, parser_frame)],
            setups=[QueueSetup(ring_size=64, buf_size=2048, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000)),
                   (rule_ctrl(queue=0, proto=TCP, dport=True), port_range(8000, 8100)),
                   (rule_ctrl(drop=True, proto=TCP, dport=True), port_range(22))],
            default_action=1, frag_action=1,
            tick_div=1, chaos=False, gap=(10, 80), burst=0.2, return_delay=(0, 30))
        k.extra_writes += [("FLOW_IDLE", 0, self.IDLE_UNITS), ("FLOW_CTRL", 0, int(self.flow_on))]
        return k

    async def traffic(self) -> None:
        host, obs = self.env.host.driver, self.monitor.obs
        nq = self.cfg.num_queues
        idle_cycles = self.IDLE_UNITS << param("FLOW_TS_SHIFT", 14)
        changes = {  # after burst b: a rule write (register, index, value), or a quiet gap
            1: ("RULE_CTRL", 1, rule_ctrl(queue=nq - 1, proto=TCP, dport=True)),
            2: None,
            3: ("RULE_DPORT", 1, port_range(8042)),
            4: None,
            5: ("RULE_CTRL", 0, 0),
            6: ("RULE_CTRL", 0, rule_ctrl(queue=0, proto=UDP, dport=True)),
        }
        for b in range(8):
            await TrafficSeq(f"burst{b}").start(self.env.seqr)
            await self.env.driver.source.wait()
            while len(obs.verdicts) < len(self.env.driver.sent):
                await ClockCycles(self.dut.clk, 10)
            if b in changes and changes[b] is not None:
                reg, index, value = changes[b]
                await host.axil.write_dword(regmap.addr(reg, index), value)
            elif b in changes:
                await ClockCycles(self.dut.clk, idle_cycles + 2 * (2 << param("FLOW_TS_SHIFT", 14)))

    def check_phase(self) -> None:
        super().check_phase()
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        verdicts = [list(v[1:]) for v in run.observed.verdicts]
        hits = sum(o.flow == "hit" for o in model.outcomes)
        why = {w: sum(o.flow_why == w for o in model.outcomes) for w in ("hit", "syn", "empty", "other", "expired")}
        evictions = sum(o.flow_evict for o in model.outcomes)
        self.logger.info("flow cache %s: %d frames, lookups %s, %d FIN/RST evictions",
                         "on" if self.flow_on else "off", len(verdicts), why, evictions)
        # the precondition of the on/off comparison: no verdict depends on timing
        timing = {regmap.VERDICTS[n] for n in ("RING_FULL", "QBUF_FULL", "RATE_LIMITED", "BUF_OVERFLOW")}
        assert not [v for v in verdicts if v[0] in timing], "a timing-dependent drop: the traffic is too dense"
        if self.flow_on:
            for w in ("hit", "syn", "expired"):
                assert why[w] > 0, f"no lookup with outcome {w!r}: {why}"
            assert evictions > 0, "no FIN/RST eviction"
        else:
            assert hits == 0 and not any(o.flow for o in model.outcomes)
        path = os.environ.get("PRIONIC_OUTCOMES")
        if path:
            with open(path, "w") as f:
                json.dump({"verdicts": verdicts, "hits": hits, "why": why}, f)


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class CachedLineRateTest(LineRateTest):
    """F8, F1: LineRateTest over a rule table that takes S = ceil(NUM_RULES / RULES_PER_CYCLE)
    cycles to scan. Phase 1, flow cache on: 400 minimum frames (200 at 8 bits; 0.4 of it on
    Icarus) back to back and the input never stalls (after the first frame of each flow
    every frame hits and is classified in one cycle). Phase 2, FLOW_CTRL written 0: 200 more
    frames (80 on Icarus); whenever S exceeds a minimum frame's beats (S = 16 against 8
    beats at 64 bits) the input must now stall, since the scan is the bottleneck: what the
    cache buys. Both phases are checked against the model."""

    PHASE2 = 200

    def knobs(self, rng: random.Random) -> Knobs:
        k = super().knobs(rng)
        k.extra_writes.append(("FLOW_CTRL", 0, 1))
        return k

    async def traffic(self) -> None:
        obs = self.monitor.obs
        await TrafficSeq("cache_on").start(self.env.seqr)
        await self.env.driver.source.wait()
        self.n1, self.stalls1 = len(self.env.driver.sent), obs.stalls
        await self.env.host.driver.axil.write_dword(regmap.addr("FLOW_CTRL"), 0)
        self.k.frames = amount(self.PHASE2)
        await TrafficSeq("cache_off").start(self.env.seqr)

    def check_phase(self) -> None:
        NicTest.check_phase(self)
        run = self.run_record
        assert run is not None
        obs, n1 = run.observed, self.n1
        kw = self.cfg.data_width // 8
        span = obs.frames_t[n1 - 1] - obs.frames_t[0] + 1
        beats = sum(-(-len(f.data) // kw) for f in run.frames[1:n1])
        scan, frame_beats = self.cfg.engine_config().scan_cycles, -(-60 // kw)
        stalls2 = obs.stalls - self.stalls1
        self.logger.info("S = %d cycles per table lookup, %d beats per frame; cache on: %d frames in %d cycles, "
                         "%d stall cycles; cache off: %d frames, %d stall cycles",
                         scan, frame_beats, n1, span, self.stalls1, len(run.frames) - n1, stalls2)
        assert self.stalls1 == 0, f"cache on: the input stalled for {self.stalls1} cycles"
        assert span == beats + 1, f"cache on: frames were not back to back: {span} cycles for {beats} beats"
        if scan > frame_beats:
            assert stalls2 > 0, "cache off: the scan was slower than the line but the input never stalled"
