"""The 40 encoded samples (docs/encoding-inventory.md §3): hand-written charts, exactly the expected rules fire.

Each chart is written from the rule's Chinese (the facts the sentence names, and a near miss for the
negative case), never from the compiler's output. One build per module.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from hand_charts import PREFIXES, READING
from rdflib import Graph

from kg.match import KnowledgeGraph, Reading, retrieve


@pytest.fixture(scope="module")
def kg(built_graph) -> KnowledgeGraph:
    return KnowledgeGraph.load(built_graph)


def fired(kg: KnowledgeGraph, turtle: str, ids: str) -> dict[str, set[str]]:
    """Rule id → statuses, for the rules whose id starts with one of the space-separated ``ids``."""
    reading = Reading(Graph().parse(data=PREFIXES + turtle, format="turtle"))
    result: dict[str, set[str]] = defaultdict(set)
    for a in retrieve(kg, reading):
        if a.rule_id.startswith(tuple(ids.split())):
            result[a.rule_id].add(a.status)
    return dict(result)


def liuyao(
    topic: str, body: str, lines: str = "r:l1 , r:l2 , r:l3 , r:l4 , r:l5 , r:l6", extra: str = ""
) -> str:
    return f"{READING} a dk:Reading ; dk:system dk:LiuYao ; dk:topic topic:{topic} ; dk:line {lines} {extra} .\n{body}"


# ── join on a shared variable: 父下伏水鬼，棟必漏也 (S06) ────────────────────────────────────


def test_join_hidden_water_ghost_under_fumu(kg):
    chart = liuyao(
        "dongliang",
        """r:l2 dk:position 2 ; dk:relative rel:fumu ; dk:element el:fire .
           r:l4 dk:position 4 ; dk:relative rel:xiongdi ; dk:element el:earth .
           r:h2 dk:under r:l2 ; dk:element el:water ; dk:relative rel:guangui .""",
        lines="r:l2 , r:l4",
        extra="; dk:hiddenLine r:h2",
    )
    assert fired(kg, chart, "yiyin.dongliang.leak") == {"yiyin.dongliang.leak": {"applies"}}
    # the Water 官鬼 hides under the 兄弟, and the 父母 is elsewhere: the join fails
    miss = chart.replace("r:h2 dk:under r:l2", "r:h2 dk:under r:l4")
    assert fired(kg, miss, "yiyin.dongliang.leak") == {}


# ── any: 卦逢六沖，與八純，游魂，及世居五爻者，宜遷也 (S13) ────────────────────────────────────


@pytest.mark.parametrize(
    ("hexclass", "shi_position", "fires"),
    [
        ("hexclass:liuhe", 5, True),  # only 世居五爻
        ("hexclass:youhun", 2, True),  # only 游魂
        ("hexclass:liuhe", 4, False),  # none of the four
    ],
)
def test_any_should_move(kg, hexclass, shi_position, fires):
    chart = liuyao(
        "qianyi",
        f"""r:p dk:hexClass {hexclass} .
            r:s dk:position {shi_position} ; dk:role role:shi .""",
        lines="r:s",
        extra="; dk:primaryHexagram r:p",
    )
    expected = {"yiyin.qianyi.should-move": {"applies"}} if fires else {}
    assert fired(kg, chart, "yiyin.qianyi.should-move") == expected


# ── not: 若雖動出財爻，而與世爻不相干者，謂我去尋財，必難望也 (S20) ──────────────────────────


def test_not_money_unrelated_to_shi(kg):
    chart = liuyao(
        "qiucai",
        """r:l3 dk:position 3 ; dk:relative rel:qicai ; dk:moving true .
           r:l5 dk:position 5 ; dk:role role:shi ; dk:moving false .""",
        lines="r:l3 , r:l5",
    )
    assert fired(kg, chart, "huangjince.qiucai.wo-qu-xun-cai") == {
        "huangjince.qiucai.wo-qu-xun-cai": {"applies"}
    }
    # the moving 財 generates 世 (財來就我): not 不相干
    assert fired(kg, chart + "r:l3 dk:sheng r:l5 .", "huangjince.qiucai.wo-qu-xun-cai") == {}
    # a still 財 is not 動出
    still = chart.replace("dk:relative rel:qicai ; dk:moving true", "dk:relative rel:qicai ; dk:moving false")
    assert fired(kg, still, "huangjince.qiucai.wo-qu-xun-cai") == {}


# ── count and cases: 若三五重太過 … 必須卦中有財庫爻發動 … 必得厚利 (S18) ────────────────────


def _many_cai(heavy: bool, chen_moving: bool) -> str:
    """三五重: 妻財 three times over the 本卦, its changed and its hidden lines (dk:heavyRelative, as the
    chart asserts it); 木宮: 財 is Earth, its 墓 (財庫) is 辰, carried by line 6."""
    body = "r:p dk:palaceElement el:wood" + (" ; dk:heavyRelative rel:qicai" if heavy else "") + " .\n"
    body += f"r:l6 dk:position 6 ; dk:relative rel:qicai ; dk:branch br:chen ; dk:treasuryOf rel:qicai ; dk:moving {str(chen_moving).lower()} .\n"
    return liuyao("qiucai", body, lines="r:l6", extra="; dk:primaryHexagram r:p")


def test_count_and_cases_too_much_money(kg):
    """多財反覆，必須墓庫以收藏 (S18)."""
    ids = "huangjince.qiucai.many-cai"
    # 三五重, the 財庫 辰 still: 反覆難求
    assert fired(kg, _many_cai(True, False), ids) == {"huangjince.qiucai.many-cai.no-treasury": {"applies"}}
    # the 財庫 辰 moves: 必得厚利
    assert fired(kg, _many_cai(True, True), ids) == {"huangjince.qiucai.many-cai.treasury": {"applies"}}
    # not 三五重
    assert fired(kg, _many_cai(False, True), ids) == {}


# ── definition-assigned role: 午為蠶命 … 凡蠶命臨此五辰皆不利 (S36) ───────────────────────────


def _spirits(topic: str, spirits: str, body: str, extra: str = "") -> str:
    return f"{READING} a dk:Reading ; dk:system dk:LiuRen ; dk:topic topic:{topic} ; dk:spirit {spirits} {extra} .\n{body}"


def test_role_from_definition_silkworm_ming(kg):
    on_you = _spirits("cansang", "r:wu", "r:wu dk:branch br:wu ; dk:seat br:you .")
    assert fired(kg, on_you, "yinhezhao.cansang") == {"yinhezhao.cansang.ming-lin": {"applies"}}
    # 午 on 寅 is not one of the five; and 子 on 酉 is not the silkworms' 命
    assert (
        fired(kg, _spirits("cansang", "r:wu", "r:wu dk:branch br:wu ; dk:seat br:yin ."), "yinhezhao.cansang")
        == {}
    )
    assert (
        fired(kg, _spirits("cansang", "r:zi", "r:zi dk:branch br:zi ; dk:seat br:you ."), "yinhezhao.cansang")
        == {}
    )
    # the definition is scoped to its topic: no 類神 for another inquiry
    assert (
        fired(kg, _spirits("qiucai", "r:wu", "r:wu dk:branch br:wu ; dk:seat br:you ."), "yinhezhao.cansang")
        == {}
    )


def test_chained_definitions_tombs(kg):
    """世上一爻為祖墓，祖上一爻為曾祖墳 … 世下一爻為父母墳 (S11): roles built on roles."""
    chart = liuyao(
        "fenmu",
        "".join(f"r:l{i} dk:position {i} .\n" for i in range(1, 7))
        + "".join(f"r:l{i + 1} dk:above r:l{i} .\n" for i in range(1, 6))  # 上一爻, as the chart asserts it
        + "r:l3 dk:role role:shi .\n",
    )
    reading = Reading(Graph().parse(data=PREFIXES + chart, format="turtle"))
    retrieve(kg, reading)
    tombs = {"zumu", "zengzu", "gaozu", "fumu-fen", "xiongdi-fen"}
    roles = {
        line.value.rsplit("/", 1)[-1]: role.value.rsplit("/", 1)[-1]
        for line, role in reading.store.query("SELECT ?l ?r WHERE { ?l <https://w3id.org/divkg/role> ?r }")
        if role.value.rsplit("/", 1)[-1] in tombs
    }
    assert roles == {"l4": "zumu", "l5": "zengzu", "l6": "gaozu", "l2": "fumu-fen", "l1": "xiongdi-fen"}


# ── cases: 世克應我勝，應克世他勝 (S22) ───────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("relation", "expected"),
    [
        ("r:s dk:ke r:y .", {"huangjince.dubo.shi-ying-ke.me": {"applies"}}),
        ("r:y dk:ke r:s .", {"huangjince.dubo.shi-ying-ke.them": {"applies"}}),
        ("r:s dk:sheng r:y .", {}),
    ],
)
def test_cases_gambling(kg, relation, expected):
    chart = liuyao("dubo", f"r:s dk:role role:shi .\nr:y dk:role role:ying .\n{relation}", lines="r:s , r:y")
    assert fired(kg, chart, "huangjince.dubo") == expected


# ── chart-verdict: 求財：晝占不利，夜占財險 (S27) ────────────────────────────────────────────


@pytest.mark.parametrize(
    ("ju", "day_night", "expected"),
    [
        (4, "dn:day", {"zhizhi.ju4.qiucai.day": {"applies"}}),
        (4, "dn:night", {"zhizhi.ju4.qiucai.night": {"applies"}}),
        (5, "dn:day", {}),
    ],
)
def test_chart_verdict_money(kg, ju, day_night, expected):
    chart = f"{READING} a dk:Reading ; dk:system dk:LiuRen ; dk:topic topic:qiucai ; dk:dayGanzhi gz:gui-wei ; dk:ju {ju} ; dk:dayNight {day_night} ."
    assert fired(kg, chart, "zhizhi.ju4.qiucai") == expected


# ── generalised reason: 行人：支干相沖，天罡加孟，行者未歸 (S31) ─────────────────────────────


@pytest.mark.parametrize(
    ("lodging", "seat_class", "fires"),
    [("br:chou", "seat:meng", True), ("br:chou", "seat:zhong", False), ("br:yin", "seat:meng", False)],
)
def test_generalised_tiangang_meng(kg, lodging, seat_class, fires):
    # 癸 lodges in 丑, clashing the day branch 未 (the 干 takes part in 沖 by its 寄宮, as the chart
    # asserts it); a 寄寅 干 does not clash 未
    clash = "r:gan dk:chong r:zhi ." if lodging == "br:chou" else ""
    chart = _spirits(
        "xingren",
        "r:chen",
        f"""r:chen dk:branch br:chen ; dk:seatClass {seat_class} .
            r:gan dk:lodging {lodging} .  r:zhi dk:branch br:wei . {clash}""",
        extra="; dk:gan r:gan ; dk:zhi r:zhi",
    )
    expected = {"zhizhi.tiangang-meng.xingren": {"applies"}} if fires else {}
    assert fired(kg, chart, "zhizhi.tiangang-meng zhizhi.ju5") == expected


# ── exception: 疾病：占病大凶，或年命有寅卯相加，庶幾有救 (S29) ───────────────────────────────


def test_exception_illness_rescue(kg):
    def chart(birth_upper: str) -> str:
        return (
            f"{READING} a dk:Reading ; dk:system dk:LiuRen ; dk:topic topic:jibing ; dk:dayGanzhi gz:gui-wei ; dk:ju 4 ;"
            f" dk:birthSpirit r:b ; dk:spirit r:b .\nr:b dk:branch br:{birth_upper} ."
        )

    ids = "zhizhi.ju4.jibing"
    assert fired(kg, chart("mao"), ids) == {
        "zhizhi.ju4.jibing": {"overridden"},
        "zhizhi.ju4.jibing-rescue": {"applies"},
    }
    assert fired(kg, chart("zi"), ids) == {"zhizhi.ju4.jibing": {"applies"}}


def test_exception_granary_moving(kg):
    """又財加龍，臨庚申、丁酉、癸酉相生有氣，為倉廒。動變則非也 (S09, S09x)."""
    base = """r:f dk:position 4 ; dk:relative rel:qicai ; dk:beast beast:qinglong ; dk:ganzhi gz:gui-you ;
              dk:seasonalState state:wang ; dk:moving {moving} ."""
    ids = "yiyin.cangao"
    assert fired(kg, liuyao("cangao", base.format(moving="false"), lines="r:f"), ids) == {
        "yiyin.cangao.granary": {"applies"}
    }
    assert fired(kg, liuyao("cangao", base.format(moving="true"), lines="r:f"), ids) == {
        "yiyin.cangao.granary": {"overridden"},
        "yiyin.cangao.granary-moving": {"applies"},
    }
    # 乙酉 is not one of the three 干支
    other = base.format(moving="false").replace("gz:gui-you", "gz:yi-you")
    assert fired(kg, liuyao("cangao", other, lines="r:f"), ids) == {}


# ── outcome filled from a binding: 元武所臨 … 白日盜 / 黑夜盜 (S40) and 五爻為路 (S23) ─────────


def test_cases_thief_by_seat(kg):
    chart = _spirits("shiwu", "r:w", "r:w dk:branch br:zi ; dk:general general:xuanwu ; dk:seat br:wu .")
    assert fired(kg, chart, "yinhezhao.shiwu.day-night") == {
        "yinhezhao.shiwu.day-night-thief.day": {"applies"}
    }
    night = chart.replace("dk:seat br:wu", "dk:seat br:hai")
    assert fired(kg, night, "yinhezhao.shiwu.day-night") == {
        "yinhezhao.shiwu.day-night-thief.night": {"applies"}
    }


def test_parameter_road_beast(kg):
    chart = liuyao(
        "chuwai",
        "r:l5 dk:position 5 ; dk:relative rel:guangui ; dk:moving true ; dk:beast beast:baihu .",
        lines="r:l5",
    )
    reading = Reading(Graph().parse(data=PREFIXES + chart, format="turtle"))
    hits = [a for a in retrieve(kg, reading) if a.rule_id == "huangjince.chuwai.lu-guan"]
    assert len(hits) == 1 and hits[0].parameters == {"beast": "白虎"}
    still = chart.replace("dk:moving true", "dk:moving false")
    assert fired(kg, still, "huangjince.chuwai") == {}


# ── text-only: reported as 'consider' when its triggers hold (S30) ──────────────────────────


def test_tomb_tiger(kg):
    """干乘墓虎毋占病 (S30): the spirit over the 干 is the 墓神 of the day stem and carries 白虎."""
    chart = _spirits(
        "jibing",
        "r:x",
        "r:x dk:branch br:chen ; dk:shensha <https://w3id.org/divkg/concept/star/mushen> ; dk:general general:baihu .",
        extra="; dk:ganShang r:x",
    )
    assert fired(kg, chart, "zhizhi.bifa.mu-hu") == {"zhizhi.bifa.mu-hu": {"applies"}}
    assert fired(kg, chart.replace("general:baihu", "general:qinglong"), "zhizhi.bifa.mu-hu") == {}
