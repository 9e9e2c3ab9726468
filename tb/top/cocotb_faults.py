"""Host-side faults of prionic_rx (F24): the fault matrix of docs/faults.md and a lost
write-back, on the fault-test base tb/top/faults_base.py.

Run through tests/test_faults.py (pytest, both simulators, one build) with
tb/top/cocotb_faults_reset.py and tb/top/cocotb_faults_stall.py.

``FaultMatrixTest`` drives one faulty situation after the other on a running NIC, each on
one queue while the other queue keeps receiving, and for each checks the outcome
docs/faults.md documents (the DMA event, QUEUE_STATUS, the verdicts), then runs the
driver's documented recovery (``HostDriver.recover``) where there is one and checks that
frames are delivered again. Over the whole run the usual scoreboard holds every verdict,
completion, buffer byte, interrupt, irq_err edge and counter against the golden model
(which takes the DMA events as timing inputs, like completions), the out-of-bounds checker
finds no write outside posted buffers and rings, and every frame is delivered or counted
under exactly one reason (its verdict, and for an admitted frame its completion or FLUSH).

``WbLostTest``: a write-back whose B never comes, behind which the other queue's frames
are written; TIMEOUT and FLUSH land on the right queue.
"""

from __future__ import annotations

import pyuvm
from cocotb.triggers import ClockCycles

from model import regmap
from tb.top.faults_base import (
    DRAINED,
    EV,
    REFUSED,
    DeafModel,
    FaultBase,
    V,
)
from tb.top.scoreboard import compare


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

    async def stray_b(self, name: str, q: int, match) -> None:
        """F24: a B whose ID names no burst owed is a STRAY_B event (queue 0xFF, counted in
        CNT_DMA_ERR_ALL only) and completes nothing (HEAD counts one completion per frame,
        the scoreboard every completion's cycle and slot); the burst whose B it was never
        gets its own and times out (TIMEOUT of its queue, a FLUSH), and the documented
        recovery brings the queue back (phase)."""
        since = len(self.obs.dma_events)
        all_before = await self.read("CNT_DMA_ERR_ALL")
        await self.phase(name, q, "w", match, "wrongid", EV["TIMEOUT"])
        stray = [(e, qq) for e, qq, code in self.obs.dma_events[since:] if code == EV["STRAY_B"]]
        assert stray and all(qq == 0xFF for _e, qq in stray), f"{name}: STRAY_B events {stray}"
        errs = [code for _e, qq, code in self.obs.dma_events[since:] if code != EV["FLUSH"]]
        assert await self.read("CNT_DMA_ERR_ALL") == all_before + len(errs), f"{name}: CNT_DMA_ERR_ALL"

    async def stray_b_wb(self) -> None:
        """F24: queue 0's write-back answered with the data ID (and not written, so that no
        DD shows, as for a lost write-back): taken for a data burst of queue 1 owed then,
        whose own B is then stray, or stray itself; never queue 0's completion. Queue 0's
        write-back times out (TIMEOUT, its frame flushed) while queue 1's frames complete;
        the recovery brings queue 0 back."""
        self.logger.info("fault row b_wrongid_wb on queue 0")
        since = len(self.obs.dma_events)
        self.host.reap_all()
        ok1 = self.delivered_ok(1)
        self.faults.arm("w", self.writeback(0), "wrongid:lost")
        await self.send(0, 1)
        await self.send(1, 3)
        await self.wait_event(0, EV["FLUSH"], since)
        await self.settle()
        self.faults.disarm()
        assert self.events(0, since) == [EV["TIMEOUT"], EV["FLUSH"]], self.obs.dma_events[since:]
        assert self.events(1, since) == [], self.obs.dma_events[since:]
        assert self.events(0xFF, since) == [EV["STRAY_B"]], self.obs.dma_events[since:]
        await ClockCycles(self.dut.clk, 300)
        self.host.reap_all()
        assert self.delivered_ok(1) == ok1 + 3, f"queue 1: {self.delivered_ok(1) - ok1} of 3 delivered"
        await self.host.recover(0)
        await self.deliver_again(0)

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
        # 6b. a B with the wrong kind of ID (a data burst's B with the write-back bit, a
        # write-back's B without it): STRAY_B, never a completion; the burst it should have
        # answered times out, its queue stops, and the recovery brings it back
        await self.stray_b("b_wrongid_data", 1, self.buffers(1))
        await self.stray_b_wb()

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
        # (F24: neither stored nor silently cleared, and the write resets nothing)
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
