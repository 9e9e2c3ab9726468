"""The pyuvm environment of the prionic top level (F19).

    NicTest (uvm_test)              run_phase: traffic, chaos, drain, register read-back;
      │                             check_phase: the scoreboard (tb/top/scoreboard.py ``check``)
      └─ NicEnv (uvm_env)
           ├─ seqr       uvm_sequencer of FrameItem
           ├─ driver     StreamDriver (uvm_driver): FrameItem -> cocotbext-axi AxiStreamSource
           ├─ host       HostAgent (uvm_component): AxiLiteMaster + AxiRam + HostDriver (posts, services, returns)
           ├─ monitor    MonitorAgent (uvm_component): CycleMonitor (every event with its cycle)
           └─ scoreboard Scoreboard (uvm_component): golden model vs DUT, one batch check

``NicTest.run_phase`` runs the run procedure (tb/top/procedure.py ``run``, the same as the fast
path's) through ``BusRun``, the bus path's port: it starts the monitor (``self.monitor`` is
its ``CycleMonitor``) and collects what it observed, the frames sent, what the host read and
the registers into a ``Run`` record (tb/top/scoreboard.py); ``NicTest.check_phase`` hands the
record to the scoreboard, which replays its inputs into the golden model and compares everything.

Sequences: TrafficSeq draws frames from weighted flows with random gaps and back-to-back
bursts. Knobs come from ``NicTest.knobs()`` so a test is a small subclass.
"""

from __future__ import annotations

import logging
import os
import pickle
import random
import time

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotbext.axi import (
    AxiBus,
    AxiLiteBus,
    AxiLiteMaster,
    AxiRam,
    AxiStreamBus,
    AxiStreamFrame,
    AxiStreamSource,
)
from pyuvm import (
    ConfigDB,
    uvm_component,
    uvm_driver,
    uvm_env,
    uvm_sequence,
    uvm_sequence_item,
    uvm_sequencer,
    uvm_test,
)

from model import regmap
from model.nic import PrionicModel
from tb.common import Clocked, make_rng
from tb.coverage import funccov
from tb.top import procedure
from tb.top.axi_mem import Faults, Reorder, make_unhelpful, make_w_waits_for_aw
from tb.top.frames import Flow, Frame
from tb.top.host import BusPort, HostDriver
from tb.top.hostmem import RAM_SIZE
from tb.top.monitor import CycleMonitor, Observed
from tb.top.procedure import Knobs, make_host, model_config
from tb.top.scoreboard import Run, check

F = regmap.FIELDS


def rule_ctrl(queue: int = 0, proto: int | None = None, dport: bool = False, drop: bool = False,
              ethertype: bool = False) -> int:
    ctrl = 1 << F["RULE_CTRL_ENABLE"] | int(ethertype) << F["RULE_CTRL_MATCH_ETHERTYPE"]
    ctrl |= int(drop) << F["RULE_CTRL_DROP"]
    ctrl |= queue << F["RULE_CTRL_QUEUE_LSB"]
    if proto is not None:
        ctrl |= 1 << F["RULE_CTRL_MATCH_PROTO"] | proto << F["RULE_CTRL_PROTO_LSB"]
    ctrl |= int(dport) << F["RULE_CTRL_MATCH_DPORT"]
    return ctrl


def port_range(lo: int, hi: int | None = None) -> int:
    return lo | (lo if hi is None else hi) << 16


class FrameItem(uvm_sequence_item):
    """One frame; sent after ``gap`` idle cycles, or not before cycle ``at`` if given."""

    def __init__(self, name: str = "frame", frame: Frame | None = None, gap: int = 0,
                 wait: bool = True, at: int | None = None):
        super().__init__(name)
        self.frame = frame
        self.gap = gap
        self.wait = wait
        self.at = at


class ScheduledSeq(uvm_sequence):
    """Frames at given arrival cycles (a scenario's traffic): ``ConfigDB`` key ``schedule``,
    a list of (cycle, Frame) sorted by cycle."""

    async def body(self) -> None:
        schedule: list[tuple[int, Frame]] = ConfigDB().get(None, "", "schedule")
        for i, (at, frame) in enumerate(schedule):
            item = FrameItem(f"f{i}", frame, at=at, wait=False)
            await self.start_item(item)
            await self.finish_item(item)


class TrafficSeq(uvm_sequence):
    """``knobs.frames`` frames from weighted flows, random gaps, some back-to-back."""

    async def body(self) -> None:
        knobs: Knobs = ConfigDB().get(None, "", "knobs")
        rng: random.Random = ConfigDB().get(None, "", "rng")
        weights = [w for w, _ in knobs.flows]
        makers = [m for _, m in knobs.flows]
        for i in range(knobs.frames):
            maker = rng.choices(makers, weights)[0]
            frame = maker.make(rng) if isinstance(maker, Flow) else maker(rng)
            b2b = rng.random() < knobs.burst
            item = FrameItem(f"f{i}", frame, 0 if b2b else rng.randint(*knobs.gap), wait=not b2b)
            await self.start_item(item)
            await self.finish_item(item)


class StreamDriver(uvm_driver):
    """Drives FrameItems into s_axis through cocotbext-axi's AxiStreamSource."""

    def build_phase(self) -> None:
        self.sent: list[Frame] = []
        self.source: AxiStreamSource | None = None
        self.clocked: Clocked | None = None

    def start_bus(self, dut) -> None:
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.source.log.setLevel(logging.WARNING)  # it logs every frame at INFO
        self.keep_width = len(dut.s_axis_tkeep)

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            assert self.source is not None
            fr: Frame = item.frame
            if item.gap:
                await ClockCycles(cocotb.top.clk, item.gap)
            if item.at is not None:
                assert self.clocked is not None
                # queue the frame no earlier than its arrival cycle (later if the line is busy)
                await self.source.wait()
                now = self.clocked.now_cycle()
                if item.at > now:
                    await ClockCycles(cocotb.top.clk, item.at - now)
            tkeep = None
            if not fr.tkeep_ok:
                tkeep = [1] * len(fr.data)
                tkeep[1] = 0  # a hole in the first (never last) beat
            await self.source.send(AxiStreamFrame(fr.data, tkeep=tkeep, tuser=int(fr.tuser)))
            self.sent.append(fr)
            if item.wait:
                await self.source.wait()
            self.seq_item_port.item_done()


class HostAgent(uvm_component):
    def build_phase(self) -> None:
        self.driver: HostDriver | None = None

    def start_bus(self, dut, knobs: Knobs, rng: random.Random, clocked: Clocked) -> None:
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        mem_rst = dut.bus_rst if knobs.bus_reset else dut.rst if knobs.mem_reset else None
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, mem_rst, size=RAM_SIZE)
        # (before Faults, so that a late:N fault waits in its pool and later bursts overtake it)
        self.reorder = (Reorder(self.ram, dut.clk, random.Random(rng.getrandbits(32)), reset=mem_rst)
                        if knobs.reorder else None)
        self.faults = Faults(self.ram, dut.clk) if knobs.faults or knobs.fault_rate else None
        if knobs.fault_rate:  # errors at random on every kind of burst, lost responses more rarely (F24)
            frng = random.Random(rng.getrandbits(32))
            p = knobs.fault_rate
            # late:5000 answers after the watchdog (DMA_TIMEOUT 3000) gave up: an old epoch's
            # response, which a reordering memory sends after newer ones of another ID
            for kind, fault, share in (("w", "slverr", 1), ("w", "decerr", 1), ("r", "slverr", 1),
                                       ("r", "decerr", 1), ("w", "drop", 0.5), ("r", "drop", 0.5), ("w", "lost", 0.5),
                                       ("r", "late:5000", 0.5), ("w", "late:5000", 0.25),
                                       ("w", "wrongid", 0.25), ("w", "wrongid:lost", 0.25)):
                # a write-back whose B is lost may have landed, and a host that reaps by DD would
                # take it (docs/faults.md): data bursts only lose their B, or get it late, here
                wb_only = {"drop": False, "lost": True, "late:5000": False,  # wb only / never / any
                           "wrongid": False, "wrongid:lost": True}.get(fault)

                def hit(a, b, pp=p * share, where=wb_only):
                    return ((where is None or (self.driver.writeback_slot(a) is not None) == where)
                            and frng.random() < pp)

                self.faults.arm(kind, hit, fault, uses=1 << 30)
        for part in (self.axil.write_if, self.axil.read_if, self.ram.write_if, self.ram.read_if):
            part.log.setLevel(logging.WARNING)  # they log every access at INFO
        if knobs.mem_stall or knobs.aw_waits_for_w:  # a legal but unhelpful slave (tb/top/axi_mem.py)
            make_unhelpful(self.ram, dut, "m_axi", dut.clk, random.Random(rng.getrandbits(32)),
                           stall=knobs.mem_stall, aw_waits_for_w=knobs.aw_waits_for_w)
        self.w_gate = make_w_waits_for_aw(self.ram, dut, "m_axi", dut.clk, mem_rst) if knobs.w_waits_for_aw else None
        self.driver = make_host(dut, BusPort(self.axil, self.ram, clocked, dut.irq), knobs, rng, clocked)


class MonitorAgent(uvm_component):
    """Passive agent: the ``CycleMonitor`` (tb/top/monitor.py) that records every DUT event with
    its cycle, started with the bus (``start_bus``)."""

    def build_phase(self) -> None:
        self.monitor: CycleMonitor | None = None

    def start_bus(self, dut, clocked: Clocked, num_queues: int, writeback_slot, faults: Faults | None) -> CycleMonitor:
        self.monitor = CycleMonitor(dut, clocked, num_queues, writeback_slot)
        if faults is not None:
            self.monitor.b_dropped = faults.dropped_b
        return self.monitor


class Scoreboard(uvm_component):
    """The golden model against the DUT, in one batch after the run: ``check_run`` replays a
    run record's inputs into the model and compares everything (tb/top/scoreboard.py ``check``).
    ``NicTest.check_phase`` calls it with the test's record and model class."""

    def build_phase(self) -> None:
        self.model_s = 0.0  # wall time of the last check (model built and compared)

    def check_run(self, run: Run, model_cls: type[PrionicModel], dump_as: str) -> tuple[PrionicModel, list[str]]:
        dump = os.environ.get("PRIONIC_DUMP_RUN")
        if dump:  # debugging: the run record (tb/top/scoreboard.py Run) as <path>.<test class>, a pickle
            with open(f"{dump}.{dump_as}", "wb") as fh:
                pickle.dump(run, fh)
        t_model = time.monotonic()
        model, mismatches = check(run, model_cls)
        self.model_s = time.monotonic() - t_model
        return model, mismatches


class NicEnv(uvm_env):
    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = StreamDriver("driver", self)
        self.host = HostAgent("host", self)
        self.monitor = MonitorAgent("monitor", self)
        self.scoreboard = Scoreboard("scoreboard", self)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)


class BusRun:
    """The bus path's ``RunPort`` (tb/top/procedure.py): cocotbext-axi's stream source, memory
    and AXI4-Lite master, the Python monitor, and the test's chaos and fault keeper while
    the traffic runs; the drain is the test's ``drain``."""

    def __init__(self, test: NicTest):
        self.test = test
        self.host: HostDriver
        self.monitor: CycleMonitor
        self.obs: Observed | None = None

    async def start(self) -> None:
        t, env, dut = self.test, self.test.env, self.test.dut
        clocked = Clocked(dut)
        env.driver.start_bus(dut)
        env.host.start_bus(dut, t.k, t.rng, clocked)
        assert env.host.driver is not None
        self.host = env.host.driver
        self.monitor = env.monitor.start_bus(dut, clocked, t.cfg.num_queues, self.host.writeback_slot,
                                             env.host.faults)
        t.monitor, t.clocked = self.monitor, clocked
        dut.s_axis_tuser.value = 0
        dut.run_prio.value = 0
        dut.ext_drop.value = 0  # nothing is dropped in front of the stream input here
        await clocked.start()
        self.monitor.start()

    async def traffic(self) -> int:
        t, env = self.test, self.test.env
        chaos = cocotb.start_soon(t.chaos()) if t.k.chaos else None
        keeper = cocotb.start_soon(t.fault_keeper()) if t.k.fault_rate else None
        env.driver.clocked = t.clocked
        await t.traffic()
        assert env.driver.source is not None
        await env.driver.source.wait()
        if chaos is not None:
            chaos.cancel()
        if keeper is not None:
            t.keep_going = False
            await keeper
        return len(env.driver.sent)

    def progress(self) -> tuple[int, int, int]:
        obs = self.monitor.obs
        accepted = sum(1 for v in obs.verdicts if v[1] == regmap.VERDICTS["ACCEPT"])
        flush = regmap.ENUMS["dma_event"]["FLUSH"]
        ended = len(obs.completions) + sum(1 for e in obs.dma_events if e[2] == flush)  # F24: or flushed
        return len(obs.verdicts), ended, accepted

    async def advance(self, cycles: int) -> None:
        await ClockCycles(self.test.dut.clk, cycles)

    async def settle(self) -> None:
        await Timer(1, "ns")

    async def drain(self, n: int) -> None:
        await self.test.drain(n)

    async def stop(self) -> None:
        self.obs = self.monitor.stop()

    def observed(self, addrs: list[int], values: list[int]) -> tuple[Observed, dict[int, int], list[str]]:
        assert self.obs is not None, "stop() first"
        return self.obs, dict(zip(addrs, values, strict=True)), []

    def frames(self) -> list[Frame]:
        return self.test.env.driver.sent


class NicTest(uvm_test):
    """Base top-level test: random traffic, host service, exact scoreboard."""

    model_cls: type[PrionicModel] = PrionicModel
    run_port_cls: type[BusRun] = BusRun  # how the run reaches the DUT (tb/top/cocotb_eth_rx.py: through GMII)

    def knobs(self, rng: random.Random) -> Knobs:
        raise NotImplementedError

    def build_phase(self) -> None:
        self.dut = cocotb.top
        self.rng = make_rng(self.dut)
        self.cfg = model_config()
        self.k = self.knobs(self.rng)
        ConfigDB().set(None, "*", "knobs", self.k)
        ConfigDB().set(None, "*", "rng", self.rng)
        self.env = NicEnv("env", self)
        self.run_record: Run | None = None
        self.model: PrionicModel | None = None  # the golden model built by check_phase
        self.wall_s = 0.0   # wall time of run_phase from reset to the last register read
        self.flow_results: list[int] = []  # FLOW_STATUS.RESULT of each configured flow table command (F31)
        self.model_s = 0.0  # wall time of the scoreboard (model built and compared)

    async def chaos(self) -> None:
        """Rewrite moderation settings, masks, priorities, rate limiters (F9), the interrupt
        budget (F10), the flow cache setup (F8), a rule's RULE_CTRL with its own value (a
        table write: the cache is cleared and a scan in progress restarts) and the run_prio
        port at random times (timing.md section 5, reconfiguration while running; F16
        gating); some writes strobe only some bytes, possibly none of the register's (F24:
        no side effect then); the model sees every write with its strobes and every port change."""
        host = self.env.host.driver
        while True:
            await ClockCycles(self.dut.clk, self.rng.randint(500, 4000))
            q = self.rng.randrange(self.cfg.num_queues)
            nq = self.cfg.num_queues
            reg, val = self.rng.choice([
                ("ITR_PKT", self.rng.randint(0, 40)), ("ITR_ABS", self.rng.randint(0, 80)),
                ("ITR_FRAMES", self.rng.randint(0, 6)), ("ITR_GAP", self.rng.randint(0, 30)),
                ("ITR_CTRL", self.rng.randint(0, 1)), ("IRQ_MASK", self.rng.getrandbits(nq)),
                ("TICK_DIV", self.rng.randint(0, 6)),
                ("RUN_PRIO", self.rng.randint(0, nq)), ("QUEUE_PRIO", self.rng.randint(1, nq + 1)),
                ("PORT", self.rng.randint(0, nq)),
                ("RULE_LIM_BUDGET", self.rng.choice([0, 1, 3, 10, 3000])),
                ("RULE_LIM_PERIOD", self.rng.choice([0, 0, 300, 2000, 20000])),
                ("RULE_LIM_CTRL", self.rng.choice([0, 1, 2, 3]) | self.rng.randint(0, self.cfg.num_rules) << 8),
                ("IRQ_BUDGET", self.rng.randint(0, 6)),
                ("IRQ_BUDGET_PERIOD", self.rng.choice([0, 0, 100, 1000, 5000])),
                ("IRQ_BUDGET_EXEMPT", self.rng.getrandbits(nq)),
                ("FLOW_CTRL", self.rng.choice([0, 1, 1])), ("FLOW_IDLE", self.rng.choice([0, 1, 3, 40])),
                ("RULE_CTRL", None),
            ])
            if reg == "PORT":  # the run_prio input port (F16), set before edge p
                await FallingEdge(self.dut.clk)
                self.dut.run_prio.value = val
                self.monitor.obs.run_prio.append((self.clocked.cycle_at_falling(), val))
                continue
            block = regmap.REGS[reg].block
            index = q if block == "queue" else self.rng.randrange(self.cfg.num_rules) if block == "rule" else 0
            if reg == "RULE_CTRL":  # the value it already has
                val = self.k.rules[index][0] if index < len(self.k.rules) else 0
            addr = regmap.addr(reg, index)
            if self.rng.random() < 0.3:  # some bytes only (AXI4-Lite strobes), maybe none of the register's (F24)
                off = self.rng.randrange(4)
                n = self.rng.randint(1, 4 - off)
                await host.axil.write(addr + off, val.to_bytes(4, "little")[off:off + n])
            else:
                await host.axil.write_dword(addr, val)

    async def fault_keeper(self) -> None:
        """F24: the driver's side of random faults. Every 300 cycles: if irq_err is high,
        read DMA_ERR_STATUS and recover each stopped queue (docs/faults.md section 3);
        now and then reset a running queue the same way (disable, drain, new ring)."""
        host = self.env.host.driver
        self.keep_going = True
        self.recoveries = [0, 0]  # (after an error, at random)
        while self.keep_going:
            await ClockCycles(self.dut.clk, 300)
            if self.dut.irq_err.value == 1:
                stopped = await host.port.read(regmap.addr("DMA_ERR_STATUS"))
                for q in range(self.cfg.num_queues):
                    if stopped >> q & 1:
                        await host.recover(q)
                        self.recoveries[0] += 1
            elif self.rng.random() < 0.05:
                await host.recover(self.rng.randrange(self.cfg.num_queues))
                self.recoveries[1] += 1

    async def run_phase(self) -> None:
        self.raise_objection()
        self.bus = self.run_port_cls(self)
        out = await procedure.run(self.bus, self.k, self.cfg)
        self.run_record, self.wall_s, self.flow_results = out.run, out.wall_s, out.flow_results
        host = self.bus.host
        obs = out.run.observed
        by_code: dict[str, int] = {}
        for v in obs.verdicts:
            name = regmap.VERDICT_NAMES[v[1]]
            by_code[name] = by_code.get(name, 0) + 1
        self.logger.info(
            "ran %d frames, %d cycles: %d completions, %d interrupts, %d ISR runs; verdicts %s",
            len(out.run.frames), obs.last_cycle, len(obs.completions),
            len(obs.fires), host.stats.isr_runs, by_code,
        )
        if self.k.fault_rate:
            names = {v: k for k, v in regmap.ENUMS["dma_event"].items()}
            evs: dict[str, int] = {}
            for _e, _q, code in obs.dma_events:
                evs[names[code]] = evs.get(names[code], 0) + 1
            hit: dict[str, int] = {}
            for kind, _a, _b, fault in self.env.host.faults.log:
                hit[f"{kind}:{fault}"] = hit.get(f"{kind}:{fault}", 0) + 1
            self.logger.info("F24 faults: injected %s; DMA events %s; recoveries after an error %d, at random %d",
                             hit, evs, *self.recoveries)
        self.drop_objection()

    async def traffic(self) -> None:
        """Run the stimulus; a subclass may start another sequence."""
        await TrafficSeq("traffic").start(self.env.seqr)

    async def drain(self, n: int) -> None:
        """Wait until each of the ``n`` frames has its verdict and every admitted frame its
        completion, then let the longest timer run out (tb/top/procedure.py ``drain``)."""
        await procedure.drain(self.bus, n, self.k)

    def check_phase(self) -> None:
        assert self.run_record is not None, "run_phase did not finish"
        self.model, mismatches = self.env.scoreboard.check_run(self.run_record, self.model_cls, type(self).__name__)
        self.model_s = self.env.scoreboard.model_s
        flow = [o.flow_why for o in self.model.outcomes if o.flow]
        if flow:  # F8: what the flow cache saw (the scoreboard checked it cycle for cycle)
            self.logger.info("flow cache lookups: %s", {w: flow.count(w) for w in sorted(set(flow))})
        for m in mismatches:
            self.logger.error(m)
        assert not mismatches, f"{len(mismatches)} scoreboard mismatches (first: {mismatches[0]})"
        funccov.sample_run(self.run_record, self.model, f"prionic_rx-{type(self).__name__}")  # F30, when on
