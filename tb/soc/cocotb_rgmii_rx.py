"""The LiteX SoC's RGMII receiver (soc/core.py ``PrionicRGMIIRX``, F2, F32) as Migen writes it
with ECP5 primitives (DELAYG, IDDRX1F; models in tb/hdl/ecp5/): RGMII in, GMII out.

Run through tests/test_soc.py (pytest, both simulators). cocotbext-eth's RgmiiSource drives
the pins as a PHY does at 1000 Mb/s (low nibble and RX_DV for the rising edge, high nibble
and RX_DV XOR RX_ER for the falling edge, each half a period ahead of its edge). The monitor
here takes every RX_DV burst on the GMII side byte for byte (cocotbext-eth's GmiiSink does
not keep the first preamble byte, and the preamble is part of what must pass). Every frame
must come out as it went in (preamble, SFD and FCS included: prionic_gmii_rx strips them),
with RX_ER on exactly the bytes that carried it, and nothing between frames.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.eth import GmiiFrame, RgmiiSource

from tb.blocks.gmii_rx.ref import scapy_frames
from tb.common import amount, make_rng

PERIOD_NS = 8  # 125 MHz


class Bursts:
    """Every RX_DV burst on the GMII outputs, sampled at rising edges: (bytes, RX_ER per byte)."""

    def __init__(self, dut):
        self.dut = dut
        self.frames: list[tuple[bytes, list[int]]] = []
        cocotb.start_soon(self._run())

    async def _run(self):
        data, er = bytearray(), []
        while True:
            await RisingEdge(self.dut.rgmii_rx_clk)
            if int(self.dut.gmii_rx_dv.value):
                data.append(int(self.dut.gmii_rxd.value))
                er.append(int(self.dut.gmii_rx_er.value))
            elif data:
                self.frames.append((bytes(data), er))
                data, er = bytearray(), []
            else:
                assert not int(self.dut.gmii_rx_er.value), "RX_ER outside a frame"


async def _bench(dut):
    dut.rgmii_rxd.value = 0
    dut.rgmii_rx_ctl.value = 0
    cocotb.start_soon(Clock(dut.rgmii_rx_clk, PERIOD_NS, unit="ns").start())
    await ClockCycles(dut.rgmii_rx_clk, 4)  # the pipeline holds the idle pins
    source = RgmiiSource(dut.rgmii_rxd, dut.rgmii_rx_ctl, dut.rgmii_rx_clk)
    return source, Bursts(dut)


async def _through(dut, source, sink: Bursts, sent: list[GmiiFrame]) -> list[tuple[bytes, list[int], GmiiFrame]]:
    """Send ``sent``; once the pins are idle, each burst that came out beside the frame sent,
    checked to be as many and byte for byte the same."""
    for frame in sent:
        await source.send(frame)
    await _idle(dut, source)
    assert len(sink.frames) == len(sent), f"{len(sink.frames)} frames out, {len(sent)} in"
    for k, ((data, _), s) in enumerate(zip(sink.frames, sent, strict=True)):
        assert data == bytes(s.data), f"frame {k}: bytes differ"
    return [(data, er, s) for (data, er), s in zip(sink.frames, sent, strict=True)]


async def _idle(dut, source, cycles: int = 8):
    while not source.empty() or not source.idle():
        await RisingEdge(dut.rgmii_rx_clk)
    await ClockCycles(dut.rgmii_rx_clk, cycles)


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def test_rgmii_frames(dut):
    """F2, F32: scapy frames and random payloads of 1..1518 bytes, with preamble and FCS, come
    out as GMII byte for byte, with no RX_ER, one GMII frame per RGMII frame."""
    rng = make_rng(dut)
    source, sink = await _bench(dut)
    payloads = scapy_frames() + [rng.randbytes(n) for n in (1, 60, 64, 1518)]
    payloads += [rng.randbytes(rng.randint(46, 400)) for _ in range(amount(20, cocotb.SIM_NAME.lower()))]
    got = await _through(dut, source, sink, [GmiiFrame.from_payload(p) for p in payloads])
    for k, (data, er, _) in enumerate(got):
        assert not any(er), f"frame {k}: RX_ER on a clean frame"
        assert GmiiFrame(data).check_fcs(), f"frame {k}: FCS"
    dut._log.info("%d frames through the RGMII receiver", len(got))


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def test_rgmii_rx_er(dut):
    """F2, F32: RX_ER, sent as RX_DV XOR RX_ER on the falling edge, comes out on exactly the
    bytes that carried it (first, middle, last byte, several); RX_DV stays high through them."""
    rng = make_rng(dut)
    source, sink = await _bench(dut)
    sent = []
    for k in range(amount(12, cocotb.SIM_NAME.lower(), least=6)):
        frame = GmiiFrame.from_payload(rng.randbytes(rng.randint(46, 200)))
        n = len(frame.data)
        marks = [(0, 1, 8, n - 1)[k % 4]] if k % 5 else rng.sample(range(n), 3)
        frame.error = [1 if i in marks else 0 for i in range(n)]
        sent.append(frame)
    for k, (_, er, s) in enumerate(await _through(dut, source, sink, sent)):
        marked = [i for i, e in enumerate(er) if e]
        assert marked == [i for i, e in enumerate(s.error) if e], f"frame {k}: RX_ER on {marked}"
