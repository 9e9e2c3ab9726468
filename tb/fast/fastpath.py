"""The fast co-simulation path (F26): the host side of ``tb/hdl/prionic_tb_fast.v``.

On the bus path Python drives every bus and samples every cycle; here the frame player,
the host memory, the AXI4-Lite master and the event recorder are HDL, and Python is
woken only by the irq lines, by register responses and by timers at coarse intervals
(docs/fastpath.md):

* ``FastPort``: the host port (tb/top/host.py) over the HDL memory (64-bit words read and
  written through VPI) and the HDL AXI4-Lite master (command queues filled through VPI);
* ``parse_records``: the recorder's text file -> the same ``Observed`` record the bus
  path's CycleMonitor fills, plus the data of every register read;
* ``FastRun``: the fast path's port of the run procedure (tb/top/procedure.py ``run``: reset,
  configure, play, drain, read back, check), which the bus path (``tb.top.env.BusRun``) runs
  too: it reaches the DUT on the same edges, so a scenario gives identical event records
  on both paths (tests/test_fastpath.py).
"""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import asdict
from pathlib import Path

from cocotb.triggers import First, Timer, ValueChange
from cocotb.utils import get_sim_time

from model.config import ModelConfig
from tb.common import Clocked
from tb.fast.stimulus import write_stimulus
from tb.top import procedure
from tb.top.frames import Frame
from tb.top.host import HostDriver, until_falling_after
from tb.top.monitor import AwBurst, Observed
from tb.top.procedure import Knobs, make_host
from tb.top.scoreboard import Run

# the bus path's StreamDriver needs two edges from the cycle it sends a frame to the
# first beat on the wire (docs/fastpath.md section 2): the player is given at + LEAD
LEAD = 2


class FastPort:
    """Host port over the HDL memory and AXI4-Lite master of prionic_tb_fast."""

    def __init__(self, dut):
        self.dut = dut
        self.mem = dut.nic_inst.ram_inst.mem
        self._words: dict[int, object] = {}  # word index -> raw GPI handle (reads)
        self.wq = dut.axil_inst.wq
        self.rq = dut.axil_inst.rq
        self.depth = len(self.wq)
        self.writes = 0
        self.reads = 0
        self.wakes = 0  # host wake-ups (wait_until returns)

    async def wait_until(self, edge: int) -> int:
        """Sleep until the falling edge after ``edge`` or after an earlier edge that
        changed the irq lines: the top's alarm toggles `wake` there (one trigger, no
        timer); returns the edge."""
        self.dut.alarm.value = edge
        await ValueChange(self.dut.wake)
        self.wakes += 1
        return int(self.dut.cycle.value) - 1

    def post_write(self, addr: int, data: int) -> None:
        in_flight = self.writes - int(self.dut.status_b.value)
        if in_flight >= self.depth:
            raise RuntimeError(f"fast path: {in_flight} register writes in flight, the queue holds {self.depth}")
        self.wq[self.writes % self.depth].value = addr << 32 | data
        self.writes += 1
        self.dut.wq_count.value = self.writes

    async def write(self, addr: int, data: int) -> None:
        self.post_write(addr, data)
        while int(self.dut.status_b.value) < self.writes:
            await ValueChange(self.dut.status_b)

    async def read(self, addr: int) -> int:
        self.rq[self.reads % self.depth].value = addr
        self.reads += 1
        self.dut.rq_count.value = self.reads
        while int(self.dut.status_r.value) < self.reads:
            await ValueChange(self.dut.status_r)
        # the counter and the data change on one edge, but a simulator may report the
        # counter before it has updated the data: look a picosecond later (still long
        # before the next edge, so the next command keeps its timing)
        await Timer(1, "ps")
        return int(self.dut.status_rdata.value)

    def mem_read(self, addr: int, n: int) -> bytes:
        if n <= 0:
            return b""
        first, last = addr >> 3, (addr + n - 1) >> 3
        words = self._words
        raw = bytearray()
        for i in range(first, last + 1):
            h = words.get(i)
            if h is None:
                h = words[i] = self.mem[i]._handle
            # the raw GPI read: no LogicArray built per word (reaping reads every delivered byte)
            raw += int(h.get_signal_val_binstr(), 2).to_bytes(8, "little")
        off = addr & 7
        return bytes(raw[off : off + n])

    def mem_write(self, addr: int, data: bytes) -> None:
        if not data:
            return
        first, last = addr >> 3, (addr + len(data) - 1) >> 3
        off = addr & 7
        if off or len(data) & 7:  # read-modify-write of the partial words
            raw = bytearray(self.mem_read(first << 3, (last - first + 1) * 8))
            raw[off : off + len(data)] = data
        else:
            raw = bytearray(data)
        for i in range(first, last + 1):
            j = (i - first) * 8
            self.mem[i].value = int.from_bytes(raw[j : j + 8], "little")


def parse_records(path: str | Path, num_queues: int, writeback_slot) -> tuple[Observed, list[int], list[str]]:
    """The recorder's file as ``(Observed, data of each register read, protocol errors)``."""
    obs = Observed()
    reads: list[int] = []
    errors: list[str] = []
    open_bursts: list[AwBurst] = []
    head = 0
    irq_prev = 0
    ended = False
    with open(path) as f:
        for line in f:
            parts = line.split()
            tag, k = parts[0], int(parts[1])
            v = [int(x) for x in parts[2:]] if tag not in ("X", "Z") else []
            if tag == "T":
                obs.frames_t.append(k)
            elif tag == "V":
                obs.verdicts.append((k, v[0], v[1], v[2]))
            elif tag == "W":
                obs.reg_writes.append((k, v[0], v[1], v[2]))
            elif tag == "R":
                obs.reg_reads.append((k, v[0]))
            elif tag == "D":
                reads.append(v[0])
            elif tag == "A":
                burst = AwBurst(k, v[0], v[1], v[2])
                obs.bursts.append(burst)
                open_bursts.append(burst)
            elif tag == "B":
                if head >= len(open_bursts):
                    errors.append(f"B response at cycle {k} with no write burst open")
                    continue
                burst = open_bursts[head]
                head += 1
                burst.b_cycle = k
                wb = writeback_slot(burst.addr)
                if wb is not None:
                    obs.completions.append((k, wb[0], wb[1]))
                    obs.cpl_sent[k] = burst.cycle
            elif tag == "F":
                obs.fires += [(k, q) for q in range(num_queues) if v[0] >> q & 1]
            elif tag == "I":
                obs.irq_edges += [(k, q, v[0] >> q & 1) for q in range(num_queues) if (v[0] ^ irq_prev) >> q & 1]
                irq_prev = v[0]
            elif tag == "P":
                obs.run_prio.append((k, v[0]))
            elif tag == "M":
                obs.dma_events.append((k, v[0], v[1]))
            elif tag == "J":
                obs.irq_err_edges.append((k, v[0]))
            elif tag == "Z":
                obs.resp_errors.append((k, parts[2]))
            elif tag == "X":
                errors.append(f"cycle {k}: {' '.join(parts[2:])}")
            elif tag == "E":
                obs.last_cycle = k
                obs.stalls = v[0]
                ended = True
            else:
                errors.append(f"unknown record {line.strip()!r}")
    if not ended:
        errors.append(f"{path}: no end record (the run did not finish)")
    return obs, reads, errors


def observed_json(obs: Observed) -> dict:
    """An ``Observed`` as plain lists, the form in which two paths' records are compared."""
    d = asdict(obs)
    d["bursts"] = [[b["cycle"], b["addr"], b["beats"], b["size"], b["b_cycle"]] for b in d["bursts"]]
    for k, v in d.items():
        if isinstance(v, list):
            d[k] = [list(x) if isinstance(x, tuple) else x for x in v]
    return d


class FastRun:
    """One fast-path run of scheduled frames against prionic_tb_fast: the fast path's
    ``RunPort`` (tb/top/procedure.py).

    ``schedule`` is ``[(at, Frame)]`` as ``tb.scenario.schedule`` makes it; ``knobs`` the
    NIC and host settings (``tb.top.procedure.scenario_knobs``); ``rng`` the host's random
    stream. Call ``await run()``; then ``run_record`` is what the scoreboard takes,
    ``stopped_early`` tells whether Ctrl-C cut the run.
    """

    def __init__(self, dut, cfg: ModelConfig, schedule: list[tuple[int, Frame]], knobs: Knobs, *, rng,
                 workdir: str | Path = ".", progress_cycles: int = 0, log=None):
        self.dut = dut
        self.cfg = cfg
        self.schedule = schedule
        self.knobs = knobs
        self.rng = rng
        self.workdir = Path(workdir)
        self.progress_cycles = progress_cycles
        self.log = log
        self.stopped_early = False
        self.run_record: Run | None = None
        self.wall_s = 0.0
        self.wakes = 0
        self.host: HostDriver
        self._stop = False
        self._played = 0
        self._edge = 0  # the drain's clock: the edge it waits for next

    def _say(self, msg: str) -> None:
        if self.log is not None:
            self.log.info(msg)
        else:
            print(msg, flush=True)

    async def run(self) -> Run:
        out = await procedure.run(self, self.knobs, self.cfg)
        self.run_record, self.wall_s = out.run, out.wall_s
        self.wakes = self.host_port.wakes
        return out.run

    # ------------------------------------------------------------------ RunPort
    async def start(self) -> None:
        dut = self.dut
        self.clocked = Clocked(dut, hdl_clock=True)
        for name in ("go", "finish", "wq_count", "rq_count", "run_prio", "alarm"):
            getattr(dut, name).value = 0
        self.host_port = FastPort(dut)
        self.host = make_host(dut, self.host_port, self.knobs, self.rng, self.clocked)
        write_stimulus(self.workdir / "frames.bin", ((at + LEAD, fr) for at, fr in self.schedule),
                       self.cfg.keep_width)
        await self.clocked.start()

    async def traffic(self) -> int:
        dut = self.dut
        dut.go.value = 1
        old = signal.getsignal(signal.SIGINT)
        signal.signal(signal.SIGINT, self._on_sigint)
        try:
            await self._play(self.clocked)
        finally:
            signal.signal(signal.SIGINT, old)
        self._played = int(dut.status_played.value)
        # the drain counts from the edge of the last tlast (status_done rose right after it), or now
        assert self.clocked.t0 is not None
        self._edge = (round(get_sim_time("ns")) - self.clocked.t0) // self.clocked.period
        return self._played

    def progress(self) -> tuple[int, int, int]:
        dut = self.dut
        return int(dut.status_verdicts.value), int(dut.status_completions.value), int(dut.status_accepted.value)

    async def advance(self, cycles: int) -> None:
        self._edge += cycles
        await until_falling_after(self.clocked, self._edge)

    async def settle(self) -> None:
        return  # the drain ends at a falling edge: every sample of the last edge has landed

    async def drain(self, n: int) -> None:
        await procedure.drain(self, n, self.knobs)

    async def stop(self) -> None:
        self.dut.finish.value = 1
        await Timer(2 * self.clocked.period, "ns")

    def observed(self, addrs: list[int], values: list[int]) -> tuple[Observed, dict[int, int], list[str]]:
        """The recorder's file; the registers as the bus carried them (its D lines, in the
        order of the reads), which must be the values the master returned."""
        obs, reads, errors = parse_records(self.workdir / "events.txt", self.cfg.num_queues,
                                           self.host.writeback_slot)
        registers = dict(zip(addrs, reads[-len(addrs):], strict=True)) if len(reads) >= len(addrs) else {}
        if len(reads) < len(addrs):
            errors.append(f"the recorder saw {len(reads)} register reads, the host made {len(addrs)}")
        obs.t0_ns = self.clocked.t0 or 0
        return obs, registers, errors

    def frames(self) -> list[Frame]:
        return [fr for _at, fr in self.schedule[:self._played]]

    # ------------------------------------------------------------------ traffic
    def _on_sigint(self, signum, frame) -> None:  # noqa: ARG002
        self._stop = True

    async def _play(self, clocked: Clocked) -> None:
        """Until the player is done (or Ctrl-C lowers `go`), printing progress."""
        dut = self.dut
        total = len(self.schedule)
        step = self.progress_cycles or 1_000_000
        assert clocked.t0 is not None
        t_start = time.monotonic()
        c_start = clocked.now_cycle()
        last_played, last_change = -1, c_start
        while not int(dut.status_done.value):
            await First(ValueChange(dut.status_done), Timer(step * clocked.period, "ns"))
            now = (round(get_sim_time("ns")) - clocked.t0) // clocked.period
            played = int(dut.status_played.value)
            if played != last_played:
                last_played, last_change = played, now
            elif now - last_change > 4_000_000:
                raise AssertionError(f"fast path: no frame left the player for {now - last_change} cycles "
                                     f"({played}/{total} played): the input is stuck")
            if self._stop and int(dut.go.value):
                self._say(f"prionic: stopping at cycle {now} after {played} of {total} frames (Ctrl-C); "
                          "draining and checking what ran")
                self.stopped_early = True
                dut.go.value = 0
            if self.progress_cycles and not int(dut.status_done.value):
                wall = time.monotonic() - t_start
                rate = (now - c_start) / wall if wall > 0 else 0.0
                left = self.schedule[-1][0] - now if self.schedule else 0
                eta = f"{left / rate:.0f} s" if rate > 0 and left > 0 else "-"
                self._say(f"prionic: {now * clocked.period / 1000:.0f} us simulated, {played}/{total} frames, "
                          f"{rate / 1000:.0f} k cycles/s, ETA {eta}")


def write_observed(path: str | Path, run: Run) -> None:
    """The run's event records, delivered completions and register values as JSON."""
    out = {
        "observed": observed_json(run.observed),
        "delivered": [[[d.slot, d.length, d.rule, d.qfield, d.status, d.ts, d.info, d.data.hex()] for d in q]
                      for q in run.delivered],
        "registers": {str(a): v for a, v in sorted(run.registers.items())},
        "violations": run.violations,
    }
    Path(path).write_text(json.dumps(out) + "\n")


def fast_env_paths() -> tuple[Path, int]:
    """Work directory (PRIONIC_FAST_DIR) and progress interval (PRIONIC_PROGRESS) of a run."""
    return Path(os.environ.get("PRIONIC_FAST_DIR", ".")), int(os.environ.get("PRIONIC_PROGRESS", "0"))


__all__ = ["FastPort", "FastRun", "parse_records", "observed_json", "write_observed"]
