"""Unit tests of the golden model's parser and rule matching (model/parser.py, model/classifier.py), from
docs/frame-path.md s1-3: F1 stream input, F3 parser, F5/F6 rules and default action.

Every expected value is derived by hand from the spec and written as a literal with the
arithmetic in a comment. Shared helpers: tests/model_helpers.py.
"""

from __future__ import annotations

import pytest
from scapy.all import ARP, IP, TCP, UDP, Dot1Q, Ether, IPOption_NOP, Raw  # type: ignore[attr-defined]

from model import regmap
from model.classifier import RULE_NONE, Classifier, Rule
from model.parser import length_from_tkeep, tkeep_legal
from tests.model_helpers import (
    DROP,
    EN,
    MDPORT,
    MPROTO,
    UDP60,
    V,
    accept_default,
    dport_range,
    nic,
    pad,
    parse,
    psel,
    qsel,
    ring,
    udp,
    verdicts,
)

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
