"""A scenario through prionic in the simulated LiteX SoC (soc/sim.py, sw/soc/main.c; F32, with
F2 GMII, F5-F7 classification, F12 rings, F15 interrupts, F27 the C driver).

Run by tests/test_soc.py (a short run on both simulators) and ``make soc-sim`` (python -m
soc.sim). The environment names the scenario (``PRIONIC_SCENARIO``), how much of it to play
(``PRIONIC_SOC_US``, microseconds; default its duration), the ROM file (a plusarg) and where
the report goes (``PRIONIC_OUT``). The bench drives the clocks and reset, plays the scenario's
frames on the GMII pins with cocotbext-eth's GmiiSource (preamble, SFD, FCS), reads the
firmware's console from LiteX's stream UART, and at the end asks for the counters ('s').

The expected outcome comes from the golden model's parser and classifier (model/, written from
docs/), frame by frame: which frames reach which queue, in order, with their length, rule and
F4 flags, and a hash of their bytes as the CPU read them from its RAM after the DMA;
which are dropped, and why, as prionic's drop counters must count them; and every queue that
received a frame raised its interrupt line through LiteX's interrupt controller.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.eth import GmiiFrame, GmiiSource

from model import RULE_NONE, Classifier, Parser, Rule, regmap
from tb.scenario import load, schedule

NS_PER_CYCLE = 8  # the scenarios' 125 MHz, the SoC's clock too (soc/sim.py SYS_CLK_HZ)
BOOT_CYCLES = 200_000
MAX_FRAME_LEN = 1518  # prionic_eth_rx's default (OVERSIZE above)
COUNTERS = ("CNT_RX_FRAMES", "CNT_DROP_BAD", "CNT_DROP_MALFORMED", "CNT_DROP_OVERSIZE", "CNT_DROP_UNREG",
            "CNT_DROP_RULE", "CNT_DROP_FRAG", "CNT_DROP_FIFO")  # sw/soc/main.c's stats line, in its order
DROP_COUNTER = {"MALFORMED": "CNT_DROP_MALFORMED", "OVERSIZE": "CNT_DROP_OVERSIZE", "UNREGISTERED": "CNT_DROP_UNREG",
                "RULE_DROP": "CNT_DROP_RULE", "FRAGMENT": "CNT_DROP_FRAG"}


def frame_hash(data: bytes) -> int:
    """sw/soc/main.c's frame_hash: over 32-bit little-endian words w (the last zero-padded),
    h = 2h ^ w and s = s + w (mod 2^32), then h ^ s ^ len."""
    words = np.frombuffer(data + bytes(-len(data) % 4), dtype="<u4").tolist()
    h = s = 0
    for w in words:
        h = ((h + h) & 0xFFFFFFFF) ^ w
        s = (s + w) & 0xFFFFFFFF
    return h ^ s ^ len(data)


def expected(sc, frames: list[bytes]) -> tuple[dict[int, list[tuple[int, int, int, int]]], dict[str, int]]:
    """Per queue, the (len, rule, flags, hash) of each delivered frame in order; per counter, its
    count, from the model's parser and classifier with the scenario's rules (frame-path.md s2-3)."""
    src = list(sc.rule_src) + [(0, 0)] * (len(sc.rules) - len(sc.rule_src))
    rules = [Rule(ctrl, dport, src_ip=ip, src_mask=mask)
             for (ctrl, dport), (ip, mask) in zip(sc.rules, src, strict=True)]
    queues: dict[int, list[tuple[int, int, int, int]]] = {q: [] for q in range(sc.num_queues)}
    counts = dict.fromkeys(COUNTERS, 0)
    counts["CNT_RX_FRAMES"] = len(frames)
    for data in frames:
        p = Parser().parse(data)
        if p.malformed:
            counts["CNT_DROP_MALFORMED"] += 1
            continue
        if len(data) > MAX_FRAME_LEN:
            counts["CNT_DROP_OVERSIZE"] += 1
            continue
        c = Classifier().classify(p, rules, sc.default_action)
        verdict = next((k for k, v in regmap.VERDICTS.items() if v == c.drop_verdict), None)
        if verdict is None and c.queue >= sc.num_queues:
            verdict = "RULE_DROP"
        if verdict is not None:
            counts[DROP_COUNTER[verdict]] += 1
            continue
        queues[c.queue].append((len(data), c.rule if c.rule != RULE_NONE else 0xFF, p.flags, frame_hash(data)))
    return queues, counts


class Console:
    """The firmware's lines on LiteX's stream UART (always ready), and a byte the other way."""

    def __init__(self, dut):
        self.dut = dut
        self.lines: list[str] = []
        self._part = bytearray()
        dut.serial_source_ready.value = 1
        dut.serial_sink_valid.value = 0
        dut.serial_sink_data.value = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        valid = self.dut.serial_source_valid
        while True:
            await RisingEdge(self.dut.sys_clk)
            if not int(valid.value):
                await RisingEdge(valid)  # no Python per cycle while the firmware prints nothing
                continue
            c = int(self.dut.serial_source_data.value)
            if c != ord("\n"):
                self._part.append(c)
                continue
            line = self._part.decode(errors="replace")
            self.dut._log.debug("console: %s", line)
            assert not line.startswith("fail"), f"firmware: {line}"
            self.lines.append(line)
            self._part = bytearray()

    async def send(self, c: str):
        self.dut.serial_sink_data.value = ord(c)
        self.dut.serial_sink_valid.value = 1
        while True:
            await RisingEdge(self.dut.sys_clk)
            if int(self.dut.serial_sink_ready.value):
                break
        self.dut.serial_sink_valid.value = 0

    async def wait_for(self, prefix: str, cycles: int, count: int = 1, must: bool = True) -> list[str]:
        """The first ``count`` lines starting with ``prefix`` once there are that many (or, not
        ``must``, what there is after ``cycles``)."""
        for _ in range(cycles // 100):
            found = [line for line in self.lines if line.startswith(prefix)]
            if len(found) >= count:
                return found
            await Timer(100 * NS_PER_CYCLE, unit="ns")
        if must:
            raise AssertionError(f"{count} console lines '{prefix}' not within {cycles} cycles: "
                                 f"{self.lines[-5:]}, then {self._part.decode(errors='replace')!r}")
        return [line for line in self.lines if line.startswith(prefix)]


def _hexes(line: str) -> list[int]:
    return [int(x, 16) for x in line.replace("|", " ").split()[1:]]


async def _play(dut, console: Console, plan, boot_ns: int, delivered: int) -> str:
    """The frames at their times from ``boot_ns``; then the deliveries, a quiet time, the counters."""
    source = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.gmii_rx_clk)
    for cycle, frame in plan:
        at = boot_ns + cycle * NS_PER_CYCLE
        now = get_sim_time("ns")
        if at > now:
            await Timer(at - now, unit="ns")
        await source.send(GmiiFrame.from_payload(frame.data))
    await source.wait()
    dut._log.info("%d frames sent by %d us", len(plan), get_sim_time("us"))
    if delivered:
        # at most 100 us a frame (the comparison below tells what is missing)
        await console.wait_for("rx", 100 * (1 + delivered) * 1000 // NS_PER_CYCLE, delivered, must=False)
    dut._log.info("%d frames read by %d us", delivered, get_sim_time("us"))
    await Timer(2_000 * NS_PER_CYCLE, unit="ns")  # anything late or extra shows up too
    await console.send("s")
    return (await console.wait_for("stats", 50_000))[0]


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def test_soc_scenario(dut):
    """F32: the scenario's frames through prionic in the LiteX SoC, read by the firmware with
    the C driver, against the model: every delivered frame, every drop counter, the interrupts."""
    sc = load(os.environ["PRIONIC_SCENARIO"])
    if os.environ.get("PRIONIC_SOC_US"):
        sc = dataclasses.replace(sc, duration_us=float(os.environ["PRIONIC_SOC_US"]))
    plan = schedule(sc)
    frames = [bytes(f.data) for _, f in plan]
    want, want_counts = expected(sc, frames)

    dut.sim_trace.value = 0
    dut.sys_rst.value = 1
    dut.gmii_rx_dv.value = 0
    dut.gmii_rx_er.value = 0
    dut.gmii_rxd.value = 0
    cocotb.start_soon(Clock(dut.sys_clk, NS_PER_CYCLE, unit="ns").start())
    await Timer(3, unit="ns")  # the PHY's clock: same frequency, another phase
    cocotb.start_soon(Clock(dut.gmii_rx_clk, NS_PER_CYCLE, unit="ns").start())
    console = Console(dut)
    await ClockCycles(dut.sys_clk, 20)
    dut.sys_rst.value = 0
    ready = (await console.wait_for("ready", BOOT_CYCLES))[0]
    assert _hexes(ready)[0] == regmap.REGS["ID"].reset_value(), f"prionic's ID register: {ready}"
    boot_ns = get_sim_time("ns")
    dut._log.info("firmware ready after %d us: %s", boot_ns // 1000, ready)

    out = Path(os.environ.get("PRIONIC_OUT", "."))
    out.mkdir(parents=True, exist_ok=True)
    try:
        stats = await _play(dut, console, plan, boot_ns, sum(len(v) for v in want.values()))
    finally:
        (out / "console.txt").write_text("\n".join(console.lines) + "\n")
    got: dict[int, list[tuple[int, int, int, int]]] = {q: [] for q in range(sc.num_queues)}
    for line in console.lines:
        if line.startswith("rx "):
            q, length, rule, flags, h = _hexes(line)
            got.setdefault(q, []).append((length, rule, flags, h))
    values = _hexes(stats)
    irqs, counts = values[: sc.num_queues], dict(zip(COUNTERS, values[sc.num_queues :], strict=True))
    report = {"scenario": sc.name, "duration_us": sc.duration_us, "frames": len(frames),
              "delivered": {q: len(v) for q, v in got.items()}, "irq_seen": irqs, "counters": counts}
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    dut._log.info("%s", report)
    for q in range(sc.num_queues):
        assert got[q] == want[q], f"queue {q}: {len(got[q])} frames read, {len(want[q])} expected; first difference " \
            f"{next(((i, g, w) for i, (g, w) in enumerate(zip(got[q], want[q], strict=False)) if g != w), None)}"
        assert (irqs[q] > 0) == bool(want[q]), f"queue {q}: interrupt seen {irqs[q]} times, {len(want[q])} frames"
    assert counts == want_counts, f"counters {counts}, model {want_counts}"
