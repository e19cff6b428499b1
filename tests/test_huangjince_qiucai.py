"""《黃金策》〈求財〉 ¶2–28 (corpus/rules/huangjince-qiucai.yaml): verse lines, 用神, 主人 and the worked cases.

Hand-written charts state the facts a verse line and its note name (and a near miss for the silent case),
never the compiler's output. The commentary's worked cases (如伏官下, 如木財春月得價, 如財臨辰土 …) are cast
with the real generator (kg.liuyao.chart.chart_from_inputs); their charts follow the 納甲 tables of
docs/liuyao-doctrine.md §4.1 to §4.3 and their expected values the text and the 旺相 / 長生 tables
(docs/liuyao-doctrine.md §4.8, docs/liuyao-doctrine.md §4.9).

The graph is built once per module from this file's rules alone, so other rule files being edited at the
same time cannot break these tests.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from hand_charts import PREFIXES, READING, graph_of
from rdflib import Graph

from kg.liuyao.chart import chart_from_inputs
from kg.liuyao.facts import chart_graph, reading_iri
from kg.match import Applicable, KnowledgeGraph, Reading, retrieve
from kg.vocabulary import vocabulary

RULES = Path(__file__).resolve().parent.parent / "corpus" / "rules" / "huangjince-qiucai.yaml"
Q = "huangjince.qiucai."


@pytest.fixture(scope="module")
def kg(tmp_path_factory) -> KnowledgeGraph:
    return graph_of(tmp_path_factory, RULES.name)


def chart(topic: str, body: str, links: str) -> str:
    """A hand chart: the reading of ``topic`` and its entities (``links``: ``dk:line r:a , r:b ; …``)."""
    return f"{READING} a dk:Reading ; dk:system dk:LiuYao ; dk:topic topic:{topic} ; {links} .\n{body}"


def run(kg: KnowledgeGraph, turtle: str) -> tuple[Reading, list[Applicable]]:
    reading = Reading(Graph().parse(data=PREFIXES + turtle, format="turtle"))
    return reading, retrieve(kg, reading)


def fired(kg: KnowledgeGraph, turtle: str, *names: str) -> dict[str, set[str]]:
    """Rule id → statuses, for this file's rules whose short names (after ``huangjince.qiucai.``) start
    with one of ``names``."""
    result: dict[str, set[str]] = defaultdict(set)
    for a in run(kg, turtle)[1]:
        if a.rule_id.startswith(tuple(Q + n for n in names)):
            result[a.rule_id].add(a.status)
    return dict(result)


def roles(reading: Reading, role: str) -> set[str]:
    """Local names of the entities holding ``role`` after retrieval (definitions have run)."""
    rows = reading.store.query(
        f"SELECT ?e WHERE {{ ?e <https://w3id.org/divkg/role> <https://w3id.org/divkg/concept/role/{role}> }}"
    )
    return {row[0].value.rsplit("/", 1)[-1] for row in rows}


# ── 用神 (¶2 二者占財用神) and 主人 (¶24) ─────────────────────────────────────────────────────


def test_yongshen_cai_and_fu(kg):
    body = """r:a dk:position 1 ; dk:relative rel:qicai .
              r:b dk:position 2 ; dk:relative rel:zisun .
              r:c dk:position 3 ; dk:relative rel:xiongdi .
              r:d dk:position 4 ; dk:relative rel:guangui ."""
    reading, _ = run(kg, chart("qiucai", body, "dk:line r:a , r:b , r:c , r:d"))
    assert roles(reading, "yongshen") == {"a", "b"}


def test_yongshen_hidden_only_when_absent(kg):
    body = """r:p dk:absentRelative rel:qicai .
              r:l dk:position 2 ; dk:relative rel:guangui .
              r:h dk:position 2 ; dk:relative rel:qicai ; dk:under r:l ."""
    links = "dk:line r:l ; dk:hiddenLine r:h ; dk:primaryHexagram r:p"
    assert roles(run(kg, chart("qiucai", body, links))[0], "yongshen") == {"h"}
    # a 伏神 財 under a hexagram that shows 財 (the 'every position' option) is not the 用神
    present = body.replace("r:p dk:absentRelative rel:qicai .", "r:p dk:absentRelative rel:fumu .")
    assert roles(run(kg, chart("qiucai", present, links))[0], "yongshen") == set()


@pytest.mark.parametrize(
    ("topic", "holders"),
    [
        ("yegui", {"g"}),  # 主人如求貴人，財鬼為主
        ("qiu-furen", {"f"}),  # 求婦人財，財為主
        ("qiu-yu-ren", {"y"}),  # 不知主人以應爻論之
        ("qiucai", set()),  # a plain 求財 reading asks no one
    ],
)
def test_zhuren_by_topic(kg, topic, holders):
    body = """r:g dk:position 2 ; dk:relative rel:guangui .
              r:f dk:position 3 ; dk:relative rel:qicai .
              r:y dk:position 5 ; dk:relative rel:xiongdi ; dk:role role:ying ."""
    reading, _ = run(kg, chart(topic, body, "dk:line r:g , r:f , r:y"))
    assert roles(reading, "zhuren") == holders


# ── verse lines: fires, and a near miss stays silent ──────────────────────────────────────────


def test_cai_kong_fu_jue(kg):
    """財空福絕，不拘營運總違心 (note: 財空, or 財/福 臨墓絕)."""
    ids = "cai-kong-fu-jue"
    void = chart(
        "qiucai", "r:f dk:relative rel:qicai ; dk:void true ; dk:stage stage:diwang .", "dk:line r:f"
    )
    assert fired(kg, void, ids) == {Q + ids: {"applies"}}
    fu_jue = chart(
        "qiucai", "r:z dk:relative rel:zisun ; dk:void false ; dk:stage stage:jue .", "dk:line r:z"
    )
    assert fired(kg, fu_jue, ids) == {Q + ids: {"applies"}}
    # a 福 at 長生 and not void: nothing
    alive = fu_jue.replace("stage:jue", "stage:changsheng")
    assert fired(kg, alive, ids) == {}


def test_you_fu_wu_cai_xiong_dong(kg):
    """有福無財，兄弟交重偏有望: the exception lifts 財為用神，而不上卦，必無可望 (¶6) and ¶8's 有福無財，財必不實."""
    body = """r:p dk:absentRelative rel:qicai .
              r:z dk:relative rel:zisun ; dk:moving false .
              r:x dk:relative rel:xiongdi ; dk:moving true ."""
    links = "dk:line r:z , r:x ; dk:primaryHexagram r:p"
    ids = ("cai-bu-shang-gua", "you-fu-wu-cai-xiong-dong", "cai-fu-zhu-xiang.you-fu-wu-cai")
    assert fired(kg, chart("qiucai", body, links), *ids) == {
        Q + "cai-bu-shang-gua": {"overridden"},
        Q + "cai-fu-zhu-xiang.you-fu-wu-cai": {"overridden"},
        Q + "you-fu-wu-cai-xiong-dong": {"applies"},
    }
    # 仍舊有望，但主遲滯: hope that comes late is a gain put off
    (late,) = [
        a for a in run(kg, chart("qiucai", body, links))[1] if a.rule_id == Q + "you-fu-wu-cai-xiong-dong"
    ]
    assert late.polarity == "吉凶參半"
    still = body.replace("rel:xiongdi ; dk:moving true", "rel:xiongdi ; dk:moving false")
    assert fired(kg, chart("qiucai", still, links), *ids) == {
        Q + "cai-bu-shang-gua": {"applies"},
        Q + "cai-fu-zhu-xiang.you-fu-wu-cai": {"applies"},
    }


@pytest.mark.parametrize(
    ("guard", "expected"),
    [
        ("", {"you-cai-wu-fu": {"applies"}}),
        # 須得卦有官動
        (
            "r:g dk:relative rel:guangui ; dk:moving true .",
            {"you-cai-wu-fu": {"overridden"}, "you-cai-wu-fu-guan-dong": {"applies"}},
        ),
        # 或日辰是鬼
        (
            "r:d dk:pillarKind pillar:day ; dk:relative rel:guangui .",
            {"you-cai-wu-fu": {"overridden"}, "you-cai-wu-fu-guan-dong": {"applies"}},
        ),
        # a still 官鬼 does not guard the 財
        ("r:g dk:relative rel:guangui ; dk:moving false .", {"you-cai-wu-fu": {"applies"}}),
    ],
)
def test_you_cai_wu_fu_guan_dong(kg, guard, expected):
    """有財無福，官爻發動亦堪求 against 子孫藏伏…一遇兄弟便被劫盡."""
    body = f"""r:p dk:absentRelative rel:zisun .
               r:f dk:relative rel:qicai ; dk:moving false .
               r:x dk:relative rel:xiongdi ; dk:moving true .
               {guard}"""
    links = "dk:line r:f , r:x , r:g ; dk:dayPillar r:d ; dk:primaryHexagram r:p"
    assert fired(kg, chart("qiucai", body, links), "you-cai-wu-fu") == {Q + k: v for k, v in expected.items()}


@pytest.mark.parametrize(
    ("cai", "expected"),
    [
        # 有財: the 財 on the lines beside the 子孫
        (True, {"you-fu-guan-dong": {"applies"}}),
        # no 財 line: 財為用神，而不上卦，必無可望 judges alone
        (False, {"cai-bu-shang-gua": {"applies"}}),
    ],
)
def test_you_fu_guan_dong_keeps_the_cai(kg, cai, expected):
    """卦有子孫而官鬼動，則有阻節，反不易矣，此象鬼爻生旺日得財: the note of 有財無福 sets the 子孫 on the lines
    against its 子孫藏伏 and keeps the verse's 財 (second reading, round 15)."""
    wealth = "r:f dk:relative rel:qicai ; dk:moving false ." if cai else "r:p dk:absentRelative rel:qicai ."
    body = f"""r:z dk:relative rel:zisun ; dk:moving false .
               r:g dk:relative rel:guangui ; dk:moving true .
               {wealth}"""
    links = f"dk:line r:z , r:g{' , r:f' if cai else ''} ; dk:primaryHexagram r:p"
    turtle = chart("qiucai", body, links)
    assert fired(kg, turtle, "you-fu-guan-dong", "cai-bu-shang-gua") == {
        Q + k: v for k, v in expected.items()
    }
    # 阻節 … 生旺日得財: one verdict, a gain put off
    late = {a.polarity for a in run(kg, turtle)[1] if a.rule_id == Q + "you-fu-guan-dong"}
    assert late == ({"吉凶參半"} if cai else set())


def test_cai_fu_ju_wu_and_void(kg):
    """財福俱無，何異守株而待兔 … 空亡亦然."""
    absent = chart(
        "qiucai", "r:p dk:absentRelative rel:qicai , rel:zisun .", "dk:line r:x ; dk:primaryHexagram r:p"
    )
    assert fired(kg, absent, "cai-fu-ju-wu", "cai-fu-kong") == {Q + "cai-fu-ju-wu": {"applies"}}
    body = """r:f dk:relative rel:qicai ; dk:void true .
              r:z dk:relative rel:zisun ; dk:void {void} ."""
    both_void = chart("qiucai", body.format(void="true"), "dk:line r:f , r:z")
    assert fired(kg, both_void, "cai-fu-ju-wu", "cai-fu-kong") == {Q + "cai-fu-kong": {"applies"}}
    # the 子孫 is not void: 財福 are not 'as good as absent'
    one_void = chart("qiucai", body.format(void="false"), "dk:line r:f , r:z")
    assert fired(kg, one_void, "cai-fu-kong") == {}


def test_fu_xiong_ju_dong(kg):
    """父兄皆動，無殊緣木以求魚 (財福俱傷。用神既損: the 財 and the 子孫 on the lines)."""
    body = """r:a dk:relative rel:fumu ; dk:moving true .
              r:x dk:relative rel:xiongdi ; dk:moving {moving} .
              r:f dk:relative rel:qicai . r:z dk:relative rel:zisun ."""
    both = chart("qiucai", body.format(moving="true"), "dk:line r:a , r:x , r:f , r:z")
    assert fired(kg, both, "fu-xiong-ju-dong") == {Q + "fu-xiong-ju-dong": {"applies"}}
    one = chart("qiucai", body.format(moving="false"), "dk:line r:a , r:x , r:f , r:z")
    assert fired(kg, one, "fu-xiong-ju-dong") == {}
    # no 財 on the lines: nothing for the 兄弟 to rob (¶6 無財可劫); 財福俱無 is the verse beside it
    no_cai = chart("qiucai", body.format(moving="true"), "dk:line r:a , r:x , r:z")
    assert fired(kg, no_cai, "fu-xiong-ju-dong") == {}
    # no 子孫 on the lines: no source for the 父母 to cut
    no_zisun = chart("qiucai", body.format(moving="true"), "dk:line r:a , r:x , r:f")
    assert fired(kg, no_zisun, "fu-xiong-ju-dong") == {}


def test_fu_hua_xiong_keeps_cai_and_zisun(kg):
    """父化兄，兄化父亦然: 亦然 replaces 父兄皆動 and keeps the 財 and 子孫 that 財福俱傷 judges."""
    body = """r:a dk:relative rel:fumu ; dk:moving true ; dk:changesTo r:c .
              r:c dk:relative rel:xiongdi .
              r:f dk:relative rel:qicai . r:z dk:relative rel:zisun ."""
    links = "dk:changedLine r:c ; dk:line r:a , r:f{z}"
    assert fired(kg, chart("qiucai", body, links.format(z=" , r:z")), "fu-hua-xiong") == {
        Q + "fu-hua-xiong": {"applies"}
    }
    assert fired(kg, chart("qiucai", body, links.format(z="")), "fu-hua-xiong") == {}


def test_yue_dai_cai(kg):
    """月帶財神，卦雖無而月中必有: lifts the verdict on an absent 財."""
    body = "r:p dk:absentRelative rel:qicai .\nr:m dk:pillarKind pillar:month ; dk:relative rel:{rel} ."
    links = "dk:monthPillar r:m ; dk:primaryHexagram r:p"
    ids = ("yue-dai-cai", "cai-bu-shang-gua")
    assert fired(kg, chart("qiucai", body.format(rel="qicai"), links), *ids) == {
        Q + "cai-bu-shang-gua": {"overridden"},
        Q + "yue-dai-cai": {"applies"},
    }
    assert fired(kg, chart("qiucai", body.format(rel="xiongdi"), links), *ids) == {
        Q + "cai-bu-shang-gua": {"applies"}
    }


def test_ri_shang_qi_wei(kg):
    """日傷妻位，財雖旺而當日應無: the exception to 財爻旺相生合持世，乃是必得之象."""
    body = """r:f dk:relative rel:qicai ; dk:seasonalState state:wang ; dk:role role:shi .
              r:d dk:pillarKind pillar:day ."""
    links = "dk:line r:f ; dk:dayPillar r:d"
    ids = ("cai-wang-sheng-he-shi", "ri-shang-cai")
    assert fired(kg, chart("qiucai", body + "\nr:d dk:ke r:f .", links), *ids) == {
        Q + "cai-wang-sheng-he-shi": {"overridden"},
        Q + "ri-shang-cai": {"applies"},
    }
    assert fired(kg, chart("qiucai", body + "\nr:d dk:sheng r:f .", links), *ids) == {
        Q + "cai-wang-sheng-he-shi": {"applies"}
    }
    # 然後有得 only for the sure 財 of the note: a strong 財 apart from the 世, overcome by the day, is not promised
    apart = body.replace("dk:role role:shi", "dk:position 3") + "\nr:s dk:role role:shi .\nr:d dk:ke r:f ."
    assert fired(kg, chart("qiucai", apart, "dk:line r:f , r:s ; dk:dayPillar r:d"), *ids) == {}


@pytest.mark.parametrize(
    ("cai", "expected"),
    [
        # 財雖有氣，亦多虛耗 … 分散財物: the 財 on the lines is what the 兄弟 wastes and scatters
        (True, {"wu-gui": {"applies"}, "wu-gui-xiong-dong": {"applies"}}),
        # no 財 line: 無財可劫則反生扶福德 (¶6), the moving 兄弟 feeds the 子孫 and robs nothing
        (
            False,
            {
                "cai-bu-shang-gua": {"overridden"},
                "cai-fu-zhu-xiang.you-fu-wu-cai": {"overridden"},
                "you-fu-wu-cai-xiong-dong": {"applies"},
            },
        ),
    ],
)
def test_wu_gui_xiong_dong_keeps_the_cai(kg, cai, expected):
    """無鬼之卦，兄必專權，財雖有氣，亦多虛耗。兄更發動，必有爭奪買賣，分散財物之患: 雖 concedes the 財's 有氣,
    not the 財 itself, and 更 adds the moving 兄弟 to that case (second reading, round 16; 風水渙, which has neither
    財 nor 官鬼 on its lines, read both ways before)."""
    wealth = "r:f dk:relative rel:qicai ; dk:moving false ." if cai else "r:p dk:absentRelative rel:qicai ."
    body = f"""r:p dk:absentRelative rel:guangui .
               r:z dk:relative rel:zisun ; dk:moving false .
               r:x dk:relative rel:xiongdi ; dk:moving true .
               {wealth}"""
    links = f"dk:line r:z , r:x{' , r:f' if cai else ''} ; dk:primaryHexagram r:p"
    names = ("wu-gui", "cai-bu-shang-gua", "cai-fu-zhu-xiang", "you-fu-wu-cai-xiong-dong")
    assert fired(kg, chart("qiucai", body, links), *names) == {Q + k: v for k, v in expected.items()}


def test_xiong_tai_guo(kg):
    """兄如太過，反不克財: month, day, moving and changed lines all 兄弟; the money on the 財's 生旺 day."""
    body = """r:m dk:relative rel:xiongdi .
              r:d dk:relative rel:{day} .
              r:x dk:relative rel:xiongdi ; dk:moving true ; dk:seasonalState state:wang ; dk:changesTo r:c .
              r:c dk:relative rel:xiongdi .
              r:f dk:relative rel:qicai ; dk:element el:wood ; dk:branch br:yin ; dk:moving false ."""
    links = (
        "dk:line r:x , r:f ; dk:entity r:f ; dk:changedLine r:c ; dk:monthPillar r:m ; dk:dayPillar r:d ;"
        " dk:dayGanzhi gz:jia-zi"
    )
    found = run(kg, chart("qiucai", body.format(day="xiongdi"), links))[1]
    hits = {a.rule_id: a for a in found if a.rule_id.startswith(Q + "xiong-")}
    assert hits[Q + "xiong-wang-dong"].status == "overridden"
    assert hits[Q + "xiong-tai-guo"].status == "applies"
    # 木 is 長生 at 亥 and 帝旺 at 卯: after 甲子 the first of them is 丁卯, three days on
    assert hits[Q + "xiong-tai-guo"].parameters["day"].startswith("丁卯日, 3 days")
    # the day is not 兄弟: not 太過, the strong moving 兄弟 is simply bad
    assert fired(kg, chart("qiucai", body.format(day="qicai"), links), "xiong-") == {
        Q + "xiong-wang-dong": {"applies"}
    }
    # 至財爻生旺日: a 財 line; a 伏神 財 alone (the 財 off the hexagram, ¶6) is not dated here
    hidden = links.replace("dk:line r:x , r:f", "dk:line r:x ; dk:hiddenLine r:f")
    assert fired(kg, chart("qiucai", body.format(day="xiongdi"), hidden), "xiong-") == {
        Q + "xiong-wang-dong": {"applies"}
    }


def test_shen_huo_xiong_lin(kg):
    """身或兄臨，必難求望 … 惟臨財福方為吉兆."""
    xiong = chart("qiucai", "r:b dk:role role:guashen ; dk:relative rel:xiongdi .", "dk:line r:b")
    assert fired(kg, xiong, "shen-lin") == {Q + "shen-lin-xiong": {"applies"}}
    cai = chart("qiucai", "r:b dk:role role:guashen ; dk:relative rel:qicai .", "dk:line r:b")
    assert fired(kg, cai, "shen-lin") == {Q + "shen-lin-cai-fu": {"applies"}}


def test_shi_lin_cai_and_wang_xiang(kg):
    """世為求財之人，若臨財爻，雖或無氣，亦主易得，旺相更美: 易得 whatever the 財's strength, 更美 when it is 旺相."""
    weak = chart(
        "qiucai", "r:s dk:role role:shi ; dk:relative rel:qicai ; dk:seasonalState state:qiu .", "dk:line r:s"
    )
    assert fired(kg, weak, "shi-lin-") == {Q + "shi-lin-cai": {"applies"}}
    strong = weak.replace("state:qiu", "state:xiang")
    assert fired(kg, strong, "shi-lin-") == {
        Q + "shi-lin-cai": {"applies"},
        Q + "shi-lin-wang-cai": {"applies"},
    }
    off = strong.replace("rel:qicai", "rel:guangui")
    assert fired(kg, off, "shi-lin-") == {}


@pytest.mark.parametrize(
    ("topic", "expected"),
    [
        ("qiucai", {"shen-lin-guan": {"applies"}}),  # 餘皆險阻不利
        ("gongmen", {"shen-lin-guan": {"overridden"}, "shen-lin-guan-gongmen": {"applies"}}),  # 大利公門求財
    ],
)
def test_shen_lin_guan_gongmen(kg, topic, expected):
    turtle = chart(topic, "r:b dk:role role:guashen ; dk:relative rel:guangui .", "dk:line r:b")
    assert fired(kg, turtle, "shen-lin-guan") == {Q + k: v for k, v in expected.items()}


def test_cai_lai_jiu_wo(kg):
    """財來就我，終須易 (凡遇財爻生合世爻，克世持世)."""
    body = "r:f dk:relative rel:qicai .\nr:s dk:role role:shi ; dk:relative rel:fumu .\n"
    assert fired(kg, chart("qiucai", body + "r:f dk:ke r:s .", "dk:line r:f , r:s"), "cai-lai-jiu-wo") == {
        Q + "cai-lai-jiu-wo": {"applies"}
    }
    # the 世 generates the 財 (我去生財): the 財 does not come to me
    assert (
        fired(kg, chart("qiucai", body + "r:s dk:sheng r:f .", "dk:line r:f , r:s"), "cai-lai-jiu-wo") == {}
    )


@pytest.mark.parametrize(
    ("moving", "case"),
    [("true", "moving"), ("false", "still")],
)
def test_shi_chi_dong_di(kg, moving, case):
    """世持動弟，如撈水底之針 (note: 雖或安靜，亦主難得，發動尤甚)."""
    turtle = chart(
        "qiucai", f"r:s dk:role role:shi ; dk:relative rel:xiongdi ; dk:moving {moving} .", "dk:line r:s"
    )
    assert fired(kg, turtle, "shi-chi-dong-xiong") == {f"{Q}shi-chi-dong-xiong.{case}": {"applies"}}


@pytest.mark.parametrize(
    ("moving", "changed", "shi", "rule"),
    [
        ("zisun", "qicai", "guangui", "fu-bian-cai-sheng"),  # 福變財生 (note: 更化財爻，生合身世)
        ("qicai", "zisun", "fumu", "cai-hua-zi"),  # ¶18 財化子亦妙: 亦妙 keeps the 生合身世 of 更化財爻
    ],
)
def test_change_generating_the_shi(kg, moving, changed, shi, rule):
    """福變財生，滾滾財源不竭 and 財化子亦妙: the changed line generates the 世 (生合身世)."""
    body = f"""r:z dk:relative rel:{moving} ; dk:moving true ; dk:changesTo r:c .
              r:c dk:relative rel:{changed} .
              r:s dk:role role:shi ; dk:relative rel:{shi} ."""
    links = "dk:line r:z , r:s ; dk:changedLine r:c"
    assert fired(kg, chart("qiucai", body + "\nr:c dk:sheng r:s .", links), rule) == {Q + rule: {"applies"}}
    # the changed line overcomes the 世: it neither generates nor combines with 身 or 世
    assert fired(kg, chart("qiucai", body + "\nr:c dk:ke r:s .", links), rule) == {}


@pytest.mark.parametrize(
    ("body", "ghost", "quarrel", "lawsuit", "relief"),
    [
        (  # 兄連鬼克: the moving 兄弟 changing into a 官鬼 that overcomes the 世
            """r:x dk:relative rel:xiongdi ; dk:moving true ; dk:changesTo r:c .
               r:c dk:relative rel:guangui ; dk:ke r:s .""",
            "r:c",
            "xiong-lian-gui-ke",
            "xiong-lian-gui-fu-dong",
            "xiong-lian-gui-jiu-zhi",
        ),
        (  # 鬼化兄 … 亦然: the moving 官鬼 clashing the 世 changes into a 兄弟
            """r:g dk:relative rel:guangui ; dk:moving true ; dk:chong r:s ; dk:changesTo r:c .
               r:c dk:relative rel:xiongdi .""",
            "r:g",
            "gui-hua-xiong",
            "gui-hua-xiong-fu-dong",
            "gui-hua-xiong-jiu-zhi",
        ),
        (  # 或兄鬼皆動亦然: the moving 官鬼 clashing the 世 beside a moving 兄弟
            """r:g dk:relative rel:guangui ; dk:moving true ; dk:chong r:s .
               r:x dk:relative rel:xiongdi ; dk:moving true .""",
            "r:g",
            "gui-hua-xiong",
            "gui-hua-xiong-fu-dong",
            "gui-hua-xiong-jiu-zhi",
        ),
    ],
    ids=["xiong-lian-gui-ke", "gui-hua-xiong", "xiong-gui-jie-dong"],
)
def test_quarrel_lawsuit_and_relief(kg, body, ghost, quarrel, lawsuit, relief):
    """兄連鬼克，紛紛口舌難逃 … 不惟無財，且有口舌。父爻更動，必訟於官，若有救制，庶幾無害。鬼化兄，或兄鬼皆動亦然: the
    口舌; with a moving 父母 the lawsuit too; with the 官鬼 overcome (救制), 庶幾無害 over both. 亦然 carries each verdict
    with the conditions it keeps (General 4, as ¶36 世應值空亦然; second reading, round 25)."""
    body += "\nr:s dk:role role:shi ; dk:relative rel:qicai ."
    links = "dk:line r:g , r:x , r:s , r:a , r:k ; dk:changedLine r:c ; dk:entity r:k"
    rules = relief.removesuffix("-jiu-zhi")
    assert fired(kg, chart("qiucai", body, links), rules) == {Q + quarrel: {"applies"}}
    father = body + "\nr:a dk:relative rel:fumu ; dk:moving true ."
    assert fired(kg, chart("qiucai", father, links), rules) == {
        Q + quarrel: {"applies"},
        Q + lawsuit: {"applies"},
    }
    # a moving 子孫 overcomes the 官鬼: 救制, 庶幾無害, which lifts the quarrel too
    rescued = father + f"\nr:k dk:relative rel:zisun ; dk:moving true ; dk:ke {ghost} ."
    assert fired(kg, chart("qiucai", rescued, links), rules) == {
        Q + quarrel: {"overridden"},
        Q + lawsuit: {"overridden"},
        Q + relief: {"applies"},
    }


@pytest.mark.parametrize(("strikes", "fires"), [("dk:chong r:s", True), ("dk:sheng r:s", False)])
def test_gui_hua_xiong_keeps_the_strike(kg, strikes, fires):
    """鬼化兄，或兄鬼皆動亦然: 亦然 keeps 刑沖剋世 of 兄弟變出官鬼，刑沖剋世 (the 官鬼 strikes, 兄連鬼克)."""
    body = f"""r:g dk:relative rel:guangui ; dk:moving true ; {strikes} .
               r:x dk:relative rel:xiongdi ; dk:moving true .
               r:s dk:role role:shi ; dk:relative rel:qicai ."""
    expected = {Q + "gui-hua-xiong": {"applies"}} if fires else {}
    assert fired(kg, chart("qiucai", body, "dk:line r:g , r:x , r:s"), "gui-hua-xiong") == expected


def test_cai_hua_gui_and_hua_kong(kg):
    """財化鬼，防耗折而驚憂; 財化死墓空絕 … 若得生合世爻，則上前有功."""
    body = """r:f dk:relative rel:qicai ; dk:moving true ; dk:changesTo r:c ;
                  dk:transformation change:hua-kong .
              r:c dk:relative rel:{changed} .
              r:s dk:role role:shi ."""
    links = "dk:line r:f , r:s ; dk:changedLine r:c"
    assert fired(kg, chart("qiucai", body.format(changed="guangui"), links), "cai-hua-") == {
        Q + "cai-hua-gui": {"applies"},
        Q + "cai-hua-kong-jue": {"applies"},
    }
    helped = body.format(changed="fumu") + "\nr:f dk:he r:s ."
    assert fired(kg, chart("qiucai", helped, links), "cai-hua-") == {
        Q + "cai-hua-fu": {"applies"},
        Q + "cai-hua-kong-jue": {"overridden"},
        Q + "cai-hua-kong-sheng-he-shi": {"applies"},
    }
    # 上前有功: the gain of acting now; 稍遲則無 is the querent's conduct, which no reading records
    gain = [
        a.polarity
        for a in run(kg, chart("qiucai", helped, links))[1]
        if a.rule_id == Q + "cai-hua-kong-sheng-he-shi"
    ]
    assert gain == ["吉"]
    # the changed line combining with the 世 is not the 財 coming to the 世 now
    changed = body.format(changed="fumu") + "\nr:c dk:he r:s ."
    assert fired(kg, chart("qiucai", changed, links), "cai-hua-kong") == {Q + "cai-hua-kong-jue": {"applies"}}


@pytest.mark.parametrize(("changed", "fires"), [("qicai", True), ("xiongdi", False)])
def test_fu_hua_cai(kg, changed, fires):
    """父化財，必辛勤而有得 (不自然而得，必勤勞後得): the money is got, at the cost of toil."""
    body = f"""r:a dk:relative rel:fumu ; dk:moving true ; dk:changesTo r:c .
               r:c dk:relative rel:{changed} ."""
    found = [
        a
        for a in run(kg, chart("qiucai", body, "dk:line r:a ; dk:changedLine r:c"))[1]
        if a.rule_id == Q + "fu-hua-cai"
    ]
    assert [(a.status, a.polarity) for a in found] == ([("applies", "吉凶參半")] if fires else [])


@pytest.mark.parametrize(
    ("topic", "purpose", "expected"),
    [
        ("gongmen", "", {"guan-hua-cai-gongmen"}),  # 最利公門
        ("yegui", "", {"guan-hua-cai-yegui"}),  # 謁貴
        ("jiuliu", "", {"guan-hua-cai-jiuliu"}),  # 九流藝術之人
        ("qiucai", "; dk:querentPurpose purpose:private", {"guan-hua-cai-si"}),  # 私財則先驚後喜
        ("qiucai", "", set()),  # neither office nor private money named
    ],
)
def test_guan_hua_cai(kg, topic, purpose, expected):
    """官化財，最利公門謁貴及九流藝術之人，求財十分有望，私財則先驚後喜."""
    body = """r:g dk:relative rel:guangui ; dk:moving true ; dk:changesTo r:c .
              r:c dk:relative rel:qicai ."""
    turtle = chart(topic, body, f"dk:line r:g ; dk:changedLine r:c {purpose}")
    assert set(fired(kg, turtle, "guan-hua-cai")) == {Q + rule for rule in expected}


@pytest.mark.parametrize(("beast", "fires"), [("zhuque", True), ("qinglong", False)])
def test_que_lin_xiong_gui(kg, beast, fires):
    """朱雀臨兄鬼動變，有口舌."""
    turtle = chart(
        "qiucai", f"r:x dk:relative rel:xiongdi ; dk:moving true ; dk:beast beast:{beast} .", "dk:line r:x"
    )
    expected = {Q + "que-lin-xiong-gui": {"applies"}} if fires else {}
    assert fired(kg, turtle, "que-lin-xiong-gui") == expected


def _frame(element: str, relative: str, member: str) -> str:
    """A complete frame of an Earth palace: its element and its 六親 against the palace."""
    return f"""r:p dk:palaceElement el:earth .
               r:j dk:frameKind frame:complete ; dk:element el:{element} ; dk:relative rel:{relative} ;
                   dk:member r:z .
               r:z dk:relative rel:{member} ; dk:moving true ."""


FRAME_LINKS = "dk:line r:z ; dk:frame r:j ; dk:primaryHexagram r:p"


def test_cai_ju_he_fu_shen(kg):
    """財局合福神，萬倍利源可取: in an Earth palace the 財 is Water, the 財局 申子辰."""
    water = _frame("water", "qicai", "zisun")
    assert fired(kg, chart("qiucai", water, FRAME_LINKS), "cai-ju", "gui-ju") == {
        Q + "cai-ju-fu": {"applies"}
    }
    # a Wood frame in an Earth palace is a 鬼局 (則多阻隔), not a 財局
    wood = _frame("wood", "guangui", "zisun")
    assert fired(kg, chart("qiucai", wood, FRAME_LINKS), "cai-ju", "gui-ju") == {Q + "gui-ju": {"applies"}}


@pytest.mark.parametrize(
    ("topic", "expected"),
    [("jiuyuan-maimai", {"sui-chi-xiong": {"applies"}}), ("qiucai", {})],
)
def test_sui_jun_feng_jie_sha(kg, topic, expected):
    """歲君逢劫殺，一年生意無聊: only for a long-term business (凡占久遠買賣)."""
    turtle = chart(topic, "r:y dk:pillarKind pillar:year ; dk:relative rel:xiongdi .", "dk:yearPillar r:y")
    assert fired(kg, turtle, "sui-chi") == {Q + k: v for k, v in expected.items()}


def test_shi_ying_kong_he(kg):
    """世應二爻空合，虛約難憑 (note: 空動帶合謂之虛約): void, moving and combined, said of both lines."""
    body = """r:s dk:role role:shi ; dk:void true ; dk:moving true ; dk:he r:y .
              r:y dk:role role:ying ; dk:void true ; dk:moving {moving} ."""
    links = "dk:line r:s , r:y"
    assert fired(kg, chart("qiucai", body.format(moving="true"), links), "xu-yue", "shi-ying-ju-kong") == {
        Q + "xu-yue": {"applies"},
        Q + "shi-ying-ju-kong": {"applies"},
    }
    # only the 世 moves: void and combined, but the pair is not 空動
    assert fired(kg, chart("qiucai", body.format(moving="false"), links), "xu-yue") == {}


def test_shi_ying_hua_kong(kg):
    """化入空亡，亦是心口不相應之象 (¶24 note): the clause goes on from the pair of 世應二爻空合, so both change into
    void."""
    body = """r:s dk:role role:shi ; dk:moving true ; dk:transformation change:hua-kong .
              r:y dk:role role:ying ; dk:moving true {ying} ."""
    links = "dk:line r:s , r:y"
    both = body.format(ying="; dk:transformation change:hua-kong")
    assert fired(kg, chart("qiucai", both, links), "shi-ying-hua-kong") == {
        Q + "shi-ying-hua-kong": {"applies"}
    }
    # the 世 alone changing into void is not the pair's
    assert fired(kg, chart("qiucai", body.format(ying=""), links), "shi-ying-hua-kong") == {}


@pytest.mark.parametrize("cai", [True, False])
def test_shi_kong_needs_the_cai(kg, cai):
    """世空有財難得: 有財 says the 財 is there and 難得 judges getting it, so a 財 line is a condition; with none
    ¶6 judges the chart (財為用神，而不上卦，必無可望) and 世空有財難得 is silent (second reading, round 20)."""
    wealth = "r:f dk:relative rel:qicai ; dk:moving false ." if cai else "r:p dk:absentRelative rel:qicai ."
    body = f"""r:s dk:role role:shi ; dk:relative rel:xiongdi ; dk:void true ; dk:moving false .
               {wealth}"""
    links = "dk:line r:s , r:f" if cai else "dk:line r:s ; dk:primaryHexagram r:p"
    expected = {Q + "shi-kong": {"applies"}} if cai else {Q + "cai-bu-shang-gua": {"applies"}}
    assert fired(kg, chart("qiucai", body, links), "shi-kong", "cai-bu-shang-gua") == expected


def test_zhuren_yi_wei_xing_shang(kg):
    """主人一位刑傷，往求不遇 (note: 動爻日辰刑剋，或自空化空)."""
    body = """r:g dk:relative rel:guangui ; dk:void false ; dk:moving false .
              r:d dk:pillarKind pillar:day ."""
    links = "dk:line r:g ; dk:dayPillar r:d ; dk:entity r:g , r:d"
    assert fired(kg, chart("yegui", body + "\nr:d dk:xing r:g .", links), "zhuren-") == {
        Q + "zhuren-xing-shang": {"applies"}
    }
    # the day generates the 主人: no harm
    assert fired(kg, chart("yegui", body + "\nr:d dk:sheng r:g .", links), "zhuren-") == {}


def test_shi_chi_kong_gui(kg):
    """世持空鬼，多因自己遲疑: the exception to 鬼爻持世，財必相生，凡求必易, whose 財 is on the lines."""
    turtle = "r:s dk:role role:shi ; dk:relative rel:guangui ; dk:void {void} .\nr:f dk:relative rel:qicai ."
    ids = ("gui-chi-shi", "shi-chi-kong-gui")
    assert fired(kg, chart("qiucai", turtle.format(void="true"), "dk:line r:s , r:f"), *ids) == {
        Q + "gui-chi-shi": {"overridden"},
        Q + "shi-chi-kong-gui": {"applies"},
    }
    assert fired(kg, chart("qiucai", turtle.format(void="false"), "dk:line r:s , r:f"), *ids) == {
        Q + "gui-chi-shi": {"applies"}
    }


@pytest.mark.parametrize("void", ["true", "false"])
def test_gui_chi_shi_needs_the_cai(kg, void):
    """鬼爻持世，財必相生，凡求必易: the 財 that generates the 世's 官鬼 is on the lines; with none, ¶6 judges the
    chart (財為用神，而不上卦，必無可望), and neither 凡求必易 nor its exception 世持空鬼 speaks."""
    body = f"""r:p dk:absentRelative rel:qicai .
               r:s dk:role role:shi ; dk:relative rel:guangui ; dk:void {void} ."""
    reading = chart("qiucai", body, "dk:line r:s ; dk:primaryHexagram r:p")
    assert fired(kg, reading, "gui-chi-shi", "shi-chi-kong-gui", "cai-bu-shang-gua") == {
        Q + "cai-bu-shang-gua": {"applies"}
    }


def test_shi_chi_kong_cai_lifts_both_verdicts_of_shi_lin_cai(kg):
    """世持空財亦然 qualifies both verdicts of ¶16 on the 世 on a 財, 亦主易得 and 旺相更美: a void 旺相 財 on the 世
    is not read both ways."""
    turtle = "r:s dk:role role:shi ; dk:relative rel:qicai ; dk:seasonalState state:wang ; dk:void {void} ."
    ids = ("shi-lin-", "shi-chi-kong-cai")
    assert fired(kg, chart("qiucai", turtle.format(void="true"), "dk:line r:s"), *ids) == {
        Q + "shi-lin-cai": {"overridden"},
        Q + "shi-lin-wang-cai": {"overridden"},
        Q + "shi-chi-kong-cai": {"applies"},
    }
    # not void: both verdicts of ¶16 stand
    assert fired(kg, chart("qiucai", turtle.format(void="false"), "dk:line r:s"), *ids) == {
        Q + "shi-lin-cai": {"applies"},
        Q + "shi-lin-wang-cai": {"applies"},
    }


@pytest.mark.parametrize(
    ("body", "own"),
    [
        # the 世 on a 官鬼, which every 財 line generates (財必相生): ¶16's 生 of the 世
        (
            """r:s dk:role role:shi ; dk:relative rel:guangui ; dk:void {void} .
               r:f dk:relative rel:qicai ; dk:sheng r:s .""",
            ("gui-chi-shi", "shi-chi-kong-gui"),
        ),
        # the 世 on a 財 (¶16's 持世): no other 財 line generates, combines with or overcomes it (one element)
        (
            "r:s dk:role role:shi ; dk:relative rel:qicai ; dk:void {void} .",
            ("shi-lin-cai", "shi-chi-kong-cai"),
        ),
    ],
    ids=["guangui", "qicai"],
)
def test_void_shi_is_no_wealth_coming_to_me(kg, body, own):
    """若遇空亡，乃是自不上前，遲疑退懶，故無成也，世持空財亦然: the void 世, on a 官鬼 that the 財 generates (財必相生)
    or on a 財 (持世), fails the 財 that comes to it, which ¶16 judges 財來就我，必然易得; with the 世 not void, 財來就我
    stands (second reading, round 23)."""
    links = "dk:line r:s , r:f" if "r:f" in body else "dk:line r:s"
    ids = ("cai-lai-jiu-wo", "shi-chi-kong-", "gui-chi-shi", "shi-lin-cai")
    assert fired(kg, chart("qiucai", body.format(void="true"), links), *ids) == {
        Q + "cai-lai-jiu-wo": {"overridden"},
        Q + own[0]: {"overridden"},
        Q + own[1]: {"applies"},
    }
    assert fired(kg, chart("qiucai", body.format(void="false"), links), *ids) == {
        Q + "cai-lai-jiu-wo": {"applies"},
        Q + own[0]: {"applies"},
    }


# ── 何日得財 (¶28): the day procedures on hand charts ───────────────────────────────────────


def _param(kg: KnowledgeGraph, turtle: str, rule: str) -> str:
    hits = [a for a in run(kg, turtle)[1] if a.rule_id == Q + rule and a.status == "applies"]
    assert len(hits) == 1, [a.rule_id for a in run(kg, turtle)[1]]
    return hits[0].parameters["day"]


@pytest.mark.parametrize(("moving", "fires"), [("true", True), ("false", False)])
def test_xiong_sheng_fu(kg, moving, fires):
    """卦無財爻而得兄弟生扶子孫財源者，即以兄弟爻斷: which line dates the gain, offered with the gain's polarity."""
    body = f"""r:p dk:absentRelative rel:qicai .
               r:x dk:relative rel:xiongdi ; dk:moving {moving} ; dk:sheng r:z .
               r:z dk:relative rel:zisun ."""
    turtle = chart("qiucai-shiri", body, "dk:line r:x , r:z ; dk:primaryHexagram r:p")
    found = [a for a in run(kg, turtle)[1] if a.rule_id == Q + "xiong-sheng-fu"]
    assert [(a.status, a.polarity) for a in found] == ([("consider", "吉")] if fires else [])


def test_wang_kong_guo_xun(kg):
    """旺空過旬日得: 亥 is void in the 甲子 旬 (戌亥); the next 旬 opens on 甲戌, ten days on."""
    body = """r:f dk:relative rel:qicai ; dk:seasonalState state:wang ; dk:void true ;
                  dk:branch br:hai ; dk:element el:water ."""
    turtle = chart("qiucai-shiri", body, "dk:line r:f ; dk:dayGanzhi gz:jia-zi")
    assert _param(kg, turtle, "wang-kong-guo-xun-ri").startswith("甲戌日, 10 days")
    # not void: the rule is silent
    assert fired(kg, turtle.replace("dk:void true", "dk:void false"), "wang-kong-guo-xun-ri") == {}


def test_he_ri(kg):
    """財爻有氣，合日得財: 子 combines with 丑; after 甲寅 the first 丑 day is 乙丑, eleven days on."""
    body = "r:f dk:relative rel:qicai ; dk:vital true ; dk:branch br:zi ; dk:element el:water ."
    turtle = chart("qiucai-shiri", body, "dk:line r:f ; dk:dayGanzhi gz:jia-yin")
    assert _param(kg, turtle, "he-ri").startswith("乙丑日, 11 days")
    assert fired(kg, turtle.replace("dk:vital true", "dk:vital false"), "he-ri") == {}


@pytest.mark.parametrize(("vital", "offered"), [("true", True), ("false", False)])
def test_tai_wang_mu_ri_offered(kg, vital, offered):
    """太旺墓庫日得: 太旺 is not defined, so the clause is offered on a 財 that is 有氣, as any 太旺 one is."""
    turtle = chart("qiucai-shiri", f"r:f dk:relative rel:qicai ; dk:vital {vital} .", "dk:line r:f")
    expected = {Q + "tai-wang-mu-ri": {"consider"}} if offered else {}
    assert fired(kg, turtle, "tai-wang-mu-ri") == expected


def test_po_he_po_mu_ri(kg):
    """合住入墓破合破墓日得: 合住 names no agent, so the month's 合 ties the 財 too; 入墓 is the 財 at its 墓 at the
    day (日墓), not in the tomb of a moving line."""
    money = (
        "r:f dk:relative rel:qicai ; dk:branch br:zi ; dk:element el:water ; dk:stage stage:{stage} {tomb} ."
    )
    links = "dk:line r:f , r:x ; dk:monthPillar r:m ; dk:pillar r:m ; dk:entity r:f , r:x , r:m ; dk:dayGanzhi gz:jia-yin"
    tied = (
        money.format(stage="diwang", tomb="")
        + "\nr:m dk:pillarKind pillar:month ; dk:he r:f .\nr:x dk:moving false ."
    )
    assert fired(kg, chart("qiucai-shiri", tied, links), "po-he-po-mu-ri") == {
        Q + "po-he-po-mu-ri.he-zhu": {"applies"}
    }
    day_tomb = money.format(stage="mu", tomb="") + "\nr:m dk:pillarKind pillar:month .\nr:x dk:moving false ."
    assert fired(kg, chart("qiucai-shiri", day_tomb, links), "po-he-po-mu-ri") == {
        Q + "po-he-po-mu-ri.ru-mu": {"applies"}
    }
    line_tomb = (
        money.format(stage="diwang", tomb="; dk:entombedBy r:x")
        + "\nr:m dk:pillarKind pillar:month .\nr:x dk:moving true ."
    )
    assert fired(kg, chart("qiucai-shiri", line_tomb, links), "po-he-po-mu-ri") == {}


@pytest.mark.parametrize("absent", [True, False])
def test_fu_cang_ti_qi_ri_only_for_a_cai_off_the_lines(kg, absent):
    """伏藏提起日得: 伏藏 is the 財 off the lines, its 伏神 where no line carries one (¶26 卦若無財，看伏何爻下). Under
    the option that puts a 伏神 under every line, a hidden 財 beside a 財 on the lines is not 伏藏 (second reading,
    round 20)."""
    body = f"""r:p dk:absentRelative rel:{"qicai" if absent else "fumu"} .
               r:l dk:position 2 ; dk:relative rel:xiongdi ; dk:branch br:yin ; dk:element el:wood .
               r:h dk:position 2 ; dk:relative rel:qicai ; dk:under r:l ; dk:branch br:chen ; dk:element el:earth .
               r:f dk:position 5 ; dk:relative rel:qicai ; dk:branch br:xu ; dk:element el:earth ."""
    lines = "dk:line r:l" if absent else "dk:line r:l , r:f"
    links = f"{lines} ; dk:hiddenLine r:h ; dk:primaryHexagram r:p ; dk:dayGanzhi gz:jia-zi"
    expected = {Q + "fu-cang-ti-qi-ri": {"applies"}} if absent else {}
    assert fired(kg, chart("qiucai-shiri", body, links), "fu-cang-ti-qi-ri") == expected


# ── the commentary's worked cases, cast with the generator ─────────────────────────────────


def cast(
    kg: KnowledgeGraph, pillars: str, hexagram: str, topic: str
) -> tuple[Reading, dict[str, list[Applicable]]]:
    """``kg reading liuyao --pillars … --hexagram … --topic …`` (no moving line): the reading and the
    applicable rules by id."""
    ch = chart_from_inputs(None, pillars, None, hexagram, None, None)
    concept = vocabulary().topic(topic)
    reading = Reading(chart_graph(ch, reading_iri(ch), concept))
    found: dict[str, list[Applicable]] = defaultdict(list)
    for a in retrieve(kg, reading, str(concept)):
        if a.status == "applies":
            found[a.rule_id].append(a)
    return reading, dict(found)


def test_case_fu_guan_xia(kg):
    """¶26 如伏官下，為貴人把持: 天山遯 (乾宮, 財 木) has no Wood line; 乾為天's 甲寅 財 hides under line 2,
    丙午 火, a 官鬼 of the Metal palace."""
    _, found = cast(kg, "庚寅 戊寅 癸亥", "天山遯", "求財")
    (hit,) = found[Q + "fu-cai-ba-chi"]
    assert hit.binding_labels["L"] == "二爻 官鬼丙午火"
    assert hit.binding_labels["H"].startswith("伏 妻財甲寅木")
    assert hit.parameters == {"who": "官鬼"}


def test_case_qiu_gui_ren(kg):
    """¶24 主人如求貴人，財鬼為主: in 天山遯 the 官鬼 are 丙午 (line 2) and 壬午 (line 4)."""
    reading, _ = cast(kg, "庚寅 戊寅 癸亥", "天山遯", "謁貴")
    assert roles(reading, "zhuren") == {"2", "4"}  # the IRIs end in line/2, line/4


BEST = "best in the month of its own branch, "


def _months(found: dict[str, list[Applicable]], line: str) -> str:
    (hit,) = found[Q + "de-jia-yue"]
    assert hit.binding_labels["F"] == line
    return hit.parameters["months"]


def test_case_mu_cai_chun_yue(kg):
    """¶28 如木財春月得價，一陽後亦好: 乾為天's 財 is 甲寅 木 (line 2); spring is 正二三月 (寅卯辰), and 一陽
    returns at the winter solstice, in the eleventh month (子)."""
    _, found = cast(kg, "庚寅 戊寅 癸亥", "乾為天", "脫貨")
    months = _months(found, "二爻 妻財甲寅木")
    assert "得價 in 正月 (寅), 二月 (卯), 三月 (辰)" in months
    assert "also in 十一月 (子), 十二月 (丑)" in months
    assert f"{BEST}正月 (寅)" in months


def test_case_tu_cai_liu_yue(kg):
    """¶28 土財夏月有利，六月更美: 巽為風 (Wood palace, 財 土) has 辛未 on line 4; summer is 四五六月 (巳午未),
    and the sixth month is better still."""
    _, found = cast(kg, "庚寅 戊寅 癸亥", "巽為風", "脫貨")
    hits = {a.binding_labels["F"]: a.parameters["months"] for a in found[Q + "de-jia-yue"]}
    wei = hits["四爻 妻財辛未土"]
    assert "得價 in 四月 (巳), 五月 (午), 六月 (未)" in wei
    assert "六月 (未) 更美" in wei
    assert "九月" not in wei and "十二月" not in wei  # not the other 季 months of Earth's 旺


def test_case_chen_tu_er_yue(kg):
    """¶28 又如財臨辰土，二月不如三月: 震為雷's 庚辰 (line 3) is 財 of the Wood palace; 辰 is the third month."""
    _, found = cast(kg, "庚寅 戊寅 癸亥", "震為雷", "脫貨")
    hits = {a.binding_labels["F"]: a.parameters["months"] for a in found[Q + "de-jia-yue"]}
    assert f"{BEST}三月 (辰)" in hits["三爻 妻財庚辰土"]


def test_case_you_jin_qi_yue(kg):
    """¶28 財臨酉金，七月不如八月: 離為火's 己酉 (line 4) is 財 of the Fire palace; 酉 is the eighth month."""
    _, found = cast(kg, "庚寅 戊寅 癸亥", "離為火", "脫貨")
    assert f"{BEST}八月 (酉)" in _months(found, "四爻 妻財己酉金")


@pytest.mark.parametrize(
    ("day", "case"),
    [("丁巳", "chang-sheng"), ("乙酉", "di-wang")],  # 金 長生 at 巳, 帝旺 at 酉
)
def test_case_ri_xia_chang_sheng(kg, day, case):
    """¶28 又如財主日下長生之地 … 若坐帝旺眼下正及時: 離為火's 財 己酉 金 on a 巳 day, on a 酉 day. Both date
    the sale at a good price (一日得價一日; 眼下正及時), a gain."""
    _, found = cast(kg, f"庚寅 戊寅 {day}", "離為火", "脫貨")
    (hit,) = found[f"{Q}ri-xia-chang-sheng.{case}"]
    assert hit.binding_labels["F"] == "四爻 妻財己酉金"
    assert hit.polarity == "吉"
