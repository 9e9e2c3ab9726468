"""CycleMonitor: records every DUT event the scoreboard and the model need, with its cycle.

It samples at falling edges (see tb/common.py), i.e. the values every flop samples at
the next rising edge k, and records:

* ``frames_t``        -- T of each frame (tlast handshake on s_axis), in order;
* ``stalls``          -- cycles the stream waited (tvalid high, tready low);
* ``reg_writes``      -- (w, addr, data, strb) of each AXI4-Lite write (AW and W together);
* ``verdicts``        -- (cycle, code, queue, rule) of each stat_verdict pulse;
* ``aw``/``completions`` -- AXI write bursts; completions are (C, queue, slot) where the B
  handshake belongs to a write-back burst (docs/frame-path.md section 4);
* ``fires``           -- (cycle, q) for each stat_irq pulse;
* ``irq_edges``       -- (cycle, q, level) for each change of an irq line.

The fast path's HDL recorder (tb/hdl/prionic_tb_recorder.v) records the same events;
``tb.fastpath.parse_records`` turns its file into the same ``Observed``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import cocotb
from cocotb.triggers import FallingEdge

from tb.common import Clocked


@dataclass
class AwBurst:
    cycle: int
    addr: int
    beats: int
    size: int  # bytes per beat
    b_cycle: int | None = None

    @property
    def end(self) -> int:
        return self.addr + self.beats * self.size


@dataclass
class Observed:
    frames_t: list[int] = field(default_factory=list)
    reg_writes: list[tuple[int, int, int, int]] = field(default_factory=list)
    reg_reads: list[tuple[int, int]] = field(default_factory=list)  # (r, addr): AR accepted at edge r
    verdicts: list[tuple[int, int, int, int]] = field(default_factory=list)
    bursts: list[AwBurst] = field(default_factory=list)
    completions: list[tuple[int, int, int]] = field(default_factory=list)
    fires: list[tuple[int, int]] = field(default_factory=list)
    irq_edges: list[tuple[int, int, int]] = field(default_factory=list)
    run_prio: list[tuple[int, int]] = field(default_factory=list)  # (p, value) port changes
    stalls: int = 0  # cycles with s_axis_tvalid high and s_axis_tready low
    last_cycle: int = 0
    t0_ns: int = 0  # sim time of edge 0


class CycleMonitor:
    def __init__(
        self,
        dut,
        clocked: Clocked,
        num_queues: int,
        writeback_slot: Callable[[int], tuple[int, int] | None],
    ):
        self.dut = dut
        self.clocked = clocked
        self.nq = num_queues
        self.writeback_slot = writeback_slot  # address -> (queue, slot) or None
        self.obs = Observed()
        self._open: deque[AwBurst] = deque()  # bursts waiting for B
        self._task = None

    def start(self) -> None:
        assert self.clocked.t0 is not None
        self.obs.t0_ns = self.clocked.t0
        self._task = cocotb.start_soon(self._run())

    def stop(self) -> Observed:
        if self._task is not None:
            self._task.cancel()
        return self.obs

    async def _run(self) -> None:
        d = self.dut
        obs = self.obs
        irq_prev = 0
        while True:
            await FallingEdge(d.clk)
            k = self.clocked.cycle_at_falling()
            obs.last_cycle = k
            if d.s_axis_tvalid.value == 1:
                if d.s_axis_tready.value == 0:
                    obs.stalls += 1
                elif d.s_axis_tlast.value == 1:
                    obs.frames_t.append(k)
            if d.s_axil_awvalid.value == 1 and d.s_axil_awready.value == 1:
                assert d.s_axil_wvalid.value == 1 and d.s_axil_wready.value == 1, "AW without W"
                obs.reg_writes.append(
                    (k, int(d.s_axil_awaddr.value), int(d.s_axil_wdata.value), int(d.s_axil_wstrb.value))
                )
            if d.s_axil_arvalid.value == 1 and d.s_axil_arready.value == 1:
                obs.reg_reads.append((k, int(d.s_axil_araddr.value)))
            if d.stat_verdict_valid.value == 1:
                obs.verdicts.append(
                    (k, int(d.stat_verdict_code.value), int(d.stat_verdict_queue.value),
                     int(d.stat_verdict_rule.value))
                )
            if d.m_axi_awvalid.value == 1 and d.m_axi_awready.value == 1:
                burst = AwBurst(k, int(d.m_axi_awaddr.value), int(d.m_axi_awlen.value) + 1,
                                1 << int(d.m_axi_awsize.value))
                obs.bursts.append(burst)
                self._open.append(burst)
            if d.m_axi_bvalid.value == 1 and d.m_axi_bready.value == 1:
                assert self._open, f"B response at cycle {k} with no write burst open"
                burst = self._open.popleft()
                burst.b_cycle = k
                wb = self.writeback_slot(burst.addr)
                if wb is not None:
                    obs.completions.append((k, wb[0], wb[1]))
            fire = int(d.stat_irq.value)
            if fire:
                for q in range(self.nq):
                    if fire >> q & 1:
                        obs.fires.append((k, q))
            irq = int(d.irq.value)
            if irq != irq_prev:
                for q in range(self.nq):
                    if (irq ^ irq_prev) >> q & 1:
                        obs.irq_edges.append((k, q, irq >> q & 1))
                irq_prev = irq
