"""Host-side faults of prionic_rx (F24): the fault matrix of docs/faults.md.

Run through tests/test_faults.py (pytest, both simulators, one build). The host memory is
cocotbext-axi's ``AxiRam`` with armable faults (tb/axi_mem.py ``Faults``): SLVERR/DECERR
responses (nothing written, garbage read data), responses held for ever, late responses.

``FaultMatrixTest`` drives one faulty situation after the other on a running NIC, each on
one queue while the other queue keeps receiving, and for each checks the outcome
docs/faults.md documents (the DMA event, QUEUE_STATUS, the verdicts), then runs the
driver's documented recovery (``HostDriver.recover``) where there is one and checks that
frames are delivered again. Over the whole run the usual scoreboard holds every verdict,
completion, buffer byte, interrupt, irq_err edge and counter against the golden model
(which takes the DMA events as timing inputs, like completions), the out-of-bounds checker
finds no write outside posted buffers and rings, and every frame is delivered or counted
under exactly one reason (its verdict, and for an admitted frame its completion or FLUSH).

``ResetTest`` resets the NIC while the host memory, which is not reset, still owes a B,
the DMA is in the middle of a burst and a frame in the middle of the stream input; after
the reset the memory answers late (with the old AXI ID) and the NIC, reconfigured, must
work as from power-up: the run after the reset is checked against a fresh model cycle for
cycle, and the interrupted frame's buffer and write-back are never written after the reset.

``StallTest`` has the memory withhold AWREADY, WREADY and ARREADY in turn, each for far
longer than DMA_TIMEOUT, while frames arrive: one STALL_W or STALL_R per stall, nothing
stopped, delivery resumes at the release.
"""

from __future__ import annotations

import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiStreamFrame

from model import regmap
from model.nic import PrionicModel
from tb import funccov
from tb.axi_mem import hold_ready
from tb.env import NicTest, port_range, rule_ctrl
from tb.frames import Flow
from tb.hostmem import QueueSetup
from tb.procedure import Knobs, configure
from tb.scoreboard import Run, check, compare

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


class FaultBase(NicTest):
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

    def ring(self, q: int):
        s = self.k.setups[q]
        lo, hi = s.ring_base(q), s.ring_base(q) + 32 * s.ring_size
        return lambda addr, beats: lo <= addr < hi

    def writeback(self, q: int):
        ring = self.ring(q)
        return lambda addr, beats: ring(addr, beats) and addr % 32 == 16

    def buffers(self, q: int):
        s = self.k.setups[q]
        lo = s.buf_addr(q, 0)
        hi = s.buf_addr(q, s.ring_size)
        return lambda addr, beats: lo <= addr < hi

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


@pyuvm.test(timeout_time=5_000_000, timeout_unit="us")
class FaultMatrixTest(FaultBase):
    """F24: every row of docs/faults.md on a running NIC, each followed by the driver's
    documented recovery and normal delivery; the whole run checked against the model."""

    def check_phase(self) -> None:
        super().check_phase()
        # each WB_ERR lost exactly one write-back: the recovery skipped one slot before HEAD
        for q in range(self.cfg.num_queues):
            wb_err = self.events(q).count(EV["WB_ERR"])
            assert len(self.host.lost[q]) == wb_err, f"queue {q}: {wb_err} WB_ERR, lost slots {self.host.lost[q]}"
        # the scoreboard bites: a model deaf to the DMA events cannot explain the run
        bites = compare(self.run_record, DeafModel)
        assert bites, "a model that ignores the DMA events passed the scoreboard"
        self.logger.info("a model deaf to DMA events: %d mismatches, first: %s", len(bites), bites[0][:200])

    async def phase(self, name: str, q: int, kind: str, match, fault: str, code: int) -> None:
        """A fault on queue q's next matching burst: the documented DMA event, the queue
        stopped with that cause, its later frames dropped (FLUSH or QUEUE_DISABLED) while
        the other queue keeps delivering; then the recovery and delivery again."""
        self.logger.info("fault row %s on queue %d", name, q)
        since = len(self.obs.dma_events)
        other = 1 - q
        self.host.reap_all()
        other_before = self.delivered_ok(other)
        self.faults.arm(kind, match, fault)
        await self.send(q, 3)
        await self.send(other, 2)
        await self.wait_event(q, code, since)
        await self.settle()
        self.faults.disarm()
        assert await self.read("QUEUE_STATUS", q) & 7 == code, f"{name}: QUEUE_STATUS.ERR"
        assert await self.read("DMA_ERR_STATUS") >> q & 1, f"{name}: DMA_ERR_STATUS"
        assert self.dut.irq_err.value == 1, f"{name}: irq_err low"
        # the stopped queue takes no frame; the other one goes on
        n0 = len(self.obs.verdicts)
        await self.send(q, 1)
        await self.send(other, 1)
        await self.settle()
        vq = [v for v in self.obs.verdicts[n0:] if v[2] == q and v[1] != V["ACCEPT"]]
        assert vq and vq[0][1] == V["QUEUE_DISABLED"], f"{name}: {self.obs.verdicts[n0:]}"
        await ClockCycles(self.dut.clk, 300)
        self.host.reap_all()
        assert self.delivered_ok(other) == other_before + 3, (
            f"{name}: queue {other} held up: {self.delivered_ok(other) - other_before} of 3 delivered; "
            f"verdicts {self.obs.verdicts[-8:]}, events {self.obs.dma_events[since:]}")
        await self.host.recover(q)
        await ClockCycles(self.dut.clk, 4)
        assert self.dut.irq_err.value == 0 and await self.read("QUEUE_STATUS", q) == 0
        await self.deliver_again(q)

    async def traffic(self) -> None:
        dut = self.dut
        await self.send(0, 2)
        await self.send(1, 2)
        await self.settle()
        # 1. RRESP SLVERR on a descriptor read, garbage data: never an address
        await self.phase("desc_slverr", 0, "r", self.ring(0), "slverr", EV["DESC_ERR"])
        # 2. BRESP SLVERR on a data burst: ERR write-back
        await self.phase("data_slverr", 1, "w", self.buffers(1), "slverr", EV["DATA_ERR"])
        # 3. BRESP DECERR on the write-back (not written)
        await self.phase("wb_decerr", 0, "w", self.writeback(0), "decerr", EV["WB_ERR"])
        # 4, 5. a B and an R never answered: the watchdog
        await self.host.port.write(regmap.addr("DMA_TIMEOUT"), 200)
        await self.phase("b_lost", 1, "w", self.buffers(1), "drop", EV["TIMEOUT"])
        await self.phase("r_lost", 0, "r", self.ring(0), "drop", EV["TIMEOUT"])
        # 6. a late R (after the watchdog gave up): taken and ignored (old AXI ID), the next
        # frames are served
        await self.phase("r_late", 1, "r", self.ring(1), "late:300", EV["TIMEOUT"])

        # 7. buffer addresses beyond AXI_ADDR_WIDTH and misaligned: ERR write-backs, queue goes on
        self.logger.info("fault row: bad buffer addresses")
        since = len(self.obs.dma_events)
        s = self.k.setups[1]
        await self.host.recover(1, bufs={0: 0x1_0000_0040, 1: s.buf_addr(1, 1) + 2})
        self.host.reap_all()
        err_before = len(self.host.delivered[1]) - self.delivered_ok(1)
        await self.send(1, 3)
        await self.settle()
        await ClockCycles(dut.clk, 300)
        self.host.reap_all()
        assert self.events(1, since) == [EV["BUF_ERR"], EV["BUF_ERR"]], self.events(1, since)
        assert len(self.host.delivered[1]) - self.delivered_ok(1) == err_before + 2
        assert all(d.length == 0 for d in self.host.delivered[1][-3:-1])
        assert await self.read("QUEUE_STATUS", 1) == 0  # not stopped
        await self.host.recover(1)

        # 8. RING_BASE beyond AXI_ADDR_WIDTH: RING_ERR, nothing read or written
        self.logger.info("fault row: ring base beyond the bus")
        since = len(self.obs.dma_events)
        n_ar = len(self.obs.bursts)
        await self.host.recover(0, base_hi=1)
        await self.send(0, 2)
        await self.settle()
        ev = self.events(0, since)  # the first frame finds the ring beyond the bus; the second is
        assert ev[:2] == [EV["RING_ERR"], EV["FLUSH"]] and set(ev[2:]) <= {EV["FLUSH"]}, ev  # flushed or refused
        assert len(self.obs.bursts) == n_ar, "a write burst for a queue with a ring beyond the bus"
        await self.host.recover(0)
        await self.deliver_again(0)

        # 8b. RING_BASE_LO written with bits [4:0] set, queue idle: refused, no ring reset, flagged
        # (F24; before, the bits were silently cleared and the write reset the ring)
        self.logger.info("fault row: RING_BASE_LO not 32-byte aligned")
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 1), 0)
        while not await self.read("QUEUE_STATUS", 1) & DRAINED:
            await ClockCycles(dut.clk, 10)
        head, tail = await self.read("RING_HEAD", 1), await self.read("RING_TAIL", 1)
        n_ref = await self.read("CNT_RING_REFUSED", 1)
        base = self.k.setups[1].ring_base(1)
        await self.host.port.write(regmap.addr("RING_BASE_LO", 1), base + 0x40 | 0x13)
        assert await self.read("RING_BASE_LO", 1) == base
        assert (await self.read("RING_HEAD", 1), await self.read("RING_TAIL", 1)) == (head, tail), "ring reset"
        assert await self.read("QUEUE_STATUS", 1) & REFUSED and await self.read("CNT_RING_REFUSED", 1) == n_ref + 1
        await self.host.recover(1)  # the driver's ring reset clears the flag
        assert not await self.read("QUEUE_STATUS", 1) & REFUSED
        await self.deliver_again(1)

        # 9. a write whose strobes select no byte of RING_SIZE, on an idle queue: no ring reset
        self.logger.info("fault row: strobes selecting no byte of RING_SIZE")
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 1), 0)
        while not await self.read("QUEUE_STATUS", 1) & DRAINED:
            await ClockCycles(dut.clk, 10)
        head, tail = await self.read("RING_HEAD", 1), await self.read("RING_TAIL", 1)
        await self.host.axil.write(regmap.addr("RING_SIZE", 1) + 2, b"\x04\x00")
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 1), 1)
        assert (await self.read("RING_HEAD", 1), await self.read("RING_TAIL", 1)) == (head, tail)
        assert await self.read("RING_SIZE", 1) == self.k.setups[1].ring_size
        await self.deliver_again(1)

        # 10. ring reprogrammed (new base, smaller size) with frames in flight: ignored
        self.logger.info("fault row: ring reprogrammed with frames in flight")
        # the watchdog rows are over: a B 300 cycles late is a TIMEOUT under DMA_TIMEOUT 200
        # (docs/faults.md) whenever the DMA waits for it, which it does once the frame's
        # last W beat is taken (at AXI_DATA_WIDTH = 2x a frame is one or two bursts, which
        # the memory takes at once); this row needs frames in flight, not a stopped queue
        await self.host.port.write(regmap.addr("DMA_TIMEOUT"), 0)
        self.faults.arm("w", self.buffers(0), "late:300")
        n0 = len(self.obs.verdicts)
        await self.send(0, 3, wait=False)
        while not any(v[1] == V["ACCEPT"] for v in self.obs.verdicts[n0:]):
            await ClockCycles(dut.clk, 2)
        await self.host.port.write(regmap.addr("RING_SIZE", 0), 4)  # enabled: ignored
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 0), 0)
        await self.host.port.write(regmap.addr("RING_BASE_LO", 0), 0x0002_0000)  # frames in flight: ignored
        await self.host.port.write(regmap.addr("RING_SIZE", 0), 4)
        assert await self.read("RING_SIZE", 0) == self.k.setups[0].ring_size
        assert await self.read("RING_BASE_LO", 0) == self.k.setups[0].ring_base(0)
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 0), 1)
        await self.settle()
        self.faults.disarm()
        await self.deliver_again(0)

        # 11. disabling a queue with frames in flight: they finish, later ones are QUEUE_DISABLED,
        # nothing is written for the queue after DRAINED reads 1; enabling it again delivers
        self.logger.info("fault row: disable while busy")
        self.faults.arm("w", self.buffers(1), "late:100", uses=3)
        n0 = len(self.obs.verdicts)
        await self.send(1, 6, wait=False)
        while not any(v[1] == V["ACCEPT"] for v in self.obs.verdicts[n0:]):
            await ClockCycles(dut.clk, 2)
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 1), 0)
        while not await self.read("QUEUE_STATUS", 1) & DRAINED:
            await ClockCycles(dut.clk, 10)
        r_drained = max(r for r, a in self.obs.reg_reads if a == regmap.addr("QUEUE_STATUS", 1))
        await self.settle()
        self.faults.disarm()
        late = [b for b in self.obs.bursts if b.cycle >= r_drained
                and (self.ring(1)(b.addr, b.beats) or self.buffers(1)(b.addr, b.beats))]
        assert not late, f"writes for queue 1 after DRAINED read 1 at {r_drained}: {late}"
        vs = [v[1] for v in self.obs.verdicts[n0:] if v[2] == 1]
        assert V["ACCEPT"] in vs and V["QUEUE_DISABLED"] in vs, vs
        await self.host.port.write(regmap.addr("QUEUE_CTRL", 1), 1)
        await self.deliver_again(1)
        await self.doorbell_backwards()
        await self.dma_window()
        await self.send(0, 2)
        await self.send(1, 2)

    async def doorbell_backwards(self) -> None:
        """12. F24: RING_TAIL moved backwards over posted slots while frames are in flight (the
        reservation pointer ahead of the new TAIL): refused (TAIL kept, QUEUE_STATUS.RING_REFUSED,
        CNT_RING_REFUSED), so the NIC writes no slot the host never posted (the out-of-bounds
        checker, byte-exact) and frames beyond the posted slots are RING_FULL; the driver's ring
        reset clears the flag. Before the rule the doorbell was kept: admission saw
        (TAIL - RESV) mod RING_SIZE free slots and wrote the never-posted slot and slots the host
        had reaped, which the checker reports."""
        dut, q = self.dut, 0
        self.logger.info("fault row: doorbell moved backwards over posted slots")
        await self.settle()
        self.host.reap_all()
        await ClockCycles(dut.clk, 300)  # the returner posts every buffer back (return_delay <= 50)
        self.host.stalled.add(q)  # ... and then posts nothing
        size = self.k.setups[q].ring_size
        head, tail = await self.read("RING_HEAD", q), await self.read("RING_TAIL", q)
        assert (tail - head) % size == size - 1, (head, tail)  # every slot but one posted
        n_ref = await self.read("CNT_RING_REFUSED", q)
        self.faults.arm("w", self.buffers(q), "late:300")  # hold the frames in flight (DMA_TIMEOUT 0)
        n0 = len(self.obs.verdicts)
        await self.send(q, 3, wait=False)
        while sum(1 for v in self.obs.verdicts[n0:] if v[1] == V["ACCEPT"]) < 3:
            await ClockCycles(dut.clk, 2)
        back = (head + 1) % size  # HEAD <= back < RESV = HEAD + 3: two posted slots taken back
        await self.host.port.write(regmap.addr("RING_TAIL", q), back)
        assert await self.read("RING_TAIL", q) == tail, "doorbell taking back posted slots kept"
        assert await self.read("QUEUE_STATUS", q) & REFUSED and await self.read("CNT_RING_REFUSED", q) == n_ref + 1
        await self.send(q, size)  # more than the free slots: RING_FULL, never an unposted slot
        await self.settle()
        self.faults.disarm()
        vs = [v[1] for v in self.obs.verdicts[n0:] if v[2] == q]
        assert vs.count(V["ACCEPT"]) == size - 1 and V["RING_FULL"] in vs, vs
        self.check_so_far("doorbell moved backwards")
        self.host.stalled.discard(q)
        await self.host.recover(q)
        assert not await self.read("QUEUE_STATUS", q) & REFUSED
        await self.deliver_again(q)


    async def dma_window(self) -> None:
        """13. F24: queue 1's DMA window, the 2 MiB at 0 (its ring and its buffers). A
        descriptor read answered OKAY with an address outside it (0x40_0000, inside the RAM,
        as a frame's payload could plant it in a corrupted ring): BUF_ERR, no data write
        (the out-of-bounds checker is byte-exact), an ERR write-back, the queue goes on. A
        buffer 32 bytes before the window's end: a frame of 100 bytes or more would run past
        it, BUF_ERR. A window that leaves the ring out: RING_ERR, nothing read or written.
        Without the window the planted address was written (the checker reports it)."""
        dut, q = self.dut, 1
        self.logger.info("fault row: DMA window")
        end = 1 << 21
        await self.host.recover(q, win=(0, 21))
        assert await self.read("DMA_WIN_BITS", q) == 21
        # a planted address outside the window (slot 0's address is read ahead already: the
        # next two slots' reads are answered with it)
        await ClockCycles(dut.clk, 50)
        self.host.reap_all()
        since, n_b = len(self.obs.dma_events), len(self.obs.bursts)
        err_before = len(self.host.delivered[q]) - self.delivered_ok(q)
        self.faults.arm("r", self.ring(q), "garbage:0x400000", uses=2)
        await self.send(q, 3)
        await self.settle()
        self.faults.disarm()
        await ClockCycles(dut.clk, 300)
        self.host.reap_all()
        assert self.events(q, since) == [EV["BUF_ERR"], EV["BUF_ERR"]], self.events(q, since)
        assert not [b for b in self.obs.bursts[n_b:] if b.addr >= end], "a write outside the DMA window"
        assert len(self.host.delivered[q]) - self.delivered_ok(q) == err_before + 2
        assert self.host.delivered[q][-3].length > 0 and all(d.length == 0 for d in self.host.delivered[q][-2:])
        assert await self.read("QUEUE_STATUS", q) & 7 == 0  # not stopped
        # a buffer whose frame would run past the window's end
        await self.host.recover(q, win=(0, 21), bufs={0: end - 32})
        since = len(self.obs.dma_events)
        await self.send(q, 2)
        await self.settle()
        await ClockCycles(dut.clk, 300)
        self.host.reap_all()
        assert self.events(q, since) == [EV["BUF_ERR"]], self.events(q, since)
        # a window without the ring: RING_ERR, nothing written for the queue
        await self.host.recover(q, win=(end, 21))
        since, n_b = len(self.obs.dma_events), len(self.obs.bursts)
        await self.send(q, 2)
        await self.settle()
        ev = self.events(q, since)
        assert ev[:2] == [EV["RING_ERR"], EV["FLUSH"]] and set(ev[2:]) <= {EV["FLUSH"]}, ev
        mine = [b for b in self.obs.bursts[n_b:] if self.ring(q)(b.addr, b.beats) or self.buffers(q)(b.addr, b.beats)]
        assert not mine, f"writes for a queue whose ring is outside its DMA window: {mine}"
        self.check_so_far("DMA window")
        await self.host.recover(q, win=(0, 64))  # no window again
        await self.deliver_again(q)


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


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class WbLostTest(FaultBase):
    """F24: queue 1's write-back B never comes (nothing written either) while queue 0's
    frames are written behind it (F25: the next frame's data follow the write-back at once).
    Each B answers the burst it belongs to: the TIMEOUT and the FLUSH land on queue 1 and
    queue 0's frames complete normally; again with queue 0's data answered SLVERR: DATA_ERR
    on queue 0 (its completion says ERR), TIMEOUT and FLUSH on queue 1. After the recovery
    both queues deliver; the run is checked against the model, every admitted frame
    completed or flushed exactly once."""

    async def lost_wb(self, slverr: bool) -> None:
        since = len(self.obs.dma_events)
        self.host.reap_all()
        ok0, all0 = self.delivered_ok(0), len(self.host.delivered[0])
        self.faults.arm("w", self.writeback(1), "lost")
        if slverr:
            self.faults.arm("w", self.buffers(0), "slverr")
        await self.send(1, 1)
        await self.send(0, 1 if slverr else 3)
        await self.wait_event(1, EV["FLUSH"], since)
        await self.settle()
        self.faults.disarm()
        assert self.events(1, since) == [EV["TIMEOUT"], EV["FLUSH"]], (
            f"queue 1: events {self.events(1, since)}, all {self.obs.dma_events[since:]}")
        assert self.events(0, since) == ([EV["DATA_ERR"]] if slverr else []), (
            f"queue 0: events {self.events(0, since)}, all {self.obs.dma_events[since:]}")
        await ClockCycles(self.dut.clk, 300)
        self.host.reap_all()
        if slverr:
            assert (self.delivered_ok(0), len(self.host.delivered[0])) == (ok0, all0 + 1), "queue 0: no ERR completion"
            assert await self.read("QUEUE_STATUS", 0) & 7 == EV["DATA_ERR"]
            await self.host.recover(0)
        else:
            assert self.delivered_ok(0) == ok0 + 3, f"queue 0: {self.delivered_ok(0) - ok0} of 3 delivered"
            assert await self.read("QUEUE_STATUS", 0) == 0
        assert await self.read("QUEUE_STATUS", 1) & 7 == EV["TIMEOUT"]
        await self.host.recover(1)
        await self.deliver_again(1)
        await self.deliver_again(0)

    async def traffic(self) -> None:
        await self.send(0, 2)
        await self.send(1, 2)
        await self.settle()
        await self.host.port.write(regmap.addr("DMA_TIMEOUT"), 200)
        await self.lost_wb(slverr=False)
        await self.lost_wb(slverr=True)


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
