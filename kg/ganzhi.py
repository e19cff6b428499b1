"""干支五行: the ten stems, twelve branches, five elements and the relations between them.

These are the tables both systems (六爻 and 大六壬) share. Values are small ``IntEnum``s so a
chart is a handful of integers; ``.char`` gives the written form and ``.slug`` the IRI slug
used by the vocabulary (``ontology/concepts/*.ttl``).

Sources: the 五行 生克 cycle, 六沖/六合/三刑/六害/六破 and 三合 are the common tables of
《卜筮正宗》 卷一 and 《增刪卜易》 (六合章, 六沖章, 三刑六害章, 三合章); 旬空 is
《增刪卜易·旬空章》; 十二長生 with 水土同宮 is 《卜筮正宗·四生逐位論第八》.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from kg.errors import InputError


class Element(IntEnum):
    """五行, in generating order: each element generates the next (木生火 … 水生木)."""

    WOOD = 0
    FIRE = 1
    EARTH = 2
    METAL = 3
    WATER = 4

    @property
    def char(self) -> str:
        return "木火土金水"[self]

    @property
    def slug(self) -> str:
        return self.name.lower()

    def generates(self, other: Element) -> bool:
        """我生: this element generates ``other``."""
        return (other - self) % 5 == 1

    def overcomes(self, other: Element) -> bool:
        """我克: this element overcomes ``other``."""
        return (other - self) % 5 == 2


class Stem(IntEnum):
    """天干."""

    JIA = 0
    YI = 1
    BING = 2
    DING = 3
    WU = 4
    JI = 5
    GENG = 6
    XIN = 7
    REN = 8
    GUI = 9

    @property
    def char(self) -> str:
        return "甲乙丙丁戊己庚辛壬癸"[self]

    @property
    def slug(self) -> str:
        return self.name.lower()

    @property
    def element(self) -> Element:
        return _ELEMENTS[self // 2]

    @property
    def is_yang(self) -> bool:
        return self % 2 == 0

    @classmethod
    def from_char(cls, char: str) -> Stem:
        index = "甲乙丙丁戊己庚辛壬癸".find(char)
        if len(char) != 1 or index < 0:
            raise InputError(f"not a heavenly stem: {char!r} (expected one of 甲乙丙丁戊己庚辛壬癸)")
        return cls(index)


class Branch(IntEnum):
    """地支."""

    ZI = 0
    CHOU = 1
    YIN = 2
    MAO = 3
    CHEN = 4
    SI = 5
    WU = 6
    WEI = 7
    SHEN = 8
    YOU = 9
    XU = 10
    HAI = 11

    @property
    def char(self) -> str:
        return "子丑寅卯辰巳午未申酉戌亥"[self]

    @property
    def slug(self) -> str:
        return self.name.lower()

    @property
    def element(self) -> Element:
        return BRANCH_ELEMENT[self]

    @property
    def is_yang(self) -> bool:
        return self % 2 == 0

    def shift(self, steps: int) -> Branch:
        return _BRANCHES[(self + steps) % 12]

    @classmethod
    def from_char(cls, char: str) -> Branch:
        index = "子丑寅卯辰巳午未申酉戌亥".find(char)
        if len(char) != 1 or index < 0:
            raise InputError(f"not an earthly branch: {char!r} (expected one of 子丑寅卯辰巳午未申酉戌亥)")
        return cls(index)


_ELEMENTS: tuple[Element, ...] = tuple(Element)
_STEMS: tuple[Stem, ...] = tuple(Stem)
_BRANCHES: tuple[Branch, ...] = tuple(Branch)
"""The members by value: indexing these is much cheaper than calling the enum."""

BRANCH_ELEMENT: tuple[Element, ...] = tuple(
    Element("木火土金水".index(c)) for c in "水土木木土火火土金金土水"
)
"""Element of each branch: 寅卯 木, 巳午 火, 申酉 金, 亥子 水, 辰戌丑未 土."""


class GanZhi(NamedTuple):
    """A 干支 pair of the sexagenary cycle (六十甲子)."""

    stem: Stem
    branch: Branch

    @property
    def index(self) -> int:
        """Position in the cycle, 甲子 = 0 … 癸亥 = 59."""
        return (6 * self.stem - 5 * self.branch) % 60

    @property
    def name(self) -> str:
        return self.stem.char + self.branch.char

    @property
    def slug(self) -> str:
        return f"{self.stem.slug}-{self.branch.slug}"

    @property
    def xun_void(self) -> tuple[Branch, Branch]:
        """旬空: the two branches of this day's 旬 that receive no stem, in cycle order."""
        first = (self.branch - self.stem - 2) % 12
        return _BRANCHES[first], _BRANCHES[(first + 1) % 12]

    @property
    def xun_head(self) -> GanZhi:
        """旬首: the 甲 day that opens this 旬."""
        return _CYCLE[(self.index - self.stem) % 60]

    @classmethod
    def from_index(cls, index: int) -> GanZhi:
        return _CYCLE[index % 60]

    @classmethod
    def from_name(cls, name: str) -> GanZhi:
        if len(name) != 2:
            raise InputError(f"not a 干支 pair: {name!r} (expected two characters such as 甲子)")
        stem, branch = Stem.from_char(name[0]), Branch.from_char(name[1])
        if stem % 2 != branch % 2:
            raise InputError(
                f"impossible 干支 pair {name}: a {'yang' if stem.is_yang else 'yin'} stem never pairs "
                f"with a {'yang' if branch.is_yang else 'yin'} branch in the sixty-cycle"
            )
        return cls(stem, branch)

    def __str__(self) -> str:
        return self.name


_CYCLE: tuple[GanZhi, ...] = tuple(GanZhi(_STEMS[i % 10], _BRANCHES[i % 12]) for i in range(60))
"""The sixty 干支 by index, 甲子 = 0."""


def dun_stem(day: GanZhi, branch: Branch) -> Stem | None:
    """遁干: the stem the day's 旬 assigns to ``branch``; None for the two 旬空 branches."""
    offset = (branch - day.xun_head.branch) % 12
    return _STEMS[offset] if offset < 10 else None


# ── branch relations ────────────────────────────────────────────────────────────────────────


def clashes(a: Branch, b: Branch) -> bool:
    """六沖: 子午 丑未 寅申 卯酉 辰戌 巳亥."""
    return (a - b) % 12 == 6


def combines(a: Branch, b: Branch) -> bool:
    """六合: 子丑 寅亥 卯戌 辰酉 巳申 午未."""
    return (a + b) % 12 == 1


def harms(a: Branch, b: Branch) -> bool:
    """六害 (穿): 子未 丑午 寅巳 卯辰 申亥 酉戌."""
    return (a + b) % 12 == 7


BREAKS: frozenset[frozenset[Branch]] = frozenset(
    frozenset((Branch.from_char(p[0]), Branch.from_char(p[1])))
    for p in ("子酉", "丑辰", "寅亥", "卯午", "巳申", "未戌")
)
"""六破: 子酉 丑辰 寅亥 卯午 巳申 未戌."""


def breaks(a: Branch, b: Branch) -> bool:
    return frozenset((a, b)) in BREAKS


PUNISHMENT: dict[Branch, Branch] = {
    Branch.from_char(a): Branch.from_char(b)
    for a, b in (
        "寅巳",
        "巳申",
        "申寅",
        "丑戌",
        "戌未",
        "未丑",
        "子卯",
        "卯子",
        "辰辰",
        "午午",
        "酉酉",
        "亥亥",
    )
}
"""三刑, directed: 寅刑巳 巳刑申 申刑寅 (無恩), 丑刑戌 戌刑未 未刑丑 (恃勢), 子卯 (無禮); 辰午酉亥 自刑."""


def punishes(a: Branch, b: Branch) -> bool:
    return PUNISHMENT[a] == b


THREE_HARMONIES: dict[Element, tuple[Branch, Branch, Branch]] = {
    Element.WATER: (Branch.SHEN, Branch.ZI, Branch.CHEN),
    Element.WOOD: (Branch.HAI, Branch.MAO, Branch.WEI),
    Element.FIRE: (Branch.YIN, Branch.WU, Branch.XU),
    Element.METAL: (Branch.SI, Branch.YOU, Branch.CHOU),
}
"""三合局: 申子辰 水, 亥卯未 木, 寅午戌 火, 巳酉丑 金 (長生, 帝旺, 墓 of the element)."""


def harmony_group(branch: Branch) -> Element:
    """The 三合 frame a branch belongs to (its element, e.g. 子 → 申子辰 水局)."""
    return next(e for e, frame in THREE_HARMONIES.items() if branch in frame)


# ── 旺相休囚死 and 十二長生 ──────────────────────────────────────────────────────────────────────


class SeasonalState(IntEnum):
    """旺相休囚死 of an element in a month: the month's element is 旺, what it generates 相,
    what generates it 休, what overcomes it 囚, what it overcomes 死 (《卜筮正宗·旺相休囚論》,
    "四季之月土旺金相")."""

    WANG = 0
    XIANG = 1
    XIU = 2
    QIU = 3
    SI = 4

    @property
    def char(self) -> str:
        return "旺相休囚死"[self]

    @property
    def slug(self) -> str:
        return self.name.lower()


_SEASONAL: tuple[SeasonalState, ...] = tuple(SeasonalState(v) for v in (0, 1, 4, 3, 2))
"""旺相休囚死 by the step from the month's element to the element in the 生 cycle: the same 旺, the
one it generates 相, two on 死, three on 囚, the one generating it 休."""


def seasonal_state(element: Element, month: Branch) -> SeasonalState:
    return _SEASONAL[(element - month.element) % 5]


class Stage(IntEnum):
    """十二長生 (十二運)."""

    CHANGSHENG = 0
    MUYU = 1
    GUANDAI = 2
    LINGUAN = 3
    DIWANG = 4
    SHUAI = 5
    BING = 6
    SI = 7
    MU = 8
    JUE = 9
    TAI = 10
    YANG = 11

    @property
    def char(self) -> str:
        return ("長生", "沐浴", "冠帶", "臨官", "帝旺", "衰", "病", "死", "墓", "絕", "胎", "養")[self]

    @property
    def slug(self) -> str:
        return self.name.lower()


_STAGES: tuple[Stage, ...] = tuple(Stage)

CHANGSHENG_SHUI_TU: dict[Element, Branch] = {
    Element.WOOD: Branch.HAI,
    Element.FIRE: Branch.YIN,
    Element.METAL: Branch.SI,
    Element.WATER: Branch.SHEN,
    Element.EARTH: Branch.SHEN,
}
"""長生 branch of each element, 水土同宮 (土 長生申 墓辰 絕巳): the 六爻 standard of
《卜筮正宗·四生逐位論第八》 "火庫于戌絕于亥，金庫于丑絕于寅，水土庫于辰絕于巳，木庫于未絕于申"."""

CHANGSHENG_HUO_TU: dict[Element, Branch] = {**CHANGSHENG_SHUI_TU, Element.EARTH: Branch.YIN}
"""Variant 火土同宮 (土 長生寅 墓戌), the 子平 convention for 戊己."""

CHANGSHENG_VARIANTS: dict[str, dict[Element, Branch]] = {
    "shui-tu": CHANGSHENG_SHUI_TU,
    "huo-tu": CHANGSHENG_HUO_TU,
}


def stage(element: Element, branch: Branch, variant: str = "shui-tu") -> Stage:
    """The 十二長生 stage of ``element`` at ``branch`` (no yin/yang split, as in 六爻)."""
    return _STAGES[(branch - CHANGSHENG_VARIANTS[variant][element]) % 12]


def tomb(element: Element, variant: str = "shui-tu") -> Branch:
    """墓 (庫) of an element: 金丑 木未 火戌 水土辰 (水土同宮)."""
    return _BRANCHES[(CHANGSHENG_VARIANTS[variant][element] + Stage.MU) % 12]
