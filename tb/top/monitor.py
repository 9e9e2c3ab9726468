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
* ``irq_edges``       -- (cycle, q, level) for each change of an irq line;
* ``dma_events``      -- (E, q, code) for each stat_dma pulse (high at E+1; F24);
* ``irq_err_edges``   -- (cycle, level) for each change of the irq_err line (F24);
* ``resp_errors``     -- (cycle, "b" or "r") of each B or R handshake with SLVERR/DECERR;
* ``stall_runs``      -- (E, write, read) at each stat_dma pulse: the edges up to E in a row
  that the write side (AWVALID or WVALID up, neither taken) and the read side (ARVALID up,
  not taken) stalled (F24: each STALL_W or STALL_R must follow a real stall);
* ``dma_states``      -- the DMA's internal ``state_reg`` (``[enums.dma_state]``) that decided
  each stat_dma event: its value before edge E, one per ``dma_events`` entry, for the
  functional coverage only (F30; tb/coverage/funccov.py). Read through the instance's handle where
  the simulator exposes it (Icarus; Verilator's coverage builds make it public,
  tb/runner.py), else empty.

The fast path's HDL recorder (tb/hdl/prionic_tb_recorder.v) records the same events;
``tb.fast.fastpath.parse_records`` turns its file into the same ``Observed``.
"""

from __future__ import annotations

import os
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
    dma_events: list[tuple[int, int, int]] = field(default_factory=list)  # (E, queue, code), F24
    irq_err_edges: list[tuple[int, int]] = field(default_factory=list)
    resp_errors: list[tuple[int, str]] = field(default_factory=list)
    stray_b: list[int] = field(default_factory=list)  # cycles of B handshakes whose BID names no open burst, F24
    cpl_sent: dict[int, int] = field(default_factory=dict)  # completion C -> its write-back's AW edge (F24)
    stall_runs: list[tuple[int, int, int]] = field(default_factory=list)  # (E, write, read), F24
    dma_states: list[int] = field(default_factory=list)  # state_reg before edge E per dma_events entry, F30
    ext_drops: list[tuple[int, str]] = field(default_factory=list)  # (edge, counter) of ext_drop pulses (F29)
    stalls: int = 0  # cycles with s_axis_tvalid high and s_axis_tready low
    last_cycle: int = 0
    t0_ns: int = 0  # sim time of edge 0


def _internal(dut, inst: str, name: str):  # type: ignore[no-untyped-def]
    """The binary-string reader of ``dut.<inst>.<name>`` (``inst`` a dotted path), or None
    where the simulator does not expose it (a Verilator build without it public)."""
    try:
        handle = dut
        for part in (*inst.split("."), name):
            handle = getattr(handle, part)
        handle._handle.get_signal_val_binstr()
    except (AttributeError, ValueError, TypeError):
        return None
    return handle._handle.get_signal_val_binstr


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
        self._open: dict[int, deque[tuple[int, AwBurst]]] = {}  # AWID -> (AW number, burst) waiting for B
        self._aw_n = 0  # AW handshakes so far (never restarted)
        self.b_dropped: set[int] = set()  # AW numbers whose B the memory never sends (tb/top/axi_mem.py Faults)
        self._task = None

    def start(self) -> None:
        assert self.clocked.t0 is not None
        self.obs.t0_ns = self.clocked.t0
        self._task = cocotb.start_soon(self._run())

    def restart(self, bus: bool = False) -> None:
        """After a reset of the DUT in the middle of a run (F24): edge 0 is again the first
        edge with rst low (``clocked.t0`` moved there), and what was observed before is
        dropped; bursts still waiting for their B stay open, so a late B of a burst from
        before the reset is matched to it and is no completion; after a reset of the bus
        (``bus``: the memory was reset too) no B of theirs will come: they are forgotten."""
        assert self.clocked.t0 is not None
        self.obs = Observed(t0_ns=self.clocked.t0)
        if bus:
            self._open.clear()

    def stop(self) -> Observed:
        if self._task is not None:
            self._task.cancel()
        return self.obs

    async def _run(self) -> None:
        # Signals are read through their GPI handles as binary strings: the monitor runs
        # every cycle and is a third of a bus-path run, and `handle.value` builds a Logic
        # or LogicArray object per read. Semantics are those of `.value`: a 1-bit signal
        # counts as high only when it is "1" (never when X or Z), and a multi-bit value
        # with X or Z raises (int(..., 2)).
        d = self.dut
        irq_prev = 0

        def rd(name: str):  # type: ignore[no-untyped-def]
            return getattr(d, name)._handle.get_signal_val_binstr

        tvalid, tready, tlast = rd("s_axis_tvalid"), rd("s_axis_tready"), rd("s_axis_tlast")
        awvalid, awready, wvalid, wready = (rd("s_axil_awvalid"), rd("s_axil_awready"), rd("s_axil_wvalid"),
                                            rd("s_axil_wready"))
        awaddr, wdata, wstrb = rd("s_axil_awaddr"), rd("s_axil_wdata"), rd("s_axil_wstrb")
        arvalid, arready, araddr = rd("s_axil_arvalid"), rd("s_axil_arready"), rd("s_axil_araddr")
        vvalid, vcode, vqueue, vrule = (rd("stat_verdict_valid"), rd("stat_verdict_code"),
                                        rd("stat_verdict_queue"), rd("stat_verdict_rule"))
        m_awvalid, m_awready, m_awaddr, m_awlen, m_awsize = (rd("m_axi_awvalid"), rd("m_axi_awready"),
                                                             rd("m_axi_awaddr"), rd("m_axi_awlen"),
                                                             rd("m_axi_awsize"))
        m_wvalid, m_wready, m_arvalid, m_arready = (rd("m_axi_wvalid"), rd("m_axi_wready"), rd("m_axi_arvalid"),
                                                     rd("m_axi_arready"))
        m_awid, m_bid = rd("m_axi_awid"), rd("m_axi_bid")
        w_run = r_run = 0  # stalled edges in a row, up to the edge before this sample's
        bvalid, bready = rd("m_axi_bvalid"), rd("m_axi_bready")
        bresp, rvalid, rready, rresp = rd("m_axi_bresp"), rd("m_axi_rvalid"), rd("m_axi_rready"), rd("m_axi_rresp")
        dvalid, dcode, dqueue, irq_err = (rd("stat_dma_valid"), rd("stat_dma_code"), rd("stat_dma_queue"),
                                          rd("irq_err"))
        err_prev = "0"
        stat_irq, irq_lines = rd("stat_irq"), rd("irq")
        # F30: functional coverage only (`make coverage`): no extra read per cycle otherwise
        covered = os.environ.get("PRIONIC_COVERAGE") == "1"
        dma_state = _internal(d, "dma_inst.write_inst", "state_reg") if covered else None
        state_prev = "0"
        falling = FallingEdge(d.clk)
        while True:
            await falling
            obs = self.obs  # a new one after restart()
            k = self.clocked.cycle_at_falling()
            obs.last_cycle = k
            if tvalid() == "1":
                if tready() != "1":
                    obs.stalls += 1
                elif tlast() == "1":
                    obs.frames_t.append(k)
            if awvalid() == "1" and awready() == "1":
                assert wvalid() == "1" and wready() == "1", "AW without W"
                obs.reg_writes.append((k, int(awaddr(), 2), int(wdata(), 2), int(wstrb(), 2)))
            if arvalid() == "1" and arready() == "1":
                obs.reg_reads.append((k, int(araddr(), 2)))
            if vvalid() == "1":
                obs.verdicts.append((k, int(vcode(), 2), int(vqueue(), 2), int(vrule(), 2)))
            # the stall runs up to edge k (docs/faults.md s2): events of edge k - 1 see the previous ones
            if dvalid() == "1":
                obs.stall_runs.append((k - 1, w_run, r_run))
            aw_v, w_v = m_awvalid() == "1", m_wvalid() == "1"
            aw_hs = aw_v and m_awready() == "1"
            if (aw_v or w_v) and not aw_hs and not (w_v and m_wready() == "1"):
                w_run += 1
            else:
                w_run = 0
            r_run = r_run + 1 if m_arvalid() == "1" and m_arready() != "1" else 0
            if aw_hs:
                burst = AwBurst(k, int(m_awaddr(), 2), int(m_awlen(), 2) + 1, 1 << int(m_awsize(), 2))
                obs.bursts.append(burst)
                self._open.setdefault(int(m_awid(), 2), deque()).append((self._aw_n, burst))
                self._aw_n += 1
            if bvalid() == "1" and bready() == "1":
                # a B answers the oldest open burst of its ID (AXI: same-ID responses in order;
                # other IDs may be reordered against it)
                if bresp()[0] == "1":
                    obs.resp_errors.append((k, "b"))
                same = self._open.get(int(m_bid(), 2))
                while same and same[0][0] in self.b_dropped:  # a B the memory swallowed (F24)
                    same.popleft()
                if not same:  # a B whose ID names no burst (a faulty slave, F24: STRAY_B)
                    obs.stray_b.append(k)
                else:
                    burst = same.popleft()[1]
                    burst.b_cycle = k
                    wb = self.writeback_slot(burst.addr)
                    if wb is not None:
                        obs.completions.append((k, wb[0], wb[1]))
                        obs.cpl_sent[k] = burst.cycle
            if rvalid() == "1" and rready() == "1" and rresp()[0] == "1":
                obs.resp_errors.append((k, "r"))
            if dvalid() == "1":
                obs.dma_events.append((k - 1, int(dqueue(), 2), int(dcode(), 2)))
                if dma_state is not None:  # the state before edge k - 1, read at the sample before
                    obs.dma_states.append(int(state_prev, 2))
            if dma_state is not None:
                state_prev = dma_state()
            err = irq_err()
            if err != err_prev:
                obs.irq_err_edges.append((k, int(err == "1")))
                err_prev = err
            fire = int(stat_irq(), 2)
            if fire:
                for q in range(self.nq):
                    if fire >> q & 1:
                        obs.fires.append((k, q))
            irq = int(irq_lines(), 2)
            if irq != irq_prev:
                for q in range(self.nq):
                    if (irq ^ irq_prev) >> q & 1:
                        obs.irq_edges.append((k, q, irq >> q & 1))
                irq_prev = irq
