"""An independent reference for the parser's verdicts and checksum flags (F3, F4), built
on scapy's dissectors and checksum routines instead of byte offsets.

``model/parser.py`` reads the frame the way the hardware does, byte offset by byte
offset. This module states the same documented rules (docs/frame-path.md section 2) in
terms of scapy's decoded layers and fields (``Dot1Q.type``, ``IP.ihl``, ``IPv6.plen``,
``UDP.len``, ``TCP.dataofs``...) and checks checksums with scapy's ``checksum``,
``in4_chksum`` and ``in6_chksum``. Where the two disagree, one of them misreads the spec.
Only the capture limit (128 bytes) and the walk limit (two extension headers) are
hardware facts that scapy cannot know; they are applied here as byte positions taken
from scapy's own layer lengths.
"""

from __future__ import annotations

from dataclasses import dataclass

# scapy's layer modules, not scapy.all (which loads every protocol: a second per process)
from scapy.layers.inet import IP, TCP, UDP, in4_chksum
from scapy.layers.inet6 import IPv6, IPv6ExtHdrDestOpt, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, in6_chksum
from scapy.layers.l2 import Dot1AD, Dot1Q, Ether
from scapy.utils import checksum

CAPTURE = 128
WALK = {0: IPv6ExtHdrHopByHop, 43: IPv6ExtHdrRouting, 60: IPv6ExtHdrDestOpt}


@dataclass
class Ref:
    malformed: bool
    ethertype: int = 0
    tags: int = 0
    tci: int = 0
    v4: bool = False
    v6: bool = False
    proto: int = -1
    frag: bool = False
    ports: tuple[int, int] | None = None
    tcp_flags: int = 0
    ip_cs: bool | None = None   # None: not checked; else True when correct
    l4_cs: bool | None = None
    l4: str = ""                # "tcp", "udp", "icmp" when the L4 header was parsed

    @property
    def flags(self) -> int:
        """The completion's status flags [7:0] as frame-path.md section 4 defines them."""
        if self.malformed:
            return 0
        return (self.v4 | self.v6 << 1 | (self.l4 == "tcp") << 2 | (self.l4 == "udp") << 3
                | (self.ip_cs is not None) << 4 | (self.ip_cs is False) << 5
                | (self.l4_cs is not None) << 6 | (self.l4_cs is False) << 7)


def dissect(data: bytes, tkeep_ok: bool = True) -> Ref:
    n = min(len(data), 0xFFFF)
    if n < 60 or not tkeep_ok:
        return Ref(True)
    eth = Ether(data)   # scapy returns Dot3 for a length field (<= 1500): no type, not IP
    layer, etype, tags, tci = eth.payload, getattr(eth, "type", None), 0, 0
    if etype is None:
        return Ref(False, ethertype=eth.len)
    while tags < 2 and isinstance(layer, (Dot1Q, Dot1AD)):
        if tags == 0:
            tci = layer.prio << 13 | layer.id << 12 | layer.vlan
        etype, layer, tags = layer.type, layer.payload, tags + 1
    l3 = 14 + 4 * tags
    ref = Ref(False, ethertype=etype, tags=tags, tci=tci)
    if etype == 0x0800:
        return _ipv4(data, n, l3, ref)
    if etype == 0x86DD:
        return _ipv6(data, n, l3, ref)
    return ref


def _ipv4(data: bytes, n: int, l3: int, ref: Ref) -> Ref:
    ip = IP(data[l3:])
    ref.v4, ref.proto = True, ip.proto
    ref.frag = bool(ip.flags.MF) or ip.frag != 0
    if ip.version != 4 or ip.ihl < 5 or ip.len < 4 * ip.ihl or l3 + ip.len > n:
        ref.malformed = True
        return ref
    ref.ip_cs = checksum(data[l3:l3 + 4 * ip.ihl]) == 0
    if ref.frag:
        return ref
    seg = data[l3 + 4 * ip.ihl:l3 + ip.len]
    # a receiver checks against the header's own destination; scapy would follow a
    # source-route option to the sender's final hop, so it gets the header without options
    plain = IP(src=ip.src, dst=ip.dst)
    return _l4(ref, seg, l3 + 4 * ip.ihl, ip.proto, lambda s: in4_chksum(ip.proto, plain, s), v6=False)


def _ipv6(data: bytes, n: int, l3: int, ref: Ref) -> Ref:
    if l3 + 40 > n:
        ref.v6, ref.malformed = True, True
        return ref
    ip6 = IPv6(data[l3:l3 + 40])   # the fixed header; extension headers one by one below
    ref.v6, ref.proto = True, ip6.nh
    if ip6.version != 6 or l3 + 40 + ip6.plen > n:
        ref.malformed = True
        return ref
    pos, nh, ext, routed = l3 + 40, ip6.nh, 0, False
    for _ in range(2):
        if nh not in (0, 43, 60) or pos + 8 > CAPTURE:
            break
        if pos + 8 > n:     # past the frame, so past the payload (l3 + 40 + plen <= n): any length is
            ref.malformed = True   # too long (seed 1434681924: a frame ending at the header)
            return ref
        try:
            e = WALK[nh](data[pos:])
            nxt, hl = e.nh, (e.len + 1) * 8
        except Exception:   # scapy cannot dissect junk options: the first two bytes, RFC 8200 4.2
            nxt, hl = data[pos], (data[pos + 1] + 1) * 8
        if ext + hl > ip6.plen:
            ref.malformed = True
            return ref
        routed |= nh == 43
        nh, pos, ext = nxt, pos + hl, ext + hl
    ref.proto = nh
    if nh == 44:
        ref.frag = True
        return ref
    seg = data[pos:l3 + 40 + ip6.plen]
    return _l4(ref, seg, pos, nh, None if routed else (lambda s: in6_chksum(nh, ip6, s)), v6=True)


def _l4(ref: Ref, seg: bytes, pos: int, proto: int, pseudo_sum, v6: bool) -> Ref:
    kind = {6: "tcp", 17: "udp", (58 if v6 else 1): "icmp"}.get(proto)
    need = {"tcp": 20, "udp": 8, "icmp": 4 if v6 else 8}.get(kind or "", 0)
    if kind is None or pos + need > CAPTURE:
        return ref
    if len(seg) < need:
        ref.malformed = True
        return ref
    if kind == "udp":
        udp = UDP(seg)
        if udp.len != len(seg):
            ref.malformed = True
            return ref
        ref.ports = (udp.sport, udp.dport)
        if not v6 and udp.chksum == 0:
            pseudo_sum = None
    elif kind == "tcp":
        tcp = TCP(seg)
        if tcp.dataofs < 5 or 4 * tcp.dataofs > len(seg):
            ref.malformed = True
            return ref
        ref.ports, ref.tcp_flags = (tcp.sport, tcp.dport), int(tcp.flags) & 0xFF  # scapy adds NS as bit 8
    ref.l4 = kind
    if kind == "icmp" and not v6:
        # no ICMP(seg) dissection: scapy wants each type's extra fields in full (a
        # timestamp request, type 13, needs 20 bytes), the receiver only the 8-byte header
        ref.l4_cs = checksum(seg) == 0
    elif pseudo_sum is not None:
        ref.l4_cs = pseudo_sum(seg) == 0
    return ref
