"""``rtl/prionic_regs.h``: the C99 header of the register map for host drivers (F27):
offsets, fields, reset values, verdict codes and the descriptor layout, from
docs/regmap.toml through :mod:`model.regmap`."""

from __future__ import annotations

from model.regmap import BLOCKS, DESC, DESC_INFO, ENUMS, FIELD_WIDTHS, FIELDS, HOST_FIELDS, META, RECORDS, VERDICTS


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
        "/* GENERATED from docs/regmap.toml by `python -m gen.regmap` -- do not edit.",
        " *",
        " * prionic register map for C host drivers (F27; rings: F12, docs/frame-path.md s4).",
        " * Registers are 32 bits, little-endian, at the AXI4-Lite byte offsets below.",
        " *   PRIONIC_<REG>              byte offset of a global register",
        " *   PRIONIC_<REG>(i)           byte offset of a per-queue / per-rule register of instance i",
        " *   PRIONIC_<REG>_RESET        reset value (PRIONIC_<REG>_RESET(i) when it depends on i)",
        " *   PRIONIC_<REG>_BITS         implemented bits (higher bits read 0, ignore writes)",
        " *   PRIONIC_<FIELD>_SHIFT/_WIDTH/_MASK   bit fields; _MASK is in place (already shifted)",
        " *   PRIONIC_VERDICT_<NAME>     per-frame verdict codes",
        " *   PRIONIC_FLOW_CMD_<NAME>, PRIONIC_FLOW_RESULT_<NAME>   flow table commands and results (F31)",
        " *   PRIONIC_FLOW_KEY_<FIELD>_SHIFT/_WIDTH   the flow key's fields (bit 0 = FLOW_KEY0 bit 0)",
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

    out.append("/* ---- flow table (F31, docs/flowtable.md): FLOW_CMD values, FLOW_STATUS.RESULT codes */")
    for enum in ("flow_cmd", "flow_result"):
        for k, v in ENUMS[enum].items():
            define(f"PRIONIC_{enum.upper()}_{k}")
            out.append(f"#define PRIONIC_{enum.upper()}_{k} {v}u")
    out.append("/* the flow key (docs/regmap.toml [records.flow_key]): FLOW_KEY0..4 hold its bits, bit 0 first */")
    for f in RECORDS["flow_key"]:
        define(f"PRIONIC_FLOW_KEY_{f.name.upper()}_SHIFT")
        out.append(f"#define PRIONIC_FLOW_KEY_{f.name.upper()}_SHIFT {f.lsb}u")
        out.append(f"#define PRIONIC_FLOW_KEY_{f.name.upper()}_WIDTH {f.width}u")
    out.append(f"#define PRIONIC_FLOW_KEY_BITS {sum(f.width for f in RECORDS['flow_key'])}u")
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
