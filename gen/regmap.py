"""Regenerate (or ``--check``) the files derived from docs/regmap.toml::

    python -m gen.regmap            # writes the seven generated files
    python -m gen.regmap --check    # exits 1 if any generated file is stale
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from gen import c_header, markdown, regblock, vh
from model.regmap import ROOT

VH_PATH = ROOT / "rtl" / "prionic_regs.vh"
MD_PATH = ROOT / "docs" / "registers.md"
H_PATH = ROOT / "rtl" / "prionic_regs.h"


def outputs() -> list[tuple[Path, Callable[[], str]]]:
    """Every generated file and the function that generates it (looked up at call time, so a
    test can patch one)."""
    return [(VH_PATH, vh.gen_verilog), (ROOT / "rtl" / "prionic_records.vh", vh.gen_verilog_records),
            (MD_PATH, markdown.gen_markdown), (H_PATH, c_header.gen_c_header),
            (ROOT / "rtl" / "prionic_regs.v", regblock.gen_regs_module),
            (ROOT / "rtl" / "prionic_regs_wires.vh", regblock.gen_regs_wires),
            (ROOT / "rtl" / "prionic_regs_conn.vh", regblock.gen_regs_conn)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if generated files are stale")
    args = ap.parse_args(argv)
    stale = []
    for path, gen in outputs():
        text = gen()
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        for p in stale:
            why = "missing" if not p.exists() else "differs from what docs/regmap.toml generates"
            print(f"stale: {p.relative_to(ROOT)} {why} (run `python -m gen.regmap`)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
