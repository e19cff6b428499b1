"""Retrieval: every rule of the graph that applies to a reading, with bindings and provenance.

1. The reading's chart facts go into a small store of their own (the default graph).
2. Definition rules whose topic is the reading's topic or broader run first (SPARQL
   CONSTRUCT), adding roles such as 用神 or 類神, until nothing new appears.
3. Candidates: rules of the topic (or broader) whose constant facts (``dk:requires``) are all
   held by one entity each, and one alternative of each ``dk:requiresOneOf`` likewise, checked
   as Python set containment, so the cost grows with the rules that can possibly fire, not with
   all rules.
4. Candidates sharing a query template (``dk:template``) run as one SELECT with their
   constants in a VALUES block; every solution is one way a rule applies.
5. Exceptions mark the applications they qualify of the rule they override (those agreeing with
   the exception on the variables both bind); text-only rules whose triggers hold (or that have
   none) are reported as "consider".
6. Provenance (quote, URN, citation) comes from the knowledge graph in one query.

The default engine is Oxigraph (pyoxigraph); ``engine="rdflib"`` runs the same queries on
rdflib's engine.
"""

from __future__ import annotations

import copy
import json
import marshal
import re
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import starmap
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.term import Node

from kg.errors import InputError, KgError
from kg.facts import Facts
from kg.registry import procedure
from kg.vocabulary import DK, sparql_prefixes
from kg.vocabulary import PREFIXES as VOCABULARY_PREFIXES

PREFIXES = sparql_prefixes()
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
READING = ox.NamedNode(str(DK.Reading))
SYSTEM = str(DK.system)

ReadingIndex = tuple[dict[str, dict[tuple[str, str], int]], frozenset[tuple[str, str]]]
"""What :meth:`Reading.index` returns: per binding property, each fact its entities hold with the
bit mask of those that hold it (a bit an entity); and the reading's own facts."""

Requirements = dict[str, tuple[str, frozenset[tuple[str, str]]]]
"""Per rule variable, its binding property and the (predicate, value) pairs one entity bound by it
must hold (``reading`` for the reading's own facts)."""

Relations = dict[str, frozenset[str]]
"""Per relation predicate, the binding properties of the entities at its other end that rules
require (the ``@`` values of :data:`Requirements`)."""

Group = tuple[str, bool, bool]
"""Rules indexed together: those of one topic, definitions or not, requiring a fact some definition
asserts or not (:meth:`KnowledgeGraph.candidates`)."""

ByPredicate = dict[str, list[tuple[str, ox.Triple]]]
"""Facts by their predicate's IRI, each with its object's value (what :func:`_read_by` looks at)."""


@dataclass(frozen=True)
class RuleInfo:
    iri: str
    kind: str
    topic: str
    template: str | None
    arguments: str
    variables: tuple[str, ...]
    requires: Requirements
    requires_one_of: tuple[tuple[Requirements, ...], ...]
    construct: str | None
    overrides: tuple[str, ...]


@dataclass
class Applicable:
    """One rule that applies to the reading, in one way (one set of bindings)."""

    rule: str
    rule_id: str
    kind: str
    status: str  # applies | consider | overridden
    bindings: dict[str, str]
    binding_labels: dict[str, str] = field(default_factory=dict)
    polarity: str | None = None
    wording: str | None = None
    gloss: str | None = None
    topic: str | None = None
    quote: str | None = None
    urn: str | None = None
    paragraph: int | None = None
    work_title: str | None = None
    section: str | None = None
    citation: str | None = None
    parameters: dict[str, str] = field(default_factory=dict)
    overridden_by: list[str] = field(default_factory=list)
    quotes: list[dict[str, object]] = field(default_factory=list)
    """Every span the rule rests on, in order (a verse line and the note restating it), when
    there are several; :attr:`quote` is the first."""

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v not in (None, [], {})}


def solutions(results: ox.QuerySolutions) -> list[dict[str, ox.NamedNode | ox.Literal | ox.BlankNode]]:
    """Rows of a SELECT result as dicts from variable name to term (unbound variables left out)."""
    names = [v.value for v in results.variables]
    return [{n: t for n, t in zip(names, row, strict=True) if t is not None} for row in results]


def _term(term) -> str:
    """A pyoxigraph term in the form rule files' constants take (``<iri>``, ``6``, ``true``)."""
    if isinstance(term, ox.NamedNode):
        return f"<{term.value}>"
    if isinstance(term, ox.Literal):
        return term.value
    return str(term)


INDEX_FILE = "kg.index.marshal"
"""Everything retrieval reads from a build (rules and their index, provenance, concept labels),
written by ``kg build`` beside kg.nq in its snapshot (:func:`index_file`) with :mod:`marshal`: the
values as retrieval holds them (frozensets, tuples), read back without a conversion. The same data
as JSON took about four times as long to load (json.loads, then frozensets made of its lists)."""

INDEX_FORMAT = "divkg-index/4"
"""The version of :data:`INDEX_FILE`'s layout; a file of another version is not used."""

INDEX_PYTHON = f"{sys.implementation.cache_tag} marshal {marshal.version}"
"""The interpreter an index was written by: marshal's format may change between Python versions,
so an index written by another one is not used (the graph is loaded and queried instead)."""

RULE_FIELDS = tuple(f.name for f in fields(RuleInfo))
"""The order of a rule's fields in :data:`INDEX_FILE`: an index written with others is not used."""


class KnowledgeGraph:
    """The built graph in an Oxigraph store, with the rule index retrieval needs.

    Made from a store, the index is read from it with SPARQL (provenance and concept labels when
    first needed). :meth:`load` takes a build's cached :data:`INDEX_FILE` when it has one and then
    loads the store only when something uses it: retrieval needs the index alone.
    """

    def __init__(self, store: ox.Store | Path, cached: dict[str, Any] | None = None) -> None:
        """``store``, or the N-Quads file to load it from when first used, with ``cached`` the
        :meth:`index_data` of that file."""
        self._store = store if isinstance(store, ox.Store) else None
        self._source = store if isinstance(store, Path) else None
        self._lock = threading.Lock()
        self.provenance: dict[str, dict[str, str]] = {}
        self.quotes: dict[str, list[tuple[str, int]]] = {}
        self.parameters: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        self._concept_labels: dict[str, str] | None = None
        if cached is None:
            self._load_rules()
            self._index_rules()
        else:
            self._restore(cached)

    @classmethod
    def load(cls, path: Path) -> KnowledgeGraph:
        if not path.exists():
            raise InputError(f"{path} does not exist: run `kg build` first")
        cached = _cached_index(path)
        return cls(_load_store(path)) if cached is None else cls(path, cached)

    @property
    def store(self) -> ox.Store:
        """The graph (loaded on first use when the index came from the build's cache)."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    assert self._source is not None
                    self._store = _load_store(self._source)
        return self._store

    def query(self, text: str) -> list[dict]:
        return solutions(self.store.query(PREFIXES + text, use_default_graph_as_union=True))

    def _load_rules(self) -> None:
        """Rules, templates and the topic tree, from the store."""
        self.rules: dict[str, RuleInfo] = {}
        self.templates: dict[str, str] = {}
        self.joinable: set[str] = set()
        self.broader: dict[str, str] = {
            row["t"].value: row["b"].value
            for row in self.query("SELECT ?t ?b WHERE { ?t skos:inScheme dk:TopicScheme ; skos:broader ?b }")
        }
        self.topics: dict[str, str] = {
            row["t"].value: row["l"].value
            for row in self.query(
                "SELECT ?t ?l WHERE { ?t skos:inScheme dk:TopicScheme ; skos:prefLabel ?l FILTER(langMatches(lang(?l), 'zh-Hant')) }"
            )
        }
        requires: dict[str, list[str]] = defaultdict(list)
        for row in self.query("SELECT ?r ?k WHERE { ?r dk:requires ?k }"):
            requires[row["r"].value].append(row["k"].value)
        one_of: dict[str, list[tuple[Requirements, ...]]] = defaultdict(list)
        for row in self.query("SELECT ?r ?k WHERE { ?r dk:requiresOneOf ?k } ORDER BY ?r ?k"):
            one_of[row["r"].value].append(tuple(map(_requirements, json.loads(row["k"].value))))
        overrides: dict[str, list[str]] = defaultdict(list)
        for row in self.query("SELECT ?r ?o WHERE { ?r dk:overrides ?o } ORDER BY ?r ?o"):
            overrides[row["r"].value].append(row["o"].value)
        variables: dict[str, list[str]] = defaultdict(list)
        for row in self.query("SELECT ?r ?v WHERE { ?r dk:variable ?v }"):
            variables[row["r"].value].append(row["v"].value)
        rows = self.query(
            """SELECT ?r ?kind ?topic ?tmpl ?tq ?join ?args ?construct WHERE {
                 ?r a dk:Rule ; a ?kind ; dk:topic ?topic . FILTER(?kind != dk:Rule)
                 OPTIONAL { ?r dk:template ?tmpl . ?tmpl dk:query ?tq ; dk:joinable ?join . ?r dk:templateArguments ?args }
                 OPTIONAL { ?r dk:construct ?construct } }"""
        )
        kinds = {
            str(DK.JudgementRule): "judgement",
            str(DK.DefinitionRule): "definition",
            str(DK.ExceptionRule): "exception",
            str(DK.ChartVerdictRule): "chart-verdict",
            str(DK.TextOnlyRule): "text-only",
        }
        for row in rows:
            iri = row["r"].value
            template = row["tmpl"].value if "tmpl" in row else None
            if template is not None:
                self.templates[template] = row["tq"].value
                if row["join"].value == "true":
                    self.joinable.add(template)
            self.rules[iri] = RuleInfo(
                iri=iri,
                kind=kinds[row["kind"].value],
                topic=row["topic"].value,
                template=template,
                arguments=row["args"].value if "args" in row else "",
                variables=tuple(sorted(variables[iri])),
                requires=(needed := _requirements(requires[iri])),
                requires_one_of=_narrowed(tuple(one_of[iri]), needed),
                construct=row["construct"].value if "construct" in row else None,
                overrides=tuple(overrides[iri]),
            )

    def index_data(self) -> dict[str, Any]:
        """Everything retrieval reads from the graph, as :mod:`marshal` values (the layout of
        :data:`INDEX_FILE`): each rule as the tuple of its :class:`RuleInfo` fields, and the rule index
        with rules by IRI."""
        self.load_provenance()

        def iris(rules: list[RuleInfo]) -> tuple[str, ...]:
            return tuple(r.iri for r in rules)

        return {
            "format": INDEX_FORMAT,
            "python": INDEX_PYTHON,
            "rule_fields": RULE_FIELDS,
            "rules": tuple(
                tuple(getattr(rule, name) for name in RULE_FIELDS) for rule in self.rules.values()
            ),
            "templates": self.templates,
            "joinable": frozenset(self.joinable),
            "broader": self.broader,
            "topics": self.topics,
            "provenance": self.provenance,
            "quotes": self.quotes,
            "parameters": dict(self.parameters),
            "labels": self.concept_labels(),
            "relations": self.relations,
            "index": {g: {k: iris(rules) for k, rules in keyed.items()} for g, keyed in self.index.items()},
            "unindexed": {g: iris(rules) for g, rules in self.unindexed.items()},
            "definitions": {t: iris(rules) for t, rules in self.definitions.items()},
        }

    def _restore(self, data: dict[str, Any]) -> None:
        """The state :meth:`index_data` recorded."""
        rules = self.rules = {row[0]: RuleInfo(*row) for row in data["rules"]}
        self.templates, self.joinable = data["templates"], set(data["joinable"])
        self.broader, self.topics = data["broader"], data["topics"]
        self.provenance, self.quotes = data["provenance"], data["quotes"]
        self.parameters.update(data["parameters"])
        self._concept_labels = data["labels"]
        self.relations = data["relations"]
        self.index = {
            g: {k: [rules[i] for i in found] for k, found in keyed.items()}
            for g, keyed in data["index"].items()
        }
        self.unindexed = {g: [rules[i] for i in found] for g, found in data["unindexed"].items()}
        self.definitions = {t: [rules[i] for i in found] for t, found in data["definitions"].items()}

    def load_provenance(self) -> None:
        """Outcome, first quote, URN and work citation of every rule, fetched once in one query."""
        if self.provenance:
            return
        for row in self.query(
            """SELECT ?r ?id ?pol ?zh ?en ?topic ?quote ?urn ?para ?title ?cite ?heading WHERE {
                  ?r dk:ruleId ?id ; dk:topic ?t ; dk:outcome ?o ; dk:work ?w ; dk:anchor ?a .
                  ?a dk:order 1 ; oa:hasSelector ?sel ; dk:paragraph ?p .
                  ?sel a oa:TextQuoteSelector ; oa:exact ?quote .
                  ?p dk:paragraphNumber ?para ; dk:section/dk:heading ?heading .
                  ?r prov:wasDerivedFrom ?seg . ?seg dk:urn ?urn .
                  ?t skos:prefLabel ?topic FILTER(langMatches(lang(?topic), 'zh-Hant'))
                  ?w dcterms:title ?title FILTER(langMatches(lang(?title), 'zh-Hant'))
                  ?w dk:citation ?cite .
                  OPTIONAL { ?o dk:polarity ?pc . ?pc skos:prefLabel ?pol FILTER(langMatches(lang(?pol), 'zh-Hant')) }
                  OPTIONAL { ?o dk:wording ?zh }
                  OPTIONAL { ?o dk:gloss ?en }
                } ORDER BY ?r ?urn"""
        ):
            self.provenance.setdefault(row["r"].value, {k: t.value for k, t in row.items()})
        quotes: dict[str, list[tuple[int, str, int]]] = defaultdict(list)
        for row in self.query(
            """SELECT ?r ?n ?quote ?para WHERE {
                  ?r dk:anchor ?a . ?a dk:order ?n ; oa:hasSelector ?sel ; dk:paragraph ?p .
                  ?sel a oa:TextQuoteSelector ; oa:exact ?quote . ?p dk:paragraphNumber ?para }"""
        ):
            quotes[row["r"].value].append((int(row["n"].value), row["quote"].value, int(row["para"].value)))
        self.quotes = {r: [(q, para) for _, q, para in sorted(found)] for r, found in quotes.items()}
        for row in self.query(
            """SELECT ?r ?name ?var ?prop ?proc WHERE {
                  ?r dk:outcome/dk:parameter ?p . ?p dk:name ?name ; dk:variable ?var .
                  OPTIONAL { ?p dk:property ?prop } OPTIONAL { ?p dk:procedure ?proc } }"""
        ):
            how = row["prop"].value if "prop" in row else "procedure:" + row["proc"].value
            self.parameters[row["r"].value].append((row["name"].value, row["var"].value, how))

    def concept_labels(self) -> dict[str, str]:
        """The zh-Hant label of every concept that has one, with its direction for a branch (子 (北))."""
        if self._concept_labels is None:
            labels: dict[str, str] = {}
            for row in self.query(
                """SELECT ?c ?l ?d WHERE { ?c skos:prefLabel ?l FILTER(langMatches(lang(?l), 'zh-Hant'))
                      OPTIONAL { ?c dk:direction ?d } } ORDER BY ?c ?l ?d"""
            ):
                label = row["l"].value
                labels.setdefault(row["c"].value, f"{label} ({row['d'].value})" if "d" in row else label)
            self._concept_labels = labels
        return self._concept_labels

    def concept_label(self, iri: str) -> str:
        """zh-Hant label of a concept, with its direction for a branch (子 (北)); the IRI when it has none."""
        return self.concept_labels().get(iri, iri)

    def _index_rules(self) -> None:
        """Each rule under its rarest required fact, per topic, apart for definitions and apart for
        the rules that require a fact of a predicate some definition asserts (a role); rules
        requiring nothing apart."""
        frequency: dict[tuple[str, str, str], int] = defaultdict(int)
        related: dict[str, set[str]] = defaultdict(set)
        for rule in self.rules.values():
            for key in _keys(rule):
                frequency[key] += 1
            for requires in (rule.requires, *(a for group in rule.requires_one_of for a in group)):
                for _, facts in requires.values():
                    for p, v in facts:
                        if v.startswith("@"):
                            related[p].add(v[1:])
        self.relations: Relations = {p: frozenset(bindings) for p, bindings in related.items()}
        """The relations rules require (:meth:`Reading.index`)."""
        asserted = frozenset().union(*(_asserted(r.construct) for r in self.rules.values() if r.construct))
        index: dict[Group, dict[tuple[str, str, str], list[RuleInfo]]] = defaultdict(
            lambda: defaultdict(list)
        )
        unindexed: dict[Group, list[RuleInfo]] = defaultdict(list)
        definitions: dict[str, list[RuleInfo]] = defaultdict(list)
        for rule in self.rules.values():
            if (rule.template or rule.construct) and not any(
                p == SYSTEM for p, _ in rule.requires.get("reading", ("", frozenset()))[1]
            ):
                raise KgError(f"rule <{rule.iri}> does not require its chart system: rebuild the graph")
            if rule.kind == "definition":
                definitions[rule.topic].append(rule)
            layered = any(
                p in asserted
                for requires in (rule.requires, *(a for group in rule.requires_one_of for a in group))
                for _, facts in requires.values()
                for p, _ in facts
            )
            group = (rule.topic, rule.kind == "definition", layered)
            keys = _keys(rule)
            if keys:
                index[group][min(keys, key=lambda k: (frequency[k], k))].append(rule)
            else:
                unindexed[group].append(rule)
        self.index = {group: dict(keyed) for group, keyed in index.items()}
        """Per group of rules, each rule under its rarest required fact."""
        self.unindexed = dict(unindexed)
        """Per group, the rules that require no fact."""
        self.definitions = dict(definitions)
        """The definition rules of each topic."""

    def candidates(
        self,
        chain: list[str],
        entities,
        reading_facts,
        definitions: bool = False,
        settled: dict[Group, list[RuleInfo]] | None = None,
    ) -> list[RuleInfo]:
        """The rules of the topics in ``chain`` whose required facts the reading holds (a
        :data:`ReadingIndex`): the definitions, or the other rules.

        ``settled`` keeps, for the layers of one reading, the candidates among the rules that
        require no fact a definition asserts: the facts a layer adds to the chart's cannot change them.
        """
        found: list[RuleInfo] = []
        for topic in chain:
            for layered in (False, True):
                group = (topic, definitions, layered)
                if not layered and settled is not None and group in settled:
                    found += settled[group]
                    continue
                rules = list(self.unindexed.get(group, ()))
                for (binding, p, v), indexed in self.index.get(group, {}).items():
                    if (p, v) in (reading_facts if binding == "reading" else entities.get(binding, ())):
                        rules += indexed
                rules = [r for r in rules if is_candidate(r, entities, reading_facts)]
                if not layered and settled is not None:
                    settled[group] = rules
                found += rules
        return found

    def topic_chain(self, topic: str) -> list[str]:
        chain = [topic]
        while chain[-1] in self.broader:
            chain.append(self.broader[chain[-1]])
        return chain


def _requirements(keys: Iterable[str]) -> Requirements:
    """``dk:requires`` keys ("variable binding predicate value", tab-separated) by variable."""
    found: dict[str, tuple[str, set[tuple[str, str]]]] = {}
    for key in keys:
        var, binding, pred, value = key.split("\t")
        found.setdefault(var, (binding, set()))[1].add((pred, value))
    return {v: (b, frozenset(facts)) for v, (b, facts) in found.items()}


def _narrowed(
    groups: tuple[tuple[Requirements, ...], ...], requires: Requirements
) -> tuple[tuple[Requirements, ...], ...]:
    """Each alternative with the rule's own requirements of the variables it names, bound alike:
    a variable binds one entity, which must hold both."""
    return tuple(
        tuple(
            {
                var: (binding, facts | requires[var][1])
                if var in requires and requires[var][0] == binding
                else (binding, facts)
                for var, (binding, facts) in alternative.items()
            }
            for alternative in group
        )
        for group in groups
    )


def _load_store(path: Path) -> ox.Store:
    store = ox.Store()
    try:
        store.bulk_load(path=str(path), format=ox.RdfFormat.N_QUADS)
    except (SyntaxError, ValueError, OSError) as exc:
        raise InputError(f"{path}: cannot load the graph ({exc})") from None
    return store


def _cached_index(path: Path) -> dict[str, Any] | None:
    """The :data:`INDEX_FILE` beside the file ``path`` resolves to (a build snapshot's), when it
    was written for a file of this size, in this layout, by this interpreter."""
    try:
        data = marshal.loads((path.resolve().parent / INDEX_FILE).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("format") != INDEX_FORMAT
        or data.get("python") != INDEX_PYTHON
        or data.get("rule_fields") != RULE_FIELDS
        or data.get("graphBytes") != path.stat().st_size
    ):
        return None
    return data


def index_file(nquads: str) -> bytes:
    """The :data:`INDEX_FILE` of a graph given as N-Quads text."""
    encoded = nquads.encode("utf-8")
    store = ox.Store()
    store.bulk_load(encoded, format=ox.RdfFormat.N_QUADS)
    return marshal.dumps(KnowledgeGraph(store).index_data() | {"graphBytes": len(encoded)})


class Reading:
    """A reading's chart facts in a store of their own, with the index candidate selection uses.

    The facts come as :class:`kg.facts.Facts` (the chart systems' ``chart_facts``), an rdflib graph
    (a chart read from Turtle; its terms are converted, not serialised and parsed again) or a store.
    """

    def __init__(self, chart: Facts | Graph | ox.Store) -> None:
        if isinstance(chart, ox.Store):
            self.store = chart
            triples = [(q.subject, q.predicate, q.object) for q in chart.quads_for_pattern(None, None, None)]
        else:
            triples = chart.triples if isinstance(chart, Facts) else _oxigraph_triples(chart)
            self.store = ox.Store()
            self.store.extend(starmap(ox.Quad, triples))
        self._facts: dict[str, set[tuple[str, str]]] = defaultdict(set)
        """Each subject's (predicate, object) pairs in rule-constant form (objects that are not blank nodes)."""
        self._frozen: dict[str, frozenset[tuple[str, str]]] = {}
        """The facts of each subject whose facts have not changed since, as :meth:`index` gives them."""
        self._relations: Relations = {}
        self._changed: set[str] = set()
        """The subjects that gained facts since :meth:`index` last looked."""
        self._stale: dict[str, frozenset[tuple[str, str]]] = {}
        """Of those, the facts the index last saw."""
        self._bindings: dict[str, list[str]] = {}
        """The entities the reading links to (rule-constant form), each with the predicates linking it."""
        self._bits: dict[tuple[str, str], int] = {}
        """Each entity's bit under each predicate linking it (:data:`ReadingIndex`)."""
        self._add_facts(triples)
        readings = [q.subject for q in self.store.quads_for_pattern(None, RDF_TYPE, READING)]
        if len(readings) != 1:
            raise InputError(f"a chart graph must hold exactly one dk:Reading (found {len(readings)})")
        self.iri = readings[0]
        self._entity_prefix = f"<{self.iri.value}/"
        """How the IRIs of the reading's entities begin (rule-constant form)."""
        topics = [q.object for q in self.store.quads_for_pattern(self.iri, ox.NamedNode(str(DK.topic)), None)]
        self.topic = topics[0].value if topics else None
        self._index: ReadingIndex | None = None
        self._rdflib: Graph | None = None
        self.graph: ox.NamedNode | ox.DefaultGraph = ox.DefaultGraph()
        """Where :meth:`extend` writes: the default graph, or the named graph of a :meth:`layer`."""
        self.added: ByPredicate = {}
        """The facts :meth:`extend` added (a topic's roles), by predicate."""

    def layer(self, name: str) -> Reading:
        """A view of this reading that keeps the facts :meth:`extend` adds (one topic's definitions)
        in a named graph of its own: it sees the chart facts and its own, no other layer's."""
        view = copy.copy(self)
        view.graph = ox.NamedNode(f"{self.iri.value}/layer/{name}")
        view.added = {p: list(found) for p, found in self.added.items()}
        view._facts = defaultdict(set, {subject: set(pairs) for subject, pairs in self._facts.items()})
        view._frozen = dict(self._frozen)
        view._changed, view._stale = set(self._changed), dict(self._stale)
        view._rdflib = None
        return view

    def _query(self, query: str):
        if isinstance(self.graph, ox.DefaultGraph):
            return self.store.query(query)
        return self.store.query(query, default_graph=[ox.DefaultGraph(), self.graph])

    def holds(self, triple: ox.Triple) -> bool:
        """Whether the reading (this layer) has the fact."""
        s, p, o = triple.subject, triple.predicate, triple.object
        return ox.Quad(s, p, o) in self.store or ox.Quad(s, p, o, self.graph) in self.store

    def index(self, relations: Relations) -> ReadingIndex:
        """Per binding property, the fact sets of its entities; and the reading's own facts. An
        entity related by a predicate of ``relations`` to an entity bound by one of its bindings
        also has the fact ``(predicate, "@" + binding)``.

        Computed once, then brought up to date with the facts :meth:`extend` adds: facts added to
        :attr:`store` directly are not seen.
        """
        if relations is not self._relations:
            self._frozen.clear()
            self._relations, self._index = relations, None
        if self._index is None or self.iri.value in self._changed:
            self._index = self._compute_index()
        elif self._changed:
            self._index = self._updated_index(self._index)
        self._changed, self._stale = set(), {}
        return self._index

    def _add_facts(self, triples: Iterable[tuple[Any, Any, Any]]) -> None:
        """The facts into :attr:`_facts`, each term's string made once (a reading's facts are many,
        and few distinct: a run of one subject, about a hundred predicates and concepts)."""
        facts, touched = self._facts, set()
        objects: dict[Any, str] = {}
        predicates: dict[Any, str] = {}
        last = None
        for s, p, o in triples:
            if s is not last:
                last, subject = s, s.value
                pairs = facts[subject]
                touched.add(subject)
            if (value := objects.get(o)) is None:
                kind = type(o)  # _term, inlined
                if kind is ox.NamedNode:
                    value = f"<{o.value}>"
                elif kind is ox.Literal:
                    value = o.value
                elif kind is ox.BlankNode:
                    continue
                else:
                    value = _term(o)
                objects[o] = value
            if (predicate := predicates.get(p)) is None:
                predicate = predicates[p] = p.value
            pairs.add((predicate, value))
        for subject in touched:
            if (known := self._frozen.pop(subject, None)) is not None:
                self._stale.setdefault(subject, known)
        self._changed |= touched

    def _facts_of(self, subject: str, bindings: dict[str, list[str]]) -> frozenset[tuple[str, str]]:
        """The subject's facts, with ``(predicate, "@" + binding)`` for each relation to an entity the
        reading binds by ``binding`` that rules require (:meth:`index`); a fact whose object is an
        entity of the reading is left out itself, as no rule can name one."""
        if (found := self._frozen.get(subject)) is None:
            pairs, relations, entity = self._facts.get(subject, set()), self._relations, self._entity_prefix
            related = [
                (p, "@" + b)
                for p, o in pairs
                if o in bindings and p in relations
                for b in bindings[o]
                if b in relations[p]
            ]
            kept = [(p, o) for p, o in pairs if not o.startswith(entity)]
            found = self._frozen[subject] = frozenset(kept).union(related)
        return found

    def _compute_index(self) -> ReadingIndex:
        facts, reading = self._facts, self.iri.value
        if reading not in self._frozen:
            self._frozen.clear()  # the relations' "@" facts follow the reading's bindings
        bindings: dict[str, list[str]] = defaultdict(list)
        for pred, obj in facts[reading]:
            if obj.startswith("<"):  # an entity, even one with no facts of its own, or a concept
                bindings[obj].append(pred)
        self._bindings, self._bits = bindings, {}
        entities: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
        counts: dict[str, int] = defaultdict(int)
        for obj, preds in bindings.items():
            found = self._facts_of(obj[1:-1], bindings)
            for pred in preds:
                masks = entities[pred]
                bit = self._bits[pred, obj] = 1 << counts[pred]
                counts[pred] += 1
                for fact in found:
                    masks[fact] = masks.get(fact, 0) | bit
        own = self._facts_of(reading, bindings)
        return entities, own

    def _updated_index(self, index: ReadingIndex) -> ReadingIndex:
        """``index`` with the facts the reading's entities gained since: facts are only ever added,
        so a binding's facts grow by theirs (the reading's own facts unchanged)."""
        entities, own = index
        entities, copied = dict(entities), set()
        for subject in self._changed:
            obj = f"<{subject}>"
            if preds := self._bindings.get(obj):
                found = self._facts_of(subject, self._bindings) - self._stale.get(subject, frozenset())
                for pred in preds:
                    if pred not in copied:
                        entities[pred] = dict(entities[pred])
                        copied.add(pred)
                    masks, bit = entities[pred], self._bits[pred, obj]
                    for fact in found:
                        masks[fact] = masks.get(fact, 0) | bit
        return entities, own

    def select(self, query: str, engine: str, terms: frozenset[str] = frozenset()) -> list[dict[str, str]]:
        """Solutions of a query (with its PREFIX declarations) as {variable: value}; the variables in
        ``terms`` in rule-constant form (``<iri>``, ``6``)."""
        if engine == "oxigraph":
            results = self._query(query)
            names = [(v.value, v.value in terms) for v in results.variables]
            return [
                {
                    n: _term(t) if constant else t.value
                    for (n, constant), t in zip(names, row, strict=True)
                    if t is not None
                }
                for row in results
            ]
        return [
            {
                str(k): v.n3() if k in terms and not isinstance(v, Literal) else str(v)
                for k, v in row.asdict().items()
            }
            for row in self.rdflib_graph().query(query)
        ]

    def labels(self) -> dict[str, str]:
        """The dk:label of each entity."""
        return {
            q.subject.value: q.object.value
            for q in self.store.quads_for_pattern(None, ox.NamedNode(f"{DK}label"), None)
        }

    def construct(self, query: str) -> list[ox.Triple]:
        return list(self._query(query))

    def extend(self, triples: list[ox.Triple]) -> None:
        self.store.extend(ox.Quad(t.subject, t.predicate, t.object, self.graph) for t in triples)
        for predicate, found in _by_predicate(triples).items():
            self.added.setdefault(predicate, []).extend(found)
        self._add_facts((t.subject, t.predicate, t.object) for t in triples)
        self._rdflib = None

    def rdflib_graph(self) -> Graph:
        """The same facts as an rdflib graph, for running the queries on rdflib's engine."""
        if self._rdflib is None:
            graphs = {ox.DefaultGraph(), self.graph}
            dump = b"".join(self.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=g) for g in graphs)
            self._rdflib = Graph().parse(data=dump, format="nt")
        return self._rdflib


def _oxigraph_triples(graph: Graph) -> list[tuple]:
    """The triples of an rdflib graph as pyoxigraph terms (each distinct term converted once)."""
    terms: dict[Node, ox.NamedNode | ox.BlankNode | ox.Literal] = {}

    def convert(term: Node) -> ox.NamedNode | ox.BlankNode | ox.Literal:
        if term not in terms:
            if isinstance(term, URIRef):
                terms[term] = ox.NamedNode(str(term))
            elif isinstance(term, BNode):
                terms[term] = ox.BlankNode(str(term))
            elif isinstance(term, Literal):
                datatype = None if term.datatype is None else ox.NamedNode(str(term.datatype))
                terms[term] = ox.Literal(str(term), datatype=datatype, language=term.language)
            else:
                raise InputError(f"a chart graph holds RDF terms only, not {term!r}")
        return terms[term]

    return [(convert(s), convert(p), convert(o)) for s, p, o in graph]


PREFIX_LINE = re.compile(r"^PREFIX [^\n]*\n", re.MULTILINE)
PREFIXED = re.compile(r"(?<![\w?$<:/#-])([A-Za-z][\w-]*):")


@cache
def declarations(text: str) -> str:
    """The PREFIX declarations of kg.vocabulary that the SPARQL ``text`` uses: parsing all forty-odd
    costs more than running a rule on a reading's store."""
    used = {p for p in PREFIXED.findall(PREFIX_LINE.sub("", text)) if p in VOCABULARY_PREFIXES}
    return "".join(f"PREFIX {p}: <{VOCABULARY_PREFIXES[p]}>\n" for p in sorted(used))


@cache
def trimmed(query: str) -> str:
    """A compiled query (which declares every prefix) with only the declarations it uses."""
    return declarations(query) + PREFIX_LINE.sub("", query)


def _keys(rule: RuleInfo) -> list[tuple[str, str, str]]:
    return [(binding, p, v) for binding, facts in rule.requires.values() for p, v in facts]


def is_candidate(rule: RuleInfo, entities, reading_facts) -> bool:
    """True when, for each of the rule's variables, one entity of its type holds all its required
    facts, and so for one alternative of each of its ``requires_one_of``."""
    return _held(rule.requires, entities, reading_facts) and all(
        any(_held(alternative, entities, reading_facts) for alternative in group)
        for group in rule.requires_one_of
    )


def _held(requires: Requirements, entities, reading_facts) -> bool:
    for var, (binding, needed) in requires.items():
        if var == "reading":
            if not needed <= reading_facts:
                return False
            continue
        if (masks := entities.get(binding)) is None:
            return False
        common = -1  # the entities holding every fact so far
        for fact in needed:
            common &= masks.get(fact, 0)
            if not common:
                return False
    return True


GROUP_TOKEN = re.compile(r"FILTER NOT EXISTS \{|\{|\}|\?_c\d+\b")


@cache
def batchable(template: str) -> bool:
    """Whether the template's rules may run as one query, their constants in a VALUES block
    (:func:`batched_query`), with the solutions each rule's own query has. VALUES at the head of
    the pattern joins with it; a FILTER NOT EXISTS of that pattern sees its solutions, the
    constants included, but one in a UNION branch or in another NOT EXISTS is evaluated before the
    join, where a constant it tests is still unbound (and so matches anything)."""
    open_groups: list[bool] = []  # for each open group: is it a FILTER NOT EXISTS?
    for token in GROUP_TOKEN.findall(template):
        if token == "}":
            open_groups.pop()
        elif token.startswith("?"):
            if any(open_groups[2:]) or (len(open_groups) > 2 and open_groups[1]):
                return False
        else:
            open_groups.append(token != "{")
    return True


def batched_query(template: str, rows: list[tuple[str, str]]) -> str:
    """The template with its rules' constants in a VALUES block: one query for many rules."""
    width = len(rows[0][1].split()) if rows[0][1] else 0
    head = " ".join(["?_rule"] + [f"?_c{i}" for i in range(1, width + 1)])
    data = " ".join(f"(<{rule}> {args})" for rule, args in rows)
    select, where = template.split(" WHERE {", 1)
    select = select.replace("SELECT ", "SELECT ?_rule ", 1)
    return f"{select} WHERE {{\n  VALUES ({head}) {{ {data} }}\n{where}"


JOIN_THRESHOLD = 4
"""Above this many candidates, a joinable template runs once unbound instead of with VALUES."""

ARGUMENT = re.compile(r"\?_c(\d+)\b")


@cache
def concrete_query(template: str, arguments: str) -> str:
    """A rule's own query: its template with the constants in place of ``?_c1`` … (what the compiler
    writes as the rule's dk:query). Oxigraph plans a constant better than a VALUES binding."""
    terms = arguments.split()
    body = ARGUMENT.sub(lambda m: terms[int(m.group(1)) - 1], template)
    return declarations(body) + body


ANCHOR = re.compile(r"^  \?reading a dk:Reading \.\n  \?reading dk:system dk:\w+ \.\n", re.MULTILINE)


@cache
def unanchored(query: str) -> str:
    """A compiled query without its first two patterns, the reading and its system: retrieval runs a
    rule only on a store that holds one dk:Reading (:class:`Reading`) with the system every rule
    requires (:meth:`KnowledgeGraph.candidates`), so they always match, and each costs a join."""
    return ANCHOR.sub("", query, count=1)


def _run_template(kg: KnowledgeGraph, reading: Reading, template: str, members: list[RuleInfo], engine: str):
    """(rule, bindings) for every way a candidate of this template applies."""
    text = unanchored(kg.templates[template])
    if template in kg.joinable and len(members) > JOIN_THRESHOLD:
        by_arguments: dict[tuple[str, ...], list[RuleInfo]] = defaultdict(list)
        for rule in members:
            by_arguments[tuple(rule.arguments.split())].append(rule)
        width = len(members[0].arguments.split())
        arguments = [f"_c{i}" for i in range(1, width + 1)]
        query = text.replace("SELECT ", "SELECT " + " ".join("?" + a for a in arguments) + " ", 1)
        for row in reading.select(declarations(text) + query, engine, frozenset(arguments)):
            key = tuple(row.pop(a) for a in arguments)
            row.pop("reading", None)
            for rule in by_arguments.get(key, ()):
                yield rule, row
        return
    if len(members) == 1 or not batchable(text):
        for rule in members:
            for row in reading.select(concrete_query(text, rule.arguments), engine):
                row.pop("reading", None)
                yield rule, row
        return
    query = batched_query(text, [(r.iri, r.arguments) for r in members])
    for row in reading.select(declarations(text) + query, engine):
        rule = kg.rules[row.pop("_rule")]
        row.pop("reading", None)
        yield rule, row


def retrieve(
    kg: KnowledgeGraph,
    reading: Reading,
    topic: str | None = None,
    engine: str = "oxigraph",
    stats: dict[str, float] | None = None,
) -> list[Applicable]:
    """Every rule that applies to ``reading`` for ``topic`` (default: the reading's topic); the
    definitions' roles are added to the reading.

    ``stats``, if given, receives the number of candidate rules and of templates run, and the
    seconds spent on the definitions, on the other rules and on their provenance.
    """
    topic = topic or reading.topic
    if topic is None:
        raise InputError("no topic: give one (e.g. --topic 遷移) or assert dk:topic on the reading")
    return retrieve_topics(kg, reading, [topic], engine, stats)[topic]


def retrieve_topics(
    kg: KnowledgeGraph,
    reading: Reading,
    topics: list[str],
    engine: str = "oxigraph",
    stats: dict[str, float] | None = None,
) -> dict[str, list[Applicable]]:
    """Every rule that applies to ``reading`` under each of ``topics``, for the cost of little more
    than one topic: each topic's definitions add their roles to a layer of their own
    (:meth:`Reading.layer`; the reading itself when there is one topic), topics with the same
    definitions share a layer, and a rule runs once for each distinct set of layer facts it may
    read (:func:`_read_by`; most rules read none, and run once on the chart facts for all topics).
    """
    unknown = [t for t in topics if t not in kg.topics]
    if unknown:
        raise InputError(f"unknown topic <{unknown[0]}>")
    started = time.perf_counter()
    chains = {t: kg.topic_chain(t) for t in topics}
    layers: dict[tuple[str, ...], Reading] = {}
    layer_of: dict[str, Reading] = {}
    gives: dict[tuple[str, frozenset[ox.Triple]], list[ox.Triple]] = {}
    settled: dict[Group, list[RuleInfo]] = {}
    if len(topics) > 1:
        reading.index(kg.relations)  # each layer starts from the chart facts' index
    for t in topics:
        key = tuple(sorted(r.iri for c in chains[t] for r in kg.definitions.get(c, ())))
        if key not in layers:
            layers[key] = reading if len(topics) == 1 else reading.layer(str(len(layers)))
            _apply_definitions(kg, chains[t], layers[key], gives, settled)
        layer_of[t] = layers[key]
    defined = time.perf_counter()
    # A rule's applications depend on the chart facts and on the facts of its topic's layer that it may
    # read: it runs once per distinct such set, on the first layer that has it (None: the chart facts).
    runs: dict[int | None, dict[str, dict[str, RuleInfo]]] = defaultdict(lambda: defaultdict(dict))
    state_layer: dict[int | None, Reading] = {None: reading}
    run_on: dict[tuple[str, frozenset[ox.Triple]], int | None] = {}
    asked: dict[str, list[tuple[RuleInfo, int | None]]] = {}
    offered: dict[str, list[RuleInfo]] = defaultdict(list)
    for t in topics:
        layer = layer_of[t]
        state_layer[id(layer)] = layer
        asked[t] = []
        for rule in kg.candidates(chains[t], *layer.index(kg.relations), settled=settled):
            if not rule.template:
                offered[t].append(rule)  # a text-only rule without triggers: "consider" on every reading
            else:
                where = None  # with one topic the layer is the reading itself: every rule runs on it
                if layer is not reading:
                    read = frozenset(_read_by(kg.templates[rule.template], rule.arguments, layer.added))
                    where = run_on.setdefault((rule.iri, read), id(layer) if read else None)
                asked[t].append((rule, where))
                runs[where][rule.template][rule.iri] = rule
    rows: dict[tuple[int | None, str], list[dict[str, str]]] = defaultdict(list)
    for state, templates in runs.items():
        for template, members in sorted(templates.items()):
            for rule, row in _run_template(kg, state_layer[state], template, list(members.values()), engine):
                rows[(state, rule.iri)].append(dict(sorted(row.items())))
    matched = time.perf_counter()
    labels = reading.labels()
    found: dict[str, list[Applicable]] = {}
    for t in topics:
        results = [
            Applicable(rule.iri, "", rule.kind, "consider" if rule.kind == "text-only" else "applies", row)
            for rule, state in asked[t]
            for row in rows.get((state, rule.iri), ())
        ]
        results += [Applicable(r.iri, "", r.kind, "consider", {}) for r in offered[t]]
        _mark_overridden(kg, results)
        results = _dedupe(results)
        _describe(kg, layer_of[t], results, labels)
        found[t] = sorted(
            results,
            key=lambda a: (
                a.status != "applies",
                a.kind == "text-only",
                a.urn or "",
                a.rule_id,
                tuple(a.bindings.items()),
            ),
        )
    if stats is not None:
        stats.update(
            candidates=sum(map(len, asked.values())),
            templates=sum(map(len, runs.values())),
            definitions=defined - started,
            rules=matched - defined,
            provenance=time.perf_counter() - matched,
        )
    return found


def _read_by(query: str, constants: str, facts: ByPredicate) -> list[ox.Triple]:
    """The facts (by predicate) that may change what ``query`` gives (its WHERE clause, its
    parameters bound to the IRIs of ``constants``): those whose predicate and object it names, or
    whose predicate it reads with a free object; every fact when a variable may stand for a predicate."""
    if _read_iris(query) is None:
        return [t for found in facts.values() for _, t in found]
    free, named = _free_objects(query), _named(query, constants)
    read: list[ox.Triple] = []
    for predicate, found in facts.items():
        if predicate in free:
            read += (t for _, t in found)
        elif predicate in named:
            read += (t for value, t in found if value in named)
    return read


def _by_predicate(triples: Iterable[ox.Triple]) -> ByPredicate:
    found: ByPredicate = defaultdict(list)
    for t in triples:
        found[t.predicate.value].append((t.object.value, t))
    return found


@cache
def _named(query: str, constants: str) -> frozenset[str]:
    """The IRIs the WHERE clause of ``query`` names, and those of ``constants``."""
    reads = _read_iris(query) or frozenset()
    return reads | {iri[1:-1] for iri in constants.split() if iri.startswith("<")}


FREE_OBJECT = re.compile(r"(?:<([^>]*)>|(?<![\w?$<:/#-])([A-Za-z][\w-]*):([\w-]*))\s+[?$](?!_[cv]\d)\w+")


@cache
def _free_objects(query: str) -> frozenset[str]:
    """The predicates the WHERE clause reads with a variable object that is not a rule constant
    (``?_c1``) or a constant among a FILTER's list (``?_v1``)."""
    return frozenset(
        iri or VOCABULARY_PREFIXES.get(prefix, prefix + ":") + local
        for iri, prefix, local in FREE_OBJECT.findall(query.split("WHERE", 1)[-1])
    )


def _mark_overridden(kg: KnowledgeGraph, results: list[Applicable]) -> None:
    """An exception that applies and stands overrides the applications of the rules it names that it
    qualifies: those whose bindings agree with its own on every variable both bind (same name, same
    entity); when they bind no variable in common, every application of that rule. An exception
    stands unless an exception to it that stands qualifies it, so a chain of exceptions settles the
    same in whatever order its applications come."""
    by_rule: dict[str, list[Applicable]] = defaultdict(list)
    for a in results:
        by_rule[a.rule].append(a)
    qualified_by: dict[int, list[Applicable]] = defaultdict(list)
    for e in results:
        if e.kind == "exception" and e.status == "applies":
            for target in kg.rules[e.rule].overrides:
                for b in by_rule.get(target, ()):
                    if all(e.bindings[v] == b.bindings[v] for v in e.bindings.keys() & b.bindings.keys()):
                        qualified_by[id(b)].append(e)
    standing: dict[int, bool] = {}

    def stands(a: Applicable) -> bool:
        if (known := standing.get(id(a))) is None:
            standing[id(a)] = True  # an exception to itself, through a cycle, is not withdrawn by it
            known = standing[id(a)] = not any(map(stands, qualified_by[id(a)]))
        return known

    for b in results:
        for e in qualified_by[id(b)]:
            if stands(e) and e.rule not in b.overridden_by:
                b.status = "overridden"
                b.overridden_by.append(e.rule)


def _dedupe(results: list[Applicable]) -> list[Applicable]:
    seen, unique = set(), []
    for a in results:
        key = (a.rule, tuple(a.bindings.items()))
        if key not in seen:
            seen.add(key)
            unique.append(a)
    return unique


def _apply_definitions(
    kg: KnowledgeGraph,
    chain: list[str],
    reading: Reading,
    gives: dict[tuple[str, frozenset[ox.Triple]], list[ox.Triple]] | None = None,
    settled: dict[Group, list[RuleInfo]] | None = None,
    rounds: int = 8,
) -> None:
    """Run the topic's definition CONSTRUCTs until they add nothing new.

    Candidates are chosen again each round: a role one definition assigns (祖墓) may be what
    another definition needs (曾祖墳 = the line above the 祖墓). A definition that ran already
    runs again only when the last round added facts it may read (:func:`_read_by`). ``gives`` keeps what
    each definition gives on the layer facts it may read, and ``settled`` the candidates no layer's facts
    change (:meth:`KnowledgeGraph.candidates`), for the layers of one reading, which all start from
    the same facts: a definition runs once for each distinct set of layer facts it may read.
    """
    ran: set[str] = set()
    new: ByPredicate = {}
    for _ in range(rounds):
        definitions = kg.candidates(chain, *reading.index(kg.relations), definitions=True, settled=settled)
        due = [d for d in definitions if d.iri not in ran or _read_by(d.construct or "", "", new)]
        given: dict[ox.Triple, None] = {}
        for d in due:
            query = trimmed(unanchored(d.construct or ""))
            if gives is None:
                triples = reading.construct(query)
            else:
                key = (d.iri, frozenset(_read_by(d.construct or "", "", reading.added)))
                if (triples := gives.get(key)) is None:
                    triples = gives[key] = reading.construct(query)
            given.update(dict.fromkeys(t for t in triples if not reading.holds(t)))
        ran.update(d.iri for d in due)
        if not given:
            return
        reading.extend(list(given))
        new = _by_predicate(given)
    raise KgError("definition rules did not reach a fixpoint (a cycle of roles?)")


IRI_TOKEN = re.compile(r"<([^>]*)>|(?<![\w?$<:/#-])([A-Za-z][\w-]*):([\w-]*)")
VARIABLE_PREDICATE = re.compile(r"[?$]\w+\s+[?$]\w+\s+(?:[?$]\w|<|[A-Za-z][\w-]*:)")


@cache
def _read_iris(query: str) -> frozenset[str] | None:
    """The IRIs the WHERE clause of a query (a definition's CONSTRUCT, a rule template) names (``a``
    counting as rdf:type), or None when a variable may stand for a predicate there (then it may read
    any fact)."""
    where = query.split("WHERE", 1)[-1]
    if VARIABLE_PREDICATE.search(where):
        return None
    return _iris(where) | {RDF_TYPE.value}


def _asserted(construct: str) -> frozenset[str]:
    """The IRIs the template of a definition's CONSTRUCT names: those of the facts it may assert."""
    return _iris(construct.split("CONSTRUCT", 1)[-1].split("WHERE", 1)[0])


def _iris(text: str) -> frozenset[str]:
    return frozenset(
        iri or VOCABULARY_PREFIXES.get(prefix, prefix + ":") + local
        for iri, prefix, local in IRI_TOKEN.findall(text)
    )


def _describe(
    kg: KnowledgeGraph, reading: Reading, results: list[Applicable], labels: dict[str, str]
) -> None:
    """Fill in outcome, quote, URN and citation, binding labels and parameters."""
    kg.load_provenance()
    for a in results:
        row = kg.provenance[a.rule]
        a.rule_id, a.polarity, a.wording, a.gloss = row["id"], row.get("pol"), row.get("zh"), row.get("en")
        a.topic, a.quote, a.urn, a.paragraph = row["topic"], row["quote"], row["urn"], int(row["para"])
        if len(spans := kg.quotes.get(a.rule, [])) > 1:
            a.quotes = [{"quote": q, "paragraph": para} for q, para in spans]
        a.work_title, a.citation, a.section = row["title"], row["cite"], row["heading"]
        a.binding_labels = {v: labels.get(e, e) for v, e in a.bindings.items()}
        for name, var, prop in kg.parameters.get(a.rule, ()):
            a.parameters[name] = _parameter(kg, reading, a.bindings.get(var), prop)


def _parameter(kg: KnowledgeGraph, reading: Reading, entity: str | None, prop: str) -> str:
    """The value of ``prop`` on the bound entity (its label and, for a branch, its direction), or
    the result of the procedure ``procedure:<name>`` run on it, with the passage that defines it."""
    if entity is None:
        return "?"
    if prop.startswith("procedure:"):
        found = procedure(prop.split(":", 1)[1])
        return f"{found.run(reading.store, ox.NamedNode(entity))} — {found.summary} ({', '.join(found.passages)})"
    values = [
        q.object for q in reading.store.quads_for_pattern(ox.NamedNode(entity), ox.NamedNode(prop), None)
    ]
    if not values:
        return "?"
    return kg.concept_label(values[0].value) if isinstance(values[0], ox.NamedNode) else values[0].value
