"""Flow-table test of prionic_rx (F31, F5, F6, F9, docs/flowtable.md, docs/frame-path.md s3):
a build with FLOW_TABLE_SETS > 0 and a few wildcard rules. Run through tests/test_flowtable.py
on both simulators; checked against the golden model like every top test (tb/top/env.py):
every frame's verdict, queue, rule id and bytes, every interrupt's cycle, and every register
at the end (FLOW_STATUS, FLOW_RVAL, FLOW_USED, CNT_FLOW_TABLE_HIT among them).

The host fills the table through the registers (tb/top/flows.py) with 5/4 as many random
5-tuples as it has entries, so that some set pairs are full (FULL); deletes some, inserts
some of those again with other values, replaces the values of others (UPDATED), finds a
few, and sends one bad command. Entry values cover every action: a queue, a queue beyond
NUM_QUEUES (RULE_DROP), DROP, and a rule whose counter and rate limiter the flow shares.
The traffic: frames of registered, refused and deleted flows, frames the wildcard rules
and the default action decide, ARP, the parser's mix and bad input; while it runs the host
inserts and deletes flows of the traffic at random, so commands land beside lookups.
"""

from __future__ import annotations

import ipaddress
import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles

from model import flowtable as ft
from model import regmap
from tb.common import amount
from tb.top.env import Knobs, NicTest, port_range, rule_ctrl
from tb.top.flows import FlowHost, flow_key
from tb.top.frames import Flow, arp, bad_input, parser_frame
from tb.top.traffic import random_setup

F = regmap.FIELDS
UDP, TCP = 17, 6


def flow_val(queue: int, drop: bool = False, rule: int | None = None) -> int:
    """FLOW_VAL of an entry (docs/regmap.toml)."""
    val = queue << F["FLOW_VAL_QUEUE_LSB"] | int(drop) << F["FLOW_VAL_DROP"]
    if rule is not None:
        val |= 1 << F["FLOW_VAL_RULE_VALID"] | rule << F["FLOW_VAL_RULE_LSB"]
    return val


@pyuvm.test(timeout_time=4_000_000, timeout_unit="us")
class FlowTableTest(NicTest):
    """F31: the table's verdicts, its commands before and during traffic, against the model."""

    def knobs(self, rng: random.Random) -> Knobs:
        cfg = self.cfg
        nq, nr, sets = cfg.num_queues, cfg.num_rules, cfg.flow_table_sets
        assert sets, "FlowTableTest needs a build with FLOW_TABLE_SETS > 0"

        def random_val() -> int:
            return flow_val(rng.randrange(nq + 1) if rng.random() < 0.9 else nq, rng.random() < 0.1,
                            rng.randrange(nr) if rng.random() < 0.3 else None)

        n = 5 * sets  # 5/4 of the entries
        self.table_flows = [Flow(f"t{i}", rng.choice(["udp", "tcp"]), rng.randint(1, 65535),
                                 sport=rng.randint(1, 65535), src=str(ipaddress.IPv4Address(rng.getrandbits(32))),
                                 payload=(6, 200)) for i in range(n)]
        keys = [flow_key(f) for f in self.table_flows]
        cmds = [(ft.INSERT, key, random_val()) for key in keys]
        deleted = rng.sample(keys, n // 6)
        cmds += [(ft.DELETE, key, 0) for key in deleted]
        cmds += [(ft.INSERT, key, random_val()) for key in deleted[: len(deleted) // 2]]
        cmds += [(ft.INSERT, key, random_val()) for key in rng.sample(keys, 8)]
        cmds += [(ft.FIND, key, 0) for key in rng.sample(keys, 4)]
        cmds += [(5, keys[0], 0), (ft.FIND, keys[-1], 0)]   # a bad command, then a good one
        sample = rng.sample(self.table_flows, min(n, 120))
        k = Knobs(
            frames=amount(600, icarus=0.35),
            flows=[(2, f) for f in sample] + [
                (6, Flow("ctrl", "udp", 5000, payload=(18, 120))),
                (6, Flow("bulk", "tcp", 8042, payload=(6, 600))),
                (4, Flow("flood", "udp", 7000, payload=(18, 64))),
                (2, arp), (2, parser_frame), (1, bad_input)],
            setups=[random_setup(rng) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000)),
                   (rule_ctrl(queue=0, proto=TCP, dport=True), port_range(8000, 8100))],
            default_action=rng.choice([0, 1]),
            tick_div=rng.randint(1, 8),
            chaos=False,
            table_cmds=cmds,
        )
        # the rules' rate limiters: the entries that name a rule spend its budget (F9)
        k.extra_writes += [("RULE_LIM_BUDGET", r, rng.choice([2, 5, 50])) for r in range(nr)]
        k.extra_writes += [("RULE_LIM_PERIOD", r, rng.choice([300, 2000])) for r in range(nr)]
        k.extra_writes += [("RULE_LIM_CTRL", r, 1) for r in range(nr)]
        self.live_keys = [flow_key(f) for f in sample]
        self.live_cmds: list[int] = []
        return k

    async def churn(self) -> None:
        """Insert and delete flows of the traffic at random while it runs."""
        rng, flows = self.rng, FlowHost(self.env.host.driver.port)
        nq = self.cfg.num_queues
        while True:
            await ClockCycles(self.dut.clk, rng.randint(50, 600))
            code = rng.choice([ft.INSERT, ft.DELETE])
            val = flow_val(rng.randrange(nq)) if code == ft.INSERT else 0
            self.live_cmds.append(await flows.command(code, rng.choice(self.live_keys), val))

    async def traffic(self) -> None:
        task = cocotb.start_soon(self.churn())
        await super().traffic()
        task.cancel()

    def check_phase(self) -> None:
        super().check_phase()
        assert self.model is not None
        names = ft.RESULT_NAMES
        got = {names[r]: self.flow_results.count(r) for r in sorted(set(self.flow_results))}
        live = {names[r]: self.live_cmds.count(r) for r in sorted(set(self.live_cmds))}
        hits = self.model.engine.table_hits
        self.logger.info("flow table: commands %s, during traffic %s; %d verdicts from the table", got, live, hits)
        for want in ("INSERTED", "FULL", "DELETED", "UPDATED", "FOUND", "BAD_CMD"):
            assert got.get(want), f"no {want} among the configured commands: {got}"
        assert live, "no command ran during the traffic"
        assert hits >= 20, f"{hits} verdicts from the flow table"
