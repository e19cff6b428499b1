"""The 大六壬 facts 《御定六壬直指》 needs (docs/liuren-doctrine.md §5), checked on its 癸未 lessons.

Expected values come from the text (¶ numbers of corpus/sources/zhizhi.txt) or from the classical tables
of docs/liuren-doctrine.md §5, worked out by hand.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from rdflib import Graph, URIRef

from kg.compile import RuleCompiler
from kg.errors import InputError
from kg.ganzhi import Branch, Stem
from kg.liuren import Chart, DayNightRule, Options, chart_from_inputs, compare_with_text
from kg.liuren.commands import chart_command
from kg.liuren.facts import chart_graph
from kg.liuren.generals import TEMPLE_TABLES, General
from kg.shensha import MU_SHEN, QI_STARS, RI_DE
from kg.vocabulary import sparql_prefixes

R = URIRef("https://w3id.org/divkg/reading/test")
DAY = Options(day_night_rule=DayNightRule.DAY)
NIGHT = Options(day_night_rule=DayNightRule.NIGHT)


def _chart(ju: int, options: Options = DAY, day: str = "癸未", **inputs: str) -> Chart:
    return chart_from_inputs(day=day, ju=ju, options=options, **inputs)


def _ask(chart: Chart, where: str) -> bool:
    return chart_graph(chart, R).query(sparql_prefixes() + f"ASK {{ {where} }}").askAnswer


def _branches(chart: Chart, where: str) -> set[str]:
    """The branches (as characters) of the spirits ``?s`` matching ``where``."""
    graph: Graph = chart_graph(chart, R)
    rows = graph.query(sparql_prefixes() + f"SELECT ?b {{ ?s dk:branch ?b . {where} }}")
    slugs = {str(row[0]).rsplit("/", 1)[-1] for row in rows}
    return {b.char for b in Branch if b.slug in slugs}


def _spirit(branch: str) -> str:
    return f"<{R}/spirit/{Branch.from_char(branch).slug}>"


# ── 墓神 (docs/liuren-doctrine.md §5.1) ─────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("variant", "tombs"),
    [("element", "未未戌戌辰辰丑丑辰辰"), ("yin-reverse", "未戌戌丑戌丑丑辰辰未")],
)
def test_mu_shen_tables(variant: str, tombs: str) -> None:
    """同生同死: the 墓 of the element (木 未, 火 戌, 土 with 水 辰, 金 丑, 水 辰); 陽順陰逆: eight places on
    from the stem's 長生, backward for the yin stems (乙 午→戌, 丁己 酉→丑, 辛 子→辰, 癸 卯→未)."""
    assert "".join(MU_SHEN[variant].at(stem).char for stem in Stem) == tombs


def test_mushen_covers_the_day_at_10() -> None:
    """¶68, ¶70 墓神覆日 and ¶72 干墓並關 at 第10局: the 干上神 辰 is the 墓神 (default reading)."""
    ten = _chart(10)
    assert ten.gan_shang is Branch.CHEN
    assert _branches(ten, "?s dk:shensha star:mushen") == {"辰"}
    assert _ask(ten, f"<{R}> dk:ganShang [ dk:shensha star:mushen ]")


def test_mushen_at_4_is_not_the_texts() -> None:
    """¶8 calls the 干上神 戌 of 第4局 墓神 too; neither table gives 戌 for 癸 (docs/liuren-doctrine.md §5.1)."""
    for variant in MU_SHEN:
        assert not _ask(
            _chart(4, Options(stem_tomb=variant)), f"<{R}> dk:ganShang [ dk:shensha star:mushen ]"
        )


def test_mushen_yin_reverse() -> None:
    """陽順陰逆: 癸 長生 卯, counted backward, 墓 未 — over the 干 at 第7局 (干上 未)."""
    seven = _chart(7, Options(stem_tomb="yin-reverse"))
    assert _branches(seven, "?s dk:shensha star:mushen") == {"未"}
    assert _ask(seven, f"<{R}> dk:ganShang [ dk:shensha star:mushen ]")


def test_unknown_tables_are_refused() -> None:
    with pytest.raises(InputError, match="墓神 table"):
        Options(stem_tomb="zhangsheng")
    with pytest.raises(InputError, match="入廟 table"):
        Options(temple_table="C")


# ── 天將入廟 (docs/liuren-doctrine.md §5.2) ───────────────────────────────────────────────────────────


def test_temple_tables() -> None:
    """Default 本家: 貴人 丑 螣蛇 巳 朱雀 午 六合 卯 勾陳 辰 青龍 寅 天空 戌 白虎 申 太常 未 玄武 亥 太陰 酉 天后 子."""
    default = TEMPLE_TABLES["xuanwu-hai"]
    assert "".join(default.home(g).char for g in General) == "丑巳午卯辰寅戌申未亥酉子"
    other = TEMPLE_TABLES["xuanwu-zi"]
    assert [g for g in General if other.home(g) != default.home(g)] == [General.XUANWU, General.TIANHOU]
    assert (other.home(General.XUANWU), other.home(General.TIANHOU)) == (Branch.ZI, Branch.HAI)


def test_in_temple_on_a_plate() -> None:
    """甲子 第1局 晝: 貴人 丑 on 丑, 順: 丑貴 寅蛇 卯雀 辰合 巳勾 午龍 未空 申虎 酉常 戌玄 亥陰 子后. 入廟: 貴人 丑,
    白虎 申, and 天后 子 by the default table only."""
    default = _chart(1, DAY, day="甲子")
    assert _branches(default, "?s dk:inTemple true") == {"丑", "申", "子"}
    assert len(_branches(default, "?s dk:inTemple false")) == 9
    other = _chart(1, Options(day_night_rule=DayNightRule.DAY, temple_table="xuanwu-zi"), day="甲子")
    assert _branches(other, "?s dk:inTemple true") == {"丑", "申"}


def test_no_temple_without_a_plate() -> None:
    """A chart given by 局 only has no 晝/夜: like dk:general, 入廟 and the general's 五行 are not asserted."""
    by_ju = chart_from_inputs(day="癸未", ju=6)
    assert not _ask(by_ju, "?s dk:inTemple ?t")
    assert not _ask(by_ju, "?s dk:generalElement ?e")


# ── 日德, 生氣, 死氣 (docs/liuren-doctrine.md §5.3) ─────────────────────────────────────────────────────


def test_ri_de_table() -> None:
    """甲己 寅, 乙庚 申, 丙辛 戊癸 巳, 丁壬 亥."""
    assert "".join(RI_DE.at(stem).char for stem in Stem) == "寅申巳亥巳寅申巳亥巳"


def test_first_is_the_de_at_8() -> None:
    """¶52 末助初財初德: the 初傳 巳 of 第8局 is the 財 and the 德 of 癸."""
    eight = _chart(8)
    assert _ask(eight, f"<{R}> dk:firstTransmission [ dk:shensha star:ride ; dk:relative rel:qicai ]")


def test_qi_stars_by_month() -> None:
    """生氣 正月(寅) 子 …; 死氣 正月 午 …"""
    months = [Branch((Branch.YIN + k) % 12) for k in range(12)]
    shengqi, siqi = QI_STARS
    assert "".join(shengqi.at(m).char for m in months) == "子丑寅卯辰巳午未申酉戌亥"
    assert "".join(siqi.at(m).char for m in months) == "午未申酉戌亥子丑寅卯辰巳"


def test_taicai_shengqi_siqi_at_8() -> None:
    """¶52 胎財生氣妻懷孕 (七月占), 胎財死氣損胎推 (正月占): the 財 午 over the 干 of 第8局 is 生氣 in the
    seventh month (申) and 死氣 in the first (寅); without a month neither is asserted."""
    gan_shang = f"<{R}> dk:ganShang [ dk:branch br:wu ; dk:relative rel:qicai ; dk:shensha star:%s ]"
    assert _ask(_chart(8, month="申"), gan_shang % "shengqi")
    assert _ask(_chart(8, month="寅"), gan_shang % "siqi")
    assert not _ask(_chart(8), "?s dk:shensha star:shengqi")
    assert not _ask(_chart(8), "?s dk:shensha star:siqi")


def test_jingyun_case_at_7() -> None:
    """¶42 精蘊 (酉年二月, 丑為年命): 妻之年命，上乘華蓋，鬼乘太常，又是死氣 — on the 夜 plate of 第7局 the
    spirit over 丑 is 未: 華蓋 (of 亥卯未), 太常, 官鬼, 死氣 of 二月 (卯)."""
    seven = _chart(7, NIGHT, month="卯", birth="丑")
    assert _ask(
        seven,
        f"<{R}> dk:birthSpirit [ dk:branch br:wei ; dk:general general:taichang ; dk:relative rel:guangui ;"
        " dk:shensha star:huagai , star:siqi ]",
    )


# ── the 干 by its 寄宮, 盜氣, 旺相 (docs/liuren-doctrine.md §5.4) ────────────────────────────────────────


def test_jiaoche_he_at_8() -> None:
    """¶46: 干上午與支上子相沖，支辰與日干丑未相沖 … 干上之午與支辰相合，支上之子與日干相合 (交車相合)."""
    eight = _chart(8)
    gan, zhi = f"<{R}/gan>", f"<{R}/zhi>"
    assert _ask(eight, f"{_spirit('午')} dk:chong {_spirit('子')} . {gan} dk:chong {zhi}")
    assert _ask(eight, f"{_spirit('午')} dk:he {zhi} . {_spirit('子')} dk:he {gan}")
    assert _ask(eight, f"<{R}> dk:ganShang {_spirit('午')} ; dk:zhiShang {_spirit('子')}")


def test_zhigan_chong_on_every_guiwei_lesson() -> None:
    """支干相沖 (¶8, ¶20, ¶30 …): 癸 寄丑, which clashes the 支 未, whatever the 局."""
    assert all(_ask(_chart(ju), f"<{R}/gan> dk:chong <{R}/zhi>") for ju in range(1, 13))


def test_gan_keeps_its_element() -> None:
    """The 寄宮 stands in for the branch relations only: 癸 水 is overcome by 土 (戌), not 比和 with it."""
    four = _chart(4)
    assert _ask(four, f"{_spirit('戌')} dk:ke <{R}/gan>")
    assert not _ask(four, f"{_spirit('戌')} dk:bihe <{R}/gan>")


def test_daoqi_at_6() -> None:
    """¶26 寅木乃癸水之盜氣，今臨支而脫干: the 支上神 寅 is the 子孫 of 癸."""
    assert _ask(_chart(6), f"<{R}> dk:zhiShang [ dk:branch br:yin ; dk:relative rel:zisun ]")


@pytest.mark.parametrize(("month", "state"), [("子", "wang"), ("午", "qiu"), ("申", "xiang")])
def test_wangshen_at_8(month: str, state: str) -> None:
    """¶50 旺神臨支: the 支上神 子 (水) is 旺 in winter; 囚 in summer, 相 in autumn (水 born of 金)."""
    assert _ask(_chart(8, month=month), f"<{R}> dk:zhiShang [ dk:seasonalState state:{state} ]")


def test_no_state_without_month() -> None:
    assert not _ask(_chart(8), "?s dk:seasonalState ?x")


def test_gan_shi_zhi_kong() -> None:
    """¶80 干實支空 (第11局: 干上 卯, 支上 酉 空); ¶30 人空病實 (第6局: 干上 申 空)."""
    assert _ask(_chart(11), f"<{R}> dk:ganShang [ dk:void false ] ; dk:zhiShang [ dk:void true ]")
    assert _ask(_chart(6), f"<{R}> dk:ganShang [ dk:branch br:shen ; dk:void true ]")


@pytest.mark.parametrize(
    ("ju", "seat", "rank"),
    [
        (5, "申", "孟"),
        (6, "酉", "仲"),
        (7, "戌", "季"),
        (8, "亥", "孟"),
        (9, "子", "仲"),
        (10, "丑", "季"),
        (11, "寅", "孟"),
    ],
)
def test_tiangang(ju: int, seat: str, rank: str) -> None:
    """行人 lines: 天罡加孟 (¶20, ¶50, ¶80 加寅), 加酉 / 加仲 (¶30), 指戌 / 加季 (¶40), 指亥 (¶50), 加仲 (¶60),
    加季 (¶70)."""
    slug = {"孟": "meng", "仲": "zhong", "季": "ji"}[rank]
    where = f"{_spirit('辰')} dk:seat br:{Branch.from_char(seat).slug} ; dk:seatClass seat:{slug}"
    assert _ask(_chart(ju), where)


# ── 晝將, 夜將, the general's 五行 (docs/liuren-doctrine.md §5.5) ───────────────────────────────────────


def test_both_nobles_at_6() -> None:
    """¶26 晝貴入獄，夜貴受克: 晝 貴人 巳 on 戌 (辰戌 the 獄), 夜 貴人 卯 on 申 (金 克 木) — asserted on both
    plates although a chart given by 局 has no 晝/夜."""
    six = chart_from_inputs(day="癸未", ju=6)
    assert six.day_night is None
    assert _ask(six, f"{_spirit('巳')} dk:dayGeneral general:guiren ; dk:seat br:xu")
    assert _ask(
        six,
        f"{_spirit('卯')} dk:nightGeneral general:guiren ; dk:seat br:shen ; dk:seatRelation relation:xiazeishang",
    )
    assert not _ask(six, "?s dk:general ?g")


@pytest.mark.parametrize("ju", [5, 9])
def test_day_generals_all_earth(ju: int) -> None:
    """¶14 晝將純土生傳 (第5局), ¶56 晝將皆土，盡生三傳 (第9局): on the 晝 plate the three transmissions carry
    土 generals (貴人, 勾陳, 太常)."""
    where = f"<{R}> dk:transmission ?t . ?t dk:generalElement ?e"
    chart = _chart(ju)
    graph = chart_graph(chart, R)
    elements = {
        str(row[0]).rsplit("/", 1)[-1] for row in graph.query(sparql_prefixes() + f"SELECT ?e {{ {where} }}")
    }
    assert elements == {"earth"}


def test_general_element_follows_the_plate() -> None:
    """第5局 夜: 貴人 卯 on 未, 逆 (卯貴 寅蛇 丑雀 子合 亥勾 戌龍 酉空 申虎 未常 午玄 巳陰): the 初傳 巳 rides 太陰, 金."""
    assert _ask(
        _chart(5, NIGHT),
        f"<{R}> dk:firstTransmission [ dk:general general:taiyin ; dk:generalElement el:metal ]",
    )


# ── 課體 (docs/liuren-doctrine.md §5.6) ─────────────────────────────────────────────────────────────


def test_bikou_at_4_and_10() -> None:
    """¶4 旬尾加於旬首，謂之閉口卦 (第4局: 未 on 戌); ¶64 閉口居中, ¶66 中傳閉口 (第10局: 旬首 戌 on 旬尾 未,
    the 中傳 未 the 旬尾)."""
    four, ten = _chart(4), _chart(10)
    assert four.seat_of(Branch.WEI) is Branch.XU and ten.seat_of(Branch.XU) is Branch.WEI
    assert ten.derivation.branches[1] is Branch.WEI
    assert "閉口" in four.keti_names and "閉口" in ten.keti_names


def test_lide_at_6_follows_no_seat_definition() -> None:
    """勵德 as 貴人臨卯酉 gives the text's 第5局 (晝 巳 on 酉) and 第11局 (晝 巳 on 卯). At 第6局 the text's own
    晝貴入獄，夜貴受克 puts the 貴人 on 戌 and 申 (docs/liuren-doctrine.md §5.6): no seat definition gives it,
    and 貴人 riding 卯 would hold on every 癸 lesson (the 夜 貴人 of 癸 is 卯)."""
    charts = {ju: _chart(ju) for ju in (5, 6, 11)}
    seats = {ju: (c.day_procession.seat.char, c.night_procession.seat.char) for ju, c in charts.items()}
    assert seats == {5: ("酉", "未"), 6: ("戌", "申"), 11: ("卯", "丑")}
    assert ["勵德" in c.keti_names for c in charts.values()] == [True, False, True]
    assert all(_chart(ju).night_procession.noble is Branch.MAO for ju in range(1, 13))
    assert compare_with_text(_chart(6), ("重審", "斫輪", "羅網", "勵德")).named_not_derived == ("勵德",)


# ── the case histories (docs/liuren-doctrine.md §5.7) ─────────────────────────────────────────────


def test_case_10_zhinan() -> None:
    """¶10 指南: 丑將加辰 is 第4局; 干上 戌, 初 = 干上神, 末 = 支上神 (¶4); 虎頭蛇尾 on the 晝 plate (辰 時)."""
    chart = chart_from_inputs(day="癸未", general="丑", hour="辰")
    first, _, last = chart.transmissions
    assert (chart.ju, chart.gan_shang, chart.day_night.value) == (4, Branch.XU, "晝")
    assert (first.branch, last.branch) == (chart.gan_shang, chart.zhi_shang)
    assert (first.general, last.general) == (General.BAIHU, General.TENGSHE)


def test_case_62_zhinan() -> None:
    """¶62 指南: 丁丑二月戌將午時 is 第9局; 貴德財馬臨身，且居太歲之位: the 干上 巳 is the 晝 貴人, the 日德, the 財
    and the 驛馬, sitting on 丑 (the 太歲); 年上乘月將青龍: the 月將 戌 rides 青龍; 旬首河魁為官星; 畢宿發用 (¶60)."""
    chart = chart_from_inputs(day="癸未", general="戌", hour="午", month="卯")
    assert (chart.ju, chart.gan_shang, chart.seat_of(Branch.SI)) == (9, Branch.SI, Branch.CHOU)
    assert chart.derivation.branches[0] is Branch.YOU
    assert _ask(
        chart,
        f"<{R}> dk:ganShang [ dk:general general:guiren ; dk:relative rel:qicai ; dk:shensha star:ride , star:yima ]",
    )
    assert _ask(
        chart, f"{_spirit('戌')} dk:general general:qinglong ; dk:dunStem stem:jia ; dk:relative rel:guangui"
    )


@pytest.mark.parametrize("birth", ["未", "辰"])
def test_case_72_gujian(birth: str) -> None:
    """¶72 古鑑: 七月午將加卯 is 第10局. 乙未生人: the 中傳 未 (the 命) is drawn out of the 墓 (it sits on 辰);
    the 末傳 is the 旬首 戌; 三傳全鬼. 丙辰生人: 本命自來墓身 — the 命 辰 is over the 干, and it is the 墓神."""
    chart = chart_from_inputs(day="癸未", general="午", hour="卯", month="申", birth=birth)
    middle, last = chart.transmissions[1:]
    assert chart.ju == 10
    assert (middle.branch, middle.seat, last.branch) == (Branch.WEI, Branch.CHEN, chart.xun_head)
    assert all(t.relative.char == "官鬼" for t in chart.transmissions)
    assert _ask(chart, f"{_spirit('辰')} dk:shensha star:mushen")
    if birth == "辰":
        assert _ask(
            chart,
            f"<{R}> dk:birthBranch br:chen ; dk:ganShang [ dk:branch br:chen ; dk:shensha star:mushen ]",
        )


# ── rules compile against the facts ──────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("para", "quote", "variables", "when", "fires"),
    [
        (68, "墓神覆日，闇昧不明", {"X": "gan-shang"}, ["X.star 墓神"], {10}),
        (
            26,
            "晝貴入獄，夜貴受克",
            {"S": "spirit", "T": "spirit"},
            ["S.day-general 貴人", "S.seat 辰|戌", "T.night-general 貴人", "T.seat-relation 下賊上"],
            {6},
        ),
        (46, "支上之子與日干相合", {"Y": "zhi-shang", "G": "gan"}, ["Y.he G"], {8}),
    ],
)
def test_rules_on_the_new_facts(para: int, quote: str, variables: dict, when: list, fires: set[int]) -> None:
    """Conditions written with the new facts compile and hold on the lessons where the text says them."""
    then = {"polarity": "凶", "zh": quote, "en": "test"}
    raw = {"id": "test.zhizhi", "para": para, "quote": quote, "vars": variables, "when": when, "then": then}
    (rule,) = RuleCompiler().compile_rule(raw, "zhizhi")
    holds = {
        ju
        for ju in range(4, 12)
        if len(chart_graph(chart_from_inputs(day="癸未", ju=ju), R).query(rule.query))
    }
    assert holds == fires


# ── the facts in `kg chart liuren --format turtle` ────────────────────────────────────────────────


def test_cli_turtle_has_the_facts() -> None:
    result = CliRunner().invoke(
        chart_command,
        ["--day", "癸未", "--general", "午", "--hour", "卯", "--month", "申", "--format", "turtle"],
    )
    assert result.exit_code == 0, result.output
    for term in (
        "dk:dayGeneral",
        "dk:nightGeneral",
        "dk:generalElement",
        "dk:inTemple",
        "star:ride",
        "star:mushen",
        "star:shengqi",
        "star:siqi",
    ):
        assert term in result.output, term


def test_cli_options() -> None:
    args = [
        "--day",
        "癸未",
        "--ju",
        "7",
        "--format",
        "turtle",
        "--stem-tomb",
        "yin-reverse",
        "--temple",
        "xuanwu-zi",
    ]
    result = CliRunner().invoke(chart_command, args)
    assert result.exit_code == 0, result.output
    graph = Graph().parse(data=result.output, format="turtle")
    tombs = graph.query(sparql_prefixes() + "SELECT ?b { ?s dk:shensha star:mushen ; dk:branch ?b }")
    assert {str(row[0]).rsplit("/", 1)[-1] for row in tombs} == {"wei"}
    values = graph.query(
        sparql_prefixes() + "SELECT ?v { ?r dk:option [ dk:name 'temple_table' ; rdf:value ?v ] }"
    )
    assert {str(row[0]) for row in values} == {"xuanwu-zi"}
