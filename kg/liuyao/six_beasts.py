"""六神 (六獸): assigned by the day stem, from line 1 upward, cyclically
青龍 → 朱雀 → 勾陳 → 螣蛇 → 白虎 → 玄武.

Source: 《卜筮正宗》 排六神歌 "甲乙起青龍，丙丁起朱雀，戊日起勾陳，己日起螣蛇，庚辛起白虎，壬癸起玄武"
(docs/liuyao-doctrine.md §4.4).
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache

from kg.ganzhi import Stem


class Beast(IntEnum):
    """六神, in the order they run up the lines."""

    QINGLONG = 0
    ZHUQUE = 1
    GOUCHEN = 2
    TENGSHE = 3
    BAIHU = 4
    XUANWU = 5

    @property
    def char(self) -> str:
        return ("青龍", "朱雀", "勾陳", "螣蛇", "白虎", "玄武")[self]

    @property
    def slug(self) -> str:
        return self.name.lower()


FIRST_BEAST: tuple[Beast, ...] = (
    Beast.QINGLONG, Beast.QINGLONG, Beast.ZHUQUE, Beast.ZHUQUE, Beast.GOUCHEN,
    Beast.TENGSHE, Beast.BAIHU, Beast.BAIHU, Beast.XUANWU, Beast.XUANWU,
)  # fmt: skip
"""The beast on line 1 for each day stem 甲 … 癸."""


@cache
def beasts(day_stem: Stem) -> tuple[Beast, ...]:
    """六神 of lines 1 → 6 on a day with stem ``day_stem``."""
    return tuple(Beast((FIRST_BEAST[day_stem] + i) % 6) for i in range(6))
