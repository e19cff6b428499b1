"""曆: the four pillars (年月日時 干支) of a moment and its 節氣 boundaries.

The solar terms come from tyme4py (6tail), pinned in ``pyproject.toml``: second-precise 節氣
moments in Beijing time (UTC+8); a moment in any other zone is converted first, and no
true-solar-time correction is applied. The pillars follow from those moments by the rules every
almanac uses: 年 changes at 立春, 月 at each 節 (its stem by 五虎遁 from the year stem), 日 at
midnight or 23:00 (the 子時 rule) counting the sexagenary cycle from 2000-01-01, a 戊午 day, and 時
every two hours (its stem by 五鼠遁 from the day stem). tyme4py's own pillars are a test oracle
for modern dates (tests/test_calendar.py); they are not used, since before 1582 its 節 day
lookup disagrees with its own term moments. Everything a chart needs to say where its pillars came from is in
:class:`CalendarRecord`.

Dates are ISO 8601, that is proleptic Gregorian on the whole range, as Python's ``datetime`` is.
tyme4py writes dates before 1582-10-15 in the Julian calendar, so every moment crosses between
the two as a Julian Day number, never as a year-month-day. The supported range is
:data:`FIRST_DAY` to :data:`LAST_DAY` (Beijing time); a moment outside it is an input error.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from enum import StrEnum
from functools import lru_cache
from importlib.metadata import version

from tyme4py.solar import SolarTerm

from kg.errors import InputError
from kg.ganzhi import Branch, GanZhi, Stem, combines

BEIJING = timezone(timedelta(hours=8), "Asia/Shanghai")
FIRST_DAY = date(100, 1, 1)
LAST_DAY = date(9899, 12, 31)
"""The days (Beijing time) a moment may fall on: tyme4py's solar terms need a margin within its
years 1–9999, and ``tests/test_calendar.py`` checks every day of this range."""
RANGE = f"{FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()} (proleptic Gregorian, Beijing time)"
J2000 = datetime(2000, 1, 1, 12)
"""Julian Day 2451545.0, in the local (Beijing) time scale tyme4py's day numbers use."""
DAY_ANCHOR = (date(2000, 1, 1), GanZhi.from_name("戊午"))
"""A day whose 干支 every almanac agrees on; the cycle runs unbroken through calendar reforms."""
LIBRARY = f"tyme4py {version('tyme4py')}"
"""The library the term moments come from, as a chart records it."""
BOUNDARY_WARNING = timedelta(minutes=1)
"""A cast this close to a 節 (or 中氣) is flagged: libraries disagree by up to ~15 s (ΔT)."""


class ZiHourRule(StrEnum):
    """子時 rule: which day a moment between 23:00 and 24:00 belongs to."""

    EARLY = "23:00"
    """The day changes at 23:00 (晚子時 belongs to the next day); tyme4py's default provider."""
    LATE = "midnight"
    """The day pillar changes at midnight; 23:00–24:00 takes the next day's 子 hour pillar
    (夜子時; tyme4py ``LunarSect2EightCharProvider``)."""


TERM_NAMES: tuple[str, ...] = tuple(
    [
        "冬至",
        "小寒",
        "大寒",
        "立春",
        "雨水",
        "驚蟄",
        "春分",
        "清明",
        "穀雨",
        "立夏",
        "小滿",
        "芒種",
        "夏至",
        "小暑",
        "大暑",
        "立秋",
        "處暑",
        "白露",
        "秋分",
        "寒露",
        "霜降",
        "立冬",
        "小雪",
        "大雪",
    ]
)
"""The 24 節氣 in traditional characters, in tyme4py's order (冬至 = 0); tyme4py names them in
simplified characters (谷雨, 小满, 处暑 …)."""

JIE_BRANCH = {name: Branch((2 + i) % 12) for i, name in enumerate(TERM_NAMES[3::2] + TERM_NAMES[1:3:2])}
"""The 節 that opens each month and the month's branch: 立春 寅, 驚蟄 卯 … 大雪 子, 小寒 丑."""


@dataclass(frozen=True)
class Pillars:
    """四柱: year, month, day and hour 干支. The hour is None when only three were given."""

    year: GanZhi
    month: GanZhi
    day: GanZhi
    hour: GanZhi | None = None

    @classmethod
    def parse(cls, text: str) -> Pillars:
        """'庚寅 戊寅 癸亥 [甲寅]' (year month day [hour]), separated by spaces or commas."""
        parts = text.replace(",", " ").replace("，", " ").split()
        if len(parts) not in (3, 4):
            raise InputError(
                f"pillars {text!r}: give year, month and day 干支 (and optionally the hour), e.g. '庚寅 戊寅 癸亥'"
            )
        pairs = [GanZhi.from_name(p) for p in parts]
        return cls(*pairs)

    def __str__(self) -> str:
        return " ".join(p.name for p in (self.year, self.month, self.day, self.hour) if p is not None)


@dataclass(frozen=True)
class Term:
    """A solar term boundary (節 or 中氣) at a Beijing-time moment."""

    name: str
    moment: datetime
    is_jie: bool


@dataclass(frozen=True)
class CalendarRecord:
    """Where a chart's pillars came from: given by the user, or computed from a moment."""

    pillars_given: bool
    moment: datetime | None = None
    timezone: str | None = None
    library: str | None = None
    zi_hour_rule: ZiHourRule | None = None
    nearest_jie: Term | None = None
    next_jie: Term | None = None
    """The first 節 after the moment, where its month pillar next changes."""
    inconsistencies: tuple[str, ...] = ()
    """The rules given pillars break (五虎遁, 五鼠遁, see :func:`pillar_inconsistencies`), when the
    chart was cast from them anyway."""

    @property
    def near_jie(self) -> bool:
        """True when the moment lies within one minute of a 節 (the month pillar is uncertain)."""
        return self.nearest_jie is not None and abs(self.nearest_jie.moment - self.moment) < BOUNDARY_WARNING

    @classmethod
    def given(cls) -> CalendarRecord:
        return cls(pillars_given=True)


def parse_moment(text: str, default_tz: timezone = BEIJING) -> datetime:
    """An ISO 8601 date-time; without an offset it is taken as Beijing time."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise InputError(
            f"not an ISO date-time: {text!r} ({exc}); expected e.g. 2070-02-27T12:00+08:00"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=default_tz)
    return moment


def beijing(moment: datetime) -> datetime:
    """``moment`` in Beijing time, refused when it has no zone or lies outside :data:`RANGE`."""
    if moment.tzinfo is None:
        raise InputError(f"moment {moment.isoformat()} has no time zone")
    try:
        local = moment.astimezone(BEIJING)
    except OverflowError:
        raise InputError(f"{moment.isoformat()} is outside the supported range {RANGE}") from None
    if not FIRST_DAY <= local.date() <= LAST_DAY:
        raise InputError(f"{moment.isoformat()} is outside the supported range {RANGE}")
    return local


def _term(term: SolarTerm) -> Term:
    seconds = round((term.get_julian_day().get_day() - 2451545.0) * 86400)
    moment = (J2000 + timedelta(seconds=seconds)).replace(tzinfo=BEIJING)
    return Term(TERM_NAMES[term.get_index()], moment, term.is_jie())


@lru_cache(maxsize=8192)
def _window(day: date) -> tuple[Term, ...]:
    """The terms around a Beijing civil day, from the third before its start to the fourth after
    (a day holds at most one term), computed once per day: a moment's pillars then cost no
    astronomy."""
    start = datetime.combine(day, time(0), BEIJING)
    # tyme4py counts a year's terms from the 冬至 of the year before; a term lasts ~15.2 days.
    guess = SolarTerm.from_index(day.year, int((start.timetuple().tm_yday + 9) / 15.22))
    around = [_term(guess.next(k)) for k in range(-5, 7)]
    current = max(i for i, t in enumerate(around) if t.moment <= start)
    return tuple(around[current - 2 : current + 6])


def _terms_near(moment: datetime, before: int, after: int) -> list[Term]:
    """The term at or before ``moment`` with ``before`` (≤ 2) terms before it and ``after`` (≤ 2)
    after it."""
    local = beijing(moment)
    window = _window(local.date())
    current = max(i for i, t in enumerate(window) if t.moment <= local)
    return list(window[current - before : current + after + 1])


def last_zhongqi(moment: datetime) -> Term:
    """The most recent 中氣 at or before ``moment`` (月將 changes there)."""
    previous, current = _terms_near(moment, 1, 0)
    return previous if current.is_jie else current


def nearest_term(moment: datetime, jie: bool) -> Term:
    """The 節 (``jie=True``) or 中氣 boundary nearest to ``moment``."""
    candidates = [t for t in _terms_near(moment, 2, 2) if t.is_jie == jie]
    return min(candidates, key=lambda t: abs(t.moment - moment))


def zhongqi_within_a_minute(moment: datetime | None) -> Term | None:
    """The 中氣 within :data:`BOUNDARY_WARNING` of ``moment`` (the 月將 is uncertain there), if any."""
    if moment is None:
        return None
    term = nearest_term(moment, jie=False)
    return term if abs(term.moment - moment) < BOUNDARY_WARNING else None


def next_jie(moment: datetime) -> Term:
    """The first 節 after ``moment`` (where the month pillar next changes)."""
    return next(t for t in _terms_near(moment, 0, 2) if t.is_jie and t.moment > moment)


def last_jie(moment: datetime) -> Term:
    """The 節 at or before ``moment``: the start of the month its month pillar names."""
    return next(t for t in reversed(_terms_near(moment, 2, 0)) if t.is_jie)


@lru_cache(maxsize=1024)
def _lichun(year: int) -> Term:
    return _term(SolarTerm.from_name(year, "立春"))


def last_lichun(moment: datetime) -> Term:
    """The 立春 at or before ``moment``: the start of the year its year pillar names."""
    year = beijing(moment).year
    for y in (year, year - 1):
        if (term := _lichun(y)).moment <= moment:
            return term
    raise AssertionError(f"no 立春 in the two years up to {moment.isoformat()}")


def day_pillar(day: date) -> GanZhi:
    """日柱 of a civil day (proleptic Gregorian)."""
    anchor, name = DAY_ANCHOR
    return GanZhi.from_index(name.index + (day - anchor).days)


def _opening(stem: Stem, branch: Branch, first: Branch) -> GanZhi:
    """五虎遁 / 五鼠遁: the stem of ``branch`` in the cycle of ``stem`` whose ``first`` branch starts
    at 丙 (months, from 寅) or at 甲 (hours, from 子), and so on by fives."""
    start = {Branch.YIN: 2, Branch.ZI: 0}[first] + 2 * (stem % 5)
    return GanZhi(Stem((start + (branch - first) % 12) % 10), branch)


def pillar_inconsistencies(pillars: Pillars, zi_hour_rule: ZiHourRule = ZiHourRule.EARLY) -> tuple[str, ...]:
    """The rules of the calendar that given pillars break: the month stem follows from the year stem
    by 五虎遁, the hour stem from the day stem by 五鼠遁, as :func:`pillars_at` computes them. Under
    the midnight 子時 rule a 子 hour may also carry the next day's stem (夜子時)."""
    broken = []
    month = _opening(pillars.year.stem, pillars.month.branch, Branch.YIN)
    if month != pillars.month:
        broken.append(
            f"month {pillars.month.name} cannot occur in a {pillars.year.stem.char} year: 五虎遁 gives {month.name}"
        )
    if (hour := pillars.hour) is not None:
        allowed = [_opening(pillars.day.stem, hour.branch, Branch.ZI)]
        if zi_hour_rule is ZiHourRule.LATE and hour.branch is Branch.ZI:
            allowed.append(_opening(Stem((pillars.day.stem + 1) % 10), hour.branch, Branch.ZI))
        if hour not in allowed:
            late = f" (or {allowed[1].name} at 夜子時)" if len(allowed) > 1 else ""
            broken.append(
                f"hour {hour.name} cannot occur on a {pillars.day.stem.char} day: 五鼠遁 gives {allowed[0].name}{late}"
            )
    return tuple(broken)


def given_pillars(
    text: str, accept_inconsistent: bool = False, zi_hour_rule: ZiHourRule = ZiHourRule.EARLY
) -> tuple[Pillars, CalendarRecord]:
    """Pillars given as text ('庚寅 戊寅 癸亥 [壬子]') and their record. Pillars that break a rule of
    :func:`pillar_inconsistencies` are an input error naming it, unless ``accept_inconsistent``: then
    the record keeps the broken rules."""
    pillars = Pillars.parse(text)
    broken = pillar_inconsistencies(pillars, zi_hour_rule)
    if broken and not accept_inconsistent:
        raise InputError(
            f"pillars {pillars}: {'; '.join(broken)} (--accept-inconsistent-pillars casts the chart anyway)"
        )
    return pillars, CalendarRecord(pillars_given=True, inconsistencies=broken)


def month_generals(month: Branch) -> tuple[Branch, Branch, str]:
    """The two 月將 of the month of 月建 ``month`` and the 中氣 between them: until its 中氣 the
    將 of the month before rules, from it the 將 that 六合s the month branch (寅月: 子 until 雨水, 亥
    from 雨水; the 將 changes at each 中氣, which falls inside its month)."""
    before, after = (next(b for b in Branch if combines(m, b)) for m in (month.shift(-1), month))
    return before, after, TERM_NAMES[(4 + 2 * (month - Branch.YIN)) % 24]


def month_general_mismatch(month: Branch, general: Branch) -> str | None:
    """Why 月將 ``general`` cannot occur in the month of 月建 ``month`` (see :func:`month_generals`),
    or None when it can."""
    before, after, zhongqi = month_generals(month)
    if general in (before, after):
        return None
    return (
        f"月將 {general.char} cannot occur in a {month.char} month: {month.char}月 has {before.char} until "
        f"{zhongqi} and {after.char} from {zhongqi}"
    )


def pillars_at(
    moment: datetime, zi_hour_rule: ZiHourRule = ZiHourRule.EARLY
) -> tuple[Pillars, CalendarRecord]:
    """The four pillars of ``moment`` and the record of how they were computed."""
    local = beijing(moment)
    lichun = last_lichun(local)
    year = GanZhi.from_index(lichun.moment.year - 4)  # 4 CE was a 甲子 year
    month_branch = JIE_BRANCH[last_jie(local).name]
    next_day = local.hour == 23
    day = day_pillar(local.date() + timedelta(days=next_day and zi_hour_rule is ZiHourRule.EARLY))
    hour_branch = Branch((local.hour + 1) // 2 % 12)
    hour_stem_day = day_pillar(local.date() + timedelta(days=next_day))
    pillars = Pillars(
        year,
        _opening(year.stem, month_branch, Branch.YIN),
        day,
        _opening(hour_stem_day.stem, hour_branch, Branch.ZI),
    )
    record = CalendarRecord(
        pillars_given=False,
        moment=moment,
        timezone=str(moment.tzinfo),
        library=LIBRARY,
        zi_hour_rule=zi_hour_rule,
        nearest_jie=nearest_term(moment, jie=True),
        next_jie=next_jie(moment),
    )
    return pillars, record
