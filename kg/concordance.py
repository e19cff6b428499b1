"""``kg search``: a key-word-in-context concordance of the texts, and the rules that mention a concept.

The concordance reads the texts from :mod:`kg.corpus` (exact text, offsets into the source
file), so every hit carries the URN of the sentence it lies in. A term is searched together
with its variant written forms: every zh-Hant label (prefLabel, altLabel, hiddenLabel) of every
concept that has the term as a label, so 玄武 also finds 元武. One-character labels (虎, 龍, 元)
are abbreviations that also occur inside unrelated words; they join the variants only with
``--abbreviations``.

``--concept LABEL`` lists the rules of the built graph that mention the concept (``dk:mentions``):
every concept, in any scheme, with LABEL as a label, so 龍 and 青龍 are one concept.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path

import click
from rdflib import Literal, URIRef
from rdflib.namespace import SKOS

from kg.corpus import Paragraph, Work, works
from kg.errors import InputError, KgError
from kg.match import KnowledgeGraph
from kg.paths import GRAPH
from kg.simplified import search_terms
from kg.vocabulary import DK, vocabulary

LABELS = (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel)


def concepts_labelled(label: str) -> list[URIRef]:
    """Every concept with ``label`` as a SKOS label (any language) or as its slug."""
    graph = vocabulary().graph
    found = {c for p in LABELS for c in graph.subjects(p, Literal(label, lang="zh-Hant"))}
    found |= {
        c for p in LABELS for lang in ("ko", "en") for c in graph.subjects(p, Literal(label, lang=lang))
    }
    found |= {c for c in graph.subjects(SKOS.inScheme, None) if str(c).rsplit("/", 1)[1] == label}
    return sorted(found)


def variants(term: str, abbreviations: bool = False) -> list[str]:
    """``term`` and the zh-Hant labels of every concept that has it as a label, longest first."""
    graph = vocabulary().graph
    forms = {term}
    for c in concepts_labelled(term):
        for p in LABELS:
            forms.update(
                str(o)
                for o in graph.objects(c, p)
                if isinstance(o, Literal) and o.language == "zh-Hant" and (abbreviations or len(o) > 1)
            )
    return sorted(forms, key=lambda f: (-len(f), f))


def find_work(text: str) -> Work:
    """A work by id (yiyin), title (易隱, 《易隱》) or URN prefix."""
    key = text.strip().strip("《》")
    for w in works().values():
        if key in (w.id, w.title, w.urn, w.urn_prefix):
            return w
    known = ", ".join(f"{w.id} (《{w.title}》)" for w in works().values())
    raise InputError(f"unknown work {text!r}; the works are {known}")


def narrower_topics(text: str) -> set[URIRef]:
    """The topic named ``text`` and every topic narrower than it."""
    tree = vocabulary().topic_tree
    return tree.narrower(tree.topic(text))


def polarity(text: str) -> URIRef:
    """A polarity by label (吉, 凶) or slug (ji, xiong, mixed, neutral)."""
    try:
        return vocabulary().resolve(DK.PolarityScheme, text.strip())
    except KgError:
        raise InputError(f"unknown polarity {text!r}; one of 吉 凶 mixed neutral") from None


@dataclass(frozen=True)
class Hit:
    """One occurrence of a term, with its context."""

    urn: str
    work: str
    left: str
    match: str
    right: str
    paragraph: int
    start: int


def _sentence_urn(paragraph: Paragraph, start: int, end: int) -> str:
    """URN of the smallest segment holding [start, end), else of the paragraph."""
    holding = [s for s in paragraph.all_segments() if s.start <= start and end <= s.end]
    return min(holding, key=lambda s: s.end - s.start).urn if holding else paragraph.urn


def concordance(
    term: str,
    korean: bool = False,
    width: int = 12,
    work: str | None = None,
    topic: str | None = None,
    rule_spans: set[tuple[str, int, int, int]] | None = None,
    abbreviations: bool = False,
) -> list[Hit]:
    """Key-word-in-context hits of ``term`` (and its variants) in the Chinese or the Korean.

    ``rule_spans`` (work id, paragraph, start, end), if given, keeps only hits inside one of them
    (for the Korean: in a paragraph holding one).
    """
    term = term.strip()
    if not term:
        raise InputError("empty search term: give a word to search for (e.g. 玄武)")
    forms = [term] if korean else variants(term, abbreviations)
    pattern = re.compile("|".join(map(re.escape, forms)))
    topics = narrower_topics(topic) if topic else None
    chosen = [find_work(work)] if work else list(works().values())
    hits: list[Hit] = []
    for w in chosen:
        for p in w.paragraphs.values():
            if topics is not None and vocabulary().topic(p.section.topic) not in topics:
                continue
            text, base = (p.korean, p.korean_start) if korean else (p.text, p.start)
            for m in pattern.finditer(text):
                start, end = base + m.start(), base + m.end()
                if rule_spans is not None and not any(
                    wid == w.id and n == p.number and (korean or (a <= start and end <= b))
                    for wid, n, a, b in rule_spans
                ):
                    continue
                urn = p.korean_urn if korean else _sentence_urn(p, start, end)
                left = text[max(0, m.start() - width) : m.start()]
                hits.append(
                    Hit(urn, w.title, left, m.group(), text[m.end() : m.end() + width], p.number, start)
                )
    return hits


def polarity_spans(kg: KnowledgeGraph, pol: URIRef) -> set[tuple[str, int, int, int]]:
    """(work id, paragraph, start, end) of every quote of a rule with polarity ``pol``."""
    rows = kg.query(
        f"""SELECT ?w ?n ?a ?b WHERE {{
              ?r dk:outcome/dk:polarity <{pol}> ; dk:anchor ?x . ?x oa:hasSource ?src ; dk:paragraph ?p ;
                 oa:hasSelector ?pos . ?pos oa:start ?a ; oa:end ?b . ?p dk:paragraphNumber ?n .
              BIND(STRAFTER(STR(?src), STR(src:)) AS ?w) }}"""
    )
    return {(r["w"].value, int(r["n"].value), int(r["a"].value), int(r["b"].value)) for r in rows}


@dataclass(frozen=True)
class RuleMention:
    """A rule that mentions a concept, with its outcome and first quote."""

    rule_id: str
    polarity: str
    topic: str
    work: str
    urn: str
    quote: str


def rules_mentioning(
    kg: KnowledgeGraph,
    label: str,
    topic: str | None = None,
    work: str | None = None,
    pol: URIRef | None = None,
) -> list[RuleMention]:
    """Every rule that mentions a concept labelled ``label``, optionally filtered."""
    concepts = concepts_labelled(label.strip())
    if not concepts:
        raise InputError(f"no concept has the label {label!r}")
    filters = [f"VALUES ?c {{ {' '.join(f'<{c}>' for c in concepts)} }}"]
    if topic:
        filters.append(f"VALUES ?t {{ {' '.join(f'<{t}>' for t in narrower_topics(topic))} }}")
    if work:
        filters.append(f"?r dk:work src:{find_work(work).id} .")
    if pol:
        filters.append(f"?r dk:outcome/dk:polarity <{pol}> .")
    rows = kg.query(
        f"""SELECT DISTINCT ?id ?pl ?tl ?title ?urn ?quote WHERE {{
              {" ".join(filters)}
              ?r dk:mentions ?c ; dk:ruleId ?id ; dk:topic ?t ; rdfs:label ?quote ; dk:work ?w ; dk:anchor ?x .
              ?t skos:prefLabel ?tl FILTER(langMatches(lang(?tl), 'zh-Hant'))
              ?w dcterms:title ?title FILTER(langMatches(lang(?title), 'zh-Hant'))
              ?x dk:order 1 ; dk:paragraph ?p ; oa:hasSelector ?pos . ?pos oa:start ?st .
              ?s dcterms:isPartOf ?p ; dk:start ?ss ; dk:end ?se ; dk:urn ?urn . FILTER(?ss <= ?st && ?st < ?se)
              OPTIONAL {{ ?r dk:outcome/dk:polarity/skos:prefLabel ?pl FILTER(langMatches(lang(?pl), 'zh-Hant')) }}
            }} ORDER BY ?id"""
    )
    return [
        RuleMention(
            r["id"].value,
            r["pl"].value if "pl" in r else "—",
            r["tl"].value,
            r["title"].value,
            r["urn"].value,
            r["quote"].value,
        )
        for r in rows
    ]


@click.command("search")
@click.argument("term", required=False)
@click.option("--korean", is_flag=True, help="Search the Korean renderings instead of the Chinese.")
@click.option(
    "--width", type=click.IntRange(0, 200), default=12, show_default=True, help="Context characters (0–200)."
)
@click.option("--concept", help="List every rule mentioning the concept with this label (e.g. 白虎, 龍).")
@click.option("--topic", help="Only paragraphs or rules of this topic or a narrower one (e.g. 家宅).")
@click.option("--work", help="Only this work: id (yiyin) or title (易隱).")
@click.option(
    "--polarity", "pol", help="Only rules (or quotes of rules) of this polarity: 吉 凶 mixed neutral."
)
@click.option("--abbreviations", is_flag=True, help="Also search one-character variant labels (虎 for 白虎).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
def search_command(
    term: str | None,
    korean: bool,
    width: int,
    concept: str | None,
    topic: str | None,
    work: str | None,
    pol: str | None,
    abbreviations: bool,
    fmt: str,
    graph: Path,
) -> None:
    """Key word in context: every place TERM (or a variant form) occurs, with its URN.

    Examples: kg search 玄武 · kg search 백호 --korean · kg search --concept 白虎 --polarity 凶
    """
    pol_iri = polarity(pol) if pol else None
    if concept is not None:
        rows = rules_mentioning(KnowledgeGraph.load(graph), concept, topic, work, pol_iri)
        if fmt == "json":
            click.echo(json.dumps([dataclasses.asdict(r) for r in rows], ensure_ascii=False, indent=2))
            return
        for r in rows:
            click.echo(f"{r.rule_id}  {r.polarity}  {r.topic}  《{r.work}》 {r.urn}\n    「{r.quote}」")
        click.echo(f"{len(rows)} rules mention {concept}")
        return
    spans = polarity_spans(KnowledgeGraph.load(graph), pol_iri) if pol_iri else None
    terms = search_terms(term) if term and not korean else [term or ""]
    hits = list(
        dict.fromkeys(
            h for t in terms for h in concordance(t, korean, width, work, topic, spans, abbreviations)
        )
    )
    if fmt == "json":
        click.echo(json.dumps([dataclasses.asdict(h) for h in hits], ensure_ascii=False, indent=2))
        return
    for h in hits:
        click.echo(f"{h.urn:<40} 《{h.work}》 {h.left:　>{width}}【{h.match}】{h.right}")
    click.echo(f"{len(hits)} hits")
