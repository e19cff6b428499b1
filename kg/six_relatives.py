"""六親: the relation of an element to a reference element, "我" (the self).

同我 兄弟, 我生 子孫, 我克 妻財, 克我 官鬼, 生我 父母. Source: 《火珠林》 / 京房; 《增刪卜易·用神章》
(docs/liuyao-doctrine.md §4.3). Doctrine shared by the chart systems: in 六爻 "我" is the palace
element of the hexagram, and lines of the changed hexagram (變卦) are reckoned against the
**original** hexagram's palace (《增刪卜易》, 《卜筮正宗》); in 大六壬 "我" is the day stem. The
caller passes the reference element.
"""

from __future__ import annotations

from enum import IntEnum

from kg.ganzhi import Element


class Relative(IntEnum):
    """六親 (five relatives), numbered by the step from the reference element in the 生 cycle:
    0 同我, 1 我生, 2 我克, 3 克我, 4 生我."""

    XIONGDI = 0
    ZISUN = 1
    QICAI = 2
    GUANGUI = 3
    FUMU = 4

    @property
    def char(self) -> str:
        return ("兄弟", "子孫", "妻財", "官鬼", "父母")[self]

    @property
    def slug(self) -> str:
        return self.name.lower()


_BY_STEP: tuple[Relative, ...] = tuple(Relative)
"""The relatives by their step (indexing this is much cheaper than calling the enum)."""


def relative(me: Element, other: Element) -> Relative:
    """六親 of the element ``other`` seen from ``me`` (the palace element in 六爻, the day stem's in 大六壬)."""
    return _BY_STEP[(other - me) % 5]
