"""``kg coverage``: how much of each work the rules and ``unencoded`` passages account for.

The unit is the sentence (kg.corpus): a sentence, a commentary note standing between
sentences, or — when a note holds several sentences — each of the note's sentences. A sentence
whose inline note splits into sentences counts for its own characters, the note for its own.

A sentence is *accounted for* when every CJK character of it (letters and digits; punctuation
and brackets are ignored) lies inside the span of some rule quote (any of a rule's ``source``
spans) or of an ``unencoded`` passage. The spans come from the built graph: the
oa:TextPositionSelector of each rule's dk:anchor, and dk:start/dk:end of each
dk:UnencodedPassage. A sentence is a *judgement* sentence when some character of it lies in the
quote of a judgement, exception or chart-verdict rule, a *definition* sentence when one lies in
the quote of a definition rule, and *unencoded* when one lies in an unencoded passage. Rules
count in the paragraph of their first quote.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import click

from kg.build import src
from kg.corpus import Segment, Work, works
from kg.errors import InputError
from kg.match import KnowledgeGraph
from kg.paths import BUILD

RULE_KINDS = ("judgement", "definition", "exception", "chart-verdict", "text-only")
SPAN_CLASS = {
    "judgement": "judgement",
    "exception": "judgement",
    "chart-verdict": "judgement",
    "definition": "definition",
    "text-only": "text-only",
    "unencoded": "unencoded",
}
"""Rule kind (or ``unencoded``) → the class of sentence its span makes."""


@dataclass(frozen=True)
class Sentence:
    """A counted sentence: its segment and the offsets of the characters it owns."""

    segment: Segment
    chars: frozenset[int]
    classes: frozenset[str]
    """Span classes (SPAN_CLASS values) touching one of its characters."""
    accounted: bool


@dataclass
class ParagraphCoverage:
    """The sentences of one Chinese paragraph and the rules whose first quote lies in it."""

    number: int
    urn: str
    sentences: list[Sentence]
    rules: Counter[str] = field(default_factory=Counter)

    def count(self, span_class: str) -> int:
        return sum(span_class in s.classes for s in self.sentences)

    @property
    def missing(self) -> list[Sentence]:
        return [s for s in self.sentences if not s.accounted]

    def row(self) -> dict[str, int]:
        """The figures of the paragraph, as the table and the JSON output show them."""
        return {
            "sentences": len(self.sentences),
            "judgement": self.count("judgement"),
            "definition": self.count("definition"),
            "unencoded": self.count("unencoded"),
            "missing": len(self.missing),
            "rules": sum(self.rules.values()),
            **{f"rules.{kind}": self.rules[kind] for kind in RULE_KINDS},
        }


@dataclass
class WorkCoverage:
    work: Work
    paragraphs: list[ParagraphCoverage]

    def totals(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for p in self.paragraphs:
            totals.update(p.row())
        return dict(totals)

    @property
    def missing(self) -> list[Sentence]:
        return [s for p in self.paragraphs for s in p.missing]

    def summary(self) -> dict[str, float | int]:
        """Sentences accounted for, and text-only rules among all rules, with percentages."""
        t = self.totals()
        accounted = t["sentences"] - t["missing"]
        return {
            "sentences": t["sentences"],
            "accounted": accounted,
            "accounted_pct": _pct(accounted, t["sentences"]),
            "rules": t["rules"],
            "text_only": t["rules.text-only"],
            "text_only_pct": _pct(t["rules.text-only"], t["rules"]),
        }


def _pct(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def counted_sentences(segment: Segment) -> Iterator[tuple[Segment, frozenset[int]]]:
    """The sentences a top-level segment counts as, each with the offsets of its characters."""
    if segment.kind == "note" and segment.children:
        for child in segment.children:
            yield from counted_sentences(child)
        return
    split = [c for c in segment.children if c.children]  # inline notes holding several sentences
    excluded = {i for c in split for i in range(c.start, c.end)}
    chars = frozenset(
        segment.start + i
        for i, ch in enumerate(segment.text)
        if ch.isalnum() and segment.start + i not in excluded
    )
    if chars:
        yield segment, chars
    for note in split:
        yield from counted_sentences(note)


def spans(
    kg: KnowledgeGraph,
) -> tuple[dict[str, list[tuple[int, int, str]]], dict[str, list[tuple[str, int]]]]:
    """From the graph: per work id, every (start, end, span class) of rule quotes and unencoded
    passages; and per work id, (rule kind, paragraph of the first quote) of every rule."""
    work_ids = {str(src(w)): w for w in works()}
    by_work: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    rules: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for row in kg.query(
        """SELECT ?r ?w ?order ?start ?end ?para WHERE {
             ?r a dk:Rule ; dk:work ?w ; dk:anchor ?a .
             ?a dk:order ?order ; dk:paragraph/dk:paragraphNumber ?para ; oa:hasSelector ?sel .
             ?sel a oa:TextPositionSelector ; oa:start ?start ; oa:end ?end }"""
    ):
        work_id, kind = work_ids[row["w"].value], kg.rules[row["r"].value].kind
        by_work[work_id].append((int(row["start"].value), int(row["end"].value), SPAN_CLASS[kind]))
        if row["order"].value == "1":
            rules[work_id].append((kind, int(row["para"].value)))
    for row in kg.query(
        """SELECT ?w ?start ?end WHERE {
             ?u a dk:UnencodedPassage ; dk:start ?start ; dk:end ?end ; dk:paragraph/dk:work ?w }"""
    ):
        by_work[work_ids[row["w"].value]].append(
            (int(row["start"].value), int(row["end"].value), "unencoded")
        )
    return by_work, rules


def coverage(graph: Path = BUILD / "kg.nq", work_ids: list[str] | None = None) -> list[WorkCoverage]:
    """Coverage of the works ``work_ids`` (default: every work of the catalogue) by the graph."""
    catalogue = works()
    unknown = [w for w in work_ids or () if w not in catalogue]
    if unknown:
        raise InputError(f"unknown work {', '.join(unknown)}; the catalogue has {', '.join(catalogue)}")
    by_work, rules = spans(KnowledgeGraph.load(graph))
    result = []
    for work_id in work_ids or list(catalogue):
        classes: dict[int, set[str]] = defaultdict(set)
        for start, end, span_class in by_work[work_id]:
            for offset in range(start, end):
                classes[offset].add(span_class)
        paragraphs = []
        for p in catalogue[work_id].paragraphs.values():
            sentences = [
                Sentence(
                    segment,
                    chars,
                    frozenset(c for i in chars for c in classes.get(i, ())),
                    all(i in classes for i in chars),
                )
                for top in p.segments
                for segment, chars in counted_sentences(top)
            ]
            paragraphs.append(ParagraphCoverage(p.number, p.urn, sentences))
        by_number = {p.number: p for p in paragraphs}
        for kind, para in rules[work_id]:
            by_number[para].rules[kind] += 1
        result.append(WorkCoverage(catalogue[work_id], paragraphs))
    return result


# ── output ──────────────────────────────────────────────────────────────────────────────────

COLUMNS = (
    ("sentences", "sent"),
    ("judgement", "judg"),
    ("definition", "def"),
    ("unencoded", "unenc"),
    ("missing", "miss"),
    ("rules", "rules"),
    ("rules.judgement", "J"),
    ("rules.definition", "D"),
    ("rules.exception", "E"),
    ("rules.chart-verdict", "V"),
    ("rules.text-only", "T"),
)


def summary_line(c: WorkCoverage) -> str:
    s = c.summary()
    return (
        f"{c.work.id}: {s['accounted']}/{s['sentences']} sentences accounted for ({s['accounted_pct']} %); "
        f"{s['text_only']}/{s['rules']} rules text-only ({s['text_only_pct']} %)"
    )


def render_text(results: list[WorkCoverage], missing: bool = False) -> str:
    """A table per work (one row per paragraph, then totals), its summary line and, with
    ``missing``, the sentences not accounted for."""
    out = []
    for c in results:
        out.append(f"《{c.work.title}》 ({c.work.id})")
        out.append(f"{'¶':>5}" + "".join(f"{label:>6}" for _, label in COLUMNS))
        for p in c.paragraphs:
            row = p.row()
            out.append(f"{p.number:>5}" + "".join(f"{row[key]:>6}" for key, _ in COLUMNS))
        totals = c.totals()
        out.append(f"{'total':>5}" + "".join(f"{totals[key]:>6}" for key, _ in COLUMNS))
        out.append(summary_line(c))
        if missing and c.missing:
            out.append("not accounted for:")
            out += [f"  {s.segment.urn}  {s.segment.text}" for s in c.missing]
        out.append("")
    out.append(
        "sent: sentences; judg/def/unenc: sentences in a judgement (exception, chart-verdict) quote, "
        "a definition quote, an unencoded passage; miss: not accounted for; rules by kind: "
        "J judgement, D definition, E exception, V chart-verdict, T text-only"
    )
    return "\n".join(out)


def render_json(results: list[WorkCoverage], missing: bool = False) -> str:
    data = []
    for c in results:
        entry: dict = {
            "work": c.work.id,
            "title": c.work.title,
            **c.summary(),
            "totals": c.totals(),
            "paragraphs": [{"paragraph": p.number, "urn": p.urn, **p.row()} for p in c.paragraphs],
        }
        if missing:
            entry["missing"] = [{"urn": s.segment.urn, "text": s.segment.text} for s in c.missing]
        data.append(entry)
    return json.dumps(data, ensure_ascii=False, indent=2)


@click.command("coverage")
@click.option("--work", "work_ids", multiple=True, metavar="ID", help="Only this work (repeatable).")
@click.option("--missing", is_flag=True, help="List the sentences not accounted for, with URN and text.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--check", is_flag=True, help="Exit 1 when a sentence of the selected works is not accounted for."
)
@click.option("--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True)
def coverage_command(work_ids: tuple[str, ...], missing: bool, fmt: str, check: bool, graph: Path) -> None:
    """Per work and paragraph: sentences, judgement and definition sentences, rules by kind,
    sentences accounted for by unencoded passages, and sentences not accounted for."""
    results = coverage(graph, list(work_ids) or None)
    render = render_json if fmt == "json" else render_text
    click.echo(render(results, missing))
    if check and any(c.missing for c in results):
        sys.exit(1)
