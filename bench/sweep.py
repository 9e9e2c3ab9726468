"""`make sweep` (F18, docs/sweep.md): the fast model alone over a grid of moderation settings
and flood loads, each point one second of traffic with the host CPU model.

``--host NAME`` (``make sweep HOST=NAME``) runs the moderation grid on one of the host
configurations of ``make paper`` (docs/host-cpu.md section 4; default ``prionic``): queue 0's
``ITR_ABS`` x ``ITR_FRAMES`` on that configuration's NIC and host. Every configuration as
``make paper`` programs it runs at every load beside the grid, for reference.

Points run on local processes (``--jobs``, default 2), or on a Dask cluster when a
scheduler address is given (``--scheduler host:port``, ``make sweep SCHEDULER=host:port``):
every point is a pure function of its parameters and seed, so both engines give identical
results. ``--confirm N`` also runs N chosen points on the RTL (shortened, through the same
engine) and reports how far the fast model is from it on the RTL's own traffic.

Writes ``out/sweep/results.json`` and ``out/sweep/sweep.png`` (interrupts saved against the
critical task's p99, one point per setting, coloured by load).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import tomli_w

from bench.baselines import CONFIGS, derive, with_flood_load
from model import regmap
from model.fast import DmaTiming, FastNic, QueueCfg, Trace, make_trace
from model.moderation import ModerationConfig

ROOT = Path(__file__).resolve().parent.parent

ABS_US = (25, 50, 100, 200, 500)        # queue 0's ITR_ABS (ticks = us)
FRAMES = (1, 8, 32, 128)                # queue 0's ITR_FRAMES
LOADS = (0.0, 0.05, 0.1, 0.25, 0.5)     # flood, fraction of 1 Gb/s in 60-byte frames


def grid(quick: bool = False, host: str = "prionic") -> list[dict]:
    """The sweep's points: every (load, abs, frames) of the moderation grid on configuration
    ``host``, and every configuration as written at every load."""
    if host not in CONFIGS:
        raise ValueError(f"host must be one of {', '.join(CONFIGS)}, not {host!r}")
    if quick:
        return [{"config": host, "load": 0.1, "itr_abs": a, "itr_frames": 32} for a in (50, 200)]
    pts = [{"config": host, "load": ld, "itr_abs": a, "itr_frames": f}
           for ld, a, f in itertools.product(LOADS, ABS_US, FRAMES)]
    pts += [{"config": c, "load": ld} for c in CONFIGS for ld in LOADS]
    return pts


def scenario_dict(raw: dict, p: dict) -> dict:
    d = derive(with_flood_load(raw, p["load"]), p["config"])
    if "itr_abs" in p:
        # queue 0's moderation from the grid: the absolute timer and the frame count (any
        # IMMEDIATE of the configuration off; its ITR_GAP kept)
        q0 = d["queue"][0]
        q0.pop("immediate", None)
        q0.update(itr_abs=p["itr_abs"], itr_frames=p["itr_frames"])
    return d


def load_dict(d: dict, tmp: Path):
    from tb.scenario import load

    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text(tomli_w.dumps(d))
    return load(tmp)


def queue_cfgs(sc) -> list[QueueCfg]:
    return [QueueCfg(q.ring_size, q.buf_size, ModerationConfig(q.itr_frames, q.itr_pkt, q.itr_abs, q.itr_gap,
                                                               q.immediate), prio=(sc.cpu.queue_prio[i]))
            for i, q in enumerate(sc.queues)]


def run_point(raw: dict, p: dict, duration_us: float, seed: int, workdir: str) -> dict:
    """One point on the fast model: a pure function of its arguments."""
    t0 = time.process_time()
    d = scenario_dict(raw, p)
    d["duration_us"] = duration_us
    key = "-".join(f"{k}{v}" for k, v in sorted(p.items()))
    sc = load_dict(d, Path(workdir) / f"{key}.toml")
    tr = make_trace(sc.flows, duration_us, seed)  # a scenario's flows are the fast model's FlowGen
    return evaluate(sc, tr, p, time.process_time() - t0)


def evaluate(sc, tr: Trace, p: dict, t_setup: float) -> dict:
    t0 = time.process_time()
    nic = FastNic(tr, queue_cfgs(sc), sc.rules, sc.default_action, sc.cpu, regmap.FIELDS, tick_div=sc.tick_div,
                  rule_src=sc.rule_src, rule_limit=sc.rule_limit, dma=DmaTiming())
    res = nic.run()
    st = res.host.stats
    crit_i = tr.names.index(sc.critical_flow)
    sent = {n: int((tr.flow == i).sum()) for i, n in enumerate(tr.names)}
    resp = np.array(st.critical_response, dtype=np.int64) / 125.0
    app = np.array(st.app_response, dtype=np.int64) / 125.0
    ports = {f.name: f.dport for f in sc.flows}
    return {
        **p,
        "frames": len(tr),
        "interrupts": st.isr_runs,
        "nic_interrupts": len(res.fires),
        "critical_p50_us": float(np.percentile(resp, 50)) if resp.size else None,
        "critical_samples": int(resp.size),
        "critical_p99_us": float(np.percentile(resp, 99)) if resp.size else None,
        "critical_max_us": float(resp.max()) if resp.size else None,
        "app_p50_us": float(np.percentile(app, 50)) if app.size else None,
        "app_p99_us": float(np.percentile(app, 99)) if app.size else None,
        "deadline_misses": st.deadline_misses,
        "critical_lost": sent[tr.names[crit_i]] - st.consumed.get(ports[sc.critical_flow], 0),
        "delivered_ratio": {n: round(st.consumed.get(ports[n], 0) / sent[n], 4) for n in sent
                            if ports[n] in sc.cpu.sockets and sent[n]},
        "cpu_share": {k: round(v / max(res.host.cpu.now, 1), 4) for k, v in res.host.cpu.busy.items()},
        "cpu_busy": round(sum(res.host.cpu.busy.values()) / max(res.host.cpu.now, 1), 4),
        "cpu_s": round(time.process_time() - t0 + t_setup, 3),
    }


def confirm_point(raw: dict, p: dict, duration_us: float, workdir: str, sim: str) -> dict:
    """A point on the RTL (checked against the golden model), and the fast model on the RTL's
    own traffic: the distance between the two."""
    d = scenario_dict(raw, p)
    d["duration_us"] = duration_us
    key = "confirm-" + "-".join(f"{k}{v}" for k, v in sorted(p.items()))
    wd = Path(workdir) / key
    sc = load_dict(d, wd / "scenario.toml")
    out = wd / "run"
    res = subprocess.run([sys.executable, "-m", "tb.scenario", str(wd / "scenario.toml"), "--sim", sim, "--no-waves",
                          "--progress", "0", "--out", str(out)], cwd=ROOT, capture_output=True, text=True, check=False)
    if res.returncode:
        raise RuntimeError(f"sweep: RTL confirmation {key} failed; see {wd}/run.log")
    rep = json.loads((out / "report.json").read_text())
    npz = np.load(out / "trace.npz")
    fidx = npz["flow"]
    proto = np.array([{"udp": 17, "tcp": 6}[sc.flows[i].proto] for i in fidx], dtype=np.int16)
    dport = np.array([sc.flows[i].dport for i in fidx], dtype=np.int32)
    tr = Trace(npz["t_last"], npz["length"].astype(np.int64), proto, dport, fidx.astype(np.int16),
               [f.name for f in sc.flows])
    fast = evaluate(sc, tr, p, 0.0)
    cpu = rep["cpu"]
    return {**p, "duration_us": duration_us, "rtl": {
        "interrupts": cpu["interrupts"], "critical_p50_us": cpu["critical_response_us"]["p50"],
        "critical_p99_us": cpu["critical_response_us"]["p99"], "critical_lost": cpu["critical_lost"]},
        "fast": {k: fast[k] for k in ("interrupts", "critical_p50_us", "critical_p99_us", "critical_lost")}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.sweep", description=__doc__.splitlines()[0])
    ap.add_argument("workload", nargs="?", default=str(ROOT / "scenarios" / "paper.toml"))
    ap.add_argument("--out", default=str(ROOT / "out" / "sweep"))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--scheduler", default=os.environ.get("SCHEDULER", ""),
                    help="a Dask scheduler address (host:port): run the points there")
    ap.add_argument("--duration-us", type=float, default=1_000_000.0, help="traffic per point (default 1 s)")
    ap.add_argument("--confirm", type=int, default=0, metavar="N", help="also run N points on the RTL (20 ms each)")
    ap.add_argument("--sim", default="verilator", choices=("verilator", "icarus"))
    ap.add_argument("--quick", action="store_true", help="two points: checks the pipeline")
    ap.add_argument("--host", default="prionic", choices=CONFIGS,
                    help="the configuration whose queue-0 moderation the grid sweeps (docs/host-cpu.md section 4)")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    raw = tomllib.loads(Path(args.workload).read_text())
    pts = grid(args.quick, args.host)
    seed = int(raw.get("seed", 1))
    work = str(out / "points")
    engine = f"dask ({args.scheduler})" if args.scheduler else f"{args.jobs} local processes"
    print(f"sweep: {len(pts)} points of {args.duration_us / 1e6:g} s on the fast model, {engine}", flush=True)
    results = run_all(pts, raw, args.duration_us, seed, work, args.jobs, args.scheduler)
    confirms = []
    if args.confirm:
        gridpts = [p for p in pts if "itr_abs" in p]
        chosen = gridpts[:: max(1, len(gridpts) // args.confirm)][: args.confirm]
        confirms = run_all(chosen, raw, 20_000.0, seed, work, args.jobs, args.scheduler, confirm=args.sim)
    wall = time.monotonic() - t0
    doc = {"workload": os.path.relpath(args.workload, ROOT), "host": args.host, "duration_us": args.duration_us,
           "engine": "dask" if args.scheduler else "local", "points": results, "confirm": confirms,
           "seconds": round(wall, 1), "cpu_seconds": round(sum(r["cpu_s"] for r in results), 1)}
    dd = out / "dma_distance.json"
    if dd.exists():
        doc["dma_distance"] = json.loads(dd.read_text())
    (out / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    png = plot(doc, out)
    print(f"sweep: {len(results)} points in {wall:.0f} s ({doc['cpu_seconds']} CPU-s)")
    for c in confirms:
        print(f"  confirm {c}")
    print(f"  {os.path.relpath(out / 'results.json', Path.cwd())}\n  {os.path.relpath(png, Path.cwd())}")
    return 0


def run_all(pts: list[dict], raw: dict, duration_us: float, seed: int, work: str, jobs: int, scheduler: str,
            confirm: str = "") -> list[dict]:
    """Every point through one engine, results in the order of ``pts``."""
    if confirm:
        fn, extra = confirm_point, (confirm,)
        args = [(raw, p, duration_us, work, *extra) for p in pts]
    else:
        fn = run_point
        args = [(raw, p, duration_us, seed, work) for p in pts]
    if scheduler:
        from distributed import Client

        with Client(scheduler) as client:
            futs = [client.submit(fn, *a, pure=False) for a in args]
            return client.gather(futs)
    if jobs <= 1:
        return [fn(*a) for a in args]
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(fn, *zip(*args, strict=True)))


def plot(doc: dict, out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = doc["points"]
    base = {p["load"]: p["interrupts"] for p in pts if p["config"] == "conventional"}
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(7.5, 8), sharex=True, constrained_layout=True)
    loads = sorted({p["load"] for p in pts})
    cmap = plt.get_cmap("viridis")
    host = doc.get("host", "prionic")
    for i, ld in enumerate(loads):
        sel = [p for p in pts if "itr_abs" in p and p["load"] == ld and p["critical_p99_us"] is not None]
        if not sel or not base.get(ld):
            continue
        saved = [100 * (1 - p["interrupts"] / base[ld]) for p in sel]
        col = cmap(i / max(len(loads) - 1, 1))
        a1.scatter(saved, [p["critical_p99_us"] for p in sel], color=col, label=f"flood {ld * 100:g}% of 1 Gb/s", s=18)
        a2.scatter(saved, [p["app_p99_us"] for p in sel], color=col, s=18)
    a1.set_ylabel("critical task p99 (us)")
    a1.set_title(f"{host}: queue 0 moderation (ITR_ABS x ITR_FRAMES), fast model")
    a2.set_ylabel("best-effort frames p99, arrival to task end (us)")
    a2.set_yscale("log")
    a2.set_xlabel("interrupts saved against the conventional NIC at the same load (%)")
    for a in (a1, a2):
        a.grid(True, which="both", alpha=0.3)
    if a1.get_legend_handles_labels()[0]:
        a1.legend(fontsize="small")
    path = out / "sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


if __name__ == "__main__":
    sys.exit(main())
