"""四課: the four lessons raised from the day 干支 on the plate.

| lesson | lower | upper |
|---|---|---|
| 1課 | 日干 (seated on its 寄宮) | 干上神 = the 天盤 branch over the 寄宮 |
| 2課 | 干上神 | the 天盤 branch over it |
| 3課 | 日支 | 支上神 |
| 4課 | 支上神 | the 天盤 branch over it |

(docs/liuren-doctrine.md §4.4; 《六壬大全》 卷一 "四課".) The relation of upper to lower uses
the stem's own element for 1課.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from kg.ganzhi import BRANCH_ELEMENT, Branch, GanZhi, Stem
from kg.liuren.plates import BRANCHES, LODGING


class Relation(IntEnum):
    """The 生克 of a lesson's upper to its lower."""

    SHANG_KE_XIA = 0
    """上克下: the upper overcomes the lower."""
    XIA_ZEI_SHANG = 1
    """下賊上: the lower overcomes the upper."""
    SHANG_SHENG_XIA = 2
    """上生下: the upper generates the lower."""
    XIA_SHENG_SHANG = 3
    """下生上: the lower generates the upper."""
    BI_HE = 4
    """比和: same element."""

    @property
    def char(self) -> str:
        return ("上克下", "下賊上", "上生下", "下生上", "比和")[self]

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")

    @property
    def is_ke(self) -> bool:
        """True for the two 克 relations (上克下, 下賊上)."""
        return self <= Relation.XIA_ZEI_SHANG


BRANCH_EL: tuple[int, ...] = tuple(int(e) for e in BRANCH_ELEMENT)
"""Element index of each branch, as plain ints for the hot paths."""
STEM_EL: tuple[int, ...] = tuple(s // 2 for s in range(10))
"""Element index of each stem: 甲乙 木, 丙丁 火, 戊己 土, 庚辛 金, 壬癸 水."""

_RELATION_BY_DIFF: tuple[Relation, ...] = (
    Relation.BI_HE,
    Relation.SHANG_SHENG_XIA,
    Relation.SHANG_KE_XIA,
    Relation.XIA_ZEI_SHANG,
    Relation.XIA_SHENG_SHANG,
)
"""Relation by (lower element − upper element) mod 5 in the generating order 木火土金水."""


def relation(upper_element: int, lower_element: int) -> Relation:
    """生克 of an upper element to a lower one."""
    return _RELATION_BY_DIFF[(lower_element - upper_element) % 5]


class Lesson(NamedTuple):
    """One 課: its number (1–4), the upper (天盤) branch, the lower (the stem for 1課)."""

    number: int
    upper: Branch
    lower: Stem | Branch
    relation: Relation


def four_lessons(day: GanZhi, shift: int) -> tuple[Lesson, Lesson, Lesson, Lesson]:
    """The 四課 of ``day`` on a plate whose 天盤 over 地盤 e is e + ``shift``."""
    stem, branch = day
    u1 = (LODGING[stem] + shift) % 12
    u2 = (u1 + shift) % 12
    u3 = (branch + shift) % 12
    u4 = (u3 + shift) % 12
    return (
        Lesson(1, BRANCHES[u1], stem, relation(BRANCH_EL[u1], STEM_EL[stem])),
        Lesson(2, BRANCHES[u2], BRANCHES[u1], relation(BRANCH_EL[u2], BRANCH_EL[u1])),
        Lesson(3, BRANCHES[u3], branch, relation(BRANCH_EL[u3], BRANCH_EL[branch])),
        Lesson(4, BRANCHES[u4], BRANCHES[u3], relation(BRANCH_EL[u4], BRANCH_EL[u3])),
    )
