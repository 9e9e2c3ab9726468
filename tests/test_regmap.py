"""The register map is defined once (docs/regmap.toml); the generated Verilog header and
Markdown table must be current, and the map itself must be consistent."""

from gen.regmap import main as generate
from model import regmap


def test_generated_files_are_current():
    assert generate(["--check"]) == 0, "run `python -m gen.regmap` and commit the result"


def test_no_two_registers_share_an_address():
    seen = {}
    for reg in regmap.REGS.values():
        count = {"global": 1, "queue": 16, "rule": 64}[reg.block]
        for i in range(count):
            a = reg.addr(i)
            assert a % 4 == 0, f"{reg.name} not 4-byte aligned"
            assert a not in seen, f"{reg.name}[{i}] and {seen[a]} both at 0x{a:x}"
            seen[a] = f"{reg.name}[{i}]"
    assert max(seen) < 1 << regmap.META["addr_width"]


def test_decode_inverts_addr():
    for reg in regmap.REGS.values():
        assert regmap.decode(reg.addr(1 if reg.block != "global" else 0), 2, 4) == (
            reg.name, 1 if reg.block != "global" else 0)
