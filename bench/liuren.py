"""Benchmark: 大六壬 charts per second over all 8,640 (day, 月將, 占時) combinations.

Stages, timed in the same run:
  core        kg.liuren.build_chart (typed inputs; 四課, 三傳, plates, 課體, 旺相 by 月建)
  core+input  kg.liuren.chart_from_inputs from strings (validation included)
  core+json   build_chart + kg.liuren.chart_to_json
  core+facts  build_chart + kg.liuren.facts.chart_facts (the chart facts as triples of pyoxigraph terms)
  core+quads  core+facts + Facts.quads() (pyoxigraph Quad objects, what a store takes)
  core+rdf    build_chart + kg.liuren.facts.chart_graph (the same facts as an rdflib Graph)
  kinliuren   kinliuren.Liuren(節氣, 月, 日干支, 時干支).result(0) — PyPI kinliuren, same inputs

The 月建 of each combination is the month whose 六合 is the 月將 (the month most of the 將's
half-month falls in); kinliuren is given the 中氣 that starts the 月將 and the 五鼠遁 hour 干支.

Run from the repository root: python -m bench.liuren [--kinliuren-sample N]   (kinliuren is slow; default: all 8,640)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

from rdflib import Graph, URIRef

from kg.ganzhi import Branch, GanZhi, Stem
from kg.liuren import Chart, MonthGeneral, build_chart, chart_from_inputs, chart_to_json
from kg.liuren.facts import chart_facts, chart_graph
from kg.liuren.plates import MONTH_GENERALS, ju_of
from kg.vocabulary import PREFIXES

Combo = tuple[GanZhi, MonthGeneral, Branch, Branch]
"""(day, 月將, 占時, 月建)."""


def combinations() -> list[Combo]:
    return [
        (GanZhi.from_index(i), g, Branch(h), Branch((1 - g.branch) % 12))
        for i in range(60)
        for g in MONTH_GENERALS
        for h in range(12)
    ]


def core(c: Combo) -> Chart:
    day, general, hour, month = c
    return build_chart(day, ju_of(general.branch, hour), general=general, hour=hour, month=month)


def core_input(c: Combo) -> Chart:
    day, general, hour, month = c
    return chart_from_inputs(day=day.name, hour=hour.char, general=general.name, month=month.char)


def core_json(c: Combo) -> dict[str, Any]:
    return chart_to_json(core(c))


READING = URIRef(PREFIXES["reading"] + "bench")


def core_facts(c: Combo) -> object:
    return chart_facts(core(c), READING)


def core_quads(c: Combo) -> object:
    return chart_facts(core(c), READING).quads()


def core_rdf(c: Combo) -> Graph:
    return chart_graph(core(c), READING)


_MONTH_NAMES = ("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")
"""kinliuren's month labels (寅月 = 正月); the library only echoes them."""


def kinliuren_chart(c: Combo) -> dict[str, Any]:
    from kinliuren.kinliuren import Liuren

    day, general, hour, month = c
    hour_stem = Stem((2 * (day.stem % 5) + hour) % 10)
    month_name = _MONTH_NAMES[(month - Branch.YIN) % 12]
    return Liuren(general.zhongqi, month_name, day.name, hour_stem.char + hour.char).result(0)


def _kinliuren_agrees(c: Combo) -> bool:
    """Whether kinliuren's 三傳 equal ours (outside the timing)."""
    try:
        passes = kinliuren_chart(c)["三傳"]
    except Exception:
        return False
    theirs = tuple(passes[k][0] for k in ("初傳", "中傳", "末傳"))
    return theirs == tuple(b.char for b in core(c).derivation.branches)


def rate(fn: Callable[[Combo], object], inputs: Sequence[Combo]) -> tuple[float, int]:
    """Charts per second, and how many inputs raised (counted, not timed separately)."""
    failures = 0
    start = time.perf_counter()
    for c in inputs:
        try:
            fn(c)
        except Exception:
            failures += 1
    return len(inputs) / (time.perf_counter() - start), failures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--kinliuren-sample", type=int, default=None, help="time kinliuren on every k-th input only"
    )
    args = parser.parse_args()
    inputs = combinations()
    stages: list[tuple[str, Callable[[Combo], object], Sequence[Combo]]] = [
        ("core", core, inputs),
        ("core+input", core_input, inputs),
        ("core+json", core_json, inputs),
        ("core+facts", core_facts, inputs),
        ("core+quads", core_quads, inputs),
        ("core+rdf", core_rdf, inputs),
    ]
    try:
        import kinliuren  # noqa: F401
    except ImportError:
        print("kinliuren not installed (pip install 'divkg[bench]'): skipped")
    else:
        sample = inputs[:: args.kinliuren_sample] if args.kinliuren_sample else inputs
        stages.append(("kinliuren", kinliuren_chart, sample))

    results = {}
    print(f"{'stage':<12} {'charts':>7} {'charts/s':>11} {'failed':>7}")
    for name, fn, data in stages:
        per_second, failed = rate(fn, data)
        results[name] = per_second
        print(f"{name:<12} {len(data):>7} {per_second:>11,.0f} {failed:>7}")
    if "kinliuren" in results:
        agree = sum(_kinliuren_agrees(c) for c in sample)
        print(f"kinliuren 三傳 equal to core on {agree}/{len(sample)} inputs")
        print(
            "ratios to kinliuren: "
            + ", ".join(
                f"{n} ×{r / results['kinliuren']:,.0f}" for n, r in results.items() if n != "kinliuren"
            )
        )
    for name, target in (("core", 10_000), ("core+facts", 5_000)):
        print(f"{name} target {target:,}/s: {'met' if results[name] >= target else 'NOT met'}")


if __name__ == "__main__":
    main()
