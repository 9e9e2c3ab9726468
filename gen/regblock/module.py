"""``rtl/prionic_regs.v``, layer by layer: each function below writes one part of the
module from the registers' attributes, and :func:`gen_regs_module` puts them in order.

* :func:`header`: ports and parameters; :func:`params`: range checks, address-decode
  localparams and the values of ``param`` registers;
* :func:`storage`: a ``reg`` for every RW register, counter, W1C clear and pulse, the
  AXI4-Lite handshake registers and the byte-strobe function;
* :func:`decode`: write and read address decode, each RW register's strobed write value,
  the W1C byte strobes;
* :func:`readback`: the read selects (registered one edge ahead) and the AND-OR read mux;
* :func:`write`: the handshakes and the write case per block, with each register's
  ``accept`` rule (:func:`write_reg`) and ``effects`` (:func:`side_effects`);
* :func:`counters`: ``count`` registers, on the verdict pulse and on event inputs;
* :func:`reset`: reset values; :func:`outputs`: the ``cfg_*`` assigns and the unused sink.
"""

from __future__ import annotations

from gen.regblock.common import (
    AXIL_PORTS,
    COUNT,
    GEN,
    OFF,
    W_IDX,
    _check,
    _kind,
    _lo,
    _pad32,
    _ports,
    _slice,
    _src_bits,
    _tail_rule,
    _top,
    _touch,
    _w,
)
from model import regmap
from model.regmap import PULSES, REGS, Reg

BLOCK_ORDER = (("queue", "q"), ("rule", "r"), ("global", "g"))


def _w1c() -> list[Reg]:
    return [r for r in REGS.values() if _kind(r) == "w1c"]


def _pulse_zero(name: str, scope: str) -> str:
    return f"{name}_reg <= " + ("1'b0;" if scope == "global" else f"{{{COUNT[scope]}{{1'b0}}}};")


def header() -> list[str]:
    """The file header, the parameters and the port list, up to the include."""
    o = [
        "// SPDX-License-Identifier: MIT",
        GEN,
        "//",
        "// prionic_regs: the AXI4-Lite register file (F12-F16 configuration) and the counters",
        "// (F13), generated with every side effect from the attributes of docs/regmap.toml",
        "// (gen/regblock/). A write is accepted when AW and W are both valid: both handshake",
        "// together at one edge w, the register changes at w and every other block sees it from",
        "// w+1 (docs/timing.md s2); write pulses are high at w+1. Byte strobes are honoured; reads",
        "// have no side effects; unmapped addresses read 0 and ignore writes; responses are OKAY.",
        "//",
        "`resetall",
        "`timescale 1ns / 1ps",
        "`default_nettype none",
        "",
        "module prionic_regs #(",
        "    parameter NUM_QUEUES      = 2,   // receive queues (1..16)",
        "    parameter NUM_RULES       = 4,   // classification rules (1..64)",
        "    parameter DATA_WIDTH      = 32,  // stream width (reported in CONFIG)",
        "    parameter RULES_PER_CYCLE = 4,   // rules compared per cycle (reported in CONFIG, F8)",
        "    parameter FLOW_ENTRIES    = 16,  // flow cache entries (reported in FLOW_ENTRIES, F8)",
        "    parameter ADDR_WIDTH      = 16   // AXI4-Lite address bits",
        ") (",
    ]
    lines = ["    input  wire clk", "    input  wire rst"]
    for d, w, n in AXIL_PORTS:
        lines.append(f"    {d:6} wire {w:24} {n}")
    for d, w, n, c in _ports():
        lines.append(f"    {d:6} wire {w:24} {n}" + (f"  // {c}" if c else ""))
    for i, line in enumerate(lines):  # commas before comments
        code, sep, com = line.partition("  // ")
        comma = "," if i < len(lines) - 1 else ""
        o.append(code.rstrip() + comma + (f"  // {com}" if sep else ""))
    return o + [");", "", '`include "prionic_regs.vh"', ""]


def params() -> list[str]:
    """Parameter range checks, address-decode localparams, and the value of each ``param`` register."""
    o = ["""    initial begin
        if (NUM_QUEUES < 1 || NUM_QUEUES > 16 || NUM_RULES < 1 || NUM_RULES > 64) begin
            $error("Error: NUM_QUEUES must be 1..16 and NUM_RULES 1..64 (instance %m)");
            $finish;
        end
        if (ADDR_WIDTH < 16) begin
            $error("Error: ADDR_WIDTH must be at least 16 (instance %m)");
            $finish;
        end
    end

    localparam QW = NUM_QUEUES > 1 ? $clog2(NUM_QUEUES) : 1;
    localparam RW = NUM_RULES > 1 ? $clog2(NUM_RULES) : 1;
    localparam integer RS = $clog2(RREG_STRIDE);   // address bits inside a rule block
    localparam integer QS = $clog2(QREG_STRIDE);   // address bits inside a queue block
    localparam integer Q_END_I = {16'd0, QREG_BASE} + {16'd0, QREG_STRIDE} * NUM_QUEUES;
    localparam integer R_END_I = {16'd0, RREG_BASE} + {16'd0, RREG_STRIDE} * NUM_RULES;
    localparam [ADDR_WIDTH-1:0] Q_END = Q_END_I[ADDR_WIDTH-1:0];
    localparam [ADDR_WIDTH-1:0] R_END = R_END_I[ADDR_WIDTH-1:0];"""]
    for reg in REGS.values():
        if _kind(reg) != "param":
            continue
        if isinstance(reg.param, str):
            o.append(f"    localparam [31:0] {reg.name}_VALUE = {reg.param};")
            continue
        parts = []
        for field, expr in reg.param.items():
            lsb, width = regmap.HOST_FIELDS[f"{reg.name}_{field}"]
            o.append(f"    localparam integer {reg.name}_{field}_I = {expr};")
            parts.append(f"({{{32 - width}'d0, {reg.name}_{field}_I[{width - 1}:0]}} << {lsb})")
        o.append(f"    localparam [31:0] {reg.name}_VALUE = " + "\n        | ".join(parts) + ";")
    return o + [""]


def storage() -> list[str]:
    """A ``reg`` per RW register (packed per instance), counter, W1C clear and pulse; the
    AXI4-Lite handshake registers and the byte-strobe function."""
    o = ["    // ------------------------------------------------------------------ storage"]
    for reg in REGS.values():
        k, n, w = _kind(reg), COUNT[reg.block], _w(reg.bits)
        if k == "rw":
            vec = f"[{_top(w)}:0]" if reg.block == "global" else f"[{n}*{w}-1:0]"
            o.append(f"    reg {vec} {_lo(reg.name)}_reg;")
        elif k == "counter":
            o.append(f"    reg [31:0] {_lo(reg.name)}_reg" + ("" if reg.block == "global" else f" [0:{n}-1]") + ";")
        elif k == "w1c":
            o.append(f"    reg [{_top(_src_bits(reg))}:0] {_lo(reg.name)}_clr_reg;")
    for name, scope in PULSES.items():
        o.append("    reg " + ("" if scope == "global" else f"[{COUNT[scope]}-1:0] ") + f"{name}_reg;")
    for reg, field in _stickies():
        o.append(f"    reg [{COUNT[reg.block]}-1:0] {_lo(field)}_reg;  // {reg.name}.{field} (sticky, F24)")
    o.append("""
    // AXI4-Lite handshakes
    reg        awready_reg, bvalid_reg, arready_reg, rvalid_reg;
    reg [31:0] rdata_reg;

    function [31:0] strobe(input [31:0] old, input [31:0] data, input [3:0] strb);
        integer b;
        begin
            for (b = 0; b < 4; b = b + 1) begin
                strobe[b*8 +: 8] = strb[b] ? data[b*8 +: 8] : old[b*8 +: 8];
            end
        end
    endfunction""")
    return o


def _stickies() -> list[tuple[Reg, str]]:
    """(register, field) of every sticky bit the block keeps (``sticky``, F24)."""
    return [(reg, field) for reg in REGS.values() for field, _s, _c in reg.sticky]


def _unused() -> list[str]:
    """Signals only partly used, tied into the ``unused`` sink: the strobed write values among them."""
    return (["s_axil_awprot", "s_axil_arprot", "s_axil_awaddr[1:0]", "s_axil_araddr[1:0]",
             "stat_verdict_queue", "stat_verdict_rule"]
            + [f"{_lo(r.name)}_wv" for r in REGS.values() if _kind(r) == "rw"])


def decode() -> list[str]:
    """Write and read address decode (block, instance, offset), each RW register's value after
    the write's byte strobes, and the W1C registers' per-bit strobes."""
    o = ["""
    // ------------------------------------------------------------------ decode
    // (the relative addresses keep all their bits for readability; only some are used)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ADDR_WIDTH-1:0] waddr = {s_axil_awaddr[ADDR_WIDTH-1:2], 2'b00};
    wire [ADDR_WIDTH-1:0] raddr = {s_axil_araddr[ADDR_WIDTH-1:2], 2'b00};

    wire                  w_in_q   = waddr >= QREG_BASE && waddr < Q_END;
    wire [ADDR_WIDTH-1:0] w_q_rel  = waddr - QREG_BASE;
    wire [QW-1:0]         wq       = w_q_rel[QS +: QW];
    wire [ADDR_WIDTH-1:0] w_q_off  = {{(ADDR_WIDTH-QS){1'b0}}, w_q_rel[QS-1:0]};
    wire                  w_in_r   = waddr >= RREG_BASE && waddr < R_END;
    wire [ADDR_WIDTH-1:0] w_r_rel  = waddr - RREG_BASE;
    wire [RW-1:0]         wr       = w_r_rel[RS +: RW];
    wire [ADDR_WIDTH-1:0] w_r_off  = {{(ADDR_WIDTH-RS){1'b0}}, w_r_rel[RS-1:0]};

    wire                  r_in_q   = raddr >= QREG_BASE && raddr < Q_END;
    wire [ADDR_WIDTH-1:0] r_q_rel  = raddr - QREG_BASE;
    wire [QW-1:0]         rq       = r_q_rel[QS +: QW];
    wire [ADDR_WIDTH-1:0] r_q_off  = {{(ADDR_WIDTH-QS){1'b0}}, r_q_rel[QS-1:0]};
    wire                  r_in_r   = raddr >= RREG_BASE && raddr < R_END;
    wire [ADDR_WIDTH-1:0] r_r_rel  = raddr - RREG_BASE;
    wire [RW-1:0]         rr       = r_r_rel[RS +: RW];
    wire [ADDR_WIDTH-1:0] r_r_off  = {{(ADDR_WIDTH-RS){1'b0}}, r_r_rel[RS-1:0]};
    /* verilator lint_on UNUSEDSIGNAL */

    wire do_write = awready_reg && s_axil_awvalid && s_axil_wvalid;
    wire do_read  = arready_reg && s_axil_arvalid;
    wire [31:0] wd = s_axil_wdata;
    wire [3:0]  ws = s_axil_wstrb;
"""]
    o.append("    // each RW register's value after this write's strobes, as 32 bits (bits above its width unused)")
    o.append("    /* verilator lint_off UNUSEDSIGNAL */")
    for reg in REGS.values():
        if _kind(reg) == "rw":
            w = _w(reg.bits)
            old = _pad32(_slice(f"{_lo(reg.name)}_reg", reg, W_IDX.get(reg.block, ""), w), w)
            o.append(f"    wire [31:0] {_lo(reg.name)}_wv = strobe({old}, wd, ws);")
    o.append("    /* verilator lint_on UNUSEDSIGNAL */")
    for reg in REGS.values():
        o += tail_rule(reg)
    for n, reg in enumerate(_w1c()):
        sw = _src_bits(reg)
        o += [f"    // {reg.name}: bit q is in byte q/8, so its byte strobe must be set to clear it",
              f"    reg [{_top(sw)}:0] {_lo(reg.name)}_strb;"]
        if n == 0:  # one loop variable for every W1C register's strobes
            o.append("    integer cq;")
        o += ["    always @* begin",
              f"        for (cq = 0; cq < {sw}; cq = cq + 1) begin",
              f"            {_lo(reg.name)}_strb[cq] = ws[cq / 8];",
              "        end",
              "    end"]
    return o + [""]


def tail_rule(reg: Reg) -> list[str]:
    """The ``tail:HEAD/SIZE`` accept rule of a ring doorbell (F24): the move n = (new - old) mod
    SIZE and new < SIZE, registered at every edge without AWREADY (AXI4-Lite holds AW and W
    from VALID to the handshake, and no write lands between the edge that raises AWREADY and
    the handshake, so at the handshake edge they are those of the write and of the register's
    current value), then compared at the handshake edge with the free slots
    (HEAD - 1 - old) mod SIZE, HEAD as the block sees it at that edge (a register path)."""
    rule = _tail_rule(reg)
    if rule is None:
        return []
    head, size = (REGS[n] for n in rule)
    w, t = _w(reg.bits), _lo(reg.name)
    top = _top(w)
    hvec = f"status_{head.source}" if head.source else f"{_lo(head.name)}_reg"
    old = _slice(f"{t}_reg", reg, "wq", w)
    lim = _slice(f"{_lo(size.name)}_reg", size, "wq", w)
    return [f"    // {reg.name} accept \"tail:{head.name}/{size.name}\" (F24): registered one edge ahead, the",
            "    // move n and the range check of the write about to handshake, the queue and old + 1; at",
            f"    // the handshake edge, n <= free = ({head.name} - 1 - old) mod {size.name}",
            f"    reg [QW-1:0] {t}_q_reg;",
            f"    reg          {t}_in_reg;",
            f"    reg [{top}:0]   {t}_adv_reg;",
            f"    reg [{top}:0]   {t}_next_reg;",
            f"    reg [{top}:0]   {t}_size_reg;",
            f"    wire [{top}:0]  {t}_old = {old};",
            f"    wire [{top}:0]  {t}_lim = {lim};",
            f"    wire [{w}:0]  {t}_d = {{1'b0, {t}_wv[{top}:0]}} - {{1'b0, {t}_old}};",
            f"    wire [{w}:0]  {t}_f = {{1'b0, {hvec}[{t}_q_reg*{w} +: {w}]}} - {{1'b0, {t}_next_reg}};",
            f"    wire [{top}:0]  {t}_free = {t}_f[{w}] ? {t}_f[{top}:0] + {t}_size_reg : {t}_f[{top}:0];",
            f"    wire         {t}_ok = {t}_in_reg && {t}_adv_reg <= {t}_free;",
            "    always @(posedge clk) begin",
            "        if (!awready_reg) begin",
            f"            {t}_q_reg    <= wq;",
            f"            {t}_in_reg   <= {t}_wv[{top}:0] < {t}_lim;",
            f"            {t}_adv_reg  <= {t}_d[{w}] ? {t}_d[{top}:0] + {t}_lim : {t}_d[{top}:0];",
            f"            {t}_next_reg <= {t}_old + {w}'d1;",
            f"            {t}_size_reg <= {t}_lim;",
            "        end",
            "    end"]


def _read_value(reg: Reg, bname: str, idx: str) -> str:
    """What the read mux returns for ``reg``: stored value, ``source`` input, counter, parameter or constant."""
    k, w = _kind(reg), _w(reg.bits)
    if k == "rw":
        return _pad32(_slice(f"{_lo(reg.name)}_reg", reg, idx, w), w)
    if k in ("source", "w1c"):
        sw = _src_bits(reg)
        val = _pad32(_slice(f"status_{reg.source}", reg, idx, sw), sw)
        for field, _s, _c in reg.sticky:  # bits the block keeps itself (F24)
            bit = regmap.FIELDS[f"{reg.name}_{field}"]
            val = f"({val} | ({{31'd0, {_lo(field)}_reg" + ("" if bname == "global" else f"[{idx}]") + f"}} << {bit}))"
        return val
    if k == "counter":
        return f"{_lo(reg.name)}_reg" + ("" if bname == "global" else f"[{idx}]")
    if k == "param":
        return f"{reg.name}_VALUE"
    return f"RST_{reg.name}"


# registers whose value changes at every edge (the free-running time stamp)
EVERY_EDGE = ("TIMESTAMP",)


def readback() -> list[str]:
    """One-hot read selects registered one edge ahead (F25), and the AND-OR read mux."""
    o = ["    // ------------------------------------------------------------------ read mux",
         "    // The read address is decoded one edge ahead, into one-hot selects (F25): ARREADY",
         "    // rises at the edge after the one that sees ARVALID, and AXI holds ARADDR from ARVALID",
         "    // to the handshake, so the selects registered at every edge without ARREADY are, at the",
         "    // handshake edge, those of its address. The data are still the registers' values at the",
         "    // handshake edge: the read's timing does not change, only its path (select, AND-OR)."]
    sels: dict[str, list[Reg]] = {b: [r for r in REGS.values() if r.block == b] for b, _p in BLOCK_ORDER}
    for bname, pre in BLOCK_ORDER:
        o.append(f"    reg [{len(sels[bname]) - 1}:0] rsel_{pre}_reg;")
    # the selects' next values are continuous assignments, registered whole: an event-driven
    # simulator evaluates them only when ARADDR changes, not at every edge
    o.append("    // (next values as continuous assignments: evaluated only when the address changes)")
    for bname, pre in BLOCK_ORDER:
        o.append(f"    wire [{len(sels[bname]) - 1}:0] rsel_{pre}_d;")
    for bname, pre in BLOCK_ORDER:
        for si, reg in enumerate(sels[bname]):
            if bname == "global":
                cond = f"!r_in_q && !r_in_r && raddr == {OFF[bname]}{reg.name}"
            else:
                cond = f"{'r_in_q' if bname == 'queue' else 'r_in_r'} && " \
                       f"{'r_q_off' if bname == 'queue' else 'r_r_off'} == {OFF[bname]}{reg.name}"
            o.append(f"    assign rsel_{pre}_d[{si}] = {cond};")
    o += ["    reg [QW-1:0] rq_reg;",
          "    reg [RW-1:0] rr_reg;",
          "    always @(posedge clk) begin",
          "        if (!arready_reg) begin",
          "            rq_reg <= rq;",
          "            rr_reg <= rr;"]
    for _bname, pre in BLOCK_ORDER:
        o.append(f"            rsel_{pre}_reg <= rsel_{pre}_d;")
    o += ["        end", "    end", "",
          "    // the terms of registers that change at every edge are ORed in outside the always",
          "    // block, which an event-driven simulator would otherwise re-run at every edge",
          "    reg [31:0] rmux_ev;", "    always @* begin", "        rmux_ev = 32'd0;"]
    every_edge = []
    for bname, pre in BLOCK_ORDER:
        idx = {"queue": "rq_reg", "rule": "rr_reg"}.get(bname, "")
        for si, reg in enumerate(sels[bname]):
            val = _read_value(reg, bname, idx)
            term = f"({{32{{rsel_{pre}_reg[{si}]}}}} & {val})"
            if reg.name in EVERY_EDGE:
                every_edge.append(f"{term}  // {reg.name}")
            else:
                o.append(f"        rmux_ev = rmux_ev | {term};  // {reg.name}")
    o += ["    end"]
    o.append("    wire [31:0] rmux = rmux_ev" + ("" if every_edge else ";"))
    for k, term in enumerate(every_edge):
        code, comment = term.split("  // ")
        o.append(f"                     | {code}{';' if k == len(every_edge) - 1 else ''}  // {comment}")
    return o + [""]


def side_effects(reg: Reg, idx: str, ind: str) -> list[str]:
    """A write's ``effects`` (``clear:<RW register>``, ``pulse:<name>``), only when its strobes
    select a byte of the register (F24)."""
    if not reg.effects:
        return []
    o = [f"                        {ind}if (|(ws & {_touch(reg)})) begin"]
    for eff in reg.effects:
        kind, _, arg = eff.partition(":")
        if kind == "clear":
            other = REGS[arg]
            ow = _w(other.bits)
            dst_other = _slice(_lo(other.name) + "_reg", other, idx, ow)
            o.append(f"                            {ind}{dst_other} <= {{{ow}{{1'b0}}}};")
        else:
            bit = "" if PULSES[arg] == "global" else f"[{idx}]"
            o.append(f"                            {ind}{arg}_reg{bit} <= 1'b1;")
            for sreg, field in _stickies():  # an accepted write with this pulse clears them (F24)
                if sreg.block == reg.block and any(f == field and c == arg for f, _s, c in sreg.sticky):
                    o.append(f"                            {ind}{_lo(field)}_reg{bit} <= 1'b0;")
    return o + [f"                        {ind}end"]


def _accept_cond(reg: Reg, idx: str) -> str:
    """The Verilog condition under which a write of ``reg`` is kept: every ``accept`` rule."""
    w = _w(reg.bits)
    raw = f"{_lo(reg.name)}_wv[{_top(w)}:0]"
    conds = []
    for rule in reg.accept:
        kind, _, arg = rule.partition(":")
        if kind == "when":
            conds.append(f"status_{arg}[{idx}]")
        elif kind == "below":
            other = REGS[arg]
            conds.append(f"{raw} < {_slice(_lo(other.name) + '_reg', other, idx, _w(other.bits))}")
        elif kind == "aligned":
            conds.append(f"~|{_lo(reg.name)}_wv[{reg.zero_lsbs - 1}:0]")
        else:  # tail, registered (tail_rule)
            conds.append(f"{_lo(reg.name)}_ok")
    return " && ".join(conds)


def refusal(reg: Reg, idx: str) -> list[str]:
    """What a refused write of ``reg`` does when its strobes select a byte of it (F24): the
    sticky bits ``set = "refused"`` and the counters ``count = "refused"`` of its instance."""
    o = [f"                        end else if (|(ws & {_touch(reg)})) begin"]
    for sreg, field in _stickies():
        if sreg.block == reg.block:
            o.append(f"                            {_lo(field)}_reg[{idx}] <= 1'b1;")
    for creg in REGS.values():
        if creg.block == reg.block and creg.count == "refused":
            c = f"{_lo(creg.name)}_reg[{idx}]"
            o.append(f"                            {c} <= {c} + 32'd1;")
    return o + ["                        end"]


def write_reg(reg: Reg, idx: str) -> list[str]:
    """One case arm: store (W1C: clear pulses), honouring ``zero_lsbs`` and ``accept`` (every
    rule must hold, else nothing changes but the refusal's flag and counter), then the side effects."""
    o = [f"                    {OFF[reg.block]}{reg.name}: begin"]
    if _kind(reg) == "w1c":
        sw = _src_bits(reg)
        o.append(f"                        {_lo(reg.name)}_clr_reg <= wd[{_top(sw)}:0] & {_lo(reg.name)}_strb;")
        return o + ["                    end"]
    w = _w(reg.bits)
    dst = _slice(f"{_lo(reg.name)}_reg", reg, idx, w)
    new = f"{_lo(reg.name)}_wv[{_top(w)}:0]"
    if reg.zero_lsbs:
        new = f"({new} & ~{{{{({w}-{reg.zero_lsbs}){{1'b0}}}}, {{{reg.zero_lsbs}{{1'b1}}}}}})"
    ind = "    " if reg.accept else ""
    if reg.accept:  # the whole write, side effects too, only if every rule holds (F24)
        o.append(f"                        if ({_accept_cond(reg, idx)}) begin")
    o.append(f"                        {ind}{dst} <= {new};")
    o += side_effects(reg, idx, ind)
    if reg.accept:
        o += refusal(reg, idx)
    return o + ["                    end"]


def write() -> list[str]:
    """The clocked block's start: handshakes, pulse defaults, the write case per block, read data."""
    o = ["    // ------------------------------------------------------------------ write, counters, handshakes",
         "    wire [QW-1:0] vq = stat_verdict_queue[QW-1:0];",
         "    wire [RW-1:0] vr = stat_verdict_rule[RW-1:0];",
         "",
         "    integer i;",
         "    always @(posedge clk) begin",
         "        awready_reg <= !awready_reg && !bvalid_reg && s_axil_awvalid && s_axil_wvalid;",
         "        arready_reg <= !arready_reg && !rvalid_reg && s_axil_arvalid;"]
    for reg in _w1c():
        o.append(f"        {_lo(reg.name)}_clr_reg <= {{{_src_bits(reg)}{{1'b0}}}};")
    for name, scope in PULSES.items():
        o.append("        " + _pulse_zero(name, scope))
    o.append("""
        if (s_axil_bready) begin
            bvalid_reg <= 1'b0;
        end
        if (s_axil_rready) begin
            rvalid_reg <= 1'b0;
        end

        if (do_write) begin
            bvalid_reg <= 1'b1;""")
    for bname in ("queue", "rule", "global"):
        if bname == "global":
            o += ["            end else begin", "                case (waddr)"]
        else:
            cond = {"queue": "w_in_q", "rule": "w_in_r"}[bname]
            o += [f"            {'if' if bname == 'queue' else 'end else if'} ({cond}) begin",
                  f"                case ({'w_q_off' if bname == 'queue' else 'w_r_off'})"]
        for reg in REGS.values():
            if reg.block == bname and _kind(reg) in ("rw", "w1c"):
                o += write_reg(reg, W_IDX.get(bname, ""))
        o += ["                    default: ;", "                endcase"]
    return o + ["            end", "        end", "",
                "        if (do_read) begin",
                "            rvalid_reg <= 1'b1;",
                "            rdata_reg  <= rmux;",
                "        end",
                ""]


def counters() -> list[str]:
    """``count`` registers: ``verdict[:<code>]`` and ``rule_hit`` on ``stat_verdict_valid``,
    ``pulse:<input>`` on an event input (F13)."""
    o = ["        // counters (F13): the per-frame verdict pulse and the event inputs",
         "        if (stat_verdict_valid) begin"]
    for reg in REGS.values():
        if _kind(reg) != "counter":
            continue
        kind, _, arg = reg.count.partition(":")
        r = f"{_lo(reg.name)}_reg"
        inc = f"{{16'd0, stat_verdict_{reg.amount}}}" if reg.amount else "32'd1"
        if kind == "verdict":
            tgt = r if reg.block == "global" else f"{r}[vq]"
            if arg:
                o += [f"            if (stat_verdict_code == VERDICT_{arg}) begin",
                      f"                {tgt} <= {tgt} + {inc};",
                      "            end"]
            else:
                o.append(f"            {tgt} <= {tgt} + {inc};")
        elif kind == "rule_hit":
            o += ["            if (stat_verdict_rule != 8'hFF) begin",
                  f"                {r}[vr] <= {r}[vr] + 32'd1;",
                  "            end"]
    o.append("        end")
    for reg in REGS.values():
        if _kind(reg) != "counter" or not reg.count.startswith("pulse:"):
            continue
        arg = reg.count.partition(":")[2]
        r = f"{_lo(reg.name)}_reg"
        if reg.block == "global":
            o += [f"        if (stat_{arg}) begin", f"            {r} <= {r} + 32'd1;", "        end"]
        else:
            o += [f"        for (i = 0; i < {COUNT[reg.block]}; i = i + 1) begin",
                  f"            if (stat_{arg}[i]) begin",
                  f"                {r}[i] <= {r}[i] + 32'd1;",
                  "            end",
                  "        end"]
    return o + [""]


def _reset_value(reg: Reg, w: str) -> str:
    rst = f"RST_{reg.name}[{_top(w)}:0]" if isinstance(reg.reset, int) else None
    if reg.reset == "index + 1":
        rst = f"i[{_top(w)}:0] + {w}'d1"
    if rst is None:
        raise ValueError(f"{reg.name}: reset {reg.reset!r} is not supported for an RW register")
    return rst


def reset() -> list[str]:
    """Reset of the handshakes, pulses, RW registers (their reset values) and counters; the end of
    the clocked block."""
    o = ["        if (rst) begin",
         "            awready_reg <= 1'b0;",
         "            bvalid_reg  <= 1'b0;",
         "            arready_reg <= 1'b0;",
         "            rvalid_reg  <= 1'b0;"]
    for reg in _w1c():
        o.append(f"            {_lo(reg.name)}_clr_reg <= {{{_src_bits(reg)}{{1'b0}}}};")
    for name, scope in PULSES.items():
        o.append("            " + _pulse_zero(name, scope))
    for reg, field in _stickies():
        o.append(f"            {_lo(field)}_reg <= {{{COUNT[reg.block]}{{1'b0}}}};")
    for reg in REGS.values():
        if reg.block == "global":
            k, w = _kind(reg), _w(reg.bits)
            if k == "rw":
                o.append(f"            {_lo(reg.name)}_reg <= RST_{reg.name}[{_top(w)}:0];")
            elif k == "counter":
                o.append(f"            {_lo(reg.name)}_reg <= 32'd0;")
    for bname in ("queue", "rule"):
        o.append(f"            for (i = 0; i < {COUNT[bname]}; i = i + 1) begin")
        for reg in REGS.values():
            if reg.block != bname:
                continue
            k, w = _kind(reg), _w(reg.bits)
            if k == "rw":
                o.append(f"                {_lo(reg.name)}_reg[i*{w} +: {w}] <= {_reset_value(reg, w)};")
            elif k == "counter":
                o.append(f"                {_lo(reg.name)}_reg[i] <= 32'd0;")
        o.append("            end")
    return o + ["        end", "    end", ""]


def outputs() -> list[str]:
    """AXI4-Lite outputs, the ``cfg_*`` assigns, the unused sink and the module's end."""
    o = ["    // ------------------------------------------------------------------ outputs",
         "    assign s_axil_awready = awready_reg;",
         "    assign s_axil_wready  = awready_reg;",
         "    assign s_axil_bresp   = 2'b00;",
         "    assign s_axil_bvalid  = bvalid_reg;",
         "    assign s_axil_arready = arready_reg;",
         "    assign s_axil_rdata   = rdata_reg;",
         "    assign s_axil_rresp   = 2'b00;",
         "    assign s_axil_rvalid  = rvalid_reg;"]
    for reg in REGS.values():
        k = _kind(reg)
        if k == "rw":
            o.append(f"    assign cfg_{_lo(reg.name)} = {_lo(reg.name)}_reg;")
        elif k == "w1c":
            o.append(f"    assign cfg_{_lo(reg.name)}_clr = {_lo(reg.name)}_clr_reg;")
    for name in PULSES:
        o.append(f"    assign cfg_{name} = {name}_reg;")
    return o + ["",
                "    /* verilator lint_off UNUSEDSIGNAL */",
                "    wire unused = &{1'b0, " + ", ".join(_unused()) + "};",
                "    /* verilator lint_on UNUSEDSIGNAL */",
                "",
                "endmodule",
                "",
                "`resetall",
                ""]


LAYERS = (header, params, storage, decode, readback, write, counters, reset, outputs)


def gen_regs_module() -> str:
    """The whole ``prionic_regs`` module: the layers in order."""
    _check()
    return "\n".join(line for layer in LAYERS for line in layer())
