"""A legal but unhelpful AXI4 host memory: cocotbext-axi's ``AxiRam`` with its channels
made difficult (F12, F25).

AXI4 (IHI 0022, A3.3.1) lets a slave wait for WVALID before it asserts AWREADY, accept W
beats before their AW, and take as long as it likes on every channel. A master that
waits for AWREADY before WVALID deadlocks against such a slave; ``AxiRam`` on its own
never waits, so a test with it alone cannot see that. :func:`make_unhelpful` adds, on the
same ``AxiRam``:

* ``aw_waits_for_w``: AWREADY only after the burst's first W beat has been accepted (so
  every burst's W starts before its AW is taken; ``AxiRam`` buffers up to two W beats);
* ``stall``: bursty random pauses on all five channels (AW, W and AR ready, B and R
  valid), runs of 1..12 cycles, each run paused with probability ``stall``.

Signals are sampled at falling edges (tb/common.py): a handshake seen there happens at the
next rising edge, which is also where ``AxiRam``'s channels sample ``pause``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import cocotb
from cocotb.triggers import FallingEdge
from cocotbext.axi import AxiRam


def pauses(rng: random.Random, p: float) -> Iterator[bool]:
    """Bursts of pause and of flow (runs of 1..12 cycles), so both short and long stalls happen."""
    while True:
        run = rng.randint(1, 12)
        val = p > 0 and rng.random() < p
        for _ in range(run):
            yield val


def make_unhelpful(ram: AxiRam, dut, prefix: str, clock, rng: random.Random, *, stall: float = 0.0,
                   aw_waits_for_w: bool = True) -> None:
    """Make ``ram`` (on the bus ``prefix``_* of ``dut``, clocked by ``clock``) a difficult
    slave; see the module doc."""
    wif, rif = ram.write_if, ram.read_if
    for n, ch in enumerate((wif.w_channel, wif.b_channel, rif.ar_channel, rif.r_channel)):
        if stall > 0:
            ch.set_pause_generator(pauses(random.Random(rng.getrandbits(32) + n), stall))
    aw = wif.aw_channel
    if stall > 0:
        aw.set_pause_generator(pauses(random.Random(rng.getrandbits(32)), stall))
    if not aw_waits_for_w:
        return
    sig = {name: getattr(dut, f"{prefix}_{name}") for name in ("awvalid", "awready", "wvalid", "wready", "wlast")}
    gate = _AwGate(aw, clock, sig)
    cocotb.start_soon(gate.run())


class _AwGate:
    """AW may be taken only for a burst whose first W beat has been accepted.

    The AW sink decides READY at each rising edge from ``full() or pause``, where
    ``pause`` was sampled a cycle earlier while the sink is busy; ``full()`` is asked at
    the edge itself. So the gate extends ``full()``: the counters it reads were updated at
    the falling edge just before, from the handshakes that edge will see."""

    def __init__(self, aw_channel, clock, sig: dict):
        self.aw, self.clock, self.sig = aw_channel, clock, sig
        self.w_started = 0   # bursts whose first W beat has been accepted
        self.aw_taken = 0    # AW handshakes
        full = aw_channel.full
        aw_channel.full = lambda: full() or self.aw_taken >= self.w_started

    async def run(self) -> None:
        sig = self.sig
        w_first = True  # the next W beat is the first of its burst
        while True:
            await FallingEdge(self.clock)
            was_open = self.aw_taken < self.w_started
            if sig["wvalid"].value == 1 and sig["wready"].value == 1:
                if w_first:
                    self.w_started += 1
                w_first = sig["wlast"].value == 1
            if sig["awvalid"].value == 1 and sig["awready"].value == 1:
                self.aw_taken += 1
            if self.aw_taken > self.w_started:
                raise AssertionError("unhelpful AXI memory: an AW was taken before its first W beat (the gate failed)")
            if not was_open and self.aw_taken < self.w_started:
                self.aw.wake_event.set()  # the sink sleeps while closed: let it see the gate at the next edge
