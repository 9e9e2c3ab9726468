"""The code-coverage half of `make coverage` (F30, tb/coverage/covreport.py) on a small synthetic
coverage.dat, without a simulator: per-module summary, rtl/ only, waivers, lcov clean-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from tb.coverage import covreport

RTL = covreport.RTL


def _point(file: Path, line: int, page: str, o: str, count: int, hier: str = "top") -> str:
    key = "\x01".join(f"{k}\x02{v}" for k, v in (("f", str(file)), ("l", str(line)), ("n", "1"), ("page", page),
                                                    ("o", o), ("h", hier)))
    return f"C '\x01{key}' {count}\n"


def _dat(tmp_path: Path) -> Path:
    dma, tbv = RTL / "prionic_dma.v", covreport.ROOT / "tb" / "hdl" / "prionic_tb_player.v"
    text = "# SystemC::Coverage-3\n" + "".join([
        _point(dma, 10, "v_line/prionic_dma", "block", 5),
        _point(dma, 11, "v_branch/prionic_dma", "if", 0),
        _point(dma, 12, "v_line/prionic_dma", "block", 0),         # waived below
        _point(dma, 20, "v_toggle/prionic_dma", "a:0->1", 1),
        _point(dma, 20, "v_toggle/prionic_dma", "a:1->0", 0, "top.x"),
        _point(dma, 20, "v_toggle/prionic_dma", "a:1->0", 3, "top.y"),  # another instance hit it
        _point(tbv, 5, "v_line/prionic_tb_player", "block", 0),     # not rtl/: left out
    ])
    path = tmp_path / "merged.dat"
    path.write_text(text)
    return path


def test_summary_per_module(tmp_path: Path) -> None:
    waivers = {("prionic_dma.v", 12): "reason"}
    s = covreport.summarise(_dat(tmp_path), waivers)
    assert set(s) == {"prionic_dma"}
    assert s["prionic_dma"]["line"] == [1, 2] and s["prionic_dma"]["waived"] == [1]
    assert s["prionic_dma"]["toggle"] == [2, 2]
    only = covreport.split_dat(_dat(tmp_path), "toggle", tmp_path / "t.dat").read_text().splitlines()
    assert len(only) == 1 + 3 and all("v_toggle" in line for line in only[1:])


def test_waiver_file_and_lcov(tmp_path: Path) -> None:
    rtl = tmp_path / "rtl"
    rtl.mkdir()
    (rtl / "m.v").write_text("module m;\n  a <= 1;\n  default: x <= 0;\n  b <= 1;\n  b <= 1;\nendmodule\n")
    w = tmp_path / "w.txt"
    w.write_text("# comment\n\nrtl/m.v  `default: x <= 0;`  never reached: a reason\n")
    assert covreport.load_waivers(w, rtl) == {("m.v", 3): "never reached: a reason"}
    w.write_text("rtl/m.v  `a <= 1;`+1  two lines\n")
    assert covreport.load_waivers(w, rtl) == {("m.v", 2): "two lines", ("m.v", 3): "two lines"}
    for bad, why in (("prionic_dma.v 12\n", "expected"), ("rtl/m.v  `c <= 1;`  r\n", "on no line"),
                     ("rtl/m.v  `b <= 1;`  r\n", "on 2 lines"), ("rtl/n.v  `a`  r\n", "no file")):
        w.write_text(bad)
        with pytest.raises(ValueError, match=why):
            covreport.load_waivers(w, rtl)
    info = tmp_path / "l.info"
    info.write_text(f"TN:x\nSF:{RTL / 'prionic_dma.v'}\nDA:10,5\nDA:12,0\nDA:13,0\nLF:3\nLH:1\nend_of_record\n")
    covreport.drop_waived(info, {("prionic_dma.v", 12): "r"})
    assert info.read_text().splitlines()[2:6] == ["DA:10,5", "DA:13,0", "LF:2", "LH:1"]


def test_the_waivers_of_the_repository_parse() -> None:
    for (file, line), reason in covreport.load_waivers().items():
        assert (RTL / file).exists() and line <= len((RTL / file).read_text().splitlines()) and reason


def test_toggle_lines_count_their_least_toggled_bit(tmp_path: Path) -> None:
    dat = covreport.split_dat(_dat(tmp_path), "toggle", tmp_path / "t.dat")
    info = tmp_path / "t.info"
    info.write_text(f"TN:x\nSF:{RTL / 'prionic_dma.v'}\nDA:20,4\nLF:1\nLH:1\nend_of_record\n")
    covreport.toggle_lines_min(info, dat)
    assert info.read_text().splitlines()[2:5] == ["DA:20,1", "LF:1", "LH:1"]  # least bit, best instance
