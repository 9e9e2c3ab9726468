"""The paper's main workload on the full system (F23, F28; docs/paper.md section 5).

``python -m bench.paper_sys [--duration-us N] [--scenario FILE]`` runs the firmware's prionic
configuration (sw/fw/main.c FW_MODE_PAPER) on VexRiscv_Lite beside prionic_rx, under the
traffic of scenarios/paper.toml, on Verilator built for speed; the run is checked against
the golden model like every other run (tb/cocotb_sys.py ``PaperRunTest``). Writes
``out/paper-riscv/results.json``: the critical task's response times as the firmware
measured them, interrupts, delivery per flow, the CPU's time per task, cycles and wall time.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from tb.runner import ROOT
from tb.system import build_firmware, run_system

OUT = ROOT / "out" / "paper-riscv"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "paper.toml"))
    ap.add_argument("--duration-us", type=float, default=None, help="override the scenario's duration_us")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    fw = build_firmware(ROOT / "out" / "fw")
    run_dir = args.out / "run-prionic"
    if run_dir.exists():
        shutil.rmtree(run_dir)
    env = {"PRIONIC_SCENARIO": str(Path(args.scenario).resolve())}
    if args.duration_us is not None:
        env["PRIONIC_DURATION_US"] = str(args.duration_us)
    rep = run_system("verilator", run_dir, fw, fast=True, testcase="PaperRunTest", extra_env=env)
    rep.pop("console", None)
    results = {"system": "VexRiscv_Lite + firmware (sw/fw) + prionic_rx, Verilator", "scenario": args.scenario,
               "configs": {"prionic": rep}}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    c = rep["critical"]
    print(f"prionic on the full system: critical p50/p99/max {c['p50_us']}/{c['p99_us']}/{c['max_us']} us, "
          f"{c['handled']} of {c['sent']} handled, {rep['interrupts']} interrupts, delivered {rep['delivered']}")
    print(f"{rep['cycles']['last']} cycles in {rep['run_wall_s']} s ({rep['cycles_per_s']} cycles/s); "
          f"{args.out / 'results.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
