"""The 六爻 chart (排盤) of a cast: every fact of docs/liuyao-doctrine.md §4, as frozen values.

:func:`cast_chart` takes the pillars and six line values; :func:`chart_from_inputs` is the entry
point for the command line. Every doctrinal choice is a named field of :class:`Options` with its
default documented; a chart records the options it was made with.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from datetime import datetime
from enum import IntEnum, StrEnum
from functools import cache
from typing import TypeVar

from kg.calendar import CalendarRecord, Pillars, ZiHourRule, given_pillars, next_jie, parse_moment, pillars_at
from kg.errors import InputError
from kg.ganzhi import (
    CHANGSHENG_VARIANTS,
    THREE_HARMONIES,
    Branch,
    Element,
    GanZhi,
    SeasonalState,
    Stage,
    Stem,
    clashes,
    combines,
    seasonal_state,
    stage,
    tomb,
)
from kg.liuyao.body import GuaShen, GuaShenRule, gua_shen
from kg.liuyao.cast import find_hexagram, parse_coins, parse_moving, parse_values, values_from_hexagram
from kg.liuyao.hexagrams import Hexagram, hexagram
from kg.liuyao.hidden import FlyingRelation, FuShenMode, flying_relation, hidden_spirits
from kg.liuyao.six_beasts import Beast, beasts
from kg.shensha import (
    DEFAULT_NOBLE_TABLE,
    DEFAULT_TIAN_XI,
    DEFAULT_YANG_REN,
    GROUP_STARS,
    LU,
    MONTH_STARS,
    NOBLE_TABLES,
    QI_STARS,
    SUI_DE,
    TIAN_XI,
    WEN_CHANG,
    YANG_REN,
    YEAR_STARS,
    Basis,
    Star,
    StarTable,
    is_tian_she,
)
from kg.six_relatives import Relative, relative

# ── options ─────────────────────────────────────────────────────────────────────────────────


class MonthBreakRule(StrEnum):
    """How long a 月破 lasts."""

    IN_MONTH = "in-month"
    """出月不破: only within the month of the cast (《增刪卜易·月破章》). Default."""
    ALWAYS = "always"
    """Permanent, as some apps keep it."""


class FanYinRule(StrEnum):
    """What makes a trigram 反吟 (卦反吟), docs/liuyao-doctrine.md §7.5."""

    BRANCHES = "branches"
    """《增刪卜易·反伏章》: every line of a moving trigram changes into the branch that clashes it
    (巽之觀, 觀之坤: only 巽 ↔ 坤), and 卦變 反吟, a 八純 卦 all six of whose lines move (乾變坤). Default."""
    HOUTIAN = "houtian"
    """《卜筮正宗》: a moving trigram changes into the one opposite it on the 後天 circle (乾↔巽,
    坎↔離, 艮↔坤, 震↔兌)."""


class NatalElement(StrEnum):
    """How the element of the querent's 年命 (木命人, 金命人) is reckoned, docs/liuyao-doctrine.md §7.8."""

    BRANCH = "branch"
    """The element of the birth-year branch, as every entity of a 六爻 chart has. Default."""
    NAYIN = "nayin"
    """納音五行 of the birth-year 干支 (甲子乙丑海中金 …), the 三命 reckoning; needs the stem."""


class HiddenDarkMoving(StrEnum):
    """Whether a 伏神 the day clashes can be 暗動, docs/liuyao-doctrine.md §4.6."""

    YES = "yes"
    """As a static line: 暗動 when the day clashes it while it is 旺 or 相 in the month (《易隱》〈棟梁〉
    "或鬼伏六爻暗動者", "父下伏火鬼暗動"). Default."""
    NO = "no"
    """Only lines of the 本卦 move in secret (《增刪卜易·暗動章》 reads 暗動 of static lines); a 伏神 never."""


class ShenShaBase(StrEnum):
    """Which pillar the stem- and 三合-group-based 神煞 are read from."""

    DAY = "day"
    """日干 / 日支, the 六爻 practice. Default."""
    YEAR = "year"
    """年干 / 年支, the 八字 practice."""


@dataclass(frozen=True)
class Options:
    """Every doctrinal choice of the chart, with the default of docs/liuyao-doctrine.md §6."""

    fu_shen: FuShenMode = FuShenMode.MISSING
    """伏神: for missing relatives only, or at every position."""
    gua_shen: GuaShenRule = GuaShenRule.MONTH
    """卦身: 月卦身, 世身 (卜筮全書 or 李淳風 form), or none."""
    changsheng: str = "shui-tu"
    """十二長生 of 土: 'shui-tu' (水土同宮, 六爻 standard) or 'huo-tu' (火土同宮)."""
    month_break: MonthBreakRule = MonthBreakRule.IN_MONTH
    """月破 validity: the month of the cast only, or permanent."""
    noble: str = DEFAULT_NOBLE_TABLE
    """天乙貴人 table: A, B or C (kg.shensha.NOBLE_TABLES); both 晝 and 夜 branches are marked."""
    yang_ren: str = DEFAULT_YANG_REN
    """羊刃 table: A, B or C (kg.shensha.YANG_REN)."""
    tian_xi: str = DEFAULT_TIAN_XI
    """天喜 table: A (seasonal), B (協紀 monthly) or C (by year branch) (kg.shensha.TIAN_XI)."""
    shensha_base: ShenShaBase = ShenShaBase.DAY
    """Pillar for the stem- and group-based 神煞."""
    zi_hour: ZiHourRule = ZiHourRule.EARLY
    """子時 rule when pillars are computed from a moment."""
    fan_yin: FanYinRule = FanYinRule.BRANCHES
    """卦反吟: by the branches (增刪卜易) or by the 後天 circle (卜筮正宗)."""
    natal_element: NatalElement = NatalElement.BRANCH
    """Element of the 年命: of its branch, or its 納音."""
    hidden_dark_moving: HiddenDarkMoving = HiddenDarkMoving.YES
    """暗動 of a 伏神 clashed by the day: as of a static line, or never."""

    def __post_init__(self) -> None:
        for name, allowed in (
            ("changsheng", CHANGSHENG_VARIANTS),
            ("noble", NOBLE_TABLES),
            ("yang_ren", YANG_REN),
            ("tian_xi", TIAN_XI),
        ):
            if getattr(self, name) not in allowed:
                raise InputError(
                    f"option {name}={getattr(self, name)!r}: expected one of {', '.join(allowed)}"
                )

    @classmethod
    def from_names(cls, **values: str) -> Options:
        """Options from strings, e.g. ``Options.from_names(fu_shen='all', gua_shen='none')``."""
        kinds = {f.name: f.type for f in fields(cls)}
        enums = {
            "fu_shen": FuShenMode,
            "gua_shen": GuaShenRule,
            "month_break": MonthBreakRule,
            "shensha_base": ShenShaBase,
            "zi_hour": ZiHourRule,
            "fan_yin": FanYinRule,
            "natal_element": NatalElement,
            "hidden_dark_moving": HiddenDarkMoving,
        }
        converted: dict[str, object] = {}
        for name, value in values.items():
            if name not in kinds:
                raise InputError(f"unknown option {name!r}: expected one of {', '.join(kinds)}")
            if name in enums:
                choices = [m.value for m in enums[name]]
                if value not in choices:
                    raise InputError(f"option {name}={value!r}: expected one of {', '.join(choices)}")
                converted[name] = enums[name](value)
            else:
                converted[name] = value
        return cls(**converted)  # type: ignore[arg-type]

    def changed(self) -> dict[str, str]:
        """The options that differ from the defaults, as strings."""
        default = Options()
        return {
            f.name: str(getattr(self, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


# ── doctrine of moving lines ────────────────────────────────────────────────────────────────

ADVANCE: frozenset[tuple[Branch, Branch]] = frozenset(
    (Branch.from_char(p[0]), Branch.from_char(p[1]))
    for p in ("亥子", "寅卯", "巳午", "申酉", "丑辰", "辰未", "未戌")
)
"""進神 (from → to), the seven pairs of 《增刪卜易·進神退神章第二十九》; 退神 is each pair reversed.
《卜筮正宗·變出進退神論第十七》 adds 戌→丑, which no 納甲 change can produce (docs/liuyao-doctrine.md §2 and docs/liuyao-doctrine.md §4.11).
Not "the next branch of the same element", which would wrongly add 子→丑 and others."""


class ChangeRelation(IntEnum):
    """How a changed line's element stands to its moving line (《增刪卜易·動變生克沖合章》),
    numbered by the step from the moving line's element to the changed line's in the 生 cycle."""

    BI_HE = 0
    """比和: same element."""
    HUA_XIE = 1
    """化泄: the moving line generates the changed line."""
    HUA_HAO = 2
    """化耗: the moving line overcomes the changed line."""
    HUITOU_KE = 3
    """回頭克: the changed line overcomes the moving line."""
    HUITOU_SHENG = 4
    """回頭生: the changed line generates the moving line."""

    @property
    def char(self) -> str:
        return ("比和", "化泄", "化耗", "回頭克", "回頭生")[self]

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")


def change_relation(moving: Element, changed: Element) -> ChangeRelation:
    return ChangeRelation((changed - moving) % 5)


# ── doctrine of 《黃金策》 (docs/liuyao-doctrine.md §7) ───────────────────────────────────────────

VITAL_STATES = frozenset({SeasonalState.WANG, SeasonalState.XIANG})
VITAL_STAGES = frozenset({Stage.CHANGSHENG, Stage.DIWANG})
"""有氣: 旺 or 相 in the month (《黃金策》 ¶10 "得時有氣", ¶70 "旺相有氣"), or 長生 or 帝旺 at the
day (¶52 "生旺有氣"); 無氣 otherwise (docs/liuyao-doctrine.md §7.1)."""

HEAVY = 3
"""三五重 (《黃金策》 ¶12 "卦中財只一位 … 若三五重太過"): three or more appearances of a relative
among the 本卦 lines, the 變爻 of moving lines and the 伏神 (docs/liuyao-doctrine.md §7.3)."""

MANY_MOVING = 3
"""亂動: three or more moving lines; all six is 六爻亂動, 獨發 exactly one (docs/liuyao-doctrine.md §7.4)."""

HOUTIAN_OPPOSITES: frozenset[frozenset[str]] = frozenset(
    frozenset(pair) for pair in ("乾巽", "坎離", "艮坤", "震兌")
)
"""Trigrams facing each other on the 後天 circle: 卦反吟 under 《卜筮正宗》 (docs/liuyao-doctrine.md §7.5)."""


# ── chart values ────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Pillar:
    """柱: one of the year, month, day and hour 干支."""

    role: str
    """'year', 'month', 'day' or 'hour'."""
    ganzhi: GanZhi

    @property
    def char(self) -> str:
        return {"year": "年", "month": "月", "day": "日", "hour": "時"}[self.role]


@dataclass(frozen=True)
class Placed:
    """What every line (本卦, 變卦 or 伏神) has: position, 干支, 五行, 六親 and its standing."""

    position: int
    """1 (初爻) … 6 (上爻)."""
    stem: Stem
    """納甲 stem."""
    branch: Branch
    """納甲 branch."""
    element: Element
    """五行 of the branch."""
    relative: Relative
    """六親 against the 本卦's palace element."""
    void: bool
    """旬空: the branch is empty in the day's 旬."""
    seasonal: SeasonalState
    """旺相休囚死 of the element in the month (月令)."""
    stage: Stage
    """十二長生 stage of the element at the day branch."""
    month_broken: bool
    """月破: the branch 六沖 clashes the month branch."""
    day_clash: bool
    """The day branch 六沖 clashes the branch (read as 暗動, 日破 or 沖散 on 本卦 lines)."""
    vital: bool
    """有氣: 旺 or 相 in the month, or 長生 or 帝旺 at the day (無氣 when False)."""
    in_xun: bool
    """日辰旬內: the 干支 is one of the ten of the day's 旬 (旬外 when False)."""

    @property
    def ganzhi(self) -> GanZhi:
        return GanZhi(self.stem, self.branch)


@dataclass(frozen=True)
class Line(Placed):
    """An 爻 of the 本卦."""

    value: int
    """6 老陰, 7 少陽, 8 少陰, 9 老陽."""
    yang: bool
    moving: bool
    """動爻 (6 or 9)."""
    beast: Beast
    """六神 by the day stem."""
    shi: bool
    """世爻."""
    ying: bool
    """應爻."""
    gua_shen: bool
    """The line carries the 卦身 (or is the 身爻 under a 世身 rule)."""
    month_break_relieved: bool
    """逢破不破: 月破 but moving, or 臨日 / supported (生扶) by the day."""
    day_broken: bool
    """日破: a static line clashed by the day while 休囚死 in the month."""
    hidden_move: bool
    """暗動: a static line clashed by the day while 旺相 in the month."""
    dispersed: bool
    """沖散: a moving line clashed by the day while 休囚死 (旺相者沖之不散)."""
    shensha: tuple[str, ...]
    """Names of the 神煞 falling on this line (annotations under the options' variants)."""
    ghost_tomb: bool
    """隨鬼入墓: the line's 墓 is the day, a moving line or its own changed line, and that 墓 or the
    line itself is 官鬼."""
    true_palace: bool
    """真宮: the line lies in the trigram of its hexagram's palace (假宮 when False)."""


@dataclass(frozen=True)
class ChangedLine(Placed):
    """An 爻 of the 變卦. The transformation fields describe a moving line's change and are
    None / False at static positions."""

    yang: bool
    moving: bool
    """This position comes from a moving line of the 本卦."""
    shi: bool
    """世 of the 變卦."""
    ying: bool
    """應 of the 變卦."""
    relation: ChangeRelation | None
    """回頭生, 回頭克, 化泄, 化耗 or 比和."""
    clashes_back: bool
    """回頭沖 (爻反吟): the changed branch 六沖 clashes the moving one."""
    combines_back: bool
    """化合: the changed branch 六合 combines with the moving one."""
    to_void: bool
    """化空: the changed branch is 旬空."""
    to_tomb: bool
    """化墓: the changed branch is the 墓 of the moving line's element."""
    to_jue: bool
    """化絕: the changed branch is the 絕 of the moving line's element."""
    to_death: bool
    """化死: the changed branch is the 死 of the moving line's element."""
    to_break: bool
    """化破: the changed branch is 月破."""
    advance: bool
    """化進神."""
    retreat: bool
    """化退神."""
    fu_yin: bool
    """爻伏吟: the branch is unchanged (only 寅 辰 申 戌, 乾↔震)."""
    shensha: tuple[str, ...]
    true_palace: bool
    """真宮: the line lies in the trigram of the 變卦's palace (假宮 when False)."""


@dataclass(frozen=True)
class HiddenLine(Placed):
    """伏神 under the 本卦 line (飛神) at the same position."""

    flying_relation: FlyingRelation
    """飛來生伏, 飛來克伏, 伏去生飛, 伏克飛神 or 比和."""
    hidden_move: bool
    """暗動: clashed by the day while 旺 or 相 in the month, under ``Options.hidden_dark_moving``."""


class FrameKind(StrEnum):
    """How a 三合局 forms (《增刪卜易·三合章》, docs/liuyao-doctrine.md §4.12)."""

    LINES = "lines"
    """All three branches on 本卦 lines, at least two of them moving (三爻齊動, 兩動一靜)."""
    CHANGED = "changed"
    """Lines 1 and 3 (or 4 and 6) moving, one of their changed lines supplying the third."""
    DAY = "day"
    """Two moving lines, the day branch supplying the third."""
    MONTH = "month"
    """Two moving lines, the month branch supplying the third."""
    LATENT = "latent"
    """虛一待用: two moving lines, the third branch on no 本卦 line, no 變爻 of a moving line, neither
    day nor month (a static position of the 變卦 does not count, docs/liuyao-doctrine.md §4.12)."""


@dataclass(frozen=True)
class HarmonyFrame:
    """A 三合局 present in the chart."""

    element: Element
    kind: FrameKind
    line_positions: tuple[int, ...]
    """本卦 lines taking part."""
    changed_positions: tuple[int, ...]
    """變卦 lines taking part (kind CHANGED)."""
    missing: Branch | None
    """The absent branch of a 虛一待用 frame."""

    @property
    def branches(self) -> tuple[Branch, Branch, Branch]:
        return THREE_HARMONIES[self.element]


@dataclass(frozen=True)
class ShenShaHit:
    """A 神煞 of the chart: where it falls and which lines carry it."""

    name: str
    slug: str
    variant: str | None
    """The table variant used (A/B/C) where books differ."""
    basis: Basis
    key: Stem | Branch
    """The pillar stem or branch it was looked up by."""
    targets: tuple[Star, ...]
    """Branches (or stems, matched through the 納甲 stem) it falls on; empty if none."""
    positions: tuple[int, ...]
    """本卦 lines carrying it."""
    changed_positions: tuple[int, ...]
    """變卦 lines carrying it."""


@dataclass(frozen=True)
class Chart:
    """A cast chart (六爻排盤)."""

    options: Options
    calendar: CalendarRecord
    pillars: tuple[Pillar, ...]
    """年 月 日 (時) 干支."""
    values: tuple[int, ...]
    """The six line values, bottom → top."""
    hexagram: Hexagram
    """本卦."""
    changed_hexagram: Hexagram | None
    """變卦 (None without moving lines)."""
    lines: tuple[Line, ...]
    """本卦 lines 1 → 6."""
    changed_lines: tuple[ChangedLine, ...]
    """變卦 lines 1 → 6 (empty without moving lines), relatives by the 本卦's palace."""
    hidden_lines: tuple[HiddenLine, ...]
    """伏神, bottom → top."""
    void: tuple[Branch, Branch]
    """旬空 of the day."""
    gua_shen: GuaShen
    chong_to_he: bool
    """六沖變六合."""
    he_to_chong: bool
    """六合變六沖."""
    fu_yin_trigrams: tuple[str, ...]
    """卦伏吟: 'inner' / 'outer' for a moving trigram whose branches stay the same (乾↔震)."""
    fan_yin_trigrams: tuple[str, ...]
    """卦反吟: 'inner' / 'outer' for a moving trigram that is 反吟 under the options' rule."""
    frames: tuple[HarmonyFrame, ...]
    """三合局 present."""
    shensha: tuple[ShenShaHit, ...]
    tian_she: bool
    """The day is the season's 天赦日."""
    month_break_ends: datetime | None
    """When 月破 stops (出月不破): the next 節 after the cast moment under the in-month rule; None
    under the 'always' rule or when the pillars were given without a moment."""

    def pillar(self, role: str) -> GanZhi | None:
        return next((p.ganzhi for p in self.pillars if p.role == role), None)

    @property
    def month(self) -> GanZhi:
        return self.pillars[1].ganzhi

    @property
    def day(self) -> GanZhi:
        return self.pillars[2].ganzhi

    @property
    def moving_positions(self) -> tuple[int, ...]:
        return tuple(line.position for line in self.lines if line.moving)

    def appearances(self) -> Counter[Relative]:
        """How often each relative occurs among the 本卦 lines, the 變爻 of moving lines and the 伏神."""
        placed: list[Placed] = [*self.lines, *(c for c in self.changed_lines if c.moving), *self.hidden_lines]
        return Counter(p.relative for p in placed)

    def treasury_of(self, branch: Branch) -> tuple[Relative, ...]:
        """X庫: the relatives whose element has its 墓 at ``branch`` (財庫 …), by the palace element."""
        return _treasuries(self.hexagram.palace_element, self.options.changsheng).get(branch, ())

    @property
    def absent_relatives(self) -> tuple[Relative, ...]:
        """不上卦: the relatives no 本卦 line carries."""
        present = {line.relative for line in self.lines}
        return tuple(r for r in RELATIVES if r not in present)

    @property
    def twice_relatives(self) -> tuple[Relative, ...]:
        """兩現: the relatives exactly two 本卦 lines carry."""
        return tuple(r for r in RELATIVES if sum(line.relative is r for line in self.lines) == 2)

    @property
    def heavy_relatives(self) -> tuple[Relative, ...]:
        """三五重: the relatives with at least :data:`HEAVY` appearances."""
        counts = self.appearances()
        return tuple(r for r in RELATIVES if counts[r] >= HEAVY)


RELATIVES: tuple[Relative, ...] = tuple(Relative)
"""The 六親 in order (iterating the enum itself is slow)."""


@cache
def _treasuries(palace: Element, changsheng: str) -> dict[Branch, tuple[Relative, ...]]:
    """The relatives whose element has its 墓 at each branch, by the palace element (X庫)."""
    found: dict[Branch, tuple[Relative, ...]] = {}
    for r in RELATIVES:
        grave = tomb(Element((palace + r) % 5), changsheng)
        found[grave] = (*found.get(grave, ()), r)
    return found


# ── computation ─────────────────────────────────────────────────────────────────────────────

_T = TypeVar("_T")

DEFAULT_OPTIONS = Options()
_GIVEN = CalendarRecord.given()
"""The default options and the record of given pillars (frozen, so charts share them)."""

_pillar = cache(Pillar)


def _frozen(cls: type[_T], values: dict[str, object]) -> _T:
    """An instance of the frozen dataclass ``cls`` from every one of its field values, set at once:
    the generated ``__init__`` sets them one by one through ``object.__setattr__`` (3 µs a line)."""
    instance = object.__new__(cls)
    instance.__dict__.update(values)
    return instance


_RELATIVE: tuple[tuple[Relative, ...], ...] = tuple(tuple(relative(a, b) for b in Element) for a in Element)
"""六親 of element b against palace element a, ``[a][b]`` (:func:`kg.six_relatives.relative`)."""

Standing = tuple[bool, SeasonalState, Stage, bool, bool, bool]
"""A branch's 旬空, 旺相休囚死, 十二長生 at the day, 月破, clash by the day and 有氣, on one month and day."""


@cache
def _standings(month: Branch, day: GanZhi, changsheng: str) -> tuple[Standing, ...]:
    """The :data:`Standing` of each branch 子 … 亥 on a month and day (a table per day and month)."""
    void = day.xun_void
    standings = []
    for branch in Branch:
        element = branch.element
        seasonal = seasonal_state(element, month)
        day_stage = stage(element, day.branch, changsheng)
        vital = seasonal in VITAL_STATES or day_stage in VITAL_STAGES
        standings.append(
            (branch in void, seasonal, day_stage, clashes(branch, month), clashes(branch, day.branch), vital)
        )
    return tuple(standings)


def _placed(
    position: int, gz: GanZhi, palace: Element, standings: tuple[Standing, ...], xun: GanZhi
) -> dict[str, object]:
    """The :class:`Placed` fields of the 干支 ``gz`` at ``position`` (``xun``: the day's 旬首)."""
    void, seasonal, day_stage, month_broken, day_clash, vital = standings[gz.branch]
    element = gz.branch.element
    return {
        "position": position,
        "stem": gz.stem,
        "branch": gz.branch,
        "element": element,
        "relative": _RELATIVE[palace][element],
        "void": void,
        "seasonal": seasonal,
        "stage": day_stage,
        "month_broken": month_broken,
        "day_clash": day_clash,
        "vital": vital,
        "in_xun": gz.xun_head == xun,
    }


def _follows_ghost_into_tomb(
    i: int,
    najia: tuple[GanZhi, ...],
    changed: tuple[GanZhi, ...],
    moving: tuple[bool, ...],
    palace: Element,
    day: Branch,
    options: Options,
) -> bool:
    """隨鬼入墓 of the line at index ``i`` (docs/liuyao-doctrine.md §7.6)."""
    own = najia[i].branch
    grave = tomb(own.element, options.changsheng)
    carriers = {day, *(najia[k].branch for k in range(6) if moving[k] and k != i)}
    if moving[i]:
        carriers.add(changed[i].branch)
    ghost = Relative.GUANGUI
    return grave in carriers and ghost in (_RELATIVE[palace][own.element], _RELATIVE[palace][grave.element])


def _fan_yin(
    original: Hexagram, changed: Hexagram | None, moving: tuple[bool, ...], rule: FanYinRule
) -> tuple[str, ...]:
    """卦反吟 of the 內卦 and 外卦 under ``rule`` (docs/liuyao-doctrine.md §7.5)."""
    if changed is None:
        return ()
    halves = (
        ("inner", range(0, 3), original.inner, changed.inner),
        ("outer", range(3, 6), original.outer, changed.outer),
    )
    found = []
    for name, half, before, after in halves:
        if not any(moving[k] for k in half):
            continue
        if rule is FanYinRule.HOUTIAN:
            on = frozenset((before.char, after.char)) in HOUTIAN_OPPOSITES
        else:
            on = all(clashes(original.najia[k].branch, changed.najia[k].branch) for k in half) or (
                original.is_pure and all(moving)
            )
        if on:
            found.append(name)
    return tuple(found)


def carries(target: Star, gz: GanZhi) -> bool:
    return gz.stem == target if isinstance(target, Stem) else gz.branch == target


def _code(star: Star | None) -> int | None:
    """A star's key in :func:`_carriers`: a branch by its index, a stem after the twelve branches."""
    if star is None:
        return None
    return star + 12 if isinstance(star, Stem) else int(star)


@cache
def _carriers(najia: tuple[GanZhi, ...]) -> dict[int | None, tuple[int, ...]]:
    """The positions (1–6) carrying each branch and each stem of the 納甲, by :func:`_code` (a table
    per hexagram)."""
    found: dict[int | None, tuple[int, ...]] = {}
    for position, gz in enumerate(najia, 1):
        for code in (_code(gz.branch), _code(gz.stem)):
            found[code] = (*found.get(code, ()), position)
    return found


@cache
def _tables(yang_ren: str, tian_xi: str) -> tuple[tuple[StarTable, str | None, tuple[int | None, ...]], ...]:
    """The 神煞 tables a chart reads under these table variants, in the order of :attr:`Chart.shensha`
    after the 天乙貴人, with the variant each one records and the :func:`_code` of each value."""
    tables = (
        (LU, None),
        (YANG_REN[yang_ren], yang_ren),
        (WEN_CHANG, None),
        *((t, None) for t in GROUP_STARS),
        (TIAN_XI[tian_xi], tian_xi),
        *((t, None) for t in (*MONTH_STARS, *QI_STARS, *YEAR_STARS, SUI_DE)),
    )
    return tuple((table, variant, tuple(map(_code, table.values))) for table, variant in tables)


_hit = cache(lambda *fields: ShenShaHit(*fields))
"""A :class:`ShenShaHit`, made once for each value (charts share them)."""


def _shensha(
    pillars: Pillars, options: Options, najia: tuple[GanZhi, ...], changed: tuple[GanZhi, ...]
) -> tuple[ShenShaHit, ...]:
    base = pillars.day if options.shensha_base is ShenShaBase.DAY else pillars.year
    keys = {Basis.STEM: base.stem, Basis.GROUP: base.branch, Basis.MONTH: pillars.month.branch}
    keys[Basis.YEAR] = pillars.year.branch
    keys[Basis.YEAR_STEM] = pillars.year.stem
    here, there = _carriers(najia), _carriers(changed)
    noble = NOBLE_TABLES[options.noble].day_night[base.stem]
    positions = [
        tuple(sorted({p for b in noble for p in found.get(_code(b), ())})) for found in (here, there)
    ]
    hits = [_hit("天乙貴人", "tianyi", options.noble, Basis.STEM, base.stem, noble, *positions)]
    for table, variant, codes in _tables(options.yang_ren, options.tian_xi):
        key = keys[table.basis]
        value, code = table.values[key], codes[key]
        targets = () if value is None else (value,)
        hits.append(
            _hit(
                table.name,
                table.slug,
                variant,
                table.basis,
                key,
                targets,
                here.get(code, ()),
                there.get(code, ()),
            )
        )
    return tuple(hits)


def _frames(
    lines: tuple[Line, ...], changed: tuple[ChangedLine, ...], month: Branch, day: Branch
) -> tuple[HarmonyFrame, ...]:
    frames: list[HarmonyFrame] = []
    moving_lines = [(line.position, line.branch) for line in lines if line.moving]
    if len({b for _, b in moving_lines}) < 2:
        return ()
    for element, frame in THREE_HARMONIES.items():
        moving = {p: b for p, b in moving_lines if b in frame}
        moving_branches = set(moving.values())
        if len(moving_branches) < 2:
            continue
        static = {line.position: line.branch for line in lines if not line.moving and line.branch in frame}
        if moving_branches | set(static.values()) == set(frame):
            extra = tuple(p for p, b in static.items() if b not in moving_branches)
            frames.append(HarmonyFrame(element, FrameKind.LINES, tuple(sorted((*moving, *extra))), (), None))
            continue
        (third,) = set(frame) - moving_branches
        pair = next(
            (
                (a, b)
                for a, b in ((1, 3), (4, 6))
                if a in moving
                and b in moving
                and moving[a] != moving[b]
                and third in {changed[a - 1].branch, changed[b - 1].branch}
            ),
            None,
        )
        if pair is not None:
            supplied = tuple(p for p in pair if changed[p - 1].branch == third)
            frames.append(HarmonyFrame(element, FrameKind.CHANGED, pair, supplied, None))
        elif third == day:
            frames.append(HarmonyFrame(element, FrameKind.DAY, tuple(moving), (), None))
        elif third == month:
            frames.append(HarmonyFrame(element, FrameKind.MONTH, tuple(moving), (), None))
        elif third not in {c.branch for c in changed if c.moving}:
            frames.append(HarmonyFrame(element, FrameKind.LATENT, tuple(moving), (), third))
    return tuple(frames)


def cast_chart(
    pillars: Pillars,
    values: tuple[int, ...],
    options: Options | None = None,
    calendar_record: CalendarRecord | None = None,
) -> Chart:
    """The chart of a cast: pillars (at least year, month, day) and six line values bottom → top."""
    options = options or DEFAULT_OPTIONS
    calendar_record = calendar_record or _GIVEN
    if len(values) != 6 or any(v not in (6, 7, 8, 9) for v in values):
        raise InputError(f"line values {values!r}: expected six values 6–9, bottom → top")
    month, day = pillars.month, pillars.day
    original = hexagram(tuple(v % 2 for v in values))
    moving = tuple(v in (6, 9) for v in values)
    changed_hex = (
        hexagram(tuple(b ^ m for b, m in zip(original.bits, moving, strict=True))) if any(moving) else None
    )
    palace = original.palace_element
    najia = original.najia
    changed_najia = changed_hex.najia if changed_hex else ()
    shensha = _shensha(pillars, options, najia, changed_najia)
    body = gua_shen(original, options.gua_shen)
    standings = _standings(month.branch, day, options.changsheng)
    xun = day.xun_head
    day_element = day.branch.element
    line_stars: dict[int, list[str]] = {p: [] for p in range(1, 7)}
    changed_stars: dict[int, list[str]] = {p: [] for p in range(1, 7)}
    for s in shensha:
        for p in s.positions:
            line_stars[p].append(s.name)
        for p in s.changed_positions:
            changed_stars[p].append(s.name)

    lines = []
    for i, (gz, value, beast) in enumerate(zip(najia, values, beasts(day.stem), strict=True)):
        placed = _placed(i + 1, gz, palace, standings, xun)
        strong = placed["seasonal"] in VITAL_STATES
        supported = day.branch == gz.branch or (placed["element"] - day_element) % 5 in (0, 1)  # type: ignore[operator]
        clashed = placed["day_clash"]
        lines.append(
            _frozen(
                Line,
                {
                    **placed,
                    "value": value,
                    "yang": value % 2 == 1,
                    "moving": moving[i],
                    "beast": beast,
                    "shi": original.shi == i + 1,
                    "ying": original.ying == i + 1,
                    "gua_shen": i + 1 in body.positions,
                    "month_break_relieved": bool(placed["month_broken"]) and (moving[i] or supported),
                    "day_broken": clashed and not moving[i] and not strong,
                    "hidden_move": clashed and not moving[i] and strong,
                    "dispersed": clashed and moving[i] and not strong,
                    "shensha": tuple(line_stars[i + 1]),
                    "ghost_tomb": _follows_ghost_into_tomb(
                        i, najia, changed_najia, moving, palace, day.branch, options
                    ),
                    "true_palace": original.in_palace(i + 1),
                },
            )
        )

    changed_lines = []
    for i, gz in enumerate(changed_najia):
        assert changed_hex is not None
        placed = _placed(i + 1, gz, palace, standings, xun)
        o = najia[i]
        m = moving[i]
        changed_lines.append(
            _frozen(
                ChangedLine,
                {
                    **placed,
                    "yang": bool(changed_hex.bits[i]),
                    "moving": m,
                    "shi": changed_hex.shi == i + 1,
                    "ying": changed_hex.ying == i + 1,
                    "relation": change_relation(o.branch.element, gz.branch.element) if m else None,
                    "clashes_back": m and clashes(o.branch, gz.branch),
                    "combines_back": m and combines(o.branch, gz.branch),
                    "to_void": m and bool(placed["void"]),
                    "to_tomb": m and gz.branch == tomb(o.branch.element, options.changsheng),
                    "to_jue": m and stage(o.branch.element, gz.branch, options.changsheng) is Stage.JUE,
                    "to_death": m and stage(o.branch.element, gz.branch, options.changsheng) is Stage.SI,
                    "to_break": m and bool(placed["month_broken"]),
                    "advance": m and (o.branch, gz.branch) in ADVANCE,
                    "retreat": m and (gz.branch, o.branch) in ADVANCE,
                    "fu_yin": m and o.branch == gz.branch,
                    "shensha": tuple(changed_stars[i + 1]),
                    "true_palace": changed_hex.in_palace(i + 1),
                },
            )
        )

    hidden_lines = []
    for h in hidden_spirits(original, options.fu_shen):
        placed = _placed(h.position, h.ganzhi, palace, standings, xun)
        hidden_lines.append(
            _frozen(
                HiddenLine,
                {
                    **placed,
                    "flying_relation": flying_relation(
                        najia[h.position - 1].branch.element, h.ganzhi.branch.element
                    ),
                    "hidden_move": options.hidden_dark_moving is HiddenDarkMoving.YES
                    and bool(placed["day_clash"])
                    and placed["seasonal"] in VITAL_STATES,
                },
            )
        )

    halves = (("inner", range(0, 3)), ("outer", range(3, 6)))
    fu_yin_trigrams = tuple(
        name
        for name, half in halves
        if changed_lines
        and any(moving[k] for k in half)
        and all(changed_lines[k].branch == najia[k].branch for k in half)
    )

    month_break_ends = None
    if options.month_break is MonthBreakRule.IN_MONTH and calendar_record.moment is not None:
        month_break_ends = next_jie(calendar_record.moment).moment

    return _frozen(
        Chart,
        dict(
            options=options,
            calendar=calendar_record,
            pillars=tuple(
                _pillar(role, gz)
                for role, gz in zip(
                    ("year", "month", "day", "hour"), (pillars.year, month, day, pillars.hour), strict=True
                )
                if gz is not None
            ),
            values=tuple(values),
            hexagram=original,
            changed_hexagram=changed_hex,
            lines=tuple(lines),
            changed_lines=tuple(changed_lines),
            hidden_lines=tuple(hidden_lines),
            void=day.xun_void,
            gua_shen=body,
            chong_to_he=bool(changed_hex) and original.is_liu_chong and changed_hex.is_liu_he,  # type: ignore[union-attr]
            he_to_chong=bool(changed_hex) and original.is_liu_he and changed_hex.is_liu_chong,  # type: ignore[union-attr]
            fu_yin_trigrams=fu_yin_trigrams,
            fan_yin_trigrams=_fan_yin(original, changed_hex, moving, options.fan_yin),
            frames=_frames(tuple(lines), tuple(changed_lines), month.branch, day.branch),
            shensha=shensha,
            tian_she=is_tian_she(month.branch, day.stem, day.branch),
            month_break_ends=month_break_ends,
        ),
    )


def chart_from_inputs(
    moment: str | None,
    pillars: str | None,
    lines: str | None,
    hexagram: str | None,
    moving: str | None,
    coins: str | None,
    options: Options | None = None,
    accept_inconsistent_pillars: bool = False,
) -> Chart:
    """The chart for command-line inputs: a moment (ISO date-time, Beijing time unless an offset is
    given) or explicit pillars ('庚寅 戊寅 癸亥'), and one cast: line values, a hexagram name with
    optional moving lines, or coin tosses. Pillars whose month or hour stem breaks 五虎遁 or 五鼠遁
    are an input error unless ``accept_inconsistent_pillars`` (:func:`kg.calendar.given_pillars`)."""
    options = options or Options()
    if moment is None and pillars is None:
        raise InputError(
            "give either a moment (e.g. 2070-02-27T12:00) or the pillars (e.g. '庚寅 戊寅 癸亥')"
        )
    if moment is not None and pillars is not None:
        raise InputError("give a moment or the pillars, not both")
    casts = [
        name
        for name, value in (("lines", lines), ("hexagram", hexagram), ("coins", coins))
        if value is not None
    ]
    if not casts:
        raise InputError("give the cast: line values (e.g. '9 7 7 7 7 8'), a hexagram name, or coin tosses")
    if len(casts) > 1:
        raise InputError(f"give only one cast, not {' and '.join(casts)}")
    if moving is not None and hexagram is None:
        raise InputError(
            "moving lines go with a hexagram name; line values and coins already say which lines move"
        )

    if moment is not None:
        found, record = pillars_at(parse_moment(moment), options.zi_hour)
    else:
        found, record = given_pillars(pillars or "", accept_inconsistent_pillars, options.zi_hour)
    if lines is not None:
        values = parse_values(lines)
    elif hexagram is not None:
        values = values_from_hexagram(find_hexagram(hexagram), parse_moving(moving))
    else:
        values = parse_coins(coins or "")
    return cast_chart(found, values, options, record)
