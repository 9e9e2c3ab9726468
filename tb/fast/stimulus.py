"""The binary frame file that the HDL frame player (tb/hdl/prionic_tb_player.v) and the
bare C++ harness (bench/bare/) read: the fast co-simulation path's stimulus (F26).

One record per frame, nothing between records, no trailer (the reader stops at EOF):

====== ======= ==========================================================================
offset size    field (integers big-endian, so that Verilog's ``$fread`` of a 128-bit
               register reads the header in one call)
====== ======= ==========================================================================
0      8       ``at``: the first beat is not presented before edge ``at``
8      4       ``nbytes``: frame length in bytes (1 or more)
12     4       flags: bit 0 ``tuser`` (bad frame, on every beat as AxiStreamSource drives
               it), bit 1 ``tkeep hole`` (byte 1 of the frame has its tkeep bit clear:
               the bus path's ``StreamDriver`` does the same for ``Frame.tkeep_ok = False``)
16     n       the frame's bytes, zero-padded to a whole number of beats of ``keep_width``
               bytes, in wire order (the player puts byte 0 of a beat on ``tdata[7:0]``)
====== ======= ==========================================================================

The player presents frame i's first beat at edge ``max(at_i, t_{i-1} + 1 + MIN_IDLE)``
where ``t_{i-1}`` is the previous frame's tlast handshake (docs/fastpath.md).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

HEADER = struct.Struct(">QII")
FLAG_TUSER = 1
FLAG_TKEEP_HOLE = 2


class FrameLike(Protocol):
    data: bytes
    tuser: bool
    tkeep_ok: bool


def encode(at: int, frame: FrameLike, keep_width: int) -> bytes:
    """One record: header and padded data."""
    n = len(frame.data)
    if n == 0:
        raise ValueError("a frame of 0 bytes cannot be played")
    if at < 0:
        raise ValueError(f"arrival edge {at} is negative")
    flags = (FLAG_TUSER if frame.tuser else 0) | (0 if frame.tkeep_ok else FLAG_TKEEP_HOLE)
    pad = -n % keep_width
    return HEADER.pack(at, n, flags) + frame.data + bytes(pad)


def write_stimulus(path: str | Path, schedule: Iterable[tuple[int, FrameLike]], keep_width: int) -> int:
    """Write ``(at, frame)`` records in order; returns the number of frames written."""
    n = 0
    with open(path, "wb") as f:
        for at, frame in schedule:
            f.write(encode(at, frame, keep_width))
            n += 1
    return n


def read_stimulus(path: str | Path, keep_width: int) -> list[tuple[int, bytes, int]]:
    """``(at, data, flags)`` of every record (for tests of the format itself)."""
    raw = Path(path).read_bytes()
    out = []
    pos = 0
    while pos < len(raw):
        at, n, flags = HEADER.unpack_from(raw, pos)
        pos += HEADER.size
        out.append((at, raw[pos : pos + n], flags))
        pos += n + (-n % keep_width)
    return out
