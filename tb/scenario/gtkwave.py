"""The GTKWave save file of a scenario run: signal groups, translate filters for enums,
and the focus on the most interesting stretch.
"""

from __future__ import annotations

import re
from pathlib import Path

from model import regmap

GTKW_GROUPS = [
    ("clock and reset", [("clk", 28), ("rst", 28)]),
    ("stream input (F1)", [("s_axis_tvalid", 28), ("s_axis_tready", 28), ("s_axis_tlast", 28),
                           ("s_axis_tuser", 28)]),
    ("verdicts (F3, F5, F12)", [("stat_verdict_valid", 28), ("stat_verdict_code[3:0]", "verdict"),
                                ("stat_verdict_queue[7:0]", 24), ("stat_verdict_rule[7:0]", 24)]),
    ("DMA (F12)", [("dma_inst.write_inst.state_reg[3:0]", "dma_state"),
                   ("m_axi_awvalid", 28), ("m_axi_awready", 28), ("m_axi_awaddr[31:0]", 22),
                   ("m_axi_wvalid", 28), ("m_axi_bvalid", 28)]),
    ("interrupts (F14, F15)", [("stat_irq[{nq1}:0]", 22), ("irq[{nq1}:0]", 22), ("irq_legacy", 28)]),
]


# where the fast path's top holds the DUT (tb/hdl/prionic_tb_fast.v: prionic_tb_nic nic_inst,
# prionic_rx dut); a save file names every signal below it
FAST_DUT_PATH = "nic_inst.dut"
MODERATION_REGS = [("pending_reg[15:0]", 24), ("pkt_run_reg", 28), ("pkt_cnt_reg[15:0]", 24), ("abs_run_reg", 28),
                   ("abs_cnt_reg[15:0]", 24), ("gap_cnt_reg[15:0]", 24), ("cause_reg", 28)]

TR_DEC_RJUSTIFY = 0x24       # GTKWave trace flags: decimal, right-justified
TR_FTRANSLATED = 0x2000      # ... shown through a translate filter file


def gtkw_filters(out: Path) -> dict[str, Path]:
    """GTKWave translate filter files (decimal value -> name) for the enumerations of
    docs/regmap.toml, written into ``out``: a waveform shows ``UNREGISTERED``, not ``4``."""
    enums = {"verdict": regmap.VERDICTS, **regmap.ENUMS}
    paths = {}
    for name, values in enums.items():
        path = out / f"filter_{name}.txt"
        path.write_text(f"# GTKWave translate filter: {name} codes of docs/regmap.toml (written by tb.scenario)\n"
                        + "".join(f"{v} {k}\n" for k, v in sorted(values.items(), key=lambda kv: kv[1])))
        paths[name] = path
    return paths


def gtkw_text(fst: Path, nq: int, focus_ns: int = 0, top: str = "prionic_rx",
              filters: dict[str, Path] | None = None) -> str:
    """A GTKWave save file that opens on the stream, verdicts, DMA, per-queue moderation
    state and interrupt lines, about 2 us before ``focus_ns``. A signal whose format is an
    enumeration's name is shown through that enumeration's filter file (``filters``).
    The filter files are named by their file names alone (GTKWave finds them beside the
    save file), and the waveform by its absolute path together with the save file's own
    (``[savefile]``): GTKWave, opening a save file that has moved, looks for the waveform
    at the same place relative to it. So a copied or moved output directory keeps its
    waveform and filters (the save file is written beside the waveform)."""
    filters = {k: Path(v.name) for k, v in (filters or {}).items()}
    ids = {name: i + 1 for i, name in enumerate(filters)}
    start_ps = max(0, focus_ns - 2000) * 1000
    out = ["[*] prionic: GTKWave save file written by `make sim`",
           f'[dumpfile] "{fst.resolve()}"', f'[savefile] "{fst.resolve().with_name("waves.gtkw")}"',
           f"[timestart] {start_ps}", "[size] 1600 900",
           "[pos] -1 -1", f"*-20.000000 {focus_ns * 1000}",
           *(f"[treeopen] {'.'.join(top.split('.')[:n])}." for n in range(1, top.count(".") + 2)),
           "[sst_width] 260", "[signals_width] 300",
           "[sst_expanded] 1", "[sst_vpaned_height] 300"]
    for title, sigs in GTKW_GROUPS:
        out += ["@200", f"-{title}"]
        for name, fmt in sigs:
            if isinstance(fmt, str):  # an enumeration
                if fmt in filters:
                    out += [f"^{ids[fmt]} {filters[fmt]}", f"@{TR_FTRANSLATED | TR_DEC_RJUSTIFY:x}"]
                else:
                    out += [f"@{TR_DEC_RJUSTIFY:x}"]
            else:
                out += [f"@{fmt}"]
            out += [f"{top}.{name.format(nq1=nq - 1)}"]
    for q in range(nq):
        out += ["@200", f"-queue {q} moderation"]
        for name, fmt in MODERATION_REGS:
            out += [f"@{fmt}", f"{top}.moderation_inst.g_queue[{q}].{name}"]
    return "\n".join(out) + "\n"


def gtkw_signals(nq: int) -> list[str]:
    """Every signal a save file names, below the DUT, without bit ranges
    (``dma_inst.write_inst.state_reg``, ``moderation_inst.g_queue[0].pending_reg``)."""
    names = [name.format(nq1=nq - 1) for _title, sigs in GTKW_GROUPS for name, _fmt in sigs]
    names += [f"moderation_inst.g_queue[{q}].{name}" for q in range(nq) for name, _fmt in MODERATION_REGS]
    return [re.sub(r"\[\d+:\d+\]$", "", n) for n in names]


def missing_signals(dut, nq: int) -> list[str]:
    """The save file's signals that the simulator's hierarchy under ``dut`` (a cocotb handle
    of prionic_rx) does not have: a renamed register or instance would otherwise vanish from
    the waveform without a word."""
    missing = []
    for name in gtkw_signals(nq):
        h = dut
        try:
            for part in name.split("."):
                m = re.fullmatch(r"(\w+)\[(\d+)\]", part)
                h = getattr(h, m[1])[int(m[2])] if m else getattr(h, part)
        except (AttributeError, IndexError, KeyError):
            missing.append(name)
    return missing
