"""The repository speaks to its users: no words of the team's own process (which work
session, which tracker item, which acceptance step) in code, docs or tests. A reader of an
open-source project cannot interpret them; a feature id (F1..F30, docs/features.md) is the
stable way to say why something is there."""

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
