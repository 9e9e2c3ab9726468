"""The structural clock-domain-crossing check of prionic_eth_rx (F29, tb/cdc.py), and proof
that it bites: on a small planted design it flags each kind of unsynchronized crossing."""

from pathlib import Path

from tb import cdc

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cdc_planted.v"
SYNC = cdc.ROOT / "rtl" / "prionic_sync_bit.v"


def test_cdc_eth_rx():
    """F29: every signal between gmii_rx_clk and clk of prionic_eth_rx passes prionic_sync_bit;
    the one waived crossing is the async FIFO's memory, named; both domains hold logic."""
    rep = cdc.check_eth_rx()
    assert rep.violations == [], rep.violations
    assert rep.waived == ["fifo_inst.mem"], rep.waived
    assert set(rep.clocks) == {"clk", "gmii_rx_clk"} and min(rep.clocks.values()) > 5, rep.clocks
    # reset there and back, the FIFO's two pointers and the write pointer's request and
    # acknowledge, the three drop counts
    assert len(rep.syncs) == 9, rep.syncs


def test_cdc_planted():
    """F29: the check flags a register of one clock sampled by another, logic in front of a
    synchronizer and a memory that crosses without a waiver; it accepts the synchronized
    path and, once waived by name, the memory."""
    nl = cdc.netlist("cdc_planted", [FIXTURE.relative_to(cdc.ROOT), SYNC])
    rep = cdc.check(nl, "cdc_planted", ("clk_a", "clk_b"))
    text = "\n".join(rep.violations)
    assert "a_reg (clk_a) reaches bad_reg (clk_b)" in text, text
    assert "logic_sync.d: driven by logic" in text, text
    # a memory read on a clock (read port register merged) or read into a register of clk_b
    assert any(v.startswith(("memory mem: written on ['clk_a'], read on clk_b", "mem (clk_a) reaches mem_reg (clk_b)"))
               for v in rep.violations), text
    assert "ok_sync" not in text, text
    assert len(rep.violations) == 3, rep.violations
    waived = cdc.check(nl, "cdc_planted", ("clk_a", "clk_b"), waivers=("mem",))
    assert waived.waived == ["mem"] and len(waived.violations) == 2, (waived.waived, waived.violations)
