"""The scheduler of the host CPU model (F21, F23; docs/host-cpu.md section 2): one CPU,
preemptive fixed-priority scheduling, timers.

:class:`Cpu` runs jobs with a priority and a list of steps, each step a cost in cycles and
an action run when the step's cycles have been spent. The highest priority ready job
runs; a job released at a higher priority preempts at once; among equal priorities the
earlier release runs first (so ISRs, all at :data:`ISR_PRIO`, never nest). Time is in
cycles of the NIC clock, so the model and the NIC share one time line. The operating
system on top of it is :class:`model.cpu.Host`.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable

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
        self._timers: list[tuple[int, int, Action]] = []   # (cycle, seq, action): Cpu.at
        self.busy: dict[str, int] = {"isr": 0, "kernel": 0, "task": 0}
        self.on_change: Callable[[int], None] | None = None   # after every release or step end

    # ---------------------------------------------------------------- state
    def running(self) -> Job | None:
        """The job that runs now: the highest priority ready job, the earliest released first."""
        r = self._ready
        while r and r[0][2].done:
            heapq.heappop(r)
        return r[0][2] if r else None

    def task_prio(self) -> int:
        """Priority of the current task: the highest ready job of kind ``task`` (0: idle)."""
        t = self._tasks
        while t and t[0][2].done:
            heapq.heappop(t)
        return t[0][2].prio if t else 0

    def next_event(self) -> int | None:
        """Cycle of the next thing the CPU does: the running job's current step ends, or a
        timer (:meth:`at`) expires (None: idle and no timer)."""
        j = self.running()
        step = None if j is None else self.now + j.left
        tm = self._timers[0][0] if self._timers else None
        if step is None:
            return tm
        return step if tm is None else min(step, tm)

    def at(self, t: int, action: Action) -> None:
        """A timer: run ``action(t)`` at cycle ``t`` (a hardware timer's interrupt handler of
        no cost, e.g. a tick that releases a job). At one cycle, step ends run before timers,
        timers in the order they were set."""
        if t < self.now:
            raise ValueError(f"the CPU is at cycle {self.now}; a timer cannot expire at {t}")
        self._seq += 1
        heapq.heappush(self._timers, (t, self._seq, action))

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
            tm = self._timers[0][0] if self._timers else None
            end = None if j is None else self.now + j.left
            if tm is not None and tm <= t and (end is None or tm < end):
                if j is not None:
                    self.busy[j.kind] += tm - self.now
                    j.left -= tm - self.now
                self.now = tm
                _t, _s, act = heapq.heappop(self._timers)
                act(tm)
                self._changed()
                continue
            if j is None or end is None:
                self.now = t
                return
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
        if self.on_change is not None:
            self.on_change(self.now)
