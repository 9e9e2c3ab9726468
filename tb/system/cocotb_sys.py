"""cocotb test of the full system (F28, docs/system.md): a VexRiscv running the firmware of
sw/fw/ (kernel, driver, tasks) beside prionic_rx in tb/hdl/sys/prionic_tb_sys.v, the NIC
checked against the golden model as on the fast path (tb/system/system.py).

* ``SystemRunTest``: boot, configure, the frames of ``tb.system.system.sys_schedule`` (two flows and
  an unregistered one), the firmware's read-back and summary; then the scoreboard (0
  mismatches) and the firmware's own counts against what the model delivered.
* ``PaperRunTest``: one of the firmware's paper configurations (docs/paper.md;
  ``PRIONIC_FW_CONFIG``, default prionic) under the traffic of a scenario file
  (``PRIONIC_SCENARIO``, default scenarios/paper.toml; its ``duration_us`` or
  ``PRIONIC_DURATION_US``), checked the same way; its report has the critical task's
  response times as the firmware measured them (``python -m bench.paper_sys``).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import time
from pathlib import Path

import cocotb
import pyuvm
from pyuvm import uvm_test

from model import regmap
from tb.common import make_rng
from tb.runner import ROOT
from tb.scenario.spec import load
from tb.scenario.traffic import schedule
from tb.system.memory import dma_bounds
from tb.system.system import SysResult, SysRun, paper_report, sys_schedule
from tb.top.host import fletcher32
from tb.top.monitor import AwBurst
from tb.top.procedure import model_config
from tb.top.scoreboard import check

# F24: the buffer of queue 1's slot 5, the sixth best-effort frame's (sw/fw/board/sysmap.h BUF_REGION
# + BUF_STRIDE + 5 x 512): its data burst is answered SLVERR, the queue stops, the firmware recovers it
FAULT_ADDR = 0x0002_0000 + 0x0006_0000 + 5 * 512


class _SystemTest(uvm_test):
    """What both tests share: one run of the firmware and the scoreboard's check of it."""

    result: SysResult | None
    wall_s: float

    async def _run(self, schedule, **kwargs) -> None:
        self.raise_objection()
        workdir = Path(os.environ["PRIONIC_SYS_DIR"])
        sysrun = SysRun(self.dut, self.cfg, schedule, Path(os.environ["PRIONIC_FW_DIR"]), workdir,
                        log=self.logger, **kwargs)
        t = time.monotonic()
        self.result = await sysrun.run()
        self.wall_s = time.monotonic() - t
        self.logger.info("system: %d cycles in %.1f s; console:\n%s", self.result.run.observed.last_cycle,
                         self.wall_s, self.result.console)
        self.drop_objection()

    def _checked(self):
        """No scoreboard mismatch, and the firmware read per queue what the model delivered;
        returns the model."""
        assert self.result is not None, "run_phase did not finish"
        res = self.result
        model, mismatches = check(res.run)
        for m in mismatches[:20]:
            self.logger.error(m)
        assert not mismatches, f"{len(mismatches)} scoreboard mismatches (first: {mismatches[0]})"
        assert model is not None
        for q in range(self.cfg.num_queues):
            exp = [o for o in model.expected_completions(q) if o.dma != "wb_err"]
            # a queue the firmware never reaps (a sink): the scoreboard held what the ring
            # holds to the model (tb/system/system.py sink_delivered); the firmware read none
            want = 0 if res.summary["unreaped"] >> q & 1 else len(exp)
            assert res.summary[f"frames{q}"] == want, \
                f"q{q}: the firmware handled {res.summary[f'frames{q}']} frames, the model delivered {len(exp)}"
        return model


@pyuvm.test(timeout_time=10_000_000, timeout_unit="us")
class SystemRunTest(_SystemTest):
    """F16, F24, F28: the firmware receives two flows by DMA and interrupts and recovers a queue
    stopped by a DMA error; every NIC event, every completion it reaped (with its bytes) and
    every register it read back matches the model."""

    def build_phase(self) -> None:
        self.dut = cocotb.top
        self.rng = make_rng(self.dut)
        self.cfg = model_config()
        self.result: SysResult | None = None
        self.wall_s = 0.0

    async def run_phase(self) -> None:
        await self._run(sys_schedule(self.rng), fault_addr=FAULT_ADDR)

    def check_phase(self) -> None:
        model = self._checked()
        res = self.result
        assert res is not None
        run = res.run
        # the check bites on this run: one byte the firmware read, one register it read back
        # or one DMA burst changed is a mismatch
        wrong = copy.deepcopy(run)
        d = wrong.delivered[0][0]
        d.data = bytes([d.data[0] ^ 1]) + d.data[1:]
        assert check(wrong)[1], "a changed delivered byte went unnoticed"
        wrong = copy.deepcopy(run)
        d = wrong.delivered[1][-1]
        d.data, d.csum = None, fletcher32(d.data) ^ 1   # as a reused buffer: only its checksum
        assert check(wrong)[1], "a wrong checksum of a reused buffer went unnoticed"
        wrong = copy.deepcopy(run)
        addr = regmap.addr("CNT_RX_FRAMES")
        wrong.registers[addr] ^= 1
        assert check(wrong)[1], "a changed register value went unnoticed"
        burst = run.observed.bursts[-1]
        assert dma_bounds([AwBurst(burst.cycle, 0x100, 1, 8)], {0: (0x10000, 1)}, [], []), \
            "a DMA burst into the firmware went unnoticed"
        obs = run.observed
        for q in range(2):   # the test configuration's two queues (the build's third stays unused)
            assert model.expected_completions(q), f"q{q}: the run is meant to deliver frames of both flows"
        # F24: one DATA_ERR on queue 1, one recovery by the firmware, and queue 1 delivers after it
        ev = regmap.ENUMS["dma_event"]
        errs = [e for e in obs.dma_events if e[2] == ev["DATA_ERR"]]
        assert [(q, code) for _e, q, code in errs] == [(1, ev["DATA_ERR"])], f"DMA events {obs.dma_events}"
        assert res.summary["recoveries"] == 1, f"the firmware recovered {res.summary['recoveries']} queues"
        assert any(c > errs[0][0] for c, q, _s in obs.completions if q == 1), "queue 1 delivered nothing after it"
        assert any(d.status >> regmap.DESC["status_err"] & 1 for d in run.delivered[1]), "no ERR completion reaped"
        # the unregistered flow was dropped with its verdict
        unreg = regmap.VERDICTS["UNREGISTERED"]
        assert sum(1 for v in obs.verdicts if v[1] == unreg) == 2, "two frames of no rule: UNREGISTERED"
        # queue 1 is moderated: at least one interrupt covered more than one frame
        fires1 = [f for f in obs.fires if f[1] == 1]
        assert 0 < len(fires1) < res.summary["frames1"], \
            f"q1: {len(fires1)} interrupts for {res.summary['frames1']} frames: no moderated interrupt"
        # the kernel wrote RUN_PRIO at its switches (F16), with more than one priority
        prio = [d for _w, a, d, _s in obs.reg_writes if a == regmap.addr("RUN_PRIO")]
        assert len(prio) == res.summary["switches"] and len(set(prio)) > 2, \
            f"RUN_PRIO writes {len(prio)} ({sorted(set(prio))}), kernel switches {res.summary['switches']}"
        assert res.summary["crit_frames"] == 8 and res.summary["crit_lost"] == 0, res.summary
        assert "prionic fw: summary" in res.console and "critical frames 8" in res.console, res.console

    def report_phase(self) -> None:
        assert self.result is not None
        res = self.result
        out = Path(os.environ["PRIONIC_SYS_DIR"]) / "report.json"
        out.write_text(json.dumps({"summary": res.summary, "cycles": res.cycles, "wall_s": round(self.wall_s, 2),
                                   "run_wall_s": round(res.run_wall_s, 4),
                                   "last_cycle": res.run.observed.last_cycle, "console": res.console,
                                   "log": res.log},
                                  indent=2) + "\n")


@pyuvm.test(timeout_time=100_000_000, timeout_unit="us")
class PaperRunTest(_SystemTest):
    """F16, F23, F28: the paper's main workload (scenarios/paper.toml) on the full system in
    one of the firmware's host configurations: every NIC event, every frame the firmware read
    and every register it read back matches the model; the critical task's response times
    are the firmware's own (mtime at the end of the task minus the write-back's TIMESTAMP),
    cross-checked against the frame's tlast edge as the recorder saw it."""

    def build_phase(self) -> None:
        self.dut = cocotb.top
        self.cfg = model_config()
        path = os.environ.get("PRIONIC_SCENARIO") or str(ROOT / "scenarios" / "paper.toml")
        sc = load(path)
        if os.environ.get("PRIONIC_DURATION_US"):
            sc = dataclasses.replace(sc, duration_us=float(os.environ["PRIONIC_DURATION_US"]))
        self.sc = sc
        self.result: SysResult | None = None
        self.wall_s = 0.0
        self.report: dict = {}

    async def run_phase(self) -> None:
        await self._run(schedule(self.sc), mode=os.environ.get("PRIONIC_FW_CONFIG", "prionic"))

    def check_phase(self) -> None:
        model = self._checked()
        assert self.result is not None
        self.report = paper_report(self.sc, self.result, model, self.wall_s)   # raises if the cross-check fails
        self.logger.info("paper on the full system: critical %s", json.dumps(self.report["critical"]))

    def report_phase(self) -> None:
        out = Path(os.environ["PRIONIC_SYS_DIR"]) / "report.json"
        out.write_text(json.dumps(self.report, indent=2) + "\n")
