"""Chart inputs: invariance over (月將, 占時), the 月將 change at the 中氣, validation, views."""

from __future__ import annotations

import json

import pytest

from kg.errors import InputError
from kg.ganzhi import Branch, GanZhi
from kg.liuren import (
    DayNight,
    DayNightRule,
    Options,
    chart_from_inputs,
    chart_to_json,
    parse_month_general,
    render,
)


@pytest.mark.parametrize("index", range(60))
def test_transmissions_depend_only_on_day_and_ju(index: int) -> None:
    """The 12 (月將, 占時) pairs of one 局 give the same 四課 and 三傳 (tests/fixtures/README.md)."""
    day = GanZhi.from_index(index).name
    by_ju: dict[int, set[tuple[str, str]]] = {}
    for general in "子丑寅卯辰巳午未申酉戌亥":
        for hour in "子丑寅卯辰巳午未申酉戌亥":
            chart = chart_from_inputs(day=day, hour=hour, general=general)
            key = (
                " ".join(f"{ls.upper.char}{ls.lower.char}" for ls in chart.lessons),
                "".join(b.char for b in chart.derivation.branches) + chart.derivation.method.char,
            )
            by_ju.setdefault(chart.ju, set()).add(key)
    assert sorted(by_ju) == list(range(1, 13))
    assert all(len(keys) == 1 for keys in by_ju.values())
    for ju, keys in by_ju.items():
        by_number = chart_from_inputs(day=day, ju=ju)
        assert (
            "".join(b.char for b in by_number.derivation.branches) + by_number.derivation.method.char
            == next(iter(keys))[1]
        )


@pytest.mark.parametrize(
    ("moment", "general", "ju"),
    [("2024-03-20T11:00", "亥", 8), ("2024-03-20T11:07", "戌", 9), ("2024-03-20T12:00", "戌", 9)],
)
def test_month_general_changes_at_chunfen(moment: str, general: str, ju: int) -> None:
    """docs/liuren-doctrine.md §4.2: 2024-03-20 is a 癸未 day, 春分 at 11:06:25; 午時 with 戌 is 第9局."""
    chart = chart_from_inputs(moment)
    assert chart.day.name == "癸未"
    assert chart.hour is Branch.WU
    assert chart.month_general is not None and chart.month_general.branch.char == general
    assert chart.ju == ju
    assert chart.zhongqi is not None and chart.zhongqi.name == ("雨水" if general == "亥" else "春分")
    assert chart.month is Branch.MAO  # 卯月 (驚蟄–清明)
    assert chart.day_night is DayNight.DAY


def test_explicit_inputs_agree_with_the_moment() -> None:
    by_moment = chart_from_inputs("2024-03-20T12:00")
    by_name = chart_from_inputs(day="癸未", hour="午", general="河魁")
    assert by_name.ju == 9 and by_name.month_general == by_moment.month_general
    assert by_name.derivation == by_moment.derivation
    assert by_name.seats[0]._replace(state=None) == by_moment.seats[0]._replace(state=None)
    assert parse_month_general("神后").branch is Branch.ZI


def test_ju_with_one_of_hour_or_general_fills_the_other() -> None:
    chart = chart_from_inputs(day="癸未", ju=9, hour="午")
    assert chart.month_general is not None and chart.month_general.branch is Branch.XU
    chart = chart_from_inputs(day="癸未", ju=9, general="戌")
    assert chart.hour is Branch.WU


def test_ju_alone_leaves_general_and_hour_unknown() -> None:
    chart = chart_from_inputs(day="癸未", ju=9)
    assert chart.month_general is None and chart.hour is None and chart.day_night is None
    assert all(s.general is None for s in chart.seats)
    fixed = chart_from_inputs(day="癸未", ju=9, options=Options(day_night_rule=DayNightRule.NIGHT))
    assert fixed.day_night is DayNight.NIGHT and fixed.seats[0].general == fixed.seats[0].night_general


def test_birth_and_walking_year_uppers() -> None:
    chart = chart_from_inputs(day="癸未", ju=9, birth="甲子", walking_year="寅")
    assert chart.birth is not None and (chart.birth.branch.char, chart.birth.upper.char) == ("子", "辰")
    assert chart.walking_year is not None and chart.walking_year.upper.char == "午"


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"day": "甲丑", "ju": 1}, "甲丑"),
        ({"day": "癸未", "hour": "午", "general": "天馬"}, "月將"),
        ({"day": "癸未", "ju": 0}, "局"),
        ({"day": "癸未", "ju": 13}, "局"),
        ({"day": "癸未", "hour": "午"}, "月將"),
        ({"day": "癸未"}, "missing"),
        ({"hour": "午", "general": "戌"}, "missing"),
        ({"day": "癸未", "hour": "午", "general": "戌", "ju": 3}, "conflicting"),
        ({"moment": "2024-03-20T12:00", "day": "癸未"}, "conflicting"),
        ({"moment": "2024-13-20T12:00"}, "ISO"),
        ({"day": "癸未", "hour": "X", "general": "戌"}, "branch"),
    ],
)
def test_bad_input_names_the_problem(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        chart_from_inputs(**kwargs)  # type: ignore[arg-type]


def test_unknown_noble_table() -> None:
    with pytest.raises(InputError, match="貴人"):
        Options(noble_table="Z")


def test_views() -> None:
    chart = chart_from_inputs("2024-03-20T12:00", birth="子")
    text = render(chart)
    assert "第9局" in text and "河魁" in text and "旬空 申酉" in text and "春分" in text
    data = json.loads(json.dumps(chart_to_json(chart), ensure_ascii=False))
    assert data["ju"] == 9 and [t["stem"] for t in data["transmissions"]] == [None, "丁", "辛"]
    assert len(data["plate"]) == 12 and data["plate"][5]["heaven"] == "酉" and data["plate"][5]["void"]
    assert data["calendar"]["zhongqi"]["name"] == "春分"
    assert "第7局" in render(chart_from_inputs(day="戊辰", ju=7))


def test_zi_hour_rule_option_moves_the_day() -> None:
    """23:00–24:00: the day changes at 23:00 by default, at midnight with ZiHourRule.LATE."""
    from kg.calendar import ZiHourRule

    early = chart_from_inputs("2024-03-20T23:30")
    late = chart_from_inputs("2024-03-20T23:30", options=Options(zi_hour_rule=ZiHourRule.LATE))
    assert (early.day.name, late.day.name) == ("甲申", "癸未")
    assert early.hour is late.hour is Branch.ZI


def test_options_take_their_values_by_name() -> None:
    """Options take their enum values by name (as the CLI gives them) and refuse unknown ones."""
    from kg.liuren.chart import Options
    from kg.liuren.generals import DayNightRule

    assert Options(day_night_rule="day").day_night_rule is DayNightRule.DAY
    with pytest.raises(InputError, match="shehai_variant"):
        Options(shehai_variant="depth")


def test_a_month_general_the_month_cannot_have_is_refused() -> None:
    """寅月 runs from 立春 to 驚蟄: its 月將 is 子 (神后) until 雨水 and 亥 (登明) from 雨水
    (docs/liuren-doctrine.md §4.2); 巳 never falls in it."""
    with pytest.raises(InputError, match="月將 巳 cannot occur in a 寅 month"):
        chart_from_inputs(day="癸未", hour="午", general="巳", month="寅")
    for general in ("子", "亥"):
        assert (
            chart_from_inputs(day="癸未", hour="午", general=general, month="寅").month_general.branch.char
            == general
        )
    accepted = chart_from_inputs(day="癸未", hour="午", general="巳", month="寅", accept_inconsistent=True)
    assert accepted.month_general.branch is Branch.SI


def test_a_month_general_accepted_against_the_month_is_recorded() -> None:
    """With --accept-inconsistent-pillars the 月將 巳 of a 寅 month is cast (第2局: 巳 on 午) and the
    broken rule is named in every view and on the reading; in a 申 month (太乙 from 處暑) it is consistent."""
    from click.testing import CliRunner
    from rdflib import Graph

    from kg.liuren.commands import chart_command
    from kg.vocabulary import DK

    args = ["--day", "癸未", "--hour", "午", "--general", "巳", "--month", "寅"]
    refused = CliRunner().invoke(chart_command, args)
    assert refused.exit_code == 2
    assert "月將 巳 cannot occur in a 寅 month" in refused.stderr
    assert "--accept-inconsistent-pillars" in refused.stderr
    accepted = [*args, "--accept-inconsistent-pillars"]
    text = CliRunner().invoke(chart_command, accepted)
    assert text.exit_code == 0
    assert text.output.startswith("癸未日 第2局")
    assert "inconsistent inputs accepted: 月將 巳 cannot occur in a 寅 month" in text.output
    data = json.loads(CliRunner().invoke(chart_command, [*accepted, "--format", "json"]).output)
    assert [why[:24] for why in data["inconsistencies"]] == ["月將 巳 cannot occur in a 寅 month"[:24]]
    turtle = CliRunner().invoke(chart_command, [*accepted, "--format", "turtle"]).output
    recorded = {
        str(o) for o in Graph().parse(data=turtle, format="turtle").objects(None, DK.inconsistentPillars)
    }
    assert recorded == set(data["inconsistencies"])
    consistent = json.loads(
        CliRunner().invoke(chart_command, [*args[:6], "--month", "申", "--format", "json"]).output
    )
    assert consistent["inconsistencies"] == []
