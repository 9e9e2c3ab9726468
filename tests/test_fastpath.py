"""pytest entry: the fast co-simulation path (F26) against the bus path and the model.

``test_fast_equals_bus``: scenarios/mixed.toml (1 ms, four queues, moderation, a
rate-limited flood, an unregistered flood, flow cache, interrupt budget) runs on the
bus path (cocotbext-axi models, Python monitor) and on the fast path (HDL player,
memory, AXI4-Lite master and recorder, Python woken by interrupts), on each simulator.
Each run is checked against the golden model by the scoreboard; then every event record
(tlast, register writes and reads, verdicts, AXI bursts and their B, completions,
interrupt pulses and line edges, stalls, last cycle), every delivered completion with its
bytes and every register read back must be identical between the two paths.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tb.common import amount
from tb.runner import ROOT, SIMULATORS
from tb.scenario import load, run_scenario

MIXED = ROOT / "scenarios" / "mixed.toml"


def _records(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("sim", SIMULATORS)
def test_fast_equals_bus(sim: str, tmp_path: Path) -> None:
    """F26: scenarios/mixed.toml on the bus path and on the fast path give identical event
    records, delivered bytes and registers over its first 0.25 ms, 0.15 on Icarus (the flood's
    first burst, two periods of the control loop and the moderated bulk are all under way by
    then; the bus path, a Python monitor on every edge, is one of the slowest runs of the
    regression)."""
    us = amount(250, sim, icarus=0.6)
    text = re.sub(r"(?m)^duration_us\s*=.*$", f"duration_us = {us}", MIXED.read_text(), count=1)
    (tmp_path / "mixed.toml").write_text(text)
    sc = load(tmp_path / "mixed.toml")
    got = {}
    for path in ("bus", "fast"):
        out = tmp_path / path
        # a short run: the fast top is built for build time here, like every other test
        rep = run_scenario(sc, sim, out, path=path, record=out / "record.json", optimize=False)
        assert rep["checked_against_model"]
        got[path] = _records(out / "record.json")
    bus, fast = got["bus"], got["fast"]
    assert len(bus["observed"]["verdicts"]) > us // 10, f"the scenario is meant to carry over {us // 10} frames"
    assert bus["observed"]["completions"] and bus["observed"]["irq_edges"], "the scenario must deliver and interrupt"
    for key in bus["observed"]:
        b, f = bus["observed"][key], fast["observed"][key]
        if b != f:
            first = next((i for i, (x, y) in enumerate(zip(b, f, strict=False)) if x != y), min(len(b), len(f))) \
                if isinstance(b, list) else None
            pytest.fail(f"{key}: bus and fast path differ (bus {len(b) if isinstance(b, list) else b}, "
                        f"fast {len(f) if isinstance(f, list) else f}; first difference at item {first}: "
                        f"{b[first] if isinstance(b, list) and first is not None and first < len(b) else '-'} vs "
                        f"{f[first] if isinstance(f, list) and first is not None and first < len(f) else '-'})")
    assert bus["delivered"] == fast["delivered"], "the host read different completions or bytes"
    assert bus["registers"] == fast["registers"], "a register read back differently"
    assert bus["violations"] == fast["violations"] == []


@pytest.mark.parametrize("sim", SIMULATORS)
def test_fast_unhelpful_memory(sim: str, tmp_path: Path) -> None:
    """F25, F26: scenarios/mixed.toml (300 us, 120 on Icarus) on the fast path with a legal but unhelpful host memory
    (tb/hdl/prionic_tb_axi_ram.v: AWREADY only after the burst's first W beat, W beats taken
    before their AW, a B as early as AXI allows: on the edge after the last W beat, 25% random
    stalls on every channel): every frame's outcome, byte and interrupt cycle still matches the
    model, and the memory did take W beats first and answer Bs at once."""
    text = MIXED.read_text()
    keys = "memory_stall_percent = 25\nmemory_aw_waits_for_w = true\nmemory_b_latency = 1\n"
    text = text.replace("[host]\n", "[host]\n" + keys, 1) if "[host]\n" in text else text + "\n[host]\n" + keys
    text = text.replace('name = "mixed"', 'name = "mixed-unhelpful"', 1)
    us = amount(300, sim)
    text = re.sub(r"(?m)^duration_us\s*=.*$", f"duration_us = {us}", text, count=1)  # as long as it needs
    path = tmp_path / "mixed-unhelpful.toml"
    path.write_text(text)
    sc = load(path)
    assert sc.mem_stall_percent == 25 and sc.mem_aw_waits_for_w and sc.mem_b_latency == 1
    rep = run_scenario(sc, sim, tmp_path / "out", path="fast", optimize=False)
    assert rep["checked_against_model"]
    assert rep["frames"] > us // 10
    assert rep["mem_w_before_aw"] > 0, "the memory never took a W beat before its AW"
    assert rep["mem_b_at_once"] > 0, "the memory never answered a B on the edge after its last W beat"
    # the numpy trace of the run (F22) agrees with the report
    tr = np.load(tmp_path / "out" / "trace.npz")
    assert tr["t_last"].size == rep["frames"]
    assert int((tr["verdict"] == 0).sum()) == sum(q["frames"] for q in rep["queues"])
    assert tr["irq_cycle"].size == sum(q["interrupts"] for q in rep["queues"])
