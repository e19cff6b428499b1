"""Retrieval: every rule of the graph that applies to a reading, with bindings and provenance.

1. The reading's chart facts go into a small store of their own (the default graph).
2. Definition rules whose topic is the reading's topic or broader run first (SPARQL
   CONSTRUCT), adding roles such as 用神 or 類神, until nothing new appears.
3. Candidates: rules of the topic (or broader) whose constant facts (``dk:requires``) are all
   held by one entity each, checked as Python set containment, so the cost grows with the
   rules that can possibly fire, not with all rules.
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

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, Literal

from kg.errors import InputError, KgError
from kg.registry import procedure
from kg.vocabulary import DK, sparql_prefixes

PREFIXES = sparql_prefixes()
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
READING = ox.NamedNode(str(DK.Reading))

ReadingIndex = tuple[dict[str, list[frozenset[tuple[str, str]]]], frozenset[tuple[str, str]]]
"""What :meth:`Reading.index` returns: per binding property, its entities' fact sets; the
reading's own facts."""


@dataclass(frozen=True)
class RuleInfo:
    iri: str
    kind: str
    topic: str
    template: str | None
    arguments: str
    variables: tuple[str, ...]
    requires: dict[str, tuple[str, frozenset[tuple[str, str]]]]
    construct: str | None
    overrides: str | None


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


class KnowledgeGraph:
    """The built graph in an Oxigraph store, with the rule index retrieval needs."""

    def __init__(self, store: ox.Store) -> None:
        self.store = store
        self.rules: dict[str, RuleInfo] = {}
        self.templates: dict[str, str] = {}
        self.joinable: set[str] = set()
        self._load_rules()
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

    @classmethod
    def load(cls, path: Path) -> KnowledgeGraph:
        if not path.exists():
            raise InputError(f"{path} does not exist: run `kg build` first")
        store = ox.Store()
        try:
            store.bulk_load(path=str(path), format=ox.RdfFormat.N_QUADS)
        except (SyntaxError, ValueError, OSError) as exc:
            raise InputError(f"{path}: cannot load the graph ({exc})") from None
        return cls(store)

    def query(self, text: str) -> list[dict]:
        return solutions(self.store.query(PREFIXES + text, use_default_graph_as_union=True))

    def _load_rules(self) -> None:
        requires: dict[str, dict[str, tuple[str, set]]] = defaultdict(dict)
        for row in self.query("SELECT ?r ?k WHERE { ?r dk:requires ?k }"):
            var, binding, pred, value = row["k"].value.split("\t")
            entry = requires[row["r"].value].setdefault(var, (binding, set()))
            entry[1].add((pred, value))
        variables: dict[str, list[str]] = defaultdict(list)
        for row in self.query("SELECT ?r ?v WHERE { ?r dk:variable ?v }"):
            variables[row["r"].value].append(row["v"].value)
        rows = self.query(
            """SELECT ?r ?kind ?topic ?tmpl ?tq ?join ?args ?construct ?over WHERE {
                 ?r a dk:Rule ; a ?kind ; dk:topic ?topic . FILTER(?kind != dk:Rule)
                 OPTIONAL { ?r dk:template ?tmpl . ?tmpl dk:query ?tq ; dk:joinable ?join . ?r dk:templateArguments ?args }
                 OPTIONAL { ?r dk:construct ?construct }
                 OPTIONAL { ?r dk:overrides ?over } }"""
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
                requires={v: (b, frozenset(facts)) for v, (b, facts) in requires[iri].items()},
                construct=row["construct"].value if "construct" in row else None,
                overrides=row["over"].value if "over" in row else None,
            )

        self._index_rules()
        self.provenance: dict[str, dict[str, str]] = {}
        self.quotes: dict[str, list[tuple[str, int]]] = {}
        self.parameters: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        self._concept_labels: dict[str, str] = {}

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

    def concept_label(self, iri: str) -> str:
        """zh-Hant label of a concept, with its direction for a branch (子 (北))."""
        if iri not in self._concept_labels:
            rows = self.query(
                f"""SELECT ?l ?d WHERE {{ <{iri}> skos:prefLabel ?l FILTER(langMatches(lang(?l), 'zh-Hant'))
                      OPTIONAL {{ <{iri}> dk:direction ?d }} }}"""
            )
            label = rows[0]["l"].value if rows else iri
            direction = rows[0].get("d") if rows else None
            self._concept_labels[iri] = f"{label} ({direction.value})" if direction is not None else label
        return self._concept_labels[iri]

    def _index_rules(self) -> None:
        """Each rule under its rarest required fact, per topic; rules requiring nothing apart."""
        frequency: dict[tuple[str, str, str], int] = defaultdict(int)
        for rule in self.rules.values():
            for key in _keys(rule):
                frequency[key] += 1
        self.index: dict[tuple[str, str, str, str], list[RuleInfo]] = defaultdict(list)
        self.unindexed: dict[str, list[RuleInfo]] = defaultdict(list)
        for rule in self.rules.values():
            keys = _keys(rule)
            if keys:
                self.index[(rule.topic, *min(keys, key=lambda k: (frequency[k], k)))].append(rule)
            else:
                self.unindexed[rule.topic].append(rule)

    def candidates(self, chain: list[str], entities, reading_facts) -> list[RuleInfo]:
        """Rules of the topics in ``chain`` whose required facts the reading holds."""
        present = {("reading", p, v) for p, v in reading_facts}
        present |= {(b, p, v) for b, sets in entities.items() for facts in sets for p, v in facts}
        found = [r for t in chain for r in self.unindexed.get(t, ())]
        for topic in chain:
            for key in present:
                found += self.index.get((topic, *key), ())
        return [r for r in found if is_candidate(r, entities, reading_facts)]

    def topic_chain(self, topic: str) -> list[str]:
        chain = [topic]
        while chain[-1] in self.broader:
            chain.append(self.broader[chain[-1]])
        return chain


class Reading:
    """A reading's chart facts in a store of their own, with the index candidate selection uses."""

    def __init__(self, chart: Graph | ox.Store) -> None:
        if isinstance(chart, ox.Store):
            self.store = chart
        else:
            self.store = ox.Store()
            self.store.bulk_load(chart.serialize(format="nt").encode("utf-8"), format=ox.RdfFormat.N_TRIPLES)
        readings = [q.subject for q in self.store.quads_for_pattern(None, RDF_TYPE, READING)]
        if len(readings) != 1:
            raise InputError(f"a chart graph must hold exactly one dk:Reading (found {len(readings)})")
        self.iri = readings[0]
        topics = [q.object for q in self.store.quads_for_pattern(self.iri, ox.NamedNode(str(DK.topic)), None)]
        self.topic = topics[0].value if topics else None
        self._index: ReadingIndex | None = None

    def index(self) -> ReadingIndex:
        """Per binding property, the fact sets of its entities; and the reading's own facts.

        Computed once and kept until :meth:`extend` adds facts: facts added to :attr:`store`
        directly are not seen.
        """
        if self._index is None:
            self._index = self._compute_index()
        return self._index

    def _compute_index(self) -> ReadingIndex:
        facts: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for q in self.store.quads_for_pattern(None, None, None):
            if not isinstance(q.object, ox.BlankNode):
                facts[q.subject.value].add((q.predicate.value, _term(q.object)))
        entities: dict[str, list[frozenset]] = defaultdict(list)
        for pred, obj in facts[self.iri.value]:
            if obj.startswith("<") and obj[1:-1] in facts:
                entities[pred].append(frozenset(facts[obj[1:-1]]))
        return entities, frozenset(facts[self.iri.value])

    def select(self, query: str, engine: str, terms: frozenset[str] = frozenset()) -> list[dict[str, str]]:
        """Solutions as {variable: value}; the variables in ``terms`` in rule-constant form (``<iri>``, ``6``)."""
        if engine == "oxigraph":
            rows = solutions(self.store.query(PREFIXES + query))
            return [{k: _term(t) if k in terms else t.value for k, t in row.items()} for row in rows]
        return [
            {
                str(k): v.n3() if k in terms and not isinstance(v, Literal) else str(v)
                for k, v in row.asdict().items()
            }
            for row in self.rdflib_graph().query(PREFIXES + query)
        ]

    def construct(self, query: str) -> list[ox.Quad]:
        return [ox.Quad(t.subject, t.predicate, t.object) for t in self.store.query(query)]

    def extend(self, quads: list[ox.Quad]) -> None:
        self.store.extend(quads)
        self._rdflib = None
        self._index = None

    def rdflib_graph(self) -> Graph:
        """The same facts as an rdflib graph, for running the queries on rdflib's engine."""
        if getattr(self, "_rdflib", None) is None:
            dump = self.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
            self._rdflib = Graph().parse(data=dump, format="nt")
        return self._rdflib


def _keys(rule: RuleInfo) -> list[tuple[str, str, str]]:
    return [(binding, p, v) for binding, facts in rule.requires.values() for p, v in facts]


def is_candidate(rule: RuleInfo, entities, reading_facts) -> bool:
    """True when, for each of the rule's variables, one entity of its type holds all its required facts."""
    for var, (binding, needed) in rule.requires.items():
        if var == "reading":
            if not needed <= reading_facts:
                return False
        elif not any(needed <= facts for facts in entities.get(binding, ())):
            return False
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


def _run_template(kg: KnowledgeGraph, reading: Reading, template: str, members: list[RuleInfo], engine: str):
    """(rule, bindings) for every way a candidate of this template applies."""
    text = kg.templates[template]
    if template in kg.joinable and len(members) > JOIN_THRESHOLD:
        by_arguments: dict[tuple[str, ...], list[RuleInfo]] = defaultdict(list)
        for rule in members:
            by_arguments[tuple(rule.arguments.split())].append(rule)
        width = len(members[0].arguments.split())
        arguments = [f"_c{i}" for i in range(1, width + 1)]
        query = text.replace("SELECT ", "SELECT " + " ".join("?" + a for a in arguments) + " ", 1)
        for row in reading.select(query, engine, frozenset(arguments)):
            key = tuple(row.pop(a) for a in arguments)
            row.pop("reading", None)
            for rule in by_arguments.get(key, ()):
                yield rule, row
        return
    query = batched_query(text, [(r.iri, r.arguments) for r in members])
    for row in reading.select(query, engine):
        rule = kg.rules[row.pop("_rule")]
        row.pop("reading", None)
        yield rule, row


def retrieve(
    kg: KnowledgeGraph,
    reading: Reading,
    topic: str | None = None,
    engine: str = "oxigraph",
    stats: dict[str, int] | None = None,
) -> list[Applicable]:
    """Every rule that applies to ``reading`` for ``topic`` (default: the reading's topic).

    ``stats``, if given, receives the number of candidate rules and of templates run.
    """
    topic = topic or reading.topic
    if topic is None:
        raise InputError("no topic: give one (e.g. --topic 遷移) or assert dk:topic on the reading")
    if topic not in kg.topics:
        raise InputError(f"unknown topic <{topic}>")
    chain = kg.topic_chain(topic)
    _apply_definitions(kg, chain, reading)
    candidates = [r for r in kg.candidates(chain, *reading.index()) if r.kind != "definition" and r.template]
    by_template: dict[str, list[RuleInfo]] = defaultdict(list)
    for rule in candidates:
        by_template[rule.template].append(rule)
    if stats is not None:
        stats.update(candidates=len(candidates), templates=len(by_template))
    results: list[Applicable] = []
    for template, members in sorted(by_template.items()):
        for rule, row in _run_template(kg, reading, template, members, engine):
            status = "consider" if rule.kind == "text-only" else "applies"
            results.append(Applicable(rule.iri, "", rule.kind, status, dict(sorted(row.items()))))
    results += [
        Applicable(r.iri, "", r.kind, "consider", {})
        for t in chain
        for r in kg.unindexed.get(t, ())
        if r.kind == "text-only" and not r.template
    ]
    _mark_overridden(kg, results)
    results = _dedupe(results)
    _describe(kg, reading, results)
    return sorted(
        results, key=lambda a: (a.status != "applies", a.kind == "text-only", a.urn or "", a.rule_id)
    )


def _mark_overridden(kg: KnowledgeGraph, results: list[Applicable]) -> None:
    """An exception that applies overrides the applications of the rule it names that it qualifies:
    those whose bindings agree with its own on every variable both bind (same name, same entity).
    When they bind no variable in common, it overrides every application of that rule."""
    by_rule: dict[str, list[Applicable]] = defaultdict(list)
    for a in results:
        by_rule[a.rule].append(a)
    for a in results:
        if a.kind == "exception" and a.status == "applies":
            for b in by_rule.get(kg.rules[a.rule].overrides or "", ()):
                agree = all(a.bindings[v] == b.bindings[v] for v in a.bindings.keys() & b.bindings.keys())
                if agree and a.rule not in b.overridden_by:
                    b.status = "overridden"
                    b.overridden_by.append(a.rule)


def _dedupe(results: list[Applicable]) -> list[Applicable]:
    seen, unique = set(), []
    for a in results:
        key = (a.rule, tuple(a.bindings.items()))
        if key not in seen:
            seen.add(key)
            unique.append(a)
    return unique


def _apply_definitions(kg: KnowledgeGraph, chain: list[str], reading: Reading, rounds: int = 8) -> None:
    """Run the topic's definition CONSTRUCTs until they add nothing new.

    Candidates are chosen again each round: a role one definition assigns (祖墓) may be what
    another definition needs (曾祖墳 = the line above the 祖墓).
    """
    for _ in range(rounds):
        definitions = [r for r in kg.candidates(chain, *reading.index()) if r.kind == "definition"]
        new = [q for d in definitions for q in reading.construct(d.construct) if q not in reading.store]
        if not new:
            return
        reading.extend(new)
    raise KgError("definition rules did not reach a fixpoint (a cycle of roles?)")


def _describe(kg: KnowledgeGraph, reading: Reading, results: list[Applicable]) -> None:
    """Fill in outcome, quote, URN and citation, binding labels and parameters."""
    kg.load_provenance()
    labels = {
        q.subject.value: q.object.value
        for q in reading.store.quads_for_pattern(None, ox.NamedNode(f"{DK}label"), None)
    }
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
