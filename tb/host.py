"""Host model: memory layout, a driver that posts buffers, services interrupts and returns
buffers at random times, and the checker that no DMA write leaves what the host posted.

Host memory is cocotbext-axi's ``AxiRam``; the host touches it through the backdoor
(zero simulated time, like a CPU cache hit) and touches the NIC only through AXI4-Lite,
so every register write it makes is visible to the monitor and reaches the model.
"""

from __future__ import annotations

import random
import struct
from collections import deque
from dataclasses import dataclass, field

import cocotb
from cocotb.triggers import ClockCycles, Event

from model import regmap

DESC = regmap.DESC
RING_REGION = 0x0001_0000   # rings live here, 0x1000 apart
BUF_REGION = 0x0010_0000    # buffers live here, 0x4_0000 apart per queue
RAM_SIZE = 0x0080_0000


@dataclass
class QueueSetup:
    """Ring and moderation settings of one queue (docs/registers.md, queue block)."""

    ring_size: int = 16
    buf_size: int = 2048
    itr_frames: int = 0
    itr_pkt: int = 0
    itr_abs: int = 0
    itr_gap: int = 0
    immediate: bool = False

    def ring_base(self, q: int) -> int:
        return RING_REGION + 0x1000 * q

    def buf_addr(self, q: int, slot: int) -> int:
        return BUF_REGION + 0x4_0000 * q + slot * self.buf_size


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
    data: bytes
    info: int = 0   # write-back bytes 24-27 (frame-path.md s4)


@dataclass
class HostStats:
    isr_runs: int = 0
    returned: int = 0
    violations: list[str] = field(default_factory=list)


class HostDriver:
    """Posts buffers, services interrupts, returns buffers (F19 host driver model)."""

    def __init__(self, dut, axil, ram, setups: list[QueueSetup], rng: random.Random,
                 isr_delay: tuple[int, int] = (2, 40), return_delay: tuple[int, int] = (0, 400),
                 poll_period: int = 2000):
        self.dut = dut
        self.axil = axil
        self.ram = ram
        self.setups = setups
        self.nq = len(setups)
        self.rng = rng
        self.isr_delay = isr_delay
        self.return_delay = return_delay
        self.poll_period = poll_period
        self.delivered: list[list[Delivered]] = [[] for _ in setups]
        self.stats = HostStats()
        self._sw_head = [0] * self.nq
        self._tail = [0] * self.nq
        self._owned: list[set[int]] = [set() for _ in setups]   # slots the NIC may write
        self._consumed: list[deque[int]] = [deque() for _ in setups]
        self._irq_event = Event()
        self._tasks: list = []
        self.returning = True
        self.stalled: set[int] = set()  # queues whose buffers the host stops returning

    # ------------------------------------------------------------------ layout
    def writeback_slot(self, addr: int) -> tuple[int, int] | None:
        """(queue, slot) if ``addr`` is the start of a descriptor's write-back area."""
        for q, s in enumerate(self.setups):
            off = addr - s.ring_base(q) - DESC["writeback_offset"]
            if 0 <= off < s.ring_size * DESC["size"] and off % DESC["size"] == 0:
                return q, off // DESC["size"]
        return None

    def check_aw(self, burst) -> None:
        """Out-of-bounds checker: a write burst must lie inside a posted buffer or the
        write-back area of a posted descriptor (docs/frame-path.md section 4)."""
        for q, s in enumerate(self.setups):
            for slot in self._owned[q]:
                b = s.buf_addr(q, slot)
                if b <= burst.addr and burst.end <= b + s.buf_size:
                    return
                wb = s.ring_base(q) + slot * DESC["size"] + DESC["writeback_offset"]
                if wb <= burst.addr and burst.end <= wb + 16:
                    return
        self.stats.violations.append(
            f"cycle {burst.cycle}: write burst [0x{burst.addr:x}, 0x{burst.end:x}) is outside "
            "every buffer and descriptor the host has posted"
        )

    def on_irq(self, lines: int) -> None:
        if lines:
            self._irq_event.set()

    # ------------------------------------------------------------------ setup
    async def configure(self, tick_div: int, default_action: int,
                        rules: list[tuple[int, int]]) -> None:
        """Program rules, default action, time base and every queue; post all buffers."""
        w = self.axil.write_dword
        await w(regmap.addr("TICK_DIV"), tick_div)
        await w(regmap.addr("DEFAULT_ACTION"), default_action)
        for r, (ctrl, dport) in enumerate(rules):
            await w(regmap.addr("RULE_DPORT", r), dport)
            await w(regmap.addr("RULE_CTRL", r), ctrl)
        for q, s in enumerate(self.setups):
            base = s.ring_base(q)
            for slot in range(s.ring_size):
                self.ram.write(base + slot * DESC["size"],
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
            self._owned[q] = set(range(posted))
            self._tail[q] = posted % s.ring_size if s.ring_size else 0
            if s.ring_size >= 2:
                await w(regmap.addr("RING_TAIL", q), self._tail[q])

    def start(self) -> None:
        self._tasks = [cocotb.start_soon(self._isr()), cocotb.start_soon(self._poller())]
        self._tasks += [cocotb.start_soon(self._returner(q)) for q in range(self.nq)]

    def stop(self) -> None:
        for t in self._tasks:
            t.cancel()

    # ------------------------------------------------------------------ service
    def reap(self, q: int) -> int:
        """Read every completed descriptor of queue q (DD set), in ring order."""
        s = self.setups[q]
        n = 0
        while s.ring_size >= 2:
            slot = self._sw_head[q]
            d = s.ring_base(q) + slot * DESC["size"]
            wb = self.ram.read(d + DESC["writeback_offset"], 16)
            length, rule, qfield, ts, info, status = struct.unpack("<HBBIII", wb)
            if not status >> DESC["status_dd"] & 1:
                break
            data = self.ram.read(s.buf_addr(q, slot), length)
            self.delivered[q].append(Delivered(q, slot, length, rule, qfield, status, ts, data, info))
            self.ram.write(d + DESC["writeback_offset"], bytes(16))
            self._owned[q].discard(slot)
            self._consumed[q].append(slot)
            self._sw_head[q] = (slot + 1) % s.ring_size
            n += 1
        return n

    async def _isr(self) -> None:
        clk = self.dut.clk
        while True:
            await self._irq_event.wait()
            self._irq_event.clear()
            await ClockCycles(clk, self.rng.randint(*self.isr_delay))
            lines = int(self.dut.irq.value)
            if not lines:
                continue
            self.stats.isr_runs += 1
            await self.axil.write_dword(regmap.addr("IRQ_CAUSE"), lines)
            for q in range(self.nq):
                if lines >> q & 1:
                    self.reap(q)

    async def _poller(self) -> None:
        """Masked queues interrupt nobody: a slow poll still drains them."""
        while True:
            await ClockCycles(self.dut.clk, self.poll_period)
            for q in range(self.nq):
                self.reap(q)

    async def _returner(self, q: int) -> None:
        s = self.setups[q]
        while True:
            await ClockCycles(self.dut.clk, self.rng.randint(*self.return_delay) + 1)
            if not self.returning or q in self.stalled or not self._consumed[q]:
                continue
            # returning n buffers = posting the n slots from the tail on (the slots the
            # host consumed are re-posted when the tail comes round to them)
            n = self.rng.randint(1, len(self._consumed[q]))
            for _ in range(n):
                self._consumed[q].popleft()
                self._owned[q].add(self._tail[q])
                self._tail[q] = (self._tail[q] + 1) % s.ring_size
            self.stats.returned += n
            await self.axil.write_dword(regmap.addr("RING_TAIL", q), self._tail[q])
