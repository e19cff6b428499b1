"""``kg agreement``: a second reading measured by what the two encodings say on charts.

The verdicts of a second reading's comparison (``corpus/second-reading/*-resolution.md``) read
the two encodings side by side: the same kind, polarity and conditions. This measures the same
two encodings by their effect instead. The main rules and the blind rules are built into one
graph; on generated readings (:data:`kg.witness.SAMPLERS`, for 大六壬 the 癸未 lessons first)
every topic of the work's system is asked. For a sampled sentence, each side's *verdict* on a
reading is the set of outcomes of its rules citing the sentence (a quote overlapping it) that
apply (their polarity) or are offered (``consider`` and the polarity). The sentence agrees on a
reading when the two verdicts are equal.

A sentence *agrees on charts* when it agrees on every reading where either side says something;
it is *silent* when neither side ever does (a definition only, a rule whose facts no generated
reading has). Topics do not count: a verdict is the same under whichever topic it was given.

Two encodings can differ in form and agree on charts (a condition that holds on every chart, a
role spelt out), or agree in form and still not (a different topic tree); both figures belong in
a report.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import click
import pyoxigraph as ox
import yaml

from kg.build import build, rules_option, src
from kg.corpus import Segment, work, works
from kg.errors import InputError
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve_topics
from kg.paths import RULES
from kg.witness import SAMPLERS

DEFAULT_READINGS = 400
DEFAULT_SEED = 20261201


@dataclass
class SentenceAgreement:
    """One sampled sentence: the rules of each side citing it, and on how many readings they
    spoke and agreed."""

    urn: str
    text: str
    main: list[str]
    blind: list[str]
    spoken: int = 0
    """Readings on which either side gave a verdict."""
    same: int = 0
    """Of those, readings on which the two verdicts were equal."""
    example: str | None = None
    """The inputs of the first reading on which they differed (``kg reading`` options)."""
    verdicts: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    """The two verdicts on that reading."""

    @property
    def status(self) -> str:
        if not self.spoken:
            return "silent"
        return "agree" if self.same == self.spoken else "differ"

    def as_dict(self) -> dict:
        return {
            "urn": self.urn,
            "text": self.text,
            "status": self.status,
            "main": self.main,
            "blind": self.blind,
            "spoken": self.spoken,
            "same": self.same,
            "example": self.example,
            "verdicts": {"main": self.verdicts[0], "blind": self.verdicts[1]} if self.example else None,
        }


def _segments(work_id: str) -> dict[str, Segment]:
    return {s.urn: s for p in work(work_id).paragraphs.values() for s in p.all_segments()}


def _rule_spans(kg: KnowledgeGraph, work_id: str) -> dict[str, list[tuple[int, int]]]:
    """Each rule of the work with its quoted spans (offsets in the work's text). A case of a rule
    (dk:caseOf) keeps only the spans its own wording is in, when some are: the cases of one
    sentence-level rule share its spans, and each answers for its own words."""
    found: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for row in kg.query(
        f"""SELECT ?r ?start ?end ?exact WHERE {{
             ?r a dk:Rule ; dk:work <{src(work_id)}> ; dk:anchor ?a .
             ?a oa:hasSelector ?at , ?quoted .
             ?at a oa:TextPositionSelector ; oa:start ?start ; oa:end ?end .
             ?quoted a oa:TextQuoteSelector ; oa:exact ?exact }}"""
    ):
        found[row["r"].value].append((int(row["start"].value), int(row["end"].value), row["exact"].value))
    cases = {row["r"].value for row in kg.query("SELECT ?r WHERE { ?r dk:caseOf ?of }")}
    kg.load_provenance()
    spans: dict[str, list[tuple[int, int]]] = {}
    for iri, quoted in found.items():
        words = [w for w in re.split("…+", kg.provenance.get(iri, {}).get("zh") or "") if w]
        own = [q for q in quoted if iri in cases and words and all(w in q[2] for w in words)]
        spans[iri] = [(start, end) for start, end, _ in own or quoted]
    return spans


def _citing(spans: dict[str, list[tuple[int, int]]], segment: Segment, rule_ids: dict[str, str]) -> list[str]:
    return sorted(
        rule_ids[iri]
        for iri, ranges in spans.items()
        if iri in rule_ids and any(start < segment.end and segment.start < end for start, end in ranges)
    )


def _verdict(found: Iterable[Applicable], rules: set[str]) -> list[str]:
    return sorted(
        {
            (a.polarity or "") if a.status == "applies" else f"consider {a.polarity or ''}".strip()
            for a in found
            if a.rule_id in rules and a.status in ("applies", "consider")
        }
    )


def _graph(rules_dir: Path, blind: Path, out: Path) -> KnowledgeGraph:
    """The main rule files and the blind file built together."""
    combined = out / "rules"
    combined.mkdir()
    for f in sorted(rules_dir.glob("*.yaml")):
        shutil.copy(f, combined / f.name)
    shutil.copy(blind, combined / f"zz-second-reading-{blind.name}")
    build(out / "build", combined)
    return KnowledgeGraph.load(out / "build" / "kg.nq")


def chart_agreement(
    sample: Path,
    blind: Path,
    rules_dir: Path = RULES,
    readings: int = DEFAULT_READINGS,
    seed: int = DEFAULT_SEED,
) -> list[SentenceAgreement]:
    """Each sampled sentence of ``sample`` with its two encodings compared on ``readings``
    generated readings of its work's system."""
    try:
        drawn = yaml.safe_load(sample.read_text(encoding="utf-8"))
        work_id, entries = drawn["work"], drawn["sample"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise InputError(f"{sample}: not a second-reading sample ({exc})") from None
    if work_id not in works():
        raise InputError(f"{sample}: unknown work {work_id!r}")
    segments = _segments(work_id)
    missing = [e["urn"] for e in entries if e["urn"] not in segments]
    if missing:
        raise InputError(f"{sample}: no sentence {missing[0]} in {work_id}")
    with tempfile.TemporaryDirectory() as tmp:
        kg = _graph(rules_dir, blind, Path(tmp))  # the store is read from the build when first queried
        return _compared(kg, work_id, entries, segments, blind, readings, seed)


def _compared(
    kg: KnowledgeGraph,
    work_id: str,
    entries: list[dict],
    segments: dict[str, Segment],
    blind: Path,
    readings: int,
    seed: int,
) -> list[SentenceAgreement]:
    blind_rules = yaml.safe_load(blind.read_text(encoding="utf-8")).get("rules") or []
    prefixes = {str(r["id"]).split(".")[0] for r in blind_rules}
    spans = _rule_spans(kg, work_id)
    ids = {iri: iri.rsplit("/", 1)[1] for iri in spans}
    theirs = {iri: rid for iri, rid in ids.items() if rid.split(".")[0] in prefixes}
    ours = {iri: rid for iri, rid in ids.items() if iri not in theirs}
    results = [
        SentenceAgreement(
            e["urn"],
            e["text"],
            _citing(spans, segments[e["urn"]], ours),
            _citing(spans, segments[e["urn"]], theirs),
        )
        for e in entries
    ]
    system = works()[work_id].system
    topics = sorted({r.topic for iri, r in kg.rules.items() if iri in ours or iri in theirs})
    samples = SAMPLERS[system](random.Random(f"{seed}-{system}"))
    for _ in range(readings):
        drawn_reading = next(samples)
        store = ox.Store()
        store.bulk_load(drawn_reading.facts, format=ox.RdfFormat.N_TRIPLES)
        found = [a for answers in retrieve_topics(kg, Reading(store), topics).values() for a in answers]
        for s in results:
            verdicts = _verdict(found, set(s.main)), _verdict(found, set(s.blind))
            if verdicts[0] or verdicts[1]:
                s.spoken += 1
                if verdicts[0] == verdicts[1]:
                    s.same += 1
                elif s.example is None:
                    s.example, s.verdicts = drawn_reading.inputs, verdicts
    return results


def summary(results: list[SentenceAgreement]) -> dict[str, int | float]:
    """Sentences that agree, differ and are silent; the share that agree of those a side spoke on,
    and of the readings where a side spoke."""
    spoken = [s for s in results if s.spoken]
    agree = sum(s.status == "agree" for s in spoken)
    readings = sum(s.spoken for s in spoken)
    return {
        "sentences": len(results),
        "agree": agree,
        "differ": len(spoken) - agree,
        "silent": len(results) - len(spoken),
        "agree_pct": round(100 * agree / len(spoken), 1) if spoken else 0.0,
        "readings_agree_pct": round(100 * sum(s.same for s in spoken) / readings, 1) if readings else 0.0,
    }


def render_text(results: list[SentenceAgreement]) -> str:
    lines = []
    for s in results:
        lines.append(f"{s.status:6}  {s.same:4}/{s.spoken:<4}  {s.urn}  {s.text}")
        lines.append(f"        main: {', '.join(s.main) or '-'}")
        lines.append(f"        blind: {', '.join(s.blind) or '-'}")
        if s.example:
            lines.append(f"        differ on: {s.example}: main {s.verdicts[0]}, blind {s.verdicts[1]}")
    t = summary(results)
    lines.append(
        f"{t['agree']} sentences agree on charts, {t['differ']} differ ({t['agree_pct']} % agree), "
        f"{t['silent']} of {t['sentences']} silent on both sides; "
        f"{t['readings_agree_pct']} % of the readings where a side spoke agree"
    )
    return "\n".join(lines)


@click.command("agreement")
@click.option(
    "--sample",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    required=True,
    help="The sample (corpus/second-reading/<work>-sample-N.yaml).",
)
@click.option(
    "--blind",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    required=True,
    help="The blind rules of that sample (<work>-blind-N.yaml).",
)
@rules_option(
    "The main rule files (those before resolution, from a checkout of that commit, to measure the round)."
)
@click.option("--readings", type=click.IntRange(1, 100_000), default=DEFAULT_READINGS, show_default=True)
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def agreement_command(sample: Path, blind: Path, rules_dir: Path, readings: int, seed: int, fmt: str) -> None:
    """Compare a second reading with the main rules by their verdicts on generated readings."""
    results = chart_agreement(sample, blind, rules_dir, readings, seed)
    if fmt == "json":
        body = {"summary": summary(results), "sentences": [s.as_dict() for s in results]}
        click.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    click.echo(render_text(results))
