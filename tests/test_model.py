"""Unit tests of the prionic golden model (model/), from docs/timing.md and docs/frame-path.md.

Every expected value is derived by hand from the spec and written as a literal with the
arithmetic in a comment; the only model-vs-model comparison is the skip-vs-reference
equivalence test, which is what it is for. Feature ids: F1 stream input, F3 parser,
F5/F6 rules/default action, F12 descriptor ring, F13 counters, F14 moderation,
F15 interrupt cause/mask, F17 cycle timing (pipeline edges, write rule, prescaler).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

import pytest
from scapy.all import ARP, IP, TCP, UDP, Dot1Q, Ether, IPOption_NOP, Raw  # type: ignore[attr-defined]

from model import regmap
from model.classifier import RULE_NONE, Classifier, Rule
from model.config import FrameOutcome, ModelConfig
from model.moderation import Moderation, ModerationConfig, Prescaler
from model.nic import CompletionError, PrionicModel
from model.parser import Parser, ParseResult, length_from_tkeep, tkeep_legal

A = regmap.addr
V = regmap.VERDICTS

# RULE_CTRL bits (regmap.toml [fields]): [0] ENABLE, [1] DROP, [2] MATCH_PROTO, [3] MATCH_DPORT,
# [15:8] QUEUE, [23:16] PROTO
EN, DROP, MPROTO, MDPORT = 0x1, 0x2, 0x4, 0x8


def qsel(q: int) -> int:
    return q << 8


def psel(proto: int) -> int:
    return proto << 16


def dport_range(lo: int, hi: int) -> int:
    return lo | hi << 16


def pad(b: bytes, n: int = 60) -> bytes:
    return b + bytes(n - len(b)) if len(b) < n else b


def udp(dport: int = 5000, payload: int = 18, **ip: object) -> bytes:
    """Ether(14) + IP(20) + UDP(8) + payload; the default is 14+20+8+18 = 60 bytes."""
    return bytes(Ether() / IP(**ip) / UDP(sport=1234, dport=dport) / Raw(bytes(payload)))


UDP60 = udp()  # 60 bytes, dport 5000


def parse(b: bytes, tkeep_ok: bool = True) -> ParseResult:
    return Parser().parse(b, tkeep_ok)


# =============================================================================== parser (F1, F3)


def test_parser_udp_ports() -> None:
    """F3: an unfragmented UDP frame has valid ports (frame-path.md s2)."""
    b = bytes(Ether() / IP() / UDP(sport=1234, dport=5353) / Raw(b"x" * 18))
    p = parse(b)
    assert p.length == 60  # 14 + 20 + 8 + 18
    assert not p.malformed
    assert p.is_ipv4 and p.proto == 17 and not p.frag
    assert p.ports_valid and p.sport == 1234 and p.dport == 5353


def test_parser_tcp_ports_with_padding() -> None:
    """F3: TCP ports valid; padding after IPv4 total length is allowed (frame-path.md s2)."""
    b = pad(bytes(Ether() / IP() / TCP(sport=40000, dport=443)))  # 54 bytes + 6 padding
    p = parse(b)
    assert p.length == 60 and not p.malformed
    assert p.proto == 6 and p.total == 40  # 20 (IP) + 20 (TCP)
    assert p.ports_valid and p.sport == 40000 and p.dport == 443


def test_parser_runt_and_tkeep() -> None:
    """F1, F3: length < 60 or a bad tkeep makes the frame MALFORMED."""
    assert parse(udp(payload=17)).malformed  # 14+20+8+17 = 59 < 60
    assert parse(udp(payload=17)).reason == "runt"
    assert not parse(udp(payload=18)).malformed  # 60 bytes: the minimum is legal
    assert parse(bytes(Ether() / IP() / UDP())).malformed  # 42 bytes, unpadded
    assert parse(UDP60, tkeep_ok=False).malformed
    assert parse(UDP60, tkeep_ok=False).reason == "tkeep"


def test_parser_not_ip() -> None:
    """F3: any EtherType but 0x0800/0x86DD after the tags is "not IP": no fields, not
    malformed; up to two VLAN tags are skipped (frame-path.md s2.2), a third is not."""
    arp = parse(pad(bytes(Ether() / ARP())))  # 42 bytes padded to 60
    assert not arp.malformed and not arp.is_ipv4 and not arp.ports_valid
    assert arp.ethertype == 0x0806
    vlan = parse(pad(bytes(Ether() / Dot1Q(vlan=5, prio=6) / IP() / UDP(dport=53))))
    assert not vlan.malformed and vlan.is_ipv4 and vlan.ports_valid and vlan.dport == 53
    assert (vlan.ethertype, vlan.vlan_tags, vlan.vid, vlan.pcp) == (0x0800, 1, 5, 6)
    three = parse(pad(bytes(Ether() / Dot1Q(vlan=1) / Dot1Q(vlan=2) / Dot1Q(vlan=3) / IP() / UDP())))
    assert not three.malformed and not three.is_ipv4 and three.ethertype == 0x8100
    assert (three.vlan_tags, three.vid) == (2, 1)  # the outer tag's TCI


def test_parser_ipv4_header_errors() -> None:
    """F3: ver != 4, ihl < 5, total < 4*ihl, 14 + total > length are MALFORMED."""
    assert parse(udp(version=6)).reason == "ip_version"
    assert parse(udp(ihl=4)).reason == "ip_ihl"
    assert parse(udp(len=19)).reason == "ip_total"  # 19 < 4*5
    assert not parse(udp(len=20, proto=2)).malformed  # total == 4*ihl (IGMP: no L4 check)
    assert parse(udp(len=20, proto=1)).reason == "l4_short"  # ICMP needs 8 bytes (s2.5)
    # 60-byte frame: 14 + 46 = 60 is exactly the length; 14 + 47 = 61 > 60 is truncated
    assert not parse(udp(len=46)).malformed
    assert parse(udp(len=47)).reason == "ip_truncated"


def test_parser_l4_header_length() -> None:
    """F3: unfragmented UDP needs total >= 4*ihl+8, TCP total >= 4*ihl+20."""
    assert parse(udp(len=27)).reason == "l4_short"  # 27 < 20 + 8
    assert parse(udp(len=28)).reason == "udp_len"  # UDP length 26 != 28 - 20 (s2.5)
    p = parse(pad(bytes(Ether() / IP(len=28) / UDP(dport=77, len=8))))  # 28 == 20 + 8
    assert not p.malformed and p.ports_valid and p.dport == 77
    tcp39 = pad(bytes(Ether() / IP(len=39) / TCP(dport=80)))
    assert parse(tcp39).reason == "l4_short"  # 39 < 20 + 20
    tcp40 = pad(bytes(Ether() / IP(len=40) / TCP(dport=80)))
    assert parse(tcp40).ports_valid and parse(tcp40).dport == 80  # 40 == 20 + 20


def test_parser_ip_options_shift_l4() -> None:
    """F3: l4 = 14 + 4*ihl; with 4 bytes of options (ihl=6) the dport is at bytes 40-41."""
    b = bytes(Ether() / IP(options=[IPOption_NOP()] * 4) / UDP(sport=1, dport=9) / Raw(bytes(14)))
    p = parse(b)  # 14 + 24 + 8 + 14 = 60 bytes
    assert p.ihl == 6 and not p.malformed
    assert p.ports_valid and p.sport == 1 and p.dport == 9
    short = pad(bytes(Ether() / IP(options=[IPOption_NOP()] * 4, len=31) / UDP(dport=9)), 70)
    assert parse(short).reason == "l4_short"  # 31 < 4*6 + 8 = 32


def test_parser_fragments() -> None:
    """F3: (u16(20) & 0x3FFF) != 0 -> fragment: no ports and no L4 length check."""
    mf = parse(udp(flags="MF", dport=53))  # flags/offset word 0x2000
    assert mf.frag and not mf.malformed and not mf.ports_valid
    off = parse(udp(frag=1))  # 0x0001: offset 1
    assert off.frag and not off.ports_valid
    short = parse(udp(flags="MF", len=24))  # 24 < 28 but a fragment: no L4 check
    assert short.frag and not short.malformed
    df = parse(udp(flags="DF", dport=53))  # 0x4000 & 0x3FFF == 0: not a fragment
    assert not df.frag and df.ports_valid and df.dport == 53


def test_parser_other_protocol_and_saturation() -> None:
    """F1, F3: non-UDP/TCP IPv4 has no ports; the length saturates at 0xFFFF."""
    icmp = parse(udp(proto=1))  # proto 1: no L4 check, no ports
    assert icmp.is_ipv4 and icmp.proto == 1 and not icmp.malformed and not icmp.ports_valid
    assert parse(bytes(70000)).length == 0xFFFF  # min(70000, 65535)
    assert parse(bytes(65535)).length == 65535


def test_tkeep_legality_and_length() -> None:
    """F1: tkeep all ones but on the last beat, which is ones from bit 0 up; the length is
    KEEP_WIDTH per beat but the last plus the set bits of the last tkeep (frame-path.md s1)."""
    assert tkeep_legal([0xF, 0xF, 0x1], 4) and tkeep_legal([0x7], 4) and tkeep_legal([0xFF], 8)
    assert not tkeep_legal([0x7, 0xF], 4)  # a short beat that is not the last
    assert not tkeep_legal([0xF, 0x5], 4)  # last beat not contiguous from bit 0
    assert not tkeep_legal([0xF, 0x0], 4)  # last beat empty
    assert length_from_tkeep([0xF, 0xF, 0x1], 4) == 9  # 4 + 4 + 1
    assert length_from_tkeep([0x7, 0x5], 4) == 6  # 4 (not last) + popcount(0b0101) = 2
    assert length_from_tkeep([0xFF] * 9000, 8) == 0xFFFF  # 72000 saturates


def test_illegal_tkeep_length_orders_oversize_before_malformed() -> None:
    """F1, F3: a frame with illegal tkeep is counted the same way; OVERSIZE comes first."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.frame(10, bytes(1520), tkeep=[0xF] * 379 + [0b1011])  # 379*4 + 3 = 1519 > 1518
    m.frame(11, bytes(1520), tkeep=[0xF] * 379 + [0b0101])  # 379*4 + 2 = 1518 -> MALFORMED
    m.frame(12, udp(payload=21), tkeep=[0xF] * 15 + [0x7])  # legal: 15*4 + 3 = 63 bytes
    with pytest.raises(ValueError):
        m.frame(13, udp(payload=22), tkeep=[0xF] * 15 + [0x7])  # 64 bytes of data vs 63
    m.run(30)
    assert verdicts(m) == [V["OVERSIZE"], V["MALFORMED"], V["ACCEPT"]]
    assert [o.length for o in m.outcomes] == [1519, 1518, 63]


# =============================================================================== classifier (F5, F6)


def test_classifier_first_match_wins() -> None:
    """F5: the lowest-index enabled matching rule wins; disabled rules are skipped."""
    rules = [
        Rule(MDPORT | qsel(3), dport_range(0, 0xFFFF)),  # not enabled
        Rule(EN | MDPORT | qsel(1), dport_range(5000, 5010)),
        Rule(EN | MPROTO | psel(17) | qsel(0)),
        Rule(EN | DROP),  # no match bits: matches everything
    ]
    c = Classifier()
    r = c.classify(parse(udp(dport=5005)), rules, 0)
    assert (r.rule, r.drop_verdict, r.queue) == (1, None, 1)
    r = c.classify(parse(udp(dport=6000)), rules, 0)
    assert (r.rule, r.drop_verdict, r.queue) == (2, None, 0)
    tcp = pad(bytes(Ether() / IP() / TCP(dport=5005)))
    r = c.classify(parse(tcp), rules, 0)
    assert (r.rule, r.queue) == (1, 1)  # dport match is protocol independent
    r = c.classify(parse(pad(bytes(Ether() / IP() / TCP(dport=80)))), rules, 0)
    assert (r.rule, r.drop_verdict) == (3, V["RULE_DROP"])
    r = c.classify(parse(pad(bytes(Ether() / ARP()))), rules, 0)
    assert (r.rule, r.drop_verdict) == (3, V["RULE_DROP"])  # MATCH_PROTO fails on non-IP


def test_classifier_match_conditions() -> None:
    """F5: dport range inclusive, MATCH_PROTO needs IPv4, MATCH_DPORT needs valid ports."""
    rng = Rule(EN | MDPORT, dport_range(100, 200))
    assert [rng.matches(parse(udp(dport=d))) for d in (99, 100, 200, 201)] == [False, True, True, False]
    exact = Rule(EN | MDPORT, dport_range(53, 53))
    assert exact.matches(parse(udp(dport=53))) and not exact.matches(parse(udp(dport=54)))
    assert not rng.matches(parse(udp(dport=150, flags="MF")))  # fragments have no ports
    assert not Rule(EN | MPROTO | psel(6)).matches(parse(udp()))
    assert not Rule(EN | MPROTO | psel(0)).matches(parse(pad(bytes(Ether() / ARP()))))
    assert not Rule(0).matches(parse(udp()))  # ENABLE = 0


def test_classifier_default_action() -> None:
    """F6: no match -> DEFAULT_ACTION: ACCEPT=0 -> UNREGISTERED, else QUEUE[15:8]; rule 0xFF."""
    c = Classifier()
    r = c.classify(parse(UDP60), [Rule()] * 4, 0)
    assert (r.rule, r.drop_verdict) == (0xFF, V["UNREGISTERED"])
    r = c.classify(parse(UDP60), [Rule()] * 4, 1 | 3 << 8)
    assert (r.rule, r.drop_verdict, r.queue) == (0xFF, None, 3)
    assert RULE_NONE == 0xFF


def test_classifier_ethertype_addresses_sport() -> None:
    """F5: EtherType match (ARP 0x0806), masked IPv4 source/destination (need IPv4), source
    port range (needs valid ports)."""
    F_ = regmap.FIELDS
    arp = parse(pad(bytes(Ether() / ARP())))
    et = Rule(EN | 1 << F_["RULE_CTRL_MATCH_ETHERTYPE"], ethertype=0x0806)
    assert et.matches(arp) and not et.matches(parse(udp()))
    src = Rule(EN | 1 << F_["RULE_CTRL_MATCH_SRC"], src_ip=0x0A000100, src_mask=0xFFFFFF00)  # 10.0.1.0/24
    assert src.matches(parse(udp(src="10.0.1.77"))) and not src.matches(parse(udp(src="10.0.2.77")))
    assert not src.matches(arp)  # not IPv4
    dst = Rule(EN | 1 << F_["RULE_CTRL_MATCH_DST"], dst_ip=0xC0A80001, dst_mask=0xFFFFFFFF)  # 192.168.0.1/32
    assert dst.matches(parse(udp(dst="192.168.0.1"))) and not dst.matches(parse(udp(dst="192.168.0.2")))
    assert Rule(EN | 1 << F_["RULE_CTRL_MATCH_SRC"], src_ip=0x12345678, src_mask=0).matches(parse(udp()))  # /0
    sp = Rule(EN | 1 << F_["RULE_CTRL_MATCH_SPORT"], sport=dport_range(1000, 2000))
    frame = pad(bytes(Ether() / IP() / UDP(sport=1500, dport=9)))
    assert sp.matches(parse(frame)) and not sp.matches(parse(pad(bytes(Ether() / IP() / UDP(sport=999)))))


def test_fragments_skip_the_rules() -> None:
    """F7: an IPv4 fragment never reaches the rule table: FRAG_ACTION drops it as FRAGMENT,
    or sends it to the background queue; its rule id is 0xFF."""
    c = Classifier()
    match_all = [Rule(EN | qsel(1))]
    frag = parse(udp(flags="MF"))
    r = c.classify(frag, match_all, 0)
    assert (r.rule, r.drop_verdict) == (0xFF, V["FRAGMENT"])
    r = c.classify(frag, match_all, 0, frag_action=1 | 0 << 8)
    assert (r.rule, r.drop_verdict, r.queue) == (0xFF, None, 0)
    r = c.classify(parse(udp(frag=3)), match_all, 0, frag_action=1)  # offset != 0 too
    assert r.drop_verdict is None and r.rule == 0xFF
    assert c.classify(parse(udp()), match_all, 0).rule == 0  # unfragmented: rules apply


# =============================================================================== NIC helpers


def nic(nq: int = 2, *, strict_order: bool = False) -> PrionicModel:
    return PrionicModel(ModelConfig(num_queues=nq), strict_order=strict_order)


def ring(m: PrionicModel, q: int, size: int, tail: int, w: int) -> int:
    """RING_SIZE at w, RING_TAIL at w+1; returns the next free write cycle."""
    m.reg_write(w, A("RING_SIZE", q), size)
    m.reg_write(w + 1, A("RING_TAIL", q), tail)
    return w + 2


def accept_default(m: PrionicModel, q: int, w: int) -> int:
    m.reg_write(w, A("DEFAULT_ACTION"), 1 | q << 8)
    return w + 1


def verdicts(m: PrionicModel) -> list[int]:
    return [o.verdict for o in m.outcomes]


# =============================================================================== admission (F12, F13)


def test_reset_configuration_delivers_nothing() -> None:
    """F6, F13: out of reset every rule is disabled and the default is drop: UNREGISTERED."""
    m = nic()
    m.frame(10, UDP60)  # looked up (S = 1): v = T+10 = 20, a = 21
    m.run(25)
    o = m.outcomes[0]
    assert (o.verdict, o.queue, o.rule, o.slot) == (V["UNREGISTERED"], 0, 0xFF, None)
    assert (o.t_last, o.verdict_cycle, o.timestamp, o.length) == (10, 22, 10, 60)  # T+12
    assert m.read_reg(A("CNT_RX_FRAMES")) == 1 and m.read_reg(A("CNT_DROP_UNREG")) == 1


def test_ring_full_and_slots() -> None:
    """F12: RING_SIZE 4, TAIL 3 -> slots 0, 1, 2, then free = (3 - 3) mod 4 = 0 -> RING_FULL."""
    m = nic()
    w = ring(m, 0, 4, 3, 0)
    accept_default(m, 0, w)
    for t in (10, 20, 30, 40):
        m.frame(t, UDP60)  # a = T+11: 21, 31, 41, 51
    m.run(55)
    assert verdicts(m) == [V["ACCEPT"]] * 3 + [V["RING_FULL"]]
    assert [o.slot for o in m.outcomes] == [0, 1, 2, None]
    assert [o.queue for o in m.outcomes] == [0, 0, 0, 0]
    assert m.read_reg(A("CNT_FRAMES", 0)) == 3
    assert m.read_reg(A("CNT_BYTES", 0)) == 180  # 3 * 60
    assert m.read_reg(A("CNT_DROP_RING", 0)) == 1


def test_ring_disabled_and_head_wrap() -> None:
    """F12: RING_SIZE < 2 -> RING_FULL; HEAD = slot + 1 mod RING_SIZE at edge C."""
    m = nic()
    m.reg_write(0, A("RING_SIZE", 1), 1)  # queue 1: size 1 (disabled); queue 0 size 0
    m.reg_write(1, A("DEFAULT_ACTION"), 1 | 1 << 8)
    m.frame(5, UDP60)  # looked up: classified at T+10 = 15, does not see the write at 15
    m.reg_write(15, A("DEFAULT_ACTION"), 1)  # queue 0, ring size 0 (reset value)
    m.frame(20, UDP60)  # classified at 30, admitted at 31
    m.run(35)
    assert verdicts(m) == [V["RING_FULL"], V["RING_FULL"]]
    assert [o.queue for o in m.outcomes] == [1, 0]

    m = nic()
    w = ring(m, 0, 4, 3, 0)
    accept_default(m, 0, w)
    # slots 0, 1, 2: taken at 17, 21, 25 (each waits for the lookup before it, busy from its
    # take to v = take + 3), admitted at 21, 25, 29
    for t in (10, 11, 12):
        m.frame(t, UDP60)
    for c in (30, 31, 32):
        m.completion(c, 0)
    m.run(33)
    assert m.read_reg(A("RING_HEAD", 0)) == 3  # slot 2 + 1
    m.reg_write(35, A("RING_TAIL", 0), 0)  # host posts slot 3: free = (0 - 3) mod 4 = 1
    m.frame(40, UDP60)  # a = T+11 = 51 sees TAIL 0 -> slot 3
    m.completion(55, 0)
    m.run(60)
    assert m.outcomes[3].slot == 3
    assert m.read_reg(A("RING_HEAD", 0)) == 0  # (3 + 1) mod 4


def test_buffer_overflow() -> None:
    """F12: length > BUF_SIZE -> BUF_OVERFLOW (before RING_FULL); length == BUF_SIZE fits."""
    m = nic()
    w = ring(m, 0, 2, 1, 0)  # one free slot
    m.reg_write(w, A("BUF_SIZE", 0), 100)
    accept_default(m, 0, w + 1)
    m.frame(10, udp(payload=59))  # a = T+11 = 21: 14+20+8+59 = 101 > 100
    m.frame(20, udp(payload=58))  # a = 31: 100 bytes fit, slot 0; free = (1 - 1) mod 2 = 0 from now on
    m.frame(30, udp(payload=59))  # a = 41: BUF_OVERFLOW is checked before RING_FULL
    m.frame(40, udp(payload=58))  # a = 51: the ring is full indeed
    m.run(55)
    assert verdicts(m) == [V["BUF_OVERFLOW"], V["ACCEPT"], V["BUF_OVERFLOW"], V["RING_FULL"]]
    assert [o.queue for o in m.outcomes] == [0, 0, 0, 0]
    assert [o.length for o in m.outcomes] == [101, 100, 101, 100]
    assert m.read_reg(A("CNT_DROP_BUF", 0)) == 2 and m.read_reg(A("CNT_BYTES", 0)) == 100
    assert m.read_reg(A("CNT_DROP_RING", 0)) == 1


def test_verdict_order() -> None:
    """F3, F17: BAD_FRAME > OVERSIZE > MALFORMED > classification (timing.md s3 steps 1-4)."""
    m = PrionicModel(ModelConfig(max_frame_len=1518))
    w = ring(m, 0, 16, 15, 0)
    accept_default(m, 0, w)
    big = udp(payload=1477)  # 14+20+8+1477 = 1519 > 1518
    m.frame(10, big, tuser=True, tkeep_ok=False)  # all three apply -> BAD_FRAME
    m.frame(11, big, tkeep_ok=False)  # oversize and malformed -> OVERSIZE
    m.frame(12, udp(payload=1476))  # 1518: not oversize -> ACCEPT
    m.frame(13, udp(payload=17), tuser=True)  # runt with tuser -> BAD_FRAME
    m.frame(14, UDP60, tkeep_ok=False)  # -> MALFORMED despite default accept
    m.frame(15, udp(len=47))  # truncated IPv4 -> MALFORMED
    m.run(30)
    assert verdicts(m) == [V["BAD_FRAME"], V["OVERSIZE"], V["ACCEPT"], V["BAD_FRAME"], V["MALFORMED"], V["MALFORMED"]]
    # the skip frames are classified at their take edge; the 1518-byte frame is looked up
    # (taken at 12+7 = 19, v = 22), so the skip frames behind it wait: taken at 23, 24, 25
    assert [o.verdict_cycle for o in m.outcomes] == [19, 20, 24, 25, 26, 27]  # v + 2
    assert [o.length for o in m.outcomes] == [1519, 1519, 1518, 59, 60, 60]
    assert all(o.rule == 0xFF and o.queue == 0 for o in m.outcomes)
    small = PrionicModel(ModelConfig(max_frame_len=100))
    small.frame(10, udp(payload=59))  # 101 > MAX_FRAME_LEN = 100
    small.frame(11, udp(payload=58))  # 100: reaches classification (UNREGISTERED), a = T+11 = 22
    small.run(25)
    assert verdicts(small) == [V["OVERSIZE"], V["UNREGISTERED"]]


def test_counters_and_stat_fields() -> None:
    """F13, F5, F6: one frame of each verdict; counters and stat_verdict_queue/rule per frame-path.md s5-6."""
    m = nic(2)
    w = ring(m, 0, 4, 3, 0)  # queue 0: 3 posted slots; queue 1 stays size 0
    m.reg_write(w, A("BUF_SIZE", 0), 100)
    m.reg_write(w + 1, A("RULE_CTRL", 0), EN | DROP | MDPORT)
    m.reg_write(w + 2, A("RULE_DPORT", 0), dport_range(7, 7))
    m.reg_write(w + 3, A("RULE_CTRL", 1), EN | MDPORT | qsel(1))
    m.reg_write(w + 4, A("RULE_DPORT", 1), dport_range(8, 8))
    m.reg_write(w + 5, A("RULE_CTRL", 2), EN | MDPORT | qsel(5))  # queue 5 >= NUM_QUEUES
    m.reg_write(w + 6, A("RULE_DPORT", 2), dport_range(9, 9))
    m.reg_write(w + 7, A("RULE_CTRL", 3), EN | MPROTO | psel(17) | qsel(0))
    frames = [
        (udp(), False),  # f0 r3 -> q0 ACCEPT slot 0
        (udp(), True),  # f1 tuser -> BAD_FRAME (never reaches the rules)
        (udp(payload=17), False),  # f2 59 bytes -> MALFORMED
        (udp(payload=1477), False),  # f3 1519 -> OVERSIZE
        (pad(bytes(Ether() / ARP())), False),  # f4 no rule -> UNREGISTERED
        (udp(dport=7), False),  # f5 r0 DROP -> RULE_DROP
        (udp(dport=8), False),  # f6 r1 -> q1 (size 0) RING_FULL
        (udp(dport=9), False),  # f7 r2 -> q5 -> RULE_DROP
        (udp(payload=59), False),  # f8 r3, 101 > 100 -> BUF_OVERFLOW
        (udp(payload=58), False),  # f9 r3, 100 -> ACCEPT slot 1
        (udp(), False),  # f10 ACCEPT slot 2
        (udp(), False),  # f11 free = (3-3) mod 4 = 0 -> RING_FULL
    ]
    for i, (data, tuser) in enumerate(frames):
        m.frame(20 + 10 * i, data, tuser=tuser)
    m.run(200)
    assert verdicts(m) == [
        V["ACCEPT"],
        V["BAD_FRAME"],
        V["MALFORMED"],
        V["OVERSIZE"],
        V["UNREGISTERED"],
        V["RULE_DROP"],
        V["RING_FULL"],
        V["RULE_DROP"],
        V["BUF_OVERFLOW"],
        V["ACCEPT"],
        V["ACCEPT"],
        V["RING_FULL"],
    ]
    assert [o.queue for o in m.outcomes] == [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert [o.rule for o in m.outcomes] == [3, 0xFF, 0xFF, 0xFF, 0xFF, 0, 1, 2, 3, 3, 3, 3]
    assert [o.slot for o in m.outcomes] == [0, None, None, None, None, None, None, None, None, 1, 2, None]
    assert [o.index for o in m.outcomes] == list(range(12))
    assert [o.verdict_cycle for o in m.outcomes][:2] == [32, 39]  # T + 12 (looked up), T + 9 (BAD_FRAME skips)
    expect = {
        A("CNT_RX_FRAMES"): 12,
        A("CNT_DROP_BAD"): 1,
        A("CNT_DROP_MALFORMED"): 1,
        A("CNT_DROP_OVERSIZE"): 1,
        A("CNT_DROP_UNREG"): 1,
        A("CNT_DROP_RULE"): 2,  # f5, f7
        A("CNT_FRAMES", 0): 3,
        A("CNT_BYTES", 0): 220,  # 60 + 100 + 60
        A("CNT_DROP_RING", 0): 1,  # f11
        A("CNT_DROP_BUF", 0): 1,  # f8
        A("CNT_FRAMES", 1): 0,
        A("CNT_BYTES", 1): 0,
        A("CNT_DROP_RING", 1): 1,  # f6
        A("CNT_DROP_BUF", 1): 0,
        A("CNT_HITS", 0): 1,  # f5
        A("CNT_HITS", 1): 1,  # f6
        A("CNT_HITS", 2): 1,  # f7
        A("CNT_HITS", 3): 5,  # f0, f8, f9, f10, f11 (not f1: tuser)
    }
    assert {a: m.read_reg(a) for a in expect} == expect


def test_counter_wrap_and_timestamp_wrap() -> None:
    """F13, F17: counters and TIMESTAMP wrap at 2**32."""
    m = nic()
    m.regs.val["CNT_RX_FRAMES"][0] = 0xFFFFFFFF  # white-box: pre-load the counter
    m.regs.val["CNT_DROP_UNREG"][0] = 0xFFFFFFFF
    t = 2**32 + 5
    m.frame(t, UDP60)  # admitted at T + 11
    m.run(t + 12)
    assert m.read_reg(A("CNT_RX_FRAMES")) == 0  # 0xFFFFFFFF + 1 mod 2**32
    assert m.read_reg(A("CNT_DROP_UNREG")) == 0
    o = m.outcomes[0]
    assert (o.timestamp, o.verdict_cycle) == (5, 2**32 + 17)  # T mod 2**32; T + 12
    assert m.read_reg(A("TIMESTAMP")) == 17  # (2**32 + 17) mod 2**32


def test_admission_write_rule_tail() -> None:
    """F12, F17, F25: admission at a = T+11 (a looked-up frame, engine idle) sees RING_TAIL
    as written at cycles < a - 1 (timing.md s3: admission takes RING_TAIL and BUF_SIZE one
    edge later than the register write rule). Two looked-up frames are admitted at least 4
    edges apart (S = 1), so each edge gets a model of its own."""
    for t, verdict, slot in ((4, V["RING_FULL"], None), (5, V["RING_FULL"], None), (6, V["ACCEPT"], 0)):
        m = nic()
        m.reg_write(0, A("RING_SIZE", 0), 4)
        accept_default(m, 0, 1)
        m.reg_write(15, A("RING_TAIL", 0), 1)
        # T = 4: a = 15 = w and T = 5: a = 16 = w + 1: old TAIL 0 -> RING_FULL;
        # T = 6: a = 17 = w + 2: TAIL 1, free = 1 -> slot 0
        m.frame(t, UDP60)
        m.run(20)
        assert [(o.verdict, o.slot, o.admit_cycle) for o in m.outcomes] == [(verdict, slot, t + 11)]


def test_admission_buf_size_seen_at_w_plus_2() -> None:
    """F12, F25: BUF_SIZE as admission sees it at a is the value written at cycles < a - 1
    (timing.md s3). BUF_SIZE takes writes only while the ring is idle (F24): queue 0 is
    enabled with no ring (RING_SIZE 0), BUF_SIZE 32 is written at w = 30; a 60-byte frame
    admitted at a = w + 1 still meets BUF_SIZE 2048 (RING_FULL, the next check), one at
    a = w + 2 meets 32 (BUF_OVERFLOW, which comes before RING_FULL)."""
    for a, verdict in ((31, V["RING_FULL"]), (32, V["BUF_OVERFLOW"])):
        m = nic()
        accept_default(m, 0, 0)
        m.reg_write(30, A("BUF_SIZE", 0), 32)
        m.frame(a - 11, UDP60)
        m.run(a + 5)
        assert m.read_reg(A("BUF_SIZE", 0)) == 32
        assert [(o.verdict, o.admit_cycle) for o in m.outcomes] == [(verdict, a)]


def test_classification_sees_rules_before_t_plus_10() -> None:
    """F5, F17, F25: a looked-up frame (S = 1, engine idle) is taken at T+7 and classified
    at v = T+10, so it sees rule writes at cycles < T+10 (model/SPEC_QUESTIONS.md Q3;
    timing.md s3, s3.1). A RULE_* write during its lookup (seen at T+8..T+10) restarts it:
    it is seen, and v moves to the write's edge + 3. A write seen at the take edge itself
    restarts nothing. A frame that skips the rules (a fragment) is classified at its take
    edge T+7 and sees FRAG_ACTION written at cycles < T+7."""
    frag = udp(flags="MF")
    cases = [  # frame at T = 15, write at w -> (verdict, rule, stat_verdict edge)
        (UDP60, "RULE_CTRL", 25, V["UNREGISTERED"], 0xFF, 27),  # w = T+10 = v: not seen; a = 26
        (UDP60, "RULE_CTRL", 24, V["ACCEPT"], 0, 30),  # w = T+9: restart at 25, v = 25 + 3 = 28
        (UDP60, "RULE_CTRL", 21, V["ACCEPT"], 0, 27),  # w = T+6: seen at the take edge 22, v = 25
        (frag, "FRAG_ACTION", 22, V["FRAGMENT"], 0xFF, 24),  # w = T+7 = v: not seen; T + 9
        (frag, "FRAG_ACTION", 21, V["ACCEPT"], 0xFF, 24),  # w = T+6: seen -> queue 0
    ]
    for data, reg, w, verdict, rule, stat in cases:
        m = nic()
        ring(m, 0, 8, 7, 0)
        val = EN | qsel(0) if reg == "RULE_CTRL" else 1 | 0 << 8  # match-all rule / accept to queue 0
        m.reg_write(w, A(reg, 0), val)
        m.frame(15, data)
        m.run(40)
        assert [(o.verdict, o.rule, o.verdict_cycle) for o in m.outcomes] == [(verdict, rule, stat)], (reg, w)


def test_queue_out_of_range_is_rule_drop() -> None:
    """F5, F6: a target queue >= NUM_QUEUES -> RULE_DROP; the matched rule still counts."""
    m = nic(2)
    m.reg_write(0, A("RULE_CTRL", 1), EN | MDPORT | qsel(2))  # queue 2 with NUM_QUEUES = 2
    m.reg_write(1, A("RULE_DPORT", 1), dport_range(5000, 5000))
    m.frame(10, UDP60)  # rule 1; a = T+11 = 21
    m.reg_write(20, A("DEFAULT_ACTION"), 1 | 7 << 8)  # default queue 7
    m.frame(30, udp(dport=1))  # default action; a = 41
    m.run(45)
    assert [(o.verdict, o.queue, o.rule) for o in m.outcomes] == [(V["RULE_DROP"], 0, 1), (V["RULE_DROP"], 0, 0xFF)]
    assert m.read_reg(A("CNT_HITS", 1)) == 1 and m.read_reg(A("CNT_DROP_RULE")) == 2


def test_ring_reset_timing() -> None:
    """F12, F17, F24: a RING_SIZE write at w: TAIL 0 at w, RESV/HEAD 0 at w+1, admission at
    w+1 sees free = 0 (timing.md s3; model/SPEC_QUESTIONS.md Q4). Ring registers take writes
    only while the queue is idle: nothing admitted to it left, and disabled or below 2 slots."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.frame(5, UDP60)  # a = T+11 = 16: slot 0, RESV -> 1
    m.completion(20, 0)  # HEAD = 1; the reservation is given back at 21
    m.reg_write(22, A("RING_SIZE", 0), 4)  # enabled with 8 slots: not idle, ignored
    m.reg_write(23, A("QUEUE_CTRL", 0), 0)  # disabled, seen from 24
    m.reg_write(25, A("RING_SIZE", 0), 0)  # idle: TAIL 0 at 25, HEAD and RESV 0 at 26
    m.reg_write(26, A("QUEUE_CTRL", 0), 1)  # enabled again; below 2 slots, still idle
    m.reg_write(29, A("RING_SIZE", 0), 8)
    # four looked-up frames 4 cycles apart: none waits for the lookup before it, a = T+11
    m.frame(19, UDP60)  # a = 30 = w+1: RING_FULL (the ring restarts)
    m.reg_write(31, A("RING_TAIL", 0), 2)
    m.frame(23, UDP60)  # a = 34: TAIL 2, RESV 0 -> slot 0
    m.frame(27, UDP60)  # a = 38: slot 1
    m.frame(31, UDP60)  # a = 42: free = (2 - 2) mod 8 = 0 -> RING_FULL
    m.run(24)
    assert m.read_reg(A("RING_SIZE", 0)) == 8
    assert m.read_reg(A("RING_HEAD", 0)) == 1 and m.read_reg(A("RING_TAIL", 0)) == 7
    m.run(25)
    assert m.read_reg(A("RING_TAIL", 0)) == 0  # reset at w = 25
    assert m.read_reg(A("RING_HEAD", 0)) == 1  # HEAD resets only at w+1 = 26
    m.run(42)
    assert verdicts(m) == [V["ACCEPT"], V["RING_FULL"], V["ACCEPT"], V["ACCEPT"], V["RING_FULL"]]
    assert [o.slot for o in m.outcomes] == [0, None, 0, 1, None]
    assert m.read_reg(A("RING_HEAD", 0)) == 0
    assert m.read_reg(A("RING_TAIL", 0)) == 2
    assert m.warnings == []
    # slots 0 and 1 are still in flight: disabled, the queue is not drained, RING_BASE_LO is ignored
    m.reg_write(50, A("QUEUE_CTRL", 0), 0)
    m.reg_write(52, A("RING_BASE_LO", 0), 0x1000)
    m.frame(44, UDP60)  # a = 55: QUEUE_DISABLED
    m.run(60)
    assert m.outcomes[-1].verdict == V["QUEUE_DISABLED"] and m.outcomes[-1].queue == 0
    assert m.read_reg(A("CNT_DROP_DISABLED", 0)) == 1
    assert m.read_reg(A("RING_TAIL", 0)) == 2 and m.read_reg(A("RING_BASE_LO", 0)) == 0
    assert m.read_reg(A("QUEUE_STATUS", 0)) == 0  # not drained, no error
    m.completion(61, 0)
    m.completion(62, 0)
    m.run(62)
    assert m.read_reg(A("QUEUE_STATUS", 0)) == 0  # reservations given back at C+1
    m.run(63)
    assert m.read_reg(A("QUEUE_STATUS", 0)) == 1 << regmap.FIELDS["QUEUE_STATUS_DRAINED"]


def test_ring_reprogram_in_flight_ignored() -> None:
    """F12, F24: a ring register write while a frame admitted to the queue is not completed
    is ignored, disabled or not (the queue is not idle): the DMA never writes a frame with a
    ring it was not admitted to."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.frame(5, UDP60)  # admitted at T+11 = 16, never completed
    m.reg_write(18, A("QUEUE_CTRL", 0), 0)
    m.reg_write(20, A("RING_SIZE", 0), 16)
    m.run(30)
    assert m.read_reg(A("RING_SIZE", 0)) == 8 and m.read_reg(A("RING_TAIL", 0)) == 7
    assert m.warnings == []


def test_reg_write_widths_and_access() -> None:
    """F13, F15: 16-bit registers keep bits [15:0]; RO and unmapped writes are ignored;
    RING_TAIL >= RING_SIZE is ignored (after 16-bit truncation, SPEC_QUESTIONS.md Q2)."""
    m = nic(2)
    m.reg_write(0, A("BUF_SIZE", 1), 0x12345)
    m.reg_write(1, A("TICK_DIV"), 0xABCDE)
    m.reg_write(2, A("CNT_RX_FRAMES"), 5)
    m.reg_write(3, A("ID"), 0)
    m.reg_write(4, 0x3000, 0xFFFF)  # unmapped
    m.reg_write(5, A("ITR_CTRL", 0), 0xFFFFFFFF)  # 32-bit RW
    m.reg_write(6, A("RING_SIZE", 0), 4)
    m.reg_write(7, A("RING_TAIL", 0), 4)  # 4 >= 4: ignored
    m.reg_write(8, A("RING_TAIL", 1), 0)  # size 0: every value ignored
    m.reg_write(9, A("RING_HEAD", 0), 3)  # RO
    m.reg_write(10, A("IRQ_STATUS"), 3)  # RO
    m.run(20)
    assert m.read_reg(A("BUF_SIZE", 1)) == 0x2345
    assert m.read_reg(A("BUF_SIZE", 0)) == 0x800  # reset 2048
    assert m.read_reg(A("TICK_DIV")) == 0xBCDE
    assert m.read_reg(A("CNT_RX_FRAMES")) == 0
    assert m.read_reg(A("ID")) == 0x50524E43
    assert m.read_reg(A("VERSION")) == 0x100
    # NUM_QUEUES 2 | NUM_RULES 4 << 8 | 32/8 << 16 | RULES_PER_CYCLE 4 (all) << 24
    assert m.read_reg(A("CONFIG")) == 0x04040402
    assert m.read_reg(A("FLOW_ENTRIES")) == 16
    assert m.read_reg(0x3000) == 0
    assert m.read_reg(A("ITR_CTRL", 0)) == 0xFFFFFFFF
    assert m.read_reg(A("RING_TAIL", 0)) == 0
    assert m.read_reg(A("RING_HEAD", 0)) == 0 and m.read_reg(A("IRQ_STATUS")) == 0
    m.reg_write(30, A("RING_TAIL", 0), 0x10003)  # [15:0] = 3 < 4 -> taken
    m.run(31)
    assert m.read_reg(A("RING_TAIL", 0)) == 3


def test_completions_head_and_expected() -> None:
    """F12: each completion is for the oldest admitted frame of its queue; HEAD = slot + 1."""
    m = nic(2)
    w = ring(m, 0, 8, 7, 0)
    w = ring(m, 1, 8, 7, w)
    m.reg_write(w, A("RULE_CTRL", 0), EN | MDPORT | qsel(1))
    m.reg_write(w + 1, A("RULE_DPORT", 0), dport_range(1, 1))
    accept_default(m, 0, w + 2)
    m.frame(10, UDP60)  # q0 slot 0: taken at 17, a = 21
    m.frame(11, udp(dport=1))  # q1 slot 0: waits, taken at 21 (after v = 20), a = 25
    m.frame(12, UDP60)  # q0 slot 1: taken at 25, a = 29
    for c, q in ((30, 0), (31, 1), (32, 0)):
        m.completion(c, q)
    m.run(31)
    assert m.read_reg(A("RING_HEAD", 0)) == 1 and m.read_reg(A("RING_HEAD", 1)) == 1
    m.run(40)
    assert m.read_reg(A("RING_HEAD", 0)) == 2  # slot 1 + 1
    assert [(o.index, o.slot) for o in m.expected_completions(0)] == [(0, 0), (2, 1)]
    assert [(o.index, o.slot) for o in m.expected_completions(1)] == [(1, 0)]
    assert m.completions == [(30, 0, 0), (31, 1, 1), (32, 0, 2)]  # (C, queue, frame index)
    assert isinstance(m.outcomes[0], FrameOutcome)


def test_completion_errors() -> None:
    """F12: a completion with nothing outstanding, before admission, or out of admission order."""
    m = nic()
    m.completion(5, 0)
    with pytest.raises(CompletionError, match="no admitted frame"):
        m.run(10)

    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.frame(5, UDP60)  # admitted at T+11 = 16
    m.completion(16, 0)  # C must be > 16
    with pytest.raises(CompletionError, match="admitted only at 16"):
        m.run(20)

    def two_queues(strict: bool) -> PrionicModel:
        m = nic(2, strict_order=strict)
        w = ring(m, 0, 8, 7, 0)
        w = ring(m, 1, 8, 7, w)
        m.reg_write(w, A("RULE_CTRL", 0), EN | MDPORT | qsel(1))
        m.reg_write(w + 1, A("RULE_DPORT", 0), dport_range(1, 1))
        accept_default(m, 0, w + 2)
        m.frame(10, UDP60)  # frame 0 -> q0, a = 21
        m.frame(11, udp(dport=1))  # frame 1 -> q1, waits for frame 0's lookup: a = 25
        m.completion(26, 1)  # frame 1 completes before frame 0
        m.completion(27, 0)
        return m

    with pytest.raises(CompletionError, match="out of admission order"):
        two_queues(True).run(30)
    relaxed = two_queues(False)
    relaxed.run(30)
    assert relaxed.read_reg(A("RING_HEAD", 1)) == 1


def test_inputs_in_the_past_rejected() -> None:
    """F17: inputs must lie after the last evaluated edge; two writes in one cycle are refused."""
    m = nic()
    m.run(10)
    with pytest.raises(ValueError):
        m.frame(10, UDP60)
    m.reg_write(11, A("TICK_DIV"), 1)
    with pytest.raises(ValueError):
        m.reg_write(11, A("TICK_DIV"), 2)
    m.frame(20, UDP60)
    with pytest.raises(ValueError):
        m.frame(20, UDP60)


# =============================================================================== prescaler (F14, F17)


def ticks(div_at: Iterable[int]) -> list[int]:
    p = Prescaler()
    return [m for m, d in enumerate(div_at) if p.step(d)]


def test_prescaler_tick_positions() -> None:
    """F14, F17: constant D -> ticks at m mod D == D-1; a change applies from the next edge."""
    assert ticks([4] * 20) == [3, 7, 11, 15, 19]  # m mod 4 == 3
    assert ticks([1] * 5) == [0, 1, 2, 3, 4]
    assert ticks([125] * 400) == [124, 249, 374]
    # div 8 for edges 0..4 (pcnt reaches 5), div 4 from edge 5: 5 >= 3 ticks at once
    assert ticks([8] * 5 + [4] * 10) == [5, 9, 13]
    # div 2 for edges 0..2 (tick at 1, pcnt 1 after edge 2), div 5 from edge 3: 2, 3, 4, tick at 6
    assert ticks([2] * 3 + [5] * 10) == [1, 6, 11]


def test_prescaler_closed_form_advance() -> None:
    """F14: advance(n) equals n steps (values derived by hand)."""
    p = Prescaler()
    p.pcnt = 5
    p.advance(1, 4)
    assert p.pcnt == 0  # 5 >= 3: tick -> 0
    p.pcnt = 5
    p.advance(3, 4)
    assert p.pcnt == 2  # tick -> 0, 1, 2
    p.pcnt = 0
    p.advance(124, 125)
    assert p.pcnt == 124  # no tick yet
    p.advance(1, 125)
    assert p.pcnt == 0
    p.pcnt = 3
    assert p.edges_to_tick(8) == 5  # pcnt 3,4,5,6 -> tick at the 5th edge (pcnt 7)
    assert p.edges_to_tick(2) == 1  # 3 >= 1: the next edge ticks


def test_tick_div_through_the_nic() -> None:
    """F14, F17: reset TICK_DIV = 125 (ticks at 124, 249); TICK_DIV = 0 counts as 1."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = accept_default(m, 0, w)
    m.reg_write(w, A("ITR_PKT", 0), 2)
    m.frame(50, UDP60)  # a = 61
    m.completion(100, 0)  # cpl at 101; 2nd tick after 101: 124, 249 -> fire at 249
    m.run(400)
    assert m.irq_fires == [(250, 0)]  # stat_irq at m + 1

    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = accept_default(m, 0, w)
    m.reg_write(w, A("ITR_PKT", 0), 3)
    m.reg_write(w + 1, A("TICK_DIV"), 0)  # max(0, 1) = 1 from edge 5
    m.frame(1, UDP60)  # admitted at T+11 = 12
    m.completion(13, 0)  # cpl at 14, loaded 3: ticks 15, 16, 17 -> fire at 17
    m.run(30)
    assert m.irq_fires == [(18, 0)]


# =============================================================================== moderation (F14, F15)


def drive(
    n: int,
    cfg: ModerationConfig,
    cpl: Iterable[int] = (),
    clr: Iterable[int] = (),
    div: int = 1,
    changes: dict[int, ModerationConfig] | None = None,
    mod: Moderation | None = None,
) -> tuple[list[int], Moderation]:
    """Evaluate edges 0..n-1 of one queue; returns the edges m at which ``fire``."""
    mod = mod or Moderation()
    pre = Prescaler()
    cpls, clrs = set(cpl), set(clr)
    cur = cfg
    fires = []
    for m in range(n):
        if changes and m in changes:
            cur = changes[m]
        tick = pre.step(div)
        if mod.step(m in cpls, tick, m in clrs, cur):
            fires.append(m)
    return fires, mod


MC = ModerationConfig


def test_timer_lengths() -> None:
    """F14: a timer loaded with N at edge m expires at the N-th tick strictly after m."""
    assert drive(30, MC(pkt=5), cpl=[10])[0] == [15]  # TICK_DIV 1: m + N = 10 + 5
    assert drive(30, MC(abs=5), cpl=[10])[0] == [15]
    assert drive(30, MC(pkt=3), cpl=[5], div=4)[0] == [15]  # ticks after 5: 7, 11, 15
    assert drive(30, MC(pkt=1), cpl=[7], div=4)[0] == [11]  # 7 is a tick itself: next is 11
    assert drive(30, MC(abs=2), cpl=[3], div=4)[0] == [11]  # ticks after 3: 7, 11
    fires, mod = drive(30, MC(pkt=2), cpl=[0])
    assert fires == [2] and mod.pkt_cnt == 0 and not mod.pkt_run  # stops at 0, never wraps


def test_latency_immediate() -> None:
    """F14, F15: immediate mode, idle queue: completion at C, fire at C+1, stat_irq/irq at C+2."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.frame(10, UDP60)
    m.completion(30, 0)
    m.run(40)
    assert m.irq_fires == [(32, 0)]  # C + 2
    assert m.irq_edges == [(32, 0, 1)]
    assert m.irq_legacy_edges == [(33, 1)]  # registered once more: m + 2
    assert m.read_reg(A("CNT_IRQ", 0)) == 1
    assert m.read_reg(A("IRQ_CAUSE")) == 0b01 and m.read_reg(A("IRQ_STATUS")) == 0b01
    assert m.read_reg(A("ITR_PENDING", 0)) == 0
    # IMMEDIATE overrides a frame threshold and timers
    assert drive(20, MC(immediate=True, frames=4, pkt=100, abs=100), cpl=[3])[0] == [3]


def test_all_disabled_is_immediate() -> None:
    """F14: FRAMES = PKT = ABS = 0 means immediate mode (Intel RDTR = 0)."""
    assert drive(10, MC(), cpl=[2, 5])[0] == [2, 5]
    assert drive(10, MC(frames=3), cpl=[2, 5])[0] == []  # a threshold turns immediate off


def test_expiry_on_completion_cycle_packet_timer() -> None:
    """F14: the packet timer is reloaded by a completion in its expiry cycle, not expired."""
    fires, mod = drive(12, MC(pkt=5), cpl=[0, 5])
    assert fires == [10]  # would have expired at 0 + 5; reloaded at 5 -> 5 + 5
    fires, mod = drive(10, MC(pkt=5), cpl=[0, 5])
    assert fires == [] and mod.pending == 2  # both completions pending before the fire


def test_expiry_on_completion_cycle_absolute_timer() -> None:
    """F14: a running absolute timer expires in the cycle of a new completion, which it covers."""
    fires, mod = drive(40, MC(abs=5), cpl=[0, 5])
    assert fires == [5]  # loaded at 0, 5th tick; the completion at 5 is covered
    assert mod.pending == 0 and not mod.abs_run  # its timer load is not done
    assert drive(40, MC(pkt=5, abs=5), cpl=[0, 5])[0] == [5]  # absolute wins, packet discarded


def test_completion_in_fire_cycle() -> None:
    """F14: a completion in the fire cycle is covered by it; its timer loads are discarded."""
    fires, mod = drive(40, MC(frames=2, pkt=10, abs=3), cpl=[0, 1])
    assert fires == [1]  # pending' = 2 >= 2 at m=1; no fire at 3 (abs), 10 or 11 (pkt)
    assert mod.pending == 0 and not mod.pkt_run and not mod.abs_run


def test_intel_example() -> None:
    """F14: PKT=100, ABS=150, TICK_DIV=1, completions at m=0 and m=80: ABS fires at 150."""
    assert drive(300, MC(pkt=100, abs=150), cpl=[0, 80])[0] == [150]
    assert drive(300, MC(pkt=100), cpl=[0, 80])[0] == [180]  # packet timer: 80 + 100
    # the same at NIC level, shifted: TICK_DIV=1 seen from edge 6, completions at C=12, 92
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = accept_default(m, 0, w)
    for i, (reg, v) in enumerate((("ITR_PKT", 100), ("ITR_ABS", 150), ("TICK_DIV", 1))):
        m.reg_write(w + i, A(reg, 0), v)  # writes at 3, 4, 5
    m.frame(0, UDP60)  # admitted at T+11 = 11
    m.frame(1, UDP60)  # waits for frame 0's lookup: taken at 11, admitted at 15
    m.completion(12, 0)  # cpl at 13 (m = 0 above)
    m.completion(92, 0)  # cpl at 93 (m = 80 above)
    m.run(400)
    assert m.irq_fires == [(164, 0)]  # ABS expires at 13 + 150 = 163; stat_irq at 164


def test_gap_hold_and_release() -> None:
    """F14: after a fire at m0 with GAP=G nothing fires before the G-th tick after m0; a
    condition met meanwhile is held and fires at that tick; after the gap it fires at once."""
    fires, _ = drive(40, MC(gap=10), cpl=[0, 3, 25])
    assert fires == [0, 10, 25]  # 0; held at 3, released at 10th tick (10); gap ends at 20
    fires, mod = drive(10, MC(gap=10), cpl=[0, 3])
    assert fires == [0] and mod.held and mod.pending == 1  # still held at edge 9
    assert drive(20, MC(gap=2), cpl=[0, 1], div=4)[0] == [0, 7]  # ticks 3, 7: 2nd tick is 7


def test_gap_with_timers() -> None:
    """F14: a timer expiring inside the gap is held until the gap's last tick (TICK_DIV 1)."""
    # PKT=1, GAP=4: cpl 0 -> expires at 1 -> fire at 1, gap_cnt 4 (4th tick after 1 = 5).
    # cpl 2 -> expires at 3: blocked -> held; gap_cnt 1 and tick at 5 -> gap_end -> fire at 5.
    fires, mod = drive(5, MC(gap=4, pkt=1), cpl=[0, 2])
    assert fires == [1] and mod.held  # edges 0..4: still held at 4
    assert drive(40, MC(gap=4, pkt=1), cpl=[0, 2])[0] == [1, 5]
    # PKT=1, GAP=3: fire at 1, gap ends at 4; cpl 3 -> expires at 4 = gap_end -> fire at 4.
    assert drive(40, MC(gap=3, pkt=1), cpl=[0, 3])[0] == [1, 4]
    # PKT=2, GAP=3: cpl 0 -> expires at 2 -> fire at 2 (gap ends at 5); cpl 3 -> expires at 5.
    assert drive(40, MC(gap=3, pkt=2), cpl=[0, 3])[0] == [2, 5]


def test_masked_then_unmasked() -> None:
    """F15: masked: moderation and cause run unchanged, only irq is gated; unmasking with
    cause set raises irq (write at w -> moderation uses MASK from w+2 (timing.md s4, F25) -> irq
    high at w+3, SPEC_QUESTIONS Q6)."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = accept_default(m, 0, w)
    m.reg_write(w, A("IRQ_MASK"), 0b01)  # at 3, used by moderation from 5
    m.frame(10, UDP60)
    m.completion(30, 0)
    m.run(45)
    assert m.irq_fires == [(32, 0)]  # the decision is not masked
    assert m.irq_edges == [] and m.irq_legacy_edges == []
    assert m.read_reg(A("IRQ_CAUSE")) == 0b01 and m.read_reg(A("IRQ_STATUS")) == 0
    assert m.read_reg(A("CNT_IRQ", 0)) == 1
    m.reg_write(50, A("IRQ_MASK"), 0)
    m.run(60)
    assert m.irq_edges == [(53, 0, 1)]  # MASK used at 52 -> irq' = 1 -> sampled high at 53
    assert m.irq_legacy_edges == [(54, 1)]
    assert m.read_reg(A("IRQ_STATUS")) == 0b01
    # block level: masked queue keeps cause, irq stays 0
    fires, mod = drive(10, MC(mask=True), cpl=[2])
    assert fires == [2] and mod.cause and not mod.irq


def test_clear_and_fire_same_edge() -> None:
    """F15: a W1C clear and a fire at the same edge: the fire wins (cause stays 1)."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.frame(10, UDP60)  # a = 21
    m.frame(11, UDP60)  # waits for frame 0's lookup: a = 25
    m.completion(22, 0)  # fire at 23 -> irq high at 24
    m.completion(40, 0)  # cpl at 41
    m.reg_write(40, A("IRQ_CAUSE"), 0b01)  # clr at 41, same edge as the fire
    m.reg_write(60, A("IRQ_CAUSE"), 0b11)  # clr at 61 (bit 1: queue 1 has no cause)
    m.run(55)
    assert m.read_reg(A("IRQ_CAUSE")) == 0b01
    m.run(70)
    assert m.irq_fires == [(24, 0), (42, 0)]
    assert m.irq_edges == [(24, 0, 1), (62, 0, 0)]  # clr at 61: irq' = 0, sampled low at 62
    assert m.read_reg(A("IRQ_CAUSE")) == 0 and m.read_reg(A("IRQ_STATUS")) == 0
    # block level: clear without a fire drops cause and irq
    fires, mod = drive(10, MC(), cpl=[0, 5], clr=[5, 8])
    assert fires == [0, 5] and not mod.cause and not mod.irq


def test_reconfiguration_while_running() -> None:
    """F14: new PKT/ABS apply at the next load; 0 stops a timer at once; FRAMES applies to
    the next comparison; GAP applies from the next fire."""
    # PKT 10 -> 4 at m=3: the running timer still expires at 10; cpl 20 loads 4 -> 24
    assert drive(40, MC(pkt=10), cpl=[0, 20], changes={3: MC(pkt=4)})[0] == [10, 24]
    # ABS 10 -> 4 at m=3: expires at 10; cpl 20 loads 4 -> 24
    assert drive(40, MC(abs=10), cpl=[0, 20], changes={3: MC(abs=4)})[0] == [10, 24]
    # PKT 10 -> 0 at m=5 (FRAMES=100 keeps immediate off): stopped, never fires
    fires, mod = drive(40, MC(frames=100, pkt=10), cpl=[0], changes={5: MC(frames=100)})
    assert fires == [] and not mod.pkt_run and mod.pending == 1
    fires, mod = drive(40, MC(frames=100, abs=10), cpl=[0], changes={5: MC(frames=100)})
    assert fires == [] and not mod.abs_run and mod.pending == 1
    # FRAMES 5 -> 3 at m=3 with 3 pending (cpl 0, 1, 2): 3 >= 3 at m=3
    assert drive(10, MC(frames=5), cpl=[0, 1, 2], changes={3: MC(frames=3)})[0] == [3]
    # GAP 5 -> 20 at m=1: the gap loaded at 0 still ends at 5; the fire at 5 loads 20 -> 25
    assert drive(40, MC(gap=5), cpl=[0, 2, 6], changes={1: MC(gap=20)})[0] == [0, 5, 25]


def test_reconfiguration_through_the_nic() -> None:
    """F14, F17, F25: an ITR write at w is used by moderation from edge w+2 on (timing.md s4:
    moderation reads its configuration as seen at m - 1)."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = accept_default(m, 0, w)
    m.reg_write(w, A("TICK_DIV"), 1)
    m.reg_write(w + 1, A("ITR_FRAMES", 0), 2)  # at 4, used from 6
    m.frame(5, UDP60)   # admitted at 16
    m.frame(6, UDP60)   # waits for frame 0's lookup: admitted at 20
    m.frame(7, UDP60)   # admitted at 24
    m.completion(20, 0)  # cpl at 21: pending 1 < 2
    m.reg_write(30, A("ITR_FRAMES", 0), 1)  # used at 32: 1 >= 1 -> fire at 32, stat_irq at 33
    m.run(40)
    assert m.irq_fires == [(33, 0)]
    m.reg_write(41, A("ITR_FRAMES", 0), 3)  # used from 43
    m.completion(41, 0)  # cpl at 42, where FRAMES is still 1: fire at 42
    m.completion(50, 0)  # cpl at 51: pending 1 < 3, no fire
    m.run(60)
    assert m.irq_fires == [(33, 0), (43, 0)]
    assert m.read_reg(A("ITR_PENDING", 0)) == 1


def test_wrap_pending_saturates() -> None:
    """F14 ("Wrap"): pending saturates at 0xFFFF (ITR_PENDING is 16 bits); timers stop at 0."""
    mod = Moderation()
    cfg = MC(pkt=60000)  # not immediate; no tick -> the timer never expires
    for _ in range(70000):
        assert not mod.step(True, False, False, cfg)
    assert mod.pending == 0xFFFF  # min(70000, 65535)
    assert mod.pkt_run and mod.pkt_cnt == 60000
    fires, mod = drive(50, MC(pkt=3, abs=4, frames=100), cpl=[0])
    assert fires == [3]  # packet timer: 0 + 3; the fire stops the absolute timer
    assert (mod.pkt_cnt, mod.pkt_run, mod.abs_run) == (0, False, False)  # 3 -> 2 -> 1 -> 0, stopped


def test_moderation_subclass_runs_edge_by_edge() -> None:
    """F14: a substituted (wrong) moderation class is used and evaluated at every edge."""

    class NoGap(Moderation):
        def step(self, cpl: bool, tick: bool, clr: bool, cfg: ModerationConfig) -> bool:
            return super().step(cpl, tick, clr, dataclasses.replace(cfg, gap=0))

    class Wrong(PrionicModel):
        moderation_cls = NoGap

    def scenario(cls: type[PrionicModel]) -> list[tuple[int, int]]:
        m = cls(ModelConfig())
        w = ring(m, 0, 8, 7, 0)
        w = accept_default(m, 0, w)
        m.reg_write(w, A("TICK_DIV"), 1)
        m.reg_write(w + 1, A("ITR_GAP", 0), 10)
        m.frame(10, UDP60)  # a = 21
        m.frame(11, UDP60)  # waits for frame 0's lookup: a = 25
        m.completion(26, 0)
        m.completion(28, 0)
        m.run(60)
        return m.irq_fires

    assert Moderation.skip_safe and not NoGap.skip_safe
    assert not Wrong(ModelConfig()).skip
    assert scenario(PrionicModel) == [(28, 0), (38, 0)]  # fire 27, held 29, released 27 + 10
    assert scenario(Wrong) == [(28, 0), (30, 0)]


# =============================================================================== skip vs reference


def _random_inputs(seed: int, nq: int, cycles: int) -> tuple[list[tuple[int, int, int]], list[tuple[int, bytes]]]:
    rnd = random.Random(seed)
    writes: list[tuple[int, int, int]] = []
    w = 0
    for q in range(nq):
        writes += [
            (w, A("RING_SIZE", q), 0xFFFF),
            (w + 1, A("RING_TAIL", q), 0xFFFE),
            (w + 2, A("RULE_CTRL", q), EN | MDPORT | qsel(q)),
            (w + 3, A("RULE_DPORT", q), dport_range(q, q)),
        ]
        w += 4
    used = {c for c, _, _ in writes}
    itr = ("ITR_FRAMES", "ITR_PKT", "ITR_ABS", "ITR_GAP")
    c = w
    while c < cycles:
        c += rnd.choice((1, 1, 2, 3, 7, 20, 60, 300, 1500))
        if c in used:
            continue
        used.add(c)
        kind = rnd.random()
        if kind < 0.55:
            q = rnd.randrange(nq)
            reg = rnd.choice(itr)
            val = rnd.choice((0, 0, 1, 2, 3, 5, 8, 17, 40))
            writes.append((c, A(reg, q), val))
        elif kind < 0.65:
            writes.append((c, A("ITR_CTRL", rnd.randrange(nq)), rnd.randrange(2)))
        elif kind < 0.75:
            writes.append((c, A("TICK_DIV"), rnd.choice((0, 1, 2, 3, 5, 8, 13, 125))))
        elif kind < 0.87:
            writes.append((c, A("IRQ_MASK"), rnd.randrange(1 << nq)))
        else:
            writes.append((c, A("IRQ_CAUSE"), rnd.randrange(1 << nq)))
    frames: list[tuple[int, bytes]] = []
    t = 10
    while t < cycles - 100:
        t += rnd.choice((1, 2, 3, 5, 9, 30, 120, 700))
        frames.append((t, udp(dport=rnd.randrange(nq + 1))))  # dport nq: unregistered
    return writes, frames


def _build(
    writes: list[tuple[int, int, int]],
    frames: list[tuple[int, bytes]],
    cpls: list[tuple[int, int]],
    nq: int,
    skip: bool,
) -> PrionicModel:
    m = PrionicModel(ModelConfig(num_queues=nq), skip=skip)
    for c, a, d in writes:
        m.reg_write(c, a, d)
    for t, data in frames:
        m.frame(t, data)
    for c, q in cpls:
        m.completion(c, q)
    return m


def _snapshot(m: PrionicModel) -> dict[str, object]:
    cfg = m.cfg
    regs = {}
    for name, reg in regmap.REGS.items():
        n = {"global": 1, "queue": cfg.num_queues, "rule": cfg.num_rules}[reg.block]
        for i in range(n):
            regs[(name, i)] = m.read_reg(A(name, i))
    return {
        "outcomes": [dataclasses.asdict(o) for o in m.outcomes],
        "irq_fires": m.irq_fires,
        "irq_edges": m.irq_edges,
        "irq_legacy_edges": m.irq_legacy_edges,
        "completions": m.completions,
        "regs": regs,
        "pcnt": m.prescaler.pcnt,
        "state": [dict(vars(mod)) for mod in m.moderation],
    }


@pytest.mark.parametrize("seed,nq", [(1, 2), (2, 3), (3, 4), (4, 8), (5, 1)])
def test_skip_matches_reference(seed: int, nq: int) -> None:
    """F14, F15, F17: skipping idle/non-tick edges gives exactly the per-edge reference results."""
    cycles = 30_000
    writes, frames = _random_inputs(seed, nq, cycles)
    probe = _build(writes, frames, [], nq, skip=True)
    probe.run(cycles)
    accepted = [o for o in probe.outcomes if o.verdict == V["ACCEPT"]]
    rnd = random.Random(seed * 7919)
    cpls: list[tuple[int, int]] = []
    last = 0
    for o in accepted:  # in admission order, one per cycle, after the admission
        last = max(last + 1, o.admit_cycle + 1 + rnd.choice((0, 0, 1, 4, 30, 200)))
        if last < cycles - 10:
            cpls.append((last, o.queue))
    ref = _build(writes, frames, cpls, nq, skip=False)
    fast = _build(writes, frames, cpls, nq, skip=True)
    ref.run(cycles)
    fast.run(cycles)
    assert ref.evaluated_edges == cycles + 1
    assert fast.evaluated_edges < ref.evaluated_edges
    assert len(ref.irq_fires) > 20  # the stream does exercise the moderation
    assert _snapshot(fast) == _snapshot(ref)
    # running in chunks gives the same as one run
    chunked = _build(writes, frames, cpls, nq, skip=True)
    for end in range(997, cycles, 4999):
        chunked.run(end)
    chunked.run(cycles)
    assert _snapshot(chunked) == _snapshot(ref)


# =============================================================================== priority gating (F16)


def test_gating_holds_and_releases() -> None:
    """F16: a gated queue holds a due interrupt, timers running, until the gate opens."""
    gated, open_ = MC(gated=True), MC()
    # immediate: completion at 5 held while gated; the gate opens at 20 -> fire at 20
    assert drive(40, gated, cpl=[5], changes={20: open_})[0] == [20]
    # packet timer 5 loaded at 5 expires at 10 while gated (held), fires when opened at 20
    assert drive(40, MC(pkt=5, gated=True), cpl=[5], changes={20: MC(pkt=5)})[0] == [20]
    # nothing due: opening the gate fires nothing; the timer then expires at 5 + 5 = 10
    assert drive(40, MC(pkt=5, gated=True), cpl=[5], changes={7: MC(pkt=5)})[0] == [10]


def test_gating_and_gap_together() -> None:
    """F16, F14: the gap runs while gated; the held interrupt fires at the first edge that is
    neither gated nor in a gap."""
    # fire at 0 loads GAP 10 (gap ends at tick 10); gated 1..29; completion at 3 -> fires at 30
    fires, _ = drive(50, MC(gap=10), cpl=[0, 3], changes={1: MC(gap=10, gated=True), 30: MC(gap=10)})
    assert fires == [0, 30]
    # the gate opens at 5 but the gap still runs until 10 -> fire at 10
    fires, _ = drive(50, MC(gap=10), cpl=[0, 3], changes={1: MC(gap=10, gated=True), 5: MC(gap=10)})
    assert fires == [0, 10]


def test_run_prio_register_port_and_pending_prio() -> None:
    """F16, F25: running priority = max(RUN_PRIO, run_prio port); the port sampled at p is
    used by moderation from p+2 (timing.md s4-5); PENDING_PRIO reports {1, QUEUE_PRIO} of
    queues with unsignalled completions."""
    m = nic()
    w = ring(m, 1, 8, 7, 0)
    w = accept_default(m, 1, w)  # everything to queue 1 (QUEUE_PRIO reset 2), immediate
    m.run_prio_input(5, 2)  # port 2 sampled at 5: queue 1 (prio 2) gated from edge 7
    m.frame(10, UDP60)
    m.completion(30, 1)  # cpl at 31: held
    m.run(40)
    assert m.irq_fires == []
    assert m.read_reg(A("PENDING_PRIO")) == 0x100 | 2
    assert m.read_reg(A("QUEUE_PRIO", 0)) == 1 and m.read_reg(A("QUEUE_PRIO", 1)) == 2  # reset q+1
    m.reg_write(50, A("RUN_PRIO"), 1)  # register below the port: still gated
    m.run_prio_input(60, 1)  # max(1, 1) = 1 < 2: open from edge 62, fire at 62, stat_irq at 63
    m.run(80)
    assert m.irq_fires == [(63, 1)]
    assert m.read_reg(A("PENDING_PRIO")) == 0


# =============================================================================== shared limiter (F9)


@pytest.mark.parametrize("shared_with", [0, 4])
def test_rules_share_a_limiter(shared_with: int) -> None:
    """F9: RULE_LIM_CTRL of rule 1 = SHARED | LIMITER << 8. Rule 0 (UDP 5000) has limiter 0
    with 2 frames per 1000 cycles, restarted at edge 11 (write at 9: limiter.md s8, w + 2). With LIMITER = 0, rule 1
    (UDP 6000) spends limiter 0 too: frames 5000, 6000, 5000 at T = 20, 30, 40 (admitted at
    T+11 = 31, 41, 51, one epoch) -> ACCEPT, ACCEPT, RATE_LIMITED. With LIMITER = 4 >= NUM_RULES
    rule 1 has no limiter: ACCEPT, ACCEPT, ACCEPT (the 5000 frames spend 2 of 2)."""
    m = nic()
    w = ring(m, 0, 16, 15, 0)
    w = ring(m, 1, 16, 15, w)
    m.reg_write(w, A("RULE_CTRL", 0), EN | MPROTO | MDPORT | qsel(1) | psel(17))
    m.reg_write(w + 1, A("RULE_DPORT", 0), 5000 | 5000 << 16)
    m.reg_write(w + 2, A("RULE_CTRL", 1), EN | MPROTO | MDPORT | qsel(0) | psel(17))
    m.reg_write(w + 3, A("RULE_DPORT", 1), 6000 | 6000 << 16)  # w + 3 = 7
    m.reg_write(8, A("RULE_LIM_PERIOD", 0), 1000)
    m.reg_write(9, A("RULE_LIM_BUDGET", 0), 2)      # limiter 0 restarts at 11: 2 per 1000 cycles
    m.reg_write(11, A("RULE_LIM_CTRL", 1), 1 << 1 | shared_with << 8)
    for t, port in ((20, 5000), (30, 6000), (40, 5000)):
        m.frame(t, udp(port))
    m.run(100)
    exp = [V["ACCEPT"], V["ACCEPT"], V["RATE_LIMITED"] if shared_with == 0 else V["ACCEPT"]]
    assert verdicts(m) == exp
    assert [o.rule for o in m.outcomes] == [0, 1, 0]


@pytest.mark.parametrize("after", [1, 2])
def test_limiter_write_seen_at_w_plus_2(after: int) -> None:
    """F9, limiter.md s8 (F25): a RULE_LIM_* write at w is seen by the limiter from edge
    w + 2. Limiter 0 is off; RULE_LIM_PERIOD 1000 is written at w (BUDGET stays 0: nothing
    passes once it is on). A frame of rule 0 admitted at a = w + 1 still meets the limiter
    off (ACCEPT); one admitted at a = w + 2 meets the restart with BUDGET 0 (RATE_LIMITED).
    Then RULE_LIM_CTRL of rule 0 = SHARED | LIMITER 4 (none) at w2: a frame at w2 + 1 is
    still limited, one at w2 + 2 passes."""
    m = nic()
    w = ring(m, 0, 16, 15, 0)
    m.reg_write(w, A("RULE_CTRL", 0), EN | MPROTO | MDPORT | qsel(0) | psel(17))
    m.reg_write(w + 1, A("RULE_DPORT", 0), 5000 | 5000 << 16)
    t = 40
    a = t + 11                     # a looked-up frame without a wait: admitted at T+11
    m.reg_write(a - after, A("RULE_LIM_PERIOD", 0), 1000)
    m.frame(t, udp(5000))
    t2 = 80
    a2 = t2 + 11
    m.reg_write(a2 - after, A("RULE_LIM_CTRL", 0), 1 << 1 | 4 << 8)
    m.frame(t2, udp(5000))
    m.run(200)
    assert [o.verdict_cycle - 1 for o in m.outcomes] == [a, a2]
    if after == 1:
        assert verdicts(m) == [V["ACCEPT"], V["RATE_LIMITED"]]
    else:
        assert verdicts(m) == [V["RATE_LIMITED"], V["ACCEPT"]]


# =============================================================================== host faults (F24)

EV = regmap.ENUMS["dma_event"]
DRAINED = 1 << regmap.FIELDS["QUEUE_STATUS_DRAINED"]


def test_dma_error_stops_queue_and_flushes() -> None:
    """F24 (docs/faults.md s1, s2): a DESC_ERR at E stops the queue: an admission at E is
    still ACCEPT, one at E+1 is QUEUE_DISABLED; the frame in flight and the next admitted
    one end with FLUSH (space given back at F+1, no interrupt); counters count at E+1;
    irq_err is high from E+1; QUEUE_STATUS.ERR reads the code; the driver's recovery
    (disable, DRAINED, ring write) clears it (irq_err low at w+2) and frames flow again."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = accept_default(m, 0, w)
    m.reg_write(w, A("ITR_CTRL", 0), 1)  # immediate
    m.reg_write(w + 1, A("FRAG_ACTION"), 1 | 0 << 8)  # fragments to queue 0
    m.frame(5, UDP60)  # a = T+11 = 16
    m.frame(24, UDP60)  # looked up: taken at 31, v = 34, a = 35 = E: still admitted
    m.dma_event(35, 0, EV["DESC_ERR"])  # frame 0's descriptor read failed at 35
    # a skip frame (a fragment) is taken at 35 (the engine is free after v = 34): v = 35,
    # a = 36 = E+1 (a looked-up frame could not be admitted before 39)
    m.frame(28, udp(flags="MF"))  # a = 36 = E+1: QUEUE_DISABLED
    m.dma_event(40, 0, EV["FLUSH"])  # frame 0
    m.dma_event(50, 0, EV["FLUSH"])  # frame 1
    m.run(35)
    assert m.read_reg(A("CNT_DMA_ERR", 0)) == 0  # counted at E+1 = 36
    m.run(36)
    assert m.read_reg(A("CNT_DMA_ERR", 0)) == 1 and m.read_reg(A("CNT_DMA_ERR_ALL")) == 1
    assert m.read_reg(A("QUEUE_STATUS", 0)) == EV["DESC_ERR"] and m.read_reg(A("DMA_ERR_STATUS")) == 1
    m.run(60)
    assert verdicts(m) == [V["ACCEPT"], V["ACCEPT"], V["QUEUE_DISABLED"]]
    assert m.outcomes[2].queue == 0 and m.read_reg(A("CNT_DROP_DISABLED", 0)) == 1
    assert [o.dma for o in m.outcomes[:2]] == ["flush", "flush"] and m.expected_completions(0) == []
    assert m.read_reg(A("CNT_DMA_FLUSH", 0)) == 2 and m.read_reg(A("CNT_DMA_ERR", 0)) == 1
    assert m.irq_fires == [] and m.irq_err_edges == [(36, 1)]
    assert m.admission.used_frames[0] == 0  # given back at 41 and 51
    # recovery: disable, drained, reprogram (clears the error), enable, deliver
    m.reg_write(61, A("QUEUE_CTRL", 0), 0)
    m.reg_write(63, A("RING_SIZE", 0), 8)
    m.reg_write(64, A("RING_TAIL", 0), 7)
    m.reg_write(65, A("QUEUE_CTRL", 0), 1)
    m.frame(65, UDP60)  # a = 76
    m.completion(90, 0)
    m.run(62)
    assert m.read_reg(A("QUEUE_STATUS", 0)) == EV["DESC_ERR"] | DRAINED
    m.run(100)
    assert m.irq_err_edges == [(36, 1), (65, 0)]  # reset pulse at 64, irq_err low at 65
    assert m.read_reg(A("QUEUE_STATUS", 0)) == 0 and m.outcomes[-1].verdict == V["ACCEPT"]
    assert m.outcomes[-1].slot == 0 and m.outcomes[-1].dma == "done"


def test_dma_data_error_completion_and_wb_error() -> None:
    """F24: a DATA_ERR before the frame's completion makes that completion an ERR write-back
    (length 0); a WB_ERR at C marks the completion at C as not in memory; a BUF_ERR makes
    the queue's next completion ERR without stopping it; a second error of a stopped queue
    is counted but keeps the first cause; a FLUSH of a running queue is refused."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    w = ring(m, 1, 8, 7, w)
    m.reg_write(w, A("DEFAULT_ACTION"), 1)
    m.frame(10, UDP60)  # q0, a = T+11 = 21
    m.frame(11, UDP60)  # q0, waits for frame 0's lookup: taken at 21, a = 25
    m.dma_event(20, 0, EV["BUF_ERR"])
    m.completion(22, 0)  # frame 0: ERR, queue still running
    m.dma_event(30, 0, EV["DATA_ERR"])
    m.dma_event(32, 0, EV["WB_ERR"])  # a second error: counted, cause stays DATA_ERR
    m.completion(32, 0)  # frame 1's write-back got the error response
    m.run(40)
    assert [o.dma for o in m.outcomes] == ["err", "wb_err"]
    assert m.read_reg(A("QUEUE_STATUS", 0)) == EV["DATA_ERR"]
    assert m.read_reg(A("CNT_DMA_ERR", 0)) == 3 and m.read_reg(A("CNT_DMA_ERR_ALL")) == 3
    assert m.irq_err_edges == [(31, 1)]
    m2 = nic()
    w = ring(m2, 0, 8, 7, 0)
    accept_default(m2, 0, w)
    m2.frame(10, UDP60)
    m2.dma_event(20, 0, EV["FLUSH"])
    with pytest.raises(CompletionError):
        m2.run(30)


def test_queue_disable_and_drained() -> None:
    """F24: QUEUE_CTRL.ENABLE 0 written at w: admissions from w+1 are QUEUE_DISABLED (before
    BUF_OVERFLOW and RING_FULL); the frame admitted before still completes; DRAINED reads 1
    once its reservation is given back (C+1), and a ring write is then kept."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.reg_write(15, A("QUEUE_CTRL", 0), 0)  # seen from 16
    m.frame(4, UDP60)  # looked up: taken at 11, v = 14, a = 15: ACCEPT
    m.frame(5, UDP60 + bytes(3000))  # skips the rules, waits: taken at 15, a = 16: OVERSIZE comes first (verdict order)
    m.frame(6, UDP60)  # waits: taken at 16, v = 19, a = 20: QUEUE_DISABLED
    m.completion(20, 0)
    m.reg_write(21, A("RING_SIZE", 0), 4)  # reservation given back at 21: seen from 22, ignored
    m.reg_write(22, A("RING_SIZE", 0), 4)  # kept
    m.run(21)
    assert m.read_reg(A("QUEUE_STATUS", 0)) == DRAINED
    m.run(30)
    assert verdicts(m) == [V["ACCEPT"], V["OVERSIZE"], V["QUEUE_DISABLED"]]
    assert m.read_reg(A("RING_SIZE", 0)) == 4 and m.read_reg(A("RING_TAIL", 0)) == 0
