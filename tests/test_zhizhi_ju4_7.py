"""《御定六壬直指》 癸未日 第四局–第七局 (corpus/rules/zhizhi-ju4-7.yaml and the samples of zhizhi.yaml).

The verdicts of every lesson and topic are tests/test_zhizhi_verdicts.py. Here: the verdicts split by 晝/夜, the
case histories, which fire on their own inputs only, and the exceptions and further conditions of the lessons.
Generalised reasons on charts of other days are tests/test_zhizhi_generalised.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import URIRef

from kg.liuren import DayNightRule, Options, chart_from_inputs
from kg.liuren.facts import chart_graph
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.vocabulary import vocabulary

R = URIRef("https://w3id.org/divkg/reading/zhizhi-ju4-7")
PLATES = {"晝": DayNightRule.DAY, "夜": DayNightRule.NIGHT}


@pytest.fixture(scope="module")
def kg(built_graph: Path) -> KnowledgeGraph:
    return KnowledgeGraph.load(built_graph)


def read(
    kg: KnowledgeGraph,
    topic: str,
    *,
    day: str = "癸未",
    plate: str | None = None,
    querent: dict[str, str] | None = None,
    offered: bool = False,
    **inputs: str | int,
) -> list[Applicable]:
    """The rules that apply (or are overridden) on the chart of ``inputs`` (kg.liuren.chart_from_inputs) for
    ``topic``, on the 晝 or 夜 plate (default: by the 占時), with the querent's ``sex`` and ``occupation``; with
    ``offered``, also the text-only rules offered there (consider)."""
    options = Options(day_night_rule=PLATES[plate]) if plate else Options()
    chart = chart_from_inputs(day=None if "moment" in inputs else day, options=options, **inputs)
    topic_iri = vocabulary().topic(topic)
    graph = chart_graph(chart, R, topic_iri, querent)
    return [a for a in retrieve(kg, Reading(graph), str(topic_iri)) if offered or a.status != "consider"]


def applying(results: list[Applicable]) -> dict[str, Applicable]:
    return {a.rule_id: a for a in results if a.status == "applies"}


def considered(results: list[Applicable]) -> dict[str, Applicable]:
    """The text-only rules offered (consider) among ``results`` (read with ``offered``)."""
    return {a.rule_id: a for a in results if a.status == "consider"}


def test_unsplit_verdicts_are_not_given_for_the_other_plate(kg: KnowledgeGraph) -> None:
    """局4 兵戰 is judged by day only (¶8), 局5 家宅 by night only (¶18): the other plate gets no verdict."""
    assert "zhizhi.ju4.bingzhan" not in applying(read(kg, "兵戰", ju=4, plate="夜"))
    assert "zhizhi.ju5.jiazhai" not in applying(read(kg, "家宅", ju=5, plate="晝"))


def test_ju5_each_keyi_phrase_on_its_own_plate(kg: KnowledgeGraph) -> None:
    """¶12 三傳育身，晝將生金: the 金局 巳 酉 丑 generates 癸 on either plate, the generals of the 三傳 are all 土 on the
    晝 plate only (貴人 勾陳 太常; by night 太陰 朱雀 天空)."""
    by_day = {"zhizhi.ju5.yu-shen", "zhizhi.tu-jiang-jin-ju.yu-shen"}
    day = applying(read(kg, "通占", ju=5, plate="晝"))
    night = applying(read(kg, "通占", ju=5, plate="夜"))
    assert by_day | {"zhizhi.ju5.san-chuan-yu-shen"} <= day.keys()
    assert "zhizhi.ju5.san-chuan-yu-shen" in night
    assert not by_day & night.keys()


def test_ju5_noble_on_the_horse_read_on_either_plate(kg: KnowledgeGraph) -> None:
    """¶20 出行：貴人乘馬發用，出行最吉, not split by plate (¶18 says 晝占貴人發用 where 功名 is): the 初傳 巳 is the 驛馬
    of 未 (亥卯未 → 巳) and the 晝 貴人 of 癸 (壬癸蛇兔藏: 巳 by day, 卯 by night), so the reason holds when asked by
    night too, though 巳 then carries 太陰."""
    for plate in ("晝", "夜"):
        found = applying(read(kg, "出行", ju=5, plate=plate))
        assert found["zhizhi.ju5.chuxing"].wording == "出行最吉"
        assert found["zhizhi.gui-ma-fa-yong.chuxing"].wording == "貴人乘馬發用，出行最吉"
    # 第六局 by night: the 初傳 卯 (S(e) = e − 5: on 申) carries the 夜 貴人 but is not the 驛馬
    assert "zhizhi.gui-ma-fa-yong.chuxing" not in applying(read(kg, "出行", ju=6, plate="夜"))


# ── case histories ──────────────────────────────────────────────────────────────────────────

BEI_CAN = {
    "zhizhi.ju4.bei-can": "最難辨雪",
    "zhizhi.ju4.bei-can-sui-po": "太歲歲破剋日，主君相見責",
    "zhizhi.ju4.bei-can-hu-tou": "卻喜虎頭蛇尾，先重後輕",
    "zhizhi.ju4.bei-can-jiu": "反無凶矣",
    "zhizhi.ju4.bei-can-ming-chun": "至明春太歲作救，方能脫難",
}


def test_zhinan_case_chou_general_on_chen(kg: KnowledgeGraph) -> None:
    """¶10 指南 丑將加辰 (局4, 辰 a 晝 hour), 占被參: the five verdicts of the case. 2025-01-14 08:30 is 甲辰年 丁丑月
    癸未日 辰時, after 冬至 (丑將): the 太歲 辰 and its 歲破 戌, both 土, overcome 癸 (太歲歲破剋日). 虎頭蛇尾 holds on
    that plate (晝 貴人 巳 on 申 runs backward: 辰 螣蛇 … 戌 白虎, so 初傳 戌 白虎, 末傳 辰 螣蛇)."""
    found = applying(read(kg, "被參", moment="2025-01-14T08:30"))
    assert {r: found[r].wording for r in BEI_CAN if r in found} == BEI_CAN
    assert "zhizhi.hu-tou-she-wei.bei-can" in found
    # 2024-01-20 08:30 is 癸卯年 乙丑月 癸未日 辰時 (丑將): the 太歲 卯 (木) does not overcome 癸, so neither the
    # reprimand, whose reason is the year, nor the escape from it next spring is given
    wood_year = applying(read(kg, "被參", moment="2024-01-20T08:30")).keys()
    assert BEI_CAN.keys() - wood_year == {"zhizhi.ju4.bei-can-sui-po", "zhizhi.ju4.bei-can-ming-chun"}
    # 2024-11-15 12:30 is 甲辰年 乙亥月 癸未日 午時, 卯將 on 午 = 局4: the earth year of the reprimand, but not the
    # case's 丑將; the escape next spring rests on the year alone, the case's 最難辨雪 on its moment
    other_general = applying(read(kg, "被參", moment="2024-11-15T12:30"))
    assert "zhizhi.ju4.bei-can-ming-chun" in other_general
    assert "zhizhi.ju4.bei-can" not in other_general
    # the same 局 given without the case's 月將 and 占時, and the case under 功名: not the case
    assert not BEI_CAN.keys() & applying(read(kg, "被參", ju=4, plate="晝")).keys()
    assert not BEI_CAN.keys() & applying(read(kg, "功名", moment="2025-01-14T08:30")).keys()
    # the case's 辰時 gives the 晝 plate, on which 白虎 heads and 螣蛇 ends the 三傳; forced onto the 夜 plate (夜貴 卯
    # on 午 runs backward: 戌 carries 青龍, 辰 天后), the verdicts resting on those generals are not the case's
    night = applying(read(kg, "被參", moment="2025-01-14T08:30", plate="夜")).keys()
    assert BEI_CAN.keys() - night == {"zhizhi.ju4.bei-can-hu-tou", "zhizhi.ju4.bei-can-jiu"}


WIFE = {"sex": "女"}


def test_jingyun_case_wife_asks_about_husband(kg: KnowledgeGraph) -> None:
    """¶42 精蘊 酉年二月，丑為年命，妻占夫病: 1909-03-24 08:30 is 己酉年 丁卯月 癸未日 辰時, 月將 戌 (after 春分)
    on 辰 = 局7."""
    case = "zhizhi.ju7.jingyun-fu-bing"
    moment = "1909-03-24T08:30"
    # the patient is her husband, whom no reading records: the verdict is offered as text (consider)
    found = considered(read(kg, "疾病", moment=moment, birth="丑", querent=WIFE, offered=True))
    assert found[case].wording == "此為孝帛蓋妻頭，必不可救"
    # 丑為年命: the 本命 or the 行年 丑
    assert case in considered(read(kg, "疾病", moment=moment, walking_year="丑", querent=WIFE, offered=True))
    assert case not in considered(read(kg, "疾病", moment=moment, birth="子", querent=WIFE, offered=True))
    assert case not in considered(read(kg, "疾病", moment=moment, birth="丑", offered=True))
    # the general rule: over 丑 sits 未 (S(e) = e + 6), 華蓋 of 未 (亥卯未), 官鬼 of 癸, 死氣 of the 卯 month (正月 午
    # … 二月 未), 弔客 of a 酉 year (歲後二辰: 未); 太常 rides it on the 夜 plate (夜貴 卯 on 酉 runs backward: 卯 貴人
    # 寅 螣蛇 丑 朱雀 子 六合 亥 勾陳 戌 青龍 酉 天空 申 白虎 未 太常), 朱雀 on the 晝 plate the 辰 hour gives
    rule = "zhizhi.jingyun.xiao-bo"
    night = considered(read(kg, "疾病", moment=moment, plate="夜", birth="丑", querent=WIFE, offered=True))
    assert night[rule].wording == "此為孝帛蓋妻頭，必不可救"
    assert rule in considered(
        read(kg, "疾病", moment=moment, plate="夜", walking_year="丑", querent=WIFE, offered=True)
    )
    assert rule not in considered(read(kg, "疾病", moment=moment, birth="丑", querent=WIFE, offered=True))
    assert rule not in considered(read(kg, "疾病", moment=moment, plate="夜", birth="丑", offered=True))


# ── exceptions and further conditions of 局7 ───────────────────────────────────────────────────


def test_ju7_illness_rescued_by_wood_over_the_natal_year(kg: KnowledgeGraph) -> None:
    """¶40 年命有木，方能有救: on 局7 (S(e) = e + 6) 寅, wood, is over 申; 午, fire, over 子."""
    statuses = {a.rule_id: a.status for a in read(kg, "疾病", ju=7, plate="晝", birth="申")}
    assert statuses["zhizhi.ju7.jibing"] == "overridden"
    assert statuses["zhizhi.ju7.jibing-rescue"] == "applies"
    statuses = {a.rule_id: a.status for a in read(kg, "疾病", ju=7, plate="晝", birth="子")}
    assert statuses["zhizhi.ju7.jibing"] == "applies"
    assert "zhizhi.ju7.jibing-rescue" not in statuses


def test_ju7_autumn_or_winter_lifts_the_duan(kg: KnowledgeGraph) -> None:
    """¶38 若秋冬占此，或占人年命，上乘金木，方為吉兆，可以化孽成祥 lifts the 斷曰's two verdicts (凡百遲疑 … 阻滯; 又帶
    刑沖 … 起復不寧) and their generalisations on 局7: the 月建 申 is autumn; in the 卯 month (spring) 申, metal, over
    the 年命 寅 lifts them too (局7: S(e) = e + 6), 午, fire, over 子 does not."""
    lifted = {
        "zhizhi.ju7.zu-zhi": "zhizhi.ju7.hua-nie",
        "zhizhi.ju7.qi-fu": "zhizhi.ju7.hua-nie-qi-fu",
        "zhizhi.wuyi-jiase.zu-zhi": "zhizhi.ju7.hua-nie-not-wuyi-jiase",
        "zhizhi.xing-chong.qi-fu": "zhizhi.ju7.hua-nie-not-xing-chong",
    }
    for inputs in ({"month": "申"}, {"month": "卯", "birth": "寅"}):
        results = {a.rule_id: a for a in read(kg, "通占", ju=7, plate="晝", **inputs)}
        assert {rule: results[rule].overridden_by for rule in lifted} == {
            rule: [results[exception].rule] for rule, exception in lifted.items()
        }
    spring = applying(read(kg, "通占", ju=7, plate="晝", month="卯", birth="子"))
    assert set(lifted) <= spring.keys()
    assert not set(lifted.values()) & spring.keys()


def test_ju6_duan_two_clauses_two_verdicts(kg: KnowledgeGraph) -> None:
    """¶28 凡占盡是虛名，惟驚憂可解耳: a gain in name only, and the one matter that fares well, two verdicts of 第六局
    beside each other, not one 吉凶參半 (CONVENTIONS, General 4)."""
    found = applying(read(kg, "通占", ju=6, plate="晝"))
    assert {
        rule: (found[rule].polarity, found[rule].wording)
        for rule in ("zhizhi.ju6.xu-ming", "zhizhi.ju6.jing-you")
    } == {
        "zhizhi.ju6.xu-ming": ("凶", "凡占盡是虛名"),
        "zhizhi.ju6.jing-you": ("吉", "惟驚憂可解耳"),
    }


OFFICIAL = {"occupation": "為官"}


def test_zuanyao_nets_for_an_official(kg: KnowledgeGraph) -> None:
    """¶32 纂要 值干之羅網 / 值支之羅網, the nets it has just named: 支上寅，乃干之羅 and 干上申，乃支之網, both on 局6
    (S(e) = e − 5: 寅 on 未, 申 on 丑, 癸 寄丑); on 局5 支上 is 卯 and 干上 酉. 甲子 第12局 (S(e) = e + 1) has 干上 卯 and
    支上 丑, the 天羅 of 甲 寄寅 and of 子 by the usual count, which the 纂要's names do not follow: no net there."""
    nets = {"zhizhi.zuanyao.gan-luowang", "zhizhi.zuanyao.zhi-luowang"}
    assert nets <= applying(read(kg, "通占", ju=6, plate="晝", querent=OFFICIAL)).keys()
    assert not nets & applying(read(kg, "通占", ju=6, plate="晝")).keys()
    assert not nets & applying(read(kg, "通占", ju=5, plate="晝", querent=OFFICIAL)).keys()
    assert not nets & applying(read(kg, "通占", day="甲子", ju=12, plate="晝", querent=OFFICIAL)).keys()


def test_zhuolun_rotten_wood_on_every_zhuolun_lesson_whose_wood_is_void(kg: KnowledgeGraph) -> None:
    """¶26 卯木落空 … 凡遇斫輪課者，例皆同: the text extends the case to the 斫輪 lessons (初傳 卯 on 申). 丁丑 第6局
    (S(e) = e − 5: 卯 on 申) is in the 甲戌旬, 申 void; 乙丑 第6局 has the same 三傳 卯 戌 巳 in the 甲子旬 (戌 亥 void):
    the wood is not void."""
    assert "zhizhi.zhuolun-luo-kong.xiu" in applying(read(kg, "通占", day="丁丑", ju=6, plate="晝"))
    assert "zhizhi.zhuolun-luo-kong.xiu" not in applying(read(kg, "通占", day="乙丑", ju=6, plate="晝"))
    # 癸丑 第6局, the same 三傳 in the 甲辰旬 (寅 卯 void): 申 is real and the 卯 itself void, 木空則朽
    assert "zhizhi.zhuolun-luo-kong.xiu" in applying(read(kg, "通占", day="癸丑", ju=6, plate="晝"))


def test_ju6_duan_counsel_within_the_verdict(kg: KnowledgeGraph) -> None:
    """¶28 斫輪遇朽，巧術難施，必宜改圖易轍，事乃有成: the success turns on the querent changing his plans, which no
    reading records, so the 斷曰 is 凶 on 第六局 and wherever 斫輪 meets rotten wood (丁丑 第6局: 卯 on the void 申)."""
    for plate in ("晝", "夜"):
        found = applying(read(kg, "通占", ju=6, plate=plate))
        assert (found["zhizhi.ju6.zhuolun-yu-xiu"].polarity, found["zhizhi.ju6.zhuolun-yu-xiu"].wording) == (
            "凶",
            "斫輪遇朽，巧術難施",
        )
    elsewhere = applying(read(kg, "通占", day="丁丑", ju=6, plate="晝"))
    assert elsewhere["zhizhi.zhuolun-luo-kong.gai-tu"].polarity == "凶"


def test_bifa_three_harmony_and_its_poison(kg: KnowledgeGraph) -> None:
    """¶22 萬事喜欣三六合，合中犯殺蜜中砒, quoted for 第五局, whose 三傳 巳 丑 酉 are the 金局 and where no two of 丑 (癸's
    寄宮), 未, the uppers 酉 巳 卯 亥 and the transmissions are 六合: the 三合 alone gives the joy; the 殺 inside it,
    undefined, is offered as text. 第四局's 三傳 戌 未 辰 are no 三合: neither."""
    ju5 = {a.rule_id: a.status for a in read(kg, "通占", ju=5, plate="晝", offered=True)}
    assert (ju5["zhizhi.bifa.san-liu-he"], ju5["zhizhi.bifa.he-zhong-fan-sha"]) == ("applies", "consider")
    ju4 = {a.rule_id for a in read(kg, "通占", ju=4, plate="晝", offered=True)}
    assert not {"zhizhi.bifa.san-liu-he", "zhizhi.bifa.he-zhong-fan-sha"} & ju4


def test_bifa_generals_at_war_looked_for_in_the_lessons_and_transmissions(kg: KnowledgeGraph) -> None:
    """¶32 將逢內戰所謀危 does not place the general. 第六局 by night: the 初傳 卯 overcomes 貴人 (土); by day none of
    the 課傳 is at war with its general. 第二局 by day (晝貴 巳 on 午, backward): the 發用 巳 carries 貴人 (火 生 土),
    but 天空 (土) overcomes the 2課 upper 亥 and 天后 (水) the 3課 upper 午."""
    rule = "zhizhi.bifa.nei-zhan"
    assert rule in applying(read(kg, "通占", ju=6, plate="夜"))
    assert rule not in applying(read(kg, "通占", ju=6, plate="晝"))
    assert rule in applying(read(kg, "通占", ju=2, plate="晝"))


def test_miyao_white_ants_by_night_with_shen_on_chou(kg: KnowledgeGraph) -> None:
    """¶32 秘要 申為長生，夜占乘虎，坐於丑墓: on 第六局 (S(e) = e − 5) 申, the 長生 of 癸 水, is the 干上神 on 丑. By
    night 夜貴 卯 sits on 申 and runs backward (卯 貴人 … 申 白虎); by day 晝貴 巳 on 戌, backward, gives 申 玄武. On
    壬申 第6局 by night (壬 has 癸's nobles) 申 is the 末傳 on 丑 with 白虎. The forecast answers any matter (通占)."""
    rule = "zhizhi.miyao.bai-yi"
    for topic in ("通占", "墳葬", "疾病"):
        assert rule in applying(read(kg, topic, ju=6, plate="夜"))
    assert rule not in applying(read(kg, "通占", ju=6, plate="晝"))
    assert rule in applying(read(kg, "通占", day="壬申", ju=6, plate="夜"))
