"""Checks shared by the tests that run a scenario file on the fast path (tests/test_scenarios.py,
tests/test_fast_model.py): the run was checked against the model, and its report and its numpy
trace agree (docs/host-cpu.md for the CPU model's part)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def check_scenario_run(sc, rep: dict, out: Path) -> None:
    """F21, F22: ``rep`` (report.json of a run of ``sc`` into ``out``) was checked against the
    model, saw frames, and agrees with out/trace.npz; with a [cpu] table, the CPU model's
    report too."""
    assert rep["checked_against_model"]
    assert rep["frames"] > 0, f"{sc.path}: no frame in the run"
    tr = np.load(out / "trace.npz")
    assert tr["t_last"].size == rep["frames"]
    assert tr["irq_cycle"].size == sum(q["interrupts"] for q in rep["queues"])
    delivered = sum(q["frames"] for q in rep["queues"])
    assert int((tr["verdict"] == 0).sum()) == delivered
    assert sum(f["sent"] for f in rep["flows"].values()) == rep["frames"]
    if sc.cpu is not None:   # the host CPU model ran the host (docs/host-cpu.md)
        _check_cpu_report(sc, rep, tr)


def _check_cpu_report(sc, rep: dict, tr) -> None:
    cpu = rep["cpu"]
    crit = cpu["delivered"][sc.critical_flow]
    assert crit["consumed"] == tr["critical_response"].size == len(tr["critical_arrival"])
    assert crit["consumed"] + cpu["critical_lost"] == crit["sent"]
    assert cpu["interrupts"] >= 1 and cpu["cpu_us"]["isr"] > 0
    # every processed control frame: at least the ISR, its processing and the task's WCET
    c = sc.cpu.costs
    assert all(r >= c.isr + c.frame + c.critical for r in tr["critical_response"].tolist())
    # what the tasks consumed came from frames the NIC delivered
    for name, d in cpu["delivered"].items():
        accepted = rep["flows"][name]["verdicts"].get("ACCEPT", 0)
        assert d["consumed"] <= accepted, f"{name}: {d['consumed']} consumed, {accepted} delivered by the NIC"
