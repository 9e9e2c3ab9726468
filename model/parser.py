"""Parser block (``prionic_parser``) of the prionic golden model.

Normative sources: ``docs/frame-path.md`` section 1 (stream input, frame length, F1) and
section 2 (parser verdict, F3); ``docs/timing.md`` section 3 (the verdict and the header
fields are registered at edge ``T + PARSE_LATENCY`` = ``T+6``, frame-path.md s2.7, F25;
they depend on the frame only, never on a register).

The model receives a whole frame as ``bytes``; byte 0 of the frame is byte 0 of the
Python object (frame-path.md section 1: ``tdata[7:0]`` of the first beat). Whether the
``tkeep`` pattern of the frame was legal is given as a flag, because the byte string
cannot express it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from model import regmap

#: Ethernet minimum frame length without FCS; shorter frames are runts (frame-path.md s2).
MIN_FRAME_LEN = 60
#: Header bytes the parser keeps (frame-path.md s2): everything it reads lies below this.
HDR_BYTES = 128
#: Edges from a frame's tlast (T) to its registered parse result (frame-path.md s2.7, F25).
PARSE_LATENCY = 6
#: Frame length saturates at 0xFFFF (frame-path.md s1).
LEN_SAT = 0xFFFF
ETHERTYPE_IPV4 = 0x0800
ETHERTYPE_IPV6 = 0x86DD
#: 802.1Q C-tag and 802.1ad S-tag TPIDs: up to two tags are skipped (frame-path.md s2).
TPIDS = (0x8100, 0x88A8)
PROTO_ICMP = 1
PROTO_TCP = 6
PROTO_UDP = 17
PROTO_ICMPV6 = 58
#: IPv6 extension headers the parser walks (hop-by-hop, routing, destination options).
IPV6_EXT_WALK = (0, 43, 60)
IPV6_EXT_FRAGMENT = 44
IPV6_EXT_ROUTING = 43
IPV6_EXT_MAX = 2
#: Bytes of each L4 header the parser needs inside the capture to parse it.
L4_NEED = {PROTO_TCP: 20, PROTO_UDP: 8, PROTO_ICMP: 8, PROTO_ICMPV6: 4}

#: Completion status flag bits [7:0] (frame-path.md s4, F4).
# status flags (docs/regmap.toml [descriptor] status_*: the bit in the write-back's status word)
FLAG_IPV4 = 1 << regmap.DESC["status_ipv4"]
FLAG_IPV6 = 1 << regmap.DESC["status_ipv6"]
FLAG_TCP = 1 << regmap.DESC["status_tcp"]
FLAG_UDP = 1 << regmap.DESC["status_udp"]
FLAG_IPCS = 1 << regmap.DESC["status_ipcs"]   # IPv4 header checksum checked
FLAG_IPE = 1 << regmap.DESC["status_ipe"]     # ... and wrong
FLAG_L4CS = 1 << regmap.DESC["status_l4cs"]   # TCP/UDP/ICMP checksum checked
FLAG_L4E = 1 << regmap.DESC["status_l4e"]     # ... and wrong


def csum16(data: bytes) -> int:
    """One's-complement sum of big-endian 16-bit words (an odd tail byte padded with 0),
    folded to 16 bits (RFC 1071). A correct checksummed block sums to 0xFFFF."""
    if len(data) % 2:
        data = data + b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def frame_length(nbytes: int) -> int:
    """Frame length in bytes as the hardware counts it: saturating at 0xFFFF (F1)."""
    return nbytes if nbytes < LEN_SAT else LEN_SAT


def tkeep_legal(tkeeps: Sequence[int], keep_width: int) -> bool:
    """frame-path.md s1 (F1): every beat but the last all ones; the last beat ones from
    bit 0 up, at least one."""
    full = (1 << keep_width) - 1
    if not tkeeps:
        return False
    if any(k != full for k in tkeeps[:-1]):
        return False
    last = tkeeps[-1]
    return 0 < last <= full and (last & (last + 1)) == 0


def length_from_tkeep(tkeeps: Sequence[int], keep_width: int) -> int:
    """frame-path.md s1 (F1): ``KEEP_WIDTH`` for every beat but the last plus the number of
    set ``tkeep`` bits of the last beat, saturating at 0xFFFF; legal ``tkeep`` or not."""
    if not tkeeps:
        return 0
    mask = (1 << keep_width) - 1
    return frame_length(keep_width * (len(tkeeps) - 1) + bin(tkeeps[-1] & mask).count("1"))


def beats_length(data: bytes, tkeep: Sequence[int] | None, keep_width: int, tkeep_ok: bool) -> tuple[int | None, bool]:
    """A frame's length counted from the ``tkeep`` of every beat (:func:`length_from_tkeep`;
    None without them) and whether its ``tkeep`` was legal: an illegal pattern makes
    ``tkeep_ok`` False, a legal one must agree with ``len(data)`` (saturated at 0xFFFF)."""
    if tkeep is None:
        return None, tkeep_ok
    length = length_from_tkeep(tkeep, keep_width)
    if not tkeep_legal(tkeep, keep_width):
        return length, False
    if length != min(len(data), 0xFFFF):
        raise ValueError(f"tkeep counts {length} bytes, data has {len(data)}")
    return length, tkeep_ok


@dataclass(frozen=True)
class ParseResult:
    """Parser verdict and fields of one frame (frame-path.md section 2, F3, F4).

    ``malformed`` is the parser's verdict; ``reason`` names the first failed check
    (``""`` when not malformed; informational only, not a hardware output). The other
    fields are meaningful only when ``malformed`` is False.
    """

    length: int
    malformed: bool
    reason: str = ""
    ethertype: int = 0        # after the VLAN tags
    vlan_tags: int = 0        # 0, 1 or 2
    tci: int = 0              # TCI of the outer tag (PCP[15:13], DEI[12], VID[11:0])
    is_ipv4: bool = False
    is_ipv6: bool = False
    ihl: int = 0
    total: int = 0            # IPv4 total length, or 40 + IPv6 payload length
    proto: int = 0            # IPv4 protocol, or the IPv6 next header after the walk
    frag: bool = False        # IPv4 MF/offset, or an IPv6 fragment header
    l4_parsed: bool = False   # TCP/UDP/ICMP/ICMPv6 header parsed (not a fragment)
    ports_valid: bool = False
    sport: int = 0
    dport: int = 0
    tcp_flags: int = 0
    src_ip: int = 0           # IPv4 source address, big-endian value
    dst_ip: int = 0           # IPv4 destination address
    ip_csum_checked: bool = False
    ip_csum_bad: bool = False
    l4_csum_checked: bool = False
    l4_csum_bad: bool = False

    @property
    def pcp(self) -> int:
        return self.tci >> 13

    @property
    def vid(self) -> int:
        return self.tci & 0xFFF

    @property
    def flags(self) -> int:
        """Completion status bits [7:0] (frame-path.md s4, F4); 0 for a malformed frame."""
        if self.malformed:
            return 0
        return (
            FLAG_IPV4 * self.is_ipv4
            | FLAG_IPV6 * self.is_ipv6
            | FLAG_TCP * (self.l4_parsed and self.proto == PROTO_TCP)
            | FLAG_UDP * (self.l4_parsed and self.proto == PROTO_UDP)
            | FLAG_IPCS * self.ip_csum_checked
            | FLAG_IPE * self.ip_csum_bad
            | FLAG_L4CS * self.l4_csum_checked
            | FLAG_L4E * self.l4_csum_bad
        )

    @property
    def info(self) -> int:
        """Completion bytes 24-27 (frame-path.md s4): TCI[15:0], TCP flags[23:16],
        tag count[25:24]; 0 for a malformed frame."""
        if self.malformed:
            return 0
        return regmap.pack("info", tci=self.tci, tcp_flags=self.tcp_flags, vlan_tags=self.vlan_tags)


def _result(fields: dict, reason: str = "") -> ParseResult:
    """The result with the fields gathered so far; malformed when ``reason`` is given."""
    return ParseResult(malformed=bool(reason), reason=reason, **fields)


class Parser:
    """``prionic_parser``: frame length, header verdict, fields and checksum flags
    (frame-path.md s1-2; F1, F3, F4). The rules are those of frame-path.md section 2, in
    its order; the code below follows it line by line."""

    HDR_BYTES = HDR_BYTES
    MIN_FRAME_LEN = MIN_FRAME_LEN

    def parse(self, data: bytes, tkeep_ok: bool = True, length: int | None = None) -> ParseResult:
        """Parse one frame; ``data`` holds the frame's bytes from byte 0, ``tkeep_ok`` is
        False when any beat had an illegal ``tkeep`` (frame-path.md s1). ``length``, when
        given, is the frame length counted from ``tkeep`` (:func:`length_from_tkeep`);
        otherwise it is ``len(data)``; either way it saturates at 0xFFFF."""
        length = frame_length(len(data) if length is None else length)
        if length < MIN_FRAME_LEN:
            return ParseResult(length=length, malformed=True, reason="runt")
        if not tkeep_ok:
            return ParseResult(length=length, malformed=True, reason="tkeep")
        hdr = bytes(data[:HDR_BYTES]).ljust(HDR_BYTES, b"\0")

        def u16(off: int) -> int:
            return (hdr[off] << 8) | hdr[off + 1]

        # L2: up to two VLAN tags
        tags, tci, et_off = 0, 0, 12
        while tags < 2 and u16(et_off) in TPIDS:
            if tags == 0:
                tci = u16(et_off + 2)
            tags += 1
            et_off += 4
        ethertype = u16(et_off)
        l3 = et_off + 2
        base = {"length": length, "ethertype": ethertype, "vlan_tags": tags, "tci": tci}
        if ethertype == ETHERTYPE_IPV4:
            return self._ipv4(data, hdr, l3, base)
        if ethertype == ETHERTYPE_IPV6:
            return self._ipv6(data, hdr, l3, base)
        return _result(base)

    def _ipv4(self, data: bytes, hdr: bytes, l3: int, base: dict[str, int]) -> ParseResult:
        length = base["length"]
        ver, ihl = hdr[l3] >> 4, hdr[l3] & 0xF
        total = hdr[l3 + 2] << 8 | hdr[l3 + 3]
        proto = hdr[l3 + 9]
        frag = ((hdr[l3 + 6] << 8 | hdr[l3 + 7]) & 0x3FFF) != 0
        f = {
            **base, "is_ipv4": True, "ihl": ihl, "total": total, "proto": proto, "frag": frag,
            "src_ip": int.from_bytes(hdr[l3 + 12:l3 + 16], "big"),
            "dst_ip": int.from_bytes(hdr[l3 + 16:l3 + 20], "big"),
        }
        if ver != 4:
            return _result(f, "ip_version")
        if ihl < 5:
            return _result(f, "ip_ihl")
        if total < 4 * ihl:
            return _result(f, "ip_total")
        if l3 + total > length:
            return _result(f, "ip_truncated")
        f["ip_csum_checked"] = True
        f["ip_csum_bad"] = csum16(hdr[l3:l3 + 4 * ihl]) != 0xFFFF
        if frag:
            return _result(f)
        pseudo = hdr[l3 + 12:l3 + 20] + bytes([0, proto]) + (total - 4 * ihl).to_bytes(2, "big")
        return self._l4(data, hdr, l3 + 4 * ihl, total - 4 * ihl, l3 + total, proto, pseudo, False, f)

    def _ipv6(self, data: bytes, hdr: bytes, l3: int, base: dict[str, int]) -> ParseResult:
        length = base["length"]
        ver = hdr[l3] >> 4
        plen = hdr[l3 + 4] << 8 | hdr[l3 + 5]
        nh = hdr[l3 + 6]
        f: dict[str, int | bool] = {**base, "is_ipv6": True, "total": 40 + plen, "proto": nh}
        if ver != 6:
            return _result(f, "ip_version")
        if l3 + 40 + plen > length:
            return _result(f, "ip_truncated")
        pos, ext, routed = l3 + 40, 0, False
        for _ in range(IPV6_EXT_MAX):
            if nh not in IPV6_EXT_WALK or pos + 8 > HDR_BYTES:
                break
            hl = (hdr[pos + 1] + 1) * 8
            if ext + hl > plen:
                return _result(f, "ipv6_ext")
            routed = routed or nh == IPV6_EXT_ROUTING
            nh, pos, ext = hdr[pos], pos + hl, ext + hl
        f["proto"] = nh
        if nh == IPV6_EXT_FRAGMENT:
            f["frag"] = True
            return _result(f)
        pseudo = hdr[l3 + 8:l3 + 40] + (plen - ext).to_bytes(4, "big") + bytes([0, 0, 0, nh])
        return self._l4(data, hdr, pos, plen - ext, l3 + 40 + plen, nh, pseudo, True, f, routed)

    def _l4(
        self, data: bytes, hdr: bytes, l4: int, l4len: int, ip_end: int, proto: int,
        pseudo: bytes, v6: bool, f: dict[str, int | bool], routed: bool = False,
    ) -> ParseResult:
        """L4 at byte ``l4`` with ``l4len`` bytes up to ``ip_end`` (frame-path.md s2, s2.4)."""
        icmp = PROTO_ICMPV6 if v6 else PROTO_ICMP
        if proto not in (PROTO_TCP, PROTO_UDP, icmp) or l4 + L4_NEED[proto] > HDR_BYTES:
            return _result(f)
        if l4len < L4_NEED[proto]:
            return _result(f, "l4_short")
        f["l4_parsed"] = True
        if proto == PROTO_UDP and (hdr[l4 + 4] << 8 | hdr[l4 + 5]) != l4len:
            return _result(f, "udp_len")
        if proto == PROTO_TCP:
            doff = hdr[l4 + 12] >> 4
            if doff < 5 or 4 * doff > l4len:
                return _result(f, "tcp_doff")
            f["tcp_flags"] = hdr[l4 + 13]
        if proto in (PROTO_TCP, PROTO_UDP):
            f["ports_valid"] = True
            f["sport"] = hdr[l4] << 8 | hdr[l4 + 1]
            f["dport"] = hdr[l4 + 2] << 8 | hdr[l4 + 3]
        udp4_nocsum = proto == PROTO_UDP and not v6 and hdr[l4 + 6] == 0 and hdr[l4 + 7] == 0
        # a routing header changes the pseudo-header's destination (RFC 8200 8.1): not checked
        if not udp4_nocsum and not routed:
            segment = bytes(data[l4:ip_end])
            if proto == PROTO_ICMP:
                pseudo = b""
            f["l4_csum_checked"] = True
            f["l4_csum_bad"] = csum16(pseudo + segment) != 0xFFFF
        return _result(f)
