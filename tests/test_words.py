"""The repository speaks to its users: no words of the team's own process (which work
session, which tracker item, which acceptance step) and no history of the code itself
(what a file used to say, what an earlier version did, what a figure was before) in code,
docs or tests. A reader of an open-source project cannot interpret the first, and the
second belongs in git; a feature id (F1..F30, docs/features.md) is the stable way to say
why something is there, and the spec says what is, not what was.

History words are told from the circuit's own time ("the old epoch", "as it was before
edge w" describe the hardware and stay): a pattern names the artefact or the figure."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# each pattern is written so that it does not match this file's own text
PATTERNS = [
    r"\bthis\s+session",
    r"\bprevious\s+session",
    r"\bissue\s+#?\d",
    r"\bdone[- ]criteri",
    r"\bdone\s+means\s+\d",
    r"\bproduct\s+brief",
    r"\bdesign\s+brief",
    r"\bthe\s+open\s+issues",
    # history of the code, not of the circuit
    r"(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )(?<!\bwas )(?<!\bwere )(?<!\bbeing )\bused\s+to\b",
    r"\bearlier\s+(note|version|draft)",
    r"\bprevious\s+(version|draft|revision)",
    r"\bin\s+the\s+past\b",
    r"\bthe\s+old\s+(DMA|model|RTL|design|code|version|approximation|test|parser|netlist|driver|firmware|layout"
    r"|README|docs?|tree|runner|scheme|rule|name|API)\b",
    r"\(was\s+\d",
    r"\bwas\s+[\d.,/ ]+\s*(MHz|LUT4|FF|cycles|us|ms|s|%)?\s*(before|earlier)\b",
]


def _tracked_text_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = []
    for name in out.splitlines():
        p = ROOT / name
        if p.suffix in {".png", ".jpg", ".pcap", ".npz", ".fst", ".vcd"} or not p.is_file():
            continue
        files.append(p)
    return files


def find_workflow_words(files: list[Path]) -> list[str]:
    rx = re.compile("|".join(PATTERNS), re.IGNORECASE)
    hits = []
    for p in files:
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            m = rx.search(line)
            if m:
                name = p.relative_to(ROOT) if p.is_relative_to(ROOT) else p.name
                hits.append(f"{name}:{n}: {m.group(0)!r}")
    return hits


def test_no_workflow_words_in_the_repository() -> None:
    files = [p for p in _tracked_text_files() if p.resolve() != Path(__file__).resolve()]
    assert len(files) > 100
    hits = find_workflow_words(files)
    assert not hits, "words of the team's process, meaningless to a user:\n" + "\n".join(hits)


def test_the_check_finds_a_planted_word(tmp_path: Path) -> None:
    planted = tmp_path / "x.md"
    planted.write_text("fine line\nas measured in " + "this " + "session's run\nsee " + "issue " + "12\n")
    assert [h.split(": ", 1)[1] for h in find_workflow_words([planted]) if "x.md" in h] == [
        repr("this " + "session"), repr("issue " + "1")]


def test_the_check_finds_planted_history(tmp_path: Path) -> None:
    """History of the code is caught; the circuit's own past tense is not."""
    planted = tmp_path / "h.md"
    lines = [
        "the parser " + "used to be a state machine",
        "an earlier " + "note said so",
        "the old " + "DMA deadlocked",
        "126.3 MHz (was " + "125.8)",
        "Fmax was 120 " + "MHz before",
        "a late B answers the old epoch and is ignored",
        "RING_HEAD as it was before edge w",
        "the flag is used to select the queue",
    ]
    planted.write_text("\n".join(lines) + "\n")
    hits = [int(h.split(":")[1]) for h in find_workflow_words([planted])]
    assert hits == [1, 2, 3, 4, 5]
