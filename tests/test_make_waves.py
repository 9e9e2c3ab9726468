"""`make waves` (F22): the scenario's name defaults to its file's stem, as for `make sim`,
and a GTKWave that cannot open a display is an error, not a silent success. GTKWave
itself is stood in for by a script that behaves as GTKWave 3.3 does without a display
(prints "Could not initialize GTK!" and exits 0), so the test needs no GTKWave."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


FAKE_GTKWAVE = """#!/bin/sh
echo "Could not initialize GTK!  Is DISPLAY env var/xhost set?"
exit 0
"""


def _waves(scenario: Path, fake_bin: Path, **env: str) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(env)
    e["PATH"] = f"{fake_bin}{os.pathsep}{e['PATH']}"
    return subprocess.run(["make", "--no-print-directory", "waves", f"SCENARIO={scenario}"], cwd=ROOT, env=e,
                          capture_output=True, text=True, timeout=60)


def test_make_waves_names_and_display(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gtkwave").write_text(FAKE_GTKWAVE)
    (fake / "gtkwave").chmod(0o755)
    nameless = tmp_path / "my_stem_name.toml"
    nameless.write_text("duration_us = 10\n")
    r = _waves(nameless, fake)
    assert r.returncode != 0 and "out/my_stem_name/waves.gtkw not there" in r.stderr, r.stderr
    # a save file there, no display: an error that says so
    out = ROOT / "out" / "my_stem_name"
    out.mkdir(parents=True, exist_ok=True)
    try:
        (out / "waves.gtkw").write_text("[dumpfile] \"waves.fst\"\n")
        r = _waves(nameless, fake)
        assert r.returncode != 0 and "no display" in r.stderr, r.stderr
        r = _waves(nameless, fake, DISPLAY=":77")
        assert r.returncode != 0 and "could not open the display" in r.stderr, r.stderr
    finally:
        shutil.rmtree(out)


def test_save_file_signals_checked_against_the_hierarchy() -> None:
    """F22: the fast path's scenario test resolves every signal of the save file in the
    simulator's hierarchy (tb/fast/cocotb_fast.py, on Icarus) with ``missing_signals``; here on
    a stand-in hierarchy: complete, it reports nothing; with a register renamed and a queue's
    generate block missing, it names exactly those."""
    from types import SimpleNamespace as NS

    from tb.scenario.gtkwave import MODERATION_REGS, gtkw_signals, missing_signals

    def hierarchy(nq: int, drop: str = "") -> NS:
        top: dict = {}
        for name in gtkw_signals(nq):
            node = top
            parts = name.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = 0

        def build(d: dict):
            kids = {}
            for k, v in d.items():
                if k == drop:
                    continue
                m = re.fullmatch(r"(\w+)\[(\d+)\]", k)
                if m:
                    kids.setdefault(m[1], []).append(build(v))
                else:
                    kids[k] = build(v) if isinstance(v, dict) else v
            return NS(**kids)
        return build(top)

    assert missing_signals(hierarchy(2), 2) == []
    gone = missing_signals(hierarchy(2, drop="state_reg"), 2)
    assert gone == ["dma_inst.write_inst.state_reg"]
    # a 2-queue build against a 3-queue save file: queue 2's registers are missing
    regs = [n.split("[")[0] for n, _f in MODERATION_REGS]
    assert missing_signals(hierarchy(2), 3) == [f"moderation_inst.g_queue[2].{n}" for n in regs]
