"""Per-reading retrieval latency on the built graph and on synthetic scale-ups of it.

The scale-ups (1k, 10k, 100k rules) copy the real rules and vary their constants: every
template argument that is a concept is replaced by a random concept of the same scheme, every
line position by a random position, so the rule shapes (templates) stay those of the texts.
Each variant keeps its original's provenance. Readings are random 六爻 casts on random
dates, asked under the topics of the real rules.

The same retrieval runs on Oxigraph (the default) and on rdflib's engine, side by side, and
the figures include how many rules were candidates and how many fired, so cost can be read
against the candidates. Run from the repository root after `kg build`:

    python -m bench.retrieval [--readings 20] [--sizes 1000,10000,100000] [--rdflib-readings 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox
from rdflib import URIRef

import kg.liuren  # noqa: F401 - registers the 大六壬 procedures the rules may call
from kg.calendar import Pillars
from kg.facts import Facts
from kg.ganzhi import GanZhi
from kg.liuyao.chart import cast_chart
from kg.liuyao.facts import chart_facts, reading_iri
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.paths import BUILD
from kg.vocabulary import DK, vocabulary

SKOS_IN_SCHEME = "http://www.w3.org/2004/02/skos/core#inScheme"


def scheme_members() -> dict[str, list[str]]:
    """Concept IRI → the IRIs of every concept in its scheme."""
    by_scheme: dict[str, list[str]] = defaultdict(list)
    scheme_of = {}
    for c, s in vocabulary().graph.subject_objects(URIRef(SKOS_IN_SCHEME)):
        by_scheme[str(s)].append(str(c))
        scheme_of[str(c)] = str(s)
    return {c: sorted(by_scheme[s]) for c, s in scheme_of.items()}


def vary(term: str, members: dict[str, list[str]], rng: random.Random) -> str:
    if term.startswith("<") and term[1:-1] in members:
        return f"<{rng.choice(members[term[1:-1]])}>"
    if term.isdigit() and 1 <= int(term) <= 6:
        return str(rng.randint(1, 6))
    return term


def scaled_store(kg_path: Path, size: int, seed: int = 7) -> ox.Store:
    """The built graph plus rule variants up to ``size`` rules in all."""
    store = ox.Store()
    store.bulk_load(path=str(kg_path), format=ox.RdfFormat.N_QUADS)
    base = KnowledgeGraph(store)
    originals = [r for r in base.rules.values() if r.template and r.kind != "definition"]
    members, rng = scheme_members(), random.Random(seed)
    graph = ox.NamedNode(f"{DK}graph/rules")
    copied = {str(p) for p in (DK.topic, DK.work, DK.anchor, DK.outcome, DK.template, DK.variable)}
    copied |= {"http://www.w3.org/1999/02/22-rdf-syntax-ns#type", "http://www.w3.org/ns/prov#wasDerivedFrom"}
    quads: list[ox.Quad] = []
    for n in range(max(0, size - len(base.rules))):
        original = originals[n % len(originals)]
        source = ox.NamedNode(original.iri)
        rule = ox.NamedNode(f"{original.iri}/variant/{n}")
        mapping = {t: vary(t, members, rng) for t in original.arguments.split()}
        args = " ".join(mapping[t] for t in original.arguments.split())
        for q in store.quads_for_pattern(source, None, None):
            if q.predicate.value == str(DK.ruleId):
                quads.append(ox.Quad(rule, q.predicate, ox.Literal(f"{q.object.value}/variant/{n}"), graph))
            elif q.predicate.value in copied:
                quads.append(ox.Quad(rule, q.predicate, q.object, graph))
        quads.append(ox.Quad(rule, ox.NamedNode(str(DK.templateArguments)), ox.Literal(args), graph))
        for var, (binding, facts) in original.requires.items():
            for pred, value in facts:
                key = f"{var}\t{binding}\t{pred}\t{mapping.get(value, value)}"
                quads.append(ox.Quad(rule, ox.NamedNode(str(DK.requires)), ox.Literal(key), graph))
    store.extend(quads)
    return store


def random_readings(count: int, topics: list[str], seed: int = 11) -> list[tuple[Facts, str]]:
    rng = random.Random(seed)
    readings = []
    for i in range(count):
        day = GanZhi.from_index(rng.randrange(60))
        month = GanZhi.from_index(rng.randrange(60))
        year = GanZhi.from_index(rng.randrange(60))
        values = tuple(rng.choice((6, 7, 7, 8, 8, 9)) for _ in range(6))
        chart = cast_chart(Pillars(year, month, day), values)
        topic = rng.choice(topics)
        readings.append((chart_facts(chart, reading_iri(chart, f"bench-{i}"), None), topic))
    return readings


def measure(kg: KnowledgeGraph, readings, engine: str) -> tuple[float, float, float, float]:
    times, fired, candidates = [], [], []
    for facts, topic in readings:
        stats: dict[str, float] = {}
        reading = Reading(facts)
        start = time.perf_counter()
        results = retrieve(kg, reading, topic, engine, stats)
        times.append(time.perf_counter() - start)
        fired.append(len(results))
        candidates.append(stats["candidates"])
    ms = [t * 1000 for t in times]
    return statistics.median(ms), max(ms), statistics.mean(candidates), statistics.mean(fired)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, default=BUILD / "kg.nq")
    parser.add_argument("--readings", type=int, default=20)
    parser.add_argument("--rdflib-readings", type=int, default=3)
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args()
    if not 1 <= args.rdflib_readings <= args.readings:
        parser.error("--rdflib-readings: the alternative needs between 1 and --readings readings")
    base = KnowledgeGraph.load(args.graph)
    liuyao = ("yiyin.", "huangjince.")
    topics = sorted({r.topic for r in base.rules.values() if r.iri.rsplit("/", 1)[1].startswith(liuyao)})
    readings = random_readings(args.readings, topics)
    print(f"{len(readings)} random 六爻 readings over {len(topics)} topics of the 六爻 rules")
    print(
        "per reading, retrieval alone: median (max) ms; rdflib/ox on the first",
        args.rdflib_readings,
        "readings",
    )
    print("index s: one-time load of the rule index and provenance, outside the per-reading time")
    print(
        f"{'rules':>8} {'index s':>8} {'oxigraph ms':>16} {'rdflib ms':>10} {'rdflib/ox':>10}"
        f" {'candidates':>11} {'fired':>7}"
    )
    sizes = [len(base.rules)] + [int(s) for s in args.sizes.split(",")]
    for size in sizes:
        store = base.store if size == len(base.rules) else scaled_store(args.graph, size)
        start = time.perf_counter()
        kg = KnowledgeGraph(store)
        kg.load_provenance()
        index = time.perf_counter() - start
        ox_med, ox_max, candidates, fired = measure(kg, readings, "oxigraph")
        same, *_ = measure(kg, readings[: args.rdflib_readings], "oxigraph")
        rd_med, *_ = measure(kg, readings[: args.rdflib_readings], "rdflib")
        print(
            f"{len(kg.rules):>8} {index:>8.2f} {ox_med:>9.2f} ({ox_max:>5.1f}) {rd_med:>10.1f} {rd_med / same:>10.1f}"
            f" {candidates:>11.1f} {fired:>7.1f}"
        )
        if size == len(base.rules):
            print(f"{'':>8} target rdflib/ox ≥ 25: {'met' if rd_med / same >= 25 else 'NOT met'}")
    print(f"target at {sizes[-1]:,} rules: median ≤ 50 ms: {'met' if ox_med <= 50 else 'NOT met'}")


if __name__ == "__main__":
    main()
