"""The layers of the full-system firmware (sw/fw/README.md), from its #include lines.

The firmware has four layers, lowest first: board, kernel, net, app (``sw/fw/<layer>/``).
The driver (``sw/driver/`` with the generated ``rtl/prionic_regs.h``) is a library beside
them. A file includes headers of its own layer and of the layers below it; only net and
app include the driver; the driver includes nothing of ``sw/fw/``. Includes in angle
brackets name the C library and are outside the rule. Quoted includes resolve as the
compiler resolves them: the including file's directory first, then the ``-I`` directories
of the Makefile's ``FW_CFLAGS``.

Checked here: the rule on every quoted include of ``sw/fw`` and ``sw/driver``, no include
cycle, ``sw/fw/app/main.c`` under 250 lines, and that the check fails on an upward include
and on a cycle planted in an in-memory copy of the sources.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from tests.test_imports import cycles

ROOT = Path(__file__).resolve().parent.parent
FW = "sw/fw"
DRIVER = "sw/driver"
REGS = "rtl/prionic_regs.h"
SOURCE_SUFFIXES = (".c", ".h", ".S")
MAIN_C = "sw/fw/app/main.c"
MAIN_MAX_LINES = 250

LAYERS = ("board", "kernel", "net", "app")
# the layers a file of each layer may include
ALLOWED = {
    "board": {"board"},
    "kernel": {"board", "kernel"},
    "net": {"board", "kernel", "net", "driver"},
    "app": {"board", "kernel", "net", "app", "driver"},
    "driver": {"driver"},
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def layer_of(path: str) -> str | None:
    """The layer of a repository path: ``board``, ``kernel``, ``net`` or ``app`` for
    ``sw/fw/<layer>/...``, ``driver`` for ``sw/driver/...`` and ``rtl/prionic_regs.h``,
    None for anything else (a file directly in ``sw/fw/`` or in another directory of it)."""
    parts = PurePosixPath(path).parts
    if path == REGS or parts[:2] == ("sw", "driver"):
        return "driver"
    if parts[:2] == ("sw", "fw") and len(parts) > 3 and parts[2] in LAYERS:
        return parts[2]
    return None


def fw_include_dirs(makefile: str) -> list[str]:
    """The ``-I`` directories of the Makefile's ``FW_CFLAGS`` assignment (its continuation
    lines included), in order."""
    m = re.search(r"^FW_CFLAGS\s*:?=((?:.*\\\n)*.*)$", makefile, re.MULTILINE)
    assert m, "the Makefile has no FW_CFLAGS assignment"
    return re.findall(r"(?<!\S)-I\s*(\S+)", m.group(1))


def quoted_includes(text: str) -> list[str]:
    """The names of the text's ``#include "..."`` lines, in order."""
    return INCLUDE_RE.findall(text)


def resolve(name: str, includer: str, files: set[str], include_dirs: list[str]) -> str | None:
    """The repository path a quoted include names: the including file's directory first,
    then each include directory; None when no known file matches."""
    for base in [str(PurePosixPath(includer).parent), *include_dirs]:
        cand = str(PurePosixPath(base) / name)
        if cand in files:
            return cand
    return None


def include_graph(sources: dict[str, str], include_dirs: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Path -> the paths its quoted includes resolve to, and one message per include that
    resolves to no known file."""
    files = set(sources)
    graph: dict[str, list[str]] = {}
    unresolved = []
    for path, text in sorted(sources.items()):
        graph[path] = []
        for name in quoted_includes(text):
            target = resolve(name, path, files, include_dirs)
            if target is None:
                unresolved.append(f'{path}: #include "{name}" names no file of the firmware or the driver')
            else:
                graph[path].append(target)
    return graph, unresolved


def layer_violations(graph: dict[str, list[str]]) -> list[str]:
    """One message per file outside every layer and per include the layer rule forbids."""
    out = []
    for path, targets in sorted(graph.items()):
        layer = layer_of(path)
        if layer is None:
            out.append(f"{path}: outside every layer (sw/fw/{{{','.join(LAYERS)}}}/, sw/driver/)")
            continue
        for target in targets:
            to = layer_of(target)
            if to not in ALLOWED[layer]:
                out.append(f"{path} ({layer}) includes {target} ({to}): not allowed from {layer}")
    return out


def check(sources: dict[str, str], include_dirs: list[str]) -> list[str]:
    """Every problem of the sources: unresolved includes, layer violations, a cycle."""
    graph, problems = include_graph(sources, include_dirs)
    problems += layer_violations(graph)
    problems += ["include cycle: " + " <-> ".join(c) for c in cycles(graph)]
    return problems


def load_sources() -> dict[str, str]:
    """The firmware's and the driver's sources and the register header, by repository path."""
    files = [p for d in (FW, DRIVER) for p in (ROOT / d).rglob("*") if p.suffix in SOURCE_SUFFIXES]
    files.append(ROOT / REGS)
    return {p.relative_to(ROOT).as_posix(): p.read_text() for p in files}


def include_dirs() -> list[str]:
    return fw_include_dirs((ROOT / "Makefile").read_text())


# ----------------------------------------------------------------------------- tests


def test_include_dirs_are_the_layers_root_and_the_driver():
    """The compiler's include path is sw/fw (quoted includes name their layer) and the
    driver's two directories."""
    assert sorted(include_dirs()) == sorted([FW, DRIVER, "rtl"])


def test_every_source_is_in_a_layer():
    """Each C, header and assembly file of sw/fw lies in one of the four layer directories."""
    stray = [p for p in load_sources() if p.startswith(FW + "/") and layer_of(p) is None]
    assert stray == []


def test_layer_rule_and_no_cycle():
    """The firmware and the driver keep the layer rule and have no include cycle."""
    assert check(load_sources(), include_dirs()) == []


def test_every_layer_is_used():
    """The check sees includes across the layers (it is not vacuous): the kernel includes
    board, net includes kernel and the driver, app includes net."""
    graph, _ = include_graph(load_sources(), include_dirs())
    edges = {(layer_of(a), layer_of(b)) for a, targets in graph.items() for b in targets}
    assert {("kernel", "board"), ("net", "kernel"), ("net", "driver"), ("app", "net")} <= edges


def test_main_is_short():
    """sw/fw/app/main.c has fewer than 250 lines."""
    n = len((ROOT / MAIN_C).read_text().splitlines())
    assert n < MAIN_MAX_LINES, f"{MAIN_C}: {n} lines"


def test_planted_upward_include_fails():
    """An include of a higher layer's header, planted in an in-memory copy of the kernel,
    fails the check and is named; so does the driver including the firmware."""
    sources = load_sources()
    kernel_c = "sw/fw/kernel/kernel.c"
    sources[kernel_c] = '#include "net/net.h"\n' + sources[kernel_c]
    problems = check(sources, include_dirs())
    assert problems == [f"{kernel_c} (kernel) includes sw/fw/net/net.h (net): not allowed from kernel"]

    sources = load_sources()
    drv = "sw/driver/prionic_drv.c"
    sources[drv] += '#include "board/sysmap.h"\n'
    assert check(sources, include_dirs()) == [
        f"{drv} (driver) includes sw/fw/board/sysmap.h (board): not allowed from driver"
    ]


def test_planted_cycle_and_stray_include_fail():
    """A cycle within one layer and an include that names no file, planted in memory, fail
    the check."""
    sources = load_sources()
    sources["sw/fw/net/net.h"] += '#include "net/rx.h"\n'
    problems = check(sources, include_dirs())
    assert len(problems) == 1 and problems[0].startswith("include cycle: ")
    assert "sw/fw/net/net.h" in problems[0] and "sw/fw/net/rx.h" in problems[0]

    sources = load_sources()
    sources["sw/fw/app/main.c"] += '#include "sysmap.h"\n'
    assert check(sources, include_dirs()) == [
        'sw/fw/app/main.c: #include "sysmap.h" names no file of the firmware or the driver'
    ]


def test_layer_of():
    """Paths map to their layers; a file directly in sw/fw belongs to none."""
    assert layer_of("sw/fw/board/crt0.S") == "board"
    assert layer_of("sw/fw/board/include/string.h") == "board"
    assert layer_of("sw/fw/net/rx.c") == "net"
    assert layer_of("sw/driver/prionic_drv.h") == "driver"
    assert layer_of(REGS) == "driver"
    assert layer_of("sw/fw/main.c") is None
    assert layer_of("sw/fw/misc/x.c") is None
