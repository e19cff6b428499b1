"""大六壬: the chart (課式) — 天地盤, 十二天將, 四課, 三傳 by the 九宗門, 課體; the procedures of the texts.

Pure Python over small integer tables; reproduces the 720-lesson table
(``tests/fixtures/liuren-720.tsv``). See docs/liuren-doctrine.md for the doctrine.
"""

from kg.liuren import procedures  # importing it registers the text procedures (kg.registry)
from kg.liuren.chart import (
    DEFAULT_OPTIONS,
    Chart,
    Options,
    Seat,
    Transmission,
    Upper,
    build_chart,
    chart_from_inputs,
)
from kg.liuren.four_lessons import Lesson, Relation
from kg.liuren.generals import DayNight, DayNightRule, General, Procession
from kg.liuren.keti import KETI, Keti, TextComparison, compare_with_text, keti_named
from kg.liuren.plates import MONTH_GENERALS, MonthGeneral, Rank, parse_month_general
from kg.liuren.three_transmissions import (
    TABLE_720_READINGS,
    DisputedReading,
    Method,
    ShehaiVariant,
    SubType,
    Transmissions,
)
from kg.liuren.view import chart_to_json, render

__all__ = [
    "DEFAULT_OPTIONS",
    "KETI",
    "MONTH_GENERALS",
    "TABLE_720_READINGS",
    "Chart",
    "DayNight",
    "DayNightRule",
    "DisputedReading",
    "General",
    "Keti",
    "Lesson",
    "Method",
    "MonthGeneral",
    "Options",
    "Procession",
    "Rank",
    "Relation",
    "Seat",
    "ShehaiVariant",
    "SubType",
    "TextComparison",
    "Transmission",
    "Transmissions",
    "Upper",
    "build_chart",
    "chart_from_inputs",
    "chart_to_json",
    "compare_with_text",
    "keti_named",
    "parse_month_general",
    "procedures",
    "render",
]
