"""tb/runner.py: what a Verilator build of a testbench top lets Python reach (F26, F28;
docs/fastpath.md section 6)."""

from __future__ import annotations

import re

import pytest

from tb.runner import HDL_CLOCK_TOPS, TB_HDL, ports_vlt, sources_for


@pytest.mark.parametrize("top", sorted(HDL_CLOCK_TOPS))
def test_ports_vlt_makes_exactly_the_ports_public(top: str) -> None:
    """The HDL-clock tops make public only their ports: each input writable, each output
    readable, no wire of the interconnect (which would put the logic it feeds in
    Verilator's input phase, re-evaluated on every clock toggle)."""
    text = ports_vlt(top).read_text()
    line = r'^(public_flat_r[dw]) -module "' + top + r'" -var "(\w+)"$'
    got = {name: kind for kind, name in re.findall(line, text, re.M)}
    assert text.splitlines()[0] == "`verilator_config" and len(got) == len(text.splitlines()) - 1, text
    src = next(p for p in sources_for(top) if p.stem == top).read_text()
    ports = re.findall(r"^\s*(input|output)\s+(?:wire|reg)\s*(?:\[[^\]]*\]\s*)?(\w+)\s*[,)/]", src, re.M)
    want = {name: "public_flat_rd" if d == "output" else "public_flat_rw" for d, name in ports}
    assert want and got == want, (got, want)
    wires = set(re.findall(r"^\s*wire\s+(?:\[[^\]]*\]\s*)?(\w+)", src, re.M))
    assert wires and not wires & set(got), "an internal wire was made public"


def test_ports_vlt_sees_a_new_port(tmp_path, monkeypatch) -> None:
    """A port added to a top's header reaches the file (no list kept by hand)."""
    src = TB_HDL / "prionic_tb_fast.v"
    go = "    input  wire        go,"
    text = src.read_text().replace(go, go + "\n    input  wire [3:0]  extra_knob,", 1)
    assert "extra_knob" in text
    copy = tmp_path / "prionic_tb_fast.v"
    copy.write_text(text)
    monkeypatch.setattr("tb.runner.sources_for", lambda top: [copy])
    assert 'public_flat_rw -module "prionic_tb_fast" -var "extra_knob"' in ports_vlt("prionic_tb_fast").read_text()
