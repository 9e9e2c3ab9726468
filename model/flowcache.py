"""Classification engine and flow cache (F5, F8) of the prionic golden model.

Normative source: ``docs/frame-path.md`` section 3.1 (flow key, cache, expiry, TCP
refresh and eviction, invalidation) and ``docs/timing.md`` section 3.1 (the engine's
edges: take, scan, restart, verdict). The RTL is ``rtl/prionic_flowcache.v`` (the cache)
and ``rtl/prionic_classifier.v`` (the engine).

The engine classifies frames one at a time, in arrival order. A frame is *taken* at the
first edge at which it is available and the engine is free. It gets its verdict at that
same edge when it skips the rule table (parser drop or fragment), when the flow cache
hits, or when the table is compared in one cycle (``S = 1``); otherwise the table is
scanned ``RULES_PER_CYCLE`` rules per edge over ``S`` edges and the verdict comes at the
last of them. A rule-table change seen during a scan restarts it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from model import regmap
from model.classifier import RULE_NONE, Classification, Classifier, Rule
from model.parser import ParseResult

TS_BITS = 16  # width of an entry's last-use time stamp (frame-path.md s3.1)
KEY_BITS = regmap.record_width("flow_key")  # docs/regmap.toml [records.flow_key]
TCP_FIN, TCP_SYN, TCP_RST = 0x01, 0x02, 0x04


def flow_key(p: ParseResult) -> int:
    """The flow key of frame-path.md s3.1 (the ``flow_key`` record of docs/regmap.toml):
    every field a rule can match, with the fields that do not apply to the frame zeroed."""
    ip = p.is_ipv4 or p.is_ipv6
    tagged = p.vlan_tags != 0
    return regmap.pack(
        "flow_key",
        is_ipv4=p.is_ipv4, is_ipv6=p.is_ipv6, ports_valid=p.ports_valid, tagged=tagged,
        pcp=p.pcp if tagged else 0, vid=p.vid if tagged else 0, proto=p.proto if ip else 0,
        ethertype=p.ethertype, dport=p.dport if p.ports_valid else 0, sport=p.sport if p.ports_valid else 0,
        dst_ip=p.dst_ip if p.is_ipv4 else 0, src_ip=p.src_ip if p.is_ipv4 else 0)


def flow_index(key: int, index_bits: int) -> int:
    """Entry index: the key folded by XOR into ``index_bits`` bits (frame-path.md s3.1)."""
    if index_bits == 0:
        return 0
    idx, mask = 0, (1 << index_bits) - 1
    while key:
        idx ^= key & mask
        key >>= index_bits
    return idx


def check_cache(entries: int, ts_shift: int) -> None:
    """Raise ValueError unless FLOW_ENTRIES and FLOW_TS_SHIFT are legal (frame-path.md s3.1)."""
    if entries < 2 or entries > 256 or entries & (entries - 1):
        raise ValueError(f"flow cache entries={entries}: must be a power of two in 2..256")
    if not 0 <= ts_shift <= 32 - TS_BITS:
        raise ValueError(f"flow cache ts_shift={ts_shift}: must be 0..{32 - TS_BITS}")


@dataclass
class _Entry:
    key: int
    rule: int
    used: int  # time unit of the install or last hit (unbounded; the RTL keeps 16 bits)


class FlowCache:
    """Direct-mapped exact-match cache of rule-table results (F8, frame-path.md s3.1).

    ``entries`` is a power of two (2..256). Time is counted in units of ``2**ts_shift``
    cycles: the unit of edge ``m`` is ``m >> ts_shift``. An entry is a hit while its age in
    units is below ``idle`` (``idle == 0``: never expires). The RTL's flusher, which clears
    expired entries before their 16-bit time stamp can wrap, changes no hit or miss, so
    this model has none.
    """

    def __init__(self, entries: int, ts_shift: int) -> None:
        check_cache(entries, ts_shift)
        self.entries = entries
        self.index_bits = entries.bit_length() - 1
        self.ts_shift = ts_shift
        self._slots: list[_Entry | None] = [None] * entries

    def clear(self) -> None:
        self._slots = [None] * self.entries

    def index(self, key: int) -> int:
        return flow_index(key, self.index_bits)

    def lookup(self, key: int, edge: int, idle: int) -> int | None:
        """The cached rule id (``RULE_NONE`` for "no rule matched") or None on a miss."""
        return self.probe(key, edge, idle)[0]

    def probe(self, key: int, edge: int, idle: int) -> tuple[int | None, str]:
        """(cached rule id or None, why): why is "hit", or the miss's reason: "empty"
        (no valid entry at the index), "other" (another flow's entry) or "expired"."""
        e = self._slots[self.index(key)]
        if e is None:
            return None, "empty"
        if e.key != key:
            return None, "other"
        if idle and (edge >> self.ts_shift) - e.used >= idle:
            return None, "expired"
        return e.rule, "hit"

    def touch(self, key: int, edge: int) -> None:
        """A hit refreshes the entry's last-use time."""
        e = self._slots[self.index(key)]
        assert e is not None and e.key == key
        e.used = edge >> self.ts_shift

    def evict(self, key: int) -> None:
        self._slots[self.index(key)] = None

    def install(self, key: int, rule: int, edge: int) -> None:
        self._slots[self.index(key)] = _Entry(key, rule, edge >> self.ts_shift)

    def valid_entries(self) -> int:
        return sum(e is not None for e in self._slots)

    def slot(self, index: int) -> _Entry | None:
        """The entry at ``index`` (None: invalid), for testbenches."""
        return self._slots[index]

    def live(self) -> list[_Entry]:
        """The valid entries (key, rule, last-use unit), for testbenches."""
        return [e for e in self._slots if e is not None]


@dataclass(frozen=True)
class EngineConfig:
    """Build parameters of the classification engine (frame-path.md s3.1)."""

    num_rules: int = 4
    rules_per_cycle: int = 0  # 0: all rules in one cycle
    flow_entries: int = 0     # 0: no flow cache
    flow_ts_shift: int = 14

    def __post_init__(self) -> None:
        if self.flow_entries:
            check_cache(self.flow_entries, self.flow_ts_shift)

    @property
    def scan_cycles(self) -> int:
        """``S``: edges one table comparison takes."""
        rpc = self.rules_per_cycle or self.num_rules
        return max(1, -(-self.num_rules // max(rpc, 1)))


@dataclass(frozen=True)
class TableView:
    """What the engine reads at one edge (register write rule, timing.md s2)."""

    rules: Sequence[Rule]
    default_action: int
    frag_action: int
    flow_enable: bool
    flow_idle: int


@dataclass
class EngineFrame:
    """A frame waiting for, or in, the engine."""

    parsed: ParseResult
    ready: int                 # first edge at which the engine can take it (T + 2)
    skip: bool                 # parser drop (bad, oversize, malformed) or fragment: no rule lookup
    payload: object = None     # the caller's handle
    cls: Classification | None = None
    flow: str = ""             # "hit", "miss" or "" (no lookup)
    why: str = ""              # "hit" or why it missed: "syn", "cleared", "empty", "other", "expired"
    evicted: bool = False      # a TCP FIN/RST hit evicted the entry
    verdict_edge: int = -1     # edge at which the classification is registered


class ClassifyEngine:
    """The in-order classification engine with its optional flow cache (F5, F8).

    Call :meth:`step` for every edge ``m`` at which something may happen (the edges of
    :meth:`next_edge`, plus every edge ``w + 1`` after a rule-table change, with
    ``clr=True``). ``view(m)`` returns the :class:`TableView` as seen at edge ``m``.
    """

    def __init__(self, cfg: EngineConfig) -> None:
        self.cfg = cfg
        self.S = cfg.scan_cycles
        self.cache = FlowCache(cfg.flow_entries, cfg.flow_ts_shift) if cfg.flow_entries else None
        self.classifier = Classifier()
        self.queue: deque[EngineFrame] = deque()
        self.hits = 0
        self.misses = 0
        self.check_hits = True  # every hit is checked against the full table (the F8 invariant)
        self._start = -1  # edge of the current scan's first chunk; -1: no scan
        self._done = -1

    def push(self, f: EngineFrame) -> None:
        if self.queue and f.ready < self.queue[-1].ready:
            raise ValueError("frames must enter the engine in order")
        self.queue.append(f)

    @property
    def busy(self) -> bool:
        return self._start >= 0

    def next_edge(self, after: int) -> int | None:
        """The next edge ``> after`` at which :meth:`step` has work, or None."""
        if self.busy:
            return max(self._done, after + 1)
        if self.queue:
            return max(self.queue[0].ready, after + 1)
        return None

    def _finish(self, f: EngineFrame, m: int, view: TableView) -> None:
        f.cls = self.classifier.classify(f.parsed, view.rules, view.default_action, view.frag_action)
        f.verdict_edge = m
        if f.flow and self.cache is not None and view.flow_enable and not f.parsed.tcp_flags & (TCP_FIN | TCP_RST):
            self.cache.install(flow_key(f.parsed), f.cls.rule, m)

    def step(self, m: int, clr: bool, view: Callable[[int], TableView]) -> EngineFrame | None:
        """Edge ``m``: returns the frame whose classification is registered at ``m``, if any."""
        if clr and self.cache is not None:
            self.cache.clear()
        if self.busy:
            f = self.queue[0]
            if clr and self._start < m:
                self._start, self._done = m, m + self.S - 1
            if m < self._done:
                return None
            self._start = self._done = -1
            self._finish(f, m, view(m))
            return self.queue.popleft()
        if not self.queue or self.queue[0].ready > m:
            return None
        f = self.queue[0]
        v = view(m)
        if f.skip:
            f.cls = None if f.parsed.malformed else self.classifier.classify(
                f.parsed, v.rules, v.default_action, v.frag_action)
            f.verdict_edge = m
            return self.queue.popleft()
        if self.cache is not None and v.flow_enable:
            key = flow_key(f.parsed)
            if clr:
                rule, f.why = None, "cleared"
            elif f.parsed.tcp_flags & TCP_SYN:
                rule, f.why = None, "syn"
            else:
                rule, f.why = self.cache.probe(key, m, v.flow_idle)
            if rule is not None:
                self.hits += 1
                f.flow = "hit"
                f.cls = self._from_rule(f.parsed, rule, v)
                if self.check_hits:
                    full = self.classifier.classify(f.parsed, v.rules, v.default_action, v.frag_action)
                    assert f.cls == full, f"flow cache hit {f.cls} differs from the rule table {full}"
                if f.parsed.tcp_flags & (TCP_FIN | TCP_RST):
                    self.cache.evict(key)
                    f.evicted = True
                else:
                    self.cache.touch(key, m)
                f.verdict_edge = m
                return self.queue.popleft()
            self.misses += 1
            f.flow = "miss"
        if self.S == 1:
            self._finish(f, m, v)
            return self.queue.popleft()
        self._start, self._done = m, m + self.S - 1
        return None

    def _from_rule(self, p: ParseResult, rule: int, v: TableView) -> Classification:
        """The classification a cached rule id stands for, with the action read live."""
        if rule == RULE_NONE:
            return self.classifier.classify(p, (), v.default_action, v.frag_action)
        r = v.rules[rule]
        if r.drop:
            return Classification(rule, regmap.VERDICTS["RULE_DROP"], 0)
        return Classification(rule, None, r.queue)
