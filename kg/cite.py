"""``kg cite ID``: a citation a scholar can check, for a rule id, a URN or an IRI.

Everything comes from the built graph: the work (title, responsibility, dynasty, part,
citation form, digital witness), the section heading of the catalogue, the paragraph and its
sentences with their URN, the quote exactly as in the source (the rule's
``oa:TextQuoteSelector``, or the passage's own text) and the Korean rendering of the paragraph.
Formats: text, BibTeX, CSL-JSON and RIS. An id that does not exist is an input error naming the
nearest existing id (``difflib``).
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import click

from kg.errors import InputError
from kg.match import KnowledgeGraph
from kg.paths import GRAPH
from kg.vocabulary import PREFIXES

FORMATS = ("text", "bibtex", "csl-json", "ris")
VOLUME = re.compile(r"^卷[一二三四五六七八九十百]+")


@dataclass
class Passage:
    """The cited stretch of one paragraph."""

    paragraph: int
    heading: str
    urn: str
    sentences: list[str]
    quote: str
    korean: str
    korean_urn: str

    @property
    def place(self) -> str:
        """``¶6, sentences 4–5`` (or ``¶6`` for a whole paragraph)."""
        if not self.sentences:
            return f"¶{self.paragraph}"
        if len(self.sentences) == 1:
            return f"¶{self.paragraph}, sentence {self.sentences[0]}"
        return f"¶{self.paragraph}, sentences {self.sentences[0]}–{self.sentences[-1]}"


@dataclass
class Citation:
    """A work, and the passages of it that a rule or URN stands for."""

    target: str
    title: str
    title_en: str
    responsibility: str
    dynasty: str
    date: str
    part: str
    citation_form: str
    witness: str
    work_urn: str
    passages: list[Passage] = field(default_factory=list)
    rule_id: str | None = None
    outcome: str | None = None

    @property
    def volume(self) -> str:
        """The 卷 as the work's part names it (卷四), or ''."""
        found = VOLUME.match(self.part)
        return found.group(0) if found else ""

    @property
    def urn(self) -> str:
        return self.passages[0].urn if self.passages else self.work_urn

    def line(self) -> str:
        """One line in the Chinese manner: 曹九錫輯、曹璿演《易隱》卷四〈家宅占〉十三 棟樑，¶6，句4–5。"""
        where = "；".join(dict.fromkeys(f"{p.heading}，{p.place}" for p in self.passages))
        volume = "" if where.startswith(self.volume) else self.volume
        return f"{self.responsibility}《{self.title}》{volume}{where}（{self.urn}）"


def _one(rows: list[dict], what: str) -> dict:
    if not rows:
        raise InputError(f"nothing in the graph for {what}")
    return rows[0]


class Resolver:
    """Looks ids up in the built graph and assembles citations."""

    def __init__(self, kg: KnowledgeGraph) -> None:
        self.kg = kg
        self.by_urn = {
            r["urn"].value: r["s"].value for r in kg.query("SELECT ?s ?urn WHERE { ?s dk:urn ?urn }")
        }
        self.by_rule = {
            r["id"].value: r["r"].value
            for r in kg.query("SELECT ?r ?id WHERE { ?r a dk:Rule ; dk:ruleId ?id }")
        }
        self.known = set(self.by_urn.values()) | set(self.by_rule.values())

    def resolve(self, ident: str) -> str:
        """The IRI an id (rule id, URN, IRI, ``<IRI>`` or prefixed name) stands for."""
        key = ident.strip().removeprefix("<").removesuffix(">")
        if not key:
            raise InputError("empty id: give a rule id, a URN or an IRI")
        if key in self.by_rule:
            return self.by_rule[key]
        if key in self.by_urn:
            return self.by_urn[key]
        prefix, _, local = key.partition(":")
        iri = PREFIXES[prefix] + local if prefix in PREFIXES else key
        if iri in self.known:
            return iri
        raise InputError(
            f"unknown id {ident!r}: no rule id, URN or IRI of the graph; the nearest existing one is {self.nearest(key)}"
        )

    def nearest(self, key: str) -> str:
        """The longest existing URN that ``key`` extends (¶6 for ¶6.99), else the closest id by difflib."""
        stem = key
        while (cut := max(stem.rfind("."), stem.rfind(":"))) > len("urn:cts:divkg:"):
            stem = stem[:cut]
            if stem in self.by_urn:
                return stem
        choices = [*self.by_rule, *self.by_urn]
        return difflib.get_close_matches(key, choices, n=1, cutoff=0.0)[0]

    def cite(self, ident: str) -> Citation:
        iri = self.resolve(ident)
        kinds = {r["k"].value.rsplit("/", 1)[1] for r in self.kg.query(f"SELECT ?k WHERE {{ <{iri}> a ?k }}")}
        if "Rule" in kinds:
            return self._rule(ident, iri)
        if "Work" in kinds:
            return self._work(ident, iri)
        if "KoreanRendering" in kinds:
            paragraph = _one(self.kg.query(f"SELECT ?p WHERE {{ ?p dk:koreanRendering <{iri}> }}"), ident)[
                "p"
            ].value
            citation = self._work(ident, self._work_of(paragraph))
            citation.passages.append(self._passage(paragraph, None, None, []))
            return citation
        row = _one(self.kg.query(f"SELECT ?p WHERE {{ OPTIONAL {{ <{iri}> dk:paragraph ?p }} }}"), ident)
        paragraph = row["p"].value if "p" in row else iri
        citation = self._work(ident, self._work_of(paragraph))
        citation.passages.append(self._passage(paragraph, None, None, [] if paragraph == iri else [iri]))
        return citation

    def _work_of(self, paragraph: str) -> str:
        return _one(self.kg.query(f"SELECT ?w WHERE {{ <{paragraph}> dk:work ?w }}"), paragraph)["w"].value

    def _work(self, target: str, work: str) -> Citation:
        row = _one(
            self.kg.query(
                f"""SELECT * WHERE {{
                  <{work}> dcterms:title ?title ; dcterms:title ?en ; dk:responsibility ?resp ; dk:dynasty ?dyn ;
                    dcterms:date ?date ; dk:part ?part ; dk:citation ?form ; dk:witness ?wit ; dk:urn ?urn .
                  FILTER(langMatches(lang(?title), 'zh-Hant') && langMatches(lang(?en), 'en')) }}"""
            ),
            work,
        )
        v = {k: t.value for k, t in row.items()}
        return Citation(
            target,
            v["title"],
            v["en"],
            v["resp"],
            v["dyn"],
            v["date"],
            v["part"],
            v["form"],
            v["wit"],
            v["urn"],
        )

    def _passage(
        self, paragraph: str, quote: str | None, span: tuple[int, int] | None, segments: list[str]
    ) -> Passage:
        """One paragraph's passage: the given segments (or those overlapping ``span``), or all of it."""
        row = _one(
            self.kg.query(
                f"""SELECT ?n ?text ?urn ?heading ?ko ?kurn WHERE {{
                  <{paragraph}> dk:paragraphNumber ?n ; dk:text ?text ; dk:urn ?urn ;
                    dk:section/dk:heading ?heading ; dk:koreanRendering ?k . ?k dk:text ?ko ; dk:urn ?kurn }}"""
            ),
            paragraph,
        )
        v = {k: t.value for k, t in row.items()}
        found = []
        if segments or span:
            values = " ".join(f"<{s}>" for s in segments)
            where = (
                f"VALUES ?s {{ {values} }}"
                if segments
                else f"?s dcterms:isPartOf <{paragraph}> ; dk:start ?a ; dk:end ?b . FILTER(?a < {span[1]} && ?b > {span[0]})"
            )
            found = self.kg.query(
                f"SELECT ?s ?path ?urn ?text WHERE {{ {where} ?s dk:segmentPath ?path ; dk:urn ?urn ; dk:text ?text }} ORDER BY ?a"
            )
        paths = [r["path"].value for r in found]
        if not paths:
            urn = v["urn"]
        elif len(paths) == 1:
            urn = found[0]["urn"].value
        else:
            urn = f"{found[0]['urn'].value}-{v['n']}.{paths[-1]}"
        text = quote if quote is not None else "".join(r["text"].value for r in found) or v["text"]
        return Passage(int(v["n"]), v["heading"], urn, paths, text, v["ko"], v["kurn"])

    def _rule(self, target: str, iri: str) -> Citation:
        rows = self.kg.query(
            f"""SELECT ?rid ?work ?para ?exact ?start ?end ?zh ?en ?pol WHERE {{
                  <{iri}> dk:ruleId ?rid ; dk:work ?work ; dk:anchor ?a .
                  ?a dk:order ?o ; dk:paragraph ?para ; oa:hasSelector ?q , ?pos .
                  ?q oa:exact ?exact . ?pos oa:start ?start ; oa:end ?end .
                  OPTIONAL {{ <{iri}> dk:outcome ?out . OPTIONAL {{ ?out dk:wording ?zh }} OPTIONAL {{ ?out dk:gloss ?en }}
                              OPTIONAL {{ ?out dk:polarity/skos:prefLabel ?pol FILTER(lang(?pol) = 'zh-Hant') }} }}
                }} ORDER BY ?o"""
        )
        first = _one(rows, target)
        citation = self._work(target, first["work"].value)
        citation.rule_id = first["rid"].value
        outcome = " ".join(first[k].value for k in ("pol", "zh") if k in first)
        gloss = first["en"].value if "en" in first else ""
        citation.outcome = " — ".join(x for x in (outcome, gloss) if x) or None
        for row in rows:
            span = (int(row["start"].value), int(row["end"].value))
            citation.passages.append(self._passage(row["para"].value, row["exact"].value, span, []))
        return citation


def render_text(c: Citation) -> str:
    lines = [
        c.line(),
        "",
        f"Work        《{c.title}》 ({c.title_en})",
        f"Compiler    {c.responsibility}",
        f"Dynasty     {c.dynasty} · {c.date}",
        f"Part        {c.part}",
    ]
    for p in c.passages:
        lines += [
            f"Section     {p.heading}",
            f"Passage     {p.place} · {p.urn}",
            f"Quote       「{p.quote}」",
            f"Korean      {p.korean_urn}: {p.korean}",
        ]
    if c.rule_id:
        lines.append(f"Rule        {c.rule_id}" + (f" · {c.outcome}" if c.outcome else ""))
    lines += [f"Cite as     {c.citation_form}", f"Witness     {c.witness}"]
    return "\n".join(lines)


def _note(c: Citation) -> str:
    return "; ".join(f"{p.place}, {p.urn}: 「{p.quote}」" for p in c.passages) or c.work_urn


def _key(c: Citation) -> str:
    return re.sub(r"[^A-Za-z0-9-]+", "_", c.rule_id or c.urn.removeprefix("urn:cts:divkg:"))


def render_bibtex(c: Citation) -> str:
    fields = {
        "title": c.title,
        "chapter": "；".join(p.heading for p in c.passages) or c.part,
        "author": c.responsibility,
        "date": c.date,
        "note": _note(c),
        "annote": " ".join(f"{p.korean_urn}: {p.korean}" for p in c.passages),
        "howpublished": c.witness,
        "url": c.urn,
        "language": "Classical Chinese",
    }
    body = ",\n".join(f"  {k} = {{{{{v}}}}}" for k, v in fields.items() if v)
    return f"@inbook{{{_key(c)},\n{body}\n}}"


def csl(c: Citation) -> dict:
    """The citation as one CSL-JSON item."""
    item = {
        "id": _key(c),
        "type": "chapter" if c.passages else "book",
        "title": "；".join(p.heading for p in c.passages) or c.title,
        "container-title": c.title,
        "author": [{"literal": c.responsibility}],
        "issued": {"literal": f"{c.dynasty} · {c.date}"},
        "archive": c.witness,
        "archive_location": c.urn,
        "note": _note(c),
        "language": "zh-Hant",
    }
    if not c.passages:
        del item["container-title"]
    return item


def render_ris(c: Citation) -> str:
    rows = [
        ("TY", "CHAP" if c.passages else "BOOK"),
        ("TI", "；".join(p.heading for p in c.passages) or c.title),
        ("T2", c.title),
        ("AU", c.responsibility),
        ("DA", c.date),
        ("N1", _note(c)),
        *(("N1", f"{p.korean_urn}: {p.korean}") for p in c.passages),
        ("AN", c.urn),
        ("DB", c.witness),
        ("LA", "zh-Hant"),
        ("ER", ""),
    ]
    return "\n".join(f"{tag}  - {value}".rstrip() for tag, value in rows)


def render(c: Citation, fmt: str) -> str:
    if fmt == "bibtex":
        return render_bibtex(c)
    if fmt == "csl-json":
        return json.dumps([csl(c)], ensure_ascii=False, indent=2)
    if fmt == "ris":
        return render_ris(c)
    return render_text(c)


@click.command("cite")
@click.argument("ident", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
def cite_command(ident: str, fmt: str, graph: Path) -> None:
    """Cite a rule id, a URN (paragraph, sentence or Korean rendering) or an IRI.

    Example: kg cite yiyin.dongliang.leak --format bibtex
    """
    click.echo(render(Resolver(KnowledgeGraph.load(graph)).cite(ident), fmt))
