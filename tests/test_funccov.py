"""Functional coverage code of `make coverage` (F30, tb/coverage/funccov.py), without a simulator:
frame classes, sampling a checked run record, writing, merging and reporting bins."""

from __future__ import annotations

import random
from types import SimpleNamespace

from model.config import ModelConfig
from model.moderation import WHY_ABS, WHY_FRAMES
from tb.coverage import funccov
from tb.top.frames import Flow, Frame, arp, bad_input, fragment
from tb.top.monitor import Observed
from tb.top.scoreboard import Run, build_model


def test_frame_class() -> None:
    rng = random.Random(1)
    udp, tcp = Flow("u", "udp", 5000).make(rng), Flow("t", "tcp", 80).make(rng)
    assert funccov.frame_class(udp) == "udp"
    assert funccov.frame_class(tcp) == "tcp"
    assert funccov.frame_class(arp(rng)) == "arp"
    assert funccov.frame_class(fragment(rng)) == "fragment"
    assert funccov.frame_class(Frame(udp.data, tuser=True)) == "bad_fcs"
    assert funccov.frame_class(Frame(udp.data[:40])) == "runt"
    assert funccov.frame_class(Frame(udp.data + bytes(1600))) == "oversize"
    for _ in range(40):  # every deliberately bad frame falls into a class the bins foresee
        assert funccov.frame_class(bad_input(rng)) in funccov.BAD_CLASSES


def _run(frames: list[Frame], cfg: ModelConfig) -> Run:
    obs = Observed(frames_t=[100 + 200 * i for i in range(len(frames))], last_cycle=100 + 200 * len(frames))
    obs.dma_events.append((150, 1, 4))  # TIMEOUT on queue 1
    obs.dma_states.append(6)            # decided in DATA_B (tb/top/monitor.py)
    return Run(cfg, frames, obs, [[] for _ in range(cfg.num_queues)], {})


def test_sample_write_merge_report(tmp_path) -> None:
    rng = random.Random(2)
    cfg = ModelConfig(num_queues=2, num_rules=4)
    frames = [Flow("u", "udp", 5000).make(rng), Frame(bytes(30)), arp(rng)]
    run = _run(frames, cfg)
    model, _reads = build_model(run)  # the golden model: no rule, default action drop
    # what the model cannot be made to do cheaply here: a fire and a gate edge, added by hand
    model.irq_why.append((300, 1, WHY_FRAMES | WHY_ABS))
    model.gate_edges.append((310, 0, True))
    values = funccov.run_values(run, model)
    assert values["verdict_queue_class"] == ["UNREGISTERED/-/udp", "MALFORMED/-/runt", "UNREGISTERED/-/arp"]
    assert values["irq_cause"] == ["q1/frames", "q1/abs_timer"]
    assert values["dma_event_state"] == ["TIMEOUT/DATA_B"]
    assert values["gating"] == ["q0/on"]

    one = funccov.sample_run(run, model, "unit", out_dir=tmp_path)
    assert one is not None and one.exists()
    other = SimpleNamespace(outcomes=[], irq_why=[(5, 7, WHY_FRAMES)], gate_edges=[(6, 0, False)])
    two = funccov.sample_run(_run([], cfg), other, "unit", out_dir=tmp_path)  # type: ignore[arg-type]
    assert two is not None
    merged = funccov.merge([one, two], tmp_path / "merged.yml")
    hit, total, missing = funccov.report(merged)
    assert total == sum(len(b) for b in funccov.bins().values())
    assert hit == 9  # 3 verdict bins, 3 causes, TIMEOUT/DATA_B (in both), gating on and off
    assert len(missing) == total - hit
    assert "irq_cause: q7/frames" not in missing and "irq_cause: q7/pkt_timer" in missing
    assert "gating: q0/off" not in missing and "flow_cache: hit" in missing
    assert not list(tmp_path.glob("*.outside"))
    stray = SimpleNamespace(outcomes=[], irq_why=[(5, 9, WHY_FRAMES)], gate_edges=[])  # a queue beyond the bins
    three = funccov.sample_run(_run([], cfg), stray, "unit", out_dir=tmp_path)  # type: ignore[arg-type]
    assert three is not None and three.with_suffix(".outside").read_text() == "irq_cause: q9/frames\n"


def test_value_without_a_bin_is_reported_not_sampled() -> None:
    assert funccov.sample_values({"gating": ["q9/on", "q0/on"]}) == ["gating: q9/on"]


def test_verdict_bins_cross_what_can_occur() -> None:
    b = set(funccov.bins()["verdict_queue_class"])
    assert "ACCEPT/q7/fragment" in b and "RATE_LIMITED/q7" in b and "RULE_DROP/-/fragment" in b
    assert "UNREGISTERED/-/fragment" not in b  # fragments never reach the rule table
    assert not [x for x in b if x.startswith("RING_FULL/") and x.count("/") != 1]  # refusals: no class
    assert sorted(x for x in b if x.startswith("MALFORMED/")) == ["MALFORMED/-/malformed", "MALFORMED/-/runt"]
    assert len(b) == 8 * 8 + 5 * 8 + 4 + 1 + 7 + 8


def test_dma_state_only_where_the_monitor_read_it() -> None:
    cfg = ModelConfig(num_queues=2, num_rules=4)
    run = _run([], cfg)
    run.observed.dma_states.clear()  # the fast path's record: events without states
    model = SimpleNamespace(outcomes=[], irq_why=[], gate_edges=[])
    assert funccov.run_values(run, model)["dma_event_state"] == []  # type: ignore[arg-type]
    for e, states in funccov.EVENT_STATES.items():  # every bin names a real event and state
        assert e in funccov.EVENTS.values() and set(states) <= set(funccov.STATES.values()), e


def test_off_without_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("PRIONIC_COVERAGE", raising=False)
    cfg = ModelConfig(num_queues=2, num_rules=4)
    assert funccov.sample_run(_run([], cfg), None, "unit") is None


def test_grouped_names_every_bin() -> None:
    missing = ["irq_cause: q3/abs_timer", "irq_cause: q3/frames", "gating: q1/on", "flow_cache: hit",
               "flow_cache: expired"]
    assert funccov.grouped(missing) == ["irq_cause: q3/{abs_timer, frames}", "gating: q1/on",
                                        "flow_cache: hit, expired"]
