"""Scenarios (F21, F22): a TOML file of traffic sources and NIC/host settings, run on the RTL
with the full testbench (so every run is also checked against the model), and turned
into a text and JSON report, an FST waveform and a GTKWave save file.

    python -m tb.scenario scenarios/default.toml [--sim icarus|verilator] [--out DIR]

``make sim`` runs the default scenario. The file format is documented in
scenarios/README.md; this module is its reference implementation.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
from pathlib import Path

from tb.scenario.report import plot_report
from tb.scenario.run import run_scenario, wave_format
from tb.scenario.spec import ROOT, ScenarioError, load


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tb.scenario", description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "default.toml"))
    ap.add_argument("--sim", choices=("icarus", "verilator"), help="override the scenario's simulator")
    ap.add_argument("--path", choices=("fast", "bus"), default="fast",
                    help="fast: HDL player, memory and recorder, Python woken by interrupts (default); "
                         "bus: cocotbext-axi models, Python every cycle")
    ap.add_argument("--out", help="output directory (default out/<scenario name>)")
    ap.add_argument("--no-waves", action="store_true", help="skip the waveform (faster)")
    ap.add_argument("--progress", type=int, default=2_000_000, metavar="CYCLES",
                    help="fast path: print progress every CYCLES simulated cycles (0: never)")
    ap.add_argument("--build", choices=("speed", "quick"), default="speed",
                    help="Verilator: build for run speed (-O2, default; pays off after a few ms of "
                         "traffic) or quickly (-O1, as the tests build; for short runs)")
    args = ap.parse_args(argv)
    try:
        sc = load(args.scenario)
    except ScenarioError as exc:
        print(f"prionic: {exc}", file=sys.stderr)
        return 2
    sim = args.sim or sc.simulator
    out = Path(args.out or ROOT / "out" / sc.name).resolve()
    if out.exists():
        shutil.rmtree(out)
    waves = not args.no_waves
    print(f"prionic: running scenario '{sc.name}' ({sc.path}) on {sim}, {args.path} path, "
          f"{sc.duration_us} us of traffic (Ctrl-C stops it and reports what ran)")
    # Ctrl-C goes to the simulator, whose test stops the traffic, drains and reports
    old = signal.signal(signal.SIGINT, signal.SIG_IGN if args.path == "fast" else signal.default_int_handler)
    try:
        run_scenario(sc, sim, out, path=args.path, waves=waves, progress=args.progress,
                     optimize=args.build == "speed", seed=sc.seed)
    finally:
        signal.signal(signal.SIGINT, old)
    plot_report(out)
    files = ["report.txt", "report.json", "report.png"] + ([f"waves.{wave_format(sim)}", "waves.gtkw"] if waves else [])
    print()
    print((out / "report.txt").read_text())
    rel = os.path.relpath(out, Path.cwd())
    for f in files:
        status = "" if (out / f).exists() else "  (MISSING)"
        print(f"  {rel}/{f}{status}")
    if waves:
        again = "" if args.out else f"   (or: make waves SCENARIO={os.path.relpath(sc.path, ROOT)})"
        print(f"\nopen the waveform: gtkwave {rel}/waves.gtkw{again}")
    return 1 if any(not (out / f).exists() for f in files) else 0
