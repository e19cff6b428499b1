"""卦身 (月卦身) and the 世身 variants.

月卦身 (default), 《卜筮正宗》 卦身訣 "陰世則從午月起，陽世還從子月生，欲得識其卦中意，從初數至世方真":
with 世 on line s, a yang 世 gives the branch 子丑寅卯辰巳[s], a yin 世 午未申酉戌亥[s]. The 卦身
is 上卦 on the lines carrying that branch (none in 33 of 64 hexagrams). Variants
(docs/liuyao-doctrine.md §4.7): the 世身 (身爻) of 《卜筮全書》 / 《斷易天機》, a line position read
from the 世 branch (rejected in 《卜筮正宗》 "辟卜筮全書世身之謬"); the 李淳風 form of the same; none
(《增刪卜易》 discounts 卦身).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from kg.ganzhi import Branch
from kg.liuyao.hexagrams import Hexagram


class GuaShenRule(StrEnum):
    MONTH = "month"
    """月卦身 by the 世 line's yin/yang and position (《卜筮正宗》 卦身訣). Default."""
    SHI_BUSHI = "shi-bushi"
    """世身, 《卜筮全書》 form: 子午→1 丑未→2 寅申→3 卯酉→4 辰戌→5 巳亥→6, by the 世 branch."""
    SHI_LICHUNFENG = "shi-lichunfeng"
    """世身, 李淳風 form: 亥子→1 丑戌→2 寅申→3 卯酉→4 辰未→5 巳午→6, by the 世 branch."""
    NONE = "none"
    """No 卦身 (《增刪卜易》, 新派)."""


_SHI_BODY_LINE: dict[GuaShenRule, dict[Branch, int]] = {
    GuaShenRule.SHI_BUSHI: {
        Branch.from_char(c): n
        for n, pair in enumerate(("子午", "丑未", "寅申", "卯酉", "辰戌", "巳亥"), 1)
        for c in pair
    },
    GuaShenRule.SHI_LICHUNFENG: {
        Branch.from_char(c): n
        for n, pair in enumerate(("亥子", "丑戌", "寅申", "卯酉", "辰未", "巳午"), 1)
        for c in pair
    },
}
"""世身 line position by the branch of the 世 line (docs/liuyao-doctrine.md §4.7)."""


@dataclass(frozen=True)
class GuaShen:
    """The 卦身 of a hexagram under a rule: its branch (月卦身 only) and the lines carrying it."""

    rule: GuaShenRule
    branch: Branch | None
    positions: tuple[int, ...]


@cache
def gua_shen(hexagram: Hexagram, rule: GuaShenRule = GuaShenRule.MONTH) -> GuaShen:
    """卦身 of the 本卦 under ``rule``."""
    branches = [g.branch for g in hexagram.najia]
    shi = hexagram.shi
    if rule is GuaShenRule.NONE:
        return GuaShen(rule, None, ())
    if rule is GuaShenRule.MONTH:
        start = Branch.ZI if hexagram.bits[shi - 1] else Branch.WU
        branch = start.shift(shi - 1)
        return GuaShen(rule, branch, tuple(i + 1 for i, b in enumerate(branches) if b == branch))
    return GuaShen(rule, None, (_SHI_BODY_LINE[rule][branches[shi - 1]],))
