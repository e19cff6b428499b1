"""《御定六壬直指》 癸未日 第四局–第十一局: the reading of each lesson returns the text's verdicts and none against them.

For all eight lessons and every topic the text judges (¶8, ¶18–20, ¶30, ¶40, ¶50, ¶60, ¶70, ¶80 of
corpus/sources/zhizhi.txt, with the 課義, 解曰 and 斷曰 verdicts that name a topic), by day and by night where the
text splits, a reading (kg.match.retrieve on the real build) returns the text's verdict with its words and
polarity (offered as text where it turns on a fact no reading records: ¶30 尊長難痊, ¶60 晝占男吉), and no rule of 《直指》 of
the topic gives 吉 where the text says only 凶 on that lesson and plate, or 凶 where it says only 吉; for a querent
without sex or calling and for a woman in office (the facts ¶32, ¶36 and ¶42 turn on). Where a generalised reason of one lesson holds on another lesson whose own verdict is the opposite
(人空病實 ¶30 on 第五局, 官鬼太多 ¶70 on 第四局 …), an exception citing that lesson's verdict overrides it there and
only there (CONVENTIONS: a lesson's verdict against a generalisation).

The querent's sex and calling (``--sex``, ``--occupation``) are facts of the 大六壬 reading (kg.liuren.facts.QUERENT).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Graph, URIRef

from kg.cli import main
from kg.corpus import work
from kg.errors import InputError
from kg.liuren import DayNightRule, Options, chart_from_inputs
from kg.liuren.commands import liuren_querent
from kg.liuren.facts import chart_graph
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.vocabulary import DK, sparql_prefixes, vocabulary

R = URIRef("https://w3id.org/divkg/reading/zhizhi-verdicts")
PLATES = {"晝": DayNightRule.DAY, "夜": DayNightRule.NIGHT}
OPPOSITE = {"吉": "凶", "凶": "吉"}
BOTH = ("晝", "夜")
OFFICIAL_WOMAN = {"occupation": "為官", "sex": "女"}


@pytest.fixture(scope="module")
def kg(built_graph: Path) -> KnowledgeGraph:
    return KnowledgeGraph.load(built_graph)


def read(
    kg: KnowledgeGraph, topic: str, *, plate: str, querent: dict[str, str] | None = None, **inputs: str | int
) -> list[Applicable]:
    """Every rule retrieved on the 癸未 chart of ``inputs`` (kg.liuren.chart_from_inputs) for ``topic``, on the
    晝 or 夜 plate, with the querent facts ``querent``."""
    chart = chart_from_inputs(day="癸未", options=Options(day_night_rule=PLATES[plate]), **inputs)
    topic_iri = vocabulary().topic(topic)
    return retrieve(kg, Reading(chart_graph(chart, R, topic_iri, querent)), str(topic_iri))


def by_status(results: list[Applicable], status: str = "applies") -> dict[str, Applicable]:
    return {a.rule_id: a for a in results if a.status == status}


# (局, topic, plates the verdict is given for, inputs (chart inputs, and the querent's sex and occupation where the
# verdict is said of them), rule, polarity, the text's words)
VERDICTS = [
    # 第四局 ¶8 (and ¶6 惟利逃亡)
    (4, "天時", BOTH, {}, "zhizhi.ju4.tianshi", "中", "亢旱之象"),
    (4, "家宅", BOTH, {}, "zhizhi.ju4.jiazhai", "凶", "昏晦不寧之象"),
    (4, "功名", BOTH, {}, "zhizhi.ju4.gongming", "吉", "發用催官，得之必速"),
    (4, "求財", ("晝",), {}, "zhizhi.ju4.qiucai.day", "凶", "晝占不利"),
    (4, "求財", ("夜",), {}, "zhizhi.ju4.qiucai.night", "凶", "夜占財險"),
    (4, "婚姻", BOTH, {}, "zhizhi.ju4.hunyin", "凶", "終難得就"),
    (4, "胎產", BOTH, {}, "zhizhi.ju4.taichan", "中", "產必生女"),
    (4, "疾病", BOTH, {}, "zhizhi.ju4.jibing", "凶", "占病大凶"),
    (4, "出行", BOTH, {}, "zhizhi.ju4.chuxing", "中", "雖無丁馬，亦可云動"),
    (4, "行人", BOTH, {}, "zhizhi.ju4.xingren", "凶", "行者不歸"),
    (4, "盜賊", BOTH, {}, "zhizhi.ju4.daozei", "吉", "必能尋獲"),
    (4, "兵戰", ("晝",), {}, "zhizhi.ju4.bingzhan", "凶", "晝占不利，不能取勝"),
    (4, "逃亡", BOTH, {}, "zhizhi.ju4.tao-wang", "吉凶參半", "惟利逃亡"),
    # 第五局 ¶18–20 (and ¶14 仕宦所宜)
    (5, "天時", BOTH, {}, "zhizhi.ju5.tianshi", "中", "占天不雨"),
    (5, "家宅", ("夜",), {}, "zhizhi.ju5.jiazhai", "吉", "貴人臨宅，夜占乃吉"),
    (5, "功名", ("晝",), {}, "zhizhi.ju5.gongming", "吉", "求官最吉，但嫌權攝不正"),
    (5, "功名", ("晝",), {}, "zhizhi.ju5.guan-yin", "吉", "富而且貴，仕宦所宜"),
    (5, "求財", BOTH, {}, "zhizhi.ju5.qiucai", "吉", "求財必獲"),
    (5, "婚姻", BOTH, {}, "zhizhi.ju5.hunyin", "凶", "男女雖佳，朱陳難締"),
    (5, "胎產", BOTH, {}, "zhizhi.ju5.taichan-nv", "中", "胎必成女"),
    (5, "胎產", BOTH, {}, "zhizhi.ju5.taichan-su", "中", "占產必速"),
    (5, "疾病", BOTH, {}, "zhizhi.ju5.jibing", "吉", "不藥可愈"),
    (5, "出行", BOTH, {}, "zhizhi.ju5.chuxing", "吉", "出行最吉"),
    (5, "行人", BOTH, {}, "zhizhi.ju5.xingren", "中", "行者未歸"),
    (5, "兵戰", ("晝",), {}, "zhizhi.ju5.bingzhan.day", "吉", "晝占甚吉"),
    (5, "兵戰", ("夜",), {}, "zhizhi.ju5.bingzhan.night", "凶", "夜占最凶"),
    (5, "盜賊", BOTH, {}, "zhizhi.ju5.daozei", "凶", "占捕難獲"),
    # 第六局 ¶30
    (6, "天時", BOTH, {}, "zhizhi.ju6.tianshi", "中", "出旬大雨"),
    (6, "家宅", BOTH, {}, "zhizhi.ju6.jiazhai", "凶", "不寧之象"),
    (6, "求財", BOTH, {}, "zhizhi.ju6.qiucai-kong", "凶", "財爻已空，焉能得有"),
    (6, "功名", BOTH, {}, "zhizhi.ju6.gongming", "凶", "貴多不貴，兼之入獄受克，占官不吉"),
    (6, "婚姻", BOTH, {}, "zhizhi.ju6.hunyin", "凶", "恐不能就"),
    (6, "胎產", BOTH, {}, "zhizhi.ju6.taichan", "凶", "以子損母，占產不吉"),
    (6, "疾病", BOTH, {}, "zhizhi.ju6.jibing", "凶", "尊長難痊"),
    (6, "出行", ("晝",), {}, "zhizhi.ju6.chuxing", "吉凶參半", "晝占雖吉，防驚防失"),
    (6, "行人", BOTH, {}, "zhizhi.ju6.xingren", "中", "必在中途"),
    (6, "兵戰", ("晝",), {}, "zhizhi.ju6.bingzhan.day", "凶", "晝占凶"),
    (6, "兵戰", ("夜",), {}, "zhizhi.ju6.bingzhan.night", "吉", "夜占吉"),
    (6, "墳葬", BOTH, {}, "zhizhi.ju6.fenzang", "凶", "不吉"),
    # 第七局 ¶40
    (7, "天時", BOTH, {}, "zhizhi.ju7.tianshi", "中", "不能有雨"),
    (7, "家宅", BOTH, {}, "zhizhi.ju7.jiazhai", "凶", "事多不寧"),
    (7, "功名", ("晝",), {}, "zhizhi.ju7.gongming", "吉", "貴登天門，晝占甚吉"),
    (
        7,
        "功名",
        BOTH,
        {"occupation": "為官"},
        "zhizhi.ju7.chao-guan",
        "凶",
        "凡有彈章獻策之事，必遭責黜",
    ),  # ¶36
    (7, "求財", BOTH, {}, "zhizhi.ju7.qiucai", "吉凶參半", "財多鬼多，取之費力"),
    (7, "婚姻", BOTH, {}, "zhizhi.ju7.hunyin", "凶", "多不能就"),
    (7, "胎產", BOTH, {}, "zhizhi.ju7.taichan-nv", "中", "胎必成女"),
    (7, "胎產", BOTH, {}, "zhizhi.ju7.taichan-su", "中", "產必甚速"),
    (7, "疾病", BOTH, {}, "zhizhi.ju7.jibing", "凶", "渾身皆病，良醫難得"),
    (7, "出行", BOTH, {}, "zhizhi.ju7.chuxing", "中", "行蹤不定"),
    (7, "行人", BOTH, {}, "zhizhi.ju7.xingren", "吉", "行人立至"),
    (7, "兵戰", ("晝",), {}, "zhizhi.ju7.bingzhan.day", "凶", "晝占不佳"),
    (7, "兵戰", ("夜",), {}, "zhizhi.ju7.bingzhan.night", "凶", "夜亦欠美"),
    # 第八局 ¶50 (and ¶44 宜講秦晉, ¶46 是財甚厚, ¶48 加官進級)
    (8, "天時", BOTH, {}, "zhizhi.ju8.tianshi", "中", "占天有雨"),
    (8, "功名", BOTH, {}, "zhizhi.ju8.gongming", "吉", "占官最吉"),
    (8, "功名", BOTH, {}, "zhizhi.ju8.duan-zhuyin", "吉", "有加官進級之象"),
    (8, "求財", BOTH, {}, "zhizhi.ju8.qiucai", "吉", "主得貴人之財"),
    (8, "婚姻", BOTH, {}, "zhizhi.ju8.hunyin", "吉", "先難後易，終必成就"),
    (8, "婚姻", BOTH, {}, "zhizhi.ju8.keyi-qinjin", "吉", "宜講秦晉"),
    (8, "胎產", BOTH, {}, "zhizhi.ju8.taichan-nv", "中", "胎必成女"),
    (8, "胎產", BOTH, {}, "zhizhi.ju8.taichan-su", "中", "產必易速"),
    (8, "疾病", BOTH, {}, "zhizhi.ju8.jibing", "中", "主得心疾"),
    (8, "疾病", BOTH, {}, "zhizhi.ju8.jibing-yu", "吉", "不久可愈"),
    (8, "出行", BOTH, {}, "zhizhi.ju8.chuxing", "吉", "出行最宜"),
    (8, "行人", BOTH, {}, "zhizhi.ju8.xingren", "中", "尚未起程"),
    (8, "兵戰", BOTH, {}, "zhizhi.ju8.bingzhan", "吉凶參半", "利主不利客"),
    # 第九局 ¶60 (and ¶54 人豐宅墮, ¶56 人口豐盈)
    (9, "天時", BOTH, {}, "zhizhi.ju9.tianshi", "中", "出旬有雨"),
    (9, "家宅", BOTH, {}, "zhizhi.ju9.jiazhai", "吉凶參半", "人多屋狹"),
    (9, "家宅", BOTH, {}, "zhizhi.ju9.renzhai", "吉凶參半", "必主人口豐盈，居宅傾墮也"),
    (9, "功名", BOTH, {"birth": "子"}, "zhizhi.ju9.gongming", "吉", "占命屬子，必貴無疑"),
    (9, "求財", BOTH, {}, "zhizhi.ju9.qiucai", "吉", "主得貴人、文書之財"),
    (9, "婚姻", ("晝",), {}, "zhizhi.ju9.hunyin-male-day", "吉", "晝占男吉"),
    (9, "婚姻", ("夜",), {}, "zhizhi.ju9.hunyin-female-night", "吉", "夜占女吉"),
    (9, "婚姻", BOTH, {}, "zhizhi.ju9.hunyin", "凶", "恐不能就"),
    (9, "胎產", BOTH, {}, "zhizhi.ju9.taichan-nv", "中", "產女無疑"),
    (9, "胎產", BOTH, {}, "zhizhi.ju9.taichan-su", "中", "產必易速"),
    (9, "疾病", BOTH, {}, "zhizhi.ju9.jibing", "中", "腎氣大虛，急宜峻補"),
    (9, "出行", BOTH, {}, "zhizhi.ju9.chuxing", "中", "必定速行"),
    (9, "行人", BOTH, {}, "zhizhi.ju9.xingren", "中", "必在中途"),
    (9, "兵戰", ("晝",), {}, "zhizhi.ju9.bingzhan.day", "凶", "晝占則凶"),
    (9, "兵戰", ("夜",), {}, "zhizhi.ju9.bingzhan.night", "吉", "夜占稍吉"),
    # 第十局 ¶70
    (10, "天時", BOTH, {}, "zhizhi.ju10.tianshi", "中", "占天不晴，陰而不雨"),
    (10, "家宅", ("晝",), {}, "zhizhi.ju10.jiazhai.day", "吉凶參半", "晝占猶可"),
    (10, "家宅", ("夜",), {}, "zhizhi.ju10.jiazhai.night", "凶", "夜占至凶"),
    (10, "功名", BOTH, {}, "zhizhi.ju10.gongming", "凶", "官鬼太多，反不為貴"),
    (10, "求財", BOTH, {}, "zhizhi.ju10.qiucai", "凶", "一點丁財，恐不敢取"),
    (10, "婚姻", BOTH, {}, "zhizhi.ju10.hunyin", "凶", "男不中和，女不柔順，兼且不就"),
    (10, "胎產", ("晝",), {}, "zhizhi.ju10.taichan.day", "吉", "晝則易產"),
    (10, "胎產", ("夜",), {}, "zhizhi.ju10.taichan.night", "凶", "夜則憂驚"),
    (10, "疾病", BOTH, {}, "zhizhi.ju10.jibing", "凶", "土克水之象"),
    (10, "出行", BOTH, {}, "zhizhi.ju10.chuxing", "中", "豈得家居"),
    (10, "行人", BOTH, {}, "zhizhi.ju10.xingren", "吉", "行者立至"),
    (10, "兵戰", BOTH, {}, "zhizhi.ju10.bingzhan", "凶", "晝夜俱凶"),
    # 第十一局 ¶80 (婚姻 by night: test_ju11_marriage_by_night)
    (11, "天時", BOTH, {}, "zhizhi.ju11.tianshi", "中", "晴而有風"),
    (11, "家宅", BOTH, {}, "zhizhi.ju11.jiazhai-kong", "凶", "虛耗百出"),
    (11, "家宅", BOTH, {}, "zhizhi.ju11.jiazhai-chong", "凶", "居亦不安"),
    (11, "求財", BOTH, {}, "zhizhi.ju11.qiucai", "凶", "己財難保，何暇他求"),
    (11, "婚姻", ("晝",), {}, "zhizhi.ju11.hunyin", "凶", "晝占皆凶"),
    (11, "功名", BOTH, {}, "zhizhi.ju11.gongming", "吉", "求官可許"),
    (11, "胎產", BOTH, {}, "zhizhi.ju11.taichan-nv", "中", "胎必成女"),
    (11, "胎產", BOTH, {}, "zhizhi.ju11.taichan", "吉", "產必甚吉"),
    (11, "疾病", BOTH, {}, "zhizhi.ju11.jibing", "中", "必是虛弱之症"),
    (11, "疾病", BOTH, {}, "zhizhi.ju11.jibing-yu", "吉", "不久自愈"),
    (11, "出行", BOTH, {}, "zhizhi.ju11.chuxing", "中", "必行之象"),
    (11, "行人", BOTH, {}, "zhizhi.ju11.xingren", "中", "尚未啟行"),
    (11, "兵戰", ("晝",), {}, "zhizhi.ju11.bingzhan.day", "吉", "晝占則吉"),
    (11, "兵戰", ("夜",), {}, "zhizhi.ju11.bingzhan.night", "凶", "夜占則凶"),
]
QUERENT_KEYS = frozenset(("sex", "occupation"))


def chart_inputs(inputs: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in inputs.items() if k not in QUERENT_KEYS)


READINGS = sorted(
    {
        (ju, topic, plate, chart_inputs(inputs))
        for ju, topic, plates, inputs, *_ in VERDICTS
        for plate in plates
    }
)


VERDICT_PARAGRAPHS = {4: (8,), 5: (18, 20), 6: (30,), 7: (40,), 8: (50,), 9: (60,), 10: (70,), 11: (80,)}
"""The paragraphs of each lesson's topic verdicts (天時：…，家宅：…)."""
LABELS = {"盜逃": "盜賊", "仕宦": "功名"}
"""Verdict labels of the text that are variant names of a topic (CONVENTIONS; topics.ttl alt labels)."""


def test_every_labelled_topic_of_every_lesson_is_listed() -> None:
    """The table holds a verdict for each topic label of each lesson's verdict paragraphs, as the text writes them
    (X：), and beyond them only the topics 課義, 解曰 and 斷曰 name (¶6 惟利逃亡)."""
    paragraphs = work("zhizhi").paragraphs
    labelled = {
        ju: {
            LABELS.get(label, label) for n in numbers for label in re.findall(r"(\w\w)：", paragraphs[n].text)
        }
        for ju, numbers in VERDICT_PARAGRAPHS.items()
    }
    listed = {ju: {t for j, t, *_ in VERDICTS if j == ju} for ju in VERDICT_PARAGRAPHS}
    assert {ju: listed[ju] - labelled[ju] for ju in listed} == {
        ju: ({"逃亡"} if ju == 4 else set()) for ju in listed
    }
    assert all(labelled[ju] <= listed[ju] for ju in listed)


@pytest.mark.parametrize("querent", [{}, OFFICIAL_WOMAN], ids=["querent-unknown", "official-woman"])
@pytest.mark.parametrize(("ju", "topic", "plate", "inputs"), READINGS)
def test_reading_returns_the_text_verdict_and_none_against_it(
    kg: KnowledgeGraph, ju: int, topic: str, plate: str, inputs: tuple, querent: dict[str, str]
) -> None:
    results = read(kg, topic, plate=plate, querent=querent, ju=ju, **dict(inputs))
    found = by_status(results)
    offered = found | by_status(results, "consider")
    expected = [
        (rule, pol, zh)
        for j, t, plates, given, rule, pol, zh in VERDICTS
        if (j, t, chart_inputs(given)) == (ju, topic, inputs)
        and plate in plates
        and {k: v for k, v in given.items() if k in QUERENT_KEYS}.items() <= querent.items()
    ]
    assert {
        rule: (offered[rule].polarity, offered[rule].wording) for rule, _, _ in expected if rule in offered
    } == {rule: (pol, zh) for rule, pol, zh in expected}
    allowed = {pol for _, pol, _ in expected}
    opposed = {
        a.rule_id
        for a in found.values()
        if a.rule_id.startswith("zhizhi.")
        and a.topic == topic
        and a.polarity in OPPOSITE
        and OPPOSITE[a.polarity] in allowed
        and a.polarity not in allowed
    }
    assert opposed == set()


# (exception, the generalised rule it overrides, topic, the lesson and plate of the text's verdict, a lesson where
# the generalisation holds and the text's verdict agrees with it, the querent and the chart inputs)
OFFICIAL = {"occupation": "為官"}
EXCEPTIONS = [
    # 官鬼太多 (¶70): 三傳 戌 未 辰 (第四局) and 辰 未 戌 (第十局), all 土, 官鬼 of 癸
    ("zhizhi.ju4.gongming-cuiguan", "zhizhi.ju10.guan-tai-duo", "功名", (4, "晝"), (10, "晝"), {}, {}),
    # 人空病實 (¶30): 干上 酉 (第五局) and 申 (第六局) void in the 甲戌旬, 支上 卯 / 寅 real
    (
        "zhizhi.ju5.jibing-not-ren-kong",
        "zhizhi.ren-kong-bing-shi.jibing",
        "疾病",
        (5, "夜"),
        (6, "夜"),
        {},
        {},
    ),
    # 人宅沖剋 (¶30): 酉 沖 and 克 卯 (第五局), 申 沖 and 克 寅 (第六局)
    (
        "zhizhi.ju5.jiazhai-not-chong-ke",
        "zhizhi.ren-zhai-chong-ke.jiazhai",
        "家宅",
        (5, "夜"),
        (6, "夜"),
        {},
        {},
    ),
    # 支干之陰陽皆沖 (¶8): the uppers over 癸 (寄丑) and 未 clash, and so do the spirits over them, on every 癸未 lesson
    # (第四局 戌辰 未丑; 第七局 未丑 丑未; 第十局 辰戌 丑未): 行者不歸 on 第四局, 行人立至 on 第七局 and 第十局
    (
        "zhizhi.ju7.xingren-not-yinyang-chong",
        "zhizhi.zhigan-yinyang-chong.xingren",
        "行人",
        (7, "晝"),
        (4, "晝"),
        {},
        {},
    ),
    (
        "zhizhi.ju10.xingren-not-yinyang-chong",
        "zhizhi.zhigan-yinyang-chong.xingren",
        "行人",
        (10, "夜"),
        (4, "夜"),
        {},
        {},
    ),
    # 天罡加季 (¶40, ¶70): 辰 on 未 (第四局), on 戌 (第七局), on 丑 (第十局)
    (
        "zhizhi.ju4.xingren-not-tiangang-ji",
        "zhizhi.tiangang-ji.xingren",
        "行人",
        (4, "晝"),
        (7, "夜"),
        {},
        {},
    ),
    # 支於相剋相沖 (¶80, damaged, read 支干; offered as text): 未 克 癸 and 沖 丑 on every 癸未 lesson
    (
        "zhizhi.ju5.jiazhai-not-ke-chong",
        "zhizhi.ju11.zhi-gan-ke-chong",
        "家宅",
        (5, "夜"),
        (11, "夜"),
        {},
        {},
    ),
    # 六陰相繼 for an official (¶36), 課傳純陰: 課 酉 巳 卯 亥, 傳 巳 丑 酉 (第五局); 課 卯 巳 酉 亥, 傳 巳 未 酉 (第十一局);
    # 課 巳 酉 亥 卯, 傳 酉 丑 巳 (第九局, for one born in a 子 year: ¶60 占命屬子); 課 未 丑 丑 未, 傳 未 丑 未 (第七局, ¶36)
    (
        "zhizhi.ju5.guan-yin-not-chao-guan",
        "zhizhi.liu-yin.chao-guan",
        "功名",
        (5, "晝"),
        (7, "晝"),
        OFFICIAL,
        {},
    ),
    (
        "zhizhi.ju11.gongming-not-chao-guan",
        "zhizhi.liu-yin.chao-guan",
        "功名",
        (11, "晝"),
        (7, "夜"),
        OFFICIAL,
        {},
    ),
    (
        "zhizhi.ju9.gongming-not-chao-guan",
        "zhizhi.liu-yin.chao-guan",
        "功名",
        (9, "晝"),
        (7, "晝"),
        OFFICIAL,
        {"birth": "子"},
    ),
]


@pytest.mark.parametrize(
    ("exception", "rule", "topic", "lesson", "agreeing", "querent", "inputs"), EXCEPTIONS
)
def test_a_lesson_verdict_outranks_a_generalisation_there_only(
    kg: KnowledgeGraph,
    exception: str,
    rule: str,
    topic: str,
    lesson: tuple[int, str],
    agreeing: tuple[int, str],
    querent: dict[str, str],
    inputs: dict[str, str],
) -> None:
    """The exception overrides the generalised rule on the lesson whose verdict it cites; on a lesson where the
    text's verdict agrees with the generalisation, the rule applies (or, kept as text, is offered)."""
    (ju, plate), (other, other_plate) = lesson, agreeing
    results = read(kg, topic, plate=plate, querent=querent, ju=ju, **inputs)
    assert by_status(results, "overridden")[rule].overridden_by == [by_status(results)[exception].rule]
    elsewhere = read(kg, topic, plate=other_plate, querent=querent, ju=other, **inputs)
    assert rule in by_status(elsewhere).keys() | by_status(elsewhere, "consider").keys()


def test_ju5_house_by_day_keeps_the_generalisations(kg: KnowledgeGraph) -> None:
    """¶18 judges the house of 第五局 by night only (夜占乃吉): by day the exceptions do not apply."""
    results = read(kg, "家宅", plate="晝", ju=5)
    found = by_status(results)
    assert "zhizhi.ren-zhai-chong-ke.jiazhai" in found
    assert "zhizhi.ju11.zhi-gan-ke-chong" in by_status(results, "consider")
    assert not {"zhizhi.ju5.jiazhai-not-chong-ke", "zhizhi.ju5.jiazhai-not-ke-chong"} & found.keys()


def test_ju5_office_judged_by_day_only(kg: KnowledgeGraph) -> None:
    """¶14 又兼酉為印綬，丑為官星，富而且貴，仕宦所宜 adds the seal and the office to the nourishing of the 晝將 (晝將純土生傳
    … 併力育身): by day the lesson's verdict applies, 俗庶難勝 is offered and ¶36's generalisation gives way for an
    official; by night (巳 丑 酉 carry 太陰 朱雀 天空) the text judges office nowhere on 第五局, so 六陰相繼 … 必遭責黜
    applies for him."""
    lesson = {"zhizhi.ju5.guan-yin", "zhizhi.guan-yin.gongming"}
    offered = {"zhizhi.ju5.su-shu", "zhizhi.guan-yin.su-shu"}
    day = read(kg, "功名", plate="晝", querent=OFFICIAL, ju=5)
    assert lesson <= by_status(day).keys()
    assert offered <= by_status(day, "consider").keys()
    assert "zhizhi.liu-yin.chao-guan" in by_status(day, "overridden")
    night = read(kg, "功名", plate="夜", querent=OFFICIAL, ju=5)
    assert not (lesson | offered | {"zhizhi.ju5.guan-yin-not-chao-guan"}) & {a.rule_id for a in night}
    assert by_status(night)["zhizhi.liu-yin.chao-guan"].polarity == "凶"


def test_ju11_marriage_by_night(kg: KnowledgeGraph) -> None:
    """¶80 倘若占男，夜將則吉 turns on whom the question is about (the man's side), which the reading does not
    record (the querent's sex is another fact): it is offered (consider), and the clash rules of ¶8 and ¶60 and of ¶20,
    which hold on every 癸未 chart, judge the match 凶 beside it; for the woman's side the text is silent."""
    for querent in ({}, {"sex": "男"}):
        results = read(kg, "婚姻", plate="夜", querent=querent, ju=11)
        assert by_status(results, "consider")["zhizhi.ju11.hunyin-male-night"].polarity == "吉"
        opposed = {a.rule_id for a in by_status(results).values() if a.topic == "婚姻" and a.polarity == "凶"}
        assert opposed == {"zhizhi.zhigan-chong.hunyin", "zhizhi.zhigan-shangshen-chong.hunyin"}


# ── the querent's sex and calling ──────────────────────────────────────────────────────────


def test_querent_facts_on_the_reading() -> None:
    """``querent`` asserts dk:querentSex and dk:querentOccupation on the reading, concepts of their schemes; a
    value outside them is an input error."""
    chart = chart_from_inputs(day="癸未", ju=7)
    graph = chart_graph(chart, R, None, OFFICIAL_WOMAN)
    rows = graph.query(
        sparql_prefixes() + "SELECT ?s ?o WHERE { ?r dk:querentSex ?s ; dk:querentOccupation ?o }"
    )
    assert {(str(s), str(o)) for s, o in rows} == {
        (
            str(vocabulary().resolve(DK.QuerentSexScheme, "女")),
            str(vocabulary().resolve(DK.OccupationScheme, "為官")),
        )
    }
    assert (R, DK.querentSex, None) not in chart_graph(chart, R)
    with pytest.raises(InputError, match="querent sex '婦'"):
        chart_graph(chart, R, None, {"sex": "婦"})


def test_chart_command_takes_sex_and_occupation() -> None:
    """``kg chart liuren --sex --occupation`` puts the querent facts in the chart graph; other values exit 2."""
    args = ["chart", "liuren", "--day", "癸未", "--ju", "7", "--sex", "女", "--occupation", "為官"]
    result = CliRunner().invoke(main, [*args, "--format", "turtle"])
    assert result.exit_code == 0, result.output
    graph = Graph().parse(data=result.output, format="turtle")
    assert {str(o) for o in graph.objects(None, DK.querentSex)} == {
        str(vocabulary().resolve(DK.QuerentSexScheme, "女"))
    }
    assert {str(o) for o in graph.objects(None, DK.querentOccupation)} == {
        str(vocabulary().resolve(DK.OccupationScheme, "為官"))
    }
    assert (
        CliRunner().invoke(main, ["chart", "liuren", "--day", "癸未", "--ju", "7", "--sex", "婦"]).exit_code
        == 2
    )
    assert liuren_querent(sex="男", occupation=None, day="癸未") == {"sex": "男"}


def test_the_official_at_court_of_ju7(kg: KnowledgeGraph) -> None:
    """¶36 倘在朝官員 … 必遭責黜 (第七局) is said of an official: it applies with the occupation 為官 only."""
    rules = {"zhizhi.ju7.chao-guan", "zhizhi.liu-yin.chao-guan"}
    assert rules <= by_status(read(kg, "功名", plate="晝", querent={"occupation": "為官"}, ju=7)).keys()
    assert not rules & by_status(read(kg, "功名", plate="晝", querent={"occupation": "技藝"}, ju=7)).keys()
    assert not rules & by_status(read(kg, "功名", plate="晝", ju=7)).keys()


def test_reading_command_takes_the_querent(built_graph: Path) -> None:
    """``kg reading liuren --occupation 為官`` asks the rules of an official (¶36 在朝官員, 第七局); without it they
    stay silent."""
    args = ["reading", "liuren", "--day", "癸未", "--ju", "7", "--day-night", "晝", "--topic", "功名"]
    args += ["--graph", str(built_graph), "--format", "json"]
    rules = {"zhizhi.ju7.chao-guan", "zhizhi.liu-yin.chao-guan"}
    for extra, expected in (([], set()), (["--occupation", "為官"], rules)):
        result = CliRunner().invoke(main, [*args, *extra])
        assert result.exit_code == 0, result.output
        assert {r["rule_id"] for r in json.loads(result.output)["rules"]} & rules == expected


# ── the acceptance check ───────────────────────────────────────────────────────────


def test_acceptance_ju8_illness_by_night(built_graph: Path) -> None:
    """kg reading liuren --day 癸未 --ju 8 --day-night 夜 --topic 疾病 prints the 《直指》 verdicts of 第八局 (¶50
    主得心疾, a diagnosis, and 不久可愈) with their citation, and the generalised rules beside them: 白虎乘支克干上神 (子
    over 未 carries 白虎 on the 晝 plate, the 晝貴 巳 on 子 running forward 巳 貴人 … 子 白虎, and 子 水 克 午 火)."""
    args = ["reading", "liuren", "--day", "癸未", "--ju", "8", "--day-night", "夜", "--topic", "疾病"]
    result = CliRunner().invoke(main, [*args, "--graph", str(built_graph), "--format", "json"])
    assert result.exit_code == 0, result.output
    rules = {r["rule_id"]: r for r in json.loads(result.output)["rules"]}
    verdicts = {rule: rules[rule] for rule in ("zhizhi.ju8.jibing", "zhizhi.ju8.jibing-yu")}
    assert {rule: (r["kind"], r["polarity"], r["wording"]) for rule, r in verdicts.items()} == {
        "zhizhi.ju8.jibing": ("chart-verdict", "中", "主得心疾"),
        "zhizhi.ju8.jibing-yu": ("chart-verdict", "吉", "不久可愈"),
    }
    urn = verdicts["zhizhi.ju8.jibing"]["urn"]
    assert urn.startswith("urn:cts:divkg:zhizhi.guiwei.zh:50.")
    assert verdicts["zhizhi.ju8.jibing"]["citation"].startswith("《御定六壬直指》")
    beside = {rule: rules[rule] for rule in ("zhizhi.ju8.baihu-zhi-xinji", "zhizhi.ju8.baihu-zhi-yu")}
    assert {rule: (r["kind"], r["polarity"]) for rule, r in beside.items()} == {
        "zhizhi.ju8.baihu-zhi-xinji": ("judgement", "中"),
        "zhizhi.ju8.baihu-zhi-yu": ("judgement", "吉"),
    }
    assert beside["zhizhi.ju8.baihu-zhi-xinji"]["urn"] == urn
    text = CliRunner().invoke(main, [*args, "--graph", str(built_graph)]).output
    assert "主得心疾" in text and "不久可愈" in text and "rule zhizhi.ju8.baihu-zhi-xinji" in text
    assert "《御定六壬直指》" in text
