"""``rtl/prionic_regs.v``, layer by layer: each function below writes one part of the
module from the registers' attributes, and :func:`gen_regs_module` puts them in order.

* :func:`header`: ports and parameters; :func:`params`: range checks, address-decode
  localparams and the values of ``param`` registers;
* :func:`storage`: a ``reg`` for every RW register, counter, W1C clear and pulse, the
  AXI4-Lite handshake registers and the byte-strobe function;
* :func:`~gen.regblock.decode.decode`: write and read address decode, each RW register's
  strobed write value, the W1C byte strobes (:mod:`gen.regblock.decode`);
* :func:`~gen.regblock.decode.readback`: the read selects (registered one edge ahead) and
  the AND-OR read mux (:mod:`gen.regblock.decode`);
* :func:`~gen.regblock.update.write`: the handshakes and the write case per block, with
  each register's ``accept`` rule and ``effects`` (:mod:`gen.regblock.update`);
* :func:`~gen.regblock.update.counters`: ``count`` registers, on the verdict pulse and on
  event inputs; :func:`~gen.regblock.update.reset`: reset values (:mod:`gen.regblock.update`);
* :func:`outputs`: the ``cfg_*`` assigns and the unused sink.
"""

from __future__ import annotations

from gen.regblock.common import (
    AXIL_PORTS,
    COUNT,
    GEN,
    _check,
    _kind,
    _lo,
    _ports,
    _src_bits,
    _stickies,
    _top,
    _w,
)
from gen.regblock.decode import decode, readback
from gen.regblock.update import counters, refusals, reset, write
from model import regmap
from model.regmap import PULSES, REGS


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
        "    parameter FLOW_TABLE_SETS = 0,   // flow table sets per bank (reported in FLOW_TABLE_SETS, F31)",
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


def _unused() -> list[str]:
    """Signals only partly used, tied into the ``unused`` sink: the strobed write values among them."""
    return (["s_axil_awprot", "s_axil_arprot", "s_axil_awaddr[1:0]", "s_axil_araddr[1:0]",
             "stat_verdict_queue", "stat_verdict_rule"]
            + [f"{_lo(r.name)}_wv" for r in REGS.values() if _kind(r) == "rw"])


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


LAYERS = (header, params, storage, decode, readback, refusals, write, counters, reset, outputs)


def gen_regs_module() -> str:
    """The whole ``prionic_regs`` module: the layers in order."""
    _check()
    return "\n".join(line for layer in LAYERS for line in layer())
