"""Tests of prionic_eth_rx, the board-ready top (F2, F29): GMII on its own clock, the
clock-crossing frame FIFO, prionic_rx on the system clock.

Run through tests/test_eth_rx.py (pytest, both simulators). Frames go in on the GMII pins
from cocotbext-eth's ``GmiiSource`` (preamble, SFD, FCS and the 12-byte gap of a real
line) on ``gmii_rx_clk``; the system clock ``clk`` runs at the test's own period with a
random phase against ``gmii_rx_clk``. The run is the top tests' (tb/top/env.py ``NicTest``,
tb/top/procedure.py ``run``): the same host, monitor and scoreboard, the golden model held
against the DUT cycle for cycle. The model's frame input is prionic_rx's stream input
inside the top (``core_axis_*``) as recorded there, with the cycle of each frame's tlast;
the FIFO's drops and the front end's bursts without a frame reach it as ``ext_drop``
pulses with their cycles (CNT_DROP_FIFO, CNT_DROP_PREAMBLE, CNT_DROP_SHORT).
Independently of the model, every test then holds what reached the core against what
went onto the pins: each frame that arrived is one that was sent, whole and unchanged, in
order; the frames that did not arrive are exactly CNT_DROP_FIFO; the bursts without a
frame are exactly CNT_DROP_PREAMBLE and CNT_DROP_SHORT (and the front end's counters).
"""

from __future__ import annotations

import logging
import os
import random

import cocotb
import pyuvm
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamMonitor
from cocotbext.eth import GmiiFrame, GmiiSource

from model import regmap
from tb.common import Clocked, param
from tb.top.env import BusRun, NicTest, port_range, rule_ctrl
from tb.top.frames import Flow, Frame
from tb.top.hostmem import QueueSetup
from tb.top.procedure import Knobs
from tb.top.traffic import UDP

RX_PERIOD_PS = 8000   # gmii_rx_clk: 125 MHz
# prionic_rx's ext_drop bits inside the top and the counters they step (F2, F29)
EXT_DROPS = (("core_drop_fifo", "CNT_DROP_FIFO"), ("core_drop_preamble", "CNT_DROP_PREAMBLE"),
             ("core_drop_short", "CNT_DROP_SHORT"))
V = regmap.VERDICTS


class CoreView:
    """The top as ``CycleMonitor`` reads it: its ``s_axis_*`` are prionic_rx's stream input
    inside the top (``core_axis_*``); every other name is the top's own."""

    def __init__(self, dut):
        self._dut = dut

    def __getattr__(self, name: str):
        if name.startswith("s_axis_"):
            name = "core_axis_" + name[len("s_axis_"):]
        return getattr(self._dut, name)


def with_fcs(payload: bytes, pad: bool = True) -> GmiiFrame:
    """Preamble, SFD, the payload (padded to 60 bytes unless ``pad`` is False) and its FCS."""
    return GmiiFrame.from_payload(payload, min_len=60 if pad else 0)


class EthRun(BusRun):
    """The run port of prionic_eth_rx: ``BusRun`` with the frames sent on the GMII pins and
    recorded where they enter prionic_rx."""

    def __init__(self, test: EthTest):
        super().__init__(test)
        self.eth = test
        self.core: list[Frame] = []
        self.keep_bad = 0  # core frames whose tkeep broke frame-path.md section 1

    async def start(self) -> None:
        t, env, dut = self.eth, self.eth.env, self.eth.dut
        clocked = Clocked(dut, period_ns=t.period_ns)
        env.host.start_bus(dut, t.k, t.rng, clocked)
        assert env.host.driver is not None
        self.host = env.host.driver
        self.monitor = env.monitor.start_bus(CoreView(dut), clocked, t.cfg.num_queues, self.host.writeback_slot,
                                             env.host.faults)
        t.monitor, t.clocked = self.monitor, clocked
        dut.run_prio.value = 0
        dut.gmii_rxd.value = 0
        dut.gmii_rx_dv.value = 0
        dut.gmii_rx_er.value = 0
        # gmii_rx_clk first (the top's reset reaches its side through it), at a random phase;
        # clk from the next whole ns (Clocked numbers its edges in ns)
        phase = t.rng.randrange(1, 1000)
        await Timer(phase, "ps")
        cocotb.start_soon(Clock(dut.gmii_rx_clk, t.rx_period_ps, unit="ps", impl="gpi").start(start_high=False))
        await Timer(1000 - phase + 1000 * t.rng.randrange(RX_PERIOD_PS // 1000), "ps")
        self.source = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.gmii_rx_clk)
        self.source.log.setLevel(logging.WARNING)
        self.axis = AxiStreamMonitor(AxiStreamBus.from_prefix(dut, "core_axis"), dut.clk, dut.rst)
        self.axis.log.setLevel(logging.WARNING)
        await clocked.start(reset_cycles=8)
        self.monitor.start()
        self.drop_tasks = [cocotb.start_soon(self._drops(getattr(dut, sig), cnt)) for sig, cnt in EXT_DROPS]

    async def _drops(self, sig, counter: str) -> None:
        """The cycle of every pulse of one ext_drop bit (high one cycle per event; events in
        consecutive cycles keep it high)."""
        d, clocked = self.eth.dut, self.eth.clocked
        while True:
            await RisingEdge(sig)
            await FallingEdge(d.clk)
            while sig.value == 1:
                self.monitor.obs.ext_drops.append((clocked.cycle_at_falling(), counter))
                await FallingEdge(d.clk)

    async def traffic(self) -> int:
        for gf in self.eth.wire():
            await self.source.send(gf)
        await self.source.wait()
        # what is still in the FIFO reaches the core: at most its depth in words, one a cycle
        depth = param("RX_FIFO_BYTES", 4096) // (self.eth.cfg.data_width // 8)
        await ClockCycles(self.eth.dut.clk, depth + 64)
        self._collect()
        return len(self.core)

    def _collect(self) -> None:
        kw = self.eth.cfg.data_width // 8
        while not self.axis.empty():
            f = self.axis.recv_nowait(compact=False)
            keep = list(f.tkeep) if f.tkeep else [1] * len(f.tdata)
            beats = [keep[i:i + kw] for i in range(0, len(keep), kw)]
            n = sum(beats[-1])
            ok = all(all(b) for b in beats[:-1]) and beats[-1] == [1] * n + [0] * (kw - n) and n > 0
            self.keep_bad += not ok
            tuser = f.tuser[-1] if isinstance(f.tuser, list) else f.tuser
            data = bytes(b for b, k in zip(f.tdata, keep, strict=True) if k)
            self.core.append(Frame(data, tuser=bool(tuser), tkeep_ok=ok))

    async def stop(self) -> None:
        for task in self.drop_tasks:
            task.cancel()
        self._collect()
        await super().stop()

    def frames(self) -> list[Frame]:
        return self.core


class EthTest(NicTest):
    """Base of the prionic_eth_rx tests: ``sent`` is the list of (GmiiFrame, what the core
    must see: (bytes, tuser) or None when the front end emits nothing)."""

    run_port_cls = EthRun
    period_ns = 16                    # clk
    rx_period_ps = RX_PERIOD_PS       # gmii_rx_clk
    expect_drops = False              # the FIFO may drop (the core is too slow)

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        return Knobs(
            frames=0, flows=[],
            setups=[QueueSetup(ring_size=64, buf_size=2048, immediate=True) for _ in range(nq)],
            rules=[(rule_ctrl(queue=nq - 1, proto=UDP, dport=True), port_range(5000))],
            tick_div=1, chaos=False, return_delay=(0, 0), isr_delay=(2, 2))

    def frames_to_send(self) -> list[tuple[GmiiFrame, tuple[bytes, bool] | None]]:
        raise NotImplementedError

    def wire(self) -> list[GmiiFrame]:
        self.kinds: list[str] = []  # what each burst is, where a test says
        self.sent = self.frames_to_send()
        return [g for g, _ in self.sent]

    def check_phase(self) -> None:
        super().check_phase()  # the scoreboard: model against DUT, cycle for cycle
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        port = self.bus
        assert isinstance(port, EthRun)
        assert port.keep_bad == 0, f"{port.keep_bad} frames reached the core with a tkeep frame-path.md forbids"
        # every core frame is a sent frame, whole and unchanged, in order; the rest were dropped
        expected = [e for _g, e in self.sent if e is not None]
        i, skipped = 0, []
        for n, fr in enumerate(run.frames):
            while i < len(expected) and expected[i] != (fr.data, fr.tuser):
                skipped.append(i)
                i += 1
            assert i < len(expected), f"core frame {n} ({len(fr.data)} bytes) is no frame sent, or out of order"
            i += 1
        skipped += range(i, len(expected))
        drops = run.registers[regmap.addr("CNT_DROP_FIFO")]
        self.logger.info("clk %d ns: %d frames on the pins, %d expected at the core, %d arrived, %d dropped "
                         "at the FIFO (CNT_DROP_FIFO %d), %d stall cycles", self.period_ns, len(self.sent),
                         len(expected), len(run.frames), len(skipped), drops, run.observed.stalls)
        assert drops == len(skipped), f"CNT_DROP_FIFO {drops}, but {len(skipped)} frames did not arrive"
        assert sum(c == "CNT_DROP_FIFO" for _k, c in run.observed.ext_drops) == drops
        # the bursts that never become a frame, counted by the front end and by the NIC (F2)
        for counter, kind in (("CNT_DROP_PREAMBLE", "no_sfd"), ("CNT_DROP_SHORT", "short")):
            want = sum(k == kind for k in self.kinds)
            got = run.registers[regmap.addr(counter)]
            assert got == want, f"{counter} {got}, {want} bursts of that kind sent"
        if self.expect_drops:
            assert drops > 0, "the core was too slow, yet the FIFO dropped nothing"
        else:
            assert drops == 0, f"{drops} frames dropped at the FIFO"


class LineRate(EthTest):
    """F2, F29: minimum-size frames (60 bytes, FCS, 8 bytes preamble+SFD, 12 bytes gap: 84
    gmii_rx_clk cycles each) back to back at line rate, all to a registered queue. Without
    expect_drops every frame must reach the core and be delivered (ACCEPT, completed);
    with it (a core too slow for the line), frames are dropped whole at the FIFO only,
    counted in CNT_DROP_FIFO, and every frame that arrives is whole and delivered."""

    count = 40

    def frames_to_send(self) -> list[tuple[GmiiFrame, tuple[bytes, bool] | None]]:
        flow = Flow("ctrl", "udp", 5000, payload=(18, 18))
        out = []
        for _ in range(int(os.environ.get("PRIONIC_FRAMES", self.count))):
            data = flow.make(self.rng).data
            assert len(data) == 60
            out.append((with_fcs(data), (data, False)))
        return out

    def check_phase(self) -> None:
        super().check_phase()
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        accepted = sum(o.verdict == V["ACCEPT"] for o in model.outcomes)
        top = self.cfg.num_queues - 1
        delivered = sum(1 for _c, q, _s in run.observed.completions if q == top)
        assert accepted == delivered == len(run.frames), (accepted, delivered, len(run.frames))
        assert run.observed.stalls == 0, f"prionic_rx's input stalled for {run.observed.stalls} cycles"
        if not self.expect_drops:
            assert len(run.frames) == len(self.sent)


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class LineRate62(LineRate):
    """F29: line rate into a 62.5 MHz core (32 bits: exactly fast enough)."""

    period_ns = 16


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class LineRate100(LineRate):
    """F29: line rate into a 100 MHz core."""

    period_ns = 10


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class LineRate125(LineRate):
    """F29: line rate into a 125 MHz core (the PHY's frequency, another phase)."""

    period_ns = 8


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class LineRateUnrelated(LineRate):
    """F29: line rate into a 71.4 MHz core from a PHY 250 ppm fast (gmii_rx_clk 7.998 ns):
    no fixed phase between the clocks."""

    period_ns = 14
    rx_period_ps = 7998


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class SlowCore(LineRate):
    """F29: line rate into a core too slow for it (8 bits at 62.5 MHz: a 60-byte frame
    takes 120 gmii_rx_clk cycles of the core, the line brings one every 84): the FIFO drops
    whole frames, counted in CNT_DROP_FIFO; no frame arrives cut or corrupted."""

    period_ns = 16
    expect_drops = True


@pyuvm.test(timeout_time=500_000, timeout_unit="us")
class BadInput(EthTest):
    """F2, F29: bad input through the whole top gets the verdicts of docs/gmii.md and
    frame-path.md: a wrong FCS and rx_er make BAD_FRAME (tuser), frames of 1..59 bytes
    MALFORMED (runt), frames over MAX_FRAME_LEN OVERSIZE; a burst with no SFD and one of 0 to
    4 bytes after the SFD reach no queue and are counted (CNT_DROP_PREAMBLE, CNT_DROP_SHORT
    and the front end's own counters); good frames between them are delivered."""

    period_ns = 10

    def frames_to_send(self) -> list[tuple[GmiiFrame, tuple[bytes, bool] | None]]:
        flow = Flow("ctrl", "udp", 5000, payload=(18, 200))
        out: list[tuple[GmiiFrame, tuple[bytes, bool] | None]] = []
        for k in range(42):
            data = flow.make(self.rng).data
            kind = ["good", "fcs", "rx_er", "runt", "oversize", "no_sfd", "short"][k % 7]
            self.kinds.append(kind)
            if kind == "good":
                out.append((with_fcs(data), (data, False)))
            elif kind == "fcs":
                g = with_fcs(data)
                g.data[-1 - self.rng.randrange(4)] ^= 1 << self.rng.randrange(8)
                out.append((g, (data, True)))
            elif kind == "rx_er":
                g = with_fcs(data)
                g.error = [0] * len(g.data)
                g.error[8 + self.rng.randrange(len(g.data) - 8)] = 1
                out.append((g, (data, True)))
            elif kind == "runt":
                data = data[:self.rng.randint(1, 59)]
                out.append((with_fcs(data, pad=False), (data, False)))
            elif kind == "oversize":
                data = data + bytes(self.rng.randint(1519, 1600) - len(data))
                out.append((with_fcs(data), (data, False)))
            elif kind == "no_sfd":
                out.append((GmiiFrame(b"\x55" * 6 + bytes([0x12]) + data), None))
            else:  # preamble, SFD, then 0 to 4 bytes: too short to hold an FCS
                out.append((GmiiFrame(b"\x55" * 7 + b"\xd5" + data[:self.rng.randint(0, 4)]), None))
        return out

    def check_phase(self) -> None:
        super().check_phase()
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        want = {"good": V["ACCEPT"], "fcs": V["BAD_FRAME"], "rx_er": V["BAD_FRAME"], "runt": V["MALFORMED"],
                "oversize": V["OVERSIZE"]}
        kinds = [k for k in self.kinds if k not in ("no_sfd", "short")]
        got = [v[1] for v in run.observed.verdicts]
        assert got == [want[k] for k in kinds], list(zip(kinds, got, strict=False))
        pre, short = int(self.dut.gmii_status_preamble_errors.value), int(self.dut.gmii_status_short_frames.value)
        assert (pre, short) == (self.kinds.count("no_sfd"), self.kinds.count("short")), (pre, short)
