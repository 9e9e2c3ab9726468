"""Classifier block (``prionic_classifier``) of the prionic golden model.

Normative sources: ``docs/frame-path.md`` section 3 (rule match, first match wins, default
action; F5, F6), ``docs/timing.md`` section 3 (classification is registered at edge
``T+2``, verdict order step 4) and the ``RULE_CTRL`` / ``RULE_DPORT`` / ``DEFAULT_ACTION``
layouts of ``docs/regmap.toml``. The classifier sees the rule table and
``DEFAULT_ACTION`` as seen at edge ``T+2`` (register write rule, timing.md s2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from model import regmap
from model.parser import ParseResult

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
    """Classifier result registered at ``T+2`` (timing.md s3 step 4; F5, F6).

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
