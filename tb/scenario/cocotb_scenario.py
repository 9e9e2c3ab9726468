"""The cocotb side of `make sim` (F21, F22): runs the scenario named by PRIONIC_SCENARIO
through the full top-level environment -- so the scoreboard checks every scenario run
exactly like a regression test -- and writes the report into PRIONIC_OUT."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pyuvm
from pyuvm import ConfigDB

from tb.fast.fastpath import write_observed
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
from tb.top.env import NicTest, ScheduledSeq
from tb.top.procedure import Knobs, scenario_knobs


@pyuvm.test(timeout_time=3_600_000, timeout_unit="us")
class ScenarioTest(NicTest):
    """F21, F22: a scenario's traffic against the RTL, checked against the model."""

    def knobs(self, rng: random.Random) -> Knobs:
        self.scenario = load(os.environ["PRIONIC_SCENARIO"])
        sc = self.scenario
        self.rng = host_rng(sc)  # NicTest hands this to the host driver
        ConfigDB().set(None, "*", "schedule", schedule(sc))
        return scenario_knobs(sc)

    async def traffic(self) -> None:
        await ScheduledSeq("scenario").start(self.env.seqr)

    def report_phase(self) -> None:
        assert self.run_record is not None and self.model is not None
        rep = build_report(self.scenario, self.run_record, self.model.outcomes)
        rep.update(path="bus", wall_s=round(self.wall_s, 3), model_s=round(self.model_s, 3))
        rep["cpu"] = cpu_report(self.scenario, self.env.host.driver, self.run_record.frames)
        if os.environ.get("PRIONIC_RECORD"):  # for a comparison with the fast path
            write_observed(os.environ["PRIONIC_RECORD"], self.run_record)
        out = Path(os.environ["PRIONIC_OUT"])
        (out / "report.json").write_text(json.dumps(rep, indent=2) + "\n")
        write_trace(out / "trace.npz", self.scenario, self.run_record, self.model.outcomes,
                    self.env.host.driver)
        write_pcaps(out, self.run_record, base=pcap_time_base(self.scenario))
        (out / "report.txt").write_text(report_text(rep))
