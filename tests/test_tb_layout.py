"""The layout of tb/, checked (F27).

The rule:

- ``tb/`` itself holds only the shared modules every part uses: ``runner.py`` (builds and
  runs a simulation on Icarus or Verilator), ``cdc.py`` (the clock-domain-crossing check),
  ``common.py`` and ``timebase.py``, and the package's ``__init__.py``;
- everything else sits in a folder that says what it tests: ``blocks/<block>/`` (one RTL
  block: its cocotb test and, where it has one, its reference ``ref.py``), ``top/`` (the
  environment of prionic_rx and prionic_eth_rx and the top's tests), ``fast/``, ``system/``,
  ``scenario/``, ``coverage/``, ``soc/`` (pieces of the LiteX SoC, soc/), and ``hdl/`` (the
  Verilog harnesses and, in ``hdl/ecp5/``, models of the FPGA primitives they need);
- a block folder is named after the RTL file(s) it tests (``blocks/dma/`` tests
  ``rtl/prionic_dma*.v``) and holds at least one cocotb module ``cocotb_*.py``;
- every cocotb module is run by a launcher, a pytest file in ``tests/`` or the runner of a
  tool in ``tb/`` or ``soc/`` that such a file calls (``tb/scenario/run.py``,
  ``tb/system/system.py``, ``soc/sim.py``), and
  every module a launcher names exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = {"__init__.py", "runner.py", "cdc.py", "common.py", "timebase.py"}
FOLDERS = {"blocks", "top", "fast", "system", "scenario", "coverage", "hdl", "soc"}
# a launcher names its cocotb module as a dotted string: "tb.blocks.dma.cocotb_dma"
LAUNCHED = re.compile(r"[\"'](tb\.[a-z_.]*cocotb_[a-z_]+)[\"']")


def layout_problems(root: Path) -> list[str]:
    """Every way the tree under ``root`` breaks the rule above, in words; [] when it holds."""
    tb = root / "tb"
    problems = [f"tb/{p.name}: not a shared module; it belongs in a folder of tb/"
                for p in sorted(tb.glob("*.py")) if p.name not in SHARED]
    problems += [f"tb/{p.name}/: not one of {sorted(FOLDERS)}"
                 for p in sorted(tb.iterdir()) if p.is_dir() and p.name not in FOLDERS and p.name != "__pycache__"]
    problems += [f"tb/{p.name}: a file at tb/ that is not Python" for p in sorted(tb.iterdir())
                 if p.is_file() and p.suffix != ".py" and p.name != "verilator_one_pch.mk"]
    blocks = tb / "blocks"
    for b in sorted(p for p in blocks.iterdir() if p.is_dir() and p.name != "__pycache__") if blocks.is_dir() else []:
        where = f"tb/blocks/{b.name}/"
        if not (b / "__init__.py").is_file():
            problems.append(f"{where}: no __init__.py")
        if not list(b.glob("cocotb_*.py")):
            problems.append(f"{where}: no cocotb module")
        if not list((root / "rtl").glob(f"prionic_{b.name}*.v")):
            problems.append(f"{where}: no rtl/prionic_{b.name}*.v")
        if list(b.glob("test_*.py")):
            problems.append(f"{where}: a pytest file; launchers are tests/test_<block>.py")
    cocotb_modules = {".".join(p.relative_to(root).with_suffix("").parts) for p in tb.rglob("cocotb_*.py")}
    launchers = [p for p in sorted((root / "tests").glob("*.py")) if p.name != Path(__file__).name]
    launchers += [p for p in sorted(tb.rglob("*.py")) if not p.name.startswith("cocotb_")]
    launchers += sorted((root / "soc").glob("*.py"))
    launched: set[str] = set()
    for f in launchers:
        launched |= set(LAUNCHED.findall(f.read_text()))
    problems += [f"{m}: named by a launcher but not a module" for m in sorted(launched - cocotb_modules)]
    problems += [f"{m}: a cocotb module no launcher runs" for m in sorted(cocotb_modules - launched)]
    return problems


def test_tb_layout_holds():
    assert layout_problems(ROOT) == []


def test_sync_block_tests_its_rtl():
    """A block folder may test several files of its prefix: blocks/sync/ the synchronisers
    prionic_sync_bit.v and prionic_sync_count.v."""
    assert list((ROOT / "rtl").glob("prionic_sync_*.v"))
    assert (ROOT / "tb" / "blocks" / "sync" / "cocotb_sync.py").is_file()


def _tree(tmp: Path) -> Path:
    """A small tree that obeys the rule: one block, one launcher."""
    (tmp / "rtl").mkdir()
    (tmp / "rtl" / "prionic_fifo.v").write_text("")
    (tmp / "tb" / "blocks" / "fifo").mkdir(parents=True)
    for f in ("tb/__init__.py", "tb/runner.py", "tb/blocks/__init__.py", "tb/blocks/fifo/__init__.py",
              "tb/blocks/fifo/cocotb_fifo.py"):
        (tmp / f).write_text("")
    (tmp / "tests").mkdir()
    (tmp / "tests" / "test_fifo.py").write_text('run_sim(sim, "prionic_fifo", "tb.blocks.fifo.cocotb_fifo", {})\n')
    return tmp


def test_rule_accepts_a_tree_that_obeys_it(tmp_path):
    assert layout_problems(_tree(tmp_path)) == []


def test_rule_catches_planted_breaks(tmp_path):
    """A module dropped at tb/, an unknown folder, a block with no RTL, an orphan cocotb
    module and a launcher naming a module that is not there: each is reported."""
    root = _tree(tmp_path)
    (root / "tb" / "helpers.py").write_text("")
    (root / "tb" / "misc").mkdir()
    (root / "tb" / "blocks" / "widget").mkdir()
    (root / "tb" / "blocks" / "widget" / "__init__.py").write_text("")
    (root / "tb" / "blocks" / "widget" / "cocotb_widget.py").write_text("")
    (root / "tests" / "test_gone.py").write_text('run_sim(sim, "prionic_x", "tb.top.cocotb_gone", {})\n')
    got = "\n".join(layout_problems(root))
    for expected in ("tb/helpers.py: not a shared module", "tb/misc/: not one of",
                     "tb/blocks/widget/: no rtl/prionic_widget",
                     "tb.blocks.widget.cocotb_widget: a cocotb module no launcher",
                     "tb.top.cocotb_gone: named by a launcher"):
        assert expected in got, got
