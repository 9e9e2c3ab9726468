"""Host CPU model (F21, F23): one CPU, preemptive fixed-priority scheduling, interrupts.

Written from ``docs/host-cpu.md``, which is normative for it. Two parts:

* :class:`Cpu` is the scheduler alone: jobs with a priority and a list of steps, each step a
  cost in cycles and an action run when the step's cycles have been spent. The highest
  priority ready job runs; a job released at a higher priority preempts at once; among
  equal priorities the earlier release runs first (so ISRs, all at :data:`ISR_PRIO`, never
  nest). Time is in cycles of the NIC clock, so the model and the NIC share one time line.
* :class:`Host` is the operating system's network path on top of it: the NIC's ISR, the
  receive work (in a kernel softirq above every task for a conventional NIC, or in a
  receive task per queue at the queue's priority for prionic), the socket demultiplexing by
  UDP/TCP destination port, the critical control task and the best-effort application
  task, and (prionic) the ``RUN_PRIO`` write at every task switch that F16 gating reads.

The host reaches the NIC through a :class:`NicPort`: the co-simulation's host driver
(``tb/cpuhost.py``) implements it on the RTL, the fast model (``model/fast.py``, F18) on
its own NIC. Nothing here knows which.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

ISR_PRIO = 1 << 20      # the NIC interrupt handler: above everything, never nested
KERNEL_PRIO = 1 << 19   # softirq / NAPI receive processing: above every task

Action = Callable[[int], None]


class Job:
    """A unit of work: ``steps`` run in order, each ``(cost, action)``; ``action(t)`` runs when
    the step's ``cost`` cycles have been spent (``t`` is that cycle) and may append steps."""

    __slots__ = ("name", "prio", "kind", "steps", "left", "release", "done", "seq")

    def __init__(self, name: str, prio: int, kind: str, steps: list[tuple[int, Action | None]]) -> None:
        if not steps:
            raise ValueError("a job needs at least one step")
        self.name = name
        self.prio = prio
        self.kind = kind            # "isr", "kernel" or "task": how its CPU time is accounted
        self.steps: deque[tuple[int, Action | None]] = deque(steps)
        self.left = steps[0][0]
        self.release = -1
        self.done = False
        self.seq = 0

    def then(self, cost: int, action: Action | None = None) -> None:
        """Append a step (from inside one of the job's actions)."""
        if cost < 0:
            raise ValueError("a step cannot cost less than 0 cycles")
        self.steps.append((cost, action))


class Cpu:
    """One CPU, preemptive fixed priority (docs/host-cpu.md section 2)."""

    def __init__(self) -> None:
        self.now = 0
        self._ready: list[tuple[int, int, Job]] = []
        self._tasks: list[tuple[int, int, Job]] = []   # the ready jobs of kind "task" (task_prio)
        self._seq = 0
        self.busy: dict[str, int] = {"isr": 0, "kernel": 0, "task": 0}
        self.switches = 0
        self._last: Job | None = None
        self.on_change: Callable[[int], None] | None = None   # after every release or step end

    # ---------------------------------------------------------------- state
    def running(self) -> Job | None:
        """The job that runs now: the highest priority ready job, the earliest released first."""
        r = self._ready
        while r and r[0][2].done:
            heapq.heappop(r)
        return r[0][2] if r else None

    def active(self) -> list[Job]:
        return [j for _p, _s, j in self._ready if not j.done]

    def task_prio(self) -> int:
        """Priority of the current task: the highest ready job of kind ``task`` (0: idle)."""
        t = self._tasks
        while t and t[0][2].done:
            heapq.heappop(t)
        return t[0][2].prio if t else 0

    def next_event(self) -> int | None:
        """Cycle at which the running job's current step ends (None: idle)."""
        j = self.running()
        return None if j is None else self.now + j.left

    # ---------------------------------------------------------------- time
    def release(self, job: Job, t: int | None = None) -> Job:
        """Make ``job`` ready at cycle ``t`` (default: now); it preempts a lower priority job."""
        if t is not None:
            self.advance(t)
        self._seq += 1
        job.seq = self._seq
        job.release = self.now
        heapq.heappush(self._ready, (-job.prio, job.seq, job))
        if job.kind == "task":
            heapq.heappush(self._tasks, (-job.prio, job.seq, job))
        self._changed()
        return job

    def advance(self, t: int) -> None:
        """Run the schedule up to cycle ``t``: every step that ends at or before ``t`` runs its
        action at its own cycle."""
        if t < self.now:
            raise ValueError(f"the CPU is at cycle {self.now}; cannot go back to {t}")
        while True:
            j = self.running()
            if j is None:
                self.now = t
                return
            end = self.now + j.left
            if end > t:
                self.busy[j.kind] += t - self.now
                j.left -= t - self.now
                self.now = t
                return
            self.busy[j.kind] += j.left
            self.now = end
            _cost, action = j.steps.popleft()
            if action is not None:
                action(end)
            if j.steps:
                j.left = j.steps[0][0]
            else:
                j.done = True
                j.left = 0
            self._changed()

    def _changed(self) -> None:
        j = self.running()
        if j is not self._last:
            self._last = j
            self.switches += 1
        if self.on_change is not None:
            self.on_change(self.now)


# ------------------------------------------------------------------------------- the OS


@dataclass(frozen=True)
class Costs:
    """CPU costs in cycles of the NIC clock (docs/host-cpu.md section 3 gives the defaults in
    microseconds and where they come from)."""

    isr: int = 188           # interrupt entry, cause read and clear, wake-up, exit: 1.5 us
    frame: int = 500         # protocol processing of one frame (IP/UDP or TCP, socket demux): 4 us
    byte_x1000: int = 125    # copy: 1 ns per byte = 0.125 cycles per byte (in 1/1000 cycle)
    critical: int = 2500     # the critical task's work per control frame (WCET): 20 us
    app: int = 125           # the best-effort application's work per frame: 1 us

    @classmethod
    def from_us(cls, clock_mhz: float = 125.0, *, isr_us: float = 1.5, frame_us: float = 4.0,
                byte_ns: float = 1.0, critical_us: float = 20.0, app_us: float = 1.0) -> Costs:
        c = clock_mhz
        return cls(isr=_cyc(isr_us * c), frame=_cyc(frame_us * c), byte_x1000=_cyc(byte_ns * c),
                   critical=_cyc(critical_us * c), app=_cyc(app_us * c))

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
    def reap_one(self, q: int) -> RxFrame | None: ...  # the next completed descriptor of q
    def give_back(self, q: int) -> None: ...       # post the buffer again (RING_TAIL)
    def set_run_prio(self, prio: int) -> None: ... # RUN_PRIO (F16)


@dataclass
class HostConfig:
    """How the operating system processes received frames (docs/host-cpu.md section 4)."""

    mode: str = "prionic"        # "prionic": receive task per queue at its priority; "kernel": softirq
    queue_prio: tuple[int, ...] = (1, 2)   # task priority of each queue's receive task (prionic mode)
    sockets: dict[int, str] = field(default_factory=dict)  # dport -> "critical" or "app"
    critical_prio: int = 2
    app_prio: int = 1
    deadline: int = 12_500       # cycles from a control frame's arrival to its task's end: 100 us
    gate: bool = True            # write RUN_PRIO at every change of the current task (F16)
    costs: Costs = field(default_factory=Costs)

    def __post_init__(self) -> None:
        if self.mode not in ("prionic", "kernel"):
            raise ValueError(f"host mode must be prionic or kernel, not {self.mode!r}")
        for port, who in self.sockets.items():
            if who not in ("critical", "app"):
                raise ValueError(f"socket {port}: consumer must be critical or app, not {who!r}")


@dataclass
class HostStats:
    isr_runs: int = 0
    isr_preempting_critical: int = 0    # ISRs released while a critical job was ready or running
    critical_response: list[int] = field(default_factory=list)   # cycles, arrival -> task end
    critical_arrival: list[int] = field(default_factory=list)
    app_response: list[int] = field(default_factory=list)        # cycles, arrival -> app job end
    deadline_misses: int = 0
    consumed: dict[int, int] = field(default_factory=dict)       # dport -> frames consumed by a task
    stack_drops: int = 0                # frames processed and then dropped: no socket for the port
    frames: int = 0                     # frames the driver reaped
    run_prio_writes: int = 0


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
        self._rx: list[Job | None] = [None] * num_queues
        self._critical_active = 0   # critical jobs released and not finished
        self._run_prio = 0
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
        """Half-way through its cost: read the lines and clear those causes (W1C)."""
        self._lines = self.nic.lines()
        if self._lines:
            self.nic.clear_cause(self._lines)

    def _isr_exit(self, t: int) -> None:
        """At its end: wake the receive work of each queue read at entry; if the lines are
        still non-zero (a new cause since the clear), the ISR runs again."""
        for q in range(self.nq):
            if self._lines >> q & 1:
                self._wake(q)
        if self.nic.lines():
            self._isr = None
            self._start_isr()

    # ---------------------------------------------------------------- receive path
    def _wake(self, q: int) -> None:
        j = self._rx[q]
        if j is not None and not j.done:
            return      # it polls until the ring is empty
        if self.cfg.mode == "kernel":
            job = Job(f"softirq{q}", KERNEL_PRIO, "kernel", [(0, None)])
        else:
            job = Job(f"rx{q}", self.cfg.queue_prio[q], "task", [(0, None)])
        job.steps[0] = (0, partial(self._poll, job, q))
        self._rx[q] = self.cpu.release(job)

    def _poll(self, job: Job, q: int, t: int) -> None:
        f = self.nic.reap_one(q)
        if f is None:
            return
        self.stats.frames += 1
        job.then(self.cfg.costs.per_frame(f.length), partial(self._processed, f))
        job.then(0, partial(self._poll, job, q))

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
