"""Block test of prionic_dma_write, the DMA's write engine (F12, F24).

Run through tests/test_dma_write.py (pytest, both simulators, AXI 8..128 bits). Python
plays the prefetch engine (a buffer address per queue, held until ``pf_take``, now and
then a bad one: ``pf_bad``) and feeds entries and words; host memory is cocotbext-axi's
``AxiRamWrite`` with random stalls. The reference is the header of
rtl/prionic_dma_write.v: a delivered frame's bytes land at its buffer in INCR bursts of at
most 16 beats that never cross a 16-beat boundary; its write-back (the ``writeback``
record of docs/regmap.toml, packed by model.regmap) lands at descriptor byte 16; the
completion pulses (queue, words) the cycle after the write-back's B, and HEAD becomes
slot + 1; a bad buffer gets no data write, a write-back with length 0 and ERR, and a
BUF_ERR event; a dropped entry's words are popped and nothing is written.
"""

from __future__ import annotations

import logging

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotbext.axi import AxiRamWrite, AxiWriteBus

from model import regmap
from tb.common import make_rng, param
from tb.top.axi_mem import pauses

EV = regmap.ENUMS["dma_event"]
RING, BUFS, FILL = 0x1000, 0x4000, 0x5A


@cocotb.test()
async def write_frames(dut):
    """F12, F24: 60 entries over the queues (lengths 1..300, 20% dropped, 10% with a bad
    buffer), random gaps in the words and in the prefetched addresses, stalls on AW, W and
    B: memory, bursts, write-backs, completions at B+1, HEAD and BUF_ERR events."""
    rng, d = make_rng(dut), dut
    dw, axi, nq = param("DATA_WIDTH", 32), param("AXI_DATA_WIDTH", param("DATA_WIDTH", 32)), param("NUM_QUEUES", 2)
    bpb, ratio, size = axi // 8, axi // param("DATA_WIDTH", 32), 8
    for s in ("s_meta_valid", "s_data_valid", "ring_bad", "pf_valid", "pf_bad", "pf_addr", "pf_room", "pf_rw",
              "pf_fit", "rd_busy", "rd_q", "rd_ev",
              "rd_code", "m_axi_arvalid", "m_axi_arready", "cfg_ring_rst", "cfg_timeout"):
        getattr(d, s).value = 0
    d.cfg_ring_base.value = sum((RING + 0x100 * q) << (64 * q) for q in range(nq))
    d.cfg_ring_size.value = sum(size << (16 * q) for q in range(nq))
    ram = AxiRamWrite(AxiWriteBus.from_prefix(d, "m_axi"), d.clk, d.rst, size=0x40000)
    ram.log.setLevel(logging.WARNING)
    for n, ch in enumerate((ram.aw_channel, ram.w_channel, ram.b_channel)):
        ch.set_pause_generator(pauses(rng.__class__(rng.getrandbits(32) + n), 0.3))
    ram.write(0, bytes([FILL]) * 0x40000)
    image = bytearray([FILL]) * 0x40000
    d.rst.value, d.bus_rst.value = 1, 1
    cocotb.start_soon(Clock(d.clk, 10, unit="ns").start(start_high=False))
    await ClockCycles(d.clk, 4)
    await FallingEdge(d.clk)
    d.rst.value, d.bus_rst.value = 0, 0

    # the plan: entries, and per queue the buffers the prefetch hands out in order
    entries, bufs, slot = [], [[] for _ in range(nq)], [0] * nq
    for k in range(60):
        q, length = rng.randrange(nq), rng.randint(1, 300)
        e = {"q": q, "len": length, "drop": rng.random() < 0.2, "rule": rng.getrandbits(8),
             "ts": rng.getrandbits(32), "info": rng.getrandbits(40), "slot": slot[q],
             "data": bytes(rng.getrandbits(8) for _ in range(length))}
        e["words"] = -(-length * 8 // dw)
        if not e["drop"]:
            e["buf"] = BUFS + 0x800 * k + rng.randrange(0, 512, bpb)
            e["bad"] = rng.random() < 0.1
            bufs[q].append(e)
            slot[q] = (slot[q] + 1) % size
        entries.append(e)
    done = [e for e in entries if not e["drop"]]
    cpls, events, b_wb, head = [], [], None, [0] * nq
    meta, words = list(entries), []
    pf_gap, take, meta_hs, data_hs = [0] * nq, 0, 0, 0
    for cyc in range(40000):
        await FallingEdge(d.clk)
        # outputs of the last edge
        if b_wb is not None:
            assert int(d.m_cpl_valid.value), f"cycle {cyc}: no completion the cycle after the write-back's B"
        if int(d.m_cpl_valid.value):
            e = done[len(cpls)]
            assert b_wb is not None, f"cycle {cyc}: a completion without a write-back's B the cycle before"
            assert (int(d.m_cpl_queue.value), int(d.m_cpl_words.value)) == (e["q"], e["words"])
            head[e["q"]] = (e["slot"] + 1) % size
            cpls.append(e)
        for q in range(nq):
            assert (int(d.status_head.value) >> (16 * q)) & 0xFFFF == head[q], f"cycle {cyc}: HEAD of queue {q}"
        if int(d.stat_dma_valid.value):
            events.append((int(d.stat_dma_code.value), int(d.stat_dma_queue.value)))
        # the handshakes of the edge before (noted just after the last falling edge)
        for q in range(nq):
            if take >> q & 1:
                bufs[q].pop(0)
                pf_gap[q] = rng.randint(0, 3)
            elif pf_gap[q]:
                pf_gap[q] -= 1
        if meta_hs:
            e = meta.pop(0)
            data = e["data"] + bytes(-len(e["data"]) % bpb)
            words += [int.from_bytes(data[i:i + bpb], "little") for i in range(0, -(-e["words"] // ratio) * bpb, bpb)]
        if data_hs:
            words.pop(0)
        # the prefetch: a queue's next buffer until pf_take (then a random gap)
        valid = bad = 0
        pf = [0, 0, 0, 0]     # pf_addr, pf_room, pf_rw, pf_fit
        for q in range(nq):
            if bufs[q] and not pf_gap[q]:
                buf = bufs[q][0]["buf"]
                room = 16 - (buf // bpb) % 16
                valid |= 1 << q
                bad |= bufs[q][0]["bad"] << q
                pf[0] |= buf << 32 * q
                pf[1] |= room << 5 * q
                pf[2] |= ((room - 1) * ratio) << 7 * q
                pf[3] |= 0x10000 << 17 * q
        d.pf_valid.value, d.pf_bad.value = valid, bad
        d.pf_addr.value, d.pf_room.value, d.pf_rw.value, d.pf_fit.value = pf
        # entries and words
        if meta and rng.random() < 0.7:
            e = meta[0]
            d.s_meta_valid.value = 1
            d.s_meta.value = regmap.pack("meta", drop=int(e["drop"]), queue=e["q"], rule=e["rule"], len=e["len"],
                                         words=e["words"], slot=e["slot"], ts=e["ts"], info=e["info"])
        else:
            d.s_meta_valid.value = 0
        d.s_data_valid.value = int(bool(words) and rng.random() < 0.8)
        d.s_data.value = words[0] if words else 0
        # what the coming edge takes
        await Timer(1, unit="ns")
        meta_hs = int(d.s_meta_valid.value) and int(d.s_meta_ready.value)
        data_hs = int(d.s_data_valid.value) and int(d.s_data_ready.value)
        take = int(d.pf_take.value)
        b_wb = None
        if int(d.m_axi_bvalid.value) and int(d.m_axi_bready.value) and int(d.m_axi_bid.value) >> 3 & 1:
            b_wb = cyc
        if int(d.m_axi_awvalid.value) and int(d.m_axi_awready.value):
            a, n = int(d.m_axi_awaddr.value), int(d.m_axi_awlen.value) + 1
            assert n <= 16 and (a // bpb) % 16 + n <= 16, f"burst of {n} beats at {a:#x}"
        if len(cpls) == len(done) and not meta and not words:
            break
    assert len(cpls) == len(done), f"{len(cpls)} of {len(done)} completions"
    for e in done:
        ok = not e["bad"]
        wb = regmap.pack("writeback", len=e["len"] if ok else 0, rule=e["rule"], queue=e["q"], ts=e["ts"],
                         info=e["info"] & 0xFFFFFFFF, flags=e["info"] >> 32, err=int(not ok), dd=1)
        a = RING + 0x100 * e["q"] + 32 * e["slot"] + 16
        image[a:a + 16] = wb.to_bytes(16, "little")
        if ok:
            image[e["buf"]:e["buf"] + e["len"]] = e["data"]
    assert ram.read(0, len(image)) == bytes(image), "host memory differs from the reference image"
    want = [(EV["BUF_ERR"], e["q"]) for e in done if e["bad"]]
    assert events == want, f"events {events}, reference {want}"
