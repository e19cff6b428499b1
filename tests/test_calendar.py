"""Calendar edge cases (docs/liuyao-doctrine.md §5), through kg.calendar and the 六爻 entry point."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tyme4py.eightchar.provider.impl import DefaultEightCharProvider, LunarSect2EightCharProvider
from tyme4py.solar import SolarTime

from kg.calendar import (
    BEIJING,
    FIRST_DAY,
    JIE_BRANCH,
    LAST_DAY,
    Pillars,
    ZiHourRule,
    day_pillar,
    last_jie,
    last_lichun,
    month_general_mismatch,
    month_generals,
    parse_moment,
    pillar_inconsistencies,
    pillars_at,
)
from kg.errors import InputError
from kg.ganzhi import Branch, GanZhi
from kg.liuyao.chart import chart_from_inputs


def _pillars(text: str, rule: ZiHourRule = ZiHourRule.EARLY) -> list[str]:
    pillars, _ = pillars_at(parse_moment(text), rule)
    return [p.name for p in (pillars.year, pillars.month, pillars.day, pillars.hour) if p is not None]


def test_li_chun_2024_to_the_minute() -> None:
    assert _pillars("2024-02-04T16:26")[:2] == ["癸卯", "乙丑"]
    assert _pillars("2024-02-04T16:28")[:2] == ["甲辰", "丙寅"]


@pytest.mark.parametrize(
    ("moment", "lichun"),
    [
        ("2024-02-04T16:26", "2023-02-04 10:42"),
        ("2024-02-04T16:28", "2024-02-04 16:27"),
        ("2024-12-31T23:00", "2024-02-04 16:27"),
    ],
)
def test_last_li_chun(moment: str, lichun: str) -> None:
    """The 立春 that opened the year pillar's year (Hong Kong Observatory: 2023-02-04 10:42, 2024-02-04 16:27)."""
    assert f"{last_lichun(parse_moment(moment)).moment:%Y-%m-%d %H:%M}" == lichun


@pytest.mark.parametrize(
    "moment",
    [
        "0001-01-15T12:00",
        "0001-01-01T00:30+09:00",
        "0099-12-31T23:59",
        "9899-12-31T23:00-12:00",
        "9999-12-31T23:00",
    ],
)
def test_moments_outside_the_range_are_input_errors(moment: str) -> None:
    with pytest.raises(InputError, match="outside the supported range 0100-01-01 to 9899-12-31"):
        pillars_at(parse_moment(moment))
    with pytest.raises(InputError, match="outside the supported range"):
        last_lichun(parse_moment(moment))


def test_the_range_edges_chart() -> None:
    assert _pillars("0100-01-01T00:00")[2] == day_pillar(date(100, 1, 1)).name
    assert _pillars("9899-12-31T22:59")[2] == day_pillar(date(9899, 12, 31)).name


def test_dates_are_proleptic_gregorian_across_the_reform() -> None:
    """Julian Thursday 1582-10-04 was followed by Gregorian Friday 1582-10-15, and the day cycle
    ran on unbroken: ISO 1582-10-14 (proleptic Gregorian) is that Julian 4 October. tyme4py, which
    writes dates before the reform in the Julian calendar, names the same day for 1582-10-04."""

    def tyme4py_day(y: int, m: int, d: int) -> str:
        hour = SolarTime.from_ymd_hms(y, m, d, 12, 0, 0).get_lunar_hour()
        return DefaultEightCharProvider().get_eight_char(hour).get_day().get_name()

    assert _pillars("1582-10-15T12:00")[2] == tyme4py_day(1582, 10, 15)
    assert _pillars("1582-10-14T12:00")[2] == tyme4py_day(1582, 10, 4)
    first = GanZhi.from_name(tyme4py_day(1582, 10, 15))
    for day in range(5, 15):  # the ten dates the reform skipped exist in ISO 8601
        assert _pillars(f"1582-10-{day:02d}T12:00")[2] == GanZhi.from_index(first.index + day - 15).name


def test_pillars_agree_with_tyme4py_on_modern_dates() -> None:
    """tyme4py's own 八字 (an independent implementation) for 400 seeded moments 1900–2100, both 子時
    rules; moments within two minutes of a 節 are left out (the libraries may round differently)."""
    providers = {ZiHourRule.EARLY: DefaultEightCharProvider(), ZiHourRule.LATE: LunarSect2EightCharProvider()}
    rnd = random.Random(20261201)
    for _ in range(400):
        m = datetime(1900, 1, 1, tzinfo=BEIJING) + timedelta(seconds=rnd.randrange(200 * 365 * 86400))
        rule = rnd.choice(list(ZiHourRule))
        pillars, record = pillars_at(m, rule)
        if abs(record.nearest_jie.moment - m) < timedelta(minutes=2):
            continue
        theirs = providers[rule].get_eight_char(
            SolarTime.from_ymd_hms(m.year, m.month, m.day, m.hour, m.minute, m.second).get_lunar_hour()
        )
        names = (theirs.get_year(), theirs.get_month(), theirs.get_day(), theirs.get_hour())
        assert str(pillars) == " ".join(p.get_name() for p in names), (m, rule)


DAYS = st.dates(min_value=FIRST_DAY, max_value=LAST_DAY - timedelta(days=1))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(DAYS)
def test_the_day_pillar_advances_by_one_each_day(day: date) -> None:
    today = pillars_at(datetime.combine(day, time(12), BEIJING))[0].day
    tomorrow = pillars_at(datetime.combine(day + timedelta(days=1), time(12), BEIJING))[0].day
    assert tomorrow.index == (today.index + 1) % 60


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)), st.integers(-14, 14))
def test_every_moment_charts_or_is_refused(moment: datetime, hours: int) -> None:
    aware = moment.replace(tzinfo=timezone(timedelta(hours=hours)))
    try:
        pillars, record = pillars_at(aware)
    except InputError as exc:
        assert "outside the supported range" in str(exc)
        assert not FIRST_DAY <= aware.astimezone(BEIJING).date() <= LAST_DAY
    else:
        assert record.nearest_jie is not None
        assert pillars.month.branch == JIE_BRANCH[last_jie(aware).name]


def test_before_li_chun_2025() -> None:
    assert _pillars("2025-02-03T12:00")[:2] == ["甲辰", "丁丑"]


def test_zi_hour_rules() -> None:
    early = _pillars("2024-02-04T23:30", ZiHourRule.EARLY)
    late = _pillars("2024-02-04T23:30", ZiHourRule.LATE)
    assert (early[2], early[3]) == ("己亥", "甲子")
    assert (late[2], late[3]) == ("戊戌", "甲子")


def test_near_jie_is_flagged() -> None:
    chart = chart_from_inputs("2024-02-04T16:26:30", None, "7 7 7 7 7 7", None, None, None)
    assert chart.calendar.near_jie
    assert chart.calendar.nearest_jie is not None and chart.calendar.nearest_jie.name == "立春"
    far = chart_from_inputs("2024-02-04T12:00", None, "7 7 7 7 7 7", None, None, None)
    assert not far.calendar.near_jie


def test_other_time_zone_is_converted() -> None:
    """2024-02-04 10:28 in Paris (UTC+1) is 17:28 Beijing time, after 立春: 甲辰 丙寅."""
    assert _pillars("2024-02-04T10:28+01:00")[:2] == ["甲辰", "丙寅"]
    assert _pillars("2024-02-04T09:26+01:00")[:2] == ["癸卯", "乙丑"]
    moment = parse_moment("2024-02-04T10:28+01:00")
    assert moment.astimezone(BEIJING) == datetime(2024, 2, 4, 17, 28, tzinfo=timezone(timedelta(hours=8)))


def test_moment_without_offset_is_beijing() -> None:
    assert parse_moment("2070-02-27T12:00").utcoffset() == timedelta(hours=8)


@pytest.mark.parametrize(
    ("moment", "zhongqi", "general"),
    [
        ("2024-04-25T12:00", "穀雨", "酉"),
        ("2024-05-25T12:00", "小滿", "申"),
        ("2024-08-25T12:00", "處暑", "巳"),
    ],
)
def test_zhongqi_names_are_traditional_in_every_season(moment, zhongqi, general):
    """tyme4py names 谷雨 小满 处暑 in simplified characters; the 月將 table (穀雨 酉 … 處暑 巳) needs them."""
    from kg.calendar import last_zhongqi
    from kg.liuren.plates import month_general_at

    assert last_zhongqi(parse_moment(moment)).name == zhongqi
    assert month_general_at(parse_moment(moment))[0].branch.char == general


# ── consistency of given pillars (五虎遁, 五鼠遁) and of a given 月將 ───────────────────────────────


def test_almanac_pillars_are_consistent() -> None:
    """tyme4py's 八字 (an independent implementation) for 300 seeded moments 1900–2100, both 子時 rules,
    break neither 五虎遁 nor 五鼠遁 (under the midnight rule 23:00–24:00 takes the next day's 子 stem)."""
    providers = {ZiHourRule.EARLY: DefaultEightCharProvider(), ZiHourRule.LATE: LunarSect2EightCharProvider()}
    rnd = random.Random(20261202)
    for _ in range(300):
        m = datetime(1900, 1, 1, tzinfo=BEIJING) + timedelta(seconds=rnd.randrange(200 * 365 * 86400))
        rule = rnd.choice(list(ZiHourRule))
        theirs = providers[rule].get_eight_char(
            SolarTime.from_ymd_hms(m.year, m.month, m.day, m.hour, m.minute, m.second).get_lunar_hour()
        )
        names = (theirs.get_year(), theirs.get_month(), theirs.get_day(), theirs.get_hour())
        pillars = Pillars.parse(" ".join(p.get_name() for p in names))
        assert pillar_inconsistencies(pillars, rule) == (), (m, rule, pillars)


def test_inconsistent_pillars_are_refused_naming_both_rules() -> None:
    """庚年 months start at 戊寅 (乙庚之歲戊為頭), 癸日 hours at 壬子 (戊癸何方發，壬子是真途)."""
    with pytest.raises(InputError) as refused:
        chart_from_inputs(None, "庚寅 甲寅 癸亥 甲子", "977778", None, None, None)
    message = str(refused.value)
    assert "month 甲寅 cannot occur in a 庚 year: 五虎遁 gives 戊寅" in message
    assert "hour 甲子 cannot occur on a 癸 day: 五鼠遁 gives 壬子" in message
    assert "--accept-inconsistent-pillars" in message
    assert (
        chart_from_inputs(None, "庚寅 戊寅 癸亥", "977778", None, None, None).calendar.inconsistencies == ()
    )


def test_inconsistent_pillars_accepted_are_recorded() -> None:
    from click.testing import CliRunner
    from rdflib import Graph

    from kg.liuyao.commands import chart_command
    from kg.vocabulary import DK

    chart = chart_from_inputs(
        None, "庚寅 甲寅 癸亥 甲子", "977778", None, None, None, accept_inconsistent_pillars=True
    )
    assert len(chart.calendar.inconsistencies) == 2
    args = ["--pillars", "庚寅 甲寅 癸亥 甲子", "--lines", "977778"]
    refused = CliRunner().invoke(chart_command, args)
    assert refused.exit_code == 2 and "五虎遁" in refused.stderr and "五鼠遁" in refused.stderr
    accepted = [*args, "--accept-inconsistent-pillars"]
    text = CliRunner().invoke(chart_command, accepted)
    assert text.exit_code == 0 and "inconsistent pillars accepted: month 甲寅" in text.output
    data = CliRunner().invoke(chart_command, [*accepted, "--format", "json"])
    assert "五鼠遁 gives 壬子" in data.output
    turtle = CliRunner().invoke(chart_command, [*accepted, "--format", "turtle"])
    graph = Graph().parse(data=turtle.output, format="turtle")
    assert {str(o) for o in graph.objects(None, DK.inconsistentPillars)} == set(
        chart.calendar.inconsistencies
    )


def test_the_late_zi_hour_takes_the_next_days_stem() -> None:
    """2024-02-04 23:30 under the midnight rule is 戊戌日 甲子時 (test_zi_hour_rules): consistent then only."""
    pillars = Pillars.parse("甲辰 丙寅 戊戌 甲子")
    assert pillar_inconsistencies(pillars, ZiHourRule.LATE) == ()
    assert pillar_inconsistencies(pillars, ZiHourRule.EARLY) == (
        "hour 甲子 cannot occur on a 戊 day: 五鼠遁 gives 壬子",
    )


def test_month_generals_of_each_month() -> None:
    """The 將 of each 中氣 (《六壬大全》, kg.liuren.plates) against the month that 中氣 falls in."""
    from kg.liuren.plates import MONTH_GENERALS

    month_of = {
        "雨水": "寅", "春分": "卯", "穀雨": "辰", "小滿": "巳", "夏至": "午", "大暑": "未",
        "處暑": "申", "秋分": "酉", "霜降": "戌", "小雪": "亥", "冬至": "子", "大寒": "丑",
    }  # fmt: skip
    for general in MONTH_GENERALS:
        month = Branch.from_char(month_of[general.zhongqi])
        assert month_generals(month)[1:] == (general.branch, general.zhongqi)
        assert month_generals(month.shift(1))[0] == general.branch
    assert month_generals(Branch.YIN) == (Branch.ZI, Branch.HAI, "雨水")


def test_month_general_mismatch() -> None:
    assert month_general_mismatch(Branch.YIN, Branch.SI) == (
        "月將 巳 cannot occur in a 寅 month: 寅月 has 子 until 雨水 and 亥 from 雨水"
    )
    assert month_general_mismatch(Branch.YIN, Branch.HAI) is None
    assert month_general_mismatch(Branch.YIN, Branch.ZI) is None


def test_the_calendar_month_general_is_never_a_mismatch() -> None:
    """月建 and 月將 of 200 seeded moments 1900–2100 (pillars_at and kg.liuren's month_general_at)."""
    from kg.liuren.plates import month_general_at

    rnd = random.Random(20261203)
    for _ in range(200):
        m = datetime(1900, 1, 1, tzinfo=BEIJING) + timedelta(seconds=rnd.randrange(200 * 365 * 86400))
        month = pillars_at(m)[0].month.branch
        assert month_general_mismatch(month, month_general_at(m)[0].branch) is None, m
