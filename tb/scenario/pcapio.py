"""pcap files in and out of a scenario (F21, F22): link types, and frames as Ethernet.

A scenario replays Ethernet frames. A capture of another link type is converted where
that is exact (Linux cooked captures, ``tcpdump -i any``: SLL and SLL2; raw IPv4/IPv6),
and refused with a message that says what to do otherwise. Written captures are
nanosecond pcap.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

ETHERNET, RAW, LINUX_SLL, RAW_ALT, IPV4, IPV6, LINUX_SLL2 = 1, 101, 113, 12, 228, 229, 276
LINK_NAMES = {ETHERNET: "Ethernet", RAW: "raw IP", RAW_ALT: "raw IP", LINUX_SLL: "Linux cooked (SLL)",
              LINUX_SLL2: "Linux cooked v2 (SLL2)", IPV4: "raw IPv4", IPV6: "raw IPv6", 105: "802.11",
              127: "802.11 radiotap", 0: "BSD loopback"}
SUPPORTED = (ETHERNET, LINUX_SLL, LINUX_SLL2, RAW, RAW_ALT, IPV4, IPV6)
# the Ethernet addresses a converted frame gets where the capture has none (locally administered)
DST_MAC = bytes.fromhex("020000000001")
SRC_MAC = bytes.fromhex("020000000002")


class PcapError(ValueError):
    """A capture that cannot be replayed as Ethernet frames."""


def link_type(path: str | Path) -> int:
    """The link type of a pcap or pcapng file (its first interface), read from its header."""
    from scapy.utils import PcapReader

    try:
        with PcapReader(str(path)) as r:
            return int(r.linktype)
    except Exception as e:  # scapy raises Scapy_Exception on a file that is no capture
        raise PcapError(f"{path}: not a pcap or pcapng file ({e})") from e


def check_link_type(path: str | Path) -> int:
    lt = link_type(path)
    if lt not in SUPPORTED:
        raise PcapError(f"{path}: link type {lt} ({LINK_NAMES.get(lt, 'see tcpdump.org/linktypes.html')}) "
                        f"cannot be replayed: prionic replays Ethernet frames (link type 1), and converts Linux "
                        f"cooked (113, 276) and raw IP (101, 228, 229) captures; capture on an Ethernet "
                        f"interface (tcpdump -i eth0 -w file.pcap)")
    return lt


def _ether(ethertype: int, payload: bytes, src: bytes = SRC_MAC) -> bytes:
    return DST_MAC + src + struct.pack(">H", ethertype) + payload


def to_ethernet(lt: int, data: bytes) -> bytes | None:
    """One captured packet of link type ``lt`` as an Ethernet frame (None: not convertible,
    e.g. a cooked packet of a non-Ethernet protocol)."""
    if lt == ETHERNET:
        return data
    if lt == LINUX_SLL and len(data) >= 16:
        alen = struct.unpack_from(">H", data, 4)[0]
        src = data[6:12] if alen == 6 else SRC_MAC
        return _ether(struct.unpack_from(">H", data, 14)[0], data[16:], src)
    if lt == LINUX_SLL2 and len(data) >= 20:
        alen = data[11]
        src = data[12:18] if alen == 6 else SRC_MAC
        return _ether(struct.unpack_from(">H", data, 0)[0], data[20:], src)
    if lt in (RAW, RAW_ALT, IPV4, IPV6) and data:
        version = data[0] >> 4
        if version not in (4, 6):
            return None
        return _ether(0x0800 if version == 4 else 0x86DD, data)
    return None


def read_frames(path: str | Path) -> Iterator[tuple[Decimal, bytes]]:
    """Every packet of a capture as (capture time in seconds, Ethernet frame); packets that
    do not convert (a cooked packet of another protocol) are skipped."""
    from scapy.utils import RawPcapReader

    lt = check_link_type(path)
    with RawPcapReader(str(path)) as r:
        for data, meta in r:
            frame = to_ethernet(lt, bytes(data))
            if frame is None:
                continue
            if hasattr(meta, "tshigh"):      # pcapng: a 64-bit count of tsresol units
                ts = Decimal((meta.tshigh << 32) | meta.tslow) / Decimal(meta.tsresol)
            else:                            # pcap: seconds and micro- or nanoseconds
                ts = Decimal(meta.sec) + Decimal(meta.usec) / Decimal(10**9 if getattr(r, "nano", False) else 10**6)
            yield ts, frame


def first_time(path: str | Path) -> Decimal | None:
    """The capture time of the first packet of ``path`` (None: an empty capture)."""
    for ts, _frame in read_frames(path):
        return ts
    return None


NANO_MAGIC = 0xA1B23C4D   # pcap with nanosecond time stamps


def write_frames(path: str | Path, frames: list[tuple[Decimal, bytes]]) -> None:
    """A nanosecond pcap (link type Ethernet) of frames stamped with their times in seconds."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", NANO_MAGIC, 2, 4, 0, 0, 65535, ETHERNET))
        for ts, data in frames:
            sec = int(ts)
            f.write(struct.pack("<IIII", sec, int((ts - sec) * 10**9), len(data), len(data)))
            f.write(data)
