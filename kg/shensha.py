"""神煞: the auxiliary stars, each table as data with the source it follows.

Books differ on several of these; every table that has variants is a dict of named variants,
and the default is named beside it. Charts record the variant they used.
"""

from __future__ import annotations

from dataclasses import dataclass

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
"""天乙貴人 variants (notes/liuyao-tables.md §4.14, notes/liuren-algorithm.md §4.8). Default: A."""

DEFAULT_NOBLE_TABLE = "A"
