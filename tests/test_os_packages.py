"""The one list of OS packages, ``os-packages.txt``, and the files that use it: the Makefile's
check, ``.ci/run``, the CI workflow and the install command of the README and docs/toolchain.md.

Each check is a function of the text it judges, and each has a test that shows it fails on
planted bad text. Whether the packages are installed on this machine is not checked (a CI
machine may lack them before ``.ci/run``); that the list parses, and that its check commands
are valid shell, is. The Makefile and ``.ci/run`` are also run (``make -n``; ``.ci/run`` with
stand-ins for apt-get, make and id) on small lists written here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "os-packages.txt"
MAKEFILE = ROOT / "Makefile"
CI_RUN = ROOT / ".ci" / "run"
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
INSTALL_DOCS = (ROOT / "README.md", ROOT / "docs" / "toolchain.md")
REQUIRED = "required"

_NAME = re.compile(r"[a-z0-9][a-z0-9+.-]+")        # a Debian package name (Policy 5.6.1)
_GROUP = re.compile(r"[a-z][a-z0-9-]*")


@dataclass(frozen=True)
class Package:
    name: str
    group: str   # "required", or the one make target that needs it
    check: str   # a shell command that succeeds when the package is installed


def parse_packages(text: str) -> list[Package]:
    """The lines of os-packages.txt: package, group, check (the rest of the line), blank lines and
    lines starting with # skipped; ValueError names the first bad line."""
    out: list[Package] = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        fields = s.split(None, 2)
        if len(fields) < 3:
            raise ValueError(f"line {n}: {s!r}: need a package, a group and a check command")
        name, group, check = fields
        if not _NAME.fullmatch(name):
            raise ValueError(f"line {n}: {name!r} is not a Debian package name")
        if not _GROUP.fullmatch(group):
            raise ValueError(f"line {n}: {group!r} is not a group (required, or a make target)")
        if any(p.name == name for p in out):
            raise ValueError(f"line {n}: {name} is listed twice")
        out.append(Package(name, group, check))
    return out


def required(packages: list[Package]) -> list[str]:
    return [p.name for p in packages if p.group == REQUIRED]


def make_targets(makefile: str) -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w-]*):(?!=)", makefile, re.M))


def list_problems(packages: list[Package], makefile: str) -> list[str]:
    """Required packages exist, one of them provides the Makefile's RV_CC (the Makefile finds the
    cross compiler's package by its check), and every other group is a make target."""
    problems = [] if required(packages) else ["no required package"]
    rv_cc = re.search(r"^RV_CC\s*:?=\s*(\S+)", makefile, re.M)
    if not rv_cc or not any(p.group == REQUIRED and re.search(rf"\bcommand -v {re.escape(rv_cc[1])}(\s|$)", p.check)
                            for p in packages):
        problems.append(f"no required package has the check `command -v {rv_cc[1] if rv_cc else 'RV_CC'}`")
    targets = make_targets(makefile)
    problems += [f"{p.name}: group {p.group} is not a make target" for p in packages
                 if p.group != REQUIRED and p.group not in targets]
    return problems


# ------------------------------------------------------------------------- the workflow

_USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(['\"]?)([^\s'\"#]+)\1(.*)$")
_SHA = re.compile(r"[0-9a-f]{40}")
_TAG_COMMENT = re.compile(r"\s*#\s*v\d+(\.\d+)*\b.*")


def unpinned_actions(workflow: str) -> list[str]:
    """Every ``uses:`` must name a full 40-hex commit, with the release tag in a trailing comment."""
    bad = []
    for n, line in enumerate(workflow.splitlines(), 1):
        m = _USES.match(line)
        if m is None:
            if re.search(r"\buses\s*:", line.split("#", 1)[0]):
                bad.append(f"line {n}: a uses: this check cannot read: {line.strip()}")
            continue
        ref, rest = m[2], m[3]
        if not _SHA.fullmatch(ref.rpartition("@")[2]) or not _TAG_COMMENT.fullmatch(rest):
            bad.append(f"line {n}: {line.strip()}")
    return bad


_INSTALL = re.compile(r"\b(apt-get|apt|aptitude|dpkg|snap)\b")


def os_installs(workflow: str) -> list[str]:
    """Lines (comments aside) that call a package manager: the workflow leaves that to .ci/run."""
    return [f"line {n}: {line.strip()}" for n, line in enumerate(workflow.splitlines(), 1)
            if _INSTALL.search(line.split("#", 1)[0])]


def workflow_problems(workflow: str, stamp: str) -> list[str]:
    """One job with the matrix sim: [icarus, verilator]; one step runs .ci/run with SIM from the
    matrix and no step runs make itself; Python 3.11; .venv cached on requirements.txt and the
    Python version, with the Makefile's stamp touched after a cache hit."""
    doc = yaml.safe_load(workflow)
    problems = []
    jobs = doc.get("jobs") or {}
    if len(jobs) != 1:
        problems.append(f"{len(jobs)} jobs, one with a matrix expected")
    for jname, job in jobs.items():
        sims = ((job.get("strategy") or {}).get("matrix") or {}).get("sim")
        if sorted(sims or []) != ["icarus", "verilator"]:
            problems.append(f"{jname}: matrix sim is {sims}, not [icarus, verilator]")
        steps = job.get("steps") or []
        ci = [s for s in steps if ".ci/run" in str(s.get("run", ""))]
        if len(ci) != 1:
            problems.append(f"{jname}: {len(ci)} steps run .ci/run, one expected")
        for s in ci:
            env = {**(job.get("env") or {}), **(s.get("env") or {})}
            if str(env.get("SIM", "")).replace(" ", "") != "${{matrix.sim}}":
                problems.append(f"{jname}: the .ci/run step sets SIM to {env.get('SIM')!r}, not ${{{{ matrix.sim }}}}")
        problems += [f"{jname}: a step runs make itself: {s['run']!r}" for s in steps
                     if re.search(r"(?:^|[;&|(])\s*make\b", str(s.get("run", "")), re.M)]
        py = [s for s in steps if str(s.get("uses", "")).startswith("actions/setup-python@")]
        if [str((s.get("with") or {}).get("python-version")) for s in py] != ["3.11"]:
            problems.append(f"{jname}: no single setup-python step with python-version 3.11")
        cache = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache@")]
        w = (cache[0].get("with") or {}) if len(cache) == 1 else {}
        key = str(w.get("key", ""))
        if w.get("path") != ".venv" or "hashFiles('requirements.txt')" not in key or "python-version" not in key:
            problems.append(f"{jname}: no cache of .venv keyed on requirements.txt and the Python version")
        if not any(f"touch .venv/{stamp}" in str(s.get("run", "")) for s in steps):
            problems.append(f"{jname}: no step touches .venv/{stamp} after a cache hit")
    return problems


def makefile_stamp(makefile: str) -> str:
    m = re.search(r"^STAMP\s*:=\s*\$\(VENV\)/(\S+)", makefile, re.M)
    assert m, "Makefile: no STAMP := $(VENV)/..."
    return m[1]


# ------------------------------------------------------------------------- scripts and docs


def literal_installs(script: str) -> list[str]:
    """Package names written into a script rather than read from the list: literal words after
    ``apt-get install`` / ``apt install`` and in ``missing+=(...)`` (comment lines aside)."""
    found = []
    for line in script.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for m in re.finditer(r"\bapt(?:-get)?\s+(?:-\S+\s+)*install\b(.*)", line):
            for tok in m[1].split():   # up to the end of the command or of the quoted string
                if tok[0] in "<>|&;)#":
                    break
                word = tok.strip("\"';)")
                if word and not word.startswith(("-", "$")):
                    found.append(word)
                if tok.count('"') % 2 or tok.count("'") % 2 or tok[-1] in ";)":
                    break
        for m in re.finditer(r"missing\+=\(([^)]*)\)", line):
            found += [w for w in m[1].split() if not w.strip("\"'").startswith("$")]
    return found


def install_command_packages(doc: str, list_text: str, workdir: Path) -> list[str] | None:
    """The packages the doc's first ``apt-get install`` line installs, by running it in bash with
    ``printf`` in place of apt-get, in ``workdir`` holding ``list_text`` as os-packages.txt."""
    m = re.search(r"^\s*(?:sudo\s+)?apt-get\s+install\s+(?:-\S+\s+)*(.*)$", doc, re.M)
    if m is None:
        return None
    (workdir / "os-packages.txt").write_text(list_text)
    r = subprocess.run(["bash", "-c", "printf '%s\\n' " + m[1]], cwd=workdir, capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


# ------------------------------------------------------------------------- the real files


def test_the_list_parses_and_fits_the_makefile() -> None:
    packages = parse_packages(LIST.read_text())
    assert not list_problems(packages, MAKEFILE.read_text())
    for p in packages:   # valid shell, not necessarily installed here
        r = subprocess.run(["bash", "-n", "-c", p.check], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, f"{p.name}: check {p.check!r} is not valid shell: {r.stderr}"


def test_the_workflow_is_pinned_and_delegates_to_ci_run() -> None:
    text = WORKFLOW.read_text()
    assert not unpinned_actions(text)
    assert not os_installs(text)
    assert not workflow_problems(text, makefile_stamp(MAKEFILE.read_text()))


@pytest.mark.parametrize("script", [MAKEFILE, CI_RUN], ids=lambda p: p.name)
def test_the_scripts_read_the_list(script: Path) -> None:
    text = script.read_text()
    assert LIST.name in text, f"{script.name} does not read {LIST.name}"
    assert not literal_installs(text), f"{script.name} names packages itself: {literal_installs(text)}"


@pytest.mark.parametrize("doc", INSTALL_DOCS, ids=lambda p: p.name)
def test_the_install_command_installs_the_required_packages(doc: Path, tmp_path: Path) -> None:
    text = LIST.read_text()
    assert install_command_packages(doc.read_text(), text, tmp_path) == required(parse_packages(text))


# ------------------------------------------------------------------------- the checks bite


def test_the_list_checks_bite() -> None:
    good = "# a comment\n\nmake   required   command -v make\n"
    assert [p.name for p in parse_packages(good)] == ["make"]
    for bad in ("make   required\n", "Make   required   true\n", "make  Required  true\n",
                "make   required   true\nmake   waves   true\n"):
        with pytest.raises(ValueError):
            parse_packages(bad)
    makefile = MAKEFILE.read_text()
    packages = parse_packages(LIST.read_text())
    assert list_problems([p for p in packages if "riscv" not in p.check], makefile)
    assert list_problems([*packages, Package("foo", "nosuchtarget", "true")], makefile)
    assert list_problems([p for p in packages if p.group != REQUIRED], makefile)


def test_the_workflow_checks_bite() -> None:
    text = WORKFLOW.read_text()
    stamp = makefile_stamp(MAKEFILE.read_text())
    checkout = next(line for line in text.splitlines() if "actions/checkout@" in line)
    for planted in ("- uses: actions/checkout@v4", "- uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262",
                    "- uses: 'actions/checkout@v4'  # v4", "- {uses: actions/checkout@v4}"):
        assert unpinned_actions(text.replace(checkout.strip(), planted)), planted
    step = "      - name: OS packages\n        run: sudo apt-get install -y iverilog\n\n"
    planted_install = text.replace("      - name: Python 3.11\n", step + "      - name: Python 3.11\n")
    assert planted_install != text and os_installs(planted_install)
    for old, new in (("        env:\n          SIM: ${{ matrix.sim }}\n", ""),
                     ("run: bash .ci/run", "run: make test SIM=${{ matrix.sim }}"),
                     ("run: bash .ci/run", "run: bash .ci/run && make lint"),
                     ("sim: [icarus, verilator]", "sim: [icarus]"),
                     ('python-version: "3.11"', 'python-version: "3.10"'),
                     ("hashFiles('requirements.txt')", "github.sha"),
                     ("run: touch .venv/", "run: true .venv/")):
        assert old in text, old
        assert workflow_problems(text.replace(old, new), stamp), (old, new)


def test_the_script_checks_bite() -> None:
    makefile = MAKEFILE.read_text()
    planted = '\t@command -v gtkwave || { echo "no gtkwave: apt-get install gtkwave" >&2; exit 1; }\n'
    assert literal_installs(makefile + planted) == ["gtkwave"]
    assert literal_installs('command -v g++ >/dev/null 2>&1 || missing+=(g++)\n') == ["g++"]
    assert literal_installs('sudo apt-get install -y -qq iverilog "${missing[@]}"\n') == ["iverilog"]
    assert literal_installs('echo "apt-get install ${missing[*]}" >&2\n') == []


def test_the_install_command_check_bites(tmp_path: Path) -> None:
    text = LIST.read_text()
    old = "sudo apt-get install iverilog g++ make python3-venv gcc-riscv64-unknown-elf   # the only OS packages\n"
    assert install_command_packages(old, text, tmp_path) != required(parse_packages(text))
    grep = "sudo apt-get install $(grep -v '^#' os-packages.txt | awk '{print $1}')\n"   # the optional ones too
    assert install_command_packages(grep, text, tmp_path) != required(parse_packages(text))
    assert install_command_packages("no install line here\n", text, tmp_path) is None


# ------------------------------------------------------------------------- run on small lists


def _make(tmp_path: Path, list_text: str, *args: str) -> subprocess.CompletedProcess[str]:
    lst = tmp_path / "packages.txt"
    lst.write_text(list_text)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "SIM", "SYSTEM")}
    return subprocess.run(["make", "-n", *args, f"OS_PACKAGES={lst}"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def test_make_stops_at_the_first_missing_package(tmp_path: Path) -> None:
    """The required group before every target but help/clean/distclean/waves, the first missing
    package in one line; the cross compiler only for the firmware targets; a target's group
    only for that target."""
    base = "# comment required false\nok-pkg   required   true\nwaves-pkg   waves   false\n"
    assert _make(tmp_path, base, "venv").returncode == 0
    r = _make(tmp_path, base, "waves")
    assert r.returncode != 0 and "prionic: waves-pkg is missing" in r.stderr and "apt-get install waves-pkg" in r.stderr
    missing = base + "gone-pkg   required   false\nlater-pkg   required   false\n"
    for goal in ("venv", "sim", "test"):
        r = _make(tmp_path, missing, goal)
        assert r.returncode != 0 and "apt-get install gone-pkg" in r.stderr and "later-pkg" not in r.stderr, r.stderr
    for goal in ("help", "clean"):
        assert _make(tmp_path, missing, goal).returncode == 0
    rv = base + "rv-pkg   required   command -v riscv64-unknown-elf-gcc && false\n"
    assert _make(tmp_path, rv, "sim").returncode == 0
    assert _make(tmp_path, rv, "paper").returncode == 0
    for args in (("fw",), ("test",), ("paper", "SYSTEM=riscv")):
        r = _make(tmp_path, rv, *args)
        assert r.returncode != 0 and "apt-get install rv-pkg" in r.stderr, (args, r.stderr)


def test_ci_run_installs_the_missing_required_packages(tmp_path: Path) -> None:
    """.ci/run, with apt-get, make and id stood in for: as root it installs exactly the missing
    required packages and runs make test with the environment's SIM."""
    repo, fake = tmp_path / "repo", tmp_path / "bin"
    (repo / ".ci").mkdir(parents=True)
    fake.mkdir()
    (repo / ".ci" / "run").write_text(CI_RUN.read_text())
    (repo / LIST.name).write_text("# a comment\nok-pkg  required  true\ngone-pkg  required  false\n"
                                  "opt-pkg  waves  false\nalso-gone  required  test -e /nonexistent/x\n")
    log = tmp_path / "log"
    for tool in ("apt-get", "make"):
        (fake / tool).write_text(f"#!/bin/sh\necho \"{tool} $*\" >> {shlex.quote(str(log))}\n")
    (fake / "id").write_text("#!/bin/sh\necho 0\n")
    for f in fake.iterdir():
        f.chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}", SIM="verilator")
    r = subprocess.run(["bash", str(repo / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert log.read_text().splitlines() == [
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends gone-pkg also-gone",
        "make test SIM=verilator",
    ]
