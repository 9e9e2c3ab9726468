"""The README's quoted `make sim` output is what `make sim` prints today (F21, F27).

A figure in the README that no longer matches a run is a defect; this test runs the
command the README shows (`python -m tb.scenario scenarios/default.toml`, what `make sim`
runs) and compares its report, line for line, with the block the README quotes under
"### `make sim`". On Verilator the first line names Verilator instead of Icarus, and the
run skips the waveform (a tracing build of its own would cost half a minute; the Icarus
run writes it as `make sim` does), so the two waveform lines are not expected there;
everything else must be identical: the traffic, the model check and every count are the
same on both simulators.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tb.runner import ROOT, SIMULATORS

README = ROOT / "README.md"


def quoted_make_sim_output() -> list[str]:
    """The first fenced block after the README's "### `make sim`" heading."""
    text = README.read_text()
    m = re.search(r"^### `make sim`\n(.*?)^```\n(.*?)^```", text, re.S | re.M)
    assert m, "README.md: no fenced block after the '### `make sim`' heading"
    return [line.rstrip() for line in m.group(2).splitlines()]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_readme_make_sim_output(sim: str, tmp_path: Path) -> None:
    expected = quoted_make_sim_output()
    assert expected[0].startswith("prionic scenario 'default' on icarus"), expected[0]
    extra: list[str] = []
    if sim != "icarus":
        expected[0] = expected[0].replace(" on icarus,", f" on {sim},", 1)
        expected = [line for line in expected if "/waves." not in line]
        extra = ["--no-waves"]
    out = tmp_path / "out" / "default"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "tb.scenario", str(ROOT / "scenarios" / "default.toml"),
                        "--sim", sim, "--out", str(out), "--progress", "0", "--build", "quick", *extra],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"the scenario failed (exit {r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    lines = [line.rstrip() for line in r.stdout.splitlines()]
    start = next((i for i, line in enumerate(lines) if line.startswith("prionic scenario 'default'")), None)
    assert start is not None, f"no report in the output:\n{r.stdout[-3000:]}"
    got = lines[start:start + len(expected)]
    diff = [(i, e, g) for i, (e, g) in enumerate(zip(expected, got, strict=False)) if e != g]
    assert len(got) == len(expected) and not diff, (
        "README.md's quoted `make sim` output differs from a fresh run; first difference:\n"
        + (f"  README: {diff[0][1]!r}\n  run:    {diff[0][2]!r}" if diff else f"  run ended after {len(got)} lines"))


def test_readme_is_a_five_minute_read() -> None:
    """The README is the front door: at most 200 lines; the rest lives in docs/ (F27)."""
    n = len(README.read_text().splitlines())
    assert n <= 200, f"README.md has {n} lines; move detail to docs/results.md or the spec"
