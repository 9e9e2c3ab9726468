"""Block test of prionic_dma_prefetch, the DMA's descriptor prefetch engine (F12, F24).

Run through tests/test_dma_prefetch.py (pytest, both simulators, AXI 8..128 bits). Python
is the AXI read slave (descriptors in a dict, beats low first, random AR and R delays,
RREADY low at random through ``w_event``) and the write side (pulses ``pf_take``). The
reference is the header of rtl/prionic_dma_prefetch.v: per queue, slot PF is read (the
8 bytes at RING_BASE + 32*PF, one burst) only while PF != RING_TAIL and no address is
held; of the queues that want a read the lowest goes first; the held address comes with
pf_bad (misaligned, beyond the bus, outside the DMA window), pf_room, pf_rw and pf_fit;
taking it moves PF on (mod RING_SIZE). ring_bad marks a ring beyond the bus or outside
its window, and such a ring is never read. An error beat makes rd_ev with DESC_ERR and
holds no address; a read left unanswered DMA_TIMEOUT edges makes rd_ev with TIMEOUT and
the next read carries a new ID.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from model import regmap
from tb.common import make_rng, param

EV = regmap.ENUMS["dma_event"]


class PrefetchBench:
    def __init__(self, dut):
        self.dut, self.rng = dut, make_rng(dut)
        self.nq, self.aw = param("NUM_QUEUES", 2), param("AXI_ADDR_WIDTH", 32)
        self.axi = param("AXI_DATA_WIDTH", param("DATA_WIDTH", 32))
        self.ratio = self.axi // param("DATA_WIDTH", 32)
        self.bpb = self.axi // 8
        self.beats = max(1, 8 // self.bpb)
        self.base = [0x10000 * (q + 1) for q in range(self.nq)]
        self.size = [self.rng.randint(2, 6) for _ in range(self.nq)]
        self.win = [(64, 0)] * self.nq          # (DMA_WIN_BITS, DMA_WIN) per queue
        self.tail, self.pf = [0] * self.nq, [0] * self.nq
        self.desc: dict[int, int] = {}          # descriptor address -> buffer address
        self.mode = "ok"                        # the slave: "ok", "error" or "silent"
        self.wants: list[int] = []              # the queues wanting a read at the coming edge
        self.arvalid_was = 0

    async def start(self, timeout: int = 0) -> None:
        d = self.dut
        d.cfg_ring_base.value = sum(b << (64 * q) for q, b in enumerate(self.base))
        d.cfg_ring_size.value = sum(s << (16 * q) for q, s in enumerate(self.size))
        d.cfg_win_bits.value = sum(w[0] << (8 * q) for q, w in enumerate(self.win))
        d.cfg_win_base.value = sum(w[1] << (64 * q) for q, w in enumerate(self.win))
        d.cfg_ring_tail.value, d.cfg_ring_rst.value, d.cfg_timeout.value = 0, 0, timeout
        d.q_running.value = (1 << self.nq) - 1
        for s in ("w_event", "wb_pend", "wb_q", "cpl_blk", "cpl_bw", "b_cur", "cur_q", "pf_take",
                  "m_axi_arready", "m_axi_rvalid", "m_axi_rid", "m_axi_rdata", "m_axi_rresp", "m_axi_rlast"):
            getattr(d, s).value = 0
        d.rst.value, d.bus_rst.value = 1, 1
        cocotb.start_soon(Clock(d.clk, 10, unit="ns").start(start_high=False))
        await ClockCycles(d.clk, 4)
        await FallingEdge(d.clk)
        d.rst.value, d.bus_rst.value = 0, 0
        await ClockCycles(d.clk, 4)   # the window flags settle

    def post(self, q: int, buf: int) -> None:
        self.desc[self.base[q] + 32 * self.tail[q]] = buf
        self.tail[q] = (self.tail[q] + 1) % self.size[q]
        self.dut.cfg_ring_tail.value = sum(t << (16 * k) for k, t in enumerate(self.tail))
        self.note_wants()

    def note_wants(self) -> None:
        """The queues that want a read at the coming edge (its choice), lowest first."""
        d = self.dut
        valid, bad, running = int(d.pf_valid.value), int(d.ring_bad.value), int(d.q_running.value)
        self.wants = [] if int(d.rd_busy.value) else [
            q for q in range(self.nq)
            if not valid >> q & 1 and self.pf[q] != self.tail[q] and not bad >> q & 1 and running >> q & 1]

    def expect(self, q: int, buf: int) -> tuple[int, int, int, int, int]:
        """(pf_addr, pf_bad, pf_room, pf_rw, pf_fit) of buffer address ``buf`` in queue ``q``."""
        bits, wbase = self.win[q]
        low = (1 << min(bits, 64)) - 1
        top = (1 << self.aw) - 1
        out = ((wbase & ~low) >> self.aw) != 0 or ((buf ^ wbase) & ~low & top) != 0
        bad = buf % self.bpb != 0 or buf >> self.aw != 0 or out
        room = 16 - (buf // self.bpb) % 16
        left = ~buf & low & top
        fit = 0x10000 if left >> 16 else left + 1
        return buf & top, int(bad), room, (room - 1) * self.ratio, fit

    def vec(self, sig, q: int, w: int) -> int:
        bits = str(sig.value)
        return int(bits[len(bits) - (q + 1) * w:len(bits) - q * w], 2)

    async def run(self, cycles: int, p_take: float = 0.3) -> dict[str, int]:
        """Serve reads and take addresses for ``cycles``, checking every AR and every held
        address against the reference; returns counts of what happened."""
        d, rng = self.dut, self.rng
        reads: list[list[int]] = []        # [arid, queue, beats sent]
        n = {"reads": 0, "taken": 0, "rd_ev": 0, "rready_low": 0}
        ar_hs: list[int] | None = None
        r_hs = 0
        for _ in range(cycles):
            await FallingEdge(d.clk)
            valid = int(d.pf_valid.value)
            # a new AR: the choice was made at the edge before, from the queues wanting then
            if int(d.m_axi_arvalid.value) and not self.arvalid_was:
                q = (int(d.m_axi_araddr.value) >> 16) - 1
                assert 0 <= q < self.nq and int(d.m_axi_araddr.value) == self.base[q] + 32 * self.pf[q], \
                    f"AR at {int(d.m_axi_araddr.value):#x}: queue {q}'s next slot is {self.pf[q]}"
                assert self.wants and q == self.wants[0], f"AR for queue {q}, wanting {self.wants}"
                assert int(d.m_axi_arlen.value) == self.beats - 1
            self.arvalid_was = int(d.m_axi_arvalid.value)
            for q in range(self.nq):
                if valid >> q & 1:
                    buf = self.desc[self.base[q] + 32 * self.pf[q]]
                    got = tuple(self.vec(s, q, w) for s, w in ((d.pf_addr, self.aw), (d.pf_bad, 1),
                                (d.pf_room, 5), (d.pf_rw, 7), (d.pf_fit, 17)))
                    assert got == self.expect(q, buf), f"queue {q} slot {self.pf[q]}: {got} != {self.expect(q, buf)}"
            take = [q for q in range(self.nq) if valid >> q & 1 and rng.random() < p_take]
            d.pf_take.value = sum(1 << q for q in take)
            for q in take:
                self.pf[q] = (self.pf[q] + 1) % self.size[q]
                n["taken"] += 1
            # the slave: the handshakes of the edge before (seen just after the last falling edge)
            if ar_hs:
                reads.append(ar_hs)
                n["reads"] += 1
            if r_hs:
                reads[0][2] += 1
                if r_hs == 2:
                    reads.pop(0)
            d.m_axi_arready.value = int(rng.random() < 0.5)
            w_event = rng.random() < 0.15
            d.w_event.value = int(w_event)
            n["rready_low"] += w_event
            r = reads[0] if reads and self.mode != "silent" else None
            if r and (int(d.m_axi_rvalid.value) or rng.random() < 0.5):
                q, k = r[1], r[2]
                buf = self.desc[self.base[q] + 32 * self.pf[q]]
                d.m_axi_rvalid.value, d.m_axi_rid.value = 1, r[0]
                d.m_axi_rdata.value = (buf >> (k * self.axi)) & ((1 << self.axi) - 1)
                d.m_axi_rlast.value = int(k == self.beats - 1)
                d.m_axi_rresp.value = 2 if self.mode == "error" else 0
            else:
                d.m_axi_rvalid.value = 0
            await Timer(1, unit="ns")
            ar_hs = [int(d.m_axi_arid.value), (int(d.m_axi_araddr.value) >> 16) - 1, 0] \
                if int(d.m_axi_arvalid.value) and int(d.m_axi_arready.value) else None
            r_hs = (1 + int(d.m_axi_rlast.value)) if int(d.m_axi_rvalid.value) and int(d.m_axi_rready.value) else 0
            self.note_wants()
            if int(d.rd_ev.value) and not w_event:   # reported; the write side stops the queue (q_running)
                n["rd_ev"] += 1
                d.q_running.value = int(d.q_running.value) & ~(1 << int(d.rd_q.value))
                want = EV["DESC_ERR"] if self.mode == "error" else EV["TIMEOUT"]
                code = int(d.rd_code.value)
                assert self.mode != "ok" and code == want, f"rd_ev code {code} with the slave {self.mode}"
        return n

    def good_buf(self, q: int) -> int:
        bits, wbase = self.win[q]
        span = 1 << min(bits, 20)
        return (wbase & ~(span - 1)) + self.rng.randrange(0, span - 2048, self.bpb)


@cocotb.test()
async def prefetch_addresses(dut):
    """F12, F24: buffer addresses good, misaligned, beyond the bus and outside a 64 KiB
    window (queue 1), posted a few at a time: every AR reads the queue's next posted slot,
    lowest wanting queue first, every held address and its flags match the reference."""
    b = PrefetchBench(dut)
    if b.nq > 1:
        b.win[1] = (16, b.base[1] & ~0xFFFF)
    await b.start()
    total = {"reads": 0, "taken": 0}
    # at least 12 rounds, then on until 20 reads and takes (a seed that posts little in its
    # first rounds); bounded, the assertion below reports a shortfall
    rounds = 0
    while rounds < 12 or (rounds < 60 and min(total.values()) < 20):
        rounds += 1
        for q in range(b.nq):
            for _ in range(b.rng.randint(0, b.size[q] - 1 - (b.tail[q] - b.pf[q]) % b.size[q])):
                kind = b.rng.random()
                buf = b.good_buf(q)
                if kind < 0.15 and b.bpb > 1:
                    buf += b.rng.randint(1, b.bpb - 1)
                elif kind < 0.25:
                    buf |= 1 << (b.aw + b.rng.randint(0, 63 - b.aw))
                elif kind < 0.35 and b.nq > 1 and q == 1:
                    buf ^= 1 << 17
                b.post(q, buf)
        n = await b.run(150)
        for k in total:
            total[k] += n[k]
    assert total["reads"] >= 20 and total["taken"] >= 20, f"too little traffic: {total}"


@cocotb.test()
async def prefetch_bad_rings(dut):
    """F24: queue 0's ring lies beyond the bus, the last queue's ring outside its DMA window:
    ring_bad is set for both and no descriptor of theirs is ever read."""
    b = PrefetchBench(dut)
    b.base[0] |= 1 << b.aw
    if b.nq > 1:
        b.win[-1] = (12, b.base[-1] + 0x8000)
    await b.start()
    await ClockCycles(dut.clk, 4)
    bad = 1 | (1 << (b.nq - 1))
    assert int(dut.ring_bad.value) == bad, f"ring_bad {int(dut.ring_bad.value):#x}, reference {bad:#x}"
    for q in range(b.nq):
        b.post(q, b.good_buf(q) if b.win[q][0] < 64 else 0x1000)
    for _ in range(40):
        await FallingEdge(dut.clk)
        if int(dut.m_axi_arvalid.value):
            q = (int(dut.m_axi_araddr.value) >> 16) - 1
            assert not bad >> q & 1, f"a descriptor of queue {q} read, its ring is bad"


@cocotb.test()
async def prefetch_errors(dut):
    """F24: an error response makes rd_ev (DESC_ERR) and holds no address; with the slave
    silent, rd_ev (TIMEOUT) comes no sooner than DMA_TIMEOUT edges after the AR and the
    next read carries another ID."""
    b = PrefetchBench(dut)
    await b.start(timeout=20)
    b.mode = "error"
    b.post(0, b.good_buf(0))
    n = await b.run(30, p_take=0)
    assert n["reads"] >= 1 and n["rd_ev"] == 1 and int(dut.pf_valid.value) == 0, n
    b.mode = "silent"
    dut.w_event.value, dut.m_axi_rvalid.value, dut.m_axi_arready.value = 0, 0, 1
    dut.cfg_ring_rst.value = 1   # the host restarts the queue: it is read again from slot 0
    await FallingEdge(dut.clk)
    dut.cfg_ring_rst.value, dut.q_running.value = 0, (1 << b.nq) - 1
    ar_ids, ar_at, timeouts = [], 0, 0
    for cyc in range(120):
        await FallingEdge(dut.clk)
        await Timer(1, unit="ns")
        if int(dut.m_axi_arvalid.value):
            ar_ids.append(int(dut.m_axi_arid.value))
            ar_at = cyc
        if int(dut.rd_ev.value):
            assert int(dut.rd_code.value) == EV["TIMEOUT"] and ar_ids, f"rd_ev code {int(dut.rd_code.value)}"
            assert cyc - ar_at >= 20, f"read timeout {cyc - ar_at} cycles after the AR, DMA_TIMEOUT 20"
            timeouts += 1
    assert timeouts >= 2 and len(ar_ids) == timeouts + 1 and len(set(ar_ids[:2])) == 2, (timeouts, ar_ids)
