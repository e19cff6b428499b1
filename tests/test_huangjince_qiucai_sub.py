"""《黃金策》〈求財〉 by occupation and situation (¶30–46, corpus/rules/huangjince-qiucai-sub.yaml).

Hand-written charts for the verse lines (each with a chart on which its rule fires and a near miss on
which it stays silent), for the 用神 and roles of the topics, and for the exceptions; the note's 如 cases
(如火鬼忌火燭，水鬼忌盜賊類; 如衣服經史看父爻) are cast through the real generator. Every chart is written from
the rule's Chinese, never from the compiler's output.

The graph: one build per module from huangjince.yaml (the samples; the rule the 公門 exception lifts; 五爻為路),
huangjince-qiucai.yaml (the rules the 合夥 and 把持 exceptions lift) and this section's file, so that the other
rule files being written beside it cannot break these tests.
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
from kg.vocabulary import DK, vocabulary

RULES = Path(__file__).resolve().parent.parent / "corpus" / "rules"
FILES = ("huangjince.yaml", "huangjince-qiucai.yaml", "huangjince-qiucai-sub.yaml")

LINKS = {
    "l": ("line",),
    "c": ("changedLine",),
    "h": ("hiddenLine",),
    "d": ("dayPillar", "pillar"),
    "m": ("monthPillar", "pillar"),
    "p": ("primaryHexagram",),
}
"""Entity name prefix → the reading's links to it: l… lines, c… changed lines, h… 伏神, d the day, m the
month, p the 本卦."""
PILLAR_KIND = {"d": "pillar:day", "m": "pillar:month"}


@pytest.fixture(scope="module")
def kg(tmp_path_factory) -> KnowledgeGraph:
    return graph_of(tmp_path_factory, *FILES)


def chart(topic: str, entities: dict[str, str], relations: str = "", facts: str = "") -> str:
    """A reading of ``topic`` (a topic slug) with the named entities and their facts; ``relations`` are
    further triples between them, ``facts`` further facts of the reading."""
    links, body = [], []
    for name, props in entities.items():
        kind = name[0]
        links += [f"dk:{link} r:{name}" for link in LINKS[kind]]
        if kind != "p":
            links.append(f"dk:entity r:{name}")
        if kind in PILLAR_KIND:
            props = f"dk:pillarKind {PILLAR_KIND[kind]}" + (f" ; {props}" if props else "")
        if props:
            body.append(f"r:{name} {props} .")
    head = " ; ".join(
        [
            f"{READING} a dk:Reading ; dk:system dk:LiuYao",
            f"dk:topic topic:{topic}",
            *links,
            *([facts] if facts else []),
        ]
    )
    return "\n".join([PREFIXES, head + " .", *body, relations])


def results(kg: KnowledgeGraph, turtle: str) -> tuple[list[Applicable], Reading]:
    reading = Reading(Graph().parse(data=turtle, format="turtle"))
    return retrieve(kg, reading), reading


def fired(kg: KnowledgeGraph, turtle: str, ids: str) -> dict[str, set[str]]:
    """Rule id → statuses, for the rules whose id starts with one of the space-separated ``ids``."""
    found: dict[str, set[str]] = defaultdict(set)
    for a in results(kg, turtle)[0]:
        if a.rule_id.startswith(tuple(ids.split())):
            found[a.rule_id].add(a.status)
    return dict(found)


def roles(kg: KnowledgeGraph, turtle: str, role: str) -> set[str]:
    """The entities (by name) a definition gave ``role`` (a role slug) for the reading's topic."""
    _, reading = results(kg, turtle)
    rows = reading.store.query(
        f"SELECT ?e WHERE {{ ?e <{DK.role}> <https://w3id.org/divkg/concept/role/{role}> }}"
    )
    return {row[0].value.rsplit("/", 1)[-1] for row in rows}


def cast(kg: KnowledgeGraph, lines: str, topic: str, pillars: str = "庚寅 戊寅 癸亥") -> list[Applicable]:
    """The rules that apply to a real cast (``kg reading liuyao --pillars … --lines … --topic …``)."""
    made = chart_from_inputs(None, pillars, lines, None, None, None)
    found = vocabulary().topic(topic)
    return retrieve(kg, Reading(chart_graph(made, reading_iri(made), found)), str(found))


APPLIES = {"applies"}


# ── 求財 ¶6 (huangjince.yaml): 兄動而財空，謂之避空，過旬生旺日，財亦可得 ──────────────────────────────


def test_void_wealth_escapes_the_moving_brother(kg):
    """The void 財 line: the money comes after the 旬, on its first 長生 or 帝旺 day. On 甲子 (旬空 戌亥) the next
    旬 opens on 甲戌; the 財 亥 is Water, 長生 at 申 and 帝旺 at 子, so the day is 丙子, twelve days on."""
    ids = "huangjince.qiucai.bikong"
    entities = {
        "l1": "dk:relative rel:xiongdi ; dk:moving true",
        "l2": "dk:relative rel:qicai ; dk:element el:water ; dk:branch br:hai ; dk:void true",
    }
    found = [
        a
        for a in results(kg, chart("qiucai", entities, facts="dk:dayGanzhi gz:jia-zi"))[0]
        if a.rule_id == ids
    ]
    assert [a.status for a in found] == ["applies"]
    assert found[0].parameters["day"].startswith("丙子日, 12 days")
    # 財若不空不伏: a void hidden 財 is the 不上卦 case of the same note, not this one
    hidden = {"l1": entities["l1"], "h2": entities["l2"]}
    assert fired(kg, chart("qiucai", hidden, facts="dk:dayGanzhi gz:jia-zi"), ids) == {}
    # the 兄弟 does not move: nothing to avoid
    still = {**entities, "l1": "dk:relative rel:xiongdi ; dk:moving false"}
    assert fired(kg, chart("qiucai", still, facts="dk:dayGanzhi gz:jia-zi"), ids) == {}


# ── 求財 ¶26 (huangjince.yaml): 辰合動財，卻被他人把住 ─────────────────────────────────────────────


def test_moving_wealth_tied_by_another(kg):
    """要財動來生合，固是易得之兆，若被動爻日辰合住，其財必有人把持 … 如父母合住，為尊長把持: the moving 財 that
    combines with the 世, tied by a moving 父母; the 世 tying it itself is no 他人."""
    ids = "huangjince.qiucai.ba-chi huangjince.qiucai.cai-dong-sheng-he"
    body = {
        "l1": "dk:relative rel:fumu ; dk:moving true",
        "l3": "dk:relative rel:qicai ; dk:moving true",
        "l5": "dk:role role:shi ; dk:moving false",
    }
    tied = "r:l3 dk:he r:l5 . r:l5 dk:he r:l3 . r:l1 dk:he r:l3 . r:l3 dk:he r:l1 ."
    found = [
        a for a in results(kg, chart("qiucai", body, tied))[0] if a.rule_id.startswith(tuple(ids.split()))
    ]
    assert {(a.rule_id, a.status) for a in found} == {
        ("huangjince.qiucai.ba-chi", "applies"),
        ("huangjince.qiucai.cai-dong-sheng-he", "overridden"),
    }
    (held,) = [a for a in found if a.status == "applies"]
    assert held.parameters["who"].startswith("父母")
    # the 財 does not come to the 世: not the case the clause narrows
    apart = "r:l1 dk:he r:l3 . r:l3 dk:he r:l1 ."
    assert fired(kg, chart("qiucai", body, apart), ids) == {}
    # only the moving 世 combines with the 財: easy to get, nobody holds it back
    own = {"l3": body["l3"], "l5": "dk:role role:shi ; dk:moving true"}
    assert fired(kg, chart("qiucai", own, "r:l3 dk:he r:l5 . r:l5 dk:he r:l3 ."), ids) == {
        "huangjince.qiucai.cai-dong-sheng-he": APPLIES
    }


def test_moving_wealth_tied_is_no_easy_gain(kg):
    """卻被他人把住 sets itself against the ease of the 財 that comes to the 世: ¶16's 財來就我，必然易得 (凡遇財爻生合
    世爻) is lifted with 要財動來生合，固是易得之兆, its moving case, so that one chart is not read both ways (second
    reading, round 21). ¶10's 乃是必得之象, a verdict on the 財's strength, is not."""
    ids = "huangjince.qiucai.ba-chi huangjince.qiucai.cai-lai-jiu-wo huangjince.qiucai.cai-wang-sheng-he-shi"
    body = {
        "l1": "dk:relative rel:fumu ; dk:moving true",
        "l3": "dk:relative rel:qicai ; dk:moving true ; dk:seasonalState state:wang",
        "l5": "dk:role role:shi ; dk:moving false",
    }
    tied = "r:l3 dk:he r:l5 . r:l5 dk:he r:l3 . r:l1 dk:he r:l3 . r:l3 dk:he r:l1 ."
    assert fired(kg, chart("qiucai", body, tied), ids) == {
        "huangjince.qiucai.ba-chi": APPLIES,
        "huangjince.qiucai.cai-lai-jiu-wo": {"overridden"},
        "huangjince.qiucai.cai-wang-sheng-he-shi": APPLIES,
    }
    # nothing ties the 財: the money comes to me, easily
    free = "r:l3 dk:he r:l5 . r:l5 dk:he r:l3 ."
    assert fired(kg, chart("qiucai", body, free), ids) == {
        "huangjince.qiucai.cai-lai-jiu-wo": APPLIES,
        "huangjince.qiucai.cai-wang-sheng-he-shi": APPLIES,
    }


# ── 求財 ¶16 (huangjince.yaml): 我去尋財，必是難 (若雖動出財爻，而與世爻不相干者) ──────────────────────────


def test_shi_holding_wealth_is_no_seeking(kg):
    """凡遇財爻生合世爻，克世持世，皆謂財來就我: a 財 line on the 世 is 持世 whichever 財 moves, and the seeker on the
    money is easy (世為求財之人，若臨財爻 … 亦主易得), so a moving 財 elsewhere that has nothing to do with the 世 does
    not make the chart 我去尋財 as well (second reading, round 22)."""
    ids = "huangjince.qiucai.wo-qu-xun-cai huangjince.qiucai.cai-lai-jiu-wo"
    moving = "dk:relative rel:qicai ; dk:moving true"
    held = {"l1": moving, "l4": "dk:role role:shi ; dk:relative rel:qicai ; dk:moving false"}
    assert fired(kg, chart("qiucai", held), ids) == {"huangjince.qiucai.cai-lai-jiu-wo": APPLIES}
    # the 世 on a 父母: the moving 財 has nothing to do with it, the querent goes after the money
    apart = {"l1": moving, "l4": "dk:role role:shi ; dk:relative rel:fumu ; dk:moving false"}
    assert fired(kg, chart("qiucai", apart), ids) == {"huangjince.qiucai.wo-qu-xun-cai": APPLIES}


# ── 合夥 ¶30: 合夥不嫌兄弟 (兄臨卦身，世爻安靜不妨 … 動則不宜) ────────────────────────────────────


def test_partnership_brother_on_body(kg):
    """兄臨卦身，世爻安靜不妨 lifts, for a partnership, ¶14 身或兄臨，必難求望 (皆無利益)."""
    ids = "huangjince.hehuo.xiong huangjince.qiucai.shen-lin-xiong"
    still = chart(
        "hehuo",
        {
            "l3": "dk:role role:guashen ; dk:relative rel:xiongdi ; dk:moving false",
            "l5": "dk:role role:shi ; dk:relative rel:qicai ; dk:moving false",
        },
    )
    assert fired(kg, still, ids) == {
        "huangjince.hehuo.xiong-shen": APPLIES,
        "huangjince.qiucai.shen-lin-xiong": {"overridden"},
    }
    # asked about money, not a partnership: the 兄弟 on the 卦身 stands
    assert fired(kg, still.replace("topic:hehuo", "topic:qiucai"), ids) == {
        "huangjince.qiucai.shen-lin-xiong": APPLIES
    }
    # the 兄弟 on the 卦身 moves (the Korean's reading of 動則不宜), the 世 still: 世爻安靜 holds, 不妨
    moving = still.replace("rel:xiongdi ; dk:moving false", "rel:xiongdi ; dk:moving true")
    assert fired(kg, moving, ids) == {
        "huangjince.hehuo.xiong-shen": APPLIES,
        "huangjince.qiucai.shen-lin-xiong": {"overridden"},
    }
    # 動則不宜: the 世 moves, not 安靜, so no 不妨, and ¶14's harm stands
    shi_moving = still.replace("rel:qicai ; dk:moving false", "rel:qicai ; dk:moving true")
    assert fired(kg, shi_moving, ids) == {
        "huangjince.hehuo.xiong-dong": APPLIES,
        "huangjince.qiucai.shen-lin-xiong": APPLIES,
    }
    # the 卦身 is not a 兄弟: the sentence says nothing
    assert fired(kg, still.replace("rel:xiongdi", "rel:zisun"), ids) == {}


def test_partnership_both_moving_or_void(kg):
    ids = "huangjince.hehuo.not-lasting"
    both = chart(
        "hehuo",
        {
            "l2": "dk:role role:ying ; dk:moving true ; dk:void false",
            "l5": "dk:role role:shi ; dk:moving true ; dk:void false",
        },
    )
    assert fired(kg, both, ids) == {ids: APPLIES}
    assert fired(kg, both.replace("role:ying ; dk:moving true", "role:ying ; dk:moving false"), ids) == {}
    void = both.replace("dk:moving true ; dk:void false", "dk:moving false ; dk:void true")
    assert fired(kg, void, ids) == {ids: APPLIES}


def test_partnership_instigation(kg):
    """世應生合而被動爻日辰刑沖剋害者，必有挑唆破說也: 應 generates 世, the day clashes 世 and a moving third
    line overcomes 應."""
    ids = "huangjince.hehuo.instigation"
    body = {"l2": "dk:role role:ying", "l3": "dk:moving true", "l5": "dk:role role:shi", "d": ""}
    hurt = "r:d dk:chong r:l5 . r:l5 dk:chong r:d . r:l3 dk:ke r:l2 ."
    assert fired(kg, chart("hehuo", body, "r:l2 dk:sheng r:l5 . " + hurt), ids) == {ids: APPLIES}
    # without 生合 between them there is nothing to break up
    assert fired(kg, chart("hehuo", body, hurt), ids) == {}
    # 世應 … 被刑沖剋害 holds of both: the 世 hurt alone is not enough
    only_shi = "r:l2 dk:sheng r:l5 . r:d dk:chong r:l5 . r:l5 dk:chong r:d ."
    assert fired(kg, chart("hehuo", body, only_shi), ids) == {}


def test_partnership_both_change_into_brother_or_ghost(kg):
    """化出兄官，必多私心: the clause goes on from 世應兩動, so both the 世 and the 應 change, each into a 兄弟 or a
    官鬼."""
    ids = "huangjince.hehuo.selfish"
    body = {
        "l2": "dk:role role:ying ; dk:moving true",
        "l5": "dk:role role:shi ; dk:moving true",
        "c2": "dk:relative rel:guangui",
        "c5": "dk:relative rel:xiongdi",
    }
    assert fired(kg, chart("hehuo", body, "r:l2 dk:changesTo r:c2 . r:l5 dk:changesTo r:c5 ."), ids) == {
        ids: APPLIES
    }
    # the 世 alone changes into a 兄弟, the 應 is still
    alone = {**body, "l2": "dk:role role:ying ; dk:moving false"}
    assert fired(kg, chart("hehuo", alone, "r:l5 dk:changesTo r:c5 ."), ids) == {}


# ── 公門 ¶32: 公門何慮官爻？ (the exception to 占財皆忌官動) ───────────────────────────────────────


def test_public_office_lifts_moving_ghost(kg):
    ids = "huangjince.qiucai.guan-moving huangjince.gongmen.guan-dong"
    ghost = {"l4": "dk:relative rel:guangui ; dk:moving true"}
    assert fired(kg, chart("gongmen", ghost), ids) == {
        "huangjince.qiucai.guan-moving": {"overridden"},
        "huangjince.gongmen.guan-dong": APPLIES,
    }
    # 何慮: the obstruction does not come, and the officials are the way to the money
    (lifted,) = [
        a for a in results(kg, chart("gongmen", ghost))[0] if a.rule_id == "huangjince.gongmen.guan-dong"
    ]
    assert lifted.polarity == "吉"
    # for other money the moving 官鬼 obstructs
    assert fired(kg, chart("qiucai", ghost), ids) == {"huangjince.qiucai.guan-moving": APPLIES}


def test_moving_ghost_tied_by_the_month(kg):
    """若有剋制或被沖散，或被合住，雖阻不妨: the agent left out of 被合住 is a pillar or a moving line, so the
    month's 合 ties the moving 官鬼 too."""
    ids = "huangjince.qiucai.guan-moving"
    ghost = {"l4": "dk:relative rel:guangui ; dk:moving true ; dk:scattered false", "m": ""}
    assert fired(kg, chart("qiucai", ghost, "r:m dk:he r:l4 ."), ids) == {
        "huangjince.qiucai.guan-moving": {"overridden"},
        "huangjince.qiucai.guan-moving-checked": APPLIES,
    }
    # the month only generating it ties nothing
    assert fired(kg, chart("qiucai", ghost, "r:m dk:sheng r:l4 ."), ids) == {
        "huangjince.qiucai.guan-moving": APPLIES
    }


def test_public_office_needs_the_ghost(kg):
    ids = "huangjince.gongmen.no-guan huangjince.gongmen.cai-gui"
    # 若無鬼爻 … 亦難到手
    absent = chart(
        "gongmen", {"p": "dk:absentRelative rel:guangui", "l3": "dk:relative rel:qicai ; dk:void false"}
    )
    assert fired(kg, absent, ids) == {"huangjince.gongmen.no-guan": APPLIES}
    # 須得財鬼兩全，方為大吉
    both = chart(
        "gongmen",
        {"l3": "dk:relative rel:qicai ; dk:void false", "l5": "dk:relative rel:guangui ; dk:void false"},
    )
    assert fired(kg, both, ids) == {"huangjince.gongmen.cai-gui": APPLIES}
    # 或落空亡: a void 官鬼 is no 官鬼
    assert fired(kg, both.replace("rel:guangui ; dk:void false", "rel:guangui ; dk:void true"), ids) == {
        "huangjince.gongmen.no-guan": APPLIES
    }


@pytest.mark.parametrize("cai", [True, False])
def test_public_office_no_ghost_keeps_the_cai(kg, cai):
    """若無鬼爻或落空亡，則雖財爻有氣，亦難到手: 雖 concedes the 財's 有氣, not the 財, which is on the lines; with
    no 財 line ¶6 judges the chart (財為用神，而不上卦，必無可望)."""
    ids = "huangjince.gongmen.no-guan"
    cai_line = {"l3": "dk:relative rel:qicai"} if cai else {}
    absent = "rel:guangui" if cai else "rel:guangui , rel:qicai"
    # 若無鬼爻: no 官鬼 on the lines
    no_ghost = chart("gongmen", {"p": f"dk:absentRelative {absent}", **cai_line})
    assert fired(kg, no_ghost, ids) == ({ids: APPLIES} if cai else {})
    # 或落空亡: the 官鬼 void
    entities = {"l5": "dk:relative rel:guangui ; dk:void true", **cai_line}
    void = chart("gongmen", entities if cai else {**entities, "p": "dk:absentRelative rel:qicai"})
    assert fired(kg, void, ids) == ({ids: APPLIES} if cai else {})


@pytest.mark.parametrize("cai", [True, False])
def test_public_office_strong_ghost_keeps_the_cai(kg, cai):
    """必得旺相生合世身則吉: the 官鬼 旺相 generating or combining with the 世 or the 卦身, beside the 財 the clause
    before concedes (須得財鬼兩全); with no 財 line it is silent."""
    ids = "huangjince.gongmen.guan-wang"
    entities = {
        "l5": "dk:relative rel:guangui ; dk:seasonalState state:wang",
        "l2": "dk:role role:shi ; dk:relative rel:fumu",
        **({"l3": "dk:relative rel:qicai"} if cai else {"p": "dk:absentRelative rel:qicai"}),
    }
    assert fired(kg, chart("gongmen", entities, "r:l5 dk:sheng r:l2 ."), ids) == (
        {ids: APPLIES} if cai else {}
    )


# ── 九流 ¶34: 九流術士，偏宜鬼動生身 ─────────────────────────────────────────────────────────────


def test_crafts_clientele_is_the_ghost(kg):
    """百工九流，求財以鬼爻為主顧: the 官鬼 lines get the role, only in a 九流 inquiry."""
    lines = {"l2": "dk:relative rel:guangui", "l4": "dk:relative rel:qicai", "l6": "dk:relative rel:guangui"}
    assert roles(kg, chart("jiuliu", lines), "zhugu") == {"l2", "l6"}
    assert roles(kg, chart("qiucai", lines), "zhugu") == set()


def test_crafts_ghost_moves_and_generates_the_body(kg):
    ids = "huangjince.jiuliu.gui-dong-sheng huangjince.jiuliu.hua-cai"
    body = {"l2": "dk:relative rel:guangui ; dk:moving true", "l4": "dk:role role:guashen"}
    assert fired(kg, chart("jiuliu", body, "r:l2 dk:sheng r:l4 ."), ids) == {
        "huangjince.jiuliu.gui-dong-sheng": APPLIES
    }
    # the note: 出現發動生合世爻; and 更化財爻 adds 決得大利
    to_shi = {
        "l2": "dk:relative rel:guangui ; dk:moving true",
        "l5": "dk:role role:shi",
        "c2": "dk:relative rel:qicai",
    }
    assert fired(
        kg, chart("jiuliu", to_shi, "r:l2 dk:he r:l5 . r:l5 dk:he r:l2 . r:l2 dk:changesTo r:c2 ."), ids
    ) == {
        "huangjince.jiuliu.gui-dong-sheng": APPLIES,
        "huangjince.jiuliu.hua-cai": APPLIES,
    }
    # a still 官鬼 does not 動
    still = chart(
        "jiuliu", {**body, "l2": "dk:relative rel:guangui ; dk:moving false"}, "r:l2 dk:sheng r:l4 ."
    )
    assert fired(kg, still, ids) == {}
    # no 主顧 outside 九流
    assert fired(kg, chart("qiucai", body, "r:l2 dk:sheng r:l4 ."), ids) == {}
    # 合 is the note's, said of the 世: a moving 官鬼 combining with the 卦身 is neither 生身 nor 生合世爻
    assert fired(kg, chart("jiuliu", body, "r:l2 dk:he r:l4 . r:l4 dk:he r:l2 ."), ids) == {}


def test_crafts_moving_ghost_hurts_the_shi(kg):
    """須忌刑剋世爻或化兄，皆主惹是招非: the 官鬼 that 出現發動 (the sentence before) overcoming the 世; a still one
    is not the subject the clause goes on from."""
    ids = "huangjince.jiuliu.trouble"
    body = {"l2": "dk:relative rel:guangui ; dk:moving true", "l5": "dk:role role:shi"}
    assert fired(kg, chart("jiuliu", body, "r:l2 dk:ke r:l5 ."), ids) == {ids: APPLIES}
    still = {**body, "l2": "dk:relative rel:guangui ; dk:moving false"}
    assert fired(kg, chart("jiuliu", still, "r:l2 dk:ke r:l5 ."), ids) == {}


def test_crafts_no_ghost(kg):
    assert fired(kg, chart("jiuliu", {"p": "dk:absentRelative rel:guangui"}), "huangjince.jiuliu.wu-gui") == {
        "huangjince.jiuliu.wu-gui": APPLIES
    }
    assert fired(kg, chart("jiuliu", {"p": "dk:absentRelative rel:fumu"}), "huangjince.jiuliu.wu-gui") == {}


# ── 六畜 ¶34: 六畜血財,尤喜福興持世 ──────────────────────────────────────────────────────────────


def test_livestock_zisun_on_shi(kg):
    ids = "huangjince.liuchu"
    on_shi = chart(
        "liuchu-xuecai",
        {"l5": "dk:role role:shi ; dk:relative rel:zisun ; dk:seasonalState state:wang ; dk:void false"},
    )
    assert fired(kg, on_shi, ids) == {
        "huangjince.liuchu.zisun-wang": APPLIES,
        "huangjince.liuchu.fu-chi-shi": APPLIES,
    }
    # 旺相不空: a void 子孫, even on 世, is no good sign
    assert fired(kg, on_shi.replace("dk:void false", "dk:void true"), ids) == {}


def test_livestock_thrive_without_profit(kg):
    """福旺財空。六畜雖好而無利。"""
    ids = "huangjince.liuchu.cai-kong"
    lines = {
        "l2": "dk:relative rel:zisun ; dk:seasonalState state:xiang",
        "l4": "dk:relative rel:qicai ; dk:void true",
    }
    assert fired(kg, chart("liuchu-xuecai", lines), ids) == {ids: APPLIES}
    assert (
        fired(kg, chart("liuchu-xuecai", {**lines, "l4": "dk:relative rel:qicai ; dk:void false"}), ids) == {}
    )


def test_livestock_parent_changing_into_earth_ghost(kg):
    """父母發動則有傷損，化出土鬼，須防瘟死: the moving 父母 is the line that changes into the Earth 官鬼; the harm
    falls on the 子孫, the animals, on the lines."""
    ids = "huangjince.liuchu.tu-gui"
    body = {
        "l4": "dk:relative rel:fumu ; dk:moving true",
        "c4": "dk:relative rel:guangui ; dk:element el:earth",
        "l2": "dk:relative rel:zisun",
    }
    assert fired(kg, chart("liuchu-xuecai", body, "r:l4 dk:changesTo r:c4 ."), ids) == {ids: APPLIES}
    # a moving 子孫 changing into the Earth 官鬼 is not the 父母 of the sentence
    zisun = {**body, "l4": "dk:relative rel:zisun ; dk:moving true"}
    assert fired(kg, chart("liuchu-xuecai", zisun, "r:l4 dk:changesTo r:c4 ."), ids) == {}
    # no 子孫 on the lines: no animals for the 父母 to hurt (CONVENTIONS General 2)
    no_zisun = {k: v for k, v in body.items() if k != "l2"}
    assert fired(kg, chart("liuchu-xuecai", no_zisun, "r:l4 dk:changesTo r:c4 ."), ids) == {}


def test_livestock_moving_parent_needs_zisun(kg):
    """父母發動則有傷損: the moving 父母 hurts the 子孫, which must be on the lines."""
    ids = "huangjince.liuchu.fumu-dong"
    body = {"l4": "dk:relative rel:fumu ; dk:moving true", "l2": "dk:relative rel:zisun"}
    assert fired(kg, chart("liuchu-xuecai", body), ids) == {ids: APPLIES}
    assert fired(kg, chart("liuchu-xuecai", {"l4": body["l4"]}), ids) == {}


# ── 放債 ¶36: 世應同人，放債必然連本失 ─────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("shi", "ying", "lone", "verdicts"),
    [
        # 世應同人，放債必然連本失: both 兄弟
        ("rel:xiongdi", "rel:xiongdi", "rel:guangui", ("xiongdi", "lian-ben")),
        # 世應值空亦然: 值空 takes the place of 值兄弟 in both verdicts, 必無討處 and, with 財爻更絕, 連本俱失
        (
            "rel:fumu ; dk:void true",
            "rel:guangui ; dk:void true",
            "rel:guangui ; dk:void false",
            ("kong", "kong-lian-ben"),
        ),
    ],
    ids=["brothers", "void"],
)
def test_lending_shi_ying(kg, shi, ying, lone, verdicts):
    ids = "huangjince.fangzhai"
    nowhere, capital_lost = (f"{ids}.{v}" for v in verdicts)
    lines = {
        "l3": f"dk:role role:shi ; dk:relative {shi}",
        "l6": f"dk:role role:ying ; dk:relative {ying}",
        "l1": "dk:relative rel:qicai ; dk:stage stage:jue",
    }
    assert fired(kg, chart("fangzhai", lines), ids) == {nowhere: APPLIES, capital_lost: APPLIES}
    # 財爻更絕 is the note's condition for 連本俱失: a 財 at 死 is not 絕
    dead = chart("fangzhai", {**lines, "l1": "dk:relative rel:qicai ; dk:stage stage:si"})
    assert fired(kg, dead, ids) == {nowhere: APPLIES}
    # the 世 alone (not 同人, not both void)
    one = chart("fangzhai", {**lines, "l6": f"dk:role role:ying ; dk:relative {lone}"})
    assert fired(kg, one, ids) == {}


def test_lending_court_case(kg):
    """卦中無財而官爻變出者，必訟於官府而後可取。"""
    ids = "huangjince.fangzhai.song"
    body = {
        "p": "dk:absentRelative rel:qicai",
        "l4": "dk:relative rel:guangui ; dk:moving true",
        "c4": "dk:relative rel:qicai",
    }
    assert fired(kg, chart("fangzhai", body, "r:l4 dk:changesTo r:c4 ."), ids) == {ids: APPLIES}
    # the 官鬼 changes into 父母: no 財 comes out
    other = {**body, "c4": "dk:relative rel:fumu"}
    assert fired(kg, chart("fangzhai", other, "r:l4 dk:changesTo r:c4 ."), ids) == {}


# ── 開行 ¶36: 日月相合，開行定主有人投 ────────────────────────────────────────────────────────


BEST_SHOP = {
    "l5": "dk:role role:shi ; dk:void false",
    "l2": "dk:role role:ying ; dk:void false ; dk:relative rel:qicai",
    "l1": "dk:relative rel:zisun",
    "l3": "dk:relative rel:guangui ; dk:vital true",
    "d": "",
}
"""世應要不空，財福要全備，官鬼要有氣，父兄要衰靜 (no 父母 or 兄弟 line at all): the 上吉卦 of ¶36's note."""


def test_opening_a_shop_day_combines_shi(kg):
    """更得月建日辰動爻生合世爻，則近悅遠來人皆投我: the day combines with the 世 of the 上吉卦."""
    ids = "huangjince.kaihang.tou huangjince.kaihang.wu-cai"
    combined = "r:d dk:he r:l5 . r:l5 dk:he r:d ."
    assert fired(kg, chart("kaihang", BEST_SHOP, combined), ids) == {"huangjince.kaihang.tou": APPLIES}
    # 更得 builds on the 上吉卦: with the 應 void it is not there
    ying_void = {**BEST_SHOP, "l2": "dk:role role:ying ; dk:void true ; dk:relative rel:qicai"}
    assert fired(kg, chart("kaihang", ying_void, combined), ids) == {}
    # no 財 in the chart: 不過門頭鬧熱無實利
    without = {"l5": "dk:role role:shi", "p": "dk:absentRelative rel:qicai", "d": ""}
    assert fired(kg, chart("kaihang", without, combined), ids) == {"huangjince.kaihang.wu-cai": APPLIES}
    # the day does not combine with 世
    assert fired(kg, chart("kaihang", BEST_SHOP, "r:d dk:chong r:l5 . r:l5 dk:chong r:d ."), ids) == {}


GHOST_STRONG_MONEY_VOID = {
    **BEST_SHOP,
    "l2": "dk:role role:ying ; dk:void false",
    "l4": "dk:relative rel:qicai ; dk:void true",
    "l3": "dk:relative rel:guangui ; dk:vital true ; dk:seasonalState state:wang",
}
"""鬼旺財空: the 上吉卦 with its 財 void and a strong 官鬼."""

DAY_COMBINES_SHI = "r:d dk:he r:l5 . r:l5 dk:he r:d ."


def test_opening_a_shop_strong_ghost_void_money(kg):
    """鬼旺財空亦然: as with 卦若無財, the day combines with the 世, but the 財 is void and the 官鬼 strong."""
    ids = "huangjince.kaihang.tou huangjince.kaihang.gui-wang"
    assert fired(kg, chart("kaihang", GHOST_STRONG_MONEY_VOID, DAY_COMBINES_SHI), ids) == {
        "huangjince.kaihang.tou": {"overridden"},
        "huangjince.kaihang.gui-wang": APPLIES,
    }
    # nothing draws the 世: no bustle at the door
    assert fired(kg, chart("kaihang", GHOST_STRONG_MONEY_VOID), ids) == {}


def test_opening_a_shop_void_money_is_no_best_chart(kg):
    """鬼旺財空亦然 (門頭鬧熱無實利) lifts the 上吉卦 that 有人投 builds on as well: a void 財 is still 全備, but where the
    strong 官鬼 and the 生合 of the 世 make the doorway busy for nothing, the chart is not also the best of charts
    (second reading, round 21)."""
    ids = "huangjince.kaihang.shang-ji huangjince.kaihang.gui-wang"
    assert fired(kg, chart("kaihang", GHOST_STRONG_MONEY_VOID, DAY_COMBINES_SHI), ids) == {
        "huangjince.kaihang.shang-ji": {"overridden"},
        "huangjince.kaihang.gui-wang": APPLIES,
    }
    # nothing draws the 世: no bustle at the door, and the void 財 is still on the lines
    assert fired(kg, chart("kaihang", GHOST_STRONG_MONEY_VOID), ids) == {
        "huangjince.kaihang.shang-ji": APPLIES
    }


def test_opening_a_shop_brother_moves_out(kg):
    """動出兄官，常有是非口舌: the 兄弟 (or 官鬼) is the line that moves."""
    ids = "huangjince.kaihang.xiong-guan"
    moving = {"l3": "dk:relative rel:xiongdi ; dk:moving true"}
    assert fired(kg, chart("kaihang", moving), ids) == {ids: APPLIES}
    # a moving 子孫 changing into 兄弟
    changed = {"l3": "dk:relative rel:zisun ; dk:moving true", "c3": "dk:relative rel:xiongdi"}
    assert fired(kg, chart("kaihang", changed, "r:l3 dk:changesTo r:c3 ."), ids) == {}


def test_opening_a_shop_best_chart(kg):
    """世應要不空，財福要全備，官鬼要有氣，父兄要衰靜，斯為上吉卦。"""
    ids = "huangjince.kaihang.shang-ji"
    best = {
        "l1": "dk:role role:shi ; dk:void false ; dk:relative rel:qicai",
        "l4": "dk:role role:ying ; dk:void false ; dk:relative rel:zisun",
        "l3": "dk:relative rel:qicai ; dk:void false",
        "l5": "dk:relative rel:guangui ; dk:vital true",
        "l6": "dk:relative rel:fumu ; dk:seasonalState state:qiu ; dk:moving false",
    }
    assert fired(kg, chart("kaihang", best), ids) == {ids: APPLIES}
    # 全備 asks the 財 and the 福 on the lines, 不空 only of the 世應: the one 子孫, void, is still there
    no_fu = {**best, "l4": "dk:role role:ying ; dk:void false"}
    void_fu = {**no_fu, "l2": "dk:relative rel:zisun ; dk:void true"}
    assert fired(kg, chart("kaihang", void_fu), ids) == {ids: APPLIES}
    # no 子孫 line: not 全備
    assert fired(kg, chart("kaihang", no_fu), ids) == {}
    # the 父母 moves: not 衰靜
    moving = {**best, "l6": "dk:relative rel:fumu ; dk:seasonalState state:qiu ; dk:moving true"}
    assert fired(kg, chart("kaihang", moving), ids) == {}


# ── 索借 ¶38: 應落空亡，索借者失望 ─────────────────────────────────────────────────────────────


def test_borrowing_void_ying(kg):
    ids = "huangjince.suojie.ying"
    assert fired(kg, chart("suozhai", {"l4": "dk:role role:ying ; dk:void true ; dk:moving false"}), ids) == {
        "huangjince.suojie.ying-kong": APPLIES
    }
    assert (
        fired(kg, chart("suozhai", {"l4": "dk:role role:ying ; dk:void false ; dk:moving false"}), ids) == {}
    )
    # 動則更變
    assert fired(kg, chart("suozhai", {"l4": "dk:role role:ying ; dk:void false ; dk:moving true"}), ids) == {
        "huangjince.suojie.ying-dong": APPLIES
    }


# A 木 palace: 兄弟 木, 子孫 火, 妻財 土, 官鬼 金, 父母 水.
WOOD_PALACE = {
    "l1": "dk:relative rel:fumu ; dk:element el:water ; dk:void false",
    "l2": "dk:relative rel:zisun ; dk:element el:fire ; dk:void false",
    "l3": "dk:relative rel:qicai ; dk:element el:earth ; dk:void false",
    "l4": "dk:relative rel:xiongdi ; dk:element el:wood ; dk:void false",
    "l5": "dk:relative rel:guangui ; dk:element el:metal ; dk:void false",
}


@pytest.mark.parametrize(
    ("topic", "goods"),
    [
        ("suojie-yifu", {"l1"}),  # 衣服經史看父爻
        ("suojie-liuchu", {"l2"}),  # 六畜酒器看福爻
        ("suojie-caiwu", {"l3"}),  # 其餘財物看財爻
        ("suojie-huaguo", {"l4"}),  # 花果看木爻
        ("suojie-zhuanwa", {"l3"}),  # 磚瓦看土爻
        ("suozhai", set()),  # the goods not named: no 物爻
    ],
)
def test_borrowing_goods_line(kg, topic, goods):
    assert roles(kg, chart(topic, WOOD_PALACE), "wuyao") == goods
    expected = {"huangjince.suojie.wuyao": APPLIES} if goods else {}
    assert fired(kg, chart(topic, WOOD_PALACE), "huangjince.suojie.wuyao") == expected


# ── 賭博 ¶38: 世遭刑剋，賭博者必輸 ─────────────────────────────────────────────────────────────


def test_gambling_shi_overcome(kg):
    ids = "huangjince.dubo.lose"
    body = {
        "l3": "dk:role role:shi ; dk:relative rel:zisun ; dk:void false",
        "l6": "dk:relative rel:guangui ; dk:moving true",
    }
    assert fired(kg, chart("dubo", body, "r:l6 dk:ke r:l3 ."), ids) == {ids: APPLIES}
    # the note: 兄鬼動來刑剋 — a still 官鬼 does not come
    still = {**body, "l6": "dk:relative rel:guangui ; dk:moving false"}
    assert fired(kg, chart("dubo", still, "r:l6 dk:ke r:l3 ."), ids) == {}
    # 或臨自空
    assert fired(
        kg, chart("dubo", {"l3": "dk:role role:shi ; dk:relative rel:zisun ; dk:void true"}), ids
    ) == {ids: APPLIES}


def test_gambling_seat_direction(kg):
    """坐方宜財福之地: the direction is reported by the 財 or 福 line's branch."""
    found, _ = results(
        kg, chart("dubo", {"l2": "dk:relative rel:zisun ; dk:branch br:zi", "l4": "dk:relative rel:fumu"})
    )
    (seat,) = [a for a in found if a.rule_id == "huangjince.dubo.seat"]
    assert seat.parameters == {"direction": "子 (北)"}  # 子 is the north
    assert seat.polarity == "中"  # advice on where to sit, no gain or loss named


def test_gambling_fight_between_shi_and_ying(kg):
    """間爻動出兄弟官鬼，多主爭鬥: the line between 世 and 應 is itself a moving 兄弟 or 官鬼."""
    ids = "huangjince.dubo.fight"
    moving = {"l3": "dk:role role:jian ; dk:relative rel:xiongdi ; dk:moving true"}
    assert fired(kg, chart("dubo", moving), ids) == {ids: APPLIES}
    # a moving 父母 between them that changes into a 兄弟 is not 動出兄弟
    changing = {
        "l3": "dk:role role:jian ; dk:relative rel:fumu ; dk:moving true",
        "c3": "dk:relative rel:xiongdi",
    }
    assert fired(kg, chart("dubo", changing, "r:l3 dk:changesTo r:c3 ."), ids) == {}


def test_gambling_on_credit_without_money(kg):
    """內外俱無財亦不能勝。更遇世應空動，必是賭賒: 更遇 adds the void, moving 世 and 應 to the chart with no 財."""
    ids = "huangjince.dubo.credit huangjince.dubo.wu-cai"
    pair = {
        "l2": "dk:role role:shi ; dk:void true ; dk:moving true",
        "l5": "dk:role role:ying ; dk:void true ; dk:moving true",
    }
    assert fired(kg, chart("dubo", {"p": "dk:absentRelative rel:qicai", **pair}), ids) == {
        "huangjince.dubo.credit": APPLIES,
        "huangjince.dubo.wu-cai": APPLIES,
    }
    # a 財 on the lines: money to stake, no credit
    assert fired(kg, chart("dubo", {**pair, "l4": "dk:relative rel:qicai"}), ids) == {}


def test_gambling_changes(kg):
    """兄鬼化財，先敗後勝，財化兄鬼先勝後敗。"""
    ids = "huangjince.dubo.lose-then-win huangjince.dubo.win-then-lose"
    body = {"l2": "dk:relative rel:guangui ; dk:moving true", "c2": "dk:relative rel:qicai"}
    assert fired(kg, chart("dubo", body, "r:l2 dk:changesTo r:c2 ."), ids) == {
        "huangjince.dubo.lose-then-win": APPLIES
    }
    back = {"l2": "dk:relative rel:qicai ; dk:moving true", "c2": "dk:relative rel:xiongdi"}
    assert fired(kg, chart("dubo", back, "r:l2 dk:changesTo r:c2 ."), ids) == {
        "huangjince.dubo.win-then-lose": APPLIES
    }


# ── 商販 ¶40: 鬼克身爻，商販者必遭盜賊 ────────────────────────────────────────────────────────


def test_trade_ghost_overcomes_body(kg):
    ids = "huangjince.shangfan.gui-ke-shen"
    body = {"l2": "dk:relative rel:guangui", "l4": "dk:role role:guashen"}
    assert fired(kg, chart("shangfan", body, "r:l2 dk:ke r:l4 ."), ids) == {ids: APPLIES}
    assert fired(kg, chart("shangfan", body, "r:l2 dk:sheng r:l4 ."), ids) == {}


def test_trade_robbers_and_void_shi(kg):
    """遇兄鬼發動，玄武交重 … 更克世爻，決有大禍，世若空亡庶可迴避。"""
    ids = "huangjince.shangfan.robbers huangjince.shangfan.disaster huangjince.shangfan.shi-kong"
    body = {
        "l2": "dk:relative rel:guangui ; dk:moving true ; dk:beast beast:xuanwu",
        "l5": "dk:role role:shi ; dk:void false",
    }
    assert fired(kg, chart("shangfan", body, "r:l2 dk:ke r:l5 ."), ids) == {
        "huangjince.shangfan.robbers": APPLIES,
        "huangjince.shangfan.disaster": APPLIES,
    }
    void = {**body, "l5": "dk:role role:shi ; dk:void true"}
    assert fired(kg, chart("shangfan", void, "r:l2 dk:ke r:l5 ."), ids) == {
        "huangjince.shangfan.robbers": APPLIES,
        "huangjince.shangfan.disaster": {"overridden"},
        "huangjince.shangfan.shi-kong": APPLIES,
    }
    # the 玄武 line is still: no 交重
    still = {**body, "l2": "dk:relative rel:guangui ; dk:moving false ; dk:beast beast:xuanwu"}
    assert fired(kg, chart("shangfan", still, "r:l2 dk:ke r:l5 ."), ids) == {}
    # a void 世 with no disaster threatening it: 世若空亡 says nothing
    void_still = {**still, "l5": "dk:role role:shi ; dk:void true"}
    assert fired(kg, chart("shangfan", void_still, "r:l2 dk:ke r:l5 ."), ids) == {}


def test_trade_safe_unless_the_shi_is_overcome(kg):
    """販賣經商，要世應生合，鬼爻空伏，動爻、日辰不傷乎我，則安然無事。更得財旺福興，大吉之兆: no 官鬼 line, the 應
    generates the 世; 傷 is 克, so the day clashing the 世 leaves the trip safe, and the day overcoming it does not."""
    ids = "huangjince.shangfan.safe huangjince.shangfan.da-ji"
    body = {
        "l2": "dk:role role:ying",
        "l3": "dk:relative rel:qicai ; dk:seasonalState state:wang",
        "l4": "dk:relative rel:zisun ; dk:moving true",
        "l5": "dk:role role:shi",
        "d": "",
    }
    clash = "r:l2 dk:sheng r:l5 . r:d dk:chong r:l5 ."
    assert fired(kg, chart("shangfan", body, clash), ids) == {
        "huangjince.shangfan.safe": APPLIES,
        "huangjince.shangfan.da-ji": APPLIES,
    }
    assert fired(kg, chart("shangfan", body, "r:l2 dk:sheng r:l5 . r:d dk:ke r:l5 ."), ids) == {}


# ── 置貨 ¶40: 間興害世，置貨者當慮牙人 ────────────────────────────────────────────────────────


def test_buying_broker_harms_shi(kg):
    ids = "huangjince.zhihuo.broker"
    body = {"l3": "dk:role role:jian ; dk:relative rel:xiongdi ; dk:moving true", "l5": "dk:role role:shi"}
    assert fired(kg, chart("zhihuo", body, "r:l3 dk:ke r:l5 ."), ids) == {
        "huangjince.zhihuo.broker-false": APPLIES,
        "huangjince.zhihuo.broker-robs": APPLIES,
    }
    # the moving 間爻 兄弟 generates 世: false, but no robbery
    assert fired(kg, chart("zhihuo", body, "r:l3 dk:sheng r:l5 ."), ids) == {
        "huangjince.zhihuo.broker-false": APPLIES
    }
    # 害 is the note's 傷克, not the 六害: a 六害 alone is no robbery
    assert fired(kg, chart("zhihuo", body, "r:l3 dk:hai r:l5 ."), ids) == {
        "huangjince.zhihuo.broker-false": APPLIES
    }


def test_buying_broker_not_swindler_between(kg):
    """最怕兄鬼交重，須防光棍誆騙。在間爻則是牙人虛詐不實: the moving 兄弟 between 世 and 應 is the broker, not a
    swindler; elsewhere it is the swindler."""
    ids = "huangjince.zhihuo.swindle huangjince.zhihuo.broker-false"
    between = {"l3": "dk:role role:jian ; dk:relative rel:xiongdi ; dk:moving true"}
    assert fired(kg, chart("zhihuo", between), ids) == {
        "huangjince.zhihuo.swindle": {"overridden"},
        "huangjince.zhihuo.broker-false": APPLIES,
    }
    outside = {"l3": "dk:relative rel:xiongdi ; dk:moving true"}
    assert fired(kg, chart("zhihuo", outside), ids) == {"huangjince.zhihuo.swindle": APPLIES}


@pytest.mark.parametrize(
    ("topic", "goods"),
    [("zhihuo-liuchu", {"l2"}), ("zhihuo-wugu", {"l3"}), ("zhihuo-simian", {"l1"}), ("zhihuo", set())],
)
def test_buying_goods_line(kg, topic, goods):
    """物爻者，六畜看子孫，五穀看財爻，絲綿布帛看父母類。"""
    assert roles(kg, chart(topic, WOOD_PALACE), "wuyao") == goods


def test_buying_goods_hidden(kg):
    """物爻空伏，其貨必無: a hidden 子孫 when buying livestock, and no 子孫 on the lines."""
    ids = "huangjince.zhihuo.kong-fu"
    hidden = chart(
        "zhihuo-liuchu",
        {"p": "dk:absentRelative rel:zisun", "l3": "dk:relative rel:qicai", "h2": "dk:relative rel:zisun"},
        "r:h2 dk:under r:l2 .",
    )
    assert roles(kg, hidden, "wuyao") == {"h2"}
    assert fired(kg, hidden, ids) == {ids: APPLIES}
    # a 子孫 on the lines too (伏神 at every position): the line is the goods line, not the 伏神
    shown = chart(
        "zhihuo-liuchu",
        {"l3": "dk:relative rel:zisun ; dk:void false", "h2": "dk:relative rel:zisun"},
        "r:h2 dk:under r:l2 .",
    )
    assert roles(kg, shown, "wuyao") == {"l3"}
    assert fired(kg, shown, ids) == {}
    # 空
    void = chart("zhihuo-liuchu", {"l3": "dk:relative rel:zisun ; dk:void true"})
    assert fired(kg, void, ids) == {ids: APPLIES}


def test_buying_hidden_goods_not_plenty(kg):
    """物爻太過，其貨必多 / 物爻空伏，其貨必無: a 子孫 three times over (the changed and the hidden lines) but on no line
    is 空伏, no goods, not plenty: 太過 is said of the 物爻 on the lines."""
    ids = "huangjince.zhihuo.tai-guo huangjince.zhihuo.kong-fu"
    entities = {
        "p": "dk:absentRelative rel:zisun ; dk:heavyRelative rel:zisun",
        "h2": "dk:relative rel:zisun",
    }
    hidden = chart("zhihuo-liuchu", entities, "r:h2 dk:under r:l2 .")
    assert fired(kg, hidden, ids) == {"huangjince.zhihuo.kong-fu": APPLIES}


@pytest.mark.parametrize(("lines", "fires"), [("777678", True), ("777878", False)])
def test_buying_plenty_of_goods(kg, lines, fires):
    """物爻太過，其貨必多 (三五重) when buying grain (五穀看財爻): 水天需 (坤宮, Earth; 財 = Water) has 甲子 and 戊子
    on lines 1 and 6; with line 4 moving its 戊申 changes into 兌's 丁亥, a third 財. Still, only two."""
    ids = "huangjince.zhihuo.tai-guo"
    found = [a for a in cast(kg, lines, "zhihuo-wugu") if a.rule_id == ids and a.status == "applies"]
    assert bool(found) == fires


# ── 停榻 ¶42: 停榻者，喜財安而鬼靜 ─────────────────────────────────────────────────────────────


def test_storing_still_money_still_ghost(kg):
    ids = "huangjince.tingta.cai-an"
    calm = {
        "l2": "dk:relative rel:qicai ; dk:moving false",
        "l5": "dk:relative rel:guangui ; dk:moving false",
    }
    assert fired(kg, chart("tingta", calm), ids) == {"huangjince.tingta.cai-an.still": APPLIES}
    # the 官鬼 moves: not 鬼靜
    ghost = {**calm, "l5": "dk:relative rel:guangui ; dk:moving true"}
    assert fired(kg, chart("tingta", ghost), ids) == {}
    # 積貨不宜財動
    money = {**calm, "l2": "dk:relative rel:qicai ; dk:moving true"}
    assert fired(kg, chart("tingta", money), ids) == {"huangjince.tingta.cai-an.moving": APPLIES}


@pytest.mark.parametrize(
    ("moving", "void", "fires"),
    [
        ("false", "false", True),
        ("false", "true", False),  # 亦不宜空亡
        ("true", "false", False),  # 積貨不宜財動
    ],
)
def test_storing_money_at_birth_stage(kg, moving, void, fires):
    """更得坐於胎養長生爻上，後必得利: the 財 at 長生 in the wished-for state before it, 財安鬼靜, not void,
    overcome neither by a moving line nor by the day."""
    ids = "huangjince.tingta.chang-sheng"
    calm = {
        "l2": f"dk:relative rel:qicai ; dk:moving {moving} ; dk:void {void} ; dk:stage stage:changsheng",
        "l5": "dk:relative rel:guangui ; dk:moving false",
    }
    assert fired(kg, chart("tingta", calm), ids) == ({ids: APPLIES} if fires else {})


def test_storing_money_robbed_by_day(kg):
    """又不宜動爻日辰克劫: the day overcoming the 財 at 長生 takes the later profit away."""
    ids = "huangjince.tingta.chang-sheng"
    money = {
        "l2": "dk:relative rel:qicai ; dk:moving false ; dk:void false ; dk:stage stage:changsheng",
        "d": "",
    }
    assert fired(kg, chart("tingta", money), ids) == {ids: APPLIES}
    assert fired(kg, chart("tingta", money, "r:d dk:ke r:l2 ."), ids) == {}


def test_storing_lone_brother(kg):
    """兄弟獨發，則多耗折。"""
    ids = "huangjince.tingta.du-fa"
    alone = chart(
        "tingta", {"l4": "dk:relative rel:xiongdi ; dk:moving true"}, facts="dk:hexClass hexclass:du-fa"
    )
    assert fired(kg, alone, ids) == {ids: APPLIES}
    assert fired(kg, chart("tingta", {"l4": "dk:relative rel:xiongdi ; dk:moving true"}), ids) == {}


@pytest.mark.parametrize(
    ("pillars", "lines", "fires"),
    [
        ("庚寅 戊寅 癸亥", "876878", True),  # 坎為水: 戊午 財 → 辛酉, Fire dies (死) at 酉: 化死
        ("庚寅 戊寅 癸亥", "876877", False),  # 風水渙 (離宮): the same 戊午 → 辛酉 is a 兄弟
        ("庚寅 戊寅 癸亥", "797777", True),  # 乾為天: 甲寅 財 → 己丑, void on 癸亥 (旬空 子丑): 化空
        ("庚寅 戊寅 甲子", "797777", False),  # on 甲子 (旬空 戌亥) 丑 is Wood's 冠帶: none of the four
    ],
)
def test_storing_money_changes_into_death(kg, pillars, lines, fires):
    """財化死墓空絕，後必價賤。"""
    ids = "huangjince.tingta.cheap"
    found = [a for a in cast(kg, lines, "tingta", pillars) if a.rule_id == ids and a.status == "applies"]
    assert len(found) == fires


# ── 脫貨 ¶42: 脫貨者，宜財動而身興 ─────────────────────────────────────────────────────────────


def test_selling_money_and_body_move(kg):
    ids = "huangjince.tuohuo.cai-dong huangjince.tuohuo.shen-xing huangjince.tuohuo.where"
    body = {
        "l4": "dk:relative rel:qicai ; dk:moving true ; dk:half half:outer",
        "l1": "dk:role role:guashen ; dk:moving true",
    }
    assert fired(kg, chart("tuohuo", body), ids) == {
        "huangjince.tuohuo.cai-dong": APPLIES,
        "huangjince.tuohuo.shen-xing": APPLIES,
        "huangjince.tuohuo.where.elsewhere": APPLIES,
    }
    still = {
        "l4": "dk:relative rel:qicai ; dk:moving false ; dk:half half:outer",
        "l1": "dk:role role:guashen ; dk:moving false",
    }
    assert fired(kg, chart("tuohuo", still), ids) == {}
    # 身興 without 財動: the verse wishes for both together
    body_only = {**still, "l1": "dk:role role:guashen ; dk:moving true"}
    assert fired(kg, chart("tuohuo", body_only), ids) == {}


def test_selling_rival_buyers(kg):
    """動變日辰俱來生合，有人爭買: all three, not the day alone."""
    ids = "huangjince.tuohuo.rival-buyers"
    body = {"l5": "dk:role role:shi", "l2": "dk:moving true", "c2": "", "d": ""}
    all_three = "r:l2 dk:sheng r:l5 . r:c2 dk:sheng r:l5 . r:d dk:he r:l5 . r:l5 dk:he r:d ."
    assert fired(kg, chart("tuohuo", body, all_three), ids) == {ids: APPLIES}
    assert fired(kg, chart("tuohuo", body, "r:d dk:he r:l5 . r:l5 dk:he r:d ."), ids) == {}


def test_selling_moving_money_combined(kg):
    """動而遇合將成不成: the agent left out is a pillar, the month as much as the day, or a moving line."""
    ids = "huangjince.tuohuo.bound"
    body = {"l3": "dk:relative rel:qicai ; dk:moving true", "m": "", "l6": "dk:moving false"}
    assert fired(kg, chart("tuohuo", body, "r:m dk:he r:l3 ."), ids) == {ids: APPLIES}
    # a still line combining with it is no actor
    assert fired(kg, chart("tuohuo", body, "r:l6 dk:he r:l3 ."), ids) == {}


@pytest.mark.parametrize(
    ("void", "tie", "exception"),
    [
        # 動而遇合將成不成: the month ties the moving 財
        ("false", "r:m dk:he r:l3 .", "huangjince.tuohuo.bound"),
        # 動而逢空欲賣不賣: the moving 財 is void
        ("true", "", "huangjince.tuohuo.void"),
    ],
)
def test_selling_tied_or_void_money_is_no_easy_sale(kg, void, tie, exception):
    """脫貨財動，則主易脫 … 動而遇合將成不成；動而逢空欲賣不賣: the same moving 財 tied or void is read another way,
    an exception over 易脫 and over the verse's 宜財動而身興 (second reading, round 16); another moving 財, neither
    tied nor void, still sells easily."""
    ids = "huangjince.tuohuo.cai-dong huangjince.tuohuo.shen-xing huangjince.tuohuo.bound huangjince.tuohuo.void"
    body = {
        "l3": f"dk:relative rel:qicai ; dk:moving true ; dk:void {void}",
        "l1": "dk:role role:guashen ; dk:moving true",
        "m": "",
    }
    assert fired(kg, chart("tuohuo", body, tie), ids) == {
        "huangjince.tuohuo.cai-dong": {"overridden"},
        "huangjince.tuohuo.shen-xing": {"overridden"},
        exception: APPLIES,
    }
    free = {**body, "l5": "dk:relative rel:qicai ; dk:moving true ; dk:void false"}
    assert fired(kg, chart("tuohuo", free, tie), ids) == {
        "huangjince.tuohuo.cai-dong": {"overridden", "applies"},
        "huangjince.tuohuo.shen-xing": {"overridden", "applies"},
        exception: APPLIES,
    }


# ── 居家 ¶44: 宅中有鬼，勿居家 ─────────────────────────────────────────────────────────────────


def test_home_house_line(kg):
    """二爻為宅 (居家); 五爻為路 is 出外's."""
    lines = {f"l{i}": f"dk:position {i}" for i in range(1, 7)}
    assert roles(kg, chart("jujia", lines), "zhai") == {"l2"}
    assert roles(kg, chart("jujia", lines), "lu") == set()
    assert roles(kg, chart("chuwai", lines), "lu") == {"l5"}
    assert roles(kg, chart("chuwai", lines), "zhai") == set()


def test_home_ghost_in_the_house(kg):
    ids = "huangjince.jujia"
    ghost = {
        "l2": "dk:position 2 ; dk:relative rel:guangui ; dk:moving true ; dk:element el:fire ; dk:void false"
    }
    found, _ = results(kg, chart("jujia", ghost))
    (hit,) = [a for a in found if a.rule_id == "huangjince.jujia.zhai-gui"]
    assert hit.status == "applies" and hit.parameters == {"element": "火"}  # 火鬼忌火燭
    # 得子孫持世發動，庶幾無害
    rescued = {**ghost, "l5": "dk:position 5 ; dk:role role:shi ; dk:relative rel:zisun ; dk:moving true"}
    assert fired(kg, chart("jujia", rescued), ids) == {
        "huangjince.jujia.zhai-gui": {"overridden"},
        "huangjince.jujia.zisun-shi": APPLIES,
    }
    # the note: 鬼動 — a still 官鬼 in the house is not judged
    still = {
        "l2": "dk:position 2 ; dk:relative rel:guangui ; dk:moving false ; dk:element el:fire ; dk:void false"
    }
    assert fired(kg, chart("jujia", still), ids) == {}
    # nor is the moving 子孫 on the 世 where no ghost moves in the house: 庶幾無害 has no harm to lift
    assert fired(kg, chart("jujia", {**still, "l5": rescued["l5"]}), ids) == {}


def test_abroad_void_road(kg):
    """路爻空亡亦不宜出外，惟臨財福則吉。"""
    ids = "huangjince.chuwai.lu-"
    assert fired(
        kg, chart("chuwai", {"l5": "dk:position 5 ; dk:void true ; dk:relative rel:xiongdi"}), ids
    ) == {"huangjince.chuwai.lu-kong": APPLIES}
    assert fired(
        kg, chart("chuwai", {"l5": "dk:position 5 ; dk:void true ; dk:relative rel:qicai"}), ids
    ) == {"huangjince.chuwai.lu-kong": {"overridden"}, "huangjince.chuwai.lu-cai-fu": APPLIES}
    # 惟 excepts the void road line only: a road line that is not void is not judged by this sentence
    assert (
        fired(kg, chart("chuwai", {"l5": "dk:position 5 ; dk:void false ; dk:relative rel:qicai"}), ids) == {}
    )


# ── 本錢 ¶46: 內外無財伏又空，必然乏本; 父兄有氣財還絕，莫若安貧 ────────────────────────────────────


def test_capital_hidden_void_money(kg):
    ids = "huangjince.benqian.fa-ben huangjince.benqian.hua-chu"
    body = {"p": "dk:absentRelative rel:qicai", "h3": "dk:relative rel:qicai ; dk:void true"}
    assert fired(kg, chart("benqian", body), ids) == {"huangjince.benqian.fa-ben": APPLIES}
    # 若得動爻化出，主有小小財利
    changed = {**body, "l5": "dk:moving true", "c5": "dk:relative rel:qicai"}
    assert fired(kg, chart("benqian", changed, "r:l5 dk:changesTo r:c5 ."), ids) == {
        "huangjince.benqian.fa-ben": {"overridden"},
        "huangjince.benqian.hua-chu": APPLIES,
    }
    # the hidden 財 is not void: not 伏又空
    assert fired(kg, chart("benqian", {**body, "h3": "dk:relative rel:qicai ; dk:void false"}), ids) == {}


def test_capital_moving_parent_hurts_zisun(kg):
    """父兄二爻占財，大忌有發動，刑沖剋害利必不多: the 父母 overcomes the 子孫, the source of the 財 (¶8 財福俱傷)."""
    ids = "huangjince.benqian.little-profit"
    body = {"l6": "dk:relative rel:fumu ; dk:moving true", "l2": "dk:relative rel:zisun"}
    assert fired(kg, chart("benqian", body, "r:l6 dk:ke r:l2 ."), ids) == {ids: APPLIES}
    # its 害 on a 官鬼 touches neither 用神
    ghost = {**body, "l2": "dk:relative rel:guangui"}
    assert fired(kg, chart("benqian", ghost, "r:l6 dk:hai r:l2 ."), ids) == {}


def test_capital_strong_parents_weak_money(kg):
    """父兄有氣財還絕，莫若安貧 (the verse); 父兄…發動，刑沖剋害 … 財爻更弱，恐防折本 (the note)."""
    ids = "huangjince.benqian.an-pin"
    verse = {"l6": "dk:relative rel:fumu ; dk:vital true", "l2": "dk:relative rel:qicai ; dk:stage stage:jue"}
    assert fired(kg, chart("benqian", verse), ids) == {ids: APPLIES}
    assert fired(kg, chart("benqian", {**verse, "l6": "dk:relative rel:fumu ; dk:vital false"}), ids) == {}
    # the verse's 有氣 with the note's 弱 is neither span's case: the 財 無氣 but not at 絕, the 父母 still
    weak = {
        "l6": "dk:relative rel:fumu ; dk:vital true ; dk:moving false",
        "l2": "dk:relative rel:qicai ; dk:vital false",
    }
    assert fired(kg, chart("benqian", weak), ids) == {}
    # the note: the moving 兄弟 overcomes the weak 財
    note = {"l4": "dk:relative rel:xiongdi ; dk:moving true", "l2": "dk:relative rel:qicai ; dk:vital false"}
    assert fired(kg, chart("benqian", note, "r:l4 dk:ke r:l2 ."), ids) == {ids: APPLIES}
    # 財爻更弱: a vital 財 under the same blow is not
    strong = {**note, "l2": "dk:relative rel:qicai ; dk:vital true"}
    assert fired(kg, chart("benqian", strong, "r:l4 dk:ke r:l2 ."), ids) == {}


# ── the note's 如 cases, cast through the generator ─────────────────────────────────────────────


@pytest.mark.parametrize(
    ("lines", "hexagram", "line", "element"),
    [
        ("867777", "天山遯", "二爻 官鬼丙午火", "火"),  # 如火鬼忌火燭: 乾宮, line 2 丙午 moving
        ("897787", "火風鼎", "二爻 官鬼辛亥水", "水"),  # 水鬼忌盜賊: 離宮, line 2 辛亥 moving
    ],
)
def test_cast_ghost_in_the_house_by_element(kg, lines, hexagram, line, element):
    """在家求財鬼動 … 以所臨五行斷，如火鬼忌火燭，水鬼忌盜賊類 (居家, ¶44)."""
    made = chart_from_inputs(None, "庚寅 戊寅 癸亥", lines, None, None, None)
    assert made.hexagram.name == hexagram
    (hit,) = [a for a in cast(kg, lines, "居家") if a.rule_id == "huangjince.jujia.zhai-gui"]
    assert hit.status == "applies"
    assert hit.binding_labels == {"Z": line}
    assert hit.parameters == {"element": element}


def test_cast_borrowing_clothes(kg):
    """如衣服經史看父爻 (索借, ¶38): 天山遯 has 父母 丙辰 (初爻) and 壬戌 (上爻), neither void on 癸亥 (空 子丑)."""
    hits = [a for a in cast(kg, "867777", "索借衣服經史") if a.rule_id == "huangjince.suojie.wuyao"]
    assert {a.binding_labels["W"] for a in hits} == {"初爻 父母丙辰土", "上爻 父母壬戌土"}
    assert all(a.status == "applies" and a.polarity == "吉" for a in hits)


def test_cast_public_office(kg):
    """公門何慮官爻: the moving 丙午 官鬼 of 天山遯 obstructs other money, not money from office. On a 甲寅 day
    in a 寅 month nothing checks it (寅 neither overcomes, clashes nor combines 午), so the obstruction of
    ¶12 stands for other money."""
    pillars = "庚寅 戊寅 甲寅"
    in_office = {a.rule_id: a.status for a in cast(kg, "867777", "公門", pillars)}
    assert in_office["huangjince.qiucai.guan-moving"] == "overridden"
    assert in_office["huangjince.gongmen.guan-dong"] == "applies"
    elsewhere = {a.rule_id: a.status for a in cast(kg, "867777", "求財", pillars)}
    assert elsewhere["huangjince.qiucai.guan-moving"] == "applies"
    assert "huangjince.gongmen.guan-dong" not in elsewhere
