"""Benchmark: ``kg batch liuyao`` over the 4,096 casts of one set of pillars, every 六爻 topic.

On a seeded sample of the casts (64 by default), each cast under every topic of the 六爻 rules,
timed in the same run:

  all topics at once   kg.batch.reading_rows: the chart cast once, then kg.match.retrieve_topics
                       (topics with the same definitions share a layer, a rule runs once per set
                       of layer facts it may read)
  topic by topic       the named alternative: kg.match.retrieve once per topic, each on a fresh
                       Reading of the same facts (what ``kg reading`` does for one topic)

Both give the same rules (checked here on the sample, and in tests/test_batch.py). The figures
are extrapolated to the 4,096 casts, for one process and for ``--jobs`` worker processes (the
partitions are independent, so the work divides by the cores; the machine's load counts). A last
pass times the SPARQL queries alone (pyoxigraph's evaluation of each rule and definition run): the
floor of this design, one query per rule run, whatever the Python around it costs.

Run from the repository root after `kg build`: python -m bench.batch [--sample 64] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from kg import match
from kg.batch import Job, all_casts, knowledge_graph, numbered, reading_rows, system_topics
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.paths import BUILD
from kg.record import cast

PILLARS = "庚寅 戊寅 癸亥"
TARGET = 60.0
"""All 4,096 casts × every 六爻 topic, seconds."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--graph", type=Path, default=BUILD / "kg.nq")
    args = parser.parse_args()
    kg = knowledge_graph(args.graph)
    topics = system_topics(kg, "liuyao")
    casts = all_casts(PILLARS)
    jobs = numbered(random.Random(20261201).sample(casts, args.sample), topics)

    at_once, one_by_one, same = [], [], 0
    for job in jobs:
        start = time.perf_counter()
        rows = sorted(
            (r["topic"], r["rule"], r["bindings"], r["status"]) for r in reading_rows(kg, "liuyao", job)
        )
        at_once.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = cast("liuyao", job.inputs, None)
        single = []
        for topic in topics:
            for a in retrieve(kg, Reading(found.facts), topic):
                single.append((kg.topics[topic], a.rule_id, a.bindings, a.status))
        one_by_one.append(time.perf_counter() - start)
        single = sorted((t, r, json.dumps(b, ensure_ascii=False, sort_keys=True), s) for t, r, b, s in single)
        same += rows == single

    print(f"{len(jobs)} casts of {PILLARS} × {len(topics)} topics; the same rules on {same} of {len(jobs)}")
    print(
        f"{'path':<20}{'ms/cast p50':>12}{'ms/cast mean':>14}{'4,096 casts, 1 process':>24}{f'{args.jobs} processes':>14}"
    )
    for name, times in (("all topics at once", at_once), ("topic by topic", one_by_one)):
        mean = statistics.fmean(times)
        total = mean * len(casts)
        print(
            f"{name:<20}{statistics.median(times) * 1000:>12.1f}{mean * 1000:>14.1f}"
            f"{total:>22.0f} s{total / args.jobs:>12.0f} s"
        )
    queries, in_sparql = sparql_alone(kg, jobs)
    floor = in_sparql / len(jobs)
    print(
        f"{'of which SPARQL':<20}{'':>12}{floor * 1000:>14.1f}{floor * len(casts):>22.0f} s"
        f"{floor * len(casts) / args.jobs:>12.0f} s   ({queries / len(jobs):.0f} queries a cast)"
    )
    ratio = statistics.fmean(one_by_one) / statistics.fmean(at_once)
    estimate = statistics.fmean(at_once) * len(casts) / args.jobs
    verdict = "met" if estimate <= TARGET else "missed"
    print(
        f"all topics at once is {ratio:.1f}× faster; target {TARGET:.0f} s for the 4,096 casts: {verdict} ({estimate:.0f} s)"
    )


class Solutions(list):
    """A query's results read in full, with the variables of a SELECT's."""

    variables: list


def sparql_alone(kg: KnowledgeGraph, jobs: list[Job]) -> tuple[int, float]:
    """The queries all topics at once runs on the jobs, and the seconds pyoxigraph spends in them."""
    spent, count = 0.0, 0
    query = match.Reading._query

    def timed(reading: Reading, text: str) -> Solutions:
        nonlocal spent, count
        start = time.perf_counter()
        results = query(reading, text)
        solutions = Solutions(results)  # pyoxigraph evaluates as the results are read
        spent += time.perf_counter() - start
        count += 1
        solutions.variables = getattr(results, "variables", [])
        return solutions

    match.Reading._query = timed
    try:
        for job in jobs:
            list(reading_rows(kg, "liuyao", job))
    finally:
        match.Reading._query = query
    return count, spent


if __name__ == "__main__":
    main()
