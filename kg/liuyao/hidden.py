"""伏神 and 飛神: relatives absent from the hexagram, taken from its palace's pure hexagram.

If one of the five relatives is absent from the 本卦, take the line of the palace's pure (首)
hexagram at the same position that carries it: that line is the 伏神, and the 本卦 line above it
is the 飛神 (《增刪卜易·飛伏神章第二十八》; 《卜筮正宗》; docs/liuyao-doctrine.md §4.6). In every
pure hexagram each missing relative occurs exactly once, so the choice is never ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cache

from kg.ganzhi import Element, GanZhi
from kg.liuyao.hexagrams import Hexagram, hexagram
from kg.six_relatives import Relative, relative


class FuShenMode(StrEnum):
    """Which positions receive a 伏神."""

    MISSING = "missing"
    """Only the relatives absent from the 本卦 (《增刪卜易》, 《卜筮正宗》). Default."""
    ALL = "all"
    """Every position (逐爻全標, 易隱 / 斷易天機 style)."""


class FlyingRelation(IntEnum):
    """How a 飛神 stands to the 伏神 under it, numbered by the step from the flying line's element
    to the hidden line's in the 生 cycle."""

    BI_HE = 0
    """比和: same element."""
    FEI_SHENG_FU = 1
    """飛來生伏: the flying line generates the hidden one."""
    FEI_KE_FU = 2
    """飛來克伏: the flying line overcomes the hidden one."""
    FU_KE_FEI = 3
    """伏克飛神: the hidden line overcomes the flying one."""
    FU_SHENG_FEI = 4
    """伏去生飛: the hidden line generates the flying one."""

    @property
    def char(self) -> str:
        return ("比和", "飛來生伏", "飛來克伏", "伏克飛神", "伏去生飛")[self]

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")


_FLYING_RELATIONS: tuple[FlyingRelation, ...] = tuple(FlyingRelation)


def flying_relation(flying: Element, hidden: Element) -> FlyingRelation:
    return _FLYING_RELATIONS[(hidden - flying) % 5]


@dataclass(frozen=True)
class Hidden:
    """A 伏神: its position, 干支 and relative (by the palace element)."""

    position: int
    ganzhi: GanZhi
    relative: Relative


@cache
def hidden_spirits(hexagram_: Hexagram, mode: FuShenMode = FuShenMode.MISSING) -> tuple[Hidden, ...]:
    """The 伏神 of a hexagram, bottom → top."""
    element = hexagram_.palace_element
    pure = hexagram(hexagram_.palace.bits * 2)
    present = {relative(element, g.branch.element) for g in hexagram_.najia}
    spirits = (Hidden(i + 1, g, relative(element, g.branch.element)) for i, g in enumerate(pure.najia))
    return tuple(h for h in spirits if mode is FuShenMode.ALL or h.relative not in present)
