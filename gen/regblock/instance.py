"""The include files for the module that instantiates ``prionic_regs`` (``prionic_rx``):
a wire for every ``cfg_*`` output and ``status_*`` input, and the port connections."""

from __future__ import annotations

from gen.regblock.common import AXIL_PORTS, GEN, _ports


def gen_regs_wires() -> str:
    """Wire declarations of the block's cfg_* outputs and status_* inputs (for prionic_rx)."""
    o = ["// SPDX-License-Identifier: MIT", GEN,
         "// `include inside the module that instantiates prionic_regs, before the instance.", ""]
    for _d, w, n, c in _ports():
        if n.startswith(("cfg_", "status_")):
            o.append(f"wire {w:24} {n};" + (f"  // {c}" if c else ""))
    o.append("")
    return "\n".join(o)


def gen_regs_conn() -> str:
    """The instance's port connections by name (every port of prionic_regs)."""
    names = ["clk", "rst"] + [n for _d, _w, n in AXIL_PORTS] + [n for _d, _w, n, _c in _ports()]
    o = ["// SPDX-License-Identifier: MIT", GEN,
         "// `include inside the port list of the prionic_regs instance."]
    conn = {"rst": "core_rst"}  # prionic_rx's core reset: rst or bus_rst (F24)
    o += [f"    .{n}({conn.get(n, n)})" + ("," if i < len(names) - 1 else "") for i, n in enumerate(names)]
    o.append("")
    return "\n".join(o)
