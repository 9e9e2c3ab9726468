"""The read and write address decode and the read-back of ``rtl/prionic_regs.v``
(layers of :mod:`gen.regblock.module`):

* :func:`decode`: write and read address decode, each RW register's strobed write value,
  the W1C byte strobes, the ``tail`` rules' registered conditions (:func:`tail_rule`);
* :func:`readback`: the read selects (registered one edge ahead) and the AND-OR read mux.
"""

from __future__ import annotations

from gen.regblock.common import (
    OFF,
    W_IDX,
    _kind,
    _lo,
    _pad32,
    _slice,
    _src_bits,
    _tail_rule,
    _top,
    _w,
    _w1c,
)
from model import regmap
from model.regmap import REGS, Reg

BLOCK_ORDER = (("queue", "q"), ("rule", "r"), ("global", "g"))


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
    for reg in _w1c():
        sw, r = _src_bits(reg), _lo(reg.name)
        i = f"{r}_i"   # a loop variable of its own: one written in two always blocks has two drivers
        o += [f"    // {reg.name}: bit q is in byte q/8, so its byte strobe must be set to clear it",
              f"    reg [{_top(sw)}:0] {r}_strb;",
              f"    integer {i};",
              "    always @* begin",
              f"        for ({i} = 0; {i} < {sw}; {i} = {i} + 1) begin",
              f"            {r}_strb[{i}] = ws[{i} / 8];",
              "        end",
              "    end"]
    return o + [""]


def tail_rule(reg: Reg) -> list[str]:
    """The ``tail:HEAD/SIZE`` accept rule of a ring doorbell (F24): the move n = (new - old) mod
    SIZE and new < SIZE, registered at every edge without AWREADY (AXI4-Lite holds AW and W
    from VALID to the handshake, and no write lands between the edge that raises AWREADY and
    the handshake, so at the handshake edge they are those of the write and of the register's
    current value), then compared at the handshake edge with the free slots
    (HEAD - 1 - old) mod SIZE, HEAD as the block sees it at that edge: as compares of HEAD with
    sums registered the edge before, side by side (a register path)."""
    rule = _tail_rule(reg)
    if rule is None:
        return []
    head, size = (REGS[n] for n in rule)
    w, t = _w(reg.bits), _lo(reg.name)
    top = _top(w)
    w1 = int(w) + 1   # a doorbell has a fixed width (int() refuses a parameter width)
    hvec = f"status_{head.source}" if head.source else f"{_lo(head.name)}_reg"
    old = _slice(f"{t}_reg", reg, "wq", w)
    lim = _slice(f"{_lo(size.name)}_reg", size, "wq", w)
    return [f"    // {reg.name} accept \"tail:{head.name}/{size.name}\" (F24): registered one edge ahead,",
            "    // for the write about to handshake: its queue, the range check new < SIZE, old + 1, and",
            "    // with the move n = (new - old) mod SIZE the sums x = old + 1 + n (new + 1, plus SIZE",
            "    // when new < old) and x - SIZE. At the handshake edge n <= free =",
            f"    // ({head.name} - 1 - old) mod {size.name} is, with HEAD and old below SIZE, x <= HEAD",
            "    // when HEAD > old and x - SIZE <= HEAD when not: compares of HEAD with registers side",
            "    // by side (timing: F25), each written as a >= b (a carry chain, where a <= b adds an",
            "    // equality tree), made for every queue's HEAD, the registered queue picking last",
            f"    reg [QW-1:0] {t}_q_reg;",
            f"    reg          {t}_in_reg;",
            f"    reg [{w}:0]   {t}_t1_reg;     // old + 1",
            f"    reg [{w}:0]   {t}_x_reg;      // x",
            f"    reg [{w1}:0]   {t}_y_reg;      // x - SIZE, two's complement",
            f"    wire [{top}:0]  {t}_old = {old};",
            f"    wire [{top}:0]  {t}_lim = {lim};",
            f"    wire         {t}_back = {t}_wv[{top}:0] < {t}_old;   // n = new - old + SIZE",
            f"    wire [{w}:0]  {t}_new1 = {{1'b0, {t}_wv[{top}:0]}} + {w1}'d1;",
            f"    wire [{w}:0]  {t}_x = {t}_back ? {t}_new1 + {{1'b0, {t}_lim}} : {t}_new1;",
            f"    wire [{w1}:0]  {t}_y = {t}_back ? {{1'b0, {t}_new1}} : {{1'b0, {t}_new1}} - {{2'b00, {t}_lim}};",
            f"    wire [NUM_QUEUES-1:0] {t}_fit;   // per queue: the move fits that queue's HEAD",
            f"    genvar {t}_g;",
            "    generate",
            f"        for ({t}_g = 0; {t}_g < NUM_QUEUES; {t}_g = {t}_g + 1) begin : g_{t}_fit",
            f"            wire [{w}:0] head = {{1'b0, {hvec}[{t}_g*{w} +: {w}]}};",
            f"            assign {t}_fit[{t}_g] = head >= {t}_t1_reg ? head >= {t}_x_reg",
            f"                                             : $signed({{1'b0, head}}) >= $signed({t}_y_reg);",
            "        end",
            "    endgenerate",
            f"    wire         {t}_ok = {t}_in_reg && {t}_fit[{t}_q_reg];",
            "    always @(posedge clk) begin",
            "        if (!awready_reg) begin",
            f"            {t}_q_reg  <= wq;",
            f"            {t}_in_reg <= {t}_wv[{top}:0] < {t}_lim;",
            f"            {t}_t1_reg <= {{1'b0, {t}_old}} + {w1}'d1;",
            f"            {t}_x_reg  <= {t}_x;",
            f"            {t}_y_reg  <= {t}_y;",
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
