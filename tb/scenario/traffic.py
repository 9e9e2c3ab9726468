"""A scenario's traffic: the frames of each flow (periodic, bursts, pcap replay, "users"
messages) merged into one arrival schedule in cycles, and the delivered frames written
back out as pcap files.
"""

from __future__ import annotations

import random
from pathlib import Path

from tb.frames import Flow, Frame, pad60
from tb.scenario.spec import CYCLES_PER_US, MSS, WIRE_EXTRA, FlowSpec, Scenario


def host_rng(sc: Scenario) -> random.Random:
    """The host model's random stream (ISR and return delays) of a scenario run: from the
    scenario's seed, so that a scenario replays exactly, and both paths draw alike."""
    return random.Random(f"host-{sc.seed}")


def pcap_frames(fs: FlowSpec, end_us: float) -> list[tuple[float, Frame]]:
    """The frames of a pcap flow with their arrival (us): capture time from the first
    packet, times ``rescale``, after ``start_us``; short frames padded to 60 bytes."""
    from scapy.utils import PcapReader

    out: list[tuple[float, Frame]] = []
    t0 = None
    with PcapReader(fs.pcap) as reader:
        for pkt in reader:
            ts = float(pkt.time)
            t0 = ts if t0 is None else t0
            t = fs.start_us + (ts - t0) * 1e6 * fs.rescale
            if t >= end_us:
                break
            out.append((t, Frame(pad60(bytes(pkt)), kind="pcap", flow=fs.name)))
    return out


def write_pcaps(out: Path, run, clock_mhz: float = CYCLES_PER_US) -> list[Path]:
    """``delivered_q<q>.pcap`` per queue: the frames the host read from its ring, each
    stamped with its completion (the write-back's B handshake) in simulated time, for
    Wireshark (F22)."""
    from scapy.layers.l2 import Ether
    from scapy.utils import PcapWriter

    cpl: dict[int, list[int]] = {}
    for c, q, _slot in run.observed.completions:
        cpl.setdefault(q, []).append(c)
    paths = []
    for q, frames in enumerate(run.delivered):
        path = out / f"delivered_q{q}.pcap"
        with PcapWriter(str(path), linktype=1, sync=False) as w:  # DLT_EN10MB
            for d, c in zip(frames, cpl.get(q, []), strict=False):
                pkt = Ether(bytes(d.data))
                pkt.time = c / (clock_mhz * 1e6)
                w.write(pkt)
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
                fr = Flow(fs.name, "tcp", fs.dport, sport=fs.sport + u, payload=(n, n)).make(rng)
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
        flow = Flow(fs.name, fs.proto, fs.dport, sport=fs.sport, payload=fs.payload)
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
