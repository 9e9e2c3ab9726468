"""The host CPU model in the loop of a co-simulation (F21, F23; docs/host-cpu.md section 5).

``CpuHostDriver`` is the host driver of a scenario with a ``[cpu]`` table: instead of the
random ISR and return delays of :class:`tb.top.host.HostDriver`, a modelled CPU
(:mod:`model.cpu`) decides when the ISR runs, when each descriptor is reaped, when each
buffer goes back and, with gating, when ``RUN_PRIO`` changes; the NIC's interrupts in turn
drive the CPU. Both run on the NIC's cycle count, so a run is the cycle-accurate RTL and a
modelled CPU reacting to each other. It works on either port (bus or fast path) and keeps
``HostDriver``'s ownership log, so the out-of-bounds check and the scoreboard are unchanged.
"""

from __future__ import annotations

import struct

import cocotb

from model import regmap
from model.cpu import Host, HostConfig, RxFrame
from tb.top.host import HostDriver

NEVER = 1 << 62


def dport_of(data: bytes) -> int:
    """The UDP/TCP destination port of an Ethernet frame, as the host's stack demultiplexes it
    (up to two VLAN tags; IPv4 first fragments; IPv6 without extension headers); -1 if none."""
    pos, etype = 12, None
    for _ in range(3):
        if len(data) < pos + 2:
            return -1
        etype = struct.unpack_from(">H", data, pos)[0]
        if etype not in (0x8100, 0x88A8):
            break
        pos += 4
    pos += 2
    if etype == 0x0800 and len(data) >= pos + 20:
        ihl = (data[pos] & 0xF) * 4
        proto = data[pos + 9]
        frag_off = struct.unpack_from(">H", data, pos + 6)[0] & 0x1FFF
        if frag_off:
            return -1
        l4 = pos + ihl
    elif etype == 0x86DD and len(data) >= pos + 40:
        proto = data[pos + 6]
        l4 = pos + 40
    else:
        return -1
    if proto not in (6, 17) or len(data) < l4 + 4:
        return -1
    return struct.unpack_from(">H", data, l4 + 2)[0]


class CpuHostDriver(HostDriver):
    """A host driver whose every action is timed by a modelled CPU (docs/host-cpu.md s5)."""

    def __init__(self, dut, port, setups, rng, clocked, cpu: HostConfig, irq=None, **_ignored):
        super().__init__(dut, port, setups, rng, clocked, irq=irq)
        self.cpu_cfg = cpu
        self.os = Host(cpu, self, len(setups))
        self.arrival_wrap = 0

    # ---------------------------------------------------------------- NicPort
    def lines(self) -> int:
        return int(self.irq.value)

    def clear_cause(self, mask: int) -> None:
        self.port.post_write(regmap.addr("IRQ_CAUSE"), mask)

    def set_mask(self, mask: int) -> None:
        self.port.post_write(regmap.addr("IRQ_MASK"), mask)

    def reap_one(self, q: int) -> RxFrame | None:
        d = self.reap_next(q)
        if d is None:
            return None
        # the descriptor's timestamp is T mod 2**32; the run is far shorter than 2**32 cycles
        arrival = self._now - ((self._now - d.ts) & 0xFFFF_FFFF)
        return RxFrame(q, dport_of(d.data), d.length, arrival)

    def give_back(self, q: int) -> None:
        self.give_back_one(q)

    def set_run_prio(self, prio: int) -> None:
        self.port.post_write(regmap.addr("RUN_PRIO"), prio)

    # ---------------------------------------------------------------- event loop
    def start(self) -> None:
        now = self.clocked.now_cycle()
        self._now = now
        self.os.cpu.advance(now)
        self._irq_last = int(self.irq.value)
        if self._irq_last:
            self.os.irq_changed(now, self._irq_last)
        self._task = cocotb.start_soon(self._loop())

    async def _loop(self) -> None:
        cpu = self.os.cpu
        while True:
            nxt = cpu.next_event()
            # woken at the falling edge after edge j: the CPU's next step end, or earlier
            # when the irq lines changed; what the CPU does "at j" is sampled at j + 1
            j = await self.port.wait_until(NEVER if nxt is None else nxt)
            self._now = j
            cpu.advance(j)
            lines = int(self.irq.value)
            if lines != self._irq_last:
                self._irq_last = lines
                self.os.irq_changed(j, lines)
                cpu.advance(j)   # steps of no cost that the ISR's release made due now

    def reap_all(self, heads: dict[int, int] | None = None) -> None:
        """End of run: reap what is left, outside the CPU model (not counted in its figures)."""
        super().reap_all(heads)
