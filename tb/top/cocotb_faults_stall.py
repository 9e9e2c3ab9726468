"""Host-side faults of prionic_rx (F24): stalls, on the fault-test base tb/top/faults_base.py
(run through tests/test_faults.py).

``StallTest`` has the memory withhold AWREADY, WREADY and ARREADY in turn, each for far
longer than DMA_TIMEOUT, while frames arrive: one STALL_W or STALL_R per stall, nothing
stopped, delivery resumes at the release.
"""

from __future__ import annotations

import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles, FallingEdge
from cocotbext.axi import AxiStreamFrame

from model import regmap
from tb.top.axi_mem import hold_ready
from tb.top.faults_base import (
    EV,
    F,
    FaultBase,
    StallDeafModel,
    V,
    fault_knobs,
)
from tb.top.frames import Flow
from tb.top.procedure import Knobs
from tb.top.scoreboard import compare


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class StallTest(FaultBase):
    """F24: the slave withholds AWREADY, then WREADY, then ARREADY, each for HOLD cycles
    (15x DMA_TIMEOUT) while two frames for queue 1 and then two for queue 0 arrive. Each
    stall is reported once, as STALL_W or STALL_R of queue 1 (the frame being written, or
    the descriptor read out), while the slave still holds it; DMA_STALL has its bit set (a
    W1C write of the other bit leaves it, of its own bit clears it), CNT_DMA_ERR and
    CNT_DMA_ERR_ALL count it; no queue stops and irq_err stays low; at the release every
    frame is delivered. The run is checked against the model cycle for cycle (the
    scoreboard also requires a VALID without READY for DMA_TIMEOUT edges before each STALL
    edge) and every admitted frame is completed or flushed exactly once. Then a reset cuts
    a burst whose AW is withheld: the burst finished after the reset stalls, STALL_W of no
    queue (0xFF), counted in CNT_DMA_ERR_ALL only.

    Before the stall watchdog this fails: the DMA reported nothing (no STALL code, the wait
    for the event times out) and DMA_STALL did not exist (its address read 0)."""

    HOLD = 3000
    TIMEOUT = 200

    def check_phase(self) -> None:
        super().check_phase()
        # the scoreboard bites: a model deaf to stalls, and stall events with no stall on the bus
        bites = compare(self.run_record, StallDeafModel)
        assert bites, "a model that ignores the stall events passed the scoreboard"
        obs = self.run_record.observed
        runs = obs.stall_runs
        obs.stall_runs = [(e, 0, 0) for e, _w, _r in runs]
        try:
            fake = compare(self.run_record)
        finally:
            obs.stall_runs = runs
        assert any("stalled 0 edges" in m for m in fake), f"stall events with no stall passed: {fake[:3]}"

    def knobs(self, rng: random.Random) -> Knobs:
        return fault_knobs(self.cfg.num_queues, mem_reset=False)

    async def stall(self, channel: str, code: int, bit: int) -> None:
        dut = self.dut
        self.logger.info("stall: %sREADY held low for %d cycles", channel.upper(), self.HOLD)
        self.host.reap_all()
        since = len(self.obs.dma_events)
        ok = [self.delivered_ok(q) for q in range(2)]
        err_all, err1 = await self.read("CNT_DMA_ERR_ALL"), await self.read("CNT_DMA_ERR", 1)
        hold = cocotb.start_soon(hold_ready(self.env.host.ram, dut.clk, channel, self.HOLD))
        t0 = self.obs.last_cycle
        await self.send(1, 2)
        await self.send(0, 2)
        await self.wait_event(1, code, since, cycles=self.HOLD)
        assert not hold.done(), f"{channel}: the stall was reported after the release"
        e = self.obs.dma_events[since][0]
        assert self.obs.dma_events[since:] == [(e, 1, code)], self.obs.dma_events[since:]
        assert e - t0 >= self.TIMEOUT, f"{channel}: STALL at {e}, the hold began at {t0}"
        self.at_timeout(e, code)
        assert await self.read("DMA_STALL") == bit, f"{channel}: DMA_STALL"
        assert await self.read("DMA_ERR_STATUS") == 0 and dut.irq_err.value == 0
        assert [await self.read("QUEUE_STATUS", q) for q in range(2)] == [0, 0]
        await hold
        await self.settle()
        await ClockCycles(dut.clk, 300)  # the ISR reaps
        self.host.reap_all()
        assert [self.delivered_ok(q) - ok[q] for q in range(2)] == [2, 2], f"{channel}: not every frame delivered"
        # once per stall: nothing more after the release
        assert self.obs.dma_events[since:] == [(e, 1, code)], self.obs.dma_events[since:]
        assert (await self.read("CNT_DMA_ERR_ALL"), await self.read("CNT_DMA_ERR", 1)) == (err_all + 1, err1 + 1)
        await self.host.port.write(regmap.addr("DMA_STALL"), 3 ^ bit)  # the other bit: nothing
        assert await self.read("DMA_STALL") == bit
        await self.host.port.write(regmap.addr("DMA_STALL"), bit)
        assert await self.read("DMA_STALL") == 0, f"{channel}: DMA_STALL not cleared"

    def at_timeout(self, e: int, code: int) -> None:
        """The STALL at E is at the very edge the stall reaches DMA_TIMEOUT edges (no other
        event competes for the port here)."""
        runs = [(w, r) for ee, w, r in self.obs.stall_runs if ee == e]
        assert runs and runs[0][0 if code == EV["STALL_W"] else 1] == self.TIMEOUT, (
            f"STALL {code} at {e}: stall runs {runs}, DMA_TIMEOUT {self.TIMEOUT}")

    def accounted(self) -> None:
        obs = self.obs
        for q in range(self.cfg.num_queues):
            acc = sum(1 for v in obs.verdicts if v[1] == V["ACCEPT"] and v[2] == q)
            cpl = sum(1 for c in obs.completions if c[1] == q)
            flush = sum(1 for _e, qq, code in obs.dma_events if qq == q and code == EV["FLUSH"])
            assert acc == cpl + flush, f"queue {q}: {acc} admitted, {cpl} completed + {flush} flushed"

    async def traffic(self) -> None:
        dut = self.dut
        await self.send(0, 2)
        await self.send(1, 2)
        await self.settle()
        await self.host.port.write(regmap.addr("DMA_TIMEOUT"), self.TIMEOUT)
        await self.stall("aw", EV["STALL_W"], 1 << F["DMA_STALL_WRITE"])
        await self.stall("w", EV["STALL_W"], 1 << F["DMA_STALL_WRITE"])
        await self.stall("ar", EV["STALL_R"], 1 << F["DMA_STALL_READ"])
        await ClockCycles(dut.clk, 300)
        self.accounted()
        self.check_so_far("after the stalls")

        # a reset cuts a burst whose AW is withheld and one W beat taken: after the reset the
        # DMA finishes it (S_OWE, the AW again): its stall has no queue
        self.logger.info("stall: a reset in the middle of a burst whose AW is withheld")
        hold = cocotb.start_soon(hold_ready(self.env.host.ram, dut.clk, "aw", self.HOLD))
        src = self.env.driver.source
        fr = Flow("big", "udp", 6000, payload=(1300, 1300)).make(self.rng)
        await src.send(AxiStreamFrame(fr.data, tuser=0))
        self.env.driver.sent.append(fr)
        for _ in range(2000):
            await FallingEdge(dut.clk)
            if dut.m_axi_awvalid.value == 1 and dut.m_axi_wvalid.value == 1 and dut.m_axi_wready.value == 1:
                break
        else:
            raise AssertionError("no W beat with its AW withheld")
        await FallingEdge(dut.clk)
        await self.reset_nic()
        assert dut.m_axi_awvalid.value == 1 and not hold.done(), "the cut burst's AW is not offered again"
        await self.host.port.write(regmap.addr("DMA_TIMEOUT"), self.TIMEOUT)
        await self.wait_event(0xFF, EV["STALL_W"], 0, cycles=self.HOLD)
        self.at_timeout(self.obs.dma_events[0][0], EV["STALL_W"])
        assert await self.read("DMA_STALL") == 1 << F["DMA_STALL_WRITE"]
        assert (await self.read("CNT_DMA_ERR_ALL"), await self.read("CNT_DMA_ERR", 0),
                await self.read("CNT_DMA_ERR", 1)) == (1, 0, 0)
        await hold
        await self.deliver_again(0, 2)
        await self.deliver_again(1, 2)
        assert [code for _e, _q, code in self.obs.dma_events] == [EV["STALL_W"]], self.obs.dma_events
