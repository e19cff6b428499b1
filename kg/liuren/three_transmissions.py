"""三傳: the three transmissions (初傳 發用, 中傳, 末傳) by the 九宗門.

The gates are tried in the order the 720-lesson table and 《御定六壬直指》 follow
(docs/liuren-doctrine.md §4.5):

1. 伏吟 (天地盤 不動, 第1局);
2. 賊克 — 重審 (one 下賊上), 元首 (one 上克下), 知一/比用 (several, one 比 the day stem),
   涉害 (several, 俱比 or 俱不比); this also covers 返吟 with a 克 (無依);
3. 返吟 without a 克 (井欄);
4. 八專 (干支同位) without a 克, before 遙克;
5. 遙克 — 蒿矢 (a spirit 克 the day stem) before 彈射 (the day stem 克 a spirit);
6. 昴星 (四課 complete);
7. 別責 (四課 incomplete).

涉害 has one real fork, the depth count (docs/liuren-doctrine.md §4.6); :class:`ShehaiVariant` names both readings.
The two lessons on which the 720 table departs from the 《指南》 rule are data in
:data:`TABLE_720_READINGS`, applied only when :attr:`DisputedReading.TABLE_720` is chosen.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple

from kg.ganzhi import PUNISHMENT, Branch, GanZhi
from kg.liuren.four_lessons import BRANCH_EL, STEM_EL, Lesson, Relation
from kg.liuren.plates import BRANCHES, LODGING, RANK, Rank
from kg.shensha import GROUP_STARS


class Method(IntEnum):
    """The 課 by which the 三傳 were raised (九宗門; 賊克 split into 元首/重審, 比用 named 知一)."""

    YUANSHOU = 0
    """元首: a single 上克下 (賊克 門)."""
    CHONGSHEN = 1
    """重審: a single 下賊上 (賊克 門)."""
    ZHIYI = 2
    """知一 (比用 門): several 克, exactly one 比 the day stem."""
    SHEHAI = 3
    """涉害: several 克, 俱比 or 俱不比."""
    YAOKE = 4
    """遙克: no 克 in the lessons; a spirit and the day stem overcome each other at a distance."""
    MAOXING = 5
    """昴星: no 克, no 遙克, 四課 complete: the 酉 (昴宿) decides."""
    BIEZE = 6
    """別責: no 克, no 遙克, 四課 incomplete (not 八專)."""
    BAZHUAN = 7
    """八專: 干支同位 (甲寅 庚申 丁未 己未 癸丑) without a 克."""
    FUYIN = 8
    """伏吟: 天盤 = 地盤 (第1局)."""
    FANYIN = 9
    """返吟: every branch on its 沖 (第7局)."""

    @property
    def char(self) -> str:
        return ("元首", "重審", "知一", "涉害", "遙克", "昴星", "別責", "八專", "伏吟", "返吟")[self]

    @property
    def slug(self) -> str:
        return self.name.lower()


class SubType(IntEnum):
    """Named sub-types of a method (《課經》, 《指南》)."""

    ZIREN = 0
    """自任: 伏吟, 初傳 = 干上神 (陽日, or a 克 in 1課)."""
    ZIXIN = 1
    """自信: 伏吟 陰日 without a 克, 初傳 = 支上神."""
    DUCHUAN = 2
    """杜傳: 伏吟 whose 初傳 is 自刑, so 中傳 is the other of 干上/支上 神."""
    WUYI = 3
    """無依: 返吟 with a 克 (三傳 go and come back)."""
    JINGLAN = 4
    """井欄 (井欄射, 無親): 返吟 without a 克, 初傳 = 驛馬 of the 日支."""
    JIANJI = 5
    """見機: 涉害 decided by the candidate on a 孟 seat."""
    CHAWEI = 6
    """察微: 涉害 decided by the candidate on a 仲 seat."""
    ZHUIXIA = 7
    """綴瑕 (復等): 涉害 still tied; 陽日 takes the 干課, 陰日 the 支課."""
    SHEHAI_SHEN = 8
    """涉害深: 涉害 decided by the greater depth (only with :attr:`ShehaiVariant.KEJING`)."""
    HAOSHI = 9
    """蒿矢: 遙克 where a spirit overcomes the day stem (神遙克日)."""
    DANSHE = 10
    """彈射: 遙克 where the day stem overcomes a spirit (日遙克神)."""
    MOYUE = 11
    """蓦越: 遙克 with several candidates, decided by the one 比 the day stem (《直指》)."""
    HUSHI = 12
    """虎視 (轉蓬): 昴星 on a 陽日, 初傳 = the 天盤 over 地盤 酉."""
    YANMU = 13
    """冬蛇掩目: 昴星 on a 陰日, 初傳 = the 地盤 under 天盤 酉."""
    DUZU = 14
    """獨足: 八專 whose three transmissions are one branch."""

    @property
    def char(self) -> str:
        return _SUBTYPE_CHARS[self]

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")


_SUBTYPE_CHARS = (
    "自任",
    "自信",
    "杜傳",
    "無依",
    "井欄",
    "見機",
    "察微",
    "綴瑕",
    "涉害深",
    "蒿矢",
    "彈射",
    "蓦越",
    "虎視",
    "冬蛇掩目",
    "獨足",
)


class ShehaiVariant(StrEnum):
    """How 涉害 chooses among tied 克 (docs/liuren-doctrine.md §4.6)."""

    ZHINAN = "zhinan"
    """V3, 《六壬指南》/《經緯》/《粹言》: no depth count; 孟 (見機) → 仲 (察微) → 綴瑕.
    Reproduces 718/720 of the 720-lesson table and every discriminating lesson of 《直指》."""
    KEJING = "kejing"
    """V1s, 《課經》 depth count: from the candidate's seat forward to its home, count each 地盤
    branch and each stem lodged there in the lesson's 克 relation (the seat and its 寄干
    included, the home excluded); the deepest wins (涉害深), then 孟 → 仲 → 綴瑕."""


class DisputedReading(StrEnum):
    """Which reading to follow on the lessons where the sources split (:data:`TABLE_720_READINGS`)."""

    ZHINAN = "zhinan"
    """The rule as written (《指南》: a 陽日 takes the 干上神): 戊辰/戊戌 第7局 → 亥巳亥."""
    TABLE_720 = "720-table"
    """The 720-lesson table's reading: 戊辰/戊戌 第7局 → 巳亥巳."""


class TableReading(NamedTuple):
    """A lesson where a source's 初傳 departs from the rule, with the source."""

    day: str
    ju: int
    first: Branch
    source: str


_TABLE_720_SOURCE = (
    "大六壬720課 (web page copied in GitHub max65536/daliuren-lib, ju/{file}, commit 3ba16493bd89); "
    "涉害 tie of 巳 and 亥 both on 孟 seats in 返吟; the 《指南》 rule and the 涉害 commentary "
    '("陽日取干上神") give 亥; 《御定六壬直指》 names the lesson 見機 with "課傳俱空", which fits '
    "either (docs/liuren-doctrine.md §4.6, tests/fixtures/README.md)"
)

TABLE_720_READINGS: dict[tuple[int, int], TableReading] = {
    (GanZhi.from_name(r.day).index, r.ju): r
    for r in (
        TableReading("戊辰", 7, Branch.SI, _TABLE_720_SOURCE.format(file="0006-戊辰.txt")),
        TableReading("戊戌", 7, Branch.SI, _TABLE_720_SOURCE.format(file="0036-戊戌.txt")),
    )
}
"""The 720-lesson table's 初傳 where it departs from the 《指南》 涉害 rule, keyed by
(day index in the sixty-cycle, 局)."""


class Transmissions(NamedTuple):
    """The 三傳 and how they were raised."""

    branches: tuple[Branch, Branch, Branch]
    """初傳 (發用), 中傳, 末傳."""
    method: Method
    subtypes: tuple[SubType, ...]
    rule: Method | None
    """For 返吟 with a 克: the 賊克 rule that chose the 初傳 (元首, 重審, 知一 or 涉害)."""
    reading: TableReading | None
    """The source reading applied instead of the rule (:class:`DisputedReading`), if any."""


_HORSE = next(t for t in GROUP_STARS if t.slug == "yima")
YIMA: tuple[Branch, ...] = tuple(Branch(_HORSE.at(b)) for b in Branch)
"""驛馬 of each day branch: 申子辰 → 寅, 寅午戌 → 申, 巳酉丑 → 亥, 亥卯未 → 巳 (docs/liuren-doctrine.md §4.1; the table of
:data:`kg.shensha.GROUP_STARS`)."""

_LODGED: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(10) if LODGING[s] == b) for b in range(12)
)
"""The stems lodged in each branch (寄干): 寅 甲, 辰 乙, 巳 丙戊, 未 丁己, 申 庚, 戌 辛, 亥 壬, 丑 癸."""


def _overcomes(a: int, b: int) -> bool:
    return (b - a) % 5 == 2


def _depth(candidate: int, shift: int, zei: bool) -> int:
    """《課經》 涉害 depth of ``candidate`` (seated at candidate − shift), walking to its home."""
    u = BRANCH_EL[candidate]
    total = 0
    for step in range(shift):
        seat = (candidate - shift + step) % 12
        elements = (BRANCH_EL[seat], *(STEM_EL[s] for s in _LODGED[seat]))
        total += sum(_overcomes(x, u) if zei else _overcomes(u, x) for x in elements)
    return total


_DEPTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_depth(c, shift, zei) for shift in range(12)) for c in range(12)) for zei in (False, True)
)
"""Precomputed 涉害 depth: ``_DEPTH[zei][candidate][shift]``."""


def _zhuixia(pool: list[int], lessons: tuple[Lesson, ...], yang: bool) -> int:
    """綴瑕: 陽日 the first candidate among 1課, 2課 (then 3, 4); 陰日 among 3課, 4課 (then 1, 2)."""
    order = (0, 1, 2, 3) if yang else (2, 3, 0, 1)
    return next(lessons[i].upper for i in order if lessons[i].upper in pool)


def _shehai(
    pool: list[int],
    lessons: tuple[Lesson, ...],
    shift: int,
    yang: bool,
    variant: ShehaiVariant,
    zei: bool,
) -> tuple[int, SubType]:
    """涉害 among ``pool`` (``zei``: the candidates are 下賊上, else 上克下)."""
    if variant is ShehaiVariant.KEJING:
        depths = [_DEPTH[zei][c][shift] for c in pool]
        deepest = max(depths)
        pool = [c for c, d in zip(pool, depths, strict=True) if d == deepest]
        if len(pool) == 1:
            return pool[0], SubType.SHEHAI_SHEN
    for rank, subtype in ((Rank.MENG, SubType.JIANJI), (Rank.ZHONG, SubType.CHAWEI)):
        on_rank = [c for c in pool if RANK[(c - shift) % 12] is rank]
        if len(on_rank) == 1:
            return on_rank[0], subtype
        if on_rank:
            return _zhuixia(on_rank, lessons, yang), SubType.ZHUIXIA
    return _zhuixia(pool, lessons, yang), SubType.ZHUIXIA


def three_transmissions(
    day: GanZhi,
    ju: int,
    lessons: tuple[Lesson, Lesson, Lesson, Lesson],
    variant: ShehaiVariant = ShehaiVariant.ZHINAN,
    disputed: DisputedReading = DisputedReading.ZHINAN,
) -> Transmissions:
    """Raise the 三傳 of ``day`` in 第 ``ju`` 局 from its 四課 (see the module docstring)."""
    stem, branch = day
    shift = (1 - ju) % 12
    yang = stem % 2 == 0
    gan_up = lessons[0].upper
    zhi_up = lessons[2].upper

    if shift == 0:
        return _fuyin(lessons, yang, gan_up, zhi_up)

    zei = [ls.upper for ls in lessons if ls.relation is Relation.XIA_ZEI_SHANG]
    ke = zei or [ls.upper for ls in lessons if ls.relation is Relation.SHANG_KE_XIA]
    if ke:
        pool = list(dict.fromkeys(ke))
        subtypes: tuple[SubType, ...] = ()
        reading = None
        if len(pool) == 1:
            first, rule = pool[0], Method.CHONGSHEN if zei else Method.YUANSHOU
        else:
            bi = [c for c in pool if c % 2 == stem % 2]
            if len(bi) == 1:
                first, rule = bi[0], Method.ZHIYI
            else:
                first, sub = _shehai(bi or pool, lessons, shift, yang, variant, bool(zei))
                rule, subtypes = Method.SHEHAI, (sub,)
                if disputed is DisputedReading.TABLE_720:
                    reading = TABLE_720_READINGS.get((day.index, ju))
                    if reading is not None:
                        first = reading.first
        middle = (first + shift) % 12
        chain = (BRANCHES[first], BRANCHES[middle], BRANCHES[(middle + shift) % 12])
        if shift == 6:
            return Transmissions(chain, Method.FANYIN, (SubType.WUYI, *subtypes), rule, reading)
        return Transmissions(chain, rule, subtypes, None, reading)

    if shift == 6:
        chain = (YIMA[branch], zhi_up, gan_up)
        return Transmissions(chain, Method.FANYIN, (SubType.JINGLAN,), None, None)

    if LODGING[stem] == branch:
        first = (gan_up + 2) % 12 if yang else (lessons[3].upper - 2) % 12
        subtypes = (SubType.DUZU,) if first == gan_up else ()
        return Transmissions((BRANCHES[first], gan_up, gan_up), Method.BAZHUAN, subtypes, None, None)

    stem_el = STEM_EL[stem]
    uppers = list(dict.fromkeys(ls.upper for ls in lessons[1:]))
    pool = [u for u in uppers if _overcomes(BRANCH_EL[u], stem_el)]
    subtype = SubType.HAOSHI
    if not pool:
        pool = [u for u in uppers if _overcomes(stem_el, BRANCH_EL[u])]
        subtype = SubType.DANSHE
    if pool:
        subtypes = (subtype,)
        if len(pool) == 1:
            first = pool[0]
        else:
            # 蓦越: keep the one 比 the day stem; over the 720 lessons this never leaves a tie
            # (docs/liuren-doctrine.md §4.5), so exactly one is unpacked.
            (first,) = (c for c in pool if c % 2 == stem % 2)
            subtypes = (subtype, SubType.MOYUE)
        middle = (first + shift) % 12
        chain = (BRANCHES[first], BRANCHES[middle], BRANCHES[(middle + shift) % 12])
        return Transmissions(chain, Method.YAOKE, subtypes, None, None)

    if len(set(uppers) | {gan_up}) == 4:
        if yang:
            chain = (BRANCHES[(Branch.YOU + shift) % 12], zhi_up, gan_up)
            return Transmissions(chain, Method.MAOXING, (SubType.HUSHI,), None, None)
        chain = (BRANCHES[(Branch.YOU - shift) % 12], gan_up, zhi_up)
        return Transmissions(chain, Method.MAOXING, (SubType.YANMU,), None, None)

    first = (LODGING[(stem + 5) % 10] + shift) % 12 if yang else (branch + 4) % 12
    return Transmissions((BRANCHES[first], gan_up, gan_up), Method.BIEZE, (), None, None)


def _fuyin(lessons: tuple[Lesson, ...], yang: bool, gan_up: Branch, zhi_up: Branch) -> Transmissions:
    """伏吟: 初 干上神 (有克 or 陽日, 自任) or 支上神 (陰日, 自信); 中 刑初, 末 刑中, with 杜傳 for a
    自刑 初 and 沖中 when 刑中 is 自刑 or returns to 初 (docs/liuren-doctrine.md §4.5.1)."""
    if lessons[0].relation.is_ke or yang:
        first, subtypes = gan_up, (SubType.ZIREN,)
    else:
        first, subtypes = zhi_up, (SubType.ZIXIN,)
    if PUNISHMENT[first] == first:
        middle = zhi_up if first == gan_up else gan_up
        subtypes = (*subtypes, SubType.DUCHUAN)
    else:
        middle = PUNISHMENT[first]
    last = PUNISHMENT[middle]
    if last in (middle, first):
        last = BRANCHES[(middle + 6) % 12]
    return Transmissions((first, middle, last), Method.FUYIN, subtypes, None, None)
