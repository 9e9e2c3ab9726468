"""Per-rule rate limiters of the prionic golden model: deferrable servers (F9).

Normative source: ``docs/limiter.md`` (section 4 is the per-edge definition, section 5
its consequences, section 7 this API). A :class:`Limiter` is arithmetic: it never needs
to be stepped edge by edge. It keeps the origin of the current run of epochs and the
remaining budget of the last epoch it touched, and computes the epoch of an edge as
``(edge - start) // period``, so a cycle-skipping simulator calls it only at the edges
where something happens (a restart, a configuration change, a query).

Calls come in non-decreasing edge order. At one edge, configuration calls
(:meth:`Limiter.restart`, :meth:`Limiter.configure`) come before the query, and there is
at most one query per limiter per edge (the RTL has one set of query ports).
"""

from __future__ import annotations

from dataclasses import dataclass

FRAMES = 0  # MODE 0: every frame costs 1
BYTES = 1  # MODE 1: a frame costs its length (q_cost)

U32_MAX = 0xFFFF_FFFF
COST_MAX = 0xFFFF  # q_cost is 16 bits


@dataclass(frozen=True)
class LimiterConfig:
    """``BUDGET``, ``PERIOD`` (edges; 0 = off) and ``MODE`` of one limiter (limiter.md s2-s3)."""

    budget: int = 0
    period: int = 0
    mode: int = FRAMES

    def __post_init__(self) -> None:
        if not 0 <= self.budget <= U32_MAX:
            raise ValueError(f"budget {self.budget} is not a 32-bit value")
        if not 0 <= self.period <= U32_MAX:
            raise ValueError(f"period {self.period} is not a 32-bit value")
        if self.mode not in (FRAMES, BYTES):
            raise ValueError(f"mode {self.mode} is neither FRAMES (0) nor BYTES (1)")

    def cost(self, q_cost: int) -> int:
        """What a query with ``q_cost`` (the frame length) spends: 1, or ``q_cost`` in bytes mode."""
        return q_cost if self.mode == BYTES else 1


@dataclass(frozen=True)
class _State:
    """Everything the limiter knows after the calls so far.

    With ``cfg.period != 0``: edge ``e >= start`` lies in epoch ``(e - start) // period``;
    ``rem`` is the remaining budget of epoch ``epoch`` (-1: no epoch touched yet, every
    epoch from ``start`` on begins with ``cfg.budget``). With ``cfg.period == 0`` the
    limiter is off and ``start``/``epoch``/``rem`` are not used.
    """

    cfg: LimiterConfig
    start: int
    epoch: int = -1
    rem: int = 0


class Limiter:
    """One rate limiter, a deferrable server (docs/limiter.md; F9).

    ``Limiter(budget, period, mode)`` is the limiter after reset with the configuration it
    sees from edge 0: its first epoch starts at edge 0 (limiter.md s4: ``fresh = 1``).
    """

    def __init__(self, budget: int = 0, period: int = 0, mode: int = FRAMES) -> None:
        self._s = _State(LimiterConfig(budget, period, mode), start=0)
        self._edge = 0  # latest edge of any call
        self._queried = False  # a query was made at self._edge
        # the configuration inputs at edge self._chg_edge: several calls at one edge are one
        # set of inputs, so a later call there starts again from the state before that edge
        self._chg_edge = 0
        self._chg_restart = True  # reset acts like a restart at edge 0
        self._before: _State | None = None

    # ------------------------------------------------------------------ configuration

    @property
    def config(self) -> LimiterConfig:
        """The configuration as seen at the latest edge of a call."""
        return self._s.cfg

    def restart(self, edge: int, budget: int, period: int, mode: int = FRAMES) -> None:
        """``R`` sampled high at ``edge``, with this configuration seen from ``edge`` on.

        ``edge`` opens an epoch with a full budget (limiter.md s4: ``first``); while off
        (``period == 0``) a restart changes nothing that matters.
        """
        cfg = LimiterConfig(budget, period, mode)
        self._enter_change(edge)
        if edge != self._chg_edge:
            self._before = self._s
            self._chg_edge = edge
        self._chg_restart = True
        self._s = _State(cfg, start=edge)

    def configure(self, edge: int, budget: int, period: int, mode: int = FRAMES) -> None:
        """The configuration seen from ``edge`` on changes, without a restart (limiter.md s5).

        ``BUDGET`` is used from the next refill, ``MODE`` from the query at ``edge``; the
        epoch length is compared with the new ``PERIOD`` from ``edge`` on.
        """
        cfg = LimiterConfig(budget, period, mode)
        self._enter_change(edge)
        if edge == self._chg_edge:
            if self._chg_restart:  # a restart at this edge stays a restart
                self._s = _State(cfg, start=edge)
                return
            assert self._before is not None
            base = self._before
        else:
            base = self._s
            self._before = base
            self._chg_edge = edge
            self._chg_restart = False
        self._s = self._reconfigured(base, edge, cfg)

    @staticmethod
    def _reconfigured(base: _State, edge: int, cfg: LimiterConfig) -> _State:
        """The state at ``edge`` when ``cfg`` replaces ``base.cfg`` there without ``R``."""
        old = base.cfg
        if old.period == 0 or cfg.period == 0:
            # off until now: fresh = 1, so ``edge`` opens an epoch if cfg.period != 0;
            # turned off: nothing of the old run is used again
            return _State(cfg, start=edge)
        # edge - 1 >= base.start: base was set up at an edge before this one
        epoch_prev, phase_prev = divmod(edge - 1 - base.start, old.period)
        rem_prev = base.rem if base.epoch == epoch_prev else old.budget
        ph = phase_prev + 1  # the ph register seen at ``edge``
        if ph >= cfg.period:  # first = ph >= PERIOD: a new epoch starts at ``edge``
            return _State(cfg, start=edge)
        # the current epoch goes on: its first edge is edge - ph, it keeps rem_prev
        return _State(cfg, start=edge - ph, epoch=0, rem=rem_prev)

    # ------------------------------------------------------------------ queries

    def query(self, edge: int, cost: int, consume: bool = True) -> bool:
        """The verdict ``pass_i`` at ``edge`` for ``q_cost = cost`` (limiter.md s4).

        ``consume`` is ``q_valid and q_consume``: a passing query then spends its cost
        (1 in frames mode). Off (``period == 0``) every query passes and nothing is spent.
        """
        if not 0 <= cost <= COST_MAX:
            raise ValueError(f"cost {cost} is not a 16-bit value")
        self._enter(edge)
        if self._queried:
            raise ValueError(f"a second query at edge {edge}: the RTL takes one per edge")
        self._queried = True
        s = self._s
        if s.cfg.period == 0:
            return True
        epoch = (edge - s.start) // s.cfg.period
        rem = s.rem if epoch == s.epoch else s.cfg.budget
        c = s.cfg.cost(cost)
        ok = rem >= c
        if ok and consume:
            rem -= c
        if epoch != s.epoch or rem != s.rem:
            self._s = _State(s.cfg, s.start, epoch, rem)
        return ok

    def remaining(self, edge: int) -> int | None:
        """What a query at ``edge`` would be compared against after the calls so far
        (after the query at ``edge`` if there was one); ``None`` while off. Changes nothing."""
        if edge < self._edge:
            raise ValueError(f"edge {edge} is before edge {self._edge} of an earlier call")
        s = self._s
        if s.cfg.period == 0:
            return None
        return s.rem if (edge - s.start) // s.cfg.period == s.epoch else s.cfg.budget

    # ------------------------------------------------------------------ ordering

    def _enter(self, edge: int) -> None:
        if edge < self._edge:
            raise ValueError(f"edge {edge} is before edge {self._edge} of an earlier call")
        if edge > self._edge:
            self._edge = edge
            self._queried = False

    def _enter_change(self, edge: int) -> None:
        self._enter(edge)
        if self._queried:
            raise ValueError(f"configuration change at edge {edge} after the query at that edge")


class LimiterBank:
    """The limiters of the NIC, one per rule (F9), as the admission path sees them.

    A ``RULE_LIM_*`` write at w restarts its rule's limiter at w + 2 with the values
    written, and the rule's ``RULE_LIM_CTRL`` picks its limiter from w + 2 on (limiter.md
    s3, s8; F25): :meth:`restart` queues it, :meth:`query` applies what is due first.
    ``ctrl``: each rule's RULE_LIM_CTRL after reset. Bit positions come from the register
    map (``fields``: ``RULE_LIM_CTRL_BYTES``, ``_SHARED``, ``_LIMITER_LSB``).
    """

    def __init__(self, ctrl: list[int], fields: dict[str, int]) -> None:
        self.limiters = [Limiter() for _ in ctrl]
        self.ctrl = list(ctrl)
        self._bytes = fields["RULE_LIM_CTRL_BYTES"]
        self._shared = fields["RULE_LIM_CTRL_SHARED"]
        self._lsb = fields["RULE_LIM_CTRL_LIMITER_LSB"]
        # (edge, rule, BUDGET, PERIOD, MODE, RULE_LIM_CTRL) not yet applied, in write order
        self._pending: list[tuple[int, int, int, int, int, int]] = []

    def restart(self, edge: int, rule: int, budget: int, period: int, ctrl: int) -> None:
        """Rule ``rule``'s limiter restarts at ``edge`` with these values."""
        mode = BYTES if ctrl >> self._bytes & 1 else FRAMES
        self._pending.append((edge, rule, budget, period, mode, ctrl))

    def query(self, rule: int, a: int, cost: int) -> bool:
        """The rate-limit check of rule ``rule`` at admission edge ``a`` (timing.md s3 step
        10): the limiter its ``RULE_LIM_CTRL`` picks, its own unless ``SHARED``; no rule
        (0xFF) or a limiter id >= NUM_RULES passes."""
        if rule >= len(self.limiters):
            return True
        while self._pending and self._pending[0][0] <= a:
            e, i, budget, period, mode, ctrl = self._pending.pop(0)
            self.limiters[i].restart(e, budget, period, mode)
            self.ctrl[i] = ctrl
        ctrl = self.ctrl[rule]
        lim = ctrl >> self._lsb & 0xFF if ctrl >> self._shared & 1 else rule
        return lim >= len(self.limiters) or self.limiters[lim].query(a, cost)
