"""The 《黃金策》 procedures for timing an outcome (應期), as functions of a 六爻 reading.

A rule names one as an outcome parameter, ``param: {when: past-xun-day(F)}``; after retrieval the
procedure runs on the line bound to ``F`` and the report shows the day (or months) with the passage
that defines it. Days are counted forward from the reading's day through the sixty-day cycle; when
the reading has a moment, the civil date is given too. Doctrine: docs/liuyao-doctrine.md §7.10.
Importing the module registers the procedures in :mod:`kg.registry` (:mod:`kg.liuyao` imports it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import pyoxigraph as ox

from kg.calendar import day_pillar
from kg.ganzhi import (
    Branch,
    Element,
    GanZhi,
    Stage,
    Stem,
    clashes,
    combines,
    stage,
    tomb,
)
from kg.registry import Procedure, register
from kg.vocabulary import DK, PREFIXES

URN = "urn:cts:divkg:huangjince.qiucai-jiazhai.zh:"
"""The passages of 《黃金策》 the procedures below come from, by paragraph."""

MONTH_NAMES = tuple(
    f"{n}月" for n in ("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")
)
"""Month names by month branch from 寅 (正月建寅 … 十二月建丑)."""

RDF_VALUE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#value")


def _object(store: ox.Store, subject: ox.NamedNode | None, fact: str) -> ox.NamedNode | ox.Literal | None:
    """The value of ``fact`` on ``subject`` (on the reading when ``subject`` is None)."""
    for quad in store.quads_for_pattern(subject, ox.NamedNode(f"{DK}{fact}"), None):
        return quad.object
    return None


def _slug(store: ox.Store, subject: ox.NamedNode | None, fact: str, prefix: str) -> str | None:
    found = _object(store, subject, fact)
    if found is None or not found.value.startswith(PREFIXES[prefix]):
        return None
    return found.value[len(PREFIXES[prefix]) :]


def _branch(store: ox.Store, entity: ox.NamedNode) -> Branch | None:
    slug = _slug(store, entity, "branch", "br")
    return None if slug is None else Branch[slug.upper()]


def _element(store: ox.Store, entity: ox.NamedNode) -> Element | None:
    slug = _slug(store, entity, "element", "el")
    return None if slug is None else Element[slug.upper()]


def _day(store: ox.Store) -> GanZhi | None:
    slug = _slug(store, None, "dayGanzhi", "gz")
    if slug is None:
        return None
    stem, branch = slug.split("-")
    return GanZhi(Stem[stem.upper()], Branch[branch.upper()])


def _changsheng(store: ox.Store) -> str:
    """The reading's 十二長生 variant of 土 (its option changsheng; shui-tu when not recorded)."""
    for named in store.quads_for_pattern(None, ox.NamedNode(f"{DK}name"), ox.Literal("changsheng")):
        for value in store.quads_for_pattern(named.subject, RDF_VALUE, None):
            return value.object.value
    return "shui-tu"


def _reading_date(store: ox.Store, day: GanZhi) -> date | None:
    """The civil date whose day pillar is the reading's day, near the reading's moment (None without one)."""
    moment = _object(store, None, "moment")
    if moment is None:
        return None
    near = datetime.fromisoformat(moment.value).date()
    return next((d for d in (near, near + timedelta(1), near - timedelta(1)) if day_pillar(d) == day), None)


@dataclass(frozen=True)
class _Bound:
    """What the day tests read of the bound line."""

    element: Element
    branch: Branch
    variant: str
    """The reading's 十二長生 variant (shui-tu, huo-tu)."""
    flying: Branch | None
    """The 飛神's branch when the line is a 伏神."""


def _day_procedure(
    test: Callable[[_Bound, GanZhi], bool], after_xun: bool = False, hidden_only: bool = False
) -> Callable[[ox.Store, ox.NamedNode], str]:
    """A procedure naming the first day that passes ``test``, counted from the day after the reading's
    day, or from the 甲 day opening the next 旬 when ``after_xun``."""

    def run(store: ox.Store, entity: ox.NamedNode) -> str:
        day, element, branch = _day(store), _element(store, entity), _branch(store, entity)
        if day is None or element is None or branch is None:
            return "? (needs the reading's day and a line with a branch)"
        flying = _object(store, entity, "under")
        bound = _Bound(
            element,
            branch,
            _changsheng(store),
            _branch(store, flying) if isinstance(flying, ox.NamedNode) else None,
        )
        if hidden_only and bound.flying is None:
            return "? (only a 伏神 is 提起)"
        first = 10 - day.stem if after_xun else 1
        n, target = next(
            (n, d) for n in range(first, first + 60) if test(bound, d := GanZhi.from_index(day.index + n))
        )
        when = f"{target.name}日, {n} day{'s' if n != 1 else ''} after the reading's day {day.name}"
        start = _reading_date(store, day)
        return when if start is None else f"{when} ({(start + timedelta(n)).isoformat()})"

    return run


def _strong(bound: _Bound, day: GanZhi) -> bool:
    """生旺: the day is the 長生 or 帝旺 of the line's element."""
    return stage(bound.element, day.branch, bound.variant) in (Stage.CHANGSHENG, Stage.DIWANG)


def _lifted(bound: _Bound, day: GanZhi) -> bool:
    """提起: the day clashes the 飛神 (沖開) or carries the 伏神's own branch (值日)."""
    return bound.flying is not None and (clashes(day.branch, bound.flying) or day.branch == bound.branch)


PRICE_SEASONS: dict[Element, tuple[tuple[Branch, ...], tuple[Branch, ...], Branch | None]] = {
    Element.WOOD: ((Branch.YIN, Branch.MAO, Branch.CHEN), (Branch.ZI, Branch.CHOU), None),
    Element.FIRE: ((Branch.SI, Branch.WU, Branch.WEI), (), None),
    Element.EARTH: ((Branch.SI, Branch.WU, Branch.WEI), (), Branch.WEI),
    Element.METAL: ((Branch.SHEN, Branch.YOU, Branch.XU), (), None),
    Element.WATER: ((Branch.HAI, Branch.ZI, Branch.CHOU), (), None),
}
"""何時得價 by the element of the 財 (《黃金策》 ¶28, 以財臨五行斷): the months of its season, the months
also good, and a month better still. 木財春月得價，一陽後亦好: spring (寅卯辰), and after the winter
solstice (一陽 returns in the 子 month) through 丑; 土財夏月有利，六月更美: summer (巳午未), 未 best;
餘仿此 read as each other element in its own season (火 夏, 金 秋, 水 冬), nothing more."""


def price_months(store: ox.Store, entity: ox.NamedNode) -> str:
    """何時得價: the months of the element's season (:data:`PRICE_SEASONS`), and best the month of the
    line's own branch (財臨辰土，二月不如三月；財臨酉金，七月不如八月)."""
    element, branch = _element(store, entity), _branch(store, entity)
    if element is None or branch is None:
        return "? (needs a line with a branch)"
    season, also, better = PRICE_SEASONS[element]

    def named(months: tuple[Branch, ...]) -> str:
        return ", ".join(f"{MONTH_NAMES[(m - 2) % 12]} ({m.char})" for m in months)

    found = [f"{element.char}: 得價 in {named(season)}"]
    if also:
        found.append(f"also in {named(also)} (一陽後, from 冬至)")
    if better is not None:
        found.append(f"{named((better,))} 更美")
    return "; ".join(found) + f"; best in the month of its own branch, {named((branch,))}"


register(
    Procedure(
        "past-xun-day",
        "過旬生旺日: after the current 旬, the first day that is the line's 長生 or 帝旺",
        (f"{URN}6",),
        _day_procedure(_strong, after_xun=True),
    ),
    Procedure(
        "exit-xun-day",
        "過旬日: the 甲 day opening the next 旬 (旺空過旬日得)",
        (f"{URN}28",),
        _day_procedure(lambda bound, day: True, after_xun=True),
    ),
    Procedure(
        "shengwang-day",
        "生旺日: the next day that is the line's 長生 or 帝旺",
        (f"{URN}28", f"{URN}14"),
        _day_procedure(_strong),
    ),
    Procedure(
        "he-day",
        "合日: the next day whose branch 六合 combines the line's",
        (f"{URN}28",),
        _day_procedure(lambda bound, day: combines(day.branch, bound.branch)),
    ),
    Procedure(
        "chong-day",
        "沖日 (破合日): the next day whose branch clashes the line's",
        (f"{URN}28",),
        _day_procedure(lambda bound, day: clashes(day.branch, bound.branch)),
    ),
    Procedure(
        "tomb-day",
        "墓庫日 (收藏日): the next day on the 墓 of the line's element",
        (f"{URN}28",),
        _day_procedure(lambda bound, day: day.branch == tomb(bound.element, bound.variant)),
    ),
    Procedure(
        "break-tomb-day",
        "破墓日: the next day that clashes the 墓 of the line's element",
        (f"{URN}28",),
        _day_procedure(lambda bound, day: clashes(day.branch, tomb(bound.element, bound.variant))),
    ),
    Procedure(
        "lifting-day",
        "伏藏提起日: for a 伏神, the next day that clashes its 飛神 or carries its own branch",
        (f"{URN}28",),
        _day_procedure(_lifted, hidden_only=True),
    ),
    Procedure(
        "price-months",
        "何時得價: the months in which the line's element is 旺 or 相; the month of its own branch best",
        (f"{URN}28",),
        price_months,
    ),
)
