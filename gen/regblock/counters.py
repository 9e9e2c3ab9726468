"""The counters of ``rtl/prionic_regs.v`` (a layer of :mod:`gen.regblock.module`): every
``count`` register is a 64-bit counter in block RAM (``prionic_stats``, docs/stats.md, F13).

The counters that add 1 share one block, those that add an ``amount`` (a frame's length)
another, so that an event counter's accumulator is a few bits wide. In each block the global
counters come first, then each queue counter's ``NUM_QUEUES`` instances, then each rule
counter's ``NUM_RULES``: a register's instance ``i`` is counter ``CI_<NAME> + i``.

A read of a counter (the selects registered ahead say which, :mod:`gen.regblock.decode`) is
a request to its block at the handshake edge; the block answers with the counter's value at
that edge 5 to N+4 edges later, and the read data take its low half, ``CNT_HI`` its high
half (:func:`gen.regblock.update.write`).
"""

from __future__ import annotations

from gen.regblock.common import COUNT, _kind
from gen.regblock.decode import select_bit
from model.regmap import REGS, Reg

# (prefix, increment bits, increment expression per counter): one prionic_stats per group
GROUPS = (("ev", "1", "1'b1"), ("by", "16", "stat_verdict_len"))
BLOCK_IDX = {"global": "", "queue": "QI", "rule": "RI"}


def group_regs(pre: str) -> list[Reg]:
    """The counters of group ``pre`` in index order: global, then queue, then rule registers."""
    regs = [r for r in REGS.values() if _kind(r) == "counter" and bool(r.amount) == (pre == "by")]
    return sorted(regs, key=lambda r: ("global", "queue", "rule").index(r.block))


def groups() -> list[tuple[str, str, str, list[Reg]]]:
    """The groups that have counters: (prefix, increment bits, increment, registers)."""
    return [(pre, w, amt, regs) for pre, w, amt in GROUPS if (regs := group_regs(pre))]


def _bases(regs: list[Reg]) -> tuple[list[tuple[Reg, str]], str]:
    """Each register's first counter index and the block's counters, as Verilog expressions
    of the block parameters."""
    out, n = [], {"global": 0, "queue": 0, "rule": 0}

    def expr() -> str:
        return " + ".join([str(n["global"])] + [f"{n[b]}*{COUNT[b]}" for b in ("queue", "rule") if n[b]])

    for reg in regs:
        out.append((reg, expr()))
        n[reg.block] += 1
    return out, expr()


def _cond(reg: Reg) -> str:
    """When instance ``QI``/``RI`` (or the global register) counts at an edge."""
    kind, _, arg = reg.count.partition(":")
    idx = BLOCK_IDX[reg.block]
    if kind == "verdict":
        cond = ["stat_verdict_valid"]
        if reg.block == "queue":
            cond.append(f"vq == {idx}")
        if arg:
            cond.append(f"stat_verdict_code == VERDICT_{arg}")
        return " && ".join(cond)
    if kind == "rule_hit":
        return f"stat_verdict_valid && stat_verdict_rule != 8'hFF && vr == {idx}"
    if kind == "pulse":
        return f"stat_{arg}" + ("" if reg.block == "global" else f"[{idx}_I]")
    return f"q_refused[{idx}_I]"   # refused: a queue register's refused write (F24)


def counters() -> list[str]:
    """The counter blocks, their increments, and which counter a read asks for."""
    o = ["    // ------------------------------------------------------------------ counters (F13)",
         "    // 64-bit counters in block RAM (docs/stats.md): one block counts events (+1), one adds",
         "    // frame lengths; instance i of a register is counter CI_<NAME> + i of its block. A read",
         "    // of a counter is a request to its block at the handshake edge; the block answers with",
         "    // the counter's value at that edge, 5 to N+4 edges later (RVALID the edge after).",
         "    wire [QW-1:0] vq = stat_verdict_queue[QW-1:0];",
         "    wire [RW-1:0] vr = stat_verdict_rule[RW-1:0];",
         "    reg  [31:0]   cnt_hi_reg;     // CNT_HI: the high half of the counter read last",
         "    reg           rc_wait_reg;    // a counter read is waiting for its block's answer",
         ""]
    done, data = [], []
    for pre, w, amt, regs in groups():
        up = pre.upper()
        bases, total = _bases(regs)
        o += [f"    localparam integer {'CI_' + reg.name:24} = {base};" for reg, base in bases]
        o.append(f"    localparam integer {up + '_N':24} = {total};")
        o += [f"    localparam integer {up}_NR = {up}_N < 5 ? 5 : {up}_N;   // a block has at least 5 counters",
              f"    localparam integer {up}_AW = $clog2({up}_NR);",
              f"    wire [{up}_NR-1:0] {pre}_inc;",
              f"    wire [{up}_NR*{w}-1:0] {pre}_amt = {{{up}_NR{{{amt}}}}};",
              f"    wire          {pre}_done;",
              f"    wire [63:0]   {pre}_data;",
              f"    wire          {pre}_busy;   // never high at a handshake: one read at a time",
              "    generate",
              f"        if ({up}_NR > {up}_N) begin : g_{pre}_pad",
              f"            assign {pre}_inc[{up}_NR-1:{up}_N] = {{({up}_NR-{up}_N){{1'b0}}}};",
              "        end",
              "    endgenerate"]
        o += _incs(pre, regs)
        o += _read_index(pre, up, regs)
        o += [f"    prionic_stats #(.N({up}_NR), .INC_WIDTH({w}), .CNT_WIDTH(64)) u_{pre}_stats (",
              "        .clk(clk), .rst(rst),",
              f"        .inc({pre}_inc), .inc_amt({pre}_amt),",
              f"        .rd_req(do_read && {pre}_rsel), .rd_addr({pre}_ridx[{up}_AW-1:0]),",
              f"        .rd_busy({pre}_busy), .rd_done({pre}_done), .rd_data({pre}_data)",
              "    );", ""]
        done.append(f"{pre}_done")
        data.append(pre)
    sel = " || ".join(f"{pre}_rsel" for pre, *_r in groups()) or "1'b0"
    o.append(f"    wire          rc_sel = {sel};   // the read at this edge is of a counter")
    o.append(f"    wire          rc_done = {' || '.join(done) or '1b0'};")
    ans = f"{data[-1]}_data"
    for pre in reversed(data[:-1]):
        ans = f"{pre}_done ? {pre}_data : {ans}"
    return o + [f"    wire [63:0]   rc_data = {ans};", ""]


def _incs(pre: str, regs: list[Reg]) -> list[str]:
    """Each counter's increment enable: per instance of a queue or rule register."""
    o = [f"    // {pre}_inc: every counter of the block that counts at this edge"]
    for reg in regs:
        if reg.block == "global":
            o.append(f"    assign {pre}_inc[CI_{reg.name}] = {_cond(reg)};")
    for block, idx, qw in (("queue", "QI", "QW"), ("rule", "RI", "RW")):
        regs_b = [r for r in regs if r.block == block]
        if not regs_b:
            continue
        g = f"g_{pre}_{block}"
        o += [f"    genvar {g}_i;",
              "    generate",
              f"        for ({g}_i = 0; {g}_i < {COUNT[block]}; {g}_i = {g}_i + 1) begin : {g}",
              f"            localparam integer  {idx}_I = {g}_i;",
              f"            localparam [{qw}-1:0] {idx} = {idx}_I[{qw}-1:0];"]
        for reg in regs_b:
            o.append(f"            assign {pre}_inc[CI_{reg.name} + {idx}_I] = {_cond(reg)};")
        o += ["        end", "    endgenerate"]
    return o


def _read_index(pre: str, up: str, regs: list[Reg]) -> list[str]:
    """Whether the read at this edge is of a counter of the block, and its index: from the
    selects and instance registered one edge ahead (``rsel_*_reg``, ``rq_reg``, ``rr_reg``)."""
    o = [f"    reg          {pre}_rsel;",
         f"    reg [31:0]   {pre}_ridx;",
         "    always @* begin",
         f"        {pre}_rsel = 1'b0;",
         f"        {pre}_ridx = 32'd0;"]
    for reg in regs:
        inst = {"global": "", "queue": " + {{(32-QW){1'b0}}, rq_reg}", "rule": " + {{(32-RW){1'b0}}, rr_reg}"}
        o += [f"        if ({select_bit(reg)}) begin   // {reg.name}",
              f"            {pre}_rsel = 1'b1;",
              f"            {pre}_ridx = CI_{reg.name}{inst[reg.block]};",
              "        end"]
    return o + ["    end"]


def counter_regs() -> list[str]:
    """Names of the registers the counter blocks keep (for :func:`gen.regblock.module._unused`)."""
    return [f"{pre}_busy" for pre, *_r in groups()] + [f"{pre}_ridx" for pre, *_r in groups()]
