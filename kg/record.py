"""A reading record (占記): one reading saved whole, so it can be cited, compared and cast again.

The record is a JSON document, ``"record": "divkg-reading/1"``, holding what the reading was made
from and what it found:

- ``system`` (``liuyao`` 六爻 or ``liuren`` 大六壬), ``inputs`` (the values of the reading's command-line
  options, by their parameter names: ``pillars``, ``lines``, ``day``, ``ju`` …; options left out
  are absent), ``topic`` (占事: IRI and zh-Hant label), the ``querent`` facts, the ``options`` in force
  (defaults included) and the ``calendar`` record;
- ``chart`` (the chart's JSON view, as ``kg chart … --format json`` prints it), the ``reading`` IRI
  and ``facts``, the chart facts retrieval ran on (N-Triples, one triple a line, sorted);
- ``rules``: every applicable rule as :meth:`kg.match.Applicable.as_dict` gives it (rule IRI, id,
  status, bindings and their labels, polarity, wording, gloss, quotes, URN, citation);
- ``graph``: which build of the knowledge graph answered (the sha256 of its ``kg.nq``, the
  snapshot directory under ``build/.builds`` when there is one, and the number of rules).

:func:`record_dataset` gives the same as RDF: a named graph (TriG) holding the chart facts and one
``prov:Entity`` per application, derived from its rule and the reading, each binding a
``prov:Influence`` whose ``prov:influencer`` is the bound entity and whose ``rdfs:label`` is the
variable. The default graph says what the named graph is: a ``prov:Bundle`` of record version
``divkg-reading/1``, generated using the graph build named by its hash as an RFC 6920 ``ni:`` IRI.

``kg reading liuyao|liuren --format record`` writes the record and the server's reading pages offer
it for download (:mod:`kg.serve.readings`): both build it here. :func:`rerun` casts a saved record
again on the current graph and :class:`Changes` says what differs.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.metadata import version
from pathlib import Path
from typing import Any

import click
from rdflib import Dataset, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS

from kg.errors import InputError
from kg.facts import Facts
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.report import render_text
from kg.simplified import topic as user_topic
from kg.vocabulary import DK, PREFIXES

RECORD = "divkg-reading/1"
SYSTEMS = {"liuyao": "六爻", "liuren": "大六壬"}
PROV = Namespace(PREFIXES["prov"])


@dataclass(frozen=True)
class Cast:
    """A chart cast from the inputs of ``kg reading liuyao|liuren``: its views and its facts."""

    system: str
    inputs: dict[str, Any]
    """The options given, by parameter name (None, False and empty values left out)."""
    topic: URIRef | None
    chart: Any
    """The system's chart (:class:`kg.liuyao.chart.Chart` or :class:`kg.liuren.chart.Chart`)."""
    querent: dict[str, Any]
    text: str
    """The chart in the traditional layout (the text view)."""
    data: dict[str, Any]
    """The chart's JSON view."""
    facts: Facts
    """The chart facts, as retrieval reads them."""

    @cached_property
    def graph(self) -> Graph:
        """The chart facts as an rdflib graph, for the views."""
        return self.facts.graph()

    @property
    def reading(self) -> str:
        return str(next(self.graph.subjects(RDF.type, DK.Reading)))


def given(params: Mapping[str, Any]) -> dict[str, Any]:
    """The options actually given: None, False and empty values dropped, tuples as lists."""
    return {
        k: list(v) if isinstance(v, tuple) else v
        for k, v in params.items()
        if v is not None and v is not False and v != ()
    }


def cast(system: str, params: Mapping[str, Any], topic: str | URIRef | None) -> Cast:
    """The chart of ``params`` (the values of the system's ``input_options``), with its facts about
    ``topic`` (an IRI, or as a user names it: 遷移, qianyi, 家宅/棟梁; read after the inputs, as the
    command line does). Raises :class:`InputError` on bad input."""
    if system == "liuyao":
        from kg.liuyao.commands import liuyao_inputs
        from kg.liuyao.facts import chart_facts, reading_iri
        from kg.liuyao.view import chart_to_json, render

        chart, querent = liuyao_inputs(**params)
        topic = _topic(topic)
        facts = chart_facts(chart, reading_iri(chart), topic, querent)
    elif system == "liuren":
        from kg.liuren.commands import liuren_inputs, liuren_querent
        from kg.liuren.facts import chart_facts, reading_iri
        from kg.liuren.view import chart_to_json, render

        chart, querent = liuren_inputs(**params), liuren_querent(**params)
        topic = _topic(topic)
        facts = chart_facts(chart, reading_iri(chart), topic, querent)
    else:
        raise InputError(f"no system {system!r}; the systems are {', '.join(SYSTEMS)}")
    return Cast(system, given(params), topic, chart, querent, render(chart), chart_to_json(chart), facts)


@cache
def _input_command(system: str) -> click.Command:
    """A command whose options are exactly the chart inputs of ``kg reading <system>``."""
    from kg.liuren import commands as liuren
    from kg.liuyao import commands as liuyao

    module = liuyao if system == "liuyao" else liuren

    def inputs(**params: Any) -> dict[str, Any]:
        return params

    return click.command(system)(module.input_options(inputs))


def input_values(system: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs of a reading of ``system`` by option name (``day-night`` or ``day_night``), as a
    record or a line of a ``kg batch`` inputs file gives them, checked and converted as the command
    line would; only the options given are returned."""
    command = _input_command(system)
    params = {p.name: p for p in command.params if isinstance(p, click.Option)}
    args: list[str] = []
    for key, value in data.items():
        param = params.get(key.replace("-", "_"))
        if param is None:
            raise InputError(f"unknown option {key!r} (options: {', '.join(sorted(params))}, topic)")
        if param.is_flag:
            if not isinstance(value, bool):
                raise InputError(f"{key}: a flag takes true or false, not {value!r}")
            args += [param.opts[0]] if value else []
        else:
            for item in value if param.multiple and isinstance(value, list) else [value]:
                args += [param.opts[0], str(item)]
    try:
        parsed = command.make_context(command.name or "", args).params
    except click.ClickException as exc:
        raise InputError(exc.format_message()) from None
    named = {key.replace("-", "_") for key in data}
    return {name: value for name, value in parsed.items() if name in named}


def _topic(topic: str | URIRef | None) -> URIRef | None:
    return topic if topic is None or isinstance(topic, URIRef) else user_topic(topic)


def read(kg: KnowledgeGraph, found: Cast) -> list[Applicable]:
    """Every rule that applies to the cast (:func:`kg.match.retrieve` on its facts and topic)."""
    return retrieve(kg, Reading(found.facts), str(found.topic))


def text_report(found: Cast, results: list[Applicable]) -> str:
    """The chart and the rules as ``kg reading`` prints them: ready to paste."""
    return found.text.rstrip() + "\n\n" + render_text(results)


def build_id(graph: Path) -> dict[str, str | None]:
    """Which build a graph file is: the sha256 of its bytes, and its snapshot directory's name when
    it lies in ``build/.builds`` (``build/kg.nq`` links there)."""
    digest = hashlib.sha256()
    try:
        with graph.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError as exc:
        raise InputError(f"{graph}: cannot read the graph ({exc.strerror})") from None
    folder = graph.resolve().parent
    return {
        "sha256": digest.hexdigest(),
        "snapshot": folder.name if folder.parent.name == ".builds" else None,
    }


def make_record(
    found: Cast, results: list[Applicable], kg: KnowledgeGraph, build: Mapping[str, Any]
) -> dict[str, Any]:
    """The record of a reading (see the module doc) answered by ``kg``, whose file is ``build``
    (:func:`build_id`)."""
    facts = sorted(line for line in found.graph.serialize(format="nt").splitlines() if line)
    return {
        "record": RECORD,
        "software": f"divkg {version('divkg')}",
        "system": found.system,
        "reading": found.reading,
        "topic": {"iri": str(found.topic), "label": kg.topics.get(str(found.topic))},
        "inputs": found.inputs,
        "querent": found.querent,
        "options": found.data["options"],
        "calendar": found.data["calendar"],
        "chart": found.data,
        "facts": "\n".join(facts) + "\n",
        "rules": [a.as_dict() for a in results],
        "graph": dict(build) | {"rules": len(kg.rules)},
    }


def named_information(sha256: str) -> URIRef:
    """The RFC 6920 ``ni:`` IRI of a sha256 digest given in hex."""
    digest = base64.urlsafe_b64encode(bytes.fromhex(sha256)).decode().rstrip("=")
    return URIRef(f"ni:///sha-256;{digest}")


def record_name(record: Mapping[str, Any]) -> URIRef:
    """The named graph of a record: under its reading, by a hash of inputs, topic and build."""
    key = json.dumps([record["inputs"], record["topic"]["iri"], record["graph"]["sha256"]], sort_keys=True)
    return URIRef(f"{record['reading']}/record-{hashlib.sha256(key.encode()).hexdigest()[:12]}")


def record_dataset(record: Mapping[str, Any]) -> Dataset:
    """The record as RDF: its named graph and the default graph describing it (module doc)."""
    name, reading = record_name(record), URIRef(record["reading"])
    dataset = Dataset()
    for prefix, namespace in PREFIXES.items():
        dataset.bind(prefix, namespace)
    graph = dataset.graph(name)
    graph.parse(data=record["facts"], format="nt")
    for n, rule in enumerate(record["rules"], 1):
        application = URIRef(f"{name}/application/{n}")
        graph.add((application, RDF.type, PROV.Entity))
        graph.add((application, PROV.wasDerivedFrom, URIRef(rule["rule"])))
        graph.add((application, PROV.wasDerivedFrom, reading))
        graph.add((application, RDFS.label, Literal(f"{rule['status']}: {rule['rule_id']}")))
        for variable, value in rule.get("bindings", {}).items():
            binding = URIRef(f"{application}/binding/{variable}")
            graph.add((application, PROV.qualifiedInfluence, binding))
            graph.add((binding, RDF.type, PROV.Influence))
            graph.add((binding, RDFS.label, Literal(variable)))
            entity = URIRef(value) if value.startswith(str(reading)) else Literal(value)
            graph.add((binding, PROV.influencer, entity))
        for exception in rule.get("overridden_by", []):
            graph.add((application, PROV.wasInfluencedBy, URIRef(exception)))
    build = named_information(record["graph"]["sha256"])
    activity = URIRef(f"{name}/activity")
    dataset.add((name, RDF.type, PROV.Bundle))
    dataset.add((name, DCTERMS.hasVersion, Literal(RECORD)))
    dataset.add((name, PROV.wasDerivedFrom, reading))
    dataset.add((name, PROV.wasGeneratedBy, activity))
    dataset.add((activity, RDF.type, PROV.Activity))
    dataset.add((activity, PROV.used, build))
    dataset.add((build, DK.sha256, Literal(record["graph"]["sha256"])))
    if snapshot := record["graph"].get("snapshot"):
        dataset.add((build, RDFS.label, Literal(snapshot)))
    return dataset


def serialise(record: Mapping[str, Any], fmt: str) -> str:
    """The record in RDF: ``trig`` (the named graph and its description), or ``turtle`` (the same
    triples in one graph, for tools that read no named graphs)."""
    dataset = record_dataset(record)
    if fmt == "trig":
        return dataset.serialize(format="trig")
    union = Graph()
    for prefix, namespace in dataset.namespaces():
        union.bind(prefix, namespace)
    for s, p, o, _ in dataset.quads():
        union.add((s, p, o))
    return union.serialize(format="turtle")


RERUN_SCHEMA = {
    "type": "object",
    "properties": {
        "system": {"enum": list(SYSTEMS)},
        "inputs": {"type": "object"},
        "topic": {"type": "object", "required": ["iri"], "properties": {"iri": {"type": "string"}}},
        "rules": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["rule", "rule_id", "status"],
                "properties": {
                    "rule": {"type": "string"},
                    "rule_id": {"type": "string"},
                    "status": {"type": "string"},
                    "wording": {"type": ["string", "null"]},
                    "bindings": {"type": "object", "additionalProperties": {"type": "string"}},
                    "binding_labels": {"type": "object"},
                },
            },
        },
        "graph": {"type": "object", "properties": {"sha256": {"type": "string"}}},
    },
}
"""The parts of a record that a new cast reads (:func:`rerun`, :class:`Changes`), with their types."""


@cache
def _rerun_validator() -> Any:
    """The validator of :data:`RERUN_SCHEMA`; jsonschema is imported here, by ``kg reading --from``
    alone (it costs a tenth of the start-up of ``kg reading``)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(RERUN_SCHEMA)


def load_record(path: Path) -> dict[str, Any]:
    """A saved record, checked for its version and the parts a new cast needs, its inputs converted
    as the command line converts them (:func:`input_values`)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a reading record ({exc})") from None
    if not isinstance(record, dict) or record.get("record") != RECORD:
        found = record.get("record") if isinstance(record, dict) else None
        raise InputError(f'{path}: not a {RECORD} record (its "record" is {found!r})')
    missing = [k for k in ("system", "inputs", "topic", "rules", "graph") if k not in record]
    if missing:
        raise InputError(f"{path}: the record lacks {', '.join(missing)}")
    from jsonschema.exceptions import best_match

    if (problem := best_match(_rerun_validator().iter_errors(record))) is not None:
        raise InputError(f"{path}: {problem.json_path}: {problem.message}")
    try:
        record["inputs"] = input_values(record["system"], record["inputs"])
    except InputError as exc:
        raise InputError(f"{path}: $.inputs: {exc}") from None
    return record


def _key(rule: Mapping[str, Any]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    return rule["rule"], rule["status"], tuple(sorted(rule.get("bindings", {}).items()))


@dataclass(frozen=True)
class Changes:
    """What a new cast of a saved record found differently: the graph builds, and the applications
    (rule, status, bindings) added and removed."""

    before: dict[str, Any]
    after: dict[str, Any]
    added: list[dict[str, Any]]
    removed: list[dict[str, Any]]

    @classmethod
    def between(cls, old: Mapping[str, Any], new: Mapping[str, Any]) -> Changes:
        then = {_key(r): r for r in old["rules"]}
        now = {_key(r): r for r in new["rules"]}
        return cls(
            old["graph"],
            new["graph"],
            [r for k, r in now.items() if k not in then],
            [r for k, r in then.items() if k not in now],
        )

    @property
    def same_graph(self) -> bool:
        return self.before.get("sha256") == self.after.get("sha256")

    def summary(self) -> str:
        """In words: which graph, and each rule added (+) or removed (−) with its wording."""
        if self.same_graph:
            head = f"the same graph as the record (sha256 {self.after['sha256'][:12]})"
        else:
            head = (
                f"the graph has changed since the record (sha256 {self.before.get('sha256', '?')[:12]}"
                f" → {self.after['sha256'][:12]})"
            )
        if not self.added and not self.removed:
            return f"{head}: the same rules apply\n"
        lines = [f"{head}: {len(self.added)} rules added, {len(self.removed)} removed"]
        for sign, rules in (("+", self.added), ("−", self.removed)):
            for r in rules:
                because = "; ".join(f"{v} = {label}" for v, label in r.get("binding_labels", {}).items())
                lines.append(
                    f"{sign} {r['rule_id']} [{r['status']}] {r.get('wording') or ''}"
                    + (f" (because {because})" if because else "")
                )
        return "\n".join(lines) + "\n"


def rerun(
    record: Mapping[str, Any], kg: KnowledgeGraph, build: Mapping[str, Any]
) -> tuple[Cast, list[Applicable], dict[str, Any], Changes]:
    """Cast a saved record again on ``kg`` (whose file is ``build``, :func:`build_id`): the cast,
    the rules, the new record and what changed."""
    found = cast(record["system"], record["inputs"], URIRef(record["topic"]["iri"]))
    results = read(kg, found)
    new = make_record(found, results, kg, build)
    return found, results, new, Changes.between(record, new)
