"""Readings in the browser: ``/reading/liuyao`` (六爻) and ``/reading/liuren`` (大六壬).

A GET without parameters shows the form; a GET with the inputs as query parameters casts the chart,
retrieves its rules and shows both, so the URL is the reading's permalink::

    /reading/liuyao?pillars=庚寅+戊寅+癸亥&lines=977778&topic=qianyi

The form is made from the command line's own options (``input_options`` of kg/liuyao/commands.py
and kg/liuren/commands.py): one field per option, named as its parameter, with the option's help,
its choices and its default (the 六爻 doctrinal defaults from :class:`kg.liuyao.chart.Options`); the
values are parsed by click exactly as ``kg reading`` parses them and cast by
:func:`kg.record.cast`, so a bad input gets the command line's message. It is shown beside the
field it concerns — the click parameter, or for an :class:`InputError` the field whose value the
function that raised it was handed (``parse_values('977775')`` → the line values) — with status 400
and no partial reading.

The reading page draws the chart as practitioners draw it (六爻: the lines top-down with 六獸, 伏神,
六親 納甲 五行, 世/應 and moving marks, the 變卦 beside; 大六壬: the twelve palaces in a ring with their
天將, the 四課, the 三傳 with 天將 and 遁干, 旬空 and the 課體), every fact linked to its concept page,
and lists the applicable rules by polarity and topic, each with its wording and gloss, the
bindings that made it fire (linked to the drawing), every quote with its URN, and its citation;
吉 and 凶 rules bound to the same entity side by side; text-only rules as "consider". The page works
without JavaScript (``reading.js`` only leaves empty fields and options at their default out of the
permalink).

Downloads take the same query: ``/reading/liuyao.json?…`` the reading record (:mod:`kg.record`),
``.trig`` and ``.ttl`` the record as RDF, ``.txt`` the text report, ``.svg`` and ``.png`` the chart
(the PNG rendered from the SVG by resvg).
"""

from __future__ import annotations

import json
import traceback
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import click
import resvg_py
from rdflib import URIRef
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from kg.calendar import zhongqi_within_a_minute
from kg.cite import Resolver
from kg.errors import KgError
from kg.liuren import commands as liuren_commands
from kg.liuren.chart import TRANSMISSION_NAMES
from kg.liuren.chart import Chart as LiurenChart
from kg.liuyao import commands as liuyao_commands
from kg.liuyao.chart import ChangedLine, Line
from kg.liuyao.chart import Chart as LiuyaoChart
from kg.liuyao.chart import Options as LiuyaoOptions
from kg.liuyao.chart import Placed as PlacedLine
from kg.liuyao.facts import POSITION_NAMES
from kg.liuyao.hexagrams import Hexagram
from kg.match import Applicable
from kg.record import Cast, build_id, cast, make_record, read, serialise, text_report
from kg.serve.graph import ServedGraph
from kg.serve.linked_data import TEMPLATES
from kg.simplified import topic as user_topic
from kg.vocabulary import DK, concept

FALSE = {"", "0", "off", "false", "no"}
DOWNLOADS = {
    "json": "application/json",
    "ttl": "text/turtle; charset=utf-8",
    "trig": "application/trig; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "svg": "image/svg+xml",
    "png": "image/png",
}
POLARITY_ORDER = ("吉", "凶", "吉凶參半", "中")
"""The order of the polarity groups (dk:PolarityScheme); rules without a polarity come last."""


# ── the forms ────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Field:
    """One input of a form: a click option of the command line."""

    name: str
    """The click parameter name, also the query parameter."""
    flag: str
    label: str
    help: str
    kind: str
    """``text``, ``select`` or ``checkbox``."""
    choices: tuple[str, ...] = ()
    default: str | None = None
    multiple: bool = False

    @property
    def terms(self) -> tuple[str, ...]:
        """The words an error message may name the field by: the label's parts and the flag."""
        return (*self.label.split(" · "), self.flag, self.name.replace("_", " "))


@dataclass(frozen=True)
class Group:
    legend: str
    fields: tuple[Field, ...]
    folded: bool = False
    """Shown folded while every field keeps its default (the doctrinal options)."""


LABELS = {
    "moment": "時刻 · moment",
    "pillars": "四柱 · pillars",
    "accept_inconsistent_pillars": "accept inconsistent pillars",
    "lines": "爻 · line values",
    "hexagram": "卦名 · hexagram",
    "moving": "動爻 · moving lines",
    "coins": "擲錢 · coin tosses",
    "status": "已遷/未遷 · moved or not",
    "birth": "年命 · birth year",
    "purpose": "公私 · purpose",
    "sex": "男女 · sex",
    "occupation": "職業 · occupation",
    "member": "家人年命 · household members",
    "day": "日 · day",
    "hour": "占時 · hour",
    "general": "月將 · monthly general",
    "ju": "局 · ju",
    "month": "月建 · month branch",
    "day_night": "晝夜 · day or night",
    "walking_year": "行年 · walking year",
}
"""The fields' labels (the doctrinal options are labelled by their flag)."""


def _field(option: click.Option, defaults: Mapping[str, str]) -> Field:
    """The field of a click option, from its public description (:meth:`click.Option.to_info_dict`)."""
    info = option.to_info_dict()
    choices = tuple(map(str, info["type"].get("choices", ())))
    default = defaults.get(info["name"]) if info["default"] is None or info["is_flag"] else info["default"]
    flag = info["opts"][0]
    return Field(
        name=info["name"],
        flag=flag,
        label=LABELS.get(info["name"], flag.removeprefix("--")),
        help=info["help"] or "",
        kind="checkbox" if info["is_flag"] else "select" if choices else "text",
        choices=choices,
        default=None if default is None else str(default),
        multiple=info["multiple"],
    )


class Form:
    """The form of one system: its fields, grouped, and the click command that parses them."""

    def __init__(
        self,
        system: str,
        title: str,
        options: Callable[[Callable[..., Any]], Callable[..., Any]],
        groups: tuple[tuple[str, tuple[str, ...]], ...],
        entries: tuple[str, ...],
        defaults: Mapping[str, str] | None = None,
    ) -> None:
        def inputs(**params: Any) -> None:
            """The inputs of the form, parsed as the command line parses them."""

        self.system, self.title, self.entries = system, title, entries
        self.command = click.command(system)(options(inputs))
        by_name = {
            p.name: _field(p, defaults or {}) for p in self.command.params if isinstance(p, click.Option)
        }
        grouped = [
            Group(legend, tuple(by_name.pop(n) for n in names if n in by_name)) for legend, names in groups
        ]
        self.groups = (
            *grouped,
            Group("Doctrine · options, with their defaults", tuple(by_name.values()), folded=True),
        )
        self.fields = tuple(f for g in self.groups for f in g.fields)

    def labels(self) -> dict[str, str]:
        """Each field's label by name (the topic's too), for the list of errors."""
        return {"topic": "占事 · topic"} | {f.name: f.label for f in self.fields}

    def defaults(self) -> dict[str, Any]:
        return {f.name: False if f.kind == "checkbox" else f.default or "" for f in self.fields}

    def parse(
        self, query: QueryParams
    ) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str | None, str]]:
        """The values to show again, the parameters for :func:`kg.record.cast` (None on an error)
        and the errors by field, from the query parameters."""
        values, args = self.defaults(), []
        for f in self.fields:
            raw = [v.strip() for v in query.getlist(f.name)]
            if f.kind == "checkbox":
                values[f.name] = any(v.lower() not in FALSE for v in raw)
                args += [f.flag] if values[f.name] else []
            elif f.multiple:
                items = [item for v in raw for item in v.split()]
                values[f.name] = " ".join(items)
                args += [f"{f.flag}={item}" for item in items]
            elif raw and raw[-1]:
                values[f.name] = raw[-1]
                args.append(f"{f.flag}={raw[-1]}")
        try:
            return values, self.command.make_context(self.system, args).params, {}
        except click.ClickException as exc:
            param = getattr(exc, "param", None)
            return values, None, {param.name if param is not None else None: exc.format_message()}

    def field_of(self, exc: BaseException, values: Mapping[str, Any]) -> str | None:
        """The field an input error concerns: below the entry functions, the first function handed
        the value of exactly one text field; else the field the message names first."""
        given: dict[str, set[str]] = {
            f.name: set(values[f.name].split() if f.multiple else [values[f.name]])
            for f in self.fields
            if f.kind == "text" and values.get(f.name)
        }
        frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__)]
        entry = max((i for i, f in enumerate(frames) if f.f_code.co_name in self.entries), default=-1)
        for frame in frames[entry + 1 :]:
            code = frame.f_code
            arguments = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            handed = {
                str(v).strip()
                for name in arguments
                if isinstance(v := frame.f_locals.get(name), str | int) and not isinstance(v, bool)
            }
            named = [name for name, vs in given.items() if vs & handed]
            if len(named) == 1:
                return named[0]
        message = str(exc).lower()
        found = [
            (at, n, f.name)
            for n, f in enumerate(self.fields)
            for term in f.terms
            if (at := message.find(term.lower())) >= 0
        ]
        return min(found)[2] if found else None


def _forms() -> dict[str, Form]:
    defaults = {f.name: str(getattr(LiuyaoOptions(), f.name)) for f in fields(LiuyaoOptions)}
    return {
        "liuyao": Form(
            "liuyao",
            "六爻 reading",
            liuyao_commands.input_options,
            (
                ("時 · time: a moment or the pillars", ("moment", "pillars", "accept_inconsistent_pillars")),
                (
                    "卦 · the cast: line values, a hexagram, or coins",
                    ("lines", "hexagram", "moving", "coins"),
                ),
                ("問者 · the querent", ("status", "birth", "purpose", "sex", "occupation", "member")),
            ),
            ("liuyao_inputs", "chart_from_inputs"),
            defaults,
        ),
        "liuren": Form(
            "liuren",
            "大六壬 reading",
            liuren_commands.input_options,
            (
                (
                    "時 · time: a moment, or the day and 局",
                    (
                        "moment",
                        "day",
                        "ju",
                        "general",
                        "hour",
                        "month",
                        "accept_inconsistent_pillars",
                        "day_night",
                    ),
                ),
                ("問者 · the querent", ("birth", "walking_year", "sex", "occupation")),
            ),
            ("liuren_inputs", "chart_from_inputs"),
        ),
    }


# ── facts drawn and linked ─────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Fact:
    """A fact on the drawing: its text and the page of its concept."""

    text: str
    href: str | None = None
    title: str | None = None


class Concepts:
    """The zh-Hant and English labels of every concept, and links to their pages."""

    def __init__(self, graph: ServedGraph) -> None:
        self.graph = graph
        self.labels: dict[str, tuple[str, str]] = {}
        for row in graph.kg.query(
            """SELECT ?c (SAMPLE(?z) AS ?zh) (SAMPLE(?e) AS ?en) WHERE { ?c a skos:Concept .
                 OPTIONAL { ?c skos:prefLabel ?z FILTER(langMatches(lang(?z), 'zh-Hant')) }
                 OPTIONAL { ?c skos:prefLabel ?e FILTER(langMatches(lang(?e), 'en')) } } GROUP BY ?c"""
        ):
            iri = row["c"].value
            self.labels[iri] = (
                row["zh"].value if "zh" in row else "",
                row["en"].value if "en" in row else "",
            )

    def href(self, iri: str) -> str:
        return self.graph.local(iri) + ".html"

    def fact(self, iri: str | URIRef, text: str | None = None, title: str | None = None) -> Fact:
        """``text`` (default: the zh-Hant label) linked to the page of ``iri``."""
        zh, en = self.labels.get(str(iri), ("", ""))
        return Fact(text if text is not None else zh, self.href(str(iri)), title or en or zh or None)

    def of(self, prefix: str, slug: str, text: str | None = None) -> Fact:
        return self.fact(concept(prefix, slug), text)


def anchor(reading: str, entity: str) -> str:
    """The id of an entity on the drawing: its IRI's path below the reading (``line/5`` → ``line-5``)."""
    return entity.removeprefix(reading + "/").replace("/", "-")


# ── 六爻 ──────────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Placed:
    """六親 納甲 五行 of a line, and its marks (空, 破, 暗動, 身)."""

    relative: Fact
    ganzhi: Fact
    element: Fact
    marks: tuple[Fact, ...] = ()


MARKS = (
    ("void", "void", "空", "旬空 void in the day's 旬"),
    ("month_broken", "monthBroken", "破", "月破 broken by the month"),
    ("day_broken", "dayBroken", "日破", "日破 broken by the day"),
    ("hidden_move", "darkMoving", "暗動", "暗動 moving in secret"),
)
"""(attribute of the line, its chart fact, mark, title): the marks a line carries when they hold."""


@dataclass(frozen=True)
class Yao:
    """One line of the drawing: the 本卦 line with its 六獸 and 伏神, and its 變卦 line."""

    position: int
    name: str
    beast: Fact
    hidden: Placed | None
    line: Placed
    yang: bool
    yinyang: Fact
    role: Fact | None
    moving: Fact | None
    changed: Placed | None
    changed_yang: bool
    changed_yinyang: Fact | None
    changed_role: Fact | None


@dataclass(frozen=True)
class LiuyaoDrawing:
    pillars: tuple[tuple[str, Fact], ...]
    """(the pillar's anchor, its 干支 and name)."""
    void: tuple[Fact, ...]
    void_label: Fact
    notes: tuple[str, ...]
    """Calendar record and warnings, changed options."""
    primary: tuple[Fact, ...]
    changed: tuple[Fact, ...]
    classes: tuple[Fact, ...]
    """Classes of the reading (獨發, 六沖變六合 …), 三合局 frames, 卦身."""
    yao: tuple[Yao, ...]
    """Top → bottom."""


def _placed(c: Concepts, p: PlacedLine) -> Placed:
    marks = [c.fact(DK[prop], text, title) for attr, prop, text, title in MARKS if getattr(p, attr, False)]
    if getattr(p, "gua_shen", False):
        marks.append(c.of("role", "guashen", "身"))
    return Placed(
        c.of("rel", p.relative.slug, p.relative.char),
        c.of("gz", p.ganzhi.slug, p.ganzhi.name),
        c.of("el", p.element.slug, p.element.char),
        tuple(marks),
    )


def _figure(c: Concepts, h: Hexagram, figure: str, found: Cast) -> tuple[Fact, ...]:
    """A hexagram's name, palace, generation and classes (六沖 八純 …, from the chart's facts)."""
    classes = sorted(
        str(o) for o in found.graph.objects(URIRef(f"{found.reading}/hexagram/{figure}"), DK.hexClass)
    )
    return (
        c.of("hex", h.code, h.name),
        c.of("pal", h.palace.slug, f"{h.palace.char}宮"),
        c.of("gen", h.generation.slug, h.generation.char),
        c.of("el", h.palace_element.slug, f"宮屬{h.palace_element.char}"),
        *(c.fact(k) for k in classes if c.labels.get(k, ("", ""))[0].removesuffix("卦") != h.generation.char),
    )


def _role(c: Concepts, line: Line | ChangedLine, prefix: str = "") -> Fact | None:
    if line.shi:
        return c.of("role", prefix + "shi", "世")
    return c.of("role", prefix + "ying", "應") if line.ying else None


def _calendar_notes(chart: LiuyaoChart) -> list[str]:
    record = chart.calendar
    if record.pillars_given:
        notes = ["pillars given"]
        notes += [f"inconsistent pillars accepted: {broken}" for broken in record.inconsistencies]
    else:
        notes = [
            f"{record.moment.isoformat() if record.moment else ''} ({record.timezone}), {record.library}, 子時 rule {record.zi_hour_rule}"
        ]
        if record.near_jie and record.nearest_jie is not None:
            notes.append(f"within a minute of {record.nearest_jie.name}: the month pillar is uncertain")
    if changed := chart.options.changed():
        notes.append("options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    return notes


def _querent_notes(querent: Mapping[str, Any]) -> list[str]:
    """The querent facts given (已遷, 年命 甲子, members …), as one line."""
    said = [f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in querent.items()]
    return [f"querent: {', '.join(said)}"] if said else []


def liuyao_drawing(c: Concepts, found: Cast) -> LiuyaoDrawing:
    """The 六爻 chart as practitioners draw it (the layout of :func:`kg.liuyao.view.render`)."""
    chart: LiuyaoChart = found.chart
    reading = URIRef(found.reading)
    hidden = {h.position: h for h in chart.hidden_lines}
    yao = []
    for line in reversed(chart.lines):
        changed = chart.changed_lines[line.position - 1] if chart.changed_lines else None
        moving = {9: ("○", "老陽 moving (重)"), 6: ("×", "老陰 moving (交)")}.get(line.value)
        yao.append(
            Yao(
                position=line.position,
                name=POSITION_NAMES[line.position - 1],
                beast=c.of("beast", line.beast.slug, line.beast.char),
                hidden=_placed(c, hidden[line.position]) if line.position in hidden else None,
                line=_placed(c, line),
                yang=line.yang,
                yinyang=c.of("yy", "yang" if line.yang else "yin", ""),
                role=_role(c, line),
                moving=c.fact(DK.moving, *moving) if moving else None,
                changed=_placed(c, changed) if changed else None,
                changed_yang=bool(changed and changed.yang),
                changed_yinyang=c.of("yy", "yang" if changed.yang else "yin", "") if changed else None,
                changed_role=_role(c, changed, "changed-") if changed else None,
            )
        )
    classes = [c.fact(o) for o in sorted(map(str, found.graph.objects(reading, DK.hexClass)))]
    for frame in sorted(found.graph.objects(reading, DK.frame)):
        element = next(found.graph.objects(frame, DK.element))
        classes.append(c.fact(element, str(next(found.graph.objects(frame, DK.label)))))
    body = chart.gua_shen
    if body.branch is not None:
        where = "".join(map(str, body.positions)) or "不上卦"
        classes.append(c.of("role", "guashen", f"卦身 {body.branch.char} ({where})"))
    return LiuyaoDrawing(
        pillars=tuple(
            (f"pillar-{p.role}", c.of("gz", p.ganzhi.slug, p.ganzhi.name + p.char)) for p in chart.pillars
        ),
        void=tuple(c.of("br", b.slug, b.char) for b in chart.void),
        void_label=c.fact(DK.void, "旬空", "旬空 void in the day's 旬"),
        notes=tuple(_calendar_notes(chart) + _querent_notes(found.querent)),
        primary=_figure(c, chart.hexagram, "primary", found),
        changed=_figure(c, chart.changed_hexagram, "changed", found) if chart.changed_hexagram else (),
        classes=tuple(classes),
        yao=tuple(yao),
    )


# ── 大六壬 ────────────────────────────────────────────────────────────────────────────────────

RING: dict[int, tuple[int, int]] = {
    5: (1, 1), 6: (1, 2), 7: (1, 3), 8: (1, 4),
    4: (2, 1), 9: (2, 4),
    3: (3, 1), 10: (3, 4),
    2: (4, 1), 1: (4, 2), 0: (4, 3), 11: (4, 4),
}  # fmt: skip
"""(row, column) of each 地盤 branch (子 = 0) on the 4 × 4 plate: 巳午未申 along the top, 寅丑子亥 along
the bottom."""


@dataclass(frozen=True)
class Palace:
    """One 地盤 seat: the 天盤 spirit over it and the 天將 riding it (both when 晝/夜 is unknown)."""

    anchor: str
    row: int
    column: int
    earth: Fact
    heaven: Fact
    generals: tuple[Fact, ...]
    void: Fact | None


@dataclass(frozen=True)
class LessonView:
    anchor: str
    title: str
    generals: tuple[Fact, ...]
    upper: Fact
    lower: Fact
    relation: Fact


@dataclass(frozen=True)
class TransmissionView:
    name: Fact
    relative: Fact
    stem: Fact | None
    """遁干 (None: the branch is 旬空, without a stem)."""
    branch: Fact
    generals: tuple[Fact, ...]
    seat: Fact
    marks: tuple[Fact, ...]


@dataclass(frozen=True)
class LiurenDrawing:
    stem: Fact
    """The day stem (干), drawn with the day branch (支)."""
    branch: Fact
    ju: Fact
    plate: tuple[Fact, ...]
    """月將, 占時 and 晝/夜, those known."""
    void: tuple[Fact, ...]
    void_label: Fact
    nobles: tuple[str, ...]
    notes: tuple[str, ...]
    palaces: tuple[Palace, ...]
    lessons: tuple[LessonView, ...]
    """4課 → 1課, right to left as written."""
    method: str
    transmissions: tuple[TransmissionView, ...]
    keti: tuple[Fact, ...]
    querent: tuple[str, ...]


def _generals(c: Concepts, general: Any, day: Any, night: Any) -> tuple[Fact, ...]:
    if general is not None:
        return (c.of("general", general.slug, general.char),)
    return (c.of("general", day.slug, f"晝{day.short}"), c.of("general", night.slug, f"夜{night.short}"))


def liuren_drawing(c: Concepts, found: Cast) -> LiurenDrawing:
    """The 大六壬 課式: the plate as a ring of twelve palaces, the 四課, the 三傳 and the 課體."""
    chart: LiurenChart = found.chart
    reading, facts = found.reading, found.graph
    palaces = []
    for seat in chart.seats:
        row, column = RING[seat.earth]
        palaces.append(
            Palace(
                anchor=f"spirit-{seat.heaven.slug}",
                row=row,
                column=column,
                earth=c.of("br", seat.earth.slug, seat.earth.char),
                heaven=c.of("br", seat.heaven.slug, seat.heaven.char),
                generals=_generals(c, seat.general, seat.day_general, seat.night_general),
                void=c.fact(DK.void, "空", "旬空 void in the day's 旬") if seat.void else None,
            )
        )
    lessons = []
    for lesson in reversed(chart.lessons):
        seat = chart.seats[chart.seat_of(lesson.upper)]
        relation = next(facts.objects(URIRef(f"{reading}/lesson/{lesson.number}"), DK.lessonRelation))
        lower = "br" if lesson.number > 1 else "stem"
        lessons.append(
            LessonView(
                anchor=f"lesson-{lesson.number}",
                title=f"{lesson.number}課",
                generals=_generals(c, seat.general, seat.day_general, seat.night_general),
                upper=c.of("br", lesson.upper.slug, lesson.upper.char),
                lower=c.of(lower, lesson.lower.slug, lesson.lower.char),
                relation=c.fact(relation, lesson.relation.char),
            )
        )
    transmissions = []
    for name, prop, t in zip(
        TRANSMISSION_NAMES,
        ("firstTransmission", "middleTransmission", "lastTransmission"),
        chart.transmissions,
        strict=True,
    ):
        marks = [
            c.fact(DK[p], text, title)
            for p, text, title, on in (
                ("void", "旬空", "旬空 void in the day's 旬", t.void),
                ("seatVoid", "落空", "落空 seated on a void 地盤 branch", t.fallen_void),
            )
            if on
        ]
        transmissions.append(
            TransmissionView(
                name=c.fact(DK[prop], name, name),
                relative=c.of("rel", t.relative.slug, t.relative.char),
                stem=c.of("stem", t.stem.slug, t.stem.char) if t.stem is not None else None,
                branch=c.of("br", t.branch.slug, t.branch.char),
                generals=_generals(c, t.general, t.day_general, t.night_general),
                seat=c.of("br", t.seat.slug, f"臨{t.seat.char}"),
                marks=tuple(marks),
            )
        )
    plate = []
    if chart.month_general is not None:
        mg = chart.month_general
        plate.append(c.of("br", mg.branch.slug, f"月將 {mg.branch.char}({mg.name})"))
    if chart.hour is not None:
        plate.append(c.of("br", chart.hour.slug, f"占時 {chart.hour.char}"))
    if chart.day_night is not None:
        plate.append(c.fact(DK.dayNight, chart.day_night.value, "晝/夜 the day or night plate"))
    nobles = tuple(
        f"{label} 貴人 {p.noble.char} 臨 {p.seat.char} {'順' if p.forward else '逆'}"
        for label, p in (("晝", chart.day_procession), ("夜", chart.night_procession))
    )
    notes = _querent_notes(found.querent)
    if chart.pillars is not None:
        notes.append(f"四柱 {chart.pillars}")
    if chart.calendar is not None and chart.calendar.moment is not None:
        notes.append(
            f"{chart.calendar.moment.isoformat()} ({chart.calendar.timezone}; {chart.calendar.library})"
        )
        if (term := zhongqi_within_a_minute(chart.calendar.moment)) is not None:
            notes.append(f"within a minute of the 中氣 {term.name}: the 月將 is uncertain")
    if chart.calendar is not None:
        notes += [f"inconsistent inputs accepted: {broken}" for broken in chart.calendar.inconsistencies]
    if chart.hour is None:
        notes.append("占時 and 月將 unknown (given by 局)")
    d = chart.derivation
    names = chart.keti_names

    def order(keti: str) -> int:
        """賊克 (the 門 of 元首 …) first, then the 課體 in the chart's order."""
        label = c.labels.get(keti, ("", ""))[0]
        return names.index(label) if label in names else -1

    querent = [
        f"{label} {up.branch.char} 上神 {up.upper.char}"
        for label, up in (("年命", chart.birth), ("行年", chart.walking_year))
        if up is not None
    ]
    return LiurenDrawing(
        stem=c.of("stem", chart.day.stem.slug, chart.day.stem.char),
        branch=c.of("br", chart.day.branch.slug, chart.day.branch.char + "日"),
        ju=c.fact(DK.ju, f"第{chart.ju}局", "局 the plate's turn"),
        plate=tuple(plate),
        void=tuple(c.of("br", b.slug, b.char) for b in chart.void),
        void_label=c.fact(DK.void, "旬空", "旬空 void in the day's 旬"),
        nobles=nobles,
        notes=tuple(notes),
        palaces=tuple(palaces),
        lessons=tuple(lessons),
        method=d.method.char + (f"({d.rule.char})" if d.rule is not None else ""),
        transmissions=tuple(transmissions),
        keti=tuple(c.fact(k) for k in sorted(map(str, facts.objects(URIRef(reading), DK.keti)), key=order)),
        querent=tuple(querent),
    )


# ── the rules ─────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Quote:
    text: str
    place: str
    urn: Fact


@dataclass(frozen=True)
class RuleView:
    """An applicable rule as the page shows it."""

    a: Applicable
    page: str
    polarity: Fact | None
    css: str
    """The polarity's slug (ji, xiong …) or ``none``: the class of its colour."""
    because: tuple[tuple[str, str, str | None], ...]
    """(variable, the bound entity's label, its anchor on the drawing or None)."""
    quotes: tuple[Quote, ...]
    citation: str
    overridden_by: tuple[Fact, ...]


@dataclass(frozen=True)
class PolarityGroup:
    polarity: Fact | None
    css: str
    topics: tuple[tuple[str, tuple[RuleView, ...]], ...]

    @property
    def count(self) -> int:
        return sum(len(rules) for _, rules in self.topics)


@dataclass(frozen=True)
class Conflict:
    """吉 and 凶 rules bound to the same entity."""

    entity: str
    anchor: str | None
    good: tuple[RuleView, ...]
    bad: tuple[RuleView, ...]


@dataclass(frozen=True)
class Rules:
    applies: tuple[PolarityGroup, ...]
    conflicts: tuple[Conflict, ...]
    consider: tuple[tuple[str, tuple[RuleView, ...]], ...]
    overridden: tuple[RuleView, ...]
    counts: dict[str, int]


class RuleViews:
    """Applicable rules in the page's terms: links, quotes with their URNs, citations, groups."""

    def __init__(self, graph: ServedGraph, concepts: Concepts) -> None:
        self.graph, self.concepts = graph, concepts
        self.resolver = Resolver(graph.kg)
        self.polarities = {
            row["l"].value: row["p"].value
            for row in graph.kg.query(
                """SELECT ?p ?l WHERE { ?p skos:inScheme dk:PolarityScheme ; skos:prefLabel ?l
                     FILTER(langMatches(lang(?l), 'zh-Hant')) }"""
            )
        }

    def view(self, a: Applicable, reading: str, drawn: set[str]) -> RuleView:
        citation = self.resolver.cite(a.rule_id)
        polarity = self.polarities.get(a.polarity or "")
        return RuleView(
            a=a,
            page=self.graph.local(a.rule) + ".html",
            polarity=self.concepts.fact(polarity, a.polarity) if polarity else None,
            css=polarity.rsplit("/", 1)[1] if polarity else "none",
            because=tuple(
                (v, a.binding_labels.get(v, e), anchor(reading, e) if anchor(reading, e) in drawn else None)
                for v, e in a.bindings.items()
            ),
            quotes=tuple(
                Quote(p.quote, f"{p.heading} {p.place}", Fact(p.urn, self.graph.base + p.urn))
                for p in citation.passages
            ),
            citation=citation.line(),
            overridden_by=tuple(
                Fact(r.rsplit("/", 1)[1], self.graph.local(r) + ".html") for r in a.overridden_by
            ),
        )

    def rules(self, results: list[Applicable], reading: str, chain: list[str], drawn: set[str]) -> Rules:
        """The page's rule lists: by polarity then topic (the reading's topic first), the 吉/凶
        conflicts, the text-only rules to consider and the overridden ones."""
        views = [self.view(a, reading, drawn) for a in results]
        order = [self.graph.kg.topics[t] for t in chain]

        def by_topic(rules: Iterable[RuleView]) -> tuple[tuple[str, tuple[RuleView, ...]], ...]:
            topics: dict[str, list[RuleView]] = defaultdict(list)
            for r in rules:
                topics[r.a.topic or ""].append(r)
            rank = {t: order.index(t) if t in order else len(order) for t in topics}
            return tuple((t, tuple(topics[t])) for t in sorted(topics, key=lambda t: (rank[t], t)))

        applying = [v for v in views if v.a.status == "applies"]
        known = [p for p in POLARITY_ORDER if p in self.polarities] + sorted(
            set(self.polarities) - set(POLARITY_ORDER)
        )
        groups = []
        for polarity in [*known, None]:
            members = [
                v for v in applying if (v.a.polarity if v.a.polarity in self.polarities else None) == polarity
            ]
            if members:
                iri = self.polarities.get(polarity or "")
                groups.append(
                    PolarityGroup(
                        self.concepts.fact(iri, polarity) if iri else None,
                        iri.rsplit("/", 1)[1] if iri else "none",
                        by_topic(members),
                    )
                )
        return Rules(
            applies=tuple(groups),
            conflicts=conflicts(applying, reading, drawn),
            consider=by_topic(v for v in views if v.a.status == "consider"),
            overridden=tuple(v for v in views if v.a.status == "overridden"),
            counts={s: sum(v.a.status == s for v in views) for s in ("applies", "consider", "overridden")},
        )


def conflicts(applying: list[RuleView], reading: str, drawn: set[str]) -> tuple[Conflict, ...]:
    """Each entity bound by a 吉 rule and by a 凶 rule, with both lists."""
    sides: dict[str, dict[str, list[RuleView]]] = defaultdict(lambda: {"吉": [], "凶": []})
    labels: dict[str, str] = {}
    for v in applying:
        if v.a.polarity in ("吉", "凶"):
            for var, entity in v.a.bindings.items():
                labels[entity] = v.a.binding_labels.get(var, entity)
                if v not in sides[entity][v.a.polarity]:
                    sides[entity][v.a.polarity].append(v)
    return tuple(
        Conflict(
            labels[e],
            anchor(reading, e) if anchor(reading, e) in drawn else None,
            tuple(s["吉"]),
            tuple(s["凶"]),
        )
        for e, s in sides.items()
        if s["吉"] and s["凶"]
    )


# ── the chart as SVG ──────────────────────────────────────────────────────────────────────────

SVG = "http://www.w3.org/2000/svg"
FONT = "Noto Sans CJK TC, Noto Sans CJK SC, Noto Sans CJK JP, sans-serif"


Drawn = Fact | str | tuple[Fact | str, ...]
"""What :meth:`Canvas.facts` draws: a fact or plain text, or several drawn close together (甲寅木)."""


class Canvas:
    """An SVG document under construction: text (linked when it names a concept), bars, boxes."""

    def __init__(self, width: int, height: int, title: str) -> None:
        self.root = ET.Element(
            "svg",
            xmlns=SVG,
            width=str(width),
            height=str(height),
            viewBox=f"0 0 {width} {height}",
            attrib={"font-family": FONT, "font-size": "16"},
        )
        ET.SubElement(self.root, "title").text = title
        ET.SubElement(self.root, "rect", width=str(width), height=str(height), fill="#fffdf8")

    def text(
        self,
        x: float,
        y: float,
        fact: Fact | str,
        size: int = 16,
        anchor: str = "start",
        colour: str = "#222",
    ) -> float:
        """``fact`` at (x, y), a link when it names a concept; the x after it (a CJK character is
        one em wide, other characters about half)."""
        parent = self.root
        if isinstance(fact, Fact) and fact.href:
            parent = ET.SubElement(self.root, "a", href=fact.href)
            if fact.title:
                ET.SubElement(parent, "title").text = fact.title
        text = fact.text if isinstance(fact, Fact) else fact
        node = ET.SubElement(
            parent,
            "text",
            x=f"{x:g}",
            y=f"{y:g}",
            attrib={"font-size": str(size), "text-anchor": anchor, "fill": colour},
        )
        node.text = text
        return x + sum(1 if ord(ch) > 0x2E7F else 0.55 for ch in text) * size

    def facts(
        self, x: float, y: float, items: Iterable[Drawn], size: int = 16, colour: str = "#222"
    ) -> float:
        """Items one after another from ``x``, a third of an em apart; the x after the last."""
        for item in items:
            for part in item if isinstance(item, tuple) else (item,):
                x = self.text(x, y, part, size, colour=colour)
            x += size / 3
        return x

    def bar(self, x: float, y: float, yang: bool, fact: Fact | None, width: int = 72) -> None:
        """A line: one bar (陽) or two (陰)."""
        parent = ET.SubElement(self.root, "a", href=fact.href) if fact and fact.href else self.root
        pieces = [(x, width)] if yang else [(x, width * 0.42), (x + width * 0.58, width * 0.42)]
        for left, w in pieces:
            ET.SubElement(
                parent, "rect", x=f"{left:g}", y=f"{y - 11:g}", width=f"{w:g}", height="11", fill="#222"
            )

    def box(self, x: float, y: float, w: float, h: float, fill: str = "none") -> None:
        ET.SubElement(
            self.root,
            "rect",
            x=f"{x:g}",
            y=f"{y:g}",
            width=f"{w:g}",
            height=f"{h:g}",
            fill=fill,
            stroke="#8a7a55",
        )

    def svg(self) -> str:
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(self.root, encoding="unicode") + "\n"


def _placed_svg(canvas: Canvas, x: float, y: float, p: Placed, size: int, colour: str = "#222") -> None:
    """六親 納甲五行 at (x, y), its marks small beneath."""
    canvas.facts(x, y, (p.relative, (p.ganzhi, p.element)), size, colour)
    canvas.facts(x + size * 2.4, y + 15, p.marks, 10, "#8b1a1a")


def liuyao_svg(d: LiuyaoDrawing, title: str) -> str:
    """The 六爻 drawing as SVG: the heading lines, then the six lines top-down, the 變卦 beside."""
    width = 760 if d.changed else 480
    canvas = Canvas(width, 190 + 44 * 6 + 20 * len(d.notes), title)
    canvas.facts(20, 34, [*(f for _, f in d.pillars), d.void_label, tuple(d.void)], 18)
    y = 34
    for note in d.notes:
        y += 20
        canvas.text(20, y, note, 12, colour="#666")
    y += 30
    x = canvas.facts(20, y, ["本卦", *d.primary], 15)
    if d.changed:
        canvas.facts(max(x + 10, 400), y, ["之", *d.changed], 15)
    if d.classes:
        y += 24
        canvas.facts(20, y, d.classes, 14, "#444")
    y += 36
    for x, head in ((20, "六獸"), (76, "伏神"), (196, "本卦"), (490, "變卦")):
        if head != "變卦" or d.changed:
            canvas.text(x, y, head, 13, colour="#777")
    for yao in d.yao:
        y += 44
        canvas.text(20, y, yao.beast, 17)
        if yao.hidden:
            _placed_svg(canvas, 76, y, yao.hidden, 15, "#555")
        _placed_svg(canvas, 196, y, yao.line, 17)
        canvas.bar(316, y, yao.yang, yao.yinyang)
        if yao.role:
            canvas.text(398, y, yao.role, 17, colour="#8b1a1a")
        if yao.moving:
            canvas.text(424, y, yao.moving, 17, colour="#8b1a1a")
        if yao.changed:
            _placed_svg(canvas, 490, y, yao.changed, 17)
            canvas.bar(610, y, yao.changed_yang, yao.changed_yinyang)
            if yao.changed_role:
                canvas.text(692, y, yao.changed_role, 17, colour="#8b1a1a")
    return canvas.svg()


def liuren_svg(d: LiurenDrawing, title: str) -> str:
    """The 大六壬 drawing as SVG: the plate as a ring of twelve palaces, 四課 and 三傳 beside it."""
    cell, top = 84, 76 + 18 * len(d.notes)
    canvas = Canvas(700, top + 4 * cell + 70, title)
    canvas.facts(20, 34, [(d.stem, d.branch), d.ju, *d.plate, d.void_label, tuple(d.void)], 18)
    y = 34
    for note in (*d.notes, "　".join(d.nobles)):
        y += 20
        canvas.text(20, y, note, 12, colour="#666")
    for p in d.palaces:
        left, upper = 20 + (p.column - 1) * cell, top + (p.row - 1) * cell
        canvas.box(left, upper, cell, cell, "#fbf6ea")
        canvas.facts(left + 8, upper + 22, p.generals, 14)
        canvas.text(left + cell / 2, upper + 54, p.heaven, 26, "middle")
        canvas.text(left + cell - 8, upper + cell - 8, p.earth, 13, "end", "#666")
        if p.void:
            canvas.text(left + cell / 2 + 15, upper + 36, p.void, 12, colour="#8b1a1a")
    centre = 20 + cell
    canvas.box(centre, top + cell, 2 * cell, 2 * cell)
    canvas.facts(centre + 30, top + cell + 56, [(d.stem, d.branch)], 24)
    canvas.facts(centre + 52, top + cell + 90, [d.ju], 16)
    canvas.facts(centre + 36, top + cell + 120, [d.void_label, tuple(d.void)], 15)
    right = 40 + 4 * cell
    canvas.text(right, top + 12, "四課", 13, colour="#777")
    for i, lesson in enumerate(d.lessons):
        x = right + i * 60
        canvas.facts(x, top + 38, lesson.generals, 13)
        canvas.text(x + 4, top + 68, lesson.upper, 24)
        canvas.text(x + 4, top + 98, lesson.lower, 24)
        canvas.text(x, top + 120, lesson.relation, 11, colour="#666")
    y = top + 160
    canvas.text(right, y, f"三傳 {d.method}", 13, colour="#777")
    for t in d.transmissions:
        y += 34
        canvas.facts(
            right, y, [t.name, t.relative, (t.stem or "－", t.branch), *t.generals, t.seat, *t.marks], 16
        )
    if d.querent:
        canvas.text(right, y + 34, "　".join(d.querent), 14)
    canvas.facts(20, top + 4 * cell + 40, ["課體", *d.keti], 15)
    return canvas.svg()


def png(svg: str) -> bytes:
    """The SVG rendered as PNG at twice its size (resvg, with the system's fonts)."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#fffdf8", zoom=2))


# ── routes ────────────────────────────────────────────────────────────────────────────────────


@dataclass
class Outcome:
    """What a request made of its query: the form's values and errors, or the reading."""

    values: dict[str, Any]
    topic: str
    errors: dict[str | None, str]
    found: Cast | None = None
    results: list[Applicable] = field(default_factory=list)


def topic_tree(graph: ServedGraph, concepts: Concepts) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The topic tree as option groups: 通占 alone, then each topic under it with its narrower
    topics, indented (value: the slug; text: zh-Hant · English)."""
    kg = graph.kg
    children: dict[str, list[str]] = defaultdict(list)
    for narrower, broader in kg.broader.items():
        children[broader].append(narrower)

    def text(t: str) -> str:
        return f"{kg.topics[t]} · {concepts.labels.get(t, ('', ''))[1]}"

    def walk(t: str, depth: int) -> Iterable[tuple[str, str]]:
        yield t.rsplit("/", 1)[1], "\u3000" * depth + text(t)
        for n in sorted(children[t]):
            yield from walk(n, depth + 1)

    groups = []
    for root in sorted(t for t in kg.topics if t not in kg.broader):
        groups.append((text(root), ((root.rsplit("/", 1)[1], text(root)),)))
        groups += [(text(t), tuple(walk(t, 0))) for t in sorted(children[root])]
    return tuple(groups)


def routes(graph: ServedGraph) -> list[BaseRoute]:
    """``/reading/liuyao`` and ``/reading/liuren`` with their downloads (plain functions, run by
    Starlette in its thread pool)."""
    forms = _forms()
    concepts = Concepts(graph)
    views = RuleViews(graph, concepts)
    topics = topic_tree(graph, concepts)
    build = build_id(graph.build / "kg.nq")
    graph.kg.load_provenance()
    drawings = {"liuyao": (liuyao_drawing, liuyao_svg), "liuren": (liuren_drawing, liuren_svg)}

    def outcome(system: str, query: QueryParams) -> Outcome:
        form = forms[system]
        values, params, errors = form.parse(query)
        text = query.get("topic", "").strip()
        topic = None
        if not text:
            errors["topic"] = "choose the topic of the inquiry (占事)"
        else:
            try:
                topic = user_topic(text)
            except KgError as exc:
                errors["topic"] = str(exc)
        slug = str(topic).rsplit("/", 1)[1] if topic else text
        if params is None:
            return Outcome(values, slug, errors)
        try:
            found = cast(system, params, topic)
        except KgError as exc:
            errors[form.field_of(exc, values)] = str(exc)
            return Outcome(values, slug, errors)
        if errors:
            return Outcome(values, slug, errors)
        return Outcome(values, slug, errors, found, read(graph.kg, found))

    def title(found: Cast) -> str:
        return str(next(found.graph.objects(URIRef(found.reading), DK.label)))

    def page(request: Request) -> Response:
        system = request.url.path.rsplit("/", 1)[1]
        form = forms[system]
        context: dict[str, Any] = {
            "base_path": graph.base_path,
            "base": graph.base,
            "form": form,
            "topics": topics,
            "action": f"{graph.base}reading/{system}",
            "other": {s: f"{graph.base}reading/{s}" for s in forms if s != system},
        }
        if not request.query_params:
            context |= {"values": form.defaults(), "topic": "", "errors": {}, "reading": None}
            return TEMPLATES.TemplateResponse(request, "reading.html", context)
        result = outcome(system, request.query_params)
        context |= {"values": result.values, "topic": result.topic, "errors": result.errors, "reading": None}
        if result.found is None:
            return TEMPLATES.TemplateResponse(request, "reading.html", context, status_code=400)
        found = result.found
        drawing = drawings[system][0](concepts, found)
        drawn = anchors_of(drawing)
        query = request.url.query
        here = f"{graph.base}reading/{system}"
        context["reading"] = {
            "title": title(found),
            "chart": f"reading-{system}-chart.html",
            "drawing": drawing,
            "rules": views.rules(
                result.results, found.reading, graph.kg.topic_chain(str(found.topic)), drawn
            ),
            "permalink": f"{here}?{query}",
            "downloads": {fmt: f"{here}.{fmt}?{query}" for fmt in DOWNLOADS},
        }
        return TEMPLATES.TemplateResponse(request, "reading.html", context)

    def download(request: Request) -> Response:
        system = request.url.path.rsplit("/", 1)[1].split(".", 1)[0]
        fmt = request.path_params["fmt"]
        if fmt not in DOWNLOADS:
            return PlainTextResponse(f"no download .{fmt}; they are {', '.join(DOWNLOADS)}", status_code=404)
        result = outcome(system, request.query_params)
        if result.found is None:
            errors = {name or "form": message for name, message in result.errors.items()}
            if fmt == "json":
                return JSONResponse({"errors": errors}, status_code=400)
            return PlainTextResponse(
                "\n".join(f"{k}: {m}" for k, m in errors.items()) + "\n", status_code=400
            )
        found, results = result.found, result.results
        stem = found.reading.rsplit("/", 1)[1]
        headers = {"content-disposition": f'attachment; filename="{stem}.{fmt}"'}
        if fmt in ("svg", "png"):
            make, draw = drawings[system]
            svg = draw(make(concepts, found), title(found))
            body: str | bytes = svg if fmt == "svg" else png(svg)
        elif fmt == "txt":
            body = text_report(found, results)
        else:
            record = make_record(found, results, graph.kg, build)
            if fmt == "json":
                body = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
            else:
                body = serialise(record, "trig" if fmt == "trig" else "turtle")
        return Response(body, media_type=DOWNLOADS[fmt], headers=headers)

    found_routes: list[BaseRoute] = []
    for system in forms:
        found_routes += [Route(f"/reading/{system}", page), Route(f"/reading/{system}.{{fmt}}", download)]
    return found_routes


def anchors_of(drawing: LiuyaoDrawing | LiurenDrawing) -> set[str]:
    """The ids the drawing gives its entities (the targets of a rule's bindings)."""
    if isinstance(drawing, LiuyaoDrawing):
        ids = {a for a, _ in drawing.pillars}
        for yao in drawing.yao:
            ids |= {f"line-{yao.position}", f"changed-{yao.position}"}
            if yao.hidden:
                ids.add(f"hidden-{yao.position}")
        return ids
    return {p.anchor for p in drawing.palaces} | {ls.anchor for ls in drawing.lessons} | {"gan", "zhi"}
