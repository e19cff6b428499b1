"""年命 (本命): the querent's birth year in a 六爻 reading (《黃金策》 木命人, 命爻, 命旬空).

The querent gives the birth year as a branch (子) or a 干支 (甲子). :func:`natal` places it in a
chart: its element (of the branch, or its 納音 under ``Options.natal_element``), its 六親 against
the 本卦's palace element, and whether it is 旬空 on the day; with the stem known it also has its own
旬, whose two empty branches are the 命旬空 of the lines (兩空 with the day's). Doctrine:
docs/liuyao-doctrine.md §7.8.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.errors import InputError
from kg.ganzhi import Branch, Element, GanZhi, Stem
from kg.liuyao.chart import Chart, NatalElement
from kg.six_relatives import Relative, relative

_NAYIN_HALF = "金火木土金火水土金木水土火木水"
NAYIN: tuple[Element, ...] = tuple(Element("木火土金水".index(c)) for c in _NAYIN_HALF * 2)
"""納音五行 of each pair of the sixty-cycle (甲子乙丑 = pair 0 … 壬戌癸亥 = pair 29): 海中金, 爐中火,
大林木, 路旁土, 劍鋒金, 山頭火, 澗下水, 城頭土, 白蠟金, 楊柳木, 泉中水, 屋上土, 霹靂火, 松柏木, 長流水,
then the same elements again from 甲午乙未 沙中金 to 壬戌癸亥 大海水 (《三命通會·論納音取象》)."""


@dataclass(frozen=True)
class Natal:
    """The querent's 年命 in a chart."""

    stem: Stem | None
    """The birth-year stem, when the 干支 was given."""
    branch: Branch
    element: Element
    """By the branch, or the 納音 (``Options.natal_element``)."""
    relative: Relative
    """六親 of the element against the 本卦's palace element."""
    void: bool
    """The branch is 旬空 on the day of the reading."""

    @property
    def xun_void(self) -> tuple[Branch, Branch] | None:
        """命旬空: the two empty branches of the birth 干支's own 旬 (None without the stem)."""
        return None if self.stem is None else GanZhi(self.stem, self.branch).xun_void


def parse_birth(text: str) -> tuple[Stem | None, Branch]:
    """A birth year written as a branch (子) or a 干支 (甲子); an :class:`InputError` naming --birth."""
    text = text.strip()
    try:
        if len(text) == 2:
            gz = GanZhi.from_name(text)
            return gz.stem, gz.branch
        return None, Branch.from_char(text)
    except InputError as exc:
        raise InputError(f"--birth {text!r}: {exc}") from None


def natal(chart: Chart, birth: str) -> Natal:
    """The 年命 ``birth`` (a branch or a 干支) placed in ``chart``."""
    stem, branch = parse_birth(birth)
    element = branch.element
    if chart.options.natal_element is NatalElement.NAYIN:
        if stem is None:
            raise InputError(f"--birth {birth!r}: the 納音 (natal_element=nayin) needs the 干支, e.g. 甲子")
        element = NAYIN[GanZhi(stem, branch).index // 2]
    return Natal(
        stem, branch, element, relative(chart.hexagram.palace_element, element), branch in chart.day.xun_void
    )
