"""What every chart asserts as RDF, whichever the system (六爻 or 大六壬).

:class:`FactBuilder` collects the triples of one reading: entity IRIs under the reading IRI, the
entity links (``dk:entity`` and the type's own link), the calendar record, the options, and the
relations 生 克 比和 (by element) and 沖 合 刑 害 破 並 (by branch) between every ordered pair of
distinct entities. The system modules (kg.liuyao.facts, kg.liuren.facts) add their own facts.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields
from datetime import datetime

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF

from kg.calendar import CalendarRecord, Term
from kg.errors import InputError
from kg.ganzhi import Branch, Element, breaks, clashes, combines, harms, punishes
from kg.vocabulary import DK, PREFIXES, concept


def _table(relations) -> tuple[tuple[tuple[URIRef, ...], ...], ...]:
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


def boolean(value: bool) -> Literal:
    return Literal(bool(value))


def reading_iri(name: str | None, system: str, inputs: str) -> URIRef:
    """``reading:<name>``, or by default ``reading:<system>-<hash of the inputs>`` so a chart keeps its IRI."""
    if name is None:
        name = f"{system}-" + hashlib.sha256(inputs.encode()).hexdigest()[:12]
    if not name or any(not (c.isalnum() or c in "-_.") for c in name):
        raise InputError(f"reading name {name!r}: use letters, digits, '-', '_' and '.' only")
    return URIRef(PREFIXES["reading"] + name)


class FactBuilder:
    """Accumulates the triples of one reading."""

    def __init__(self, reading: URIRef) -> None:
        self.reading = reading
        self.base = str(reading).rstrip("/")
        self.triples: list[tuple[URIRef, URIRef, URIRef | Literal]] = []
        self.entities: list[tuple[URIRef, Branch | None, Element]] = []

    def iri(self, *path: object) -> URIRef:
        return URIRef("/".join((self.base, *map(str, path))))

    def add(self, subject: URIRef, predicate: URIRef, value: URIRef | Literal) -> None:
        self.triples.append((subject, predicate, value))

    def entity(
        self, iri: URIRef, cls: URIRef, label: str, link: URIRef, branch: Branch | None, element: Element
    ) -> None:
        """Type, label, element and reading links (``link`` and dk:entity) of an entity; a 干 has no branch."""
        self.add(iri, RDF.type, cls)
        self.add(iri, DK.label, Literal(label))
        self.add(iri, DK.element, concept("el", element.slug))
        self.add(self.reading, link, iri)
        self.add(self.reading, DK.entity, iri)
        self.entities.append((iri, branch, element))

    def calendar(self, record: CalendarRecord | None, zhongqi: Term | None = None) -> None:
        """Where the pillars came from; dk:nearSolarTerm within a minute of a 節, or when a 中氣
        within a minute (``zhongqi``) is given."""
        if record is None:
            self.add(self.reading, DK.pillarsGiven, boolean(True))
            self.add(self.reading, DK.nearSolarTerm, boolean(False))
            return
        moment: datetime | None = record.moment
        near = record.near_jie or zhongqi is not None
        self.add(self.reading, DK.pillarsGiven, boolean(record.pillars_given))
        self.add(self.reading, DK.nearSolarTerm, boolean(near))
        if moment is not None:
            self.add(self.reading, DK.moment, Literal(moment))
        for predicate, value in (
            (DK.timeZone, record.timezone),
            (DK.calendarLibrary, record.library),
            (DK.ziHourRule, record.zi_hour_rule),
        ):
            if value is not None:
                self.add(self.reading, predicate, Literal(str(value)))

    def options(self, options: object) -> None:
        """One dk:option node per field of a frozen Options dataclass."""
        for field in fields(options):
            option = self.iri("option", field.name)
            self.add(self.reading, DK.option, option)
            self.add(option, DK.name, Literal(field.name))
            self.add(option, RDF.value, Literal(str(getattr(options, field.name))))

    def relations(self) -> None:
        """生 克 比和 for every ordered pair of distinct entities; 沖 合 刑 害 破 並 where both have a branch."""
        for a, a_branch, a_element in self.entities:
            for b, b_branch, b_element in self.entities:
                if a == b:
                    continue
                for predicate in ELEMENT_RELATIONS[a_element][b_element]:
                    self.add(a, predicate, b)
                if a_branch is not None and b_branch is not None:
                    for predicate in BRANCH_RELATIONS[a_branch][b_branch]:
                        self.add(a, predicate, b)

    def graph(self) -> Graph:
        """The triples as a graph (a context-free store: faster to fill than rdflib's default)."""
        graph = Graph(store="SimpleMemory")
        for prefix, namespace in PREFIXES.items():
            graph.bind(prefix, namespace)
        graph.addN((s, p, o, graph) for s, p, o in self.triples)
        return graph
