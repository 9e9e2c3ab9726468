"""Cycle-accurate golden model of the prionic receive path (the whole NIC).

Normative sources (the model is written from these only):

* ``docs/timing.md``: s1 edge numbering, s2 environment events and the register write
  rule, s3 receive pipeline and admission verdict order, s4 prescaler, s5 per-queue
  moderation (F14, F15, F17);
* ``docs/frame-path.md``: s1 stream input (F1), s2 parser (F3), s3 classification
  (F5, F6), s4 descriptor ring (F12), s5 counters (F13), s6 observability ports;
* ``docs/regmap.toml`` / ``docs/registers.md`` through :mod:`model.regmap`.

Inputs are the environment events of timing.md s2 (frame ``tlast`` at ``T``, register
write at ``w``, completion B handshake at ``C``); :meth:`PrionicModel.run` evaluates the
edges in order. Within one edge ``k`` the model first takes every decision of edge ``k``
(classification, admission, prescaler and moderation), all of which see register values
written at cycles ``< k``, and then applies what happened at ``k`` (completions, then
register writes, then ring resets), which later edges see.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from model import regmap
from model.admit import Admission
from model.classifier import ClassifyEngine, EngineFrame
from model.config import FrameOutcome, ModelConfig
from model.dma import CompletionError, Dma
from model.flowtable import STATUS_REGS, regs_command
from model.limiter import LimiterBank
from model.moderation import BudgetConfig, InterruptBudget, Moderation, ModerationConfig, Prescaler, edges_to_event
from model.parser import PARSE_LATENCY, Parser, ParseResult, beats_length
from model.regs import Registers, Written

MASK32 = 0xFFFFFFFF
V = regmap.VERDICTS
_F = regmap.FIELDS
_EV = regmap.ENUMS["dma_event"]
__all__ = ["CompletionError", "PrionicModel"]


@dataclass(slots=True, eq=False)
class _Frame:
    """A frame in the pipeline between its ``tlast`` (T) and its admission."""

    t_last: int
    length: int
    tuser: bool
    parsed: ParseResult
    ef: EngineFrame


class PrionicModel:
    """Cycle-accurate model of prionic: inputs are the events of timing.md s2.

    Add inputs in any order (each at a cycle later than the last evaluated edge), then
    :meth:`run` evaluates edges ``0..end_cycle`` (or continues from the last run).

    Outputs: :attr:`outcomes` (one :class:`FrameOutcome` per admitted frame, in frame
    order), :attr:`irq_fires` (``(m+1, q)`` for every ``fire`` at edge m: ``stat_irq[q]``
    high at ``m+1``), :attr:`irq_edges` (``(m+1, q, level)`` whenever ``irq[q]`` sampled at
    ``m+1`` differs from the value sampled at ``m``), :attr:`irq_legacy_edges` (extra:
    ``(m+2, level)``, ``irq_legacy`` is the OR of ``irq'`` registered once more),
    :attr:`completions` (extra: ``(C, queue, frame index)`` of every processed completion),
    :attr:`warnings` (inputs outside the spec's contract, e.g. a ring reprogrammed with
    frames in flight) and :meth:`read_reg`. A frame appears in :attr:`outcomes` once its
    admission edge ``a`` has been evaluated.

    Keyword options: ``skip=False`` evaluates the moderation at every edge (the reference
    path); with ``skip=True`` (default) edges at which :class:`Moderation` provably does
    nothing are jumped over with the prescaler advanced in closed form. Skipping is only
    used when ``moderation_cls.skip_safe``. Completions must come in admission order per
    queue (timing.md s3); across queues the DMA serves by priority (F11), so
    ``strict_order=True`` -- a check for a build with one shared queue order -- is off
    by default: it raises :class:`CompletionError` for a completion that is not for the
    oldest admitted frame of all queues.
    """

    moderation_cls: ClassVar[type[Moderation]] = Moderation

    def __init__(self, cfg: ModelConfig, *, skip: bool = True, strict_order: bool = False) -> None:
        self.cfg = cfg
        nq = cfg.num_queues
        self.regs = Registers(cfg)
        self.parser = Parser()
        self.engine = ClassifyEngine(cfg.engine_config())  # F5, F8
        self._table_clr: set[int] = set()  # edges w+1 after a rule-table or flow-cache write
        self._last_t = -1
        self.admission = Admission(cfg, self.regs)
        self.prescaler = Prescaler()
        mcls = self.moderation_cls
        self.moderation: list[Moderation] = [mcls() for _ in range(nq)]
        self.budget = InterruptBudget()  # F10, timing.md s7
        self._bcfg = BudgetConfig()
        self._budget_restart: set[int] = set()  # edges w+2 after an IRQ_BUDGET* write (timing.md s4, s7)
        # moderation reads its configuration as seen at m - 1 (timing.md s4, F25): the
        # configuration after the writes and port changes of edge m, applied after edge m + 1
        self._mod_next: dict[int, tuple[int, BudgetConfig, list[ModerationConfig]]] = {}
        self._mod_dirty = False
        self.limiters = LimiterBank(self.regs.val["RULE_LIM_CTRL"], _F)  # F9, one per rule
        self.skip = skip and mcls.skip_safe

        self.outcomes: list[FrameOutcome] = []
        self.irq_fires: list[tuple[int, int]] = []
        self.irq_edges: list[tuple[int, int, int]] = []
        # observation only (functional coverage, F30): (m+1, q, Moderation.why) of every fire,
        # (edge, q, gated) from which moderation sees queue q gated (F16) or no longer gated
        self.irq_why: list[tuple[int, int, int]] = []
        self.gate_edges: list[tuple[int, int, bool]] = []
        self.irq_legacy_edges: list[tuple[int, int]] = []
        self.warnings: list[str] = []

        self._done = -1  # last evaluated edge
        self.evaluated_edges = 0  # edges evaluated one by one (statistics; the rest were skipped)
        self._pre: dict[int, list[_Frame]] = {}  # admission edge -> frame
        self._post_cpl: dict[int, list[tuple[int, int | None]]] = {}  # C -> (queue, the write-back's AW edge)
        self._release: dict[int, list[tuple[int, int]]] = {}  # edge -> (queue, words) to free
        self._post_write: dict[int, tuple[int, int, int]] = {}
        self._post_port: dict[int, int] = {}  # cycle p -> run_prio port value sampled at p
        self._run_port = 0
        self._cpl: dict[int, int] = {}  # edge m -> bitmask of queues with cpl at m
        self._clr: dict[int, int] = {}  # edge m -> bitmask of IRQ_CAUSE clears seen at m
        self._ring_reset: dict[int, int] = {}  # edge w+1 -> bitmask of queues
        self._post_dma: dict[int, list[tuple[int, int]]] = {}  # event edge E -> (queue, code) (F24)
        self._dma_bump: dict[int, list[tuple[int, int]]] = {}  # edge E+1 -> (queue, code) to count
        self._stall_clr: dict[int, int] = {}  # edge w+1 -> DMA_STALL bits a W1C write clears there
        self._drops: dict[int, list[str]] = {}  # edge -> counters of ext_drop bits high there (F2, F29)
        self.dma = Dma(cfg, self.regs, self.admission, strict_order)  # completions, DMA events (F12, F24)
        # outputs the DMA model keeps (the same lists): (C, queue, frame index) of every completion,
        # (E, queue, code) of every DMA event as taken, (cycle, level) of the irq_err line (F24)
        self.completions, self.dma_events, self.irq_err_edges = (
            self.dma.completions, self.dma.dma_events, self.dma.irq_err_edges)
        self._busy_before = [False] * nq  # queues with admitted frames left, before a write's edge
        self._head_before = [0] * nq  # RING_HEAD before a write's edge (its completions not yet in)
        self._heap: list[int] = []  # edges with an event (duplicates allowed)

        self._legacy = False
        self._div = max(self.regs.val["TICK_DIV"][0], 1)
        self._mcfg: list[ModerationConfig] = self.regs.moderation_configs(self._run_port)

    # ------------------------------------------------------------------ inputs

    def _check_cycle(self, what: str, cycle: int) -> None:
        if cycle <= self._done:
            raise ValueError(f"{what} at cycle {cycle}: edges up to {self._done} are already evaluated")
        if cycle < 0:
            raise ValueError(f"{what} at negative cycle {cycle}")

    def _push(self, edge: int) -> None:
        heapq.heappush(self._heap, edge)

    def reg_write(self, cycle: int, addr: int, data: int, strb: int = 0xF) -> None:
        """AXI-Lite write with byte strobes ``strb`` whose AW and W handshake at cycle ``w``
        (timing.md s2)."""
        self._check_cycle("register write", cycle)
        if cycle in self._post_write:
            raise ValueError(f"two register writes at cycle {cycle}")
        self._post_write[cycle] = (addr, data & MASK32, strb & 0xF)
        self._push(cycle)
        self._push(cycle + 1)

    def frame(
        self, cycle: int, data: bytes, tuser: bool = False, tkeep_ok: bool = True, tkeep: Sequence[int] | None = None
    ) -> None:
        """A frame whose ``tlast`` handshake is at cycle ``T = cycle`` (timing.md s2-3; F1, F3).

        ``data``: the frame's bytes (with a legal ``tkeep``, ``len(data)`` saturated at
        0xFFFF is the frame length, frame-path.md s1); ``tuser``: ``tuser`` on the last
        beat; ``tkeep_ok``: False when any beat's ``tkeep`` was illegal.

        Optional ``tkeep``: the ``tkeep`` of every beat. Then the length is counted as
        frame-path.md s1 says (``KEEP_WIDTH`` per beat but the last plus the set bits of
        the last beat's ``tkeep``, even when illegal) and the frame is malformed when
        ``tkeep_ok`` is False or the pattern is illegal. A legal pattern must agree with
        ``len(data)``.
        """
        self._check_cycle("frame", cycle)
        try:
            length, tkeep_ok = beats_length(data, tkeep, self.cfg.keep_width, tkeep_ok)
        except ValueError as e:
            raise ValueError(f"frame at cycle {cycle}: {e}") from None
        if cycle <= self._last_t:
            raise ValueError(f"frame ending at cycle {cycle}: not after the previous frame's end {self._last_t}")
        self._last_t = cycle
        parsed = self.parser.parse(data, tkeep_ok, length)  # registered at T+6, config-free
        skip = bool(tuser) or parsed.length > self.cfg.max_frame_len or parsed.malformed or parsed.frag
        ef = EngineFrame(parsed, cycle + PARSE_LATENCY + 1, skip)  # reaches the engine at T+7
        f = _Frame(cycle, parsed.length, bool(tuser), parsed, ef)
        ef.payload = f
        self.engine.push(ef)
        self._push(cycle + PARSE_LATENCY + 1)

    def run_prio_input(self, cycle: int, value: int) -> None:
        """The ``run_prio`` input port changes to ``value``, first sampled at edge ``p =
        cycle``; like a register write it is seen from ``p + 1`` (timing.md s5; F16)."""
        self._check_cycle("run_prio port", cycle)
        self._post_port[cycle] = value & 0xFF
        self._push(cycle)
        self._push(cycle + 1)

    def completion(self, cycle: int, queue: int, sent: int | None = None) -> None:
        """B handshake of a write-back of ``queue`` at cycle ``C``; ``sent``: its AW edge, if known (timing.md s2)."""
        self._check_cycle("completion", cycle)
        if not 0 <= queue < self.cfg.num_queues:
            raise ValueError(f"completion at cycle {cycle} for queue {queue}: no such queue")
        if cycle in self._post_cpl:
            raise ValueError(f"two completions at cycle {cycle} (one B channel)")
        self._post_cpl[cycle] = [(queue, sent)]
        self._push(cycle)
        self._push(cycle + 1)

    def dma_event(self, cycle: int, queue: int, code: int) -> None:
        """A DMA event of docs/regmap.toml ``[enums.dma_event]`` at edge ``E = cycle`` (F24,
        docs/faults.md): ``stat_dma_valid`` is high at E+1. Like the completion C it is a
        DUT output taken as a timing input: an error (codes 1-5) stops ``queue`` from E
        (admissions at E+1 and later see it), FLUSH drops the queue's oldest admitted frame
        unwritten (its on-chip space is given back at E+1, like a completion's at C+1),
        BUF_ERR makes the queue's next completion an ERR write-back, a stall (STALL_W,
        STALL_R) sets its DMA_STALL bit at E+1 and stops nothing; a write stall of a burst
        a reset left open and a STRAY_B have queue 0xFF (CNT_DMA_ERR_ALL only, stop nothing)."""
        self._check_cycle("DMA event", cycle)
        self.dma.check_event(cycle, queue, code)
        if cycle in self._post_dma:
            raise ValueError(f"two DMA events at cycle {cycle} (one stat_dma port)")
        self._post_dma[cycle] = [(queue, code)]
        self._push(cycle)
        self._push(cycle + 1)

    def ext_drop(self, cycle: int, counter: str = "CNT_DROP_FIFO") -> None:
        """An ``ext_drop`` bit high at edge ``cycle``: its ``counter`` + 1 there (F2, F29)."""
        self._check_cycle("ext_drop", cycle)
        self._drops.setdefault(cycle, []).append(counter)
        self._push(cycle)

    # ------------------------------------------------------------------ evaluation

    def run(self, end_cycle: int) -> None:
        """Evaluate every edge up to ``end_cycle`` (from 0, or from the previous run)."""
        m = self._done + 1
        heap = self._heap
        mods = self.moderation
        while m <= end_cycle:
            self._edge(m)
            self._done = m
            while heap and heap[0] <= m:
                heapq.heappop(heap)
            if not self.skip:
                m += 1
                continue
            nxt = heap[0] if heap and heap[0] <= end_cycle else end_cycle + 1
            if nxt > m + 1:
                div = self._div
                j = edges_to_event(mods, self.prescaler, div, self.budget, self._bcfg)
                if j is not None and m + j < nxt:
                    nxt = m + j
                self.prescaler.advance(nxt - m - 1, div)
                self.budget.advance(nxt - m - 1, self._bcfg)
                self._done = nxt - 1
            m = nxt

    def _edge(self, m: int) -> None:
        """Everything that happens at edge ``m``."""
        self.evaluated_edges += 1
        for name in self._drops.pop(m, ()):
            self.regs.bump(name)
        if m in self._post_write:  # a write at m sees the queues as they were before edge m (F24)
            self._busy_before = [u != 0 for u in self.admission.used_frames]
            # ... and HEAD before the completions of edge m (the DMA's head register, F24)
            self._head_before = list(self.regs.val["RING_HEAD"])
        # decisions of edge m (see registers as written at cycles < m)
        pre = self._pre.pop(m, None)
        if pre is not None:
            for f in pre:
                self._admit(f, m)
        table_clr = m in self._table_clr
        if table_clr:
            self._table_clr.discard(m)
        if table_clr or self.engine.busy or self.engine.queue:
            self._engine_step(m, table_clr)
        tick = self.prescaler.step(self._div)
        cpl = self._cpl.pop(m, 0)
        for q, words in self._release.pop(m, ()):
            self.admission.release(q, words)
        clr = self._clr.pop(m, 0)
        mcfg = self._mcfg
        legacy = False
        old = [mod.irq for mod in self.moderation]
        restart = m in self._budget_restart
        if restart:
            self._budget_restart.discard(m)
        fires = self.budget.step(self.moderation, cpl, tick, clr, mcfg, self._bcfg, restart)
        for q, mod in enumerate(self.moderation):
            old_irq = old[q]
            if fires >> q & 1:
                self.irq_fires.append((m + 1, q))
                self.irq_why.append((m + 1, q, mod.why))
                self.regs.bump("CNT_IRQ", q)
            if mod.irq != old_irq:
                self.irq_edges.append((m + 1, q, int(mod.irq)))
            if mod.irq:
                legacy = True
        if legacy != self._legacy:
            self._legacy = legacy
            self.irq_legacy_edges.append((m + 2, int(legacy)))
        self.dma.stall &= ~self._stall_clr.pop(m, 0)  # a W1C clear at w+1; a set at that edge wins
        for q, code in self._dma_bump.pop(m, ()):  # stat_dma_valid high at E+1: the counters (F24)
            self.dma.count(q, code)
        # what happened at cycle m (seen from m+1 on)
        cq = self._post_cpl.pop(m, None)
        if cq is not None:
            for q, sent in cq:
                self._complete(m, q, sent)
        ev = self._post_dma.pop(m, None)
        if ev is not None:
            for q, code in ev:
                self._dma(m, q, code)
        nxt = self._mod_next.pop(m, None)
        if nxt is not None:  # taken after edge m - 1, seen by moderation from m + 1
            for q, (old_cfg, new_cfg) in enumerate(zip(self._mcfg, nxt[2], strict=True)):
                if old_cfg.gated != new_cfg.gated:
                    self.gate_edges.append((m + 1, q, new_cfg.gated))
            self._div, self._bcfg, self._mcfg = nxt
        wr = self._post_write.pop(m, None)
        if wr is not None:
            self._write(m, *wr)
        port = self._post_port.pop(m, None)
        if port is not None:
            self._run_port = port
            self._mod_dirty = True
        if self._mod_dirty:
            self._mod_dirty = False
            v = self.regs.val
            self._mod_next[m + 1] = (max(v["TICK_DIV"][0], 1),
                                     BudgetConfig(v["IRQ_BUDGET"][0], v["IRQ_BUDGET_PERIOD"][0]),
                                     self.regs.moderation_configs(self._run_port))
            self._push(m + 1)
            self._push(m + 2)
        rr = self._ring_reset.pop(m, 0)
        if rr:
            self.dma.reset_rings(m, rr)

    def _dma(self, e: int, q: int, code: int) -> None:
        """DMA event at edge E (F24, docs/faults.md; see :meth:`dma_event`): counted at E+1,
        a flushed frame's space given back at E+1."""
        flushed = self.dma.event(e, q, code)
        self._dma_bump.setdefault(e + 1, []).append((q, code))
        self._push(e + 1)
        if flushed is not None:
            self._release.setdefault(e + 1, []).append((q, self.cfg.words(flushed.length)))
            self._push(e + 1)

    def _engine_step(self, m: int, clr: bool) -> None:
        """Edge m of the classification engine (timing.md s3.1; F5, F8): a verdict
        registered at m is admitted at m + 1."""
        done = self.engine.step(m, clr, self.regs.table_view)
        while self.engine.counted:  # CNT_FLOW_HIT, CNT_FLOW_MISS (F8), CNT_FLOW_TABLE_HIT (F31)
            self.regs.bump(self.engine.counted.pop())
        if done is not None:
            f = done.payload
            assert isinstance(f, _Frame)
            self._pre.setdefault(m + 1, []).append(f)
            self._push(m + 1)
        nxt = self.engine.next_edge(m)
        if nxt is not None:
            self._push(nxt)

    def _admit(self, f: _Frame, a: int) -> None:
        """Edge a (T+11 for a looked-up frame without a wait): admission (timing.md s3; F12, F13)."""
        verdict, queue, rule, slot = self.admission.admit(
            f.length, f.tuser, f.parsed, f.ef.cls, self._ring_reset.get(a, 0),
            lambda rule: self.limiters.query(rule, a, f.length & 0xFFFF), a,
        )
        o = FrameOutcome(
            index=len(self.outcomes),
            t_last=f.t_last,
            length=f.length,
            verdict=verdict,
            queue=queue,
            rule=rule,
            slot=slot,
            timestamp=f.t_last & MASK32,
            verdict_cycle=a + 1,
            flags=f.parsed.flags,
            info=f.parsed.info,
            flow=f.ef.flow,
            flow_why=f.ef.why,
            flow_evict=f.ef.evicted,
        )
        self.outcomes.append(o)
        if verdict == V["ACCEPT"]:
            self.dma.accept(o)

    def _complete(self, c: int, q: int, sent: int | None) -> None:
        """Completion B handshake at cycle C: HEAD at edge C (:meth:`Dma.complete`), ``cpl``
        and the frame's space given back at edge C+1 (timing.md s3, s5)."""
        o = self.dma.complete(c, q, sent)
        self._cpl[c + 1] = self._cpl.get(c + 1, 0) | 1 << q
        self._release.setdefault(c + 1, []).append((q, self.cfg.words(o.length)))

    def _write(self, w: int, addr: int, data: int, strb: int = 0xF) -> None:
        """A register write at cycle w: what it does in the register block is
        :meth:`Registers.write` (docs/regmap.toml attributes); here what follows in the rest
        of the NIC: W1C clears at w+1, RING_TAIL and BUF_SIZE seen by admission from w+2
        (timing.md s3; F25), the write pulses at w+1, and moderation's configuration
        re-read from the registers, seen from w+2 (timing.md s4)."""
        wr: Written | None = self.regs.write(addr, data, strb, self._busy_before, self._head_before)
        if wr is None:
            return
        name, i = wr.name, wr.index
        if wr.w1c:
            if name == "IRQ_CAUSE":
                self._clr[w + 1] = self._clr.get(w + 1, 0) | wr.w1c
            elif name == "DMA_STALL":
                self._stall_clr[w + 1] = self._stall_clr.get(w + 1, 0) | wr.w1c
                self._push(w + 1)
            else:
                raise ValueError(f"docs/regmap.toml: W1C register {name} has no meaning in the model")
            return
        if name in ("RING_TAIL", "BUF_SIZE"):
            self.admission.wrote(name, i, w, wr.old)
        if not wr.selected:
            return
        for pulse in wr.pulses:
            self._pulse(pulse, w, name, i)
        self._mod_dirty = True

    def _pulse(self, pulse: str, w: int, name: str, i: int) -> None:
        """The write pulse ``pulse`` of docs/regmap.toml [pulses], high at w+1, for instance ``i``."""
        vals = self.regs.val
        if pulse == "ring_rst":  # RESV and HEAD restart at w+1
            self._ring_reset[w + 1] = self._ring_reset.get(w + 1, 0) | 1 << i
            if self.dma.outstanding[i]:
                self.warnings.append(
                    f"cycle {w}: ring of queue {i} reprogrammed ({name}) with "
                    f"{len(self.dma.outstanding[i])} admitted frame(s) not completed"
                )
        elif pulse == "table_clr":  # F8: clear the flow cache, restart a scan
            self._table_clr.add(w + 1)
        elif pulse == "lim_restart":  # pulse at w+1; the limiter takes it and the values at w+2 (limiter.md s8; F9)
            self.limiters.restart(w + 2, i, vals["RULE_LIM_BUDGET"][i], vals["RULE_LIM_PERIOD"][i],
                                  vals["RULE_LIM_CTRL"][i])
        elif pulse == "flow_go" and self.engine.table is not None:  # F31: FLOW_CMD taken at w+1
            self.engine.table.command(w + 1, regs_command(self.regs.val))
        elif pulse == "budget_restart":  # at w+2 with the values it goes with (timing.md s4, s7; F10)
            self._budget_restart.add(w + 2)
            self._push(w + 2)
        else:
            raise ValueError(f"docs/regmap.toml: pulse {pulse!r} ({name}) has no meaning in the model")

    # ------------------------------------------------------------------ outputs

    def expected_completions(self, queue: int) -> list[FrameOutcome]:
        """The ``ACCEPT`` outcomes of ``queue`` in admission order (completion order), but
        those the DMA dropped unwritten (FLUSH, F24)."""
        return self.dma.expected_completions(queue)

    def read_reg(self, addr: int) -> int:
        """The value a register read returns after :meth:`run` (state after the last edge):
        ``TIMESTAMP`` the value sampled at the last evaluated edge, unmapped addresses 0 (registers.md)."""
        d = self.regs.decode(addr & ~3)  # the slave ignores the two low address bits
        if d is None:
            return 0
        name, i = d
        if name == "ITR_PENDING":
            return self.moderation[i].pending
        if name == "IRQ_CAUSE":
            return sum(1 << q for q, mod in enumerate(self.moderation) if mod.cause)
        if name == "IRQ_STATUS":
            return sum(1 << q for q, mod in enumerate(self.moderation) if mod.irq)
        if name == "TIMESTAMP":
            return max(self._done, 0) & MASK32
        if name == "PENDING_PRIO":
            return self.pending_prio()
        if name == "IRQ_BUDGET_LEFT":
            return self.budget.left
        # F31: FLOW_STATUS, FLOW_RVAL, FLOW_USED; F24: QUEUE_STATUS, DMA_ERR_STATUS, DMA_STALL
        live = self.engine.table_read(name, self._done) if name in STATUS_REGS else self.dma.read(name, i)
        return self.regs.val[name][i] if live is None else live

    def ring_idle(self, q: int, busy: bool) -> bool:
        """A ring register write is kept (F24): no frame admitted to queue q is left
        (``busy`` False) and the queue is disabled or its ring is below 2 slots, so that
        nothing can be admitted to it either."""
        return self.regs.ring_idle(q, busy)

    def drained(self, q: int) -> bool:
        """``QUEUE_STATUS.DRAINED`` (F24): the queue is disabled and every frame admitted to
        it is completed or flushed (its on-chip reservation given back)."""
        return self.dma.drained(q)

    def pending_prio(self) -> int:
        """``PENDING_PRIO``: ``{1, max QUEUE_PRIO}`` over queues with unsignalled completions,
        0 when none (timing.md s5; F16)."""
        prios = [self.regs.val["QUEUE_PRIO"][q] for q, mod in enumerate(self.moderation) if mod.pending]
        return 0x100 | max(prios) if prios else 0
