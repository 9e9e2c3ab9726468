"""The full system's simulation speed against the bare harness, same traffic (F28, docs/system.md).

    .venv/bin/python -m bench.bench_sys [--runs 5] [--short]

10 ms of scenarios/paper.toml's workload in the firmware's prionic configuration
(tb/system/cocotb_sys.py PaperRunTest: VexRiscv_Lite running the firmware of sw/fw/ beside
prionic_rx, about 1.35 M cycles; ``--short``: the make-test run instead, about 125,000) on
Verilator, built for speed like the fast path's bench runs (-O3, -O2), each run checked
against the golden model by its cocotb test; each followed by the bare C++ harness of
bench/bare/ playing the frame file the first run wrote (the same frames at the same edges)
for the same number of cycles. Both rates count the cycles from reset's release to the
firmware's exit and divide by that span's wall-clock time (the system's image load,
start-up and model check excluded; bench/bare reports its own loop the same way).
``--runs`` pairs; the median of each side and of the pairs' ratios is reported, with the
spread. ``make bench`` calls :func:`measure`;
the figures go to out/bench/results.json under ``system``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from bench.bare.bench_bare import run_bare
from tb.runner import ROOT
from tb.system.system import build_firmware, run_system

OUT = ROOT / "out" / "bench"


# the long run: scenarios/paper.toml's first PAPER_US in the firmware's prionic configuration
PAPER_US = 10_000
# the NIC of both sides: the bare harness's build (two queues, what the prionic configuration
# uses), not the system top's default three (the i210 configuration's sink)
QUEUES = 2


def _system_run(run_dir: Path, fw: Path, long: bool) -> dict:
    case = {"testcase": "PaperRunTest", "extra_env": {"PRIONIC_DURATION_US": str(PAPER_US)}} if long else {}
    rep = run_system("verilator", run_dir, fw, fast=True, waves=False, parameters={"NUM_QUEUES": QUEUES}, **case)
    span = rep["cycles"]["exit"]
    return {"cycles": span, "wall_s": rep["run_wall_s"], "cycles_per_s": span / rep["run_wall_s"],
            "frames_bin": run_dir / "frames.bin"}


def measure(runs: int = 5, out: Path = OUT / "system", long: bool = True) -> dict:
    """``runs`` pairs of a full-system run and a bare-harness run of the first system run's
    frames, one after the other, so that a machine whose speed drifts (a shared host) moves
    both sides of a pair alike: ``long``, 10 ms of the paper's workload (about 1.3 M cycles),
    else the make-test run (about 125,000 cycles, under a second: at the mercy of the
    machine's noise). The ratio reported is the median of the pairs' ratios."""
    fw = build_firmware(ROOT / "out" / "fw")
    sysruns = [_system_run(out / "run0", fw, long)]
    first = sysruns[0]   # the harness plays this run's frames for this run's cycles

    def bare_run() -> dict:
        return run_bare(stimulus=first["frames_bin"], cycles=first["cycles"], num_queues=QUEUES, strict=True)

    bare = [bare_run()]
    for i in range(1, runs):
        sysruns.append(_system_run(out / f"run{i}", fw, long))
        bare.append(bare_run())
    sys_cps = [r["cycles_per_s"] for r in sysruns]
    bare_cps = [b["cycles_per_s"] for b in bare]
    ratios = [s / b for s, b in zip(sys_cps, bare_cps, strict=True)]
    return {
        "runs": runs,
        "workload": f"scenarios/paper.toml, {PAPER_US} us, prionic firmware" if long else "the make-test run",
        "cycles": first["cycles"],
        "system_cycles_per_s": round(statistics.median(sys_cps)),
        "system_range": [round(min(sys_cps)), round(max(sys_cps))],
        "bare_cycles_per_s": round(statistics.median(bare_cps)),
        "bare_range": [round(min(bare_cps)), round(max(bare_cps))],
        "system_over_bare": round(statistics.median(ratios), 3),
        "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)],
        "stimulus": str(first["frames_bin"].relative_to(ROOT)),
    }


def print_row(res: dict) -> None:
    print(f"system   verilator  {res['system_cycles_per_s']:>10}   (VexRiscv_Lite + firmware + NIC, {res['workload']}, "
          f"{res['cycles']} cycles, median of {res['runs']}; range {res['system_range'][0]}-{res['system_range'][1]})")
    print(f"bare     verilator  {res['bare_cycles_per_s']:>10}   (the same frames and cycles; range "
          f"{res['bare_range'][0]}-{res['bare_range'][1]})")
    print(f"system/bare {res['system_over_bare']}   (median of {res['runs']} pairs; range "
          f"{res['ratio_range'][0]}-{res['ratio_range'][1]})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_sys", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5,
                    help="pairs of a system and a bare run; the medians are reported (default 5)")
    ap.add_argument("--short", action="store_true", help="the make-test run instead of 10 ms of the paper's workload")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    res = measure(args.runs, long=not args.short)
    print_row(res)
    path = OUT / "system.json"
    path.write_text(json.dumps(res, indent=2) + "\n")
    print(f"\n  {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
