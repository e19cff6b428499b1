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

PARENT = re.compile(r"(?<![\w.])\.\./[\w./+-]*[\w/]")
"""A path relative to the citing file's folder that goes up (``../rules/rule.schema.json``)."""
BESIDE = re.compile(re.escape(ROOT.parent.as_posix().rstrip("/") + "/"))
"""An absolute path into the folder that holds the checkout."""
DOCUMENT = re.compile(r"(?<![\w./+<>-])([A-Za-z0-9][\w+.-]*\.md)\b")
"""A document named by its file name (``CONVENTIONS.md``)."""

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


DOCUMENTS = {path.name for path in ROOT.rglob("*.md") if ".venv" not in path.parts}


def outside(name: str, line: str) -> list[str]:
    """What ``line`` of the repository file ``name`` points to that is not in the repository: a path
    going up that leaves it or names nothing, an absolute path beside the checkout, a document no
    file of the repository is."""
    found = [m.group(0) for m in BESIDE.finditer(line)]
    for m in PARENT.finditer(line):
        target = (ROOT / name).parent.joinpath(m.group(0)).resolve()
        if not target.is_relative_to(ROOT) or not target.exists():
            found.append(m.group(0))
    return found + [m.group(1) for m in DOCUMENT.finditer(line) if m.group(1) not in DOCUMENTS]


def test_nothing_points_outside_the_repository():
    found = [
        (name, n, where)
        for name, text in FILES
        for n, line in enumerate(text.splitlines(), 1)
        for where in outside(name, line)
    ]
    assert found == []


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
    ("name", "line", "flagged"),
    # paths joined from parts: this file cites nothing that is not in the repository
    [
        ("docs/works.md", "see " + "/".join(["..", "..", "elsewhere", "plan.md"]), 1),  # leaves the checkout
        ("docs/works.md", "see " + "/".join(["..", "corpus", "nothing.txt"]), 1),  # inside, but no such file
        ("README.md", "read " + "/".join([ROOT.parent.as_posix(), "other", "file.txt"]), 1),
        ("README.md", "as " + "plan" + ".md says", 1),
        ("kg/match.py", "(" + "DESIGN" + ".md §5)", 1),
        ("corpus/second-reading/x.yaml", "$schema=" + "/".join(["..", "rules", "rule.schema.json"]), 0),
        ("README.md", "see corpus/CONVENTIONS.md and docs/works.md", 0),
    ],
)
def test_outside_references_are_recognised(name, line, flagged):
    assert len(outside(name, line)) == flagged


@pytest.mark.parametrize("line", ["(the plan " + "§4.1)", "see the inventory " + "§1.2", "卷四" + " §3"])
def test_a_section_sign_without_its_document_is_recognised(line):
    assert BARE_SECTION.search(SECTION.sub(r"\1 \2", line))


def test_a_section_is_matched_by_its_number_only(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("# T\n## 4. Tables\n### 4.1 Trigrams\n### 4.14 神煞\n", encoding="utf-8")
    assert has_section(doc, "§4.1") and has_section(doc, "§4.14") and has_section(doc, "§4")
    assert not has_section(doc, "§4.2") and not has_section(doc, "§4.11")
