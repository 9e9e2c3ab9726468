"""Host CPU model (F21, F23): one CPU, preemptive fixed-priority scheduling, interrupts.

Written from ``docs/host-cpu.md``, which is normative for it. Two parts:

* :class:`Cpu` (:mod:`model.sched`) is the scheduler alone: jobs with a priority and a list
  of steps, each step a cost in cycles and an action run when the step's cycles have been
  spent. The highest priority ready job runs; a job released at a higher priority preempts
  at once; among equal priorities the earlier release runs first (so ISRs, all at
  :data:`ISR_PRIO`, never nest). Time is in cycles of the NIC clock, so the model and the
  NIC share one time line.
* :class:`Host` is the operating system's network path on top of it: the NIC's ISR, the
  receive work in one of seven host configurations (:data:`MODES`, docs/host-cpu.md
  section 4: a softirq above every task, one network task, Linux NAPI, an ISR rate limit
  that falls back to polling, early demultiplexing in the driver, a receive task per queue
  of a commodity multiqueue NIC, and prionic's receive task per queue with gating), the
  socket demultiplexing by UDP/TCP destination port, the critical control task and the
  best-effort application task, and (prionic) the ``RUN_PRIO`` write at every task switch
  that F16 gating reads.

The host reaches the NIC through a :class:`NicPort`: the co-simulation's host driver
(``tb/top/cpuhost.py``) implements it on the RTL, the fast model (``model/fast.py``, F18) on
its own NIC. Nothing here knows which.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

from model.sched import ISR_PRIO, KERNEL_PRIO, Action, Cpu, Job

__all__ = ["ISR_PRIO", "KERNEL_PRIO", "MODES", "PROFILES", "Action", "Costs", "Cpu", "Host", "HostConfig",
           "HostStats", "Job", "NicPort", "RxFrame"]

# The host configurations (docs/host-cpu.md section 4): where the receive work runs.
MODES = ("kernel", "rtos", "napi", "ratelimit", "swdemux", "multiqueue", "prionic")

# Cost profiles in microseconds (docs/host-cpu.md section 3); a scenario's [cpu] keys override them.
PROFILES: dict[str, dict[str, float]] = {
    # a Cortex-R5 / Cortex-A9 class core at 400-800 MHz (the defaults)
    "default": {"isr_us": 1.5, "frame_us": 4.0, "byte_ns": 1.0, "critical_us": 20.0, "app_us": 1.0,
                "demux_us": 0.5},
    # a Cortex-M4/M7 class microcontroller at 100-200 MHz
    "cortex-m": {"isr_us": 4.0, "frame_us": 15.0, "byte_ns": 4.0, "critical_us": 20.0, "app_us": 2.5,
                 "demux_us": 1.5},
    # VexRiscv_Lite at 125 MHz with the project's firmware, measured on the full system
    # (python -m bench.paper_sys, results.json "calibration"; docs/paper.md section 4)
    "vexriscv": {"isr_us": 4.43, "frame_us": 10.99, "byte_ns": 22.4, "critical_us": 20.3, "app_us": 0.0,
                 "demux_us": 14.21},
}


@dataclass(frozen=True)
class Costs:
    """CPU costs in cycles of the NIC clock (docs/host-cpu.md section 3 gives the defaults in
    microseconds and where they come from)."""

    isr: int = 188           # interrupt entry, cause read and clear, wake-up, exit: 1.5 us
    frame: int = 500         # protocol processing of one frame (IP/UDP or TCP, socket demux): 4 us
    byte_x1000: int = 125    # copy: 1 ns per byte = 0.125 cycles per byte (in 1/1000 cycle)
    critical: int = 2500     # the critical task's work per control frame (WCET): 20 us
    app: int = 125           # the best-effort application's work per frame: 1 us
    demux: int = 63          # swdemux: reading a descriptor and the frame's port in the driver: 0.5 us

    @classmethod
    def from_us(cls, clock_mhz: float = 125.0, *, isr_us: float = 1.5, frame_us: float = 4.0,
                byte_ns: float = 1.0, critical_us: float = 20.0, app_us: float = 1.0,
                demux_us: float = 0.5) -> Costs:
        c = clock_mhz
        return cls(isr=_cyc(isr_us * c), frame=_cyc(frame_us * c), byte_x1000=_cyc(byte_ns * c),
                   critical=_cyc(critical_us * c), app=_cyc(app_us * c), demux=_cyc(demux_us * c))

    @classmethod
    def profile(cls, name: str = "default", clock_mhz: float = 125.0, **override: float) -> Costs:
        """The costs of a named profile (:data:`PROFILES`), with some keys overridden."""
        if name not in PROFILES:
            raise ValueError(f"cost profile must be one of {', '.join(PROFILES)}, not {name!r}")
        return cls.from_us(clock_mhz, **{**PROFILES[name], **override})

    def per_frame(self, length: int) -> int:
        return self.frame + (length * self.byte_x1000 + 999) // 1000


def _cyc(x: float) -> int:
    if x < 0:
        raise ValueError("a cost cannot be negative")
    return int(round(x))


@dataclass(frozen=True)
class RxFrame:
    """A received frame as the driver sees it in its descriptor."""

    queue: int
    dport: int          # UDP/TCP destination port, -1 when the frame has none
    length: int
    arrival: int        # cycle of the frame's tlast (the descriptor's timestamp)


class NicPort(Protocol):
    """What the host's driver does to the NIC (docs/host-cpu.md section 4)."""

    def lines(self) -> int: ...                    # the irq lines, one bit per queue
    def clear_cause(self, mask: int) -> None: ...  # W1C to IRQ_CAUSE
    def set_mask(self, mask: int) -> None: ...     # IRQ_MASK (napi, ratelimit)
    def reap_one(self, q: int) -> RxFrame | None: ...  # the next completed descriptor of q
    def give_back(self, q: int) -> None: ...       # post the buffer again (RING_TAIL)
    def set_run_prio(self, prio: int) -> None: ... # RUN_PRIO (F16)


@dataclass
class HostConfig:
    """How the operating system processes received frames (docs/host-cpu.md section 4)."""

    mode: str = "prionic"        # one of MODES
    queue_prio: tuple[int, ...] = (1, 2)   # task priority of each queue's receive task (prionic, multiqueue)
    sockets: dict[int, str] = field(default_factory=dict)  # dport -> "critical" or "app"
    critical_prio: int = 2
    app_prio: int = 1
    net_prio: int = 1            # rtos, ratelimit: the network task; napi: ksoftirqd
    deadline: int = 12_500       # cycles from a control frame's arrival to its task's end: 100 us
    gate: bool = True            # write RUN_PRIO at every change of the current task (F16)
    costs: Costs = field(default_factory=Costs)
    napi_budget: int = 64        # napi: frames per poll round (a driver's NAPI weight)
    napi_thread: int = 250_000   # napi: continuous polling after which the rest runs in ksoftirqd: 2 ms
    rl_limit: int = 3            # ratelimit: ISRs in a window that switch interrupts off
    rl_window: int = 250_000     # ratelimit: the window, 2 ms
    rl_poll: int = 125_000       # ratelimit: polling period while interrupts are off, 1 ms (the RTOS tick)
    recheck: int = 16            # napi: cycles from the cause clear to the ring's re-check (the write posted)
    early_filter: bool = False   # the driver reads a frame's port first (demux) and returns one of no socket at once
    napi_threaded: bool = False  # napi: every poll round in a thread per queue at net_prio (threaded NAPI)
    irq_mask: int = 0            # IRQ_MASK as the driver writes it at start: queues it never takes an irq of

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"host mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        for port, who in self.sockets.items():
            if who not in ("critical", "app"):
                raise ValueError(f"socket {port}: consumer must be critical or app, not {who!r}")
        for k in ("napi_budget", "napi_thread", "rl_limit", "rl_window", "rl_poll"):
            if getattr(self, k) < 1:
                raise ValueError(f"host {k} must be at least 1, not {getattr(self, k)}")
        if self.recheck < 0:
            raise ValueError("host recheck must not be negative")
        if self.napi_threaded and self.mode != "napi":
            raise ValueError(f"host napi_threaded is a napi setting; mode is {self.mode!r}")
        if self.irq_mask < 0:
            raise ValueError("host irq_mask must not be negative")


@dataclass
class HostStats:
    isr_runs: int = 0
    isr_preempting_critical: int = 0    # ISRs released while a critical job was ready or running
    critical_response: list[int] = field(default_factory=list)   # cycles, arrival -> task end
    critical_arrival: list[int] = field(default_factory=list)
    app_response: list[int] = field(default_factory=list)        # cycles, arrival -> app job end
    deadline_misses: int = 0
    consumed: dict[int, int] = field(default_factory=dict)       # dport -> frames consumed by a task
    stack_drops: int = 0                # frames processed (or demultiplexed) and dropped: no socket
    frames: int = 0                     # frames the driver reaped
    run_prio_writes: int = 0
    polls: int = 0                      # napi rounds, ratelimit timer polls
    thread_frames: int = 0              # napi: frames processed in ksoftirqd or a NAPI thread
    early_drops: int = 0                # early_filter: frames of no socket returned after the port check


class Host:
    """The OS network path on one :class:`Cpu` (docs/host-cpu.md section 4)."""

    def __init__(self, cfg: HostConfig, nic: NicPort, num_queues: int, cpu: Cpu | None = None) -> None:
        self.cfg = cfg
        self.nic = nic
        self.nq = num_queues
        self.cpu = cpu or Cpu()
        self.stats = HostStats()
        self._isr: Job | None = None
        self._lines = 0
        self._rx: list[Job | None] = [None] * num_queues     # per queue: softirq, rx task or NAPI poll
        self._net: Job | None = None                          # rtos, ratelimit, swdemux: the one job
        self._critical_active = 0   # critical jobs released and not finished
        self._run_prio = 0
        self._mask = cfg.irq_mask   # IRQ_MASK as written (the driver's start value: the NIC's configuration)
        self._isr_times: deque[int] = deque()   # ratelimit: ISR starts within the window
        self._polling = False       # ratelimit: interrupts off, the ring polled by the tick
        self._poll_gen = 0          # ratelimit: which entry into polling a tick belongs to
        self._napi_since = [0] * num_queues   # napi: start of the queue's continuous polling
        self.cpu.on_change = self._on_change

    # ---------------------------------------------------------------- NIC events
    def irq_changed(self, t: int, lines: int) -> None:
        """The NIC's irq lines changed at cycle ``t`` to ``lines``. The interrupt is level
        triggered: the ISR starts when the lines are non-zero and no ISR is running; an ISR
        that finds the lines still non-zero at its exit runs again."""
        self.cpu.advance(t)
        if lines and (self._isr is None or self._isr.done):
            self._start_isr()

    def _start_isr(self) -> None:
        self.stats.isr_runs += 1
        if self._critical_active:
            self.stats.isr_preempting_critical += 1
        c = self.cfg.costs.isr
        self._isr = self.cpu.release(Job("isr", ISR_PRIO, "isr", [(c // 2, self._isr_entry),
                                                                  (c - c // 2, self._isr_exit)]))

    def _isr_entry(self, t: int) -> None:
        """Half-way through its cost: read the lines and clear those causes (W1C); napi masks
        the queues it read, ratelimit masks every queue once its limit is reached."""
        self._lines = self.nic.lines()
        if not self._lines:
            return
        mode = self.cfg.mode
        if mode == "napi":
            self._set_mask(self._mask | self._lines)
        elif mode == "ratelimit":
            w = self._isr_times
            w.append(t)
            while w[0] <= t - self.cfg.rl_window:
                w.popleft()
            if len(w) >= self.cfg.rl_limit and not self._polling:
                self._polling = True
                self._poll_gen += 1
                self._set_mask((1 << self.nq) - 1)
                self.cpu.at(t + self.cfg.rl_poll, partial(self._rl_tick, self._poll_gen))
        self.nic.clear_cause(self._lines)

    def _isr_exit(self, t: int) -> None:
        """At its end: wake the receive work of each queue read at entry; if the lines are
        still non-zero (a new cause since the clear), the ISR runs again."""
        if self._lines:
            if self.cfg.mode in ("rtos", "ratelimit", "swdemux"):
                self._wake_net()
            else:
                for q in range(self.nq):
                    if self._lines >> q & 1:
                        self._wake(q)
        if self.nic.lines():
            self._isr = None
            self._start_isr()

    def _set_mask(self, mask: int) -> None:
        if mask != self._mask:
            self._mask = mask
            self.nic.set_mask(mask)

    # ---------------------------------------------------------------- receive work per queue
    def _wake(self, q: int) -> None:
        """kernel, multiqueue, prionic: a job per queue polls it until it is empty; napi: a
        poll of at most ``napi_budget`` frames per round."""
        j = self._rx[q]
        if j is not None and not j.done:
            return      # it polls until the ring is empty
        mode = self.cfg.mode
        if mode == "kernel":
            job = Job(f"softirq{q}", KERNEL_PRIO, "kernel", [(0, None)])
        elif mode == "napi":
            job = (Job(f"napi{q}", self.cfg.net_prio, "task", [(0, None)]) if self.cfg.napi_threaded
                   else Job(f"napi{q}", KERNEL_PRIO, "kernel", [(0, None)]))
            self._napi_since[q] = self.cpu.now
            job.steps[0] = (0, partial(self._napi_poll, job, q, 0))
            self._rx[q] = self.cpu.release(job)
            return
        else:
            job = Job(f"rx{q}", self.cfg.queue_prio[q], "task", [(0, None)])
        job.steps[0] = (0, partial(self._poll, job, q))
        self._rx[q] = self.cpu.release(job)

    def _take(self, job: Job, f: RxFrame, cost: int, done: Callable[[RxFrame, int], None],
              after: Action) -> None:
        """A frame the driver took: ``job`` spends ``cost`` on it, runs ``done``, then ``after``."""
        self.stats.frames += 1
        if job.kind == "task" and self.cfg.mode == "napi":
            self.stats.thread_frames += 1
        job.then(cost, partial(done, f))
        job.then(0, after)

    def _receive(self, job: Job, f: RxFrame, after: Action) -> None:
        """The receive work of one frame: its protocol processing, or (``early_filter``) the
        port check alone for a frame of no socket, which goes back at once."""
        if self.cfg.early_filter and f.dport not in self.cfg.sockets:
            self._take(job, f, self.cfg.costs.demux, self._dropped_early, after)
        else:
            self._take(job, f, self.cfg.costs.per_frame(f.length), self._processed, after)

    def _dropped_early(self, f: RxFrame, t: int) -> None:
        self.nic.give_back(f.queue)
        self.stats.early_drops += 1

    def _poll(self, job: Job, q: int, t: int) -> None:
        f = self.nic.reap_one(q)
        if f is not None:
            self._receive(job, f, partial(self._poll, job, q))

    def _napi_poll(self, job: Job, q: int, done: int, t: int) -> None:
        """One step of queue q's NAPI poll with ``done`` frames taken in this round."""
        c = self.cfg
        if done == c.napi_budget:
            # the round used its budget: the next one, in ksoftirqd once polling has gone on too long
            self.stats.polls += 1
            if job.kind == "kernel" and t - self._napi_since[q] >= c.napi_thread:
                thread = Job(f"ksoftirqd{q}", c.net_prio, "task", [(0, None)])
                thread.steps[0] = (0, partial(self._napi_poll, thread, q, 0))
                self._rx[q] = self.cpu.release(thread)
                return
            done = 0
        f = self.nic.reap_one(q)
        if f is None:
            # ring empty: clear the cause, look once more after the write, then unmask
            self.stats.polls += 1
            self.nic.clear_cause(1 << q)
            job.then(c.recheck, partial(self._napi_recheck, job, q))
            return
        self._receive(job, f, partial(self._napi_poll, job, q, done + 1))

    def _napi_recheck(self, job: Job, q: int, t: int) -> None:
        f = self.nic.reap_one(q)
        if f is None:
            self._set_mask(self._mask & ~(1 << q))
            return
        self._receive(job, f, partial(self._napi_poll, job, q, 1))

    # ---------------------------------------------------------------- one job for every queue
    def _wake_net(self) -> None:
        """rtos, ratelimit: the network task; swdemux: the driver's demultiplexing poll. It
        takes frames from the queues in index order until all are empty."""
        j = self._net
        if j is not None and not j.done:
            return
        if self.cfg.mode == "swdemux":
            job = Job("demux", KERNEL_PRIO, "kernel", [(0, None)])
            job.steps[0] = (0, partial(self._demux, job))
        else:
            job = Job("net", self.cfg.net_prio, "task", [(0, None)])
            job.steps[0] = (0, partial(self._net_poll, job, False, True))
        self._net = self.cpu.release(job)

    def _reap_any(self) -> RxFrame | None:
        for q in range(self.nq):
            f = self.nic.reap_one(q)
            if f is not None:
                return f
        return None

    def _net_poll(self, job: Job, timer: bool, first: bool, t: int) -> None:
        f = self._reap_any()
        if f is None:
            if timer and first and self._polling:
                # a tick's poll that finds every ring empty: back to interrupts
                self._polling = False
                self._set_mask(0)
            return
        self._receive(job, f, partial(self._net_poll, job, timer, False))

    def _rl_tick(self, gen: int, t: int) -> None:
        """ratelimit: the polling tick while interrupts are off (every ``rl_poll`` cycles from
        the ISR that switched them off). A tick that finds the network task still draining
        leaves it to drain: that poll found frames."""
        if gen != self._poll_gen or not self._polling:
            return
        self.stats.polls += 1
        self.cpu.at(t + self.cfg.rl_poll, partial(self._rl_tick, gen))
        j = self._net
        if j is not None and not j.done:
            return
        job = Job("net", self.cfg.net_prio, "task", [(0, None)])
        job.steps[0] = (0, partial(self._net_poll, job, True, True))
        self._net = self.cpu.release(job)

    def _demux(self, job: Job, t: int) -> None:
        """swdemux: read the next descriptor's port (``demux`` cycles); a frame of no socket
        goes back at once, any other is processed by a job at its receiver's priority."""
        f = self._reap_any()
        if f is not None:
            self._take(job, f, self.cfg.costs.demux, self._demuxed, partial(self._demux, job))

    def _demuxed(self, f: RxFrame, t: int) -> None:
        who = self.cfg.sockets.get(f.dport)
        if who is None:
            self.nic.give_back(f.queue)
            self.stats.stack_drops += 1
            return
        prio = self.cfg.critical_prio if who == "critical" else self.cfg.app_prio
        self.cpu.release(Job(f"proto-{who}", prio, "task",
                             [(self.cfg.costs.per_frame(f.length), partial(self._processed, f))]))

    # ---------------------------------------------------------------- sockets and tasks
    def _processed(self, f: RxFrame, t: int) -> None:
        self.nic.give_back(f.queue)
        who = self.cfg.sockets.get(f.dport)
        if who is None:
            self.stats.stack_drops += 1
            return
        if who == "critical":
            self._critical_active += 1
            self.cpu.release(Job("critical", self.cfg.critical_prio, "task",
                                 [(self.cfg.costs.critical, partial(self._critical_done, f))]))
        else:
            self.cpu.release(Job("app", self.cfg.app_prio, "task",
                                 [(self.cfg.costs.app, partial(self._app_done, f))]))

    def _app_done(self, f: RxFrame, t: int) -> None:
        self.stats.app_response.append(t - f.arrival)
        self._consumed(f)

    def _critical_done(self, f: RxFrame, t: int) -> None:
        self._critical_active -= 1
        r = t - f.arrival
        self.stats.critical_response.append(r)
        self.stats.critical_arrival.append(f.arrival)
        if r > self.cfg.deadline:
            self.stats.deadline_misses += 1
        self._consumed(f)

    def _consumed(self, f: RxFrame) -> None:
        self.stats.consumed[f.dport] = self.stats.consumed.get(f.dport, 0) + 1

    # ---------------------------------------------------------------- F16
    def _on_change(self, t: int) -> None:
        if not self.cfg.gate:
            return
        p = self.cpu.task_prio()
        if p != self._run_prio:
            self._run_prio = p
            self.stats.run_prio_writes += 1
            self.nic.set_run_prio(p)
