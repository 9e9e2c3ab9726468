"""Host model: memory layout, a driver that posts buffers, services interrupts and returns
buffers at random times, and the checker that no DMA write leaves what the host posted.

The host reaches memory and registers through a port: on the bus path cocotbext-axi's
``AxiRam`` (through the backdoor: zero simulated time, like a CPU cache hit) and
``AxiLiteMaster`` (``BusPort``); on the fast path the HDL memory and AXI4-Lite master of
``tb/hdl/prionic_tb_fast.v`` (``tb.fast.fastpath.FastPort``). It touches the NIC only through
AXI4-Lite, so every register write it makes is visible to the monitor and reaches the model.
"""

from __future__ import annotations

import heapq
import random
import struct
from collections import deque
from dataclasses import dataclass, field

import cocotb
import numpy as np
from cocotb.task import Task
from cocotb.triggers import ClockCycles, First, Timer, ValueChange
from cocotb.utils import get_sim_time

from model import regmap
from tb.top.hostmem import DESC, QueueSetup


@dataclass
class Delivered:
    """A completion as the host read it from its ring."""

    queue: int
    slot: int
    length: int
    rule: int
    qfield: int
    status: int
    ts: int
    data: bytes | None   # None: only ``csum`` is known (a reused buffer of a long full-system run)
    info: int = 0   # write-back bytes 24-27 (frame-path.md s4)
    csum: int | None = None   # the host's ``fletcher32`` of the bytes it read, when ``data`` is None
    # (both None: the host read the write-back only, not the bytes)


def fletcher32(data: bytes) -> int:
    """The full-system firmware's checksum of a frame's bytes (sw/fw/net/rx.c net_checksum):
    Fletcher's two running sums over the little-endian 32-bit words (the last one padded
    with zeros), 32-bit, folded as s2 ^ s1 << 16."""
    words = np.frombuffer(data + bytes(-len(data) % 4), dtype="<u4")
    s1 = np.cumsum(words, dtype=np.uint64)
    a = int(s1[-1]) if len(s1) else 0
    b = int(s1.sum(dtype=np.uint64)) if len(s1) else 0
    return ((b & 0xFFFF_FFFF) ^ (a & 0xFFFF_FFFF) << 16) & 0xFFFF_FFFF


@dataclass
class HostStats:
    isr_runs: int = 0
    returned: int = 0
    violations: list[str] = field(default_factory=list)


def _falling_ps(clocked, edge: int) -> int:
    """Simulation time in ps of the falling edge after rising edge ``edge``."""
    return (clocked.t0 + edge * clocked.period) * 1000 + clocked.period * 500


async def until_falling_after(clocked, edge: int) -> None:
    """Sleep until the falling edge after rising edge ``edge`` (at once if it has passed)."""
    delta = _falling_ps(clocked, edge) - round(get_sim_time("ps"))
    if delta > 0:
        await Timer(delta, "ps")


class BusPort:
    """The bus path's host port: cocotbext-axi's AxiLiteMaster and AxiRam (F19)."""

    def __init__(self, axil, ram, clocked, irq):
        self.axil = axil
        self.ram = ram
        self.clocked = clocked
        self.irq = irq

    async def wait_until(self, edge: int) -> int:
        """Sleep until the falling edge after ``edge`` or, if the irq lines change first,
        until the falling edge after the edge that changed them; returns that edge."""
        clocked = self.clocked
        change = ValueChange(self.irq)
        fired = await First(Timer(_falling_ps(clocked, edge) - round(get_sim_time("ps")), "ps"), change)
        if fired is not change:
            return edge
        j = (round(get_sim_time("ns")) - clocked.t0) // clocked.period  # the edge that changed irq
        await Timer(clocked.period * 500, "ps")
        return j

    def post_write(self, addr: int, data: int) -> None:
        """Queue a register write and go on (the bus carries it from the next edge)."""
        self.axil.init_write(addr, data.to_bytes(4, "little"))

    async def write(self, addr: int, data: int) -> None:
        await self.axil.write_dword(addr, data)

    async def read(self, addr: int) -> int:
        return await self.axil.read_dword(addr)

    def mem_read(self, addr: int, n: int) -> bytes:
        return self.ram.read(addr, n)

    def mem_write(self, addr: int, data: bytes) -> None:
        self.ram.write(addr, data)


class HostDriver:
    """Posts buffers, services interrupts, returns buffers (F19 host driver model).

    One event loop, the same on both paths (docs/fastpath.md section 3): it sleeps until
    its next scheduled action or until the irq lines change (``port.wait_until``: a
    timer or an HDL alarm) and acts at the falling edge after edge m ("at m"), so that
    whatever it starts is first sampled at edge m+1 on either path. Actions: the ISR
    (``isr_delay`` cycles after the irq lines change to a non-zero value; reads the
    lines, writes IRQ_CAUSE, reaps those queues; an irq change while one is scheduled
    runs it once more, ``isr_delay`` after it), one returner per queue (armed when a
    reap consumes a buffer and none is pending, it runs ``return_delay`` + 1 cycles
    later: gives back some of the consumed buffers, writes RING_TAIL and re-arms while
    consumed buffers remain; an idle queue wakes nobody) and a poller (every
    ``poll_period`` cycles: reaps every queue, for masked queues).
    Register writes are posted, not awaited. Each action has its own random stream, so
    that the order of actions on one edge draws nothing. Ownership changes are logged
    with their cycle (``own_log``) so that the bounds check runs on the whole run
    afterwards (``check_bursts``).
    """

    def __init__(self, dut, port, setups: list[QueueSetup], rng: random.Random, clocked,
                 isr_delay: tuple[int, int] = (2, 40), return_delay: tuple[int, int] = (0, 400),
                 poll_period: int = 2000, irq=None):
        self.dut = dut
        self.port = port
        self.axil = getattr(port, "axil", None)  # the bus path's AxiLiteMaster (directed tests)
        self.setups = setups
        self.nq = len(setups)
        self.clocked = clocked
        self.irq = irq if irq is not None else dut.irq
        self.isr_rng = random.Random(rng.getrandbits(64))
        self.ret_rng = [random.Random(rng.getrandbits(64)) for _ in setups]
        self.isr_delay = isr_delay
        self.return_delay = return_delay
        self.poll_period = poll_period
        self.delivered: list[list[Delivered]] = [[] for _ in setups]
        self.lost: list[list[int]] = [[] for _ in setups]  # slots before HEAD without DD (WB_ERR)
        self.stats = HostStats()
        self.own_log: list[tuple[int, int, int, int]] = []  # (cycle, q, slot, +1 posted / -1 reaped)
        self._sw_head = [0] * self.nq
        self._tail = [0] * self.nq
        self._owned: list[set[int]] = [set() for _ in setups]   # slots the NIC may write
        self._consumed: list[deque[int]] = [deque() for _ in setups]
        self._return_armed = [False] * self.nq
        self._heap: list[tuple[int, int, str, int]] = []   # (cycle, seq, action, queue)
        self._seq = 0
        self._isr_scheduled = False
        self._isr_again = False
        self._now = -1
        self._irq_last = 0
        self._task: Task[None] | None = None
        self.returning = True
        self.stalled: set[int] = set()  # queues whose buffers the host stops returning

    def reset_state(self) -> None:
        """Forget everything about the NIC (after a reset of it, F24): nothing posted,
        nothing delivered, no ownership history; call ``configure`` and ``start`` again."""
        self.stop()
        self.delivered = [[] for _ in self.setups]
        self.lost = [[] for _ in self.setups]
        self.stats = HostStats()
        self.own_log = []
        self._sw_head = [0] * self.nq
        self._tail = [0] * self.nq
        self._owned = [set() for _ in self.setups]
        self._consumed = [deque() for _ in self.setups]
        self._return_armed = [False] * self.nq
        self._heap = []
        self._isr_scheduled = False
        self._isr_again = False
        self.stalled = set()
        self._now = -1

    # ------------------------------------------------------------------ layout
    def writeback_slot(self, addr: int) -> tuple[int, int] | None:
        """(queue, slot) if ``addr`` is the start of a descriptor's write-back area."""
        for q, s in enumerate(self.setups):
            off = addr - s.ring_base(q) - DESC["writeback_offset"]
            if 0 <= off < s.ring_size * DESC["size"] and off % DESC["size"] == 0:
                return q, off // DESC["size"]
        return None

    def check_bursts(self, bursts) -> list[str]:
        """Out-of-bounds checker: every write burst must lie inside a buffer or the
        write-back area of a descriptor the host had posted before the burst's AW edge
        (docs/frame-path.md section 4). Returns the violations (also kept in ``stats``)."""
        owned: list[set[int]] = [set() for _ in self.setups]
        log = sorted(self.own_log, key=lambda e: e[0])
        li = 0
        out = []
        for burst in sorted(bursts, key=lambda b: b.cycle):
            while li < len(log) and log[li][0] < burst.cycle:
                _c, q, slot, d = log[li]
                (owned[q].add if d > 0 else owned[q].discard)(slot)
                li += 1
            if not self._inside(burst, owned):
                out.append(f"cycle {burst.cycle}: write burst [0x{burst.addr:x}, 0x{burst.end:x}) is outside "
                           "every buffer and descriptor the host has posted")
        self.stats.violations += out
        return out

    def _inside(self, burst, owned: list[set[int]]) -> bool:
        for q, s in enumerate(self.setups):
            for slot in owned[q]:
                b = s.buf_addr(q, slot)
                if b <= burst.addr and burst.end <= b + s.buf_size:
                    return True
                wb = s.ring_base(q) + slot * DESC["size"] + DESC["writeback_offset"]
                if wb <= burst.addr and burst.end <= wb + 16:
                    return True
        return False

    def _own(self, q: int, slot: int, posted: bool) -> None:
        (self._owned[q].add if posted else self._owned[q].discard)(slot)
        self.own_log.append((self._now, q, slot, 1 if posted else -1))

    # ------------------------------------------------------------------ setup
    async def configure(self, tick_div: int, default_action: int,
                        rules: list[tuple[int, int]]) -> None:
        """Program rules, default action, time base and every queue; post all buffers.
        Each write is awaited before the next (both paths)."""
        w = self.port.write
        await w(regmap.addr("TICK_DIV"), tick_div)
        await w(regmap.addr("DEFAULT_ACTION"), default_action)
        for r, (ctrl, dport) in enumerate(rules):
            await w(regmap.addr("RULE_DPORT", r), dport)
            await w(regmap.addr("RULE_CTRL", r), ctrl)
        for q, s in enumerate(self.setups):
            base = s.ring_base(q)
            for slot in range(s.ring_size):
                self.port.mem_write(base + slot * DESC["size"],
                                    struct.pack("<QQ", s.buf_addr(q, slot), 0) + bytes(16))
            await w(regmap.addr("RING_BASE_HI", q), base >> 32)
            await w(regmap.addr("RING_BASE_LO", q), base & 0xFFFF_FFFF)
            await w(regmap.addr("RING_SIZE", q), s.ring_size)
            await w(regmap.addr("BUF_SIZE", q), s.buf_size)
            await w(regmap.addr("ITR_FRAMES", q), s.itr_frames)
            await w(regmap.addr("ITR_PKT", q), s.itr_pkt)
            await w(regmap.addr("ITR_ABS", q), s.itr_abs)
            await w(regmap.addr("ITR_GAP", q), s.itr_gap)
            await w(regmap.addr("ITR_CTRL", q), int(s.immediate) << regmap.FIELDS["ITR_CTRL_IMMEDIATE"])
            posted = max(s.ring_size - 1, 0)
            for slot in range(posted):
                self._own(q, slot, True)
            self._tail[q] = posted % s.ring_size if s.ring_size else 0
            if s.ring_size >= 2:
                await w(regmap.addr("RING_TAIL", q), self._tail[q])

    async def recover(self, q: int, base_hi: int = 0, poll: int = 20, bufs: dict[int, int] | None = None,
                      win: tuple[int, int] | None = None) -> int:
        """The driver's recovery of queue q after a DMA error, or any ring reprogramming
        (F24, docs/faults.md): disable the queue, poll QUEUE_STATUS until DRAINED (no
        frame admitted to it is left, so the NIC will never write its ring again), reap
        what it completed, rewrite every descriptor, reprogram the ring (RING_BASE_HI with
        ``base_hi``, RING_BASE_LO, RING_SIZE: HEAD and TAIL restart at 0 and the queue's
        error is cleared), post every buffer and enable the queue. Returns the edge after
        which DRAINED was read as 1. ``bufs`` (tests): buffer addresses other than the
        layout's for some slots. ``win`` (base, bits): the queue's DMA window, written with
        the ring (DMA_WIN_HI, DMA_WIN_LO, DMA_WIN_BITS; F24)."""
        s = self.setups[q]
        w, r = self.port.write, self.port.read
        self.stalled.add(q)  # the returner keeps away while the ring is rebuilt
        await w(regmap.addr("QUEUE_CTRL", q), 0)
        drained = 1 << regmap.FIELDS["QUEUE_STATUS_DRAINED"]
        for _ in range(10000):
            if await r(regmap.addr("QUEUE_STATUS", q)) & drained:
                break
            await ClockCycles(self.dut.clk, poll)
        else:
            raise AssertionError(f"queue {q} never drained")
        t_drained = self.clocked.now_cycle()
        head = await r(regmap.addr("RING_HEAD", q))
        self._now = self.clocked.now_cycle()
        self.reap(q, head)  # what the NIC completed, no further (a flushed frame's slot is at HEAD)
        for slot in list(self._owned[q]):
            self._own(q, slot, False)
        self._consumed[q].clear()
        base = s.ring_base(q)
        for slot in range(s.ring_size):
            addr = (bufs or {}).get(slot, s.buf_addr(q, slot))
            self.port.mem_write(base + slot * DESC["size"], struct.pack("<QQ", addr, 0) + bytes(16))
        if win is not None:
            await w(regmap.addr("DMA_WIN_HI", q), win[0] >> 32)
            await w(regmap.addr("DMA_WIN_LO", q), win[0] & 0xFFFF_FFFF)
            await w(regmap.addr("DMA_WIN_BITS", q), win[1])
        await w(regmap.addr("RING_BASE_HI", q), base_hi)
        await w(regmap.addr("RING_BASE_LO", q), base & 0xFFFF_FFFF)
        await w(regmap.addr("RING_SIZE", q), s.ring_size)
        self._sw_head[q] = 0
        posted = max(s.ring_size - 1, 0)
        self._now = self.clocked.now_cycle()
        for slot in range(posted):
            self._own(q, slot, True)
        self._tail[q] = posted % s.ring_size if s.ring_size else 0
        if s.ring_size >= 2:
            await w(regmap.addr("RING_TAIL", q), self._tail[q])
        await w(regmap.addr("QUEUE_CTRL", q), 1)
        self.stalled.discard(q)
        return t_drained

    def start(self) -> None:
        """Start the event loop at the current edge (call right after an edge)."""
        now = self.clocked.now_cycle()
        self._now = now
        self._irq_last = int(self.irq.value)
        self._schedule(now + self.poll_period, "poll", 0)
        self._task = cocotb.start_soon(self._loop())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    # ------------------------------------------------------------------ service
    def reap(self, q: int, head: int | None = None) -> int:
        """Read every completed descriptor of queue q (DD set), in ring order; with ``head``
        (RING_HEAD as read, the recovery), every slot before it and none from it on: a slot
        before HEAD without DD is a write-back lost to WB_ERR (docs/faults.md section 3), skipped."""
        n = 0
        while self._sw_head[q] != head:
            if self.reap_next(q) is None:
                if head is None or self.setups[q].ring_size < 2:
                    break
                slot = self._sw_head[q]
                self.lost[q].append(slot)
                self._own(q, slot, False)
                self._consumed[q].append(slot)
                self._sw_head[q] = (slot + 1) % self.setups[q].ring_size
            self._arm_return(q)
            n += 1
        return n

    def reap_next(self, q: int) -> Delivered | None:
        """Read queue q's next descriptor if it is done (DD set): the frame is delivered,
        the slot consumed (not yet posted again); None when it is not done."""
        s = self.setups[q]
        if s.ring_size < 2:
            return None
        slot = self._sw_head[q]
        d = s.ring_base(q) + slot * DESC["size"]
        wb = self.port.mem_read(d + DESC["writeback_offset"], 16)
        length, rule, qfield, ts, info, status = struct.unpack("<HBBIII", wb)
        if not status >> DESC["status_dd"] & 1:
            return None
        data = self.port.mem_read(s.buf_addr(q, slot), length)
        got = Delivered(q, slot, length, rule, qfield, status, ts, data, info)
        self.delivered[q].append(got)
        self.port.mem_write(d + DESC["writeback_offset"], bytes(16))
        self._own(q, slot, False)
        self._consumed[q].append(slot)
        self._sw_head[q] = (slot + 1) % s.ring_size
        return got

    def give_back_one(self, q: int) -> None:
        """Post queue q's oldest consumed buffer again: the slot at the tail (RING_TAIL write)."""
        s = self.setups[q]
        self._consumed[q].popleft()
        self._own(q, self._tail[q], True)
        self._tail[q] = (self._tail[q] + 1) % s.ring_size
        self.stats.returned += 1
        self.port.post_write(regmap.addr("RING_TAIL", q), self._tail[q])

    def reap_all(self, heads: dict[int, int] | None = None) -> None:
        """Reap every queue now, outside the event loop (after ``stop``, at the end of a run):
        the ownership log takes the current edge, not the loop's last wake-up, which may
        be long past (a burst after that wake-up would look like a write to a reaped buffer).
        ``heads``: RING_HEAD as read for the queues stopped by a DMA error, reaped up to it
        (:meth:`reap`), so that a write-back lost before HEAD does not hide the slots after it."""
        self._now = self.clocked.now_cycle()
        for q in range(self.nq):
            self.reap(q, (heads or {}).get(q))

    def _schedule(self, cycle: int, action: str, q: int) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (cycle, self._seq, action, q))

    async def _loop(self) -> None:
        while True:
            m = self._heap[0][0]
            if m <= self._now:
                self._run_due(m)
                continue
            # woken at the falling edge after edge j: m, or earlier when the irq lines changed
            j = await self.port.wait_until(m)
            self._now = j
            lines = int(self.irq.value)
            if lines != self._irq_last:
                self._irq_last = lines
                if lines:
                    self._irq_seen(j)
            self._run_due(j)

    def _run_due(self, m: int) -> None:
        self._now = m
        while self._heap and self._heap[0][0] <= m:
            _c, _s, action, q = heapq.heappop(self._heap)
            if action == "isr":
                self._isr(m)
            elif action == "return":
                self._return(q, m)
            else:
                for qq in range(self.nq):
                    self.reap(qq)
                self._schedule(m + self.poll_period, "poll", 0)

    def _irq_seen(self, j: int) -> None:
        if self._isr_scheduled:
            self._isr_again = True
        else:
            self._isr_scheduled = True
            self._schedule(j + self.isr_rng.randint(*self.isr_delay), "isr", 0)

    def _isr(self, m: int) -> None:
        lines = int(self.irq.value)
        if lines:
            self.stats.isr_runs += 1
            self.port.post_write(regmap.addr("IRQ_CAUSE"), lines)
            for q in range(self.nq):
                if lines >> q & 1:
                    self.reap(q)
        if self._isr_again:
            self._isr_again = False
            self._schedule(m + self.isr_rng.randint(*self.isr_delay), "isr", 0)
        else:
            self._isr_scheduled = False

    def _return(self, q: int, m: int) -> None:
        s = self.setups[q]
        rng = self.ret_rng[q]
        if self.returning and q not in self.stalled and self._consumed[q]:
            # returning n buffers = posting the n slots from the tail on (the slots the
            # host consumed are re-posted when the tail comes round to them)
            n = rng.randint(1, len(self._consumed[q]))
            for _ in range(n):
                self._consumed[q].popleft()
                self._own(q, self._tail[q], True)
                self._tail[q] = (self._tail[q] + 1) % s.ring_size
            self.stats.returned += n
            self.port.post_write(regmap.addr("RING_TAIL", q), self._tail[q])
        self._return_armed[q] = False
        if self._consumed[q] and self.returning and q not in self.stalled:
            self._arm_return(q)

    def _arm_return(self, q: int) -> None:
        """Schedule queue q's returner (return_delay + 1 cycles from now) unless pending."""
        if not self._return_armed[q]:
            self._return_armed[q] = True
            self._schedule(self._now + self.ret_rng[q].randint(*self.return_delay) + 1, "return", q)
