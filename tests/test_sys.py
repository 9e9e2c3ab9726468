"""pytest entry: the full system (F28, docs/system.md), a VexRiscv running the firmware of
sw/fw/ beside prionic_rx (tb/hdl/sys/prionic_tb_sys.v), on each simulator.

``test_system_run`` builds the firmware (``make fw``, under a lock: one build for the pytest
workers), then runs tb/system/cocotb_sys.py: boot, configure through the driver, 22 frames of two
flows and an unregistered one, moderated and immediate interrupts, the kernel's RUN_PRIO
writes, a DMA error on the best-effort queue and the firmware's recovery of it, the
firmware's read-back; the scoreboard must find no mismatch and the firmware's counts must be
the model's. ``test_paper_config_run`` runs the firmware's prionic configuration of the
paper on a short piece of its workload (docs/paper.md section 4 runs all of it).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tb.common import amount
from tb.runner import ROOT, SIMULATORS
from tb.system.system import build_firmware, run_system

FW_DIR = ROOT / "out" / "fw"


@pytest.mark.parametrize("sim", SIMULATORS)
def test_system_run(sim: str, tmp_path: Path) -> None:
    """F16, F24, F28: the firmware's run on the system top is the model's, on `sim`."""
    t = time.monotonic()
    fw = build_firmware(FW_DIR)
    rep = run_system(sim, tmp_path / "run", fw)
    print(f"[prionic] system run on {sim}: {rep['last_cycle']} cycles, {rep['wall_s']} s in the simulator, "
          f"{time.monotonic() - t:.1f} s with the build\n{rep['console']}")
    # the cocotb test held the counts to the model; the control flow loses nothing
    assert rep["summary"]["frames0"] == 8 and rep["summary"]["frames1"] > 0 and rep["summary"]["recoveries"] == 1


@pytest.mark.parametrize("config", ["prionic", "i210"])
@pytest.mark.parametrize("sim", SIMULATORS)
def test_paper_config_run(sim: str, config: str, tmp_path: Path) -> None:
    """F6, F16, F23, F28: a paper configuration of the firmware under 300 us of
    scenarios/paper.toml's traffic with its flood from 50 us on (180 us and 20 us on Icarus; a
    control frame, telemetry, bulk, the flood) is the model's on `sim`, and the firmware's
    response times agree with the recorder's edges (tb/system/cocotb_sys.py PaperRunTest;
    `python -m bench.paper_sys` runs the whole 50 ms). ``prionic``: three rules, the default
    action drop, a moderated 96-slot ring and an immediate one. ``i210``: three 2-tuple filters,
    the rest to a sink queue (a ring of one buffer the firmware never reaps, its interrupt
    masked from the start): after one frame the NIC drops the flood as RING_FULL, the sink's
    line never rises, and the testbench reads the sink's one frame from memory and holds it to
    the model. (The i210 of `make paper`, the host CPU model's, runs the same NIC settings.)"""
    text = (ROOT / "scenarios" / "paper.toml").read_text()
    assert "start_us = 1000" in text, "scenarios/paper.toml's flood no longer starts at 1000 us"
    scenario = tmp_path / "paper-short.toml"
    # Icarus, the slower simulator: 180 us with the flood from 20 us (still over 20 flood frames)
    scenario.write_text(text.replace("start_us = 1000", f"start_us = {amount(50, sim, icarus=0.4)}"))
    fw = build_firmware(FW_DIR)
    rep = run_system(sim, tmp_path / "run", fw, testcase="PaperRunTest",
                     extra_env={"PRIONIC_SCENARIO": str(scenario), "PRIONIC_FW_CONFIG": config,
                                "PRIONIC_DURATION_US": str(amount(300, sim, icarus=0.6))})
    crit = rep["critical"]
    print(f"[prionic] paper configuration {config} on {sim}: {rep['cycles']['last']} cycles, {rep['wall_s']} s; "
          f"critical {crit}, sent {rep['sent']}, delivered {rep['delivered']}")
    assert crit["sent"] == 1 and crit["handled"] == 1 and crit["deadline_misses"] == 0
    assert rep["sent"].get("flood", 0) > 20 and rep["delivered"]["flood"] == 0.0, "the flood never reaches a task"
    assert rep["sent"].get("bulk", 0) > 0 and rep["delivered"]["bulk"] == 1.0
    s = rep["summary"]
    flood = rep["verdicts"]["flood"]
    if config == "i210":   # the sink: set up, never reaped, its interrupt masked; the flood's one frame in it
        assert flood == {"ACCEPT": 1, "RING_FULL": rep["sent"]["flood"] - 1}, flood
        assert s["unreaped"] == 0b100 and s["frames2"] == 0 and s["early_drops"] == 0
        # its one frame raised the sink's cause once (a stat_irq pulse); IRQ_MASK kept the line low
        assert rep["irq_pulses_q"][2] == 1 and rep["irq_rises_q"][2] == 0, (rep["irq_pulses_q"], rep["irq_rises_q"])
    else:
        assert flood == {"UNREGISTERED": rep["sent"]["flood"]}, flood
        assert s["unreaped"] == 0 and s["frames2"] == 0
