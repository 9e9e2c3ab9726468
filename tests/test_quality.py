"""Python code quality gates: ruff over the whole tree, mypy over the golden model and the generators."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    assert shutil.which(cmd[0]), f"{cmd[0]} not on PATH: run through `make test` (it installs requirements.txt)"
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_clean():
    r = _run("ruff", "check", "--output-format", "concise", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_model_is_typed():
    r = _run("mypy", "model", "gen")
    assert r.returncode == 0, r.stdout + r.stderr


def test_tb_does_not_import_tests():
    """F27: tb/ (testbenches, runner library), bench/, model/ and gen/ never import from tests/ (launchers only)."""
    import re

    pattern = re.compile(r"^\s*(from\s+tests[\s.]|import\s+tests\b)", re.M)
    offenders = [str(p.relative_to(ROOT)) for d in ("tb", "bench", "model", "gen") for p in (ROOT / d).rglob("*.py")
                 if pattern.search(p.read_text())]
    assert not offenders, f"these import from tests/: {offenders}"
