"""`make sweep` (bench/sweep.py, docs/sweep.md; F18): the same points give the same results
on local processes and on a Dask cluster, and the grid is what docs/sweep.md says."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import sweep  # noqa: E402


def _strip(rs: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "cpu_s"} for r in rs]


def test_dask_and_local_processes_give_identical_results(tmp_path: Path) -> None:
    """F18: two points of 20 ms on a local Dask cluster (a scheduler and a worker process,
    reached by address as `make sweep SCHEDULER=host:port` would) and on local processes:
    identical figures, point by point."""
    from distributed import LocalCluster

    raw = tomllib.loads((ROOT / "scenarios" / "paper.toml").read_text())
    pts = sweep.grid(quick=True)
    local = sweep.run_all(pts, raw, 20_000.0, 1, str(tmp_path / "l"), 2, "")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = sweep.run_all(pts, raw, 20_000.0, 1, str(tmp_path / "d"), 2, cluster.scheduler_address)
    assert _strip(local) == _strip(remote)
    assert [r["itr_abs"] for r in local] == [50, 200]
    for r in local:
        assert r["frames"] > 0 and r["interrupts"] > 0 and r["critical_p99_us"] is not None
    # a longer absolute timer on the best-effort queue cannot raise more interrupts
    assert local[1]["interrupts"] <= local[0]["interrupts"]


def test_grid_covers_moderation_loads_and_baselines() -> None:
    """F18: 100 prionic points (5 ITR_ABS x 4 ITR_FRAMES x 5 loads) and both baselines at every load."""
    pts = sweep.grid()
    prionic = [p for p in pts if p["config"] == "prionic"]
    assert len(prionic) == 100 and len({tuple(sorted(p.items())) for p in prionic}) == 100
    for c in ("conventional", "intel"):
        assert sorted(p["load"] for p in pts if p["config"] == c) == sorted(sweep.LOADS)
