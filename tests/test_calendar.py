"""Calendar edge cases (notes/liuyao-tables.md §5), through kg.calendar and the 六爻 entry point."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from kg.calendar import BEIJING, ZiHourRule, last_lichun, parse_moment, pillars_at
from kg.errors import InputError
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


def test_moment_at_the_calendar_limit_is_an_input_error() -> None:
    with pytest.raises(InputError, match="too close to the calendar's limits"):
        pillars_at(parse_moment("0001-01-15T12:00"))


def test_no_li_chun_before_the_calendar() -> None:
    with pytest.raises(InputError, match="no 立春 before"):
        last_lichun(parse_moment("0001-01-15T12:00"))


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
