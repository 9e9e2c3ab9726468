"""What a write does and what counts in ``rtl/prionic_regs.v`` (layers of
:mod:`gen.regblock.module`):

* :func:`refusals`: per queue, whether this edge's write is refused (F24), and whether it is
  an accepted write that clears the queue's sticky bits;
* :func:`write`: the handshakes and the write case per block, with each register's
  ``accept`` rule (:func:`write_reg`; a refused write's flag and counter:
  :func:`refusal_effects`) and ``effects`` (:func:`side_effects`);
* :func:`counters`: ``count`` registers, on the verdict pulse and on event inputs;
* :func:`reset`: reset values.
"""

from __future__ import annotations

from gen.regblock.common import (
    COUNT,
    OFF,
    W_IDX,
    _bytewise,
    _kind,
    _lo,
    _offset,
    _pulse_zero,
    _slice,
    _src_bits,
    _stickies,
    _top,
    _touch,
    _w,
    _w1c,
)
from model.regmap import PULSES, REGS, Reg


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
    return o + [f"                        {ind}end"]


def _accept_cond(reg: Reg, idx: str, own: bool = False) -> str:
    """The Verilog condition under which a write of ``reg`` is kept: every ``accept`` rule.
    ``own``: a ``tail`` rule with the compare of queue ``idx``'s own HEAD, not the written
    queue's pick (the same value when ``idx`` is the written queue)."""
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
        elif own:  # tail, registered (tail_rule), this queue's HEAD compare
            conds.append(f"{_lo(reg.name)}_in_reg && {_lo(reg.name)}_fit[{idx}]")
        else:  # tail, registered (tail_rule)
            conds.append(f"{_lo(reg.name)}_ok")
    return " && ".join(conds)


def _refusing() -> list[Reg]:
    """The registers with ``accept`` rules: queue registers only (what the refusal flags and
    counters are kept for)."""
    regs = [reg for reg in REGS.values() if reg.accept and _kind(reg) == "rw"]
    for reg in regs:
        if reg.block != "queue":
            raise ValueError(f"{reg.name}: accept rules are supported on queue registers only")
    return regs


def refusals() -> list[str]:
    """Per queue, whether this edge's write is a refused write of one of its registers whose
    strobes select a byte of it (F24), each queue with its own accept conditions (F25: a
    ``tail`` rule's HEAD compare is the queue's own, not picked by the written queue in front
    of the refusal counter's enable)."""
    regs = _refusing()
    if not regs:
        return []
    o = ["    // refused writes (F24), per queue: its own accept conditions (F25: no pick by the",
         "    // written queue in front of the refusal flags and counters)",
         "    // and accepted writes that clear its sticky bits (the same per-queue conditions)",
         "    reg [NUM_QUEUES-1:0] q_refused;",
         *[f"    reg [NUM_QUEUES-1:0] q_{p};" for p in _sticky_clears()],
         "    integer rf_i;",
         "    always @* begin",
         "        for (rf_i = 0; rf_i < NUM_QUEUES; rf_i = rf_i + 1) begin",
         "            q_refused[rf_i] = do_write && w_in_q && wq == rf_i[QW-1:0] && ("]
    o.append(_arms(regs, negate=True) + ");")
    for pulse in _sticky_clears():
        o.append(f"            q_{pulse}[rf_i] = do_write && w_in_q && wq == rf_i[QW-1:0] && (")
        o.append(_arms(_pulsing(pulse), negate=False) + ");")
    return o + ["        end", "    end", ""]


def _arms(regs: list[Reg], negate: bool) -> str:
    """One line per register: a write of it whose strobes select a byte of it and that its
    queue's own accept conditions refuse (``negate``) or keep."""
    arms = []
    for reg in regs:
        cond = _accept_cond(reg, "rf_i", own=True)
        keep = f" && !({cond})" if negate else (f" && {cond}" if cond else "")
        arms.append(f"                (w_q_off == {OFF[reg.block]}{reg.name} && |(ws & {_touch(reg)}){keep})")
    return " ||\n".join(arms)


def _sticky_clears() -> dict[str, list[str]]:
    """Per pulse, the queue sticky bits an accepted write raising it clears
    (``sticky = {F = {clear = PULSE}}``; sticky bits are per queue, gen.regblock.common)."""
    clears: dict[str, list[str]] = {}
    for sreg in REGS.values():
        for field, _set, pulse in sreg.sticky:
            clears.setdefault(pulse, []).append(field)
    return dict(sorted(clears.items()))


def _pulsing(pulse: str) -> list[Reg]:
    """The queue registers whose accepted write raises ``pulse`` (``effects``)."""
    return [reg for reg in REGS.values() if reg.block == "queue" and f"pulse:{pulse}" in reg.effects]


def refusal_effects() -> list[str]:
    """What a refused write does (F24): the sticky bits ``set = "refused"`` and the counters
    ``count = "refused"`` of its queue."""
    if not _refusing():
        return []
    o = ["        for (i = 0; i < NUM_QUEUES; i = i + 1) begin", "            if (q_refused[i]) begin"]
    for _sreg, field in _stickies():
        o.append(f"                {_lo(field)}_reg[i] <= 1'b1;")
    for creg in REGS.values():
        if creg.block == "queue" and creg.count == "refused":
            c = f"{_lo(creg.name)}_reg[i]"
            o.append(f"                {c} <= {c} + 32'd1;")
    o.append("            end")
    for pulse, fields in _sticky_clears().items():  # an accepted write with the pulse clears them (F24)
        o.append(f"            if (q_{pulse}[i]) begin")
        o += [f"                {_lo(field)}_reg[i] <= 1'b0;" for field in fields]
        o.append("            end")
    return o + ["        end", ""]


def _byte_writes(reg: Reg, idx: str, w: int, ind: str) -> list[str]:
    """Each byte the strobe selects, stored on its own (``_bytewise``); ``zero_lsbs`` bits are
    not stored."""
    o = []
    base = f"{_offset(idx, w)} + " if reg.block != "global" else ""
    for b in range(0, w, 8):
        n = min(8, w - b)
        data = f"wd[{b + n - 1}:{b}]"
        if b < reg.zero_lsbs:
            data = f"({data} & ~{n}'d{(1 << min(reg.zero_lsbs - b, n)) - 1})"
        o += [f"                        {ind}if (ws[{b // 8}]) begin",
              f"                            {ind}{_lo(reg.name)}_reg[{base}{b} +: {n}] <= {data};",
              f"                        {ind}end"]
    return o


def write_reg(reg: Reg, idx: str) -> list[str]:
    """One case arm: store (W1C: clear pulses), honouring ``zero_lsbs`` and ``accept`` (every
    rule must hold, else nothing changes but the refusal's flag and counter), then the side effects."""
    o = [f"                    {OFF[reg.block]}{reg.name}: begin"]
    if _kind(reg) == "w1c":
        sw = _src_bits(reg)
        o.append(f"                        {_lo(reg.name)}_clr_reg <= wd[{_top(sw)}:0] & {_lo(reg.name)}_strb;")
        return o + ["                    end"]
    w = _w(reg.bits)
    ind = "    " if reg.accept else ""
    if reg.accept:  # the whole write, side effects too, only if every rule holds (F24)
        o.append(f"                        if ({_accept_cond(reg, idx)}) begin")
    if _bytewise(reg):
        o += _byte_writes(reg, idx, int(w), ind)
    else:
        new = f"{_lo(reg.name)}_wv[{_top(w)}:0]"
        if reg.zero_lsbs:
            new = f"({new} & ~{{{{({w}-{reg.zero_lsbs}){{1'b0}}}}, {{{reg.zero_lsbs}{{1'b1}}}}}})"
        o.append(f"                        {ind}{_slice(f'{_lo(reg.name)}_reg', reg, idx, w)} <= {new};")
    o += side_effects(reg, idx, ind)
    if reg.accept:  # a refused write: refusal_effects
        o.append("                        end")
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
    return o + ["            end", "        end", ""] + refusal_effects() + [
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
        if kind == "verdict" and reg.block == "global":
            if arg:
                o += [f"            if (stat_verdict_code == VERDICT_{arg}) begin",
                      f"                {r} <= {r} + {inc};",
                      "            end"]
            else:
                o.append(f"            {r} <= {r} + {inc};")
        elif kind == "verdict":
            # each queue's counter with its own adder, enabled by the verdict's queue (F25:
            # no pick by the verdict's queue in front of the carry chain)
            code = f" && stat_verdict_code == VERDICT_{arg}" if arg else ""
            o += ["            for (i = 0; i < NUM_QUEUES; i = i + 1) begin",
                  f"                if (vq == i[QW-1:0]{code}) begin",
                  f"                    {r}[i] <= {r}[i] + {inc};",
                  "                end",
                  "            end"]
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
