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
        self.mask = 0
        self.log: list[tuple[int, str, int]] = []

    def lines(self) -> int:
        return self.cause & ~self.mask

    def set_mask(self, mask: int) -> None:
        self.mask = mask
        self.log.append((self.cpu.now, "mask", mask))

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


def _host(mode: str, deadline: int = 10_000, **kw) -> tuple[Host, FakeNic]:
    cpu = Cpu()
    nic = FakeNic(cpu, 2)
    cfg = HostConfig(**{"mode": mode, "queue_prio": (1, 2), "sockets": {5000: "critical", 8080: "app"},
                        "critical_prio": 2, "app_prio": 1, "deadline": deadline, "gate": mode == "prionic",
                        "costs": COSTS, **kw})
    return Host(cfg, nic, 2, cpu), nic


def _frames(q: int, at: int, *ports: int) -> list[RxFrame]:
    return [RxFrame(q, p, 64, at) for p in ports]


def _bulk_then_control(host: Host, nic: FakeNic) -> None:
    """A bulk frame on queue 0 with its irq at 0, a control frame on queue 1 with its irq at 150."""
    nic.ring[0] = [RxFrame(0, 8080, 100, 0)]
    nic.cause = 1
    host.irq_changed(0, 1)
    host.cpu.advance(150)
    nic.ring[1] = [RxFrame(1, 5000, 64, 140)]
    nic.cause |= 2
    host.irq_changed(150, 2)
    host.cpu.advance(10_000)


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
    _bulk_then_control(host, nic)
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


def test_timers_run_between_steps_in_time_order():
    """docs/host-cpu.md s2: a timer (Cpu.at) runs its action at its cycle, inside a running
    step, which then goes on with what it had left; at one cycle a step end runs first.
    Job 0..100; timers at 40 (releases a prio-5 job of 30: 40..70) and at 130 (after the
    job: 130); the first job ends at 130, before the timer at 130."""
    cpu = Cpu()
    seen: list[tuple[str, int]] = []
    cpu.release(Job("low", 1, "task", [(100, lambda t: seen.append(("low", t)))]), 0)
    cpu.at(130, lambda t: seen.append(("timer130", t)))
    cpu.at(40, lambda t: cpu.release(Job("high", 5, "task", [(30, lambda t2: seen.append(("high", t2)))])))
    assert cpu.next_event() == 40
    cpu.advance(1000)
    assert seen == [("high", 70), ("low", 130), ("timer130", 130)]
    assert cpu.busy["task"] == 130
    with pytest.raises(ValueError, match="timer"):
        cpu.at(10, lambda t: None)


def test_rtos_mode_one_network_task_below_the_critical_task():
    """F23 baseline "rtos" (FreeRTOS+TCP's IP task, threaded NAPI): one network task at
    net_prio 2 takes every frame, below the critical task (3), above the app (1). Control and
    app frames before the irq at 1000: ISR 1000..1100 (clear at 1050), net task: control
    1100..1300; the critical task preempts it 1300..2300 but an irq (a flood frame) at 1500
    preempts that: ISR 1500..1600 (the net task is already awake), critical ends at 2400:
    response 2400 - 900. Net task: app frame 2400..2600, flood 2600..2800 (stack drop); the
    app job (prio 1) 2800..2850. No RUN_PRIO write."""
    host, nic = _host("rtos", critical_prio=3, net_prio=2)
    nic.ring[0] = _frames(0, 900, 5000, 8080)
    nic.cause = 1
    host.irq_changed(1000, 1)
    host.cpu.advance(1500)
    nic.ring[0].append(RxFrame(0, 7000, 64, 1450))
    nic.cause = 1
    host.irq_changed(1500, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1500]
    assert host.stats.isr_runs == 2 and host.stats.isr_preempting_critical == 1
    assert host.stats.app_response == [2850 - 900]
    assert nic.log == [(1050, "clear", 1), (1300, "give_back", 0), (1550, "clear", 1), (2600, "give_back", 0),
                       (2800, "give_back", 0)]
    assert host.cpu.busy == {"isr": 200, "kernel": 0, "task": 600 + 1000 + 50}


def test_napi_mode_masks_polls_with_a_budget_and_unmasks_after_a_recheck():
    """F23 baseline "napi": the ISR masks its queue (at entry, 150) and clears the cause; the
    poll (softirq) takes at most napi_budget = 2 frames a round: 200..400, 400..600, round 2
    600..800; the ring is empty at 800: clear, re-check (a descriptor read after the posted
    write, 16 cycles of the softirq) 800..816, nothing: unmask at 816."""
    host, nic = _host("napi", napi_budget=2, recheck=16)
    nic.ring[0] = _frames(0, 0, 7000, 7000, 7000)
    nic.cause = 1
    host.irq_changed(100, 1)
    host.cpu.advance(10_000)
    assert nic.log == [(150, "mask", 1), (150, "clear", 1), (400, "give_back", 0), (600, "give_back", 0),
                       (800, "give_back", 0), (800, "clear", 1), (816, "mask", 0)]
    assert host.stats.polls == 2 and host.stats.stack_drops == 3
    assert host.cpu.busy == {"isr": 100, "kernel": 600 + 16, "task": 0}


def test_napi_mode_moves_long_polling_to_ksoftirqd():
    """F23 baseline "napi": once a round ends napi_thread (300) cycles or more after polling
    began, the rest runs in ksoftirqd at net_prio 1, below the critical task. A control frame
    and four flood frames, irq at 100: ISR 100..200; softirq: control 200..400, flood 400..600
    (budget 2 spent at 600, 400 cycles of polling: to the thread); the critical task (prio 2,
    released at 400) runs 600..1600: response 1600; ksoftirqd: the three floods 1600..2200,
    empty at 2200, re-check 2200..2216, unmask at 2216. In the softirq alone the critical task
    would end at 2200."""
    host, nic = _host("napi", napi_budget=2, napi_thread=300, net_prio=1, recheck=16)
    nic.ring[0] = _frames(0, 0, 5000, 7000, 7000, 7000, 7000)
    nic.cause = 1
    host.irq_changed(100, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1600]
    assert host.stats.thread_frames == 3
    assert [e for e in nic.log if e[1] != "give_back"] == [(150, "mask", 1), (150, "clear", 1), (2200, "clear", 1),
                                                          (2216, "mask", 0)]
    assert host.cpu.busy == {"isr": 100, "kernel": 400, "task": 1000 + 600 + 16}


def test_ratelimit_mode_switches_to_polling_and_back():
    """F23 baseline "ratelimit" (Behnke et al.'s rate-limited ISR): limit 2 ISRs in 1000
    cycles, then interrupts off and the ring polled every 500. App frame, irq at 0: ISR 0..100,
    net task 100..300, app job 300..350. App frame, irq at 400: the second ISR in the window
    (entry 450) masks every queue and sets the tick at 950; net 500..700, app 700..750. A
    control frame at 800 raises nothing (masked); the tick at 950 polls: net 950..1150, the
    critical task 1150..2150 (response 1350); ticks at 1450 and 1950 find the net task still
    busy (it resumes after the critical task, finds nothing at 2150); the tick at 2450 finds
    the ring empty: interrupts back on (unmask at 2450)."""
    host, nic = _host("ratelimit", rl_limit=2, rl_window=1000, rl_poll=500, net_prio=1)
    nic.ring[0] = _frames(0, 0, 8080)
    nic.cause = 1
    host.irq_changed(0, 1)
    host.cpu.advance(400)
    nic.ring[0] = _frames(0, 390, 8080) + _frames(0, 800, 5000)
    nic.cause = 1
    host.irq_changed(400, 1)
    host.cpu.advance(10_000)
    assert host.stats.isr_runs == 2
    assert host.stats.critical_response == [1350]
    assert host.stats.polls == 4
    assert [e for e in nic.log if e[1] != "give_back"] == [(50, "clear", 1), (450, "mask", 3), (450, "clear", 1),
                                                          (2450, "mask", 0)]
    assert [e[0] for e in nic.log if e[1] == "give_back"] == [300, 700, 1150]


def test_swdemux_mode_demultiplexes_in_the_driver_and_processes_at_the_receiver_priority():
    """F23 baseline "swdemux" (Behnke et al.'s early demultiplexing in the driver): the
    driver's poll (above every task) only reads each frame's port, 30 cycles a frame: flood
    200..230 (no socket: buffer back at once), control 230..260, app 260..290, flood 290..320;
    the control frame's protocol work at the critical priority 320..520, the critical task
    520..1520 (response 1520); the app frame's protocol work 1520..1720, the app 1720..1770."""
    host, nic = _host("swdemux")
    host.cfg.costs = Costs(isr=100, frame=200, byte_x1000=0, critical=1000, app=50, demux=30)
    nic.ring[0] = _frames(0, 0, 7000, 5000, 8080, 7000)
    nic.cause = 1
    host.irq_changed(100, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1520]
    assert host.stats.app_response == [1770]
    assert host.stats.stack_drops == 2
    assert [e[0] for e in nic.log if e[1] == "give_back"] == [230, 320, 520, 1720]
    assert host.cpu.busy == {"isr": 100, "kernel": 120, "task": 200 + 1000 + 200 + 50}


def test_multiqueue_mode_is_prionic_receive_without_gating():
    """F23 baseline "multiqueue" (n-tuple steering, a receive task per queue): the schedule of
    test_prionic_mode_... without a single RUN_PRIO write."""
    host, nic = _host("multiqueue")
    _bulk_then_control(host, nic)
    assert host.stats.critical_response == [1310]
    assert [e for e in nic.log if e[1] == "give_back"] == [(450, "give_back", 1), (1600, "give_back", 0)]
    assert host.stats.run_prio_writes == 0


def test_cost_profiles():
    """docs/host-cpu.md section 3: the Cortex-M class profile, and overrides."""
    m = Costs.profile("cortex-m")
    assert (m.isr, m.frame, m.demux) == (500, 1875, 188)
    assert Costs.profile("default") == Costs.from_us()
    assert Costs.profile("cortex-m", isr_us=3.0).isr == 375
    with pytest.raises(ValueError, match="profile"):
        Costs.profile("cortex-z")


def test_costs_from_microseconds():
    """docs/host-cpu.md section 3: defaults in microseconds at 125 MHz."""
    c = Costs.from_us()
    assert (c.isr, c.frame, c.critical, c.app) == (188, 500, 2500, 125)
    assert c.per_frame(1000) == 500 + 125
    with pytest.raises(ValueError):
        HostConfig(mode="linux")


def test_early_filter_drops_a_frame_of_no_socket_after_the_port_check():
    """F23 baselines with the driver's early frame filter (FreeRTOS+TCP's
    ipconfigETHERNET_DRIVER_FILTERS_PACKETS, the i210 host's port check): a frame of no socket
    costs the port check (demux, 30) alone and goes back at once. rtos, net task 2 below the
    critical task 3: flood and control before the irq at 1000; ISR 1000..1100; net task: the
    flood's port check 1100..1130 (buffer back), the control frame 1130..1330; the critical
    task 1330..2330: response 2330 - 900. Without the filter the flood would cost 200."""
    host, nic = _host("rtos", critical_prio=3, net_prio=2, early_filter=True)
    host.cfg.costs = Costs(isr=100, frame=200, byte_x1000=0, critical=1000, app=50, demux=30)
    nic.ring[0] = _frames(0, 900, 7000, 5000)
    nic.cause = 1
    host.irq_changed(1000, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1430]
    assert host.stats.early_drops == 1 and host.stats.stack_drops == 0
    assert [e[0] for e in nic.log if e[1] == "give_back"] == [1130, 1330]
    assert host.cpu.busy == {"isr": 100, "kernel": 0, "task": 30 + 200 + 1000}


def test_threaded_napi_polls_in_a_thread_below_the_critical_task():
    """F23 baseline "napi-threaded" (threaded NAPI, PREEMPT_RT style): every poll round runs
    in a thread at net_prio 1, below the critical task (2). Control and two floods, irq at 100:
    ISR 100..200 (mask and clear at 150); thread: control 200..400, the critical task preempts
    400..1400 (response 1400); thread: flood 1400..1600 (budget 2 spent: a new round, still in
    the thread), flood 1600..1800, empty: clear at 1800, re-check 1800..1816, unmask. The
    softirq would have run both floods first: the critical task would end at 1816."""
    host, nic = _host("napi", napi_budget=2, napi_threaded=True, net_prio=1, recheck=16)
    nic.ring[0] = _frames(0, 0, 5000, 7000, 7000)
    nic.cause = 1
    host.irq_changed(100, 1)
    host.cpu.advance(10_000)
    assert host.stats.critical_response == [1400]
    assert host.stats.thread_frames == 3 and host.stats.polls == 2
    assert [e for e in nic.log if e[1] != "give_back"] == [(150, "mask", 1), (150, "clear", 1), (1800, "clear", 1),
                                                          (1816, "mask", 0)]
    assert host.cpu.busy == {"isr": 100, "kernel": 0, "task": 600 + 16 + 1000}
    with pytest.raises(ValueError, match="napi setting"):
        HostConfig(mode="rtos", napi_threaded=True)


def test_the_drivers_start_mask_is_kept_by_napi_masking():
    """F23 baseline "i210": IRQ_MASK as the driver writes it at start (a sink queue whose
    interrupt it never enables, queue 1 here) is the host's view of the mask from the start:
    napi masks queue 0 on top of it (3) and unmasks back to it (2), never to 0."""
    host, nic = _host("napi", napi_budget=2, recheck=16, irq_mask=2)
    nic.mask = 2
    nic.ring[0] = _frames(0, 0, 7000)
    nic.cause = 1
    host.irq_changed(100, 1)
    host.cpu.advance(10_000)
    assert [e for e in nic.log if e[1] == "mask"] == [(150, "mask", 3), (416, "mask", 2)]
