"""Top-level tests of prionic_rx: random traffic against the golden model (F17, F19).

Run through tests/test_top.py (pytest, both simulators). Every test prints its seed.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pyuvm

from model.moderation import Moderation, ModerationConfig
from model.nic import PrionicModel
from tb.common import soak
from tb.env import Knobs, NicTest, port_range, rule_ctrl
from tb.frames import Flow, arp, bad_input
from tb.host import QueueSetup
from tb.scoreboard import compare

UDP, TCP = 17, 6


def random_setup(rng: random.Random) -> QueueSetup:
    return QueueSetup(
        ring_size=rng.choice([2, 4, 8, 16, 32]),
        buf_size=rng.choice([256, 512, 1024, 2048]),
        itr_frames=rng.choice([0, 0, 1, 4, 8]),
        itr_pkt=rng.choice([0, 5, 20, 60]),
        itr_abs=rng.choice([0, 10, 50, 120]),
        itr_gap=rng.choice([0, 0, 8, 30]),
        immediate=rng.random() < 0.2,
    )


def mixed_traffic(rng: random.Random, nq: int, frames: int) -> Knobs:
    """Two registered flows (control to the top queue, bulk to queue 0), a blocked port,
    an unregistered flood, ARP and a sprinkle of bad input."""
    hi = nq - 1
    return Knobs(
        frames=frames,
        flows=[
            (3, Flow("ctrl", "udp", 5000, payload=(18, 120))),
            (3, Flow("bulk", "tcp", 8042, payload=(6, 900), options=True)),
            (1, Flow("bulk2", "udp", 6500, payload=(18, 400))),
            (1, Flow("blocked", "udp", 9999)),
            (4, Flow("flood", "udp", 7000, payload=(18, 64))),
            (1, arp),
            (1, bad_input),
        ],
        setups=[random_setup(rng) for _ in range(nq)],
        rules=[
            (rule_ctrl(queue=hi, proto=UDP, dport=True), port_range(5000)),
            (rule_ctrl(queue=0, proto=TCP, dport=True), port_range(8000, 8100)),
            (rule_ctrl(drop=True, proto=UDP, dport=True), port_range(9999)),
            (rule_ctrl(queue=0, proto=UDP, dport=True), port_range(6000, 6999)),
        ],
        default_action=rng.choice([0, 0, 1]),  # mostly drop unregistered; sometimes queue 0
        tick_div=rng.randint(1, 8),
    )


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class RandomTrafficTest(NicTest):
    """F1, F3, F5, F6, F12, F13, F14, F15, F17: >= 2000 random frames over two registered
    flows, an unregistered flood, a blocked port, ARP and bad input, random moderation
    settings rewritten while running, host returning buffers at random times (rings run
    full). Every verdict, completion, buffer byte, interrupt cycle and counter is checked
    against the model."""

    def knobs(self, rng: random.Random) -> Knobs:
        return mixed_traffic(rng, self.cfg.num_queues, 20000 if soak() else 2000)


class OffByOneTick(Moderation):
    """A deliberately wrong model: every packet timer runs one tick too long."""

    def step(self, cpl: bool, tick: bool, clr: bool, cfg: ModerationConfig) -> bool:
        return super().step(cpl, tick, clr, replace(cfg, pkt=cfg.pkt + 1 if cfg.pkt else 0))


class OffByOneModel(PrionicModel):
    moderation_cls = OffByOneTick


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class ScoreboardBitesTest(NicTest):
    """F17: the scoreboard must bite. The same run is checked against the true model
    (no mismatch allowed) and against a model whose packet timer is off by one tick,
    which must be reported as interrupt-cycle mismatches."""

    def knobs(self, rng: random.Random) -> Knobs:
        k = mixed_traffic(rng, self.cfg.num_queues, 300)
        for s in k.setups:  # packet timer only, so every interrupt depends on it
            s.itr_frames, s.itr_pkt, s.itr_abs, s.itr_gap, s.immediate = 0, 10, 0, 0, False
        k.chaos = False
        return k

    def check_phase(self) -> None:
        super().check_phase()  # the true model agrees exactly
        assert self.run_record is not None
        assert self.run_record.observed.fires, "no interrupt happened: nothing to bite on"
        wrong = compare(self.run_record, OffByOneModel)
        self.logger.info("wrong model: %d mismatches, first: %s", len(wrong), wrong[:1])
        assert any("stat_irq" in m for m in wrong), "scoreboard missed an off-by-one-tick timer"
