"""The base of the host-side fault tests of prionic_rx (F24, docs/faults.md): the
cocotb modules tb/top/cocotb_faults.py (the fault matrix, a lost write-back),
tb/top/cocotb_faults_reset.py (resets with transactions owed) and tb/top/cocotb_faults_stall.py
(withheld READYs) run through tests/test_faults.py, one build per data width.

The host memory is cocotbext-axi's ``AxiRam`` with armable faults (tb/top/axi_mem.py
``Faults``): SLVERR/DECERR responses (nothing written, garbage read data), responses held
for ever, late responses. ``FaultBase`` sends frames to a queue, waits for DMA events,
settles, matches regions, checks the run so far against the model and resets the NIC;
its ``check_phase`` adds to the scoreboard that every frame is delivered or counted under
exactly one reason (its verdict, and for an admitted frame its completion or FLUSH).
``DeafModel`` and ``StallDeafModel`` are wrong models that show the scoreboard bites.
"""

from __future__ import annotations

import random

from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiStreamFrame

from model import regmap
from model.nic import PrionicModel
from tb.coverage import funccov
from tb.top.env import NicTest, port_range, rule_ctrl
from tb.top.frames import Flow
from tb.top.hostmem import QueueSetup
from tb.top.procedure import Knobs, configure
from tb.top.scoreboard import Run, check

UDP = 17
V = regmap.VERDICTS
EV = regmap.ENUMS["dma_event"]
F = regmap.FIELDS
DRAINED = 1 << F["QUEUE_STATUS_DRAINED"]
REFUSED = 1 << F["QUEUE_STATUS_RING_REFUSED"]
FLOWS = [Flow("q0", "udp", 6000, payload=(100, 400)), Flow("q1", "udp", 5000, payload=(100, 400))]


class DeafModel(PrionicModel):
    """A wrong model for the scoreboard-bites check: it never hears of a DMA event."""

    def dma_event(self, cycle: int, queue: int, code: int) -> None:
        return


class StallDeafModel(PrionicModel):
    """A wrong model for the scoreboard-bites check: it never hears of a stall."""

    def dma_event(self, cycle: int, queue: int, code: int) -> None:
        if code not in (EV["STALL_W"], EV["STALL_R"]):
            super().dma_event(cycle, queue, code)


def fault_knobs(nq: int, **kw) -> Knobs:
    return Knobs(
        frames=0, flows=[(1, FLOWS[0])],
        setups=[QueueSetup(ring_size=8, buf_size=2048, immediate=True) for _ in range(nq)],
        rules=[(rule_ctrl(queue=1, proto=UDP, dport=True), port_range(5000)),
               (rule_ctrl(queue=0, proto=UDP, dport=True), port_range(6000))],
        tick_div=1, chaos=False, return_delay=(0, 50), faults=True, **kw)


class BurstMatchers:
    """Matchers of a queue's bursts for armed faults (tb/top/axi_mem.py ``Faults``): its ring,
    its write-backs, its buffers (``self.k``: the test's Knobs)."""

    k: Knobs

    def ring(self, q: int):
        s = self.k.setups[q]
        lo, hi = s.ring_base(q), s.ring_base(q) + 32 * s.ring_size
        return lambda addr, beats: lo <= addr < hi

    def writeback(self, q: int):
        ring = self.ring(q)
        return lambda addr, beats: ring(addr, beats) and addr % 32 == 16

    def buffers(self, q: int):
        s = self.k.setups[q]
        lo, hi = s.buf_addr(q, 0), s.buf_addr(q, s.ring_size)
        return lambda addr, beats: lo <= addr < hi


class FaultBase(BurstMatchers, NicTest):
    """Helpers: send frames to a queue, wait for DMA events, settle, region matchers."""

    def knobs(self, rng: random.Random) -> Knobs:
        return fault_knobs(self.cfg.num_queues)

    @property
    def obs(self):
        return self.monitor.obs

    @property
    def host(self):
        return self.env.host.driver

    @property
    def faults(self):
        return self.env.host.faults

    async def send(self, q: int, n: int, wait: bool = True) -> None:
        """n frames for queue q, back to back."""
        src = self.env.driver.source
        for _ in range(n):
            fr = FLOWS[q].make(self.rng)
            await src.send(AxiStreamFrame(fr.data, tuser=0))
            self.env.driver.sent.append(fr)
        if wait:
            await src.wait()

    def events(self, q: int, since: int = 0) -> list[int]:
        return [code for e, qq, code in self.obs.dma_events[since:] if qq == q]

    async def wait_event(self, q: int, code: int, since: int, cycles: int = 20000) -> None:
        for _ in range(cycles // 20):
            if code in self.events(q, since):
                return
            await ClockCycles(self.dut.clk, 20)
        raise AssertionError(f"no DMA event {code} for queue {q}; saw {self.obs.dma_events[since:]}")

    async def settle(self, cycles: int = 40000) -> None:
        """Every frame sent has its verdict and every admitted frame its completion or FLUSH."""
        n = len(self.env.driver.sent)
        await self.env.driver.source.wait()
        for _ in range(cycles // 20):
            obs = self.obs
            acc = [sum(1 for v in obs.verdicts if v[1] == V["ACCEPT"] and v[2] == q) for q in range(2)]
            done = [sum(1 for c in obs.completions if c[1] == q) + self.events(q).count(EV["FLUSH"])
                    for q in range(2)]
            if len(obs.verdicts) == n and acc == done:
                await ClockCycles(self.dut.clk, 20)
                return
            await ClockCycles(self.dut.clk, 20)
        raise AssertionError(f"NIC did not settle: {len(self.obs.verdicts)}/{n} verdicts, admitted {acc}, "
                             f"completed or flushed {done}; events {self.obs.dma_events[-6:]}")

    async def read(self, name: str, q: int = 0) -> int:
        return await self.host.port.read(regmap.addr(name, q))

    def delivered_ok(self, q: int) -> int:
        """Completions of queue q the host reaped without ERR."""
        err = 1 << regmap.DESC["status_err"]
        return sum(1 for d in self.host.delivered[q] if not d.status & err)

    async def deliver_again(self, q: int, n: int = 2) -> None:
        """After the recovery: n frames for queue q reach the host without ERR."""
        self.host.reap_all()
        before = self.delivered_ok(q)
        await self.send(q, n)
        await self.settle()
        await ClockCycles(self.dut.clk, 300)  # the ISR reaps
        self.host.reap_all()
        assert self.delivered_ok(q) == before + n, (
            f"queue {q}: {self.delivered_ok(q) - before} of {n} frames delivered after the recovery")

    async def drain(self, n: int) -> None:
        await self.settle()
        await ClockCycles(self.dut.clk, 400)
        await Timer(1, "ns")

    def check_so_far(self, what: str) -> None:
        """At a quiet point (nothing in flight): the run so far against the model and the
        out-of-bounds checker (no register read-back: the final one comes at the end)."""
        host = self.host
        host.reap_all()
        obs = self.monitor.obs
        bad = host.check_bursts(obs.bursts)
        run = Run(self.cfg, list(self.env.driver.sent), obs, host.delivered, {}, bad)
        _model, bad = check(run)
        assert not bad, f"{what}: {len(bad)} scoreboard mismatches, first: {bad[0]}"
        self.logger.info("%s: %d frames matched the model", what, len(run.frames))

    async def reset_nic(self, bus: bool = False) -> None:
        """Reset the NIC (rst high for 5 cycles; the memory keeps what it owes) or, with
        ``bus``, the NIC and the memory together (bus_rst, the AXI interface reset), and start
        over: edge 0 again, a fresh monitor record, the host configured as after power-up."""
        dut = self.dut
        if funccov.enabled():  # F30: the segment that ends here, sampled against its own model
            self.host.reap_all()
            seg = Run(self.cfg, list(self.env.driver.sent), self.monitor.obs, self.host.delivered, {})
            funccov.sample_run(seg, check(seg)[0], f"prionic_rx-{type(self).__name__}")
        (dut.bus_rst if bus else dut.rst).value = 1
        host = self.host
        host.stop()
        await ClockCycles(dut.clk, 5)
        await FallingEdge(dut.clk)
        (dut.bus_rst if bus else dut.rst).value = 0
        clocked = self.clocked
        clocked.t0 = round(get_sim_time("ns")) + clocked.period // 2  # edge 0 again (timing.md s1)
        self.monitor.restart(bus=bus)
        self.env.driver.sent.clear()
        host.reset_state()
        await configure(host, self.k)
        host.start()

    def check_phase(self) -> None:
        super().check_phase()
        obs = self.run_record.observed
        # every frame has one verdict; every admitted frame exactly one end: completion or FLUSH
        assert len(obs.verdicts) == len(self.run_record.frames)
        for q in range(self.cfg.num_queues):
            acc = sum(1 for v in obs.verdicts if v[1] == V["ACCEPT"] and v[2] == q)
            cpl = sum(1 for c in obs.completions if c[1] == q)
            flush = sum(1 for _e, qq, code in obs.dma_events if qq == q and code == EV["FLUSH"])
            assert acc == cpl + flush, f"queue {q}: {acc} admitted, {cpl} completed + {flush} flushed"
