"""pytest entry: the full system (F28, docs/system.md), a VexRiscv running the firmware of
sw/fw/ beside prionic_rx (tb/hdl/sys/prionic_tb_sys.v), on each simulator.

``test_system_run`` builds the firmware (``make fw``, under a lock: one build for the pytest
workers), then runs tb/cocotb_sys.py: boot, configure through the driver, 22 frames of two
flows and an unregistered one, moderated and immediate interrupts, the kernel's RUN_PRIO
writes, a DMA error on the best-effort queue and the firmware's recovery of it, the
firmware's read-back; the scoreboard must find no mismatch and the firmware's counts must be
the model's.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tb.runner import ROOT, SIMULATORS
from tb.system import build_firmware, run_system

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
