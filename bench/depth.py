"""Logic depth between flip-flops in a ``synth_ecp5`` netlist, every endpoint at once (F25).

    .venv/bin/python -m bench.depth out/synth/top-8bit/netlist.json [--top prionic_rx] [--worst 40]

nextpnr reports one critical path per clock; to close timing on a whole top one wants every
path that is too deep, before place and route (which takes minutes on a top). This walks the
mapped netlist (LUT4, PFUMX, L6MUX21, CCU2C, TRELLIS_DPR16X4 read ports) from every
register output (TRELLIS_FF Q, DP16KD DO) to every register input and estimates each
endpoint's arrival with a flat delay per cell plus a flat routing delay per net that leaves
a slice. The constants are rough fits to nextpnr-ecp5's speed-8 reports (a LUT and its net
about 0.8 ns): the figure ranks paths and counts LUT levels; nextpnr gives the real Fmax.
Top-level inputs start at 0 (out of context, as ``make synth`` runs).

Prints the endpoints with the largest estimate, each with its LUT levels, carry cells and the
start register of its worst path, grouped by the pair of instances they connect.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict

ROUTE = 0.60        # a net between slices
CLK_Q = 0.40        # TRELLIS_FF clock to Q
BRAM_CLK_Q = 3.30   # DP16KD clock to DO (no output register)
LUT = 0.20
MUX = 0.20          # PFUMX / L6MUX21 (the LUTs feeding it sit in its slice: no routing)
CARRY_IN = 0.35     # CCU2C A/B to COUT or S
CARRY_STEP = 0.06   # CIN to COUT
CARRY_OUT = 0.33    # CIN to S
DPR = 0.50          # TRELLIS_DPR16X4 RAD to DO
SETUP = 0.15


def short(cell: str) -> str:
    """A flip-flop's register name from yosys' mangled cell name."""
    return re.sub(r"(_TRELLIS_FF.*|_DP16KD.*|\$.*)$", "", cell)


def analyse(netlist: dict, top: str):
    mod = netlist["modules"][top]
    cells = mod["cells"]
    drv: dict[int, tuple[str, str]] = {}          # bit -> (cell, output port)
    for name, c in cells.items():
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        drv[b] = (name, port)
    memo: dict[int, tuple[float, int, int, str]] = {}   # bit -> (arrival, luts, carries, start)
    prev: dict[int, int] = {}                            # bit -> the input bit of its worst path

    def arrive(bit) -> tuple[float, int, int, str]:
        if not isinstance(bit, int) or bit not in drv:
            return (0.0, 0, 0, "(input)")
        if bit in memo:
            return memo[bit]
        memo[bit] = (0.0, 0, 0, "(loop)")
        name, port = drv[bit]
        c = cells[name]
        t = c["type"]
        conn = c["connections"]
        if t == "TRELLIS_FF":
            res = (CLK_Q, 0, 0, short(name))
        elif t == "DP16KD":
            res = (BRAM_CLK_Q, 0, 0, short(name) + " (BRAM)")
        elif t == "LUT4":
            b_in = max((conn[p][0] for p in "ABCD" if p in conn), key=lambda b: arrive(b)[0])
            best = arrive(b_in)
            prev[bit] = b_in
            res = (best[0] + ROUTE + LUT, best[1] + 1, best[2], best[3])
        elif t in ("PFUMX", "L6MUX21"):
            ins = [(p, conn[p][0]) for p in conn if c["port_directions"][p] == "input"]
            cand = []
            for p, b in ins:
                a = arrive(b)
                local = p in ("ALUT", "BLUT", "D0", "D1")
                cand.append(((a[0] + (0 if local else ROUTE) + MUX, a[1], a[2], a[3]), b))
            res, prev[bit] = max(cand, key=lambda r: r[0][0])
        elif t == "CCU2C":
            cand = []
            for p in ("A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1"):
                if p in conn:
                    a = arrive(conn[p][0])
                    cand.append(((a[0] + ROUTE + CARRY_IN, a[1] + 1, a[2] + 1, a[3]), conn[p][0]))
            if "CIN" in conn:
                a = arrive(conn["CIN"][0])
                step = CARRY_STEP if port == "COUT" else CARRY_OUT
                cand.append(((a[0] + step, a[1], a[2] + 1, a[3]), conn["CIN"][0]))
            if cand:
                res, prev[bit] = max(cand, key=lambda r: r[0][0])
            else:
                res = (0.0, 0, 0, "(const)")
        elif t == "TRELLIS_DPR16X4":
            b_in = max(conn["RAD"], key=lambda b: arrive(b)[0])
            prev[bit] = b_in
            best = arrive(b_in)
            res = (best[0] + ROUTE + DPR, best[1] + 1, best[2], best[3] + " (dist. RAM)")
        else:
            ins = [b for p, bits in conn.items() if c["port_directions"].get(p) == "input" for b in bits]
            if ins:
                prev[bit] = max(ins, key=lambda b: arrive(b)[0])
            best = max((arrive(b) for b in ins), key=lambda r: r[0], default=(0.0, 0, 0, "(const)"))
            res = (best[0] + LUT, best[1] + 1, best[2], best[3])
        memo[bit] = res
        return res

    ends = []
    for name, c in cells.items():
        conn = c["connections"]
        if c["type"] == "TRELLIS_FF":
            pins = [p for p in ("DI", "CE", "LSR") if p in conn]
            worst = max(((arrive(conn[p][0]), p) for p in pins), key=lambda r: r[0][0])
            ends.append((worst[0][0] + ROUTE + SETUP, worst[0][1], worst[0][2], worst[0][3], short(name), worst[1],
                         conn[worst[1]][0]))
        elif c["type"] in ("DP16KD", "TRELLIS_DPR16X4"):
            pins = [b for p, bits in conn.items() if c["port_directions"].get(p) == "input"
                    and not p.startswith("CLK") and p != "WCK" for b in bits]
            b_end = max(pins, key=lambda b: arrive(b)[0])
            worst = arrive(b_end)
            ends.append((worst[0] + ROUTE + SETUP, worst[1], worst[2], worst[3], short(name) + " (RAM)", "in", b_end))

    names: dict[int, str] = {}
    for nname, n in mod.get("netnames", {}).items():
        for i, b in enumerate(n["bits"]):
            if isinstance(b, int) and (b not in names or names[b].startswith("$") and not nname.startswith("$")):
                names[b] = f"{nname}[{i}]" if len(n["bits"]) > 1 else nname

    def trace(bit) -> list[str]:
        """The worst path into ``bit``, from its start register: one line per cell."""
        out = []
        while isinstance(bit, int) and bit in drv:
            cell, _port = drv[bit]
            out.append(f"{memo.get(bit, (0.0,))[0]:6.2f}  {cells[cell]['type']:16s} {names.get(bit, '?')}")
            if bit not in prev:
                break
            bit = prev[bit]
        return out[::-1]

    return ends, trace


def inst(reg: str) -> str:
    parts = reg.split(" (")[0].split(".")
    return ".".join(parts[:-1]) if len(parts) > 1 else "(top)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.depth", description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("--top", default=None)
    ap.add_argument("--worst", type=int, default=40, help="endpoints to list (default 40)")
    ap.add_argument("--over", type=float, default=None, help="only endpoints estimated above this many ns")
    ap.add_argument("--trace", default=None, metavar="REGEX",
                    help="print the worst path, cell by cell, of the listed endpoints whose name matches")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(1_000_000)
    netlist = json.load(open(args.netlist))
    top = args.top or next(n for n, m in netlist["modules"].items() if m.get("attributes", {}).get("top"))
    ends, trace = analyse(netlist, top)
    ends.sort(key=lambda e: -e[0])
    # one line per pair of registers (a bus's bits share their worst path's shape)
    seen: set[tuple[str, str]] = set()
    sel = []
    for e in ends:
        if (e[3], e[4]) not in seen and (args.over is None or e[0] > args.over):
            seen.add((e[3], e[4]))
            sel.append(e)
    print(f"{top}: {len(ends)} endpoints; estimate ns, LUT levels, carry cells, from -> to")
    for est, luts, carries, start, end, pin, bit in sel[: args.worst]:
        print(f"  {est:5.2f} {luts:3d} {carries:3d}  {start} -> {end}.{pin}")
        if args.trace and re.search(args.trace, end):
            for line in trace(bit):
                print(f"          {line}")
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for est, _l, _c, start, end, _p, _b in ends:
        if est > (args.over or 0.0):
            groups[(inst(start), inst(end))].append(est)
    if args.over is not None:
        print(f"\nendpoints over {args.over} ns by instance pair:")
        for (a, b), v in sorted(groups.items(), key=lambda kv: -max(kv[1])):
            print(f"  {len(v):5d}  worst {max(v):5.2f}  {a} -> {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
