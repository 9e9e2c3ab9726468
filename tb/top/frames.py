"""Frame construction for stimulus: flows built with scapy, plus deliberate bad input.

Every frame is an independent scapy build (headers and checksums from scapy, not from
our own code), padded to the 60-byte Ethernet minimum like a MAC would deliver it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# scapy's layer modules, not scapy.all (which loads every protocol: a second per process)
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw

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
    tcp_flags: tuple[str, ...] = ("A",)  # TCP flags, one drawn per frame (scapy notation)
    extra: dict = field(default_factory=dict)

    def make(self, rng: random.Random) -> Frame:
        n = rng.randint(*self.payload)
        payload = bytes(rng.getrandbits(8) for _ in range(n))
        ip = IP(src=self.src, dst=self.dst)
        if self.options and rng.random() < 0.5:
            ip.options = [b"\x01" * (4 * rng.randint(1, 10) - 1) + b"\x00"]
        l4 = UDP(sport=self.sport, dport=self.dport) if self.proto == "udp" else TCP(
            sport=self.sport, dport=self.dport, flags=rng.choice(self.tcp_flags), seq=rng.getrandbits(32)
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


# ---------------------------------------------------------------------------- parser mix
# A wide mix for the parser's cross-check against scapy (F3, F4): VLAN tags, IPv4 with
# options, IPv6 with extension headers, TCP/UDP/ICMP/ICMPv6, fragments, ARP, other
# EtherTypes, wrong checksums; and, for about a third of the frames, deliberately
# malformed or truncated input. Every well-formed frame is a scapy build.

def _l2(rng: random.Random):
    from scapy.layers.l2 import Dot1AD, Dot1Q

    eth = Ether(src=MAC_PEER, dst=MAC_NIC)
    tags = rng.choice([0, 0, 0, 1, 1, 2])
    if tags == 2:
        outer = Dot1AD if rng.random() < 0.5 else Dot1Q
        return eth / outer(vlan=rng.choice([100, rng.randrange(4096)]), prio=rng.randrange(8)) / Dot1Q(
            vlan=rng.randrange(4096), prio=rng.randrange(8))
    if tags == 1:
        return eth / Dot1Q(vlan=rng.choice([100, rng.randrange(4096)]), prio=rng.randrange(8), id=rng.randrange(2))
    return eth


def _l4(rng: random.Random, v6: bool):
    from scapy.layers.inet import ICMP
    from scapy.layers.inet6 import ICMPv6EchoRequest

    r = rng.random()
    payload = Raw(bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 7, 18, 64, 200, 700]))))
    if r < 0.35:
        return UDP(sport=rng.randrange(65536), dport=rng.randrange(65536)) / payload
    if r < 0.7:
        opts = [("NOP", None)] * rng.randint(0, 8) if rng.random() < 0.3 else []
        return TCP(sport=rng.randrange(65536), dport=rng.randrange(65536), flags=rng.randrange(256),
                   seq=rng.getrandbits(32), options=opts) / payload
    if r < 0.85:
        return (ICMPv6EchoRequest(id=rng.randrange(65536)) if v6 else ICMP(type=rng.choice([0, 8, 3]))) / payload
    return Raw(bytes([rng.randrange(256) for _ in range(rng.randint(0, 40))]))  # other protocol


def _ipv6(rng: random.Random, l4):
    from scapy.layers.inet6 import IPv6, IPv6ExtHdrDestOpt, IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting

    ip = IPv6(src=f"fd00::{rng.randrange(65536):x}", dst=f"fd00::{rng.randrange(65536):x}")
    exts = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        kind = rng.choice(["hbh", "dst", "rt", "frag", "big"])
        if kind == "hbh":
            exts.append(IPv6ExtHdrHopByHop())
        elif kind == "dst":
            exts.append(IPv6ExtHdrDestOpt())
        elif kind == "rt":
            exts.append(IPv6ExtHdrRouting(addresses=[]))
        elif kind == "frag":
            exts.append(IPv6ExtHdrFragment(offset=rng.choice([0, 0, 5]), m=rng.randrange(2)))
        else:   # an option big enough to push L4 past the capture
            from scapy.layers.inet6 import PadN
            exts.append(IPv6ExtHdrDestOpt(options=[PadN(optdata=bytes(rng.choice([20, 60, 120])))]))
    pkt = ip
    for e in exts:
        pkt = pkt / e
    if isinstance(l4, Raw):
        pkt.lastlayer().nh = rng.choice([59, 50, 103])
    return pkt / l4


def parser_frame(rng: random.Random) -> Frame:
    """One frame of the parser mix (well-formed; may carry a wrong checksum)."""
    r = rng.random()
    l2 = _l2(rng)
    if r < 0.05:
        return Frame(pad60(bytes(l2 / ARP(pdst="10.0.0.1", psrc="10.0.0.2"))), kind="arp", flow="arp")
    if r < 0.08:
        l2.lastlayer().type = rng.choice([0x88B5, 0x88F7, 0x8100])
        return Frame(pad60(bytes(l2 / Raw(bytes(rng.randint(40, 120))))), kind="other", flow="other")
    v6 = r < 0.45
    l4 = _l4(rng, v6)
    if v6:
        pkt = l2 / _ipv6(rng, l4)
    else:
        ip = IP(src=f"10.0.{rng.randrange(256)}.{rng.randrange(256)}", dst="10.0.0.1",
                ttl=rng.randrange(256), id=rng.randrange(65536))
        if rng.random() < 0.3:
            ip.options = [b"\x01" * (4 * rng.randint(1, 10) - 1) + b"\x00"]
        if rng.random() < 0.07:
            ip.flags, ip.frag = rng.choice([("MF", 0), (0, rng.randint(1, 100))])
        if isinstance(l4, Raw):
            ip.proto = rng.choice([47, 50, 132])
        pkt = l2 / ip / l4
    data = bytearray(bytes(pkt))
    if not isinstance(l4, Raw) and rng.random() < 0.08 and UDP in pkt and not v6:
        # a UDP datagram without checksum (0: "none" over IPv4)
        off = len(data) - len(pkt[UDP])
        data[off + 6:off + 8] = b"\0\0"
    if rng.random() < 0.2:   # a wrong checksum: a bit flipped in the IP header (half the
        l3 = len(data) - len(pkt[IP]) if IP in pkt else 14   # time) or anywhere after byte 14
        pos = rng.randrange(l3, min(l3 + 20, len(data))) if rng.random() < 0.5 else rng.randrange(14, len(data))
        data[pos] ^= 1 << rng.randrange(8)
    return Frame(pad60(bytes(data)), kind="ok", flow="mix")


def malformed_frame(rng: random.Random) -> Frame:
    """A frame of the parser mix broken on purpose: truncated, bad lengths, bad fields."""
    base = parser_frame(rng)
    data = bytearray(base.data)
    choice = rng.choice(["truncate", "truncate", "runt", "ver", "ihl", "len", "byte", "bytes", "tkeep", "tuser"])
    if choice == "truncate":
        return Frame(bytes(data[: rng.randint(60, max(60, len(data) - 1))]), kind="truncated", flow="bad")
    if choice == "runt":
        return Frame(bytes(data[: rng.randint(1, 59)]), kind="runt", flow="bad")
    if choice == "tkeep":
        return Frame(bytes(data), tkeep_ok=False, kind="tkeep", flow="bad")
    if choice == "tuser":
        return Frame(bytes(data), tuser=True, kind="tuser", flow="bad")
    l3 = 14
    while int.from_bytes(data[l3 - 2:l3], "big") in (0x8100, 0x88A8) and l3 < 22:
        l3 += 4
    if choice == "ver":
        data[l3] = rng.randrange(16) << 4 | data[l3] & 0xF
    elif choice == "ihl":
        data[l3] = data[l3] & 0xF0 | rng.randrange(16)
    elif choice == "len":   # IPv4 total / IPv6 payload length / L4 length field
        off = rng.choice([l3 + 2, l3 + 4, rng.randrange(l3, min(len(data) - 1, 100))])
        data[off:off + 2] = rng.randrange(65536).to_bytes(2, "big")
    elif choice == "byte":
        pos = rng.randrange(12, min(len(data), 110))
        data[pos] = rng.randrange(256)
    else:
        for _ in range(rng.randint(2, 8)):
            pos = rng.randrange(12, min(len(data), 128))
            data[pos] = rng.randrange(256)
    return Frame(bytes(data), kind=choice, flow="bad")


def fuzz_frame(rng: random.Random) -> Frame:
    """scapy's fuzz(): random field values (lengths, IHL, flags, ...) in real layers."""
    import random as pyrandom

    from scapy.layers.inet import ICMP
    from scapy.layers.inet6 import IPv6
    from scapy.packet import fuzz

    pyrandom.seed(rng.getrandbits(32))   # scapy's volatile values draw from `random`
    tmpl = rng.choice([
        lambda: Ether(dst=MAC_NIC) / fuzz(IP()) / fuzz(UDP()) / Raw(bytes(rng.randint(0, 64))),
        lambda: Ether(dst=MAC_NIC) / IP() / fuzz(TCP()) / Raw(bytes(rng.randint(0, 64))),
        lambda: Ether(dst=MAC_NIC) / fuzz(IPv6()) / fuzz(UDP()) / Raw(bytes(rng.randint(0, 64))),
        lambda: Ether(dst=MAC_NIC) / IPv6() / fuzz(TCP()),
        lambda: Ether(dst=MAC_NIC) / fuzz(IP(proto=1)) / fuzz(ICMP()),
    ])
    data = bytes(tmpl())
    return Frame(pad60(data[:1600]), kind="fuzz", flow="fuzz")
