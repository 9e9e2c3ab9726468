"""`make paper` (bench/paper.py, docs/paper.md; F23): the baselines are configurations of the
same RTL, derived from the workload as documented, and they run checked against the model.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
import tomli_w

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from paper import derive, with_flood_load, with_users  # noqa: E402

from model.moderation import intel_ticks  # noqa: E402
from tb.runner import SIMULATORS  # noqa: E402
from tb.scenario import build_params, load, run_scenario  # noqa: E402

PAPER = ROOT / "scenarios" / "paper.toml"


def _raw() -> dict:
    return tomllib.loads(PAPER.read_text())


def _scenario(d: dict, tmp_path: Path, name: str):
    p = tmp_path / f"{name}.toml"
    p.write_text(tomli_w.dumps(d))
    return load(p)


def test_baselines_are_configurations_of_the_same_build(tmp_path: Path) -> None:
    """F23: conventional and Intel-style baselines keep the RTL build (the same parameters),
    take every frame into queue 0 (no rule, default action queue 0), process in the kernel
    above every task and do not gate; Intel maps RDTR 0 / ITR 195 (x 256 ns) to IMMEDIATE
    with a 50-tick gap (timing.md section 6, rounded up)."""
    raw = _raw()
    prionic = _scenario(derive(raw, "prionic"), tmp_path, "p")
    conv = _scenario(derive(raw, "conventional"), tmp_path, "c")
    intel = _scenario(derive(raw, "intel"), tmp_path, "i")
    assert build_params(conv) == build_params(intel) == build_params(prionic)
    for sc in (conv, intel):
        assert sc.rules == []
        assert sc.cpu.mode == "kernel" and not sc.cpu.gate
        assert sc.cpu.sockets == prionic.cpu.sockets
        q0 = sc.queues[0]
        assert q0.immediate and q0.ring_size == min(128, sum(q.ring_size for q in prionic.queues))
    assert conv.queues[0].itr_gap == 0
    assert intel.queues[0].itr_gap == intel_ticks(itr=195)[2] == 50
    assert prionic.cpu.mode == "prionic" and prionic.cpu.gate
    assert [f.name for f in conv.flows] == [f.name for f in prionic.flows]


def test_sweeps_change_only_their_variable(tmp_path: Path) -> None:
    """F23: the load sweep sets the flood to a fraction of 1 Gb/s of 60-byte frames (84 bytes
    on the wire: 6.72 us at 10%); the users sweep replaces the bulk flow by N TCP users."""
    raw = _raw()
    sc = _scenario(with_flood_load(raw, 0.1), tmp_path, "l")
    flood = next(f for f in sc.flows if f.name == "flood")
    assert flood.period_us == pytest.approx(6.72) and flood.payload == (18, 18)
    assert "flood" not in [f.name for f in _scenario(with_flood_load(raw, 0.0), tmp_path, "l0").flows]
    sc = _scenario(with_users(raw, 4, 10240), tmp_path, "u")
    bulk = next(f for f in sc.flows if f.name == "bulk")
    assert (bulk.pattern, bulk.users, bulk.message) == ("users", 4, 10240)


@pytest.mark.parametrize("sim", SIMULATORS)
def test_conventional_baseline_runs(sim: str, tmp_path: Path) -> None:
    """F23: the conventional baseline on the RTL with the host CPU model, checked against the
    model: every accepted frame is processed in the kernel, flood frames are dropped by the
    stack (no socket), and an interrupt comes per frame the CPU keeps up with."""
    d = derive(_raw(), "conventional")
    d["duration_us"] = 400
    for f in d["flow"]:
        f["start_us"] = min(f.get("start_us", 0), 100)
    sc = _scenario(d, tmp_path, "conv")
    out = tmp_path / "out"
    rep = run_scenario(sc, sim, out, path="fast", optimize=False)
    cpu = rep["cpu"]
    assert cpu["mode"] == "kernel" and cpu["run_prio_writes"] == 0
    flood = rep["flows"]["flood"]
    assert flood["verdicts"].get("ACCEPT", 0) + flood["verdicts"].get("RING_FULL", 0) == flood["sent"] > 0
    assert cpu["stack_drops"] > 0 and cpu["cpu_us"]["kernel"] > 0 and cpu["cpu_us"]["task"] >= 0
    tr = np.load(out / "trace.npz")
    assert cpu["delivered"]["control"]["consumed"] == tr["critical_response"].size
