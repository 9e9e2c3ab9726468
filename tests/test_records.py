"""Record layouts come from one source (F27): docs/regmap.toml ``[records.*]``.

The words blocks hand each other (the flow key, the parser's info, the classifier's parse
record, the look-ahead of the next verdict, the admission entry, the DMA write-back) are
packed and unpacked only through the generated localparams ``REC_<R>_<FIELD>_LSB`` / ``_W`` in the RTL and through
``model.regmap.pack`` / ``unpack`` in the model. These tests fail on hand-typed
bit patterns that would carry those layouts, check that every record is used by the RTL,
that ``pack``/``unpack`` are exact inverses that refuse what does not fit, and that the
write-back record agrees with the descriptor's byte offsets.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from model import regmap

ROOT = Path(__file__).resolve().parent.parent
RTL = sorted((ROOT / "rtl").glob("prionic_*.v"))
MODEL = sorted((ROOT / "model").glob("*.py")) + sorted((ROOT / "gen").rglob("*.py"))  # the model and the generators

# vectors that hold a record: indexing them must go through a REC_ localparam
RECORD_VECTORS = ("meta_out", "s_meta_rec", "s_meta", "m_meta", "adm_meta", "qb_meta",
                  "h_rec", "s_rec", "q_rec", "key", "wb_rec", "prs_info",
                  "m_lookahead", "p_lookahead", "cls_lookahead")

HAND_TYPED_RTL = [
    (re.compile(r"localparam\s+integer\s+(KW|REC|META_WIDTH|MW)\s*=\s*\d"), "a record width typed as a number"),
    (re.compile(r"\b\d+\s*\+\s*8\s*\+\s*16\s*\+\s*16"), "a record width typed as a sum of field widths"),
    (re.compile(r"\b(" + "|".join(RECORD_VECTORS) + r")\[(?!REC_|0 \+: REC_)[^\]]*\]"),
     "a record indexed without its REC_ localparams"),
    (re.compile(r"\*\s*(MW|REC)\s*\+\s*\d+\s*\+:"), "a field of a packed array of records at a typed offset"),
]
HAND_TYPED_MODEL = [
    (re.compile(r"^FLAG_\w+\s*=\s*1\s*<<\s*\d", re.M), "a status flag bit typed as a number"),
    (re.compile(r"tcp_flags\s*<<\s*\d|vlan_tags\s*<<\s*\d"), "the info word packed by hand"),
    (re.compile(r"KEY_BITS\s*=\s*\d"), "the flow key width typed as a number"),
]


@pytest.mark.parametrize("path", RTL, ids=lambda p: p.name)
def test_rtl_packs_records_through_generated_localparams(path: Path) -> None:
    text = re.sub(r"//.*", "", path.read_text())
    bad = [f"{path.name}: {why}: {m.group(0)!r}" for rx, why in HAND_TYPED_RTL for m in rx.finditer(text)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", MODEL, ids=lambda p: p.name if p.parent.name == "model" else str(p.relative_to(ROOT)))
def test_model_packs_records_through_regmap(path: Path) -> None:
    text = path.read_text()
    bad = [f"{path.name}: {why}: {m.group(0)!r}" for rx, why in HAND_TYPED_MODEL for m in rx.finditer(text)]
    assert not bad, "\n".join(bad)


def test_every_record_is_used_by_the_rtl() -> None:
    rtl = "".join(p.read_text() for p in RTL)
    unused = [name for name in regmap.RECORDS if f"REC_{name.upper()}_W" not in rtl]
    assert not unused, f"records defined in docs/regmap.toml but not used in rtl/: {unused}"
    for name, fields in regmap.RECORDS.items():
        for f in fields:
            if f.name != "rsvd":
                assert f"REC_{name.upper()}_{f.name.upper()}_LSB" in rtl, \
                    f"{name}.{f.name} is never packed or unpacked in rtl/"


@pytest.mark.parametrize("name", sorted(regmap.RECORDS))
def test_pack_unpack_round_trip(name: str) -> None:
    rng = random.Random(name)
    fields = regmap.RECORDS[name]
    assert sum(f.width for f in fields) == regmap.record_width(name)
    for _ in range(200):
        values = {f.name: rng.getrandbits(f.width) for f in fields if f.name != "rsvd"}
        word = regmap.pack(name, **values)
        assert 0 <= word < 1 << regmap.record_width(name)
        back = regmap.unpack(name, word)
        assert {k: v for k, v in back.items() if k != "rsvd"} == values
        assert back.get("rsvd", 0) == 0
    f = next(f for f in fields if f.name != "rsvd")
    with pytest.raises(ValueError):
        regmap.pack(name, **{f.name: 1 << f.width})
    with pytest.raises(KeyError):
        regmap.pack(name, no_such_field=1)


def test_writeback_record_matches_descriptor_offsets() -> None:
    d, wb = regmap.DESC, {f.name: f for f in regmap.RECORDS["writeback"]}
    base = d["writeback_offset"]
    for field in ("len", "rule", "queue", "ts", "info"):
        assert wb[field].lsb == 8 * (d[f"{field}_offset"] - base), field
    status = 8 * (d["status_offset"] - base)
    assert wb["err"].lsb == status + d["status_err"] and wb["dd"].lsb == status + d["status_dd"]
    assert wb["flags"].lsb == status
    assert regmap.record_width("writeback") == 8 * (d["size"] - base)
    info = {f.name: f for f in regmap.RECORDS["info"]}
    assert wb["info"].width == info["flags"].lsb and wb["flags"].width == info["flags"].width
