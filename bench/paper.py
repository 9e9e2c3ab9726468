"""`make paper` (F23, docs/paper.md): prionic against a conventional and an Intel-style NIC.

Every run is a scenario on the RTL (fast path, Verilator) with the host CPU model in the
loop (docs/host-cpu.md), checked against the golden model like any scenario. From one
workload file (default scenarios/paper.toml, the prionic configuration) it derives:

* ``conventional``: the same RTL build, one queue (queue 0) taking every frame
  (``default_action`` = queue 0, no rules), an interrupt per frame, receive processing in
  the kernel (softirq, above every task), no RUN_PRIO gating;
* ``intel``: the same with Intel e1000-style moderation on queue 0 through the documented
  mapping (timing.md section 6): RDTR, RADV, ITR in Intel's units, rounded up to ticks;
* ``prionic``: the file as written.

Then it runs the main workload on all three, a sweep of the flood's offered load (fraction
of 1 Gb/s in 60-byte frames), and a sweep of concurrent TCP users (1 KB and 10 KB messages),
and writes ``out/paper/results.json`` and the plots. ``--quick`` shortens every run (the
test in ``make test`` uses it); the figures in the README come from the full run.
"""

from __future__ import annotations

import argparse
import copy
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from model.moderation import intel_ticks  # noqa: E402

CONFIGS = ("conventional", "intel", "prionic")
# e1000e with its fixed-rate settings: RxIntDelay (RDTR) 0, RxAbsIntDelay (RADV) 8 (x 1.024 us,
# ignored while RDTR is 0), InterruptThrottleRate 20000/s, i.e. ITR = 1e9 / (20000 * 256) = 195
INTEL = {"rdtr": 0, "radv": 8, "itr": 195}
WIRE_BITS_60B = 84 * 8          # a 60-byte frame with preamble, SFD, FCS... and gap on the wire: 84 bytes
LINE_MBPS = 1000.0              # the device's port: 1 GbE
LOADS = (0.0, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
USERS = (1, 2, 4, 8)
MESSAGES = (1024, 10240)


# ---------------------------------------------------------------------------- configs

def derive(raw: dict, config: str) -> dict:
    """The scenario dict of ``config`` from the prionic workload ``raw`` (module doc)."""
    if config == "prionic":
        return copy.deepcopy(raw)
    if config not in CONFIGS:
        raise ValueError(f"config must be one of {CONFIGS}")
    d = copy.deepcopy(raw)
    queues = d["queue"]
    # the same number of buffers in one ring (at most the 128 the host model lays out per ring)
    q0 = {"ring_size": min(128, sum(q.get("ring_size", 16) for q in queues)),
          "buf_size": max(q.get("buf_size", 2048) for q in queues)}
    if config == "conventional":
        q0["immediate"] = True
    else:
        rdtr, radv, itr = intel_ticks(**INTEL, tick_div=d.get("nic", {}).get("tick_div", 125))
        if rdtr == 0:   # Intel ignores RADV while RDTR is 0: an interrupt per frame, throttled by ITR
            q0.update(immediate=True, itr_gap=itr)
        else:
            q0.update(itr_pkt=rdtr, itr_abs=radv, itr_gap=itr)
    # the other queues of the same build stay configured but receive nothing
    d["queue"] = [q0] + [{"ring_size": 2, "buf_size": 64} for _ in queues[1:]]
    d.pop("rule", None)
    d.setdefault("nic", {})["default_action"] = 0
    cpu = d.setdefault("cpu", {})
    cpu["mode"] = "kernel"
    cpu["gate"] = False
    cpu.pop("queue_prio", None)
    d["name"] = f"{raw.get('name', 'paper')}-{config}"
    return d


def with_flood_load(raw: dict, load: float) -> dict:
    """The workload with its flood flow at ``load`` x 1 Gb/s of 60-byte frames (0: no flood)."""
    d = copy.deepcopy(raw)
    flows = [f for f in d["flow"] if f["name"] != "flood"]
    if load > 0:
        flood = next(f for f in raw["flow"] if f["name"] == "flood")
        flows.append({**flood, "pattern": "periodic", "period_us": round(WIRE_BITS_60B / (load * LINE_MBPS), 4),
                      "payload": [18, 18]})
    d["flow"] = flows
    return d


def with_users(raw: dict, users: int, message: int) -> dict:
    """The workload with its bulk flow replaced by ``users`` TCP connections, each sending a
    ``message``-byte message per millisecond."""
    d = copy.deepcopy(raw)
    bulk = next(f for f in raw["flow"] if f["name"] == "bulk")
    d["flow"] = [f for f in d["flow"] if f["name"] != "bulk"] + [
        {"name": "bulk", "proto": "tcp", "dport": bulk["dport"], "pattern": "users", "users": users,
         "message": message, "period_us": 1000}]
    return d


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
        "frames": rep["frames"],
        "cycles": rep["cycles"],
    }


def pct_less(base: float, new: float) -> float:
    return round(100.0 * (1.0 - new / base), 1) if base else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/paper.py", description=__doc__.splitlines()[0])
    ap.add_argument("workload", nargs="?", default=str(ROOT / "scenarios" / "paper.toml"))
    ap.add_argument("--out", default=str(ROOT / "out" / "paper"))
    ap.add_argument("--sim", default="verilator", choices=("verilator", "icarus"))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--replot", action="store_true", help="redraw the plots and table from results.json only")
    ap.add_argument("--quick", action="store_true",
                    help="2 ms runs, two load points, one user count: checks the pipeline, not the figures")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.replot:
        res = json.loads((out / "results.json").read_text())
        plot(res, out)
        print(table(res))
        return 0
    raw = tomllib.loads(Path(args.workload).read_text())
    loads, users, messages = (LOADS, USERS, MESSAGES) if not args.quick else ((0.0, 0.1), (2,), (1024,))
    if args.quick:
        raw["duration_us"] = 2000
        for f in raw["flow"]:
            f["start_us"] = min(f.get("start_us", 0), 200)
    sweep_us = raw["duration_us"] if args.quick else raw["duration_us"] // 2

    def say(msg: str) -> None:
        print(msg, flush=True)

    jobs: list[tuple[str, dict, Path]] = []
    for c in CONFIGS:
        jobs.append((f"main/{c}", derive(raw, c), out / "main" / c))
    for load in loads:
        for c in CONFIGS:
            d = derive(with_flood_load(raw, load), c)
            d["duration_us"] = sweep_us
            jobs.append((f"load/{load}/{c}", d, out / "load" / f"{load:g}" / c))
    for m in messages:
        for n in users:
            for c in CONFIGS:
                d = derive(with_users(raw, n, m), c)
                d["duration_us"] = sweep_us
                jobs.append((f"users/{m}/{n}/{c}", d, out / "users" / f"{m}-{n}" / c))
    say(f"paper: {len(jobs)} checked RTL runs on {args.sim} ({args.jobs} at a time), results in {out}")
    # the first run builds the simulator; the others reuse its build
    reports = {jobs[0][0]: run_one(jobs[0][1], jobs[0][2], args.sim, say)}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {key: ex.submit(run_one, d, o, args.sim, say) for key, d, o in jobs[1:]}
        reports.update({key: f.result() for key, f in futs.items()})

    main_s = {c: summary(reports[f"main/{c}"]) for c in CONFIGS}
    conv, prio = main_s["conventional"], main_s["prionic"]
    results = {
        "workload": os.path.relpath(args.workload, ROOT),
        "simulator": args.sim,
        "quick": args.quick,
        "interrupts_saved_pct": pct_less(conv["interrupts"], prio["interrupts"]),
        "critical_delay_reduction_pct": pct_less(conv["critical_response_us"]["p99"] or 0.0,
                                                 prio["critical_response_us"]["p99"] or 0.0),
        "intel": {"registers": INTEL, "ticks": dict(zip(("itr_pkt", "itr_abs", "itr_gap"), intel_ticks(**INTEL),
                                                        strict=True))},
        "configs": main_s,
        "load_sweep": [{"load": load, **{c: summary(reports[f"load/{load}/{c}"]) for c in CONFIGS}}
                       for load in loads],
        "users_sweep": [{"message": m, "users": n, **{c: summary(reports[f"users/{m}/{n}/{c}"]) for c in CONFIGS}}
                        for m in messages for n in users],
        "critical_response_cycles": {c: _responses(out / "main" / c / "run") for c in CONFIGS},
        "seconds": round(time.monotonic() - t0, 1),
    }
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    plots = plot(results, out)
    say(table(results))
    for p in [out / "results.json", *plots]:
        say(f"  {os.path.relpath(p, Path.cwd())}")
    return 0


def _responses(run: Path) -> list[int]:
    tr = np.load(run / "trace.npz")
    return tr["critical_response"].tolist() if "critical_response" in tr else []


# ---------------------------------------------------------------------------- output

def table(res: dict) -> str:
    lines = [f"prionic paper experiment ({res['workload']}, {res['simulator']}"
             f"{', QUICK: not the figures' if res['quick'] else ''}): "
             f"interrupts saved {res['interrupts_saved_pct']}%, critical p99 reduced "
             f"{res['critical_delay_reduction_pct']}% against the conventional NIC", "",
             f"{'config':<13} {'irqs':>6} {'preempt':>7} {'crit p50/p99/max us':>24} {'p99 all':>8} {'miss':>5} "
             f"{'lost':>5} {'isr+kernel us':>13}  delivered"]
    for c, s in res["configs"].items():
        r = s["critical_response_us"]
        rs = "-" if r["p50"] is None else f"{r['p50']:.1f}/{r['p99']:.1f}/{r['max']:.1f}"
        pa = s["critical_response_all_us"]["p99"]
        pa_s = "lost" if pa is None else f"{pa:.1f}"
        dl = ", ".join(f"{k} {v:.3f}" for k, v in s["delivered_ratio"].items())
        lines.append(f"{c:<13} {s['interrupts']:>6} {s['interrupts_preempting_critical']:>7} {rs:>24} {pa_s:>8} "
                     f"{s['deadline_misses']:>5} {s['critical_lost']:>5} "
                     f"{s['cpu_isr_us'] + s['cpu_kernel_us']:>13.0f}  {dl}")
    return "\n".join(lines) + "\n"


LOST_US = 100_000.0   # where a plot puts a p99 that fell on a control frame never processed


def _p99(s: dict) -> float:
    """p99 of the critical task over every control frame sent (a lost one never finishes)."""
    v = s["critical_response_all_us"]["p99"]
    return LOST_US if v is None else v


def plot(res: dict, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    for c in CONFIGS:
        v = np.sort(np.array(res["critical_response_cycles"][c], dtype=float)) / 125.0
        if v.size:
            ax.step(v, np.arange(1, v.size + 1) / v.size, where="post", label=c)
    ax.set_xscale("log")
    ax.set_xlabel("critical task response time: frame arrival to task end (us)")
    ax.set_ylabel("fraction of control frames processed")
    ax.set_title("Critical task response time, main workload")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    paths.append(out / "critical_cdf.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    loads = [p["load"] * 100 for p in res["load_sweep"]]
    fig, (a1, a2, a3) = plt.subplots(3, 1, figsize=(7, 9), sharex=True, constrained_layout=True)
    for i, c in enumerate(CONFIGS):
        col = f"C{i}"
        a1.plot(loads, [p[c]["interrupts"] for p in res["load_sweep"]], "o-", color=col, label=c)
        a2.plot(loads, [_p99(p[c]) for p in res["load_sweep"]], "o-", color=col, label=c)
        a3.plot(loads, [p[c]["delivered_ratio"].get("control", 0.0) for p in res["load_sweep"]], "o-", color=col,
                label=f"{c}: control")
        a3.plot(loads, [p[c]["delivered_ratio"].get("bulk", 0.0) for p in res["load_sweep"]], "x--", color=col,
                label=f"{c}: bulk")
    a1.set_ylabel("interrupts (ISR runs)")
    a2.set_ylabel(f"critical task p99 (us)\n(lost: at {LOST_US / 1000:g} ms)")
    a2.set_yscale("log")
    a3.set_ylabel("delivered to the task")
    a3.set_xlabel("unregistered flood, % of 1 Gb/s (60-byte frames)")
    for a in (a1, a2, a3):
        a.grid(True, alpha=0.3)
        a.legend(fontsize="small")
    a1.set_title("Against offered flood load")
    paths.append(out / "load_sweep.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    for k, m in enumerate(sorted({p["message"] for p in res["users_sweep"]})):
        pts = [p for p in res["users_sweep"] if p["message"] == m]
        for i, c in enumerate(CONFIGS):
            ax.plot([p["users"] for p in pts], [_p99(p[c]) for p in pts], "o-" if k == 0 else "x--",
                    color=f"C{i}", label=f"{c}, {m // 1024} KB messages")
    ax.set_xlabel("concurrent TCP users (one message per ms each)")
    ax.set_ylabel(f"critical task p99 (us; lost: at {LOST_US / 1000:g} ms)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title("Against concurrent users")
    paths.append(out / "users_sweep.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)
    return paths


if __name__ == "__main__":
    sys.exit(main())
