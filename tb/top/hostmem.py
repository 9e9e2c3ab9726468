"""The host memory layout the testbench's host drivers use (rings and buffers in one AXI
RAM), and a queue's ring and moderation settings. Free of cocotb, so that loading a
scenario (tb/scenario/) and the fast model's tools need no simulator."""

from __future__ import annotations

from dataclasses import dataclass

from model import regmap

DESC = regmap.DESC
RING_REGION = 0x0001_0000   # rings live here, RING_STRIDE apart
RING_STRIDE = 0x1000        # so a ring has at most 128 descriptors
BUF_REGION = 0x0010_0000    # buffers live here, BUF_STRIDE apart per queue
BUF_STRIDE = 0x4_0000       # so ring_size x buf_size is at most 256 KB
RAM_SIZE = 0x0080_0000


@dataclass
class QueueSetup:
    """Ring and moderation settings of one queue (docs/registers.md, queue block)."""

    ring_size: int = 16
    buf_size: int = 2048
    itr_frames: int = 0
    itr_pkt: int = 0
    itr_abs: int = 0
    itr_gap: int = 0
    immediate: bool = False

    def ring_base(self, q: int) -> int:
        return RING_REGION + RING_STRIDE * q

    def buf_addr(self, q: int, slot: int) -> int:
        return BUF_REGION + BUF_STRIDE * q + slot * self.buf_size
