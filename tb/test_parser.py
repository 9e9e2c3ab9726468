"""prionic_parser block test (F1, F3): random and malformed frames at any width, back to
back, against the model's Parser (written from docs/frame-path.md) and, for well-formed
frames, against scapy's own dissection of the same bytes."""

from __future__ import annotations

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge
from scapy.all import IP, TCP, UDP, Ether  # type: ignore[attr-defined]

from model.parser import Parser
from tb.common import Clocked, make_rng, param, soak
from tb.frames import Flow, Frame, arp, bad_input, fragment

MAX_FRAME_LEN = 1518


def random_frames(rng, n: int) -> list[Frame]:
    flows = [Flow("u", "udp", 5000, options=True), Flow("t", "tcp", 80, options=True, payload=(0, 300))]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.55:
            out.append(rng.choice(flows).make(rng))
        elif r < 0.6:
            out.append(arp(rng))
        elif r < 0.65:
            out.append(fragment(rng))
        else:
            out.append(bad_input(rng))
    return out


def scapy_fields(data: bytes) -> tuple[bool, int, int] | None:
    """(is_ipv4, proto, dport or -1) by scapy, for frames scapy sees as clean IPv4."""
    pkt = Ether(data)
    if IP not in pkt:
        return None
    ip = pkt[IP]
    frag = ip.flags.MF or ip.frag
    dport = -1
    if not frag and (UDP in pkt or TCP in pkt):
        dport = pkt[UDP].dport if UDP in pkt else pkt[TCP].dport
    return True, ip.proto, dport


@cocotb.test()
async def parser_matches_model_and_scapy(dut):
    """F1, F3: every frame's length, verdict and fields, back-to-back and with gaps."""
    width = param("DATA_WIDTH", 32)
    kw = width // 8
    rng = make_rng(dut)
    n = {8: 150, 16: 200, 32: 300, 64: 400}[width]  # Python drives every beat
    frames = random_frames(rng, 20 * n if soak() else n)
    clocked = Clocked(dut)
    for s in ("s_beat_valid", "s_beat_last", "s_beat_user", "s_beat_data", "s_beat_keep", "ts"):
        getattr(dut, s).value = 0
    await clocked.start()

    results = []

    def v(sig) -> int:
        """Fields of a malformed frame may be X on Icarus (stale capture): -1."""
        val = sig.value
        return int(val) if val.is_resolvable else -1

    async def collect():
        while True:
            await FallingEdge(dut.clk)
            if dut.m_valid.value == 1:
                results.append(dict(
                    len=v(dut.m_len), words=v(dut.m_words), bad=v(dut.m_bad),
                    oversize=v(dut.m_oversize), malformed=v(dut.m_malformed),
                    is_ipv4=v(dut.m_is_ipv4), proto=v(dut.m_proto),
                    ports_valid=v(dut.m_ports_valid), dport=v(dut.m_dport),
                    sport=v(dut.m_sport), ethertype=v(dut.m_ethertype), frag=v(dut.m_frag),
                    src=v(dut.m_src_ip), dst=v(dut.m_dst_ip)))

    cocotb.start_soon(collect())
    for fr in frames:
        data = fr.data
        beats = [data[i:i + kw] for i in range(0, len(data), kw)]
        for i, b in enumerate(beats):
            await FallingEdge(dut.clk)
            keep = (1 << len(b)) - 1
            if not fr.tkeep_ok and i == 0:
                keep &= ~0b10 if kw > 1 else 0
            dut.s_beat_data.value = int.from_bytes(b.ljust(kw, b"\0"), "little")
            dut.s_beat_keep.value = keep
            dut.s_beat_valid.value = 1
            dut.s_beat_last.value = int(i == len(beats) - 1)
            dut.s_beat_user.value = int(fr.tuser and i == len(beats) - 1)
        if rng.random() < 0.5:
            await FallingEdge(dut.clk)
            dut.s_beat_valid.value = 0
            for _ in range(rng.randint(0, 3)):
                await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.s_beat_valid.value = 0
    for _ in range(4):
        await RisingEdge(dut.clk)

    assert len(results) == len(frames), f"{len(results)} results for {len(frames)} frames"
    parser = Parser()
    max_beats = (MAX_FRAME_LEN + kw) // kw
    for i, (fr, got) in enumerate(zip(frames, results, strict=True)):
        exp = parser.parse(fr.data, tkeep_ok=fr.tkeep_ok)
        nbeats = -(-len(fr.data) // kw)
        ctx = f"frame {i} ({fr.kind}, {len(fr.data)} bytes)"
        assert got["len"] == exp.length, f"{ctx}: length {got['len']} != {exp.length}"
        assert got["words"] == min(nbeats, max_beats), f"{ctx}: words {got['words']}"
        assert got["bad"] == int(fr.tuser), ctx
        assert got["oversize"] == int(exp.length > MAX_FRAME_LEN), ctx
        assert got["malformed"] == int(exp.malformed), f"{ctx}: malformed {got['malformed']} ({exp.reason})"
        if exp.malformed:
            continue
        assert got["is_ipv4"] == int(exp.is_ipv4), ctx
        assert got["ethertype"] == exp.ethertype, f"{ctx}: ethertype"
        if exp.is_ipv4:
            assert got["frag"] == int(exp.frag), f"{ctx}: frag"
            assert (got["src"], got["dst"]) == (exp.src_ip, exp.dst_ip), f"{ctx}: addresses"
        assert got["ports_valid"] == int(exp.ports_valid), ctx
        if exp.is_ipv4:
            assert got["proto"] == exp.proto, ctx
        if exp.ports_valid:
            assert (got["sport"], got["dport"]) == (exp.sport, exp.dport), ctx
        if fr.kind == "ok" and fr.tkeep_ok and not fr.tuser:
            sc = scapy_fields(fr.data)
            assert sc is not None and sc[1] == got["proto"], f"{ctx}: scapy disagrees on proto"
            if sc[2] >= 0:
                assert got["ports_valid"] and sc[2] == got["dport"], f"{ctx}: scapy dport {sc[2]}"
    dut._log.info("%d frames checked", len(frames))
