"""Views of a chart: the traditional terminal layout, and JSON with every computed value."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from datetime import datetime
from enum import Enum
from functools import cache
from operator import attrgetter
from typing import Any

from kg.ganzhi import GanZhi
from kg.liuyao.chart import ChangedLine, Chart, Line
from kg.liuyao.hexagrams import Hexagram

_YANG, _YIN = "▅▅▅▅▅", "▅▅ ▅▅"
_MARK = {9: "○", 6: "×", 7: "", 8: ""}
"""Moving marks: ○ 老陽 (重), × 老陰 (交)."""


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _hexagram_title(h: Hexagram) -> str:
    return f"{h.name} ({h.palace.char}宮 {h.generation.char}, 宮屬{h.palace_element.char})"


def _classes(h: Hexagram) -> str:
    marks = [
        ("八純", h.is_pure),
        ("游魂", h.is_wandering),
        ("歸魂", h.is_returning),
        ("六沖", h.is_liu_chong),
        ("六合", h.is_liu_he),
    ]
    return " ".join(name for name, on in marks if on)


def _line_text(line: Line | ChangedLine) -> str:
    mark = "世" if line.shi else "應" if line.ying else ""
    return f"{line.relative.char} {line.ganzhi.name}{line.element.char} {_YANG if line.yang else _YIN} {mark}"


def render(chart: Chart) -> str:
    """The chart in the traditional layout: lines top to bottom, 六神, 伏神, 本卦 and 變卦 beside."""
    pillars = " ".join(f"{p.ganzhi.name}{p.char}" for p in chart.pillars)
    out = [f"{pillars}   旬空 {''.join(b.char for b in chart.void)}"]
    record = chart.calendar
    if record.pillars_given:
        out.append("pillars given")
        out += [f"WARNING: inconsistent pillars accepted: {broken}" for broken in record.inconsistencies]
    else:
        out.append(
            f"{record.moment.isoformat() if record.moment else ''} ({record.timezone}), {record.library}, 子時 rule {record.zi_hour_rule}"
        )
        if record.near_jie and record.nearest_jie is not None:
            out.append(
                f"WARNING: within a minute of {record.nearest_jie.name} {record.nearest_jie.moment.isoformat()}; the month pillar is uncertain"
            )
    title = f"本卦 {_hexagram_title(chart.hexagram)} {_classes(chart.hexagram)}"
    if chart.changed_hexagram:
        title += f"   之 {_hexagram_title(chart.changed_hexagram)} {_classes(chart.changed_hexagram)}"
    out.append(title.rstrip())
    notes = []
    if chart.chong_to_he:
        notes.append("六沖變六合")
    if chart.he_to_chong:
        notes.append("六合變六沖")
    notes += [f"{'內' if t == 'inner' else '外'}卦伏吟" for t in chart.fu_yin_trigrams]
    notes += [f"{''.join(b.char for b in f.branches)}{f.element.char}局 ({f.kind})" for f in chart.frames]
    if chart.tian_she:
        notes.append("天赦日")
    body = chart.gua_shen
    if body.rule.value != "none":
        where = "".join(str(p) for p in body.positions) or "不上卦"
        notes.append(f"卦身 {body.branch.char if body.branch is not None else '身爻'} ({where})")
    if notes:
        out.append(" ".join(notes))
    if changed := chart.options.changed():
        out.append("options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    out.append("")
    hidden = {h.position: h for h in chart.hidden_lines}
    out.append(
        f"{_pad('六神', 6)}{_pad('伏神', 16)}{_pad('本卦', 28)}{'變卦' if chart.changed_lines else ''}"
    )
    for line in reversed(chart.lines):
        h = hidden.get(line.position)
        fu = f"{h.relative.char} {h.ganzhi.name}{h.element.char}" if h else ""
        row = f"{_pad(line.beast.char, 6)}{_pad(fu, 16)}{_pad(_line_text(line), 24)}{_pad(_MARK[line.value], 4)}"
        if chart.changed_lines:
            row += _line_text(chart.changed_lines[line.position - 1])
        out.append(row.rstrip())
    return "\n".join(out)


@cache
def _hexagram_json(value: Hexagram) -> dict[str, Any]:
    return {
        "name": value.name,
        "short": value.short,
        "bits": value.code,
        "inner": value.inner.char,
        "outer": value.outer.char,
        "palace": value.palace.char,
        "palace_element": value.palace_element.char,
        "generation": value.generation.char,
        "shi": value.shi,
        "ying": value.ying,
        "pure": value.is_pure,
        "wandering": value.is_wandering,
        "returning": value.is_returning,
        "liu_chong": value.is_liu_chong,
        "liu_he": value.is_liu_he,
    }


def _enum_json(value: Enum) -> Any:
    char = getattr(value, "char", None)
    return char if char is not None else value.value


def _sequence_json(value: tuple | list) -> list[Any]:
    return [_json(v) for v in value]


def _dataclass_json(kind: type) -> Callable[[Any], dict[str, Any]]:
    names = tuple(f.name for f in fields(kind))
    computed = ("near_jie",) if hasattr(kind, "near_jie") else ()

    def convert(value: Any) -> dict[str, Any]:
        out = {name: _json(getattr(value, name)) for name in names}
        out.update((name, getattr(value, name)) for name in computed)
        return out

    return convert


@cache
def _converter(kind: type) -> Callable[[Any], Any] | None:
    """How a value of this type becomes JSON data (None: it already is)."""
    if issubclass(kind, Hexagram):
        return lambda value: dict(_hexagram_json(value))
    if issubclass(kind, GanZhi):
        return attrgetter("name")
    if issubclass(kind, Enum):
        return _enum_json
    if issubclass(kind, datetime):
        return datetime.isoformat
    if is_dataclass(kind):
        return _dataclass_json(kind)
    if issubclass(kind, tuple | list):
        return _sequence_json
    return None


def _json(value: Any) -> Any:
    convert = _converter(type(value))
    return value if convert is None else convert(value)


def chart_to_json(chart: Chart) -> dict[str, Any]:
    """Every computed value of the chart as JSON-ready data (enums as their zh-Hant names)."""
    return _json(chart)
