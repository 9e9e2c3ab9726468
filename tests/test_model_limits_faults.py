"""Unit tests of the golden model's shared rate limiters (F9, docs/limiter.md) and host-side
faults (F24, docs/faults.md): DMA errors, flushes, queue disable and the drained state.

Every expected value is derived by hand from the spec and written as a literal with the
arithmetic in a comment. Shared helpers: tests/model_helpers.py.
"""

from __future__ import annotations

import pytest

from model import regmap
from model.nic import CompletionError
from tests.model_helpers import EN, MDPORT, MPROTO, UDP60, A, V, accept_default, nic, psel, qsel, ring, udp, verdicts

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


def test_dma_stall_sticky_and_counted() -> None:
    """F24 (docs/faults.md s2): a STALL_W or STALL_R at E stops nothing (no QUEUE_STATUS, no
    irq_err, later frames admitted), counts in CNT_DMA_ERR and CNT_DMA_ERR_ALL at E+1 and sets
    its DMA_STALL bit at E+1 (a read at r sees the state after r-1); a W1C write at w clears
    the written bits at w+1, a set at that same edge wins; a write stall of a burst a reset
    left open (queue 0xFF) counts in CNT_DMA_ERR_ALL only."""
    m = nic()
    w = ring(m, 0, 8, 7, 0)
    accept_default(m, 0, w)
    m.dma_event(20, 0, EV["STALL_W"])
    m.dma_event(30, 0, EV["STALL_R"])
    m.frame(40, UDP60)  # a = T+11 = 51: admitted, the queue runs
    m.reg_write(60, A("DMA_STALL"), 0b01)  # clears WRITE at 61
    m.reg_write(70, A("DMA_STALL"), 0b10)  # clears READ at 71 ...
    m.dma_event(70, 0, EV["STALL_R"])  # ... where this event sets it again (at E+1 = 71)
    m.dma_event(80, 0xFF, EV["STALL_W"])  # no queue
    m.reg_write(90, A("DMA_STALL"), 0b11, strb=0b10)  # byte 0 not selected: nothing cleared
    m.run(20)
    assert m.read_reg(A("DMA_STALL")) == 0 and m.read_reg(A("CNT_DMA_ERR", 0)) == 0
    m.run(21)
    assert m.read_reg(A("DMA_STALL")) == 0b01 and m.read_reg(A("CNT_DMA_ERR", 0)) == 1
    m.run(31)
    assert m.read_reg(A("DMA_STALL")) == 0b11 and m.read_reg(A("CNT_DMA_ERR_ALL")) == 2
    m.run(60)
    assert m.read_reg(A("DMA_STALL")) == 0b11
    m.run(61)
    assert m.read_reg(A("DMA_STALL")) == 0b10
    m.run(71)
    assert m.read_reg(A("DMA_STALL")) == 0b10  # cleared and set at 71: set
    m.run(100)
    assert m.read_reg(A("DMA_STALL")) == 0b11  # the 0xFF stall at 81; the write at 90 cleared nothing
    assert m.read_reg(A("CNT_DMA_ERR", 0)) == 3 and m.read_reg(A("CNT_DMA_ERR_ALL")) == 4  # 20, 30, 70; 80
    assert verdicts(m) == [V["ACCEPT"]] and m.read_reg(A("QUEUE_STATUS", 0)) == 0
    assert m.read_reg(A("DMA_ERR_STATUS")) == 0 and m.irq_err_edges == []
    m2 = nic()
    with pytest.raises(ValueError):
        m2.dma_event(10, 0xFF, EV["STALL_R"])  # a read stall always has its queue


def test_stray_b_counted_and_write_back_err_by_its_aw_edge() -> None:
    """F24 (docs/faults.md s2, s5): a STRAY_B (queue 0xFF) stops nothing and counts in
    CNT_DMA_ERR_ALL only, at E+1; a STRAY_B names no queue. A write-back says ERR when its
    queue was stopped by an event before the edge A its AW was taken: frames at T = 40, 60
    (admitted at 51, 71); frame 0's write-back AW at A = 90, a DATA_ERR of frame 1's data at
    E = 95 (a reordering memory returns it first), frame 0's B at C = 100: DONE (95 >= 90);
    frame 1's write-back at A = 110, C = 120: ERR (95 < 110). Without A, frame 0's would be
    judged at C (95 < 100): ERR."""
    for sent0, want0 in ((90, "done"), (None, "err")):
        m = nic()
        w = ring(m, 0, 8, 7, 0)
        accept_default(m, 0, w)
        m.dma_event(20, 0xFF, EV["STRAY_B"])
        m.frame(40, UDP60)
        m.frame(60, UDP60)
        m.completion(100, 0, sent0)
        m.dma_event(95, 0, EV["DATA_ERR"])
        m.completion(120, 0, 110)
        m.run(20)
        assert m.read_reg(A("CNT_DMA_ERR_ALL")) == 0
        m.run(21)
        assert m.read_reg(A("CNT_DMA_ERR_ALL")) == 1 and m.read_reg(A("CNT_DMA_ERR", 0)) == 0
        m.run(200)
        assert verdicts(m) == [V["ACCEPT"], V["ACCEPT"]]  # the stray B stopped nothing
        assert [o.dma for o in m.expected_completions(0)] == [want0, "err"]
        assert m.read_reg(A("CNT_DMA_ERR", 0)) == 1 and m.read_reg(A("CNT_DMA_ERR_ALL")) == 2
    with pytest.raises(ValueError):
        nic().dma_event(10, 0, EV["STRAY_B"])  # a stray B belongs to no queue


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
    m.run(21)  # the refused write flags RING_REFUSED (F24) ...
    assert m.read_reg(A("QUEUE_STATUS", 0)) == DRAINED | 1 << regmap.FIELDS["QUEUE_STATUS_RING_REFUSED"]
    m.run(22)  # ... which the kept one clears
    assert m.read_reg(A("QUEUE_STATUS", 0)) == DRAINED and m.read_reg(A("CNT_RING_REFUSED", 0)) == 1
    m.run(30)
    assert verdicts(m) == [V["ACCEPT"], V["OVERSIZE"], V["QUEUE_DISABLED"]]
    assert m.read_reg(A("RING_SIZE", 0)) == 4 and m.read_reg(A("RING_TAIL", 0)) == 0


def test_ring_tail_refused() -> None:
    """F24: a RING_TAIL write is kept iff it is below RING_SIZE and moves TAIL forward by at most
    the free slots (RING_HEAD - 1 - TAIL) mod RING_SIZE, RING_HEAD as it was before the write's
    edge (a completion at the same edge is not seen); a refused write changes nothing, sets
    QUEUE_STATUS.RING_REFUSED and counts in CNT_RING_REFUSED; a RING_BASE_LO write with any of
    bits [4:0] set is refused the same way (no ring reset); an accepted ring reset clears the flag."""
    refused = 1 << regmap.FIELDS["QUEUE_STATUS_RING_REFUSED"]
    m = nic()
    w = ring(m, 0, 8, 4, 0)  # posted 0..3, HEAD 0: free = 3
    w = accept_default(m, 0, w)
    m.reg_write(w, A("RING_TAIL", 0), 2)  # backwards over posted slots 2, 3: refused
    m.reg_write(w + 1, A("RING_TAIL", 0), 8)  # beyond the ring: refused
    m.reg_write(w + 2, A("RING_TAIL", 0), 0)  # n = 4 > free 3: refused
    m.reg_write(w + 3, A("RING_TAIL", 0), 7)  # n = 3 = free: kept
    m.reg_write(w + 4, A("RING_TAIL", 0), 7, strb=0)  # no byte selected, n = 0: kept, not flagged
    m.run(w + 4)
    assert m.read_reg(A("RING_TAIL", 0)) == 7
    assert m.read_reg(A("QUEUE_STATUS", 0)) == refused and m.read_reg(A("CNT_RING_REFUSED", 0)) == 3
    m.frame(20, UDP60)  # a = 31: slot 0
    m.completion(40, 0)  # HEAD 0 -> 1 at edge 40
    m.reg_write(40, A("RING_TAIL", 0), 0)  # HEAD seen as 0: free 0, refused
    m.reg_write(41, A("RING_TAIL", 0), 0)  # HEAD 1: free 1, kept (slot 7 posted)
    m.run(41)
    assert m.read_reg(A("RING_TAIL", 0)) == 0 and m.read_reg(A("CNT_RING_REFUSED", 0)) == 4
    m.reg_write(50, A("QUEUE_CTRL", 0), 0)
    m.reg_write(52, A("RING_BASE_LO", 0), 0x1013)  # idle, but not 32-byte aligned: refused
    m.reg_write(53, A("RING_BASE_LO", 0), 0x1000, strb=0xE)  # bits [4:0] kept 0: a ring reset
    m.run(52)
    assert m.read_reg(A("RING_BASE_LO", 0)) == 0 and m.read_reg(A("RING_TAIL", 0)) == 0
    assert m.read_reg(A("CNT_RING_REFUSED", 0)) == 5 and m.read_reg(A("QUEUE_STATUS", 0)) & refused
    m.run(60)
    assert m.read_reg(A("RING_BASE_LO", 0)) == 0x1000 and m.read_reg(A("RING_HEAD", 0)) == 0
    assert not m.read_reg(A("QUEUE_STATUS", 0)) & refused and m.read_reg(A("CNT_RING_REFUSED", 0)) == 5
    assert verdicts(m) == [V["ACCEPT"]]
