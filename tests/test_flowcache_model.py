"""Golden-model tests of the classification engine and the flow cache (F5, F8).

Expected cycles are derived by hand from docs/timing.md section 3.1 (take at T+7; a
looked-up frame's verdict at take + 3 on a hit or with S = 1, at take + 3 + S - 1 on a
miss of a scanned table; restart as a miss at a table write's edge m, verdict m + 3 + S - 1;
admission one edge after the verdict, stat_verdict one edge after that) and written as
literals with the arithmetic in a comment. The property test at the end runs
the same traffic with the cache on and off and requires identical outcomes
(the cache may never change a verdict), across idle expiry, TCP SYN/FIN/RST and rule
changes between bursts.
"""

from __future__ import annotations

import random

import pytest
from scapy.all import ARP, IP, TCP, UDP, Ether, Raw  # type: ignore[attr-defined]

from model import regmap
from model.config import ModelConfig
from model.flowcache import KEY_BITS, FlowCache, flow_index, flow_key
from model.nic import PrionicModel
from model.parser import Parser

A = regmap.addr
V = regmap.VERDICTS
F = regmap.FIELDS
EN, MPROTO, MDPORT = 1 << F["RULE_CTRL_ENABLE"], 1 << F["RULE_CTRL_MATCH_PROTO"], 1 << F["RULE_CTRL_MATCH_DPORT"]


def udp(dport: int, sport: int = 40000, n: int = 18) -> bytes:
    return bytes(Ether() / IP(src="10.0.0.2", dst="10.0.0.1") / UDP(sport=sport, dport=dport) / Raw(bytes(n)))


def tcp(dport: int, flags: str, sport: int = 40000) -> bytes:
    b = bytes(Ether() / IP(src="10.0.0.2", dst="10.0.0.1") / TCP(sport=sport, dport=dport, flags=flags))
    return b + bytes(max(0, 60 - len(b)))


def model(rules_per_cycle: int, flow: bool = True, *, num_rules: int = 16, entries: int = 16,
          shift: int = 4, idle: int = 0) -> PrionicModel:
    """Rule 5: UDP dport 5000 -> queue 1; rule 9: TCP dport 80 -> queue 0. Cache enabled at
    cycle 1 (when ``flow``), FLOW_IDLE at cycle 2; the first frame may end at cycle 3."""
    m = PrionicModel(ModelConfig(num_rules=num_rules, rules_per_cycle=rules_per_cycle, flow_entries=entries,
                                 flow_ts_shift=shift))
    m.regs.val["RULE_CTRL"][5] = EN | MPROTO | MDPORT | 1 << 8 | 17 << 16
    m.regs.val["RULE_DPORT"][5] = 5000 | 5000 << 16
    m.regs.val["RULE_CTRL"][9] = EN | MPROTO | MDPORT | 6 << 16
    m.regs.val["RULE_DPORT"][9] = 80 | 80 << 16
    if flow:
        m.reg_write(1, A("FLOW_CTRL"), 1)
    m.reg_write(2, A("FLOW_IDLE"), idle)
    return m


def test_key_and_index_fold():
    """F8, frame-path.md s3.1: the key zeroes fields that do not apply; the index XOR-folds it."""
    p = Parser().parse(udp(5000), True)
    k = flow_key(p)
    assert k < 1 << KEY_BITS
    assert k & 0b1111 == 0b0101  # is_ipv4 (bit 0), not IPv6, ports_valid (bit 2), untagged
    assert k >> 27 & 0xFFFF == 0x0800  # EtherType at bits 27..42 (1+1+1+1+3+12+8 = 27)
    assert k >> 43 & 0xFFFF == 5000  # destination port next
    arp = Parser().parse(bytes(Ether() / ARP()) + bytes(18), True)
    assert flow_key(arp) == 0x0806 << 27  # no IP, no ports, no tag: only the EtherType
    assert flow_index(0b1011_0110, 4) == 0b1011 ^ 0b0110
    assert flow_index(1 << 138, 3) == 1 << (138 % 3)


def test_cache_unit_expiry_and_eviction():
    """F8: an entry hits while its age in units (2**shift cycles) is below FLOW_IDLE."""
    c = FlowCache(4, ts_shift=2)
    c.install(0x123, 7, edge=9)  # unit 9 >> 2 = 2
    assert c.lookup(0x123, edge=12, idle=2) == 7   # unit 3, age 1 < 2
    assert c.lookup(0x123, edge=16, idle=2) is None  # unit 4, age 2: expired
    assert c.lookup(0x123, edge=10**6, idle=0) == 7  # idle 0: never expires
    c.touch(0x123, edge=16)
    assert c.lookup(0x123, edge=19, idle=2) == 7   # refreshed at unit 4, age 0
    assert c.probe(0x124, 19, 0) == (None, "other" if c.index(0x124) == c.index(0x123) else "empty")
    c.evict(0x123)
    assert c.probe(0x123, 19, 0) == (None, "empty")
    with pytest.raises(ValueError):
        FlowCache(12, 2)


def test_miss_latency_and_hit():
    """F8, F25, timing.md s3.1: 16 rules at 4 per cycle, S = 4. Frame 0 (T=5) is taken at
    T+7 = 12 and misses: verdict at 12 + 3 + (4 - 1) = 18, admitted at 19, stat_verdict at
    20. Frame 1 of the same flow (T=25) is taken at 32 and hits: verdict at 32 + 3 = 35 =
    T+10, stat_verdict at 37 = T+12, like a one-cycle table. CNT_FLOW_MISS / CNT_FLOW_HIT
    count at the verdict edges 18 and 35, not at the take edges."""
    m = model(rules_per_cycle=4)
    m.frame(5, udp(5000))
    m.frame(25, udp(5000))
    m.run(17)
    assert m.read_reg(A("CNT_FLOW_MISS")) == 0
    m.run(18)
    assert m.read_reg(A("CNT_FLOW_MISS")) == 1
    m.run(34)
    assert m.read_reg(A("CNT_FLOW_HIT")) == 0
    m.run(35)
    assert m.read_reg(A("CNT_FLOW_HIT")) == 1
    m.run(100)
    o0, o1 = m.outcomes
    assert (o0.verdict_cycle, o0.flow, o0.flow_why) == (20, "miss", "empty")  # 12 + 3 + (4 - 1) + 1 + 1
    assert (o1.verdict_cycle, o1.flow) == (37, "hit")  # 25 + 7 + 3 + 1 + 1
    assert o0.rule == o1.rule == 5 and o0.queue == o1.queue == 1
    assert m.read_reg(A("CNT_FLOW_HIT")) == 1 and m.read_reg(A("CNT_FLOW_MISS")) == 1


def test_queueing_behind_a_scan():
    """Frames wait in order while the engine looks up: S = 16 (1 rule per cycle). Frame 0
    (T=5, taken 12) misses: done 12 + 3 + 15 = 30; frame 1 (T=6, ready 13) is taken at 31, a
    miss of another flow: done 31 + 18 = 49; frame 2 (T=7, same flow as frame 0) is taken at
    50 and hits: done 50 + 3 = 53."""
    m = model(rules_per_cycle=1)
    m.frame(5, udp(5000))
    m.frame(6, tcp(80, "A"))
    m.frame(7, udp(5000))
    m.run(200)
    assert [o.verdict_cycle for o in m.outcomes] == [32, 51, 55]  # 30+2, 49+2, 53+2
    assert [o.flow for o in m.outcomes] == ["miss", "miss", "hit"]
    assert [o.rule for o in m.outcomes] == [5, 9, 5]


def test_table_write_restarts_lookup_and_clears():
    """A RULE_* write at w is seen at w+1: a lookup in progress restarts there (S = 4) and the
    cache is emptied, so the next frame of the flow misses with reason "cleared" or "empty"."""
    m = model(rules_per_cycle=4)
    m.frame(5, udp(5000))             # taken at 12, a miss: due at 12 + 3 + 3 = 18
    m.reg_write(13, A("RULE_SPORT", 0), 0)   # seen at 14: restart, due at 14 + 3 + 3 = 20
    m.frame(35, udp(5000))            # taken at 42: the entry installed at 20 hits, due at 45
    m.reg_write(50, A("RULE_CTRL", 15), 0)   # clears the cache at 51
    m.frame(55, udp(5000))            # taken at 62: empty again
    m.run(200)
    o = m.outcomes
    assert o[0].verdict_cycle == 22  # done 20, admitted 21, stat_verdict 22
    assert (o[1].flow, o[1].verdict_cycle) == ("hit", 47)  # 45 + 2
    assert (o[2].flow, o[2].flow_why) == ("miss", "empty")


@pytest.mark.parametrize("write", [False, True])
def test_table_write_turns_a_hit_into_a_miss(write):
    """F8, F25, timing.md s3.1, S = 1 (16 rules at once). Frame 0 (T=5, taken 12) misses and
    installs at 12 + 3 = 15. Frame 1 of the same flow (T=25) is taken at 32 and probes a
    hit, due at 35. A table write at 33 is seen at 34 (clr, 32 < 34): the cache is cleared
    and the lookup restarts as a miss, due at 34 + 3 + 1 - 1 = 37: CNT_FLOW_MISS counts at 37,
    CNT_FLOW_HIT never; the miss installs at 37, so frame 2 (T=45, taken 52) hits again."""
    m = model(rules_per_cycle=0)
    m.frame(5, udp(5000))
    m.frame(25, udp(5000))
    if write:
        m.reg_write(33, A("RULE_SPORT", 0), 0)
    m.frame(45, udp(5000))
    done = 37 if write else 35
    m.run(done - 1)
    assert (m.read_reg(A("CNT_FLOW_HIT")), m.read_reg(A("CNT_FLOW_MISS"))) == (0, 1)
    m.run(done)
    assert (m.read_reg(A("CNT_FLOW_HIT")), m.read_reg(A("CNT_FLOW_MISS"))) == ((0, 2) if write else (1, 1))
    m.run(100)
    o = m.outcomes
    assert [(x.flow, x.flow_why) for x in o] == [("miss", "empty"), ("miss", "cleared") if write else ("hit", "hit"),
                                                   ("hit", "hit")]
    assert [x.verdict_cycle for x in o] == [17, done + 2, 57]  # 15 + 2; 37 + 2 or 35 + 2; 52 + 3 + 2
    assert all(x.rule == 5 and x.queue == 1 for x in o)
    assert (m.read_reg(A("CNT_FLOW_HIT")), m.read_reg(A("CNT_FLOW_MISS"))) == ((1, 2) if write else (2, 1))


def test_limiter_write_does_not_restart():
    """RULE_LIM_* is not part of the table: no restart, no clear (S = 4)."""
    m = model(rules_per_cycle=4)
    m.frame(5, udp(5000))             # taken at 12, a miss: due at 12 + 3 + 3 = 18
    m.reg_write(13, A("RULE_LIM_BUDGET", 0), 3)
    m.frame(35, udp(5000))            # taken at 42, a hit: due at 45
    m.run(200)
    assert [o.verdict_cycle for o in m.outcomes] == [20, 47]  # 18 + 2, 45 + 2
    assert m.outcomes[1].flow == "hit"


def test_tcp_syn_refreshes_fin_rst_evict():
    """F8: SYN always misses (and re-installs), a FIN/RST hit evicts; the next frame misses
    and installs again (it is neither SYN nor FIN/RST)."""
    m = model(rules_per_cycle=4)
    seq = ["S", "A", "A", "FA", "A", "R", "A", "S", "PA"]
    for i, flags in enumerate(seq):
        m.frame(10 + 20 * i, tcp(80, flags))
    m.run(400)
    got = [(o.flow_why, o.flow_evict) for o in m.outcomes]
    assert got == [("syn", False), ("hit", False), ("hit", False), ("hit", True), ("empty", False),
                   ("hit", True), ("empty", False), ("syn", False), ("hit", False)]
    assert all(o.rule == 9 for o in m.outcomes)


def test_fin_miss_does_not_install():
    """A FIN or RST that misses is classified by the table and leaves no entry behind."""
    m = model(rules_per_cycle=4)
    for i, flags in enumerate(["FA", "A", "R", "R", "A"]):
        m.frame(10 + 20 * i, tcp(80, flags))
    m.run(300)
    assert [(o.flow_why, o.flow_evict) for o in m.outcomes] == [
        ("empty", False), ("empty", False), ("hit", True), ("empty", False), ("empty", False)]


def test_idle_expiry_in_units():
    """FLOW_IDLE = 3 units of 2**4 = 16 cycles, S = 4. Frame 0 (T=10, taken 17) misses and
    installs at its verdict edge 17 + 3 + 3 = 23 (unit 1). Frame 1 (T=40, taken 47) has its
    age taken at 47 + 2 = 49 (unit 3, age 2): a hit, refreshed at its verdict edge 50 (unit 3).
    Frame 2 (T=88, taken 95, unit 5, age 2) has its age taken at 97 (unit 6, age 3): expired."""
    m = model(rules_per_cycle=4, idle=3)
    for t in (10, 40, 88):
        m.frame(t, udp(5000))
    m.run(300)
    assert [o.flow_why for o in m.outcomes] == ["empty", "hit", "expired"]


def test_skip_frames_no_lookup():
    """Parser drops, fragments and bad frames skip the lookup and the scan: verdict at the take edge."""
    m = model(rules_per_cycle=1)
    frag = bytes(Ether() / IP(src="10.0.0.2", dst="10.0.0.1", flags="MF") / UDP(dport=5000) / Raw(bytes(30)))
    m.frame(10, frag)
    m.frame(30, bytes(20))                      # runt: MALFORMED
    m.frame(50, udp(5000), tuser=True)          # BAD_FRAME
    m.run(200)
    assert [o.verdict_cycle for o in m.outcomes] == [19, 39, 59]  # T + 9: no wait
    assert [o.flow for o in m.outcomes] == ["", "", ""]
    assert m.read_reg(A("CNT_FLOW_MISS")) == 0


def _traffic(rng: random.Random, nrules: int) -> list[tuple[str, int, object]]:
    """Bursts of mixed frames over a few flows (TCP with SYN/FIN/RST, UDP, ARP, unregistered)
    separated by quiet gaps; in some gaps a rule is rewritten (a real change of queue,
    port or enable). Items: ("frame", gap, bytes) or ("write", gap, (addr, data))."""
    flows = [lambda: tcp(80, rng.choice(["A", "A", "PA", "S", "FA", "R"]), sport=rng.choice([1000, 1001, 1002])),
             lambda: udp(5000, sport=rng.choice([7, 8])),
             lambda: udp(rng.choice([5000, 6000, 6001]), n=rng.randint(18, 300)),
             lambda: bytes(Ether() / ARP()) + bytes(18),
             lambda: tcp(rng.choice([22, 80, 443]), "A", sport=rng.randint(1000, 1010))]
    out: list[tuple[str, int, object]] = []
    for _burst in range(30):
        for _ in range(rng.randint(5, 40)):
            out.append(("frame", rng.choice([0, 0, 1, 5, 20, 60]), rng.choice(flows)()))
        if rng.random() < 0.5:
            r = rng.randrange(nrules)
            reg, val = rng.choice([
                ("RULE_CTRL", EN | MPROTO | MDPORT | rng.randint(0, 2) << 8 | rng.choice([6, 17]) << 16),
                ("RULE_DPORT", rng.choice([80, 5000, 6000]) * 0x10001),
                ("RULE_CTRL", 0),
            ])
            out.append(("write", 400, (A(reg, r), val)))
    return out


def _run(traffic, flow: bool, rules_per_cycle: int, idle: int):
    m = model(rules_per_cycle=rules_per_cycle, flow=flow, num_rules=12, entries=8, shift=3, idle=idle)
    for q in range(2):
        m.reg_write(3 + 2 * q, A("RING_SIZE", q), 64)  # rings and buffers never fill: every
        m.reg_write(4 + 2 * q, A("RING_TAIL", q), 63)  # verdict is the classifier's own
        m.reg_write(10 + q, A("BUF_SIZE", q), 2048)
    t = 20
    last_t = 0
    for kind, gap, item in traffic:
        if kind == "write":
            # quiet point: the previous burst has drained through a scan of every frame
            t = max(t, last_t + 40 * 13) + gap
            m.reg_write(t, *item)
            t += 2
        else:
            t += gap + len(item) // 4 + 1
            m.frame(t, item)
            last_t = t
    m.run(t + 2000)
    return m


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rules_per_cycle", [0, 3])
def test_cache_never_changes_an_outcome(seed, rules_per_cycle):
    """F8: the same traffic with the cache on and off gives identical outcomes
    (verdict, queue, rule, flags) for every frame, across idle expiry (FLOW_IDLE 6 units of
    8 cycles), TCP SYN/FIN/RST and rule changes between bursts. On top, the model checks every
    single hit against the full rule table. The run with the cache on must have exercised
    hits, FIN/RST evictions and every miss reason but "cleared" (no frame is taken at the
    edge of a write, and no lookup is in progress at one, here)."""
    rng = random.Random(seed)
    traffic = _traffic(rng, 12)
    on = _run(traffic, True, rules_per_cycle, idle=6)
    off = _run(traffic, False, rules_per_cycle, idle=6)

    def key(o):
        return (o.verdict, o.queue, o.rule, o.flags, o.info)

    assert [key(o) for o in on.outcomes] == [key(o) for o in off.outcomes]
    assert len(on.outcomes) == sum(1 for k, _g, _i in traffic if k == "frame")
    whys = {o.flow_why for o in on.outcomes}
    assert {"hit", "syn", "empty", "expired"} <= whys, whys
    assert any(o.flow_evict for o in on.outcomes)
    assert off.read_reg(A("CNT_FLOW_HIT")) == off.read_reg(A("CNT_FLOW_MISS")) == 0
    hits = on.read_reg(A("CNT_FLOW_HIT"))
    assert hits == sum(o.flow == "hit" for o in on.outcomes) > 0
