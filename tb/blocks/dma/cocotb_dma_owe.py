"""Block test of prionic_dma_owe, the finisher of a write burst cut by rst (F24, F25).

Run through tests/test_dma_owe.py (pytest, both simulators, CPL_BEATS 1, 4 and 16).
Python plays the write engine (rtl/prionic_dma_write.v's states DATA_AW, DATA_W, CPL_AW,
CPL_W, OWE and the others, with random AW and W handshakes) and keeps, from the header of
rtl/prionic_dma_owe.v alone, the burst that is open: its W beats left, its AW pending, and
whether the slave has seen it (an AW or a W beat taken). At a rst edge an open, seen burst
is owed with what is left after that edge's handshakes (nothing owed if nothing is left);
in OWE each handshake pays it off and cut_exit marks the edge that ends it; bus_rst
forgives it. Outputs are compared at falling edges (tb/common.py).
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, Timer

from model import regmap
from tb.common import make_rng, param

S = regmap.ENUMS["dma_state"]


@cocotb.test()
async def owe_vs_reference(dut):
    """F24: 6000 cycles of bursts (data bursts of 1..16 beats, write-backs of CPL_BEATS)
    under random handshakes and resets (some with bus_rst): the owed beats, AW, ID, address
    and length, cut_done, cut_nz, cut_last and cut_exit against the reference every cycle;
    owed bursts with and without their AW, and resets inside OWE, all occur."""
    rng = make_rng(dut)
    cpl = param("CPL_BEATS", 4)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start(start_high=False))
    st, burst_len, beats, aw, seen = "IDLE", 0, 0, False, False     # the engine and its open burst
    burst_id = (0, 0, 0)
    owe = None          # reference: (beats, aw, id, addr, len) owed, None when nothing is
    seen_cases = {"owed_aw": 0, "owed_w": 0, "rst_in_owe": 0, "exit": 0, "bus_rst": 0}
    dut.rst.value, dut.bus_rst.value = 1, 1
    await FallingEdge(dut.clk)
    for _ in range(6000):
        await FallingEdge(dut.clk)
        # outputs after the last edge
        got = (int(dut.cut_done.value), int(dut.cut_aw.value), int(dut.cut_nz.value), int(dut.cut_last.value))
        want = (1, 0, 0, 0) if owe is None else (0, int(owe[1]), int(owe[0] != 0), int(owe[0] == 1))
        assert got == want, f"state {st}: cut_done/aw/nz/last {got}, reference {want} (owed {owe})"
        if owe is not None:
            got_aw = (int(dut.cut_id.value), int(dut.cut_addr.value), int(dut.cut_len.value))
            assert got_aw == owe[2:], f"owed burst's AWID, AWADDR, AWLEN {got_aw}, reference {owe}"
        # this cycle: the open burst's handshakes
        if st == "OWE":
            beats, aw = owe[0], owe[1]
        first = st in ("DATA_AW", "CPL_AW")
        if first:
            beats, aw, seen = (burst_len if st == "DATA_AW" else cpl), True, False
            burst_id = (rng.getrandbits(4), rng.getrandbits(32), beats - 1)
        is_open = first or st in ("DATA_W", "CPL_W", "OWE")
        aw_hs = is_open and aw and rng.random() < 0.5
        w_hs = is_open and beats > 0 and rng.random() < 0.6
        rst = rng.random() < 0.04
        bus = rst and rng.random() < 0.2
        ids = owe[2:] if st == "OWE" else burst_id
        left, aw_left = beats - w_hs, aw and not aw_hs
        d = dut
        d.state.value = S[st]
        d.st_data_aw.value, d.st_cpl_aw.value = int(st == "DATA_AW"), int(st == "CPL_AW")
        d.burst_len.value = burst_len
        d.burst.value = beats if st == "DATA_W" else 0
        d.cpl_beats.value = beats if st == "CPL_W" else 0
        d.w_burst_done.value = int(beats == 0 or (w_hs and beats == 1))
        d.cpl_w_done.value = int(beats == 0 or (w_hs and beats == 1))
        d.aw_done.value = int(not aw or aw_hs)
        d.aw_pend.value = int(aw and st in ("DATA_W", "CPL_W", "OWE"))
        d.aw_hs.value, d.w_hs.value = int(aw_hs), int(w_hs)
        d.awid.value, d.awaddr.value, d.awlen.value = ids
        d.rst.value, d.bus_rst.value = int(rst), int(bus)
        ends = is_open and left == 0 and not aw_left
        if st == "OWE":
            await Timer(1, unit="ns")
            assert int(dut.cut_exit.value) == int(ends), f"cut_exit {int(dut.cut_exit.value)}, reference {ends}"
        # the edge
        seen = seen or w_hs or aw_hs
        if rst:
            if st == "OWE":
                seen_cases["rst_in_owe"] += 1
            if is_open and seen:
                owe = None if ends else (left, aw_left, *ids)
                if owe:
                    seen_cases["owed_aw" if aw_left else "owed_w"] += 1
            if bus:
                owe = None
                seen_cases["bus_rst"] += 1
            st = "IDLE"
            continue
        if st == "OWE":
            owe = None if ends else (left, aw_left, *ids)
            seen_cases["exit"] += ends
            st = "IDLE" if ends else "OWE"
        elif first:
            beats, aw = left, aw_left
            st = "DATA_W" if st == "DATA_AW" else "CPL_W"
        elif st in ("DATA_W", "CPL_W"):
            beats, aw = left, aw_left
            if ends:
                st = rng.choice(["DATA_AW", "CPL_AW", "IDLE"]) if st == "DATA_W" else "IDLE"
                burst_len = rng.randint(1, 16)
        elif st == "IDLE":
            st = "OWE" if owe else rng.choice(["IDLE", "SKIP", "DATA_AW", "CPL_AW"])
            burst_len = rng.randint(1, 16)
        else:
            st = "IDLE"
    assert all(seen_cases.values()), f"cases never met: {seen_cases}"
