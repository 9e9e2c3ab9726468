"""`make paper` (F23, docs/paper.md): prionic against the baselines a reviewer would name.

Every run is a scenario on the RTL (fast path, Verilator) with the host CPU model in the
loop (docs/host-cpu.md), checked against the golden model like any scenario. From one
workload file (default scenarios/paper.toml, the prionic configuration) it derives the six
baselines of :data:`CONFIGS` (docs/paper.md section 1): the same RTL build programmed as a
NIC without prionic's features would be, and the host configuration that goes with it.

Then it runs the main workload on all seven, a sweep of the flood's offered load (fraction
of 1 Gb/s in 60-byte frames), and a sweep of concurrent TCP users (1 KB and 10 KB messages),
and writes ``out/paper/results.json`` (``--profile cortex-m``: ``out/paper-cortex-m/``) and
the plots. ``--quick`` shortens every run and checks the pipeline, not the figures; the
figures in the README come from the full run.
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

from model.cpu import PROFILES
from model.moderation import intel_ticks

ROOT = Path(__file__).resolve().parent.parent

# The host configurations of docs/host-cpu.md section 4 as the paper runs them, weakest first;
# every one but the last is a NIC that the same RTL build can be programmed to be, without any
# of prionic's own features (no drop of unregistered flows, no per-priority moderation, no gating).
CONFIGS = ("conventional", "rtos", "napi", "ratelimit", "swdemux", "multiqueue", "prionic")
BASELINES = CONFIGS[:-1]
LABELS = {
    "conventional": "conventional: one queue, an irq per frame, softirq above every task",
    "rtos": "RTOS network task: one queue, e1000e ITR, one network task below the critical task",
    "napi": "Linux NAPI: one queue, e1000e ITR, masked budgeted polling, then ksoftirqd",
    "ratelimit": "rate-limited ISR: an irq per frame up to 3 per 2 ms, then polling every 1 ms",
    "swdemux": "software demux: early demultiplexing in the driver, protocol work at the receiver's priority",
    "multiqueue": "commodity multiqueue: n-tuple steering of the control port to its own queue, a task per queue",
    "prionic": "prionic: classification, drop, per-priority queues and moderation, RUN_PRIO gating",
}
# e1000e with its fixed-rate settings: RxIntDelay (RDTR) 0, RxAbsIntDelay (RADV) 8 (x 1.024 us,
# ignored while RDTR is 0), InterruptThrottleRate 20000/s, i.e. ITR = 1e9 / (20000 * 256) = 195
INTEL = {"rdtr": 0, "radv": 8, "itr": 195}
WIRE_BITS_60B = 84 * 8          # a 60-byte frame with preamble, SFD, FCS... and gap on the wire: 84 bytes
LINE_MBPS = 1000.0              # the device's port: 1 GbE
LOADS = (0.0, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
USERS = (1, 2, 4, 8)
MESSAGES = (1024, 10240)
# task priorities of the configurations with a network task (rtos, ratelimit; ksoftirqd of napi)
APP_PRIO, NET_PRIO, CRITICAL_PRIO = 1, 2, 3


# ---------------------------------------------------------------------------- configs

def _intel_moderation(q: dict, tick_div: int) -> None:
    """Queue ``q`` programmed as an e1000e with :data:`INTEL` (timing.md section 6)."""
    rdtr, radv, itr = intel_ticks(**INTEL, tick_div=tick_div)
    if rdtr == 0:   # Intel ignores RADV while RDTR is 0: an interrupt per frame, throttled by ITR
        q.update(immediate=True, itr_gap=itr)
    else:
        q.update(itr_pkt=rdtr, itr_abs=radv, itr_gap=itr)


def derive(raw: dict, config: str, profile: str | None = None) -> dict:
    """The scenario dict of ``config`` from the prionic workload ``raw`` (docs/paper.md
    section 1 has the table); ``profile`` names a cost profile (docs/host-cpu.md section 3)."""
    if config not in CONFIGS:
        raise ValueError(f"config must be one of {CONFIGS}")
    d = copy.deepcopy(raw)
    cpu = d.setdefault("cpu", {})
    if profile is not None:
        cpu["profile"] = profile
    if config == "prionic":
        return d
    queues = d["queue"]
    tick_div = d.get("nic", {}).get("tick_div", 125)
    cpu["mode"] = config if config != "conventional" else "kernel"
    cpu["gate"] = False
    d["name"] = f"{raw.get('name', 'paper')}-{config}"
    d.setdefault("nic", {})["default_action"] = 0       # no hardware drop: everything is received
    if config == "multiqueue":
        # the control flow's port steered to its own immediate queue (its rule as written),
        # everything else to queue 0 with e1000e moderation; a receive task per queue
        crit_port = next(f["dport"] for f in raw["flow"] if f["name"] == cpu["critical"])
        d["rule"] = [r for r in raw.get("rule", []) if r.get("dport") == crit_port]
        q0 = {k: v for k, v in queues[0].items() if k in ("ring_size", "buf_size")}
        _intel_moderation(q0, tick_div)
        d["queue"] = [q0] + [{**queues[1], "immediate": True}] + list(queues[2:])
        return d
    # one queue: the same number of buffers in one ring (at most the 128 the host model lays
    # out per ring); the other queues of the same build stay configured but receive nothing
    q0 = {"ring_size": min(128, sum(q.get("ring_size", 16) for q in queues)),
          "buf_size": max(q.get("buf_size", 2048) for q in queues)}
    if config in ("rtos", "napi"):
        _intel_moderation(q0, tick_div)
    else:
        q0["immediate"] = True
    d["queue"] = [q0] + [{"ring_size": 2, "buf_size": 64} for _ in queues[1:]]
    d.pop("rule", None)
    cpu.pop("queue_prio", None)
    if config in ("rtos", "napi", "ratelimit"):
        cpu.update(app_prio=APP_PRIO, net_prio=NET_PRIO, critical_prio=CRITICAL_PRIO)
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


def best_effort(s: dict, critical: str = "control") -> dict[str, float]:
    return {n: r for n, r in s["delivered_ratio"].items() if n != critical}


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
    ap.add_argument("--sweeps", default="load,users",
                    help="which sweeps to run besides the main workload: load, users, both (default) or none")
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
        print(table(res))
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
    say(f"paper: {len(jobs)} checked RTL runs on {args.sim} ({args.jobs} at a time), results in {out}")
    # the first run builds the simulator; the others reuse its build
    reports = {jobs[0][0]: run_one(jobs[0][1], jobs[0][2], args.sim, say)}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {key: ex.submit(run_one, d, o, args.sim, say) for key, d, o in jobs[1:]}
        reports.update({key: f.result() for key, f in futs.items()})

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
        "vs": {b: versus(main_s[b], prio) for b in configs if b != "prionic"},
        "strongest": strongest(main_s, load_sweep, configs),
        "load_sweep": load_sweep,
        "users_sweep": users_sweep,
        "critical_response_cycles": {c: _responses(out / "main" / c / "run") for c in configs},
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

def _fmt_pct(v: float | None) -> str:
    return "-" if v is None else f"{v:g}%"


def table(res: dict) -> str:
    st = res.get("strongest", {})
    head = [f"prionic paper experiment ({res['workload']}, {res['simulator']}, cost profile "
            f"{res.get('profile', 'default')}{', QUICK: not the figures' if res['quick'] else ''})"]
    if st:
        b = st["main"]
        v = st["main_vs"]
        head.append(f"against the strongest baseline ({b}): interrupts saved {_fmt_pct(v['interrupts_saved_pct'])}, "
                    f"critical p99 (every control frame) cut {_fmt_pct(v['critical_p99_cut_pct'])}, CPU busy "
                    f"{100 * v['cpu_busy'][0]:.0f}% -> {100 * v['cpu_busy'][1]:.0f}%")
    head.append(f"against the conventional NIC: interrupts saved {res['interrupts_saved_pct']}%, critical p99 "
                f"reduced {res['critical_delay_reduction_pct']}%")
    lines = [*head, "",
             f"{'config':<13} {'irqs':>6} {'preempt':>7} {'crit p50/p99/max us':>24} {'p99 all':>8} {'miss':>5} "
             f"{'lost':>5} {'busy':>5}  delivered"]
    for c, s in res["configs"].items():
        r = s["critical_response_us"]
        rs = "-" if r["p50"] is None else f"{r['p50']:.1f}/{r['p99']:.1f}/{r['max']:.1f}"
        pa = s["critical_response_all_us"]["p99"]
        pa_s = "lost" if pa is None else f"{pa:.1f}"
        dl = ", ".join(f"{k} {v:.3f}" for k, v in s["delivered_ratio"].items())
        busy = s.get("cpu_busy", sum(s["cpu_share"].values()))
        lines.append(f"{c:<13} {s['interrupts']:>6} {s['interrupts_preempting_critical']:>7} {rs:>24} {pa_s:>8} "
                     f"{s['deadline_misses']:>5} {s['critical_lost']:>5} {100 * busy:>4.0f}%  {dl}")
    if st.get("load"):
        lines += ["", "strongest baseline per flood load (lowest critical p99 over every control frame):"]
        for p in st["load"]:
            v = p["vs"]
            lines.append(f"  {100 * p['load']:>5g}%  {p['config']:<12} "
                         f"irqs {v['interrupts'][0]:>5} vs {v['interrupts'][1]:>4}"
                         f"   p99 all {_us(v['critical_p99_all_us'][0])} vs {_us(v['critical_p99_all_us'][1])}"
                         f"   lost {v['control_lost'][0]} vs {v['control_lost'][1]}"
                         f"   busy {100 * v['cpu_busy'][0]:.0f}% vs {100 * v['cpu_busy'][1]:.0f}%")
    return "\n".join(lines) + "\n"


def _us(v: float | None) -> str:
    return "lost" if v is None else f"{v:.1f} us"


LOST_US = 100_000.0   # where a plot puts a p99 that fell on a control frame never processed


def _p99(s: dict) -> float:
    """p99 of the critical task over every control frame sent (a lost one never finishes)."""
    v = s["critical_response_all_us"]["p99"]
    return LOST_US if v is None else v


STYLE = {c: (f"C{i}", m) for i, (c, m) in enumerate(zip(CONFIGS, "osv^Dx*", strict=True))}


def plot(res: dict, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = list(res["configs"])
    paths = []
    fig, ax = plt.subplots(figsize=(8, 4.8), constrained_layout=True)
    for c in configs:
        v = np.sort(np.array(res["critical_response_cycles"][c], dtype=float)) / 125.0
        if v.size:
            ax.step(v, np.arange(1, v.size + 1) / v.size, where="post", label=c, color=STYLE[c][0],
                    linewidth=2.5 if c == "prionic" else 1.3)
    ax.set_xscale("log")
    ax.set_xlabel("critical task response time: frame arrival to task end (us)")
    ax.set_ylabel("fraction of control frames processed")
    ax.set_title("Critical task response time, main workload")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    paths.append(out / "critical_cdf.png")
    fig.savefig(paths[-1], dpi=100)
    plt.close(fig)

    if res["load_sweep"]:
        paths.append(_plot_loads(plt, res, configs, out))
    if res["users_sweep"]:
        paths.append(_plot_users(plt, res, configs, out))
    return paths


def _plot_loads(plt, res: dict, configs: list[str], out: Path) -> Path:
    loads = [p["load"] * 100 for p in res["load_sweep"]]
    fig, axs = plt.subplots(4, 1, figsize=(8, 12), sharex=True, constrained_layout=True)
    a1, a2, a3, a4 = axs
    for c in configs:
        col, mk = STYLE[c]
        lw = 2.5 if c == "prionic" else 1.2
        pts = res["load_sweep"]
        a1.plot(loads, [p[c]["interrupts"] for p in pts], marker=mk, color=col, lw=lw, label=c)
        a2.plot(loads, [_p99(p[c]) for p in pts], marker=mk, color=col, lw=lw, label=c)
        a3.plot(loads, [min(best_effort(p[c]).values(), default=0.0) for p in pts], marker=mk, color=col, lw=lw,
                label=c)
        a4.plot(loads, [100 * p[c].get("cpu_busy", sum(p[c]["cpu_share"].values())) for p in pts], marker=mk,
                color=col, lw=lw, label=c)
    a1.set_ylabel("interrupts (ISR runs)")
    a1.set_yscale("symlog", linthresh=10)
    a2.set_ylabel(f"critical task p99 (us)\n(lost: at {LOST_US / 1000:g} ms)")
    a2.set_yscale("log")
    a3.set_ylabel("best-effort flow delivered\n(the lower of telemetry, bulk)")
    a4.set_ylabel("CPU busy (%)")
    a4.set_xlabel("unregistered flood, % of 1 Gb/s (60-byte frames)")
    a4.set_xscale("symlog", linthresh=2)
    a4.set_xlim(-0.3, max(loads) * 1.1 if loads else 1)
    a4.set_xticks(loads, [f"{v:g}" for v in loads])
    for a in axs:
        a.grid(True, alpha=0.3)
    a1.legend(fontsize="small", ncol=2)
    a1.set_title("Against offered flood load")
    path = out / "load_sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _plot_users(plt, res: dict, configs: list[str], out: Path) -> Path:
    fig, ax = plt.subplots(figsize=(11, 4.8), constrained_layout=True)
    for k, m in enumerate(sorted({p["message"] for p in res["users_sweep"]})):
        pts = [p for p in res["users_sweep"] if p["message"] == m]
        for c in configs:
            col, mk = STYLE[c]
            ax.plot([p["users"] for p in pts], [_p99(p[c]) for p in pts], marker=mk, ls="-" if k == 0 else "--",
                    color=col, label=f"{c}, {m // 1024} KB messages")
    ax.set_xlabel("concurrent TCP users (one message per ms each)")
    ax.set_ylabel(f"critical task p99 (us; lost: at {LOST_US / 1000:g} ms)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title("Against concurrent users")
    path = out / "users_sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


if __name__ == "__main__":
    sys.exit(main())
