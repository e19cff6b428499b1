"""Benchmark: whole readings in process, stage by stage, on the built graph (run `kg build` first).

For each system, seeded random readings (1,000 by default) under random topics of that system's
rules: 六爻 casts by explicit pillars and by random moments, 大六壬 lessons by (day, 月將, 占時, 月建)
and by random moments, some with a 年命 or 行年. The calendar of the moments is computed before the
timing (kg.calendar keeps it per day, as a running process does). Stages of one reading:

  chart        kg.liuyao.chart.cast_chart / kg.liuren.chart_from_inputs
  facts        chart_facts: the chart's facts as pyoxigraph triples
  store        kg.match.Reading: the facts into the reading's store (quads) and its index
  definitions  the definition rules (CONSTRUCT) until nothing new is added
  rules        the candidate rules and their query templates (SELECT)
  provenance   quotes, citations, binding labels and parameters of what applies
  report       the report data: the chart's JSON view and the rules as JSON

Next to it, on the same readings: the same reading through an rdflib Graph (chart_graph, then
Reading of the graph), as Turtle and the Python API produce it; and the graph's load, from the
build's cached index (kg.index.marshal) and from kg.nq with its rule index queried.

Run from the repository root: python -m bench.reading [--readings 1000] [--graph build/kg.nq]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from rdflib import URIRef

import kg.liuren.facts as liuren_facts
import kg.liuyao.facts as liuyao_facts
from kg.calendar import BEIJING, Pillars, pillars_at
from kg.corpus import works
from kg.ganzhi import Branch, GanZhi
from kg.liuren import chart_from_inputs
from kg.liuren import chart_to_json as liuren_json
from kg.liuren.plates import MONTH_GENERALS, month_general_at
from kg.liuyao.chart import cast_chart
from kg.liuyao.view import chart_to_json as liuyao_json
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.paths import BUILD

STAGES = ("chart", "facts", "store", "definitions", "rules", "provenance", "report")
TARGETS = {"p50": 5.0, "p99": 15.0}
"""Whole-reading targets, ms."""

Sample = tuple[Callable[[], Any], Any, URIRef]
"""How to cast the chart, the facts module and view of its system, and the topic."""

FIRST = datetime(1900, 1, 1, tzinfo=BEIJING)
MINUTES = 200 * 365 * 24 * 60


def system_topics(kg: KnowledgeGraph) -> dict[str, list[str]]:
    """The topics of each system's rules (a rule's IRI names its work)."""
    system = {w.id: w.system for w in works().values()}
    topics: dict[str, set[str]] = defaultdict(set)
    for rule in kg.rules.values():
        topics[system[rule.iri.rsplit("/", 1)[1].split(".")[0]]].add(rule.topic)
    return {s: sorted(t) for s, t in topics.items()}


def _moment(rng: random.Random) -> datetime:
    return FIRST + timedelta(minutes=rng.randrange(MINUTES))


def liuyao_samples(count: int, topics: list[str], rng: random.Random) -> list[Sample]:
    samples: list[Sample] = []
    for i in range(count):
        values = tuple(rng.choices((6, 7, 8, 9), weights=(1, 3, 3, 1), k=6))
        if i % 2:
            pillars, record = pillars_at(_moment(rng))
        else:
            pillars, record = Pillars(*(GanZhi.from_index(rng.randrange(60)) for _ in range(4))), None

        def cast(pillars=pillars, values=values, record=record):
            return cast_chart(pillars, values, None, record)

        samples.append((cast, "liuyao", URIRef(rng.choice(topics))))
    return samples


def liuren_samples(count: int, topics: list[str], rng: random.Random) -> list[Sample]:
    samples: list[Sample] = []
    for i in range(count):
        birth = rng.choice((None, None, "子", "丙寅"))
        if i % 2:
            moment = _moment(rng)
            pillars_at(moment)
            month_general_at(moment)

            def cast(moment=moment, birth=birth):
                return chart_from_inputs(moment=moment, birth=birth)
        else:
            day, general = GanZhi.from_index(rng.randrange(60)), rng.choice(MONTH_GENERALS)
            hour, month = Branch(rng.randrange(12)), Branch((1 - general.branch + rng.randrange(2)) % 12)

            def cast(day=day, general=general, hour=hour, month=month, birth=birth):
                return chart_from_inputs(day=day, hour=hour, general=general.branch, month=month, birth=birth)

        samples.append((cast, "liuren", URIRef(rng.choice(topics))))
    return samples


SYSTEMS = {"liuyao": (liuyao_facts, liuyao_json), "liuren": (liuren_facts, liuren_json)}


def reading(kg: KnowledgeGraph, sample: Sample) -> dict[str, float]:
    """One reading, the seconds of each stage."""
    cast, system, topic = sample
    facts_module, view = SYSTEMS[system]
    clock = time.perf_counter
    start = clock()
    chart = cast()
    cast_at = clock()
    facts = facts_module.chart_facts(chart, facts_module.reading_iri(chart), topic)
    facts_at = clock()
    found = Reading(facts)
    store_at = clock()
    stats: dict[str, float] = {}
    results = retrieve(kg, found, str(topic), stats=stats)
    retrieved = clock()
    {"chart": view(chart), "rules": [a.as_dict() for a in results]}
    end = clock()
    return {
        "chart": cast_at - start,
        "facts": facts_at - cast_at,
        "store": store_at - facts_at,
        "definitions": stats["definitions"],
        "rules": stats["rules"],
        "provenance": retrieved - store_at - stats["definitions"] - stats["rules"],
        "report": end - retrieved,
        "total": end - start,
    }


def through_rdflib(kg: KnowledgeGraph, sample: Sample) -> float:
    """The same reading with its facts as an rdflib Graph, and the report data: seconds."""
    cast, system, topic = sample
    facts_module, view = SYSTEMS[system]
    start = time.perf_counter()
    chart = cast()
    graph = facts_module.chart_graph(chart, facts_module.reading_iri(chart), topic)
    results = retrieve(kg, Reading(graph), str(topic))
    {"chart": view(chart), "rules": [a.as_dict() for a in results]}
    return time.perf_counter() - start


def attempt(run: Callable[[KnowledgeGraph, Sample], Any], kg: KnowledgeGraph, sample: Sample) -> Any:
    """``run`` on the sample, or the error it raised as text (a failing reading is counted, not timed)."""
    try:
        return run(kg, sample)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def percentile(values: list[float], q: float) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]
        if len(values) > 1
        else values[0]
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--graph", type=Path, default=BUILD / "kg.nq")
    parser.add_argument("--readings", type=int, default=1000, help="per system")
    parser.add_argument("--rdflib-sample", type=int, default=10, help="the rdflib path on every k-th reading")
    args = parser.parse_args()

    start = time.perf_counter()
    kg = KnowledgeGraph.load(args.graph)
    cached = time.perf_counter() - start
    start = time.perf_counter()
    KnowledgeGraph(args.graph).load_provenance()
    queried = time.perf_counter() - start
    print(
        f"graph load: {cached * 1000:.0f} ms from the cached index, {queried * 1000:.0f} ms from kg.nq and SPARQL"
    )

    rng = random.Random(23)
    topics = system_topics(kg)
    samples = {
        "liuyao": liuyao_samples(args.readings, topics["liuyao"], rng),
        "liuren": liuren_samples(args.readings, topics["liuren"], rng),
    }
    for system, group in samples.items():
        times, failures = [], []
        for sample in group[:20]:  # the first readings fill the per-hexagram and per-day tables
            attempt(reading, kg, sample)
        for sample in group:
            result = attempt(reading, kg, sample)
            (failures if isinstance(result, str) else times).append(result)
        ms = {s: [t[s] * 1000 for t in times] for s in (*STAGES, "total")}
        print(f"\n{system}: {len(group)} readings over {len(topics[system])} topics (ms)")
        print(f"{'stage':<12} {'p50':>7} {'p99':>7} {'mean':>7}")
        for stage, values in ms.items():
            print(
                f"{stage:<12} {statistics.median(values):>7.2f} {percentile(values, 99):>7.2f} {statistics.mean(values):>7.2f}"
            )
        if failures:
            print(f"{len(failures)} readings failed, left out; the first: {failures[0]}")
        via = [
            v * 1000
            for s in group[:: args.rdflib_sample]
            if isinstance(v := attempt(through_rdflib, kg, s), float)
        ]
        p50 = statistics.median(ms["total"])
        print(
            f"through an rdflib Graph: p50 {statistics.median(via):.2f} ms on {len(via)} of them"
            f" (×{statistics.median(via) / p50:.1f} the quad path)"
        )
        for name, target in TARGETS.items():
            value = p50 if name == "p50" else percentile(ms["total"], 99)
            print(
                f"total {name} target ≤ {target} ms: {'met' if value <= target else 'NOT met'} ({value:.2f})"
            )


if __name__ == "__main__":
    main()
