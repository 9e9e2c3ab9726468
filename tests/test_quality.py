"""Python code quality gates: ruff over the whole tree, mypy over the golden model."""

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
    r = _run("mypy", "model")
    assert r.returncode == 0, r.stdout + r.stderr
