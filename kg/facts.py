"""What every chart asserts as RDF, whichever the system (六爻 or 大六壬).

:class:`FactBuilder` collects the triples of one reading as pyoxigraph terms: entity IRIs under the
reading IRI, the entity links (``dk:entity`` and the type's own link), the calendar record, the
options, and the relations 生 克 比和 (by element) and 沖 合 刑 害 破 並 (by branch) between every
ordered pair of distinct entities. The system modules (kg.liuyao.facts, kg.liuren.facts) add their
own facts. The result, :class:`Facts`, goes into retrieval's store as pyoxigraph quads
(:class:`kg.match.Reading`) and becomes an rdflib Graph only for Turtle output and the Python API
(:meth:`Facts.graph`), both from the same triples.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cache
from itertools import starmap
from typing import TYPE_CHECKING

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef

from kg.calendar import CalendarRecord, Term
from kg.errors import InputError
from kg.ganzhi import Branch, Element, GanZhi, Stem, breaks, clashes, combines, harms, punishes
from kg.paths import ONTOLOGY
from kg.six_relatives import Relative
from kg.vocabulary import BASE, PREFIXES

XSD = "http://www.w3.org/2001/XMLSchema#"

Node = ox.NamedNode | ox.Literal
Triple = tuple[ox.NamedNode, ox.NamedNode, Node]


class Namespace:
    """The IRIs of a vocabulary as pyoxigraph nodes, one attribute per term: ``DK.label``.

    The terms are fixed when it is made, so a misspelt term fails where it is read instead of
    asserting an IRI no shape knows, and reading one is a plain attribute (a class with
    ``__getattr__`` makes every read slower, and the chart facts read about a thousand a chart).
    """

    def __init__(self, base: str, names: Iterable[str]) -> None:
        for name in names:
            setattr(self, name, ox.NamedNode(base + name))

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> ox.NamedNode: ...


DECLARED = re.compile(r"^dk:([\w-]+)", re.MULTILINE)
"""A term ontology/divkg.ttl declares: each term's description begins a line (``dk:label a owl:…``)."""

DK = Namespace(BASE, DECLARED.findall((ONTOLOGY / "divkg.ttl").read_text(encoding="utf-8")))
"""The dk: vocabulary (ontology/divkg.ttl) as pyoxigraph nodes."""
RDF = Namespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#", ("type", "value"))

TRUE, FALSE = ox.Literal(True), ox.Literal(False)


BOOLEAN = (FALSE, TRUE)
"""``false`` and ``true`` by a bool: ``BOOLEAN[line.moving]``."""


@cache
def concept(prefix: str, slug: str) -> ox.NamedNode:
    """The node of a concept, e.g. ``concept("br", "zi")`` (kg.vocabulary.concept as pyoxigraph)."""
    return ox.NamedNode(PREFIXES[prefix] + slug)


BRANCHES = tuple(concept("br", b.slug) for b in Branch)
STEMS = tuple(concept("stem", s.slug) for s in Stem)
ELEMENTS = tuple(concept("el", e.slug) for e in Element)
YIN_YANG = (concept("yy", "yin"), concept("yy", "yang"))
GANZHI = tuple(concept("gz", GanZhi.from_index(i).slug) for i in range(60))
"""The concepts of 地支, 天干, 五行, 陰陽 and 干支 by their index (陰 0, 陽 1; 甲子 0)."""
RELATIVES = tuple(concept("rel", r.slug) for r in Relative)
"""The concepts of the 六親 by their index (兄弟 0 … 父母 4)."""
GANZHI_OF = tuple(tuple(GANZHI[GanZhi(s, b).index] if s % 2 == b % 2 else None for b in Branch) for s in Stem)
"""The 干支 concept of a stem and a branch, ``[stem][branch]`` (None where their 陰陽 differ)."""

PILLAR_LINKS = {"year": DK.yearPillar, "month": DK.monthPillar, "day": DK.dayPillar, "hour": DK.hourPillar}
PILLAR_KINDS = {role: concept("pillar", role) for role in PILLAR_LINKS}
"""The reading's link to each of its pillars (年 月 日 時), and the pillar's kind."""

QUERENT_FACTS: dict[str, tuple[ox.NamedNode, str, dict[str, str]]] = {
    "status": (DK.querentStatus, "status", {"已遷": "moved", "未遷": "not-moved"}),
    "purpose": (DK.querentPurpose, "purpose", {"公": "public", "私": "private"}),
    "sex": (DK.querentSex, "sex", {"男": "male", "女": "female"}),
    "occupation": (
        DK.querentOccupation,
        "occupation",
        {"為官": "official", "漁獵": "fishing-hunting", "技藝": "crafts"},
    ),
}
"""The querent facts the texts condition on, by key: the reading property, the concept prefix
(kg.vocabulary) and the written values → concept slugs: 已遷/未遷 (《易隱》 遷移占), 公/私 (《黃金策》
¶4), the querent's sex (《黃金策》 六親, 《直指》 ¶42 妻占) and calling (《黃金策》 ¶112, 《直指》 ¶32, ¶36);
ontology/concepts/huangjince-facts.ttl, docs/liuyao-doctrine.md §7.9. Each system asks the keys its
texts use."""


def _table(relations) -> tuple[tuple[tuple[ox.NamedNode, ...], ...], ...]:
    return tuple(
        tuple(tuple(p for p, holds in relations(a, b) if holds) for b in range(12)) for a in range(12)
    )


BRANCH_RELATIONS = _table(
    lambda a, b: (
        (DK.chong, clashes(Branch(a), Branch(b))),
        (DK.he, combines(Branch(a), Branch(b))),
        (DK.xing, punishes(Branch(a), Branch(b))),
        (DK.hai, harms(Branch(a), Branch(b))),
        (DK.po, breaks(Branch(a), Branch(b))),
        (DK.bing, a == b),
    )
)
"""沖 合 刑 害 破 並 from branch a to branch b, ``[a][b]`` (the tables of kg.ganzhi)."""

ELEMENT_RELATIONS = tuple(
    tuple(
        tuple(
            p
            for p, holds in ((DK.sheng, a.generates(b)), (DK.ke, a.overcomes(b)), (DK.bihe, a == b))
            if holds
        )
        for b in Element
    )
    for a in Element
)
"""生 克 比和 from element a to element b, ``[a][b]``."""


def _relation_code(branch: Branch | None, element: Element) -> int:
    return element * 13 + (12 if branch is None else branch)


RELATIONS = tuple(
    tuple(
        ELEMENT_RELATIONS[a // 13][b // 13]
        + (BRANCH_RELATIONS[a % 13][b % 13] if a % 13 < 12 and b % 13 < 12 else ())
        for b in range(65)
    )
    for a in range(65)
)
"""Every relation from entity a to entity b, ``[a][b]`` by :func:`_relation_code` (element and
branch, or no branch)."""


def reading_iri(name: str | None, system: str, inputs: str) -> URIRef:
    """``reading:<name>``, or by default ``reading:<system>-<hash of the inputs>`` so a chart keeps its IRI."""
    if name is None:
        name = f"{system}-" + hashlib.sha256(inputs.encode()).hexdigest()[:12]
    elif not name or any(not (c.isalnum() or c in "-_.") for c in name):
        raise InputError(f"reading name {name!r}: use letters, digits, '-', '_' and '.' only")
    return URIRef(PREFIXES["reading"] + name)


def to_rdflib(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> URIRef | Literal:
    """The rdflib term of a pyoxigraph IRI or literal (a plain literal has no datatype in rdflib)."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        if term.language is not None:
            return Literal(term.value, lang=term.language)
        datatype = term.datatype.value
        return Literal(term.value, datatype=None if datatype == XSD + "string" else URIRef(datatype))
    raise TypeError(f"chart facts have no blank nodes: {term}")


@dataclass(frozen=True)
class Facts:
    """The facts of one reading, as triples of pyoxigraph terms (no blank nodes)."""

    triples: list[Triple]

    def quads(self) -> list[ox.Quad]:
        """The facts as quads of the default graph, for an Oxigraph store."""
        return list(starmap(ox.Quad, self.triples))

    def graph(self) -> Graph:
        """The facts as an rdflib graph (a context-free store: faster to fill than rdflib's default)."""
        graph = Graph(store="SimpleMemory")
        for prefix, namespace in PREFIXES.items():
            graph.bind(prefix, namespace)
        terms: dict[Node, URIRef | Literal] = {}
        for triple in self.triples:
            for term in triple:
                if term not in terms:
                    terms[term] = to_rdflib(term)
        graph.addN((terms[s], terms[p], terms[o], graph) for s, p, o in self.triples)
        return graph


@cache
def _option_literals(options: object) -> tuple[tuple[str, ox.Literal, ox.Literal], ...]:
    """Each field of a frozen Options dataclass: its path under the reading, and its name and value as literals."""
    return tuple(
        (f"option/{f.name}", ox.Literal(f.name), ox.Literal(str(getattr(options, f.name))))
        for f in fields(options)
    )


class FactBuilder:
    """Accumulates the triples of one reading."""

    def __init__(self, reading: URIRef) -> None:
        self.reading = ox.NamedNode(str(reading))
        self.base = str(reading).rstrip("/")
        self.triples: list[Triple] = []
        self.entities: list[tuple[ox.NamedNode, Branch | None, Element]] = []

    def iri(self, path: str) -> ox.NamedNode:
        """``<reading>/<path>``; each entity's IRI is made once, so entities are told apart by identity."""
        return ox.NamedNode(f"{self.base}/{path}")

    def add(self, subject: ox.NamedNode, predicate: ox.NamedNode, value: Node) -> None:
        self.triples.append((subject, predicate, value))

    def entity(
        self,
        iri: ox.NamedNode,
        cls: ox.NamedNode,
        label: str,
        link: ox.NamedNode,
        branch: Branch | None,
        element: Element,
    ) -> None:
        """Type, label, element and reading links (``link`` and dk:entity) of an entity; a 干 has no branch."""
        self.triples += (
            (iri, RDF.type, cls),
            (iri, DK.label, ox.Literal(label)),
            (iri, DK.element, ELEMENTS[element]),
            (self.reading, link, iri),
            (self.reading, DK.entity, iri),
        )
        self.entities.append((iri, branch, element))

    def calendar(self, record: CalendarRecord | None, zhongqi: Term | None = None) -> None:
        """Where the pillars came from; dk:nearSolarTerm within a minute of a 節, or when a 中氣
        within a minute (``zhongqi``) is given."""
        r = self.reading
        if record is None:
            self.triples += ((r, DK.pillarsGiven, TRUE), (r, DK.nearSolarTerm, FALSE))
            return
        near = record.near_jie or zhongqi is not None
        self.triples += (
            (r, DK.pillarsGiven, BOOLEAN[record.pillars_given]),
            (r, DK.nearSolarTerm, BOOLEAN[near]),
        )
        if record.moment is not None:
            moment = ox.Literal(record.moment.isoformat(), datatype=ox.NamedNode(XSD + "dateTime"))
            self.add(r, DK.moment, moment)
        for predicate, value in (
            (DK.timeZone, record.timezone),
            (DK.calendarLibrary, record.library),
            (DK.ziHourRule, record.zi_hour_rule),
        ):
            if value is not None:
                self.add(r, predicate, ox.Literal(str(value)))
        for broken in record.inconsistencies:
            self.add(r, DK.inconsistentPillars, ox.Literal(broken))

    def querent(self, given: dict[str, str], keys: tuple[str, ...]) -> None:
        """The querent facts ``given`` (keys of :data:`QUERENT_FACTS` among ``keys``) on the reading."""
        for key, value in given.items():
            if key not in keys:
                raise InputError(f"querent {key!r}: this system asks only {', '.join(keys)}")
            prop, prefix, slugs = QUERENT_FACTS[key]
            if value not in slugs:
                raise InputError(f"querent {key} {value!r}: expected {' or '.join(slugs)}")
            self.add(self.reading, prop, concept(prefix, slugs[value]))

    def options(self, options: object) -> None:
        """One dk:option node per field of a frozen Options dataclass."""
        for path, name, value in _option_literals(options):
            option = self.iri(path)
            self.triples += (
                (self.reading, DK.option, option),
                (option, DK.name, name),
                (option, RDF.value, value),
            )

    def relations(self) -> None:
        """生 克 比和 for every ordered pair of distinct entities; 沖 合 刑 害 破 並 where both have a branch."""
        codes = [(iri, _relation_code(branch, element)) for iri, branch, element in self.entities]
        rows = [(iri, RELATIONS[code]) for iri, code in codes]
        self.triples += [(a, p, b) for a, row in rows for b, other in codes if b is not a for p in row[other]]

    def facts(self) -> Facts:
        return Facts(self.triples)
