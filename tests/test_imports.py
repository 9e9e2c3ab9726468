"""The Python packages import each other without circles: model/ (the golden model), gen/
(the generators, which read the register map through model/), tb/ (testbenches) and
bench/ (benchmarks). Every import counts, lazy ones inside functions and those under
``if TYPE_CHECKING:`` too, since each is a dependency a reader has to follow.

The graph is read from the source (ast), not by importing: ``import a.b`` and
``from a import b`` (b a module) are edges to ``a.b``; ``from a.b import name`` is an edge
to ``a.b``. The package a module sits in is not an edge (Python runs its ``__init__`` first
in every case, without a circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("model", "tb", "bench", "gen")


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(name: str, modules: set[str]) -> str | None:
    """The longest prefix of the dotted ``name`` that is a project module."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        cand = ".".join(parts[:n])
        if cand in modules:
            return cand
    return None


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """module -> the project modules it imports (anywhere in the file)."""
    files = {_module_name(root, p): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    modules = set(files)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in files.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the module's package upwards
                    pkg = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    pkg = pkg[: len(pkg) - (node.level - 1)]
                    base = ".".join(pkg + ([base] if base else []))
                targets = [f"{base}.{a.name}" if base else a.name for a in node.names]
            for t in targets:
                dep = _resolve(t, modules)
                if dep is not None and dep != mod:
                    graph[mod].add(dep)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    graph = import_graph(ROOT, PACKAGES)
    assert "model.nic" in graph and "gen.regmap" in graph, sorted(graph)
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_model_does_not_import_the_generators_or_the_testbench():
    """The golden model is a leaf package: it imports nothing from gen/, tb/ or bench/."""
    graph = import_graph(ROOT, PACKAGES)
    bad = {m: sorted(d for d in deps if not d.startswith("model"))
           for m, deps in graph.items() if m.startswith("model")}
    assert not any(bad.values()), bad


def test_a_planted_cycle_is_found(tmp_path):
    """The check finds a circle closed by a lazy import inside a function, a relative import,
    and one through ``from pkg import module``; and passes the same package without them."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import thing\n")
    (pkg / "b.py").write_text("thing = 1\n\ndef later():\n    from pkg import a\n    return a\n")
    (pkg / "sub" / "c.py").write_text("from . import d\n")
    (pkg / "sub" / "d.py").write_text("import pkg.sub.c\n")
    (pkg / "e.py").write_text("import pkg.a\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.b"] == {"pkg.a"} and graph["pkg.sub.c"] == {"pkg.sub.d"}
    assert sorted(cycles(graph)) == [["pkg.a", "pkg.b"], ["pkg.sub.c", "pkg.sub.d"]]

    (pkg / "b.py").write_text("thing = 1\n")
    (pkg / "sub" / "d.py").write_text("x = 2\n")
    assert cycles(import_graph(tmp_path, ("pkg",))) == []


def test_scenarios_and_the_fast_model_load_without_cocotb():
    """Loading and validating a scenario file, its traffic schedule and the fast model
    (model/fast.py, bench/sweep.py) need no simulator: with cocotb's import blocked they
    still load scenarios/paper.toml and draw the first millisecond of its traffic."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['cocotb'] = None; sys.modules['pyuvm'] = None\n"
        "import bench.sweep, model.fast\n"
        "from tb.scenario import load, schedule\n"
        "import dataclasses\n"
        "sc = load('scenarios/paper.toml')\n"
        "assert sc.name == 'paper' and schedule(dataclasses.replace(sc, duration_us=1000)), sc\n"
        "print('loaded', sc.name)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "loaded paper" in r.stdout, r.stdout + r.stderr
