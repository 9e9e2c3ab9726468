"""Directed DMA corner tests of prionic_rx for `make coverage` (F24, F30): each DMA fault in
each state of the DMA that can meet it (tb/coverage/funccov.py ``EVENT_STATES``).

A fault is armed on one burst (tb/top/axi_mem.py ``Faults``) while the memory holds a response
channel (B or R) or a handshake (AWREADY, ARREADY) and the other queues' frames put the
DMA where the fault should find it: idle, waiting in S_DESC, skipping a dropped frame,
writing a frame, waiting for its Bs, sending a write-back. The fault's queue stops and the
driver's recovery (``HostDriver.recover``) restarts it. The whole run is checked against
the golden model like every top test (tb/top/env.py ``NicTest``); the monitor reads the DMA's
state for the functional coverage only under `make coverage`, so the test asserts the
events themselves. Also: a descriptor read the ring reset made stale, answered with an
error or not at all (no event), and a read answered in the edge a write error is reported.
Run through tests/test_corners.py on both simulators.
"""

from __future__ import annotations

import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles, FallingEdge

from model import regmap
from tb.coverage import funccov
from tb.top.cocotb_corners import FramesSeq, class_frame
from tb.top.env import Knobs, NicTest, rule_ctrl
from tb.top.faults_base import BurstMatchers
from tb.top.frames import Frame
from tb.top.hostmem import QueueSetup

V = regmap.VERDICTS
EV = regmap.ENUMS["dma_event"]
F = regmap.FIELDS
TIMEOUT = 600  # DMA_TIMEOUT: long enough to place a 1400-byte frame before it expires


@pyuvm.test(timeout_time=5_000_000, timeout_unit="us")
class DmaCornersTest(BurstMatchers, NicTest):
    """F24, F30: every DMA event in the states that can decide it (module docstring)."""

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        # rule r (of NUM_RULES) sends UDP port 5000 + r to queue r; the rest is UNREGISTERED
        k = Knobs(frames=0, setups=[QueueSetup(ring_size=8, buf_size=2048, immediate=True) for _ in range(nq)],
                  rules=[], tick_div=1, chaos=False, return_delay=(0, 20), isr_delay=(2, 10), faults=True)
        k.extra_writes.append(("DMA_TIMEOUT", 0, TIMEOUT))
        return k

    # ------------------------------------------------------------------ helpers
    @property
    def obs(self):
        return self.monitor.obs

    @property
    def host(self):
        return self.env.host.driver

    def frame(self, q: int | None, size: int = 0) -> Frame:
        """A UDP frame for queue q (None: unregistered, dropped), ``size`` bytes of payload."""
        fr = class_frame(self.rng, "udp", size)
        data = bytearray(fr.data)
        data[36:38] = (7000 if q is None else 5000 + q).to_bytes(2, "big")  # UDP destination port
        data[40:42] = b"\0\0"  # no UDP checksum
        return Frame(bytes(data), flow=f"q{q}" if q is not None else "drop")

    def pause(self, channel: str, on: bool) -> None:
        """Hold (or release) the memory's B or R channel: responses wait, in order."""
        itf = self.env.host.ram.write_if.b_channel if channel == "b" else self.env.host.ram.read_if.r_channel
        itf.pause = on

    def send_soon(self, frames: list[Frame]) -> None:
        cocotb.start_soon(FramesSeq("d", frames, 0).start(self.env.seqr))

    async def until_verdicts(self, n: int) -> None:
        for _ in range(4000):
            if len(self.obs.verdicts) >= n:
                return
            await ClockCycles(self.dut.clk, 5)
        raise AssertionError(f"{len(self.obs.verdicts)} of {n} verdicts")

    async def settle(self) -> None:
        """Every frame has its verdict and every accepted one its completion or FLUSH; then
        every stopped queue recovered."""
        await self.env.driver.source.wait()
        for _ in range(8000):
            acc = sum(1 for v in self.obs.verdicts if v[1] == V["ACCEPT"])
            ended = len(self.obs.completions) + sum(1 for e in self.obs.dma_events if e[2] == EV["FLUSH"])
            if len(self.obs.verdicts) == len(self.env.driver.sent) and ended == acc:
                break
            await ClockCycles(self.dut.clk, 10)
        else:
            raise AssertionError("the DMA did not settle")
        self.env.host.faults.disarm()
        stopped = await self.host.port.read(regmap.addr("DMA_ERR_STATUS"))
        for q in range(self.cfg.num_queues):
            if stopped >> q & 1:
                await self.host.recover(q)

    def events(self, since: int) -> list[str]:
        names = {v: k for k, v in EV.items()}
        return [names[c] for _e, _q, c in self.obs.dma_events[since:]]

    async def case(self, name: str, want: str | None, arm: list[tuple], body) -> None:
        """Arm the faults, run ``body``, settle and recover; the run must report ``want``."""
        since = len(self.obs.dma_events)
        for kind, match, fault, *uses in arm:
            self.env.host.faults.arm(kind, match, fault, *uses)
        await body()
        await self.settle()
        got = self.events(since)
        # the DMA's state at each event: read only where the monitor can (tb/top/monitor.py)
        states = [funccov.STATES.get(st, str(st)) for st in self.obs.dma_states[since:]]
        self.logger.info("%s: events %s%s", name, got, f" in states {states}" if states else "")
        ok = want is None or want in got
        place = name.split()[-1]
        if ok and want is not None and states and place in funccov.STATES.values():
            st = states[got.index(want)]  # where the case put the DMA when its fault came
            ok = funccov.FOLD.get(st, st) == place
        self.seen.append((name, ok))

    # ------------------------------------------------------------------ situations
    def now(self) -> int:
        return self.clocked.cycle_at_falling()

    async def until(self, cycle: int) -> None:
        while self.now() < cycle:
            await FallingEdge(self.dut.clk)

    async def until_ax(self, read: bool, match, handshake: bool = True) -> int:
        """The cycle of the next AR (``read``) or AW that ``match``es, offered or taken."""
        d = self.dut
        valid, ready, addr = ((d.m_axi_arvalid, d.m_axi_arready, d.m_axi_araddr) if read
                              else (d.m_axi_awvalid, d.m_axi_awready, d.m_axi_awaddr))
        for _ in range(20000):
            await FallingEdge(d.clk)
            if valid.value == 1 and (ready.value == 1 or not handshake) and match(int(addr.value), 1):
                return self.now()
        raise AssertionError("the burst never came")

    def situate(self, state: str, z: int) -> None:
        """Frames that put the DMA in ``state`` at cycle z (the frame FSM; timings from the
        frame lengths: a 1400-byte frame streams 350 cycles at 32 bits, is written or skipped
        in about 180 from its verdict, which comes 12 after its last beat)."""
        at = None
        if state in ("SKIP", "DATA_W"):  # SKIP: queue 2's buffer is bad (the caller), BUF_ERR
            fr = self.frame(2 if state == "SKIP" else 1, 1400 - 42)
            at, frames = z - 100 - len(fr.data) // 4, [fr]
        elif state == "DATA_B":   # its Bs held (read side: by the caller) until after z
            fr = self.frame(1, 200)
            at, frames = z - 150 - len(fr.data) // 4, [fr]
        elif state == "DESC_AR":  # queue 3's frame waits for its own descriptor (held by the caller)
            at, frames = z - 200, [self.frame(3)]
        else:
            return
        cocotb.start_soon(FramesSeq("s", frames, 0, at=at).start(self.env.seqr))

    # ------------------------------------------------------------------ the cases
    async def traffic(self) -> None:
        nq = self.cfg.num_queues
        self.seen: list[tuple[str, bool]] = []
        host = self.host
        for r in range(nq):
            await host.axil.write_dword(regmap.addr("RULE_DPORT", r), 5000 + r | (5000 + r) << 16)
            await host.axil.write_dword(regmap.addr("RULE_CTRL", r), rule_ctrl(queue=r, proto=17, dport=True))
        clk = self.dut.clk
        states = funccov.RESTING

        # the write-back's B: an error released at z (B held), or lost with the write-back
        # (the watchdog at z; docs/faults.md: a host that reaps by DD must not see it land)
        for fault, want in (("slverr", "WB_ERR"), ("lost", "TIMEOUT")):
            for st in funccov.OWED:
                async def wb(st=st, fault=fault) -> None:
                    if st == "DESC_AR":  # queue 3's frame waits for its descriptor, held in R
                        self.pause("r", True)
                        await host.recover(3)
                    seen = cocotb.start_soon(self.until_ax(False, self.writeback(0)))
                    self.send_soon([self.frame(0)])
                    x = await seen
                    self.pause("b", fault == "slverr")  # from the write-back's AW on: its B held
                    z = x + (TIMEOUT - 100 if fault == "slverr" else TIMEOUT + 2)
                    self.situate(st, z)
                    w = self.env.host.ram.write_if.w_channel
                    if st == "DATA_W" and fault == "lost":
                        # the watchdog restarts at every B: no B while the frame is written,
                        # its W held from its first burst on, so the lost write-back's TIMEOUT
                        # and FLUSH come while it is in S_DATA_W
                        await self.until_ax(False, self.buffers(1))
                        w.pause = True
                    await self.until(z)
                    self.pause("b", False)
                    await ClockCycles(clk, 20)
                    self.pause("r", False)
                    w.pause = False
                await self.case(f"{want} {st}", want, [("w", self.writeback(0), fault)], wb)

        # queue 3's descriptor read: an error released at z (R held), never answered (the
        # watchdog at z), or its AR withheld (STALL_R at z)
        for fault, want in (("slverr", "DESC_ERR"), ("drop", "TIMEOUT"), ("stall", "STALL_R")):
            for st in states:
                async def desc(st=st, fault=fault) -> None:
                    ar = self.env.host.ram.read_if.ar_channel
                    if st == "SKIP":  # queue 2's (bad) descriptor read before queue 3's
                        await host.recover(2, bufs={0: 0x1_0000_0040})
                        await ClockCycles(clk, 50)
                    self.pause("r", fault == "slverr")
                    ar.pause = fault == "stall"
                    seen = cocotb.start_soon(self.until_ax(True, self.ring(3), handshake=fault != "stall"))
                    await host.recover(3)
                    x = await seen
                    z = x + (TIMEOUT - 100 if fault == "slverr" else TIMEOUT + 2)
                    if st == "DATA_B":
                        await self.until(z - 300)
                        self.pause("b", True)
                    self.situate(st, z)
                    await self.until(z)
                    if st == "DATA_B":
                        await ClockCycles(clk, 20)
                        self.pause("b", False)
                    self.pause("r", False)
                    ar.pause = False
                arm = [] if fault == "stall" else [("r", self.ring(3), fault)]
                await self.case(f"{want} {st}", want, arm, desc)

        # data B errors while the frame is written and while its Bs are waited for
        async def data_err() -> None:
            n = len(self.obs.verdicts)
            self.send_soon([self.frame(1, 1400 - 42)])
            await self.until_verdicts(n + 1)
            await ClockCycles(clk, 400)
        await self.case("DATA_ERR", "DATA_ERR", [("w", self.buffers(1), "slverr", 64)], data_err)

        # AWREADY withheld past DMA_TIMEOUT: a data burst's AW (S_DATA_W), then the
        # write-back's AW once the frame's one data burst was taken (S_CPL_W)
        async def aw_held(wb: bool) -> None:
            aw = self.env.host.ram.write_if.aw_channel
            n = len(self.obs.verdicts)
            seen = cocotb.start_soon(self.until_ax(False, self.buffers(1), handshake=wb))
            self.send_soon([self.frame(1, 20 if wb else 1400 - 42)])
            await seen
            aw.pause = True
            await self.until_verdicts(n + 1)
            self.logger.info("STALL_W case: verdict %s", self.obs.verdicts[n])
            await ClockCycles(clk, TIMEOUT + 60)
            aw.pause = False
        await self.case("STALL_W DATA_W", "STALL_W", [], lambda: aw_held(False))
        await self.case("STALL_W CPL_W", "STALL_W", [], lambda: aw_held(True))

        # a descriptor read made stale by a ring reset, then answered with an error, or
        # never (its watchdog expires without an event)
        async def stale(fault: str) -> None:
            self.pause("r", True)
            self.env.host.faults.arm("r", self.ring(5), fault)
            seen = cocotb.start_soon(self.until_ax(True, self.ring(5)))
            await host.recover(5)   # the read goes out, held
            await seen
            await host.recover(5)   # the ring reset while it is out: stale
            await ClockCycles(clk, TIMEOUT + 50 if fault == "drop" else 20)
            self.pause("r", False)
        await self.case("stale error", None, [], lambda: stale("slverr"))
        await self.case("stale lost", None, [], lambda: stale("drop"))

        # a data error reported while a descriptor read waits for its R (RREADY low then)
        async def read_beside_write_error() -> None:
            self.pause("r", True)
            await host.recover(6)
            self.env.host.faults.arm("w", self.buffers(1), "slverr")
            n = len(self.obs.verdicts)
            self.send_soon([self.frame(1, 200)])
            await self.until_verdicts(n + 1)
            await ClockCycles(clk, 100)
            self.pause("r", False)
        await self.case("R beside a write error", "DATA_ERR", [], read_beside_write_error)

        # a lost write-back's FLUSH (the edge after its TIMEOUT) in the edge a frame waiting in
        # S_DESC for that write-back meets its bad buffer: both events are reported (S_DESC's
        # events wait for the FLUSH's edge, docs/faults.md section 2)
        async def flush_beside_buf_err() -> None:
            await host.recover(2, bufs={0: 0x1_0000_0040})   # queue 2's next buffer: beyond the bus
            await ClockCycles(clk, 50)
            seen = cocotb.start_soon(self.until_ax(False, self.writeback(0)))
            self.send_soon([self.frame(0)])
            await seen
            self.send_soon([self.frame(2)])                  # waits in S_DESC for the write-back
            await ClockCycles(clk, TIMEOUT + 100)
        await self.case("FLUSH beside BUF_ERR", "BUF_ERR", [("w", self.writeback(0), "lost")],
                        flush_beside_buf_err)

    def check_phase(self) -> None:
        super().check_phase()
        missed = [name for name, ok in self.seen if not ok]
        assert not missed, f"cases without their event: {missed}"
