"""Block tests of prionic_gmii_rx, the optional GMII receive front end (F2).

Run through tests/test_gmii_rx.py (pytest, both simulators). The input is driven by
cocotbext-eth's GmiiSource, which sends a GmiiFrame's bytes as they are (preamble, SFD
and FCS included, with ``GmiiFrame.from_payload``) and raises rx_er on the bytes its
``error`` list marks; the garbage test drives the pins itself. The expected output has
two independent sources:

* what each test meant to send (the payload, and whether it corrupted the FCS or raised
  rx_er), checked frame by frame;
* a byte-level reference (``ref_burst``) applied to every rx_dv burst that a monitor
  saw on the pins, written from docs/gmii.md: at least one 0x55, then 0xD5, then the
  frame; fewer than 5 bytes after the SFD is a short frame; the last 4 bytes are the
  FCS (checked with zlib's CRC-32); rx_er on a frame byte marks it bad.

The monitor samples the pins and m_axis at falling edges (tb/common.py): what it sees
there is what the next rising edge samples. It also checks the AXI4-Stream rule that an
unaccepted beat does not change, and measures the latency from the last FCS byte to
tlast (docs/gmii.md: 3 cycles). Counters are compared with the reference's counts at
the end of every test.
"""

from __future__ import annotations

import random
import zlib

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge

from tb.blocks.gmii_rx.ref import LATENCY, PRE, SFD, GmiiBench, expect_frames, flip_bit, scapy_frames, with_fcs
from tb.common import amount, make_rng, soak


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def test_gmii_good_frames(dut):
    """F2: good frames (scapy UDP/TCP/ARP/ICMP, random payloads of 1..1518 bytes, long and
    shortened preambles) at the standard gap of 12 and back to back with a 1-cycle gap:
    each comes out as its payload without preamble and FCS, tuser 0, tlast 3 cycles
    after the last FCS byte; status_frames counts them."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    await b.start()
    payloads = scapy_frames()
    payloads += [rng.randbytes(n) for n in (1, 2, 3, 59, 60, 61, 64, 1514, 1518)]
    payloads += [rng.randbytes(rng.randint(60, 200)) for _ in range(20)]
    sent = []
    for k, p in enumerate(payloads):
        preamble = (7, 1, 2, 10)[k % 4]
        b.send(with_fcs(p, preamble), gap=(12, 1)[k % 2])
        sent.append((p, 0))
    await b.finish()
    expect_frames(b, sent)
    got = b.check_against_reference()
    assert got["frames"] == len(payloads) and got["fcs_errors"] == 0
    dut._log.info("%d good frames, %d cycles, latency %d cycles: %s", len(payloads), b.cycles, LATENCY, got)


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def test_gmii_bad_fcs(dut):
    """F2: one bit flipped in the frame or in its FCS, rx_dv falling early (a cut frame),
    an FCS of the wrong byte order: tuser 1 on the last beat, the bytes still come out,
    status_fcs_errors counts each; good frames in between stay good."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    await b.start()
    sent = []
    for k in range(60):
        p = rng.randbytes(rng.randint(46, 300))
        raw = with_fcs(p)
        kind = k % 4
        if kind == 0:  # bit error in the frame
            raw[8 + rng.randrange(len(p))] ^= 1 << rng.randrange(8)
            exp = (bytes(raw[8:-4]), 1)
        elif kind == 1:  # bit error in the FCS
            raw[-1 - rng.randrange(4)] ^= 1 << rng.randrange(8)
            exp = (p, 1)
        elif kind == 2:  # rx_dv falls early: the last 4 bytes that came are taken as the FCS
            cut = rng.randint(8 + 6, len(raw) - 1)
            raw = raw[:cut]
            exp = (bytes(raw[8:-4]), 1)
        else:  # good, between bad ones
            exp = (p, 0)
        b.send(raw, gap=rng.choice((1, 2, 12)))
        sent.append(exp)
    # the FCS sent big-endian: wrong unless the CRC is a byte palindrome
    p = b"\x01\x02\x03" * 30
    crc = zlib.crc32(p).to_bytes(4, "little")
    assert crc != crc[::-1]
    b.send(bytearray([PRE] * 7 + [SFD]) + p + crc[::-1])
    sent.append((p, 1))
    await b.finish()
    expect_frames(b, sent)
    got = b.check_against_reference()
    assert got["fcs_errors"] == sum(t for _, t in sent) and got["rx_er_frames"] == 0, got
    dut._log.info("%d frames, counters %s", len(sent), got)


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def test_gmii_rx_er(dut):
    """F2: rx_er on one byte of the frame, of the FCS, or on every byte: tuser 1 with a good
    FCS, status_rx_er_frames counts it; rx_er in the preamble or on the SFD drops the
    frame as a preamble error."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    await b.start()
    sent = []
    for k in range(40):
        p = rng.randbytes(rng.randint(46, 200))
        raw = with_fcs(p)
        err = [0] * len(raw)
        kind = k % 5
        if kind == 0:
            err[8 + rng.randrange(len(p))] = 1
        elif kind == 1:
            err[-1 - rng.randrange(4)] = 1
        elif kind == 2:
            err = [0] * 8 + [1] * (len(raw) - 8)
        elif kind == 3:  # in the preamble or on the SFD: no frame
            err[rng.randrange(8)] = 1
        b.send(raw, err, gap=rng.choice((1, 12)))
        if kind != 3:
            sent.append((p, int(kind != 4)))
    await b.finish()
    expect_frames(b, sent)
    got = b.check_against_reference()
    assert got["rx_er_frames"] == 24 and got["preamble_errors"] == 8 and got["fcs_errors"] == 0, got
    dut._log.info("counters %s", got)


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def test_gmii_preamble_and_short(dut):
    """F2: bursts without a valid preamble+SFD (no preamble, SFD alone, wrong SFD 0x5D, a
    corrupted preamble byte, a preamble that never ends, a lone byte) are dropped and
    counted in status_preamble_errors; 0..4 bytes after the SFD are dropped and counted in
    status_short_frames; 5 bytes are a 1-byte frame. Good frames around them come out."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    await b.start()
    sent = []
    good = rng.randbytes(60)
    bad_preambles = [
        good + zlib.crc32(good).to_bytes(4, "little"),  # no preamble at all
        bytes([SFD]) + good,  # SFD alone
        bytes([PRE] * 7 + [0x5D]) + good,  # wrong SFD
        bytes([PRE] * 3 + [0x54] + [PRE] * 3 + [SFD]) + good,  # corrupted preamble byte
        bytes([PRE] * 40),  # preamble only
        bytes([0x00]),
        bytes([PRE]),
    ]
    for raw in bad_preambles:
        b.send(raw, gap=1)
        b.send(with_fcs(good), gap=1)
        sent.append((good, 0))
    for n in range(5):  # 0..4 bytes after the SFD: nothing left without the FCS
        b.send(bytes([PRE] * 7 + [SFD]) + rng.randbytes(n), gap=1)
        b.send(with_fcs(good), gap=12)
        sent.append((good, 0))
    one = rng.randbytes(1)  # 5 bytes after the SFD: a 1-byte frame, good then bad FCS
    b.send(with_fcs(one), gap=1)
    sent.append((one, 0))
    raw = with_fcs(one)
    raw[-2] ^= 0x10
    b.send(raw, gap=1)
    sent.append((one, 1))
    await b.finish()
    expect_frames(b, sent)
    got = b.check_against_reference()
    assert got["preamble_errors"] == len(bad_preambles) and got["short_frames"] == 5, got
    dut._log.info("counters %s", got)


def random_burst(rng: random.Random) -> tuple[bytearray, list[int] | None, str]:
    """One random input burst for the random test, and its kind."""
    r = rng.random()
    n = rng.randint(1, 59) if r < 0.3 else rng.randint(60, 128) if r < 0.9 else rng.randint(129, 600)
    p = rng.randbytes(n)
    preamble = rng.choice((7, 7, 7, 1, 3, 12))
    raw = with_fcs(p, preamble)
    start = preamble + 1
    r = rng.random()
    if r < 0.55:
        return raw, None, "good"
    if r < 0.65:
        return flip_bit(raw, rng, start), None, "fcs"
    if r < 0.75:
        err = [0] * len(raw)
        err[rng.randrange(start, len(raw)) if rng.random() < 0.8 else rng.randrange(start)] = 1
        return raw, err, "rx_er"
    if r < 0.82:
        return raw[: rng.randint(start, len(raw) - 1)], None, "cut"
    if r < 0.90:
        return flip_bit(raw, rng, 0), None, "any_bit"
    if r < 0.95:
        bad = bytearray(raw)
        bad[rng.randrange(start)] = rng.choice((0x00, 0x54, 0x5D, 0xD4, 0xFF, SFD))
        return bad, None, "preamble"
    return bytearray([PRE] * preamble + [SFD]) + rng.randbytes(rng.randint(0, 5)), None, "short"


@cocotb.test(timeout_time=2000, timeout_unit="ms")
async def test_gmii_random(dut):
    """F2: 1,200 random bursts (480 on Icarus, 20,000 under `make soak`) (good frames of
    1..600 bytes, bit errors anywhere, rx_er, cut frames, bad preambles, short frames; preambles of 1..12 bytes; gaps of
    1..20 cycles): the stream and every counter equal the reference's, every frame's
    tlast comes 3 cycles after its last FCS byte."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    await b.start()
    n = 20000 if soak() else amount(1200)
    kinds: dict[str, int] = {}
    for _ in range(n):
        raw, err, kind = random_burst(rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        b.send(raw, err, gap=rng.choice((1, 1, 2, 3, 12, 12, 12, rng.randint(1, 20))))
    await b.finish(timeout_us=2_000_000)
    got = b.check_against_reference()
    assert len(b.bursts) == n, f"{len(b.bursts)} bursts seen, {n} sent"
    verdicts = {v: sum(e.verdict == v for e in b.bursts) for v in ("frame", "preamble", "short")}
    dut._log.info("%d bursts in %d cycles, sent %s, verdicts %s, counters %s", n, b.cycles, kinds, verdicts, got)
    assert got["fcs_errors"] > 0 and got["rx_er_frames"] > 0 and verdicts["preamble"] > 0 and verdicts["short"] > 0


@cocotb.test(timeout_time=500, timeout_unit="ms")
async def test_gmii_garbage(dut):
    """F2: garbage on the pins (rx_dv, rx_er and rxd random, in runs of every length,
    rx_er while rx_dv is low, preamble-like bytes) never hangs the receiver: the stream
    and counters equal the reference's, and a good frame sent after each garbage phase
    comes out intact."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    await b.start()
    d = dut
    finals = []
    for phase in range(12):
        p_dv = (0.5, 0.9, 0.98, 0.2)[phase % 4]
        cycles = rng.randint(200, 800)
        await RisingEdge(d.clk)
        for _ in range(cycles):
            dv = rng.random() < p_dv
            r = rng.random()
            byte = PRE if r < 0.5 else SFD if r < 0.6 else rng.getrandbits(8)
            d.gmii_rx_dv.value = int(dv)
            d.gmii_rxd.value = byte
            d.gmii_rx_er.value = int(rng.random() < 0.03)
            await RisingEdge(d.clk)
        d.gmii_rx_dv.value = 0
        d.gmii_rx_er.value = 0
        await ClockCycles(d.clk, 2)
        p = rng.randbytes(rng.randint(60, 200))
        b.send(with_fcs(p), gap=12)
        finals.append(p)
        await b.finish()
        assert b.out and b.out[-1].data == p and b.out[-1].tuser == 0, f"phase {phase}: good frame lost after garbage"
    got = b.check_against_reference()
    dut._log.info("%d bursts, %d cycles, counters %s", len(b.bursts), b.cycles, got)


@cocotb.test(timeout_time=500, timeout_unit="ms")
async def test_gmii_backpressure(dut):
    """F2: m_axis_tready falling at random (a MAC cannot wait): an unaccepted beat never
    changes; every good frame comes out whole with tuser 0, or truncated with tuser 1
    (a prefix of at least 2 bytes), or not at all; status_overflow_frames counts the
    truncated and the lost ones, status_frames the delivered ones."""
    rng = make_rng(dut)
    b = GmiiBench(dut, rng)
    b.ready_run = 30
    await b.start()
    payloads = []

    def send_batch(count: int) -> None:
        for _ in range(count):
            k = len(payloads)
            p = k.to_bytes(2, "big") + rng.randbytes(rng.randint(58, 150))
            payloads.append(p)
            b.send(with_fcs(p), gap=rng.choice((1, 12)))

    # tready falling at random: frames come out whole or truncated (a frame is lost only
    # when tready stays low from the previous frame's last beat to its own first one: rare)
    for ready_low in (0.004, 0.03):
        b.ready_low = ready_low
        send_batch(150)
        await b.finish()
    # then the loss on purpose: tready low for 40 cycles from every tlast beat on, longer
    # than the gap, preamble and FCS delay to the next frame's first beat (at most 26)
    b.hold_last = 40
    send_batch(20)
    await b.finish()
    n = len(payloads)
    by_id = {p[:2]: k for k, p in enumerate(payloads)}
    whole = truncated = 0
    last = -1
    for o in b.out:
        assert len(o.data) >= 2, f"a delivered frame of {len(o.data)} byte"
        k = by_id[o.data[:2]]
        assert k > last, "frames out of order"
        last = k
        if o.tuser == 0:
            assert o.data == payloads[k], f"frame {k}: tuser 0 but data differs"
            whole += 1
        else:
            assert payloads[k].startswith(o.data), f"frame {k}: truncated data is not a prefix"
            truncated += 1
    lost = n - len(b.out)
    got = b.counters()
    want = {
        "frames": len(b.out),
        "fcs_errors": 0,
        "rx_er_frames": 0,
        "preamble_errors": 0,
        "short_frames": 0,
        "overflow_frames": truncated + lost,
    }
    assert got == want, f"counters {got}, expected {want}"
    dut._log.info("%d frames: %d whole, %d truncated, %d lost; counters %s", n, whole, truncated, lost, got)
    assert whole > 0 and truncated > 0 and lost > 0, "backpressure cases not all reached"
