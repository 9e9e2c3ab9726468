"""`make paper` (F23, docs/paper.md): prionic against the baselines a reviewer would name.

Two parts. The **checked RTL runs**: the main workload (default scenarios/paper.toml, the
prionic configuration) on every configuration of :data:`bench.baselines.CONFIGS`, each a
scenario on the RTL (fast path, Verilator) with the host CPU model in the loop
(docs/host-cpu.md), checked against the golden model like any scenario; one seed of 50 ms
each (``--sweeps load,users`` adds the flood-load and TCP-users sweeps on the RTL). The
**statistics** (bench/paper_stats.py): every configuration and workload on the fast model,
one second of traffic per seed over 5 seeds, with the spread.

Writes ``out/paper/results.json`` (``--profile cortex-m``: ``out/paper-cortex-m/``) and the
plots. ``--quick`` shortens every run and checks the pipeline, not the figures; the figures
in the README come from the full run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import tomli_w

from bench.baselines import CONFIGS, INTEL, LABELS, LOADS, MESSAGES, SEEDS, USERS, derive, with_flood_load, with_users
from bench.paper_out import best_effort, plot, plot_stats, stats_table, table
from bench.paper_stats import rtl_samples, run_all
from bench.sweep import load_dict
from model.cpu import PROFILES
from model.moderation import intel_ticks
from tb.scenario import build_params

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------- runs

def run_one(d: dict, out: Path, sim: str, log) -> dict:
    """Write the scenario file, run it (a checked scenario run) and return its report."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "scenario.toml"
    path.write_text(tomli_w.dumps(d))
    t = time.monotonic()
    cmd = [sys.executable, "-m", "tb.scenario", str(path), "--sim", sim, "--no-waves", "--progress", "0",
           "--out", str(out / "run")]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    (out / "run.log").write_text(res.stdout + res.stderr)
    if res.returncode != 0:
        raise RuntimeError(f"paper: {path} failed (exit {res.returncode}); see {out / 'run.log'}")
    rep = json.loads((out / "run" / "report.json").read_text())
    log(f"  {d['name']}: {time.monotonic() - t:.0f} s")
    return rep


def summary(rep: dict) -> dict:
    """The figures of one run that the paper compares (docs/paper.md section 3)."""
    cpu = rep["cpu"]
    r = cpu["critical_response_us"]
    return {
        "interrupts": cpu["interrupts"],
        "nic_interrupts": sum(q["interrupts"] for q in rep["queues"]),
        "interrupts_preempting_critical": cpu["interrupts_preempting_critical"],
        "critical_response_us": r,
        "critical_response_all_us": cpu["critical_response_all_us"],
        "deadline_misses": cpu["deadline_misses"],
        "critical_lost": cpu["critical_lost"],
        "delivered_ratio": {n: v["ratio"] for n, v in cpu["delivered"].items() if v["ratio"] is not None},
        "cpu_isr_us": cpu["cpu_us"]["isr"],
        "cpu_kernel_us": cpu["cpu_us"]["kernel"],
        "cpu_share": cpu["cpu_share"],
        "cpu_busy": round(sum(cpu["cpu_share"].values()), 4),
        "frames": rep["frames"],
        "cycles": rep["cycles"],
    }


def pct_less(base: float, new: float) -> float:
    return round(100.0 * (1.0 - new / base), 1) if base else 0.0


def p99_all(s: dict) -> float:
    """The critical task's p99 over every control frame sent; a lost frame never finishes."""
    v = s["critical_response_all_us"]["p99"]
    return float("inf") if v is None else float(v)


def versus(base: dict, prio: dict) -> dict:
    """prionic against one baseline on one run (docs/paper.md section 1): interrupts saved,
    critical p99 cut (over every control frame sent), control frames lost, best-effort
    delivery and CPU busy share, each with both sides' figures."""
    b99, p99 = p99_all(base), p99_all(prio)
    cut = None if p99 == float("inf") else (100.0 if b99 == float("inf") else pct_less(b99, p99))
    return {
        "interrupts_saved_pct": pct_less(base["interrupts"], prio["interrupts"]),
        "interrupts": [base["interrupts"], prio["interrupts"]],
        "critical_p99_cut_pct": cut,
        "critical_p99_all_us": [None if b99 == float("inf") else b99, None if p99 == float("inf") else p99],
        "control_lost": [base["critical_lost"], prio["critical_lost"]],
        "best_effort_delivered": [best_effort(base), best_effort(prio)],
        "cpu_busy": [base["cpu_busy"], prio["cpu_busy"]],
    }


def strongest(main_s: dict, load_sweep: list[dict], configs: tuple[str, ...]) -> dict:
    """The baseline with the lowest critical p99 (every control frame sent; ties: fewer
    control frames lost, then fewer interrupts), on the main workload and at each load."""
    def pick(run: dict) -> str:
        return min((b for b in configs if b != "prionic"),
                   key=lambda b: (p99_all(run[b]), run[b]["critical_lost"], run[b]["interrupts"]))
    main_b = pick(main_s)
    return {"main": main_b, "main_vs": versus(main_s[main_b], main_s["prionic"]),
            "load": [{"load": p["load"], "config": pick(p), "vs": versus(p[pick(p)], p["prionic"])}
                     for p in load_sweep]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.paper", description=__doc__.splitlines()[0])
    ap.add_argument("workload", nargs="?", default=str(ROOT / "scenarios" / "paper.toml"))
    ap.add_argument("--out", default=None, help="default out/paper, or out/paper-PROFILE")
    ap.add_argument("--profile", default="default", choices=tuple(PROFILES),
                    help="the host CPU's cost profile (docs/host-cpu.md section 3)")
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help="comma-separated subset of " + ", ".join(CONFIGS) + " (prionic and conventional always run)")
    ap.add_argument("--sim", default="verilator", choices=("verilator", "icarus"))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--sweeps", default="none",
                    help="RTL sweeps besides the main workload: load, users, both (load,users) or none (default; the "
                         "fast model runs both over every seed in any case)")
    ap.add_argument("--seeds", type=int, default=len(SEEDS), help="seeds of the statistics (default %(default)s)")
    ap.add_argument("--stats-seconds", type=float, default=1.0,
                    help="traffic per seed and point of the statistics, seconds (default %(default)s: 2,000 control "
                         "frames, enough for a p99)")
    ap.add_argument("--no-stats", action="store_true", help="the checked RTL runs only")
    ap.add_argument("--loads", default=",".join(f"{x:g}" for x in LOADS),
                    help="the load sweep's flood loads, fractions of 1 Gb/s (default %(default)s)")
    ap.add_argument("--replot", action="store_true", help="redraw the plots and table from results.json only")
    ap.add_argument("--quick", action="store_true",
                    help="2 ms runs, two load points, one user count: checks the pipeline, not the figures")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    default_out = ROOT / "out" / ("paper" if args.profile == "default" else f"paper-{args.profile}")
    out = Path(args.out or default_out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    wanted = {c.strip() for c in args.configs.split(",") if c.strip()}
    if wanted - set(CONFIGS):
        ap.error(f"--configs: unknown {', '.join(sorted(wanted - set(CONFIGS)))}; known: {', '.join(CONFIGS)}")
    configs = tuple(c for c in CONFIGS if c in wanted | {"conventional", "prionic"})
    profile = None if args.profile == "default" else args.profile
    if args.replot:
        res = json.loads((out / "results.json").read_text())
        plot(res, out)
        if res.get("stats"):
            plot_stats(res["stats"], out)
        print(table(res) + (stats_table(res["stats"]) if res.get("stats") else ""))
        return 0
    raw = tomllib.loads(Path(args.workload).read_text())
    loads, users, messages = (LOADS, USERS, MESSAGES) if not args.quick else ((0.0, 0.1), (2,), (1024,))
    sweeps = {w.strip() for w in args.sweeps.split(",") if w.strip() and w.strip() != "none"}
    if sweeps - {"load", "users"}:
        ap.error("--sweeps: load, users, both (load,users) or none")
    if not args.quick:
        try:
            loads = tuple(float(x) for x in args.loads.split(",") if x.strip())
        except ValueError:
            ap.error(f"--loads: fractions of 1 Gb/s separated by commas, not {args.loads!r}")
        if any(not 0 <= x <= 1 for x in loads):
            ap.error("--loads: each load is a fraction of 1 Gb/s, 0..1")
    loads = loads if "load" in sweeps else ()
    users = users if "users" in sweeps else ()
    if args.quick:
        raw["duration_us"] = 2000
        for f in raw["flow"]:
            f["start_us"] = min(f.get("start_us", 0), 200)
    sweep_us = raw["duration_us"] if args.quick else raw["duration_us"] // 2

    def say(msg: str) -> None:
        print(msg, flush=True)

    jobs: list[tuple[str, dict, Path]] = []
    for c in configs:
        jobs.append((f"main/{c}", derive(raw, c, profile), out / "main" / c))
    for load in loads:
        for c in configs:
            d = derive(with_flood_load(raw, load), c, profile)
            d["duration_us"] = sweep_us
            jobs.append((f"load/{load}/{c}", d, out / "load" / f"{load:g}" / c))
    for m in messages:
        for n in users:
            for c in configs:
                d = derive(with_users(raw, n, m), c, profile)
                d["duration_us"] = sweep_us
                jobs.append((f"users/{m}/{n}/{c}", d, out / "users" / f"{m}-{n}" / c))
    # a checked RTL sample of each workload where the NIC's own hardware matters (one seed)
    for w, c, d in rtl_samples(raw, profile):
        d["duration_us"] = raw["duration_us"]
        d["name"] = f"{raw.get('name', 'paper')}-{w.replace('/', '-')}-{c}"
        jobs.append((f"workload/{w}/{c}", d, out / "workloads" / w.replace("/", "-") / c))
    say(f"paper: {len(jobs)} checked RTL runs on {args.sim} ({args.jobs} at a time), results in {out}")
    # the first run of each build (i210 has a queue more: its sink) builds the simulator; the others reuse it
    firsts = list({_build_of(d, o): (key, d, o) for key, d, o in reversed(jobs)}.values())
    reports = {key: run_one(d, o, args.sim, say) for key, d, o in firsts}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {key: ex.submit(run_one, d, o, args.sim, say) for key, d, o in jobs if key not in reports}
        reports.update({key: f.result() for key, f in futs.items()})
    stats = None
    if not args.no_stats:
        stats = run_all(raw, out / "stats", args.jobs, 0.05 if args.quick else args.stats_seconds,
                        SEEDS[:2] if args.quick else tuple(range(1, args.seeds + 1)), args.quick, profile, say)

    main_s = {c: summary(reports[f"main/{c}"]) for c in configs}
    conv, prio = main_s["conventional"], main_s["prionic"]
    load_sweep = [{"load": load, **{c: summary(reports[f"load/{load}/{c}"]) for c in configs}} for load in loads]
    users_sweep = [{"message": m, "users": n, **{c: summary(reports[f"users/{m}/{n}/{c}"]) for c in configs}}
                   for m in messages for n in users]
    results = {
        "workload": os.path.relpath(args.workload, ROOT),
        "simulator": args.sim,
        "quick": args.quick,
        "profile": args.profile,
        "costs_us": PROFILES[args.profile],
        # against the conventional NIC (the worst case, kept for continuity)
        "interrupts_saved_pct": pct_less(conv["interrupts"], prio["interrupts"]),
        "critical_delay_reduction_pct": pct_less(conv["critical_response_us"]["p99"] or 0.0,
                                                 prio["critical_response_us"]["p99"] or 0.0),
        "intel": {"registers": INTEL, "ticks": dict(zip(("itr_pkt", "itr_abs", "itr_gap"), intel_ticks(**INTEL),
                                                        strict=True))},
        "labels": {c: LABELS[c] for c in configs},
        "configs": main_s,
        "rtl_workloads": _by_workload({k: summary(v) for k, v in reports.items() if k.startswith("workload/")}),
        # prionic against each baseline: over the statistics' seeds (section 2), else the RTL run
        "vs": stats["vs"]["main"] if stats else {b: versus(main_s[b], prio) for b in configs if b != "prionic"},
        "rtl_vs": {b: versus(main_s[b], prio) for b in configs if b != "prionic"},
        "strongest": {"name": stats["strongest"] if stats else strongest(main_s, load_sweep, configs)["main"],
                      "rtl": strongest(main_s, load_sweep, configs)},
        "stats": stats,
        "load_sweep": load_sweep,
        "users_sweep": users_sweep,
        "critical_response_cycles": {c: _responses(out / "main" / c / "run") for c in configs},
        "seconds": round(time.monotonic() - t0, 1),
    }
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    plots = plot(results, out) + (plot_stats(stats, out) if stats else [])
    say(table(results) + (stats_table(stats) if stats else ""))
    for p in [out / "results.json", *plots]:
        say(f"  {os.path.relpath(p, Path.cwd())}")
    return 0


def _by_workload(runs: dict[str, dict]) -> dict[str, dict[str, dict]]:
    """``workload/<w>/<config>`` keys as ``{w: {config: figures}}``."""
    out: dict[str, dict[str, dict]] = {}
    for k, v in runs.items():
        w, c = k.removeprefix("workload/").rsplit("/", 1)
        out.setdefault(w, {})[c] = v
    return out


def _build_of(d: dict, out: Path) -> tuple:
    """The RTL build a scenario dict runs on (tb/scenario/run.py: build_params); writes its file."""
    return tuple(sorted(build_params(load_dict(d, out / "scenario.toml")).items()))


def _responses(run: Path) -> list[int]:
    tr = np.load(run / "trace.npz")
    return tr["critical_response"].tolist() if "critical_response" in tr else []


if __name__ == "__main__":
    sys.exit(main())
