"""Stimulus and expectations of prionic_classifier's block test (tb/blocks/classifier/ref.py): random
rules and parse results, flows for the cache, the DUT's parse-record layout (``Rec``) and
the verdict a frame must get (``expected_verdict``).
"""

from __future__ import annotations

import dataclasses

from model import regmap
from model.classifier import RULE_NONE, EngineFrame, Rule, TableView
from model.flowcache import TCP_FIN, TCP_RST, TCP_SYN
from model.parser import ParseResult

V = regmap.VERDICTS
F = regmap.FIELDS
TCP_ACK, TCP_PSH = 0x10, 0x08

#: verdict codes the classifier can produce (admission adds the others)
CLASSIFIER_CODES = ("ACCEPT", "BAD_FRAME", "OVERSIZE", "MALFORMED", "FRAGMENT", "RULE_DROP", "UNREGISTERED")

S_FIELDS = ("s_len", "s_words", "s_ts", "s_info", "s_bad", "s_oversize", "s_malformed", "s_is_ipv4",
            "s_is_ipv6", "s_vlan_tags", "s_tci", "s_proto", "s_ports_valid", "s_dport", "s_sport",
            "s_ethertype", "s_frag", "s_src_ip", "s_dst_ip")
S_WIDTHS = (16, 16, 32, 40, 1, 1, 1, 1, 1, 2, 16, 8, 1, 16, 16, 16, 1, 32, 32)


def random_rule(rng, nq: int) -> Rule:
    ctrl = (rng.random() < 0.8) << F["RULE_CTRL_ENABLE"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_DROP"]
    ctrl |= (rng.random() < 0.6) << F["RULE_CTRL_MATCH_PROTO"]
    ctrl |= (rng.random() < 0.6) << F["RULE_CTRL_MATCH_DPORT"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_SPORT"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_ETHERTYPE"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_SRC"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_DST"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_VID"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_PCP"]
    ctrl |= (rng.random() < 0.2) << F["RULE_CTRL_MATCH_IPVER"]
    ctrl |= (rng.random() < 0.5) << F["RULE_CTRL_IPVER"]
    ctrl |= rng.randint(0, nq) << F["RULE_CTRL_QUEUE_LSB"]           # nq itself: a config error
    ctrl |= rng.choice([6, 17, 1, 0]) << F["RULE_CTRL_PROTO_LSB"]
    lo = rng.choice([0, 53, 80, 5000, 65535, rng.getrandbits(16)])
    hi = rng.choice([lo, lo + rng.randint(0, 100), rng.getrandbits(16)]) & 0xFFFF
    slo = rng.choice([0, 1000, rng.getrandbits(16)])
    shi = rng.choice([slo, 0xFFFF, rng.getrandbits(16)])
    return Rule(ctrl, lo | hi << 16, slo | shi << 16, rng.choice([0x0800, 0x0806, 0x86DD]),
                rng.choice([0x0A000000, 0x0A000102]), rng.choice([0, 0xFF000000, 0xFFFFFF00, 0xFFFFFFFF]),
                rng.choice([0x0A000001, 0xC0A80001]), rng.choice([0, 0xFFFF0000, 0xFFFFFFFF]),
                rng.choice([5, 100, 3 << 12 | 5, 7 << 12 | 100, rng.getrandbits(15)]))


def random_parse(rng) -> tuple[ParseResult, bool, bool]:
    """(parser result, tuser, oversize)."""
    r = rng.random()
    is_ipv4, is_ipv6 = r < 0.6, 0.6 <= r < 0.8
    ports = (is_ipv4 or is_ipv6) and rng.random() < 0.8
    frag = (is_ipv4 or is_ipv6) and not ports and rng.random() < 0.5
    tags = rng.choice([0, 0, 1, 2])
    tci = rng.choice([5, 100, 3 << 13 | 5, 7 << 13 | 100, rng.getrandbits(16)]) if tags else 0
    p = ParseResult(length=rng.randint(60, 1518), malformed=rng.random() < 0.1, is_ipv4=is_ipv4,
                    is_ipv6=is_ipv6, vlan_tags=tags, tci=tci,
                    proto=rng.choice([6, 17, 1, 2]), ports_valid=ports, frag=frag,
                    ethertype=0x0800 if is_ipv4 else 0x86DD if is_ipv6 else rng.choice([0x0806, 0x8100]),
                    dport=rng.choice([53, 80, 5000, 65535, rng.getrandbits(16)]),
                    sport=rng.choice([1000, 1500, 40000, rng.getrandbits(16)]),
                    src_ip=rng.choice([0x0A000102, 0x0A0001FF, 0x0B000102, rng.getrandbits(32)]),
                    dst_ip=rng.choice([0x0A000001, 0xC0A80001, 0xC0A80101, rng.getrandbits(32)]))
    return p, rng.random() < 0.05, rng.random() < 0.05


def flow_pool(rng, n: int) -> list[ParseResult]:
    """``n`` distinct classifiable flows (not malformed, not fragments); the first half and
    one more are TCP with ports, so that SYN, FIN and RST occur on cached flows."""
    pool: list[ParseResult] = []
    while len(pool) < n:
        p, _, _ = random_parse(rng)
        if p.malformed or p.frag:
            continue
        if len(pool) <= n // 2:
            v6 = p.is_ipv6
            p = dataclasses.replace(p, is_ipv4=not v6, is_ipv6=v6, ethertype=0x86DD if v6 else 0x0800,
                                    proto=6, ports_valid=True)
        if all(p != q for q in pool):
            pool.append(p)
    return pool


def tcp_flags(rng, p: ParseResult) -> int:
    """TCP flags as the parser reports them: only for TCP with ports, else 0."""
    if p.malformed or not (p.ports_valid and p.proto == 6):
        return 0
    r = rng.random()
    if r < 0.60:
        return TCP_ACK | (TCP_PSH if rng.random() < 0.5 else 0)
    if r < 0.72:
        return TCP_SYN | (TCP_ACK if rng.random() < 0.4 else 0)
    if r < 0.84:
        return TCP_FIN | TCP_ACK
    if r < 0.94:
        return TCP_RST | (TCP_ACK if rng.random() < 0.5 else 0)
    return rng.getrandbits(8)


@dataclasses.dataclass
class Rec:
    """One parse result as driven on s_* (the engine frame's payload)."""

    p: ParseResult
    bad: bool
    oversize: bool
    words: int
    ts: int
    info: int
    flow: int = -1      # index in the flow pool, -1: a fresh random result

    def values(self) -> tuple[int, ...]:
        p = self.p
        return (p.length, self.words, self.ts, self.info, int(self.bad), int(self.oversize), int(p.malformed),
                int(p.is_ipv4), int(p.is_ipv6), p.vlan_tags, p.tci, p.proto, int(p.ports_valid), p.dport,
                p.sport, p.ethertype, int(p.frag), p.src_ip, p.dst_ip)


def rec_of(f: EngineFrame) -> Rec:
    assert isinstance(f.payload, Rec)
    return f.payload


def expected_verdict(f: EngineFrame, nq: int) -> tuple[int, int, int]:
    """(code, queue, rule) of an engine frame: the parser drops first (BAD_FRAME, OVERSIZE,
    MALFORMED), then the model's classification; a queue >= NUM_QUEUES is RULE_DROP."""
    rec = rec_of(f)
    if rec.bad:
        return V["BAD_FRAME"], 0, RULE_NONE
    if rec.oversize:
        return V["OVERSIZE"], 0, RULE_NONE
    if rec.p.malformed:
        return V["MALFORMED"], 0, RULE_NONE
    c = f.cls
    assert c is not None
    if c.drop_verdict is not None:
        return c.drop_verdict, 0, c.rule
    if c.queue >= nq:
        return V["RULE_DROP"], 0, c.rule
    return V["ACCEPT"], c.queue, c.rule


@dataclasses.dataclass
class Cfg:
    """Rule table, default and fragment actions, flow cache control as driven now."""

    rules: list[Rule]
    default: int
    frag: int
    flow_enable: bool
    flow_idle: int

    def view(self) -> TableView:
        return TableView(self.rules, self.default, self.frag, self.flow_enable, self.flow_idle)
