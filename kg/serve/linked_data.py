"""Linked Data pages: every IRI of the graph under the base, described in HTML, Turtle or JSON-LD.

Convention (the 303 of "Cool URIs for the Semantic Web"): an IRI of the graph names a thing (a
rule, a concept, a passage, a work, a term of the ontology), not a document. Asking for it
answers 303 See Other to its description, one document per format: the IRI with ``.html``,
``.ttl`` or ``.jsonld`` appended, chosen by ``?format=html|ttl|jsonld`` or else by the Accept
header (HTML when it names none of them)::

    /rule/yiyin.dongliang.leak  → 303 →  /rule/yiyin.dongliang.leak.ttl   (Accept: text/turtle)

so ``curl -L -H 'Accept: text/turtle' http://127.0.0.1:8000/rule/yiyin.dongliang.leak`` prints
the rule's Turtle (``-L`` follows the 303). The documents answer directly. A URN of the graph
names the same thing as its IRI: ``/urn:cts:divkg:yiyin.juan4.zh:6.3`` answers the same 303 (to
``/source/yiyin/zh/6/3.html`` …). ``/`` is the home page: the works, the concept schemes, the
SPARQL page and DTS.

A description holds every triple with the thing as subject and, in Turtle and JSON-LD, those of
the nodes it owns (the IRIs below its own: a rule's anchors, selectors, outcome, parameters),
with every IRI under the graph base mapped by :meth:`ServedGraph.local`, so links resolve on this
server. The HTML page shows the same triples and, by kind of thing, a reading view: a rule's
quote in its paragraph, its Korean rendering, conditions in plain words, outcome, compiled
SPARQL, citations (:mod:`kg.cite`), concepts and related rules; a concept's labels, scheme,
broader and narrower concepts and rules; a passage's text, URN, offsets, Korean and rules; a
work's catalogue entry and sections. Every page is SPARQL over the store; the graph being
read-only, each document is made once and then answered from memory (:data:`DOCUMENTS` at most).

A path with ``..``, control or other characters not allowed in an IRI is refused (400), one
over 512 characters too (414); an IRI the graph does not have is a 404 page.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from urllib.parse import urlsplit

import pyoxigraph as ox
import yaml
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from kg.cite import FORMATS as CITATION_FORMATS
from kg.cite import Resolver, render
from kg.compile import ATOM, NOT_SAME
from kg.match import KnowledgeGraph
from kg.serve.graph import ServedGraph
from kg.vocabulary import BASE, PREFIXES, curie

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent / "templates")
MEDIA_TYPES = {
    "html": "text/html; charset=utf-8",
    "ttl": "text/turtle; charset=utf-8",
    "jsonld": "application/ld+json",
}
ACCEPTED = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/*": "html",
    "*/*": "html",
    "text/turtle": "ttl",
    "application/x-turtle": "ttl",
    "application/ld+json": "jsonld",
    "application/json": "jsonld",
}
MAX_PATH = 512
NOT_IN_IRI = re.compile(r'[\x00-\x20\x7f-\x9f<>"{}|\\^`]')
BOUND = re.compile(r"\?reading (\S+) \?([A-Za-z]\w*) \.")
PASSAGES = {"Paragraph", "Sentence", "Note", "KoreanRendering"}
LABEL_ORDER = ("ruleId", "title", "heading", "urn", "prefLabel", "label")
REFERENCED = 200  # triples pointing at a thing that its generic page lists
DOCUMENTS = 4096  # documents kept once made, the least recently asked for dropped: every HTML page
Values = dict[tuple[str, str], tuple[str, str]]  # (scheme, label or slug) → (page, English label)


class PageError(Exception):
    """A request answered with an error page (400, 404, 406, 414)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def negotiate(accept: str | None) -> str | None:
    """The format the Accept header prefers (q-values honoured; HTML for none), None if it takes none of ours."""
    if not accept:
        return "html"
    best, best_q = None, 0.0
    for item in accept.split(","):
        media, *params = (x.strip() for x in item.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        found = ACCEPTED.get(media.lower())
        if found and q > best_q:
            best, best_q = found, q
    return best


def description_format(request: Request) -> str:
    """The description a request for a thing gets: ``?format=``, else by the Accept header."""
    fmt = request.query_params.get("format")
    if fmt is not None and fmt not in MEDIA_TYPES:
        raise PageError(400, f"no format {fmt!r}; the formats are html, ttl, jsonld")
    fmt = fmt or negotiate(request.headers.get("accept"))
    if fmt is None:
        raise PageError(406, "the Accept header takes none of text/html, text/turtle, application/ld+json")
    return fmt


def check_path(path: str) -> None:
    """Refuse a path no IRI of the graph can have: too long, ``.``/``..`` segments, characters not in IRIs."""
    if len(path) > MAX_PATH:
        raise PageError(414, f"the path is {len(path)} characters long; at most {MAX_PATH}")
    if NOT_IN_IRI.search(path) or any(part in (".", "..") for part in path.split("/")):
        raise PageError(400, "the path has a '.' or '..' segment or characters not allowed in an IRI")


@dataclass(frozen=True)
class Term:
    """An IRI (its page, label and prefixed name) or a literal (its language or datatype), as shown."""

    text: str
    href: str | None = None
    title: str | None = None
    lang: str | None = None
    datatype: str | None = None


@dataclass
class Words:
    """One condition in plain words: pieces of text (a piece with a link names a concept), sub-conditions."""

    pieces: list[tuple[str, str | None]]
    parts: list[Words] = field(default_factory=list)


@dataclass(frozen=True)
class FactWords:
    """How a chart fact (dk:ruleName) is said: its name and the label of its scheme or relation."""

    name: str
    scheme: str | None
    boolean: bool
    entity: bool

    def said(self, label: str | None) -> str:
        return f"{self.name} ({label})" if label else self.name


class Conditions:
    """A rule's conditions (``when``, dk:conditionText as written in the rule file) in plain words:
    ``H.under L`` (伏 L 下) is "H under L", ``L.relative 父母`` is "L: relative (六親) is 父母 (Parents)"
    with 父母 linked to its concept.

    The graph keeps the conditions as written, the compiled query and the concepts mentioned, but
    not the declared variable types: those are read off the query's ``?reading dk:line ?L``.
    """

    def __init__(self, kg: KnowledgeGraph, local: Callable[[str], str]) -> None:
        self.kg, self.local = kg, local
        self.facts: dict[str, tuple[FactWords, str | None]] = {}
        for row in kg.query(
            """SELECT ?name ?scheme ?range ?entity (SAMPLE(?l) AS ?label) WHERE {
                 ?p dk:ruleName ?name . FILTER NOT EXISTS { ?p a dk:VariableType }
                 OPTIONAL { ?p dk:valueScheme ?scheme }
                 OPTIONAL { ?p rdfs:range ?range } OPTIONAL { ?p dk:entityValued ?entity }
                 OPTIONAL { { ?p dk:valueScheme/skos:prefLabel ?l } UNION { ?p skos:related/skos:prefLabel ?l }
                            FILTER(langMatches(lang(?l), 'zh-Hant')) } }
               GROUP BY ?name ?scheme ?range ?entity"""
        ):
            v = {k: t.value for k, t in row.items()}
            words = FactWords(
                v["name"], v.get("scheme"), v.get("range") == PREFIXES["xsd"] + "boolean", "entity" in v
            )
            self.facts[v["name"]] = (words, v.get("label"))
        self.bound_by: dict[str, str] = {}
        self.types: dict[str, str] = {}
        for row in kg.query(
            """SELECT ?name ?bound ?zh WHERE { ?t a dk:VariableType ; dk:ruleName ?name ; dk:boundBy ?bound ;
                 dk:entityClass ?c . OPTIONAL { ?c rdfs:label ?zh FILTER(langMatches(lang(?zh), 'zh-Hant')) } }"""
        ):
            zh = f" ({row['zh'].value})" if "zh" in row else ""
            self.types[row["name"].value] = row["name"].value + zh
            self.bound_by[curie(row["bound"].value)] = row["name"].value + zh

    def variables(self, query: str) -> list[tuple[str, str]]:
        """(variable, its type in words) as the compiled query binds them, in order."""
        found = dict.fromkeys((var, self.bound_by.get(prop, prop)) for prop, var in BOUND.findall(query))
        return list(found)

    def describe(self, rule: str, text: str) -> list[Words]:
        """Each condition of ``text`` (the rule's dk:conditionText) in words."""
        values = self._values(rule)
        return [self._condition(c, values) for c in yaml.safe_load(text) or []]

    def assertion(self, rule: str, text: str) -> Words:
        """An asserted fact of a definition (``L.role 用神``) in the same words."""
        return self._atom(text, self._values(rule))

    def _values(self, rule: str) -> Values:
        """The concepts the rule mentions, by scheme and any zh-Hant label or slug."""
        index: Values = {}
        for row in self.kg.query(
            f"""SELECT ?c ?scheme ?label (SAMPLE(?e) AS ?en) WHERE {{ <{rule}> dk:mentions ?c .
                  {{ ?c skos:inScheme ?scheme }} UNION {{ ?c skos:member/skos:inScheme ?scheme }}
                  ?c skos:prefLabel|skos:altLabel|skos:hiddenLabel ?label FILTER(langMatches(lang(?label), 'zh-Hant'))
                  OPTIONAL {{ ?c skos:prefLabel ?e FILTER(langMatches(lang(?e), 'en')) }} }}
                GROUP BY ?c ?scheme ?label"""
        ):
            iri = row["c"].value
            target = (self.local(iri), row["en"].value if "en" in row else "")
            for name in (row["label"].value, iri.rsplit("/", 1)[1]):
                index[(row["scheme"].value, name)] = target
        return index

    def _condition(self, cond: str | dict, values: Values) -> Words:
        if isinstance(cond, str):
            return self._atom(cond.strip(), values)
        if "any" in cond:
            return Words([("any of:", None)], [self._all(branch, values) for branch in cond["any"]])
        if "not" in cond:
            inner = [self._condition(c, values) for c in cond["not"]]
            return Words([("not:" if len(inner) == 1 else "not all of these together:", None)], inner)
        if "count" in cond:
            lo, hi = cond.get("min"), cond.get("max")
            if lo is not None and hi is not None:
                bounds = f"between {lo} and {hi} ×"
            elif lo is not None:
                bounds = f"at least {lo} ×"
            else:
                bounds = "no" if hi == 0 else f"at most {hi} ×"
            kind = self.types.get(cond.get("type"), cond.get("type"))
            where = [self._condition(c, values) for c in cond.get("where") or []]
            return Words(
                [(f"{bounds} {kind} {cond['count']}" + (" such that:" if where else ""), None)], where
            )
        return Words([(str(cond), None)])

    def _all(self, branch: list | str, values: Values) -> Words:
        conditions = branch if isinstance(branch, list) else [branch]
        if len(conditions) == 1:
            return self._condition(conditions[0], values)
        return Words([("all of:", None)], [self._condition(c, values) for c in conditions])

    def _atom(self, text: str, values: Values) -> Words:
        if m := NOT_SAME.match(text):
            return Words([(f"{m['a']} and {m['b']} are not the same", None)])
        m = ATOM.match(text)
        if not m or m["fact"] not in self.facts:
            return Words([(text, None)])
        fact, label = self.facts[m["fact"]]
        subject, value = ("the reading" if m["subject"] == "reading" else m["subject"]), m["value"]
        if fact.entity:
            return Words([(f"{subject} {fact.said(label)} {value}", None)])
        if fact.boolean:
            negated = value in ("no", "false")
            return Words([(f"{subject} is {'not ' if negated else ''}{fact.said(label)}", None)])
        items = [v.strip() for v in (value or "").split("|")]
        pieces: list[tuple[str, str | None]] = [
            (f"{subject}: {fact.said(label)} is " + ("one of " if len(items) > 1 else ""), None)
        ]
        for i, item in enumerate(items):
            if i:
                pieces.append((", ", None))
            href, en = values.get((fact.scheme, item), (None, ""))
            pieces.append((f"{item} ({en})" if en else item, href))
        return Words(pieces)


class Pages:
    """The descriptions and pages of one served graph."""

    def __init__(self, graph: ServedGraph) -> None:
        self.graph, self.kg = graph, graph.kg
        self.resolver = Resolver(graph.kg)
        self.conditions = Conditions(graph.kg, graph.local)
        self.base_path = urlsplit(graph.base).path or "/"
        self._documents: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._lock = threading.Lock()

    # ── documents ────────────────────────────────────────────────────────────────────────
    def render(self, template: str, context: dict) -> str:
        """A page of this server: ``template`` filled with ``context`` and the server's base."""
        return TEMPLATES.get_template(template).render(
            {"base_path": self.base_path, "base": self.graph.base} | context
        )

    def made(self, iri: str, fmt: str) -> bytes | None:
        """The description of ``iri`` in ``fmt`` if it has been made, else None."""
        with self._lock:
            document = self._documents.get((iri, fmt))
            if document is not None:
                self._documents.move_to_end((iri, fmt))
            return document

    def document(self, iri: str, fmt: str) -> bytes:
        """The description of ``iri`` in ``fmt`` (a key of :data:`MEDIA_TYPES`), made and kept if it was not."""
        document = self.made(iri, fmt)
        if document is None:
            document = self.serialise(iri, fmt) if fmt != "html" else self.render(*self.context(iri)).encode()
            with self._lock:
                self._documents[(iri, fmt)] = document
                if len(self._documents) > DOCUMENTS:
                    self._documents.popitem(last=False)
        return document

    @cached_property
    def home_page(self) -> bytes:
        """The home page (``/``), made once."""
        return self.render("home.html", self.home()).encode()

    # ── the graph's triples ──────────────────────────────────────────────────────────────
    def known(self, iri: str) -> bool:
        try:
            node = ox.NamedNode(iri)
        except ValueError:
            return False
        patterns = ((node, None, None), (None, node, None), (None, None, node))
        return any(next(self.kg.store.quads_for_pattern(*p), None) is not None for p in patterns)

    def triples(self, iri: str) -> list[ox.Triple]:
        """The thing's triples and those of the nodes it owns (IRIs below its own), IRIs mapped to local."""
        found, todo, seen = set(), [iri], set()
        while todo:
            subject = todo.pop()
            seen.add(subject)
            for q in self.kg.store.quads_for_pattern(ox.NamedNode(subject), None, None):
                found.add(ox.Triple(q.subject, q.predicate, q.object))
                o = q.object
                if isinstance(o, ox.NamedNode) and o.value.startswith(iri + "/") and o.value not in seen:
                    todo.append(o.value)
        return sorted((ox.Triple(*map(self._mapped, t)) for t in found), key=str)

    def _mapped(self, term: ox.NamedNode | ox.Literal) -> ox.NamedNode | ox.Literal:
        return ox.NamedNode(self.graph.local(term.value)) if isinstance(term, ox.NamedNode) else term

    def serialise(self, iri: str, fmt: str) -> bytes:
        """The description as Turtle (with the prefixes it uses) or JSON-LD."""
        triples = self.triples(iri)
        if fmt == "jsonld":
            return ox.serialize(triples, format=ox.RdfFormat.JSON_LD)
        used = {t.value for triple in triples for t in triple if isinstance(t, ox.NamedNode)}
        namespaces = {p: self.graph.local(ns) for p, ns in PREFIXES.items()}
        prefixes = {p: ns for p, ns in namespaces.items() if any(i.startswith(ns) for i in used)}
        return ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=prefixes)

    def labels(self, iris: Iterable[str]) -> dict[str, str]:
        """A short label per IRI: rule id, zh-Hant title or heading, URN, zh-Hant prefLabel, rdfs:label (zh-Hant first)."""
        iris = sorted(set(iris))
        if not iris:
            return {}
        values = " ".join(f"<{i}>" for i in iris)
        found: dict[str, dict[str, str]] = {}
        for row in self.kg.query(
            f"""SELECT ?x ?kind ?l WHERE {{ VALUES ?x {{ {values} }}
                  {{ ?x dk:ruleId ?l BIND("ruleId" AS ?kind) }} UNION {{ ?x dk:urn ?l BIND("urn" AS ?kind) }}
                  UNION {{ ?x dcterms:title ?l BIND("title" AS ?kind) FILTER(langMatches(lang(?l), 'zh-Hant')) }}
                  UNION {{ ?x dk:heading ?l BIND("heading" AS ?kind) FILTER(langMatches(lang(?l), 'zh-Hant')) }}
                  UNION {{ ?x skos:prefLabel ?l BIND("prefLabel" AS ?kind) FILTER(langMatches(lang(?l), 'zh-Hant')) }}
                  UNION {{ ?x rdfs:label ?l BIND("label" AS ?kind) }} }} ORDER BY DESC(lang(?l))"""
        ):
            found.setdefault(row["x"].value, {}).setdefault(row["kind"].value, row["l"].value)
        return {i: next((found[i][k] for k in LABEL_ORDER if k in found.get(i, {})), curie(i)) for i in iris}

    def term(self, iri: str, text: str) -> Term:
        """A link to the thing's page on this server, reading ``text``."""
        return Term(text, self.graph.local(iri), curie(iri))

    def link(self, iri: str, text: str | None = None) -> Term:
        return self.term(iri, text or self.labels([iri])[iri])

    def links(self, iris: Iterable[str]) -> list[Term]:
        labels = self.labels(iris)
        return sorted((self.term(i, labels[i]) for i in labels), key=lambda t: (t.text, t.title))

    def statements(self, iri: str) -> list[tuple[Term, Term]]:
        """(predicate, object) of every triple with the thing as subject."""
        quads = {
            (q.predicate.value, q.object)
            for q in self.kg.store.quads_for_pattern(ox.NamedNode(iri), None, None)
        }
        labels = self.labels(
            [p for p, _ in quads] + [o.value for _, o in quads if isinstance(o, ox.NamedNode)]
        )
        rows = []
        for p, o in quads:
            predicate = Term(curie(p), self.graph.local(p), p)
            if isinstance(o, ox.NamedNode):
                value = self.term(o.value, labels[o.value])
            else:
                value = Term(
                    o.value, lang=o.language, datatype=None if o.language else curie(o.datatype.value)
                )
            rows.append((predicate, value))
        return sorted(rows, key=lambda r: (r[0].text, r[1].text))

    def _one(self, query: str) -> dict[str, str]:
        rows = self.kg.query(query)
        return {k: t.value for k, t in rows[0].items()} if rows else {}

    def rules(self, pattern: str) -> list[dict]:
        """The rules ?r matching a SPARQL pattern: link, quote and polarity, by id."""
        # the outcome outside the OPTIONAL (every rule has one): so Oxigraph joins from the pattern's few
        # rules, not from every rule's polarity (0.4 ms, not 5)
        rows = self.kg.query(
            f"""SELECT ?r ?id ?quote (SAMPLE(?p) AS ?pol) WHERE {{ {pattern}
                  ?r dk:ruleId ?id ; rdfs:label ?quote ; dk:outcome ?out .
                  OPTIONAL {{ ?out dk:polarity/skos:prefLabel ?p FILTER(langMatches(lang(?p), 'zh-Hant')) }} }}
                GROUP BY ?r ?id ?quote ORDER BY ?id"""
        )
        return [
            {
                "link": self.term(r["r"].value, r["id"].value),
                "quote": r["quote"].value,
                "polarity": r["pol"].value if "pol" in r else "",
            }
            for r in rows
        ]

    # ── pages by kind ────────────────────────────────────────────────────────────────────
    def context(self, iri: str) -> tuple[str, dict]:
        """The template and its context for the thing's page, by its rdf:type."""
        types = [r["k"].value for r in self.kg.query(f"SELECT ?k WHERE {{ <{iri}> a ?k }}")]
        kinds = {t.removeprefix(BASE).removeprefix(PREFIXES["skos"]) for t in types}
        context = {
            "iri": iri,
            "local": self.graph.local(iri),
            "title": self.labels([iri])[iri],
            "kinds": self.links(types),
            "statements": self.statements(iri),
        }
        if "Rule" in kinds:
            return "rule.html", context | self.rule(iri)
        if kinds & {"Concept", "Collection"}:
            return "concept.html", context | self.concept(iri)
        if kinds & PASSAGES:
            return "passage.html", context | self.passage(iri, kinds)
        if "Work" in kinds:
            return "work.html", context | self.work(iri)
        return "resource.html", context | {"referenced": self.referenced(iri), "limit": REFERENCED}

    def referenced(self, iri: str) -> list[tuple[Term, Term]]:
        """(subject, predicate) of triples with the thing as object: a scheme's concepts, a class's instances."""
        rows = self.kg.query(
            f"SELECT DISTINCT ?s ?p WHERE {{ ?s ?p <{iri}> FILTER(isIRI(?s)) }} ORDER BY ?p ?s LIMIT {REFERENCED}"
        )
        labels = self.labels(r["s"].value for r in rows)
        return [
            (
                self.term(r["s"].value, labels[r["s"].value]),
                self.link(r["p"].value, curie(r["p"].value)),
            )
            for r in rows
        ]

    def rule(self, iri: str) -> dict:
        """A rule (斷語): its quotes in their paragraphs with the Korean, conditions, outcome, SPARQL,
        citations, concepts and related rules."""
        head = self._one(
            f"""SELECT * WHERE {{ <{iri}> dk:ruleId ?id ; dk:work ?work ; dk:topic ?topic .
                  OPTIONAL {{ <{iri}> dk:conditionText ?conditions }} OPTIONAL {{ <{iri}> dk:query ?query }}
                  OPTIONAL {{ <{iri}> dk:construct ?construct }} OPTIONAL {{ <{iri}> dk:note ?note }}
                  OPTIONAL {{ <{iri}> dk:reason ?reason }} OPTIONAL {{ <{iri}> dk:caseOf ?case }}
                  OPTIONAL {{ <{iri}> dk:template ?template . ?template dk:query ?templateQuery .
                              <{iri}> dk:templateArguments ?arguments }} }}"""
        )
        anchors = []
        for r in self.kg.query(
            f"""SELECT ?para ?text ?pstart ?urn ?exact ?start ?end ?ko ?kurn WHERE {{
                  <{iri}> dk:anchor ?a . ?a dk:order ?o ; dk:paragraph ?para ; oa:hasSelector ?q , ?pos .
                  ?q oa:exact ?exact . ?pos oa:start ?start ; oa:end ?end .
                  ?para dk:text ?text ; dk:start ?pstart ; dk:urn ?urn ; dk:koreanRendering ?k .
                  ?k dk:text ?ko ; dk:urn ?kurn }} ORDER BY ?o"""
        ):
            v = {k: t.value for k, t in r.items()}
            a, b = int(v["start"]) - int(v["pstart"]), int(v["end"]) - int(v["pstart"])
            anchors.append(
                v
                | {
                    "link": self.link(v["para"], v["urn"]),
                    "before": v["text"][:a],
                    "quote": v["text"][a:b],
                    "after": v["text"][b:],
                }
            )
        outcome = self._one(
            f"""SELECT ?pol ?zh ?en WHERE {{ <{iri}> dk:outcome ?out .
                  OPTIONAL {{ ?out dk:polarity ?pol }} OPTIONAL {{ ?out dk:wording ?zh }} OPTIONAL {{ ?out dk:gloss ?en }} }}"""
        )
        parameters = [
            {k: t.value for k, t in r.items()}
            for r in self.kg.query(
                f"""SELECT ?name ?variable ?property ?procedure WHERE {{ <{iri}> dk:outcome/dk:parameter ?x .
                      ?x dk:name ?name ; dk:variable ?variable .
                      OPTIONAL {{ ?x dk:property ?property }} OPTIONAL {{ ?x dk:procedure ?procedure }} }} ORDER BY ?name"""
            )
        ]
        asserts = [
            r["a"].value for r in self.kg.query(f"SELECT ?a WHERE {{ <{iri}> dk:asserts ?a }} ORDER BY ?a")
        ]
        citation = self.resolver.cite(head["id"])
        same = (
            f"<{iri}> dk:anchor/dk:paragraph ?para . ?r dk:anchor/dk:paragraph ?para . FILTER(?r != <{iri}>)"
        )
        return {
            "rule": head,
            "work": self.link(head["work"]),
            "topic": self.link(head["topic"]),
            "reason": self.link(head["reason"]) if "reason" in head else None,
            "template": self.link(head["template"]) if "template" in head else None,
            "anchors": anchors,
            "outcome": outcome,
            "polarity": self.link(outcome["pol"]) if "pol" in outcome else None,
            "parameters": parameters,
            "variables": self.conditions.variables(head.get("query", "")),
            "conditions": self.conditions.describe(iri, head["conditions"]) if "conditions" in head else [],
            "asserts": [self.conditions.assertion(iri, a) for a in asserts],
            "citations": {fmt: render(citation, fmt) for fmt in CITATION_FORMATS},
            "mentions": self.links(
                r["c"].value for r in self.kg.query(f"SELECT ?c WHERE {{ <{iri}> dk:mentions ?c }}")
            ),
            "related": {
                "from the same paragraph": self.rules(same),
                "exceptions overriding it": self.rules(f"?r dk:overrides <{iri}> ."),
                "overridden by it": self.rules(f"<{iri}> dk:overrides ?r ."),
                "cases of the same sentence": self.rules(
                    f"<{iri}> dk:caseOf ?case . ?r dk:caseOf ?case . FILTER(?r != <{iri}>)"
                ),
            },
        }

    def concept(self, iri: str) -> dict:
        """A concept (白虎, 官鬼 …) or a class of them (凶將): labels, scheme, broader, narrower, and the
        rules that mention it or have it as their topic (占事)."""
        labels = [
            {"kind": r["p"].value.rsplit("#", 1)[1], "lang": r["l"].language, "text": r["l"].value}
            for r in self.kg.query(
                f"""SELECT ?p ?l WHERE {{ VALUES ?p {{ skos:prefLabel skos:altLabel skos:hiddenLabel }} <{iri}> ?p ?l }}
                    ORDER BY ?p ?l"""
            )
        ]
        related = {
            name: self.links(r["x"].value for r in self.kg.query(f"SELECT ?x WHERE {{ {pattern} }}"))
            for name, pattern in (
                ("scheme", f"<{iri}> skos:inScheme|skos:topConceptOf ?x"),
                ("broader", f"<{iri}> skos:broader ?x"),
                ("narrower", f"?x skos:broader <{iri}>"),
                ("members", f"<{iri}> skos:member ?x"),
                ("member of", f"?x skos:member <{iri}>"),
            )
        }
        return {
            "labels": labels,
            "related": related,
            "rules": self.rules(f"?r dk:mentions|dk:topic <{iri}> ."),
        }

    def passage(self, iri: str, kinds: set[str]) -> dict:
        """A paragraph (段), sentence (句), note (注) or Korean rendering (韓譯): text, URN, offsets,
        the Korean of its paragraph, its segments and the rules quoting it."""
        korean = "KoreanRendering" in kinds
        paragraph = (
            self._one(f"SELECT ?p WHERE {{ ?p dk:koreanRendering <{iri}> }}")["p"]
            if korean
            else self._one(f"SELECT ?p WHERE {{ OPTIONAL {{ <{iri}> dk:paragraph ?p }} }}").get("p", iri)
        )
        own = self._one(
            f"SELECT ?text ?urn ?start ?end WHERE {{ <{iri}> dk:text ?text ; dk:urn ?urn ; dk:start ?start ; dk:end ?end }}"
        )
        para = self._one(
            f"""SELECT ?n ?work ?section ?heading ?start ?end ?k ?ko ?kurn WHERE {{
                  <{paragraph}> dk:paragraphNumber ?n ; dk:work ?work ; dk:section ?section ; dk:start ?start ;
                    dk:end ?end ; dk:koreanRendering ?k . ?section dk:heading ?heading . ?k dk:text ?ko ; dk:urn ?kurn }}"""
        )
        span = (para["start"], para["end"]) if korean else (own["start"], own["end"])
        parts = [
            {"link": self.link(r["s"].value, r["urn"].value), "text": r["text"].value}
            for r in self.kg.query(
                f"SELECT ?s ?urn ?text WHERE {{ ?s dcterms:isPartOf <{iri}> ; dk:urn ?urn ; dk:text ?text ; dk:start ?a }} ORDER BY ?a"
            )
        ]
        around = {
            name: self.links(r["x"].value for r in self.kg.query(f"SELECT ?x WHERE {{ {pattern} }}"))
            for name, pattern in (
                ("part of", f"<{iri}> dcterms:isPartOf ?x"),
                ("annotates", f"<{iri}> dk:annotates ?x"),
                ("annotated by", f"?x dk:annotates <{iri}>"),
            )
        }
        quoting = f"""?r dk:anchor ?a . ?a dk:paragraph <{paragraph}> ; oa:hasSelector ?pos .
                      ?pos oa:start ?a0 ; oa:end ?b0 . FILTER(?a0 < {span[1]} && ?b0 > {span[0]})"""
        return {
            "passage": own,
            "lang": "ko" if korean else "zh-Hant",
            "work": self.link(para["work"]),
            "section": self.link(para["section"], para["heading"]),
            "paragraph": self.link(paragraph) if paragraph != iri else None,
            "paragraph_number": para["n"],
            "korean": None if korean else {"link": self.link(para["k"], para["kurn"]), "text": para["ko"]},
            "parts": parts,
            "around": around,
            "rules": self.rules(quoting),
        }

    def work(self, iri: str) -> dict:
        """A work (典籍): its catalogue entry and its sections with their paragraphs."""
        entry = self._one(
            f"""SELECT * WHERE {{ <{iri}> dcterms:title ?title , ?title_en ; dk:responsibility ?responsibility ;
                  dk:dynasty ?dynasty ; dcterms:date ?date ; dk:part ?part ; dk:citation ?citation ;
                  dk:witness ?witness ; dk:urn ?urn ; dk:sourceFile ?source ; dk:sha256 ?sha256 ; dk:heading ?heading ;
                  dk:system/skos:prefLabel ?system .
                  FILTER(langMatches(lang(?title), 'zh-Hant') && langMatches(lang(?title_en), 'en')
                         && langMatches(lang(?system), 'zh-Hant')) }}"""
        )
        paragraphs: dict[str, list[Term]] = {}
        for r in self.kg.query(
            f"""SELECT ?s ?p ?n WHERE {{ ?p a dk:Paragraph ; dk:work <{iri}> ; dk:section ?s ; dk:paragraphNumber ?n }}
                ORDER BY ?n"""
        ):
            paragraphs.setdefault(r["s"].value, []).append(self.term(r["p"].value, f"¶{r['n'].value}"))
        sections = [
            {
                "heading": r["heading"].value,
                "link": self.link(r["s"].value, r["heading"].value),
                "topic": self.link(r["topic"].value),
                "first": r["first"].value,
                "last": r["last"].value,
                "paragraphs": paragraphs.get(r["s"].value, []),
            }
            for r in self.kg.query(
                f"""SELECT ?s ?heading ?topic ?first ?last WHERE {{ ?s a dk:Section ; dk:work <{iri}> ; dk:heading ?heading ;
                      dk:topic ?topic ; dk:firstParagraph ?first ; dk:lastParagraph ?last }} ORDER BY ?first"""
            )
        ]
        rules = self._one(f"SELECT (COUNT(?r) AS ?n) WHERE {{ ?r a dk:Rule ; dk:work <{iri}> }}")["n"]
        return {"entry": entry, "sections": sections, "rule_count": rules}

    def home(self) -> dict:
        """The works, the concept schemes, the SPARQL page and DTS."""
        works = [
            {"link": self.link(r["w"].value, r["title"].value), "en": r["en"].value, "by": r["by"].value}
            for r in self.kg.query(
                """SELECT ?w ?title ?en ?by WHERE { ?w a dk:Work ; dcterms:title ?title , ?en ; dk:responsibility ?by .
                     FILTER(langMatches(lang(?title), 'zh-Hant') && langMatches(lang(?en), 'en')) } ORDER BY ?w"""
            )
        ]
        schemes = [
            {"link": self.link(r["s"].value), "en": r["en"].value if "en" in r else "", "count": r["n"].value}
            for r in self.kg.query(
                """SELECT ?s (SAMPLE(?e) AS ?en) (COUNT(DISTINCT ?c) AS ?n) WHERE { ?s a skos:ConceptScheme .
                     OPTIONAL { ?s skos:prefLabel ?e FILTER(langMatches(lang(?e), 'en')) } OPTIONAL { ?c skos:inScheme ?s } }
                   GROUP BY ?s ORDER BY ?s"""
            )
        ]
        return {"works": works, "schemes": schemes}


def routes(graph: ServedGraph) -> list[BaseRoute]:
    """``/`` and every other path. A document already made is answered on the event loop; one to be made
    is made in Starlette's thread pool, so that the SPARQL work of a page does not stall other requests."""
    pages = Pages(graph)

    def error(exc: PageError) -> Response:
        page = pages.render("error.html", {"status": exc.status, "message": str(exc)})
        return Response(page, status_code=exc.status, media_type=MEDIA_TYPES["html"])

    def home(request: Request) -> Response:
        return Response(pages.home_page, media_type=MEDIA_TYPES["html"])

    async def resource(request: Request) -> Response:
        path = request.path_params["path"]
        try:
            check_path(path)
            iri = pages.resolver.by_urn.get(path, BASE + path)
            if pages.known(iri):
                fmt = description_format(request)
                return RedirectResponse(
                    f"{graph.local(iri)}.{fmt}", status_code=303, headers={"Vary": "Accept"}
                )
            stem, _, fmt = iri.rpartition(".")
            if fmt not in MEDIA_TYPES or not pages.known(stem):
                raise PageError(404, f"the graph has no {iri}")
        except PageError as exc:
            return error(exc)
        document = pages.made(stem, fmt)
        if document is None:
            document = await run_in_threadpool(pages.document, stem, fmt)
        return Response(document, media_type=MEDIA_TYPES[fmt])

    return [Route("/", home), Route("/{path:path}", resource)]
