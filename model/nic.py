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
from collections import deque
from collections.abc import Sequence
from typing import ClassVar

from model import regmap
from model.admit import Admission
from model.classifier import ClassifyEngine, EngineFrame, Rule, TableView
from model.config import FrameOutcome, ModelConfig
from model.limiter import BYTES, FRAMES, Limiter
from model.moderation import BudgetConfig, InterruptBudget, Moderation, ModerationConfig, Prescaler, edges_to_event
from model.parser import PARSE_LATENCY, Parser, ParseResult, length_from_tkeep, tkeep_legal
from model.regs import Registers

MASK32 = 0xFFFFFFFF
V = regmap.VERDICTS
_F = regmap.FIELDS
_EV = regmap.ENUMS["dma_event"]


class CompletionError(RuntimeError):
    """A completion that cannot belong to any admitted frame (timing.md s2, s3)."""


class _Frame:
    """A frame in the pipeline between its ``tlast`` (T) and its admission."""

    __slots__ = ("t_last", "length", "tuser", "parsed", "ef")

    def __init__(self, t_last: int, length: int, tuser: bool, parsed: ParseResult, ef: EngineFrame) -> None:
        self.t_last = t_last
        self.length = length
        self.tuser = tuser
        self.parsed = parsed
        self.ef = ef


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
        self.limiters = [Limiter() for _ in range(cfg.num_rules)]  # F9, one per rule
        # the limiters see a RULE_LIM_* write at w from edge w + 2 (limiter.md s3, s8; F25):
        # (edge, rule, BUDGET, PERIOD, MODE, RULE_LIM_CTRL) not yet applied, in write order,
        # and each rule's RULE_LIM_CTRL as the limiter path sees it
        self._lim_pending: list[tuple[int, int, int, int, int, int]] = []
        self._lim_ctrl = list(self.regs.val["RULE_LIM_CTRL"])
        self.skip = skip and mcls.skip_safe
        self.strict_order = strict_order

        self.outcomes: list[FrameOutcome] = []
        self.irq_fires: list[tuple[int, int]] = []
        self.irq_edges: list[tuple[int, int, int]] = []
        self.irq_legacy_edges: list[tuple[int, int]] = []
        self.warnings: list[str] = []
        self.completions: list[tuple[int, int, int]] = []  # (C, queue, frame index), in order

        self._done = -1  # last evaluated edge
        self.evaluated_edges = 0  # edges evaluated one by one (statistics; the rest were skipped)
        self._pre: dict[int, list[_Frame]] = {}  # admission edge -> frame
        self._post_cpl: dict[int, list[int]] = {}
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
        self.dma_stall = 0  # DMA_STALL: [0] WRITE, [1] READ, sticky (F24)
        self._buf_err = [0] * nq
        self._busy_before = [False] * nq  # queues with admitted frames left, before a write's edge
        self._head_before = [0] * nq  # RING_HEAD before a write's edge (its completions not yet in)
        self.irq_err_edges: list[tuple[int, int]] = []  # (cycle, level) of the irq_err line (F24)
        self.dma_events: list[tuple[int, int, int]] = []  # (E, queue, code) as taken
        self._heap: list[int] = []  # edges with an event (duplicates allowed)

        self._outstanding: list[deque[FrameOutcome]] = [deque() for _ in range(nq)]
        self._inflight: deque[FrameOutcome] = deque()
        self._accepted: list[list[FrameOutcome]] = [[] for _ in range(nq)]
        self._legacy = False
        self._div = max(self.regs.val["TICK_DIV"][0], 1)
        self._mcfg: list[ModerationConfig] = [self._moderation_config(q) for q in range(nq)]

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
        length: int | None = None
        if tkeep is not None:
            kw = self.cfg.keep_width
            length = length_from_tkeep(tkeep, kw)
            if tkeep_legal(tkeep, kw):
                if length != min(len(data), 0xFFFF):
                    raise ValueError(f"frame at cycle {cycle}: tkeep counts {length} bytes, data has {len(data)}")
            else:
                tkeep_ok = False
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

    def completion(self, cycle: int, queue: int) -> None:
        """The B handshake of a completion write-back of ``queue`` at cycle ``C`` (timing.md s2)."""
        self._check_cycle("completion", cycle)
        if not 0 <= queue < self.cfg.num_queues:
            raise ValueError(f"completion at cycle {cycle} for queue {queue}: no such queue")
        if cycle in self._post_cpl:
            raise ValueError(f"two completions at cycle {cycle} (one B channel)")
        self._post_cpl[cycle] = [queue]
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
        a reset left open has queue 0xFF (no queue: counted in CNT_DMA_ERR_ALL only)."""
        self._check_cycle("DMA event", cycle)
        if code == _EV["STALL_W"] and queue == 0xFF:
            pass
        elif not 0 <= queue < self.cfg.num_queues:
            raise ValueError(f"DMA event at cycle {cycle} for queue {queue}: no such queue")
        if code not in regmap.ENUMS["dma_event"].values():
            raise ValueError(f"DMA event at cycle {cycle}: unknown code {code}")
        if cycle in self._post_dma:
            raise ValueError(f"two DMA events at cycle {cycle} (one stat_dma port)")
        self._post_dma[cycle] = [(queue, code)]
        self._push(cycle)
        self._push(cycle + 1)

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
                self.regs.bump("CNT_IRQ", q)
            if mod.irq != old_irq:
                self.irq_edges.append((m + 1, q, int(mod.irq)))
            if mod.irq:
                legacy = True
        if legacy != self._legacy:
            self._legacy = legacy
            self.irq_legacy_edges.append((m + 2, int(legacy)))
        self.dma_stall &= ~self._stall_clr.pop(m, 0)  # a W1C clear at w+1; a set at that edge wins
        for q, code in self._dma_bump.pop(m, ()):  # stat_dma_valid high at E+1: the counters (F24)
            if code == _EV["FLUSH"]:
                self.regs.bump("CNT_DMA_FLUSH", q)
                continue
            if q < self.cfg.num_queues:  # (a stall of no queue: 0xFF)
                self.regs.bump("CNT_DMA_ERR", q)
            self.regs.bump("CNT_DMA_ERR_ALL")
            if code == _EV["STALL_W"]:
                self.dma_stall |= 1 << _F["DMA_STALL_WRITE"]
            elif code == _EV["STALL_R"]:
                self.dma_stall |= 1 << _F["DMA_STALL_READ"]
        # what happened at cycle m (seen from m+1 on)
        cq = self._post_cpl.pop(m, None)
        if cq is not None:
            for q in cq:
                self._complete(m, q)
        ev = self._post_dma.pop(m, None)
        if ev is not None:
            for q, code in ev:
                self._dma(m, q, code)
        nxt = self._mod_next.pop(m, None)
        if nxt is not None:  # taken after edge m - 1, seen by moderation from m + 1
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
                                     [self._moderation_config(q) for q in range(self.cfg.num_queues)])
            self._push(m + 1)
            self._push(m + 2)
        rr = self._ring_reset.pop(m, 0)
        if rr:
            stopped = any(self.admission.qerr)
            for q in range(self.cfg.num_queues):
                if rr >> q & 1:
                    self.admission.reset_ring(q)
                    self.regs.val["RING_HEAD"][q] = 0
                    self.admission.qerr[q] = 0  # a ring reset restarts a stopped queue (F24)
            if stopped and not any(self.admission.qerr):
                self.irq_err_edges.append((m + 1, 0))

    def _dma(self, e: int, q: int, code: int) -> None:
        """DMA event at edge E (F24, docs/faults.md; see :meth:`dma_event`)."""
        self.dma_events.append((e, q, code))
        self._dma_bump.setdefault(e + 1, []).append((q, code))
        self._push(e + 1)
        adm = self.admission
        if code == _EV["FLUSH"]:
            if not adm.qerr[q]:
                raise CompletionError(f"FLUSH at cycle {e} for queue {q}, which is not stopped")
            o = self._take(e, q, "FLUSH")
            o.dma = "flush"
            self._release.setdefault(e + 1, []).append((q, self.cfg.words(o.length)))
            self._push(e + 1)
        elif code == _EV["BUF_ERR"]:
            self._buf_err[q] += 1
        elif code in (_EV["STALL_W"], _EV["STALL_R"]):
            pass  # nothing stops, nothing is abandoned: the DMA keeps offering the handshake
        elif code == _EV["WB_ERR"]:
            done = [o for o in self._accepted[q] if o.dma]
            if not done or self.completions[-1][0] != e or done[-1].dma not in ("done", "err"):
                raise CompletionError(f"WB_ERR at cycle {e} for queue {q}: no write-back of it completed then")
            done[-1].dma = "wb_err"  # its write-back may not be in memory
            self._stop(e, q, code)
        else:
            self._stop(e, q, code)

    def _stop(self, e: int, q: int, code: int) -> None:
        """An error stops a running queue; a stopped one keeps its first cause (faults.md s2)."""
        adm = self.admission
        if adm.qerr[q]:
            if code == _EV["RING_ERR"]:
                raise CompletionError(f"RING_ERR at cycle {e} for queue {q}, which is already stopped")
            return
        if not any(adm.qerr):
            self.irq_err_edges.append((e + 1, 1))
        adm.qerr[q] = code

    def _table_view(self, m: int) -> TableView:
        """Rule table, default and fragment actions, flow cache setup as seen at edge m."""
        regs = self.regs.val
        rules = [
            Rule(regs["RULE_CTRL"][r], regs["RULE_DPORT"][r], regs["RULE_SPORT"][r], regs["RULE_ETHERTYPE"][r],
                 regs["RULE_SRC_IP"][r], regs["RULE_SRC_MASK"][r], regs["RULE_DST_IP"][r], regs["RULE_DST_MASK"][r],
                 regs["RULE_VLAN"][r])
            for r in range(self.cfg.num_rules)
        ]
        return TableView(rules, regs["DEFAULT_ACTION"][0], regs["FRAG_ACTION"][0],
                         bool(regs["FLOW_CTRL"][0] >> _F["FLOW_CTRL_ENABLE"] & 1), regs["FLOW_IDLE"][0])

    def _engine_step(self, m: int, clr: bool) -> None:
        """Edge m of the classification engine (timing.md s3.1; F5, F8): a verdict
        registered at m is admitted at m + 1."""
        hits, misses = self.engine.hits, self.engine.misses
        done = self.engine.step(m, clr, self._table_view)
        if self.engine.hits != hits:
            self.regs.bump("CNT_FLOW_HIT")
        if self.engine.misses != misses:
            self.regs.bump("CNT_FLOW_MISS")
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
            lambda rule: self._limit(rule, a, f.length & 0xFFFF), a,
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
            self._outstanding[queue].append(o)
            self._inflight.append(o)
            self._accepted[queue].append(o)

    def _limit(self, rule: int, a: int, cost: int) -> bool:
        """The rate-limit check of rule ``rule`` at admission edge ``a`` (timing.md s3 step
        10, F9): the limiter its ``RULE_LIM_CTRL`` picks, its own unless ``SHARED``; no rule
        (0xFF) or a limiter id >= NUM_RULES passes."""
        if rule >= len(self.limiters):
            return True
        self._lim_catch_up(a)
        ctrl = self._lim_ctrl[rule]
        lim = ctrl >> _F["RULE_LIM_CTRL_LIMITER_LSB"] & 0xFF if ctrl >> _F["RULE_LIM_CTRL_SHARED"] & 1 else rule
        return lim >= len(self.limiters) or self.limiters[lim].query(a, cost)

    def _lim_catch_up(self, a: int) -> None:
        """Apply the limiter writes seen by edge ``a``: each restarts its rule's limiter at
        w + 2 with the values written, and its RULE_LIM_CTRL picks from w + 2 on."""
        while self._lim_pending and self._lim_pending[0][0] <= a:
            e, i, budget, period, mode, ctrl = self._lim_pending.pop(0)
            self.limiters[i].restart(e, budget, period, mode)
            self._lim_ctrl[i] = ctrl

    def _take(self, c: int, q: int, what: str) -> FrameOutcome:
        """The oldest admitted frame of queue q that the DMA has not finished, for a
        completion or a FLUSH at cycle c."""
        pending = self._outstanding[q]
        if not pending:
            raise CompletionError(
                f"{what} at cycle {c} for queue {q}: no admitted frame of queue {q} is outstanding"
            )
        o = pending[0]
        if o.admit_cycle >= c:
            raise CompletionError(
                f"{what} at cycle {c} for queue {q}: its frame {o.index} is admitted only at {o.admit_cycle}"
            )
        if self._inflight[0] is not o:
            first = self._inflight[0]
            if self.strict_order:
                raise CompletionError(
                    f"{what} at cycle {c} for queue {q} (frame {o.index}) out of admission order: "
                    f"frame {first.index} of queue {first.queue} (admitted at {first.admit_cycle}) is older"
                )
            self._inflight.remove(o)
        else:
            self._inflight.popleft()
        pending.popleft()
        return o

    def _complete(self, c: int, q: int) -> None:
        """Completion B handshake at cycle C: HEAD at edge C, ``cpl`` at edge C+1 (timing.md s3, s5).
        A completion of a queue stopped before C, or after a BUF_ERR, has an ERR write-back (F24)."""
        o = self._take(c, q, "completion")
        if self._buf_err[q]:
            self._buf_err[q] -= 1
            o.dma = "err"
        else:
            o.dma = "err" if self.admission.qerr[q] else "done"
        self.completions.append((c, q, o.index))
        size = self.regs.val["RING_SIZE"][q]
        assert o.slot is not None
        self.regs.val["RING_HEAD"][q] = (o.slot + 1) % size if size else 0
        self._cpl[c + 1] = self._cpl.get(c + 1, 0) | 1 << q
        self._release.setdefault(c + 1, []).append((q, self.cfg.words(o.length)))

    def _write(self, w: int, addr: int, data: int, strb: int = 0xF) -> None:
        """A register write at cycle w (registers.md access rules; timing.md s2-3, s5). What a
        write does beyond storing its value comes from the register's attributes in
        docs/regmap.toml (``effects``, ``accept``, W1C), the source the RTL block is
        generated from (gen/regblock/). A write an ``accept`` rule refuses changes nothing, side
        effects included; if its strobes select a byte of the register it sets the queue's
        ``QUEUE_STATUS.RING_REFUSED`` and counts in ``CNT_RING_REFUSED`` at w (F24). The
        ``tail`` rule of ``RING_TAIL`` takes ``RING_HEAD`` as it was before edge w (the DMA's
        head register: a completion at w is not yet seen)."""
        d = self.regs.decode(addr & ~3)  # the slave ignores the two low address bits
        if d is None:
            return  # unmapped: ignored
        name, i = d
        reg = regmap.REGS[name]
        if reg.access == "RO":
            return
        nq = self.cfg.num_queues
        if reg.access == "W1C":  # clr at edge w+1; bit q needs the strobe of byte q/8
            width = nq if name == "IRQ_CAUSE" else reg.width(nq)
            bits = data & ((1 << width) - 1) & sum(1 << q for q in range(width) if strb >> (q // 8) & 1)
            if not bits:
                return
            if name == "IRQ_CAUSE":
                self._clr[w + 1] = self._clr.get(w + 1, 0) | bits
            elif name == "DMA_STALL":
                self._stall_clr[w + 1] = self._stall_clr.get(w + 1, 0) | bits
                self._push(w + 1)
            else:
                raise ValueError(f"docs/regmap.toml: W1C register {name} has no meaning in the model")
            return
        vals = self.regs.val
        value = reg.write_value(vals[name][i], data, strb, nq)
        if not all(self._accepts(rule, name, i, data, strb, value) for rule in reg.accept):
            # refused: nothing changes; a write selecting a byte of the register is flagged (F24)
            if strb & reg.byte_mask(nq):
                self.regs.refused(reg.block, i)
            return
        if name in ("RING_TAIL", "BUF_SIZE"):  # admission sees these from w+2 (timing.md s3; F25)
            self.admission.wrote(name, i, w, vals[name][i])
        vals[name][i] = value
        if not strb & reg.byte_mask(nq):
            return  # the write selects no byte of the register: no side effect (F24)
        for effect in reg.effects:
            kind, _, arg = effect.partition(":")
            if kind == "clear":  # at edge w
                vals[arg][i] = 0
            else:  # "pulse": at edge w+1; the sticky bits it clears, at edge w (F24)
                self.regs.pulsed(arg, i)
                self._pulse(arg, w, name, i)
        # moderation re-reads its configuration from the registers, seen from w+2 (timing.md s4)
        self._mod_dirty = True

    def _accepts(self, rule: str, name: str, i: int, data: int, strb: int, value: int) -> bool:
        """Whether ``rule`` of register ``name`` (docs/regmap.toml ``accept``, F24) keeps a write
        of ``data`` with strobes ``strb`` (stored value ``value``) to instance ``i``, at its edge."""
        vals = self.regs.val
        kind, _, arg = rule.partition(":")
        if kind == "when":  # "when:ring_idle": ring registers of an idle queue only
            if arg != "ring_idle":
                raise ValueError(f"docs/regmap.toml: accept {rule!r} ({name}) has no meaning in the model")
            return self.ring_idle(i, self._busy_before[i])
        if kind == "below":  # the new value is below another register
            return value < vals[arg][i]
        if kind == "aligned":  # none of the zero_lsbs bits written (after the strobes)
            reg = regmap.REGS[name]
            return not reg.strobed(vals[name][i], data, strb) & ((1 << reg.zero_lsbs) - 1)
        if kind == "tail":  # a doorbell may only post free slots: HEAD as the block sees it at w
            head, _, size_reg = arg.partition("/")
            if head != "RING_HEAD":
                raise ValueError(f"docs/regmap.toml: accept {rule!r} ({name}): the model knows RING_HEAD only")
            size = vals[size_reg][i]
            old = vals[name][i]
            if value >= size:
                return False
            return (value - old) % size <= (self._head_before[i] - 1 - old) % size
        raise ValueError(f"docs/regmap.toml: accept {rule!r} ({name}) has no meaning in the model")

    def _pulse(self, pulse: str, w: int, name: str, i: int) -> None:
        """The write pulse ``pulse`` of docs/regmap.toml [pulses], high at w+1, for instance ``i``."""
        vals = self.regs.val
        if pulse == "ring_rst":  # RESV and HEAD restart at w+1
            self._ring_reset[w + 1] = self._ring_reset.get(w + 1, 0) | 1 << i
            if self._outstanding[i]:
                self.warnings.append(
                    f"cycle {w}: ring of queue {i} reprogrammed ({name}) with "
                    f"{len(self._outstanding[i])} admitted frame(s) not completed"
                )
        elif pulse == "table_clr":  # F8: clear the flow cache, restart a scan
            self._table_clr.add(w + 1)
        elif pulse == "lim_restart":  # pulse at w+1; the limiter takes it and the values at w+2 (limiter.md s8; F9)
            ctrl = vals["RULE_LIM_CTRL"][i]
            mode = BYTES if ctrl >> _F["RULE_LIM_CTRL_BYTES"] & 1 else FRAMES
            self._lim_pending.append((w + 2, i, vals["RULE_LIM_BUDGET"][i], vals["RULE_LIM_PERIOD"][i], mode, ctrl))
        elif pulse == "budget_restart":  # at w+2 with the values it goes with (timing.md s4, s7; F10)
            self._budget_restart.add(w + 2)
            self._push(w + 2)
        else:
            raise ValueError(f"docs/regmap.toml: pulse {pulse!r} ({name}) has no meaning in the model")

    def _moderation_config(self, q: int) -> ModerationConfig:
        v = self.regs.val
        return ModerationConfig(
            frames=v["ITR_FRAMES"][q],
            pkt=v["ITR_PKT"][q],
            abs=v["ITR_ABS"][q],
            gap=v["ITR_GAP"][q],
            immediate=bool(v["ITR_CTRL"][q] >> _F["ITR_CTRL_IMMEDIATE"] & 1),
            mask=bool(v["IRQ_MASK"][0] >> q & 1),
            gated=v["QUEUE_PRIO"][q] <= max(v["RUN_PRIO"][0], self._run_port),
            exempt=bool(v["IRQ_BUDGET_EXEMPT"][0] >> q & 1),
            prio=v["QUEUE_PRIO"][q],
        )

    # ------------------------------------------------------------------ outputs

    def expected_completions(self, queue: int) -> list[FrameOutcome]:
        """The ``ACCEPT`` outcomes of ``queue`` in admission order (completion order), but
        those the DMA dropped unwritten (FLUSH, F24)."""
        return [o for o in self._accepted[queue] if o.dma != "flush"]

    def read_reg(self, addr: int) -> int:
        """The value a register read returns after :meth:`run` (state after the last edge).

        ``TIMESTAMP`` returns the value sampled at the last evaluated edge. Unmapped
        addresses read 0 (registers.md).
        """
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
        if name == "QUEUE_STATUS":  # F24: ERR, DRAINED, RING_REFUSED
            return (self.admission.qerr[i] | int(self.drained(i)) << _F["QUEUE_STATUS_DRAINED"]
                    | self.regs.sticky_bits(name, i))
        if name == "DMA_ERR_STATUS":
            return sum(1 << q for q, e in enumerate(self.admission.qerr) if e)
        if name == "DMA_STALL":
            return self.dma_stall
        return self.regs.val[name][i]

    def ring_idle(self, q: int, busy: bool) -> bool:
        """A ring register write is kept (F24): no frame admitted to queue q is left
        (``busy`` False) and the queue is disabled or its ring is below 2 slots, so that
        nothing can be admitted to it either."""
        enabled = self.regs.val["QUEUE_CTRL"][q] >> _F["QUEUE_CTRL_ENABLE"] & 1
        return not busy and (not enabled or self.regs.val["RING_SIZE"][q] < 2)

    def drained(self, q: int) -> bool:
        """``QUEUE_STATUS.DRAINED`` (F24): the queue is disabled and every frame admitted to
        it is completed or flushed (its on-chip reservation given back)."""
        enabled = self.regs.val["QUEUE_CTRL"][q] >> _F["QUEUE_CTRL_ENABLE"] & 1
        return not enabled and self.admission.used_frames[q] == 0

    def pending_prio(self) -> int:
        """``PENDING_PRIO``: ``{1, max QUEUE_PRIO}`` over queues with unsignalled completions,
        0 when none (timing.md s5; F16)."""
        prios = [self.regs.val["QUEUE_PRIO"][q] for q, mod in enumerate(self.moderation) if mod.pending]
        return 0x100 | max(prios) if prios else 0
