"""The run procedure of a top-level test, one for both co-simulation paths (F19, F26).

A run is: reset, configure, start the host, traffic, drain, stop the host, read every
register back, reap what is left, stop the recorder, check the bursts. ``run`` does it
through a :class:`RunPort`, the few operations in which the bus path (tb/top/env.py
``BusRun``: cocotbext-axi models, a Python monitor) and the fast path (tb/fast/fastpath.py
``FastRun``: HDL player, memory, master and recorder) differ. Both reach the DUT on the
same edges, so a scenario gives identical event records on both (tests/test_fastpath.py).

* :class:`Knobs`: what a test varies (traffic, queue setups, rules, host timing, memory);
* :func:`model_config`: the golden model's configuration from the build parameters;
* :func:`scenario_knobs`: a scenario file's settings as ``Knobs``;
* :func:`make_host`: the host driver a run uses (random delays or the host CPU model);
* :func:`configure`: the register setup after reset;
* :func:`drain`: the wait until the DUT is idle and the last timer has run out.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from model import regmap
from model.config import ModelConfig
from model.cpu import HostConfig
from tb.common import param
from tb.top.cpuhost import CpuHostDriver
from tb.top.flows import FlowHost
from tb.top.frames import Frame
from tb.top.host import HostDriver
from tb.top.hostmem import QueueSetup
from tb.top.monitor import Observed
from tb.top.scoreboard import Run, readback_addresses

if TYPE_CHECKING:
    from tb.scenario.spec import Scenario

DRAIN_POLL = 100       # cycles between two looks at the DUT while draining
DRAIN_LIMIT = 2000     # looks before the DUT is declared stuck
# the largest moderation timers chaos writes (tb/top/env.py NicTest.chaos): ITR_PKT, ITR_ABS, ITR_GAP
CHAOS_TIMERS = 40 + 80 + 30


@dataclass
class Knobs:
    """What a top-level test varies."""

    frames: int = 200
    flows: list[tuple[float, object]] = field(default_factory=list)  # (weight, Flow or callable)
    setups: list[QueueSetup] = field(default_factory=list)
    rules: list[tuple[int, int]] = field(default_factory=list)
    default_action: int = 0
    frag_action: int = 0
    extra_writes: list[tuple[str, int, int]] = field(default_factory=list)  # (register, index, value)
    tick_div: int = 4
    gap: tuple[int, int] = (0, 30)        # idle cycles between frames
    burst: float = 0.3                    # chance a frame follows back-to-back
    chaos: bool = True                    # random ITR/mask/TICK_DIV rewrites while running
    return_delay: tuple[int, int] = (0, 400)
    isr_delay: tuple[int, int] = (2, 40)
    mem_stall: float = 0.0                # host memory: chance of a stall run on each AXI channel
    aw_waits_for_w: bool = False          # host memory: AWREADY only after the burst's first W beat
    cpu: HostConfig | None = None         # the host CPU model times the host (docs/host-cpu.md), else random
    faults: bool = False                  # host memory: armable faults (tb/top/axi_mem.py Faults, F24)
    mem_reset: bool = True                # host memory is reset with the NIC (False: it keeps what is owed)
    bus_reset: bool = False               # ... by bus_rst instead, the AXI interface reset (F24): NIC and memory
    w_waits_for_aw: bool = False          # host memory: WREADY only for a burst whose AW it has taken (F24)
    reorder: bool = False                 # host memory: B and R out of order across IDs (tb/top/axi_mem.py Reorder)
    table_cmds: list[tuple[int, int, int]] = field(default_factory=list)  # flow table (code, key, value), F31
    fault_rate: float = 0.0               # F24: chance that a burst gets an error response or none at all;
                                          # the host recovers stopped queues and resets single queues at random


def model_config() -> ModelConfig:
    """The golden model's configuration: the DUT's build parameters (``PARAM_*``)."""
    return ModelConfig(
        num_queues=param("NUM_QUEUES", 2),
        num_rules=param("NUM_RULES", 4),
        data_width=param("DATA_WIDTH", 32),
        rules_per_cycle=param("RULES_PER_CYCLE", 0),
        flow_entries=param("FLOW_ENTRIES", 16),
        flow_ts_shift=param("FLOW_TS_SHIFT", 14),
        flow_table_sets=param("FLOW_TABLE_SETS", 0),
    )


def scenario_knobs(sc: Scenario) -> Knobs:
    """A scenario's NIC and host settings (its traffic is a schedule: ``frames`` is 0). The
    memory's stall runs and AWREADY-after-W apply to the bus path's cocotbext-axi memory;
    the fast path's HDL memory takes them as build parameters."""
    return Knobs(frames=0, setups=sc.queues, rules=sc.rules, default_action=sc.default_action,
                 tick_div=sc.tick_div, chaos=False, return_delay=sc.return_delay, isr_delay=sc.isr_delay,
                 mem_stall=sc.mem_stall_percent / 100, aw_waits_for_w=sc.mem_aw_waits_for_w,
                 extra_writes=list(sc.extra_writes), cpu=sc.cpu, table_cmds=list(sc.table_cmds))


def make_host(dut, port, knobs: Knobs, rng: random.Random, clocked) -> HostDriver:
    """The host driver on ``port``: timed by the host CPU model if ``knobs.cpu``, else by
    random ISR and return delays."""
    if knobs.cpu is not None:
        return CpuHostDriver(dut, port, knobs.setups, rng, clocked, cpu=knobs.cpu, irq=dut.irq)
    return HostDriver(dut, port, knobs.setups, rng, clocked, isr_delay=knobs.isr_delay,
                      return_delay=knobs.return_delay, irq=dut.irq)


async def configure(host: HostDriver, knobs: Knobs) -> list[int]:
    """After reset: rings, moderation, rules (``HostDriver.configure``), FRAG_ACTION, the
    knobs' extra register writes and their flow table commands (F31), in this order; returns
    the commands' results."""
    await host.configure(knobs.tick_div, knobs.default_action, knobs.rules)
    await host.port.write(regmap.addr("FRAG_ACTION"), knobs.frag_action)
    for name, index, value in knobs.extra_writes:
        await host.port.write(regmap.addr(name, index), value)
    flows = FlowHost(host.port)
    return [await flows.command(code, key, val) for code, key, val in knobs.table_cmds]


class RunPort(Protocol):
    """What differs between the two paths. ``host`` exists once ``start`` has run."""

    host: HostDriver

    async def start(self) -> None:
        """Build the host and the observers, then reset the DUT: edge 0 follows."""

    async def traffic(self) -> int:
        """Send the frames (the host is running); return how many entered the DUT."""

    def progress(self) -> tuple[int, int, int]:
        """(frames with a verdict, accepted frames that ended: completed or flushed, accepted frames)."""

    async def advance(self, cycles: int) -> None:
        """Let ``cycles`` more cycles pass (the drain's clock)."""

    async def settle(self) -> None:
        """After the drain's last wait: let the last edge's effects land."""

    async def drain(self, n: int) -> None:
        """Wait until the DUT is idle: usually :func:`drain`."""

    async def stop(self) -> None:
        """Stop recording."""

    def observed(self, addrs: list[int], values: list[int]) -> tuple[Observed, dict[int, int], list[str]]:
        """What was recorded: the events, the registers read back (``values``, read in the
        order of ``addrs``) as the bus carried them, and any protocol errors."""

    def frames(self) -> list[Frame]:
        """The frames that entered the DUT, in order."""


async def drain(port: RunPort, n: int, knobs: Knobs) -> None:
    """Every DRAIN_POLL cycles: until each of the ``n`` frames has its verdict and every
    accepted frame its completion (or its FLUSH, F24); then the longest moderation span
    (every timer at its largest value, chaos's when it runs, at the slowest tick), so that no
    interrupt is left in flight."""
    for _ in range(DRAIN_LIMIT):
        verdicts, ended, accepted = port.progress()
        if verdicts == n and ended == accepted:
            break
        await port.advance(DRAIN_POLL)
    else:
        verdicts, ended, accepted = port.progress()
        raise AssertionError(f"DUT did not go idle: {verdicts}/{n} verdicts, {ended} completions of "
                             f"{accepted} accepted")
    timers = [s.itr_pkt + s.itr_abs + s.itr_gap for s in knobs.setups] + ([CHAOS_TIMERS] if knobs.chaos else [0])
    await port.advance((max(timers) + 4) * max(knobs.tick_div, 6) + 200)
    await port.settle()


@dataclass
class Outcome:
    """A finished run: the scoreboard's record and the wall time from reset to the last read."""

    run: Run
    wall_s: float
    flow_results: list[int] = field(default_factory=list)  # FLOW_STATUS.RESULT of each configured command (F31)


async def run(port: RunPort, knobs: Knobs, cfg: ModelConfig) -> Outcome:
    """One run through ``port``: reset, configure, traffic, drain, read back, reap, check the
    bursts. The read-back covers every register (``readback_addresses``); a queue still
    stopped by a DMA error at the end is reaped as the recovery does (docs/faults.md
    section 3, step 3): up to RING_HEAD, a slot before it without DD is a lost write-back."""
    await port.start()
    t_wall = time.monotonic()
    host = port.host
    flow_results = await configure(host, knobs)
    host.start()
    n = await port.traffic()
    await port.drain(n)
    host.stop()
    addrs = readback_addresses(cfg.num_queues, cfg.num_rules)
    values = [await host.port.read(a) for a in addrs]
    read = dict(zip(addrs, values, strict=True))
    stopped = read[regmap.addr("DMA_ERR_STATUS")]
    host.reap_all({q: read[regmap.addr("RING_HEAD", q)] for q in range(cfg.num_queues) if stopped >> q & 1})
    await port.stop()
    wall_s = time.monotonic() - t_wall  # configure to the last read: what `make bench` rates
    obs, registers, errors = port.observed(addrs, values)
    host.check_bursts(obs.bursts)
    return Outcome(Run(cfg, port.frames(), obs, host.delivered, registers, errors + list(host.stats.violations)),
                   wall_s, flow_results)
