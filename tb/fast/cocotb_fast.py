"""cocotb tests of the fast co-simulation path (F26): prionic_tb_fast (tb/hdl/) with the
host in Python woken only by interrupts, responses and coarse timers (tb/fast/fastpath.py).

* ``FastScenarioTest``: the scenario named by PRIONIC_SCENARIO, checked against the
  golden model by the same scoreboard as the bus path; writes the report into
  PRIONIC_OUT and, with PRIONIC_RECORD set, the event records as JSON for a comparison
  with the bus path (tests/test_fastpath.py).
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import cocotb
import pyuvm
from pyuvm import uvm_test

from tb.common import make_rng
from tb.coverage import funccov
from tb.fast.fastpath import FastRun, fast_env_paths, write_observed
from tb.scenario import (
    build_report,
    cpu_report,
    host_rng,
    load,
    pcap_time_base,
    report_text,
    schedule,
    write_pcaps,
    write_trace,
)
from tb.scenario.gtkwave import FAST_DUT_PATH, missing_signals
from tb.top.procedure import model_config, scenario_knobs
from tb.top.scoreboard import check


@pyuvm.test(timeout_time=100_000_000, timeout_unit="us")
class FastScenarioTest(uvm_test):
    """F21, F22, F26: a scenario's traffic through the fast path, checked against the model."""

    def build_phase(self) -> None:
        self.dut = cocotb.top
        self.rng: random.Random = make_rng(self.dut)
        self.cfg = model_config()
        self.scenario = load(os.environ["PRIONIC_SCENARIO"])
        self.fast: FastRun | None = None
        self.model = None
        self.model_s = 0.0

    async def run_phase(self) -> None:
        self.raise_objection()
        sc = self.scenario
        workdir, progress = fast_env_paths()
        self.fast = FastRun(self.dut, self.cfg, schedule(sc), scenario_knobs(sc), rng=host_rng(sc),
                            workdir=workdir, progress_cycles=progress, log=self.logger)
        run = await self.fast.run()
        self.logger.info("fast path: %d frames, %d cycles in %.1f s of wall time (%.0f cycles/s); "
                         "the host woke %d times", len(run.frames), run.observed.last_cycle, self.fast.wall_s,
                         run.observed.last_cycle / max(self.fast.wall_s, 1e-9), self.fast.wakes)
        self.drop_objection()

    def check_phase(self) -> None:
        assert self.fast is not None and self.fast.run_record is not None, "run_phase did not finish"
        run = self.fast.run_record
        t_model = time.monotonic()
        self.model, mismatches = check(run)
        self.model_s = time.monotonic() - t_model
        out = os.environ.get("PRIONIC_OUT")
        if out:  # what `make bench` reports even when the run failed
            (Path(out) / "check.json").write_text(json.dumps(
                {"mismatches": len(mismatches), "first": mismatches[:5], "model_s": round(self.model_s, 3)}) + "\n")
        for m in mismatches[:20]:
            self.logger.error(m)
        assert not mismatches, f"{len(mismatches)} scoreboard mismatches (first: {mismatches[0]})"
        funccov.sample_run(run, self.model, "prionic_tb_fast-FastScenarioTest")  # F30, when on
        if "icarus" in cocotb.SIM_NAME.lower():  # F22: VPI sees every signal there (Verilator: public ones)
            dut = self.dut
            for part in FAST_DUT_PATH.split("."):
                dut = getattr(dut, part)
            missing = missing_signals(dut, self.cfg.num_queues)
            assert not missing, f"the GTKWave save file names signals prionic_rx does not have: {missing}"

    def report_phase(self) -> None:
        assert self.fast is not None and self.fast.run_record is not None and self.model is not None
        run = self.fast.run_record
        if os.environ.get("PRIONIC_RECORD"):
            write_observed(os.environ["PRIONIC_RECORD"], run)
        out = os.environ.get("PRIONIC_OUT")
        if out:
            rep = build_report(self.scenario, run, self.model.outcomes)
            rep["path"] = "fast"
            ram = self.dut.nic_inst.ram_inst
            rep["mem_w_before_aw"] = int(ram.w_early.value)  # W beats the memory took before their AW
            rep["mem_b_at_once"] = int(ram.b_at_once.value)  # Bs sampled the edge after their last W
            rep["wall_s"] = round(self.fast.wall_s, 3)
            rep["model_s"] = round(self.model_s, 3)
            rep["stopped_early"] = self.fast.stopped_early
            rep["cpu"] = cpu_report(self.scenario, self.fast.host, run.frames)
            (Path(out) / "report.json").write_text(json.dumps(rep, indent=2) + "\n")
            write_trace(Path(out) / "trace.npz", self.scenario, run, self.model.outcomes, self.fast.host)
            write_pcaps(Path(out), run, base=pcap_time_base(self.scenario))
            (Path(out) / "report.txt").write_text(report_text(rep))
