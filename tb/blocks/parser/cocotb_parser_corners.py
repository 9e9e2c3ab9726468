"""prionic_parser corner test for `make coverage` (F1, F3, F30): a jabber frame longer than
64 KB at 8 bits, whose length and beat count saturate at 0xFFFF (frame-path.md s1: the
length is saturated at 0xFFFF), then an ordinary frame parsed as usual: length, word count,
OVERSIZE and the result edge against the model's Parser. Run through
tests/test_parser_corners.py on both simulators."""

from __future__ import annotations

import cocotb
from cocotb.triggers import FallingEdge

from model.parser import PARSE_LATENCY, Parser
from tb.common import Clocked, make_rng, param
from tb.top.frames import Flow

MAX_FRAME_LEN = 1518


@cocotb.test()
async def parser_saturates_on_a_jabber_frame(dut):
    """F3: 65,600 bytes (more beats than a 16-bit count holds at 8 bits) then 80 bytes."""
    kw = param("DATA_WIDTH", 8) // 8
    rng = make_rng(dut)
    udp = Flow("u", "udp", 5000, payload=(18, 18)).make(rng).data
    frames = [udp + bytes(65_600 - len(udp)), Flow("u", "udp", 5000, payload=(38, 38)).make(rng).data]
    for s in ("s_beat_valid", "s_beat_last", "s_beat_user", "s_beat_data", "s_beat_keep", "ts"):
        getattr(dut, s).value = 0
    clocked = Clocked(dut)
    await clocked.start()
    results: list[tuple[int, int, int, int]] = []  # (edge, len, words, oversize)
    t_last: list[int] = []
    cyc = 0

    def sample() -> None:
        if dut.m_valid.value == 1:
            results.append((cyc - 1, int(dut.m_len.value), int(dut.m_words.value), int(dut.m_oversize.value)))

    for data in frames:
        beats = [data[i:i + kw] for i in range(0, len(data), kw)]
        for i, b in enumerate(beats):
            await FallingEdge(dut.clk)
            cyc += 1
            sample()
            dut.s_beat_data.value = int.from_bytes(b.ljust(kw, b"\0"), "little")
            dut.s_beat_keep.value = (1 << len(b)) - 1
            dut.s_beat_valid.value = 1
            dut.s_beat_last.value = int(i == len(beats) - 1)
        t_last.append(cyc)
    for _ in range(PARSE_LATENCY + 3):
        await FallingEdge(dut.clk)
        cyc += 1
        sample()
        dut.s_beat_valid.value = 0
    max_beats = (MAX_FRAME_LEN + kw) // kw
    parser = Parser()
    assert len(results) == 2, results
    for data, t, (edge, length, words, oversize) in zip(frames, t_last, results, strict=True):
        exp = parser.parse(data)
        assert edge == t + PARSE_LATENCY, (edge, t)
        assert (length, words, oversize) == (exp.length, min(-(-len(data) // kw), max_beats),
                                             int(exp.length > MAX_FRAME_LEN)), (len(data), length, words, oversize)
    assert results[0][1] == 0xFFFF
