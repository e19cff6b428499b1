"""《御定六壬直指》 癸未日 第八局–第十一局 (corpus/rules/zhizhi-ju8-11.yaml and the 第十一局 samples of zhizhi.yaml).

The verdicts of every lesson and topic are tests/test_zhizhi_verdicts.py. Here: the verdicts given for one plate
only, the clash rules of 婚姻 on 第八局, the exceptions with the querent's 年命, the quoted doctrine and the case
histories (¶62, ¶72), which fire on their own inputs only; each value worked out by hand from the tables of
docs/liuren-doctrine.md: 寄宮 (section 4.1), the plate S(e) = e − (N − 1) (section 4.3), the 貴人 of table A and
the order of the generals (section 4.7, section 4.8), 旬空 and 遁干 (section 4.9), the 墓 of the day stem and 生氣
by the month (section 5). Generalised reasons on charts of other days are tests/test_zhizhi_generalised.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import URIRef

from kg.liuren import DayNightRule, Options, chart_from_inputs
from kg.liuren.facts import chart_graph
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.vocabulary import vocabulary

R = URIRef("https://w3id.org/divkg/reading/zhizhi-ju8-11")
PLATES = {"晝": DayNightRule.DAY, "夜": DayNightRule.NIGHT}


@pytest.fixture(scope="module")
def kg(built_graph: Path) -> KnowledgeGraph:
    return KnowledgeGraph.load(built_graph)


def read(kg: KnowledgeGraph, topic: str, *, day: str = "癸未", plate: str | None = None, **inputs: str | int):
    """Every rule retrieved (applying, overridden or offered as text) on the chart of ``inputs``
    (kg.liuren.chart_from_inputs) for ``topic``, on the 晝 or 夜 plate (default: by the 占時)."""
    options = Options(day_night_rule=PLATES[plate]) if plate else Options()
    chart = chart_from_inputs(day=None if "moment" in inputs else day, options=options, **inputs)
    topic_iri = vocabulary().topic(topic)
    return retrieve(kg, Reading(chart_graph(chart, R, topic_iri)), str(topic_iri))


def by_status(results: list[Applicable], status: str = "applies") -> dict[str, Applicable]:
    return {a.rule_id: a for a in results if a.status == status}


def test_split_verdicts_only_on_their_plate(kg: KnowledgeGraph) -> None:
    """¶68 夜虎臨宅克干 is said of the 夜 plate (戌 over 未 carries 白虎 only by night: 夜貴 卯 on 子 runs forward,
    卯 貴人 … 戌 白虎); ¶80 干實支空，晝占皆凶 of the 晝 plate."""
    assert {"zhizhi.ju10.ye-hu", "zhizhi.ju10.ye-hu-lin-zhai"} <= by_status(
        read(kg, "家宅", ju=10, plate="夜")
    ).keys()
    day = by_status(read(kg, "家宅", ju=10, plate="晝"))
    assert not {"zhizhi.ju10.ye-hu", "zhizhi.ju10.ye-hu-lin-zhai"} & day.keys()
    assert "zhizhi.ju11.gan-shi-zhi-kong" not in by_status(read(kg, "婚姻", ju=11, plate="夜"))


def test_ju9_day_generals_on_the_day_plate(kg: KnowledgeGraph) -> None:
    """¶54 晝將生傳，傳金生我, ¶56 晝將皆土，盡生三傳 … 則慮始保終: the 三傳 酉 丑 巳 carry earth generals on the 晝 plate
    only. By day 晝貴 巳 sits on 丑 (S(e) = e − 8) and runs forward: 巳 貴人 … 酉 勾陳 … 丑 太常. By night 夜貴 卯 sits
    on 亥 and runs forward: 酉 天空, 丑 太陰 (金), 巳 朱雀 (火), not all 土. The 金局 generating 癸 (¶56 全金脫支生干,
    倘占人己 … 我福他禍) holds on both plates."""
    chain = {"zhizhi.ju9.lv-shi-bao-zhong", "zhizhi.ju9.zhoujiang-tu"}
    day = by_status(read(kg, "通占", ju=9, plate="晝"))
    assert {rule: day[rule].wording for rule in chain} == {
        "zhizhi.ju9.lv-shi-bao-zhong": "慮始保終，概可知矣",
        "zhizhi.ju9.zhoujiang-tu": "晝將皆土，盡生三傳。三傳皆金，又生癸干。則慮始保終",
    }
    night = by_status(read(kg, "通占", ju=9, plate="夜"))
    assert not chain & night.keys()
    assert {"zhizhi.ju9.keyi", "zhizhi.ju9.jin-tuo-zhi-renji"} <= night.keys()


def test_ju8_marriage_clash_gives_way_to_jiaoche(kg: KnowledgeGraph) -> None:
    """¶46: 支干上下，先則相沖相害，後則相合相和 … 仇敵而作婚姻. On 第八局 the 干上 午 combines with the 支 未 and the
    支上 子 with 癸's 寄宮 丑, so the clash rules of ¶8 and ¶60 and of ¶20 (true on every 癸未 chart) are overridden,
    both by the one exception the sentence is."""
    results = read(kg, "婚姻", ju=8, plate="晝")
    qinjin = by_status(results)["zhizhi.ju8.qinjin"].rule
    assert {
        rule: a.overridden_by
        for rule, a in by_status(results, "overridden").items()
        if rule in {"zhizhi.zhigan-chong.hunyin", "zhizhi.zhigan-shangshen-chong.hunyin"}
    } == {"zhizhi.zhigan-chong.hunyin": [qinjin], "zhizhi.zhigan-shangshen-chong.hunyin": [qinjin]}
    # 第九局: 干上 巳 does not combine with 未 — the clash stands
    assert "zhizhi.zhigan-chong.hunyin" in by_status(read(kg, "婚姻", ju=9, plate="晝"))


@pytest.mark.parametrize(
    ("birth", "rescued"),
    [("亥", True), ("子", True), ("辰", False)],  # over 亥 寅, over 子 卯 (木); over 辰 未 (S(e) = e + 3)
)
def test_ju10_illness_rescued_by_wood_over_the_natal_year(
    kg: KnowledgeGraph, birth: str, rescued: bool
) -> None:
    """¶70 年命若臨木神，尚可救: the chart-verdict and its generalisation give way when a 木 spirit is over the 本命."""
    results = read(kg, "疾病", ju=10, plate="晝", birth=birth)
    overridden = by_status(results, "overridden").keys()
    assert ({"zhizhi.ju10.jibing", "zhizhi.ju10.tu-ke-shui"} <= overridden) is rescued
    assert (
        {"zhizhi.ju10.jibing-rescue", "zhizhi.ju10.tu-ke-shui-rescue"} <= by_status(results).keys()
    ) is rescued


def test_ju8_keyi_one_verdict_per_phrase(kg: KnowledgeGraph) -> None:
    """¶44 課義：彼己唇吻，相交和順，末助初財: one verdict per phrase, each with the ¶46 解曰 sentence that explains it;
    the quarrel (口舌難免) and the harmony that follows it (既而 … 交相和順之象) stand side by side."""
    found = by_status(read(kg, "通占", ju=8, plate="晝"))
    assert {
        rule: (found[rule].polarity, found[rule].quote)
        for rule in ("zhizhi.ju8.koushe", "zhizhi.ju8.jiaoche", "zhizhi.ju8.cai-hou")
    } == {
        "zhizhi.ju8.koushe": ("凶", "課義：彼己唇吻，"),
        "zhizhi.ju8.jiaoche": ("吉", "相交和順，"),
        "zhizhi.ju8.cai-hou": ("吉", "末助初財，"),
    }


# ── quoted doctrine and case histories ─────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("month", "fired"),
    [
        ("申", "zhizhi.ju8.bifa.tai-cai-shengqi"),  # 七月: 生氣 申 − 2 = 午, the 干上神 (胎 and 財 of 癸)
        ("寅", "zhizhi.ju8.bifa.tai-cai-siqi"),  # 正月: 生氣 子, 死氣 its 沖 午
        ("卯", None),  # 二月: 生氣 丑, 死氣 未, neither among the uppers 午 亥 子 巳 or the 三傳 巳 戌 卯
    ],
)
def test_ju8_bifa_pregnancy_by_the_month(kg: KnowledgeGraph, month: str, fired: str | None) -> None:
    """¶52 胎財生氣妻懷孕(七月占)，胎財死氣損胎推(正月占)."""
    found = by_status(read(kg, "胎產", ju=8, plate="晝", month=month)).keys()
    both = {"zhizhi.ju8.bifa.tai-cai-shengqi", "zhizhi.ju8.bifa.tai-cai-siqi"}
    assert both & found == ({fired} if fired else set())


@pytest.mark.parametrize(
    ("day", "fired"),
    [
        ("癸未", True),  # 巳 the 妻財 (水 克 火) and the 日德 (戊癸 巳) of 癸
        ("壬子", False),  # 巳 the 妻財 of 壬, whose 日德 is 亥 (丁壬)
        ("丙子", False),  # 巳 the 日德 of 丙, and its 兄弟
    ],
)
def test_ju8_miyao_first_is_wealth_and_virtue(kg: KnowledgeGraph, day: str, fired: bool) -> None:
    """¶52 秘要 初傳巳加子，末傳卯加戌 … 謂之末助初財初德: every 第8局 (S(e) = e − 7) puts 巳 on 子 and 卯 on 戌, and on
    these three days the 三傳 are 巳 戌 卯 (tests/fixtures/liuren-720.tsv); the name's 財 and 德 hold of 巳 on a 癸 day
    only."""
    assert ("zhizhi.ju8.miyao.mo-zhu-chu" in by_status(read(kg, "通占", day=day, ju=8, plate="晝"))) is fired


def test_ju9_long_illness_offered_as_text(kg: KnowledgeGraph) -> None:
    """¶60 疾病：腎氣大虛，急宜峻補 is a diagnosis (中); 久病則凶 turns on whether the illness is long, which no reading
    records: offered for consideration on 第九局, not on 第八局."""
    found = read(kg, "疾病", ju=9, plate="晝")
    assert by_status(found)["zhizhi.ju9.jibing"].polarity == "中"
    assert "zhizhi.ju9.jiu-bing" in by_status(found, "consider")
    assert "zhizhi.ju9.jiu-bing" not in by_status(read(kg, "疾病", ju=8, plate="晝"), "consider")


def test_ju11_elders_and_juniors_offered_as_text(kg: KnowledgeGraph) -> None:
    """¶78 利於尊長，不利於卑幼 sets one class of querent against another, which no reading records: two text-only
    rules, 吉 and 凶, offered on 第十一局, not one mixed verdict applied to every querent; not on 第十局."""
    rules = {"zhizhi.ju11.zunzhang": "吉", "zhizhi.ju11.beiyou": "凶"}
    found = read(kg, "通占", ju=11, plate="晝")
    offered = by_status(found, "consider")
    assert {rule: offered[rule].polarity for rule in rules if rule in offered} == rules
    assert not rules.keys() & by_status(found).keys()
    assert not rules.keys() & by_status(read(kg, "通占", ju=10, plate="晝"), "consider").keys()


def test_ju9_bifa_household_line_on_its_lesson_only(kg: KnowledgeGraph) -> None:
    """¶62 畢法 眷屬豐盈居狹宅 states no condition and is applied to 第九局: a verdict of that lesson. 第五局 has the
    same 從革 三傳 巳 丑 酉 on the 土 branch 未 and the 水 stem 癸, so the 解曰's reason (¶56 全金脫支生干 … 人口豐盈，
    居宅傾墮) holds there too, but the line is not said of it."""
    ju9 = by_status(read(kg, "家宅", ju=9, plate="晝"))
    assert (ju9["zhizhi.ju9.bifa.juanshu"].polarity, ju9["zhizhi.ju9.bifa.juanshu"].wording) == (
        "吉凶參半",
        "眷屬豐盈居狹宅",
    )
    ju5 = by_status(read(kg, "家宅", ju=5, plate="晝"))
    assert "zhizhi.ju9.jin-tuo-zhi-renzhai" in ju5
    assert "zhizhi.ju9.bifa.juanshu" not in ju5


def test_ju9_bifa_tomb_line_offered_both_ways(kg: KnowledgeGraph) -> None:
    """¶62 傳墓入墓分憎愛 names two outcomes, love and hatred, and neither's condition: two text-only rules, offered
    where a transmission is a 墓 branch, as the 中傳 丑 of 第九局 (三傳 酉 丑 巳); 甲子 第1局 (三傳 寅 巳 申) has none."""
    rules = {"zhizhi.ju9.bifa.chuan-mu-ai": "吉", "zhizhi.ju9.bifa.chuan-mu-zeng": "凶"}
    offered = by_status(read(kg, "通占", ju=9, plate="晝"), "consider")
    assert {rule: offered[rule].polarity for rule in rules if rule in offered} == rules
    assert not rules.keys() & by_status(read(kg, "通占", day="甲子", ju=1, plate="晝"), "consider").keys()


def test_ju10_evil_spirits_clash_by_night(kg: KnowledgeGraph) -> None:
    """¶68 夜虎臨宅克干，至驚至危。尚喜凶神沖戰，能使大事化小，此亦以凶制凶之道也: on 第十局 (三傳 辰 未 戌) the 初傳 辰
    carries 螣蛇 and the 末傳 戌 白虎 by night (夜貴 卯 on 子, forward), 天后 and 青龍 by day (晝貴 巳 on 寅, forward).
    The same clash of two 凶將 is ¶10's 初末傳以凶制凶 on 第四局 by day (戌 白虎, 辰 螣蛇; by night 青龍, 天后)."""
    lesson = {"zhizhi.ju10.xiong-chong", "zhizhi.ju10.xiong-shen-chong-zhan"}
    assert lesson <= by_status(read(kg, "通占", ju=10, plate="夜")).keys()
    assert not lesson & by_status(read(kg, "通占", ju=10, plate="晝")).keys()
    assert "zhizhi.ju10.xiong-shen-chong-zhan" in by_status(read(kg, "通占", ju=4, plate="晝"))
    assert "zhizhi.ju10.xiong-shen-chong-zhan" not in by_status(read(kg, "通占", ju=4, plate="夜"))


@pytest.mark.parametrize(("ju", "fired"), [(10, True), (4, True), (5, False)])
def test_bifa_ghosts_on_the_third_and_fourth_lessons(kg: KnowledgeGraph, ju: int, fired: bool) -> None:
    """¶10 and ¶72 鬼臨三四訟災隨, one rule for both quotations: the 3課 and 4課 uppers are 戌 and 丑 on 第十局, 辰 and
    丑 on 第四局, all 官鬼 of 癸; on 第五局 卯 and 亥 are not."""
    assert ("zhizhi.bifa.gui-lin-san-si" in by_status(read(kg, "通占", ju=ju, plate="晝"))) is fired


@pytest.mark.parametrize(("ju", "offered"), [(10, True), (4, True), (8, False)])
def test_bifa_stem_tomb_with_guan_offered_as_text(kg: KnowledgeGraph, ju: int, offered: bool) -> None:
    """¶72 干墓並關人宅廢: the text does not define 關, so the line is offered as text wherever the 墓神 of 癸, 辰 (水土
    墓辰), is among the 課傳: the 干上神 and 初傳 on 第十局, the 支上神 and 末傳 on 第四局; 第八局 (課 午 亥 子 巳, 傳 巳 戌
    卯) has none."""
    found = by_status(read(kg, "家宅", ju=ju, plate="晝"), "consider")
    assert ("zhizhi.ju10.bifa.gan-mu-bing-guan" in found) is offered


@pytest.mark.parametrize(
    ("ju", "fired"),
    [
        (11, True),  # S(e) = e − 10: 巳, the 晝 貴人, sits on 卯, the 夜 貴人 (the 2課 巳/卯)
        (3, True),  # S(e) = e − 2: 卯 sits on 巳
        (5, False),  # S(e) = e − 4: both are lesson uppers (2課 巳, 3課 卯), but 巳 sits on 酉 and 卯 on 未
    ],
)
def test_ju11_bifa_one_noble_on_the_other(kg: KnowledgeGraph, ju: int, fired: bool) -> None:
    """¶82 晝夜貴加求兩貴: the 晝 貴人 of 癸 (巳) on the 夜 貴人's branch (卯), or the 夜 on the 晝's."""
    assert ("zhizhi.ju11.bifa.liang-gui" in by_status(read(kg, "通占", ju=ju, plate="晝"))) is fired


# the two 遞生 lines of ¶82 (畢法, 課經), each with the exception 如值空亡者 that overrides it
DI_SHENG = {
    "zhizhi.bifa.sanchuan-di-sheng": "zhizhi.ju11.kejing.bifa-di-sheng-kong",
    "zhizhi.ju11.kejing.di-sheng": "zhizhi.ju11.kejing.di-sheng-kong",
}


@pytest.mark.parametrize(
    ("day", "ju", "transmissions", "void_last"),
    [
        # S(e) = e − 10 on 癸 (寄 丑): 初 巳 (火) → 中 未 (土) → 末 酉 (金) → 癸 (水); 甲戌旬 空 申酉 (¶78 初實末虛)
        ("癸未", 11, "巳未酉", True),
        # S(e) = e − 5 on 壬 (寄 亥), 午 over 亥 the one 下賊上: 午 (火) → 丑 (土) → 申 (金) → 壬 (水); 甲戌旬 空 申酉
        ("壬午", 6, "午丑申", True),
        # S(e) = e − 8, 自末遞生 巳 → 丑 → 酉 → 癸 with the 初傳 酉 void: ¶58 必主多人舉薦，愈久而愈吉
        ("癸未", 9, "酉丑巳", False),
        # S(e) = e − 4, 巳 over 酉 上克下: 巳 → 丑 → 酉 → 癸 as on 癸未 第五局, but 甲子旬 空 戌亥
        ("癸酉", 5, "巳丑酉", False),
    ],
)
def test_ju11_kejing_void_last_transmission_qualifies_both_di_sheng_lines(
    kg: KnowledgeGraph, day: str, ju: int, transmissions: str, void_last: bool
) -> None:
    """¶82 quotes 三傳遞生 twice, the 畢法's 人舉薦 and the 課經's 必有人推薦, and the 課經 goes on 如值空亡者，雖有舉薦之心，
    終無成就之實: the recommendation made and nothing coming of it, the end (終) void as in ¶78 初實末虛，亦有始無終.
    Both lines give way where the 末傳 is void, and keep their verdict where it is not, a void 初傳 included."""
    chart = chart_from_inputs(day=day, ju=ju, options=Options())
    assert "".join(t.branch.char for t in chart.transmissions) == transmissions
    assert chart.transmissions[-1].void is void_last
    found = read(kg, "通占", day=day, ju=ju, plate="晝")
    for rule, exception in DI_SHENG.items():
        assert rule in by_status(found, "overridden" if void_last else "applies")
        assert (exception in by_status(found)) is void_last


def test_ju8_zuanyi_natal_year_on_hai(kg: KnowledgeGraph) -> None:
    """¶52 纂義 年命在亥，為前後引從: a querent whose 本命 (or 行年) is 亥, with the two nobles on the branches either side
    of it. 第八局 (S(e) = e − 7): 晝貴 巳 on 子, 夜貴 卯 on 戌. 丁丑 第2局 (S(e) = e − 1): 丁's 晝貴 亥 on 子, 夜貴 酉 on
    戌. 第七局 (S(e) = e − 6) puts 午 on 子 and 辰 on 戌."""
    rule = "zhizhi.ju8.zuanyi"
    assert rule in by_status(read(kg, "功名", ju=8, plate="晝", birth="亥"))
    assert rule in by_status(read(kg, "功名", ju=8, plate="夜", walking_year="亥"))
    assert rule not in by_status(read(kg, "功名", ju=8, plate="晝", birth="子"))
    assert rule in by_status(read(kg, "功名", day="丁丑", ju=2, plate="晝", birth="亥"))
    assert rule not in by_status(read(kg, "功名", ju=7, plate="晝", birth="亥"))


ZHINAN = {
    "zhizhi.ju9.zhinan.jiabang": "必應今年甲榜",
    "zhizhi.ju9.gui-de-cai-ma-sui": "貴德財馬臨身，且居太歲之位，必應今年甲榜",
    "zhizhi.ju9.zhinan.pianyan": "主片言人相",
    "zhizhi.ju9.nian-shang-yuejiang-long": "年上乘月將青龍，主片言人相",
    "zhizhi.ju9.zhinan.buje": "二者會於行年，未有不捷者",
    "zhizhi.ju9.xunshou-guan-xingnian": "旬首河魁為官星，乃文明之宿。二者會於行年，未有不捷者",
}


def test_zhinan_case_huishi(kg: KnowledgeGraph) -> None:
    """¶62 指南 丁丑二月戌將午時占會試: 2057-03-27 12:00 is 丁丑年 癸卯月 癸未日 午時, after 春分 (戌將), so 戌 on 午
    is 第九局 by day. Over 丑 (the 太歲) sits 巳 (丑 + 4): 晝 貴人, 日德 of 癸, 妻財, 驛馬 of 未; over the 行年 午 sits
    戌 (the 月將, 旬首 of 甲戌旬, 官鬼 of 癸), carrying 青龍 (晝貴 巳 on 丑 runs forward: 巳 貴人 … 戌 青龍)."""
    found = by_status(read(kg, "功名", moment="2057-03-27T12:00", walking_year="午"))
    assert {r: found[r].wording for r in ZHINAN if r in found} == ZHINAN
    # without the 行年 the last two sentences have nothing to stand on; without the year, no 太歲
    no_walking = by_status(read(kg, "功名", moment="2057-03-27T12:00")).keys()
    assert ZHINAN.keys() & no_walking == {"zhizhi.ju9.zhinan.jiabang", "zhizhi.ju9.gui-de-cai-ma-sui"}
    # on the 夜 plate 巳 carries 朱雀 and 戌 白虎 (夜貴 卯 on 亥 runs forward: 卯 貴人, 辰 螣蛇, 巳 朱雀 … 戌 白虎): no 貴
    # over the stem, no 青龍 over the 行年
    night = by_status(read(kg, "功名", moment="2057-03-27T12:00", plate="夜", walking_year="午")).keys()
    assert not ZHINAN.keys() & night
    assert not ZHINAN.keys() & by_status(read(kg, "功名", ju=9, plate="晝", walking_year="午")).keys()


def test_gujian_case_career_and_illness(kg: KnowledgeGraph) -> None:
    """¶72 古鑑 七月午將加卯 (午 on 卯: 第十局, by day). For the 乙未生 querent the 中傳 未 is his 命, drawn out of the
    初傳 辰 (the 墓 of 水), the 末傳 戌 the 旬首, and carries 癸 (癸未 of the 甲戌旬), which it overcomes as its wealth;
    for the 丙辰生 one the 干上 辰 is his 命 and the 墓神."""
    case = {"general": "午", "hour": "卯", "month": "申"}
    career = by_status(read(kg, "功名", birth="未", **case))
    assert career["zhizhi.ju10.gujian.qiancheng"].wording == "官不遷轉，止宜治生"
    assert "zhizhi.ju10.ming-chu-mu" in career
    assert by_status(read(kg, "求財", birth="未", **case))["zhizhi.ju10.gui-hua-cai"].polarity == "吉"
    # the 命 辰 is the 初傳, but it carries 庚 (庚辰), not 癸: no 治生
    assert "zhizhi.ju10.gui-hua-cai" not in by_status(read(kg, "求財", birth="辰", **case))
    illness = by_status(read(kg, "疾病", birth="辰", **case))
    assert illness["zhizhi.ju10.gujian.bing"].wording == "命不長久"
    assert "zhizhi.ju10.ben-ming-mu-shen" in illness
    # each querent's verdict is his own
    assert "zhizhi.ju10.gujian.bing" not in by_status(read(kg, "疾病", birth="未", **case))
    assert "zhizhi.ju10.ming-chu-mu" not in by_status(read(kg, "功名", birth="辰", **case))
