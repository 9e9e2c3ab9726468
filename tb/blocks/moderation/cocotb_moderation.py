"""prionic_moderation block test (F14, F15, F16, F10): the per-queue timers, gap,
cause/mask, the prescaler and the global interrupt budget, cycle by cycle. Random tests
compare every output at every edge with the model's Prescaler, Moderation and
InterruptBudget (docs/timing.md sections 4, 5, 7); directed tests check the
Intel-compatibility examples and the budget against values worked out by hand from the
spec. The block uses its configuration inputs as sampled at the edge before (timing.md
s4, F25): the model of edge m gets what the bench presented for edge m - 1 (``Bench.used``),
completions and cause clears of edge m itself."""

from __future__ import annotations

from dataclasses import replace

import cocotb
from cocotb.triggers import FallingEdge

from model.moderation import BudgetConfig, InterruptBudget, Moderation, ModerationConfig, Prescaler, from_intel
from tb.common import Clocked, amount, make_rng, param, soak


def _pack(values: list[int], width: int = 16) -> int:
    return sum(v << (width * i) for i, v in enumerate(values))


class Bench:
    """Drives the block at falling edges (= what edge k samples) and records its outputs."""

    def __init__(self, dut):
        self.dut = dut
        self.nq = param("NUM_QUEUES", 2)
        self.cfg = [ModerationConfig() for _ in range(self.nq)]
        self.div = 1
        self.prio = [q + 1 for q in range(self.nq)]   # QUEUE_PRIO reset values
        self.run_prio = 0
        self.pend_prio: list[int] = []            # status_pend_prio after each edge
        self.pending0: list[int] = []             # queue 0's pending count after each edge
        self.fires: list[tuple[int, int]] = []   # (cycle stat_irq high, q)
        self.irq: list[int] = []                  # irq vector sampled at each edge
        self.legacy: list[int] = []               # irq_legacy sampled at each edge
        self.pending: list[int] = []              # status_pending (all queues) after each edge
        self.left: list[int] = []                 # status_budget_left after each edge (F10)
        self.bcfg = BudgetConfig()                # F10: off
        self.exempt = 0
        self.unbudgeted = 0                       # fires of the same inputs without budget
        self.clocked: Clocked | None = None
        self.restart = False                      # the budget restart presented for the next edge
        self.before = self._snapshot()            # configuration presented for the last edge (reset)
        self.used = self.before                   # configuration the block used at the last edge

    def _snapshot(self) -> dict:
        return {"cfg": list(self.cfg), "div": self.div, "prio": list(self.prio), "run": self.run_prio,
                "bcfg": self.bcfg, "exempt": self.exempt, "restart": self.restart}

    def m_div(self) -> int:
        """TICK_DIV the block used at the edge just stepped (as presented one edge earlier)."""
        return max(self.used["div"], 1)

    def m_cfgs(self) -> list[ModerationConfig]:
        """Every queue's model configuration used at the edge just stepped (F14, F16, F10)."""
        u = self.used
        return [replace(u["cfg"][q], gated=u["prio"][q] <= u["run"], exempt=bool(u["exempt"] >> q & 1),
                        prio=u["prio"][q]) for q in range(self.nq)]

    async def start(self, setup=None) -> Clocked:
        """Reset the block; ``setup(bench)`` presents a configuration during the reset, so
        that the block uses it from edge 0 on (it samples its configuration one edge early)."""
        d = self.dut
        for s in ("cfg_immediate", "cfg_frames", "cfg_pkt", "cfg_abs", "cfg_gap", "cfg_mask",
                  "cfg_cause_clr", "s_cpl",
                  "cfg_budget", "cfg_budget_period", "cfg_exempt", "cfg_budget_restart"):
            getattr(d, s).value = 0
        d.cfg_tick_div.value = 1
        d.cfg_queue_prio.value = _pack(self.prio, 8)
        d.cfg_run_prio.value = 0
        d.cfg_run_prio_b.value = 0   # the second running priority (the top's port): max(run, 0) = run
        if setup is not None:
            setup(self)
        self.before = self.used = self._snapshot()
        self.clocked = Clocked(d)
        await self.clocked.start()
        return self.clocked

    def set_prio(self, prio: list[int], run: int) -> None:
        """QUEUE_PRIO per queue and the running priority (F16)."""
        self.prio, self.run_prio = prio, run
        self.dut.cfg_queue_prio.value = _pack(prio, 8)
        self.dut.cfg_run_prio.value = run

    def set_budget(self, bcfg: BudgetConfig, exempt: int) -> None:
        """BUDGET, BUDGET_PERIOD and the exempt mask (F10)."""
        self.bcfg, self.exempt = bcfg, exempt
        self.dut.cfg_budget.value = bcfg.budget
        self.dut.cfg_budget_period.value = bcfg.period
        self.dut.cfg_exempt.value = exempt

    def apply(self, cfg: list[ModerationConfig], div: int) -> None:
        d = self.dut
        self.cfg, self.div = cfg, div
        d.cfg_tick_div.value = div
        d.cfg_immediate.value = sum(int(c.immediate) << q for q, c in enumerate(cfg))
        d.cfg_mask.value = sum(int(c.mask) << q for q, c in enumerate(cfg))
        d.cfg_frames.value = _pack([c.frames for c in cfg])
        d.cfg_pkt.value = _pack([c.pkt for c in cfg])
        d.cfg_abs.value = _pack([c.abs for c in cfg])
        d.cfg_gap.value = _pack([c.gap for c in cfg])

    async def edge(self, cpl: int | None = None, clr: int = 0, restart: bool = False) -> None:
        """Present inputs for edge m (we are at the falling edge before it), step past it
        and sample what edge m produced, i.e. the values sampled at edge m+1."""
        d = self.dut
        d.s_cpl.value = 0 if cpl is None else 1 << cpl   # one-hot, as the DMA registers it
        d.cfg_cause_clr.value = clr
        d.cfg_budget_restart.value = int(restart)
        self.restart = restart
        now = self._snapshot()
        await FallingEdge(d.clk)
        self.used, self.before = self.before, now
        assert self.clocked is not None
        k = self.clocked.cycle_at_falling()
        fire = int(d.stat_irq.value)
        self.fires += [(k, q) for q in range(self.nq) if fire >> q & 1]
        self.irq.append(int(d.irq.value))
        self.legacy.append(int(d.irq_legacy.value))
        self.pend_prio.append(int(d.status_pend_prio.value))
        pend = int(d.status_pending.value)
        self.pending0.append(pend & 0xFFFF)
        self.pending.append(pend)
        self.left.append(int(d.status_budget_left.value))


@cocotb.test()
async def moderation_random_vs_model(dut):
    """F14, F15, F16: random completions, W1C clears, masks, timer and TICK_DIV rewrites,
    queue and running priorities; every stat_irq pulse, irq level and status_pend_prio
    equals the model at every edge."""
    rng = make_rng(dut)
    b = Bench(dut)
    clocked = await b.start()
    model_pre = Prescaler()
    model = [Moderation() for _ in range(b.nq)]
    exp_fires: list[tuple[int, int]] = []
    exp_irq: list[int] = []
    exp_pend: list[int] = []
    cycles = 200_000 if soak() else amount(20_000)
    assert clocked.cycle_at_falling() == 0  # before edge 0
    for m in range(0, cycles):
        if rng.random() < 0.01:
            cfg = [ModerationConfig(frames=rng.choice([0, 0, 1, 3, 8]), pkt=rng.choice([0, 1, 5, 17]),
                                    abs=rng.choice([0, 2, 9, 30]), gap=rng.choice([0, 0, 3, 12]),
                                    immediate=rng.random() < 0.15, mask=rng.random() < 0.2)
                   for _ in range(b.nq)]
            b.apply(cfg, rng.choice([0, 1, 1, 2, 3, 7]))
        if rng.random() < 0.004:  # F16: queue priorities and the running priority move
            b.set_prio([rng.randint(0, 4) for _ in range(b.nq)], rng.choice([0, 0, 1, 2, 3]))
        cpl = rng.randrange(b.nq) if rng.random() < 0.08 else None
        clr = rng.getrandbits(b.nq) if rng.random() < 0.05 else 0
        await b.edge(cpl, clr)
        # model: edge m evaluates the inputs just presented
        tick = model_pre.step(b.m_div())
        irq = 0
        for q, cfg_q in enumerate(b.m_cfgs()):
            if model[q].step(cpl == q, tick, bool(clr >> q & 1), cfg_q):
                exp_fires.append((m + 1, q))
            irq |= int(model[q].irq) << q
        exp_irq.append(irq)          # sampled at edge m+1, like b.irq[m]
        prios = [b.prio[q] for q in range(b.nq) if model[q].pending]
        exp_pend.append(0x100 | max(prios) if prios else 0)
    assert b.fires == exp_fires, f"stat_irq: first difference {_first_diff(b.fires, exp_fires)}"
    assert b.irq == exp_irq, f"irq: first difference {_first_diff(b.irq, exp_irq)}"
    assert b.pend_prio == exp_pend, f"status_pend_prio: first difference {_first_diff(b.pend_prio, exp_pend)}"
    # irq_legacy is the OR of the lines registered once more
    exp_legacy = [0] + [int(v != 0) for v in b.irq[:-1]]
    assert b.legacy == exp_legacy, f"irq_legacy: first difference {_first_diff(b.legacy, exp_legacy)}"
    assert len(exp_fires) > 100, "too few interrupts to mean anything"
    dut._log.info("%d cycles, %d interrupts compared", cycles, len(exp_fires))


def _first_diff(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"index {i}: DUT {x} model {y}"
    return f"lengths DUT {len(a)} model {len(b)}"


async def scripted(dut, n: int, cfg: ModerationConfig, cpl: dict[int, int] | None = None,
                   clr: dict[int, int] | None = None,
                   changes: dict[int, ModerationConfig] | None = None,
                   gate: dict[int, int] | None = None) -> Bench:
    """Queue 0 only (TICK_DIV 1): inputs for edge m from the dicts (completion queue, clear
    mask, new configuration, new running priority; queue 0 has priority 1). Every output
    at every edge is compared with the model; returns the bench with what was seen."""
    cpl, clr, changes, gate = cpl or {}, clr or {}, changes or {}, gate or {}
    b = Bench(dut)
    idle = [ModerationConfig()] * (b.nq - 1)
    await b.start(lambda b: b.apply([cfg] + idle, 1))
    pre, mod = Prescaler(), Moderation()
    exp_fires, exp_irq, exp_pend, exp_pending = [], [], [], []
    for m in range(n):
        if m in changes:
            b.apply([changes[m]] + idle, 1)
        if m in gate:
            b.set_prio(b.prio, gate[m])
        await b.edge(cpl.get(m), clr.get(m, 0))
        if mod.step(cpl.get(m) == 0, pre.step(b.m_div()), bool(clr.get(m, 0) & 1), b.m_cfgs()[0]):
            exp_fires.append((m + 1, 0))
        exp_irq.append(int(mod.irq))
        exp_pend.append(0x100 | b.prio[0] if mod.pending else 0)
        exp_pending.append(mod.pending)
    assert b.fires == exp_fires, f"stat_irq: DUT {b.fires} model {exp_fires}"
    assert [v & 1 for v in b.irq] == exp_irq, f"irq[0]: first difference {_first_diff(b.irq, exp_irq)}"
    assert b.pend_prio == exp_pend, f"status_pend_prio: first difference {_first_diff(b.pend_prio, exp_pend)}"
    assert b.pending0 == exp_pending, f"pending: first difference {_first_diff(b.pending0, exp_pending)}"
    return b


def fires_of(b: Bench) -> list[int]:
    return [k for k, q in b.fires if q == 0]


def irq_rises(b: Bench) -> list[int]:
    """Edges at which irq[0] is first sampled high (b.irq[m] is sampled at edge m+1)."""
    return [m + 1 for m in range(len(b.irq)) if b.irq[m] & 1 and (m == 0 or not b.irq[m - 1] & 1)]


MC = ModerationConfig


@cocotb.test()
async def intel_rdtr_radv(dut):
    """F14: through the Intel mapping, RDTR 100 and RADV 150 with completions at 10 and 90
    (80 ticks apart) give one interrupt when the absolute timer ends: evaluated at
    10 + 150 = 160, stat_irq high at 161 -- not at 90 + 100 + 1 = 191."""
    b = await scripted(dut, 400, from_intel(rdtr=100, radv=150), cpl={10: 0, 90: 0})
    assert fires_of(b) == [161]


@cocotb.test()
async def intel_rdtr_zero(dut):
    """F14: RDTR 0 gives an interrupt per completion whatever RADV is; a completion
    evaluated at m is seen on stat_irq at m+1."""
    b = await scripted(dut, 400, from_intel(rdtr=0, radv=150), cpl={10: 0, 30: 0, 31: 0, 200: 0})
    assert fires_of(b) == [11, 31, 32, 201]


@cocotb.test()
async def intel_itr_gap(dut):
    """F14: ITR G = 50 ticks (RDTR 0). Interrupt at 10 (seen at 11); a completion at
    10 + 50/10 = 15 is held until the gap ends at 10 + 50 = 60 (seen at 61); a completion
    after more than G of quiet (at 200) raises at once (seen at 201)."""
    b = await scripted(dut, 400, from_intel(rdtr=0, itr=50), cpl={10: 0, 15: 0, 200: 0})
    assert fires_of(b) == [11, 61, 201]


@cocotb.test()
async def edge_expiry_on_completion_cycle(dut):
    """F14: a packet timer due at the cycle of a new completion is reloaded instead
    (PKT 5, completions at 10 and 15: fires at 15 + 5 = 20, seen at 21)."""
    b = await scripted(dut, 60, MC(pkt=5), cpl={10: 0, 15: 0})
    assert fires_of(b) == [21]


@cocotb.test()
async def edge_abs_expiry_on_completion_cycle(dut):
    """F14: a running absolute timer expires at the cycle of a new completion and covers
    it (ABS 5, completions at 10 and 15: one interrupt at 15, seen at 16, nothing after)."""
    b = await scripted(dut, 60, MC(abs=5), cpl={10: 0, 15: 0})
    assert fires_of(b) == [16]


@cocotb.test()
async def edge_expiry_while_masked(dut):
    """F14, F15, F25: the packet timer expires while masked: the interrupt happens (stat_irq
    at 16, cause set) but irq stays low until the unmask presented at edge 30, used at 31
    (configuration one edge late, timing.md s4): irq high at 32."""
    b = await scripted(dut, 60, MC(pkt=5, mask=True), cpl={10: 0}, changes={30: MC(pkt=5)})
    assert fires_of(b) == [16] and irq_rises(b) == [32]


@cocotb.test()
async def edge_expiry_while_gated(dut):
    """F14, F16, F25: the packet timer expires while the queue is gated (running priority 1,
    queue priority 1): held until the running priority drops, presented at 40, used at 41:
    fire at 41, stat_irq at 42."""
    b = await scripted(dut, 80, MC(pkt=5), cpl={10: 0}, gate={2: 1, 40: 0})
    assert fires_of(b) == [42]


@cocotb.test()
async def edge_gap_ends_with_cause_pending(dut):
    """F14, F15: GAP 10, immediate: interrupt at 10 (seen 11); completion at 12 held; the gap
    ends at 20 and fires (seen 21) while the host has not cleared the cause: stat_irq
    pulses twice, the irq line rises once; the clear at 30 drops it (low from 31 on)."""
    b = await scripted(dut, 60, MC(immediate=True, gap=10), cpl={10: 0, 12: 0}, clr={30: 1})
    assert fires_of(b) == [11, 21] and irq_rises(b) == [11]
    assert b.irq[29] & 1 and not b.irq[30] & 1


@cocotb.test()
async def edge_reconfiguration_while_running(dut):
    """F14: PKT 20 loaded at 10; PKT 3 written at 15 applies to the next load only, so the
    timer still expires at 30 (seen 31); the completion at 40 loads 3 (seen 44); writing
    PKT 0 at 52 stops the timer loaded at 50 at once: no interrupt for it."""
    b = await scripted(dut, 100, MC(pkt=20), cpl={10: 0, 40: 0, 50: 0},
                       changes={15: MC(pkt=3), 52: MC(frames=5)})
    assert fires_of(b) == [31, 44]


@cocotb.test()
async def edge_pending_saturates(dut):
    """F14: completions every cycle while gated: pending saturates at 0xFFFF and never
    wraps; opening the gate (presented at n+2, used at n+3) fires once and clears it."""
    n = 0xFFFF + 20
    b = await scripted(dut, n + 10, MC(immediate=True), cpl={m: 0 for m in range(1, n)},
                       gate={0: 1, n + 2: 0})
    assert fires_of(b) == [n + 4]
    assert b.pending0[n - 5] == 0xFFFF and b.pend_prio[n - 5] == 0x101
    assert b.pending0[n + 3] == 0


# ============================================================================ budget (F10)


async def run_budget(dut, b: Bench, n: int, inputs, enough=None) -> tuple[list[tuple[int, int]], list[int]]:
    """Drive ``n`` edges, or with ``enough(fires, unbudgeted, left)`` (the model's so far, asked
    every 1,000 edges) up to 4n until it holds; ``inputs(m)`` returns (cpl queue or None, clear mask, restart) for
    edge m and may change the bench's configuration first. Every stat_irq pulse, irq level,
    status_pend_prio, status_pending and status_budget_left is compared with the model
    (Prescaler, Moderation, InterruptBudget: docs/timing.md sections 4, 5, 7) at every edge.
    Returns the model's fires ``(m + 1, q)`` and its ``left`` after each edge; sets
    ``b.unbudgeted`` to the number of fires of the same inputs with the budget off."""
    pre = Prescaler()
    mods = [Moderation() for _ in range(b.nq)]
    shadow = [Moderation() for _ in range(b.nq)]   # the same inputs without the budget
    b.unbudgeted = 0
    budget = InterruptBudget()
    exp_fires: list[tuple[int, int]] = []
    exp_irq, exp_pend, exp_pending, exp_left = [], [], [], []
    m = 0
    while m < n or (enough is not None and m < 4 * n
                    and (m % 1000 or not enough(exp_fires, b.unbudgeted, exp_left))):
        cpl, clr, restart = inputs(m)
        await b.edge(cpl, clr, restart)
        tick = pre.step(b.m_div())
        cpl_mask = 0 if cpl is None else 1 << cpl
        fires = budget.step(mods, cpl_mask, tick, clr, b.m_cfgs(), b.used["bcfg"], b.used["restart"])
        exp_fires += [(m + 1, q) for q in range(b.nq) if fires >> q & 1]
        b.unbudgeted += sum(shadow[q].step(cpl == q, tick, bool(clr >> q & 1), c) for q, c in enumerate(b.m_cfgs()))
        exp_irq.append(sum(int(mod.irq) << q for q, mod in enumerate(mods)))
        prios = [b.prio[q] for q in range(b.nq) if mods[q].pending]
        exp_pend.append(0x100 | max(prios) if prios else 0)
        exp_pending.append(_pack([mod.pending for mod in mods]))
        exp_left.append(budget.left)
        m += 1
    assert b.fires == exp_fires, f"stat_irq: first difference {_first_diff(b.fires, exp_fires)}"
    assert b.irq == exp_irq, f"irq: first difference {_first_diff(b.irq, exp_irq)}"
    assert b.pend_prio == exp_pend, f"status_pend_prio: first difference {_first_diff(b.pend_prio, exp_pend)}"
    assert b.pending == exp_pending, f"status_pending: first difference {_first_diff(b.pending, exp_pending)}"
    assert b.left == exp_left, f"status_budget_left: first difference {_first_diff(b.left, exp_left)}"
    return exp_fires, exp_left


@cocotb.test()
async def budget_random_vs_model(dut):
    """F10 with F14, F15, F16: random budgets, periods (0 = off among them), exempt masks,
    restart pulses, timer and priority changes and completions; every stat_irq pulse,
    irq level, pending count, status_pend_prio and status_budget_left equals the model
    at every edge, and the budget really withheld interrupts."""
    rng = make_rng(dut)
    b = Bench(dut)
    await b.start()
    cycles = 200_000 if soak() else amount(20_000)

    def inputs(m: int):
        if rng.random() < 0.01:
            cfg = [ModerationConfig(frames=rng.choice([0, 0, 1, 3]), pkt=rng.choice([0, 0, 1, 5]),
                                    abs=rng.choice([0, 0, 2, 9]), gap=rng.choice([0, 0, 0, 3, 12]),
                                    immediate=rng.random() < 0.4, mask=rng.random() < 0.2)
                   for _ in range(b.nq)]
            b.apply(cfg, rng.choice([0, 1, 1, 2, 3, 7]))
        if rng.random() < 0.003:  # F16: queue priorities and the running priority move
            b.set_prio([rng.randint(0, 4) for _ in range(b.nq)], rng.choice([0, 0, 0, 1, 2]))
        if m == 0 or rng.random() < 0.004:  # F10: budget, period, exempt queues
            b.set_budget(BudgetConfig(budget=rng.choice([0, 1, 1, 2, 3, 5, 0xFFFF]),
                                      period=rng.choice([0, 1, 2, 3, 7, 20, 64, 64, 300, 0xFFFF_FFFF])),
                         rng.getrandbits(b.nq) if rng.random() < 0.5 else 0)
        cpl = rng.randrange(b.nq) if rng.random() < 0.15 else None
        clr = rng.getrandbits(b.nq) if rng.random() < 0.05 else 0
        return cpl, clr, rng.random() < 0.003

    def refills_of(left: list[int]) -> int:
        return sum(1 for m in range(1, len(left)) if left[m] > left[m - 1])

    def enough(fires, unbudgeted, left) -> bool:
        return len(fires) > 300 and unbudgeted - len(fires) >= 50 and refills_of(left) > 50

    # coverage closure instead of luck: the run goes on (up to 4x) until the goals below hold
    fires, left = await run_budget(dut, b, cycles, inputs, enough)
    cycles = len(left)
    # coverage of the budget itself (from the model; the comparison above is the check)
    refills = refills_of(left)
    assert len(fires) > 300, "too few interrupts to mean anything"
    # coverage, not a check: the budget must have withheld interrupts many times over
    # (it asked for a tenth of all fires, which some seeds missed: 131 withheld of 1824)
    assert b.unbudgeted - len(fires) >= 50 and refills > 50, \
        f"budget hardly used: {len(fires)} interrupts, {b.unbudgeted} without budget, {refills} refills"
    dut._log.info("%d cycles, %d interrupts compared (%d without the budget), %d refills",
                  cycles, len(fires), b.unbudgeted, refills)


def _flood(b: Bench):
    """One completion at every edge, queue m mod NUM_QUEUES (every queue immediate: _immediate)."""
    return lambda m: (m % b.nq, 0, False)


def _immediate(b: Bench) -> None:
    b.apply([ModerationConfig(immediate=True) for _ in range(b.nq)], 1)


@cocotb.test()
async def budget_flood(dut):
    """F10: flood -- every queue immediate, a completion at every edge (queue m mod N),
    BUDGET 3 per PERIOD 20, the last queue exempt. Exactly 3 non-exempt interrupts per
    period (hand-computed edges below), the exempt queue interrupts at each completion.

    N = 2: queue 0 completes at even edges and fires at 20k, 20k+2, 20k+4 (budget 3,2,1 ->
    status_budget_left 2, 1, 0), is withheld from 20k+6 to 20k+18 and fires at the next
    epoch start with everything pending since. N = 4 (queue priorities 1, 2, 3): epoch 0
    fires queues 0, 1, 2 at edges 0, 1, 2 as they complete; from then on all three are
    withheld at every epoch and all fire together at each start 20k."""
    b = Bench(dut)
    nq, n, period, budget = b.nq, 200, 20, 3
    await b.start(lambda b: (_immediate(b), b.set_budget(BudgetConfig(budget=budget, period=period), 1 << (nq - 1))))
    fires, left = await run_budget(dut, b, n, _flood(b))
    edges = {q: [k - 1 for k, p in fires if p == q] for q in range(nq)}   # fire edges m
    assert edges[nq - 1] == [m for m in range(n) if m % nq == nq - 1]   # exempt: every completion
    if nq == 2:
        assert edges[0] == [e + d for e in range(0, n, period) for d in (0, 2, 4)]
        assert left == [{0: 2, 1: 2, 2: 1, 3: 1}.get(m % period, 0) for m in range(n)]
    elif nq == 4:
        assert edges[0] == [0] + list(range(period, n, period))
        assert edges[1] == [1] + list(range(period, n, period))
        assert edges[2] == [2] + list(range(period, n, period))
        assert left == [2, 1] + [0] * (n - 2)
    for e in range(0, n, period):   # exactly `budget` non-exempt interrupts in every epoch
        assert sum(1 for q in range(nq - 1) for m in edges[q] if e <= m < e + period) == budget
    dut._log.info("flood: %s", {q: len(v) for q, v in edges.items()})


@cocotb.test()
async def budget_flood_priority(dut):
    """F10: flood as above with BUDGET 2 per 20 and no queue exempt (N = 4, priorities 1, 2,
    3, 4; N = 2: 1, 2). N = 4: epoch 0 gives edges 0 and 1 (queues 0, 1); at every later
    epoch start all four queues are due and the two highest (3, 2) take the budget --
    queues 0 and 1 never fire again (strict priority, by design). N = 2: edges 0, 1, then
    both at every start 20k."""
    b = Bench(dut)
    nq, n, period = b.nq, 200, 20
    await b.start(lambda b: (_immediate(b), b.set_budget(BudgetConfig(budget=2, period=period), 0)))
    fires, left = await run_budget(dut, b, n, _flood(b))
    edges = {q: [k - 1 for k, p in fires if p == q] for q in range(nq)}
    starts = list(range(period, n, period))
    if nq == 2:
        assert edges == {0: [0] + starts, 1: [1] + starts}
    elif nq == 4:
        assert edges == {0: [0], 1: [1], 2: starts, 3: starts}
    assert left == [1] + [0] * (n - 1)


@cocotb.test()
async def budget_restart_and_enable(dut):
    """F10, F25, queue 0 immediate, BUDGET 1, PERIOD 10 from edge 0: completion at 0 fires
    (seen at 1); completion at 3 withheld; a restart pulse used at 5 (presented at 4: the
    block takes its configuration one edge late, timing.md s4) is an epoch start: fires at 5
    (seen 6); completion at 7 withheld until the start at 5 + 10 = 15 (seen 16). Then the
    budget is used off from 30 and on again (PERIOD 10) from 40: completion at 33 fires at
    once, completion at 38 too (off: nothing withheld), completion at 41 is withheld because
    edge 40 started an epoch whose one interrupt went to the completion at 40, released at 50."""
    b = Bench(dut)
    on, off = BudgetConfig(budget=1, period=10), BudgetConfig(budget=1, period=0)
    await b.start(lambda b: (_immediate(b), b.set_budget(on, 0)))
    cpl = {0: 0, 3: 0, 7: 0, 33: 0, 38: 0, 40: 0, 41: 0}

    def inputs(m: int):   # presented for edge m, used at m + 1
        if m == 29:
            b.set_budget(off, 0)
        if m == 39:
            b.set_budget(on, 0)
        return cpl.get(m), 0, m == 4

    fires, left = await run_budget(dut, b, 60, inputs)
    assert [k for k, q in fires if q == 0] == [1, 6, 16, 34, 39, 41, 51]
    assert left[0] == 0 and left[5] == 0 and left[14] == 0 and left[15] == 0 and left[30] == 1
