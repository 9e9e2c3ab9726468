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

:func:`hold_ready` holds one of AWREADY, WREADY, ARREADY low for a given number of cycles
(F24: the stall watchdog). :class:`Reorder` answers bursts of different IDs out of order
(A5.3, A6.2: only responses with the same ID keep their order).

Signals are sampled at falling edges (tb/common.py): a handshake seen there happens at the
next rising edge, which is also where ``AxiRam``'s channels sample ``pause``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import cocotb
from cocotb.triggers import ClockCycles, Event, FallingEdge, First, RisingEdge
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiRam

from tb.timebase import PERIOD_NS


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


def make_w_waits_for_aw(ram: AxiRam, dut, prefix: str, clock, reset=None) -> _WGate:
    """Make ``ram`` a slave that raises WREADY only for a burst whose AW it has taken (legal,
    A3.3.1: a slave may wait for AWVALID, or the AW handshake, before WREADY). The returned
    gate can also hold WREADY low after the next multi-beat burst's first W beat
    (``hold_next``, F24); it forgets everything while ``reset`` (the memory's reset) is high."""
    sig = {name: getattr(dut, f"{prefix}_{name}") for name in ("awvalid", "awready", "wvalid", "wready", "wlast")}
    gate = _WGate(ram.write_if.w_channel, clock, sig, reset)
    cocotb.start_soon(gate.run())
    return gate


class _WGate:
    """W beats may be taken only for a burst whose AW has been taken (see ``_AwGate`` for how
    ``full()`` is extended: the counters are updated at the falling edge before the edge
    that sees the handshakes)."""

    def __init__(self, w_channel, clock, sig: dict, reset) -> None:
        self.w, self.clock, self.sig, self.reset = w_channel, clock, sig, reset
        self.aw_taken = 0    # AW handshakes
        self.w_started = 0   # bursts whose first W beat has been taken
        self.in_burst = False  # a burst's first beat is taken, its last not yet
        self.hold = False    # WREADY held low (hold_next fired)
        self.hold_next = False  # hold after the next first W beat of a burst of two beats or more
        full = w_channel.full
        w_channel.full = lambda: full() or self.hold or not (self.in_burst or self.w_started < self.aw_taken)

    def clear(self) -> None:
        self.aw_taken = self.w_started = 0
        self.in_burst = self.hold = self.hold_next = False

    async def run(self) -> None:
        sig = self.sig
        while True:
            await FallingEdge(self.clock)
            if self.reset is not None and self.reset.value == 1:
                self.clear()
                continue
            was_open = self.in_burst or self.w_started < self.aw_taken
            if sig["wvalid"].value == 1 and sig["wready"].value == 1:
                if not self.in_burst:
                    if self.w_started >= self.aw_taken:
                        raise AssertionError("W-waits-for-AW memory: a W beat taken before its AW (the gate failed)")
                    self.w_started += 1
                    if self.hold_next and sig["wlast"].value == 0:
                        self.hold, self.hold_next = True, False
                self.in_burst = sig["wlast"].value == 0
            if sig["awvalid"].value == 1 and sig["awready"].value == 1:
                self.aw_taken += 1
            if not was_open and (self.in_burst or self.w_started < self.aw_taken):
                self.w.wake_event.set()  # the sink sleeps while closed


async def hold_ready(ram: AxiRam, clock, channel: str, cycles: int, until=None) -> None:
    """Hold ``ram``'s READY of ``channel`` ("aw", "w" or "ar") low for ``cycles`` cycles, and
    then, with ``until``, on until ``until()`` is true (asked once a cycle), then let it go
    (F24: a slave that withholds a handshake; legal AXI, only slow). Through the channel's
    ``pause``: not for a channel that also has a pause generator (``stall``)."""
    ch = {"aw": ram.write_if.aw_channel, "w": ram.write_if.w_channel, "ar": ram.read_if.ar_channel}[channel]
    assert ch._pause_generator is None, f"{channel}: hold_ready on a channel with a pause generator"
    ch.pause = True
    try:
        await ClockCycles(clock, cycles)
        while until is not None and not until():
            await ClockCycles(clock, 1)
    finally:
        ch.pause = False


class Reorder:
    """Responses out of order across IDs (legal: AXI4 keeps only same-ID responses in order).

    ``AxiRam`` answers one burst at a time per direction, in request order. This holds
    each B, and each read burst's R beats (sent together, never interleaved), in a pool for
    a random time (a quarter of them 0..3 cycles, the rest 16..``hold``), then sends, at each cycle,
    one of the held responses that is due and is the oldest held of its ID, chosen at
    random: a response of one ID
    overtakes older ones of other IDs, never one of its own. A response sent while an
    older response of another ID is still held counts as ``reordered``
    (``count``: responses sent, per ``"b"`` and ``"r"``; a B or R a fault drops for ever
    never enters the pool, and one a ``late:N`` fault delays waits in the pool, so later
    bursts overtake it). ``reset`` (the memory's reset), while high, empties the pool.
    """

    def __init__(self, ram: AxiRam, clock, rng: random.Random, hold: int = 512, reset=None) -> None:
        self.clock, self.rng, self.hold, self.reset = clock, rng, hold, reset
        self.count = {"b": 0, "r": 0}
        self.reordered = {"b": 0, "r": 0}
        self._pool: dict[str, list[list]] = {"b": [], "r": []}  # [seq, id, due, beats]
        self._seq = {"b": 0, "r": 0}
        self._beats: list = []  # the read burst being collected
        self._delay = 0  # ... and its first beat's delay
        self._wake = Event()
        self._send = {"b": ram.write_if.b_channel.send, "r": ram.read_if.r_channel.send}
        ram.write_if.b_channel.send = self._hold_b
        ram.read_if.r_channel.send = self._hold_r
        cocotb.start_soon(self._run())
        if reset is not None:
            cocotb.start_soon(self._on_reset())

    @staticmethod
    def _now() -> int:
        return int(get_sim_time(unit="ns")) // PERIOD_NS  # the cycle (clock periods so far)

    def _put(self, kind: str, rid: int, beats: list, delay: int) -> None:
        seq = self._seq[kind]
        self._seq[kind] += 1
        wait = self.rng.randint(0, 3) if self.rng.random() < 0.25 else self.rng.randint(16, self.hold)
        self._pool[kind].append([seq, rid, self._now() + delay + wait, beats])
        self._wake.set()

    async def _hold_b(self, obj, delay: int = 0) -> None:
        self._put("b", int(obj.bid), [obj], delay)

    async def _hold_r(self, obj, delay: int = 0) -> None:
        self._beats.append(obj)
        self._delay = delay if len(self._beats) == 1 else self._delay
        if int(obj.rlast):
            self._put("r", int(obj.rid), self._beats, self._delay)
            self._beats = []

    _hold_b.delays = _hold_r.delays = True  # type: ignore[attr-defined]  # Faults passes late:N here

    async def _on_reset(self) -> None:
        while True:
            await RisingEdge(self.reset)
            for kind in ("b", "r"):
                self._pool[kind].clear()
            self._beats = []

    async def _run(self) -> None:
        # asleep until the next response is due or a new one comes (no wake-up every cycle)
        while True:
            self._wake.clear()
            entries = self._pool["b"] + self._pool["r"]
            if not entries:
                await self._wake.wait()
                continue
            wait = min(e[2] for e in entries) - self._now()
            if wait > 0:
                await First(ClockCycles(self.clock, wait), self._wake.wait())
                continue
            await ClockCycles(self.clock, 1)  # at most one response per kind and cycle
            now = self._now()
            for kind in ("b", "r"):
                pool = self._pool[kind]
                heads: dict[int, list] = {}
                for e in pool:  # in request order: the first of each ID is its oldest
                    heads.setdefault(e[1], e)
                due = [e for e in heads.values() if e[2] <= now]
                if not due:
                    continue
                e = self.rng.choice(due)
                pool.remove(e)
                self.count[kind] += 1
                if any(x[0] < e[0] for x in pool):  # an older response still held
                    self.reordered[kind] += 1
                for beat in e[3]:
                    await self._send[kind](beat)


# ---------------------------------------------------------------------------- faults (F24)

OKAY, SLVERR, DECERR = 0, 2, 3
GARBAGE = 0xDEADBEEF_DEADBEE0  # what a faulty read returns: never a sensible buffer address


class Faults:
    """A faulty host memory (F24, docs/faults.md): armed faults on ``AxiRam``'s bursts.

    Each AW or AR the RAM takes is matched against the armed faults, oldest first; the
    first whose ``match(addr, beats)`` is true (and still has uses left) applies to that
    whole burst:

    * ``"slverr"``, ``"decerr"``: the response says SLVERR or DECERR; a write burst writes
      nothing, a read burst returns ``GARBAGE``;
    * ``"garbage"``: a read returns ``GARBAGE`` with OKAY; ``"garbage:A"``: ... returns the
      64-bit value ``A`` (every 8 bytes) with OKAY, e.g. a buffer address planted by a frame;
    * ``"drop"``: the response is never sent (a write is still carried out): a B or R held
      for ever, while later bursts are answered as usual;
    * ``"lost"`` (writes): as ``"drop"``, and nothing is written either (a write-back whose
      B is lost then never shows its DD to a host that reaps by DD; docs/faults.md);
    * ``"late:N"``: the response (a read's first beat) waits N cycles (the RAM answers in
      order, so later bursts wait behind it);
    * ``"wrongid"`` (writes): the B carries the burst's ID with its top bit (prionic's
      write-back bit) flipped: it names another kind of burst, and its own never gets a B;
      ``"wrongid:lost"``: ... and nothing is written (as ``"lost"``).

    It wraps the RAM's own channel objects and its ``_write``/``_read`` (cocotbext-axi
    answers one burst at a time per direction, so "the current burst" is well defined);
    everything else is ``AxiRam`` as it is. ``log`` lists ``(kind, addr, beats, fault)``
    of every burst a fault hit.
    """

    def __init__(self, ram: AxiRam, clock) -> None:
        self.clock = clock
        self.armed: list[list] = []  # [kind, match, fault, uses]
        self.log: list[tuple[str, int, int, str]] = []
        self.dropped_b: set[int] = set()  # write bursts (0-based, in AW order) whose B is never sent with their ID
        self._id_top = 1 << (len(ram.write_if.b_channel.bus.bid) - 1)
        self._n = {"w": 0, "r": 0}
        self._cur = {"w": "", "r": ""}
        self._late_done = {"w": False, "r": False}
        for kind, itf, ch in (("w", ram.write_if, "aw_channel"), ("r", ram.read_if, "ar_channel")):
            self._wrap(kind, itf, getattr(itf, ch))
        wif, rif = ram.write_if, ram.read_if
        w_orig, r_orig = wif._write, rif._read
        b_send, r_send = wif.b_channel.send, rif.r_channel.send

        async def write(address, data):
            if self._cur["w"] not in ("slverr", "decerr", "lost", "wrongid:lost"):
                await w_orig(address, data)

        async def read(address, length):
            fault = self._cur["r"]
            if fault in ("slverr", "decerr", "garbage") or fault.startswith("garbage:"):
                word = int(fault[8:], 0) if fault.startswith("garbage:") else GARBAGE
                return (word.to_bytes(8, "little") * (length // 8 + 1))[:length]
            return await r_orig(address, length)

        def respond(kind: str, send):
            async def send_resp(obj):
                fault = self._cur[kind]
                if fault in ("slverr", "decerr"):
                    setattr(obj, "bresp" if kind == "w" else "rresp", SLVERR if fault == "slverr" else DECERR)
                elif fault.startswith("wrongid"):
                    obj.bid = int(obj.bid) ^ self._id_top
                elif fault in ("drop", "lost"):
                    return
                elif fault.startswith("late:") and not self._late_done[kind]:
                    self._late_done[kind] = True  # the burst's first response (beat) only
                    if getattr(send, "delays", False):  # held by a Reorder: later bursts may overtake it
                        await send(obj, delay=int(fault[5:]))
                        return
                    await ClockCycles(self.clock, int(fault[5:]))
                await send(obj)
            return send_resp

        wif._write, rif._read = write, read
        wif.b_channel.send = respond("w", b_send)
        rif.r_channel.send = respond("r", r_send)

    def _wrap(self, kind: str, itf, channel) -> None:
        recv = channel.recv

        async def take():
            ax = await recv()
            addr = int(ax.awaddr if kind == "w" else ax.araddr)
            beats = int(ax.awlen if kind == "w" else ax.arlen) + 1
            self._cur[kind] = ""
            self._late_done[kind] = False
            for arm in self.armed:
                if arm[0] == kind and arm[3] > 0 and arm[1](addr, beats):
                    arm[3] -= 1
                    self._cur[kind] = arm[2]
                    self.log.append((kind, addr, beats, arm[2]))
                    if kind == "w" and arm[2] in ("drop", "lost", "wrongid", "wrongid:lost"):
                        self.dropped_b.add(self._n[kind])
                    break
            self._n[kind] += 1
            return ax
        channel.recv = take

    def arm(self, kind: str, match, fault: str, uses: int = 1) -> None:
        """Apply ``fault`` to the next ``uses`` write (``kind`` "w") or read ("r") bursts
        for which ``match(addr, beats)`` holds."""
        assert kind in ("w", "r") and (fault in ("slverr", "decerr", "garbage", "drop") or fault.startswith("late:")
                                       or (kind == "w" and fault in ("lost", "wrongid", "wrongid:lost"))
                                       or (kind == "r" and fault.startswith("garbage:")))
        self.armed.append([kind, match, fault, uses])

    def disarm(self) -> None:
        self.armed.clear()
