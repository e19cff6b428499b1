"""The main job end to end: a reading from the command line, with the rules the texts give it."""

import json

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.fixture(scope="module")
def graph(built_graph):
    return built_graph


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_readme_reading_yiyin_example_a(graph):
    """《易隱》〈遷移占〉 example A (¶60): 世居酉福，正西吉也 — the verdict the text gives this chart."""
    out = run("reading", "liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--topic", "遷移",
              "--graph", str(graph), "--format", "json")  # fmt: skip
    data = json.loads(out)
    assert data["chart"]["hexagram"]["name"] == "澤天夬"
    rules = {r["rule_id"]: r for r in data["rules"]}
    west = rules["yiyin.qianyi.west"]
    assert west["quote"] == "世居酉福，正西吉也。"
    assert west["urn"].startswith("urn:cts:divkg:yiyin.juan4.zh:60.")
    assert west["citation"].startswith("曹九錫輯、曹璿演《易隱》卷四")


def test_reading_zhizhi_guiwei_4_marriage(graph):
    """《直指》 癸未日第四局: 婚姻：支干相沖，終難得就 (002 ¶8)."""
    out = run("reading", "liuren", "--day", "癸未", "--ju", "4", "--day-night", "晝", "--topic", "婚姻",
              "--graph", str(graph))  # fmt: skip
    assert "終難得就" in out
    assert "urn:cts:divkg:zhizhi.guiwei.zh:8." in out


@pytest.mark.parametrize(
    ("example", "topic", "rule", "quote"),
    [
        ("yiyin-example-a.ttl", "遷移", "yiyin.qianyi.west", "世居酉福，正西吉也。"),
        ("zhizhi-guiwei-4.ttl", "婚姻", "zhizhi.ju4.hunyin", "婚姻：支干相沖，終難得就。"),
    ],
)
def test_match_on_the_example_charts(graph, example, topic, rule, quote):
    out = run(
        "match", f"ontology/examples/{example}", "--topic", topic, "--graph", str(graph), "--format", "json"
    )
    found = {r["rule_id"]: r["quote"] for r in json.loads(out)}
    assert found[rule] == quote


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["reading", "liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977775", "--topic", "遷移"], "5"),
        (
            ["reading", "liuyao", "--pillars", "甲丑 戊寅 癸亥", "--lines", "977778", "--topic", "遷移"],
            "甲丑",
        ),
        (
            ["reading", "liuyao", "--moment", "2024-13-01", "--lines", "977778", "--topic", "遷移"],
            "2024-13-01",
        ),
        (["reading", "liuren", "--day", "癸未", "--ju", "13", "--topic", "婚姻"], "13"),
        (["reading", "liuren", "--day", "癸未", "--ju", "4", "--topic", "風水"], "unknown topic"),
    ],
)
def test_reading_bad_input(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output


def test_reading_lost_object_dao_qi(graph):
    """〈遺失〉 ¶82 凡傳見盜氣，主失耗 on 《直指》 癸未日第六局, where ¶26 calls wood 癸水之盜氣: the 初傳 卯 is
    wood; with 年命 丑 the spirit over it is 申 (干上 申 on 癸's 寄宮 丑), metal, which overcomes 卯: 先失而後得."""
    out = run("reading", "liuren", "--day", "癸未", "--ju", "6", "--day-night", "晝", "--topic", "失物",
              "--birth", "丑", "--graph", str(graph), "--format", "json")  # fmt: skip
    rules = {r["rule_id"]: r for r in json.loads(out)["rules"]}
    assert rules["yinhezhao.shiwu.dao-qi"]["bindings"]["T"].endswith("/spirit/mao")
    assert rules["yinhezhao.shiwu.dao-qi"]["urn"] == "urn:cts:divkg:yinhezhao.qiucai-yishi.zh:82.5"
    recovered = rules["yinhezhao.shiwu.dao-qi-zhi"]
    assert recovered["bindings"]["B"].endswith("/spirit/shen") and recovered["wording"] == "則先失而後得"


def test_reading_runaway_reports_the_tomb_plate(graph):
    """〈逃亡〉 ¶66 甲子日以辰加正時: on a 甲子 day at 午 the reading reports 辰 on 午, so 天罡 on 午, 河魁 on 子."""
    out = run("reading", "liuren", "--day", "甲子", "--hour", "午", "--general", "子", "--topic", "逃亡",
              "--graph", str(graph), "--format", "json")  # fmt: skip
    rules = {r["rule_id"]: r for r in json.loads(out)["rules"]}
    search = rules["yinhezhao.taowang.sanhe-mu"]["parameters"]["search"]
    assert search.startswith("墓 辰 加 午: 河魁 戌 臨 子, 天罡 辰 臨 午")
    assert "urn:cts:divkg:yinhezhao.qiucai-yishi.zh:66" in search


def test_text_only_rules_without_triggers_stay_in_their_system(graph):
    """《銀河棹》 ¶32 見六達刑沖，防物損 is text-only without triggers (六達 is unknown): it is offered
    ("consider") on every 大六壬 reading about 貿易, and on no 六爻 reading, though 《黃金策》 asks 貿易 too."""

    def rules(*args: str) -> dict[str, str]:
        out = run("reading", *args, "--topic", "貿易", "--graph", str(graph), "--format", "json")
        return {r["rule_id"]: r["status"] for r in json.loads(out)["rules"]}

    liuren = rules("liuren", "--day", "癸未", "--ju", "4", "--day-night", "晝")
    assert liuren["yinhezhao.maoyi.liuda"] == "consider"
    liuyao = rules("liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778")
    assert any(rule.startswith("huangjince.") for rule in liuyao)
    assert not [rule for rule in liuyao if rule.startswith(("yinhezhao.", "zhizhi."))]


def test_reading_options_before_the_subcommand_are_kept(graph, tmp_path):
    """``kg reading --graph G --format json liuyao …`` reads G and prints JSON; the subcommand's
    own options still win."""
    cast = ["liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--topic", "求財"]
    missing = CliRunner().invoke(main, ["reading", "--graph", str(tmp_path / "none.nq"), *cast])
    assert missing.exit_code == 2 and "none.nq" in missing.output
    body = json.loads(run("reading", "--graph", str(graph), "--format", "json", *cast))
    assert any(r["rule_id"].startswith("huangjince.") for r in body["rules"])
    assert run("reading", "--format", "json", *cast, "--graph", str(graph), "--format", "text").startswith(
        "庚寅年"
    )
