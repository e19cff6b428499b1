"""The two worked examples of 《易隱》 遷移占 (docs/liuyao-doctrine.md §3.1), from pillars and dates."""

from __future__ import annotations

import pytest

from kg.calendar import Pillars
from kg.liuyao.chart import Chart, cast_chart, chart_from_inputs

# line 6 → 1: (六神, 六親, 納甲, 世/應 mark, 伏神 or None, carries 卦身), then the 變卦 line (六親, 納甲, mark)
EXAMPLE_A = {
    "pillars": "庚寅 戊寅 癸亥",
    "moment": "2070-02-27T12:00",
    "values": "9 7 7 7 7 8",
    "hexagram": ("澤天夬", "夬", "坤", "五世", "土", 5, 2),
    "changed": ("澤風大過", "大過", "震", "游魂", 4, 1),
    "void": "子丑",
    "gua_shen": ("辰", (3,)),
    "lines": [
        ("白虎", "兄弟", "丁未土", "", None, False, ("兄弟", "丁未土", "")),
        ("螣蛇", "子孫", "丁酉金", "世", None, False, ("子孫", "丁酉金", "")),
        ("勾陳", "妻財", "丁亥水", "", None, False, ("妻財", "丁亥水", "世")),
        ("朱雀", "兄弟", "甲辰土", "", None, True, ("子孫", "辛酉金", "")),
        ("青龍", "官鬼", "甲寅木", "應", ("父母", "乙巳火"), False, ("妻財", "辛亥水", "")),
        ("玄武", "妻財", "甲子水", "", None, False, ("兄弟", "辛丑土", "應")),
    ],
    "moving": (1,),
}

EXAMPLE_B = {
    "pillars": "庚寅 庚辰 丁巳",
    "moment": "2070-04-22T12:00",
    "values": "8 8 6 7 8 8",
    "hexagram": ("雷地豫", "豫", "震", "一世", "木", 1, 4),
    "changed": ("雷山小過", "小過", "兌", "游魂", 4, 1),
    "void": "子丑",
    "gua_shen": ("午", (4,)),
    "lines": [
        ("青龍", "妻財", "庚戌土", "", None, False, ("妻財", "庚戌土", "")),
        ("玄武", "官鬼", "庚申金", "", None, False, ("官鬼", "庚申金", "")),
        ("白虎", "子孫", "庚午火", "應", None, True, ("子孫", "庚午火", "世")),
        ("螣蛇", "兄弟", "乙卯木", "", None, False, ("官鬼", "丙申金", "")),
        ("勾陳", "子孫", "乙巳火", "", None, False, ("子孫", "丙午火", "")),
        ("朱雀", "妻財", "乙未土", "世", ("父母", "庚子水"), False, ("妻財", "丙辰土", "應")),
    ],
    "moving": (3,),
}


def _mark(line) -> str:
    return "世" if line.shi else "應" if line.ying else ""


def _check(chart: Chart, example: dict) -> None:
    name, short, palace, generation, element, shi, ying = example["hexagram"]
    h = chart.hexagram
    assert (h.name, h.short, h.palace.char, h.generation.char, h.palace_element.char, h.shi, h.ying) == (
        name, short, palace, generation, element, shi, ying,
    )  # fmt: skip
    name, short, palace, generation, shi, ying = example["changed"]
    c = chart.changed_hexagram
    assert c is not None
    assert (c.name, c.short, c.palace.char, c.generation.char, c.shi, c.ying) == (
        name,
        short,
        palace,
        generation,
        shi,
        ying,
    )
    assert "".join(b.char for b in chart.void) == example["void"]
    branch, positions = example["gua_shen"]
    assert chart.gua_shen.branch is not None and chart.gua_shen.branch.char == branch
    assert chart.gua_shen.positions == positions
    assert chart.moving_positions == example["moving"]
    hidden = {x.position: x for x in chart.hidden_lines}
    for position, expected in zip(range(6, 0, -1), example["lines"], strict=True):
        beast, rel, gz, mark, fu, body, (c_rel, c_gz, c_mark) = expected
        line = chart.lines[position - 1]
        assert (line.beast.char, line.relative.char, line.ganzhi.name + line.element.char, _mark(line)) == (
            beast, rel, gz, mark,
        ), position  # fmt: skip
        assert line.gua_shen is body
        if fu is None:
            assert position not in hidden
        else:
            h = hidden[position]
            assert (h.relative.char, h.ganzhi.name + h.element.char) == fu
        changed = chart.changed_lines[position - 1]
        assert (changed.relative.char, changed.ganzhi.name + changed.element.char, _mark(changed)) == (
            c_rel,
            c_gz,
            c_mark,
        )
    assert len(chart.hidden_lines) == 1


@pytest.mark.parametrize("example", [EXAMPLE_A, EXAMPLE_B], ids=["A", "B"])
def test_example_from_pillars(example: dict) -> None:
    values = tuple(int(v) for v in example["values"].split())
    _check(cast_chart(Pillars.parse(example["pillars"]), values), example)


@pytest.mark.parametrize("example", [EXAMPLE_A, EXAMPLE_B], ids=["A", "B"])
def test_example_from_date(example: dict) -> None:
    chart = chart_from_inputs(example["moment"], None, example["values"], None, None, None)
    assert [p.ganzhi.name for p in chart.pillars[:3]] == example["pillars"].split()
    assert not chart.calendar.pillars_given and not chart.calendar.near_jie
    _check(chart, example)


def test_example_from_hexagram_name() -> None:
    chart = chart_from_inputs(None, EXAMPLE_A["pillars"], None, "夬", "1", None)
    assert chart.values == (9, 7, 7, 7, 7, 8)
    _check(chart, EXAMPLE_A)
    chart = chart_from_inputs(None, EXAMPLE_B["pillars"], None, "雷地豫", "3", None)
    _check(chart, EXAMPLE_B)


def test_example_b_is_liu_he_and_its_change() -> None:
    """豫 is a 六合卦 (未午, 巳申, 卯戌); 六三 乙卯木 兄弟 → 丙申金 官鬼 is 回頭克 (金克木)."""
    chart = cast_chart(Pillars.parse(EXAMPLE_B["pillars"]), (8, 8, 6, 7, 8, 8))
    assert chart.hexagram.is_liu_he and not chart.hexagram.is_liu_chong
    changed = chart.changed_lines[2]
    assert changed.relation is not None and changed.relation.char == "回頭克"
    assert not changed.clashes_back and not changed.advance and not changed.retreat
    # 丙申 in 辰 month, 巳 day: 申 is not clashed by 辰; 巳申 is a 六合 but not with the moving 卯
    assert not changed.to_break and not changed.combines_back
