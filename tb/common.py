"""Shared testbench plumbing: parameters, clock and reset, cycle numbering, seeds.

Cycle numbers follow docs/timing.md section 1: edge 0 is the first rising edge at which
``rst`` is sampled low. The testbench releases reset at a falling edge, so that edge is
exactly half a period later, and samples every signal at falling edges: the values seen
at the falling edge before rising edge k are the values sampled at edge k, on Icarus and
Verilator alike (no dependence on when a simulator runs callbacks around a rising edge).
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge
from cocotb.utils import get_sim_time

from tb.timebase import PERIOD_NS


def param(name: str, default: int | None = None) -> int:
    """An RTL parameter as passed by tb/runner.py (``PARAM_<name>``), else ``default``."""
    value = os.environ.get(f"PARAM_{name}")
    if value is None:
        if default is None:
            raise KeyError(f"PARAM_{name} not set and no default")
        return default
    return int(value, 0)


def soak() -> bool:
    """True under ``make soak``: tests scale their traffic up."""
    return os.environ.get("PRIONIC_SOAK", "0") == "1"


def on_icarus() -> bool:
    """True in a cocotb run on Icarus, the slower simulator (see ``amount``)."""
    import cocotb

    return "icarus" in (cocotb.SIM_NAME or "").lower()


# Icarus, the event-driven second simulator, is 10-30x slower than Verilator on the big tops
ICARUS_SHARE = 0.4


def amount(n: int, sim: str | None = None, *, icarus: float = ICARUS_SHARE, least: int = 1) -> int:
    """How much traffic a test plays (frames, cycles, microseconds): ``n`` on Verilator; on
    Icarus the share ``icarus`` of it, at least ``least`` (the same checks on fewer samples).
    ``sim`` names the simulator where the test is launched (pytest); inside a cocotb run,
    leave it out and the running simulator decides. Every test runs on both simulators, and
    an event a test asserts must still happen on the shorter run."""
    shorter = on_icarus() if sim is None else sim == "icarus"
    return max(least, round(n * icarus)) if shorter else n


def make_rng(dut) -> random.Random:
    """A test-local RNG derived from this test's cocotb seed.

    tb/runner.py picks the run's seed (or takes ``SEED=n``) and prints it; cocotb derives
    each test's seed from it and the test name, so ``SEED=n`` replays every test exactly.
    """
    dut._log.info("test seed %d (derived from the run's seed, printed by tb/runner.py)", cocotb.RANDOM_SEED)
    return random.Random(cocotb.RANDOM_SEED)


class Clocked:
    """Owns the clock and reset of a DUT with ``clk``/``rst`` and numbers its cycles."""

    def __init__(self, dut, period_ns: int = PERIOD_NS, hdl_clock: bool = False):
        self.dut = dut
        self.period = period_ns
        self.hdl_clock = hdl_clock  # the top generates clk itself (low at 0, rising at period/2)
        self.t0: int | None = None  # sim time (ns, integral) of edge 0

    async def start(self, reset_cycles: int = 4) -> None:
        """Start the clock with reset high, then release reset: edge 0 follows. A DUT with a
        ``bus_rst`` input (its host memory bus reset, F24) has it high with ``rst``: power-up
        resets the bus too."""
        bus = self.dut.bus_rst if hasattr(self.dut, "bus_rst") else None
        if bus is not None:
            bus.value = 1
        self.dut.rst.value = 1
        if not self.hdl_clock:
            # the C++ clock: no Python wake-up per edge (TOOLCHAIN.md: ~4x faster)
            cocotb.start_soon(Clock(self.dut.clk, self.period, unit="ns", impl="gpi").start(start_high=False))
        await ClockCycles(self.dut.clk, reset_cycles)
        await FallingEdge(self.dut.clk)
        self.dut.rst.value = 0
        if bus is not None:
            bus.value = 0
        self.t0 = round(get_sim_time("ns")) + self.period // 2

    def cycle_at_falling(self) -> int:
        """Edge number k of the rising edge that follows the current falling edge."""
        assert self.t0 is not None, "start() first"
        return (round(get_sim_time("ns")) + self.period // 2 - self.t0) // self.period

    def now_cycle(self) -> int:
        """Edge number of the most recent rising edge (call right after RisingEdge)."""
        assert self.t0 is not None, "start() first"
        return (round(get_sim_time("ns")) - self.t0) // self.period
