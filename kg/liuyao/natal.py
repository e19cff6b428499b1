"""年命 (本命): the birth years of the querent and of the household in a 六爻 reading (《黃金策》
木命人, 命爻, 命旬空, 妻命, 夫命 …).

The querent gives the birth year as a branch (子) or a 干支 (甲子). :func:`natal` places it in a
chart: its element (of the branch, or its 納音 under ``Options.natal_element``), its 六親 against
the 本卦's palace element, and whether it is 旬空 on the day; with the stem known it also has its own
旬, whose two empty branches are the 命旬空 of the lines (兩空 with the day's). Members of the
household (妻=甲子) are read by :func:`parse_member`: the chart marks the lines carrying their 命, their
命旬空 and the 祿 of their birth stem. Doctrine: docs/liuyao-doctrine.md §7.8 and docs/liuyao-doctrine.md §7.15.
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
class Birth:
    """A birth year: its branch, and its stem when the 干支 was given."""

    stem: Stem | None
    branch: Branch

    @property
    def xun_void(self) -> tuple[Branch, Branch] | None:
        """命旬空: the two empty branches of the birth 干支's own 旬 (None without the stem)."""
        return None if self.stem is None else GanZhi(self.stem, self.branch).xun_void


@dataclass(frozen=True)
class Natal(Birth):
    """The querent's 年命 in a chart."""

    element: Element
    """By the branch, or the 納音 (``Options.natal_element``)."""
    relative: Relative
    """六親 of the element against the 本卦's palace element."""
    void: bool
    """The branch is 旬空 on the day of the reading."""


MEMBERS: dict[str, str] = {
    "夫": "husband",
    "男": "husband",
    "妻": "wife",
    "女": "wife",
    "父": "father",
    "母": "mother",
    "子": "son",
    "兄": "elder-brother",
    "弟": "younger-brother",
    "姑": "mother-in-law",
    "姑嫜": "mother-in-law",
    "媳婦": "daughter-in-law",
    "婦": "daughter-in-law",
}
"""The members of the household whose 命 《黃金策》 ¶82–108 reads, as written (男, 女: the man and woman
of a couple, ¶102; 姑嫜, 婦: ¶84) → slug of dk:MemberScheme (ontology/concepts/huangjince-facts.ttl)."""


@dataclass(frozen=True)
class Member(Birth):
    """A member of the household and the birth year given for them (``--member 妻=甲子``)."""

    name: str
    """As written (妻)."""
    slug: str
    """Its dk:MemberScheme slug (wife)."""

    def __str__(self) -> str:
        return f"{self.name}={self.stem.char if self.stem is not None else ''}{self.branch.char}"


def parse_birth(text: str, option: str = "--birth") -> tuple[Stem | None, Branch]:
    """A birth year written as a branch (子) or a 干支 (甲子); an :class:`InputError` naming ``option``."""
    text = text.strip()
    try:
        if len(text) == 2:
            gz = GanZhi.from_name(text)
            return gz.stem, gz.branch
        return None, Branch.from_char(text)
    except InputError as exc:
        raise InputError(f"{option} {text!r}: {exc}") from None


def parse_member(text: str) -> Member:
    """A member and birth year written ``妻=甲子`` (or ``妻=子``); an :class:`InputError` naming --member."""
    name, equals, birth = (part.strip() for part in text.partition("="))
    if not equals:
        raise InputError(f"--member {text!r}: expected MEMBER=BIRTH, e.g. 妻=甲子")
    if name not in MEMBERS:
        raise InputError(f"--member {text!r}: unknown member {name!r}; expected one of {' '.join(MEMBERS)}")
    stem, branch = parse_birth(birth, f"--member {name}=")
    return Member(stem, branch, name, MEMBERS[name])


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
