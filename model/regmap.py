"""The prionic register map, loaded from ``docs/regmap.toml`` (the single source).

Everything that describes the hardware interface -- register offsets, reset values,
field positions, verdict codes and the descriptor layout -- is defined once in
``docs/regmap.toml``. This module reads it at import time and exposes it to the golden
model and the testbench. It only reads: the files derived from the same TOML (the
register block ``rtl/prionic_regs.v``, its includes, the C header ``rtl/prionic_regs.h``
and ``docs/registers.md``) are written by the generator package ``gen/``::

    python -m gen.regmap            # writes the generated files
    python -m gen.regmap --check    # exits 1 if any generated file is stale
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOML_PATH = ROOT / "docs" / "regmap.toml"


@dataclass(frozen=True)
class Reg:
    """One register of a block; ``addr(i)`` gives its byte address for instance i."""

    block: str
    name: str
    offset: int
    access: str
    reset: int | str
    bits: int | str  # a width, or "NUM_QUEUES"
    doc: str
    base: int
    stride: int
    effects: tuple[str, ...] = ()      # "clear:REG", "pulse:NAME" (regmap.toml header)
    accept: tuple[str, ...] = ()       # rules a write must pass to be kept (regmap.toml header, F24)
    source: str = ""                   # RO: input status_<source>
    source_bits: int | str = 0         # ... its width per instance (0: `bits`)
    count: str = ""                    # RO counter: "verdict", "verdict:CODE", "rule_hit", "pulse:NAME"
    amount: str = ""                   # counter increment: stat_verdict_<amount> instead of 1
    param: str | dict = ""             # RO: a build parameter, or host fields of parameters
    zero_lsbs: int = 0                 # RW: low bits that read 0 (not stored; "aligned" refuses a write setting them)
    sticky: tuple[tuple[str, str, str], ...] = ()  # RO: (field, set, clear) bits the block keeps (F24)

    def byte_mask(self, num_queues: int) -> int:
        """The write strobes that select a byte of this register (bit b: byte b)."""
        return (1 << min(4, -(-self.width(num_queues) // 8))) - 1

    def strobed(self, old: int, data: int, strb: int) -> int:
        """The 32 bits a write of ``data`` with byte strobes ``strb`` leaves over ``old``."""
        merged = 0
        for b in range(4):
            merged |= ((data if strb >> b & 1 else old) >> 8 * b & 0xFF) << 8 * b
        return merged

    def write_value(self, old: int, data: int, strb: int, num_queues: int) -> int:
        """The stored value after a write of ``data`` with byte strobes ``strb``."""
        merged = self.strobed(old, data, strb)
        return merged & ((1 << self.width(num_queues)) - 1) & ~((1 << self.zero_lsbs) - 1)

    def addr(self, index: int = 0) -> int:
        return self.base + self.stride * index + self.offset

    def reset_value(self, index: int = 0) -> int:
        """Reset value of instance ``index``; "param" registers (CONFIG) are not covered."""
        if isinstance(self.reset, int):
            return self.reset
        if self.reset == "index + 1":
            return index + 1
        raise ValueError(f"{self.name}: reset value {self.reset!r} depends on build parameters")

    def width(self, num_queues: int) -> int:
        """Bits the register holds (higher bits read 0, writes to them are ignored)."""
        return num_queues if self.bits == "NUM_QUEUES" else int(self.bits)


def _load(path: Path = TOML_PATH) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


SPEC = _load()
META: dict = SPEC["meta"]
BLOCKS: dict = SPEC["blocks"]
FIELDS: dict[str, int] = SPEC["fields"]
VERDICTS: dict[str, int] = SPEC["verdicts"]
DESC: dict[str, int] = SPEC["descriptor"]
VERDICT_NAMES: dict[int, str] = {v: k for k, v in VERDICTS.items()}
PULSES: dict[str, str] = SPEC.get("pulses", {})  # write pulse -> "global", "queue" or "rule"
ENUMS: dict[str, dict[str, int]] = SPEC.get("enums", {})  # state encodings (GTKWave filters too)
# used only by the C header (F27): widths of the multi-bit [fields], fields only a host
# needs, and the fields of the write-back's info word; each value of the last two is [lsb, width]
FIELD_WIDTHS: dict[str, int] = SPEC.get("field_widths", {})
HOST_FIELDS: dict[str, list[int]] = SPEC.get("host_fields", {})


@dataclass(frozen=True)
class Field:
    """One field of a record: ``width`` bits from bit ``lsb``."""

    name: str
    lsb: int
    width: int


def _records(spec: dict) -> dict[str, tuple[Field, ...]]:
    """``[records.*]``: each a list of [name, width] pairs, least significant field first."""
    out: dict[str, tuple[Field, ...]] = {}
    for name, rec in spec.get("records", {}).items():
        fields, lsb, seen = [], 0, set()
        for fname, width in rec["fields"]:
            if not isinstance(width, int) or width < 1:
                raise ValueError(f"docs/regmap.toml: record {name}: field {fname} has width {width!r}")
            if fname in seen:
                raise ValueError(f"docs/regmap.toml: record {name}: field {fname} appears twice")
            seen.add(fname)
            fields.append(Field(fname, lsb, width))
            lsb += width
        out[name] = tuple(fields)
    return out


RECORDS: dict[str, tuple[Field, ...]] = _records(SPEC)


def record_width(name: str) -> int:
    """Total bits of record ``name``."""
    return sum(f.width for f in RECORDS[name])


def pack(name: str, **values: int) -> int:
    """Record ``name`` with the given fields (the others, and every ``rsvd``, are 0).
    Raises KeyError for an unknown field and ValueError for a value that does not fit."""
    fields = {f.name: f for f in RECORDS[name] if f.name != "rsvd"}
    word = 0
    for k, v in values.items():
        f = fields.get(k)
        if f is None:
            raise KeyError(f"record {name} has no field {k!r} (fields: {', '.join(fields)})")
        v = int(v)
        if not 0 <= v < 1 << f.width:
            raise ValueError(f"record {name}: {k} = {v:#x} does not fit in {f.width} bits")
        word |= v << f.lsb
    return word


def pack_host_fields(reg: str, **values: int) -> int:
    """A register value from its ``[host_fields]`` (``<reg>_<FIELD> = [lsb, width]``); each
    value is cut to its field's width, as the hardware reports it."""
    word = 0
    for k, v in values.items():
        lsb, width = HOST_FIELDS[f"{reg}_{k}"]
        word |= (int(v) & ((1 << width) - 1)) << lsb
    return word


def unpack(name: str, word: int) -> dict[str, int]:
    """Every field of record ``name`` (``rsvd`` fields OR'ed together under ``rsvd``)."""
    out: dict[str, int] = {}
    for f in RECORDS[name]:
        v = (word >> f.lsb) & ((1 << f.width) - 1)
        out[f.name] = out.get(f.name, 0) | v
    return out


def _check_writeback() -> None:
    """The write-back record and the descriptor's byte offsets describe the same bytes."""
    if "writeback" not in RECORDS:
        return
    wb = {f.name: f for f in RECORDS["writeback"]}
    base = DESC["writeback_offset"]
    want = {k: 8 * (DESC[f"{k}_offset"] - base) for k in ("len", "rule", "queue", "ts", "info")}
    status = 8 * (DESC["status_offset"] - base)
    want.update(flags=status, err=status + DESC["status_err"], dd=status + DESC["status_dd"])
    bad = [f"{k} at bit {wb[k].lsb if k in wb else None}, [descriptor] says {v}" for k, v in want.items()
           if k not in wb or wb[k].lsb != v]
    if record_width("writeback") != 8 * (DESC["size"] - base):
        bad.append(f"{record_width('writeback')} bits, the write-back is {DESC['size'] - base} bytes")
    if bad:
        raise ValueError("docs/regmap.toml: [records.writeback] disagrees with [descriptor]: " + "; ".join(bad))


_check_writeback()
# the write-back's info word (the C header's PRIONIC_DESC_INFO_* fields): the `info` record below `flags`
DESC_INFO: dict[str, list[int]] = {f.name.upper(): [f.lsb, f.width] for f in RECORDS.get("info", ())
                                   if f.name not in ("rsvd", "flags")}

REGS: dict[str, Reg] = {}
for _bname, _blk in BLOCKS.items():
    for _r in _blk["regs"]:
        REGS[_r["name"]] = Reg(
            block=_bname,
            name=_r["name"],
            offset=_r["offset"],
            access=_r["access"],
            reset=_r["reset"],
            bits=_r.get("bits", 32),
            doc=_r["doc"],
            base=_blk["base"],
            stride=_blk["stride"],
            effects=tuple(_r.get("effects", ())),
            accept=(_r["accept"],) if isinstance(_r.get("accept"), str) else tuple(_r.get("accept", ())),
            source=_r.get("source", ""),
            source_bits=_r.get("source_bits", 0),
            count=_r.get("count", ""),
            amount=_r.get("amount", ""),
            param=_r.get("param", ""),
            zero_lsbs=_r.get("zero_lsbs", 0),
            sticky=tuple((_f, _s["set"], _s["clear"]) for _f, _s in _r.get("sticky", {}).items()),
        )


def addr(name: str, index: int = 0) -> int:
    """Byte address of register ``name`` (of queue/rule ``index`` for block registers)."""
    return REGS[name].addr(index)


def decode(address: int, num_queues: int, num_rules: int) -> tuple[str, int] | None:
    """Inverse of :func:`addr`: (register name, instance) or None if unmapped."""
    for reg in REGS.values():
        blk = BLOCKS[reg.block]
        count = {"NUM_QUEUES": num_queues, "NUM_RULES": num_rules}.get(blk["count"], blk["count"])
        for i in range(count):
            if reg.addr(i) == address:
                return reg.name, i
    return None
