"""`make bench`: how fast prionic's RTL simulates on each path, from one run on one machine (F26).

    .venv/bin/python -m bench.bench_sim [--short-us 10000] [--long-us 1000000] [--no-long]

All figures are simulated cycles per wall-clock second of the same full-chip traffic,
scenarios/mixed.toml (four queues, control loop, moderated bulk, DNS, a rate-limited and an
unregistered flood, about 110,000 frames per second of simulated time):

* ``bare_cycles_per_s``: the C++ Verilator harness of bench/bare/ playing the same frame
  file (no Python, no VPI, no tracing, zero-latency memory; it registers the control and
  bulk rules only, every queue immediate, so it moves fewer frames than the scenario):
  the speed limit of the RTL;
* ``fast``: the fast co-simulation path (tb/hdl/ player, memory, AXI4-Lite master and
  recorder; Python woken by interrupts), on Icarus and Verilator;
* ``bus``: the bus-model path (cocotbext-axi models, Python every cycle), same traffic.
  Both Verilator paths are built for speed (-O3, -O2), so the ratio compares like with
  like (tests build at -O1, where the bus path is slower);
* ``model_cycles_per_s``: the golden model fed with the fast Verilator run's inputs and
  compared (the scoreboard's own cost);
* ``system``: the full system (VexRiscv_Lite, firmware, NIC; bench/bench_sys.py) against
  the bare harness playing its frames, 10 ms of the paper's workload, the median of
  ``--system-runs`` pairs;
* ``long_run``: ``--long-us`` of the same traffic (default one second, 125 M cycles) on
  the fast path on Verilator, checked against the model: cycles, frames, wall time and
  scoreboard mismatches.

The rates measure each run's traffic phase (reset to the last register read): build,
start-up, stimulus generation and the model check are excluded and reported apart.
Ratios hold between machines; absolute figures vary with the machine and its load.
Writes out/bench/results.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from bench.bare.bench_bare import run_bare
from bench.bench_sys import measure as measure_system
from bench.bench_sys import print_row as print_system_row
from tb.scenario import load, run_scenario

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = ROOT / "scenarios" / "mixed.toml"
OUT = ROOT / "out" / "bench"


def scenario_for(duration_us: int, tag: str) -> Path:
    """scenarios/mixed.toml with its duration replaced, written under out/bench/."""
    text = SCENARIO.read_text()
    text, n = re.subn(r"(?m)^duration_us\s*=.*$", f"duration_us = {duration_us}", text)
    assert n == 1, f"{SCENARIO}: no single duration_us line"
    text = re.sub(r'(?m)^name\s*=.*$', f'name = "mixed-{tag}"', text)
    path = OUT / f"mixed-{tag}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def run(path: str, sim: str, scenario: Path, tag: str, progress: int = 0) -> dict:
    out = OUT / f"{path}-{sim}-{tag}"
    t0 = time.monotonic()
    rep = run_scenario(load(scenario), sim, out, path=path, progress=progress)
    rep["process_s"] = round(time.monotonic() - t0, 1)
    rep["out"] = str(out.relative_to(ROOT))
    rep["cycles_per_s"] = round(rep["cycles"] / rep["wall_s"]) if rep.get("wall_s") else None
    print(f"  {path:4} {sim:9} {rep['frames']:>7} frames {rep['cycles']:>11} cycles  "
          f"{rep['wall_s']:8.1f} s  {rep['cycles_per_s']:>9} cycles/s", flush=True)
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_sim", description=__doc__.splitlines()[0])
    ap.add_argument("--short-us", type=int, default=10_000, help="traffic of the path comparison (default 10000 us)")
    ap.add_argument("--long-us", type=int, default=1_000_000, help="traffic of the long run (default 1 s)")
    ap.add_argument("--no-long", action="store_true", help="skip the long run")
    ap.add_argument("--system-runs", type=int, default=5,
                    help="pairs of a full-system and a bare run, medians reported (default 5; 0 skips them)")
    args = ap.parse_args(argv)

    short = scenario_for(args.short_us, f"{args.short_us}us")
    print(f"prionic bench: {SCENARIO.relative_to(ROOT)} for {args.short_us} us on each path and simulator")
    fast = {sim: run("fast", sim, short, "short") for sim in ("icarus", "verilator")}
    bus = {sim: run("bus", sim, short, "short") for sim in ("icarus", "verilator")}
    same = {sim: (fast[sim]["cycles"], fast[sim]["frames"]) == (bus[sim]["cycles"], bus[sim]["frames"])
            for sim in fast}
    nq = load(short).num_queues
    bare = run_bare(stimulus=ROOT / fast["verilator"]["out"] / "frames.bin", num_queues=nq, strict=True)
    print(f"  bare verilator {bare['frames_played']:>7} frames {bare['cycles']:>11} cycles  "
          f"{bare['wall_s']:8.1f} s  {round(bare['cycles_per_s']):>9} cycles/s", flush=True)
    model_cps = round(fast["verilator"]["cycles"] / fast["verilator"]["model_s"]) \
        if fast["verilator"].get("model_s") else None

    results: dict = {
        "scenario": str(SCENARIO.relative_to(ROOT)),
        "short_us": args.short_us,
        "bare_cycles_per_s": round(bare["cycles_per_s"]),
        "fast": {sim: fast[sim]["cycles_per_s"] for sim in fast},
        "bus": {sim: bus[sim]["cycles_per_s"] for sim in bus},
        "model_cycles_per_s": model_cps,
        "same_run_on_both_paths": same,
        "ratios": {
            "fast_verilator_over_bare": round(fast["verilator"]["cycles_per_s"] / bare["cycles_per_s"], 3),
            "fast_over_bus": {sim: round(fast[sim]["cycles_per_s"] / bus[sim]["cycles_per_s"], 1) for sim in fast},
        },
        "detail": {"fast": fast, "bus": bus, "bare": bare},
    }
    if args.system_runs > 0:
        print(f"prionic bench: the full system, {args.system_runs} runs, against the bare harness")
        results["system"] = measure_system(args.system_runs)
    if not args.no_long:
        long = scenario_for(args.long_us, f"{args.long_us}us")
        print(f"prionic bench: long run, {args.long_us} us of the same traffic, fast path on Verilator")
        out = OUT / "fast-verilator-long"
        t0 = time.monotonic()
        try:
            rep = run("fast", "verilator", long, "long", progress=5_000_000)
            failed = None
        except AssertionError as exc:  # the scoreboard found mismatches: report them
            rep, failed = {}, str(exc)
        check = json.loads((out / "check.json").read_text()) if (out / "check.json").exists() else {}
        results["long_run"] = {
            "sim": "verilator", "simulated_us": args.long_us,
            "cycles": rep.get("cycles"), "frames": rep.get("frames"),
            "wall_s": rep.get("wall_s"), "cycles_per_s": rep.get("cycles_per_s"),
            "model_s": check.get("model_s"), "process_s": round(time.monotonic() - t0, 1),
            "mismatches": check.get("mismatches"), "error": failed,
        }
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n")

    print()
    print(f"{'path':<8} {'simulator':<10} {'cycles/s':>10}   ({args.short_us} us of {SCENARIO.name})")
    print(f"{'bare':<8} {'verilator':<10} {results['bare_cycles_per_s']:>10}")
    for sim in ("icarus", "verilator"):
        print(f"{'fast':<8} {sim:<10} {results['fast'][sim]:>10}")
    for sim in ("icarus", "verilator"):
        print(f"{'bus':<8} {sim:<10} {results['bus'][sim]:>10}")
    print(f"{'model':<8} {'python':<10} {results['model_cycles_per_s']:>10}")
    r = results["ratios"]
    print(f"fast/bare on Verilator {r['fast_verilator_over_bare']}; fast/bus "
          + ", ".join(f"{k} {v}x" for k, v in r["fast_over_bus"].items()))
    if "system" in results:
        print_system_row(results["system"])
    if "long_run" in results:
        lr = results["long_run"]
        print(f"long run: {lr['cycles']} cycles, {lr['frames']} frames in {lr['wall_s']} s "
              f"({lr['cycles_per_s']} cycles/s), model check {lr['model_s']} s, mismatches {lr['mismatches']}")
    print(f"\n  {(OUT / 'results.json').relative_to(ROOT)}")
    ok = all(same.values()) and results.get("long_run", {}).get("mismatches", 0) == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
