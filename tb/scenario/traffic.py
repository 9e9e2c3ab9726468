"""A scenario's traffic: the frames of each flow (periodic, bursts, pcap replay, "users"
messages) merged into one arrival schedule in cycles, and the delivered frames written
back out as pcap files.
"""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path

from tb.scenario.pcapio import first_time, read_frames, write_frames
from tb.scenario.spec import CYCLES_PER_US, MSS, WIRE_EXTRA, FlowSpec, Scenario
from tb.top.frames import Flow, Frame, pad60


def host_rng(sc: Scenario) -> random.Random:
    """The host model's random stream (ISR and return delays) of a scenario run: from the
    scenario's seed, so that a scenario replays exactly, and both paths draw alike."""
    return random.Random(f"host-{sc.seed}")


def pcap_frames(fs: FlowSpec, end_us: float) -> list[tuple[float, Frame]]:
    """The frames of a pcap flow with their arrival (us): capture time from the first
    packet, times ``rescale``, after ``start_us``; short frames padded to 60 bytes; a
    capture of another link type converted to Ethernet (tb/scenario/pcapio.py)."""
    out: list[tuple[float, Frame]] = []
    t0 = None
    for ts, data in read_frames(fs.pcap):
        t0 = ts if t0 is None else t0
        t = fs.start_us + float(ts - t0) * 1e6 * fs.rescale
        if t >= end_us:
            break
        out.append((t, Frame(pad60(data), kind="pcap", flow=fs.name)))
    return out


def pcap_time_base(sc: Scenario) -> Decimal:
    """Where cycle 0 of a run lies in the time of the pcap files it writes (seconds): for a
    scenario that replays a capture, that capture's time base (its first packet at its
    flow's ``start_us``), else 0."""
    for fs in sc.flows:
        if fs.pattern == "pcap":
            t0 = first_time(fs.pcap)
            if t0 is not None:
                return t0 - Decimal(str(fs.start_us)) / Decimal(10**6)
    return Decimal(0)


def write_pcaps(out: Path, run, clock_mhz: float = CYCLES_PER_US, base: Decimal = Decimal(0)) -> list[Path]:
    """``delivered_q<q>.pcap`` per queue: the frames the host read from its ring, each
    stamped with its completion (the write-back's B handshake) in simulated time from
    ``base`` (:func:`pcap_time_base`), as nanosecond pcap for Wireshark (F22)."""
    cpl: dict[int, list[int]] = {}
    for c, q, _slot in run.observed.completions:
        cpl.setdefault(q, []).append(c)
    hz = Decimal(str(clock_mhz)) * 10**6
    paths = []
    for q, frames in enumerate(run.delivered):
        path = out / f"delivered_q{q}.pcap"
        write_frames(path, [(base + Decimal(c) / hz, bytes(d.data))
                            for d, c in zip(frames, cpl.get(q, []), strict=False)])
        paths.append(path)
    return paths


def user_frames(fs: FlowSpec, end_us: float, rng: random.Random) -> list[tuple[float, Frame]]:
    """A "users" flow: ``users`` TCP connections (source ports ``sport``..), each sending a
    ``message``-byte message every ``period_us`` from a random phase in its first period;
    a message is MSS-sized segments, each one 1 GbE frame time after the previous one (its
    length plus preamble, FCS and gap: ``WIRE_EXTRA`` bytes, at 8 ns per byte)."""
    out: list[tuple[float, Frame]] = []
    for u in range(fs.users):
        t = fs.start_us + rng.uniform(0, fs.period_us)
        while t < end_us:
            left, ts = fs.message, t
            while left > 0:
                n = min(left, MSS)
                fr = Flow(fs.name, "tcp", fs.dport, sport=fs.sport + u, src=fs.src, payload=(n, n)).make(rng)
                out.append((ts, fr))
                ts += (len(fr) + WIRE_EXTRA) * 8 / 1000   # the next segment one 1 GbE frame time later
                left -= n
            t += fs.period_us
    return out


def schedule(sc: Scenario) -> list[tuple[int, Frame]]:
    """Arrival cycle and frame of every frame of every flow, sorted by arrival."""
    rng = random.Random(sc.seed)
    end = sc.duration_us
    out: list[tuple[float, int, Frame]] = []
    for fi, fs in enumerate(sc.flows):
        if fs.pattern == "pcap":
            out += [(t, fi, fr) for t, fr in pcap_frames(fs, end)]
            continue
        if fs.pattern == "users":
            out += [(t, fi, fr) for t, fr in user_frames(fs, end, rng)]
            continue
        flow = Flow(fs.name, fs.proto, fs.dport, sport=fs.sport, src=fs.src, payload=fs.payload)
        t = fs.start_us
        while t < end:
            if fs.pattern == "burst":
                for _ in range(fs.burst):
                    out.append((t, fi, flow.make(rng)))
            else:
                out.append((t, fi, flow.make(rng)))
            t += rng.expovariate(fs.rate_pps / 1e6) if fs.pattern == "poisson" else fs.period_us
    out.sort(key=lambda x: (x[0], x[1]))
    return [(int(t * CYCLES_PER_US) + 50, fr) for t, _, fr in out]
