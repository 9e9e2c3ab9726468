"""Block tests of prionic_async_fifo, the clock-crossing frame FIFO (F29, docs/board.md).

Run through tests/test_async_fifo.py (pytest, both simulators). The write side is driven
by cocotbext-axi's AxiStreamSource (the FIFO has no s_axis_tready: a frame that does not
fit is dropped), the read side taken by an AxiStreamSink, each on its own clock with a
random phase. What comes out is held against what went in: every frame that comes out is
a frame that went in, whole, with its tkeep and tuser, in order; the frames that did not
come out are exactly the s_drop pulses. A monitor on s_clk holds the write pointer's
crossing to its handshake: the multi-bit value presented to the synchronizer changes only
with a new request toggle, and only once the read side has acknowledged the last one.
"""

from __future__ import annotations

import itertools
import logging
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from tb.common import make_rng, param


class FifoBench:
    def __init__(self, dut, rng: random.Random, s_ps: int, m_ps: int):
        self.dut, self.rng = dut, rng
        self.s_ps, self.m_ps = s_ps, m_ps
        self.kw = param("KEEP_WIDTH", param("DATA_WIDTH", 32) // 8)
        self.depth = param("DEPTH", 1024)
        self.drops = 0

    async def start(self) -> None:
        d = self.dut
        d.s_rst.value = 1
        d.m_rst.value = 1
        d.s_axis_tvalid.value = 0
        d.m_axis_tready.value = 0
        cocotb.start_soon(Clock(d.s_clk, self.s_ps, unit="ps", impl="gpi").start(start_high=False))
        await Timer(self.rng.randrange(1, 2000), "ps")
        cocotb.start_soon(Clock(d.m_clk, self.m_ps, unit="ps", impl="gpi").start(start_high=False))
        await ClockCycles(d.s_clk, 6)
        await ClockCycles(d.m_clk, 6)
        # the bus models once the registers hold their reset values (no X on tvalid)
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(d, "s_axis"), d.s_clk, d.s_rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.m_clk, d.m_rst)
        for part in (self.source, self.sink):
            part.log.setLevel(logging.WARNING)
        await ClockCycles(d.m_clk, 2)
        d.s_rst.value = 0
        d.m_rst.value = 0
        cocotb.start_soon(self._count_drops())
        self.offers = 0
        cocotb.start_soon(self._watch_offers())

    async def _count_drops(self) -> None:
        while True:
            await FallingEdge(self.dut.s_clk)
            self.drops += int(self.dut.s_drop.value)

    async def _watch_offers(self) -> None:
        """The committed pointer jumps by whole frames, so it may only cross held still: a
        change of the offered value comes with a request toggle, and a toggle only when the
        previous one was acknowledged (docs/board.md, the crossing FIFO)."""
        d = self.dut
        prev = None
        while True:
            await FallingEdge(d.s_clk)
            if int(d.s_rst.value):
                prev = None
                continue
            now = (int(d.xfer_ptr_reg.value), int(d.req_reg.value), int(d.ack_s.value))
            if prev is not None:
                (ptr0, req0, ack0), (ptr1, req1, _ack1) = prev, now
                if ptr1 != ptr0:
                    assert req1 != req0, f"the offered pointer changed {ptr0} -> {ptr1} without a request"
                if req1 != req0:
                    assert req0 == ack0, f"a new offer ({ptr1}) before the last one was acknowledged"
                    self.offers += 1
            prev = now

    def frame(self, nbytes: int, tuser: int) -> AxiStreamFrame:
        return AxiStreamFrame(self.rng.randbytes(nbytes), tuser=tuser)

    def ready_random(self, p: float) -> None:
        rng = random.Random(self.rng.getrandbits(32))
        self.sink.set_pause_generator(itertools.cycle([rng.random() < p for _ in range(997)]))

    def gaps_random(self, p: float) -> None:
        rng = random.Random(self.rng.getrandbits(32))
        self.source.set_pause_generator(itertools.cycle([rng.random() < p for _ in range(991)]))

    async def finish(self, sent: list[AxiStreamFrame]) -> list[AxiStreamFrame]:
        """Wait until the source is idle and the FIFO drained; check order, wholeness, drops."""
        await self.source.wait()
        self.sink.clear_pause_generator()
        self.sink.pause = False
        await ClockCycles(self.dut.m_clk, 2 * self.depth + 50)
        got = []
        while not self.sink.empty():
            got.append(self.sink.recv_nowait())
        i, missing = 0, 0
        for n, g in enumerate(got):
            while i < len(sent) and (bytes(sent[i].tdata), _last(sent[i].tuser)) != (bytes(g.tdata), _last(g.tuser)):
                i, missing = i + 1, missing + 1
            assert i < len(sent), f"frame {n} out ({len(g.tdata)} bytes) is no frame in, or out of order"
            i += 1
        missing += len(sent) - i
        assert missing == self.drops, f"{missing} frames did not come out, s_drop pulsed {self.drops} times"
        assert not got or self.offers > 0, "frames came out, but the monitor saw no pointer offer"
        return got


def _last(tuser) -> int:
    return int(tuser[-1] if isinstance(tuser, list) else tuser or 0)


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def test_fifo_no_drop(dut):
    """F29: a reader that always keeps up (m_clk faster, tready mostly high): every frame
    of 1 to 3 words' worth of bytes up to DEPTH/2 words comes out whole, in order, tuser
    and tkeep kept (the sink rebuilds the bytes from tkeep); nothing is dropped."""
    rng = make_rng(dut)
    b = FifoBench(dut, rng, 8000, 6994)
    await b.start()
    b.ready_random(0.1)
    b.gaps_random(0.3)
    sent = [b.frame(rng.randint(1, b.kw * b.depth // 4), rng.randrange(2)) for _ in range(60)]
    for f in sent:
        await b.source.send(f)
    got = await b.finish(sent)
    assert len(got) == len(sent) and b.drops == 0, (len(got), b.drops)


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def test_fifo_overflow(dut):
    """F29: a reader far slower than the writer (m_clk 3 times slower, tready half the
    time): frames that do not fit are dropped whole and counted by s_drop, the others come
    out whole and in order; a frame of more than DEPTH words never fits; a frame of
    exactly DEPTH words fits an empty FIFO."""
    rng = make_rng(dut)
    b = FifoBench(dut, rng, 8000, 24010)
    await b.start()
    b.ready_random(0.5)
    sent = [b.frame(rng.randint(1, b.kw * b.depth // 2), rng.randrange(2)) for _ in range(40)]
    for f in sent:
        await b.source.send(f)
    await b.finish(sent)
    assert b.drops > 0, "nothing dropped"
    # after the drain: one frame of DEPTH words fits, one word more never does
    drops = b.drops
    whole, over = b.frame(b.kw * b.depth, 0), b.frame(b.kw * b.depth + 1, 1)
    b.sink.pause = True
    await b.source.send(whole)
    await b.source.send(over)
    await b.source.wait()
    assert b.drops == drops + 1, f"{b.drops - drops} drops for a full FIFO and one frame too big"
    b.drops = 0
    got = await b.finish([whole])
    assert [bytes(g.tdata) for g in got] == [bytes(whole.tdata)]


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def test_fifo_reset_mid_frame(dut):
    """F29: both sides reset while frames are in flight (the write side in the middle of a
    frame, words waiting on the read side), in the order prionic_eth_rx uses: m_rst from
    before s_rst until after it. Afterwards the FIFO is empty (nothing from before the reset
    comes out) and the frames sent then cross whole and in order."""
    rng = make_rng(dut)
    b = FifoBench(dut, rng, 8000, 6994)  # the reader faster: after the reset nothing may drop
    await b.start()
    b.sink.pause = True
    for _ in range(6):
        await b.source.send(b.frame(rng.randint(b.kw * 8, b.kw * b.depth // 4), 0))
    await ClockCycles(dut.s_clk, rng.randint(20, 60))  # some frames in, one being written
    b.source.clear()  # the frames not yet begun are not sent after the reset either
    dut.m_rst.value = 1
    await ClockCycles(dut.m_clk, 2)
    dut.s_rst.value = 1
    await ClockCycles(dut.s_clk, 4)
    dut.s_rst.value = 0
    await ClockCycles(dut.m_clk, 4)
    dut.m_rst.value = 0
    await ClockCycles(dut.m_clk, 2 * b.depth)
    b.sink.pause = False
    await ClockCycles(dut.m_clk, 50)
    assert b.sink.empty(), "words from before the reset came out"
    b.drops = 0
    sent = [b.frame(rng.randint(1, b.kw * b.depth // 4), rng.randrange(2)) for _ in range(20)]
    for f in sent:
        await b.source.send(f)
    got = await b.finish(sent)
    assert len(got) == len(sent), f"{len(got)} of {len(sent)} frames after the reset"
