"""課體: second-order names of a chart, each a small named predicate with its definition and source.

The predicates read a 課式 through :class:`ChartParts`, the parts of it they need, which
:class:`kg.liuren.chart.Chart` has (the chart derives its 課體 with :func:`derive_keti`; this
module does not import it). Where the books differ or the definition here is a reading of a
terse verse, the ``source`` string says so. Names a text gives that no rule here derives are
reported by :func:`compare_with_text` rather than forced: e.g.
《御定六壬直指》 names 癸未 第6局 勵德 although neither 貴人 sits on 卯 or 酉
(docs/liuren-doctrine.md §3).

Facts that depend on 晝/夜 (勵德, 閉口 by 玄武) use the applicable plate, or either plate when
晝/夜 is unknown (a chart given by 局 number).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from kg.ganzhi import Branch, GanZhi
from kg.liuren.four_lessons import BRANCH_EL, STEM_EL, Lesson, Relation
from kg.liuren.generals import General, Procession
from kg.liuren.plates import LODGING, RANK, Rank
from kg.liuren.three_transmissions import Method, SubType, Transmissions


class ChartParts(Protocol):
    """What the 課體 predicates read of a 課式 (see :class:`kg.liuren.chart.Chart` for each)."""

    @property
    def day(self) -> GanZhi: ...
    @property
    def hour(self) -> Branch | None: ...
    @property
    def lessons(self) -> tuple[Lesson, Lesson, Lesson, Lesson]: ...
    @property
    def derivation(self) -> Transmissions: ...
    @property
    def gan_shang(self) -> Branch: ...
    @property
    def zhi_shang(self) -> Branch: ...
    @property
    def xun_head(self) -> Branch: ...
    @property
    def xun_tail(self) -> Branch: ...
    @property
    def ding(self) -> Branch: ...
    def upper(self, earth: Branch) -> Branch: ...
    def seat_of(self, heaven: Branch) -> Branch: ...
    def generals_on(self, heaven: Branch) -> frozenset[General]: ...
    def nobles(self) -> tuple[Procession, ...]: ...


_KEJING = "《六壬大全》 卷三–六 課經 (《課經》 verses)"


@dataclass(frozen=True)
class Keti:
    """A 課體: its name, what it means here, where the definition comes from, and its test."""

    name: str
    definition: str
    source: str
    holds: Callable[[ChartParts], bool] = field(repr=False, compare=False)
    aliases: tuple[str, ...] = ()
    """Other names a text may use for the same 課體."""


def _method(method: Method) -> Callable[[ChartParts], bool]:
    """The 三傳 were raised by ``method`` (for 元首/重審/知一/涉害 also inside 返吟)."""
    return lambda c: c.derivation.method is method or c.derivation.rule is method


def _subtype(subtype: SubType) -> Callable[[ChartParts], bool]:
    return lambda c: subtype in c.derivation.subtypes


def _ke(a: int, b: int) -> bool:
    """Element ``a`` overcomes element ``b``."""
    return (b - a) % 5 == 2


def _frame(*chars: str) -> Callable[[ChartParts], bool]:
    frame = frozenset(Branch.from_char(ch) for ch in chars)
    return lambda c: frozenset(c.derivation.branches) == frame


def _steps(step: int) -> Callable[[ChartParts], bool]:
    def holds(c: ChartParts) -> bool:
        a, b, d = c.derivation.branches
        return (b - a) % 12 == step and (d - b) % 12 == step

    return holds


def _three_earth(c: ChartParts) -> bool:
    return all(BRANCH_EL[b] == 2 for b in c.derivation.branches)


def _all_meng(c: ChartParts) -> bool:
    return all(RANK[b] is Rank.MENG for b in c.derivation.branches)


def _zhuyin(c: ChartParts) -> bool:
    return c.derivation.branches == (Branch.SI, Branch.XU, Branch.MAO)


def _sanjiao(c: ChartParts) -> bool:
    return RANK[c.day.branch] is Rank.ZHONG and all(RANK[b] is Rank.ZHONG for b in c.derivation.branches)


def _zhanguan(c: ChartParts) -> bool:
    return not {c.gan_shang, c.zhi_shang}.isdisjoint((Branch.CHEN, Branch.XU))


def _bikou(c: ChartParts) -> bool:
    head, tail = c.xun_head, c.xun_tail
    return c.upper(head) == tail or c.upper(tail) == head or General.XUANWU in c.generals_on(head)


def _luowang(c: ChartParts) -> bool:
    gan_luo = (LODGING[c.day.stem] + 1) % 12
    zhi_luo = (c.day.branch + 1) % 12
    return c.gan_shang in (gan_luo, (gan_luo + 6) % 12) or c.zhi_shang in (zhi_luo, (zhi_luo + 6) % 12)


def _lide(c: ChartParts) -> bool:
    return any(p.seat in (Branch.MAO, Branch.YOU) for p in c.nobles())


def _zhuolun(c: ChartParts) -> bool:
    first = c.derivation.branches[0]
    return first is Branch.MAO and c.seat_of(first) is Branch.SHEN


def _due(c: ChartParts) -> bool:
    relations = [ls.relation for ls in c.lessons]
    return relations.count(Relation.SHANG_KE_XIA) == 3 or relations.count(Relation.XIA_ZEI_SHANG) == 3


def _lodged_on_each_other(c: ChartParts) -> bool:
    """The 支 rides the 干 palace, or the 干 palace rides the 支."""
    return c.gan_shang == c.day.branch or c.zhi_shang == LODGING[c.day.stem]


def _luanshou(c: ChartParts) -> bool:
    return _lodged_on_each_other(c) and _ke(BRANCH_EL[c.day.branch], STEM_EL[c.day.stem])


def _zhuixu(c: ChartParts) -> bool:
    return _lodged_on_each_other(c) and _ke(STEM_EL[c.day.stem], BRANCH_EL[c.day.branch])


def _youzi(c: ChartParts) -> bool:
    ding = c.ding
    return RANK[c.derivation.branches[0]] is Rank.JI and (
        ding in c.derivation.branches or any(ls.upper == ding for ls in c.lessons)
    )


def _tianwang(c: ChartParts) -> bool:
    if c.hour is None:
        return False
    stem_el = STEM_EL[c.day.stem]
    return _ke(BRANCH_EL[c.hour], stem_el) and _ke(BRANCH_EL[c.derivation.branches[0]], stem_el)


KETI: tuple[Keti, ...] = (
    # ── 九宗門 and their sub-types ──
    Keti(
        "元首",
        "a single 上克下 gives the 初傳",
        f"{_KEJING}: 元首一上克其下; docs/liuren-doctrine.md §4.5",
        _method(Method.YUANSHOU),
    ),
    Keti(
        "重審",
        "a single 下賊上 gives the 初傳",
        f"{_KEJING}: 重審一下賊乎上; docs/liuren-doctrine.md §4.5",
        _method(Method.CHONGSHEN),
    ),
    Keti(
        "知一",
        "several 克, the one 比 the day stem gives the 初傳 (比用)",
        f"{_KEJING}: 知一上下二相克，擇比而用; docs/liuren-doctrine.md §4.5",
        _method(Method.ZHIYI),
        ("比用",),
    ),
    Keti(
        "涉害",
        "several 克, 俱比 or 俱不比: decided by 涉害",
        f"{_KEJING}: 涉害俱比俱不比; docs/liuren-doctrine.md §4.6",
        _method(Method.SHEHAI),
    ),
    Keti(
        "見機",
        "涉害 decided by the candidate on a 孟 seat",
        "docs/liuren-doctrine.md §4.6 (《指南》)",
        _subtype(SubType.JIANJI),
    ),
    Keti(
        "察微",
        "涉害 decided by the candidate on a 仲 seat",
        "docs/liuren-doctrine.md §4.6 (《指南》)",
        _subtype(SubType.CHAWEI),
    ),
    Keti(
        "綴瑕",
        "涉害 still tied after 孟/仲: 陽日 the 干課, 陰日 the 支課",
        "docs/liuren-doctrine.md §4.6 (《指南》, 課經 復等)",
        _subtype(SubType.ZHUIXIA),
        ("復等",),
    ),
    Keti(
        "涉害深",
        "涉害 decided by the greater depth (《課經》 variant only)",
        "docs/liuren-doctrine.md §4.6",
        _subtype(SubType.SHEHAI_SHEN),
    ),
    Keti(
        "遙克",
        "no 克 in the lessons; a spirit and the day stem overcome each other",
        f"{_KEJING}: 遙克神日互相克",
        _method(Method.YAOKE),
    ),
    Keti(
        "蒿矢",
        "遙克 where a spirit overcomes the day stem",
        f"{_KEJING}: 蒿矢彈射勢為輕; docs/liuren-doctrine.md §4.5",
        _subtype(SubType.HAOSHI),
    ),
    Keti(
        "彈射",
        "遙克 where the day stem overcomes a spirit",
        f"{_KEJING}; docs/liuren-doctrine.md §4.5",
        _subtype(SubType.DANSHE),
    ),
    Keti(
        "蓦越",
        "遙克 with several candidates, decided by the one 比 the day stem",
        "《御定六壬直指》 (癸未2); docs/liuren-doctrine.md §4.5",
        _subtype(SubType.MOYUE),
    ),
    Keti(
        "昴星",
        "四課 complete, no 克, no 遙克: the 酉 decides",
        f"{_KEJING}: 昴宿四課無克遙",
        _method(Method.MAOXING),
    ),
    Keti(
        "虎視",
        "昴星 on a 陽日: 初傳 = the spirit over 地盤 酉",
        f"{_KEJING}: 陰伏掩目陽轉蓬 (虎視轉蓬格)",
        _subtype(SubType.HUSHI),
        ("轉蓬", "虎視轉蓬"),
    ),
    Keti(
        "冬蛇掩目",
        "昴星 on a 陰日: 初傳 = the 地盤 under 天盤 酉",
        f"{_KEJING}: 陰伏掩目陽轉蓬",
        _subtype(SubType.YANMU),
        ("掩目",),
    ),
    Keti(
        "別責",
        "四課 incomplete, no 克, no 遙克, not 八專",
        f"{_KEJING}: 別責無克三課備，剛三柔六",
        _method(Method.BIEZE),
    ),
    Keti("八專", "干支同位 without a 克", f"{_KEJING}: 八專二課俱無克", _method(Method.BAZHUAN)),
    Keti(
        "獨足",
        "八專 whose three transmissions are one branch",
        "docs/liuren-doctrine.md §4.5 (己未11 → 酉酉酉)",
        _subtype(SubType.DUZU),
    ),
    Keti("伏吟", "天盤 = 地盤 (第1局)", f"{_KEJING}: 伏吟天地俱不動", _method(Method.FUYIN)),
    Keti(
        "自任",
        "伏吟 with the 干上神 as 初傳 (陽日, or a 克 in 1課)",
        "docs/liuren-doctrine.md §4.5; 《直指》 names 癸未1 自任",
        _subtype(SubType.ZIREN),
    ),
    Keti(
        "自信",
        "伏吟 陰日 without a 克: the 支上神 as 初傳",
        "docs/liuren-doctrine.md §4.5",
        _subtype(SubType.ZIXIN),
    ),
    Keti(
        "杜傳",
        "伏吟 whose 初傳 is 自刑: the other of 干上/支上 神 as 中傳",
        "docs/liuren-doctrine.md §4.5 (some texts give 杜傳 other meanings)",
        _subtype(SubType.DUCHUAN),
    ),
    Keti(
        "返吟",
        "every spirit on its 沖 (第7局)",
        f"{_KEJING}: 返吟有克往來取",
        _method(Method.FANYIN),
        ("反吟",),
    ),
    Keti(
        "無依",
        "返吟 with a 克: the 三傳 go and come back",
        "docs/liuren-doctrine.md §4.5",
        _subtype(SubType.WUYI),
    ),
    Keti(
        "井欄",
        "返吟 without a 克: 初傳 = 驛馬 of the 日支",
        f"{_KEJING}: 井欄丑未丁己辛; docs/liuren-doctrine.md §4.5",
        _subtype(SubType.JINGLAN),
        ("井欄射", "無親"),
    ),
    # ── shapes of the 三傳 ──
    Keti("稼穡", "all three transmissions are 土", "docs/liuren-doctrine.md §4.9", _three_earth),
    Keti("從革", "三傳 巳酉丑 (金局)", "docs/liuren-doctrine.md §4.9", _frame("巳", "酉", "丑")),
    Keti("曲直", "三傳 亥卯未 (木局)", "docs/liuren-doctrine.md §4.9", _frame("亥", "卯", "未")),
    Keti("炎上", "三傳 寅午戌 (火局)", "docs/liuren-doctrine.md §4.9", _frame("寅", "午", "戌")),
    Keti("潤下", "三傳 申子辰 (水局)", "docs/liuren-doctrine.md §4.9", _frame("申", "子", "辰")),
    Keti("進茹", "三傳 consecutive forward (e.g. 子丑寅)", "docs/liuren-doctrine.md §4.9", _steps(1)),
    Keti("退茹", "三傳 consecutive backward (e.g. 巳辰卯)", "docs/liuren-doctrine.md §4.9", _steps(11)),
    Keti(
        "間傳",
        "三傳 two apart, forward or backward",
        "docs/liuren-doctrine.md §4.9",
        lambda c: _steps(2)(c) or _steps(10)(c),
    ),
    Keti(
        "元胎",
        "all three transmissions 孟 (寅申巳亥)",
        "docs/liuren-doctrine.md §4.9 (玄胎)",
        _all_meng,
        ("玄胎",),
    ),
    Keti(
        "鑄印",
        "三傳 巳 → 戌 → 卯",
        f"docs/liuren-doctrine.md §4.9; {_KEJING}: 鑄印發用戌加巳 — the verse's seat condition is not required here",
        _zhuyin,
    ),
    Keti(
        "三交",
        "a 仲 day branch and all three transmissions 仲",
        "《大六壬靈覺經》 三交格 (三傳日辰俱四仲); the further conditions (仲時, 太陰/六合 in the lessons) "
        "vary between texts and are not required — uncertain",
        _sanjiao,
    ),
    # ── seats, lessons and other facts ──
    Keti(
        "斬關",
        "辰 or 戌 is the 干上神 or 支上神",
        "docs/liuren-doctrine.md §4.9 (《直指》 uses it when not 發用)",
        _zhanguan,
    ),
    Keti(
        "閉口",
        "旬尾 and 旬首 sit on each other (either way), or the 旬首 rides 玄武",
        "docs/liuren-doctrine.md §4.9 (六壬大全 閉口課: 旬尾加旬首; the 大全 wants it as 發用, not required here); "
        "旬首 on 旬尾 from 《御定六壬直指》 癸未10 (課義 閉口居中, 解曰 中傳閉口; docs/liuren-doctrine.md §5.6)",
        _bikou,
    ),
    Keti(
        "羅網",
        "干上神 is the 干's 天羅 (寄宮+1) or 地網 (its 沖), or 支上神 the 支's",
        "docs/liuren-doctrine.md §4.9",
        _luowang,
    ),
    Keti(
        "勵德",
        "a 貴人 is seated on 地盤 卯 or 酉",
        "docs/liuren-doctrine.md §4.9; 《直指》 names 癸未6 勵德, which this rule does not derive",
        _lide,
    ),
    Keti(
        "斫輪",
        "初傳 卯 seated on 申 (庚)",
        f"{_KEJING}: 斲輪太冲申上行，卯輪庚斧; docs/liuren-doctrine.md §4.9",
        _zhuolun,
    ),
    Keti(
        "度厄",
        "three of the four lessons 上克下, or three 下賊上",
        "docs/liuren-doctrine.md §4.9 (四 of them is 無祿/絕嗣)",
        _due,
    ),
    Keti(
        "亂首",
        "the 支 rides the 干 palace or the 干 palace rides the 支, and the 支 overcomes the 干",
        "docs/liuren-doctrine.md §4.9",
        _luanshou,
    ),
    Keti(
        "贅婿",
        "the 支 rides the 干 palace or the 干 palace rides the 支, and the 干 overcomes the 支",
        "《觀月經》 in 《直指》 庚寅7: 欲知贅婿卦，將身就妻家，辰往臨其日，被克更無差 (the mirror of 亂首)",
        _zhuixu,
    ),
    Keti(
        "遊子",
        "a 季 初傳 with the 丁神 among the lessons or transmissions",
        f"{_KEJING}: 遊子季用又乘丁，再遇天馬 — 乘丁 read loosely as the 丁神 appearing, the 天馬 "
        f"not required; fits 《直指》 癸未4/7/10 (docs/liuren-doctrine.md §3 and docs/liuren-doctrine.md §4.9) — uncertain",
        _youzi,
    ),
    Keti(
        "天網",
        "the 占時 and the 初傳 both overcome the day stem",
        "《六壬大全》 天網課 (時克日，用又克日); not derived when the 占時 is unknown",
        _tianwang,
    ),
)
"""Every 課體 the chart derives, in the order they are reported."""

_BY_NAME: dict[str, Keti] = {name: k for k in KETI for name in (k.name, *k.aliases)}


def keti_named(name: str) -> Keti | None:
    """The 課體 a text's name refers to (aliases such as 反吟, 比用, 掩目 included)."""
    return _BY_NAME.get(name)


def derive_keti(chart: ChartParts) -> tuple[Keti, ...]:
    """The 課體 that hold for ``chart``."""
    return tuple(k for k in KETI if k.holds(chart))


class TextComparison(NamedTuple):
    """A chart's derived 課體 against the names a text gives the same lesson."""

    derived: tuple[str, ...]
    """Named by the text and derived."""
    named_not_derived: tuple[str, ...]
    """Named by the text, not derived by any rule here (e.g. 《直指》 癸未6 勵德), or unknown names."""
    derived_not_named: tuple[str, ...]
    """Derived but not named by the text (the texts' lists are not exhaustive)."""


def compare_with_text(chart: ChartParts, names: tuple[str, ...] | list[str]) -> TextComparison:
    """Compare the derived 課體 with the names a text gives, matching aliases."""
    holding = derive_keti(chart)
    derived, missing = [], []
    matched: set[str] = set()
    for name in names:
        keti = _BY_NAME.get(name)
        if keti is not None and keti in holding:
            derived.append(name)
            matched.add(keti.name)
        else:
            missing.append(name)
    rest = tuple(k.name for k in holding if k.name not in matched)
    return TextComparison(tuple(derived), tuple(missing), rest)
