"""Fast model (F18): a whole NIC plus host CPU over numpy traces, for parameter sweeps.

Normative: ``docs/sweep.md`` (what is exact and what is approximated). In short:

* **Traces** are numpy arrays (:class:`Trace`), generated per flow in closed form
  (:func:`make_trace`) or taken from an RTL run; frames are serialised on the stream as the
  fast path's player does (``tlast`` = start + beats - 1, one idle cycle between frames).
* **Classification** is vectorised over the whole trace: the first enabled rule that
  matches protocol and destination port range, else the default action (F5, F6). Only
  the rule fields scenarios use; no parser verdicts (every frame is well formed).
* **Admission** at ``T + 11`` (timing.md s3: a looked-up frame, engine idle): ``BUF_OVERFLOW`` above ``BUF_SIZE``,
  ``RING_FULL`` with no free descriptor (``RESV`` against ``TAIL``, timing.md s3).
  ``QBUF_FULL`` and the flow cache are not modelled.
* **DMA** is an approximation (:class:`DmaTiming`): a copy stage and a bus stage, each one
  frame at a time in admission order, cut-through, the write-back's B overlapped with the
  next frame (``C`` = start + AXI beats + write-back beats + 3). ``tests/test_fast_model.py``
  measures its distance to the RTL.
* **Moderation** is exact given the completions: each queue is the golden model's own
  :class:`model.moderation.Moderation` (F17), evaluated only at the edges where it can
  change (inputs, and the tick at which a timer expires or the gap ends) and advanced in
  closed form in between (:func:`advance_ticks`). The interrupt budget (F10) is not modelled.
* **Host**: :class:`model.cpu.Host` on this NIC (docs/host-cpu.md), its register writes
  taking effect two edges after the CPU makes them (the co-simulation's AXI4-Lite latency;
  a ``RING_TAIL`` doorbell reaches admission one edge later, timing.md s3).
"""

from __future__ import annotations

import heapq
import ipaddress
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from model.classifier import LOOKUP_LATENCY
from model.cpu import Host, HostConfig, RxFrame
from model.moderation import Moderation, ModerationConfig
from model.parser import PARSE_LATENCY

ADMIT_LAT = PARSE_LATENCY + 2 + LOOKUP_LATENCY  # admission at T + 11 (timing.md s3: looked up, engine idle)
WRITE_LAT = 2        # a host register write made at cycle t is seen by the NIC from edge t + 2
TAIL_LAT = WRITE_LAT + 1   # ... RING_TAIL by admission one edge later (timing.md s3; F25)
PROTO = {"udp": 17, "tcp": 6}
HDR = {"udp": 14 + 20 + 8, "tcp": 14 + 20 + 20}   # Ethernet + IPv4 + L4 header bytes (no options)
MSS = 1460
DEFAULT_SRC = int(ipaddress.IPv4Address("10.0.0.2"))   # tb/top/frames.py: Flow's source


@dataclass(frozen=True)
class DmaTiming:
    """The DMA approximation (docs/sweep.md section 3), in cycles, from frame-path.md 4.1.
    A frame of ``n`` AXI beats (``AXI_DATA_WIDTH``, 2x the stream) admitted at ``a``:

    * its copy into the queue buffer starts at ``a + lead`` or when the previous copy ends
      (one AXI word per cycle);
    * cut-through, its first data AW (with the first W beat, the address prefetched) goes at
      that same edge or when the bus is free, ``s``; the data beats follow back to back,
      bursts included (``s .. s+n-1``);
    * the last data B ``b_lat`` edges after the last W beat, the write-back's AW the edge
      after it, its ``wb`` beats, and its B (the completion ``C``) ``b_lat`` after its last
      beat: ``C = s + n + wb + 2 b_lat - 1``;
    * the bus is free for the next frame's AW two edges after the write-back's last beat
      (the write-back's B is not waited for): ``s + n + b_lat + wb + 1``.

    Defaults: the memory of both co-simulation paths (B two edges after the last W beat);
    ``lead`` from frame-path.md 4.1 (the first data AW 4 edges after the verdict pulse,
    itself one edge after admission)."""

    lead: int = 5
    b_lat: int = 2

    def stages(self, a: int, beats: int, wb: int, copy_free: int, bus_free: int) -> tuple[int, int, int]:
        """(end of the copy, bus free for the next frame, completion C) of a frame of
        ``beats`` AXI beats and a ``wb``-beat write-back admitted at ``a``."""
        start = max(a + self.lead, copy_free)
        s = max(start, bus_free)
        return start + beats, s + beats + self.b_lat + wb + 1, s + beats + wb + 2 * self.b_lat - 1


@dataclass
class Trace:
    """Frames sorted by ``t_last``: the cycle of the ``tlast`` handshake, the length in bytes,
    IP protocol, destination port, index of the flow in ``names`` and IPv4 source address
    (``None``: every frame from the scenarios' default source, 10.0.0.2)."""

    t_last: np.ndarray
    length: np.ndarray
    proto: np.ndarray
    dport: np.ndarray
    flow: np.ndarray
    names: list[str]
    src: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.t_last.size)


@dataclass
class FlowGen:
    """One traffic source: a scenario file's ``[[flow]]`` (``tb.scenario.FlowSpec`` is this
    class, so :func:`make_trace` takes a loaded scenario's flows as they are)."""

    name: str
    proto: str
    dport: int
    pattern: str            # periodic | poisson | burst | users | pcap (not in make_trace)
    payload: tuple[int, int] = (18, 64)
    period_us: float = 0.0
    rate_pps: float = 0.0
    burst: int = 1
    start_us: float = 0.0
    users: int = 0          # pattern "users": concurrent users, each a TCP connection (sport + u)
    message: int = 0        # pattern "users": bytes of each message, sent as MSS-sized segments
    sport: int = 40000
    src: str = "10.0.0.2"   # IPv4 source address
    pcap: str = ""          # pattern "pcap": the capture replayed (absolute path)
    rescale: float = 1.0    # pattern "pcap": capture time x rescale = scenario time


def make_trace(flows: list[FlowGen], duration_us: float, seed: int, *, data_width: int = 32,
               clock_mhz: float = 125.0, min_idle: int = 1) -> Trace:
    """Arrivals of every flow in closed form (numpy), serialised on the stream."""
    rng = np.random.default_rng(seed)
    at, length, proto, dport, flow, src = [], [], [], [], [], []
    for fi, f in enumerate(flows):
        if f.pattern == "periodic":
            t = np.arange(f.start_us, duration_us, f.period_us)
            pay = rng.integers(f.payload[0], f.payload[1] + 1, t.size)
        elif f.pattern == "burst":
            t = np.repeat(np.arange(f.start_us, duration_us, f.period_us), f.burst)
            pay = rng.integers(f.payload[0], f.payload[1] + 1, t.size)
        elif f.pattern == "poisson":
            n = int((duration_us - f.start_us) * f.rate_pps / 1e6 * 1.2) + 64
            t = f.start_us + np.cumsum(rng.exponential(1e6 / f.rate_pps, n))
            while t[-1] < duration_us:
                t = np.concatenate([t, t[-1] + np.cumsum(rng.exponential(1e6 / f.rate_pps, n))])
            t = t[t < duration_us]
            pay = rng.integers(f.payload[0], f.payload[1] + 1, t.size)
        elif f.pattern == "users":
            seg = np.array([MSS] * (f.message // MSS) + ([f.message % MSS] if f.message % MSS else []))
            # each segment one 1 GbE frame time (length + 24 bytes, 8 ns a byte) after the previous
            offs = np.concatenate([[0.0], np.cumsum((np.maximum(60, HDR["tcp"] + seg) + 24) * 0.008)[:-1]])
            starts = f.start_us + rng.uniform(0, f.period_us, f.users)
            msgs = np.concatenate([np.arange(s, duration_us, f.period_us) for s in starts]) if f.users else np.zeros(0)
            t = (msgs[:, None] + offs[None, :]).ravel()
            keep = t < duration_us
            t = t[keep]
            pay = np.tile(seg, msgs.size)[keep]
        else:
            raise ValueError(f"flow {f.name}: the fast model cannot generate pattern {f.pattern!r}")
        at.append(t)
        length.append(np.maximum(60, HDR[f.proto] + pay))
        proto.append(np.full(t.size, PROTO[f.proto]))
        dport.append(np.full(t.size, f.dport))
        flow.append(np.full(t.size, fi))
        src.append(np.full(t.size, int(ipaddress.IPv4Address(f.src))))
    at_c = (np.concatenate(at) * clock_mhz).astype(np.int64)
    order = np.argsort(at_c, kind="stable")
    at_c = at_c[order]
    ln = np.concatenate(length).astype(np.int64)[order]
    kw = data_width // 8
    beats = (ln + kw - 1) // kw
    t_last = serialise(at_c, beats, min_idle)
    return Trace(t_last, ln, np.concatenate(proto)[order].astype(np.int16),
                 np.concatenate(dport)[order].astype(np.int32), np.concatenate(flow)[order].astype(np.int16),
                 [f.name for f in flows], np.concatenate(src)[order].astype(np.int64))


def serialise(at: np.ndarray, beats: np.ndarray, min_idle: int = 1) -> np.ndarray:
    """``tlast`` of frames offered at ``at`` with ``beats`` beats each, back to back at best:
    ``start_i = max(at_i, tlast_(i-1) + 1 + min_idle)``, ``tlast_i = start_i + beats_i - 1``.
    Closed form of the recurrence: with ``d_i = beats_i + min_idle`` and ``S = cumsum(d)``,
    ``tlast_i = S_i - min_idle - 1 + max_(j<=i) (at_j - S_(j-1))``."""
    d = beats + min_idle
    s = np.cumsum(d)
    s_prev = s - d
    return s - min_idle - 1 + np.maximum.accumulate(at - s_prev)


def classify(tr: Trace, rules: list[tuple[int, int]], default_action: int, fields: dict[str, int],
             rule_src: list[tuple[int, int]] | None = None, rule_of: np.ndarray | None = None) -> np.ndarray:
    """Queue of every frame, -1 for a drop (F5, F6): first enabled match of protocol,
    destination port range and (``rule_src``: each rule's ``RULE_SRC_IP``, ``RULE_SRC_MASK``)
    source address in rule order, else ``DEFAULT_ACTION``. ``rule_of``, when given, receives
    each frame's matching rule (-1: none)."""
    F = fields
    out = np.full(len(tr), -2, dtype=np.int16)
    src = tr.src if tr.src is not None else np.full(len(tr), DEFAULT_SRC, dtype=np.int64)
    for r, (ctrl, dport) in enumerate(rules):
        if not ctrl >> F["RULE_CTRL_ENABLE"] & 1:
            continue
        m = out == -2
        if ctrl >> F["RULE_CTRL_MATCH_PROTO"] & 1:
            m &= tr.proto == (ctrl >> F["RULE_CTRL_PROTO_LSB"] & 0xFF)
        if ctrl >> F["RULE_CTRL_MATCH_DPORT"] & 1:
            m &= (tr.dport >= (dport & 0xFFFF)) & (tr.dport <= (dport >> 16))
        if ctrl >> F["RULE_CTRL_MATCH_SRC"] & 1:
            ip, mask = rule_src[r] if rule_src and r < len(rule_src) else (0, 0)
            m &= (src & mask) == (ip & mask)
        out[m] = -1 if ctrl >> F["RULE_CTRL_DROP"] & 1 else (ctrl >> F["RULE_CTRL_QUEUE_LSB"] & 0xF)
        if rule_of is not None:
            rule_of[m] = r
    accept = default_action >> F["DEFAULT_ACTION_ACCEPT"] & 1
    out[out == -2] = (default_action >> F["DEFAULT_ACTION_QUEUE_LSB"] & 0xF) if accept else -1
    return out


def limit(tr: Trace, rule_of: np.ndarray, limits: list[tuple[int, int, bool] | None]) -> np.ndarray:
    """F9, docs/limiter.md, approximated (docs/sweep.md section 1): frames a rule's limiter
    refuses. Rule ``r``'s limiter (``limits[r]`` = ``BUDGET``, ``PERIOD`` in edges, bytes
    mode) passes the first frames of each epoch of ``PERIOD`` edges from edge 0 whose cost
    (1, or the length in bytes) the budget covers, by the frame's lookup edge; a frame that
    passes spends its cost even if admission then drops it."""
    refused = np.zeros(len(tr), dtype=bool)
    look = tr.t_last + PARSE_LATENCY + 1
    for r, lim in enumerate(limits):
        if lim is None or lim[1] <= 0:
            continue
        budget, period, as_bytes = lim
        idx = np.flatnonzero(rule_of == r)
        if not idx.size:
            continue
        epoch = look[idx] // period
        if as_bytes:    # a refused frame spends nothing: a later, shorter one may still pass
            ok = np.zeros(idx.size, dtype=bool)
            left, prev = 0, None
            for k, (e, c) in enumerate(zip(epoch.tolist(), tr.length[idx].tolist(), strict=True)):
                if e != prev:
                    left, prev = budget, e
                if c <= left:
                    left -= c
                    ok[k] = True
            refused[idx[~ok]] = True
        else:           # the first BUDGET frames of each epoch
            first = np.r_[0, np.flatnonzero(np.diff(epoch)) + 1]
            rank = np.arange(idx.size) - np.repeat(first, np.diff(np.r_[first, idx.size]))
            refused[idx[rank >= budget]] = True
    return refused


# ------------------------------------------------------------------------- moderation

def ticks_to_event(mod: Moderation, cfg: ModerationConfig) -> int | None:
    """With no input, the number of ticks until (and including) the tick at which ``mod``
    can change other than by counting down; 0: at the next edge; None: never."""
    if mod.held and not cfg.gated and mod.gap_cnt == 0:
        return 0
    c = [n for run, n in ((mod.pkt_run, mod.pkt_cnt), (mod.abs_run, mod.abs_cnt), (True, mod.gap_cnt)) if run and n]
    return min(c) if c else None


def advance_ticks(mod: Moderation, k: int) -> None:
    """``k`` ticks with no input and no event (``k`` below :func:`ticks_to_event`): the
    running counters count down, nothing else changes (timing.md s5)."""
    if k <= 0:
        return
    if mod.pkt_run:
        mod.pkt_cnt -= k
    if mod.abs_run:
        mod.abs_cnt -= k
    if mod.gap_cnt:
        mod.gap_cnt -= k


class QueueModeration:
    """One queue's :class:`Moderation`, evaluated only where it can change."""

    def __init__(self, div: int) -> None:
        self.mod = Moderation()
        self.div = div
        self.last = -1        # the last edge evaluated

    def ticks_between(self, a: int, b: int) -> int:
        """Ticks on the edges a..b inclusive (ticks fall on m mod div == div - 1)."""
        if b < a:
            return 0
        return (b + 1) // self.div - a // self.div

    def is_tick(self, m: int) -> bool:
        return m % self.div == self.div - 1

    def step(self, m: int, cpl: bool, clr: bool, cfg: ModerationConfig) -> bool:
        advance_ticks(self.mod, self.ticks_between(self.last + 1, m - 1))
        self.last = m
        return self.mod.step(cpl, self.is_tick(m), clr, cfg)

    def next_event(self, cfg: ModerationConfig) -> int | None:
        """The next edge after ``last`` at which it must be evaluated with no input."""
        n = ticks_to_event(self.mod, cfg)
        if n is None:
            return None
        if n == 0:
            return self.last + 1
        d = self.div
        first = self.last + 1 + (d - 1 - (self.last + 1)) % d    # the first tick edge after last
        return first + (n - 1) * d


# ------------------------------------------------------------------------- the NIC


@dataclass
class QueueCfg:
    ring_size: int = 16
    buf_size: int = 2048
    mcfg: ModerationConfig = field(default_factory=ModerationConfig)
    prio: int = 1     # QUEUE_PRIO


@dataclass
class FastResult:
    verdict: np.ndarray          # per frame: 0 delivered, else a verdict name index of VERDICTS below
    queue: np.ndarray
    cpl: np.ndarray              # completion cycle, -1 when not delivered
    fires: list[tuple[int, int]]  # (edge of stat_irq, queue)
    host: Host
    end: int


VERDICTS = ("ACCEPT", "DROPPED", "RING_FULL", "BUF_OVERFLOW", "RATE_LIMITED")


class FastNic:
    """The NIC of the fast model; a :class:`model.cpu.NicPort` for the host."""

    def __init__(self, trace: Trace, queues: list[QueueCfg], rules: list[tuple[int, int]], default_action: int,
                 host: HostConfig, fields: dict[str, int], *, tick_div: int = 125, data_width: int = 32,
                 axi_data_width: int | None = None, dma: DmaTiming | None = None,
                 rule_src: list[tuple[int, int]] | None = None,
                 rule_limit: list[tuple[int, int, bool] | None] | None = None) -> None:
        self.tr = trace
        self.q = queues
        self.nq = len(queues)
        self.kw = data_width // 8
        self.akw = (axi_data_width or 2 * data_width) // 8     # prionic_rx's default: 2x the stream
        self.wb_beats = max(1, 16 // self.akw)                  # the 16-byte write-back
        self.dma = dma or DmaTiming()
        self.div = max(tick_div, 1)
        rule_of = np.full(len(trace), -1, dtype=np.int32)
        self.target = classify(trace, rules, default_action, fields, rule_src, rule_of)
        self.limited = limit(trace, rule_of, rule_limit) if rule_limit else np.zeros(len(trace), dtype=bool)
        self.target[self.limited] = -1
        self.host = Host(host, self, self.nq)
        self.mods = [QueueModeration(self.div) for _ in queues]
        self.run_prio = 0
        self.irq_mask = host.irq_mask   # written by the driver at start, with the rest of the configuration
        self.cause_lines = 0
        self.posted = [max(q.ring_size - 1, 0) for q in queues]   # buffers posted (TAIL moves)
        self.resv = [0] * self.nq
        self.done: list[deque[tuple[int, int]]] = [deque() for _ in queues]   # (C, frame index)
        self.now = 0
        self._ev: list[tuple[int, int, str, int]] = []    # (edge, seq, kind, arg)
        self._seq = 0
        self._cpl_in: dict[int, int] = {}                 # edge -> queue bits with cpl
        self._clr_in: dict[int, int] = {}
        self._prio_in: dict[int, int] = {}
        self._mask_in: dict[int, int] = {}
        self._tail_in: dict[int, list[int]] = {}
        self.fires: list[tuple[int, int]] = []

    # ---------------------------------------------------------------- NicPort
    def lines(self) -> int:
        return self.cause_lines

    def clear_cause(self, mask: int) -> None:
        e = self.now + WRITE_LAT
        self._clr_in[e] = self._clr_in.get(e, 0) | mask
        self._push(e, "mod", -1)

    def reap_one(self, q: int) -> RxFrame | None:
        d = self.done[q]
        if d and d[0][0] <= self.now:
            _c, i = d.popleft()
            return RxFrame(q, int(self.tr.dport[i]), int(self.tr.length[i]), int(self.tr.t_last[i]))
        return None

    def give_back(self, q: int) -> None:
        self._tail_in.setdefault(self.now + TAIL_LAT, []).append(q)
        self._push(self.now + TAIL_LAT, "tail", 0)

    def set_run_prio(self, prio: int) -> None:
        e = self.now + WRITE_LAT
        self._prio_in[e] = prio
        self._push(e, "mod", -1)

    def set_mask(self, mask: int) -> None:
        e = self.now + WRITE_LAT
        self._mask_in[e] = mask
        self._push(e, "mod", -1)

    # ---------------------------------------------------------------- events
    def _push(self, edge: int, kind: str, arg: int) -> None:
        self._seq += 1
        heapq.heappush(self._ev, (edge, self._seq, kind, arg))

    def _cfg(self, q: int) -> ModerationConfig:
        c = self.q[q].mcfg
        gated = self.q[q].prio <= self.run_prio
        mask = c.mask or bool(self.irq_mask >> q & 1)
        return c if (c.gated, c.mask) == (gated, mask) else ModerationConfig(c.frames, c.pkt, c.abs, c.gap, c.immediate,
                                                                             mask, gated, c.exempt, c.prio)

    def run(self, end: int | None = None) -> FastResult:
        """Evaluate the whole trace (and the host) up to ``end`` (default: 200,000 cycles
        after the last ``tlast``). Per edge t, in order: the CPU's actions at t (they see the
        irq lines sampled at t), the host's view of an irq change at t, register writes
        taking effect at t, admissions at t, then the moderation step of t."""
        tr = self.tr
        n = len(tr)
        verdict = np.zeros(n, dtype=np.int8)
        cpl = np.full(n, -1, dtype=np.int64)
        idx = np.flatnonzero(self.target >= 0)
        verdict[self.target < 0] = 1
        verdict[self.limited] = 4
        admit = tr.t_last[idx] + ADMIT_LAT
        beats = (tr.length + self.akw - 1) // self.akw    # AXI beats: a frame starts a new word
        end = end if end is not None else (int(tr.t_last[-1]) if n else 0) + 200_000
        copy_free = bus_free = 0
        cpu = self.host.cpu
        ai = 0
        ev = self._ev
        mod_next: list[int | None] = [None] * self.nq
        while True:
            t = min((x for x in (int(admit[ai]) if ai < idx.size else None, ev[0][0] if ev else None,
                                 cpu.next_event(), *mod_next) if x is not None), default=None)
            if t is None or t > end:
                break
            self.now = t
            cpu.advance(t)
            step_q = 0
            irq_seen = None
            while ev and ev[0][0] <= t:
                _e, _s, kind, arg = heapq.heappop(ev)
                if kind == "cpl":
                    step_q |= 1 << arg
                elif kind == "mod":
                    step_q |= (1 << self.nq) - 1
                elif kind == "irq":
                    irq_seen = arg
            if irq_seen is not None:
                self.host.irq_changed(t, irq_seen)
                cpu.advance(t)
            for q in self._tail_in.pop(t, ()):
                self.posted[q] += 1
            if t in self._prio_in:
                self.run_prio = self._prio_in.pop(t)
            if t in self._mask_in:
                self.irq_mask = self._mask_in.pop(t)
            while ai < idx.size and int(admit[ai]) == t:
                i = int(idx[ai])
                q = int(self.target[i])
                qc = self.q[q]
                if tr.length[i] > qc.buf_size:
                    verdict[i] = 3
                elif qc.ring_size < 2 or self.posted[q] - self.resv[q] <= 0:
                    verdict[i] = 2
                else:
                    self.resv[q] += 1
                    copy_free, bus_free, c = self.dma.stages(t, int(beats[i]), self.wb_beats, copy_free, bus_free)
                    cpl[i] = c
                    self.done[q].append((c, i))
                    self._cpl_in[c + 1] = self._cpl_in.get(c + 1, 0) | 1 << q
                    self._push(c + 1, "cpl", q)
                ai += 1
            for q in range(self.nq):
                m = mod_next[q]
                if m is not None and m <= t:
                    step_q |= 1 << q
            if step_q:
                cpl_bits = self._cpl_in.pop(t, 0)
                clr_bits = self._clr_in.pop(t, 0)
                lines = self.cause_lines
                for q in range(self.nq):
                    if not step_q >> q & 1:
                        continue
                    qm = self.mods[q]
                    cfg = self._cfg(q)
                    if qm.step(t, bool(cpl_bits >> q & 1), bool(clr_bits >> q & 1), cfg):
                        self.fires.append((t + 1, q))
                    lines = lines | (1 << q) if qm.mod.irq else lines & ~(1 << q)
                    mod_next[q] = qm.next_event(cfg)
                if lines != self.cause_lines:
                    self.cause_lines = lines
                    self._push(t + 1, "irq", lines)
        return FastResult(verdict, self.target, cpl, self.fires, self.host, self.now)
