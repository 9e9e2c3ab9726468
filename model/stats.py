"""Golden model of the statistics block (F13, F25; docs/stats.md): counters in block RAM fed by
per-counter accumulators, one read-modify-write a scan slot, host reads on the other slots.

``Stats.step`` is one clock edge, from docs/stats.md's timing: the edges after reset
alternate between scan slots (even, the first edge is one) and host slots. A scan at edge s
reads word p and takes accumulator p (its value before s; p's increment at s starts the next
round), and the sum lands at s+4 (in the first round after reset the word is taken as 0);
a host request taken at t (while not busy) is read at h = t on a host slot, else t+1, and
answered after h+2 (0 before ``ready``, which rises with the first round's last write).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def acc_bits(n: int, inc_width: int) -> int:
    """Bits of an accumulator: 2n increments of inc_width bits never wrap it."""
    return inc_width + (2 * n - 1).bit_length()


@dataclass
class StatsOut:
    """The outputs after an edge."""

    rd_busy: bool = False
    rd_done: bool = False
    rd_data: int = 0
    ready: bool = False


class Stats:
    """N counters of ``cnt_width`` bits (docs/stats.md)."""

    def __init__(self, n: int, inc_width: int = 16, cnt_width: int = 64):
        if not 3 <= n <= 1024:
            raise ValueError(f"n must be 3..1024, not {n}")
        if not 1 <= inc_width <= 32:
            raise ValueError(f"inc_width must be 1..32, not {inc_width}")
        if not 34 <= cnt_width <= 64 or acc_bits(n, inc_width) >= cnt_width:
            raise ValueError(f"cnt_width must be 34..64 and wider than an accumulator, not {cnt_width}")
        self.n, self.inc_width, self.cnt_width = n, inc_width, cnt_width
        self.mask = (1 << cnt_width) - 1
        self.mem = [0] * n          # the RAM's words (never seen before they are written)
        self.out = StatsOut()
        self.reset()

    def reset(self) -> None:
        """An edge with rst high: accumulators and pipelines empty (the RAM keeps its words)."""
        self.edge = 0               # edges since reset: even ones are scan slots
        self.sp = 0
        self.pass1 = True
        self.acc = [0] * self.n
        self.writes: dict[int, tuple[int, int, bool]] = {}   # edge -> (word, value, the first round's last)
        self.pend: int | None = None                         # a request taken on a scan slot
        self.inflight: tuple[int, int] | None = None         # (edge it is answered at, value)
        self.out = StatsOut(rd_data=self.out.rd_data)

    @property
    def busy(self) -> bool:
        return self.pend is not None or self.inflight is not None

    def step(self, rst: bool = False, inc: Sequence[int] | None = None, rd_req: bool = False,
             rd_addr: int = 0) -> StatsOut:
        """One edge. ``inc[i]`` is counter i's increment at this edge (0: none)."""
        if rst:
            self.reset()
            return self.out
        e = self.edge
        incs = [0] * self.n if inc is None else list(inc)
        take = rd_req and not self.busy
        scan = e % 2 == 0
        done, data = False, self.out.rd_data
        if self.inflight is not None and self.inflight[0] == e:
            done, data = True, self.inflight[1]
            self.inflight = None
        if scan:
            p = self.sp
            word = 0 if self.pass1 else self.mem[p]
            last = self.pass1 and p == self.n - 1
            self.writes[e + 4] = (p, (word + self.acc[p]) & self.mask, last)
            for i, a in enumerate(incs):
                self.acc[i] = a if i == p else self.acc[i] + a
            self.sp = (p + 1) % self.n
            if p == self.n - 1:
                self.pass1 = False
            if take:
                self.pend = rd_addr
        else:
            for i, a in enumerate(incs):
                self.acc[i] += a
            if self.pend is not None or take:
                addr = self.pend if self.pend is not None else rd_addr
                self.inflight = (e + 2, self.mem[addr] if self.out.ready else 0)
                self.pend = None
        ready = self.out.ready
        if e in self.writes:                  # at most one write an edge: a scan's, 4 edges on
            p, value, last = self.writes.pop(e)
            self.mem[p] = value
            ready = ready or last
        self.edge += 1
        self.out = StatsOut(rd_busy=self.busy, rd_done=done, rd_data=data, ready=ready)
        return self.out
