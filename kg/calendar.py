"""曆: the four pillars (年月日時 干支) of a moment and its 節氣 boundaries.

The calendar is tyme4py (6tail), pinned in ``pyproject.toml``: second-precise 節 boundaries
(年 changes at 立春, 月 at each 節), and explicit providers for the 子時 rule. tyme4py computes
in Beijing time (UTC+8); a moment in any other zone is converted first, and no true-solar-time
correction is applied. Everything a chart needs to say where its pillars came from is in
:class:`CalendarRecord`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from enum import StrEnum
from importlib.metadata import version

from tyme4py.eightchar.provider.impl import DefaultEightCharProvider, LunarSect2EightCharProvider
from tyme4py.solar import SolarTerm, SolarTime

from kg.errors import InputError
from kg.ganzhi import GanZhi

BEIJING = timezone(timedelta(hours=8), "Asia/Shanghai")
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

_PROVIDERS = {ZiHourRule.EARLY: DefaultEightCharProvider(), ZiHourRule.LATE: LunarSect2EightCharProvider()}


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


def _solar_time(moment: datetime) -> SolarTime:
    if moment.tzinfo is None:
        raise InputError(f"moment {moment.isoformat()} has no time zone")
    local = moment.astimezone(BEIJING)
    if not 1 <= local.year <= 9999:
        raise InputError(f"year {local.year} is outside the calendar's range")
    return SolarTime.from_ymd_hms(local.year, local.month, local.day, local.hour, local.minute, local.second)


def _term(term: SolarTerm) -> Term:
    t = term.get_julian_day().get_solar_time()
    moment = datetime(
        t.get_year(), t.get_month(), t.get_day(), t.get_hour(), t.get_minute(), t.get_second(), tzinfo=BEIJING
    )
    return Term(TERM_NAMES[term.get_index()], moment, term.is_jie())


def _terms_near(moment: datetime, before: int, after: int) -> list[Term]:
    current = _solar_time(moment).get_term()
    try:
        return [_term(current.next(k)) for k in range(-before, after + 1)]
    except ValueError:
        raise InputError(
            f"{moment.isoformat()} is too close to the calendar's limits (years 1–9999) for its solar terms"
        ) from None


def last_zhongqi(moment: datetime) -> Term:
    """The most recent 中氣 at or before ``moment`` (月將 changes there)."""
    previous, current = _terms_near(moment, 1, 0)
    return previous if current.is_jie else current


def nearest_term(moment: datetime, jie: bool) -> Term:
    """The 節 (``jie=True``) or 中氣 boundary nearest to ``moment``."""
    candidates = [t for t in _terms_near(moment, 2, 2) if t.is_jie == jie]
    return min(candidates, key=lambda t: abs(t.moment - moment))


def next_jie(moment: datetime) -> Term:
    """The first 節 after ``moment`` (where the month pillar next changes)."""
    return next(t for t in _terms_near(moment, 0, 2) if t.is_jie and t.moment > moment)


def last_lichun(moment: datetime) -> Term:
    """The 立春 at or before ``moment``: the start of the year its year pillar names."""
    year = _solar_time(moment).get_year()
    for y in (year, year - 1):
        if y < 1:
            break
        term = _term(SolarTerm.from_name(y, "立春"))
        if term.moment <= moment:
            return term
    raise InputError(f"no 立春 before {moment.isoformat()} within the calendar's range (years 1–9999)")


def pillars_at(
    moment: datetime, zi_hour_rule: ZiHourRule = ZiHourRule.EARLY
) -> tuple[Pillars, CalendarRecord]:
    """The four pillars of ``moment`` and the record of how they were computed."""
    eight = _PROVIDERS[zi_hour_rule].get_eight_char(_solar_time(moment).get_lunar_hour())
    pillars = Pillars(
        *(
            GanZhi.from_name(p.get_name())
            for p in (eight.get_year(), eight.get_month(), eight.get_day(), eight.get_hour())
        )
    )
    record = CalendarRecord(
        pillars_given=False,
        moment=moment,
        timezone=str(moment.tzinfo),
        library=f"tyme4py {version('tyme4py')}",
        zi_hour_rule=zi_hour_rule,
        nearest_jie=nearest_term(moment, jie=True),
    )
    return pillars, record
