"""Host-side faults of prionic_rx (F24): resets with transactions owed, on the fault-test
base tb/top/faults_base.py (run through tests/test_faults.py).

``ResetTest`` resets the NIC while the host memory, which is not reset, still owes a B,
the DMA is in the middle of a burst and a frame in the middle of the stream input; after
the reset the memory answers late (with the old AXI ID) and the NIC, reconfigured, must
work as from power-up: the run after the reset is checked against a fresh model cycle for
cycle, and the interrupted frame's buffer and write-back are never written after the reset.
``BusResetTest`` resets the NIC and the memory together by ``bus_rst``.
"""

from __future__ import annotations

import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles, FallingEdge
from cocotbext.axi import AxiStreamFrame

from tb.top.faults_base import (
    FaultBase,
    fault_knobs,
)
from tb.top.frames import Flow
from tb.top.procedure import Knobs


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class ResetTest(FaultBase):
    """F24: a NIC reset while the host memory (not reset) owes a B, the DMA is in the
    middle of a burst and a frame is in the middle of the stream input; then a second reset
    while a descriptor read's R is owed. The memory answers after each reset, with the old
    AXI ID: ignored.
    Afterwards the NIC, reconfigured, works as from power-up (the run after the reset is
    checked against a fresh model), and the interrupted frame's buffer and write-back are
    never written after the reset."""

    def knobs(self, rng: random.Random) -> Knobs:
        return fault_knobs(self.cfg.num_queues, mem_reset=False)

    async def traffic(self) -> None:
        dut = self.dut
        await self.send(0, 2)
        await self.send(1, 2)
        await self.settle()
        self.check_so_far("before the first reset")
        # every W beat from here on: (after the reset, wstrb, an AW after the reset seen before it)
        beats: list[tuple[bool, int, bool]] = []
        state = {"reset": False, "aw": False}

        async def watch_w() -> None:
            while True:
                await FallingEdge(dut.clk)
                if dut.m_axi_awvalid.value == 1 and dut.m_axi_awready.value == 1 and state["reset"]:
                    state["aw"] = True
                if dut.m_axi_wvalid.value == 1 and dut.m_axi_wready.value == 1:
                    beats.append((state["reset"], int(dut.m_axi_wstrb.value), state["aw"]))

        watcher = cocotb.start_soon(watch_w())
        # the first data burst of the next queue-0 frame: B 600 cycles late
        self.faults.arm("w", self.buffers(0), "late:600")
        n_b = len(self.obs.bursts)
        src = self.env.driver.source
        fr = Flow("big", "udp", 6000, payload=(1300, 1300)).make(self.rng)
        await src.send(AxiStreamFrame(fr.data, tuser=0))
        self.env.driver.sent.append(fr)
        await src.wait()
        # wait until the burst after the held one is open, then reset in its middle
        for _ in range(2000):
            if len(self.obs.bursts) >= n_b + 2:
                break
            await ClockCycles(dut.clk, 1)
        else:
            raise AssertionError("the DMA never opened a second burst")
        held = self.obs.bursts[n_b]
        await ClockCycles(dut.clk, 20)
        assert held.b_cycle is None, "the held B came before the reset"
        # the interrupted frame's buffer and descriptor, as they are at the reset
        s = self.k.setups[0]
        port = self.host.port
        slot = (held.addr - s.buf_addr(0, 0)) // s.buf_size
        buf0 = port.mem_read(s.buf_addr(0, slot), s.buf_size)
        desc0 = port.mem_read(s.ring_base(0) + 32 * slot, 32)
        self.logger.info("reset with the B of burst 0x%x owed (slot %d)", held.addr, slot)

        # and a frame for queue 1 half way through the stream input when the reset comes
        await src.send(AxiStreamFrame(Flow("cut", "udp", 5000, payload=(1200, 1200)).make(self.rng).data, tuser=0))
        await ClockCycles(dut.clk, 100)
        assert dut.s_axis_tvalid.value == 1, "the input frame is not in the middle of the stream"
        await FallingEdge(dut.clk)
        pre_beats = len(beats)
        state["reset"] = True
        await self.reset_nic()
        # queue 1 only, until the late B and the rest of the cut burst are through
        await self.send(1, 4)
        await self.settle()
        await ClockCycles(dut.clk, 700)
        assert held.b_cycle is not None, "the memory never answered the held B"
        watcher.cancel()
        # the beats of the cut burst after the reset carry no strobe; only beats sent before
        # the reset may still land (the memory had taken them)
        owed = [strb for after, strb, aw in beats if after and not aw]
        self.logger.info("%d W beats before the reset, %d owed beats after it", pre_beats, len(owed))
        assert owed and not any(owed), f"beats of the cut burst after the reset: strobes {owed}"
        # W beats are AXI_DATA_WIDTH wide (2x the stream by default: frame-path.md 4.1)
        keep = len(dut.m_axi_wstrb) * pre_beats - (held.addr - s.buf_addr(0, slot))
        assert port.mem_read(s.buf_addr(0, slot) + keep, s.buf_size - keep) == buf0[keep:], (
            "a write into the old frame's buffer after the reset")
        # its descriptor was rewritten by configure (posted again), never completed
        assert port.mem_read(s.ring_base(0) + 32 * slot + 16, 16) == bytes(16), "the old frame's write-back"
        assert desc0[:8] == port.mem_read(s.ring_base(0) + 32 * slot, 8)
        self.faults.disarm()
        await self.deliver_again(0, 3)
        await self.deliver_again(1, 3)
        self.check_so_far("between the resets")

        # a second reset, now with a descriptor read's R owed (late): the epoch advances again
        self.faults.arm("r", self.ring(1), "late:500")
        await self.send(1, 1)
        for _ in range(2000):
            await FallingEdge(dut.clk)
            if dut.m_axi_arvalid.value == 1 and dut.m_axi_arready.value == 1:
                break
        else:
            raise AssertionError("no descriptor read")
        old_id = int(dut.m_axi_arid.value)
        await ClockCycles(dut.clk, 20)
        await FallingEdge(dut.clk)
        await self.reset_nic()
        self.faults.disarm()
        assert int(dut.m_axi_arid.value) != old_id, "the epoch did not advance at a reset with an R owed"
        stale = []

        async def watch_r() -> None:
            while True:
                await FallingEdge(dut.clk)
                if dut.m_axi_rvalid.value == 1 and dut.m_axi_rready.value == 1:
                    stale.append(int(dut.m_axi_rid.value) == old_id)

        r_watch = cocotb.start_soon(watch_r())
        await self.deliver_again(1, 3)  # their reads wait behind the late R, which is ignored
        await self.deliver_again(0, 2)
        r_watch.cancel()
        assert any(stale), "the late R never came"


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class BusResetTest(FaultBase):
    """F24: a reset of the bus (bus_rst: the NIC and the host memory reset together, AXI's
    ARESETn) in the middle of a write burst, against a memory that raises WREADY only for a
    burst whose AW it has taken (legal, A3.3.1) and that holds WREADY low after the burst's
    AW and first W beat. Nothing is owed on a reset bus: afterwards the NIC, reconfigured,
    delivers every frame of both queues, and the run after the reset is checked against a
    fresh model cycle for cycle (the memory, reset too, never sees a W beat before its AW)."""

    def knobs(self, rng: random.Random) -> Knobs:
        return fault_knobs(self.cfg.num_queues, bus_reset=True, w_waits_for_aw=True)

    async def traffic(self) -> None:
        dut = self.dut
        gate = self.env.host.w_gate
        await self.send(0, 2)
        await self.send(1, 2)
        await self.settle()
        self.check_so_far("before the bus reset")
        # a long queue-0 frame: its first burst (16 beats) stops after the first W beat
        gate.hold_next = True
        src = self.env.driver.source
        fr = Flow("big", "udp", 6000, payload=(1300, 1300)).make(self.rng)
        await src.send(AxiStreamFrame(fr.data, tuser=0))
        self.env.driver.sent.append(fr)
        for _ in range(2000):
            if gate.hold:
                break
            await ClockCycles(dut.clk, 1)
        else:
            raise AssertionError("the memory never held a burst after its first W beat")
        await ClockCycles(dut.clk, 20)
        assert dut.m_axi_wvalid.value == 1 and dut.m_axi_wready.value == 0, "the burst is not held"
        self.logger.info("bus reset with a burst held after its first W beat")
        await self.reset_nic(bus=True)
        await self.deliver_again(0, 5)
        await self.deliver_again(1, 5)
        self.check_so_far("after the bus reset")
        await self.send(0, 2)
        await self.send(1, 2)
