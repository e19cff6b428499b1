"""The 六爻 chart (排盤) of a cast: every fact of docs/liuyao-doctrine.md §4, as frozen values.

:func:`cast_chart` takes the pillars and six line values; :func:`chart_from_inputs` is the entry
point for the command line. Every doctrinal choice is a named field of :class:`Options` with its
default documented; a chart records the options it was made with.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from enum import IntEnum, StrEnum
from functools import cache, lru_cache
from itertools import chain
from typing import TypeVar

from kg.calendar import CalendarRecord, Pillars, ZiHourRule, given_pillars, parse_moment, pillars_at
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
        return {name: str(value) for name, default in _DEFAULTS if (value := getattr(self, name)) != default}


_DEFAULTS = tuple((f.name, f.default) for f in fields(Options))
"""Each option's name and default."""


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


_CHANGE_RELATIONS: tuple[ChangeRelation, ...] = tuple(ChangeRelation)


def change_relation(moving: Element, changed: Element) -> ChangeRelation:
    return _CHANGE_RELATIONS[(changed - moving) % 5]


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

    def appearances(self) -> list[int]:
        """How often each relative occurs among the 本卦 lines, the 變爻 of moving lines and the 伏神, by
        relative."""
        return _counts((*self.lines, *(c for c in self.changed_lines if c.moving), *self.hidden_lines))

    @property
    def treasuries(self) -> dict[Branch, tuple[Relative, ...]]:
        """X庫 by branch: the relatives whose element has its 墓 there (財庫 …), by the palace element."""
        return _treasuries(self.hexagram.palace_element, self.options.changsheng)

    @property
    def absent_relatives(self) -> tuple[Relative, ...]:
        """不上卦: the relatives no 本卦 line carries."""
        present = {line.relative for line in self.lines}
        return tuple(r for r in RELATIVES if r not in present)

    @property
    def twice_relatives(self) -> tuple[Relative, ...]:
        """兩現: the relatives exactly two 本卦 lines carry."""
        counts = _counts(self.lines)
        return tuple(r for r in RELATIVES if counts[r] == 2)

    @property
    def heavy_relatives(self) -> tuple[Relative, ...]:
        """三五重: the relatives with at least :data:`HEAVY` appearances."""
        counts = self.appearances()
        return tuple(r for r in RELATIVES if counts[r] >= HEAVY)


RELATIVES: tuple[Relative, ...] = tuple(Relative)
"""The 六親 in order (iterating the enum itself is slow)."""


def _counts(placed: tuple[Placed, ...]) -> list[int]:
    """How many of ``placed`` carry each relative, by relative."""
    counts = [0] * len(RELATIVES)
    for p in placed:
        counts[p.relative] += 1
    return counts


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
    """An instance of the frozen dataclass ``cls`` whose fields are ``values`` (a dict the caller
    hands over and no longer changes): the generated ``__init__`` sets them one by one through
    ``object.__setattr__`` (3 µs a line)."""
    instance = object.__new__(cls)
    object.__setattr__(instance, "__dict__", values)
    return instance


_RELATIVE: tuple[tuple[Relative, ...], ...] = tuple(tuple(relative(a, b) for b in Element) for a in Element)
"""六親 of element b against palace element a, ``[a][b]`` (:func:`kg.six_relatives.relative`)."""

Fields = dict[str, object]
"""Field values of a chart value (:func:`_frozen`), or some of them."""

Standing = tuple[Fields, Fields, Fields, Fields, Fields, Fields, Fields]
"""A branch on one month and day: its :class:`Placed` fields that depend on them (旬空, 旺相休囚死,
十二長生, 月破, clash by the day, 有氣); the same with the fields that follow from them for a static
and for a moving :class:`Line` (逢破不破, 日破, 暗動, 沖散), for a :class:`ChangedLine` at a static
and at a moving position (化空, 化破), and for a :class:`HiddenLine` that may be 暗動 and one that
may not (``Options.hidden_dark_moving``)."""


@lru_cache(maxsize=2 * 720)
def _standings(month: Branch, day: GanZhi, changsheng: str) -> tuple[Standing, ...]:
    """The :data:`Standing` of each branch 子 … 亥 on a month and day (a table per day and month: all
    720 of them under both 長生 variants take about 30 MB)."""
    void = day.xun_void
    day_element = day.branch.element
    standings = []
    for branch in Branch:
        element = branch.element
        seasonal = seasonal_state(element, month)
        day_stage = stage(element, day.branch, changsheng)
        strong = seasonal in VITAL_STATES
        broken, clashed = clashes(branch, month), clashes(branch, day.branch)
        placed: Fields = {
            "void": branch in void,
            "seasonal": seasonal,
            "stage": day_stage,
            "month_broken": broken,
            "day_clash": clashed,
            "vital": strong or day_stage in VITAL_STAGES,
        }
        supported = day.branch == branch or (element - day_element) % 5 in (0, 1)
        static = placed | {
            "month_break_relieved": broken and supported,
            "day_broken": clashed and not strong,
            "hidden_move": clashed and strong,
            "dispersed": False,
        }
        moving = placed | {
            "month_break_relieved": broken,
            "day_broken": False,
            "hidden_move": False,
            "dispersed": clashed and not strong,
        }
        still = placed | {"to_void": False, "to_break": False}
        changing = placed | {"to_void": placed["void"], "to_break": broken}
        hidden = placed | {"hidden_move": clashed and strong}
        standings.append((placed, static, moving, still, changing, hidden, placed | {"hidden_move": False}))
    return tuple(standings)


def _fixed(position: int, gz: GanZhi, palace: Element) -> Fields:
    """The :class:`Placed` fields of the 干支 ``gz`` at ``position`` that no pillar changes."""
    element = gz.branch.element
    return {
        "position": position,
        "stem": gz.stem,
        "branch": gz.branch,
        "element": element,
        "relative": _RELATIVE[palace][element],
    }


def _ghost_tomb_carriers(
    i: int,
    najia: tuple[GanZhi, ...],
    changed: tuple[GanZhi, ...],
    moving: tuple[bool, ...],
    palace: Element,
    changsheng: str,
) -> tuple[Branch, frozenset[Branch]] | None:
    """隨鬼入墓 of the line at index ``i`` (docs/liuyao-doctrine.md §7.6) before the day is known:
    its 墓 and the branches other than the day that carry it there (the other moving lines, its own
    changed line when it moves); None when neither the line nor its 墓 is 官鬼, so no day makes it one."""
    own = najia[i].branch
    grave = tomb(own.element, changsheng)
    if Relative.GUANGUI not in (_RELATIVE[palace][own.element], _RELATIVE[palace][grave.element]):
        return None
    carriers = {najia[k].branch for k in range(6) if moving[k] and k != i}
    if moving[i]:
        carriers.add(changed[i].branch)
    return grave, frozenset(carriers)


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


BASES = (Basis.STEM, Basis.GROUP, Basis.MONTH, Basis.YEAR, Basis.YEAR_STEM)
"""The bases of the 神煞 tables, in the order of :func:`_shensha`'s keys."""


class _Hits(dict[tuple[tuple[int, ...], tuple[int, ...]], ShenShaHit]):
    """The :class:`ShenShaHit` of one 神煞 table at one key, by the 本卦 and 變卦 positions carrying
    its star: each made once, so charts share them."""

    def __init__(self, table: StarTable, variant: str | None, key: Stem | Branch) -> None:
        super().__init__()
        value = table.values[key]
        self.fields = (table.name, table.slug, variant, table.basis, key, () if value is None else (value,))

    def __missing__(self, positions: tuple[tuple[int, ...], tuple[int, ...]]) -> ShenShaHit:
        hit = self[positions] = ShenShaHit(*self.fields, *positions)
        return hit


StarRow = tuple[int, tuple[tuple[int | None, _Hits], ...]]
"""A 神煞 table as :func:`_shensha` reads it: the index of its basis in :data:`BASES`, and for each
key of that basis the :func:`_code` of the star there and the table's :class:`_Hits` at that key."""


@cache
def _tables(yang_ren: str, tian_xi: str) -> tuple[tuple[StarTable, str | None], ...]:
    """The 神煞 tables a chart reads under these table variants, in the order of :attr:`Chart.shensha`
    after the 天乙貴人, with the variant each one records; grouped by basis in the order of
    :data:`BASES`, since a chart joins its stars basis by basis."""
    return (
        (LU, None),
        (YANG_REN[yang_ren], yang_ren),
        (WEN_CHANG, None),
        *((t, None) for t in GROUP_STARS),
        (TIAN_XI[tian_xi], tian_xi),
        *((t, None) for t in (*MONTH_STARS, *QI_STARS, *YEAR_STARS, SUI_DE)),
    )


@cache
def _rows(yang_ren: str, tian_xi: str) -> tuple[StarRow, ...]:
    """The :data:`StarRow` of each of :func:`_tables`."""
    rows = []
    for table, variant in _tables(yang_ren, tian_xi):
        keys = Stem if table.basis is Basis.STEM or table.basis is Basis.YEAR_STEM else Branch
        by_key = tuple((_code(v), _Hits(table, variant, k)) for k, v in zip(keys, table.values, strict=True))
        rows.append((BASES.index(table.basis), by_key))
    return tuple(rows)


@cache
def _noble_positions(noble: tuple[Branch, ...], najia: tuple[GanZhi, ...]) -> tuple[int, ...]:
    """The lines of a 納甲 carrying either 天乙貴人 branch."""
    return tuple(sorted({p for b in noble for p in _carriers(najia).get(_code(b), ())}))


@cache
def _noble_hit(table: str, stem: Stem, positions: tuple[int, ...], changed: tuple[int, ...]) -> ShenShaHit:
    """The 天乙貴人 of a day stem (both 晝 and 夜 branches) under a table of :data:`NOBLE_TABLES`."""
    noble = NOBLE_TABLES[table].day_night[stem]
    return ShenShaHit("天乙貴人", "tianyi", table, Basis.STEM, stem, noble, positions, changed)


StarsOnLines = tuple[tuple[str, ...], ...]
"""The names of the 神煞 each line carries, by position (index 0 unused)."""

StarGroup = tuple[tuple[ShenShaHit, ...], StarsOnLines, StarsOnLines]
"""The 神煞 of the tables of one basis at one key on one cast: their hits, in the order of
:func:`_tables`, and the names of those on each 本卦 and each 變卦 line."""

_SHARED: dict[tuple, tuple] = {}
"""Each distinct tuple of names or :data:`StarsOnLines` made, so that plans share them."""


def _on_lines(hits: list[ShenShaHit], changed: bool) -> StarsOnLines:
    """The names of ``hits`` on each 本卦 line, or on each 變卦 line if ``changed``."""
    lines: list[list[str]] = [[] for _ in range(7)]
    for hit in hits:
        for p in hit.changed_positions if changed else hit.positions:
            lines[p].append(hit.name)
    found = tuple(_SHARED.setdefault(names, names) for names in map(tuple, lines))
    return _SHARED.setdefault(found, found)


class _StarGroups(dict[Stem | Branch, StarGroup]):
    """The :data:`StarGroup` of one basis of :data:`BASES` on one cast, by key, each made once
    (the 天乙貴人 go with the day-stem basis, which is the first)."""

    __slots__ = ("basis", "changed", "najia", "options")

    def __init__(
        self, basis: int, options: Options, najia: tuple[GanZhi, ...], changed: tuple[GanZhi, ...]
    ) -> None:
        super().__init__()
        self.basis, self.options, self.najia, self.changed = basis, options, najia, changed

    def __missing__(self, key: Stem | Branch) -> StarGroup:
        options, najia, changed = self.options, self.najia, self.changed
        here, there = _carriers(najia), _carriers(changed)
        hits = []
        if self.basis == 0:
            noble = NOBLE_TABLES[options.noble].day_night[key]  # type: ignore[index]
            positions = (_noble_positions(noble, najia), _noble_positions(noble, changed))
            hits.append(_noble_hit(options.noble, key, *positions))  # type: ignore[arg-type]
        for basis, by_key in _rows(options.yang_ren, options.tian_xi):
            if basis == self.basis:
                code, made = by_key[key]
                hits.append(made[here.get(code, ()), there.get(code, ())])
        group = (tuple(hits), _on_lines(hits, False), _on_lines(hits, True))
        group = self[key] = _SHARED.setdefault(group, group)
        return group


def _star_groups(
    options: Options, najia: tuple[GanZhi, ...], changed: tuple[GanZhi, ...]
) -> tuple[_StarGroups, ...]:
    """The :class:`_StarGroups` of a cast, one per basis of :data:`BASES`."""
    return tuple(_StarGroups(basis, options, najia, changed) for basis in range(len(BASES)))


def _shensha(
    pillars: Pillars, options: Options, groups: tuple[_StarGroups, ...]
) -> tuple[tuple[ShenShaHit, ...], StarsOnLines, StarsOnLines]:
    """The 神煞 of a chart, and the names of those on each 本卦 and each 變卦 line."""
    base = pillars.day if options.shensha_base is ShenShaBase.DAY else pillars.year
    keys = (base.stem, base.branch, pillars.month.branch, pillars.year.branch, pillars.year.stem)
    found = [stars[key] for stars, key in zip(groups, keys, strict=True)]
    hits, here, there = zip(*found, strict=True)
    return (
        tuple(chain.from_iterable(hits)),
        tuple(a + b + c + d + e for a, b, c, d, e in zip(*here, strict=True)),
        tuple(a + b + c + d + e for a, b, c, d, e in zip(*there, strict=True)),
    )


PendingFrame = tuple[Element, tuple[int, ...], Branch, bool]
"""A 三合局 of two moving lines whose third branch is on no line (:func:`_frames`): its element, the
moving lines, the third branch and whether no 變爻 of a moving line is that branch (虛一待用 when
neither the day nor the month supplies it)."""


def _frames(
    najia: tuple[GanZhi, ...], changed: tuple[GanZhi, ...], moving: tuple[bool, ...]
) -> tuple[HarmonyFrame | PendingFrame, ...]:
    """The 三合局 of the lines, in the order of :data:`kg.ganzhi.THREE_HARMONIES`: those the lines
    form whatever the day (kinds LINES and CHANGED), and those two moving lines leave to the day,
    the month or 虛一待用 (:data:`PendingFrame`, settled by :func:`_settled`)."""
    moving_lines = [(k + 1, gz.branch) for k, gz in enumerate(najia) if moving[k]]
    if len({b for _, b in moving_lines}) < 2:
        return ()
    frames: list[HarmonyFrame | PendingFrame] = []
    for element, frame in THREE_HARMONIES.items():
        on = {p: b for p, b in moving_lines if b in frame}
        on_branches = set(on.values())
        if len(on_branches) < 2:
            continue
        static = {k + 1: gz.branch for k, gz in enumerate(najia) if not moving[k] and gz.branch in frame}
        if on_branches | set(static.values()) == set(frame):
            extra = tuple(p for p, b in static.items() if b not in on_branches)
            frames.append(HarmonyFrame(element, FrameKind.LINES, tuple(sorted((*on, *extra))), (), None))
            continue
        (third,) = set(frame) - on_branches
        pair = next(
            (
                (a, b)
                for a, b in ((1, 3), (4, 6))
                if a in on
                and b in on
                and on[a] != on[b]
                and third in {changed[a - 1].branch, changed[b - 1].branch}
            ),
            None,
        )
        if pair is not None:
            supplied = tuple(p for p in pair if changed[p - 1].branch == third)
            frames.append(HarmonyFrame(element, FrameKind.CHANGED, pair, supplied, None))
        else:
            latent = third not in {changed[k].branch for k in range(6) if moving[k]}
            frames.append((element, tuple(on), third, latent))
    return tuple(frames)


def _settled(frame: HarmonyFrame | PendingFrame, month: Branch, day: Branch) -> HarmonyFrame | None:
    """A frame of :func:`_frames` on a month and day: itself, or the frame a pending one forms, if any."""
    if isinstance(frame, HarmonyFrame):
        return frame
    element, positions, third, latent = frame
    if third == day:
        return HarmonyFrame(element, FrameKind.DAY, positions, (), None)
    if third == month:
        return HarmonyFrame(element, FrameKind.MONTH, positions, (), None)
    if latent:
        return HarmonyFrame(element, FrameKind.LATENT, positions, (), third)
    return None


@dataclass(frozen=True)
class _Plan:
    """What a chart takes from its line values and options alone, whatever the pillars: the
    hexagrams, the fields of each line that no pillar changes, and what the pillars decide later."""

    original: Hexagram
    changed: Hexagram | None
    moving: tuple[bool, ...]
    najia: tuple[GanZhi, ...]
    changed_najia: tuple[GanZhi, ...]
    body: GuaShen
    lines: tuple[tuple[Fields, Branch, GanZhi, tuple[Branch, frozenset[Branch]] | None], ...]
    """Per 本卦 line: its fixed fields, its branch, the 旬首 of its 干支 and its
    :func:`_ghost_tomb_carriers`."""
    changed_lines: tuple[tuple[Fields, Branch, GanZhi], ...]
    hidden: tuple[tuple[Fields, Branch, GanZhi], ...]
    fu_yin_trigrams: tuple[str, ...]
    fan_yin_trigrams: tuple[str, ...]
    chong_to_he: bool
    he_to_chong: bool
    frames: tuple[HarmonyFrame | PendingFrame, ...]
    stars: tuple[_StarGroups, ...]
    """The 神煞 of the cast at each key of each basis, filled as charts ask for them."""


@lru_cache(maxsize=4096)
def _plan(values: tuple[int, ...], options: Options) -> _Plan:
    """The :class:`_Plan` of a cast under ``options``, kept for the 4,096 casts of one set of options
    (about 35 MB, and 65 MB once their 神煞 are asked at every key)."""
    original = hexagram(tuple(v % 2 for v in values))
    moving = tuple(v in (6, 9) for v in values)
    changed = (
        hexagram(tuple(b ^ m for b, m in zip(original.bits, moving, strict=True))) if any(moving) else None
    )
    palace, najia = original.palace_element, original.najia
    changed_najia = changed.najia if changed else ()
    body = gua_shen(original, options.gua_shen)
    lines = []
    for i, (gz, value) in enumerate(zip(najia, values, strict=True)):
        fields_ = _fixed(i + 1, gz, palace) | {
            "value": value,
            "yang": value % 2 == 1,
            "moving": moving[i],
            "shi": original.shi == i + 1,
            "ying": original.ying == i + 1,
            "gua_shen": i + 1 in body.positions,
            "true_palace": original.in_palace(i + 1),
        }
        ghost = _ghost_tomb_carriers(i, najia, changed_najia, moving, palace, options.changsheng)
        lines.append((fields_, gz.branch, gz.xun_head, ghost))
    changed_lines = []
    for i, gz in enumerate(changed_najia):
        assert changed is not None
        o, m = najia[i].branch, moving[i]
        fields_ = _fixed(i + 1, gz, palace) | {
            "yang": bool(changed.bits[i]),
            "moving": m,
            "shi": changed.shi == i + 1,
            "ying": changed.ying == i + 1,
            "relation": change_relation(o.element, gz.branch.element) if m else None,
            "clashes_back": m and clashes(o, gz.branch),
            "combines_back": m and combines(o, gz.branch),
            "to_tomb": m and gz.branch == tomb(o.element, options.changsheng),
            "to_jue": m and stage(o.element, gz.branch, options.changsheng) is Stage.JUE,
            "to_death": m and stage(o.element, gz.branch, options.changsheng) is Stage.SI,
            "advance": m and (o, gz.branch) in ADVANCE,
            "retreat": m and (gz.branch, o) in ADVANCE,
            "fu_yin": m and o == gz.branch,
            "true_palace": changed.in_palace(i + 1),
        }
        changed_lines.append((fields_, gz.branch, gz.xun_head))
    hidden = tuple(
        (
            _fixed(h.position, h.ganzhi, palace)
            | {
                "flying_relation": flying_relation(
                    najia[h.position - 1].branch.element, h.ganzhi.branch.element
                )
            },
            h.ganzhi.branch,
            h.ganzhi.xun_head,
        )
        for h in hidden_spirits(original, options.fu_shen)
    )
    halves = (("inner", range(0, 3)), ("outer", range(3, 6)))
    fu_yin_trigrams = tuple(
        name
        for name, half in halves
        if changed_najia
        and any(moving[k] for k in half)
        and all(changed_najia[k].branch == najia[k].branch for k in half)
    )
    frames = _frames(najia, changed_najia, moving)
    return _Plan(
        original=original,
        changed=changed,
        moving=moving,
        najia=najia,
        changed_najia=changed_najia,
        body=body,
        lines=tuple(lines),
        changed_lines=tuple(changed_lines),
        hidden=hidden,
        fu_yin_trigrams=fu_yin_trigrams,
        fan_yin_trigrams=_fan_yin(original, changed, moving, options.fan_yin),
        chong_to_he=bool(changed) and original.is_liu_chong and changed.is_liu_he,  # type: ignore[union-attr]
        he_to_chong=bool(changed) and original.is_liu_he and changed.is_liu_chong,  # type: ignore[union-attr]
        frames=frames,
        stars=_star_groups(options, najia, changed_najia),
    )


_beasts = cache(beasts)


def cast_chart(
    pillars: Pillars,
    values: tuple[int, ...],
    options: Options | None = None,
    calendar_record: CalendarRecord | None = None,
) -> Chart:
    """The chart of a cast: pillars (at least year, month, day) and six line values bottom → top."""
    options = options or DEFAULT_OPTIONS
    calendar_record = calendar_record or _GIVEN
    values = tuple(values)
    if len(values) != 6 or any(v not in (6, 7, 8, 9) for v in values):
        raise InputError(f"line values {values!r}: expected six values 6–9, bottom → top")
    plan = _plan(values, options)
    month, day = pillars.month, pillars.day
    shensha, line_stars, changed_stars = _shensha(pillars, options, plan.stars)
    standings = _standings(month.branch, day, options.changsheng)
    xun = day.xun_head

    lines = []
    for i, ((fixed, branch, head, ghost), beast) in enumerate(
        zip(plan.lines, _beasts(day.stem), strict=True)
    ):
        values_ = fixed | standings[branch][2 if plan.moving[i] else 1]
        values_["in_xun"] = head == xun
        values_["beast"] = beast
        values_["shensha"] = line_stars[i + 1]
        values_["ghost_tomb"] = ghost is not None and (ghost[0] == day.branch or ghost[0] in ghost[1])
        lines.append(_frozen(Line, values_))

    changed_lines = []
    for i, (fixed, branch, head) in enumerate(plan.changed_lines):
        values_ = fixed | standings[branch][4 if plan.moving[i] else 3]
        values_["in_xun"] = head == xun
        values_["shensha"] = changed_stars[i + 1]
        changed_lines.append(_frozen(ChangedLine, values_))

    hidden_lines = []
    hidden = 5 if options.hidden_dark_moving is HiddenDarkMoving.YES else 6
    for fixed, branch, head in plan.hidden:
        values_ = fixed | standings[branch][hidden]
        values_["in_xun"] = head == xun
        hidden_lines.append(_frozen(HiddenLine, values_))

    settled = (_settled(f, month.branch, day.branch) for f in plan.frames)
    frames = tuple(f for f in settled if f is not None)

    month_break_ends = None
    if options.month_break is MonthBreakRule.IN_MONTH and calendar_record.next_jie is not None:
        month_break_ends = calendar_record.next_jie.moment

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
            values=values,
            hexagram=plan.original,
            changed_hexagram=plan.changed,
            lines=tuple(lines),
            changed_lines=tuple(changed_lines),
            hidden_lines=tuple(hidden_lines),
            void=day.xun_void,
            gua_shen=plan.body,
            chong_to_he=plan.chong_to_he,
            he_to_chong=plan.he_to_chong,
            fu_yin_trigrams=plan.fu_yin_trigrams,
            fan_yin_trigrams=plan.fan_yin_trigrams,
            frames=frames,
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
