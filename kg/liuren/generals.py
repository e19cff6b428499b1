"""十二天將: the twelve generals on the 天盤, led by 天乙貴人.

The 貴人 rides its branch (by day stem, 晝 or 夜, from :data:`kg.shensha.NOBLE_TABLES`) on the
天盤. If the 地盤 seat under it is in 亥子丑寅卯辰 the generals run forward (順) along the 天盤,
otherwise (巳午未申酉戌) backward (逆). Verified on all 1,440 plates of the 720-lesson table
(docs/liuren-doctrine.md §4.7, tests/fixtures/README.md "Doctrine the table follows").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import NamedTuple

from kg.errors import InputError
from kg.ganzhi import Branch, Element, Stem
from kg.shensha import DEFAULT_NOBLE_TABLE, NOBLE_TABLES


class General(IntEnum):
    """十二天將 in their order from the 貴人 (《六壬大全》 卷一 "十二天將")."""

    GUIREN = 0
    TENGSHE = 1
    ZHUQUE = 2
    LIUHE = 3
    GOUCHEN = 4
    QINGLONG = 5
    TIANKONG = 6
    BAIHU = 7
    TAICHANG = 8
    XUANWU = 9
    TAIYIN = 10
    TIANHOU = 11

    @property
    def char(self) -> str:
        return (
            "貴人",
            "螣蛇",
            "朱雀",
            "六合",
            "勾陳",
            "青龍",
            "天空",
            "白虎",
            "太常",
            "玄武",
            "太陰",
            "天后",
        )[self]

    @property
    def short(self) -> str:
        """One-character abbreviation used in printed 課式 (貴 蛇 雀 合 勾 龍 空 虎 常 玄 陰 后)."""
        return "貴蛇雀合勾龍空虎常玄陰后"[self]

    @property
    def slug(self) -> str:
        return self.name.lower()

    @property
    def element(self) -> Element:
        """五行 of the general (:data:`GENERAL_ELEMENT`)."""
        return GENERAL_ELEMENT[self]


GENERALS: tuple[General, ...] = tuple(General)

GENERAL_ELEMENT: tuple[Element, ...] = tuple(
    Element("木火土金水".index(c)) for c in "土火火木土木土金土水金水"
)
"""五行 of the twelve generals in :class:`General` order: 貴人 土, 螣蛇 火, 朱雀 火, 六合 木, 勾陳 土,
青龍 木, 天空 土, 白虎 金, 太常 土, 玄武 水, 太陰 金, 天后 水 — as commonly given in 《六壬大全》 卷一
"十二天將", the ``dk:element`` values of ontology/concepts/generals.ttl."""


@dataclass(frozen=True)
class TempleTable:
    """天將入廟: the home branch (本家) of each general, in :class:`General` order."""

    name: str
    source: str
    homes: tuple[Branch, ...]

    def home(self, general: General) -> Branch:
        return self.homes[general]


def _homes(chars: str) -> tuple[Branch, ...]:
    """'丑巳午…' for 貴人 螣蛇 朱雀 … 天后."""
    assert len(chars) == 12
    return tuple(Branch.from_char(c) for c in chars)


TEMPLE_TABLES: dict[str, TempleTable] = {
    "xuanwu-hai": TempleTable(
        "xuanwu-hai",
        "the generals' 本家 as commonly given with their elements (《六壬大全》 卷一 十二天將): 貴人 己丑, 螣蛇 丁巳, "
        "朱雀 丙午, 六合 乙卯, 勾陳 戊辰, 青龍 甲寅, 天空 戊戌, 白虎 庚申, 太常 己未, 玄武 癸亥, 太陰 辛酉, 天后 壬子",
        _homes("丑巳午卯辰寅戌申未亥酉子"),
    ),
    "xuanwu-zi": TempleTable(
        "xuanwu-zi",
        "the tables that seat 玄武 in the due north: as xuanwu-hai, but 玄武 子 and 天后 亥",
        _homes("丑巳午卯辰寅戌申未子酉亥"),
    ),
}
"""天將入廟 tables (docs/liuren-doctrine.md §5.2). Default: xuanwu-hai."""

DEFAULT_TEMPLE_TABLE = "xuanwu-hai"


class DayNight(StrEnum):
    """晝 or 夜: which 貴人 (陽貴 or 陰貴) leads the generals."""

    DAY = "晝"
    NIGHT = "夜"


class DayNightRule(StrEnum):
    """How a chart decides 晝/夜 (the 720 table prints both; the books do not decide this)."""

    HOURS = "hours"
    """占時 卯辰巳午未申 = 晝, 酉戌亥子丑寅 = 夜 (every implementation, docs/liuren-doctrine.md §4.8)."""
    DAY = "day"
    """Always 晝 (the querent's choice, e.g. by observed sunrise and sunset)."""
    NIGHT = "night"
    """Always 夜."""


FORWARD_SEATS: frozenset[int] = frozenset((11, 0, 1, 2, 3, 4))
"""地盤 seats 亥子丑寅卯辰: a 貴人 seated here leads the generals 順; elsewhere 逆."""


def day_or_night(rule: DayNightRule, hour: Branch | None) -> DayNight | None:
    """晝/夜 under ``rule``; None when the rule needs the 占時 and it is unknown."""
    if rule is DayNightRule.DAY:
        return DayNight.DAY
    if rule is DayNightRule.NIGHT:
        return DayNight.NIGHT
    if hour is None:
        return None
    return DayNight.DAY if 3 <= hour <= 8 else DayNight.NIGHT


def noble_table(name: str) -> tuple[tuple[Branch, Branch], ...]:
    """The (晝, 夜) 貴人 of each stem in the named table of :data:`kg.shensha.NOBLE_TABLES`."""
    table = NOBLE_TABLES.get(name)
    if table is None:
        raise InputError(f"unknown 貴人 table {name!r}: expected one of {', '.join(NOBLE_TABLES)}")
    return table.day_night


class Procession(NamedTuple):
    """The generals of one plate (晝 or 夜): where the 貴人 rides and sits, and the direction."""

    noble: Branch
    """The 天盤 branch the 貴人 rides."""
    seat: Branch
    """The 地盤 branch under the 貴人."""
    forward: bool
    """順 (True) or 逆 (False)."""
    by_heaven: tuple[General, ...]
    """The general riding each 天盤 branch 子 … 亥."""


def _procession(noble: int, shift: int) -> Procession:
    seat = (noble - shift) % 12
    step = 1 if seat in FORWARD_SEATS else -1
    by_heaven = [General.GUIREN] * 12
    for k in range(12):
        by_heaven[(noble + step * k) % 12] = GENERALS[k]
    return Procession(Branch(noble), Branch(seat), step == 1, tuple(by_heaven))


PROCESSIONS: tuple[tuple[Procession, ...], ...] = tuple(
    tuple(_procession(noble, shift) for shift in range(12)) for noble in range(12)
)
"""Every procession, ``PROCESSIONS[noble][shift]``: 144 plates, computed once."""


def processions(stem: Stem, shift: int, table: str = DEFAULT_NOBLE_TABLE) -> tuple[Procession, Procession]:
    """The 晝 and 夜 processions for a day stem on a plate."""
    day, night = noble_table(table)[stem]
    return PROCESSIONS[day][shift], PROCESSIONS[night][shift]
