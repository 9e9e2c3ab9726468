"""prionic_flowtable_hash block test (F31): the H3 set of docs/flowtable.md s1 against
``Hash`` of model/flowtable.py. Every row on its own (a key with one bit set is that bit's
row), then random keys (each bit's row XORed in). Combinational: no clock."""

from __future__ import annotations

import cocotb
from cocotb.triggers import Timer

from model.flowtable import Hash
from tb.common import amount, make_rng, param


@cocotb.test()
async def flowtable_hash_vs_model(dut):
    """F31: the RTL hash equals the model's on each single-bit key and on random keys."""
    rng = make_rng(dut)
    kw, iw, bank = param("KEY_WIDTH"), param("IW"), param("BANK")
    h = Hash(1 << iw, kw)
    keys = [1 << i for i in range(kw)] + [rng.getrandbits(kw) for _ in range(amount(2000))]
    for key in keys:
        dut.l_key.value = key
        await Timer(1, unit="ns")
        got, want = int(dut.set.value), h.set_of(key, bank)
        assert got == want, f"bank {bank} key {key:#x}: set {got}, model {want}"
    assert len({h.set_of(1 << i, bank) for i in range(kw)}) > 1, "every row the same"
