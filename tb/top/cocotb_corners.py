"""Directed corner tests of prionic_rx for the functional bins of `make coverage` (F30).

Each test is a ``NicTest`` (tb/top/env.py): the whole run is checked against the golden model
cycle for cycle like every top test, and sampled by tb/coverage/funccov.py when coverage is on. On
top, each asserts, from the model's outcomes of the DUT's run, that it reached what it is
for. Run through tests/test_corners.py on both simulators, over 8 queues (the widest build
of the regression, so that every queue bin exists).

* ``VerdictCornersTest``: every frame class accepted into every queue (a match-all rule,
  FRAG_ACTION.QUEUE for fragments); per queue each refusal: RATE_LIMITED (limiter budget
  0, the rule's own limiter or, RULE_LIM_CTRL.SHARED, another rule's), BUF_OVERFLOW (a
  frame longer than BUF_SIZE), QBUF_FULL (the on-chip buffer filled
  while the memory withholds AWREADY), RING_FULL (the host stops returning buffers),
  QUEUE_DISABLED; the verdicts without a queue for every class that can get them
  (UNREGISTERED, RULE_DROP, FRAGMENT, the parser's drops); every queue gated on and off
  by RUN_PRIO (F16); interrupts by frame count, packet timer, absolute timer and
  IMMEDIATE on every queue (F14).
"""

from __future__ import annotations

import random

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

from model import regmap
from tb.coverage import funccov
from tb.top.axi_mem import hold_ready
from tb.top.env import FrameItem, Knobs, NicTest, rule_ctrl
from tb.top.frames import MAC_NIC, MAC_PEER, Flow, Frame, arp, fragment, pad60
from tb.top.hostmem import QueueSetup

V = regmap.VERDICTS
F = regmap.FIELDS
BUF = 1024  # BUF_SIZE of every queue: a 1200-byte frame overflows it


def class_frame(rng: random.Random, cls: str, size: int = 0) -> Frame:
    """A well-formed frame of class ``cls`` (tb/coverage/funccov.py ``frame_class``), about ``size``
    bytes of payload more than its headers."""
    pay = Raw(bytes(rng.getrandbits(8) for _ in range(size or rng.randint(18, 60))))
    eth = Ether(src=MAC_PEER, dst=MAC_NIC)
    ip = IP(src="10.0.0.2", dst="10.0.0.1")
    if cls == "fragment":
        return fragment(rng)
    if cls == "arp":
        return arp(rng)
    if cls in ("tcp", "udp"):
        return Flow(cls, cls, 5000, payload=(len(pay), len(pay))).make(rng)
    pkt = {"vlan": eth / Dot1Q(vlan=100) / ip / UDP(sport=1, dport=5000) / pay,
           "ipv6": eth / IPv6(src="fd00::2", dst="fd00::1") / UDP(sport=1, dport=5000) / pay,
           "icmp": eth / ip / ICMP(type=8) / pay,
           "other": Ether(src=MAC_PEER, dst=MAC_NIC, type=0x88B5) / pay}[cls]
    return Frame(pad60(bytes(pkt)), flow=cls)


class FramesSeq(uvm_sequence):
    """The given frames in order, ``gap`` idle cycles before each (0: back to back), the
    first not before cycle ``at`` if given."""

    def __init__(self, name: str, frames: list[Frame], gap: int = 0, at: int | None = None):
        super().__init__(name)
        self.frames, self.gap, self.at = frames, gap, at

    async def body(self) -> None:
        for i, fr in enumerate(self.frames):
            item = FrameItem(f"{self.get_name()}{i}", fr, self.gap, wait=self.gap > 0, at=self.at if i == 0 else None)
            await self.start_item(item)
            await self.finish_item(item)


@pyuvm.test(timeout_time=2_000_000, timeout_unit="us")
class VerdictCornersTest(NicTest):
    """F30 (with F5-F7, F9, F11, F12, F14, F16, F24): the verdict x queue x class bins,
    gating and the interrupt causes of every queue, in directed phases (module docstring)."""

    def knobs(self, rng: random.Random) -> Knobs:
        nq = self.cfg.num_queues
        return Knobs(frames=0, setups=[QueueSetup(ring_size=8, buf_size=BUF, immediate=True) for _ in range(nq)],
                     rules=[], tick_div=0, chaos=False, return_delay=(0, 20), isr_delay=(2, 10))

    async def send(self, frames: list[Frame], gap: int = 10) -> list[tuple[int, int, int, int]]:
        """Send ``frames``, wait for their verdicts; returns them (cycle, code, queue, rule)."""
        obs = self.monitor.obs
        n = len(obs.verdicts)
        await FramesSeq("c", frames, gap).start(self.env.seqr)
        await self.env.driver.source.wait()
        for _ in range(2000):
            if len(obs.verdicts) >= n + len(frames):
                break
            await ClockCycles(self.dut.clk, 10)
        return obs.verdicts[n:]

    async def settle(self) -> None:
        """Wait until every accepted frame has its completion (the on-chip buffers empty)."""
        obs = self.monitor.obs
        for _ in range(5000):
            if len(obs.completions) >= sum(1 for v in obs.verdicts if v[1] == V["ACCEPT"]):
                return
            await ClockCycles(self.dut.clk, 10)
        raise AssertionError("the accepted frames were not all completed")

    async def write(self, name: str, index: int, value: int) -> None:
        await self.env.host.driver.axil.write_dword(regmap.addr(name, index), value)

    async def route(self, q: int, **kw) -> None:
        """Rule 0 matches every looked-up frame and sends it to queue q; fragments too."""
        await self.write("RULE_CTRL", 0, rule_ctrl(queue=q, **kw))
        await self.write("FRAG_ACTION", 0, 1 | q << F["FRAG_ACTION_QUEUE_LSB"])

    async def traffic(self) -> None:
        nq, rng = self.cfg.num_queues, self.rng
        host = self.env.host.driver
        self.got: dict[str, list[int]] = {}

        def expect(what: str, verdicts, code: int, q: int | None = None) -> None:
            ok = [v for v in verdicts if v[1] == code and (q is None or v[2] == q)]
            self.got.setdefault(what, []).append(len(ok))

        # moderation by frame count, packet timer and absolute timer on every queue, then
        # IMMEDIATE (the setups): one phase per cause, two frames per queue
        for frames, pkt, ab in ((2, 0, 0), (0, 3, 0), (0, 0, 2)):
            for q in range(nq):
                for reg, val in (("ITR_CTRL", 0), ("ITR_FRAMES", frames), ("ITR_PKT", pkt), ("ITR_ABS", ab)):
                    await self.write(reg, q, val)
            for q in range(nq):
                await self.route(q)
                await self.send([class_frame(rng, "udp"), class_frame(rng, "udp")], gap=2)
            await ClockCycles(self.dut.clk, 40)
        for q in range(nq):
            await self.write("ITR_CTRL", q, 1 << F["ITR_CTRL_IMMEDIATE"])

        # every class into every queue
        for q in range(nq):
            await self.route(q)
            expect("accept", await self.send([class_frame(rng, c) for c in funccov.GOOD_CLASSES]), V["ACCEPT"], q)
        # per queue: RATE_LIMITED (limiter on, budget 0; on odd queues rule 0 spends rule 1's
        # limiter, RULE_LIM_CTRL.SHARED), BUF_OVERFLOW (a frame over BUF_SIZE)
        for q in range(nq):
            await self.route(q)
            lim = q % 2
            shared = lim << F["RULE_LIM_CTRL_SHARED"] | lim << F["RULE_LIM_CTRL_LIMITER_LSB"]
            await self.write("RULE_LIM_CTRL", 0, shared)
            await self.write("RULE_LIM_BUDGET", lim, 0)
            await self.write("RULE_LIM_PERIOD", lim, 100_000)
            await ClockCycles(self.dut.clk, 4)
            expect("rate", await self.send([class_frame(rng, "udp")]), V["RATE_LIMITED"], q)
            await self.write("RULE_LIM_PERIOD", lim, 0)
            await self.write("RULE_LIM_CTRL", 0, 0)
            expect("buf", await self.send([class_frame(rng, "udp", BUF + 100)]), V["BUF_OVERFLOW"], q)
        # QBUF_FULL: AWREADY withheld, five 1000-byte frames per queue (4 KB on-chip each)
        release = [False]
        hold = cocotb.start_soon(hold_ready(self.env.host.ram, self.dut.clk, "aw", 1, lambda: release[0]))
        for q in range(nq):
            await self.route(q)
            expect("qbuf", await self.send([class_frame(rng, "udp", 950) for _ in range(5)], gap=0),
                   V["QBUF_FULL"], q)
        release[0] = True
        await hold
        await self.settle()
        # RING_FULL: the host keeps every buffer of the queue (ring of 8)
        for q in range(nq):
            host.stalled.add(q)
            await self.route(q)
            seen = []
            for _ in range(12):
                seen += await self.send([class_frame(rng, "udp")])
                if seen[-1][1] == V["RING_FULL"]:
                    break
            self.logger.info("queue %d: ring phase verdicts %s", q, [v[1:3] for v in seen])
            expect("ring", seen[-1:], V["RING_FULL"], q)
        # the verdicts without a queue: no match (default drop), a drop rule, a fragment to
        # a queue beyond NUM_QUEUES, fragments dropped, the parser's drops
        await self.write("RULE_CTRL", 0, 0)
        looked_up = [class_frame(rng, c) for c in funccov.LOOKED_UP]
        expect("unregistered", await self.send(looked_up), V["UNREGISTERED"])
        await self.write("RULE_CTRL", 0, rule_ctrl(drop=True))
        await self.write("FRAG_ACTION", 0, 1 | (nq + 1) << F["FRAG_ACTION_QUEUE_LSB"])
        expect("rule_drop", await self.send([class_frame(rng, c) for c in funccov.GOOD_CLASSES]), V["RULE_DROP"])
        await self.write("FRAG_ACTION", 0, 0)
        udp = class_frame(rng, "udp").data
        bad = [fragment(rng), Frame(udp, tuser=True), Frame(udp + bytes(1600 - len(udp))), Frame(udp[:40]),
               Frame(udp[:14] + bytes([0x42]) + udp[15:])]  # IHL 2: malformed
        expect("global", await self.send(bad), V["FRAGMENT"])
        # gating (F16): every queue held by the running priority, then released
        await self.write("RUN_PRIO", 0, 255)
        await ClockCycles(self.dut.clk, 4)
        await self.write("RUN_PRIO", 0, 0)
        # QUEUE_DISABLED on every queue
        for q in range(nq):
            await self.write("QUEUE_CTRL", q, 0)
            await self.route(q)
            expect("disabled", await self.send([class_frame(rng, "udp")]), V["QUEUE_DISABLED"], q)

    def check_phase(self) -> None:
        super().check_phase()
        run, model = self.run_record, self.model
        assert run is not None and model is not None
        nq = self.cfg.num_queues
        for what, per in self.got.items():
            self.logger.info("%s: %s", what, per)
        for what in ("rate", "buf", "qbuf", "ring", "disabled"):
            assert self.got[what] == [self.got[what][0]] * nq and all(self.got[what]), (what, self.got[what])
        assert self.got["accept"] == [len(funccov.GOOD_CLASSES)] * nq, self.got["accept"]
        assert self.got["unregistered"] == [len(funccov.LOOKED_UP)]
        assert self.got["rule_drop"] == [len(funccov.GOOD_CLASSES)]
        values = funccov.run_values(run, model)
        reached = set(values["verdict_queue_class"])
        queue_of = [b.split("/")[1] for b in funccov.bins()["verdict_queue_class"]]
        want = {b for b, q in zip(funccov.bins()["verdict_queue_class"], queue_of, strict=True)
                if q == "-" or int(q[1:]) < nq}
        assert want <= reached, f"not reached: {sorted(want - reached)}"
        causes = {f"q{q}/{c}" for q in range(nq) for c in ("frames", "pkt_timer", "abs_timer", "immediate")}
        assert causes <= set(values["irq_cause"]), f"causes not reached: {sorted(causes - set(values['irq_cause']))}"
        gates = {f"q{q}/{e}" for q in range(nq) for e in ("on", "off")}
        assert gates <= set(values["gating"]), sorted(gates - set(values["gating"]))
