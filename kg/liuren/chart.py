"""The 大六壬 chart (課式): 天地盤 with 天將, 四課, 三傳, 旬空 and the 課體 — one immutable value.

Build it with :func:`chart_from_inputs` (validating user input: a moment, or a day 干支 with
占時 and 月將, or a day with a 局 number) or with :func:`build_chart` (typed inputs, no
parsing; the fast path). Every doctrine choice that differs between books is an :class:`Options`
field with a documented default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from kg.calendar import (
    CalendarRecord,
    Pillars,
    Term,
    ZiHourRule,
    month_general_mismatch,
    parse_moment,
    pillars_at,
)
from kg.errors import InputError
from kg.ganzhi import Branch, GanZhi, SeasonalState, Stem, seasonal_state
from kg.liuren.four_lessons import BRANCH_EL, STEM_EL, Lesson, four_lessons
from kg.liuren.generals import (
    DEFAULT_TEMPLE_TABLE,
    TEMPLE_TABLES,
    DayNight,
    DayNightRule,
    General,
    Procession,
    day_or_night,
    processions,
)
from kg.liuren.keti import Keti, derive_keti
from kg.liuren.plates import (
    BRANCHES,
    RANK,
    STEMS,
    MonthGeneral,
    Rank,
    check_ju,
    ju_of,
    month_general,
    month_general_at,
    parse_month_general,
    shift_of_ju,
)
from kg.liuren.three_transmissions import DisputedReading, ShehaiVariant, Transmissions, three_transmissions
from kg.shensha import DEFAULT_MU_SHEN, DEFAULT_NOBLE_TABLE, MU_SHEN, NOBLE_TABLES
from kg.six_relatives import Relative


@dataclass(frozen=True)
class Options:
    """Doctrine choices for a chart. The defaults reproduce the 720-lesson table except on the two
    lessons where it departs from the 《指南》 rule (see ``disputed_reading``)."""

    noble_table: str = DEFAULT_NOBLE_TABLE
    """貴人 table of :data:`kg.shensha.NOBLE_TABLES`: "A" (甲戊庚牛羊…, the 720 table's and 《直指》's,
    default) or "C" (the 陽貴/陰貴 verses, docs/liuren-doctrine.md §4.8 table B)."""
    day_night_rule: DayNightRule = DayNightRule.HOURS
    """晝/夜: by 占時 (卯–申 晝, default) or fixed by the querent."""
    shehai_variant: ShehaiVariant = ShehaiVariant.ZHINAN
    """涉害: 《指南》 孟 → 仲 → 綴瑕 without depth count (default) or the 《課經》 depth count."""
    disputed_reading: DisputedReading = DisputedReading.ZHINAN
    """戊辰/戊戌 第7局: the 《指南》 rule's 亥巳亥 (default) or the 720 table's 巳亥巳."""
    zi_hour_rule: ZiHourRule = ZiHourRule.EARLY
    """Day boundary for a moment in 23:00–24:00 (only used when the chart is cast from a moment)."""
    stem_tomb: str = DEFAULT_MU_SHEN
    """墓神 of the day stem, a table of :data:`kg.shensha.MU_SHEN`: "element" (同生同死, 癸 墓辰, the
    reading 《直指》 follows, default) or "yin-reverse" (陽順陰逆, 癸 墓未); docs/liuren-doctrine.md §5.1."""
    temple_table: str = DEFAULT_TEMPLE_TABLE
    """天將入廟 table of :data:`kg.liuren.generals.TEMPLE_TABLES`: "xuanwu-hai" (玄武 亥, 天后 子,
    default) or "xuanwu-zi" (玄武 子, 天后 亥); docs/liuren-doctrine.md §5.2."""

    def __post_init__(self) -> None:
        for name, tables, what in (
            ("noble_table", NOBLE_TABLES, "貴人 table"),
            ("stem_tomb", MU_SHEN, "墓神 table"),
            ("temple_table", TEMPLE_TABLES, "入廟 table"),
        ):
            value = getattr(self, name)
            if value not in tables:
                raise InputError(f"unknown {what} {value!r}: expected one of {', '.join(tables)}")
        for name, kind in (
            ("day_night_rule", DayNightRule),
            ("shehai_variant", ShehaiVariant),
            ("disputed_reading", DisputedReading),
            ("zi_hour_rule", ZiHourRule),
        ):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                choices = ", ".join(str(k.value) for k in kind)
                raise InputError(
                    f"option {name}: unknown value {value!r}; expected one of {choices}"
                ) from None


DEFAULT_OPTIONS = Options()


class Seat(NamedTuple):
    """One of the twelve positions: a 天盤 spirit over its 地盤 seat."""

    earth: Branch
    """地盤 branch (the seat)."""
    heaven: Branch
    """天盤 branch (the spirit, 神) over it."""
    day_general: General
    """天將 riding the spirit on the 晝 plate."""
    night_general: General
    """天將 riding the spirit on the 夜 plate."""
    general: General | None
    """天將 of the applicable plate; None when 晝/夜 is unknown."""
    earth_rank: Rank
    heaven_rank: Rank
    void: bool
    """The spirit is 旬空."""
    fallen_void: bool
    """落空: the spirit sits on a 旬空 地盤 branch."""
    state: SeasonalState | None
    """旺相休囚死 of the spirit in the month (月建); None when the month is unknown."""


class Transmission(NamedTuple):
    """One of the 三傳 (初傳 發用, 中傳, 末傳) with what rides on it."""

    branch: Branch
    stem: Stem | None
    """遁干 from the day's 旬; None when the branch is 旬空."""
    relative: Relative
    """六親 to the day stem (我 = the day stem)."""
    day_general: General
    night_general: General
    general: General | None
    seat: Branch
    """The 地盤 branch it sits on."""
    void: bool
    fallen_void: bool


class Upper(NamedTuple):
    """A querent's branch (年命 or 行年) and the spirit over it on the 天盤 (上神)."""

    branch: Branch
    upper: Branch


TRANSMISSION_NAMES = ("初傳", "中傳", "末傳")


@dataclass(frozen=True)
class Chart:
    """A 大六壬 課式. ``month_general`` and ``hour`` are None when the chart was given by 局 number."""

    options: Options
    day: GanZhi
    ju: int
    """局 number 1 (伏吟) … 12: 干上神 = 寄宮 − (ju − 1)."""
    month_general: MonthGeneral | None
    """月將."""
    hour: Branch | None
    """占時."""
    month: Branch | None
    """月建 (month branch), for 旺相休囚死; None when unknown."""
    day_night: DayNight | None
    """The applicable 晝/夜; None when the rule needs the 占時 and it is unknown."""
    seats: tuple[Seat, ...]
    """The twelve positions, indexed by 地盤 branch 子 … 亥."""
    lessons: tuple[Lesson, Lesson, Lesson, Lesson]
    """四課 1 … 4."""
    derivation: Transmissions
    """三傳 branches with the 九宗門 method, sub-types and any source reading applied."""
    transmissions: tuple[Transmission, Transmission, Transmission]
    void: tuple[Branch, Branch]
    """旬空."""
    day_procession: Procession
    """晝 貴人 (陽貴): its 天盤 branch, 地盤 seat, 順/逆 and the generals."""
    night_procession: Procession
    """夜 貴人 (陰貴)."""
    birth: Upper | None = None
    """年命 (the querent's birth-year branch) and its 上神."""
    walking_year: Upper | None = None
    """行年 and its 上神."""
    pillars: Pillars | None = None
    calendar: CalendarRecord | None = None
    zhongqi: Term | None = None
    """The 中氣 the 月將 was taken from (charts cast from a moment)."""
    keti: tuple[Keti, ...] = field(init=False)
    """課體 derived by the rules of :mod:`kg.liuren.keti`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keti", derive_keti(self))

    @property
    def shift(self) -> int:
        """Plate offset: the 天盤 over 地盤 e is (e + shift) mod 12."""
        return (1 - self.ju) % 12

    @property
    def gan_shang(self) -> Branch:
        """干上神: the 1課 upper."""
        return self.lessons[0].upper

    @property
    def zhi_shang(self) -> Branch:
        """支上神: the 3課 upper."""
        return self.lessons[2].upper

    @property
    def procession(self) -> Procession | None:
        """The applicable plate's procession (None when 晝/夜 is unknown)."""
        if self.day_night is None:
            return None
        return self.day_procession if self.day_night is DayNight.DAY else self.night_procession

    @property
    def xun_head(self) -> Branch:
        """旬首: the branch of the 甲 day opening the 旬 (it carries 甲)."""
        return BRANCHES[(self.day.branch - self.day.stem) % 12]

    @property
    def xun_tail(self) -> Branch:
        """旬尾: the branch carrying 癸."""
        return BRANCHES[(self.day.branch - self.day.stem + 9) % 12]

    @property
    def ding(self) -> Branch:
        """丁神 (旬丁): the branch carrying 丁."""
        return BRANCHES[(self.day.branch - self.day.stem + 3) % 12]

    def upper(self, earth: Branch) -> Branch:
        """The 天盤 spirit over a 地盤 branch (上神)."""
        return self.seats[earth].heaven

    def seat_of(self, heaven: Branch) -> Branch:
        """The 地盤 branch a 天盤 spirit sits on."""
        return BRANCHES[(heaven - self.shift) % 12]

    def generals_on(self, heaven: Branch) -> frozenset[General]:
        """The 天將 riding a spirit: the applicable one, or both 晝 and 夜 when 晝/夜 is unknown."""
        seat = self.seats[(heaven - self.shift) % 12]
        if seat.general is not None:
            return frozenset((seat.general,))
        return frozenset((seat.day_general, seat.night_general))

    def nobles(self) -> tuple[Procession, ...]:
        """The applicable procession, or both when 晝/夜 is unknown."""
        current = self.procession
        return (current,) if current is not None else (self.day_procession, self.night_procession)

    @property
    def keti_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keti)


_RELATIVES: tuple[Relative, ...] = tuple(Relative)
_STATES: tuple[tuple[SeasonalState, ...], ...] = tuple(
    tuple(seasonal_state(b.element, month) for b in BRANCHES) for month in BRANCHES
)
"""旺相休囚死 of each branch (``[month][branch]``), from :func:`kg.ganzhi.seasonal_state`."""


def build_chart(
    day: GanZhi,
    ju: int,
    *,
    general: MonthGeneral | None = None,
    hour: Branch | None = None,
    month: Branch | None = None,
    options: Options = DEFAULT_OPTIONS,
    birth: Branch | None = None,
    walking_year: Branch | None = None,
    pillars: Pillars | None = None,
    calendar: CalendarRecord | None = None,
    zhongqi: Term | None = None,
) -> Chart:
    """The chart of ``day`` in 第 ``ju`` 局 from typed, already consistent inputs."""
    stem, branch = day
    shift = shift_of_ju(ju)
    lessons = four_lessons(day, shift)
    derivation = three_transmissions(day, ju, lessons, options.shehai_variant, options.disputed_reading)
    day_proc, night_proc = processions(stem, shift, options.noble_table)
    day_night = day_or_night(options.day_night_rule, hour)
    applicable = None if day_night is None else (day_proc if day_night is DayNight.DAY else night_proc)
    head = (branch - stem) % 12
    void_a, void_b = (head + 10) % 12, (head + 11) % 12

    states = None if month is None else _STATES[month]
    seats = []
    for earth in range(12):
        heaven = (earth + shift) % 12
        seats.append(
            Seat(
                BRANCHES[earth],
                BRANCHES[heaven],
                day_proc.by_heaven[heaven],
                night_proc.by_heaven[heaven],
                None if applicable is None else applicable.by_heaven[heaven],
                RANK[earth],
                RANK[heaven],
                heaven in (void_a, void_b),
                earth in (void_a, void_b),
                None if states is None else states[heaven],
            )
        )

    stem_el = STEM_EL[stem]
    transmissions = []
    for b in derivation.branches:
        offset = (b - head) % 12
        seat = seats[(b - shift) % 12]
        transmissions.append(
            Transmission(
                b,
                STEMS[offset] if offset < 10 else None,
                _RELATIVES[(BRANCH_EL[b] - stem_el) % 5],
                seat.day_general,
                seat.night_general,
                seat.general,
                seat.earth,
                seat.void,
                seat.fallen_void,
            )
        )

    return Chart(
        options=options,
        day=day,
        ju=ju,
        month_general=general,
        hour=hour,
        month=month,
        day_night=day_night,
        seats=tuple(seats),
        lessons=lessons,
        derivation=derivation,
        transmissions=(transmissions[0], transmissions[1], transmissions[2]),
        void=(BRANCHES[void_a], BRANCHES[void_b]),
        day_procession=day_proc,
        night_procession=night_proc,
        birth=None if birth is None else Upper(birth, BRANCHES[(birth + shift) % 12]),
        walking_year=None
        if walking_year is None
        else Upper(walking_year, BRANCHES[(walking_year + shift) % 12]),
        pillars=pillars,
        calendar=calendar,
        zhongqi=zhongqi,
    )


# ── validating entry point ──────────────────────────────────────────────────────────────────


def _branch_input(text: str | Branch, what: str) -> Branch:
    """A branch given as a character, or the branch of a 干支 pair."""
    if isinstance(text, Branch):
        return text
    text = text.strip()
    if len(text) == 2:
        return GanZhi.from_name(text).branch
    if len(text) != 1:
        raise InputError(f"{what} {text!r}: give an earthly branch such as 午 (or a 干支 such as 戊午)")
    return Branch.from_char(text)


def chart_from_inputs(
    moment: str | datetime | None = None,
    day: str | GanZhi | None = None,
    hour: str | Branch | None = None,
    general: str | Branch | None = None,
    ju: int | str | None = None,
    options: Options = DEFAULT_OPTIONS,
    birth: str | Branch | None = None,
    walking_year: str | Branch | None = None,
    *,
    month: str | Branch | None = None,
    accept_inconsistent: bool = False,
) -> Chart:
    """Validate user input and cast the chart.

    Give either ``moment`` (ISO date-time, Beijing time unless it has an offset; 月將 from the
    last 中氣, pillars from :func:`kg.calendar.pillars_at`), or ``day`` with two or three of
    ``hour`` (占時), ``general`` (月將, a branch or a name like 河魁) and ``ju`` (1–12), which
    must agree. With ``day`` and ``ju`` alone the 月將 and 占時 stay unknown (None). ``month``
    (月建) is optional with explicit inputs and enables 旺相休囚死. ``birth`` (年命) and
    ``walking_year`` (行年) are branches or 干支. A 月將 that cannot occur in the given 月建 is
    refused unless ``accept_inconsistent``: then the chart's calendar record names the mismatch.
    Every problem raises :class:`InputError`.
    """
    birth_b = None if birth is None else _branch_input(birth, "年命")
    walking_b = None if walking_year is None else _branch_input(walking_year, "行年")
    if moment is not None:
        given = [
            n
            for n, v in (("day", day), ("hour", hour), ("general", general), ("ju", ju), ("month", month))
            if v is not None
        ]
        if given:
            raise InputError(
                f"conflicting inputs: a moment fixes the day, 占時, 月將 and 局; do not also give {', '.join(given)}"
            )
        when = moment if isinstance(moment, datetime) else parse_moment(moment)
        if when.tzinfo is None:
            raise InputError(f"moment {when.isoformat()} has no time zone")
        pillars, record = pillars_at(when, options.zi_hour_rule)
        mg, term = month_general_at(when)
        assert pillars.hour is not None
        return build_chart(
            pillars.day,
            ju_of(mg.branch, pillars.hour.branch),
            general=mg,
            hour=pillars.hour.branch,
            month=pillars.month.branch,
            options=options,
            birth=birth_b,
            walking_year=walking_b,
            pillars=pillars,
            calendar=record,
            zhongqi=term,
        )

    if day is None:
        raise InputError("missing input: give a moment, or a day 干支 with 占時 and 月將 (or a 局 number)")
    day_gz = day if isinstance(day, GanZhi) else GanZhi.from_name(day.strip())
    hour_b = None if hour is None else _branch_input(hour, "占時")
    mg = None
    if general is not None:
        mg = month_general(general) if isinstance(general, Branch) else parse_month_general(general)
    ju_n = None
    if ju is not None:
        if isinstance(ju, str):
            if not (ju.strip().isascii() and ju.strip().isdigit()):
                raise InputError(f"局 number {ju!r} is not a number 1–12")
            ju = int(ju)
        ju_n = check_ju(ju)

    if hour_b is not None and mg is not None:
        derived = ju_of(mg.branch, hour_b)
        if ju_n is not None and ju_n != derived:
            raise InputError(
                f"conflicting inputs: 月將 {mg.branch.char} on 占時 {hour_b.char} is 第{derived}局, not 第{ju_n}局"
            )
        ju_n = derived
    elif ju_n is not None:
        if hour_b is not None:
            mg = month_general(BRANCHES[(hour_b - ju_n + 1) % 12])
        elif mg is not None:
            hour_b = BRANCHES[(mg.branch + ju_n - 1) % 12]
    else:
        missing = "月將" if hour_b is not None else "占時" if mg is not None else "占時 and 月將"
        raise InputError(f"missing input: with a day 干支 give {missing}, or a 局 number 1–12")
    month_b = None if month is None else _branch_input(month, "月建")
    why = None if month_b is None or mg is None else month_general_mismatch(month_b, mg.branch)
    if why is not None and not accept_inconsistent:
        raise InputError(f"{why} (--accept-inconsistent-pillars casts the chart anyway)")
    return build_chart(
        day_gz,
        ju_n,
        general=mg,
        hour=hour_b,
        month=month_b,
        options=options,
        birth=birth_b,
        walking_year=walking_b,
        calendar=None if why is None else CalendarRecord(pillars_given=True, inconsistencies=(why,)),
    )
