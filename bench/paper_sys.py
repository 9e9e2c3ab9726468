"""The paper on the full system (F23, F28; docs/paper.md section 4).

``python -m bench.paper_sys [--configs a,b] [--sweeps load,users|none] [--duration-us N]
[--scenario FILE] [--jobs N]`` (or ``make paper SYSTEM=riscv``) runs the firmware's nine host
configurations (sw/fw/net/, one file per configuration) on VexRiscv_Lite beside prionic_rx,
under the traffic of scenarios/paper.toml (the main workload, then the flood-load and users
sweeps of ``make paper`` at half its duration), on Verilator built for speed, all on one RTL
build (three queues: the i210's sink is the third); every run is checked against the golden
model like every other run (tb/system/cocotb_sys.py ``PaperRunTest``). Writes
``out/paper-riscv/results.json`` (the keys of ``make paper``'s: ``configs``, ``vs``,
``strongest``, ``interrupts_saved_pct``, ``critical_delay_reduction_pct``, ``load_sweep``,
``users_sweep``; plus ``calibration``, the CPU model's costs as measured, and ``runs``, the
main runs' whole reports) and the plots of ``make paper``. The critical task's response times
are the firmware's own (mtime at the control law's end minus the frame's
write-back TIMESTAMP), cross-checked against the recorder's tlast edges.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import tomli_w

from bench.baselines import CONFIGS, LABELS, LOADS, MESSAGES, USERS, with_flood_load, with_users
from bench.paper import pct_less, strongest, versus
from bench.paper_out import STYLE, plot
from bench.paper_stats import MIN_P99_SAMPLES, summarise
from bench.paper_stats import versus as versus_seeds
from tb.runner import ROOT
from tb.scenario.report import percentiles
from tb.scenario.spec import CYCLES_PER_US
from tb.system.system import build_firmware, run_system

OUT = ROOT / "out" / "paper-riscv"
# the firmware's configurations (sw/fw/net/net.h FW_MODE_*, tb/system/system.py FW_MODES), as
# bench.baselines names and labels them, weakest first
SYS_CONFIGS = CONFIGS


def summary(rep: dict, registered: tuple[str, ...] = ()) -> dict:
    """One run's figures under the keys bench.paper's summaries use; ``delivered_ratio`` of
    the ``registered`` flows (the critical flow and the applications' of the scenario's [cpu])."""
    c = rep["critical"]
    return {
        "interrupts": rep["interrupts"],
        "nic_interrupts": rep["irq_pulses"],
        "critical_response_us": {k: c[f"{k}_us"] for k in ("p50", "p90", "p99", "max")},
        "critical_response_all_us": {"p99": c["p99_all_us"]},
        "deadline_misses": c["deadline_misses"],
        "critical_lost": c["lost"],
        "delivered_ratio": {n: v for n, v in rep["delivered"].items() if not registered or n in registered},
        "cpu_busy": rep["cpu"]["busy"],
        "cpu_share": rep["cpu"]["tasks"],
        "cycles": rep["cycles"]["last"],
    }


def calibrate(rep: dict, swdemux: dict | None = None) -> dict:
    """The host CPU model's costs (model/cpu.py PROFILES, in us at 125 MHz) as the firmware
    measured them in a prionic run (docs/paper.md section 4): an interrupt is the trap's
    entry and exit (the kernel's trap cycles less the ISR bodies, per trap) plus the ISR body
    (acknowledge and wake); a frame's receive work is the best-effort task's cycles per frame
    less its bytes; a byte is the checksum's cost over 2 KiB (timed at boot); the critical
    task's work is the control law (timed at boot); the demultiplexing of swdemux is its
    driver poll's cycles per frame (reap, port check, hand-over or return) in the swdemux run."""
    s = rep["summary"]
    mhz = 125.0
    trap = (s["cycles_trap"] - s["isr_cycles"]) / max(1, s["traps"])
    isr = trap + s["isr_cycles"] / max(1, s["isr_runs"])
    byte = s["csum_cycles_2k"] / 2048
    frame = (s["cycles_rx0"] - byte * rep["rx_bytes"][0]) / max(1, s["frames0"])
    out = {"isr_us": round(isr / mhz, 2), "frame_us": round(frame / mhz, 2), "byte_ns": round(byte / mhz * 1000, 1),
           "critical_us": round(s["wcet_cycles"] / mhz, 1), "app_us": 0.0,
           "cycles": {"trap": round(trap), "isr_body": round(s["isr_cycles"] / max(1, s["isr_runs"])),
                      "frame": round(frame), "byte": round(byte, 3), "critical": s["wcet_cycles"]}}
    if swdemux is not None:
        d = swdemux["summary"]
        demux = d["cycles_rx0"] / max(1, d["frames0"])
        out["demux_us"] = round(demux / mhz, 2)
        out["cycles"]["demux"] = round(demux)
    return out


def seed_figures(rep: dict, seed: int, registered: tuple[str, ...]) -> dict:
    """One run's figures under bench.paper_stats's FIGURES (its p99 only with at least
    MIN_P99_SAMPLES control frames: a 50 ms run has 100, so None)."""
    c = rep["critical"]
    apps = [n for n in registered[1:] if n in rep["delivered"]]
    return {"seed": seed, "interrupts": rep["interrupts"], "critical_p50_us": c["p50_us"],
            "critical_p99_us": c["p99_us"] if c["handled"] >= MIN_P99_SAMPLES else None,
            "critical_max_us": c["max_us"], "critical_lost": c["lost"],
            "best_effort": min((rep["delivered"][a] for a in apps), default=None), "cpu_busy": rep["cpu"]["busy"]}


def seeds_table(res: dict) -> str:
    """The main workload over the seeds, median [min, max] (docs/paper.md section 4)."""
    def f(sp: dict | None, fmt: str) -> str:
        return "-" if sp is None else f"{sp['median']:{fmt}} [{sp['min']:{fmt}}, {sp['max']:{fmt}}]"

    lines = [f"over {len(res['seeds'])} seeds, median [min, max]:",
             f"{'config':13s} {'irqs':>18s} {'crit worst us':>24s} {'lost':>14s} {'busy':>20s}  best effort"]
    for c, st in res["stats"]["main"].items():
        lines.append(f"{c:13s} {f(st['interrupts'], '.0f'):>18s} {f(st['critical_max_us'], '.1f'):>24s} "
                     f"{f(st['critical_lost'], '.0f'):>14s} {f(st['cpu_busy'], '.3f'):>20s}  "
                     f"{f(st['best_effort'], '.3f')}")
    return "\n".join(lines)


def strongest_seeds(st: dict) -> str:
    """The baseline with the lowest median worst response over the seeds, among those that
    lose no control frame on any seed (ties: fewer interrupts); a p99 needs more control
    frames than these runs have (bench.paper_stats.MIN_P99_SAMPLES)."""
    def key(c: str) -> tuple:
        s = st[c]
        return (s["critical_lost"]["max"] > 0, s["critical_max_us"]["median"], s["interrupts"]["median"])
    return min((c for c in st if c != "prionic"), key=key)


def table(res: dict) -> str:
    """The results as make paper prints them (docs/paper.md section 4)."""
    lines = [f"{'config':13s} {'irqs':>5s} {'nic':>5s} {'crit p50/p99/max us':>24s} {'p99 all':>8s} {'miss':>5s} "
             f"{'lost':>5s} {'busy':>5s}  delivered"]
    for c, s in res["configs"].items():
        r = s["critical_response_us"]
        trio = "/".join("-" if r[k] is None else f"{r[k]:.1f}" for k in ("p50", "p99", "max"))
        p99 = s["critical_response_all_us"]["p99"]
        dl = ", ".join(f"{n} {v:.3f}" for n, v in s["delivered_ratio"].items())
        lines.append(f"{c:13s} {s['interrupts']:5d} {s['nic_interrupts']:5d} {trio:>24s} "
                     f"{'lost' if p99 is None else f'{p99:.1f}':>8s} {s['deadline_misses']:5d} {s['critical_lost']:5d} "
                     f"{s['cpu_busy']:5.0%}  {dl}")
    return "\n".join(lines)


def run_config(config: str, scenario: dict, out: Path, fw: Path) -> dict:
    """One checked full-system run of ``scenario`` (a parsed scenario file) in the firmware's
    configuration ``config``, its files in ``out``; returns its report (console left out)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    path = out / "scenario.toml"
    path.write_text(tomli_w.dumps(scenario))
    rep = run_system("verilator", out / "run", fw, fast=True, testcase="PaperRunTest",
                     extra_env={"PRIONIC_SCENARIO": str(path), "PRIONIC_FW_CONFIG": config})
    rep.pop("console", None)
    k = rep["critical"]
    print(f"{out.relative_to(out.parents[2]) if len(out.parents) > 2 else out}: critical p50/p99 {k['p50_us']}/"
          f"{k['p99_us']} us, {k['handled']} of {k['sent']} handled, {rep['interrupts']} interrupts, busy "
          f"{rep['cpu']['busy']:.0%}; {rep['cycles']['last']} cycles in {rep['run_wall_s']} s", flush=True)
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "paper.toml"))
    ap.add_argument("--configs", default=",".join(SYS_CONFIGS), help="comma-separated, of " + ", ".join(SYS_CONFIGS))
    ap.add_argument("--duration-us", type=float, default=None, help="override the scenario's duration_us")
    ap.add_argument("--sweeps", default="load,users",
                    help="besides the main workload: load, users, both (the default) or none")
    ap.add_argument("--seeds", type=int, default=10,
                    help="seeds of the main workload (its traffic; default %(default)s: 1,000 control frames for a "
                         "pooled p99; the sweeps run the first)")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")), help="runs at a time")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--table", action="store_true", help="print the table of the last results.json only")
    args = ap.parse_args(argv)
    if args.table:
        res = json.loads((args.out / "results.json").read_text())
        print(table(res))
        if "stats" in res:
            print(seeds_table(res))
        return 0
    configs = [c for c in SYS_CONFIGS if c in args.configs.split(",")]
    unknown = set(args.configs.split(",")) - set(SYS_CONFIGS)
    if unknown or "prionic" not in configs:
        ap.error(f"--configs: {sorted(unknown) or 'prionic is needed'}; the firmware has {', '.join(SYS_CONFIGS)}")
    t0 = time.monotonic()
    fw = build_firmware(ROOT / "out" / "fw")
    raw = tomllib.loads(Path(args.scenario).read_text())
    if args.duration_us is not None:
        raw["duration_us"] = args.duration_us
    registered = (raw["cpu"]["critical"], *raw["cpu"].get("apps", ()))
    sweeps = {w.strip() for w in args.sweeps.split(",") if w.strip() and w.strip() != "none"}
    if sweeps - {"load", "users"}:
        ap.error("--sweeps: load, users, both (load,users) or none")
    sweep_us = raw["duration_us"] / 2
    seeds = list(range(raw.get("seed", 1), raw.get("seed", 1) + max(1, args.seeds)))
    jobs: list[tuple[str, str, dict, Path]] = [(f"main/{c}", c, raw, args.out / c) for c in configs]
    for sd in seeds[1:]:
        jobs += [(f"seed/{sd}/{c}", c, {**raw, "seed": sd}, args.out / "seeds" / str(sd) / c) for c in configs]
    for load in (LOADS if "load" in sweeps else ()):
        d = {**with_flood_load(raw, load), "duration_us": sweep_us}
        jobs += [(f"load/{load}/{c}", c, d, args.out / "load" / f"{load:g}" / c) for c in configs]
    for m in (MESSAGES if "users" in sweeps else ()):
        for n in USERS:
            d = {**with_users(raw, n, m), "duration_us": sweep_us}
            jobs += [(f"users/{m}/{n}/{c}", c, d, args.out / "users" / f"{m}-{n}" / c) for c in configs]
    print(f"paper on the full system: {len(jobs)} checked runs ({args.jobs} at a time), results in {args.out}",
          flush=True)
    runs: dict[str, dict] = {}
    # the first run builds the simulator; the others reuse its build
    runs[jobs[0][0]] = run_config(jobs[0][1], jobs[0][2], jobs[0][3], fw)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {key: ex.submit(run_config, c, d, out, fw) for key, c, d, out in jobs[1:]}
        runs.update({key: f.result() for key, f in futs.items()})
    main_s = {c: summary(runs[f"main/{c}"], registered) for c in configs}
    prio = main_s["prionic"]
    results = {
        "system": "VexRiscv_Lite + firmware (sw/fw) + prionic_rx at 125 MHz, Verilator",
        "workload": str(Path(args.scenario).resolve().relative_to(ROOT)) if Path(args.scenario).resolve()
        .is_relative_to(ROOT) else args.scenario,
        "duration_us": raw["duration_us"],
        "labels": {c: LABELS[c] for c in configs},
        "configs": main_s,
        "critical_response_cycles": {c: runs[f"main/{c}"]["critical_response_cycles"] for c in configs},
        "load_sweep": [{"load": load, **{c: summary(runs[f"load/{load}/{c}"], registered) for c in configs}}
                       for load in (LOADS if "load" in sweeps else ())],
        "users_sweep": [{"message": m, "users": n, **{c: summary(runs[f"users/{m}/{n}/{c}"], registered)
                                                      for c in configs}}
                        for m in (MESSAGES if "users" in sweeps else ()) for n in USERS],
        "seconds": round(time.monotonic() - t0, 1),
        "runs": {c: runs[f"main/{c}"] for c in configs},
    }
    results["calibration"] = calibrate(runs["main/prionic"], runs.get("main/swdemux"))
    # the main workload over the seeds (the first is the main run): spread, and prionic against
    # each baseline seed by seed (the same traffic on both), as make paper's statistics
    def seed_run(c: str, sd: int) -> dict:
        return runs[f"main/{c}" if sd == seeds[0] else f"seed/{sd}/{c}"]

    st = {c: summarise([seed_figures(seed_run(c, sd), sd, registered) for sd in seeds]) for c in configs}
    for c in configs:   # every control frame's response over all seeds: a p99 once there are enough
        resp = [v for sd in seeds for v in seed_run(c, sd)["critical_response_cycles"]]
        p99 = percentiles(resp)["p99"]
        st[c]["critical_samples"] = len(resp)
        st[c]["critical_p99_pooled_us"] = (round(p99 / CYCLES_PER_US, 2)
                                           if p99 is not None and len(resp) >= MIN_P99_SAMPLES else None)
    results["seeds"] = seeds
    results["stats"] = {"main": st}
    if "conventional" in main_s:
        conv = main_s["conventional"]
        results["interrupts_saved_pct"] = pct_less(conv["interrupts"], prio["interrupts"])
        results["critical_delay_reduction_pct"] = pct_less(conv["critical_response_us"]["p99"] or 0.0,
                                                           prio["critical_response_us"]["p99"] or 0.0)
    if len(configs) > 1:
        results["vs"] = {b: versus_seeds(st[b], st["prionic"]) for b in configs if b != "prionic"}
        results["run_vs"] = {b: versus(main_s[b], prio) for b in configs if b != "prionic"}
        results["strongest"] = strongest(main_s, results["load_sweep"], tuple(configs))
        results["strongest"]["name"] = strongest_seeds(st)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    for p in plot(results, args.out):
        print(f"  {p}")
    print(table(results))
    print(seeds_table(results))
    if "strongest" in results:
        b = results["strongest"]["main"]
        v = results["strongest"]["main_vs"]
        print(f"against the strongest baseline on the full system ({b}): interrupts saved "
              f"{v['interrupts_saved_pct']}%, critical p99 (every control frame) cut {v['critical_p99_cut_pct']}%, "
              f"CPU busy {v['cpu_busy'][0]:.0%} -> {v['cpu_busy'][1]:.0%}")
    print(f"{args.out / 'results.json'} ({results['seconds']} s)")
    return 0


assert set(SYS_CONFIGS) <= set(STYLE), "every configuration has a plot style in bench.paper"

if __name__ == "__main__":
    raise SystemExit(main())
