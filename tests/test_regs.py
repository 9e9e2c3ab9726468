"""pytest entry: prionic_regs block tests on both simulators (F11-F15), and the unit tests of
tb/blocks/regs/claims.py, the docs' read-0 / ignore-writes claims (F13, F24, F27)."""

from dataclasses import replace

import pytest

from model import regmap
from tb.blocks.regs import claims as regs_claims
from tb.blocks.regs.ref import RegModel
from tb.runner import SIMULATORS, run_sim


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("nq,nr,dw,rpc,entries", [(2, 4, 32, 4, 16), (4, 16, 64, 3, 0)])
def test_regs(sim, nq, nr, dw, rpc, entries):
    """The block tests and the docs' read-0 / ignore-writes claims (tb/blocks/regs/cocotb_regs_claims.py),
    in one simulator process on one build."""
    run_sim(sim, "prionic_regs", ["tb.blocks.regs.cocotb_regs", "tb.blocks.regs.cocotb_regs_claims"],
            {"NUM_QUEUES": nq, "NUM_RULES": nr, "DATA_WIDTH": dw, "RULES_PER_CYCLE": rpc, "FLOW_ENTRIES": entries})


@pytest.mark.parametrize("sim", SIMULATORS)
def test_regs_16_queues_cause(sim):
    """IRQ_CAUSE clears with more than 8 queues: bits 8..15 live in byte 1 (byte strobes)."""
    run_sim(sim, "prionic_regs", "tb.blocks.regs.cocotb_regs", {"NUM_QUEUES": 16, "NUM_RULES": 2, "DATA_WIDTH": 32},
            testcase="test_irq_cause_clear")


# ------------------------------------------------ the docs' read-0 / ignore-writes claims (F13, F24, F27)

def _all_ones(model: RegModel, name: str, i: int) -> int:
    """What ``RegModel`` (tb/blocks/regs/ref.py, the block as the docs describe it) reads after a
    write of 0xFFFFFFFF to ``name[i]``: the stand-in for the block in these unit tests."""
    model.write(regmap.addr(name, i), 0xFFFFFFFF, 0xF)
    return model.read(name, i)


def test_claims_found_and_true_of_the_reference():
    """F13, F24, F27: tb/blocks/regs/claims.py finds the claims the docs make (bits, RO, source_bits,
    zero_lsbs, and the prose "Bits >= NUM_QUEUES read 0", "bits [4:0] read 0"), leaves no
    prose claim unparsed, and every read-0 claim holds on RegModel after all-ones writes."""
    cls = regs_claims.claims(4, 16)
    assert regs_claims.unparsed_prose({n: r.doc for n, r in regmap.REGS.items()}) == []
    whys = {n: {c.why for c in cs} for n, cs in cls.items()}
    assert {"bits = NUM_QUEUES", "doc: 'Bits >= NUM_QUEUES read 0'"} <= whys["IRQ_MASK"]
    assert {"zero_lsbs = 5", "doc: 'bits [4:0] read 0'"} == whys["RING_BASE_LO"]
    assert all(c.zero == 0x1F and c.ignored == 0 for c in cls["RING_BASE_LO"])  # refused, not ignored
    assert [c.zero for c in cls["QUEUE_STATUS"] if c.zero] == [0xFFFFFC00]    # 9 source bits, sticky bit 9
    assert all(any(c.ignored == 0xFFFFFFFF for c in cls[n]) for n, r in regmap.REGS.items() if r.access == "RO")
    model = RegModel(4, 16, 64)
    for name, i, _addr in model.mapped():
        assert regs_claims.zero_violations(cls[name], i, _all_ones(model, name, i)) == [], name


def test_planted_claims_fail():
    """F13, F27: the checks can fail. A doc claiming that real bits read 0 (TICK_DIV [3:0]) or
    ignore writes (IRQ_MASK bits >= 1 with two queues), planted in a copy of the register's
    regmap entry, is broken by RegModel's reads, and only the planted claim is named; a
    claim in words the parser does not know is reported as unparsed."""
    model = RegModel(2, 4, 32)
    tick = replace(regmap.REGS["TICK_DIV"], doc=regmap.REGS["TICK_DIV"].doc + " Bits [3:0] read 0.")
    cls = regs_claims.reg_claims(tick, 2, 4)
    value = _all_ones(model, "TICK_DIV", 0)
    bad = regs_claims.zero_violations(cls, 0, value)
    assert value == 0xFFFF and len(bad) == 1 and "'Bits [3:0] read 0'" in bad[0], bad
    assert regs_claims.zero_violations(regs_claims.reg_claims(regmap.REGS["TICK_DIV"], 2, 4), 0, value) == []

    mask = replace(regmap.REGS["IRQ_MASK"], doc="Bit q masks irq[q]. Bits >= 1 ignore writes.")
    cls = regs_claims.reg_claims(mask, 2, 4)
    flip = regs_claims.ignored_bits(cls)                                  # bits 1..31
    model.write(regmap.addr("IRQ_MASK"), 0, 0xF)
    model.write(regmap.addr("IRQ_MASK"), flip, 0xF)
    bad = regs_claims.ignore_violations(cls, 0, flip, 0, model.read("IRQ_MASK", 0))
    assert len(bad) == 1 and "'Bits >= 1 ignore writes'" in bad[0], bad
    true = regs_claims.reg_claims(regmap.REGS["IRQ_MASK"], 2, 4)
    assert regs_claims.judged(true, 0xFFFFFFFC) and not regs_claims.judged(true, flip)
    assert regs_claims.ignore_violations(true, 0, 0xFFFFFFFC, 0, 0) == []

    assert regs_claims.unparsed_prose({"X": "The upper half reads 0 and ignores writes."}) != []
