"""Flow cache (F8) of the prionic golden model: ``rtl/prionic_flowcache.v``.

Normative source: ``docs/frame-path.md`` section 3.1 (flow key, cache, expiry, TCP
refresh and eviction, invalidation). The classification engine that uses the cache
(``rtl/prionic_classifier.v``) is :class:`model.classifier.ClassifyEngine`.
"""

from __future__ import annotations

from dataclasses import dataclass

from model import regmap
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
