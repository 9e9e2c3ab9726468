"""The full-system run (F28, docs/system.md): the host side of ``tb/hdl/sys/prionic_tb_sys.v``.

A VexRiscv runs the firmware of ``sw/fw/`` (built by ``make fw``), which programs prionic_rx,
takes its interrupts and reaps its rings; Python only loads the image, plays the frames,
waits and reads the results. The NIC is checked as on the fast path (docs/fastpath.md):
the HDL recorder logs what the CPU did on the AXI4-Lite bus and what the DMA did on its
bus, and ``SysRun.run`` turns that into the scoreboard's ``Run``:

* events, register reads and completions from the recorder's file (``parse_records``);
* what the host read (``Delivered``): the firmware's record of each frame it handled (the
  write-back fields as it read them, written to the TRACE port), with the bytes of that
  buffer when the run wrote it once (the short run's rings have more slots than frames),
  else the firmware's checksum of the bytes it read, which the scoreboard compares with
  the frame's;
* the registers: the value of the last read of each address, which includes the
  firmware's final read-back of every register (the addresses the testbench gave it);
* violations: anything the firmware or the system reports that a correct run never has
  (a checksum of the bytes the firmware read that differs from the bytes in memory, a
  trace that is not whole records, a
  failed init, a non-zero exit code, an access outside the memory map, the CPU and the
  DMA writing one word on one edge, a read-back value the bus did not carry, a DMA burst
  outside the rings and the reaped buffers).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cocotb.triggers import FallingEdge, First, Timer, ValueChange

from model import regmap
from model.config import ModelConfig
from tb.common import Clocked
from tb.fast.fastpath import parse_records
from tb.fast.stimulus import write_stimulus
from tb.runner import ROOT, SYS_TOP, _locked, run_sim
from tb.scenario.spec import CYCLES_PER_US
from tb.system.memory import SysMemory, dma_bounds, ring_layout, sink_delivered
from tb.top.frames import Frame
from tb.top.host import Delivered, fletcher32
from tb.top.scoreboard import Run, readback_addresses

FW_STATE_READY = 2          # sw/fw/board/sysmap.h
# sw/fw/net/net.h FW_MODE_*: the short run's configuration and the paper's host configurations
FW_MODES = {"test": 0, "prionic": 1, "conventional": 2, "rtos": 3, "multiqueue": 4, "napi": 5, "ratelimit": 6,
            "swdemux": 7, "napi-threaded": 8, "i210": 9}
FW_T_LOST = 0xFFFF_FFFF     # t_done of a control frame the firmware dropped
# sw/fw/net/net.h struct fw_rec, the words of one TRACE record; the first carries FW_REC_MARK
TRACE_MARK = 0xA5
TRACE_MARK_HEADER = 0xA6    # a frame whose bytes past its header the firmware did not read (swdemux)
TRACE_FIELDS = ("qslot", "len", "rule_q", "status", "ts", "info", "buf", "csum", "t_isr", "t_done", "seq")
# sw/fw/net/net.h struct fw_summary, word by word
SUMMARY_FIELDS = ("init_rc", "frames0", "frames1", "frames2", "crit_frames", "crit_lost", "crit_resp_max",
                  "crit_resp_sum", "isr_runs", "switches", "ticks", "mode", "readback_n", "refused", "isr_cycles",
                  "recoveries", "recover_rc", "wcet_cycles",
                  "cycles_crit", "cycles_rx0", "cycles_rx1", "cycles_monitor", "cycles_idle", "cycles_app",
                  "cycles_trap", "traps", "csum_cycles_2k", "unreaped", "early_drops")
BOOT_LIMIT = 2_000_000      # cycles from reset to FW_STATE_READY
EXIT_LIMIT = 2_000_000      # cycles from CTRL.STOP to EXIT
DRAIN_SPAN = 5_000          # cycles after the NIC is idle: longer than any moderation timer of the firmware
POLL = 1000                 # cycles between two looks at the counters while waiting


def elf_symbols(elf: Path) -> dict[str, int]:
    """Name -> address of the ELF's symbols (binutils' nm from the cross toolchain)."""
    out = subprocess.run(["riscv64-unknown-elf-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


@dataclass
class SysResult:
    """A finished full-system run: the scoreboard's record and what the firmware reported."""

    run: Run
    summary: dict[str, int]
    log: list[list[int]]          # the firmware's TRACE records (TRACE_FIELDS)
    console: str
    cycles: dict[str, int] = field(default_factory=dict)   # boot, ready, last frame, exit edges
    # wall-clock seconds from reset's release to the edge of exit (the simulation proper:
    # the image load before it and the record's parsing after it excluded; bench.bench_sys)
    run_wall_s: float = 0.0


class SysRun:
    """One run of the firmware ``fw_dir/prionic_fw.{bin,elf}`` against ``schedule`` (``[(at,
    Frame)]``, ``at`` counted from the edge the firmware reports ready) in the firmware's
    configuration ``mode`` (FW_MODES); with ``fault_addr``, the memory answers SLVERR to the
    first write burst to that address (F24)."""

    def __init__(self, dut, cfg: ModelConfig, schedule: list[tuple[int, Frame]], fw_dir: Path, workdir: Path,
                 log=None, fault_addr: int | None = None, mode: str = "test"):
        self.dut = dut
        self.cfg = cfg
        self.schedule = schedule
        self.fw_dir = Path(fw_dir)
        self.workdir = Path(workdir)
        self.log = log
        self.clocked = Clocked(dut, hdl_clock=True)
        self.mem = SysMemory(dut)
        self.syms = elf_symbols(self.fw_dir / "prionic_fw.elf")
        self.addrs = readback_addresses(cfg.num_queues, cfg.num_rules)
        self.fault_addr = fault_addr
        self.mode = FW_MODES[mode]

    def _say(self, msg: str) -> None:
        if self.log is not None:
            self.log.info(msg)

    def now(self) -> int:
        return int(self.dut.cycle.value) - 1

    async def _wait(self, done, limit: int, what: str, *signals) -> None:
        """Until ``done()``, waking on a change of ``signals`` (and of the firmware's exit),
        or every POLL cycles when no signal is given; fail after ``limit`` cycles (a defined
        verdict, never a hang)."""
        start = self.now()
        exit_line = self.dut.status_exit
        if signals and what != "exit" and not any(s is exit_line for s in signals):
            signals = (*signals, exit_line)
        wake = [ValueChange(s) for s in signals]
        while not done():
            if int(exit_line.value) and what != "exit":
                raise AssertionError(f"the firmware exited (code {int(self.dut.status_exit_code.value):#x}) "
                                     f"while the testbench waited for {what}; console:\n{self.console()}")
            elapsed = self.now() - start
            if elapsed > limit:
                raise AssertionError(f"no {what} within {limit} cycles; console:\n{self.console()}")
            # a wait on signals wakes only for them or at its limit: a Python wake-up every
            # POLL cycles cost a long run about 6% of its speed
            span = limit - elapsed + 1 if wake else POLL
            await First(Timer(span * self.clocked.period, "ns"), *wake)
            # at the falling edge, every register of the rising one has its new value: the
            # edge counter and the signal waited on agree on every simulator
            await FallingEdge(self.dut.clk)

    def console(self) -> str:
        path = self.workdir / "console.txt"
        return path.read_text(errors="replace") if path.exists() else ""

    async def _load(self) -> None:
        """While the CPU is in reset: the image at address 0, the configuration, the read-back table."""
        image = (self.fw_dir / "prionic_fw.bin").read_bytes()
        self.mem.write(0, image)
        table = b"".join(a.to_bytes(4, "little") for a in self.addrs)
        self.mem.write(self.syms["fw_readback_addr"], table)
        self.mem.write(self.syms["fw_readback_n"], len(self.addrs).to_bytes(4, "little"))
        self.mem.write(self.syms["fw_mode"], self.mode.to_bytes(4, "little"))

    async def run(self) -> SysResult:
        dut = self.dut
        for name in ("go", "stop", "finish", "err_arm", "err_addr"):
            getattr(dut, name).value = 0
        dut.rst.value = 1
        await Timer(2 * self.clocked.period, "ns")   # after the memory's initial block
        await self._load()
        await self.clocked.start()
        self.mem.written.clear()   # the image's writes have landed; the CPU and the DMA own the RAM now
        t_start = time.monotonic()
        cycles = {}
        await self._wait(lambda: int(dut.status_fw_state.value) == FW_STATE_READY, BOOT_LIMIT, "ready",
                         dut.status_fw_state, dut.status_exit)
        ready = cycles["ready"] = self.now()
        self._say(f"system: firmware ready at edge {ready}")
        # the player opens the file when it first sees go: each frame after the edge of `ready`
        write_stimulus(self.workdir / "frames.bin", ((ready + 10 + at, fr) for at, fr in self.schedule),
                       self.cfg.keep_width)
        if self.fault_addr is not None:   # F24: SLVERR to the first write burst to this address
            dut.err_addr.value = self.fault_addr
            dut.err_arm.value = 1
        dut.go.value = 1
        await self._wait(lambda: int(dut.status_done.value), 100 * (self.schedule[-1][0] + 10_000), "last frame",
                         dut.status_done)
        cycles["played"] = self.now()
        n = int(dut.status_played.value)

        def idle() -> bool:
            return (int(dut.status_verdicts.value) == n
                    and int(dut.status_completions.value) == int(dut.status_accepted.value))

        await self._wait(idle, 1_000_000, "idle NIC")
        await Timer(DRAIN_SPAN * self.clocked.period, "ns")
        dut.stop.value = 1
        cycles["stop"] = self.now()
        await self._wait(lambda: int(dut.status_exit.value), EXIT_LIMIT, "exit", dut.status_exit)
        cycles["exit"] = self.now()
        wall = time.monotonic() - t_start
        dut.finish.value = 1
        await Timer(2 * self.clocked.period, "ns")
        res = self._result(n, cycles)
        res.run_wall_s = wall
        return res

    def _result(self, n: int, cycles: dict[str, int]) -> SysResult:
        dut = self.dut
        cfg = self.cfg
        events = self.workdir / "events.txt"
        rings = ring_layout(events, cfg.num_queues)

        def writeback_slot(addr: int) -> tuple[int, int] | None:
            for q, (base, size) in rings.items():
                off = addr - base - regmap.DESC["writeback_offset"]
                if 0 <= off < size * regmap.DESC["size"] and off % regmap.DESC["size"] == 0:
                    return q, off // regmap.DESC["size"]
            return None

        obs, reads, errors = parse_records(events, cfg.num_queues, writeback_slot)
        obs.t0_ns = self.clocked.t0 or 0
        if len(reads) != len(obs.reg_reads):
            errors.append(f"the recorder saw {len(obs.reg_reads)} register reads and {len(reads)} read data")
        registers = {addr: value for (_r, addr), value in zip(obs.reg_reads, reads, strict=False)}

        syms, mem = self.syms, self.mem
        summary = dict(zip(SUMMARY_FIELDS, mem.words(syms["fw_summary"], len(SUMMARY_FIELDS)), strict=True))
        trace = self.workdir / "trace.txt"
        words = [int(w, 16) for w in trace.read_text().split()] if trace.exists() else []
        n_rec = len(TRACE_FIELDS)
        log = [words[i: i + n_rec] for i in range(0, len(words) - len(words) % n_rec, n_rec)]
        readback = mem.words(syms["fw_readback_val"], len(self.addrs))

        violations = list(errors)
        if len(words) % n_rec or len(words) != int(dut.status_trace.value):
            violations.append(f"the trace file has {len(words)} words, the firmware wrote "
                              f"{int(dut.status_trace.value)} in records of {n_rec}")
        marks = (TRACE_MARK, TRACE_MARK_HEADER)
        torn = [i for i, rec in enumerate(log) if rec[0] >> 24 not in marks]
        if torn:
            violations.append(f"{len(torn)} trace records are not whole (the first: record {torn[0]})")
            log = log[:torn[0]]
        for rec in log:   # the mark becomes a 12th word: the firmware did not read the bytes
            rec.append(rec[0] >> 24 == TRACE_MARK_HEADER)
            rec[0] &= 0xFF_FFFF
        # tasks of several priorities write records: per queue, the order the host reaped in
        log.sort(key=lambda rec: (rec[0] >> 16, rec[10]))
        if summary["mode"] != self.mode:
            violations.append(f"the firmware ran configuration {summary['mode']}, not {self.mode}")
        code = int(dut.status_exit_code.value)
        if code != 0:
            violations.append(f"the firmware exited with code {code:#x}")
        if summary["recover_rc"] != 0:
            violations.append(f"prionic_queue_recover returned {summary['recover_rc'] - (1 << 32)}")
        if self.fault_addr is not None and int(dut.nic_inst.ram_inst.err_injected.value) != 1:
            violations.append(f"no write burst to 0x{self.fault_addr:08x}: the fault was not injected")
        if summary["init_rc"] != 0:
            violations.append(f"prionic_init returned {summary['init_rc'] - (1 << 32)}")
        if summary["readback_n"] != len(self.addrs):
            violations.append(f"the firmware read back {summary['readback_n']} registers of {len(self.addrs)}")
        for what, sig in (("accesses outside the memory map", dut.status_bad_access),
                          ("words written by the CPU and the DMA on one edge", dut.nic_inst.ram_inst.cpu_conflicts)):
            if int(sig.value):
                violations.append(f"{int(sig.value)} {what}")
        for addr, value in zip(self.addrs, readback, strict=True):
            if registers.get(addr) != value:
                violations.append(f"register @0x{addr:04x}: the firmware read {value:#x}, the bus carried "
                                  f"{registers.get(addr)}")

        # a buffer the run wrote once still holds the bytes the firmware read: compare them
        # (and its checksum of them); a reused buffer's bytes are gone, its checksum stays
        uses = Counter(rec[6] for rec in log)
        delivered: list[list[Delivered]] = [[] for _ in range(cfg.num_queues)]
        for rec in log:
            qslot, length, rule_q, status, ts, info, buf, csum = rec[:8]
            q, slot, unread = qslot >> 16, qslot & 0xFFFF, rec[11]
            if q >= cfg.num_queues:
                violations.append(f"a trace record of queue {q}")
                continue
            # only the header read: nothing to compare but the fields (data and csum None)
            data = mem.read(buf, length) if uses[buf] == 1 and not unread else None
            if data is not None and fletcher32(data) != csum:
                violations.append(f"q{q} slot {slot}: the firmware's checksum {csum:#x} of its bytes differs "
                                  f"from the bytes in memory ({fletcher32(data):#x})")
            delivered[q].append(Delivered(queue=q, slot=slot, length=length, rule=rule_q & 0xFF,
                                          qfield=rule_q >> 8 & 0xFF, status=status, ts=ts, data=data, info=info,
                                          csum=None if unread else csum))
        buffers = [(rec[6], rec[0] >> 16) for rec in log]
        for q in range(cfg.num_queues):
            if summary["unreaped"] >> q & 1:
                if delivered[q]:
                    violations.append(f"q{q}: the firmware reaped {len(delivered[q])} frames of a queue it "
                                      "never reaps")
                delivered[q], bufs = sink_delivered(mem, q, *rings[q])
                buffers += [(addr, q) for addr in bufs]
        violations += dma_bounds(obs.bursts, rings, buffers, obs.reg_writes)
        frames = [fr for _at, fr in self.schedule[:n]]
        run = Run(cfg, frames, obs, delivered, registers, violations)
        return SysResult(run, summary, log, self.console(), cycles)




def build_firmware(fw_dir: Path) -> Path:
    """``make fw`` into ``fw_dir`` under a lock (one build for pytest's workers); a missing
    cross compiler fails with the install hint."""
    if shutil.which("riscv64-unknown-elf-gcc") is None:
        raise RuntimeError("riscv64-unknown-elf-gcc not found (the full-system firmware): "
                           "apt-get install gcc-riscv64-unknown-elf")
    with _locked(fw_dir.parent / f"{fw_dir.name}.lock"):
        r = subprocess.run(["make", "-s", "-C", str(ROOT), "fw", f"FW_OUT={fw_dir}"], capture_output=True,
                           text=True, timeout=300, env={**os.environ, "MAKEFLAGS": ""})
    if r.returncode != 0:
        raise RuntimeError(f"make fw failed:\n{r.stdout}{r.stderr}")
    return fw_dir


def run_system(sim: str, run_dir: Path, fw_dir: Path, *, fast: bool = False, waves: bool | None = None,
               testcase: str = "SystemRunTest", extra_env: dict[str, str] | None = None,
               parameters: dict[str, int] | None = None) -> dict:
    """One test of tb/system/cocotb_sys.py (``testcase``) on ``sim`` (``fast``: the speed build of
    bench.bench_sys) with its files in ``run_dir``, the system top built with ``parameters``
    (e.g. NUM_QUEUES); returns the report.json its report phase wrote."""
    run_dir.mkdir(parents=True, exist_ok=True)
    run_sim(sim, SYS_TOP, "tb.system.cocotb_sys", parameters=parameters, test_dir=run_dir, fast=fast, waves=waves,
            testcase=testcase,
            plusargs=[f"+prionic_stim={run_dir / 'frames.bin'}", f"+prionic_rec={run_dir / 'events.txt'}",
                      f"+prionic_console={run_dir / 'console.txt'}", f"+prionic_trace={run_dir / 'trace.txt'}"],
            extra_env={"PRIONIC_SYS_DIR": str(run_dir), "PRIONIC_FW_DIR": str(fw_dir), **(extra_env or {})})
    return json.loads((run_dir / "report.json").read_text())


def sys_schedule(rng) -> list[tuple[int, Frame]]:
    """The short run of ``make test`` (tests/test_sys.py): 8 frames of the control flow (UDP
    5000, queue 0) every 6,000 cycles, 12 best-effort frames (UDP 6000, queue 1) in bursts of
    four every 15,000 cycles, and two frames no rule matches (dropped: UNREGISTERED); ``at``
    from the edge the firmware is ready. About the load VexRiscv_Lite keeps up with
    (docs/system.md, section "What it costs")."""
    from tb.top.frames import Flow

    ctrl = Flow("ctrl", "udp", 5000, payload=(18, 64))
    be = Flow("be", "udp", 6000, payload=(18, 100))
    other = Flow("other", "udp", 7000, payload=(18, 40))
    timed = [(1000 + 6_000 * i, ctrl) for i in range(8)]
    timed += [(4000 + 15_000 * j + 300 * k, be) for j in range(3) for k in range(4)]
    timed += [(9_500, other), (30_500, other)]
    return [(at, flow.make(rng)) for at, flow in sorted(timed, key=lambda x: x[0])]


def paper_report(sc, res: SysResult, model, wall_s: float) -> dict:
    """The paper's figures of a full-system run (docs/paper.md section 1, the firmware's side):
    the critical task's response times as the firmware measured them (``t_done - ts``, cycles
    of mtime and TIMESTAMP, which count the same edges), each cross-checked against the
    frame's tlast edge as the recorder saw it (the model's ``t_last``); interrupts; delivery
    per flow; the CPU's time per task. Raises when a firmware time disagrees with the record."""
    from tb.scenario.report import percentiles

    run, us = res.run, CYCLES_PER_US
    frames = run.frames
    crit = sc.critical_flow
    handled: Counter[str] = Counter()
    resp: list[int] = []
    for q in range(run.cfg.num_queues):
        if res.summary["unreaped"] >> q & 1:
            continue   # a sink: nothing of it reaches a task
        exp = [o for o in model.expected_completions(q) if o.dma != "wb_err"]
        recs = [r for r in res.log if r[0] >> 16 == q]
        for r, o in zip(recs, exp, strict=True):
            flow = frames[o.index].flow
            if r[9] == FW_T_LOST:   # read by the host, dropped before its task
                continue
            handled[flow] += 1
            if flow != crit:
                continue
            fw = (r[9] - r[4]) & 0xFFFF_FFFF
            seen = r[9] - (o.t_last & 0xFFFF_FFFF)
            if fw != seen:
                raise AssertionError(f"q{q} frame {o.index}: the firmware measured {fw} cycles, the recorder's "
                                     f"tlast at edge {o.t_last} and the firmware's end at {r[9]} give {seen}")
            resp.append(fw)
    sent = Counter(fr.flow for fr in frames)
    queues = range(run.cfg.num_queues)
    verdicts: dict[str, Counter[str]] = {}
    for fr, v in zip(frames, run.observed.verdicts, strict=False):   # in frame order, as the model's
        verdicts.setdefault(fr.flow, Counter())[regmap.VERDICT_NAMES[v[1]]] += 1
    period = next((f.period_us for f in sc.flows if f.name == crit), None)
    lost = sent.get(crit, 0) - len(resp)
    pct = {k: (None if v is None else round(v / us, 2)) for k, v in percentiles(resp).items()}
    every = sorted(resp) + [math.inf] * lost
    p99_all = every[min(len(every) - 1, int(0.99 * len(every)))] if every else None
    s = res.summary
    span = res.cycles["exit"] - res.cycles["ready"]
    tasks = {t: s[f"cycles_{t}"] for t in ("crit", "rx0", "rx1", "app", "monitor", "idle", "trap")}
    return {
        "critical": {**{k + "_us": v for k, v in pct.items()}, "sent": sent.get(crit, 0), "handled": len(resp),
                     "lost": lost, "p99_all_us": None if p99_all in (None, math.inf) else round(p99_all / us, 2),
                     "deadline_misses": sum(1 for v in resp if period and v > period * us) + lost},
        "critical_response_cycles": resp,
        "rx_bytes": [sum(r[1] for r in res.log if r[0] >> 16 == q) for q in queues],
        "interrupts": s["isr_runs"], "irq_pulses": len(run.observed.fires),
        # per queue: the NIC's stat_irq pulses (its cause set) and the rises of its irq line
        "irq_pulses_q": [sum(1 for f in run.observed.fires if f[1] == q) for q in queues],
        "irq_rises_q": [sum(1 for e in run.observed.irq_edges if e[1] == q and e[2]) for q in queues],
        "delivered": {name: round(handled.get(name, 0) / n, 3) for name, n in sent.items()},
        "sent": sent, "handled": handled, "verdicts": verdicts,
        # shares of the run from ready to exit: each task's (traps excluded) and the traps' (ISR,
        # tick, switch); busy is all but the idle task's
        "cpu": {"busy": round(1 - tasks["idle"] / span, 4), "isr": round(s["isr_cycles"] / span, 4),
                "tasks": {t: round(c / span, 4) for t, c in tasks.items()}, "span_cycles": span},
        "summary": s, "cycles": {**res.cycles, "last": run.observed.last_cycle}, "wall_s": round(wall_s, 2),
        "run_wall_s": round(res.run_wall_s, 2),
        "cycles_per_s": round(run.observed.last_cycle / res.run_wall_s) if res.run_wall_s else None,
        "console": res.console,
    }


__all__ = ["SysRun", "SysResult", "build_firmware", "elf_symbols", "paper_report", "run_system", "sys_schedule"]
