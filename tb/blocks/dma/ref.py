"""The harness of prionic_dma's block tests (tb/blocks/dma/cocotb_dma.py): the admitted-frame entries and
frame words driven from Python, host memory (cocotbext-axi ``AxiRam``), and the checks of
every buffer, write-back, burst and completion cycle against docs/frame-path.md section 4
and docs/timing.md section 3 (``DmaBench``).
"""

from __future__ import annotations

import logging
import random
import struct
from collections import deque
from dataclasses import dataclass

from cocotb.triggers import ClockCycles, FallingEdge
from cocotbext.axi import AxiBus, AxiRam

from model import regmap
from tb.common import Clocked, make_rng, param
from tb.top.axi_mem import make_unhelpful

RAM_SIZE = 2**20
FILL = 0xA5
MAX_FRAME = 1518
DESC = regmap.DESC
DD = 1 << DESC["status_dd"]    # descriptor done
ERR = 1 << DESC["status_err"]  # a bad buffer address (BUF_ERR, frame-path.md s4): no data, length 0
BUF_BASE = 0x10000
BUF_STRIDE = 0xA00  # 2048-byte buffer + up to 512 bytes of random start offset


@dataclass
class Entry:
    idx: int
    drop: bool
    queue: int
    rule: int
    length: int
    words: list[int]
    slot: int = 0
    ts: int = 0
    info: int = 0   # the entry's info: {status flags[7:0], write-back bytes 24-27} (F4)
    buf: int = 0
    misaligned: bool = False   # a bad buffer (misaligned, beyond the bus or the window): BUF_ERR
    data: bytes = b""
    lead: int = 0   # post the descriptor this many cycles before the entry (0: with it)
    # observed
    accept_cycle: int | None = None
    popped: int = 0
    data_beats_aw: int = 0  # beats of data bursts issued
    next_addr: int = 0
    w_beats: int = 0
    wb_aw_cycle: int | None = None
    wb_b_cycle: int | None = None
    last_data_b: int = -1
    ar_seen: int = 0
    fit_wr_at_accept: bool = False   # the prefetch wrote the queue's fit at the accepting edge

    @property
    def delivered(self) -> bool:
        return not self.drop


@dataclass
class Burst:
    entry: Entry
    kind: str  # "data" or "wb"
    addr: int
    beats: int
    cycle: int


@dataclass
class Stats:
    cycles: int = 0
    delivered: int = 0
    dropped: int = 0
    errors_wb: int = 0
    bursts: int = 0
    max_beats: int = 0
    bytes: int = 0
    meta_stall: int = 0


class DmaBench:
    def __init__(self, dut):
        self.dut = dut
        self.dw = param("DATA_WIDTH", 32)
        self.bpb = param("AXI_DATA_WIDTH", self.dw) // 8   # bytes per AXI beat (and per s_data word)
        self.nq = param("NUM_QUEUES", 2)
        self.aw_bits = param("AXI_ADDR_WIDTH", 32)
        self.clocked = Clocked(dut)
        self.rng = make_rng(dut)
        # rings: 32-byte aligned bases, sizes not all powers of two (a ring base with bits at
        # or above AXI_ADDR_WIDTH is a RING_ERR, F24: tests/test_faults.py)
        self.ring_base = [0x1000 + 0x800 * q for q in range(self.nq)]
        self.ring_size = [[8, 5, 3, 16][q % 4] for q in range(self.nq)]
        self.ring_base_hi = [0] * self.nq
        self.image = bytearray([FILL]) * RAM_SIZE
        self.head = [0] * self.nq
        self.errors: list[str] = []
        self.stats = Stats()
        self.next_buf = 0
        self.next_slot = [0] * self.nq
        self.arid: int | None = None
        self.last_posted: Entry | None = None
        self.tail = [0] * self.nq

    def error(self, msg: str) -> None:
        if len(self.errors) < 40:
            self.errors.append(msg)
            self.dut._log.error(msg)

    async def start(self, pause: float = 0.0, aw_waits_for_w: bool = False, win_bits: int = 64) -> None:
        d = self.dut
        d.cfg_ring_base.value = sum(
            ((self.ring_base_hi[q] << 32) | self.ring_base[q]) << (64 * q) for q in range(self.nq))
        d.cfg_ring_size.value = sum(self.ring_size[q] << (16 * q) for q in range(self.nq))
        d.cfg_ring_rst.value = 0
        d.cfg_ring_tail.value = 0
        d.cfg_timeout.value = 0  # DMA_TIMEOUT off: the watchdog is tested at the top (F24)
        d.cfg_win_base.value = 0
        # the DMA window [0, 2^win_bits) for every queue; 64: none (tested at the top, F24)
        d.cfg_win_bits.value = sum(win_bits << (8 * q) for q in range(self.nq))
        for sig in ("s_meta_valid", "s_meta", "s_data", "s_data_valid"):
            getattr(d, sig).value = 0
        self.ram = AxiRam(AxiBus.from_prefix(d, "m_axi"), d.clk, d.rst, size=RAM_SIZE)
        for itf in (self.ram.write_if, self.ram.read_if):
            itf.log.setLevel(logging.WARNING)
        self.ram.write(0, bytes(self.image))
        if pause or aw_waits_for_w:
            make_unhelpful(self.ram, d, "m_axi", d.clk, random.Random(self.rng.getrandbits(32)),
                           stall=pause, aw_waits_for_w=aw_waits_for_w)
        await self.clocked.start()
        await ClockCycles(d.clk, 2)

    # ------------------------------------------------------------------ planning
    def words_of(self, payload: bytes) -> list[int]:
        """Frame bytes as bus words, the last one padded with random garbage lanes."""
        n = -(-len(payload) // self.bpb)
        padded = payload + bytes(self.rng.getrandbits(8) for _ in range(n * self.bpb - len(payload)))
        return [int.from_bytes(padded[i * self.bpb:(i + 1) * self.bpb], "little") for i in range(n)]

    def alloc_buf(self, misaligned: bool = False, wide: bool = False) -> int:
        base = BUF_BASE + BUF_STRIDE * self.next_buf
        self.next_buf += 1
        assert base + BUF_STRIDE <= RAM_SIZE, "test plans more buffers than the RAM holds"
        addr = base + self.rng.randrange(0, 512, self.bpb)
        if misaligned:
            addr += self.rng.randint(1, self.bpb - 1)
        if wide:  # bits at or above AXI_ADDR_WIDTH: an error, never truncated (F24)
            addr |= self.rng.randint(1, (1 << (64 - self.aw_bits)) - 1) << self.aw_bits
        return addr

    def random_length(self) -> int:
        b = self.bpb
        r = self.rng.random()
        if r < 0.35:
            return self.rng.randint(1, 128)
        if r < 0.75:
            return self.rng.randint(1, MAX_FRAME)
        return self.rng.choice([1, 2, b - 1 or 1, b, b + 1, 16 * b - 1, 16 * b, 16 * b + 1, 32 * b + 3,
                                60, 64, 1514, MAX_FRAME - 1, MAX_FRAME])

    def plan(self, n: int, p_drop: float = 0.3, p_misaligned: float = 0.0, p_wide: float = 0.0,
             lengths: list[int] | None = None) -> list[Entry]:
        rng = self.rng
        entries: list[Entry] = []
        for i in range(n):
            length = lengths[i] if lengths is not None else self.random_length()
            drop = lengths is None and rng.random() < p_drop
            if drop:
                length = rng.randint(1, 2100)  # dropped: any length, even oversize
                payload = bytes(rng.getrandbits(8) for _ in range(length))
                e = Entry(i, True, rng.randrange(self.nq), rng.choice([0xFF, rng.randrange(256)]),
                          length, self.words_of(payload), slot=rng.randrange(16), ts=rng.getrandbits(32))
                entries.append(e)
                continue
            q = rng.randrange(self.nq)
            # slots in ring order per queue, as admission hands them out (the DMA prefetches
            # the next posted one, F25)
            slot = self.next_slot[q]
            self.next_slot[q] = (slot + 1) % self.ring_size[q]
            payload = bytes(rng.getrandbits(8) for _ in range(length))
            mis = self.bpb > 1 and rng.random() < p_misaligned
            wide = self.aw_bits < 64 and rng.random() < p_wide
            e = Entry(i, False, q, rng.choice([0xFF, rng.randrange(64), rng.randrange(256)]), length,
                      self.words_of(payload), slot=slot, ts=rng.getrandbits(32), info=rng.getrandbits(40),
                      buf=self.alloc_buf(mis, wide), misaligned=mis or wide, data=payload)
            entries.append(e)
        return entries

    def desc_addr(self, e: Entry) -> int:
        return self.ring_base[e.queue] + DESC["size"] * e.slot

    def post(self, e: Entry) -> None:
        """Host posts the descriptor: buffer address, reserved 0, write-back area cleared."""
        desc = struct.pack("<QQ", e.buf, 0) + bytes(16)
        a = self.desc_addr(e)
        self.ram.write(a, desc)
        self.image[a:a + 32] = desc
        self.last_posted = e
        # RING_TAIL: this slot is posted (the DMA reads only posted descriptors, F25)
        self.tail[e.queue] = (e.slot + 1) % self.ring_size[e.queue]
        self.dut.cfg_ring_tail.value = sum(t << (16 * q) for q, t in enumerate(self.tail))

    def writeback(self, e: Entry) -> bytes:
        """Bytes 16..31 as frame-path.md section 4 defines them (offsets from regmap.DESC):
        u16 length, u8 rule, u8 queue, u32 timestamp, reserved 0, u32 status with DD (and
        ERR for a misaligned buffer, whose length is 0)."""
        base = DESC["writeback_offset"]
        wb = bytearray(16)
        status = DD | (ERR if e.misaligned else 0) | e.info >> 32
        struct.pack_into("<H", wb, DESC["len_offset"] - base, 0 if e.misaligned else e.length)
        struct.pack_into("<B", wb, DESC["rule_offset"] - base, e.rule)
        struct.pack_into("<B", wb, DESC["queue_offset"] - base, e.queue)
        struct.pack_into("<I", wb, DESC["ts_offset"] - base, e.ts)
        struct.pack_into("<I", wb, DESC["info_offset"] - base, e.info & 0xFFFFFFFF)
        struct.pack_into("<I", wb, DESC["status_offset"] - base, status)
        return bytes(wb)

    # ------------------------------------------------------------------ run
    async def run(self, entries: list[Entry], p_gap: float = 0.2) -> None:
        """Present every entry, move every word, check every bus event; bounded in cycles."""
        d, rng, bpb = self.dut, self.rng, self.bpb
        full_strb = (1 << bpb) - 1
        meta_q = deque(entries)
        data_fifo: deque[tuple[Entry, int]] = deque()
        presenting: Entry | None = None
        gap = 0
        current: Entry | None = None  # last accepted entry
        open_bursts: deque[Burst] = deque()
        exp_cpl: dict[int, int] = {}
        pending_cpl = 0
        w_entry: deque[Entry] = deque()  # entries whose W beats are expected, in order
        total_words = sum(len(e.words) for e in entries)
        budget = 200 + sum(8 * len(e.words) + 200 for e in entries)  # generous, but bounded
        cpl_done = 0
        n_delivered = sum(e.delivered for e in entries)
        # signal handles, looked up once (this loop runs every cycle)
        clk = d.clk
        cpl_valid, cpl_queue, status_head = d.m_cpl_valid, d.m_cpl_queue, d.status_head
        meta_valid, meta_ready = d.s_meta_valid, d.s_meta_ready
        data_valid, data_ready, data = d.s_data_valid, d.s_data_ready, d.s_data
        arvalid, arready = d.m_axi_arvalid, d.m_axi_arready
        awvalid, awready = d.m_axi_awvalid, d.m_axi_awready
        wvalid, wready, wstrb = d.m_axi_wvalid, d.m_axi_wready, d.m_axi_wstrb
        bvalid, bready = d.m_axi_bvalid, d.m_axi_bready
        nq = self.nq
        meta_v = data_v = 0
        posted_early = False
        # the prefetch's fit writes, sampled only when a test asks for them (Entry.lead)
        fit_wr = d.pf_fit_wr if any(e.lead for e in entries) else None
        falling = FallingEdge(clk)
        await falling  # drive and sample at falling edges only
        k = self.clocked.cycle_at_falling()
        start = k - 1
        while True:
            k += 1
            if k - start > budget:
                self.error(f"timeout: {k - start} cycles, {len(meta_q)} entries not accepted, "
                           f"{len(data_fifo)} words left, {cpl_done}/{n_delivered} completions")
                break
            # ---- outputs that depend on earlier edges: completion pulse and HEAD
            cpl_q = exp_cpl.pop(k, None)
            cv = int(cpl_valid.value)
            if cpl_q is None:
                if cv:
                    self.error(f"cycle {k}: m_cpl_valid high with no write-back B at {k - 1}")
            else:
                pending_cpl -= 1
                if not cv:
                    self.error(f"cycle {k}: m_cpl_valid low, write-back B handshake was at {k - 1}")
                elif int(cpl_queue.value) != cpl_q:
                    self.error(f"cycle {k}: m_cpl_queue {int(cpl_queue.value)}, expected {cpl_q}")
            heads = int(status_head.value)
            for q in range(nq):
                got = heads >> (16 * q) & 0xFFFF
                if got != self.head[q]:
                    self.error(f"cycle {k}: status_head[{q}] = {got}, expected {self.head[q]}")
                    self.head[q] = got  # report once
            if not meta_q and not data_fifo and presenting is None and cpl_done == n_delivered \
                    and not open_bursts and pending_cpl == 0:
                break
            # ---- meta entries (driven for edge k)
            # the next entry is presented once the last delivered one is complete: the bench checks one
            # frame at a time (a write-back's overlap with the next frame is checked at the top, test_top.py)
            idle = current is None or not current.delivered or current.wb_b_cycle is not None
            if presenting is None and meta_q and gap == 0 and idle and meta_q[0].lead and not posted_early:
                self.post(meta_q[0])   # the descriptor lead + 1 edges before the entry
                posted_early = True
                gap = meta_q[0].lead
            elif presenting is None and meta_q and gap == 0 and idle:
                presenting = meta_q.popleft()
                e = presenting
                if e.delivered and not posted_early:
                    self.post(e)
                posted_early = False
                for w in e.words:
                    data_fifo.append((e, w))
                # the entry: the `meta` record of docs/regmap.toml, packed by its definition
                d.s_meta.value = regmap.pack(
                    "meta", drop=int(e.drop), queue=e.queue, rule=e.rule, len=e.length,
                    words=-(-e.length // (self.dw // 8)),   # stream words (DATA_WIDTH)
                    slot=e.slot, ts=e.ts, info=e.info)
            elif gap:
                gap -= 1
            if meta_v != (presenting is not None):
                meta_v = int(presenting is not None)
                meta_valid.value = meta_v
                if not meta_v:   # and the record random bits, not the engine's to read (legal, unhelpful)
                    d.s_meta.value = rng.getrandbits(len(d.s_meta))
            if presenting is not None:
                if meta_ready.value == 1:
                    presenting.accept_cycle = k
                    if fit_wr is not None:
                        presenting.fit_wr_at_accept = bool(int(fit_wr.value) >> presenting.queue & 1)
                    if current is not None and current.delivered and current.wb_b_cycle is None:
                        self.error(f"cycle {k}: entry {presenting.idx} accepted before entry {current.idx} completed")
                    if current is not None and current.popped != len(current.words):
                        self.error(f"cycle {k}: entry {presenting.idx} accepted with {current.popped}/"
                                   f"{len(current.words)} words of entry {current.idx} consumed")
                    current = presenting
                    if current.delivered:
                        w_entry.append(current)
                    presenting = None
                    gap = rng.randint(1, 30) if rng.random() < p_gap else 0
                else:
                    self.stats.meta_stall += 1
            # ---- frame words (driven for edge k)
            if data_fifo:
                e, w = data_fifo[0]
                if not data_v:
                    data_v = 1
                    data_valid.value = 1
                data.value = w
                if data_ready.value == 1:
                    data_fifo.popleft()
                    if current is not e:
                        self.error(f"cycle {k}: word of entry {e.idx} consumed while entry "
                                   f"{current.idx if current else None} is current")
                    e.popped += 1
            elif data_v:
                data_v = 0
                data_valid.value = 0
            # ---- AXI read (descriptor)
            if arvalid.value == 1 and arready.value == 1:
                self.check_ar(k, self.last_posted)  # the DMA reads the descriptor posted last (prefetch)
            # ---- AXI write address
            if awvalid.value == 1 and awready.value == 1:
                b = self.check_aw(k, current, open_bursts)
                if b is not None:
                    open_bursts.append(b)
            # ---- AXI write data
            if wvalid.value == 1 and wready.value == 1:
                strb = int(wstrb.value)
                if not w_entry:
                    self.error(f"cycle {k}: W beat with no delivered entry in flight")
                else:
                    e = w_entry[0]
                    e.w_beats += 1
                    n_data = 0 if e.misaligned else len(e.words)
                    if e.w_beats == n_data:
                        rem = e.length % bpb
                        exp = full_strb if rem == 0 else (1 << rem) - 1
                    else:
                        exp = full_strb
                    if strb != exp:
                        self.error(f"cycle {k}: entry {e.idx} beat {e.w_beats}/{n_data}: wstrb {strb:#x}, "
                                   f"expected {exp:#x}")
                    if e.w_beats == n_data + 16 // bpb:
                        w_entry.popleft()
            # ---- AXI write response
            if bvalid.value == 1 and bready.value == 1:
                if not open_bursts:
                    self.error(f"cycle {k}: B response with no burst open")
                else:
                    b = open_bursts.popleft()
                    if b.kind == "data":
                        b.entry.last_data_b = k
                    else:
                        self.complete(k, b.entry)
                        exp_cpl[k + 1] = b.entry.queue
                        pending_cpl += 1
                        cpl_done += 1
            await falling
        self.stats.cycles += k - start
        # every word consumed, every entry accepted
        for e in entries:
            if e.popped != len(e.words):
                self.error(f"entry {e.idx}: {e.popped} of {len(e.words)} words consumed")
        assert total_words == sum(e.popped for e in entries) or self.errors

    def check_ar(self, k: int, cur: Entry | None) -> None:
        d = self.dut
        addr, beats, size = int(d.m_axi_araddr.value), int(d.m_axi_arlen.value) + 1, 1 << int(d.m_axi_arsize.value)
        if cur is None or cur.drop:
            self.error(f"cycle {k}: descriptor read {addr:#x} for a dropped entry / no entry")
            return
        cur.ar_seen += 1
        exp = self.desc_addr(cur)
        # the descriptor read covers bytes 0..7 of the descriptor (the buffer address)
        if addr != exp or beats * size != max(8, self.bpb) or size != self.bpb or cur.ar_seen != 1:
            self.error(f"cycle {k}: entry {cur.idx} read {addr:#x} x{beats} beats of {size} bytes "
                       f"(read #{cur.ar_seen}), expected one read of bytes 0-7 at {exp:#x}")
        # the read epoch (F24) may have moved at the reset before this test (a read left owed
        # by the previous test's prefetch): it must stay one value throughout
        arid = int(d.m_axi_arid.value)
        if self.arid is None:
            self.arid = arid
        if int(d.m_axi_arburst.value) != 1 or arid != self.arid:
            self.error(f"cycle {k}: AR burst type {int(d.m_axi_arburst.value)} id {int(d.m_axi_arid.value)}")

    def check_aw(self, k: int, cur: Entry | None, open_bursts: deque[Burst]) -> Burst | None:
        d, bpb = self.dut, self.bpb
        addr, beats = int(d.m_axi_awaddr.value), int(d.m_axi_awlen.value) + 1
        size = 1 << int(d.m_axi_awsize.value)
        st = self.stats
        st.bursts += 1
        st.max_beats = max(st.max_beats, beats)
        if int(d.m_axi_awburst.value) != 1 or size != bpb:
            self.error(f"cycle {k}: AW {addr:#x}: burst {int(d.m_axi_awburst.value)}, size {size}; "
                       f"expected INCR, {bpb}")
        if beats > 16:
            self.error(f"cycle {k}: AW {addr:#x}: {beats} beats > 16")
        if (addr // bpb) % 16 + beats > 16:
            self.error(f"cycle {k}: AW {addr:#x} x{beats}: crosses a 16-beat boundary")
        if cur is None or cur.drop:
            self.error(f"cycle {k}: write burst {addr:#x} x{beats} for a dropped entry / no entry")
            return None
        wb_addr = self.desc_addr(cur) + DESC["writeback_offset"]
        wb = addr == wb_addr and cur.wb_aw_cycle is None and (cur.misaligned or cur.data_beats_aw == len(cur.words))
        # AWID {write-back, epoch}: the epoch is 0 here (no timeout, the bus reset at the start; F24)
        awid, wb_id = int(d.m_axi_awid.value), 1 << (len(d.m_axi_awid) - 1)
        if awid != (wb_id if wb else 0):
            self.error(f"cycle {k}: AW {addr:#x}: id {awid}, expected {wb_id if wb else 0}")
        if wb:
            cur.wb_aw_cycle = k
            if beats * bpb != 16:
                self.error(f"cycle {k}: entry {cur.idx}: write-back burst of {beats} beats, expected 16 bytes")
            if open_bursts or cur.last_data_b >= k:
                self.error(f"cycle {k}: entry {cur.idx}: write-back issued before every data B response")
            return Burst(cur, "wb", addr, beats, k)
        # a data burst: contiguous from the buffer start, inside the frame's words
        if cur.misaligned:
            self.error(f"cycle {k}: entry {cur.idx}: data burst {addr:#x} to a bad buffer (BUF_ERR) {cur.buf:#x}")
            return Burst(cur, "data", addr, beats, k)
        exp = cur.buf + cur.data_beats_aw * bpb
        if addr != exp or cur.data_beats_aw + beats > len(cur.words):
            self.error(f"cycle {k}: entry {cur.idx}: burst {addr:#x} x{beats}, expected {exp:#x} and at most "
                       f"{len(cur.words) - cur.data_beats_aw} beats (buffer {cur.buf:#x}, len {cur.length})")
        cur.data_beats_aw += beats
        return Burst(cur, "data", addr, beats, k)

    def complete(self, c: int, e: Entry) -> None:
        """Write-back B handshake at edge C: check memory, HEAD moves from C+1."""
        e.wb_b_cycle = c
        if not e.misaligned and e.data_beats_aw != len(e.words):
            self.error(f"entry {e.idx}: completion after {e.data_beats_aw}/{len(e.words)} data beats")
        wb = self.writeback(e)
        a = self.desc_addr(e) + DESC["writeback_offset"]
        got_wb = self.ram.read(a, 16)
        if got_wb != wb:
            self.error(f"entry {e.idx} (q{e.queue} slot {e.slot}, len {e.length}, rule {e.rule:#x}, "
                       f"ts {e.ts:#x}, misaligned {e.misaligned}): write-back bytes 16..31 {got_wb.hex()}, "
                       f"expected {wb.hex()}")
        self.image[a:a + 16] = wb
        if e.misaligned:
            self.stats.errors_wb += 1
        else:
            got = self.ram.read(e.buf, e.length)
            if got != e.data:
                first = next(i for i in range(e.length) if got[i] != e.data[i])
                self.error(f"entry {e.idx}: buffer {e.buf:#x} len {e.length}: first wrong byte at offset {first}")
            self.image[e.buf:e.buf + e.length] = e.data
            self.stats.bytes += e.length
        self.stats.delivered += 1
        self.head[e.queue] = (e.slot + 1) % self.ring_size[e.queue]

    def check_memory(self) -> None:
        mem = self.ram.read(0, RAM_SIZE)
        if mem != bytes(self.image):
            bad = [i for i in range(RAM_SIZE) if mem[i] != self.image[i]]
            self.error(f"{len(bad)} RAM bytes differ from the expected image; first at "
                       + ", ".join(f"{a:#x} ({mem[a]:#04x} != {self.image[a]:#04x})" for a in bad[:8]))

    async def finish(self, entries: list[Entry]) -> None:
        self.check_memory()
        s = self.stats
        s.dropped = sum(e.drop for e in entries)
        self.dut._log.info(
            "DATA_WIDTH %d: %d entries (%d delivered, %d dropped, %d error write-backs), %d bytes, "
            "%d bursts (max %d beats), %d cycles", self.dw, len(entries), s.delivered, s.dropped, s.errors_wb,
            s.bytes, s.bursts, s.max_beats, s.cycles)
        assert not self.errors, f"{len(self.errors)} error(s): " + " | ".join(self.errors[:10])


def scale(dw: int) -> int:
    """Entries per random test: about the same number of simulated cycles at every width."""
    return {8: 30, 16: 45, 32: 70, 64: 90}.get(dw, 60)
