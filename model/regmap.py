"""The prionic register map, loaded from ``docs/regmap.toml`` (the single source).

Everything that describes the hardware interface -- register offsets, reset values,
field positions, verdict codes and the descriptor layout -- is defined once in
``docs/regmap.toml``. This module reads it at import time and exposes it to the golden
model and the testbench; run as a script it regenerates the derived files
(rtl/prionic_regs.vh for the RTL, docs/registers.md, and rtl/prionic_regs.h, the C99
header of host drivers such as bench/driver/, F27)::

    python -m model.regmap_gen            # writes the three generated files
    python -m model.regmap_gen --check    # exits 1 if any generated file is stale
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOML_PATH = ROOT / "docs" / "regmap.toml"
VH_PATH = ROOT / "rtl" / "prionic_regs.vh"
MD_PATH = ROOT / "docs" / "registers.md"
H_PATH = ROOT / "rtl" / "prionic_regs.h"


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
    accept: str = ""                   # "below:REG": a write is kept only if below REG
    source: str = ""                   # RO: input status_<source>
    source_bits: int | str = 0         # ... its width per instance (0: `bits`)
    count: str = ""                    # RO counter: "verdict", "verdict:CODE", "rule_hit", "pulse:NAME"
    amount: str = ""                   # counter increment: stat_verdict_<amount> instead of 1
    param: str | dict = ""             # RO: a build parameter, or host fields of parameters
    zero_lsbs: int = 0                 # RW: low bits that read 0 and ignore writes

    def byte_mask(self, num_queues: int) -> int:
        """The write strobes that select a byte of this register (bit b: byte b)."""
        return (1 << min(4, -(-self.width(num_queues) // 8))) - 1

    def write_value(self, old: int, data: int, strb: int, num_queues: int) -> int:
        """The stored value after a write of ``data`` with byte strobes ``strb``."""
        merged = 0
        for b in range(4):
            merged |= ((data if strb >> b & 1 else old) >> 8 * b & 0xFF) << 8 * b
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
            accept=_r.get("accept", ""),
            source=_r.get("source", ""),
            source_bits=_r.get("source_bits", 0),
            count=_r.get("count", ""),
            amount=_r.get("amount", ""),
            param=_r.get("param", ""),
            zero_lsbs=_r.get("zero_lsbs", 0),
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


# ----------------------------------------------------------------------------- generators

def _hex(v: int, width: int = 16) -> str:
    return f"{width}'h{v:0{(width + 3) // 4}X}"


def gen_verilog() -> str:
    aw = META["addr_width"]
    out = [
        "// SPDX-License-Identifier: MIT",
        "// GENERATED by `python -m model.regmap_gen` from docs/regmap.toml -- do not edit.",
        "// `include this file inside a module body.",
        "/* verilator lint_off UNUSEDPARAM */",
        "",
        f"localparam [31:0] PRIONIC_ID      = {_hex(META['id'], 32)};",
        f"localparam [31:0] PRIONIC_VERSION = {_hex(META['version'], 32)};",
        "",
    ]
    prefix = {"global": "REG_", "queue": "QREG_", "rule": "RREG_"}
    for bname, blk in BLOCKS.items():
        p = prefix[bname]
        out.append(f"// block {bname}: {blk['doc']}")
        if bname != "global":
            out.append(f"localparam [{aw - 1}:0] {p}BASE = {_hex(blk['base'], aw)};")
            out.append(f"localparam [{aw - 1}:0] {p}STRIDE = {_hex(blk['stride'], aw)};")
        for r in blk["regs"]:
            out.append(f"localparam [{aw - 1}:0] {p}{r['name']} = {_hex(r['offset'], aw)};")
            if isinstance(r["reset"], int):
                out.append(f"localparam [31:0] RST_{r['name']} = {_hex(r['reset'], 32)};")
        out.append("")
    out.append("// field bit positions")
    for k, v in FIELDS.items():
        out.append(f"localparam integer F_{k} = {v};")
    out.append("")
    out.append("// multi-bit fields of registers ([host_fields]): LSB and width")
    for k, (lsb, width) in HOST_FIELDS.items():
        out.append(f"localparam integer HF_{k}_LSB = {lsb};")
        out.append(f"localparam integer HF_{k}_W = {width};")
    out.append("")
    out.append("// per-frame verdict codes")
    for k, v in VERDICTS.items():
        out.append(f"localparam [3:0] VERDICT_{k} = 4'd{v};")
    out.append("")
    for ename, values in ENUMS.items():
        bits = max(1, max(values.values()).bit_length())
        out.append(f"// {ename} encoding")
        for k, v in values.items():
            out.append(f"localparam [{bits - 1}:0] {ename.upper()}_{k} = {bits}'d{v};")
        out.append("")
    out.append("// descriptor layout (bytes)")
    for k, v in DESC.items():
        out.append(f"localparam integer DESC_{k.upper()} = {v};")
    out.append("")
    out.append("// record layouts ([records.*]): total width, and each field's LSB and width")
    for name, fields in RECORDS.items():
        rn = name.upper()
        out.append(f"localparam integer REC_{rn}_W = {record_width(name)};")
        for f in fields:
            out.append(f"localparam integer REC_{rn}_{f.name.upper()}_LSB = {f.lsb};")
            out.append(f"localparam integer REC_{rn}_{f.name.upper()}_W = {f.width};")
    out.append("")
    out.append("/* verilator lint_on UNUSEDPARAM */")
    out.append("")
    return "\n".join(out)


def gen_markdown() -> str:
    out = [
        "# Register map",
        "",
        "<!-- GENERATED by `python -m model.regmap_gen` from docs/regmap.toml -- do not edit. -->",
        "",
        f"AXI4-Lite, {META['addr_width']}-bit byte addresses, 32-bit registers. "
        f"ID = `0x{META['id']:08X}`, map version `0x{META['version']:08X}`. "
        "Access: RW read/write, RO read-only (writes ignored), W1C write 1 to clear. "
        "No register has a read side effect. Unmapped addresses read 0 and ignore writes; "
        "byte strobes are honoured, and a write whose strobes select no byte of a register "
        "has no side effect; "
        "every access answers OKAY. A write takes effect at the cycle its AW/W handshake "
        "completes and is seen by every decision from the next cycle on "
        "(see [timing.md](timing.md)).",
        "",
    ]
    for bname, blk in BLOCKS.items():
        count = blk["count"]
        title = bname if count == 1 else f"{bname} (x {count})"
        out.append(f"## {title}")
        out.append("")
        out.append(blk["doc"])
        out.append("")
        if bname != "global":
            out.append(f"Block address = `0x{blk['base']:04X} + 0x{blk['stride']:X} * index`.")
            out.append("")
        out.append("| offset | name | access | bits | reset | description |")
        out.append("|---|---|---|---|---|---|")
        for r in blk["regs"]:
            reset = r["reset"] if isinstance(r["reset"], str) else f"0x{r['reset']:X}"
            out.append(
                f"| 0x{r['offset']:03X} | `{r['name']}` | {r['access']} | {r.get('bits', 32)} "
                f"| {reset} | {r['doc']} |"
            )
        out.append("")
    out.append("## Verdict codes")
    out.append("")
    out.append("| code | name |")
    out.append("|---|---|")
    for k, v in VERDICTS.items():
        out.append(f"| {v} | `{k}` |")
    out.append("")
    return "\n".join(out)


def _c_comment(text: str) -> str:
    return text.replace("*/", "* /")


def _c_field(out: list[str], name: str, lsb: int, width: int, note: str = "") -> None:
    """<name>_SHIFT, _WIDTH and _MASK (in place: already shifted) of one bit field."""
    if not (0 <= lsb and 1 <= width and lsb + width <= 32):
        raise ValueError(f"field {name}: bits [{lsb + width - 1}:{lsb}] do not fit a 32-bit register")
    mask = ((1 << width) - 1) << lsb
    bits = f"[{lsb}]" if width == 1 else f"[{lsb + width - 1}:{lsb}]"
    out.append(f"#define {name}_SHIFT {lsb}u   /* {bits}{note} */")
    out.append(f"#define {name}_WIDTH {width}u")
    out.append(f"#define {name}_MASK 0x{mask:08X}u")


def _c_desc_struct() -> list[str]:
    """``struct prionic_desc`` from the ``*_offset`` entries of [descriptor]: each member
    is the largest of u8/u16/u32/u64 that fits before the next offset and is aligned;
    what is left of the gap becomes a reserved byte array."""
    fields = sorted((v, k[: -len("_offset")]) for k, v in DESC.items()
                    if k.endswith("_offset") and k != "writeback_offset")
    ends = [off for off, _n in fields[1:]] + [DESC["size"]]
    out = ["struct prionic_desc {"]
    for (off, name), nxt in zip(fields, ends, strict=True):
        size = 8
        while size > nxt - off or off % size:
            size //= 2
        if size == 0:
            raise ValueError(f"descriptor field {name} at byte {off} has no room")
        out.append(f"    uint{size * 8}_t {name};{' ' * (8 - len(name))}/* byte {off} */")
        if nxt - off > size:
            out.append(f"    uint8_t reserved_{off + size}[{nxt - off - size}];   /* bytes {off + size}-{nxt - 1} */")
    out.append("};")
    checks = [("sizeof(struct prionic_desc)", "PRIONIC_DESC_SIZE")]
    checks += [(f"offsetof(struct prionic_desc, {n})", f"PRIONIC_DESC_{n.upper()}_OFFSET")
               for _o, n in fields]
    for i, (expr, want) in enumerate(checks):
        out.append(f"typedef char prionic_desc_check_{i}[({expr} == {want}) ? 1 : -1];")
    return out


def gen_c_header() -> str:
    """C99 header of the register map (F27): offsets, fields, reset values, verdict
    codes and the descriptor layout (F12 rings, docs/frame-path.md section 4)."""
    out = [
        "/* SPDX-License-Identifier: MIT */",
        "/* GENERATED from docs/regmap.toml by `python -m model.regmap_gen` -- do not edit.",
        " *",
        " * prionic register map for C host drivers (F27; rings: F12, docs/frame-path.md s4).",
        " * Registers are 32 bits, little-endian, at the AXI4-Lite byte offsets below.",
        " *   PRIONIC_<REG>              byte offset of a global register",
        " *   PRIONIC_<REG>(i)           byte offset of a per-queue / per-rule register of instance i",
        " *   PRIONIC_<REG>_RESET        reset value (PRIONIC_<REG>_RESET(i) when it depends on i)",
        " *   PRIONIC_<REG>_BITS         implemented bits (higher bits read 0, ignore writes)",
        " *   PRIONIC_<FIELD>_SHIFT/_WIDTH/_MASK   bit fields; _MASK is in place (already shifted)",
        " *   PRIONIC_VERDICT_<NAME>     per-frame verdict codes",
        " *   PRIONIC_DESC_*             descriptor / write-back layout (byte offsets, status bits)",
        " */",
        "#ifndef PRIONIC_REGS_H",
        "#define PRIONIC_REGS_H",
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        f"#define PRIONIC_MAP_ID 0x{META['id']:08X}u        /* value of register ID */",
        f"#define PRIONIC_MAP_VERSION 0x{META['version']:08X}u   /* value of register VERSION */",
        f"#define PRIONIC_ADDR_WIDTH {META['addr_width']}u       /* AXI4-Lite byte address bits */",
        "",
    ]
    names: set[str] = set()

    def define(name: str) -> None:
        if name in names:
            raise ValueError(f"C header: {name} would be defined twice")
        names.add(name)

    blocks = sorted(BLOCKS.items(), key=lambda kv: kv[1]["base"])
    for n, (bname, blk) in enumerate(blocks):
        B = f"PRIONIC_{bname.upper()}"
        out.append(f"/* ---- block {bname}: {_c_comment(blk['doc'])} */")
        array = blk["stride"] != 0
        if array:
            nxt = blocks[n + 1][1]["base"] if n + 1 < len(blocks) else 1 << META["addr_width"]
            out.append(f"#define {B}_BASE 0x{blk['base']:04X}u")
            out.append(f"#define {B}_STRIDE 0x{blk['stride']:X}u")
            out.append(f"/* count: build parameter {blk['count']} (register CONFIG); the address map has room for: */")
            out.append(f"#define {B}_MAX_COUNT {(nxt - blk['base']) // blk['stride']}u")
        for r in sorted(blk["regs"], key=lambda r: r["offset"]):
            name = f"PRIONIC_{r['name']}"
            for suffix in ("", "_OFFSET", "_RESET", "_BITS"):
                define(name + suffix)
            out.append(f"/* {r['name']} ({r['access']}): {_c_comment(r['doc'])} */")
            if array:
                out.append(f"#define {name}_OFFSET 0x{r['offset']:02X}u   /* within the block */")
                out.append(f"#define {name}(i) ({B}_BASE + {B}_STRIDE * (uint32_t)(i) + {name}_OFFSET)")
            else:
                out.append(f"#define {name} 0x{blk['base'] + r['offset']:04X}u")
            reset = r["reset"]
            if isinstance(reset, int):
                out.append(f"#define {name}_RESET 0x{reset:08X}u")
            elif reset == "index + 1":
                out.append(f"#define {name}_RESET(i) ((uint32_t)(i) + 1u)")
            else:
                out.append(f"/* {name}_RESET: {reset} (depends on build parameters) */")
            bits = r.get("bits", 32)
            if isinstance(bits, int):
                out.append(f"#define {name}_BITS {bits}u")
            else:
                out.append(f"/* {name}_BITS: {bits} (one bit per queue) */")
        out.append("")

    out.append("/* ---- fields (docs/regmap.toml [fields], widths from [field_widths]) */")
    unknown = set(FIELD_WIDTHS) - set(FIELDS)
    if unknown:
        raise ValueError(f"[field_widths] names fields not in [fields]: {sorted(unknown)}")
    for k, v in FIELDS.items():
        base = k[: -len("_LSB")] if k.endswith("_LSB") else k
        define(f"PRIONIC_{base}_SHIFT")
        _c_field(out, f"PRIONIC_{base}", v, FIELD_WIDTHS.get(k, 1))
    out.append("")
    out.append("/* ---- host-side fields (docs/regmap.toml [host_fields]) */")
    for k, (lsb, width) in HOST_FIELDS.items():
        define(f"PRIONIC_{k}_SHIFT")
        _c_field(out, f"PRIONIC_{k}", lsb, width)
    out.append("")

    out.append("/* ---- per-frame verdict codes (stat_verdict_code, counters) */")
    for k, v in VERDICTS.items():
        define(f"PRIONIC_VERDICT_{k}")
        out.append(f"#define PRIONIC_VERDICT_{k} {v}u")
    out.append("")

    out.append("/* ---- descriptor ring entry (F12, docs/frame-path.md section 4): bytes 0-15 written")
    out.append(" * by the host (buffer address, reserved), bytes 16-31 (the write-back) by the NIC;")
    out.append(" * all fields little-endian. DD (status bit) is in the last byte written. */")
    for k, v in DESC.items():
        if k.startswith("status_") and not k.endswith("_offset"):
            name = f"PRIONIC_DESC_{k.upper()}"
            define(name)
            out.append(f"#define {name} {v}u   /* status bit */")
            out.append(f"#define {name}_MASK 0x{1 << v:08X}u")
        else:
            define(f"PRIONIC_DESC_{k.upper()}")
            out.append(f"#define PRIONIC_DESC_{k.upper()} {v}u")
    out.append(f"#define PRIONIC_DESC_WRITEBACK_SIZE {DESC['size'] - DESC['writeback_offset']}u")
    flags = sum(1 << v for k, v in DESC.items()
                if k.startswith("status_") and k not in ("status_offset", "status_dd", "status_err"))
    out.append("/* the parser's flags (F4): every status bit above but DD and ERR */")
    out.append(f"#define PRIONIC_DESC_STATUS_FLAGS_MASK 0x{flags:08X}u")
    out.append("/* info word (F3) */")
    for k, (lsb, width) in DESC_INFO.items():
        define(f"PRIONIC_DESC_INFO_{k}_SHIFT")
        _c_field(out, f"PRIONIC_DESC_INFO_{k}", lsb, width)
    out.append("")
    out.append("/* The same layout as a struct: valid on a little-endian host only (the byte offsets")
    out.append(" * above are what a portable driver uses); the typedefs fail to compile if the")
    out.append(" * compiler lays it out differently. */")
    out += _c_desc_struct()
    out.append("")
    out.append("#endif /* PRIONIC_REGS_H */")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if generated files are stale")
    args = ap.parse_args(argv)
    from model import regblock  # the register block generator (imports this module)

    stale = []
    for path, text in ((VH_PATH, gen_verilog()), (MD_PATH, gen_markdown()), (H_PATH, gen_c_header()),
                       (ROOT / "rtl" / "prionic_regs.v", regblock.gen_regs_module()),
                       (ROOT / "rtl" / "prionic_regs_wires.vh", regblock.gen_regs_wires()),
                       (ROOT / "rtl" / "prionic_regs_conn.vh", regblock.gen_regs_conn())):
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        for p in stale:
            why = "missing" if not p.exists() else "differs from what docs/regmap.toml generates"
            print(f"stale: {p.relative_to(ROOT)} {why} (run `python -m model.regmap_gen`)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
