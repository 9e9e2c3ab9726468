"""Unit tests of model/limiter.py, the per-rule rate limiters (F9), from docs/limiter.md.

Every expected value is worked out by hand from limiter.md and written as a literal with
the arithmetic in a comment. The one model-vs-model comparison is the last test: the
arithmetic :class:`Limiter` against :class:`StepRef`, a literal transcription of the
per-edge pseudo-code of limiter.md section 4, on random streams.
"""

from __future__ import annotations

import random

import pytest

from model.limiter import BYTES, FRAMES, Limiter, LimiterConfig


def flood(lim: Limiter, edges: range, cost: int = 1) -> list[int]:
    """A consuming query at every edge of ``edges``; the edges that pass."""
    return [e for e in edges if lim.query(e, cost)]


def test_worked_example_frames() -> None:
    """F9, limiter.md s6: BUDGET 3, PERIOD 10, restart at 5; off (all 0) before. Epochs
    5-14, 15-24, 25-34, ...: the first 3 edges of each pass, exactly 3 per epoch."""
    lim = Limiter()
    assert flood(lim, range(0, 5)) == [0, 1, 2, 3, 4]  # off: everything passes
    lim.restart(5, budget=3, period=10, mode=FRAMES)
    assert flood(lim, range(5, 65)) == [5, 6, 7, 15, 16, 17, 25, 26, 27, 35, 36, 37, 45, 46, 47, 55, 56, 57]


def test_worked_example_bytes() -> None:
    """F9, limiter.md s6: BUDGET 1000 bytes, PERIOD 20, restart at 0, costs 300, 60, ...:
    1000-300=700, -60=640, -300=340, -60=280, 300>280 fails, then the 60s pass down to
    40 (offsets 5, 7, 9, 11), 960 bytes; the pattern repeats at 20 and 40."""
    lim = Limiter()
    lim.restart(0, budget=1000, period=20, mode=BYTES)
    passed = [e for e in range(60) if lim.query(e, 300 if e % 2 == 0 else 60)]
    one = [0, 1, 2, 3, 5, 7, 9, 11]
    assert passed == one + [20 + e for e in one] + [40 + e for e in one]


def test_exactly_budget_bytes() -> None:
    """F9: BUDGET 1000 bytes, 250-byte frames every edge, PERIOD 8 from reset: the first
    1000/250 = 4 of every 8 edges pass, exactly 1000 bytes per epoch."""
    lim = Limiter(budget=1000, period=8, mode=BYTES)
    assert flood(lim, range(24), 250) == [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19]


def test_reset_config_first_epoch_at_edge_0() -> None:
    """F9, limiter.md s4: after reset the first epoch starts at edge 0 (fresh = 1).
    BUDGET 2, PERIOD 5: passes 0, 1, 5, 6, 10, 11."""
    lim = Limiter(budget=2, period=5)
    assert flood(lim, range(15)) == [0, 1, 5, 6, 10, 11]


def test_budget_at_least_period_passes_all() -> None:
    """F9: BUDGET 7 >= PERIOD 4 in frames mode: every edge passes."""
    lim = Limiter(budget=7, period=4)
    assert flood(lim, range(20)) == list(range(20))


def test_first_edge_of_epoch_sees_refill() -> None:
    """F9, limiter.md s5: BUDGET 1, PERIOD 10, restart at 3: 3 passes, 4..12 fail, the
    query at 13 (first edge of epoch 1) sees the refilled budget and passes."""
    lim = Limiter()
    lim.restart(3, 1, 10)
    assert [lim.query(e, 1) for e in (3, 4, 12, 13, 14)] == [True, False, False, True, False]


def test_unused_budget_is_lost() -> None:
    """F9, limiter.md s1: BUDGET 5, PERIOD 10 from 0; one query in epochs 0, 1, 2 (at 0,
    10, 20) leaves 4 each time, lost at the boundary; a flood in epoch 3 (30-39) still
    gets only 5: 30..34."""
    lim = Limiter(budget=5, period=10)
    assert [lim.query(e, 1) for e in (0, 10, 20)] == [True, True, True]
    assert flood(lim, range(30, 40)) == [30, 31, 32, 33, 34]


def test_deferrable_back_to_back() -> None:
    """F9, limiter.md s5: BUDGET 3, PERIOD 10: idle until 7, a flood from 7 to 12 passes
    7, 8, 9 (end of epoch 0) and 10, 11, 12 (start of epoch 1): 2B = 6 in 6 edges."""
    lim = Limiter(budget=3, period=10)
    assert flood(lim, range(7, 16)) == [7, 8, 9, 10, 11, 12]


def test_restart_mid_epoch() -> None:
    """F9, limiter.md s5: BUDGET 2, PERIOD 10 from 0: query at 3 passes (1 left); a restart
    at 7 opens epoch 7-16 with 2: 7, 8 pass, 9..16 fail, 17 passes."""
    lim = Limiter(budget=2, period=10)
    assert lim.query(3, 1)
    lim.restart(7, 2, 10)
    assert flood(lim, range(7, 19)) == [7, 8, 17, 18]


def test_off_passes_everything_and_spends_nothing() -> None:
    """F9: PERIOD 0 with BUDGET 0: every query passes, also at cost 0xFFFF; remaining is
    None. Restarts while off change nothing."""
    lim = Limiter(budget=0, period=0, mode=BYTES)
    assert flood(lim, range(4), 0xFFFF) == list(range(4))
    lim.restart(4, 0, 0, BYTES)
    assert flood(lim, range(4, 10), 0xFFFF) == list(range(4, 10))
    assert lim.remaining(10) is None


def test_turn_on_without_restart_opens_epoch() -> None:
    """F9, limiter.md s5: off until 6, PERIOD 4 / BUDGET 1 seen from 6 without R: edge 6
    opens an epoch (fresh), so 6, 10, 14 pass."""
    lim = Limiter()
    assert flood(lim, range(6)) == list(range(6))
    lim.configure(6, 1, 4)
    assert flood(lim, range(6, 16)) == [6, 10, 14]


def test_turn_off_and_on_again() -> None:
    """F9: BUDGET 1, PERIOD 10 from 0; 0 passes, 1 fails; off at 2..4 (both pass); PERIOD
    10 again at 5 without restart: 5 opens an epoch, 5 passes, 6 fails."""
    lim = Limiter(budget=1, period=10)
    assert [lim.query(e, 1) for e in (0, 1)] == [True, False]
    lim.configure(2, 1, 0)
    assert flood(lim, range(2, 5)) == [2, 3, 4]
    lim.configure(5, 1, 10)
    assert [lim.query(e, 1) for e in (5, 6, 14, 15)] == [True, False, False, True]


def test_budget_zero_blocks_but_cost_zero_passes() -> None:
    """F9, limiter.md s5: BUDGET 0, PERIOD 5, bytes mode: cost 1 fails, cost 0 passes."""
    lim = Limiter(budget=0, period=5, mode=BYTES)
    assert [lim.query(0, 1), lim.query(1, 0), lim.query(5, 60)] == [False, True, False]


def test_no_consume_is_a_look() -> None:
    """F9, limiter.md s4: BUDGET 1, PERIOD 10: looks (consume False) at 0..4 pass and
    spend nothing; the consuming query at 5 passes, the look at 6 fails."""
    lim = Limiter(budget=1, period=10)
    assert all(lim.query(e, 1, consume=False) for e in range(5))
    assert lim.query(5, 1)
    assert not lim.query(6, 1, consume=False)
    assert lim.remaining(6) == 0 and lim.remaining(10) == 1


def test_budget_change_without_restart() -> None:
    """F9, limiter.md s5: BUDGET 2, PERIOD 10 from 0; 0, 1 pass (0 left). BUDGET 5 from 3
    without R does not top up epoch 0: 3 fails; epoch 1 (10-19) gets 5: 10..14 pass."""
    lim = Limiter(budget=2, period=10)
    assert flood(lim, range(3)) == [0, 1]
    lim.configure(3, 5, 10)
    assert flood(lim, range(3, 20)) == [10, 11, 12, 13, 14]


def test_budget_cut_without_restart_keeps_epoch() -> None:
    """F9, limiter.md s5: BUDGET 5, PERIOD 10 from 0; BUDGET 1 from 2 without R: epoch 0
    still has 5: 2..6 pass; epoch 1 gets 1: 10 passes, 11 fails."""
    lim = Limiter(budget=5, period=10)
    lim.configure(2, 1, 10)
    assert flood(lim, range(2, 12)) == [2, 3, 4, 5, 6, 10]


def test_period_grow_without_restart() -> None:
    """F9, limiter.md s5: BUDGET 1, PERIOD 5 from 0: 0 passes. PERIOD 20 from 3: ph at 3
    is 3 (edges 0, 1, 2) < 20, epoch 0 goes on to 19: 3..19 fail, 20 passes, then 40."""
    lim = Limiter(budget=1, period=5)
    assert lim.query(0, 1)
    lim.configure(3, 1, 20)
    assert flood(lim, range(3, 45)) == [20, 40]


def test_period_grow_at_the_boundary() -> None:
    """F9: BUDGET 1, PERIOD 5 from 0: 0 passes. PERIOD 8 from 5 (where epoch 1 would have
    begun): ph at 5 is 5 < 8, epoch 0 goes on to 7: 5 fails, 8 passes, then 16."""
    lim = Limiter(budget=1, period=5)
    assert lim.query(0, 1)
    lim.configure(5, 1, 8)
    assert flood(lim, range(5, 20)) == [8, 16]


def test_period_shrink_without_restart() -> None:
    """F9, limiter.md s5: BUDGET 1, PERIOD 20 from 0: 0 passes. PERIOD 4 from 6: ph at 6
    is 6 >= 4, 6 opens an epoch: 6, 10, 14 pass. PERIOD 3 from 12: ph at 12 is 2 (10, 11)
    < 3, the epoch 10-12 ends at 12: 13 opens the next one (16 with PERIOD 3, then 19)."""
    lim = Limiter(budget=1, period=20)
    assert lim.query(0, 1)
    lim.configure(6, 1, 4)
    assert flood(lim, range(6, 12)) == [6, 10]
    lim.configure(12, 1, 3)
    assert flood(lim, range(12, 20)) == [13, 16, 19]


def test_period_shrink_to_exact_phase() -> None:
    """F9: BUDGET 1, PERIOD 10 from 0: 0 passes; PERIOD 4 from 4: ph at 4 is 4 >= 4, so 4
    opens an epoch: 4 passes, 5..7 fail, 8 passes."""
    lim = Limiter(budget=1, period=10)
    assert lim.query(0, 1)
    lim.configure(4, 1, 4)
    assert flood(lim, range(4, 9)) == [4, 8]


def test_mode_change_without_restart_keeps_remaining() -> None:
    """F9, limiter.md s5: BUDGET 100, PERIOD 50, bytes mode from 0: 60 bytes at 0 pass (40
    left). Frames mode from 1 without R: remaining 40 is now 40 frames: 1..40 pass, 41..49
    fail; epoch 1 (50-99) gets 100 frames."""
    lim = Limiter(budget=100, period=50, mode=BYTES)
    assert lim.query(0, 60)
    lim.configure(1, 100, 50, FRAMES)
    assert flood(lim, range(1, 51)) == list(range(1, 41)) + [50]
    assert lim.remaining(51) == 99


def test_several_changes_at_one_edge() -> None:
    """F9, limiter.md s7: calls at one edge are one set of inputs. BUDGET 1, PERIOD 10 from
    0, 0 passes. At 4: configure PERIOD 2 (would open an epoch: ph 4 >= 2), then configure
    PERIOD 10 again: the last counts, epoch 0 goes on and 4 fails. At 6: restart then
    configure: stays a restart, 6 passes."""
    lim = Limiter(budget=1, period=10)
    assert lim.query(0, 1)
    lim.configure(4, 1, 2)
    lim.configure(4, 1, 10)
    assert not lim.query(4, 1)
    lim.restart(6, 1, 10)
    lim.configure(6, 1, 10)
    assert [lim.query(e, 1) for e in (6, 7, 16)] == [True, False, True]


def test_call_order_is_checked() -> None:
    """F9, limiter.md s7: an edge before an earlier call, a second query at one edge, and a
    change after the query at its edge are errors; so are out-of-range values."""
    lim = Limiter(budget=1, period=10)
    lim.query(5, 1)
    with pytest.raises(ValueError):
        lim.query(4, 1)
    with pytest.raises(ValueError):
        lim.query(5, 1)
    with pytest.raises(ValueError):
        lim.restart(5, 1, 10)
    with pytest.raises(ValueError):
        lim.query(6, 0x10000)
    with pytest.raises(ValueError):
        LimiterConfig(budget=1 << 32)
    with pytest.raises(ValueError):
        LimiterConfig(mode=2)


def test_large_values_do_not_wrap() -> None:
    """F9, limiter.md s5: PERIOD 2^32-1 and BUDGET 2^32-1 bytes: 65535-byte frames at
    edges 0, 10^9, 3*10^9 all pass (one epoch, far from empty) and spend their bytes."""
    lim = Limiter(budget=0xFFFF_FFFF, period=0xFFFF_FFFF, mode=BYTES)
    assert all(lim.query(e, 0xFFFF) for e in (0, 10**9, 3 * 10**9))
    assert lim.remaining(3 * 10**9 + 1) == 0xFFFF_FFFF - 3 * 0xFFFF
    assert lim.remaining(0xFFFF_FFFF) == 0xFFFF_FFFF  # edge 2^32-1: epoch 1, refilled


# ----------------------------------------------------------------------------- reference


class StepRef:
    """limiter.md section 4 line by line, one call per edge (the RTL's registers)."""

    def __init__(self, cfg: LimiterConfig) -> None:
        self.cfg = cfg
        self.fresh = True
        self.ph = 0
        self.rem = 0

    def edge(self, cfg: LimiterConfig, restart: bool, cost: int | None, consume: bool) -> bool:
        """Edge with configuration ``cfg`` and ``R``; ``cost`` None: no query (q_valid 0)."""
        self.cfg = cfg
        q_cost = cost if cost is not None else 0
        c = q_cost if cfg.mode == BYTES else 1
        if cfg.period == 0:
            self.fresh = True
            return True
        first = restart or self.fresh or self.ph >= cfg.period
        phase = 0 if first else self.ph
        avail = cfg.budget if first else self.rem
        ok = avail >= c
        self.rem = avail - c if (cost is not None and consume and ok) else avail
        self.ph = phase + 1
        self.fresh = False
        return ok


@pytest.mark.parametrize("seed", range(12))
def test_arithmetic_model_equals_per_edge_reference(seed: int) -> None:
    """F9: the arithmetic Limiter, called only at edges with an event, gives the verdict of
    the per-edge reference at every query, over random restarts, changes without restart
    (budget, period, mode, off), floods, bursts and idle gaps."""
    rng = random.Random(seed)
    cfg = LimiterConfig(rng.choice([0, 2, 5]), rng.choice([0, 3, 10]), rng.choice([FRAMES, BYTES]))
    lim = Limiter(cfg.budget, cfg.period, cfg.mode)
    ref = StepRef(cfg)
    p_query = 0.5
    queries = 0
    for e in range(20_000):
        restart = False
        if rng.random() < 0.004:
            p_query = rng.choice([0.0, 0.05, 0.5, 0.95, 1.0])
        if rng.random() < 0.01:
            cfg = LimiterConfig(
                budget=rng.choice([0, 1, 2, 3, 7, 100, 1500, 5000, 0xFFFF_FFFF]),
                period=rng.choice([0, 1, 2, 3, 5, 8, 13, 40, 200]),
                mode=rng.choice([FRAMES, BYTES]),
            )
            restart = rng.random() < 0.6
            if restart:
                lim.restart(e, cfg.budget, cfg.period, cfg.mode)
            else:
                lim.configure(e, cfg.budget, cfg.period, cfg.mode)
        elif rng.random() < 0.003:
            restart = True
            lim.restart(e, cfg.budget, cfg.period, cfg.mode)
        if rng.random() < p_query:
            cost = rng.choice([0, 1, 60, 64, 300, 1500, 0xFFFF, rng.randrange(0x10000)])
            consume = rng.random() < 0.9
            want = ref.edge(cfg, restart, cost, consume)
            assert lim.query(e, cost, consume) == want, f"seed {seed}, edge {e}"
            queries += 1
        else:
            ref.edge(cfg, restart, None, False)
    assert queries > 1000
