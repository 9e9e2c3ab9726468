"""prionic_classifier block test (F5, F6, F7): random rule tables and parsed frames against
the model's Classifier (docs/frame-path.md section 3), including parser drops, first-match
priority, EtherType, masked addresses, port ranges, drop rules, queues beyond NUM_QUEUES,
the default action and the fragment action."""

from __future__ import annotations

import cocotb
from cocotb.triggers import FallingEdge

from model import regmap
from model.classifier import Classifier, Rule
from model.parser import ParseResult
from tb.common import Clocked, make_rng, param, soak

V = regmap.VERDICTS
F = regmap.FIELDS


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


@cocotb.test()
async def classifier_matches_model(dut):
    """F5, F6: every classification (code, queue, rule) equals the model's, one per cycle."""
    nr, nq = param("NUM_RULES", 4), param("NUM_QUEUES", 2)
    rng = make_rng(dut)
    for s in ("s_valid", "s_len", "s_words", "s_ts", "s_bad", "s_oversize", "s_malformed",
              "s_is_ipv4", "s_proto", "s_ports_valid", "s_dport", "s_sport", "s_ethertype", "s_frag",
              "s_src_ip", "s_dst_ip", "cfg_rule_ctrl", "cfg_rule_dport", "cfg_rule_sport",
              "cfg_rule_ethertype", "cfg_rule_src_ip", "cfg_rule_src_mask", "cfg_rule_dst_ip",
              "cfg_rule_dst_mask", "cfg_default_action", "cfg_frag_action", "cfg_rule_vlan",
              "s_is_ipv6", "s_vlan_tags", "s_tci", "s_info"):
        getattr(dut, s).value = 0
    clocked = Clocked(dut)
    await clocked.start()
    cls = Classifier()
    n = 0
    for _table in range(20 if soak() else 6):
        rules = [random_rule(rng, nq) for _ in range(nr)]
        default = rng.choice([0, 1 | rng.randint(0, nq) << F["DEFAULT_ACTION_QUEUE_LSB"]])
        dut.cfg_rule_ctrl.value = sum(r.ctrl << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_dport.value = sum(r.dport << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_sport.value = sum(r.sport << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_ethertype.value = sum(r.ethertype << 16 * i for i, r in enumerate(rules))
        dut.cfg_rule_src_ip.value = sum(r.src_ip << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_src_mask.value = sum(r.src_mask << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_dst_ip.value = sum(r.dst_ip << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_dst_mask.value = sum(r.dst_mask << 32 * i for i, r in enumerate(rules))
        dut.cfg_rule_vlan.value = sum(r.vlan << 16 * i for i, r in enumerate(rules))
        dut.cfg_default_action.value = default
        frag_action = rng.choice([0, 1 | rng.randint(0, nq) << F["FRAG_ACTION_QUEUE_LSB"]])
        dut.cfg_frag_action.value = frag_action
        for _ in range(300):
            p, tuser, oversize = random_parse(rng)
            dut.s_valid.value = 1
            dut.s_len.value = p.length
            dut.s_words.value = 7
            dut.s_ts.value = n
            dut.s_bad.value = int(tuser)
            dut.s_oversize.value = int(oversize)
            dut.s_malformed.value = int(p.malformed)
            dut.s_is_ipv4.value = int(p.is_ipv4)
            dut.s_is_ipv6.value = int(p.is_ipv6)
            dut.s_vlan_tags.value = p.vlan_tags
            dut.s_tci.value = p.tci
            dut.s_proto.value = p.proto
            dut.s_ports_valid.value = int(p.ports_valid)
            dut.s_dport.value = p.dport
            dut.s_sport.value = p.sport
            dut.s_ethertype.value = p.ethertype
            dut.s_frag.value = int(p.frag)
            dut.s_src_ip.value = p.src_ip
            dut.s_dst_ip.value = p.dst_ip
            # expected result of this input, registered by the next edge
            if tuser:
                expected = (V["BAD_FRAME"], 0, 0xFF, n)
            elif oversize:
                expected = (V["OVERSIZE"], 0, 0xFF, n)
            elif p.malformed:
                expected = (V["MALFORMED"], 0, 0xFF, n)
            else:
                c = cls.classify(p, rules, default, frag_action)
                if c.drop_verdict is not None:
                    expected = (c.drop_verdict, 0, c.rule, n)
                elif c.queue >= nq:
                    expected = (V["RULE_DROP"], 0, c.rule, n)
                else:
                    expected = (V["ACCEPT"], c.queue, c.rule, n)
            await FallingEdge(dut.clk)
            check(dut, expected)
            n += 1
    dut.s_valid.value = 0
    await FallingEdge(dut.clk)
    assert dut.m_valid.value == 0
    dut._log.info("%d classifications compared", n)


def check(dut, expected) -> None:
    assert dut.m_valid.value == 1
    got = (int(dut.m_code.value), int(dut.m_queue.value), int(dut.m_rule.value), int(dut.m_ts.value))
    assert got == expected, f"(code, queue, rule, ts): DUT {got} model {expected}"
