"""The corpus: the works of ``corpus/catalogue.yaml``, their paragraphs and citable segments.

A source file is a sequence of blank-line-separated blocks: block 1 is a Korean heading, the
even blocks are Chinese paragraphs and block n+1 is the Korean rendering of block n. Each
Chinese paragraph is cut into segments that tile it exactly:

* sentences, ending at 。；？！ (and any closing quotation mark right after);
* commentary notes （…） that stand between sentences, as segments of their own that annotate
  the sentence before them.

A note inside a sentence (三木並見（木宮木爻木合），…) stays in its sentence and becomes a
child segment; a note's own sentences are its children. Offsets are Unicode code points into
the source file, never normalised, so a quote can be checked character for character.

Identifiers: paragraph ¶n of work W is ``urn:cts:divkg:{W.urn}.zh:n`` and its k-th segment
``…zh:n.k`` (children ``n.k.j``); the Korean rendering of ¶n is ``…ko:n``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import yaml

from kg.errors import InputError, KgError
from kg.paths import CORPUS

SENTENCE_END = "。；？！"
CLOSERS = "」』"
BRACKETS = {"（": "）", "(": ")"}


@dataclass(frozen=True)
class Segment:
    """A citable piece of a Chinese paragraph: a sentence or a commentary note."""

    work: str
    urn_work: str
    paragraph: int
    path: tuple[int, ...]
    kind: str  # "sentence" | "note"
    start: int
    end: int
    text: str
    children: tuple[Segment, ...] = ()
    annotates: tuple[int, ...] | None = None

    @property
    def urn(self) -> str:
        return f"urn:cts:divkg:{self.urn_work}.zh:{self.paragraph}." + ".".join(map(str, self.path))

    @property
    def local_id(self) -> str:
        return f"{self.work}/zh/{self.paragraph}/" + "/".join(map(str, self.path))

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Paragraph:
    """A Chinese paragraph (¶n) with its Korean rendering (block n+1)."""

    work: str
    urn_work: str
    number: int
    start: int
    text: str
    korean_start: int
    korean: str
    segments: tuple[Segment, ...]
    section: Section

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def urn(self) -> str:
        return f"urn:cts:divkg:{self.urn_work}.zh:{self.number}"

    @property
    def korean_urn(self) -> str:
        return f"urn:cts:divkg:{self.urn_work}.ko:{self.number}"

    def all_segments(self):
        for segment in self.segments:
            yield from segment.walk()


@dataclass(frozen=True)
class Section:
    """A range of paragraphs with its sub-topic and heading (catalogue ``sections``)."""

    first: int
    last: int
    topic: str
    heading: str
    lesson: dict | None = None


@dataclass(frozen=True)
class Work:
    id: str
    urn: str
    title: str
    title_en: str
    responsibility: str
    compiler: str
    dynasty: str
    date: str
    part: str
    system: str
    source: str
    original_file: str
    sha256: str
    citation: str
    witness: str
    sections: tuple[Section, ...]
    text: str = field(repr=False)
    heading: str
    paragraphs: dict[int, Paragraph] = field(repr=False)

    @property
    def urn_prefix(self) -> str:
        return f"urn:cts:divkg:{self.urn}"


def _split(text: str, base: int) -> list[tuple[str, int, int]]:
    """Top-level units of ``text``: ('sentence' | 'note', start, end), offsets absolute."""
    units: list[tuple[str, int, int]] = []
    i, n, start = 0, len(text), 0
    while i < n:
        ch = text[i]
        if ch in BRACKETS:
            close = _matching(text, i)
            if i == start:  # the note stands between sentences
                units.append(("note", base + i, base + close + 1))
                start = close + 1
            i = close + 1
            continue
        if ch in SENTENCE_END:
            i += 1
            while i < n and (text[i] in SENTENCE_END or text[i] in CLOSERS):
                i += 1
            units.append(("sentence", base + start, base + i))
            start = i
            continue
        i += 1
    if start < n:
        units.append(("sentence", base + start, base + n))
    return units


def _matching(text: str, i: int) -> int:
    opener, closer, depth = text[i], BRACKETS[text[i]], 0
    for j in range(i, len(text)):
        if text[j] == opener:
            depth += 1
        elif text[j] == closer:
            depth -= 1
            if depth == 0:
                return j
    raise KgError(f"unbalanced {opener} at offset {i}: {text[i : i + 20]}…")


def _segments(
    source: str, start: int, end: int, work: dict, paragraph: int, prefix: tuple[int, ...]
) -> tuple[Segment, ...]:
    text = source[start:end]
    result: list[Segment] = []
    for k, (kind, s, e) in enumerate(_split(text, start), 1):
        path = (*prefix, k)
        if kind == "note":
            inner = _segments(source, s + 1, e - 1, work, paragraph, path)
            children = inner if len(inner) > 1 else ()
        else:
            children = tuple(
                _note(source, ns, ne, work, paragraph, (*path, j))
                for j, (ns, ne) in enumerate(_inline_notes(source, s, e), 1)
            )
        annotates = (*prefix, k - 1) if kind == "note" and k > 1 else None
        result.append(
            Segment(work["id"], work["urn"], paragraph, path, kind, s, e, source[s:e], children, annotates)
        )
    return tuple(result)


def _note(source: str, s: int, e: int, work: dict, paragraph: int, path: tuple[int, ...]) -> Segment:
    inner = _segments(source, s + 1, e - 1, work, paragraph, path)
    return Segment(
        work["id"],
        work["urn"],
        paragraph,
        path,
        "note",
        s,
        e,
        source[s:e],
        inner if len(inner) > 1 else (),
        path[:-1],
    )


def _inline_notes(source: str, start: int, end: int) -> list[tuple[int, int]]:
    notes, i = [], start
    while i < end:
        if source[i] in BRACKETS:
            close = start + _matching(source[start:end], i - start)
            notes.append((i, close + 1))
            i = close + 1
        else:
            i += 1
    return notes


def _load_work(entry: dict) -> Work:
    path = CORPUS / "sources" / entry["source"]
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KgError(f"{path}: cannot read source text ({exc.strerror})") from None
    sections = tuple(
        Section(s["paragraphs"][0], s["paragraphs"][1], s["topic"], s["heading"], s.get("lesson"))
        for s in entry["sections"]
    )
    blocks, offset, spans = text.split("\n\n"), 0, []
    for block in blocks:
        spans.append((offset, block))
        offset += len(block) + 2
    paragraphs: dict[int, Paragraph] = {}
    for number in range(2, len(blocks), 2):
        start, zh = spans[number - 1]
        korean_start, korean = spans[number]
        section = next((s for s in sections if s.first <= number <= s.last), None)
        if section is None:
            raise KgError(f"corpus/catalogue.yaml: {entry['id']} ¶{number} lies in no section")
        paragraphs[number] = Paragraph(
            entry["id"],
            entry["urn"],
            number,
            start,
            zh,
            korean_start,
            korean,
            _segments(text, start, start + len(zh), entry, number, ()),
            section,
        )
    fields = {k: entry[k] for k in Work.__dataclass_fields__ if k in entry and k != "sections"}
    return Work(**fields, sections=sections, text=text, heading=blocks[0], paragraphs=paragraphs)


@cache
def works() -> dict[str, Work]:
    """All works of the catalogue, by id."""
    catalogue = CORPUS / "catalogue.yaml"
    entries = yaml.safe_load(catalogue.read_text(encoding="utf-8"))["works"]
    return {entry["id"]: _load_work(entry) for entry in entries}


def work(work_id: str) -> Work:
    try:
        return works()[work_id]
    except KeyError:
        raise InputError(f"unknown work {work_id!r}; the catalogue has {', '.join(works())}") from None
