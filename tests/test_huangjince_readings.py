"""《黃金策》 in whole readings: a 求財 reading returns its rules, reported with verse and note."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kg.cli import main


def reading(built_graph, *args: str) -> dict:
    result = CliRunner().invoke(
        main, ["reading", "liuyao", *args, "--format", "json", "--graph", str(built_graph)]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_qiucai_reading_quotes_verse_and_note(built_graph):
    """夬之大過 (庚寅年 戊寅月 癸亥日): the moving 財 (初爻 甲子) neither generates, combines, overcomes,
    clashes, punishes nor harms the 世 (五爻 丁酉): ¶16 我去尋財，必是難, restated by its note."""
    rules = reading(built_graph, "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--topic", "求財")[
        "rules"
    ]
    found = {r["rule_id"]: r for r in rules}
    rule = found["huangjince.qiucai.wo-qu-xun-cai"]
    assert [q["quote"] for q in rule["quotes"]] == [
        "我去尋財，必是難。",
        "若雖動出財爻，而與世爻不相干者，謂我去尋財，必難望也。",
    ]
    assert rule["bindings"]["F"].endswith("/line/1") and rule["bindings"]["S"].endswith("/line/5")
    assert rule["polarity"] == "凶"
