"""prionic_parser block test (F1, F3, F4): random, malformed and fuzzed frames at any
width, back to back, against two references: the model's Parser (byte offsets, written
from docs/frame-path.md) and tb/blocks/parser/dissect.py (the same rules stated over scapy's own
dissectors and checksum routines). At 64 bits Verilator parses 4,000 frames and Icarus,
some times slower per cycle, 2,000: about a third malformed or truncated on purpose, a
sixth from scapy's fuzz(). Every result must come at edge T+6 (F25, frame-path.md s2.7), also for runts back to back."""

from __future__ import annotations

from collections import Counter

import cocotb
from cocotb.triggers import FallingEdge

from model.parser import PARSE_LATENCY, Parser
from tb.blocks.parser.dissect import dissect
from tb.common import Clocked, amount, make_rng, param, soak
from tb.top.frames import Frame, fuzz_frame, malformed_frame, parser_frame

MAX_FRAME_LEN = 1518


def random_frames(rng, n: int) -> list[Frame]:
    """Half well-formed (with some wrong checksums), a third malformed, a sixth fuzz()."""
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            out.append(parser_frame(rng))
        elif r < 5 / 6:
            out.append(malformed_frame(rng))
        else:
            out.append(fuzz_frame(rng))
    return out


@cocotb.test()
async def parser_matches_model_and_scapy(dut):
    """F1, F3, F4, F25: every frame's length, verdict, fields and checksum flags, back to
    back and with gaps, against the model and against scapy (tb/blocks/parser/dissect.py), each
    registered at edge T+6 (frame-path.md s2.7)."""
    width = param("DATA_WIDTH", 32)
    kw = width // 8
    rng = make_rng(dut)
    # Python drives every beat, and scapy builds and dissects every frame (about 3 ms each):
    # 4,000 at 64 bits, about 25 CPU-seconds on Verilator; `make soak` parses 120,000. On Icarus
    # 200 at 8 bits, 400 at 32, 1,200 at 64: still at least the coverage floor below of each
    # class (1,000 seeds of random_frames: at least 4 of each at 200 frames, 12 at 400)
    n = {8: 300, 16: 500, 32: 800, 64: 4000}[width]
    share = {8: 2 / 3, 16: 1.0, 32: 0.5, 64: 0.3}[width]
    frames = random_frames(rng, (120_000 if width == 64 else 20 * n) if soak() else amount(n, icarus=share))
    clocked = Clocked(dut)
    for s in ("s_beat_valid", "s_beat_last", "s_beat_user", "s_beat_data", "s_beat_keep", "ts"):
        getattr(dut, s).value = 0
    await clocked.start()

    results = []
    t_last: list[int] = []   # edge at which each frame's last beat is accepted
    cyc = 0                  # falling edges so far: a beat driven after falling edge n is accepted at rising edge n

    def v(sig) -> int:
        """Fields of a malformed frame may be X on Icarus (stale capture): -1."""
        val = sig.value
        return int(val) if val.is_resolvable else -1

    def sample() -> None:
        """The parse result the DUT presents at this falling edge, if any."""
        if dut.m_valid.value == 1:
            results.append(dict(edge=cyc - 1,
                len=v(dut.m_len), words=v(dut.m_words), bad=v(dut.m_bad),
                oversize=v(dut.m_oversize), malformed=v(dut.m_malformed),
                is_ipv4=v(dut.m_is_ipv4), proto=v(dut.m_proto),
                ports_valid=v(dut.m_ports_valid), dport=v(dut.m_dport),
                sport=v(dut.m_sport), ethertype=v(dut.m_ethertype), frag=v(dut.m_frag),
                src=v(dut.m_src_ip), dst=v(dut.m_dst_ip), is_ipv6=v(dut.m_is_ipv6),
                tags=v(dut.m_vlan_tags), tci=v(dut.m_tci), tcp_flags=v(dut.m_tcp_flags),
                flags=v(dut.m_flags)))

    async def idle(cycles: int) -> None:
        nonlocal cyc
        for _ in range(cycles):
            await FallingEdge(dut.clk)
            cyc += 1
            sample()
            dut.s_beat_valid.value = 0

    # s_beat_store (the beat goes to the frame FIFO): the first MAX_BEATS beats of a frame
    max_beats = (MAX_FRAME_LEN + kw) // kw
    store_wrong: list[tuple[int, int, int]] = []   # (frame, beat, s_beat_store)

    # one wake-up per cycle: at each falling edge, first sample the outputs (registered:
    # the writes below reach the DUT after this edge), then drive the next beat
    for n_fr, fr in enumerate(frames):
        data = fr.data
        beats = [data[i:i + kw] for i in range(0, len(data), kw)]
        for i, b in enumerate(beats):
            await FallingEdge(dut.clk)
            cyc += 1
            sample()
            if int(dut.s_beat_store.value) != int(i < max_beats):   # a flip-flop: stable now
                store_wrong.append((n_fr, i, int(dut.s_beat_store.value)))
            keep = (1 << len(b)) - 1
            if not fr.tkeep_ok and i == 0:
                keep &= ~0b10 if kw > 1 else 0
            dut.s_beat_data.value = int.from_bytes(b.ljust(kw, b"\0"), "little")
            dut.s_beat_keep.value = keep
            dut.s_beat_valid.value = 1
            dut.s_beat_last.value = int(i == len(beats) - 1)
            dut.s_beat_user.value = int(fr.tuser and i == len(beats) - 1)
        t_last.append(cyc)
        if rng.random() < 0.5:
            await idle(max(1, rng.randint(0, 3)))  # a gap of 1 to 3 cycles
    await idle(PARSE_LATENCY + 3)

    assert len(results) == len(frames), f"{len(results)} results for {len(frames)} frames"
    assert not store_wrong, f"s_beat_store wrong at (frame, beat, value) {store_wrong[:5]}"
    parser = Parser()
    cover: Counter[str] = Counter()
    for i, (fr, got) in enumerate(zip(frames, results, strict=True)):
        exp = parser.parse(fr.data, tkeep_ok=fr.tkeep_ok)
        ref = dissect(fr.data, tkeep_ok=fr.tkeep_ok)
        nbeats = -(-len(fr.data) // kw)
        ctx = f"frame {i} ({fr.kind}, {len(fr.data)} bytes: {fr.data[:64].hex()})"
        assert got["edge"] == t_last[i] + PARSE_LATENCY, f"{ctx}: result at edge {got['edge']}, T = {t_last[i]}"
        # the model, field by field
        assert got["len"] == exp.length, f"{ctx}: length {got['len']} != {exp.length}"
        assert got["words"] == min(nbeats, max_beats), f"{ctx}: words {got['words']}"
        assert got["bad"] == int(fr.tuser), ctx
        assert got["oversize"] == int(exp.length > MAX_FRAME_LEN), ctx
        assert got["malformed"] == int(exp.malformed), f"{ctx}: malformed {got['malformed']} ({exp.reason})"
        assert got["flags"] == exp.flags, f"{ctx}: flags {got['flags']:#x} != model {exp.flags:#x}"
        # scapy's reading of the same rules
        assert got["malformed"] == int(ref.malformed), f"{ctx}: malformed {got['malformed']}, scapy {ref}"
        assert got["flags"] == ref.flags, f"{ctx}: flags {got['flags']:#x} != scapy {ref.flags:#x} {ref}"
        cover["malformed" if exp.malformed else fr.kind] += 1
        if exp.malformed:
            continue
        dut_fields = (got["is_ipv4"], got["is_ipv6"], got["ethertype"], got["tags"], got["tci"],
                      got["frag"] if exp.is_ipv4 or exp.is_ipv6 else 0, got["ports_valid"], got["tcp_flags"])
        assert dut_fields == (int(exp.is_ipv4), int(exp.is_ipv6), exp.ethertype, exp.vlan_tags, exp.tci,
                              int(exp.frag), int(exp.ports_valid), exp.tcp_flags), f"{ctx}: fields vs model"
        assert dut_fields == (int(ref.v4), int(ref.v6), ref.ethertype, ref.tags, ref.tci,
                              int(ref.frag), int(ref.ports is not None), ref.tcp_flags), f"{ctx}: fields vs scapy {ref}"
        if exp.is_ipv4:
            assert (got["src"], got["dst"]) == (exp.src_ip, exp.dst_ip), f"{ctx}: addresses"
        if exp.is_ipv4 or exp.is_ipv6:
            assert got["proto"] == exp.proto == ref.proto, (
                f"{ctx}: proto {got['proto']} model {exp.proto} scapy {ref.proto}")
        if exp.ports_valid:
            assert (got["sport"], got["dport"]) == (exp.sport, exp.dport) == ref.ports, f"{ctx}: ports"
        for name, bit in (("vlan", got["tags"] > 0), ("ipv6", exp.is_ipv6), ("frag", exp.frag),
                          ("tcp", got["flags"] >> 2 & 1), ("udp", got["flags"] >> 3 & 1),
                          ("ip_csum_bad", got["flags"] >> 5 & 1), ("l4_csum_ok", got["flags"] >> 6 & 3 == 1),
                          ("l4_csum_bad", got["flags"] >> 7 & 1)):
            cover[name] += int(bit)
    dut._log.info("%d frames checked against the model and scapy: %s", len(frames), dict(cover))
    for name in ("malformed", "fuzz", "vlan", "ipv6", "frag", "tcp", "udp", "ip_csum_bad", "l4_csum_ok", "l4_csum_bad"):
        assert cover[name] >= min(5, n // 100), f"coverage: too few {name} frames: {dict(cover)}"
