"""pytest entry: prionic_moderation block tests on both simulators (F14, F15, F16, F10),
and pure-model unit tests of the global interrupt budget (F10, docs/timing.md section 7)
with values derived by hand from the spec."""

from __future__ import annotations

import math
import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from model import regmap
from model.moderation import (
    BudgetConfig,
    InterruptBudget,
    Moderation,
    ModerationConfig,
    Prescaler,
    edges_to_event,
    intel_ticks,
)
from tb.runner import ROOT, SIMULATORS, run_sim

MODERATION_TESTS = ROOT / "tb" / "blocks" / "moderation" / "cocotb_moderation.py"
# queue 0 alone for 65,555 edges, its outputs compared with the model at every edge: the other
# queues sit idle, so NUM_QUEUES does not matter to it and it runs on the two-queue build only
QUEUE0_SATURATION = "edge_pending_saturates"


def moderation_tests() -> list[str]:
    """The names of the cocotb tests in tb/blocks/moderation/cocotb_moderation.py, in order."""
    return re.findall(r"(?m)^@cocotb\.test\(\)\nasync def (\w+)", MODERATION_TESTS.read_text())


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq", [2, 4])
def test_moderation(sim, nq):
    """Every test of the block at two and four queues, the saturation of queue 0's pending
    count at two only."""
    names = moderation_tests()
    assert QUEUE0_SATURATION in names and len(names) > 10, names
    run_sim(sim, "prionic_moderation", "tb.blocks.moderation.cocotb_moderation", {"NUM_QUEUES": nq},
            testcase=None if nq == 2 else [n for n in names if n != QUEUE0_SATURATION])


# =============================================================================== budget model (F10)

MC = ModerationConfig
BC = BudgetConfig


def budget_drive(
    n: int,
    cfgs: list[ModerationConfig],
    bcfg: BudgetConfig,
    cpl: dict[int, int] | None = None,
    restart: set[int] | None = None,
    changes: dict[int, tuple[list[ModerationConfig], BudgetConfig]] | None = None,
    div: int = 1,
) -> tuple[list[tuple[int, int]], list[int], list[Moderation]]:
    """Evaluate edges 0..n-1 of every queue under the budget (timing.md s5, s7), one by one.

    ``cpl``: edge -> queue with a completion; ``restart``: edges with the restart pulse;
    ``changes``: edge -> new configuration seen from that edge. Returns the fires ``(m, q)``
    (edge m of ``fire``), ``left`` after each edge and the queues' final state."""
    cpl, restart, changes = cpl or {}, restart or set(), changes or {}
    mods = [Moderation() for _ in cfgs]
    budget, pre = InterruptBudget(), Prescaler()
    fires: list[tuple[int, int]] = []
    left: list[int] = []
    for m in range(n):
        if m in changes:
            cfgs, bcfg = changes[m]
        c = cpl.get(m)
        f = budget.step(mods, 0 if c is None else 1 << c, pre.step(div), 0, cfgs, bcfg, m in restart)
        fires += [(m, q) for q in range(len(cfgs)) if f >> q & 1]
        left.append(budget.left)
    return fires, left, mods


def of(fires: list[tuple[int, int]], q: int) -> list[int]:
    return [m for m, p in fires if p == q]


IMM = MC(immediate=True)


def test_budget_off_is_section_5() -> None:
    """F10: period 0 = off: nothing withheld, left follows BUDGET; same fires as plain steps."""
    fires, left, _ = budget_drive(10, [IMM], BC(budget=1, period=0), cpl={m: 0 for m in range(10)})
    assert of(fires, 0) == list(range(10)) and left == [1] * 10
    # InterruptBudget with the default BudgetConfig equals Moderation.step edge for edge
    rnd = random.Random(5)
    cfgs = [MC(pkt=3, gap=2), MC(frames=2, abs=5)]
    a, b = [Moderation(), Moderation()], [Moderation(), Moderation()]
    budget = InterruptBudget()
    for _ in range(500):
        cpl, clr, tick = rnd.getrandbits(2) & rnd.getrandbits(2), rnd.getrandbits(2) & 1, rnd.random() < 0.5
        got = budget.step(a, cpl, tick, clr, cfgs, BC())
        ref = sum(int(m.step(bool(cpl >> q & 1), tick, bool(clr >> q & 1), cfgs[q])) << q for q, m in enumerate(b))
        assert got == ref and [vars(m) for m in a] == [vars(m) for m in b]


def test_budget_per_period_and_withheld_state() -> None:
    """F10: BUDGET 2, PERIOD 10, immediate, a completion at every edge: fires at 0, 1 (left
    1, 0), withheld at 2..9 with pending growing to 8, then at 10 (pending 9 covered), 11..."""
    fires, left, _ = budget_drive(30, [IMM], BC(budget=2, period=10), cpl={m: 0 for m in range(30)})
    assert of(fires, 0) == [0, 1, 10, 11, 20, 21]
    assert left[:12] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]
    _, _, mods = budget_drive(10, [IMM], BC(budget=2, period=10), cpl={m: 0 for m in range(10)})
    assert mods[0].pending == 8 and mods[0].held and mods[0].cause  # 2..9 withheld, still due


def test_budget_withheld_timers_keep_running() -> None:
    """F10: BUDGET 1, PERIOD 20, PKT 3: completion at 0 expires at 3 (fire, left 0);
    completion at 5 expires at 8 (withheld, held); completion at 9 reloads the timer (12,
    still held), pending 2; released at the epoch start 20."""
    fires, _, _ = budget_drive(40, [MC(pkt=3)], BC(budget=1, period=20), cpl={0: 0, 5: 0, 9: 0})
    assert of(fires, 0) == [3, 20]
    _, _, mods = budget_drive(20, [MC(pkt=3)], BC(budget=1, period=20), cpl={0: 0, 5: 0, 9: 0})
    assert mods[0].held and mods[0].pending == 2 and not mods[0].pkt_run  # expired at 12


def test_budget_with_gap() -> None:
    """F10, F14: GAP 5, BUDGET 5 per 100, completion at every edge: fires 0, 5, 10, 15, 20
    (budget spent), the gap still ends at 25, the interrupt waits for the start at 100."""
    fires, _, mods = budget_drive(101, [MC(immediate=True, gap=5)], BC(budget=5, period=100),
                                  cpl={m: 0 for m in range(101)})
    assert of(fires, 0) == [0, 5, 10, 15, 20, 100]


def test_budget_priority_order() -> None:
    """F10, F16: priorities 1, 2, 2, 4, all gated (running priority 5 -> cfg gated) while
    completions arrive at 1..4; opened at 10 with BUDGET 2: queue 3 (prio 4) and queue 2
    (prio 2, higher index than 1) fire at 10; queues 1 and 0 at the next start, 100."""
    prio = [1, 2, 2, 4]
    gated = [MC(immediate=True, gated=True, prio=p) for p in prio]
    open_ = [MC(immediate=True, prio=p) for p in prio]
    bc = BC(budget=2, period=100)
    fires, left, _ = budget_drive(120, gated, bc, cpl={1: 0, 2: 1, 3: 2, 4: 3}, changes={10: (open_, bc)})
    assert fires == [(10, 2), (10, 3), (100, 0), (100, 1)]
    assert left[9] == 2 and left[10] == 0 and left[100] == 0 and left[110] == 0
    # budget 3: queues 3, 2, 1 at 10, queue 0 at 100
    fires, _, _ = budget_drive(120, gated, BC(3, 100), cpl={1: 0, 2: 1, 3: 2, 4: 3}, changes={10: (open_, BC(3, 100))})
    assert fires == [(10, 1), (10, 2), (10, 3), (100, 0)]


def test_budget_exempt() -> None:
    """F10: BUDGET 1 per 10, queue 1 exempt: it fires at each completion and never takes the
    budget; queue 0 fires once per epoch (0, 10), and its withheld completions never hold
    up queue 1."""
    cfgs = [IMM, MC(immediate=True, exempt=True)]
    fires, left, _ = budget_drive(20, cfgs, BC(budget=1, period=10), cpl={m: m % 2 for m in range(20)})
    assert of(fires, 1) == list(range(1, 20, 2))
    assert of(fires, 0) == [0, 10]
    assert left[0] == 0 and left[1] == 0 and left[10] == 0
    # an exempt queue fires even with BUDGET 0; the other never does
    fires, left, _ = budget_drive(20, cfgs, BC(budget=0, period=3), cpl={m: m % 2 for m in range(20)})
    assert of(fires, 1) == list(range(1, 20, 2)) and of(fires, 0) == [] and set(left) == {0}


def test_budget_restart_period_change_and_enable() -> None:
    """F10: BUDGET 1. PERIOD 10: fire at 0; completion at 3 withheld; restart at 5 starts an
    epoch (fire at 5); completion at 7 waits for 15, and takes that epoch's budget, so the
    completions at 16 and 19 wait for 25. A PERIOD 4 written for edge 17 is loaded at the
    next start (25), so starts are 25, 29, 33. Off at 40 (fires at once), on again at 45:
    edge 45 starts an epoch, its fire takes the budget, 46 waits for 55."""
    on10, on4, off = BC(1, 10), BC(1, 4), BC(1, 0)
    cpl = {0: 0, 3: 0, 7: 0, 16: 0, 19: 0, 26: 0, 27: 0, 30: 0, 41: 0, 42: 0, 45: 0, 46: 0}
    fires, left, _ = budget_drive(60, [IMM], on10, cpl=cpl, restart={5},
                                  changes={17: ([IMM], on4), 40: ([IMM], off), 45: ([IMM], on10)})
    # 16, 19 withheld -> 25; 26, 27 withheld -> 29; 30 withheld -> 33
    assert of(fires, 0) == [0, 5, 15, 25, 29, 33, 41, 42, 45, 55]
    assert left[14] == 0 and left[15] == 0 and left[24] == 0 and left[40] == 1 and left[44] == 1


def test_budget_period_one_and_large_budget() -> None:
    """F10: PERIOD 1 refills at every edge (BUDGET 1: one non-exempt fire per edge, highest
    priority first); BUDGET 0xFFFF never runs out here."""
    cfgs = [MC(immediate=True, prio=1), MC(immediate=True, prio=2)]
    gated = [replace(c, gated=True) for c in cfgs]
    fires, left, _ = budget_drive(6, gated, BC(1, 1), cpl={0: 0, 1: 1}, changes={3: (cfgs, BC(1, 1))})
    assert fires == [(3, 1), (4, 0)] and left == [1, 1, 1, 0, 0, 1]
    fires, left, _ = budget_drive(6, gated, BC(0xFFFF, 7), cpl={0: 0, 1: 1}, changes={3: (cfgs, BC(0xFFFF, 7))})
    assert fires == [(3, 0), (3, 1)] and left == [0xFFFF] * 3 + [0xFFFD] * 3


def test_budget_advance_closed_form() -> None:
    """F10: advance(n) equals n idle steps (values derived by hand)."""
    b = InterruptBudget()
    assert b.edges_to_start(BC(2, 0)) is None
    b.ecnt, b.left = 3, 0
    assert b.edges_to_start(BC(2, 10)) == 4  # edges m+1..m+3 count 2, 1, 0; m+4 starts
    b.advance(3, BC(2, 10))
    assert (b.ecnt, b.left) == (0, 0)
    b.advance(1, BC(2, 10))
    assert (b.ecnt, b.left) == (9, 2)  # the start: refilled, P - 1
    b.ecnt, b.left = 3, 0
    b.advance(16, BC(2, 10))  # +1..+3: 2, 1, 0; start at +4: 9; +5..+13: 8..0; start at +14: 9; 8, 7
    assert (b.ecnt, b.left) == (7, 2)
    b.ecnt, b.left = 0, 0
    b.advance(5, BC(2, 1))
    assert (b.ecnt, b.left) == (0, 2)
    b.advance(5, BC(7, 0))
    assert (b.ecnt, b.left) == (0, 7)  # off: left follows BUDGET


def _skip_run(
    n: int, nq: int, events: dict[int, tuple[int, int, bool, list[ModerationConfig], BudgetConfig, int]], skip: bool
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """Drive edges 0..n-1; ``events[m]`` = (cpl mask, clr mask, restart, cfgs, bcfg, div) seen
    from m. With ``skip`` the edges between events are jumped over exactly as
    :func:`edges_to_event` allows. Returns fires, (m, left) at each event edge, and the
    number of edges evaluated."""
    mods = [Moderation() for _ in range(nq)]
    budget, pre = InterruptBudget(), Prescaler()
    cfgs, bcfg, div = [MC()] * nq, BC(), 1
    fires: list[tuple[int, int]] = []
    seen: list[tuple[int, int]] = []
    evaluated = 0
    ev_edges = sorted(events)
    m = 0
    while m < n:
        cpl = clr = 0
        restart = False
        if m in events:
            cpl, clr, restart, cfgs, bcfg, div = events[m]
        f = budget.step(mods, cpl, pre.step(div), clr, cfgs, bcfg, restart)
        evaluated += 1
        fires += [(m, q) for q in range(nq) if f >> q & 1]
        if m in events:
            seen.append((m, budget.left))
        if not skip:
            m += 1
            continue
        nxt = next((e for e in ev_edges if e > m), n)
        j = edges_to_event(mods, pre, div, budget, bcfg)
        if j is not None and m + j < nxt:
            nxt = m + j
        pre.advance(nxt - m - 1, div)
        budget.advance(nxt - m - 1, bcfg)
        m = nxt
    return fires, seen, evaluated


@pytest.mark.parametrize("seed", range(12))
def test_budget_skip_matches_reference(seed: int) -> None:
    """F10, F17: jumping over edges with edges_to_event + the closed-form advance of the
    prescaler and the budget gives exactly the per-edge results (fires, budget left)."""
    rnd = random.Random(seed)
    nq, n = 3, 60_000
    events: dict[int, tuple[int, int, bool, list[ModerationConfig], BudgetConfig, int]] = {}
    cfgs, bcfg, div = [MC()] * nq, BC(), 1
    m = 0
    while m < n:
        m += rnd.choice((1, 1, 2, 3, 5, 20, 60, 200, 900))
        if rnd.random() < 0.15:
            cfgs = [
                MC(frames=rnd.choice((0, 0, 2)), pkt=rnd.choice((0, 0, 3, 9)), abs=rnd.choice((0, 4, 15)),
                   gap=rnd.choice((0, 0, 2, 7)), immediate=rnd.random() < 0.4, gated=rnd.random() < 0.15,
                   exempt=rnd.random() < 0.25, prio=rnd.randint(0, 3))
                for _ in range(nq)
            ]
        if rnd.random() < 0.1:
            bcfg = BC(rnd.choice((0, 1, 2, 3)), rnd.choice((0, 1, 3, 17, 50, 400)))
        if rnd.random() < 0.1:
            div = rnd.choice((1, 2, 7, 25))
        cpl = 1 << rnd.randrange(nq) if rnd.random() < 0.8 else 0
        clr = rnd.getrandbits(nq) if rnd.random() < 0.2 else 0
        events[m] = (cpl, clr, rnd.random() < 0.05, cfgs, bcfg, div)
    ref = _skip_run(n, nq, events, skip=False)
    fast = _skip_run(n, nq, events, skip=True)
    assert fast[0] == ref[0]
    assert fast[1] == ref[1]
    released = sum(1 for m, _ in ref[0] if m not in events)  # fires by a tick or an epoch start
    assert len(ref[0]) > 150 and released > 30 and fast[2] < ref[2] // 2, (len(ref[0]), released, fast[2], ref[2])


# =============================================================================== Intel mapping (timing.md s6)

def _fire_edges(cfg: ModerationConfig, div: int, cpl: list[int], n: int) -> list[int]:
    """Edges 0..n-1 of one queue with completions at ``cpl``, the cause cleared at each fire's
    next edge (an ISR that is always there): the edges of ``fire``."""
    mod, pre, fires, clr = Moderation(), Prescaler(), [], -1
    for m in range(n):
        if mod.step(m in cpl, pre.step(div), m == clr, cfg):
            fires.append(m)
            clr = m + 1
    return fires


@pytest.mark.parametrize("div", [125, 128, 100])
def test_intel_mapping_never_interrupts_before_intel(div):
    """F14, timing.md s6: intel_ticks' promise, at every phase of a completion against the
    tick. A timer loaded with N ticks ends (N-1)*D+1 to N*D cycles after its load (D =
    TICK_DIV), so the mapping's N must satisfy (N-1)*D+1 >= the Intel delay in cycles. Checked
    for RDTR 8 (packet timer), RADV 8 (absolute timer) and ITR 195 (gap between two fires) at
    every completion phase: the delay past the immediate fire is at least Intel's, and at most
    two ticks more."""
    cyc_ns = 8.0                                    # 125 MHz
    tick = div * cyc_ns
    rdtr, radv, itr = intel_ticks(8, 8, 195, tick_div=div)
    for name, cfg, intel_ns in (("RDTR", ModerationConfig(pkt=rdtr), 8 * 1024.0),
                                ("RADV", ModerationConfig(abs=radv), 8 * 1024.0),
                                ("ITR", ModerationConfig(immediate=True, gap=itr), 195 * 256.0)):
        delays = []
        for phase in range(div):
            c = 3 * div + phase
            if name == "ITR":    # the second of two completions waits for the gap after the first's fire
                f = _fire_edges(cfg, div, [c, c + 2], c + (itr + 3) * div)
                assert f[0] == c
                delays.append((f[1] - f[0]) * cyc_ns)
            else:
                f0 = _fire_edges(ModerationConfig(immediate=True), div, [c], c + 4)
                f = _fire_edges(cfg, div, [c], c + (max(rdtr, radv) + 3) * div)
                delays.append((f[0] - f0[0]) * cyc_ns)
        assert min(delays) >= intel_ns, f"{name} at TICK_DIV {div}: fires {intel_ns - min(delays):g} ns early"
        assert max(delays) <= intel_ns + 2 * tick, f"{name} at TICK_DIV {div}: {max(delays)} ns"


def _intel_formula(value: int, unit_ns: int, div: int, cyc_ns: int = 8) -> int:
    """timing.md s6 in exact arithmetic: N = ceil((value * unit - 1 cycle) / (D cycles)) + 1."""
    return math.ceil(Fraction(value * unit_ns - cyc_ns, div * cyc_ns)) + 1 if value else 0


@pytest.mark.parametrize("div", [100, 125, 128])
@pytest.mark.parametrize("intel, reg, unit_ns", [("RDTR", "ITR_PKT", 1024), ("RADV", "ITR_ABS", 1024),
                                                  ("ITR", "ITR_GAP", 256)])
def test_intel_ticks_refuses_what_the_register_cannot_hold(div, intel, reg, unit_ns):
    """F14, timing.md s6: the largest Intel value whose count fits the 16-bit register (the
    width of docs/regmap.toml) maps by the formula; one more is refused, and the message names
    the Intel register, the value, the count it needs, the register and its maximum, and the
    smallest TICK_DIV at which it fits (at 125 MHz)."""
    top = (1 << int(regmap.REGS[reg].bits)) - 1
    assert top == 65535
    # N <= top  <=>  value * unit - 1 cycle <= (top - 1) * D cycles
    fits = ((top - 1) * div * 8 + 8) // unit_ns
    kw = intel.lower()
    assert _intel_formula(fits, unit_ns, div) <= top < _intel_formula(fits + 1, unit_ns, div)
    got = intel_ticks(**{kw: fits}, tick_div=div)
    assert got == tuple(_intel_formula(fits, unit_ns, div) if k == kw else 0 for k in ("rdtr", "radv", "itr"))
    need = _intel_formula(fits + 1, unit_ns, div)
    smallest = next(d for d in range(div, 2 * div) if _intel_formula(fits + 1, unit_ns, d) <= top)
    with pytest.raises(ValueError) as e:
        intel_ticks(**{kw: fits + 1}, tick_div=div)
    msg = str(e.value)
    for part in (f"Intel {intel} = {fits + 1}", f"needs {need} ticks", f"TICK_DIV {div}",
                 f"{reg} holds at most {top}", f"fits from TICK_DIV {smallest}"):
        assert part in msg, (part, msg)
    intel_ticks(**{kw: fits + 1}, tick_div=smallest)   # accepted there


def test_intel_ticks_refuses_rdtr_65535_at_tick_div_125():
    """timing.md s6's example: RDTR 65,535 (67.1 ms) needs 67,109 1-us ticks; it fits from 129."""
    with pytest.raises(ValueError, match=r"^Intel RDTR = 65535 needs 67109 ticks .* ITR_PKT holds at most 65535: "
                                         r"it fits from TICK_DIV 129$"):
        intel_ticks(rdtr=65535)
    assert intel_ticks(rdtr=65535, tick_div=129)[0] == 65028
