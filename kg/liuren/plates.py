"""天地盤: 月將, 占時, 局 and the 寄宮 of the ten stems.

The 天盤 is the 地盤 turned so that the 月將 sits on the 占時 (月將加時). Only the offset
between the two plates matters, so a plate is stored as one integer ``shift``: the 天盤
branch over 地盤 ``e`` is ``(e + shift) % 12``. 第N局 ⇔ ``shift == -(N - 1) mod 12``
(docs/liuren-doctrine.md §4.3; tests/fixtures/README.md "Definition of 局").
"""

from __future__ import annotations

from datetime import datetime
from enum import IntEnum
from typing import NamedTuple

from kg.calendar import Term, last_zhongqi
from kg.errors import InputError
from kg.ganzhi import Branch, Stem

BRANCHES: tuple[Branch, ...] = tuple(Branch)
"""The twelve branches by index: ``BRANCHES[i]`` is cheaper than ``Branch(i)``."""

STEMS: tuple[Stem, ...] = tuple(Stem)


class MonthGeneral(NamedTuple):
    """月將: the branch of the sun's palace (太陽過宮) and its general's name."""

    branch: Branch
    name: str
    zhongqi: str
    """The 中氣 from which this 將 rules."""


MONTH_GENERALS: tuple[MonthGeneral, ...] = tuple(
    MonthGeneral(Branch.from_char(b), name, qi)
    for qi, b, name in (
        ("雨水", "亥", "登明"),
        ("春分", "戌", "河魁"),
        ("穀雨", "酉", "從魁"),
        ("小滿", "申", "傳送"),
        ("夏至", "未", "小吉"),
        ("大暑", "午", "勝光"),
        ("處暑", "巳", "太乙"),
        ("秋分", "辰", "天罡"),
        ("霜降", "卯", "太沖"),
        ("小雪", "寅", "功曹"),
        ("冬至", "丑", "大吉"),
        ("大寒", "子", "神后"),
    )
)
"""月將 by 中氣, the 將 changing at each 中氣 (docs/liuren-doctrine.md §4.2; 《六壬大全》
卷一 月將; the 太陽過宮 variant by true solar longitude is not implemented)."""

_GENERAL_BY_BRANCH: dict[Branch, MonthGeneral] = {g.branch: g for g in MONTH_GENERALS}
_GENERAL_BY_ZHONGQI: dict[str, MonthGeneral] = {g.zhongqi: g for g in MONTH_GENERALS}
_GENERAL_BY_TEXT: dict[str, MonthGeneral] = {
    **{g.name: g for g in MONTH_GENERALS},
    **{g.branch.char: g for g in MONTH_GENERALS},
    "神後": _GENERAL_BY_BRANCH[Branch.ZI],
    "天魁": _GENERAL_BY_BRANCH[Branch.XU],
}
"""Accepted spellings: the branch, the general's name, and the variants 神後 (for 神后) and
天魁 (another name of 河魁)."""


def month_general(branch: Branch) -> MonthGeneral:
    """The 月將 record of a branch (every branch is the 將 of one month)."""
    return _GENERAL_BY_BRANCH[branch]


def parse_month_general(text: str) -> MonthGeneral:
    """A 月將 given as its branch (``戌``) or its name (``河魁``)."""
    general = _GENERAL_BY_TEXT.get(text.strip())
    if general is None:
        names = " ".join(f"{g.name}({g.branch.char})" for g in MONTH_GENERALS)
        raise InputError(f"unknown 月將 {text!r}: give a branch or one of {names}")
    return general


def month_general_at(moment: datetime) -> tuple[MonthGeneral, Term]:
    """月將 at a moment: the 將 of the last 中氣 at or before it, with that 中氣."""
    term = last_zhongqi(moment)
    return _GENERAL_BY_ZHONGQI[term.name], term


LODGING: tuple[Branch, ...] = tuple(Branch.from_char(c) for c in "寅辰巳未巳未申戌亥丑")
"""寄宮, the palace each stem is lodged in, 甲 … 癸: 《六壬金鉸剪》 "甲課寅，乙課辰，丙戊課巳，
丁己課未，庚課申，辛課戌，壬課亥，癸課丑" (docs/liuren-doctrine.md §4.1)."""


def ju_of(general: Branch, hour: Branch) -> int:
    """局 number of 月將 ``general`` on 占時 ``hour``: N = ((H − J) mod 12) + 1."""
    return (hour - general) % 12 + 1


def shift_of_ju(ju: int) -> int:
    """The plate offset of 第 ``ju`` 局: 天盤 over 地盤 e is e + shift."""
    return (1 - ju) % 12


def check_ju(ju: int) -> int:
    """A 局 number, validated: 1 (伏吟) … 12."""
    if isinstance(ju, bool) or not isinstance(ju, int) or not 1 <= ju <= 12:
        raise InputError(f"局 number {ju!r} is outside 1–12 (第1局 伏吟 … 第12局)")
    return ju


class Rank(IntEnum):
    """孟仲季 of a branch: 孟 寅申巳亥 (長生), 仲 子午卯酉 (帝旺), 季 辰戌丑未 (墓)."""

    MENG = 0
    ZHONG = 1
    JI = 2

    @property
    def char(self) -> str:
        return "孟仲季"[self]

    @property
    def slug(self) -> str:
        return self.name.lower()


RANK: tuple[Rank, ...] = tuple((Rank.ZHONG, Rank.JI, Rank.MENG)[i % 3] for i in range(12))
"""孟仲季 of each branch by index: 子 仲, 丑 季, 寅 孟, … (index mod 3: 0 仲, 1 季, 2 孟)."""
