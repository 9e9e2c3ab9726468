"""Unit tests of the golden model's prescaler, per-queue moderation and priority gating
(model/moderation.py, model/nic.py), from docs/timing.md s4-6: F14 moderation, F15 interrupt
cause/mask, F16 priority gating, F17 prescaler.

Every expected value is derived by hand from the spec and written as a literal with the
arithmetic in a comment. Shared helpers: tests/model_helpers.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from model.config import ModelConfig
from model.moderation import Moderation, ModerationConfig, Prescaler
from model.nic import PrionicModel
from tests.model_helpers import UDP60, A, accept_default, nic, ring

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
    high at w+3, model/SPEC_READINGS.md R6)."""
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
