"""Classifier block (``prionic_classifier``) of the prionic golden model: the rule
match (:class:`Classifier`) and the in-order classification engine with its flow cache
(:class:`ClassifyEngine`).

Normative sources: ``docs/frame-path.md`` section 3 (rule match, first match wins, default
action; F5, F6), ``docs/timing.md`` section 3 (the engine takes a frame at edge
``T+7``, verdict order step 4) and the ``RULE_CTRL`` / ``RULE_DPORT`` / ``DEFAULT_ACTION``
layouts of ``docs/regmap.toml``. The classifier sees the rule table and
``DEFAULT_ACTION`` as seen at the verdict edge (register write rule, timing.md s2).

The engine (``docs/timing.md`` section 3.1: take, lookup, restart, verdict) classifies
frames one at a time, in arrival order. A frame is *taken* at the first edge ``m`` at
which it is available and the engine is free. It gets its verdict at that same edge
when it skips the rule table (parser drop or fragment). Every other frame is looked up
in a pipeline of :data:`LOOKUP_LATENCY` edges (F25): its verdict comes at ``m + 3`` on a
flow cache hit, at ``m + 3 + S - 1`` otherwise (the table scanned ``RULES_PER_CYCLE``
rules per edge over ``S`` edges). A rule-table change seen during a lookup restarts it
as a miss. With a flow table (F31, docs/flowtable.md; no flow cache then) the frame's key
is looked up in it at ``m``; every lookup's verdict comes at ``m + max(4, 3 + S - 1)``
(a restart: that many edges after it), the entry's action on a hit, the rules' otherwise.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from model import regmap
from model.flowcache import TCP_FIN, TCP_RST, TCP_SYN, FlowCache, check_cache, flow_key
from model.flowtable import FlowTable, check_sets
from model.parser import ParseResult

#: Edges from the take of a looked-up frame to its verdict on a flow cache hit or with a
#: one-cycle table (timing.md s3.1, F25): index, read, compare, verdict.
LOOKUP_LATENCY = 3

#: ... and with a flow table (F31, docs/flowtable.md s2): its answer is registered at m + 3
TABLE_LATENCY = 4

#: Rule id of the default action (frame-path.md s3, descriptor byte 18).
RULE_NONE = 0xFF

_F = regmap.FIELDS


@dataclass(frozen=True)
class Rule:
    """One classification rule: the raw ``RULE_CTRL`` and ``RULE_DPORT`` register values (F5)."""

    ctrl: int = 0
    dport: int = 0
    sport: int = 0
    ethertype: int = 0
    src_ip: int = 0
    src_mask: int = 0
    dst_ip: int = 0
    dst_mask: int = 0
    vlan: int = 0       # RULE_VLAN: VID[11:0], PCP[14:12]

    @property
    def enable(self) -> bool:
        return bool(self.ctrl >> _F["RULE_CTRL_ENABLE"] & 1)

    @property
    def drop(self) -> bool:
        return bool(self.ctrl >> _F["RULE_CTRL_DROP"] & 1)

    @property
    def match_proto(self) -> bool:
        return bool(self.ctrl >> _F["RULE_CTRL_MATCH_PROTO"] & 1)

    @property
    def match_dport(self) -> bool:
        return bool(self.ctrl >> _F["RULE_CTRL_MATCH_DPORT"] & 1)

    @property
    def queue(self) -> int:
        return self.ctrl >> _F["RULE_CTRL_QUEUE_LSB"] & 0xFF

    @property
    def proto(self) -> int:
        return self.ctrl >> _F["RULE_CTRL_PROTO_LSB"] & 0xFF

    @property
    def lo(self) -> int:
        return self.dport & 0xFFFF

    @property
    def hi(self) -> int:
        return self.dport >> 16 & 0xFFFF

    def _bit(self, name: str) -> bool:
        return bool(self.ctrl >> _F[name] & 1)

    def matches(self, p: ParseResult) -> bool:
        """frame-path.md s3: ``ENABLE`` and every enabled condition: EtherType, IP
        protocol, masked IPv4 source/destination address, destination/source port range,
        outer VLAN tag's VID and PCP, IP version.
        A rule with no match bit matches every frame that reaches classification."""
        if not self.enable:
            return False
        if self._bit("RULE_CTRL_MATCH_ETHERTYPE") and p.ethertype != self.ethertype:
            return False
        if self._bit("RULE_CTRL_MATCH_SRC") and not (p.is_ipv4 and (p.src_ip ^ self.src_ip) & self.src_mask == 0):
            return False
        if self._bit("RULE_CTRL_MATCH_DST") and not (p.is_ipv4 and (p.dst_ip ^ self.dst_ip) & self.dst_mask == 0):
            return False
        if self._bit("RULE_CTRL_MATCH_SPORT") and not (
            p.ports_valid and self.sport & 0xFFFF <= p.sport <= self.sport >> 16
        ):
            return False
        if self.match_proto and not ((p.is_ipv4 or p.is_ipv6) and p.proto == self.proto):
            return False
        if self._bit("RULE_CTRL_MATCH_VID") and not (p.vlan_tags and p.vid == self.vlan & 0xFFF):
            return False
        pcp = self.vlan >> _F["RULE_VLAN_PCP_LSB"] & 7
        if self._bit("RULE_CTRL_MATCH_PCP") and not (p.vlan_tags and p.pcp == pcp):
            return False
        if self._bit("RULE_CTRL_MATCH_IPVER") and not (p.is_ipv6 if self._bit("RULE_CTRL_IPVER") else p.is_ipv4):
            return False
        if self.match_dport and not (p.ports_valid and self.lo <= p.dport <= self.hi):
            return False
        return True


@dataclass(frozen=True)
class Classification:
    """Classifier result registered at the verdict edge ``v`` (timing.md s3 step 4, s3.1; F5, F6).

    ``rule``: index of the lowest matching enabled rule, or ``RULE_NONE`` (0xFF).
    ``drop_verdict``: ``RULE_DROP`` when the matching rule's action is drop,
    ``UNREGISTERED`` when no rule matched and ``DEFAULT_ACTION.ACCEPT == 0``, else None.
    ``queue``: the target queue when ``drop_verdict`` is None (may be ``>= NUM_QUEUES``,
    which admission turns into ``RULE_DROP``, timing.md s3 step 5), else 0.
    """

    rule: int
    drop_verdict: int | None
    queue: int


class Classifier:
    """``prionic_classifier``: first matching rule by index, else the default action (F5, F6)."""

    def classify(
        self, p: ParseResult, rules: Sequence[Rule], default_action: int, frag_action: int = 0
    ) -> Classification:
        """Classify a frame whose parser verdict is not malformed (frame-path.md s3).
        IPv4 and IPv6 fragments skip the rules and take ``FRAG_ACTION`` (F7)."""
        if p.frag:
            if not frag_action >> _F["FRAG_ACTION_ACCEPT"] & 1:
                return Classification(RULE_NONE, regmap.VERDICTS["FRAGMENT"], 0)
            return Classification(RULE_NONE, None, frag_action >> _F["FRAG_ACTION_QUEUE_LSB"] & 0xFF)
        for index, rule in enumerate(rules):
            if rule.matches(p):
                if rule.drop:
                    return Classification(index, regmap.VERDICTS["RULE_DROP"], 0)
                return Classification(index, None, rule.queue)
        if not default_action >> _F["DEFAULT_ACTION_ACCEPT"] & 1:
            return Classification(RULE_NONE, regmap.VERDICTS["UNREGISTERED"], 0)
        return Classification(RULE_NONE, None, default_action >> _F["DEFAULT_ACTION_QUEUE_LSB"] & 0xFF)


@dataclass(frozen=True)
class EngineConfig:
    """Build parameters of the classification engine (frame-path.md s3.1)."""

    num_rules: int = 4
    rules_per_cycle: int = 0  # 0: all rules in one cycle
    flow_entries: int = 0     # 0: no flow cache
    flow_ts_shift: int = 14
    flow_table_sets: int = 0  # 0: no flow table (F31)

    def __post_init__(self) -> None:
        if self.flow_entries:
            check_cache(self.flow_entries, self.flow_ts_shift)
        if self.flow_table_sets:
            check_sets(self.flow_table_sets)
            if self.flow_entries:
                raise ValueError("a flow table (flow_table_sets > 0) needs flow_entries = 0 (frame-path.md s3)")

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
    ready: int                 # first edge at which the engine can take it (T + 7)
    skip: bool                 # parser drop (bad, oversize, malformed) or fragment: no rule lookup
    payload: object = None     # the caller's handle
    cls: Classification | None = None
    flow: str = ""             # "hit", "miss" or "" (no lookup)
    why: str = ""              # "hit" or why it missed: "syn", "cleared", "empty", "other", "expired"
    taken: int = -1            # the edge its lookup was taken (the flow table's read)
    evicted: bool = False      # a TCP FIN/RST hit evicted the entry


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
        self.table = FlowTable(cfg.flow_table_sets) if cfg.flow_table_sets else None
        self.table_hits = 0
        self.counted: list[str] = []  # the counters the last steps bumped (the NIC model's to take)
        self.classifier = Classifier()
        self.queue: deque[EngineFrame] = deque()
        self.hits = 0
        self.misses = 0
        self.check_hits = True  # every hit is checked against the full table (the F8 invariant)
        self._start = -1  # edge of the current scan's first chunk; -1: no scan
        self._done = -1
        self._cached: int | None = None  # the rule id a hit read from the cache

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

    def table_read(self, name: str, m: int) -> int:
        """Flow table status register ``name`` after edge ``m`` (F31); 0 without a table."""
        return 0 if self.table is None else self.table.status_after(m).read(name)

    def _miss_done(self, m: int) -> int:
        if self.table is not None:
            return m + max(TABLE_LATENCY, LOOKUP_LATENCY + self.S - 1)
        return m + LOOKUP_LATENCY + self.S - 1

    def step(self, m: int, clr: bool, view: Callable[[int], TableView]) -> EngineFrame | None:
        """Edge ``m``: returns the frame whose classification is registered at ``m``, if any."""
        if clr and self.cache is not None:
            self.cache.clear()
        if self.busy:
            f = self.queue[0]
            if clr and self._start < m:  # restart as a miss: no lookup mixes two tables
                self._start, self._done = m, self._miss_done(m)
                if f.flow == "hit":
                    f.flow, f.why, self._cached = "miss", "cleared", None
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
            return self.queue.popleft()
        self._start, self._done, self._cached = m, self._miss_done(m), None
        f.taken = m
        if self.table is not None:
            self.table.take(m, flow_key(f.parsed))
        if self.cache is not None and v.flow_enable:
            if clr:
                rule, f.why = None, "cleared"
            elif f.parsed.tcp_flags & TCP_SYN:
                rule, f.why = None, "syn"
            else:  # the entry's age is taken at the compare stage, m + 2
                rule, f.why = self.cache.probe(flow_key(f.parsed), m + 2, v.flow_idle)
            f.flow = "miss" if rule is None else "hit"
            if rule is not None:
                self._cached, self._done = rule, m + LOOKUP_LATENCY
        return None

    def _finish(self, f: EngineFrame, m: int, view: TableView) -> None:
        """Edge ``m`` = the lookup's ``d``: the verdict, and the cache's update."""
        if self.table is not None:
            hit, val = self.table.result(f.taken)
            if hit:
                self.table_hits += 1
                self.counted.append("CNT_FLOW_TABLE_HIT")
                f.cls = flow_classification(val)
                return
        if f.flow == "hit":
            assert self._cached is not None and self.cache is not None
            self.hits += 1
            self.counted.append("CNT_FLOW_HIT")
            key = flow_key(f.parsed)
            f.cls = self._from_rule(f.parsed, self._cached, view)
            if self.check_hits:
                full = self.classifier.classify(f.parsed, view.rules, view.default_action, view.frag_action)
                assert f.cls == full, f"flow cache hit {f.cls} differs from the rule table {full}"
            if f.parsed.tcp_flags & (TCP_FIN | TCP_RST):
                self.cache.evict(key)
                f.evicted = True
            else:
                self.cache.touch(key, m)
            return
        f.cls = self.classifier.classify(f.parsed, view.rules, view.default_action, view.frag_action)
        if f.flow == "miss":
            self.misses += 1
            self.counted.append("CNT_FLOW_MISS")
            if self.cache is not None and view.flow_enable and not f.parsed.tcp_flags & (TCP_FIN | TCP_RST):
                self.cache.install(flow_key(f.parsed), f.cls.rule, m)

    def _from_rule(self, p: ParseResult, rule: int, v: TableView) -> Classification:
        """The classification a cached rule id stands for, with the action read live."""
        if rule == RULE_NONE:
            return self.classifier.classify(p, (), v.default_action, v.frag_action)
        r = v.rules[rule]
        if r.drop:
            return Classification(rule, regmap.VERDICTS["RULE_DROP"], 0)
        return Classification(rule, None, r.queue)


def flow_classification(val: int) -> Classification:
    """The classification a flow table entry's value stands for (``FLOW_VAL``, frame-path.md s3;
    F31): drop as RULE_DROP, or accept towards its queue; counted and limited as its rule."""
    rule = val >> _F["FLOW_VAL_RULE_LSB"] & 0x3F if val >> _F["FLOW_VAL_RULE_VALID"] & 1 else RULE_NONE
    if val >> _F["FLOW_VAL_DROP"] & 1:
        return Classification(rule, regmap.VERDICTS["RULE_DROP"], 0)
    return Classification(rule, None, val >> _F["FLOW_VAL_QUEUE_LSB"] & 0xFF)
