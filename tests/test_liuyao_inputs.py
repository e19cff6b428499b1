"""Parsing casts and the CLI entry point: good input, and bad input with a message naming the problem."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.liuyao.cast import find_hexagram, parse_coins, parse_moving, parse_values
from kg.liuyao.chart import chart_from_inputs
from kg.liuyao.view import chart_to_json, render


def test_value_forms() -> None:
    assert (
        parse_values("9 7 7 7 7 8")
        == parse_values("977778")
        == parse_values("9,7,7,7,7,8")
        == (9, 7, 7, 7, 7, 8)
    )


def test_coins() -> None:
    """H counts 3, T 2: HHH = 9 老陽, TTT = 6 老陰, HTT = 7 少陽, HHT = 8 少陰."""
    assert parse_coins("HHH TTT HTT HHT thh 背字字") == (9, 6, 7, 8, 8, 7)
    assert parse_coins("3 0 1 2 2 1") == parse_coins("301221") == (9, 6, 7, 8, 8, 7)


def test_hexagram_names() -> None:
    assert find_hexagram("澤天夬") is find_hexagram("夬") is find_hexagram("泽天夬")
    assert find_hexagram("乾") is find_hexagram("乾為天") is find_hexagram("乾为天")
    assert parse_moving("1 3") == parse_moving("31") == (1, 3)
    assert parse_moving(None) == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9 7 7 7 7 5", "line value '5'"),
        ("9 7 7 7 7 10", "line value '10'"),
        ("9 7 7 7 7", "exactly six lines"),
        ("9 7 7 7 7 8 8", "exactly six lines"),
    ],
)
def test_bad_values(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_values(text)


def test_bad_other_inputs() -> None:
    with pytest.raises(InputError, match="unknown hexagram name '天天'"):
        find_hexagram("天天")
    with pytest.raises(InputError, match="moving line '7'"):
        parse_moving("7")
    with pytest.raises(InputError, match="coin count '4'"):
        parse_coins("3 2 1 0 2 4")
    with pytest.raises(InputError, match="three coins"):
        parse_coins("HH HHT HHT HHT HHT HHT")
    with pytest.raises(InputError, match="impossible 干支 pair 甲丑"):
        chart_from_inputs(None, "庚寅 戊寅 甲丑", "9 7 7 7 7 8", None, None, None)
    with pytest.raises(InputError, match="not an ISO date-time: '2024-13-01'"):
        chart_from_inputs("2024-13-01", None, "9 7 7 7 7 8", None, None, None)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "either a moment"),
        ({"moment": "2070-02-27T12:00", "pillars": "庚寅 戊寅 癸亥"}, "not both"),
        ({"pillars": "庚寅 戊寅 癸亥"}, "give the cast"),
        ({"pillars": "庚寅 戊寅 癸亥", "lines": "977778", "hexagram": "夬"}, "not lines and hexagram"),
        ({"pillars": "庚寅 戊寅 癸亥", "lines": "977778", "moving": "1"}, "moving lines go with a hexagram"),
    ],
)
def test_exclusive_inputs(kwargs: dict[str, str], message: str) -> None:
    args = {k: kwargs.get(k) for k in ("moment", "pillars", "lines", "hexagram", "moving", "coins")}
    with pytest.raises(InputError, match=message):
        chart_from_inputs(**args)


def test_views() -> None:
    chart = chart_from_inputs(None, "庚寅 戊寅 癸亥", None, None, None, "HHH HTT HTT HTT HTT HHT")
    text = render(chart)
    assert "澤天夬 (坤宮 五世" in text and "澤風大過 (震宮 游魂" in text and "旬空 子丑" in text
    assert "玄武" in text and "○" in text and "父母 乙巳火" in text
    data = chart_to_json(chart)
    assert data["hexagram"]["name"] == "澤天夬" and data["changed_hexagram"]["generation"] == "游魂"
    assert [line["beast"] for line in data["lines"]] == ["玄武", "青龍", "朱雀", "勾陳", "螣蛇", "白虎"]
    assert data["hidden_lines"][0]["relative"] == "父母" and data["gua_shen"]["branch"] == "辰"
