"""Unit tests of the golden model's admission, descriptor ring, counters, register writes and
completions (model/nic.py, model/admit.py, model/regs.py), from docs/timing.md s2-3 and
docs/frame-path.md s4-5: F12 descriptor ring, F13 counters, F17 pipeline edges and write rule.

Every expected value is derived by hand from the spec and written as a literal with the
arithmetic in a comment. Shared helpers: tests/model_helpers.py.
"""

from __future__ import annotations

import pytest
from scapy.all import ARP, Ether  # type: ignore[attr-defined]

from model import regmap
from model.config import FrameOutcome, ModelConfig
from model.nic import CompletionError, PrionicModel
from tests.model_helpers import (
    DROP,
    EN,
    MDPORT,
    MPROTO,
    UDP60,
    A,
    V,
    accept_default,
    dport_range,
    nic,
    pad,
    psel,
    qsel,
    ring,
    udp,
    verdicts,
)

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
    at v = T+10, so it sees rule writes at cycles < T+10 (model/SPEC_READINGS.md R3;
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
    w+1 sees free = 0 (timing.md s3; model/SPEC_READINGS.md R4). Ring registers take writes
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
    # not drained, no error; the refused ring writes (at 22, cleared by the ring reset at 25, and
    # at 52) flag RING_REFUSED and count (F24)
    refused = 1 << regmap.FIELDS["QUEUE_STATUS_RING_REFUSED"]
    assert m.read_reg(A("QUEUE_STATUS", 0)) == refused
    assert m.read_reg(A("CNT_RING_REFUSED", 0)) == 2
    m.completion(61, 0)
    m.completion(62, 0)
    m.run(62)
    assert m.read_reg(A("QUEUE_STATUS", 0)) == refused  # reservations given back at C+1
    m.run(63)
    assert m.read_reg(A("QUEUE_STATUS", 0)) == 1 << regmap.FIELDS["QUEUE_STATUS_DRAINED"] | refused


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
    RING_TAIL >= RING_SIZE is ignored (after 16-bit truncation, model/SPEC_READINGS.md R2)."""
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
