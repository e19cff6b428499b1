"""Benchmark: what one rule query costs Oxigraph, and where: planning against evaluation, and one
reading's store against one store holding many readings.

The queries are those retrieval runs (kg.match.Reading.select and .construct, recorded while
seeded random 六爻 readings are retrieved under random topics of the 六爻 rules). Each distinct
query is run, the best of a few passes:

  reading      on the store of the reading it was run on (what retrieval pays)
  empty        on an empty store: parsing and planning alone, as nothing can match
  shared       the templates of the real rules without arguments, anchored (?reading a dk:Reading),
               on one store holding N readings' facts, per reading, next to the same query on
               each reading's own store: what a batch could pay if it asked many readings at once

and, for the planning cost's growth, a star of n patterns on ?r (as a rule's entities all join on
?reading) on an empty store.

Run from the repository root after `kg build`: python -m bench.sparql_cost [--readings 200]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import timeit
from pathlib import Path

import pyoxigraph as ox

import bench.reading as whole
from kg.match import KnowledgeGraph, Reading, declarations
from kg.paths import BUILD


def best(run, number: int = 5, repeat: int = 3) -> float:
    """Microseconds per call, the best of ``repeat`` passes of ``number`` calls."""
    return min(timeit.repeat(run, number=number, repeat=repeat)) / number * 1e6


def recorded(kg: KnowledgeGraph, count: int) -> list[tuple[Reading, str]]:
    """(reading, query) for every query retrieval ran on ``count`` seeded 六爻 readings."""
    samples = whole.liuyao_samples(count, whole.system_topics(kg)["liuyao"], random.Random(5))
    queries: list[tuple[Reading, str]] = []
    query = Reading._query

    def spy(self: Reading, text: str):
        queries.append((self, text))
        return query(self, text)

    Reading._query = spy  # type: ignore[method-assign]
    try:
        for sample in samples:
            whole.attempt(whole.reading, kg, sample)
    finally:
        Reading._query = query  # type: ignore[method-assign]
    return queries


def run_on(reading: Reading, store: ox.Store, text: str) -> None:
    """``text`` as retrieval runs it on ``reading`` (its layer's graphs), on ``store``."""
    view = copy.copy(reading)
    view.store = store
    list(view._query(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, default=BUILD / "kg.nq")
    parser.add_argument("--readings", type=int, default=200)
    args = parser.parse_args()
    kg = KnowledgeGraph.load(args.graph)
    queries = recorded(kg, args.readings)
    distinct = {text: reading for reading, text in queries}
    empty = ox.Store()
    on_reading = {t: best(lambda r=r, t=t: run_on(r, r.store, t)) for t, r in distinct.items()}
    on_empty = {t: best(lambda r=r, t=t: run_on(r, empty, t)) for t, r in distinct.items()}
    weighted = [t for _, t in queries]
    print(
        f"{len(queries)} queries on {args.readings} readings ({len(queries) / args.readings:.1f} a reading), {len(distinct)} distinct"
    )
    print(f"{'µs per query':<34} {'mean':>8} {'median':>8}")
    for name, cost in (("on the reading's store", on_reading), ("on an empty store (planning)", on_empty)):
        print(
            f"{name:<34} {statistics.mean(cost[t] for t in weighted):>8.1f} {statistics.median(cost.values()):>8.1f}"
        )
    share = sum(on_empty[t] for t in weighted) / sum(on_reading[t] for t in weighted)
    print(f"planning is {share:.0%} of the query time retrieval pays")

    print("a star of n patterns on ?r, on an empty store (µs):")
    for n in (2, 4, 8, 12, 16):
        star = " ".join(f"?r <urn:x:line> ?v{i} . ?v{i} <urn:x:void> false ." for i in range(n // 2))
        query = f"SELECT * WHERE {{ {star} }}"
        print(f"  n={n:<3} {best(lambda q=query: list(empty.query(q)), 20):>8.1f}")

    stores, shared = [], ox.Store()
    for reading in {id(r.store): r for r, _ in queries}.values():
        quads = list(reading.store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
        own = ox.Store()
        own.extend(quads)
        stores.append(own)
        shared.extend(quads)
    templates = [declarations(t) + t for t in kg.templates.values() if "?_c" not in t and "GROUP BY" not in t]
    alone = sum(best(lambda s=s: [list(s.query(t)) for t in templates], 1, 1) for s in stores[:20]) / min(
        20, len(stores)
    )
    together = best(lambda: [list(shared.query(t)) for t in templates], 1, 3) / len(stores)
    print(
        f"{len(templates)} templates without arguments, per reading: {alone / 1000:.2f} ms on its own store,"
        f" {together / 1000:.3f} ms on one store of {len(stores)} readings (×{alone / together:.0f})"
    )


if __name__ == "__main__":
    main()
