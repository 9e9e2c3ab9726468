"""Host CPU model (model/cpu.py, docs/host-cpu.md; F21, F23): schedules computed by hand.

Each test states the schedule it expects in its docstring, cycle by cycle, worked out from
docs/host-cpu.md, and compares the model's action cycles with it.
"""

from __future__ import annotations

import pytest

from model.cpu import ISR_PRIO, Costs, Cpu, Host, HostConfig, Job, RxFrame


def test_preemption_and_resume():
    """F21: a job released at a higher priority preempts at once; the preempted one resumes
    with what it had left. low (prio 1, 100 cycles) at 0; high (prio 5, 30) at 40:
    high runs 40..70, low ends at 100 + 30 = 130."""
    cpu = Cpu()
    ends: dict[str, int] = {}
    cpu.release(Job("low", 1, "task", [(100, lambda t: ends.__setitem__("low", t))]), 0)
    cpu.release(Job("high", 5, "task", [(30, lambda t: ends.__setitem__("high", t))]), 40)
    cpu.advance(1000)
    assert ends == {"high": 70, "low": 130}
    assert cpu.busy["task"] == 130
    assert cpu.running() is None


def test_equal_priority_is_fifo_and_isrs_do_not_nest():
    """F21: equal priorities run in release order, so an ISR released while another ISR runs
    waits for it: isr A 0..50, isr B (released at 10) 50..100, task (released at 0) 100..120."""
    cpu = Cpu()
    ends: list[tuple[str, int]] = []
    cpu.release(Job("task", 3, "task", [(20, lambda t: ends.append(("task", t)))]), 0)
    cpu.release(Job("A", ISR_PRIO, "isr", [(50, lambda t: ends.append(("A", t)))]), 0)
    cpu.release(Job("B", ISR_PRIO, "isr", [(50, lambda t: ends.append(("B", t)))]), 10)
    cpu.advance(500)
    assert ends == [("A", 50), ("B", 100), ("task", 120)]
    assert cpu.busy == {"isr": 100, "kernel": 0, "task": 20}


def test_steps_appended_by_an_action_run_in_order():
    """F21: an action may append steps; zero-cost steps run at the cycle their predecessor ends.
    Steps 10, then (appended at 10) 5 and 0: actions at 10, 15, 15."""
    cpu = Cpu()
    seen: list[tuple[str, int]] = []
    job = Job("j", 1, "task", [(10, None)])

    def first(t: int) -> None:
        seen.append(("first", t))
        job.then(5, lambda t2: seen.append(("second", t2)))
        job.then(0, lambda t3: seen.append(("third", t3)))

    job.steps[0] = (10, first)
    cpu.release(job, 0)
    cpu.advance(100)
    assert seen == [("first", 10), ("second", 15), ("third", 15)]
    with pytest.raises(ValueError, match="cannot go back"):
        cpu.advance(50)


class FakeNic:
    """A NIC port over Python lists: completions appear when a test puts them there."""

    def __init__(self, cpu: Cpu, nq: int) -> None:
        self.cpu = cpu
        self.ring: list[list[RxFrame]] = [[] for _ in range(nq)]
        self.cause = 0
        self.log: list[tuple[int, str, int]] = []

    def lines(self) -> int:
        return self.cause

    def clear_cause(self, mask: int) -> None:
        self.cause &= ~mask
        self.log.append((self.cpu.now, "clear", mask))

    def reap_one(self, q: int) -> RxFrame | None:
        if self.ring[q] and self.ring[q][0].arrival <= self.cpu.now:
            return self.ring[q].pop(0)
        return None

    def give_back(self, q: int) -> None:
        self.log.append((self.cpu.now, "give_back", q))

    def set_run_prio(self, prio: int) -> None:
        self.log.append((self.cpu.now, "run_prio", prio))


COSTS = Costs(isr=100, frame=200, byte_x1000=0, critical=1000, app=50)


def _host(mode: str, deadline: int = 10_000) -> tuple[Host, FakeNic]:
    cpu = Cpu()
    nic = FakeNic(cpu, 2)
    cfg = HostConfig(mode=mode, queue_prio=(1, 2), sockets={5000: "critical", 8080: "app"},
                     critical_prio=2, app_prio=1, deadline=deadline, gate=mode == "prionic", costs=COSTS)
    return Host(cfg, nic, 2, cpu), nic


def test_kernel_mode_processes_every_frame_above_every_task():
    """F23 conventional NIC: one queue; a control frame (5000) and two flood frames (7000, no
    socket) complete before the irq at 1000. ISR 1000..1100 (clears, wakes the softirq);
    softirq: control frame 1100..1300 (then the critical task is ready), flood 1300..1500,
    flood 1500..1700 (stack drops); the critical task runs 1700..2700: response 2700 - 900.
    The buffers go back at 1300, 1500, 1700. No RUN_PRIO write (no gating)."""
    host, nic = _host("kernel")
    nic.ring[0] = [RxFrame(0, 5000, 64, 900), RxFrame(0, 7000, 60, 950), RxFrame(0, 7000, 60, 960)]
    nic.cause = 1
    host.irq_changed(1000, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1800]
    assert host.stats.stack_drops == 2
    assert host.stats.isr_runs == 1
    assert nic.log == [(1050, "clear", 1), (1300, "give_back", 0), (1500, "give_back", 0), (1700, "give_back", 0)]
    assert host.cpu.busy == {"isr": 100, "kernel": 600, "task": 1000}


def test_prionic_mode_runs_receive_work_at_the_queue_priority_and_writes_run_prio():
    """F16, F23 prionic: a bulk frame on queue 0 (prio 1) is being processed when the control
    frame's irq (queue 1) comes. irq q0 at 0: ISR 0..100, rx0 (prio 1) starts at 100:
    RUN_PRIO 1 at 100. irq q1 at 150: ISR 150..250 preempts rx0 (50 of 200 done);
    rx1 (prio 2) 250..450, RUN_PRIO 2 at 250; critical (prio 2, after rx1 in FIFO order)
    450..1450; rx0 resumes 1450..1600 (RUN_PRIO 1 at 1450), its app job 1600..1650;
    RUN_PRIO 0 at 1650. Response of the control frame: 1450 - 140."""
    host, nic = _host("prionic")
    nic.ring[0] = [RxFrame(0, 8080, 100, 0)]
    nic.cause = 1
    host.irq_changed(0, 1)
    host.cpu.advance(150)
    nic.ring[1] = [RxFrame(1, 5000, 64, 140)]
    nic.cause |= 2
    host.irq_changed(150, 2)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1310]
    assert host.stats.consumed == {5000: 1, 8080: 1}
    assert [e for e in nic.log if e[1] == "run_prio"] == [(100, "run_prio", 1), (250, "run_prio", 2),
                                                         (1450, "run_prio", 1), (1650, "run_prio", 0)]
    assert [e for e in nic.log if e[1] == "give_back"] == [(450, "give_back", 1), (1600, "give_back", 0)]


def test_isr_preempting_the_critical_task_and_deadline_misses():
    """F23: an irq while the critical job runs is counted as preempting it, and delays it by
    the ISR and the receive work above it (kernel mode). Control frame at 0, irq at 0:
    ISR 0..100, softirq 100..300, critical 300..1300 but an irq at 500 (flood frame):
    ISR 500..600, softirq 600..800: the critical task ends at 1600, response 1600 > 1500."""
    host, nic = _host("kernel", deadline=1500)
    nic.ring[0] = [RxFrame(0, 5000, 64, 0)]
    nic.cause = 1
    host.irq_changed(0, 1)
    host.cpu.advance(500)
    nic.ring[0].append(RxFrame(0, 7000, 60, 450))
    nic.cause = 1
    host.irq_changed(500, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1600]
    assert host.stats.isr_preempting_critical == 1
    assert host.stats.deadline_misses == 1


def test_level_triggered_isr_runs_again_while_the_lines_are_high():
    """F21: the interrupt is level triggered. ISR 0..100 reads and clears queue 0's cause at
    50; queue 1's cause rises at 60 (ignored while the ISR runs); at its exit (100) the lines
    are still high, so it runs again 100..200 and clears queue 1 at 150. A cause gone before
    the ISR reads it costs the ISR and clears nothing."""
    host, nic = _host("prionic")
    nic.cause = 1
    host.irq_changed(0, 1)
    host.cpu.advance(60)
    nic.cause |= 2
    host.irq_changed(60, 2)
    host.cpu.advance(1000)
    assert host.stats.isr_runs == 2
    assert [e for e in nic.log if e[1] == "clear"] == [(50, "clear", 1), (150, "clear", 2)]
    host.irq_changed(1000, 1)
    host.cpu.advance(1020)
    nic.cause = 0
    host.cpu.advance(2000)
    assert host.stats.isr_runs == 3   # a spurious interrupt: it finds nothing, clears nothing
    assert [e for e in nic.log if e[1] == "clear"] == [(50, "clear", 1), (150, "clear", 2)]


def test_costs_from_microseconds():
    """docs/host-cpu.md section 3: defaults in microseconds at 125 MHz."""
    c = Costs.from_us()
    assert (c.isr, c.frame, c.critical, c.app) == (188, 500, 2500, 125)
    assert c.per_frame(1000) == 500 + 125
    with pytest.raises(ValueError):
        HostConfig(mode="linux")
