"""Flow-cache corner test of prionic_rx for `make coverage` (F8, F30): a table write whose
clear pulse meets a lookup in progress (model.classifier: the lookup restarts as a miss,
``cleared``; the bin ``flow_cache: invalidated``). Run through tests/test_corners.py on
both simulators; checked against the golden model like every top test (tb/top/env.py).

One flow, frames in pairs: the first installs it in the cache, beside the second a
FLOW_IDLE write (its own value: a table write, so the cache is cleared at w+1,
frame-path.md s3.1) starts one cycle later than in the pair before, so that the clear
pulses sweep the second frame's lookup edges.
"""

from __future__ import annotations

import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles

from model import regmap
from tb.top.cocotb_corners import FramesSeq, class_frame
from tb.top.env import Knobs, NicTest, rule_ctrl
from tb.top.hostmem import QueueSetup

IDLE = 40  # FLOW_IDLE


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class FlowClearTest(NicTest):
    """F8: cache clears swept over the lookups of a flow that hits; the model decides every
    lookup (hit, miss, cleared) and the scoreboard checks the DUT's verdicts and counters."""

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        k = Knobs(frames=0, setups=[QueueSetup(ring_size=64, immediate=True) for _ in range(nq)],
                  rules=[(rule_ctrl(queue=0), 0)], tick_div=1, chaos=False, return_delay=(0, 20))
        k.extra_writes += [("FLOW_IDLE", 0, IDLE), ("FLOW_CTRL", 0, 1)]
        return k

    async def traffic(self) -> None:
        host, obs = self.env.host.driver, self.monitor.obs
        fr = class_frame(self.rng, "udp")
        beats = -(-len(fr.data) // (self.cfg.data_width // 8))
        for d in range(16):  # a frame that installs the flow, then one whose lookup meets a clear
            for write in (False, True):
                start = self.clocked.cycle_at_falling() + 20
                n = len(obs.verdicts)
                cocotb.start_soon(FramesSeq("f", [fr], 0, at=start).start(self.env.seqr))
                if write:
                    await ClockCycles(self.dut.clk, 20 + beats - 6 + d)
                    await host.axil.write_dword(regmap.addr("FLOW_IDLE"), IDLE)
                while len(obs.verdicts) <= n:
                    await ClockCycles(self.dut.clk, 10)
                await ClockCycles(self.dut.clk, 20)

    def check_phase(self) -> None:
        super().check_phase()
        assert self.model is not None
        why = [o.flow_why for o in self.model.outcomes]
        self.logger.info("lookups: %s", {w: why.count(w) for w in sorted(set(why))})
        assert "cleared" in why and "hit" in why, why
