"""Golden model of the statistics block (F13, F25; docs/stats.md): counters in block RAM fed by
per-counter accumulators, one read-modify-write at every edge, host reads answered by the scan.

``Stats.step`` is one clock edge, from docs/stats.md: at edge k (the first edge after reset is
edge 0) the scan takes accumulator p = k mod N (its value before k; p's registered increment,
that of edge k-1, is its new value: the increments are registered before the accumulators add
them); the model keeps the accumulators to check their bound, not the RAM's words, which no
output shows. A request for counter a taken at edge t (rd_req while not busy, a < N) is
answered at s+4, s the first edge after t at which the scan takes a, with the counter's value
at t (its increments at edges before t; the hardware subtracts those at t..s-2 from that
take's sum): rd_done and rd_data after edge s+4, rd_busy from after t up to edge s+4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def acc_bits(n: int, inc_width: int) -> int:
    """Bits of an accumulator: n increments of inc_width bits never wrap it."""
    return inc_width + (n - 1).bit_length()


def scan_edge(t: int, addr: int, n: int) -> int:
    """s: the first edge after t at which the scan takes counter ``addr`` (t+1..t+n)."""
    return t + 1 + (addr - t - 1) % n


@dataclass
class StatsOut:
    """The outputs after an edge."""

    rd_busy: bool = False
    rd_done: bool = False
    rd_data: int = 0


class Stats:
    """N counters of ``cnt_width`` bits (docs/stats.md)."""

    def __init__(self, n: int, inc_width: int = 16, cnt_width: int = 64):
        if not 5 <= n <= 1024:
            raise ValueError(f"n must be 5..1024, not {n}")
        if not 1 <= inc_width <= 32:
            raise ValueError(f"inc_width must be 1..32, not {inc_width}")
        if not 34 <= cnt_width <= 64 or acc_bits(n, inc_width) >= cnt_width:
            raise ValueError(f"cnt_width must be 34..64 and wider than an accumulator, not {cnt_width}")
        self.n, self.inc_width, self.cnt_width = n, inc_width, cnt_width
        self.mask = (1 << cnt_width) - 1
        self.acc_limit = 1 << acc_bits(n, inc_width)
        self.out = StatsOut()
        self.reset()

    def reset(self) -> None:
        """An edge with rst high: accumulators and pipeline empty, a taken read forgotten (the RAM
        keeps its words, rd_data its value)."""
        self.edge = 0                                   # the next edge's number since reset
        self.acc = [0] * self.n
        self.inc_q = [0] * self.n                      # the increments registered at the last edge
        self.total = [0] * self.n                      # every counter's value (increments since reset)
        self.answer = 0                                 # the value the read taken answers
        self.answer_at: int | None = None               # s+4 of the read taken, if any
        self.out = StatsOut(rd_data=self.out.rd_data)

    @property
    def busy(self) -> bool:
        """rd_busy after the last edge: a read is taken and not yet answered."""
        return self.answer_at is not None

    def takes(self, rd_req: bool, rd_addr: int) -> bool:
        """Whether the next edge takes a request (rst low)."""
        return rd_req and not self.busy and 0 <= rd_addr < self.n

    def step(self, rst: bool = False, inc: Sequence[int] | None = None, rd_req: bool = False,
             rd_addr: int = 0) -> StatsOut:
        """One edge. ``inc[i]`` is counter i's increment at this edge (0: none)."""
        if rst:
            self.reset()
            return self.out
        e, n = self.edge, self.n
        incs = [0] * n if inc is None else list(inc)
        if len(incs) != n:
            raise ValueError(f"{len(incs)} increments for {n} counters")
        take = self.takes(rd_req, rd_addr)
        done, data = False, self.out.rd_data
        if self.answer_at == e:  # the answer leaves with the sum of its counter's take at e-4
            done, data = True, self.answer
            self.answer_at = None
        for i, a in enumerate(incs):
            if not 0 <= a < 1 << self.inc_width:
                raise ValueError(f"increment {a} of counter {i} does not fit {self.inc_width} bits")
        # the scan takes counter p; the RAM words are not kept: a read's answer is its counter's
        # value at the request (docs/stats.md section 3), the accumulators only for their bound
        p = e % n
        for i, a in enumerate(self.inc_q):
            self.acc[i] = a if i == p else self.acc[i] + a
        self.inc_q = incs
        assert max(self.acc) < self.acc_limit, "an accumulator wrapped (docs/stats.md section 2)"
        if take:
            self.answer_at = scan_edge(e, rd_addr, n) + 4
            self.answer = self.total[rd_addr]
        for i, a in enumerate(incs):
            self.total[i] = (self.total[i] + a) & self.mask
        self.edge += 1
        self.out = StatsOut(rd_busy=self.busy, rd_done=done, rd_data=data)
        return self.out
