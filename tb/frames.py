"""Frame construction for stimulus: flows built with scapy, plus deliberate bad input.

Every frame is an independent scapy build (headers and checksums from scapy, not from
our own code), padded to the 60-byte Ethernet minimum like a MAC would deliver it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from scapy.all import ARP, IP, TCP, UDP, Ether, Raw  # type: ignore[attr-defined]

MAC_NIC = "02:00:00:00:00:01"
MAC_PEER = "02:00:00:00:00:02"


@dataclass
class Frame:
    """One frame as the stream source sends it."""

    data: bytes
    tuser: bool = False       # bad frame (MAC error / bad FCS)
    tkeep_ok: bool = True     # False: sent with a hole in tkeep (see StreamDriver)
    kind: str = "ok"          # what the generator meant it to be, for logs and coverage
    flow: str = ""

    def __len__(self) -> int:
        return len(self.data)


def pad60(b: bytes) -> bytes:
    return b if len(b) >= 60 else b + bytes(60 - len(b))


@dataclass
class Flow:
    """A stream of frames of one 5-tuple: UDP/TCP to ``dport`` from ``sport``."""

    name: str
    proto: str                      # "udp" | "tcp"
    dport: int
    sport: int = 40000
    src: str = "10.0.0.2"
    dst: str = "10.0.0.1"
    payload: tuple[int, int] = (18, 256)  # payload size range, bytes
    options: bool = False           # random IPv4 options (IHL > 5)
    extra: dict = field(default_factory=dict)

    def make(self, rng: random.Random) -> Frame:
        n = rng.randint(*self.payload)
        payload = bytes(rng.getrandbits(8) for _ in range(n))
        ip = IP(src=self.src, dst=self.dst)
        if self.options and rng.random() < 0.5:
            ip.options = [b"\x01" * (4 * rng.randint(1, 10) - 1) + b"\x00"]
        l4 = UDP(sport=self.sport, dport=self.dport) if self.proto == "udp" else TCP(
            sport=self.sport, dport=self.dport, flags="A", seq=rng.getrandbits(32)
        )
        pkt = Ether(src=MAC_PEER, dst=MAC_NIC) / ip / l4 / Raw(payload)
        return Frame(pad60(bytes(pkt)), kind="ok", flow=self.name)


def fragment(rng: random.Random) -> Frame:
    """An IPv4 fragment of a UDP datagram to port 5000 (first or later fragment, F7)."""
    first = rng.random() < 0.5
    ip = IP(src="10.0.0.2", dst="10.0.0.1", flags="MF" if first else 0, frag=0 if first else rng.randint(1, 100))
    pkt = Ether(src=MAC_PEER, dst=MAC_NIC) / ip / UDP(sport=40000, dport=5000) / Raw(bytes(rng.randint(18, 200)))
    return Frame(pad60(bytes(pkt)), kind="fragment", flow="fragment")


def arp(rng: random.Random) -> Frame:
    pkt = Ether(src=MAC_PEER, dst="ff:ff:ff:ff:ff:ff") / ARP(pdst="10.0.0.1", psrc="10.0.0.2")
    return Frame(pad60(bytes(pkt)), kind="arp", flow="arp")


def bad_input(rng: random.Random) -> Frame:
    """One frame of deliberately bad input, each with its documented verdict."""
    base = Flow("bad", "udp", 5000).make(rng)
    choice = rng.choice(["runt", "tuser", "ihl", "truncated", "oversize", "tkeep", "short_udp"])
    data = bytearray(base.data)
    if choice == "runt":
        return Frame(bytes(data[: rng.randint(1, 59)]), kind="runt", flow="bad")
    if choice == "tuser":
        return Frame(bytes(data), tuser=True, kind="tuser", flow="bad")
    if choice == "ihl":
        data[14] = 0x40 | rng.randint(0, 4)
        return Frame(bytes(data), kind="ihl", flow="bad")
    if choice == "truncated":
        # IPv4 total length claims more than the frame holds
        total = len(data) - 14 + rng.randint(1, 200)
        data[16:18] = total.to_bytes(2, "big")
        return Frame(bytes(data), kind="truncated", flow="bad")
    if choice == "oversize":
        return Frame(bytes(data) + bytes(rng.randint(1519, 1600) - len(data)), kind="oversize", flow="bad")
    if choice == "tkeep":
        return Frame(bytes(data), tkeep_ok=False, kind="tkeep", flow="bad")
    # short_udp: IPv4 total length too small for the UDP header
    data[16:18] = (20 + rng.randint(0, 7)).to_bytes(2, "big")
    return Frame(bytes(data), kind="short_udp", flow="bad")
