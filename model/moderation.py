"""Moderation tick prescaler and per-queue interrupt moderation of the prionic golden model.

Normative source: ``docs/timing.md`` section 4 (moderation tick, ``Prescaler``) and
section 5 (per-queue moderation, ``Moderation``; F14 interrupt moderation, F15 interrupt
cause/mask, F17 cycle timing). Integer/boolean arithmetic only; one call of
:meth:`Moderation.step` is one rising edge ``m``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

PENDING_MAX = 0xFFFF


@dataclass(frozen=True)
class ModerationConfig:
    """Per-queue moderation configuration as seen at edge ``m`` (timing.md s5; F14, F15).

    ``frames``/``pkt``/``abs``/``gap`` are ``ITR_FRAMES``/``ITR_PKT``/``ITR_ABS``/``ITR_GAP``,
    ``immediate`` is ``ITR_CTRL.IMMEDIATE`` and ``mask`` is this queue's ``IRQ_MASK`` bit.
    """

    frames: int = 0
    pkt: int = 0
    abs: int = 0
    gap: int = 0
    immediate: bool = False
    mask: bool = False
    gated: bool = False  # QUEUE_PRIO <= running priority (F16): hold like the gap


def from_intel(rdtr: int, radv: int = 0, itr: int = 0, mask: bool = False) -> ModerationConfig:
    """Intel e1000 receive moderation mapped onto prionic (timing.md section 6; F14).

    All three values in ticks: RDTR (receive delay timer, restarted per completion) ->
    ``ITR_PKT``; RADV (absolute delay) -> ``ITR_ABS``; ITR (throttle interval) -> ``ITR_GAP``.
    RDTR = 0 means an interrupt per completion and Intel then ignores RADV: ``IMMEDIATE``.
    """
    if rdtr == 0:
        return ModerationConfig(immediate=True, gap=itr, mask=mask)
    return ModerationConfig(pkt=rdtr, abs=radv, gap=itr, mask=mask)


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
        if blocked:
            fire = False
            held_n = self.held or cond
        else:
            fire = self.held or cond
            held_n = False

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
