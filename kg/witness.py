"""``kg witness``: for every condition rule, a generated reading on which it fires and one on
which it does not.

A rule that fires on no reading points to an encoding or chart-fact error; one that fires on
every reading is vacuous. Either can instead carry a written explanation in
``corpus/witness-explanations.yaml`` (rule id → reason); the report shows explained rules apart.

Condition rules are judgement, exception, chart-verdict and definition rules, and text-only rules
with trigger conditions.

**Firing.** A rule of topic T applies to readings of T and of every topic narrower than T
(``skos:broader``), and some roles (墳 under 祖墓 … of 房分, an animal's 類神 under 牛 … of 六畜)
are assigned only by the definitions of a narrower topic. So each reading is asked under every
topic of the rule's *scope*: T and each narrower topic with definitions of its own (a narrower
topic without definitions runs the same definitions as its nearest such ancestor in the scope, so
it cannot change the outcome and is skipped). Under one topic, a rule fires when retrieval
(:func:`kg.match.retrieve`, which also runs the definitions of the topic and its broader topics)
reports it in any status (applies, consider, overridden); a definition fires when its CONSTRUCT
yields anything on the reading after retrieval. Then

* the rule **fires on a reading** when it fires under *some* topic of its scope, and
* it **stays silent on a reading** when under *some* topic of its scope it does not fire,

so one reading can witness both (a 墳 rule of 墳墓 fires under 祖墓 and is silent under 墳墓
itself, where no 墳 is defined). A rule fires "always" when it fires under every topic of its
scope on every reading searched, and "never" when it fires under none of them on any reading.

**Readings**, drawn with a seeded generator so a run is reproducible:

* 六爻 (works of system ``liuyao``): random casts (line values 6–9) × random year, month, day
  and hour pillars (month and hour stems by 五虎遁 and 五鼠遁) × the querent's status (none,
  已遷, 未遷), purpose, sex and calling (``--purpose``, ``--sex``, ``--occupation``: each none or
  one of its values), 年命 (none, a branch or a 干支) and up to three members of the household
  with their birth years (``--member 妻=甲子``, a branch or a 干支) × the doctrinal options the
  texts depend on: 伏神 under the missing relatives only or under every line (``--fu-shen``;
  《易隱》 marks 伏神 under every line in some sentences), each 卦身 rule (``--gua-shen``), each 卦反吟
  rule (``--fan-yin``), the 年命's element by its branch or its 納音 (``--natal-element``; the 納音
  needs the 干支, so the 年命 is then a 干支 or none) and 暗動 of the 伏神 or not
  (``--hidden-dark-moving``). The witness names the options that differ from the defaults.
* 大六壬 (system ``liuren``): every 癸未 lesson by day and by night first; then, in turn, one of
  the 720 lessons (day × 局, by day and by night, in random order, again and again) with a random
  年命, one of the 癸未 lessons under each 年命 branch in turn (while they last), and a chart
  cast from a random moment (``--moment``: it alone has the year pillar, so 太歲上神, and a real
  月建). The lessons have a random 占時 of their half of the day (so 晝/夜 follows the 占時) and
  a 月建 that fits the 月將 the 局 implies; all have a random 行年, sex and calling of the querent
  (``--sex``, ``--occupation``), each or none.

**Search.** Each reading's chart graph is built once and asked, on a fresh
:class:`kg.match.Reading`, under the topics of the scopes of the rules still searching (lacking a
witness, unexplained) that can fire on it. A rule's scope (:meth:`Scopes.rule_scope`) keeps
only the narrower topics whose definitions can add a fact its query mentions, and a rule that
lacks a fact the chart itself must hold (one no definition adds) cannot fire under any topic, so
the reading is not asked for it. A rule topic stops when all its unexplained rules have both
witnesses, after its rules were asked on ``patience`` readings in a row without a new witness,
or at the budget of readings. Rule topics are shared among worker processes; every
worker draws the same readings, so the result does not depend on the number of workers.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import click
import pyoxigraph as ox
import yaml
from tqdm import tqdm

from kg.build import src
from kg.calendar import Pillars
from kg.corpus import works
from kg.errors import InputError
from kg.facts import QUERENT_FACTS
from kg.ganzhi import Branch, GanZhi, Stem
from kg.liuren import chart_from_inputs
from kg.liuren import facts as liuren_facts
from kg.liuren.chart import Chart as LiurenChart
from kg.liuyao import facts as liuyao_facts
from kg.liuyao.body import GuaShenRule
from kg.liuyao.chart import FanYinRule, HiddenDarkMoving, NatalElement, Options, cast_chart
from kg.liuyao.hidden import FuShenMode
from kg.liuyao.natal import MEMBERS
from kg.match import KnowledgeGraph, Reading, ReadingIndex, Requirements, RuleInfo, is_candidate, retrieve
from kg.paths import BUILD, CORPUS
from kg.vocabulary import PREFIXES

EXPLANATIONS = CORPUS / "witness-explanations.yaml"
DEFAULT_SEED = 20240229
DEFAULT_READINGS = 1000
"""Readings per topic at most."""
DEFAULT_PATIENCE = {"liuyao": 1200, "liuren": 200}
"""Per system: a topic drops out after its rules were asked on this many readings in a row without
a new witness. 六爻 rules are asked on few readings (the chart-fact filter skips the rest), and
several need a rare hexagram, so they get more."""
GUIWEI = GanZhi.from_name("癸未")
MOMENTS = (datetime(1901, 1, 1), datetime(2099, 12, 31))
"""Random 大六壬 moments fall between these (Beijing time)."""
LIUYAO_OPTIONS = tuple(
    Options(fu_shen=f, gua_shen=g, fan_yin=y, natal_element=n, hidden_dark_moving=h)
    for f, g, y, n, h in product(FuShenMode, GuaShenRule, FanYinRule, NatalElement, HiddenDarkMoving)
)
"""The 伏神 × 卦身 × 卦反吟 × 年命 element × 伏神暗動 variants a 六爻 reading is cast under, one drawn at
random per reading."""
HOUSEHOLD = tuple(
    next(n for n, s in MEMBERS.items() if s == slug) for slug in dict.fromkeys(MEMBERS.values())
)
"""The members of the household a 六爻 reading may give a birth year for, one name each (夫, not 男)."""
LIUYAO_QUERENT = {key: tuple(QUERENT_FACTS[key][2]) for key in liuyao_facts.QUERENT}
"""The querent's facts a 六爻 reading may give (status, purpose, sex, calling) and their values."""
DAYTIME = tuple(Branch.from_char(c) for c in "卯辰巳午未申")
NIGHTTIME = tuple(b for b in Branch if b not in DAYTIME)


@dataclass(frozen=True)
class Sample:
    """A generated reading: how to cast it again (``kg reading`` options) and its chart facts."""

    inputs: str
    facts: bytes
    """The chart graph as N-Triples, loaded into a fresh store for every topic."""


# ── readings ────────────────────────────────────────────────────────────────────────────────


def liuyao_samples(rng: random.Random) -> Iterator[Sample]:
    """Random 六爻 casts with random pillars, querent (and household) inputs and doctrinal options,
    without end."""
    while True:
        year = GanZhi.from_index(rng.randrange(60))
        day = GanZhi.from_index(rng.randrange(60))
        month_branch, hour_branch = rng.choice(list(Branch)), rng.choice(list(Branch))
        month = GanZhi(Stem((year.stem % 5 * 2 + 2 + (month_branch - 2) % 12) % 10), month_branch)
        hour = GanZhi(Stem((day.stem % 5 * 2 + hour_branch) % 10), hour_branch)
        pillars = Pillars(year, month, day, hour)
        values = tuple(rng.choice((6, 7, 7, 8, 8, 9)) for _ in range(6))
        options = rng.choice(LIUYAO_OPTIONS)
        querent: dict[str, Any] = {
            key: value
            for key, choices in LIUYAO_QUERENT.items()
            if (value := rng.choice((None, *choices))) is not None
        }
        form = rng.choice((None, "branch", "ganzhi"))
        if form is not None:
            querent["birth"] = _birth_year(
                rng, form == "ganzhi" or options.natal_element is NatalElement.NAYIN
            )
        members = [
            f"{name}={_birth_year(rng, rng.random() < 0.5)}"
            for name in rng.sample(HOUSEHOLD, rng.randrange(4))
        ]
        if members:
            querent["members"] = members
        chart = cast_chart(pillars, values, options)
        graph = liuyao_facts.chart_graph(chart, liuyao_facts.reading_iri(chart), None, querent)
        flags = [(k, v) for k, v in querent.items() if k != "members"] + [("member", m) for m in members]
        flags += [(name.replace("_", "-"), value) for name, value in options.changed().items()]
        inputs = f"--pillars '{pillars}' --lines {''.join(map(str, values))}" + "".join(
            f" --{k} {v}" for k, v in flags
        )
        yield Sample(inputs, graph.serialize(format="nt", encoding="utf-8"))


def _birth_year(rng: random.Random, ganzhi: bool) -> str:
    """A random birth year, as a 干支 (甲子) or its branch alone (子)."""
    year = GanZhi.from_index(rng.randrange(60))
    return year.name if ganzhi else year.branch.char


def liuren_samples(rng: random.Random) -> Iterator[Sample]:
    """The 癸未 lessons by day and by night; then, in turn, a random lesson (the 720 by day and
    by night in random order, again and again, with a random 年命), a 癸未 lesson under each 年命
    branch in turn (while they last) and a chart cast from a random moment."""
    for ju in range(1, 13):
        for daytime in (True, False):
            yield _liuren_sample(rng, GUIWEI, ju, daytime, None)
    guiwei = ((birth, ju, daytime) for birth in Branch for ju in range(1, 13) for daytime in (True, False))
    lessons = [
        (GanZhi.from_index(d), ju, daytime)
        for d in range(60)
        for ju in range(1, 13)
        for daytime in (True, False)
    ]
    while True:
        rng.shuffle(lessons)
        for day, ju, daytime in lessons:
            yield _liuren_sample(rng, day, ju, daytime, rng.choice((None, *Branch)))
            if (block := next(guiwei, None)) is not None:
                birth, ju, daytime = block
                yield _liuren_sample(rng, GUIWEI, ju, daytime, birth)
            yield _liuren_moment_sample(rng)


def _liuren_moment_sample(rng: random.Random) -> Sample:
    """A chart cast from a random minute between the :data:`MOMENTS` (Beijing time), with a random
    年命 and 行年 (or none)."""
    start, end = MOMENTS
    minutes = int((end - start).total_seconds()) // 60
    moment = (start + timedelta(minutes=rng.randrange(minutes))).isoformat(timespec="minutes")
    birth, walking = rng.choice((None, *Branch)), rng.choice((None, *Branch))
    chart = chart_from_inputs(moment=moment, birth=birth, walking_year=walking)
    return _liuren_graph(chart, f"--moment {moment}", birth, walking)


def _liuren_sample(rng: random.Random, day: GanZhi, ju: int, daytime: bool, birth: Branch | None) -> Sample:
    """A lesson with a random 占時 of its half of the day, a 月建 that fits the 月將 (亥將: 寅 or
    卯月), a random 行年 (or none) and the querent's 年命 ``birth``."""
    hour = rng.choice(DAYTIME if daytime else NIGHTTIME)
    general = hour.shift(1 - ju)
    month = general.shift(1 - 2 * general + rng.randrange(2))
    walking = rng.choice((None, *Branch))
    chart = chart_from_inputs(day=day, ju=ju, hour=hour, month=month, birth=birth, walking_year=walking)
    return _liuren_graph(
        chart, f"--day {day.name} --ju {ju} --hour {hour.char} --month {month.char}", birth, walking
    )


def _liuren_graph(chart: LiurenChart, inputs: str, birth: Branch | None, walking: Branch | None) -> Sample:
    """The sample of a 大六壬 chart cast from ``inputs`` with the querent's 年命 and 行年 (if any)
    and a sex and calling of the querent (each or none: kg.liuren.facts.QUERENT), drawn by a generator
    seeded with ``inputs``, so the draws of the readings themselves do not change with them."""
    rng = random.Random(inputs)
    querent = {
        key: value
        for key in liuren_facts.QUERENT
        if (value := rng.choice((None, *QUERENT_FACTS[key][2]))) is not None
    }
    graph = liuren_facts.chart_graph(chart, liuren_facts.reading_iri(chart), None, querent)
    flags = [(k, b.char) for k, b in (("birth", birth), ("walking-year", walking)) if b is not None]
    inputs += "".join(f" --{k} {v}" for k, v in (*flags, *querent.items()))
    return Sample(inputs, graph.serialize(format="nt", encoding="utf-8"))


SAMPLERS: dict[str, Callable[[random.Random], Iterator[Sample]]] = {
    "liuyao": liuyao_samples,
    "liuren": liuren_samples,
}


# ── tallies ─────────────────────────────────────────────────────────────────────────────────


@dataclass
class Tally:
    """How often one rule fired, with the first reading it fired on and the first it did not."""

    rule: RuleInfo
    rule_id: str
    work: str
    topic: str
    quote: str
    urn: str
    readings: int = 0
    fired: int = 0
    fires_on: str | None = None
    silent_on: str | None = None
    explanation: str | None = None

    def record(self, fires: bool | None, silent: bool | None, sample: Sample) -> bool:
        """Count the reading, on which the rule ``fires`` (under some topic of its scope) and/or
        stays ``silent`` (under some topic of its scope), None where that is not known; True if
        it is a witness the rule lacked."""
        if fires is not None:
            self.readings += 1
            self.fired += fires
        new = False
        if fires and self.fires_on is None:
            self.fires_on = sample.inputs
            new = True
        if silent and self.silent_on is None:
            self.silent_on = sample.inputs
            new = True
        return new

    @property
    def searching(self) -> bool:
        """Lacking a witness and not explained."""
        return not self.witnessed and not self.explanation

    @property
    def witnessed(self) -> bool:
        return self.fires_on is not None and self.silent_on is not None

    @property
    def verdict(self) -> str:
        """both | never | always (before explanations)."""
        if self.witnessed:
            return "both"
        return "never" if self.fires_on is None else "always"

    @property
    def observed(self) -> str:
        """What the search saw of an explained rule, which it stops asking once explained."""
        if not self.readings:
            return "not asked"
        return f"fired on {self.fired} of {self.readings} readings asked"

    @property
    def status(self) -> str:
        """both | never | always | explained: an explanation counts only for a missing witness."""
        return "explained" if self.verdict != "both" and self.explanation else self.verdict

    def as_dict(self) -> dict:
        keys = (
            "rule_id",
            "topic",
            "quote",
            "urn",
            "readings",
            "fired",
            "fires_on",
            "silent_on",
            "explanation",
        )
        return {"status": self.status} | {k: getattr(self, k) for k in keys if getattr(self, k) is not None}


STATUSES = ("both", "never", "always", "explained")


@dataclass
class WitnessReport:
    tallies: list[Tally]
    readings: dict[str, int]
    """Readings generated per system."""
    seconds: float
    stale: dict[str, str] = field(default_factory=dict)
    """Explanations of rules that are witnessed both ways or unknown: rule id → reason."""

    def by_work(self) -> dict[str, list[Tally]]:
        grouped: dict[str, list[Tally]] = defaultdict(list)
        for t in self.tallies:
            grouped[t.work].append(t)
        return dict(grouped)

    @property
    def unexplained(self) -> list[Tally]:
        return [t for t in self.tallies if t.status in ("never", "always")]


def condition_rule(rule: RuleInfo) -> bool:
    """A rule with conditions: any but the text-only rules without trigger conditions."""
    return rule.kind != "text-only" or rule.template is not None


def load_explanations(path: Path = EXPLANATIONS) -> dict[str, str]:
    """Rule id → reason from the explanations file; a missing or unreadable file is an input error."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise InputError(f"{path}: no such explanations file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: a folder, not an explanations file (YAML)") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: malformed YAML: {exc}") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise InputError(f"{path}: expected a mapping from rule id to a written reason")
    return data


def tallies(kg: KnowledgeGraph, work_ids: list[str], explanations: dict[str, str]) -> list[Tally]:
    """A tally for every condition rule of the works, in rule id order."""
    kg.load_provenance()
    work_of = {str(src(w)): w for w in works()}
    result = []
    for row in kg.query("SELECT ?r ?w WHERE { ?r a dk:Rule ; dk:work ?w }"):
        rule, work_id = kg.rules[row["r"].value], work_of[row["w"].value]
        if work_id in work_ids and condition_rule(rule):
            p = kg.provenance[rule.iri]
            result.append(
                Tally(
                    rule,
                    p["id"],
                    work_id,
                    p["topic"],
                    p["quote"],
                    p["urn"],
                    explanation=explanations.get(p["id"]),
                )
            )
    return sorted(result, key=lambda t: t.rule_id)


RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
IRI_TOKEN = re.compile(r"<([^>]*)>|(?<![\w?$])([A-Za-z][\w-]*):([\w-]+)")


def iris(text: str) -> set[str]:
    """The IRIs written in a SPARQL text, as ``<iri>`` or as prefixed names (:data:`PREFIXES`)."""
    return {
        iri or PREFIXES.get(prefix, prefix + ":") + local
        for iri, prefix, local in IRI_TOKEN.findall(text)
        if iri or prefix in PREFIXES
    }


@dataclass(frozen=True)
class Definition:
    """What a definition rule can add (the objects and predicates of its CONSTRUCT template) and
    the IRIs its WHERE clause mentions."""

    topic: str
    objects: frozenset[str]
    predicates: frozenset[str]
    where: frozenset[str]

    @classmethod
    def of(cls, rule: RuleInfo) -> Definition:
        head, where = (rule.construct or "").split("CONSTRUCT", 1)[-1].split("WHERE", 1)
        triples = [t.split() for t in head.strip(" \n{}").split(" .") if t.strip()]
        if any(len(t) != 3 for t in triples):  # abbreviated triples: take every IRI as both
            return cls(
                rule.topic, frozenset(iris(head)), frozenset(iris(head) | {RDF_TYPE}), frozenset(iris(where))
            )
        predicates = {RDF_TYPE if p == "a" else next(iter(iris(p)), p) for _, p, _ in triples}
        return cls(
            rule.topic, frozenset(iris(head)) - predicates, frozenset(predicates), frozenset(iris(where))
        )


class Scopes:
    """Under which topics each rule is asked, and which chart facts it needs whatever the topic."""

    def __init__(self, kg: KnowledgeGraph) -> None:
        self.kg = kg
        self.definitions: dict[str, list[Definition]] = defaultdict(list)
        for rule in kg.rules.values():
            if rule.kind == "definition":
                self.definitions[rule.topic].append(Definition.of(rule))
        self.definable = frozenset(p for ds in self.definitions.values() for d in ds for p in d.predicates)

    def topic_scope(self, topic: str) -> tuple[str, ...]:
        """The topic, then every narrower topic with definitions of its own (the others run the
        same definitions as their nearest such ancestor, so they cannot change what fires), in
        IRI order."""
        chains = ((t, self.kg.topic_chain(t)) for t in self.kg.topics if t in self.definitions)
        return (topic, *sorted(t for t, chain in chains if topic in chain[1:]))

    def added_under(self, narrower: str, topic: str) -> set[str]:
        """What asking under ``narrower`` can add to a reading beyond asking under ``topic``: the
        objects its definitions and those of the topics between assert, closed under the
        definitions of ``topic`` and its broader topics whose WHERE mentions one of them."""
        chain = self.kg.topic_chain(narrower)
        below = chain[: chain.index(topic)]
        added = {o for t in below for d in self.definitions.get(t, ()) for o in d.objects}
        above = [d for t in self.kg.topic_chain(topic) for d in self.definitions.get(t, ())]
        while grown := [d for d in above if d.where & added and not d.objects <= added]:
            for d in grown:
                added |= d.objects
        return added

    def rule_scope(self, rule: RuleInfo) -> tuple[str, ...]:
        """The topics ``rule`` is asked under: its topic, and each narrower topic of
        :meth:`topic_scope` that can add a fact the rule's query (or definition) mentions."""
        text = (
            rule.construct.split("WHERE", 1)[1]
            if rule.construct
            else self.kg.templates.get(rule.template or "", "")
        )
        mentioned = iris(text) | iris(rule.arguments)
        narrower = self.topic_scope(rule.topic)[1:]
        return (rule.topic, *(t for t in narrower if self.added_under(t, rule.topic) & mentioned))

    def chart_facts_only(self, rule: RuleInfo) -> RuleInfo:
        """The rule with only the required facts no definition can add: those the chart itself
        must hold for the rule to fire under any topic."""

        def chart_only(requires: Requirements) -> Requirements:
            return {
                var: (
                    binding,
                    frozenset(
                        (p, v)
                        for p, v in needed
                        if p not in self.definable and not (v.startswith("@") and v[1:] in self.definable)
                    ),
                )
                for var, (binding, needed) in requires.items()
            }

        one_of = tuple(tuple(map(chart_only, group)) for group in rule.requires_one_of)
        return replace(
            rule,
            requires=chart_only(rule.requires),
            requires_one_of=tuple(g for g in one_of if all(any(n for _, n in a.values()) for a in g)),
        )


def fired_rules(kg: KnowledgeGraph, facts: bytes, topic: str, definitions: list[RuleInfo]) -> set[str]:
    """IRIs of the rules that fire on the reading under ``topic``, and of its ``definitions`` that do."""
    store = ox.Store()
    store.bulk_load(facts, format=ox.RdfFormat.N_TRIPLES)
    reading = Reading(store)
    fired = {a.rule for a in retrieve(kg, reading, topic)}
    return fired | {d.iri for d in definitions if reading.construct(d.construct or "")}


@dataclass
class Job:
    """The search for the rules of some topics of one system: the unit a worker process runs."""

    graph: Path
    system: str
    seed: int
    budget: int
    patience: int
    tallies: list[Tally]
    progress: Callable[[int], object] | None = None
    """Told how many more rules are settled (witnessed both ways, or their topic's search ended), for
    a progress bar: the bar's ``update``, or in a worker a queue's ``put``."""


@cache
def _graph(path: Path) -> KnowledgeGraph:
    """The knowledge graph of a worker process, loaded once."""
    return KnowledgeGraph.load(path)


def _run(job: Job) -> tuple[list[Tally], int]:
    """A job in a worker process."""
    return search(_graph(job.graph), job)


def _in_workers(tasks: list[Job], jobs: int, bar: tqdm) -> list[tuple[list[Tally], int]]:
    """The tasks in ``jobs`` worker processes, their progress passed back through a queue."""
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(jobs, mp_context=context) as pool:
        settled = manager.Queue()
        futures = [pool.submit(_run, replace(task, progress=settled.put)) for task in tasks]
        while not all(f.done() for f in futures) or not settled.empty():
            try:
                bar.update(settled.get(timeout=0.2))
            except queue.Empty:
                continue
        return [f.result() for f in futures]


def search(kg: KnowledgeGraph, job: Job) -> tuple[list[Tally], int]:
    """Ask generated readings under the scope of each rule (:meth:`Scopes.rule_scope`) of the
    job's rule topics until a topic's unexplained rules all have both witnesses, the budget is
    spent, or its rules were asked on ``patience`` readings in a row without a new witness (a
    reading on which none of its searching rules can fire does not count): the tallies and the
    number of readings generated.

    A reading is asked under a topic only for the rules still searching (unexplained, lacking a
    witness) whose scope holds the topic and which can fire on the chart: a rule lacking a fact
    that the chart itself must hold (:meth:`Scopes.chart_facts_only`) is silent under every
    topic. Rules already witnessed both ways are counted only on the readings asked under all
    topics of their scope.

    Every job of a system draws the same readings (same seed), so the result of a rule topic does
    not depend on how rule topics are shared out among jobs.
    """
    by_topic: dict[str, list[Tally]] = defaultdict(list)
    for t in job.tallies:
        by_topic[t.rule.topic].append(t)
    scopes = Scopes(kg)
    scope = {t.rule.iri: scopes.rule_scope(t.rule) for t in job.tallies}
    needed = {t.rule.iri: scopes.chart_facts_only(t.rule) for t in job.tallies}
    samples = SAMPLERS[job.system](random.Random(f"{job.seed}-{job.system}"))
    generated = dropped = settled = 0
    idle = dict.fromkeys(by_topic, 0)
    while by_topic and generated < job.budget:
        sample = next(samples)
        generated += 1
        active = [t for group in by_topic.values() for t in group]
        entities, own = _chart_index(sample, kg)
        possible = {t.rule.iri for t in active if is_candidate(needed[t.rule.iri], entities, own)}
        asked = {
            topic for t in active if t.searching and t.rule.iri in possible for topic in scope[t.rule.iri]
        }
        definitions: dict[str, list[RuleInfo]] = {topic: [] for topic in asked}
        for t in active:
            if t.rule.kind == "definition":
                for topic in asked.intersection(scope[t.rule.iri]):
                    definitions[topic].append(t.rule)
        fired = {topic: fired_rules(kg, sample.facts, topic, rules) for topic, rules in definitions.items()}
        for topic, group in list(by_topic.items()):
            idle[topic] += any(t.searching and t.rule.iri in possible for t in group)
            for t in group:
                # under each topic of the scope: fired, silent (not asked, but cannot fire), or unknown
                outcomes = [
                    (t.rule.iri in fired[asked])
                    if asked in fired
                    else (None if t.rule.iri in possible else False)
                    for asked in scope[t.rule.iri]
                ]
                if t.record(*_verdicts(outcomes), sample):
                    idle[topic] = 0
            if not any(t.searching for t in group) or idle[topic] >= job.patience:
                del by_topic[topic]
                dropped += len(group)
        now = dropped + sum(not t.searching for group in by_topic.values() for t in group)
        if job.progress is not None and now > settled:
            job.progress(now - settled)
            settled = now
    if job.progress is not None and len(job.tallies) > settled:
        job.progress(len(job.tallies) - settled)
    return job.tallies, generated


def _verdicts(outcomes: list[bool | None]) -> tuple[bool | None, bool | None]:
    """Whether a rule fires on a reading and whether it stays silent on it, from whether it fired
    under each topic of its scope (None: not known); None where that does not settle it."""
    fires = True if True in outcomes else None if None in outcomes else False
    silent = True if False in outcomes else None if None in outcomes else False
    return fires, silent


def _chart_index(sample: Sample, kg: KnowledgeGraph) -> ReadingIndex:
    """The candidate index of the sample's chart facts, before any definition."""
    store = ox.Store()
    store.bulk_load(sample.facts, format=ox.RdfFormat.N_TRIPLES)
    return Reading(store).index(kg.relations)


def witness(
    graph: Path,
    work_ids: list[str] | None = None,
    readings: int = DEFAULT_READINGS,
    seed: int = DEFAULT_SEED,
    explanations: dict[str, str] | None = None,
    jobs: int = 1,
    patience: int | None = None,
) -> WitnessReport:
    """Search generated readings (up to ``readings`` per topic, see :func:`search`) for the
    witnesses of every condition rule of ``work_ids`` (default: all works), in ``jobs`` worker
    processes (1: in this process); ``patience`` None takes :data:`DEFAULT_PATIENCE` per system.

    A topic drops out once all its unexplained rules have both witnesses, so an explained rule
    is only reported stale when its witnesses turn up before that.
    """
    catalogue = works()
    work_ids = work_ids or list(catalogue)
    unknown = [w for w in work_ids if w not in catalogue]
    if unknown:
        raise InputError(f"unknown work {', '.join(unknown)}; the catalogue has {', '.join(catalogue)}")
    explanations = explanations if explanations is not None else load_explanations()
    start = time.perf_counter()
    kg = KnowledgeGraph.load(graph)
    all_tallies = tallies(kg, work_ids, explanations)
    tasks = []
    for system in SAMPLERS:
        topics = sorted({t.rule.topic for t in all_tallies if catalogue[t.work].system == system})
        for share in (topics[i::jobs] for i in range(jobs)):
            chosen = [t for t in all_tallies if t.rule.topic in share and catalogue[t.work].system == system]
            if chosen:
                tasks.append(Job(graph, system, seed, readings, patience or DEFAULT_PATIENCE[system], chosen))
    with tqdm(total=len(all_tallies), desc="rules searched", unit=" rule", disable=None, leave=False) as bar:
        if jobs == 1:
            results = [search(kg, replace(task, progress=bar.update)) for task in tasks]
        else:
            results = _in_workers(tasks, jobs, bar)
    generated = dict.fromkeys(SAMPLERS, 0)
    for task, (_, n) in zip(tasks, results, strict=True):
        generated[task.system] = max(generated[task.system], n)
    searched = sorted((t for done, _ in results for t in done), key=lambda t: t.rule_id)
    witnessed = {t.rule_id for t in searched if t.witnessed}
    rule_ids = {p["id"] for p in kg.provenance.values()}
    stale = {k: v for k, v in explanations.items() if k in witnessed or k not in rule_ids}
    return WitnessReport(searched, generated, time.perf_counter() - start, stale)


# ── output ──────────────────────────────────────────────────────────────────────────────────

HEADINGS = {
    "never": "fire on no reading",
    "always": "fire on every reading",
    "explained": "explained",
}


def counts(group: list[Tally]) -> dict[str, int]:
    return {s: sum(t.status == s for t in group) for s in STATUSES}


def render_text(report: WitnessReport) -> str:
    """Per work: the counts, then the rules lacking a witness (and the explained ones) by status."""
    out = []
    for work_id, group in report.by_work().items():
        system = works()[work_id].system
        c = counts(group)
        out.append(
            f"{work_id} ({system}, {report.readings[system]} readings): {len(group)} condition rules — "
            f"{c['both']} witnessed both ways, {c['never']} fire never, {c['always']} fire always, "
            f"{c['explained']} explained"
        )
        for status, heading in HEADINGS.items():
            listed = [t for t in group if t.status == status]
            if listed:
                out.append(f"  {heading}:")
                for t in listed:
                    out.append(f"    {t.rule_id}  {t.urn}  {t.quote}")
                    if t.explanation:
                        out.append(f"      ({t.observed}) {t.explanation}")
    for rule_id, reason in report.stale.items():
        out.append(f"stale explanation (rule witnessed both ways or unknown): {rule_id}: {reason}")
    readings = ", ".join(f"{n} {system}" for system, n in report.readings.items() if n)
    out.append(f"{readings} readings in {report.seconds:.1f} s")
    return "\n".join(out)


def render_json(report: WitnessReport) -> str:
    data = {
        "readings": report.readings,
        "seconds": round(report.seconds, 1),
        "works": [
            {"work": work_id, **counts(group), "rules": [t.as_dict() for t in group]}
            for work_id, group in report.by_work().items()
        ],
        "stale_explanations": report.stale,
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


@click.command("witness")
@click.option("--work", "work_ids", multiple=True, metavar="ID", help="Only this work (repeatable).")
@click.option(
    "--readings",
    type=click.IntRange(min=1),
    default=DEFAULT_READINGS,
    show_default=True,
    help="Readings per topic at most (each reading is asked under every topic still searching).",
)
@click.option(
    "--patience",
    type=click.IntRange(min=1),
    help="A topic stops after its rules were asked on this many readings in a row without a new "
    "witness [default: 1200 for 六爻, 200 for 大六壬].",
)
@click.option(
    "--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Seed of the reading generator."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--check", is_flag=True, help="Exit 1 when an unexplained rule lacks a witness.")
@click.option(
    "--explanations",
    type=click.Path(path_type=Path),
    default=EXPLANATIONS,
    show_default=True,
    help="YAML mapping rule id → why it has no witness.",
)
@click.option("--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=os.cpu_count() or 1,
    show_default=True,
    help="Worker processes (the result does not depend on it).",
)
def witness_command(
    work_ids: tuple[str, ...],
    readings: int,
    patience: int,
    seed: int,
    fmt: str,
    check: bool,
    explanations: Path,
    graph: Path,
    jobs: int,
) -> None:
    """For every condition rule, find a generated reading on which it fires and one on which it
    does not; report rules that fire never or always (unless explained)."""
    report = witness(
        graph, list(work_ids) or None, readings, seed, load_explanations(explanations), jobs, patience
    )
    click.echo(render_json(report) if fmt == "json" else render_text(report))
    if check and report.unexplained:
        sys.exit(1)
