"""The reference and the harness of prionic_gmii_rx's block tests (tb/blocks/gmii_rx/cocotb_gmii_rx.py): the
expected stream and counters of a GMII burst from docs/gmii.md (``ref_burst``,
``ref_counts``), frames with FCS, and ``GmiiBench`` (cocotbext-eth ``GmiiSource``, the
output stream and the counters).
"""

from __future__ import annotations

import logging
import random
import zlib
from collections import deque
from dataclasses import dataclass

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, with_timeout
from cocotbext.eth import GmiiFrame, GmiiSource
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw

from tb.common import Clocked

PRE = 0x55
SFD = 0xD5
LATENCY = 3  # last FCS byte sampled at edge t -> tlast accepted at edge t + 3 (docs/gmii.md)
BYTE_LATENCY = 7  # a frame byte sampled at edge t -> accepted on m_axis at edge t + 7
COUNTERS = ("frames", "fcs_errors", "rx_er_frames", "preamble_errors", "short_frames", "overflow_frames")


# ----------------------------------------------------------------------------- reference


@dataclass
class Expect:
    """What one rx_dv burst should produce: a verdict and, for a frame, its bytes."""

    verdict: str  # "frame", "preamble", "short"
    data: bytes = b""
    fcs_bad: bool = False
    rx_er: bool = False
    end_cycle: int = 0  # cycle whose rising edge sampled the burst's last byte
    first_cycle: int = 0  # cycle whose rising edge sampled the frame's first byte

    @property
    def bad(self) -> bool:
        return self.fcs_bad or self.rx_er


def ref_burst(data: bytes, err: list[int], end_cycle: int = 0) -> Expect:
    """The verdict of docs/gmii.md for one rx_dv burst (bytes and rx_er per byte) whose
    last byte was sampled in cycle ``end_cycle``."""
    n = len(data)
    if n == 0 or data[0] != PRE or err[0]:
        return Expect("preamble", end_cycle=end_cycle)
    i = 0
    while i < n and data[i] == PRE and not err[i]:
        i += 1
    if i == n or err[i] or data[i] != SFD:
        return Expect("preamble", end_cycle=end_cycle)
    body, body_err = data[i + 1 :], err[i + 1 :]
    if len(body) < 5:
        return Expect("short", end_cycle=end_cycle)
    payload = body[:-4]
    fcs_bad = zlib.crc32(payload).to_bytes(4, "little") != body[-4:]
    first = end_cycle - len(body) + 1
    return Expect("frame", payload, fcs_bad, any(body_err), end_cycle, first)


def ref_counts(expects: list[Expect]) -> dict[str, int]:
    frames = [e for e in expects if e.verdict == "frame"]
    return {
        "frames": len(frames),
        "fcs_errors": sum(e.fcs_bad for e in frames),
        "rx_er_frames": sum(e.rx_er for e in frames),
        "preamble_errors": sum(e.verdict == "preamble" for e in expects),
        "short_frames": sum(e.verdict == "short" for e in expects),
        "overflow_frames": 0,
    }


# ----------------------------------------------------------------------------- frames


def with_fcs(payload: bytes, preamble: int = 7) -> bytearray:
    """Preamble of ``preamble`` 0x55 bytes, SFD, payload, correct FCS."""
    return bytearray([PRE] * preamble + [SFD]) + payload + zlib.crc32(payload).to_bytes(4, "little")


def flip_bit(raw: bytearray, rng: random.Random, start: int) -> bytearray:
    """Flip one random bit at or after byte ``start`` (a frame or FCS byte)."""
    out = bytearray(raw)
    pos = rng.randrange(start, len(out))
    out[pos] ^= 1 << rng.randrange(8)
    return out


def scapy_frames() -> list[bytes]:
    """A few real frames, without FCS (scapy pads nothing: short ones stay short)."""

    def eth() -> Ether:
        return Ether(dst="02:00:00:00:00:01", src="02:00:00:00:00:02")  # type filled in by the next layer

    return [
        bytes(eth() / IP(src="10.0.0.2", dst="10.0.0.1") / UDP(sport=4000, dport=5000) / Raw(b"ctl" * 10)),
        bytes(eth() / IP(src="10.0.0.3", dst="10.0.0.1") / TCP(sport=40000, dport=8000) / Raw(bytes(1400))),
        bytes(eth() / ARP(pdst="10.0.0.1")),
        bytes(eth() / IP(dst="10.0.0.1") / ICMP() / Raw(b"ping" * 4)),
        bytes(eth() / IP(dst="10.0.0.1") / UDP(dport=53) / Raw((bytes(range(256)) * 6)[:1472])),
    ]


# ----------------------------------------------------------------------------- bench


@dataclass
class OutFrame:
    data: bytes
    tuser: int
    end_cycle: int  # cycle whose rising edge accepted the tlast beat
    first_cycle: int  # cycle whose rising edge accepted the first beat


class GmiiBench:
    """Clock, reset, the GmiiSource, and a monitor of the pins and of m_axis."""

    def __init__(self, dut, rng: random.Random):
        self.dut = dut
        self.rng = rng
        self.clocked = Clocked(dut)
        self.source = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.clk, dut.rst)
        self.source.log.setLevel(logging.WARNING)  # not one line per frame
        self.bursts: list[Expect] = []  # reference verdict of every rx_dv burst seen
        self.out: list[OutFrame] = []  # frames accepted on m_axis
        self.ready_low = 0.0  # per cycle, chance that a run of tready low starts
        self.ready_run = 4  # longest such run
        self.hold_last = 0  # if > 0: tready low for this many cycles from each tlast beat on
        self.cycles = 0
        self._gaps: deque[int] = deque()  # gap after each queued frame not yet sent
        self._burst = bytearray()
        self._burst_err: list[int] = []
        self._beats = bytearray()
        self._held: tuple[int, int, int] | None = None  # an unaccepted beat (data, last, user)
        self._low_left = 0
        self._ready = 1
        self._first = 0

    async def start(self) -> None:
        self.dut.m_axis_tready.value = 1
        await self.clocked.start()
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        d = self.dut
        rng = self.rng
        clk, dv, rxd, er = d.clk, d.gmii_rx_dv, d.gmii_rxd, d.gmii_rx_er
        tready, tvalid, tdata, tlast, tuser, tkeep = (
            d.m_axis_tready,
            d.m_axis_tvalid,
            d.m_axis_tdata,
            d.m_axis_tlast,
            d.m_axis_tuser,
            d.m_axis_tkeep,
        )
        falling = FallingEdge(clk)
        cyc = self.clocked.cycle_at_falling()
        while True:
            await falling
            self.cycles += 1
            cyc += 1
            if self.cycles == 1:
                assert cyc == self.clocked.cycle_at_falling(), "monitor started off its cycle count"
            # pins: one rx_dv burst at a time
            if dv.value:
                self._burst.append(int(rxd.value))
                self._burst_err.append(int(er.value))
            elif self._burst:
                self.bursts.append(ref_burst(bytes(self._burst), self._burst_err, cyc - 1))
                self._burst = bytearray()
                self._burst_err = []
            # m_axis: tready for the coming edge, then the beat that edge accepts
            if self._low_left:
                self._low_left -= 1
            elif self.hold_last and tvalid.value and tlast.value:
                self._low_left = self.hold_last
            elif self.ready_low and rng.random() < self.ready_low:
                self._low_left = rng.randint(1, self.ready_run)
            ready = 0 if self._low_left else 1
            if ready != self._ready:
                tready.value = ready
                self._ready = ready
            if not tvalid.value:
                assert self._held is None, f"cycle {cyc}: tvalid fell before the beat was accepted"
                continue
            beat = (int(tdata.value), int(tlast.value), int(tuser.value))
            assert tkeep.value == 1, f"cycle {cyc}: tkeep != 1"
            if self._held is not None:
                assert beat == self._held, f"cycle {cyc}: unaccepted beat changed {self._held} -> {beat}"
            if not ready:
                self._held = beat
                continue
            self._held = None
            if not self._beats:
                self._first = cyc
            self._beats.append(beat[0])
            if beat[1]:
                self.out.append(OutFrame(bytes(self._beats), beat[2], cyc, self._first))
                self._beats = bytearray()

    def send(self, raw: bytes | bytearray, err: list[int] | None = None, gap: int = 12) -> None:
        """Queue ``raw`` as it is (preamble, SFD and FCS included), rx_er per byte, and
        ``gap`` idle cycles after it (at least 1: GmiiSource's ``ifg``, which it reads
        when a frame ends; each frame's completion sets the next frame's)."""
        if not self._gaps:
            self.source.ifg = gap
        self._gaps.append(gap)
        self.source.send_nowait(GmiiFrame(bytes(raw), err, tx_complete=self._frame_sent))

    def _frame_sent(self, _frame: GmiiFrame) -> None:
        self._gaps.popleft()
        if self._gaps:
            self.source.ifg = self._gaps[0]

    async def finish(self, timeout_us: int = 200_000) -> None:
        """Wait until the source is idle and the pipeline drained (with a timeout)."""
        await with_timeout(self.source.wait(), timeout_us, "us")
        if self.ready_low or self.hold_last:
            await ClockCycles(self.dut.clk, 4 * max(self.ready_run, self.hold_last))
            self.ready_low = 0.0
            self.hold_last = 0
        await ClockCycles(self.dut.clk, 16 + self.ready_run)
        await FallingEdge(self.dut.clk)

    def counters(self) -> dict[str, int]:
        return {name: int(getattr(self.dut, f"status_{name}").value) for name in COUNTERS}

    def check_against_reference(self, latency: bool = True) -> dict[str, int]:
        """Every burst's reference verdict against the stream and the counters (tready high)."""
        frames = [e for e in self.bursts if e.verdict == "frame"]
        assert len(self.out) == len(frames), f"{len(self.out)} frames out, reference expects {len(frames)}"
        for k, (e, o) in enumerate(zip(frames, self.out, strict=True)):
            assert o.data == e.data, f"frame {k}: data differs ({len(o.data)} bytes out, {len(e.data)} expected)"
            assert o.tuser == int(e.bad), f"frame {k}: tuser {o.tuser}, expected {int(e.bad)} ({e})"
            if latency:
                lat = o.end_cycle - e.end_cycle
                assert lat == LATENCY, f"frame {k}: last FCS byte to tlast {lat} cycles, expected {LATENCY}"
                lat = o.first_cycle - e.first_cycle
                assert lat == BYTE_LATENCY, f"frame {k}: first byte in to out {lat} cycles, expected {BYTE_LATENCY}"
        want = ref_counts(self.bursts)
        got = self.counters()
        assert got == want, f"counters {got}, reference {want}"
        return got


def expect_frames(b: GmiiBench, sent: list[tuple[bytes, int]]) -> None:
    """The stream against what the test meant to send: (payload, tuser) per frame."""
    assert len(b.out) == len(sent), f"{len(b.out)} frames out, {len(sent)} sent"
    for k, ((payload, tuser), o) in enumerate(zip(sent, b.out, strict=True)):
        assert o.data == payload, f"frame {k}: {len(o.data)} bytes out, payload {len(payload)} bytes"
        assert o.tuser == tuser, f"frame {k}: tuser {o.tuser}, expected {tuser}"


# ----------------------------------------------------------------------------- tests
