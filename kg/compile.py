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
itself. ``cases`` split one sentence into several rules sharing the conditions. The compiler
refuses, naming file, rule and problem: a quote not at its place, an unknown concept, fact or
variable type, an unbound or untyped variable, a fact the chart vocabulary does not define for
that type, and a duplicate rule id. See ``corpus/rules/README.md``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from rdflib import URIRef

from kg.corpus import CORPUS, Paragraph, Segment, work, works
from kg.errors import KgError
from kg.procedures import PROCEDURES
from kg.vocabulary import DK, Fact, Vocabulary, curie, sparql_prefixes, vocabulary

RULES = CORPUS / "rules"
KINDS = {
    "judgement": DK.JudgementRule,
    "definition": DK.DefinitionRule,
    "exception": DK.ExceptionRule,
    "chart-verdict": DK.ChartVerdictRule,
    "text-only": DK.TextOnlyRule,
}
RULE_KEYS = {
    "id", "para", "quote", "at", "source", "kind", "topic", "vars", "when", "then", "cases", "overrides",
    "reason", "note", "generalised",
}  # fmt: skip
VAR_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
ATOM = re.compile(r"^(?P<subject>[A-Za-z][A-Za-z0-9_]*)\.(?P<fact>[a-z][a-z-]*)(?:\s+(?P<value>.+))?$")
PROCEDURE_CALL = re.compile(r"^(?P<procedure>[a-z][a-z-]*)\((?P<subject>[A-Z][A-Za-z0-9_]*)\)$")
NOT_SAME = re.compile(r"^(?P<a>[A-Z][A-Za-z0-9_]*)\s*!=\s*(?P<b>[A-Z][A-Za-z0-9_]*)$")


class RuleError(KgError):
    """A rule the compiler refuses; the message names file, rule id and problem."""


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
    mentions: set[URIRef] = field(default_factory=set)
    conditions: str = ""
    overrides: str | None = None
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
        self.mentions: set[URIRef] = set()
        self.shown: set[str] = set()
        self.joinable = True
        self._fresh = 0

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
            if rule.overrides and rule.overrides not in ids:
                raise RuleError(f"{seen[rule.id]}: rule {rule.id}: overrides unknown rule {rule.overrides!r}")
        return rules

    def compile_file(self, path: Path) -> list[CompiledRule]:
        self.where = path.name
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise self.fail(f"cannot read ({exc.strerror})") from None
        except yaml.YAMLError as exc:
            raise self.fail(f"malformed YAML: {exc}") from None
        if not isinstance(data, dict) or "work" not in data or not isinstance(data.get("rules"), list):
            raise self.fail("expected a mapping with 'work' and a list 'rules'")
        if data["work"] not in works():
            raise self.fail(f"unknown work {data['work']!r}; the catalogue has {', '.join(works())}")
        compiled: list[CompiledRule] = []
        for raw in data["rules"]:
            compiled.extend(self.compile_rule(raw, data["work"], path.name))
        for raw in data.get("unencoded") or []:
            self.where = f"{path.name}: unencoded passage {raw!r:.60}"
            if not isinstance(raw, dict) or set(raw) - {"para", "quote", "at", "why", "note"}:
                raise self.fail("expected {para, quote, at?, why, note?}")
            why = self.vocab.resolve(DK.ReasonScheme, str(raw.get("why")))
            quote = self.quote(raw.get("para"), raw.get("quote"), raw.get("at"), data["work"])
            self.unencoded.append(Unencoded(quote, why, raw.get("note")))
        return compiled

    # ── one rule ───────────────────────────────────────────────────────────────────────
    def compile_rule(self, raw: dict, work_id: str, filename: str = "<rule>") -> list[CompiledRule]:
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise RuleError(f"{filename}: every rule needs an 'id' string (got {raw!r:.80})")
        self.where = f"{filename}: rule {raw['id']}"
        unknown = set(raw) - RULE_KEYS
        if unknown:
            raise self.fail(f"unknown key(s) {', '.join(sorted(unknown))}")
        kind = raw.get("kind", "judgement")
        if kind not in KINDS:
            raise self.fail(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
        quotes = self.quotes(raw, work_id)
        topic = self.topic(raw, work_id, quotes[0].paragraph)
        variables = self.declared_variables(raw.get("vars") or {})
        base = dict(
            id=raw["id"],
            work=work_id,
            kind=kind,
            topic=topic,
            quotes=quotes,
            note=raw.get("note"),
            generalised=bool(raw.get("generalised", False)),
        )
        when = raw.get("when") or []
        if not isinstance(when, list):
            raise self.fail("'when' must be a list of conditions")
        if kind == "text-only":
            return [self.text_only(raw, base, variables, when)]
        if kind == "exception" and not raw.get("overrides"):
            raise self.fail("an exception needs 'overrides: <rule id>'")
        if not when and kind != "definition" and not raw.get("cases"):
            raise self.fail("no conditions: give 'when', or make it kind: text-only with a reason")
        cases = raw.get("cases")
        if cases is None:
            return [self.with_outcome(base, variables, when, raw.get("then"), raw)]
        if not isinstance(cases, list) or not cases:
            raise self.fail("'cases' must be a non-empty list")
        rules = []
        for n, case in enumerate(cases, 1):
            if not isinstance(case, dict) or "when" not in case:
                raise self.fail(f"case {n} needs 'when'")
            case_id = f"{raw['id']}.{case.get('id', n)}"
            then = {**(raw.get("then") or {}), **(case.get("then") or {})}
            rule = self.with_outcome({**base, "id": case_id}, variables, when + list(case["when"]), then, raw)
            rule.case_of = raw["id"]
            rules.append(rule)
        return rules

    def with_outcome(self, base: dict, variables: dict[str, str], when: list, then: dict | None, raw: dict):
        if not isinstance(then, dict):
            raise self.fail("'then' must be a mapping (polarity, zh, en …)")
        rule = CompiledRule(**base, overrides=raw.get("overrides"))
        query = self.build(rule, variables, when)
        rule.wording, rule.gloss = then.get("zh"), then.get("en")
        if base["kind"] == "definition":
            asserts = then.get("assert")
            if not isinstance(asserts, list) or not asserts:
                raise self.fail("a definition needs 'then: {assert: [X.role …]}'")
            rule.asserts = [str(a) for a in asserts]
            rule.construct = self.construct(rule, query, asserts)
        else:
            rule.polarity = self.vocab.resolve(DK.PolarityScheme, str(then.get("polarity", "")))
            if not rule.wording:
                raise self.fail("'then' needs 'zh': the outcome in the text's words")
            for name, spec in (then.get("param") or {}).items():
                rule.parameters.append(self.parameter(name, spec, variables))
        if not rule.gloss:
            raise self.fail("'then' needs 'en': an English gloss")
        return rule

    def text_only(self, raw: dict, base: dict, variables: dict[str, str], triggers: list) -> CompiledRule:
        reason = raw.get("reason")
        if not reason:
            raise self.fail("a text-only rule needs 'reason' (computation, meta, undefined-term, damaged, …)")
        rule = CompiledRule(**base)
        rule.reason = self.vocab.resolve(DK.ReasonScheme, str(reason))
        then = raw.get("then") or {}
        rule.wording, rule.gloss = then.get("zh"), then.get("en")
        if not rule.gloss:
            raise self.fail("'then' needs 'en': an English gloss of what the sentence says")
        if "polarity" in then:
            rule.polarity = self.vocab.resolve(DK.PolarityScheme, str(then["polarity"]))
        if triggers:
            self.build(rule, variables, triggers)
        return rule

    # ── provenance ─────────────────────────────────────────────────────────────────────
    def quotes(self, raw: dict, work_id: str) -> list[Quote]:
        sources = raw.get("source") or [
            {"para": raw.get("para"), "quote": raw.get("quote"), "at": raw.get("at")}
        ]
        if not isinstance(sources, list):
            raise self.fail("'source' must be a list of {para, quote, at}")
        return [self.quote(s.get("para"), s.get("quote"), s.get("at"), work_id) for s in sources]

    def quote(self, para, text, at, work_id: str) -> Quote:
        paragraphs = work(work_id).paragraphs
        if not isinstance(para, int) or para not in paragraphs:
            raise self.fail(
                f"paragraph {para!r} is not a Chinese paragraph of {work_id} (even numbers 2–{max(paragraphs)})"
            )
        if not isinstance(text, str) or not text:
            raise self.fail("no quote")
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
    def declared_variables(self, raw: dict) -> dict[str, str]:
        if not isinstance(raw, dict):
            raise self.fail("'vars' must be a mapping {Name: type}")
        for name, vtype in raw.items():
            if not VAR_NAME.match(str(name)):
                raise self.fail(f"variable name {name!r} must start with a capital letter")
            if vtype not in self.vocab.variable_types:
                raise self.fail(
                    f"variable {name}: unknown type {vtype!r}; known: {', '.join(sorted(self.vocab.variable_types))}"
                )
        return {str(k): str(v) for k, v in raw.items()}

    def build(self, rule: CompiledRule, variables: dict[str, str], conditions: list) -> _Query:
        q = _Query(self, variables)
        bound = {"reading"}
        q.emit("?reading a dk:Reading .")
        self.block(q, conditions, bound, top=True, subselect=False)
        projected = sorted((bound | q.shown) - {"reading"})
        select = "SELECT ?reading " + " ".join(f"?{v}" for v in projected)
        body = "\n  ".join(q.concrete)
        rule.query = f"{sparql_prefixes()}{select} WHERE {{\n  {body}\n}}"
        rule.template = f"{select} WHERE {{\n  " + "\n  ".join(q.template) + "\n}"
        rule.arguments = tuple(q.arguments)
        rule.joinable = q.joinable
        rule.requires = q.requires
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
            elif isinstance(cond, dict) and len(cond) >= 1 and "any" in cond:
                self.any(q, cond["any"], bound, subselect)
            elif isinstance(cond, dict) and set(cond) == {"not"}:
                inner = self.nested(q, cond["not"], set(bound), subselect)
                q.emit("FILTER NOT EXISTS {", "FILTER NOT EXISTS {")
                for c, t in inner:
                    q.emit("  " + c, "  " + t)
                q.emit("}")
            elif isinstance(cond, dict) and "count" in cond:
                self.count(q, cond, bound)
            else:
                raise self.fail(f"cannot read condition {cond!r}")

    def nested(self, q: _Query, conditions, bound: set[str], subselect: bool) -> list[tuple[str, str]]:
        if not isinstance(conditions, list):
            raise self.fail(f"expected a list of conditions, got {conditions!r}")
        start = len(q.concrete)
        self.block(q, conditions, bound, top=False, subselect=subselect)
        pairs = list(zip(q.concrete[start:], q.template[start:], strict=True))
        del q.concrete[start:], q.template[start:]
        return pairs

    def any(self, q: _Query, branches, bound: set[str], subselect: bool) -> None:
        if not isinstance(branches, list) or len(branches) < 2:
            raise self.fail("'any' needs a list of at least two alternatives, each a list of conditions")
        groups, bound_sets = [], []
        for branch in branches:
            local = set(bound)
            groups.append(self.nested(q, branch if isinstance(branch, list) else [branch], local, subselect))
            bound_sets.append(local)
        for i, group in enumerate(groups):
            q.emit("{" if i == 0 else "} UNION {")
            for c, t in group:
                q.emit("  " + c, "  " + t)
        q.emit("}")
        bound |= set.intersection(*bound_sets)
        q.shown |= set.union(*bound_sets)

    def count(self, q: _Query, cond: dict, bound: set[str]) -> None:
        var, vtype = cond.get("count"), cond.get("type")
        if not isinstance(var, str) or not VAR_NAME.match(var) or var in q.variables:
            raise self.fail(f"count: 'count' must name a new variable (got {var!r})")
        if vtype not in self.vocab.variable_types:
            raise self.fail(f"count {var}: unknown type {vtype!r}")
        lo, hi = cond.get("min"), cond.get("max")
        if lo is None and hi is None:
            raise self.fail(f"count {var}: give 'min' and/or 'max'")
        outer = q.variables
        q.variables = {var: vtype}
        local = {"reading"}
        self.bind(q, var, vtype, local)
        binding = q.concrete.pop(), q.template.pop()
        inner = self.nested(q, cond.get("where") or [], local, subselect=True)
        q.variables = outer
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
            raise self.fail(f"variable {var} is not declared in 'vars'")
        self.bind(q, var, q.variables[var], bound)

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
            raise self.fail(f"variable {var} is not declared in 'vars'")
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
            return
        values = self.values(found, value, text, q.mentions)
        if len(values) == 1:
            term = values[0]
            q.emit(
                f"?{subject} {prop} {_short(term)} .",
                f"?{subject} {prop} {q.constant(term, subselect, top)} .",
            )
            if top and not subselect:
                binding = (
                    "reading"
                    if subject == "reading"
                    else str(self.vocab.variable_types[q.variables[subject]].bound_by)
                )
                q.requires.append(f"{subject}\t{binding}\t{found.iri}\t{term}")
        else:
            var = q.fresh()
            q.emit(f"?{subject} {prop} {var} . FILTER({var} IN ({', '.join(map(_short, values))}))")

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
            if call["procedure"] not in PROCEDURES:
                raise self.fail(
                    f"parameter {name}: unknown procedure {call['procedure']!r}; known: {', '.join(PROCEDURES)}"
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
