"""Block tests of prionic_dma, the receive DMA engine (F12).

Run through tests/test_dma.py (pytest, both simulators, DATA_WIDTH 8, 32 and 64).

Python drives the admitted-frame entries (``s_meta``, the ``meta`` record) and the frame words (``s_data``,
first-word-fall-through: ``s_data_valid`` is high while words remain, a word is consumed
at a rising edge that samples ``s_data_ready``); host memory is cocotbext-axi's
``AxiRam``, filled with 0xA5 first, descriptors are posted through its backdoor.
Everything expected comes from docs/frame-path.md section 4 and docs/timing.md
section 3 (completion cycle C, HEAD), never from the RTL:

* the buffer holds the frame bytes; after the run the whole RAM equals a Python image
  (0xA5 fill + posted descriptors + frame bytes + write-backs): nothing else changed;
* write-back bytes 16..31 at the offsets of docs/regmap.toml ``[descriptor]``
  (frame-path.md section 4): u16 length, u8 rule, u8 queue, u32 timestamp
  (= the entry's ts), u32 info (the entry's info[31:0]), u32 status with DD and the flags
  info[39:32] (F4); a buffer address not aligned to
  AXI_DATA_WIDTH/8 gets no data write and a write-back with length 0 and status DD|ERR;
* the descriptor read covers bytes 0..7 only; data bursts are INCR, at most 16 beats, never
  cross a 16-beat boundary, cover the buffer contiguously from its start, all strobes set
  but on the frame's last beat (the low ``len mod bytes`` lanes); the write-back is one
  burst issued after every data B response;
* ``m_cpl_valid`` is high at exactly C+1 for each write-back B handshake at C, with the
  entry's queue; ``status_head[q]`` becomes ``slot+1 mod RING_SIZE`` from C+1 and never
  changes otherwise; ``cfg_ring_rst[q]`` at edge k makes it 0 from k+1;
* a dropped entry (drop set) consumes exactly its words and touches no bus.

Signals are driven and sampled at falling edges (tb/common.py): a value seen at the
falling edge before rising edge k is the value edge k samples.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from model import regmap
from tb.blocks.dma.ref import MAX_FRAME, DmaBench, Entry, scale
from tb.common import amount
from tb.top.axi_mem import hold_ready

EV = regmap.ENUMS["dma_event"]

# ============================================================================ tests


def in_ring_order(b: DmaBench, entries: list[Entry], queues: list[int]) -> None:
    """Give entry i queue queues[i] and the slots of each ring in order from 0, wrapping
    past RING_SIZE, as admission hands them out."""
    nxt = [0] * b.nq
    for e, q in zip(entries, queues, strict=True):
        e.queue, e.slot = q, nxt[q]
        nxt[q] = (nxt[q] + 1) % b.ring_size[q]


@cocotb.test()
async def test_dma_random(dut):
    """F12: a random mix of dropped entries and delivered frames (lengths 1..1518, random
    queues and slots, random buffer offsets); buffer contents, write-back fields, burst
    shape, completion pulse at C+1 and HEAD per queue; nothing else in memory changes."""
    b = DmaBench(dut)
    await b.start()
    entries = b.plan(amount(scale(b.dw)), p_drop=0.3)   # 0.4 of it on Icarus, as the next two
    await b.run(entries)
    await b.finish(entries)


@cocotb.test()
async def test_dma_backpressure(dut):
    """F12, F25: as test_dma_random with random stalls on every AXI channel (AW, W and AR
    ready, B and R valid, via cocotbext-axi pause generators, tb/top/axi_mem.py) and random
    gaps between entries: results and ordering unchanged, completion still exactly at C+1."""
    b = DmaBench(dut)
    await b.start(pause=0.4)
    entries = b.plan(amount(scale(b.dw) * 2 // 3), p_drop=0.3, p_misaligned=0.1)
    await b.run(entries, p_gap=0.3)
    await b.finish(entries)


@cocotb.test()
async def test_dma_aw_waits_for_w(dut):
    """F12, F25: a slave that raises AWREADY only after the burst's first W beat (AXI4
    A3.3.1 allows it; a master that holds WVALID until AWREADY deadlocks), with random
    stalls on every channel too: every frame and write-back lands as in test_dma_random,
    completion at C+1."""
    b = DmaBench(dut)
    await b.start(pause=0.25, aw_waits_for_w=True)
    entries = b.plan(amount(scale(b.dw) // 2), p_drop=0.2, p_misaligned=0.05)
    await b.run(entries, p_gap=0.2)
    await b.finish(entries)


@cocotb.test()
async def test_dma_edge_lengths(dut):
    """F12: directed lengths around the bus width and the 16-beat burst limit (1, bytes-1,
    bytes, bytes+1, 16*bytes-1 .. +1, 1518) at random buffer offsets; back-to-back
    entries with no gap; slots of each ring used in order so HEAD wraps past RING_SIZE;
    then cfg_ring_rst[q] sets HEAD[q] to 0 at the next edge and leaves other queues alone."""
    b = DmaBench(dut)
    await b.start()
    bpb = b.bpb
    lengths = sorted({1, 2, 3, max(1, bpb - 1), bpb, bpb + 1, 2 * bpb + 1, 15 * bpb, 16 * bpb - 1, 16 * bpb,
                      16 * bpb + 1, 17 * bpb - 1, 31 * bpb + 1, 32 * bpb, 60, 64, 1514, MAX_FRAME})
    lengths = lengths + lengths[::-1]
    entries = b.plan(len(lengths), lengths=lengths)
    # slots in ring order per queue (wrap-around), alternating queues
    in_ring_order(b, entries, [i % b.nq for i in range(len(entries))])
    await b.run(entries, p_gap=0.0)
    assert all(len(entries) // b.nq > size for size in b.ring_size), "no HEAD wrap-around"
    # ring reset: HEAD of queue q goes to 0 at the edge after cfg_ring_rst[q]
    d = dut
    for q in range(b.nq):
        await FallingEdge(d.clk)
        before = int(d.status_head.value)
        d.cfg_ring_rst.value = 1 << q
        await FallingEdge(d.clk)
        d.cfg_ring_rst.value = 0
        after = int(d.status_head.value)
        for r in range(b.nq):
            exp = 0 if r == q else before >> (16 * r) & 0xFFFF
            got = after >> (16 * r) & 0xFFFF
            if got != exp:
                b.error(f"after cfg_ring_rst[{q}]: status_head[{r}] = {got}, expected {exp}")
        b.head[q] = 0
    await b.finish(entries)


@cocotb.test()
async def test_dma_misaligned(dut):
    """F12, F24: buffer addresses not aligned to AXI_DATA_WIDTH/8, or with bits set at or
    above AXI_ADDR_WIDTH (never truncated), mixed with good ones: no data write at all, the
    frame's words are still consumed, write-back length 0 and status DD|ERR, HEAD and
    completion as usual; the next frame is unaffected. With AXI_DATA_WIDTH 8 every address is
    aligned, so odd addresses are delivered normally."""
    b = DmaBench(dut)
    await b.start()
    entries = b.plan(scale(b.dw) // 2, p_drop=0.2, p_misaligned=0.5, p_wide=0.3)
    # the plan is random: make sure of one address beyond AXI_ADDR_WIDTH and, on a wider
    # bus, one only misaligned (with few entries at 8 bits a seed could draw neither)
    good = [e for e in entries if e.delivered and not e.misaligned]
    if b.aw_bits < 64 and not any(e.misaligned and e.buf >> b.aw_bits for e in entries) and good:
        e = good.pop()
        e.buf, e.misaligned = e.buf | 1 << b.aw_bits, True
    if b.bpb > 1 and not any(e.misaligned and not e.buf >> b.aw_bits for e in entries) and good:
        e = good.pop()
        e.buf, e.misaligned = e.buf + 1, True
    if b.bpb == 1:  # odd buffer addresses are aligned to a 1-byte bus
        for e in entries:
            if e.delivered:
                e.buf |= 1
    n_mis = sum(e.misaligned for e in entries)
    n_wide = sum(e.misaligned and e.buf >> b.aw_bits != 0 for e in entries)
    dut._log.info("%d bad buffers (%d beyond AXI_ADDR_WIDTH) of %d entries", n_mis, n_wide, len(entries))
    assert n_wide > 0 and (b.bpb == 1 or n_mis > n_wide)
    await b.run(entries)
    await b.finish(entries)


@cocotb.test()
async def test_dma_fit_at_take(dut):
    """F12, F24, F25: the DMA window [0, 2^20) for every queue, each queue's frames
    alternating between a buffer far from the window's end and one too close to it for the
    frame (BUF_ERR: no data write, length 0, DD|ERR), each descriptor posted 1..24 edges
    before its entry, one entry at a time. At one of these leads the prefetch writes the
    queue's fit (pf_fit_wr) at the very edge the write engine takes the entry, so the write
    engine's registered fit flag must take the written fit, not the compare with the
    queue's last one (which says the opposite: a frame written beyond the window or a good
    frame refused). Every frame lands as in test_dma_random; the bench requires the
    coincidence for a fitting and a refused frame of every queue."""
    b = DmaBench(dut)
    win = 20
    await b.start(win_bits=win)
    rng, bpb = b.rng, b.bpb
    leads = range(1, 25)
    plan: list[tuple[int, int, bool]] = []   # (queue, lead, fits) per entry
    for q in range(b.nq):
        for lead in leads:
            plan += [(q, lead, False), (q, lead, True)]   # each after one of the other kind
    lengths = [rng.randint(1, 128) + (16 * bpb if not fits else 0) for _, _, fits in plan]
    entries = b.plan(len(plan), lengths=lengths)
    in_ring_order(b, entries, [q for q, _, _ in plan])
    for e, (_, lead, fits) in zip(entries, plan, strict=True):
        e.lead = lead
        if not fits:   # aligned, 1..16 beats before the window's end, shorter than the frame
            e.buf = (1 << win) - bpb * rng.randint(1, 16)
            e.misaligned = True
            assert e.length > (1 << win) - e.buf
    await b.run(entries, p_gap=0.0)
    await b.finish(entries)
    hits = {(e.queue, not e.misaligned) for e in entries if e.fit_wr_at_accept}
    dut._log.info("fit written at the take: %s", sorted(hits))
    assert hits == {(q, fits) for q in range(b.nq) for fits in (False, True)}, \
        f"the prefetch never wrote a fit at the take for some (queue, fits): {sorted(hits)}"


@cocotb.test()
async def test_dma_stall(dut):
    """F24 (docs/faults.md section 2): with cfg_timeout = 40 the memory withholds AWREADY,
    then WREADY, then ARREADY, 400 cycles each and on until a stall is reported (a long
    dropped frame at 8 bits may keep the bus quiet for a whole hold), while entries arrive
    back to back. Each hold
    gives exactly one stat_dma pulse, STALL_W or STALL_R, at the very edge the stall (VALID
    up, on the write side neither AW nor W taken) reaches 40 edges, with the queue of the
    stalled burst (its address: a buffer of an entry, or a ring); no other event. Every
    frame still lands as in test_dma_random. Before the stall watchdog no pulse came."""
    timeout, hold = 40, 400
    b = DmaBench(dut)
    await b.start()
    d = dut
    d.cfg_timeout.value = timeout
    entries = b.plan(scale(b.dw) // 2, p_drop=0.1)
    events: list[tuple[int, int, int, int, int, int]] = []  # (E, code, queue, write run, read run, addr)
    holds: list[tuple[str, int, int]] = []  # (channel, first cycle, last cycle)

    async def watch() -> None:
        # the stall runs up to the edge before this sample's, and the stalled bursts' addresses
        # there: the write side's AW offered, else the last one taken; the read side's AR
        w_run = r_run = w_addr = r_addr = last_aw = 0
        while True:
            await FallingEdge(d.clk)
            k = b.clocked.cycle_at_falling()
            if d.stat_dma_valid.value == 1:
                events.append((k - 1, int(d.stat_dma_code.value), int(d.stat_dma_queue.value), w_run, r_run,
                               r_addr if int(d.stat_dma_code.value) == EV["STALL_R"] else w_addr))
            awv, wv, arv = d.m_axi_awvalid.value == 1, d.m_axi_wvalid.value == 1, d.m_axi_arvalid.value == 1
            aw_hs, w_hs = awv and d.m_axi_awready.value == 1, wv and d.m_axi_wready.value == 1
            w_run = w_run + 1 if (awv or wv) and not aw_hs and not w_hs else 0
            r_run = r_run + 1 if arv and d.m_axi_arready.value != 1 else 0
            w_addr = int(d.m_axi_awaddr.value) if awv else last_aw
            r_addr = int(d.m_axi_araddr.value) if arv else r_addr
            if aw_hs:
                last_aw = w_addr

    async def stalls() -> None:
        for ch in ("aw", "w", "ar"):
            await ClockCycles(d.clk, 300)
            await FallingEdge(d.clk)
            first, n = b.clocked.cycle_at_falling(), len(events)
            await hold_ready(b.ram, d.clk, ch, hold, until=lambda n=n: len(events) > n)
            holds.append((ch, first, b.clocked.cycle_at_falling()))

    watcher = cocotb.start_soon(watch())
    holder = cocotb.start_soon(stalls())
    await b.run(entries, p_gap=0.0)
    assert holder.done(), "the entries ran out before the three holds"
    watcher.cancel()
    await b.finish(entries)

    def queue_of(addr: int) -> int | None:
        for q in range(b.nq):
            if b.ring_base[q] <= addr < b.ring_base[q] + 32 * b.ring_size[q]:
                return q
        for e in entries:
            if e.delivered and e.buf <= addr < e.buf + max(e.length, 1):
                return e.queue
        return None

    dut._log.info("holds %s, events %s", holds, events)
    for ch, first, last in holds:
        mine = [ev for ev in events if first <= ev[0] <= last]
        code = EV["STALL_R"] if ch == "ar" else EV["STALL_W"]
        assert len(mine) == 1 and mine[0][1] == code, f"{ch} held {first}..{last}: events {mine}"
        e, _code, q, w_run, r_run, addr = mine[0]
        assert (r_run if ch == "ar" else w_run) == timeout, f"{ch}: STALL at {e} after a stall of {w_run}, {r_run}"
        assert q == queue_of(addr), f"{ch}: STALL of queue {q}, the stalled burst 0x{addr:x} is queue {queue_of(addr)}"
    assert len(events) == len(holds), f"events outside the holds: {events}"
