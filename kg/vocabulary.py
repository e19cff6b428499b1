"""The vocabulary: ontology/*.ttl loaded once, with label lookup and the chart-fact definitions.

Concept schemes carry zh-Hant, ko and en labels; rule files name concepts by any zh-Hant
label (prefLabel, altLabel or hiddenLabel) or by their slug. The chart-fact vocabulary
(variable types and facts, see the header of ``ontology/divkg.ttl``) is read from the same
graph, so the rule compiler refuses anything the ontology does not define.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, RDFS, SKOS, XSD

from kg.errors import InputError, KgError
from kg.paths import ONTOLOGY

BASE = "https://w3id.org/divkg/"
DK = Namespace(BASE)
SYSTEMS = {"liuyao": DK.LiuYao, "liuren": DK.LiuRen}
"""The chart systems by the name the commands and a work's catalogue entry (``system``) give them, as
a reading asserts them (dk:system)."""
CONCEPT = BASE + "concept/"
SCHEME_NAMESPACES = {
    "stem": "stem",
    "br": "branch",
    "gz": "ganzhi",
    "el": "element",
    "rel": "relative",
    "beast": "beast",
    "general": "general",
    "state": "state",
    "stage": "stage",
    "yy": "yinyang",
    "seat": "seat",
    "dn": "daynight",
    "dir": "direction",
    "pillar": "pillar",
    "half": "half",
    "pol": "polarity",
    "status": "status",
    "reason": "reason",
    "topic": "topic",
    "role": "role",
    "relation": "relation",
    "change": "change",
    "hexclass": "hexclass",
    "gen": "generation",
    "tri": "trigram",
    "pal": "palace",
    "hex": "hexagram",
    "frame": "framekind",
    "star": "star",
    "keti": "keti",
    "purpose": "purpose",
    "sex": "sex",
    "occupation": "occupation",
    "member": "member",
}
PREFIXES: dict[str, str] = {
    "dk": BASE,
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "xsd": str(XSD),
    "skos": str(SKOS),
    "prov": "http://www.w3.org/ns/prov#",
    "oa": "http://www.w3.org/ns/oa#",
    "dcterms": "http://purl.org/dc/terms/",
    "src": BASE + "source/",
    "rule": BASE + "rule/",
    "reading": BASE + "reading/",
    **{prefix: CONCEPT + ns + "/" for prefix, ns in SCHEME_NAMESPACES.items()},
}


def concept(prefix: str, slug: str) -> URIRef:
    """IRI of a concept, e.g. ``concept("br", "zi")``."""
    return URIRef(PREFIXES[prefix] + slug)


def sparql_prefixes() -> str:
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())


def curie(iri: str) -> str:
    """Shortest prefixed name for an IRI (``br:zi``), or ``<iri>``."""
    best = max(
        (p for p, ns in PREFIXES.items() if iri.startswith(ns)), key=lambda p: len(PREFIXES[p]), default=None
    )
    if best is None:
        return f"<{iri}>"
    local = iri[len(PREFIXES[best]) :]
    plain = local and all(c.isalnum() or c in "-_." for c in local) and not local.endswith(".")
    return f"{best}:{local}" if plain else f"<{iri}>"


@dataclass(frozen=True)
class VariableType:
    """A type a rule variable may have (``line``, ``day``, ``spirit`` …)."""

    name: str
    bound_by: URIRef
    entity_class: URIRef


@dataclass(frozen=True)
class Fact:
    """A chart fact a condition may test (``relative``, ``moving``, ``ke`` …)."""

    name: str
    iri: URIRef
    domain: frozenset[URIRef]
    scheme: URIRef | None
    datatype: URIRef | None
    entity_valued: bool

    @property
    def kind(self) -> str:
        return "entity" if self.entity_valued else "concept" if self.scheme else "literal"


Statement = tuple[str, str, str, str | None]
"""A triple as :meth:`TopicTree.of` reads it: subject, predicate and object (an IRI or a literal's
value), and the object's language tag in lower case (None for an IRI or a literal without one)."""


@dataclass(frozen=True)
class TopicTree:
    """The topic tree (占事, dk:TopicScheme): what naming a topic needs, and no more."""

    scheme_name: str
    """The scheme's English label, for errors."""
    names: dict[str, tuple[URIRef, ...]]
    """The topics by each name they go by: zh-Hant labels (preferred, alternative, hidden) and slug."""
    labels: dict[URIRef, str]
    """The zh-Hant preferred label of each topic."""
    broader: dict[URIRef, URIRef]
    """The topic each topic falls under (skos:broader)."""

    @classmethod
    def of(cls, statements: Iterable[Statement]) -> TopicTree:
        """The tree the ``statements`` (the ontology's, or the topic files' alone) describe."""
        scheme = str(DK.TopicScheme)
        topics: set[str] = set()
        named: dict[str, set[str]] = {}
        preferred: dict[str, str] = {}
        up: dict[str, str] = {}
        scheme_name = ""
        for subject, predicate, value, language in statements:
            if predicate == _IN_SCHEME and value == scheme:
                topics.add(subject)
            elif predicate == _BROADER:
                up[subject] = value
            elif predicate in _NAMES and language == "zh-hant":
                named.setdefault(subject, set()).add(value)
                if predicate == _PREF_LABEL:
                    preferred[subject] = value
            elif subject == scheme and predicate == _PREF_LABEL and language == "en":
                scheme_name = value
        names: dict[str, list[URIRef]] = {}
        for topic in sorted(topics):
            for name in {topic.rsplit("/", 1)[1], *named.get(topic, ())}:
                names.setdefault(name, []).append(URIRef(topic))
        return cls(
            scheme_name or curie(scheme),
            {name: tuple(found) for name, found in names.items()},
            {URIRef(t): preferred[t] for t in sorted(topics) if t in preferred},
            {URIRef(t): URIRef(b) for t, b in up.items() if t in topics},
        )

    def resolve(self, name: str) -> URIRef:
        """The topic written ``name`` (a zh-Hant label or a slug)."""
        found = self.names.get(name, ())
        if len(found) == 1:
            return found[0]
        if not found:
            raise InputError(f"unknown {self.scheme_name} {name!r}")
        raise InputError(f"ambiguous {self.scheme_name} {name!r}: " + ", ".join(curie(c) for c in found))

    def broader_closure(self, node: URIRef) -> list[URIRef]:
        """``node`` and every topic broader than it, nearest first."""
        result = [node]
        while (up := self.broader.get(result[-1])) is not None:
            result.append(up)
        return result

    def narrower(self, top: URIRef) -> set[URIRef]:
        """``top`` and every topic narrower than it."""
        return {t for t in self.labels if top in self.broader_closure(t)}

    def topic(self, text: str) -> URIRef:
        """A topic by label (棟梁), slug (dongliang) or path (家宅/棟梁)."""
        parts = [p for p in text.strip().split("/") if p]
        if not parts:
            raise InputError("empty topic")
        try:
            found = self.resolve(parts[-1])
        except KgError:
            known = "、".join(self.labels.values())
            raise InputError(f"unknown topic {text!r}; known topics: {known}") from None
        chain = [self.labels.get(t) for t in self.broader_closure(found)]
        for part in parts[:-1]:
            if self.resolve(part) not in self.broader_closure(found):
                raise InputError(
                    f"topic path {text!r}: {part} is not broader than {parts[-1]} ({' < '.join(map(str, chain))})"
                )
        return found


_IN_SCHEME, _BROADER, _PREF_LABEL = str(SKOS.inScheme), str(SKOS.broader), str(SKOS.prefLabel)
_NAMES = frozenset({_PREF_LABEL, str(SKOS.altLabel), str(SKOS.hiddenLabel)})


class Vocabulary:
    """The loaded ontology: labels, schemes, topics and the chart-fact vocabulary."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self._labels: dict[URIRef, dict[str, list[URIRef]]] = {}
        self._members: dict[URIRef, list[URIRef]] = {
            c: sorted(graph.objects(c, SKOS.member)) for c in graph.subjects(RDF.type, SKOS.Collection)
        }
        in_scheme = list(graph.subject_objects(SKOS.inScheme))
        in_scheme += [(c, graph.value(m, SKOS.inScheme)) for c, ms in self._members.items() for m in ms[:1]]
        for c, scheme in in_scheme:
            index = self._labels.setdefault(scheme, {})
            names = {str(c).rsplit("/", 1)[1]}
            for p in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
                names.update(str(o) for o in graph.objects(c, p) if getattr(o, "language", None) == "zh-Hant")
            for name in names:
                index.setdefault(name, []).append(c)
        self.variable_types = {
            str(graph.value(t, DK.ruleName)): VariableType(
                str(graph.value(t, DK.ruleName)), graph.value(t, DK.boundBy), graph.value(t, DK.entityClass)
            )
            for t in graph.subjects(RDF.type, DK.VariableType)
        }
        self.facts: dict[str, Fact] = {}
        for p, name in graph.subject_objects(DK.ruleName):
            if (p, RDF.type, DK.VariableType) in graph:
                continue
            self.facts[str(name)] = Fact(
                str(name),
                p,
                frozenset(graph.objects(p, DK.domainIncludes)),
                graph.value(p, DK.valueScheme),
                graph.value(p, RDFS.range),
                bool(graph.value(p, DK.entityValued)),
            )
        self.procedures: frozenset[str] = frozenset(str(n) for n in graph.objects(None, DK.procedureName))
        """Names of the procedures of the texts (dk:Procedure), which rules may call in ``param``."""
        self._sub = {}
        for sub, sup in graph.subject_objects(RDFS.subClassOf):
            self._sub.setdefault(sup, set()).add(sub)

    def subclasses(self, cls: URIRef) -> set[URIRef]:
        """``cls`` and all its subclasses."""
        result, todo = {cls}, [cls]
        while todo:
            for sub in self._sub.get(todo.pop(), ()):
                if sub not in result:
                    result.add(sub)
                    todo.append(sub)
        return result

    def resolve(self, scheme: URIRef, label: str) -> URIRef:
        """The concept of ``scheme`` written ``label`` (a zh-Hant label or a slug)."""
        found = self._labels.get(scheme, {}).get(label, [])
        if len(found) == 1:
            return found[0]
        scheme_name = self.label(scheme, "en") or curie(scheme)
        if not found:
            raise InputError(f"unknown {scheme_name} {label!r}")
        raise InputError(f"ambiguous {scheme_name} {label!r}: " + ", ".join(curie(c) for c in found))

    def members(self, node: URIRef) -> list[URIRef]:
        """The concepts a label stands for: the members of a skos:Collection (吉將), else the concept."""
        return self._members.get(node, [node])

    def label(self, node: URIRef, lang: str = "zh-Hant") -> str | None:
        for o in self.graph.objects(node, SKOS.prefLabel):
            if isinstance(o, Literal) and o.language == lang:
                return str(o)
        return None

    def concepts(self, scheme: URIRef) -> list[URIRef]:
        return sorted(self.graph.subjects(SKOS.inScheme, scheme))

    @cached_property
    def topic_tree(self) -> TopicTree:
        return TopicTree.of(
            (str(t), str(p), str(o), o.language.lower() if isinstance(o, Literal) and o.language else None)
            for t, p, o in self.graph
        )

    def topic(self, text: str) -> URIRef:
        """A topic by label (棟梁), slug (dongliang) or path (家宅/棟梁)."""
        return self.topic_tree.topic(text)


def ontology_files() -> list[Path]:
    return [ONTOLOGY / "divkg.ttl", *sorted((ONTOLOGY / "concepts").glob("*.ttl"))]


def load_graph(files: list[Path] | None = None) -> Graph:
    """The ontology (or the Turtle ``files`` given) as one graph."""
    graph = Graph()
    for path in ontology_files() if files is None else files:
        try:
            graph.parse(path, format="turtle")
        except Exception as exc:  # rdflib raises several parser exception types
            raise KgError(f"{path}: not valid Turtle ({exc})") from None
    return graph


@cache
def vocabulary() -> Vocabulary:
    return Vocabulary(load_graph())


def topic_files() -> list[Path]:
    """The concept files that name dk:TopicScheme: the topic tree, a fifth of the ontology (divkg.ttl
    names it only in the comment of dk:topic)."""
    return [
        f
        for f in ontology_files()
        if f.parent != ONTOLOGY and "dk:TopicScheme" in f.read_text(encoding="utf-8")
    ]


def read_topic_tree(files: list[Path]) -> TopicTree:
    """The topic tree the Turtle ``files`` describe, parsed by Oxigraph (a tenth of the time rdflib's
    parser and graph take)."""
    statements: list[Statement] = []
    for path in files:
        try:
            quads = list(ox.parse(path=str(path), format=ox.RdfFormat.TURTLE))
        except (SyntaxError, ValueError, OSError) as exc:
            raise KgError(f"{path}: not valid Turtle ({exc})") from None
        statements += (
            (q.subject.value, q.predicate.value, q.object.value, getattr(q.object, "language", None))
            for q in quads
        )
    return TopicTree.of(statements)


@cache
def topic_tree() -> TopicTree:
    """The topic tree (占事) for naming a topic: the whole vocabulary's when it is loaded already, else
    :func:`read_topic_tree` of :func:`topic_files`: ``kg reading`` and ``kg chart --topic`` need no more."""
    return vocabulary().topic_tree if vocabulary.cache_info().currsize else read_topic_tree(topic_files())
