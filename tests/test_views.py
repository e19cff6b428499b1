"""Terminal and witness views print every value, including those whose enum value is 0 (子, 甲)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kg.cli import main
from kg.ganzhi import Branch, GanZhi
from kg.liuren import chart_from_inputs
from kg.witness import _liuren_graph


def test_the_body_on_zi_is_named_in_the_terminal_view():
    """地雷復 (788888): 坤宮一世, a yang 世 on line 1, so the 月卦身 is 子 (docs/liuyao-doctrine.md §4.7),
    carried by line 1 (庚子)."""
    result = CliRunner().invoke(main, ["chart", "liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "788888"])
    assert result.exit_code == 0, result.output
    assert "卦身 子 (1)" in result.output


def test_a_natal_branch_zi_is_kept_in_the_witness_inputs():
    chart = chart_from_inputs(day=GanZhi.from_name("癸未"), ju=4, birth=Branch.ZI, walking_year=Branch.ZI)
    sample = _liuren_graph(chart, "--day 癸未 --ju 4", Branch.ZI, Branch.ZI)
    assert "--birth 子 --walking-year 子" in sample.inputs


def test_every_liuren_view_flags_a_moment_within_a_minute_of_a_zhongqi():
    """春分 2024 fell at 11:06 Beijing time (Hong Kong Observatory): 月將 戌 starts there."""
    runner = CliRunner()
    near = ["chart", "liuren", "--moment", "2024-03-20T11:06:40"]
    text = runner.invoke(main, near).output
    assert "within a minute of the 中氣 春分" in text
    data = json.loads(runner.invoke(main, [*near, "--format", "json"]).output)
    assert data["calendar"]["near_zhongqi"]["name"] == "春分"
    assert "dk:nearSolarTerm true" in runner.invoke(main, [*near, "--format", "turtle"]).output
    far = runner.invoke(main, ["chart", "liuren", "--moment", "2024-03-20T11:10", "--format", "json"]).output
    assert json.loads(far)["calendar"]["near_zhongqi"] is None


def test_control_characters_in_a_chart_file_never_reach_the_terminal(tmp_path, built_graph):
    """A label carrying an escape sequence (here ESC [31m) is printed as visible text."""
    source = Path(__file__).resolve().parents[1] / "ontology" / "examples" / "yiyin-example-a.ttl"
    text = source.read_text(encoding="utf-8")
    hostile = text.replace('dk:label "初爻', 'dk:label "\\u001b[31m初爻')
    assert hostile != text
    chart = tmp_path / "hostile.ttl"
    chart.write_text(hostile, encoding="utf-8")
    result = CliRunner().invoke(main, ["match", str(chart), "--topic", "遷移", "--graph", str(built_graph)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "\\x1b[31m初爻" in result.output
