"""The register docs' claims that bits read 0 or ignore writes (F13, F24, F27), collected from
docs/regmap.toml the way ``gen.regmap`` reads it, and the checks of read values against them.
tb/blocks/regs/cocotb_regs_claims.py runs the checks on the generated register block; tests/test_regs.py
plants false claims and shows that the checks fail on them.

Where a claim comes from (``Claim.why`` names it):

* ``bits`` (default 32), the register's width: "higher bits read 0 and ignore writes"
  (regmap.toml header), for every access type;
* RO registers are "read-only (writes ignored)": every bit ignores writes;
* a ``source`` register (RO or W1C) reads ``source_bits`` bits of its input (default
  ``bits``) and its ``sticky`` bits: every other bit reads 0;
* ``zero_lsbs = n``: the n low bits read 0 (with ``accept = "aligned"`` a write that sets
  one of them is refused, which the block test checks against ``RegModel``; without it,
  they also ignore writes);
* the prose of a ``doc``: "Bits >= NUM_QUEUES read 0", "bits [4:0] read 0", "[9] reads 0",
  each optionally followed by "and ignore writes", or "bits [h:l] ignore writes". A doc
  that says "read(s) 0", "ignore(s) writes" or "writes ignored" where no bit range of that
  form comes first is reported by :func:`unparsed_prose`, so that no prose claim goes
  unchecked (tests/test_regs.py requires none).

Unmapped addresses ("read 0 and ignore writes", registers.md) are checked by
tb/blocks/regs/cocotb_regs.py ``test_ro_and_unmapped``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from model import regmap
from model.regmap import Reg

M32 = 0xFFFFFFFF

_READ0 = r"reads?\s+(?:as\s+)?0\b"
_IGNORE = r"ignores?\s+writes\b"
# a bit range ("Bits >= NUM_QUEUES", "bits [4:0]", "[9]"), then "read(s) 0" and/or "ignore(s) writes"
_CLAIM = re.compile(r"(?:\b[Bb]its?\s+)?(?:>=\s*(?P<ge>NUM_QUEUES|NUM_RULES|\d+)|\[(?P<hi>\d+)(?::(?P<lo>\d+))?\])"
                    rf"(?=\s+(?:{_READ0}|{_IGNORE}))\s+(?P<r0>{_READ0})?(?:(?:,\s*|\s+)(?:and\s+)?)?(?P<iw>{_IGNORE})?")
# every phrase that claims something of a register's bits
_TRIGGER = re.compile(rf"\b{_READ0}|\b{_IGNORE}|\bwrites\s+(?:to\s+them\s+)?(?:are\s+)?ignored\b", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """Register ``name`` (every instance): the bits of ``zero`` read 0, a write that changes
    only bits of ``ignored`` changes nothing; ``why`` says which part of the docs claims it."""

    name: str
    zero: int
    ignored: int
    why: str


def _resolve(width: int | str, nq: int, nr: int) -> int:
    """A width or bit count of the regmap: a number, NUM_QUEUES or NUM_RULES."""
    return nq if width == "NUM_QUEUES" else nr if width == "NUM_RULES" else int(width)


def _above(width: int) -> int:
    return M32 & ~((1 << width) - 1) if width < 32 else 0


def doc_claims(name: str, doc: str, nq: int, nr: int) -> list[Claim]:
    """The claims the prose of ``doc`` makes for register ``name``."""
    out = []
    for m in _CLAIM.finditer(doc):
        if not (m["r0"] or m["iw"]):
            continue
        if m["ge"]:
            mask = _above(_resolve(m["ge"], nq, nr))
        else:
            hi = int(m["hi"])
            lo = int(m["lo"]) if m["lo"] is not None else hi
            mask = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1) & M32
        said = doc[m.start():m.end("iw") if m["iw"] else m.end("r0")]
        out.append(Claim(name, mask if m["r0"] else 0, mask if m["iw"] else 0, f"doc: {said!r}"))
    return out


def unparsed_prose(docs: dict[str, str]) -> list[str]:
    """Phrases of the ``docs`` (register name to doc string) that claim "read 0" or "ignore
    writes" without a bit range :func:`doc_claims` understands before them."""
    out = []
    for name, doc in docs.items():
        spans = [m.span() for m in _CLAIM.finditer(doc) if m["r0"] or m["iw"]]
        for t in _TRIGGER.finditer(doc):
            if not any(a <= t.start() and t.end() <= b for a, b in spans):
                out.append(f"{name}: {doc[max(0, t.start() - 40):t.end()]!r}")
    return out


def reg_claims(reg: Reg, nq: int, nr: int) -> list[Claim]:
    """Every claim the docs make for ``reg``: its attributes, then its prose."""
    out = []
    width = _resolve(reg.bits, nq, nr)
    if width < 32:
        out.append(Claim(reg.name, _above(width), _above(width), f"bits = {reg.bits}"))
    if reg.access == "RO":
        out.append(Claim(reg.name, 0, M32, "access RO (writes ignored)"))
    if reg.source:
        sticky = 0
        for field, _set, _clear in reg.sticky:
            sticky |= 1 << regmap.FIELDS[f"{reg.name}_{field}"]
        src = _resolve(reg.source_bits or reg.bits, nq, nr)
        if _above(src) & ~sticky:
            out.append(Claim(reg.name, _above(src) & ~sticky, 0,
                             f"source_bits = {reg.source_bits or reg.bits}" + (" and sticky bits" if sticky else "")))
    if reg.zero_lsbs:
        low = (1 << reg.zero_lsbs) - 1
        out.append(Claim(reg.name, low, 0 if "aligned" in reg.accept else low, f"zero_lsbs = {reg.zero_lsbs}"))
    return out + doc_claims(reg.name, reg.doc, nq, nr)


def claims(nq: int, nr: int) -> dict[str, list[Claim]]:
    """Register name to its claims, for a block of ``nq`` queues and ``nr`` rules."""
    return {name: reg_claims(reg, nq, nr) for name, reg in regmap.REGS.items()}


def ignored_bits(cls: list[Claim]) -> int:
    """The bits some claim says ignore writes."""
    out = 0
    for c in cls:
        out |= c.ignored
    return out


def zero_violations(cls: list[Claim], index: int, value: int) -> list[str]:
    """The claims a read ``value`` of instance ``index`` breaks: a bit claimed to read 0 is 1."""
    return [f"{c.name}[{index}] read {value:#010x}: bits {value & c.zero:#x} set, but {c.why} says they read 0"
            for c in cls if value & c.zero]


def ignore_violations(cls: list[Claim], index: int, flipped: int, before: int, after: int) -> list[str]:
    """The claims broken by a write that changed the bits ``flipped`` of a register (for a W1C
    register: wrote 1 to them) that read ``before`` and then reads ``after``. Only a write
    that changes claimed-ignored bits alone is judged: it must change nothing. The claims
    whose bits changed are named, or every one whose bits were written if other bits changed."""
    if not judged(cls, flipped) or before == after:
        return []
    changed = before ^ after
    blamed = [c for c in cls if c.ignored & changed] or [c for c in cls if c.ignored & flipped]
    return [f"{c.name}[{index}]: a write changing only bits {flipped:#x}, which {c.why} says ignore writes, "
            f"changed it from {before:#010x} to {after:#010x}" for c in blamed]


def judged(cls: list[Claim], flipped: int) -> bool:
    """Whether a write changing the bits ``flipped`` changes claimed-ignored bits only."""
    return bool(flipped) and not flipped & ~ignored_bits(cls) & M32
