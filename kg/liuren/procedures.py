"""The 《大六壬銀河棹》 procedures for computing an outcome (a quantity, a distance), as functions.

A rule names one as an outcome parameter, ``param: {distance: li(S)}``; after retrieval the
procedure is run on the entity bound to ``S`` in the reading and the report shows the value with
the passage that defines the procedure. Each procedure cites its passage by URN; the tests check
the worked figures the passages themselves give. Importing the module registers them in
:mod:`kg.registry` (:mod:`kg.liuren` imports it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pyoxigraph as ox

from kg.calendar import last_lichun
from kg.errors import InputError
from kg.ganzhi import THREE_HARMONIES, Branch, harmony_group
from kg.liuren.chart import Chart, Options, chart_from_inputs
from kg.registry import Procedure, register
from kg.vocabulary import DK, PREFIXES

XIANTIAN: dict[Branch, int] = {b: (9, 8, 7, 6, 5, 4)[b % 6] for b in Branch}
"""先天數 of the branches: 子午 9, 丑未 8, 寅申 7, 卯酉 6, 辰戌 5, 巳亥 4 (《大六壬銀河棹》 ¶12
"如子午則二九十八"; ¶76 "戌加丑位上，五八十三")."""

SEASONAL_FACTOR: dict[str, float] = {"wang": 2, "xiang": 2, "xiu": 1, "qiu": 0.5, "si": 0.5}
"""倍減之法 (¶12): 旺相 double, 休 as it is, 囚死 half (¶76 "旺相倍因囚死半，休當本數")."""


RDF_VALUE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#value")

URN = "urn:cts:divkg:yinhezhao.qiucai-yishi.zh:"
"""The passages of 《大六壬銀河棹》 (seed 003) the procedures below come from, by paragraph."""


def _object(store: ox.Store, subject: ox.NamedNode | None, fact: str) -> ox.NamedNode | ox.Literal | None:
    """The value of ``fact`` on ``subject`` (on the reading itself when ``subject`` is None)."""
    for quad in store.quads_for_pattern(subject, ox.NamedNode(f"{DK}{fact}"), None):
        return quad.object
    return None


def _value(store: ox.Store, entity: ox.NamedNode | None, fact: str) -> str | None:
    found = _object(store, entity, fact)
    return None if found is None else found.value


def _branch(iri: str | None) -> Branch | None:
    prefix = PREFIXES["br"]
    if iri is None or not iri.startswith(prefix):
        return None
    return Branch[iri[len(prefix) :].upper()]


def _entity_branch(store: ox.Store, link: str) -> Branch | None:
    """The branch of the entity the reading links by ``link`` (zhi, monthSpirit, …)."""
    entity = _object(store, None, link)
    return _branch(_value(store, entity, "branch")) if isinstance(entity, ox.NamedNode) else None


def _state(store: ox.Store, spirit: ox.NamedNode) -> str | None:
    """旺相休囚死 of a spirit, as the slug of its concept (wang, xiang, xiu, qiu, si)."""
    state = _value(store, spirit, "seasonalState")
    return state.rsplit("/", 1)[1] if state else None


def _factor(store: ox.Store, spirit: ox.NamedNode) -> float:
    """The 倍減 factor of a spirit's 旺相休囚死 (1 when unknown)."""
    return SEASONAL_FACTOR.get(_state(store, spirit) or "", 1)


def _places(start: Branch, end: Branch) -> int:
    """Places counted forward (順, 子 → 丑 → 寅 …) from ``start`` to ``end``, ``start`` not counted."""
    return (end - start) % 12


def _n_places(n: int) -> str:
    return f"{n} place" if n == 1 else f"{n} places"


def xiantian_total(store: ox.Store, spirit: ox.NamedNode) -> tuple[int, float] | None:
    """先天數 of a spirit and of the 地盤 seat it sits on, added, and the seasonal factor."""
    branch, seat = _branch(_value(store, spirit, "branch")), _branch(_value(store, spirit, "seat"))
    if branch is None or seat is None:
        return None
    return XIANTIAN[branch] + XIANTIAN[seat], _factor(store, spirit)


def _factor_note(factor: float) -> str:
    return "" if factor == 1 else (" ×2 旺相" if factor > 1 else " ÷2 囚死")


def _quantity(unit: str) -> Callable[[ox.Store, ox.NamedNode], str]:
    def run(store: ox.Store, spirit: ox.NamedNode) -> str:
        found = xiantian_total(store, spirit)
        if found is None:
            return "? (the spirit's branch or seat is unknown)"
        total, factor = found
        note = "" if factor == 1 else f" (先天數 {total},{_factor_note(factor)})"
        return f"{total * factor:g}{unit}{note}"

    return run


def separation(store: ox.Store, spirit: ox.NamedNode) -> str:
    """離辰遠近: how many places the spirit's seat lies from the day branch, the shorter way round."""
    seat, day = _branch(_value(store, spirit, "seat")), _entity_branch(store, "zhi")
    if seat is None or day is None:
        return "? (the spirit's seat or the day branch is unknown)"
    apart = min(_places(seat, day), _places(day, seat))
    state = _state(store, spirit)
    strength = {"wang": "旺: 尤遠", "xiang": "相: 尤遠", "qiu": "囚: 尤近", "si": "死: 尤近"}.get(state or "")
    return f"{_n_places(apart)} (seat {seat.char}, 辰 {day.char}; 6 is the farthest)" + (
        f", {strength}" if strength else ""
    )


def counted_li(store: ox.Store, spirit: ox.NamedNode) -> str:
    """里數 by counting from the spirit's seat back to its own 地盤 place, ×2 旺相, ÷2 囚死."""
    branch, seat = _branch(_value(store, spirit, "branch")), _branch(_value(store, spirit, "seat"))
    if branch is None or seat is None:
        return "? (the spirit's branch or seat is unknown)"
    count = _places(branch, seat)
    factor = _factor(store, spirit)
    return f"{count * factor:g}里 ({_n_places(count)} from {seat.char} back to {branch.char}{_factor_note(factor)})"


def tomb_plate(store: ox.Store, zhi: ox.NamedNode) -> str:
    """三合墓加時: the tomb of the day branch's 三合 on the 占時; where 河魁 戌 and 天罡 辰 sit then."""
    day, hour = _branch(_value(store, zhi, "branch")), _branch(_value(store, None, "hourBranch"))
    if day is None or hour is None:
        return "? (needs the day branch and the 占時)"
    tomb = THREE_HARMONIES[harmony_group(day)][2]
    shift = hour - tomb
    kui, gang = Branch((Branch.XU + shift) % 12), Branch((Branch.CHEN + shift) % 12)
    return f"墓 {tomb.char} 加 {hour.char}: 河魁 戌 臨 {kui.char}, 天罡 辰 臨 {gang.char}"


def capture_time(store: ox.Store, last: ox.NamedNode) -> str:
    """獲期: count forward to 子 from the branch that clashes the 末傳 and from the spirit over the 月建."""
    branch = _branch(_value(store, last, "branch"))
    if branch is None:
        return "? (the 末傳 is unknown)"
    clash = Branch((branch + 6) % 12)
    counts = [f"末傳 {branch.char} 沖 {clash.char}, {_n_places(_places(clash, Branch.ZI))} to 子"]
    month = _entity_branch(store, "monthSpirit")
    counts.append(
        "月建 unknown"
        if month is None
        else f"月建上 {month.char}, {_n_places(_places(month, Branch.ZI))} to 子"
    )
    return "; ".join(counts)


def _options(store: ox.Store) -> Options:
    """The reading's doctrinal options, except 晝/夜, which a second plate takes from its own hour."""
    values = {}
    for quad in store.quads_for_pattern(None, ox.NamedNode(f"{DK}option"), None):
        name = _value(store, quad.object, "name")
        for value in store.quads_for_pattern(quad.object, RDF_VALUE, None):
            if name and name != "day_night_rule":
                values[name] = value.object.value
    return Options(**values)


def _plate(chart: Chart) -> str:
    """Day, hour, 月將, 局, the 四課 uppers and the 三傳 of a chart, in one line."""
    assert chart.hour is not None and chart.month_general is not None
    return (
        f"{chart.day.name}日 {chart.hour.char}時, 月將 {chart.month_general.branch.char} 加 {chart.hour.char} "
        f"(第{chart.ju}局); 四課上 {''.join(lesson.upper.char for lesson in chart.lessons)}; "
        f"三傳 {''.join(t.branch.char for t in chart.transmissions)}"
    )


def lichun_board(store: ox.Store, year: ox.NamedNode) -> str:
    """立春課: the chart of the moment of 立春 that opened the reading's year; the spirit over 太歲."""
    moment = _value(store, None, "moment")
    if moment is None:
        return "? (needs the moment of the reading, to find the 立春 of its year)"
    try:
        term = last_lichun(datetime.fromisoformat(moment))
        chart = chart_from_inputs(moment=term.moment, options=_options(store))
    except InputError as exc:
        return f"? ({exc})"
    assert chart.pillars is not None
    taisui = chart.pillars.year.branch
    over = chart.upper(taisui)
    generals = "".join(g.char for g in sorted(chart.generals_on(over)))
    return (
        f"立春 {term.moment:%Y-%m-%d %H:%M}: {_plate(chart)}; 太歲 {taisui.char} 上 {over.char} ({generals})"
    )


register(
    Procedure(
        "amount",
        "先天數 of the spirit and of its seat added, doubled when 旺相 and halved when 囚死 (多少)",
        (f"{URN}12",),
        _quantity(""),
    ),
    Procedure(
        "li",
        "distance in 里: 先天數 of the spirit and of its seat added, ×2 旺相, ÷2 囚死, 休 as it is",
        (f"{URN}76",),
        _quantity("里"),
    ),
    Procedure(
        "separation",
        "離辰遠近: places between the spirit's seat and the day branch (辰), 0 to 6; 旺相 farther, 囚死 nearer",
        (f"{URN}54",),
        separation,
    ),
    Procedure(
        "counted-li",
        "里數 (一說): places from the spirit's seat back to its own 地盤 place, one 里 each, ×2 旺相, ÷2 囚死; "
        "the count as ¶76 makes it (魁去戌前若四辰，約行四里: 戌 on 寅, four places, four 里)",
        (f"{URN}54", f"{URN}76"),
        counted_li,
    ),
    Procedure(
        "tomb-plate",
        "三合墓加時: the 墓 of the day branch's 三合 (寅午戌 戌, 申子辰 辰, 亥卯未 未, 巳酉丑 丑) put on the "
        "占時 (正時); search under 河魁 and 天罡 (the text: the day of the flight; here the reading's day)",
        (f"{URN}66", f"{URN}74"),
        tomb_plate,
    ),
    Procedure(
        "capture-time",
        "獲期: count forward to 子 from the branch that clashes the 末傳 and from the spirit over the 月建 "
        "(the text does not say how the two counts combine, nor the unit)",
        (f"{URN}72",),
        capture_time,
    ),
    Procedure(
        "lichun-board",
        "立春課: 月將 on the hour of the 立春 that opened the reading's year; the spirit over 太歲 and the "
        "課傳 of that plate (the reading's 貴人, 涉害 and 子時 options; 晝/夜 by the 立春 hour)",
        (f"{URN}40", f"{URN}42"),
        lichun_board,
    ),
)
