"""The full system's RAM as the testbench sees it (docs/system.md): byte access through VPI,
the rings as the firmware laid them out, what a ring the firmware never reaps holds, and
the bounds of the DMA's writes."""

from __future__ import annotations

from pathlib import Path

from model import regmap
from tb.top.host import Delivered


class SysMemory:
    """Byte access to the RAM of the system top (64-bit words through VPI). A VPI write lands
    at the end of the time step, so the words written are also kept here: a read in the same
    step (the next write's read-modify-write of a shared word) sees them."""

    def __init__(self, dut):
        self.mem = dut.nic_inst.ram_inst.mem
        self.written: dict[int, int] = {}

    def _word(self, i: int) -> int:
        return self.written[i] if i in self.written else int(self.mem[i].value)

    def read(self, addr: int, n: int) -> bytes:
        if n <= 0:
            return b""
        first, last = addr >> 3, (addr + n - 1) >> 3
        raw = b"".join(self._word(i).to_bytes(8, "little") for i in range(first, last + 1))
        off = addr & 7
        return raw[off: off + n]

    def write(self, addr: int, data: bytes) -> None:
        if not data:
            return
        first, last = addr >> 3, (addr + len(data) - 1) >> 3
        raw = bytearray(self.read(first << 3, (last - first + 1) * 8))
        off = addr & 7
        raw[off: off + len(data)] = data
        for i in range(first, last + 1):
            j = (i - first) * 8
            self.written[i] = self.mem[i].value = int.from_bytes(raw[j: j + 8], "little")

    def words(self, addr: int, n: int) -> list[int]:
        raw = self.read(addr, 4 * n)
        return [int.from_bytes(raw[4 * i: 4 * i + 4], "little") for i in range(n)]


def ring_layout(events: Path, num_queues: int) -> dict[int, tuple[int, int]]:
    """queue -> (ring base, ring size) as the CPU last wrote RING_BASE_LO and RING_SIZE."""
    lo = {regmap.addr("RING_BASE_LO", q): q for q in range(num_queues)}
    size = {regmap.addr("RING_SIZE", q): q for q in range(num_queues)}
    rings = {q: [0, 0] for q in range(num_queues)}
    with open(events) as f:
        for line in f:
            if line.startswith("W "):
                _tag, _k, addr, data, _strb = line.split()
                a, d = int(addr), int(data)
                if a in lo:
                    rings[lo[a]][0] = d
                elif a in size:
                    rings[size[a]][1] = d
    return {q: (b, s) for q, (b, s) in rings.items()}


def sink_delivered(mem: SysMemory, q: int, base: int, size: int) -> tuple[list[Delivered], list[int]]:
    """The completions of a ring the firmware never reaps (``fw_summary.unreaped``: the
    i210's sink), as the testbench reads them from memory after the run: from slot 0 on,
    each slot with DD, its write-back fields and its buffer's bytes; and those buffers'
    addresses (as the driver wrote them into the descriptors)."""
    d, out, bufs = regmap.DESC, [], []
    for slot in range(size):
        desc = mem.read(base + slot * d["size"], d["size"])
        status, ts, info = (int.from_bytes(desc[d[k]: d[k] + 4], "little")
                            for k in ("status_offset", "ts_offset", "info_offset"))
        if not status >> d["status_dd"] & 1:
            break
        length = int.from_bytes(desc[d["len_offset"]: d["len_offset"] + 2], "little")
        addr = int.from_bytes(desc[d["addr_offset"]: d["addr_offset"] + 8], "little")
        out.append(Delivered(queue=q, slot=slot, length=length, rule=desc[d["rule_offset"]],
                             qfield=desc[d["queue_offset"]], status=status, ts=ts, data=mem.read(addr, length),
                             info=info))
        bufs.append(addr)
    return out, bufs


def dma_bounds(bursts, rings: dict[int, tuple[int, int]], buffers: list[tuple[int, int]],
               reg_writes) -> list[str]:
    """Every DMA write burst lies inside a ring or inside the buffer of a completion the
    firmware reaped (``buffers``: (address, queue); its size is the queue's BUF_SIZE as last
    written): the DMA never wrote into the firmware's code, data or stacks."""
    buf_size = {regmap.addr("BUF_SIZE", q): q for q in rings}
    size = dict.fromkeys(rings, 0)
    for _w, addr, data, _strb in reg_writes:
        if addr in buf_size:
            size[buf_size[addr]] = data
    spans = [(base, base + n * regmap.DESC["size"]) for base, n in rings.values()]
    spans += [(addr, addr + size[q]) for addr, q in buffers]
    out = []
    for b in bursts:
        if not any(lo <= b.addr and b.end <= hi for lo, hi in spans):
            out.append(f"DMA burst at edge {b.cycle} to 0x{b.addr:08x}..0x{b.end:08x}: outside the rings and "
                       "the reaped buffers")
    return out
