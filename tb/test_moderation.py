"""prionic_moderation block test (F14, F15): the per-queue timers, gap, cause/mask and the
prescaler, cycle by cycle. A random test compares every output at every edge with the
model's Prescaler and Moderation (docs/timing.md sections 4-5); directed tests check the
Intel-compatibility examples against values worked out by hand from the spec."""

from __future__ import annotations

from dataclasses import replace

import cocotb
from cocotb.triggers import FallingEdge

from model.moderation import Moderation, ModerationConfig, Prescaler, from_intel
from tb.common import Clocked, make_rng, param, soak


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
        self.clocked: Clocked | None = None

    async def start(self) -> Clocked:
        d = self.dut
        for s in ("cfg_immediate", "cfg_frames", "cfg_pkt", "cfg_abs", "cfg_gap", "cfg_mask",
                  "cfg_cause_clr", "s_cpl_valid", "s_cpl_queue"):
            getattr(d, s).value = 0
        d.cfg_tick_div.value = 1
        d.cfg_queue_prio.value = _pack(self.prio, 8)
        d.cfg_run_prio.value = 0
        self.clocked = Clocked(d)
        await self.clocked.start()
        return self.clocked

    def set_prio(self, prio: list[int], run: int) -> None:
        """QUEUE_PRIO per queue and the running priority (F16)."""
        self.prio, self.run_prio = prio, run
        self.dut.cfg_queue_prio.value = _pack(prio, 8)
        self.dut.cfg_run_prio.value = run

    def gated(self, q: int) -> bool:
        return self.prio[q] <= self.run_prio

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

    async def edge(self, cpl: int | None = None, clr: int = 0) -> None:
        """Present inputs for edge m (we are at the falling edge before it), step past it
        and sample what edge m produced, i.e. the values sampled at edge m+1."""
        d = self.dut
        d.s_cpl_valid.value = int(cpl is not None)
        d.s_cpl_queue.value = cpl or 0
        d.cfg_cause_clr.value = clr
        await FallingEdge(d.clk)
        assert self.clocked is not None
        k = self.clocked.cycle_at_falling()
        fire = int(d.stat_irq.value)
        self.fires += [(k, q) for q in range(self.nq) if fire >> q & 1]
        self.irq.append(int(d.irq.value))
        self.legacy.append(int(d.irq_legacy.value))
        self.pend_prio.append(int(d.status_pend_prio.value))
        self.pending0.append(int(d.status_pending.value) & 0xFFFF)


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
    cycles = 200_000 if soak() else 20_000
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
        tick = model_pre.step(max(b.div, 1))
        irq = 0
        for q in range(b.nq):
            cfg_q = replace(b.cfg[q], gated=b.gated(q))
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
    await b.start()
    idle = [ModerationConfig()] * (b.nq - 1)
    b.apply([cfg] + idle, 1)
    pre, mod = Prescaler(), Moderation()
    exp_fires, exp_irq, exp_pend, exp_pending = [], [], [], []
    for m in range(n):
        if m in changes:
            b.apply([changes[m]] + idle, 1)
        if m in gate:
            b.set_prio(b.prio, gate[m])
        await b.edge(cpl.get(m), clr.get(m, 0))
        if mod.step(cpl.get(m) == 0, pre.step(1), bool(clr.get(m, 0) & 1), replace(b.cfg[0], gated=b.gated(0))):
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
    """F14, F15: the packet timer expires while masked: the interrupt happens (stat_irq at
    16, cause set) but irq stays low until the unmask seen at edge 30 (irq high at 31)."""
    b = await scripted(dut, 60, MC(pkt=5, mask=True), cpl={10: 0}, changes={30: MC(pkt=5)})
    assert fires_of(b) == [16] and irq_rises(b) == [31]


@cocotb.test()
async def edge_expiry_while_gated(dut):
    """F14, F16: the packet timer expires while the queue is gated (running priority 1,
    queue priority 1): held until the running priority drops at 40 (seen at 41)."""
    b = await scripted(dut, 80, MC(pkt=5), cpl={10: 0}, gate={2: 1, 40: 0})
    assert fires_of(b) == [41]


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
    wraps; opening the gate fires once and clears it."""
    n = 0xFFFF + 20
    b = await scripted(dut, n + 10, MC(immediate=True), cpl={m: 0 for m in range(1, n)},
                       gate={0: 1, n + 2: 0})
    assert fires_of(b) == [n + 3]
    assert b.pending0[n - 5] == 0xFFFF and b.pend_prio[n - 5] == 0x101
    assert b.pending0[n + 3] == 0
