"""The repository stands alone: every document it cites is one of its own files.

Code, rule notes, ontology sources and tests cite documents by path (``docs/liuyao-doctrine.md
§4.7``, ``corpus/CONVENTIONS.md``, ``tests/fixtures/README.md``). Each cited path must exist, each
cited section must be a heading of that document, and nothing may point outside the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = (
    "corpus/sources/",  # the texts, byte for byte
    "tests/fixtures/liuren-720.tsv",
    "kg/serve/static/yasgui/",  # vendored front-end files
    "tests/test_references.py",  # the patterns below
)

OUTSIDE = re.compile(
    r"\.\./shared|/work/|\bshared/(?:notes|fixtures|seeds)\b|(?<![\w/.-])notes/|\bnotes §|\bDESIGN(?:\.md)?\b"
    r"|(?<![\w/.-])(?:encoding-)?inventory (?:§|Appendix)|(?<![\w/.-])sources\.md|(?<![\w/.-])fixtures/README"
)
"""References to the team's working notes, which no reader of the repository has."""

PATH = re.compile(r"(?<![\w./-])((?:docs|corpus|kg|tests|ontology|queries|bench)/[\w./+-]*[\w/])")
SECTION = re.compile(
    r"(?<![\w./-])((?:docs|corpus|tests)/[\w./-]+\.md) (§ ?[0-9][0-9.]*[0-9]|§ ?[0-9]|Appendix [A-Z])"
    r"((?:(?:,| and| or| to|–|/) ?§ ?[0-9][0-9.]*[0-9]?)*)"
)
"""A document and its sections: ``docs/liuyao-doctrine.md §4.1``, or a list: ``… §4.1, §4.2 and §4.5``."""
BARE_SECTION = re.compile(r"(?<![\w.》〉、])(?<!\.md )(?<!CONVENTIONS )(?<!README )(?<!–)§ ?[0-9]")
"""A section sign not preceded by the document it points into (a book title, 《…》, counts)."""


def repository_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [ROOT / p for p in sorted(set(listed)) if not p.startswith(SKIP) and (ROOT / p).is_file()]


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


FILES = [(p.relative_to(ROOT).as_posix(), t) for p in repository_files() if (t := text_of(p)) is not None]


def hits(pattern: re.Pattern[str]) -> list[tuple[str, int, str]]:
    return [
        (name, n, m.group(0))
        for name, text in FILES
        for n, line in enumerate(text.splitlines(), 1)
        for m in pattern.finditer(SECTION.sub(r"\1 \2", line) if pattern is BARE_SECTION else line)
    ]


def exists(path: str) -> bool:
    """A file or folder, or the stem of a glob (``queries/retrieval*.rq``) that matches one."""
    path = path.rstrip("/.")
    return (ROOT / path).exists() or any(ROOT.glob(path + "*"))


def headings(doc: Path) -> list[str]:
    return [
        line.lstrip("#").strip()
        for line in doc.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]


def has_section(doc: Path, section: str) -> bool:
    number = section.removeprefix("§").strip()
    return any(re.match(rf"(?:§ ?)?{re.escape(number)}(?![0-9])\.?(?:\s|:|$)", h) for h in headings(doc))


def test_files_are_found():
    names = {name for name, _ in FILES}
    assert {"README.md", "kg/match.py", "corpus/rules/README.md", "docs/architecture.md"} <= names


def test_nothing_points_outside_the_repository():
    assert hits(OUTSIDE) == []


def test_every_cited_path_exists():
    missing = [(f, n, p) for f, n, p in hits(PATH) if not exists(p)]
    assert missing == []


def test_every_cited_section_is_a_heading_of_its_document():
    broken = []
    for name, text in FILES:
        for n, line in enumerate(text.splitlines(), 1):
            for m in SECTION.finditer(line):
                doc = ROOT / m.group(1)
                sections = [m.group(2), *re.findall(r"§ ?([0-9][0-9.]*[0-9]?)", m.group(3))]
                if doc.exists() and not all(has_section(doc, section) for section in sections):
                    broken.append((name, n, m.group(0)))
    assert broken == []


def test_every_section_sign_names_its_document():
    """Outside docs/, a section sign must follow the document's path; inside a document of docs/,
    a bare section sign points into that document and must be one of its headings."""
    broken = []
    for name, n, sign in hits(BARE_SECTION):
        if not name.startswith("docs/"):
            broken.append((name, n, sign))
    for name, text in FILES:
        if name.startswith("docs/"):
            for n, line in enumerate(text.splitlines(), 1):
                for m in re.finditer(r"(?<![\w.》〉/])(?<!\.md )(?<!–)§ ?([0-9][0-9.]*[0-9]|[0-9])", line):
                    if not has_section(ROOT / name, m.group(1)):
                        broken.append((name, n, m.group(0)))
    assert broken == []


@pytest.mark.parametrize(
    "line",
    # built from pieces, so that this file itself cites nothing outside the repository
    [
        "see .." + "/shared/notes/a.md",
        "(notes" + " §4.1)",
        "inventory" + " §4.1",
        "DESIGN" + ".md §5",
        "fixtures" + "/README.md",
    ],
)
def test_outside_references_are_recognised(line):
    assert OUTSIDE.search(line)


def test_a_section_is_matched_by_its_number_only(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("# T\n## 4. Tables\n### 4.1 Trigrams\n### 4.14 神煞\n", encoding="utf-8")
    assert has_section(doc, "§4.1") and has_section(doc, "§4.14") and has_section(doc, "§4")
    assert not has_section(doc, "§4.2") and not has_section(doc, "§4.11")
