"""神煞: the auxiliary stars, each table as data with the source it follows.

Books differ on several of these; every table that has variants is a dict of named variants,
and the default is named beside it. Charts record the variant they used.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kg.ganzhi import Branch, Stem


@dataclass(frozen=True)
class NobleTable:
    """天乙貴人 by day stem: for each stem the (晝, 夜) branches, i.e. (陽貴, 陰貴)."""

    name: str
    verse: str
    source: str
    day_night: tuple[tuple[Branch, Branch], ...]

    def day(self, stem: Stem) -> Branch:
        return self.day_night[stem][0]

    def night(self, stem: Stem) -> Branch:
        return self.day_night[stem][1]

    def both(self, stem: Stem) -> frozenset[Branch]:
        return frozenset(self.day_night[stem])


def _pairs(text: str) -> tuple[tuple[Branch, Branch], ...]:
    """'丑未 子申 …' for 甲 … 癸, 晝 branch first."""
    return tuple((Branch.from_char(p[0]), Branch.from_char(p[1])) for p in text.split())


NOBLE_TABLES: dict[str, NobleTable] = {
    "A": NobleTable(
        "A",
        "甲戊庚牛羊，乙己鼠猴鄉，丙丁豬雞位，壬癸蛇兔藏，六辛逢馬虎",
        "common 六爻 table and the 720-lesson 大六壬 table (720/720 晝 and 夜 plates); 《御定六壬直指》",
        _pairs("丑未 子申 亥酉 亥酉 丑未 子申 丑未 午寅 巳卯 巳卯"),
    ),
    "B": NobleTable(
        "B",
        "甲戊兼牛羊，乙己鼠猴鄉，丙丁豬雞位，壬癸兔蛇藏，庚辛逢馬虎",
        "frequent in 八字 sources; divicast",
        _pairs("丑未 子申 亥酉 亥酉 丑未 子申 午寅 午寅 巳卯 巳卯"),
    ),
    "C": NobleTable(
        "C",
        "甲羊戊庚牛，乙猴己鼠，丙雞丁豬，壬兔癸蛇，六辛逢虎 (陽貴日中 / 陰貴夜時)",
        "《六壬大全》 / 《協紀辨方書》 陽貴·陰貴 verses",
        _pairs("未丑 申子 酉亥 亥酉 丑未 子申 丑未 寅午 卯巳 巳卯"),
    ),
}
"""天乙貴人 variants (docs/liuyao-doctrine.md §4.14, docs/liuren-doctrine.md §4.8). Default: A."""

DEFAULT_NOBLE_TABLE = "A"


# ── the other 神煞 (docs/liuyao-doctrine.md §4.14) ────────────────────────────────────────────


class Basis(StrEnum):
    """What a 神煞 table is looked up by."""

    STEM = "stem"
    """日干 (or 年干 when the chart's ``shensha_base`` is the year)."""
    GROUP = "group"
    """The 三合 group of 日支 (or 年支 when ``shensha_base`` is the year)."""
    MONTH = "month"
    """月建, the month branch."""
    YEAR = "year"
    """年支, the year branch, whatever the base (天喜 C, 喪門, 弔客)."""
    YEAR_STEM = "year-stem"
    """年干, the year stem, whatever the base (歲德)."""


Star = Stem | Branch
"""A 神煞 falls on a branch, or (天德, 月德 and their 合) on a stem, matched through the 納甲 stem."""


@dataclass(frozen=True)
class StarTable:
    """One 神煞 table: the star's branch (or stem) for each key of its basis.

    ``values`` is indexed by the key: by ``Stem`` (10 entries) for ``Basis.STEM``, by ``Branch``
    (12 entries, 子 … 亥) otherwise. ``None`` means the star does not exist for that key.
    """

    name: str
    slug: str
    basis: Basis
    rule: str
    source: str
    values: tuple[Star | None, ...]
    verse: str | None = None

    def at(self, key: Stem | Branch) -> Star | None:
        return self.values[key]


def _star(char: str) -> Star | None:
    if char == "–":
        return None
    return Stem.from_char(char) if char in "甲乙丙丁戊己庚辛壬癸" else Branch.from_char(char)


def _by_stem(text: str) -> tuple[Star | None, ...]:
    """'寅 卯 …' for 甲 … 癸."""
    values = tuple(_star(c) for c in text.split())
    assert len(values) == 10
    return values


def _by_month(text: str) -> tuple[Star | None, ...]:
    """'戌 戌 …' for the months 寅 卯 … 子 丑 (the order the almanacs list them), re-indexed 子 … 亥."""
    listed = [_star(c) for c in text.split()]
    assert len(listed) == 12
    return tuple(listed[(b - Branch.YIN) % 12] for b in Branch)


def _by_branch(text: str) -> tuple[Star | None, ...]:
    """'酉 申 …' for the branches 子 … 亥."""
    values = tuple(_star(c) for c in text.split())
    assert len(values) == 12
    return values


def _by_group(water: str, fire: str, metal: str, wood: str) -> tuple[Star | None, ...]:
    """The star of the groups 申子辰, 寅午戌, 巳酉丑, 亥卯未, spread over each group's three branches."""
    groups = {"申子辰": water, "寅午戌": fire, "巳酉丑": metal, "亥卯未": wood}
    by_branch = {Branch.from_char(b): _star(v) for frame, v in groups.items() for b in frame}
    return tuple(by_branch[b] for b in Branch)


_NOTES = "docs/liuyao-doctrine.md §4.14"
_SHARED = "《卜筮全書》 / 《易林補遺》 tradition, shared with 子平 (《三命通會》, 《淵海子平》)"

LU = StarTable(
    "祿神", "lu", Basis.STEM, "the 臨官 branch of the stem",
    f"{_SHARED}; {_NOTES}", _by_stem("寅 卯 巳 午 巳 午 申 酉 亥 子"),
)  # fmt: skip

YANG_REN: dict[str, StarTable] = {
    "A": StarTable(
        "羊刃", "yangren", Basis.STEM, "祿前一位, every stem forward",
        f"common 六爻 form; {_NOTES}", _by_stem("卯 辰 午 未 午 未 酉 戌 子 丑"),
    ),
    "B": StarTable(
        "羊刃", "yangren", Basis.STEM, "the 帝旺 branch, yin stems counted backward (陰干逆)",
        f"divicast '陽刃'; {_NOTES}", _by_stem("卯 寅 午 巳 午 巳 酉 申 子 亥"),
    ),
    "C": StarTable(
        "羊刃", "yangren", Basis.STEM, "yang stems only (祿前一位); yin stems have none",
        f"Horosa default; {_NOTES}", _by_stem("卯 – 午 – 午 – 酉 – 子 –"),
    ),
}  # fmt: skip
"""羊刃 variants. Default: A."""

DEFAULT_YANG_REN = "A"

WEN_CHANG = StarTable(
    "文昌", "wenchang", Basis.STEM, "甲巳 乙午 丙戊申 丁己酉 庚亥 辛子 壬寅 癸卯",
    f"{_SHARED}; {_NOTES}", _by_stem("巳 午 申 酉 申 酉 亥 子 寅 卯"),
)  # fmt: skip

_LIUREN_NOTES = "docs/liuren-doctrine.md §5"

RI_DE = StarTable(
    "日德", "ride", Basis.STEM, "陽干 its own 寄宮, 陰干 the 寄宮 of its 干合 partner (乙德在庚 …)",
    f"the 大六壬 德神 table 甲己寅 乙庚申 丙辛戊癸巳 丁壬亥; 《御定六壬直指》 癸未 ¶52 初德, ¶62 貴德 (巳); "
    f"{_LIUREN_NOTES}",
    _by_stem("寅 申 巳 亥 巳 寅 申 巳 亥 巳"),
)  # fmt: skip

MU_SHEN: dict[str, StarTable] = {
    "element": StarTable(
        "墓神", "mushen", Basis.STEM, "同生同死: the 墓 of the stem's element, yin stems as yang ones (水土同宮)",
        f"《御定六壬直指》 癸未 ¶68, ¶70, ¶72 (干上辰 墓神覆日, 辰生人 墓身); {_LIUREN_NOTES}",
        _by_stem("未 未 戌 戌 辰 辰 丑 丑 辰 辰"),
    ),
    "yin-reverse": StarTable(
        "墓神", "mushen", Basis.STEM, "陽順陰逆: the yin stems' 十二長生 counted backward from their own 長生",
        f"the 子平 stem cycle (乙 長生午 墓戌 … 癸 長生卯 墓未); {_LIUREN_NOTES}",
        _by_stem("未 戌 戌 丑 戌 丑 丑 辰 辰 未"),
    ),
}  # fmt: skip
"""墓神 (日墓) of the day stem: variants. Default: "element"."""

DEFAULT_MU_SHEN = "element"

GROUP_STARS: tuple[StarTable, ...] = (
    StarTable("驛馬", "yima", Basis.GROUP, "the branch clashing the group's 長生",
              f"{_SHARED}; {_NOTES}", _by_group("寅", "申", "亥", "巳")),
    StarTable("桃花", "taohua", Basis.GROUP, "咸池: the 沐浴 branch of the group's element",
              f"{_SHARED}; {_NOTES}", _by_group("酉", "卯", "午", "子")),
    StarTable("將星", "jiangxing", Basis.GROUP, "the group's middle (帝旺) branch",
              f"{_SHARED}; {_NOTES}", _by_group("子", "午", "酉", "卯")),
    StarTable("華蓋", "huagai", Basis.GROUP, "the group's last (墓) branch",
              f"{_SHARED}; {_NOTES}", _by_group("辰", "戌", "丑", "未")),
    StarTable("劫煞", "jiesha", Basis.GROUP, "the 絕 branch of the group's element",
              f"{_SHARED}; {_NOTES}", _by_group("巳", "亥", "寅", "申")),
    StarTable("災煞", "zaisha", Basis.GROUP, "the branch clashing the 將星",
              f"{_SHARED}; {_NOTES}", _by_group("午", "子", "卯", "酉")),
    StarTable("亡神", "wangshen", Basis.GROUP, "the 臨官 branch of the group's element",
              f"{_SHARED}; {_NOTES}", _by_group("亥", "巳", "申", "寅")),
    StarTable("謀星", "mouxing", Basis.GROUP, "the branch clashing the 華蓋",
              f"{_SHARED}; {_NOTES}", _by_group("戌", "辰", "未", "丑")),
)  # fmt: skip
"""神煞 read from the 三合 group of the day branch (六爻) or year branch (八字)."""

TIAN_XI: dict[str, StarTable] = {
    "A": StarTable(
        "天喜", "tianxi", Basis.MONTH, "by season: 春戌 夏丑 秋辰 冬未",
        f"六爻 seasonal form (divicast); {_NOTES}", _by_month("戌 戌 戌 丑 丑 丑 辰 辰 辰 未 未 未"),
    ),
    "B": StarTable(
        "天喜", "tianxi", Basis.MONTH, "monthly, starting from 戌 in 寅 month",
        f"《協紀辨方書》 (checked in cnlunar); {_NOTES}", _by_month("戌 亥 子 丑 寅 卯 辰 巳 午 未 申 酉"),
    ),
    "C": StarTable(
        "天喜", "tianxi", Basis.YEAR, "by year branch, opposite 紅鸞",
        f"八字 and 紫微 usage; {_NOTES}", _by_branch("酉 申 未 午 巳 辰 卯 寅 丑 子 亥 戌"),
    ),
}  # fmt: skip
"""天喜 variants. Default: A."""

DEFAULT_TIAN_XI = "A"

MONTH_STARS: tuple[StarTable, ...] = (
    StarTable("天醫", "tianyi-doctor", Basis.MONTH, "月建前一辰, the branch before the month",
              f"{_NOTES}", _by_month("丑 寅 卯 辰 巳 午 未 申 酉 戌 亥 子")),
    StarTable("天德", "tiande", Basis.MONTH, "a stem or (坤 申, 乾 亥, 艮 寅, 巽 巳) a branch per month",
              f"《協紀辨方書》; {_NOTES}", _by_month("丁 申 壬 辛 亥 甲 癸 寅 丙 乙 巳 庚"),
              "正丁二坤宮，三壬四辛同，五乾六甲上，七癸八艮逢，九丙十居乙，子巽丑庚中"),
    StarTable("天德合", "tiandehe", Basis.MONTH, "the 合 of 天德 (干合 or 支合)",
              f"《協紀辨方書》; {_NOTES}", _by_month("壬 巳 丁 丙 寅 己 戊 亥 辛 庚 申 乙")),
    StarTable("月德", "yuede", Basis.MONTH, "寅午戌丙, 亥卯未甲, 申子辰壬, 巳酉丑庚",
              f"《協紀辨方書》; {_NOTES}", _by_month("丙 甲 壬 庚 丙 甲 壬 庚 丙 甲 壬 庚")),
    StarTable("月德合", "yuedehe", Basis.MONTH, "the 干合 of 月德",
              f"《協紀辨方書》; {_NOTES}", _by_month("辛 己 丁 乙 辛 己 丁 乙 辛 己 丁 乙")),
)  # fmt: skip
"""神煞 read from 月建."""

QI_STARS: tuple[StarTable, ...] = (
    StarTable("生氣", "shengqi", Basis.MONTH, "正月在子, one branch on each month (月建後二辰)",
              f"《協紀辨方書》; 《御定六壬直指》 癸未 ¶52 胎財生氣 (七月占: 午); {_LIUREN_NOTES}",
              _by_month("子 丑 寅 卯 辰 巳 午 未 申 酉 戌 亥")),
    StarTable("死氣", "siqi", Basis.MONTH, "正月在午: the branch clashing the 生氣",
              f"《協紀辨方書》; 《御定六壬直指》 癸未 ¶52 胎財死氣 (正月占: 午), ¶42 (二月: 未); {_LIUREN_NOTES}",
              _by_month("午 未 申 酉 戌 亥 子 丑 寅 卯 辰 巳")),
)  # fmt: skip
"""生氣 and 死氣 by 月建 (asserted on the 大六壬 spirits when the month is known, and on the 六爻 lines)."""

YEAR_STARS: tuple[StarTable, ...] = (
    StarTable("喪門", "sangmen", Basis.YEAR, "歲前二辰: two branches ahead of the year branch",
              f"{_SHARED}; {_NOTES}", _by_branch("寅 卯 辰 巳 午 未 申 酉 戌 亥 子 丑")),
    StarTable("弔客", "diaoke", Basis.YEAR, "歲後二辰: two branches behind the year branch",
              f"{_SHARED}; {_NOTES}", _by_branch("戌 亥 子 丑 寅 卯 辰 巳 午 未 申 酉")),
)  # fmt: skip
"""神煞 read from the year branch (太歲), whatever ``shensha_base``."""

SUI_DE = StarTable(
    "歲德", "suide", Basis.YEAR_STEM, "陽年 its own stem, 陰年 the stem its own combines with (干合: 乙德在庚)",
    f"《協紀辨方書》 歲德, after 《曾門經》 (甲德在甲，乙德在庚 …); {_NOTES}",
    _by_stem("甲 庚 丙 壬 戊 甲 庚 丙 壬 戊"),
)  # fmt: skip
"""歲德 by the year stem, a stem: it falls on the lines whose 納甲 stem it is."""

TIAN_SHE: dict[Branch, tuple[Stem, Branch]] = {
    Branch(m): (Stem.from_char(day[0]), Branch.from_char(day[1]))
    for season, day in (("寅卯辰", "戊寅"), ("巳午未", "甲午"), ("申酉戌", "戊申"), ("亥子丑", "甲子"))
    for m in (Branch.from_char(c) for c in season)
}
"""天赦日 by month: 春戊寅, 夏甲午, 秋戊申, 冬甲子 (《協紀辨方書》; docs/liuyao-doctrine.md §4.14). A day, not a line."""


def is_tian_she(month: Branch, day_stem: Stem, day_branch: Branch) -> bool:
    """True when the day is the season's 天赦日."""
    return TIAN_SHE[month] == (day_stem, day_branch)
