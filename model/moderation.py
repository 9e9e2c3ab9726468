"""Moderation tick prescaler and per-queue interrupt moderation of the prionic golden model.

Normative source: ``docs/timing.md`` section 4 (moderation tick, ``Prescaler``),
section 5 (per-queue moderation, ``Moderation``; F14 interrupt moderation, F15 interrupt
cause/mask, F17 cycle timing) and section 7 (the global interrupt budget,
``InterruptBudget``; F10). Integer/boolean arithmetic only; one call of
:meth:`Moderation.step` (or :meth:`InterruptBudget.step` for all queues) is one rising
edge ``m``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from model.regmap import REGS

PENDING_MAX = 0xFFFF

# why a queue fired (Moderation.why, a bit mask; observation only, for functional coverage, F30):
# the conditions of timing.md s5's `cond` that held at the fire's edge or while the fire was held
WHY_FRAMES = 1     # pending' >= FRAMES
WHY_PKT = 2        # the packet timer expired
WHY_ABS = 4        # the absolute timer expired
WHY_IMMEDIATE = 8  # IMMEDIATE (or no moderation configured)
WHY_NAMES = {WHY_FRAMES: "frames", WHY_PKT: "pkt_timer", WHY_ABS: "abs_timer", WHY_IMMEDIATE: "immediate"}


@dataclass(frozen=True)
class ModerationConfig:
    """Per-queue moderation configuration as seen at edge ``m`` (timing.md s5; F14, F15).

    ``frames``/``pkt``/``abs``/``gap`` are ``ITR_FRAMES``/``ITR_PKT``/``ITR_ABS``/``ITR_GAP``,
    ``immediate`` is ``ITR_CTRL.IMMEDIATE`` and ``mask`` is this queue's ``IRQ_MASK`` bit.

    Interrupt budget (timing.md s7; F10), used only by :class:`InterruptBudget`:
    ``exempt`` -- the queue's interrupts neither consume the budget nor are withheld;
    ``prio`` -- its ``QUEUE_PRIO``, which orders the queues when more are due at one edge
    than the budget allows. The defaults change nothing while the budget is off.
    """

    frames: int = 0
    pkt: int = 0
    abs: int = 0
    gap: int = 0
    immediate: bool = False
    mask: bool = False
    gated: bool = False  # QUEUE_PRIO <= running priority (F16): hold like the gap
    exempt: bool = False  # F10: outside the interrupt budget
    prio: int = 0  # QUEUE_PRIO: budget order (F10), highest first, ties to the higher index


@dataclass(frozen=True)
class BudgetConfig:
    """Global interrupt budget configuration as seen at edge ``m`` (timing.md s7; F10).

    ``budget``: interrupts per epoch (16 bits); ``period``: epoch length in cycles (32
    bits), 0 = budget off, which is exactly timing.md section 5 with nothing withheld.
    """

    budget: int = 0
    period: int = 0


def from_intel(rdtr: int, radv: int = 0, itr: int = 0, mask: bool = False) -> ModerationConfig:
    """Intel e1000 receive moderation mapped onto prionic (timing.md section 6; F14).

    All three values in ticks: RDTR (receive delay timer, restarted per completion) ->
    ``ITR_PKT``; RADV (absolute delay) -> ``ITR_ABS``; ITR (throttle interval) -> ``ITR_GAP``.
    RDTR = 0 means an interrupt per completion and Intel then ignores RADV: ``IMMEDIATE``.
    """
    if rdtr == 0:
        return ModerationConfig(immediate=True, gap=itr, mask=mask)
    return ModerationConfig(pkt=rdtr, abs=radv, gap=itr, mask=mask)


INTEL_DELAY_NS = 1024   # RDTR and RADV count units of 1.024 us (e1000 family)
INTEL_ITR_NS = 256      # ITR counts units of 256 ns
# each Intel register, the prionic register its ticks are loaded into, and its unit in ns
INTEL_REGS = (("RDTR", "ITR_PKT", INTEL_DELAY_NS), ("RADV", "ITR_ABS", INTEL_DELAY_NS),
              ("ITR", "ITR_GAP", INTEL_ITR_NS))


def reg_max(name: str) -> int:
    """The largest value register ``name`` holds (its width in docs/regmap.toml)."""
    return (1 << int(REGS[name].bits)) - 1


def intel_ticks(rdtr: int = 0, radv: int = 0, itr: int = 0, *, tick_div: int = 125,
                clock_mhz: float = 125.0) -> tuple[int, int, int]:
    """Intel's register values (RDTR, RADV in 1.024 us units; ITR in 256 ns units) as prionic
    ticks of ``tick_div`` cycles (timing.md section 6). A timer or gap loaded with ``N`` ticks
    ends ``(N-1) * tick_div + 1`` to ``N * tick_div`` cycles after its load (its first tick
    falls anywhere in the first ``tick_div`` cycles), so ``N`` is the least count whose
    shortest time is not below Intel's: ``N = ceil((delay - 1 cycle) / tick) + 1``. prionic then
    never interrupts sooner than the Intel NIC would; the price is less than two ticks of
    extra delay. Feed the result to :func:`from_intel`.

    Raises ValueError when a count exceeds what its register (``ITR_PKT``, ``ITR_ABS``,
    ``ITR_GAP``) holds; the message names the smallest ``TICK_DIV`` at which it would fit."""
    cyc_ps = round(1e6 / clock_mhz)
    out = []
    for (intel, reg, unit_ns), value in zip(INTEL_REGS, (rdtr, radv, itr), strict=True):
        ps = round(value * unit_ns * 1000)
        n = 0 if ps <= 0 else max(1, -(-(ps - cyc_ps) // (tick_div * cyc_ps)) + 1)
        top = reg_max(reg)
        if n > top:
            # n <= top  <=>  ps - 1 cycle <= (top - 1) * div cycles
            fit = max(1, -(-(ps - cyc_ps) // ((top - 1) * cyc_ps)))
            where = (f"it fits from TICK_DIV {fit}" if fit <= reg_max("TICK_DIV")
                     else f"no TICK_DIV up to {reg_max('TICK_DIV')} fits it")
            raise ValueError(f"Intel {intel} = {value} needs {n} ticks of TICK_DIV {tick_div} at {clock_mhz:g} MHz, "
                             f"but {reg} holds at most {top}: {where}")
        out.append(n)
    return out[0], out[1], out[2]


class Prescaler:
    """The moderation tick prescaler shared by every queue (timing.md s4; F14, F17).

    ``pcnt`` is 0 at edge 0. At every edge, with ``div = max(TICK_DIV, 1)`` as seen at
    that edge: ``tick = pcnt >= div - 1``; ``pcnt' = 0 if tick else pcnt + 1``. With a
    constant ``TICK_DIV = D`` ticks fall on the edges ``m`` with ``m mod D == D - 1``.
    """

    def __init__(self) -> None:
        self.pcnt = 0

    def step(self, div: int) -> bool:
        """Evaluate one edge with ``div = max(TICK_DIV, 1)``; return ``tick(m)``."""
        if self.pcnt >= div - 1:
            self.pcnt = 0
            return True
        self.pcnt += 1
        return False

    def edges_to_tick(self, div: int) -> int:
        """``j >= 1`` such that, if ``div`` stays constant, edge ``m + j`` is the first tick
        after the current edge ``m`` (the one just evaluated)."""
        return max(1, div - self.pcnt)

    def advance(self, n: int, div: int) -> None:
        """Evaluate ``n`` edges with a constant ``div`` without looking at their ticks.

        Closed form of ``n`` calls of :meth:`step`: a ``pcnt`` above ``div - 1`` (after
        ``TICK_DIV`` shrank) ticks at the next edge exactly like ``pcnt == div - 1``, and
        from ``p <= div - 1`` the counter is ``(p + n) mod div`` after ``n`` edges.
        """
        if n <= 0:
            return
        p = self.pcnt if self.pcnt < div - 1 else div - 1
        self.pcnt = (p + n) % div


class Moderation:
    """Per-queue interrupt moderation, one instance per queue (timing.md s5; F14, F15).

    :meth:`step` is exactly the pseudo-code of timing.md section 5, evaluated at every
    edge ``m``; it returns ``fire``. Outputs derived by the caller: ``stat_irq[q]`` is high
    at ``m+1`` when ``fire``; ``irq[q]`` sampled at ``m+1`` is :attr:`irq` after the step;
    ``CNT_IRQ`` counts fires; ``IRQ_CAUSE`` reads :attr:`cause`; ``ITR_PENDING`` reads
    :attr:`pending`.

    Skipping (performance): with no ``cpl``, no ``clr`` and no configuration change,

    * an edge without a tick leaves the state unchanged (after at least one evaluated
      edge), and
    * while :meth:`quiescent` (no timer running, ``held`` 0, ``gap_cnt`` 0) every edge,
      tick or not, leaves the state unchanged,

    so the NIC model may jump over such edges. That argument holds for this class only:
    a subclass is evaluated at every edge unless it sets ``skip_safe = True`` itself.
    With the interrupt budget on (:class:`InterruptBudget`, F10) an interrupt withheld by
    the budget (``held`` 1) fires at an epoch start, which need not be a tick: then an
    edge is skippable only if it is neither a tick nor an epoch start
    (:func:`edges_to_event` computes the next edge that is not).
    """

    skip_safe: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "skip_safe" not in cls.__dict__:
            cls.skip_safe = False

    def __init__(self) -> None:
        self.pending = 0
        self.pkt_run = False
        self.pkt_cnt = 0
        self.abs_run = False
        self.abs_cnt = 0
        self.gap_cnt = 0
        self.held = False
        self.cause = False
        self.irq = False
        self.why = 0       # WHY_* of the last fire (not state: no output depends on it)
        self._held_why = 0

    def quiescent(self) -> bool:
        """True when no edge free of input events can change the state (see class doc)."""
        return not (self.pkt_run or self.abs_run or self.held or self.gap_cnt)

    def step(self, cpl: bool, tick: bool, clr: bool, cfg: ModerationConfig) -> bool:
        """One edge ``m`` of timing.md s5; returns ``fire``.

        ``cpl``: the queue had a completion at ``C = m - 1``; ``tick``: the prescaler tick
        at ``m``; ``clr``: a write at ``m - 1`` wrote 1 to this queue's ``IRQ_CAUSE`` bit;
        ``cfg``: the configuration as seen at ``m``.
        """
        # pending' = min(pending + cpl, 0xFFFF)
        pending_n = self.pending + 1 if cpl else self.pending
        if pending_n > PENDING_MAX:
            pending_n = PENDING_MAX

        # packet timer (Intel RDTR): restarted by every completion
        pkt_run_n = self.pkt_run
        pkt_cnt_n = self.pkt_cnt
        if cfg.pkt == 0:
            pkt_run_n = False
            pkt_exp = False
        elif cpl:
            pkt_run_n = True
            pkt_cnt_n = cfg.pkt
            pkt_exp = False
        elif self.pkt_run and tick:
            pkt_cnt_n = self.pkt_cnt - 1
            pkt_exp = self.pkt_cnt == 1
            pkt_run_n = not pkt_exp
        else:
            pkt_exp = False

        # absolute timer (Intel RADV): started by a completion while not running
        abs_run_n = self.abs_run
        abs_cnt_n = self.abs_cnt
        if cfg.abs == 0:
            abs_run_n = False
            abs_exp = False
        elif self.abs_run and tick:
            abs_cnt_n = self.abs_cnt - 1
            abs_exp = self.abs_cnt == 1
            abs_run_n = not abs_exp
        elif not self.abs_run and cpl:
            abs_run_n = True
            abs_cnt_n = cfg.abs
            abs_exp = False
        else:
            abs_exp = False

        immediate = cfg.immediate or (cfg.frames == 0 and cfg.pkt == 0 and cfg.abs == 0)
        cond = pending_n > 0 and (immediate or (cfg.frames != 0 and pending_n >= cfg.frames) or pkt_exp or abs_exp)

        # minimum gap (Intel ITR)
        gap = self.gap_cnt
        gap_end = gap != 0 and tick and gap == 1
        blocked = (gap != 0 and not gap_end) or cfg.gated
        why = 0
        if cond:
            why = ((WHY_IMMEDIATE if immediate else 0) | (WHY_PKT if pkt_exp else 0) | (WHY_ABS if abs_exp else 0)
                   | (WHY_FRAMES if cfg.frames != 0 and pending_n >= cfg.frames else 0))
        if blocked:
            fire = False
            held_n = self.held or cond
            self._held_why |= why
        else:
            fire = self.held or cond
            held_n = False
            if fire:
                self.why = self._held_why | why
                self._held_why = 0

        if fire:
            pending_n = 0
            pkt_run_n = False
            abs_run_n = False
            gap_n = cfg.gap
        else:
            gap_n = gap - 1 if (gap != 0 and tick) else gap

        cause_n = (self.cause and not clr) or fire
        self.pending = pending_n
        self.pkt_run = pkt_run_n
        self.pkt_cnt = pkt_cnt_n
        self.abs_run = abs_run_n
        self.abs_cnt = abs_cnt_n
        self.gap_cnt = gap_n
        self.held = held_n
        self.cause = cause_n
        self.irq = cause_n and not cfg.mask
        return fire


class InterruptBudget:
    """The global interrupt budget (timing.md s7; F10): a deferrable server over interrupts.

    State: ``ecnt`` (edges left in the current epoch after this one) and ``left``
    (``status_budget_left``: the budget left after the last edge), both 0 at reset. At
    every edge ``m``, with ``P``/``B`` = :class:`BudgetConfig` ``period``/``budget`` as
    seen at ``m`` and ``restart`` the restart pulse sampled at ``m``::

        on    = P != 0
        start = on and (restart or ecnt == 0)       # first edge of an epoch
        avail = B if (not on or start) else left    # refill: nothing carries over
        ecnt' = 0 if not on else (P - 1 if start else ecnt - 1)

    then every queue is evaluated (timing.md s5) in budget order -- ``QUEUE_PRIO``
    descending, ties to the higher queue index -- and a non-exempt queue evaluated while
    ``avail == 0`` is *withheld*: its ``blocked`` term is 1, exactly like gating (F16),
    so a due interrupt stays ``held`` (timers, gap and ``pending`` run on) and fires at
    the first later edge at which the budget, the gap and the gate allow. Each fire of
    a non-exempt queue takes one from ``avail``; ``left' = avail``. Off, nothing is
    withheld or counted and ``left' = B``.

    Going through the queues in budget order and withholding once ``avail`` is 0 is the
    same as the RTL's rule "queue q is withheld when at least ``avail`` non-exempt queues
    ahead of it in that order want to fire".

    Skipping: the budget's own state is advanced in closed form by :meth:`advance`; the
    edges that must be evaluated are given by :func:`edges_to_event`.
    """

    def __init__(self) -> None:
        self.ecnt = 0
        self.left = 0
        self._order_key: tuple[int, ...] = ()
        self._order: list[int] = []

    def _order_of(self, cfgs: Sequence[ModerationConfig]) -> list[int]:
        key = tuple(c.prio for c in cfgs)
        if key != self._order_key:
            self._order_key = key
            self._order = sorted(range(len(cfgs)), key=lambda q: (-key[q], -q))
        return self._order

    def step(
        self,
        mods: Sequence[Moderation],
        cpl: int,
        tick: bool,
        clr: int,
        cfgs: Sequence[ModerationConfig],
        bcfg: BudgetConfig,
        restart: bool = False,
    ) -> int:
        """One edge ``m`` of every queue under the budget (timing.md s5 and s7; F10).

        ``cpl``/``clr``: bit masks over the queues (as for :meth:`Moderation.step`);
        ``cfgs[q]``: queue q's configuration; ``restart``: the restart pulse sampled at
        ``m``. Returns the bit mask of the queues that ``fire``.
        """
        fires = 0
        period = bcfg.period
        if period == 0:  # off: timing.md s5 exactly
            self.ecnt = 0
            self.left = bcfg.budget
            for q, mod in enumerate(mods):
                if mod.step(bool(cpl >> q & 1), tick, bool(clr >> q & 1), cfgs[q]):
                    fires |= 1 << q
            return fires
        start = restart or self.ecnt == 0
        avail = bcfg.budget if start else self.left
        self.ecnt = period - 1 if start else self.ecnt - 1
        for q in self._order_of(cfgs):
            cfg = cfgs[q]
            exempt = cfg.exempt
            if avail == 0 and not exempt:
                cfg = replace(cfg, gated=True)  # withheld: the same term of `blocked` as gating
            if mods[q].step(bool(cpl >> q & 1), tick, bool(clr >> q & 1), cfg):
                fires |= 1 << q
                if not exempt:
                    avail -= 1
        self.left = avail
        return fires

    def edges_to_start(self, bcfg: BudgetConfig) -> int | None:
        """``j >= 1`` such that, with ``bcfg`` constant and no restart, edge ``m + j`` is the
        next epoch start after the edge ``m`` just evaluated; None while the budget is off."""
        if bcfg.period == 0:
            return None
        return self.ecnt + 1

    def advance(self, n: int, bcfg: BudgetConfig) -> None:
        """Evaluate ``n`` edges with a constant ``bcfg``, no restart and no fire (closed form).

        With ``k = ecnt`` the next start is the (k+1)-th edge. If it falls inside the ``n``
        edges the budget is refilled (nothing fires to take from it) and ``ecnt`` is
        ``P - 1`` after it, then counts down modulo ``P`` over the ``n - 1 - k`` edges left.
        """
        if n <= 0:
            return
        period = bcfg.period
        if period == 0:
            self.ecnt = 0
            self.left = bcfg.budget
            return
        k = self.ecnt
        if k >= n:
            self.ecnt = k - n
        else:
            self.left = bcfg.budget
            self.ecnt = (period - 1 - (n - 1 - k)) % period


def edges_to_event(
    mods: Sequence[Moderation],
    prescaler: Prescaler,
    div: int,
    budget: InterruptBudget | None = None,
    bcfg: BudgetConfig | None = None,
) -> int | None:
    """The next edge ``m + j`` (``j >= 1``) after the edge ``m`` just evaluated at which the
    moderation state can change with no input event (no completion, clear, restart or
    configuration change) in between; None when no such edge exists (timing.md s5, s7).

    Every queue :meth:`Moderation.quiescent`: None -- the budget's own counting is
    closed-form (:meth:`InterruptBudget.advance`). Else the next tick, and, while the
    budget is on and some queue is ``held``, the next epoch start if sooner: a held
    interrupt is released only by a tick (gap end), a configuration change (gate,
    ``FRAMES``...) or an epoch start (budget refill), and a queue that is not held can
    only become due at a tick (a timer expiry). The skipped edges ``m+1 .. m+j-1`` are
    then applied with ``prescaler.advance(j - 1, div)`` and ``budget.advance(j - 1, bcfg)``.
    """
    if all(mod.quiescent() for mod in mods):
        return None
    j = prescaler.edges_to_tick(div)
    if budget is not None and bcfg is not None and any(mod.held for mod in mods):
        s = budget.edges_to_start(bcfg)
        if s is not None and s < j:
            j = s
    return j
