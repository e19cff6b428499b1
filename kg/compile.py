"""The rule compiler: ``corpus/rules/*.yaml`` → rules as RDF, each with its SPARQL query.

A rule file names its work and lists rules::

    work: yiyin
    rules:
      - id: yiyin.dongliang.leak
        para: 6
        quote: 父下伏水鬼，棟必漏也。
        vars: {L: line, H: hidden-line}
        when: [L.relative 父母, H.under L, H.element 水, H.relative 官鬼]
        then: {polarity: 凶, zh: 棟必漏, en: the roof under the ridge-beam will leak}

Conditions are strings ``X.fact value`` (a concept by any zh-Hant label, a number, ``yes``/``no``,
or ``a|b`` for any of several), ``X.fact`` (a boolean fact that holds), ``X.fact Y`` (a relation
to another variable), ``X != Y``, and the mappings ``{any: [[…], […]]}``, ``{not: […]}`` and
``{count: X, type: line, where: […], min: n, max: m}``. ``reading.fact value`` tests the reading
itself. ``cases`` split one sentence into several rules sharing the conditions.

Each file is first checked against ``corpus/rules/rule.schema.json`` (JSON Schema, draft 2020-12):
its keys, types and enumerations, and what each kind of rule needs. The compiler then refuses,
naming file, rule and problem: a schema violation (with the rule, case and key path), a quote not
at its place, an unknown concept or fact, an undeclared variable, a fact the chart vocabulary does
not define for the variable's type, and a duplicate rule id. See ``corpus/rules/README.md``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, ValidationError
from rdflib import URIRef

from kg.corpus import Paragraph, Segment, work, works
from kg.errors import KgError
from kg.paths import RULES
from kg.vocabulary import DK, SYSTEMS, Fact, Vocabulary, curie, sparql_prefixes, vocabulary

SCHEMA = RULES / "rule.schema.json"


def _system_requirement(rule: CompiledRule) -> str:
    """The ``dk:requires`` key every rule has: the reading is of its work's system."""
    return f"reading\treading\t{DK.system}\t<{SYSTEMS[works()[rule.work].system]}>"


KINDS = {
    "judgement": DK.JudgementRule,
    "definition": DK.DefinitionRule,
    "exception": DK.ExceptionRule,
    "chart-verdict": DK.ChartVerdictRule,
    "text-only": DK.TextOnlyRule,
}
TYPE_NAMES = {
    "integer": "an integer", "string": "a string", "array": "a list", "object": "a mapping",
    "boolean": "true or false",
}  # fmt: skip
VAR_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
ATOM = re.compile(r"^(?P<subject>[A-Za-z][A-Za-z0-9_]*)\.(?P<fact>[a-z][a-z-]*)(?:\s+(?P<value>.+))?$")
PROCEDURE_CALL = re.compile(r"^(?P<procedure>[a-z][a-z-]*)\((?P<subject>[A-Z][A-Za-z0-9_]*)\)$")
NOT_SAME = re.compile(r"^(?P<a>[A-Z][A-Za-z0-9_]*)\s*!=\s*(?P<b>[A-Z][A-Za-z0-9_]*)$")


class RuleError(KgError):
    """A rule the compiler refuses; the message names file, rule id and problem. Bad input: exit 2."""

    exit_code = 2


@dataclass(frozen=True)
class Quote:
    """One quoted span of a source: exact text and absolute code-point offsets."""

    work: str
    paragraph: int
    start: int
    end: int
    text: str
    segments: tuple[Segment, ...]

    @property
    def prefix(self) -> str:
        return work(self.work).text[max(0, self.start - 8) : self.start]

    @property
    def suffix(self) -> str:
        return work(self.work).text[self.end : self.end + 8]


@dataclass(frozen=True)
class Unencoded:
    """A passage that is not a rule (narrative, a label, a worked example's chart), with why."""

    quote: Quote
    why: URIRef
    note: str | None

    @property
    def iri(self) -> URIRef:
        return URIRef(f"{DK}source/{self.quote.work}/unencoded/{self.quote.start}-{self.quote.end}")


@dataclass(frozen=True)
class Parameter:
    """An outcome value filled from a bound entity: one of its facts, or a procedure run on it."""

    name: str
    variable: str
    fact: Fact | None = None
    procedure: str | None = None


@dataclass
class CompiledRule:
    """A rule ready to be written as RDF and run as SPARQL."""

    id: str
    work: str
    kind: str
    topic: URIRef
    quotes: list[Quote]
    polarity: URIRef | None = None
    wording: str | None = None
    gloss: str | None = None
    parameters: list[Parameter] = field(default_factory=list)
    query: str | None = None
    template: str | None = None
    arguments: tuple[str, ...] = ()
    joinable: bool = False
    construct: str | None = None
    asserts: list[str] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)
    requires_one_of: list[list[list[str]]] = field(default_factory=list)
    mentions: set[URIRef] = field(default_factory=set)
    conditions: str = ""
    overrides: tuple[str, ...] = ()
    reason: URIRef | None = None
    note: str | None = None
    generalised: bool = False
    case_of: str | None = None
    variables: tuple[str, ...] = ()

    @property
    def iri(self) -> URIRef:
        return URIRef(f"{DK}rule/{self.id}")


class _Query:
    """Builds one SPARQL group; constants outside sub-selects become template arguments."""

    def __init__(self, compiler: RuleCompiler, variables: dict[str, str]) -> None:
        self.compiler = compiler
        self.variables = variables
        self.arguments: list[str] = []
        self.concrete: list[str] = []
        self.template: list[str] = []
        self.requires: list[str] = []
        """The facts the rule needs, as ``dk:requires`` keys: those of its top-level atoms of one
        value and relations, and those a top-level count with a minimum counts."""
        self.requires_one_of: list[list[list[str]]] = []
        """Needs of which one alternative must hold: the values of a top-level atom with several,
        the branches of a top-level ``any`` (each what its own atoms and counts need)."""
        self.sink: list[str] | None = None
        """Where an atom of one value puts its key: the rule's requires, those of a top-level branch
        or of a top-level count with a minimum, or nowhere (under ``not``, in a nested branch)."""
        self.one_of_sink: list[list[list[str]]] | None = None
        """Where an atom of several values puts its alternatives (the rule's requires_one_of, or
        nowhere)."""
        self.mentions: set[URIRef] = set()
        self.shown: set[str] = set()
        self.joinable = True
        self._fresh = 0
        self.counts = 0
        """Counts whose facts are required so far (each under a name of its own)."""
        self.counting: str | None = None
        """The variable of the count whose ``where`` is being read: it sees no other variable."""

    def fresh(self) -> str:
        self._fresh += 1
        return f"?_v{self._fresh}"

    def emit(self, concrete: str, template: str | None = None) -> None:
        self.concrete.append(concrete)
        self.template.append(concrete if template is None else template)

    def constant(self, term: str, in_subselect: bool, top: bool) -> str:
        """A constant in the template: a fresh ``?_cN`` argument, or the term itself in a sub-select.

        A template whose arguments all sit in top-level triple patterns is *joinable*: run once
        with the arguments unbound, its solutions can be matched to many rules by their constants.
        """
        if in_subselect:
            return term
        self.joinable &= top
        self.arguments.append(term)
        return f"?_c{len(self.arguments)}"


def _named(conditions: list) -> set[str]:
    """Every variable the conditions name: subjects, the other end of relations, both sides of
    ``X != Y``, in nested groups too."""
    found: set[str] = set()
    for cond in conditions:
        if isinstance(cond, str):
            if m := NOT_SAME.match(cond.strip()):
                found |= {m["a"], m["b"]}
            elif m := ATOM.match(cond.strip()):
                other = (m["value"] or "").strip()
                found |= {m["subject"], other} if VAR_NAME.match(other) else {m["subject"]}
        elif "any" in cond:
            found = found.union(*map(_named, cond["any"]))
        else:
            found |= _named(cond.get("not", cond.get("where", [])))
    return found


def _filtered(conditions: list, variables: dict[str, str]) -> set[str]:
    """The variables a group's filters test: both sides of ``X != Y``, and every variable a ``not``
    group names (its NOT EXISTS is evaluated with the group's own solutions)."""
    found: set[str] = set()
    for cond in conditions:
        if isinstance(cond, str):
            if m := NOT_SAME.match(cond.strip()):
                found |= {m["a"], m["b"]}
        elif "not" in cond:
            found |= _named(cond["not"])
    return found & variables.keys()


READING_ANCHOR = "?reading a dk:Reading ."

EXPANDED = 16
"""At most this many alternatives for one branch of an ``any`` (its conditions of several values
combined); beyond, the branch needs only its conditions of one value."""


def _expanded(keys: list[str], alternatives: list[list[list[str]]]) -> list[list[str]]:
    """What one branch of an ``any`` needs, as alternatives: its keys, with one alternative of each
    of its conditions of several values."""
    if math.prod(map(len, alternatives)) > EXPANDED:
        return [keys]
    return [keys + [k for chosen in combination for k in chosen] for combination in product(*alternatives)]


class RuleCompiler:
    def __init__(self, vocab: Vocabulary | None = None) -> None:
        self.vocab = vocab or vocabulary()
        self.where = ""
        self.unencoded: list[Unencoded] = []

    def fail(self, message: str) -> RuleError:
        return RuleError(f"{self.where}: {message}")

    # ── files ──────────────────────────────────────────────────────────────────────────
    def compile_all(self, directory: Path = RULES) -> list[CompiledRule]:
        rules: list[CompiledRule] = []
        seen: dict[str, str] = {}
        for path in sorted(directory.glob("*.yaml")):
            for rule in self.compile_file(path):
                if rule.id in seen:
                    raise RuleError(
                        f"{path.name}: rule {rule.id}: duplicate rule id (also in {seen[rule.id]})"
                    )
                seen[rule.id] = path.name
                rules.append(rule)
        ids = set(seen)
        for rule in rules:
            for target in rule.overrides:
                if target not in ids:
                    raise RuleError(f"{seen[rule.id]}: rule {rule.id}: overrides unknown rule {target!r}")
        return rules

    def compile_file(self, path: Path) -> list[CompiledRule]:
        self.where = path.name
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise self.fail(f"cannot read ({exc.strerror})") from None
        except UnicodeDecodeError as exc:
            raise self.fail(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except yaml.YAMLError as exc:
            raise self.fail(f"malformed YAML: {exc}") from None
        problems = sorted(rule_schema().iter_errors(data), key=lambda e: _document_order(data, e))
        if problems:
            more = f" (and {len(problems) - 1} more in this file)" if len(problems) > 1 else ""
            raise self.fail(_schema_problem(data, problems[0]) + more)
        if data["work"] not in works():
            raise self.fail(f"unknown work {data['work']!r}; the catalogue has {', '.join(works())}")
        compiled: list[CompiledRule] = []
        for raw in data["rules"]:
            compiled.extend(self.compile_rule(raw, data["work"], path.name))
        for n, raw in enumerate(data.get("unencoded", []), 1):
            self.where = f"{path.name}: {_unencoded_label(n, raw)}"
            why = self.vocab.resolve(DK.ReasonScheme, raw["why"])
            quote = self.quote(raw["para"], raw["quote"], raw.get("at"), data["work"])
            self.unencoded.append(Unencoded(quote, why, raw.get("note")))
        return compiled

    # ── one rule ───────────────────────────────────────────────────────────────────────
    def compile_rule(self, raw: dict, work_id: str, filename: str = "<rule>") -> list[CompiledRule]:
        """One rule of a file that conforms to the schema: several when it has ``cases``."""
        self.where = f"{filename}: rule {raw['id']}"
        kind = raw.get("kind", "judgement")
        quotes = self.quotes(raw, work_id)
        topic = self.topic(raw, work_id, quotes[0].paragraph)
        variables = dict(raw.get("vars", {}))
        base = dict(
            id=raw["id"],
            work=work_id,
            kind=kind,
            topic=topic,
            quotes=quotes,
            note=raw.get("note"),
            generalised=bool(raw.get("generalised", False)),
        )
        when = raw.get("when", [])
        if kind == "text-only":
            return [self.text_only(raw, base, variables, when)]
        if not when and kind != "definition" and not raw.get("cases"):
            raise self.fail("no conditions: give 'when', or make it kind: text-only with a reason")
        cases = raw.get("cases")
        if cases is None:
            return [self.with_outcome(base, variables, when, raw["then"], raw)]
        rules = []
        for n, case in enumerate(cases, 1):
            case_id = f"{raw['id']}.{case.get('id', n)}"
            then = {**raw.get("then", {}), **case.get("then", {})}
            rule = self.with_outcome({**base, "id": case_id}, variables, when + case["when"], then, raw)
            rule.case_of = raw["id"]
            rules.append(rule)
        return rules

    def with_outcome(self, base: dict, variables: dict[str, str], when: list, then: dict, raw: dict):
        overrides = raw.get("overrides") or ()
        rule = CompiledRule(
            **base, overrides=(overrides,) if isinstance(overrides, str) else tuple(overrides)
        )
        query = self.build(rule, variables, when)
        rule.wording, rule.gloss = then.get("zh"), then.get("en")
        if base["kind"] == "definition":
            asserts = then.get("assert")
            if not asserts:
                raise self.fail("a definition needs 'then: {assert: [X.role …]}'")
            rule.asserts = list(asserts)
            rule.construct = self.construct(rule, query, asserts)
        else:
            rule.polarity = self.vocab.resolve(DK.PolarityScheme, str(then.get("polarity", "")))
            if not rule.wording:
                raise self.fail("'then' needs 'zh': the outcome in the text's words")
            for name, spec in then.get("param", {}).items():
                rule.parameters.append(self.parameter(name, spec, variables))
        if not rule.gloss:
            raise self.fail("'then' needs 'en': an English gloss")
        return rule

    def text_only(self, raw: dict, base: dict, variables: dict[str, str], triggers: list) -> CompiledRule:
        rule = CompiledRule(**base)
        rule.reason = self.vocab.resolve(DK.ReasonScheme, raw["reason"])
        then = raw["then"]
        rule.wording, rule.gloss = then.get("zh"), then.get("en")
        if not rule.gloss:
            raise self.fail("'then' needs 'en': an English gloss of what the sentence says")
        if "polarity" in then:
            rule.polarity = self.vocab.resolve(DK.PolarityScheme, str(then["polarity"]))
        if triggers:
            self.build(rule, variables, triggers)
        else:  # offered to every reading of its topic, of its work's system only
            rule.requires = [_system_requirement(rule)]
        return rule

    # ── provenance ─────────────────────────────────────────────────────────────────────
    def quotes(self, raw: dict, work_id: str) -> list[Quote]:
        sources = raw.get("source") or [raw]
        return [self.quote(s["para"], s["quote"], s.get("at"), work_id) for s in sources]

    def quote(self, para: int, text: str, at: int | None, work_id: str) -> Quote:
        paragraphs = work(work_id).paragraphs
        if para not in paragraphs:
            raise self.fail(
                f"paragraph {para!r} is not a Chinese paragraph of {work_id} (even numbers 2–{max(paragraphs)})"
            )
        paragraph = paragraphs[para]
        if at is not None:
            if paragraph.text[at : at + len(text)] != text:
                found = paragraph.text.find(text)
                hint = f"; it occurs at {found}" if found >= 0 else ""
                raise self.fail(f"quote {text!r} not found at ¶{para} offset {at}{hint}")
            offset = at
        else:
            hits = [m.start() for m in re.finditer(re.escape(text), paragraph.text)]
            if not hits:
                raise self.fail(f"quote {text!r} not found in {work_id} ¶{para}{_near(paragraph, text)}")
            if len(hits) > 1:
                raise self.fail(
                    f"quote {text!r} occurs {len(hits)} times in ¶{para} (offsets {hits}); add 'at'"
                )
            offset = hits[0]
        start = paragraph.start + offset
        end = start + len(text)
        return Quote(work_id, para, start, end, text, _covering(paragraph, start, end))

    def topic(self, raw: dict, work_id: str, para: int) -> URIRef:
        text = raw.get("topic") or work(work_id).paragraphs[para].section.topic
        try:
            return self.vocab.topic(str(text))
        except KgError as exc:
            raise self.fail(str(exc)) from None

    # ── variables and conditions ───────────────────────────────────────────────────────
    def build(self, rule: CompiledRule, variables: dict[str, str], conditions: list) -> _Query:
        q = _Query(self, variables)
        bound = {"reading"}
        q.emit(READING_ANCHOR)
        # a rule speaks of the charts of its work's system only (a 大六壬 condition that holds
        # vacuously, such as a count with a maximum, must not fire on a 六爻 reading)
        system = SYSTEMS[works()[rule.work].system]
        q.emit(f"?reading dk:system {_short(f'<{system}>')} .")
        q.requires.append(_system_requirement(rule))
        q.sink, q.one_of_sink = q.requires, q.requires_one_of
        self.block(q, conditions, bound, top=True, subselect=False)
        projected = sorted((bound | q.shown) - {"reading"})
        select = "SELECT ?reading " + " ".join(f"?{v}" for v in projected)
        body = "\n  ".join(q.concrete)
        rule.query = f"{sparql_prefixes()}{select} WHERE {{\n  {body}\n}}"
        rule.template = f"{select} WHERE {{\n  " + "\n  ".join(q.template) + "\n}"
        rule.arguments = tuple(q.arguments)
        rule.joinable = q.joinable
        rule.requires = q.requires
        rule.requires_one_of = q.requires_one_of
        rule.mentions |= q.mentions
        rule.conditions = yaml.safe_dump(
            conditions, allow_unicode=True, default_flow_style=True, width=1000
        ).strip()
        rule.variables = tuple(projected)
        return q

    def block(self, q: _Query, conditions: list, bound: set[str], top: bool, subselect: bool) -> None:
        for cond in conditions:
            if isinstance(cond, str):
                self.atom(q, cond.strip(), bound, top, subselect)
            elif "any" in cond:
                self.any(q, cond["any"], bound, subselect)
            elif "not" in cond:
                inner = self.nested(q, cond["not"], set(bound), subselect)
                q.emit("FILTER NOT EXISTS {", "FILTER NOT EXISTS {")
                for c, t in inner:
                    q.emit("  " + c, "  " + t)
                q.emit("}")
            else:
                self.count(q, cond, bound)

    def nested(
        self,
        q: _Query,
        conditions: list,
        bound: set[str],
        subselect: bool,
        sink: list[str] | None = None,
        one_of_sink: list[list[list[str]]] | None = None,
        rebind: Iterable[str] = (),
    ) -> list[tuple[str, str]]:
        """The group's SPARQL lines, the variables of ``rebind`` bound again at its head; its atoms'
        keys go to ``sink`` and ``one_of_sink``."""
        start, outer = len(q.concrete), (q.sink, q.one_of_sink)
        for var in rebind:
            self.bind(q, var, q.variables[var], set())
        q.sink, q.one_of_sink = sink, one_of_sink
        self.block(q, conditions, bound, top=False, subselect=subselect)
        q.sink, q.one_of_sink = outer
        pairs = list(zip(q.concrete[start:], q.template[start:], strict=True))
        del q.concrete[start:], q.template[start:]
        return pairs

    def any(self, q: _Query, branches: list[list], bound: set[str], subselect: bool) -> None:
        groups, bound_sets = [], []
        collect = q.sink is q.requires
        needs: list[list[str]] = []
        for branch in branches:
            local = set(bound)
            keys: list[str] = []
            alternatives: list[list[list[str]]] = []
            # a filter in a UNION branch sees only the branch's own variables: those it tests that
            # are bound outside are bound again inside, and the join keeps them the same
            tested = sorted(_filtered(branch, q.variables) & (bound - {"reading"}))
            groups.append(
                self.nested(
                    q,
                    branch,
                    local,
                    subselect,
                    keys if collect else None,
                    alternatives if collect else None,
                    tested,
                )
            )
            needs += _expanded(keys, alternatives)
            bound_sets.append(local)
        if collect and needs and all(needs):
            q.requires_one_of.append(needs)
        for i, group in enumerate(groups):
            q.emit("{" if i == 0 else "} UNION {")
            top = [c for c, _ in group if not c.startswith(" ")]
            if any(c.startswith("FILTER NOT EXISTS") for c in top) and not any(
                c.startswith(("?reading ", "{ SELECT ?reading")) for c in top
            ):
                # a branch binds no ?reading of its own: anchored, its NOT EXISTS tests the outer
                # reading, not every reading of the store
                q.emit("  " + READING_ANCHOR)
            for c, t in group:
                q.emit("  " + c, "  " + t)
        q.emit("}")
        bound |= set.intersection(*bound_sets)
        q.shown |= set.union(*bound_sets)

    def count(self, q: _Query, cond: dict, bound: set[str]) -> None:
        var, vtype = cond["count"], cond["type"]
        if var in q.variables:
            raise self.fail(f"count: 'count' must name a new variable ({var} is declared in 'vars')")
        lo, hi = cond.get("min"), cond.get("max")
        if hi is None and not lo:
            raise self.fail(f"count {var}: give 'min' (at least 1) or 'max'; with neither it always holds")
        outer, counting = q.variables, q.counting
        q.variables, q.counting = {var: vtype}, var
        local = {"reading"}
        self.bind(q, var, vtype, local)
        binding = q.concrete.pop(), q.template.pop()
        # with a minimum, at least one entity holds the counted facts, required under a name of its
        # own (another count may reuse the variable's)
        collect = q.sink is not None and bool(lo)
        keys: list[str] = []
        alternatives: list[list[list[str]]] = []
        inner = self.nested(
            q,
            cond.get("where", []),
            local,
            subselect=True,
            sink=keys if collect else None,
            one_of_sink=alternatives if collect else None,
        )
        if collect:
            q.counts += 1
            counted = f"{var}#{q.counts}\t"

            def own(key: str) -> str:
                return counted + key.split("\t", 1)[1] if key.startswith(var + "\t") else key

            q.sink.extend(map(own, keys))
            if q.one_of_sink is not None:
                q.one_of_sink.extend([list(map(own, a)) for a in group] for group in alternatives)
        q.variables, q.counting = outer, counting
        tests = [f"COUNT(DISTINCT ?{var}) >= {int(lo)}"] if lo is not None else []
        if hi is not None:
            tests.append(f"COUNT(DISTINCT ?{var}) <= {int(hi)}")
        having = " && ".join(tests)
        lines = [(binding[0], binding[1]), *inner]
        if lo is None or int(lo) == 0:
            head = "FILTER NOT EXISTS { SELECT ?reading WHERE {"
            tail = f"}} GROUP BY ?reading HAVING (COUNT(DISTINCT ?{var}) > {int(hi)}) }}"
        else:
            head = "{ SELECT ?reading WHERE {"
            tail = f"}} GROUP BY ?reading HAVING ({having}) }}"
        q.emit(head)
        for c, t in lines:
            q.emit("  " + c, "  " + t)
        q.emit(tail)

    def bind(self, q: _Query, var: str, vtype: str, bound: set[str]) -> None:
        q.emit(f"?reading {curie(self.vocab.variable_types[vtype].bound_by)} ?{var} .")
        bound.add(var)

    def ensure(self, q: _Query, var: str, bound: set[str]) -> None:
        if var in bound:
            return
        if var not in q.variables:
            raise self.undeclared(q, var)
        self.bind(q, var, q.variables[var], bound)

    def undeclared(self, q: _Query, var: str) -> RuleError:
        if q.counting is not None:
            return self.fail(
                f"count {q.counting}: its 'where' can name only the counted variable {q.counting}, not {var}"
                " (a count's conditions see no variable outside it)"
            )
        return self.fail(f"variable {var} is not declared in 'vars'")

    def fact(self, name: str, subject: str) -> Fact:
        found = self.vocab.facts.get(name)
        if found is None:
            raise self.fail(f"{subject}.{name}: the chart vocabulary defines no fact {name!r}")
        if subject == "reading" and DK.Reading not in found.domain:
            raise self.fail(f"reading.{name}: {name!r} is not a fact of the reading")
        return found

    def check_domain(self, q: _Query, var: str, found: Fact) -> None:
        vtype = q.variables.get(var)
        if vtype is None:
            raise self.undeclared(q, var)
        cls = self.vocab.variable_types[vtype].entity_class
        allowed = set()
        for d in found.domain:
            allowed |= self.vocab.subclasses(d)
        if cls not in allowed and not (self.vocab.subclasses(cls) & allowed):
            raise self.fail(f"{var}.{found.name}: a {vtype} has no fact {found.name!r}")

    def atom(self, q: _Query, text: str, bound: set[str], top: bool, subselect: bool) -> None:
        if m := NOT_SAME.match(text):
            for v in (m["a"], m["b"]):
                self.ensure(q, v, bound)
            q.emit(f"FILTER(?{m['a']} != ?{m['b']})")
            return
        m = ATOM.match(text)
        if not m:
            raise self.fail(f"cannot read condition {text!r} (expected 'X.fact value')")
        subject, name, value = m["subject"], m["fact"], m["value"]
        found = self.fact(name, subject)
        if subject != "reading":
            self.check_domain(q, subject, found)
            self.ensure(q, subject, bound)
        prop = curie(found.iri)
        self.mention_fact(q, found)
        if found.kind == "entity":
            if value is None or not VAR_NAME.match(value.strip()):
                raise self.fail(f"{text!r}: {name} relates two variables, e.g. '{subject}.{name} Y'")
            other = value.strip()
            self.ensure(q, other, bound)
            q.emit(f"?{subject} {prop} ?{other} .")
            if q.sink is not None:
                q.sink.append(self.requirement(q, subject, found, "@" + self.binding(q, other)))
            return
        values = self.values(found, value, text, q.mentions)
        if len(values) == 1:
            term = values[0]
            q.emit(
                f"?{subject} {prop} {_short(term)} .",
                f"?{subject} {prop} {q.constant(term, subselect, top)} .",
            )
            if q.sink is not None:
                q.sink.append(self.requirement(q, subject, found, term))
        else:
            if q.one_of_sink is not None:
                q.one_of_sink.append([[self.requirement(q, subject, found, term)] for term in values])
            var = q.fresh()
            q.emit(f"?{subject} {prop} {var} . FILTER({var} IN ({', '.join(map(_short, values))}))")

    def binding(self, q: _Query, name: str) -> str:
        """The property that binds a variable's entities to the reading (``reading`` for the reading)."""
        return "reading" if name == "reading" else str(self.vocab.variable_types[q.variables[name]].bound_by)

    def requirement(self, q: _Query, subject: str, found: Fact, term: str) -> str:
        """The key of a constant fact a variable's entity must hold (``dk:requires``); for a relation,
        ``@`` and the binding of the entities at its other end (``kg.match.Reading`` gives each
        entity such a fact for each of its relations)."""
        return f"{subject}\t{self.binding(q, subject)}\t{found.iri}\t{term}"

    def mention_fact(self, q: _Query, found: Fact) -> None:
        for related in self.vocab.graph.objects(
            found.iri, URIRef("http://www.w3.org/2004/02/skos/core#related")
        ):
            q.mentions.add(related)

    def values(self, found: Fact, value: str | None, text: str, mentions: set[URIRef]) -> list[str]:
        if found.kind == "literal" and found.datatype == URIRef("http://www.w3.org/2001/XMLSchema#boolean"):
            if value is None or value in ("yes", "true"):
                return ["true"]
            if value in ("no", "false"):
                return ["false"]
            raise self.fail(f"{text!r}: {found.name} is yes or no")
        if value is None:
            raise self.fail(f"{text!r}: {found.name} needs a value")
        items = [v.strip() for v in value.split("|")]
        if found.kind == "literal":
            if not all(re.fullmatch(r"-?\d+", v) for v in items):
                raise self.fail(f"{text!r}: {found.name} takes a number")
            return items
        terms = []
        for item in items:
            try:
                iri = self.vocab.resolve(found.scheme, item)
            except KgError as exc:
                raise self.fail(f"{text!r}: {exc}") from None
            mentions.add(iri)
            for member in self.vocab.members(iri):
                mentions.add(member)
                terms.append(f"<{member}>")
        return terms

    # ── outcomes ───────────────────────────────────────────────────────────────────────
    def parameter(self, name: str, spec, variables: dict[str, str]) -> Parameter:
        if (call := PROCEDURE_CALL.match(str(spec))) and call["subject"] in variables:
            if call["procedure"] not in self.vocab.procedures:
                known = ", ".join(sorted(self.vocab.procedures))
                raise self.fail(
                    f"parameter {name}: unknown procedure {call['procedure']!r} (ontology/divkg.ttl declares: {known})"
                )
            return Parameter(str(name), call["subject"], procedure=call["procedure"])
        m = ATOM.match(str(spec))
        if not m or m["value"] or m["subject"] not in variables:
            raise self.fail(
                f"parameter {name}: expected 'X.fact' or 'procedure(X)' of a declared variable, got {spec!r}"
            )
        return Parameter(str(name), m["subject"], self.fact(m["fact"], m["subject"]))

    def construct(self, rule: CompiledRule, query: _Query, asserts: list) -> str:
        triples = []
        for text in asserts:
            m = ATOM.match(str(text))
            if not m or m["subject"] not in rule.variables or not m["value"]:
                raise self.fail(
                    f"assert {text!r}: expected 'X.fact value' of a variable bound by the conditions"
                )
            found = self.fact(m["fact"], m["subject"])
            self.check_domain(query, m["subject"], found)
            (term,) = self.values(found, m["value"], text, rule.mentions)
            triples.append(f"?{m['subject']} {curie(found.iri)} {_short(term)} .")
        where = rule.query.split(" WHERE ", 1)[1]
        return f"{sparql_prefixes()}CONSTRUCT {{ {' '.join(triples)} }} WHERE {where}"


@cache
def rule_schema() -> Draft202012Validator:
    """The rule-file format, ``corpus/rules/rule.schema.json``, as a JSON Schema validator."""
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _document_order(data: object, error: ValidationError) -> tuple[tuple[int, ...], bool]:
    """Where a schema problem sits in the file (the position of each key or item along its path),
    an unknown key before any other problem of the same mapping."""
    order, node = [], data
    for step in error.absolute_path:
        order.append(list(node).index(step) if isinstance(node, dict) else step)
        node = node[step]
    return tuple(order), error.validator != "additionalProperties"


def _schema_problem(data: object, error: ValidationError) -> str:
    """A schema violation as ``rule <id>: case <id>: <key path>: <problem>``.

    Items of a list are counted from 1 (``when[2].any[1]``), as the cases of a rule are.
    """
    where, path, node = [], list(error.absolute_path), data
    if len(path) > 1 and path[0] in ("rules", "unencoded"):
        section, index, path = path[0], path[1], path[2:]
        node = data[section][index]
        if section == "unencoded":
            where.append(_unencoded_label(index + 1, node))
        else:
            named = isinstance(node, dict) and isinstance(node.get("id"), str)
            where.append(f"rule {node['id'] if named else index + 1}")
        if len(path) > 1 and path[0] == "cases":
            n, path = path[1] + 1, path[2:]
            node = node["cases"][n - 1]
            where.append(f"case {node.get('id', n) if isinstance(node, dict) else n}")
    keys = ""
    for step in path:
        keys += f"[{step + 1}]" if isinstance(node, list) else f".{step}" if keys else str(step)
        node = node[step]
    return ": ".join([*where, *([keys] if keys else []), _schema_message(error)])


def _schema_message(error: ValidationError) -> str:
    """What is wrong, in the words of the schema: its titles name enumerations, its descriptions explain."""
    keyword, expected, found, schema = error.validator, error.validator_value, error.instance, error.schema
    why = f" ({schema['description']})" if "description" in schema else ""
    if keyword == "additionalProperties":
        unknown = [key for key in found if key not in schema["properties"]]
        message = f"unknown key{'s' * (len(unknown) > 1)} " + ", ".join(map(repr, unknown))
        if all(found[key] is None for key in unknown):
            return f"{message} — quote a value that contains ', '"
        return f"{message}; expected one of {', '.join(schema['properties'])}"
    if keyword == "required":
        return "needs " + ", ".join(repr(key) for key in expected if key not in found) + why
    if keyword == "type":
        return f"must be {TYPE_NAMES[expected]}, not {_kind_of(found)}"
    if keyword == "enum":
        return f"unknown {schema.get('title', 'value')} {found!r}; expected one of {', '.join(expected)}"
    if keyword == "const":
        return f"must be {expected!r}{why}"
    if keyword == "pattern":
        return f"{found!r} is not {schema.get('description', f'of the form {expected}')}"
    if keyword == "not":
        return f"not allowed{why}"
    if keyword == "minItems":
        return f"needs at least {expected} item{'s' * (expected > 1)}"
    if keyword == "minLength":
        return "must not be empty"
    if keyword == "minimum":
        return f"must be at least {expected}"
    return schema.get("description", error.message)


def _kind_of(value: object) -> str:
    """A YAML value's kind, as a refusal names it (``a string ('6')``)."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return str(value).lower()
    kinds = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a mapping"}
    kind = kinds.get(type(value), type(value).__name__)
    return f"{kind} ({value!r:.40})" if isinstance(value, str | int | float) else kind


def _unencoded_label(n: int, raw: object) -> str:
    """How a refusal names an entry of ``unencoded`` (a passage that is no rule: 敘述, 標目, 斷例)."""
    if not isinstance(raw, dict):
        return f"unencoded passage {n}"
    return f"unencoded passage {n} (¶{raw.get('para')} {str(raw.get('quote'))[:12]})"


def _covering(paragraph: Paragraph, start: int, end: int) -> tuple[Segment, ...]:
    """The segments a quote draws on: the smallest one containing it, else every top-level one it overlaps."""
    containing = [s for s in paragraph.all_segments() if s.start <= start and end <= s.end]
    if containing:
        return (min(containing, key=lambda s: s.end - s.start),)
    return tuple(s for s in paragraph.segments if s.start < end and start < s.end)


def _near(paragraph: Paragraph, text: str) -> str:
    """A hint: the longest prefix of the quote that does occur."""
    for n in range(len(text) - 1, 1, -1):
        at = paragraph.text.find(text[:n])
        if at >= 0:
            return f" (the text has {paragraph.text[at : at + len(text)]!r} at offset {at})"
    return ""


def _short(term: str) -> str:
    """A SPARQL term as a prefixed name where it is an IRI (``<…/branch/zi>`` → ``br:zi``)."""
    return curie(term[1:-1]) if term.startswith("<") else term


def template_id(template: str) -> str:
    return hashlib.sha1(template.encode("utf-8")).hexdigest()[:16]
