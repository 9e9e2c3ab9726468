"""Parser block (``prionic_parser``) of the prionic golden model.

Normative sources: ``docs/frame-path.md`` section 1 (stream input, frame length, F1) and
section 2 (parser verdict, F3); ``docs/timing.md`` section 3 (the verdict and the header
fields are registered at edge ``T+1``; they depend on the frame only, never on a register).

The model receives a whole frame as ``bytes``; byte 0 of the frame is byte 0 of the
Python object (frame-path.md section 1: ``tdata[7:0]`` of the first beat). Whether the
``tkeep`` pattern of the frame was legal is given as a flag, because the byte string
cannot express it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Ethernet minimum frame length without FCS; shorter frames are runts (frame-path.md s2).
MIN_FRAME_LEN = 60
#: Header bytes the parser keeps (frame-path.md s2). Every offset read below is < 78.
HDR_BYTES = 96
#: Frame length saturates at 0xFFFF (frame-path.md s1).
LEN_SAT = 0xFFFF
ETHERTYPE_IPV4 = 0x0800
PROTO_TCP = 6
PROTO_UDP = 17


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


@dataclass(frozen=True)
class ParseResult:
    """Parser verdict and fields of one frame (frame-path.md section 2, F3).

    ``malformed`` is the parser's verdict; ``reason`` names the first failed check
    (``""`` when not malformed; informational only, not a hardware output). The other
    fields are meaningful only when ``malformed`` is False: ``is_ipv4`` (EtherType
    0x0800), ``proto``, ``frag`` (MF or fragment offset), ``ports_valid`` (unfragmented
    UDP/TCP with a long-enough header) and ``sport``/``dport``.
    """

    length: int
    malformed: bool
    reason: str = ""
    ethertype: int = 0
    is_ipv4: bool = False
    ihl: int = 0
    total: int = 0
    proto: int = 0
    frag: bool = False
    ports_valid: bool = False
    sport: int = 0
    dport: int = 0
    src_ip: int = 0   # IPv4 source address u32(26), big-endian value
    dst_ip: int = 0   # IPv4 destination address u32(30)


class Parser:
    """``prionic_parser``: frame length and header verdict (frame-path.md s1-2; F1, F3).

    Rules, in order (frame-path.md section 2):

    * runt: length < 60 -> MALFORMED; a bad ``tkeep`` -> MALFORMED;
    * ``ethertype = u16(12)``; only 0x0800 (IPv4, Ethernet II, no VLAN) is parsed;
      any other EtherType is "not IP": no fields, not malformed;
    * IPv4: MALFORMED if ``ver != 4``, ``ihl < 5``, ``total < 4*ihl`` or
      ``14 + total > length`` (truncated; padding after ``total`` is fine);
    * unfragmented UDP: MALFORMED if ``total < 4*ihl + 8``, else ports valid;
      unfragmented TCP: MALFORMED if ``total < 4*ihl + 20``, else ports valid;
      ``sport = u16(l4)``, ``dport = u16(l4 + 2)`` with ``l4 = 14 + 4*ihl``;
    * fragments (``(u16(20) & 0x3FFF) != 0``) have no ports and no L4 check.
    """

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
        hdr = bytes(data[:HDR_BYTES])

        def u16(off: int) -> int:
            return (hdr[off] << 8) | hdr[off + 1]

        ethertype = u16(12)
        if ethertype != ETHERTYPE_IPV4:
            return ParseResult(length=length, malformed=False, ethertype=ethertype)
        ver = hdr[14] >> 4
        ihl = hdr[14] & 0xF
        total = u16(16)
        proto = hdr[23]
        frag = (u16(20) & 0x3FFF) != 0
        src_ip = int.from_bytes(hdr[26:30], "big")
        dst_ip = int.from_bytes(hdr[30:34], "big")

        def result(
            malformed: bool, reason: str = "", ports_valid: bool = False, sport: int = 0, dport: int = 0
        ) -> ParseResult:
            return ParseResult(
                length=length,
                malformed=malformed,
                reason=reason,
                ethertype=ethertype,
                is_ipv4=True,
                ihl=ihl,
                total=total,
                proto=proto,
                frag=frag,
                ports_valid=ports_valid,
                sport=sport,
                dport=dport,
                src_ip=src_ip,
                dst_ip=dst_ip,
            )

        if ver != 4:
            return result(True, "ip_version")
        if ihl < 5:
            return result(True, "ip_ihl")
        if total < 4 * ihl:
            return result(True, "ip_total")
        if 14 + total > length:
            return result(True, "ip_truncated")
        if frag:
            return result(False)
        if proto == PROTO_UDP:
            min_total = 4 * ihl + 8
        elif proto == PROTO_TCP:
            min_total = 4 * ihl + 20
        else:
            return result(False)
        if total < min_total:
            reason = "udp_short" if proto == PROTO_UDP else "tcp_short"
            return result(True, reason)
        l4 = 14 + 4 * ihl
        return result(False, ports_valid=True, sport=u16(l4), dport=u16(l4 + 2))
