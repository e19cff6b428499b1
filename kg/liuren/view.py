"""Terminal view and JSON form of a 大六壬 chart.

The 天地盤 is drawn as the traditional square: the twelve 地盤 seats around the edge with 巳午未申
along the top, 寅丑子亥 along the bottom, each showing its 天盤 spirit and the 天將 riding it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from kg.calendar import zhongqi_within_a_minute
from kg.liuren.chart import TRANSMISSION_NAMES, Chart, Seat
from kg.liuren.generals import Procession

_SQUARE: tuple[tuple[int | None, ...], ...] = (
    (5, 6, 7, 8),
    (4, None, None, 9),
    (3, None, None, 10),
    (2, 1, 0, 11),
)
"""地盤 seats in the printed square (None: the centre)."""


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    gap = width - _width(text)
    left = gap // 2
    return " " * left + text + " " * (gap - left)


def _seat_general(seat: Seat, short: bool = False) -> str:
    """The applicable 天將, or 晝/夜 abbreviations when 晝/夜 is unknown."""
    if seat.general is not None:
        return seat.general.short if short else seat.general.char
    return f"{seat.day_general.short}/{seat.night_general.short}"


def _cell_lines(chart: Chart, earth: int | None) -> tuple[str, str, str]:
    if earth is None:
        return ("", "", "")
    seat = chart.seats[earth]
    mark = "空" if seat.void else ""
    return (_seat_general(seat), seat.heaven.char + mark, f"({seat.earth.char})")


def _plate_lines(chart: Chart) -> list[str]:
    width = 10
    border = "+" + "+".join("-" * width for _ in range(4)) + "+"
    lines = [border]
    for row in _SQUARE:
        cells = [_cell_lines(chart, e) for e in row]
        for k in range(3):
            lines.append("|" + "|".join(_pad(cell[k], width) for cell in cells) + "|")
        lines.append(border)
    return lines


def _procession_text(p: Procession) -> str:
    return f"貴人 {p.noble.char} 臨 {p.seat.char} {'順' if p.forward else '逆'}"


def render(chart: Chart) -> str:
    """The chart as text: header, 天地盤 square, 四課, 三傳 and 課體."""
    head = [f"{chart.day.name}日 第{chart.ju}局"]
    if chart.month_general is not None:
        head.append(f"月將 {chart.month_general.branch.char}({chart.month_general.name})")
    head.append(f"占時 {chart.hour.char}" if chart.hour is not None else "占時 ?")
    head.append(chart.day_night.value if chart.day_night is not None else "晝/夜 ?")
    head.append(f"旬空 {''.join(b.char for b in chart.void)}")
    lines = ["  ".join(head)]
    if chart.pillars is not None:
        lines.append(f"四柱 {chart.pillars}")
    if chart.calendar is not None:
        lines += [
            f"WARNING: inconsistent inputs accepted: {broken}" for broken in chart.calendar.inconsistencies
        ]
    if chart.calendar is not None and chart.calendar.moment is not None:
        cal = chart.calendar
        text = f"曆 {cal.moment.isoformat()} ({cal.timezone}; {cal.library}; 子時 {cal.zi_hour_rule})"
        if chart.zhongqi is not None:
            text += f"; 將 from {chart.zhongqi.name} {chart.zhongqi.moment.isoformat()}"
        if cal.near_jie:
            text += " ⚠ within a minute of a 節"
        if (term := zhongqi_within_a_minute(cal.moment)) is not None:
            text += f" ⚠ within a minute of the 中氣 {term.name} {term.moment.isoformat()} (the 月將 changes there)"
        lines.append(text)
    lines.append(
        f"晝 {_procession_text(chart.day_procession)}   夜 {_procession_text(chart.night_procession)}"
    )
    lines.extend(_plate_lines(chart))

    order = (3, 2, 1, 0)
    generals = [_seat_general(chart.seats[chart.seat_of(chart.lessons[i].upper)], short=True) for i in order]
    columns = (
        generals,
        [chart.lessons[i].upper.char for i in order],
        [chart.lessons[i].lower.char for i in order],
        [chart.lessons[i].relation.char for i in order],
    )
    for label, row in zip(("四課", "", "", ""), columns, strict=True):
        lines.append(_pad(label, 4) + " " + "".join(_pad(text, 8) for text in row))

    d = chart.derivation
    method = d.method.char + (f"({d.rule.char})" if d.rule is not None else "")
    subtypes = " ".join(s.char for s in d.subtypes)
    lines.append(f"三傳  {method} {subtypes}".rstrip())
    for name, t in zip(TRANSMISSION_NAMES, chart.transmissions, strict=True):
        stem = t.stem.char if t.stem is not None else "－"
        general = t.general.char if t.general is not None else f"{t.day_general.char}/{t.night_general.char}"
        marks = ("◎旬空" if t.void else "") + ("⊙落空" if t.fallen_void else "")
        lines.append(
            f"  {name} {t.relative.char} {stem}{t.branch.char} {general} 臨{t.seat.char} {marks}".rstrip()
        )
    if d.reading is not None:
        lines.append(f"  (初傳 per source: {d.reading.source})")
    for label, up in (("年命", chart.birth), ("行年", chart.walking_year)):
        if up is not None:
            lines.append(f"{label} {up.branch.char} 上神 {up.upper.char}")
    lines.append("課體  " + " ".join(chart.keti_names))
    return "\n".join(lines)


def _branch(b: Any) -> str | None:
    return None if b is None else b.char


def _procession_json(p: Procession) -> dict[str, Any]:
    return {"noble": p.noble.char, "seat": p.seat.char, "direction": "順" if p.forward else "逆"}


def chart_to_json(chart: Chart) -> dict[str, Any]:
    """The chart as plain JSON-ready data (characters for branches, stems and names)."""
    o = chart.options
    d = chart.derivation
    mg = chart.month_general
    data: dict[str, Any] = {
        "day": chart.day.name,
        "ju": chart.ju,
        "month_general": None
        if mg is None
        else {"branch": mg.branch.char, "name": mg.name, "zhongqi": mg.zhongqi},
        "hour": _branch(chart.hour),
        "month": _branch(chart.month),
        "day_night": None if chart.day_night is None else chart.day_night.value,
        "options": {
            "noble_table": o.noble_table,
            "day_night_rule": o.day_night_rule.value,
            "shehai_variant": o.shehai_variant.value,
            "disputed_reading": o.disputed_reading.value,
            "zi_hour_rule": o.zi_hour_rule.value,
            "stem_tomb": o.stem_tomb,
            "temple_table": o.temple_table,
        },
        "void": [b.char for b in chart.void],
        "xun_head": chart.xun_head.char,
        "xun_tail": chart.xun_tail.char,
        "ding": chart.ding.char,
        "plate": [
            {
                "earth": s.earth.char,
                "heaven": s.heaven.char,
                "day_general": s.day_general.char,
                "night_general": s.night_general.char,
                "general": None if s.general is None else s.general.char,
                "earth_rank": s.earth_rank.char,
                "heaven_rank": s.heaven_rank.char,
                "void": s.void,
                "fallen_void": s.fallen_void,
                "state": None if s.state is None else s.state.char,
            }
            for s in chart.seats
        ],
        "nobles": {
            "晝": _procession_json(chart.day_procession),
            "夜": _procession_json(chart.night_procession),
        },
        "lessons": [
            {
                "number": ls.number,
                "upper": ls.upper.char,
                "lower": ls.lower.char,
                "relation": ls.relation.char,
            }
            for ls in chart.lessons
        ],
        "method": d.method.char,
        "subtypes": [s.char for s in d.subtypes],
        "rule": None if d.rule is None else d.rule.char,
        "reading": None if d.reading is None else d.reading.source,
        "transmissions": [
            {
                "position": name,
                "branch": t.branch.char,
                "stem": None if t.stem is None else t.stem.char,
                "relative": t.relative.char,
                "day_general": t.day_general.char,
                "night_general": t.night_general.char,
                "general": None if t.general is None else t.general.char,
                "seat": t.seat.char,
                "void": t.void,
                "fallen_void": t.fallen_void,
            }
            for name, t in zip(TRANSMISSION_NAMES, chart.transmissions, strict=True)
        ],
        "birth": None
        if chart.birth is None
        else {"branch": chart.birth.branch.char, "upper": chart.birth.upper.char},
        "walking_year": None
        if chart.walking_year is None
        else {"branch": chart.walking_year.branch.char, "upper": chart.walking_year.upper.char},
        "keti": list(chart.keti_names),
        "pillars": None if chart.pillars is None else str(chart.pillars),
        "calendar": None,
        "inconsistencies": [] if chart.calendar is None else list(chart.calendar.inconsistencies),
    }
    cal = chart.calendar
    if cal is not None and cal.moment is not None:
        data["calendar"] = {
            "moment": cal.moment.isoformat(),
            "timezone": cal.timezone,
            "library": cal.library,
            "zi_hour_rule": None if cal.zi_hour_rule is None else cal.zi_hour_rule.value,
            "zhongqi": None
            if chart.zhongqi is None
            else {"name": chart.zhongqi.name, "moment": chart.zhongqi.moment.isoformat()},
            "nearest_jie": None
            if cal.nearest_jie is None
            else {"name": cal.nearest_jie.name, "moment": cal.nearest_jie.moment.isoformat()},
            "near_jie": cal.near_jie,
            "near_zhongqi": None
            if (term := zhongqi_within_a_minute(cal.moment)) is None
            else {"name": term.name, "moment": term.moment.isoformat()},
        }
    return data
