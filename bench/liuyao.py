"""Benchmark: 六爻 charts per second over seeded random casts, next to najia 2.0.1 on the same casts.

Half the casts are given by explicit pillars (random 干支 for year, month, day and hour), half by
random moments between 1900 and 2100 (Beijing time), the line values drawn as three coins fall
(6 and 9 one time in eight, 7 and 8 three times). The pillars of the moments are computed first
(kg.calendar caches them per day) and timed apart. Stages, timed in the same run:

  calendar     kg.calendar.pillars_at for each moment (new days: the solar terms are computed)
  core cold    kg.liuyao.chart.cast_chart from the pillars (and, for a moment, its calendar record),
               the first pass: its tables per cast, per day and month, per 神煞 value are filled
  core         the same again, tables filled (as in a process that has cast charts before)
  core+facts   cast_chart + kg.liuyao.facts.chart_facts (the facts as triples of pyoxigraph terms)
  core+quads   core+facts + Facts.quads() (pyoxigraph Quad objects, what a store takes)
  core+rdf     cast_chart + kg.liuyao.facts.chart_graph (the same facts as an rdflib Graph)
  najia        najia.Najia().compile(params, date) on the moment casts: PyPI najia 2.0.1, the
               extra for benches and tests (it computes 納甲, 六親, 世應, 六神, 伏神 and the 變卦)

Every stage but the cold one is timed in ``--repeats`` passes (3), the best one counted.

Run from the repository root: python -m bench.liuyao [--casts 10000] [--najia-sample K] [--rdf-sample K]
[--repeats N] (najia and rdflib are slow: every K-th cast only).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from kg.calendar import BEIJING, CalendarRecord, Pillars, pillars_at
from kg.ganzhi import GanZhi
from kg.liuyao.chart import Chart, cast_chart
from kg.liuyao.facts import chart_facts, chart_graph, reading_iri

Cast = tuple[Pillars, tuple[int, ...], CalendarRecord | None, datetime | None]
"""Pillars, the six line values (bottom → top), the calendar record and the moment of a moment cast."""

NAJIA_VALUE = {7: 1, 8: 2, 9: 3, 6: 4}
"""najia's line values: 1 少陽, 2 少陰, 3 老陽, 4 老陰."""

FIRST = datetime(1900, 1, 1, tzinfo=BEIJING)
MINUTES = 200 * 365 * 24 * 60


def casts(count: int, seed: int = 17) -> tuple[list[Cast], float]:
    """``count`` casts, the even ones by pillars and the odd ones by moment, and the seconds the
    calendar took for the moments."""
    rng = random.Random(seed)
    found: list[Cast] = []
    calendar = 0.0
    for i in range(count):
        values = tuple(rng.choices((6, 7, 8, 9), weights=(1, 3, 3, 1), k=6))
        if i % 2 == 0:
            year, month, day, hour = (GanZhi.from_index(rng.randrange(60)) for _ in range(4))
            found.append((Pillars(year, month, day, hour), values, None, None))
            continue
        moment = FIRST + timedelta(minutes=rng.randrange(MINUTES))
        start = time.perf_counter()
        pillars, record = pillars_at(moment)
        calendar += time.perf_counter() - start
        found.append((pillars, values, record, moment))
    return found, calendar


def core(c: Cast) -> Chart:
    pillars, values, record, _ = c
    return cast_chart(pillars, values, None, record)


def core_facts(c: Cast) -> object:
    chart = core(c)
    return chart_facts(chart, reading_iri(chart))


def core_quads(c: Cast) -> object:
    chart = core(c)
    return chart_facts(chart, reading_iri(chart)).quads()


def core_rdf(c: Cast) -> object:
    chart = core(c)
    return chart_graph(chart, reading_iri(chart))


def najia_chart(c: Cast) -> object:
    from najia.najia import Najia

    _, values, _, moment = c
    return Najia(0).compile(params=[NAJIA_VALUE[v] for v in values], date=moment)


def _najia_agrees(c: Cast) -> bool:
    """Whether najia's 納甲 (with 五行), 世應 and 變卦 納甲 equal ours (outside the timing)."""
    data = najia_chart(c).data  # type: ignore[attr-defined]
    ours = core(c)
    changed = [g.ganzhi.name + g.element.char for g in ours.changed_lines] or None
    theirs_changed = data["bian"]["qinx"] if data["bian"] else None
    return (
        data["qinx"] == [g.ganzhi.name + g.element.char for g in ours.lines]
        and tuple(data["shiy"][:2]) == (ours.hexagram.shi, ours.hexagram.ying)
        and theirs_changed == changed
    )


def rate(fn: Callable[[Cast], object], inputs: Sequence[Cast], repeats: int) -> float:
    """Charts per second, the best of ``repeats`` passes (the machine is noisy)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for c in inputs:
            fn(c)
        best = min(best, time.perf_counter() - start)
    return len(inputs) / best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--casts", type=int, default=10_000)
    parser.add_argument(
        "--najia-sample", type=int, default=1, help="time najia on every k-th moment cast only"
    )
    parser.add_argument("--rdf-sample", type=int, default=10, help="time core+rdf on every k-th cast only")
    parser.add_argument("--repeats", type=int, default=3, help="passes per stage, the best one counted")
    args = parser.parse_args()
    inputs, calendar = casts(args.casts)
    given = inputs[::2]
    moments = inputs[1::2]
    stages: list[tuple[str, Callable[[Cast], object], Sequence[Cast]]] = [
        ("core cold", core, inputs),
        ("core", core, inputs),
        ("  pillars", core, given),
        ("  moments", core, moments),
        ("core+facts", core_facts, inputs),
        ("core+quads", core_quads, inputs),
        ("core+rdf", core_rdf, inputs[:: args.rdf_sample]),
    ]
    try:
        import najia  # noqa: F401
    except ImportError:
        print("najia not installed (pip install 'divkg[test]'): skipped")
        sample: Sequence[Cast] = ()
    else:
        sample = moments[:: args.najia_sample]
        stages.append(("najia", najia_chart, sample))

    print(
        f"calendar: {len(moments)} moments in {calendar:.2f} s ({len(moments) / calendar:,.0f}/s, cold days)"
    )
    results = {}
    print(f"{'stage':<12} {'charts':>7} {'charts/s':>11}")
    for name, fn, data in stages:
        results[name] = rate(fn, data, 1 if name == "core cold" else args.repeats)
        print(f"{name:<12} {len(data):>7} {results[name]:>11,.0f}")
    if sample:
        agree = sum(_najia_agrees(c) for c in sample)
        print(f"najia 納甲, 世應 and 變卦 equal to core on {agree}/{len(sample)} casts")
        print(
            "ratios to najia: "
            + ", ".join(
                f"{n.strip()} ×{r / results['najia']:,.1f}" for n, r in results.items() if n != "najia"
            )
        )
    for name, target in (("core", 20_000), ("core+facts", 5_000)):
        print(f"{name} target {target:,}/s: {'met' if results[name] >= target else 'NOT met'}")


if __name__ == "__main__":
    main()
