"""《黃金策》〈家宅〉 ¶48–80 (corpus/rules/huangjince-jiazhai.yaml): definitions, verse lines and worked cases.

Hand-written charts state the facts a sentence names (and a near miss for the silent case), never the
compiler's output. The worked cases of the commentary (且如天風姤卦…, 且如乾金…, 如明夷卦…, 且如木命人占得坎卦…)
are cast with the 六爻 generator and run through kg.match.retrieve: the rules the text says apply must be among
the applicable ones, bound to the lines it names. The graph is built once per module from this rule file
alone, so the rule files other people are editing do not change these results.
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

RULES = Path(__file__).resolve().parent.parent / "corpus" / "rules" / "huangjince-jiazhai.yaml"
ROLE = "https://w3id.org/divkg/concept/role/"


@pytest.fixture(scope="module")
def kg(tmp_path_factory) -> KnowledgeGraph:
    return graph_of(tmp_path_factory, RULES.name)


def chart(topic: str, body: str, links: str) -> Reading:
    """A hand-written reading of ``topic``: ``links`` are the reading's own triples (dk:line r:l2 ; …)."""
    return Reading(
        Graph().parse(
            data=f"{PREFIXES}{READING} a dk:Reading ; dk:system dk:LiuYao ; dk:topic topic:{topic} ; {links} .\n{body}"
        )
    )


def fired(kg: KnowledgeGraph, reading: Reading, ids: str) -> dict[str, set[str]]:
    """Rule id → statuses, for the rules whose id starts with one of the space-separated ``ids``."""
    result: dict[str, set[str]] = defaultdict(set)
    for a in retrieve(kg, reading):
        if a.rule_id.startswith(tuple(ids.split())):
            result[a.rule_id].add(a.status)
    return dict(result)


def roles(reading: Reading) -> dict[str, set[str]]:
    """Entity (local name) → the roles the definitions gave it, once retrieval has run on ``reading``."""
    found: dict[str, set[str]] = defaultdict(set)
    for entity, role in reading.store.query(
        f"SELECT ?e ?r WHERE {{ ?e <https://w3id.org/divkg/role> ?r FILTER(STRSTARTS(STR(?r), '{ROLE}')) }}"
    ):
        found[entity.value.rsplit("/", 1)[-1]].add(role.value.removeprefix(ROLE))
    return dict(found)


def generated(
    pillars: str, hexagram: str, moving: str | None = None, topic: str = "家宅", birth: str | None = None
) -> tuple[Reading, str]:
    """A cast through the generator (``kg reading liuyao --pillars … --hexagram …``) and its topic IRI."""
    cast_chart = chart_from_inputs(None, pillars, None, hexagram, moving, None)
    concept = vocabulary().topic(topic)
    facts = chart_graph(cast_chart, reading_iri(cast_chart), concept, {"birth": birth} if birth else None)
    return Reading(facts), str(concept)


def cast(
    kg: KnowledgeGraph, pillars: str, hexagram: str, moving: str | None = None, **inquiry: str
) -> list[Applicable]:
    """The rules that apply to a cast; ``inquiry`` may give ``topic`` and ``birth``."""
    reading, topic = generated(pillars, hexagram, moving, **inquiry)
    return [a for a in retrieve(kg, reading, topic) if a.status == "applies"]


def bound(results: list[Applicable], rule_id: str) -> list[dict[str, str]]:
    """The bindings (as chart labels) of every application of ``rule_id``."""
    return [a.binding_labels for a in results if a.rule_id == rule_id]


# ── definitions: 內卦初爻為宅基，二爻為宅舍 … 六爻為妻財 (¶48) ─────────────────────────────────────


def test_lines_of_house_and_people(kg):
    lines = " , ".join(f"r:l{i}" for i in range(1, 7))
    reading = chart(
        "jiazhai", "".join(f"r:l{i} dk:position {i} .\n" for i in range(1, 7)), f"dk:line {lines}"
    )
    retrieve(kg, reading)
    assert roles(reading) == {
        "l1": {"zhaiji"},
        "l2": {"zhai"},
        "l3": {"menwai"},
        "l4": {"fumu-wei"},
        "l5": {"xiongdi-wei"},
        "l6": {"qicai-wei"},
    }


def test_house_line_only_for_house_topics(kg):
    """The roles belong to 家宅 and what is narrower (廳堂); 功名 is not under 家宅."""
    for topic, expected in (("tingtang", {"l2": {"zhai"}}), ("gongming", {})):
        reading = chart(topic, "r:l2 dk:position 2 .", "dk:line r:l2")
        retrieve(kg, reading)
        assert roles(reading) == expected


# ── definitions: 合為門，沖為路，不論卦內之有無 (¶50) ──────────────────────────────────────────


def test_gate_and_path(kg):
    # 宅 辛亥: 寅 combines with it (the gate), 巳 clashes it (the path); here the day carries 寅, a 伏神 巳
    body = """r:l2 dk:position 2 ; dk:branch br:hai .
              r:d dk:branch br:yin ; dk:he r:l2 .
              r:h dk:branch br:si ; dk:chong r:l2 ."""
    reading = chart(
        "jiazhai", body, "dk:line r:l2 ; dk:dayPillar r:d ; dk:hiddenLine r:h ; dk:entity r:l2 , r:d , r:h"
    )
    retrieve(kg, reading)
    assert roles(reading) == {"l2": {"zhai"}, "d": {"men"}, "h": {"lu"}}


# ── definitions: 生為父，父為堂，克為官，官為廳 (¶60) ──────────────────────────────────────────


def test_halls(kg):
    body = """r:l3 dk:position 3 ; dk:relative rel:fumu .
              r:l4 dk:position 4 ; dk:relative rel:guangui .
              r:l5 dk:position 5 ; dk:relative rel:xiongdi ."""
    reading = chart("tingtang", body, "dk:line r:l3 , r:l4 , r:l5")
    retrieve(kg, reading)
    assert roles(reading) == {"l3": {"menwai", "tang"}, "l4": {"fumu-wei", "ting"}, "l5": {"xiongdi-wei"}}


# ── definitions: 官星即甲見辛類是也 (¶52), 官星乃甲用辛為官 (¶78) ───────────────────────────────────


@pytest.mark.parametrize(("topic", "day_stem", "line_stem", "officer"), [
    ("jiazhai", "jia", "xin", True),  # 甲 sees 辛
    ("gongming", "bing", "gui", True),  # 丙 sees 癸 (類)
    ("gongming", "jia", "geng", False),  # 庚 is 甲's 七殺, not its 官
])  # fmt: skip
def test_officer_star(kg, topic, day_stem, line_stem, officer):
    body = f"r:d dk:stem stem:{day_stem} .\nr:l5 dk:position 5 ; dk:stem stem:{line_stem} ."
    reading = chart(topic, body, "dk:line r:l5 ; dk:dayPillar r:d")
    retrieve(kg, reading)
    assert ("guanxing" in roles(reading).get("l5", set())) is officer


# ── 家宅 verse lines on hand-written charts ────────────────────────────────────────────────


@pytest.mark.parametrize(("inner", "outer", "expected"), [
    ("zhen", "li", {"huangjince.jiazhai.house-feeds-people": {"applies"}}),  # 木生火
    ("li", "qian", {"huangjince.jiazhai.house-harms-people": {"applies"}}),  # 火克金
    ("qian", "kun", {}),  # 土生金: the people feed the house, which the text does not judge
])  # fmt: skip
def test_house_and_people(kg, inner, outer, expected):
    """故要知人宅之興衰，當察卦爻之內外。內為宅，外為人 (¶48)."""
    reading = chart(
        "jiazhai",
        f"r:p dk:innerTrigram tri:{inner} ; dk:outerTrigram tri:{outer} .",
        "dk:primaryHexagram r:p",
    )
    assert fired(kg, reading, "huangjince.jiazhai.house-") == expected


@pytest.mark.parametrize(("state", "fires"), [("wang", True), ("xiang", True), ("xiu", False)])
def test_dragon_and_noble_riding_strength(kg, state, fires):
    """龍德貴人乘旺，嶽嶽之侯門 (¶52): on the 宅 line."""
    body = f"r:l2 dk:position 2 ; dk:beast beast:qinglong ; dk:seasonalState state:{state} ."
    expected = {"huangjince.jiazhai.houmen": {"applies"}} if fires else {}
    assert fired(kg, chart("jiazhai", body, "dk:line r:l2"), "huangjince.jiazhai.houmen") == expected


def test_moving_dragon_new_or_renovated(kg):
    """門庭新氣象，重交得合青龍 (¶54), and its note's 生旺在休囚之中 (the exception)."""
    line = """r:l4 dk:position 4 ; dk:beast beast:qinglong ; dk:moving true ; dk:inDayXun {xun} ;
              dk:stage stage:changsheng ; dk:seasonalState state:{state} ; dk:relative rel:fumu ."""
    ids = "huangjince.jiazhai.qinglong"

    def reading(xun: str, state: str) -> Reading:
        return chart("jiazhai", line.format(xun=xun, state=state), "dk:line r:l4")

    assert fired(kg, reading("true", "wang"), ids) == {
        "huangjince.jiazhai.qinglong-new": {"applies"},
        "huangjince.jiazhai.qinglong-part.fu": {"applies"},  # 臨父新修舊堂
    }
    assert fired(kg, reading("true", "qiu"), ids) == {
        "huangjince.jiazhai.qinglong-new": {"overridden"},
        "huangjince.jiazhai.qinglong-renovated": {"applies"},
        "huangjince.jiazhai.qinglong-part.fu": {"applies"},
    }
    assert fired(kg, reading("false", "wang"), ids) == {}  # 旬外


@pytest.mark.parametrize(("stage", "state", "vital", "expected"), [
    ("si", "qiu", "false", "huangjince.jiazhai.baihu-old"),  # 休囚, 絕無生旺
    ("diwang", "qiu", "true", "huangjince.jiazhai.baihu-rebuilt"),  # 休囚在生旺之中
])  # fmt: skip
def test_white_tiger_on_house(kg, stage, state, vital, expected):
    """堂宇舊規模，宅舍重侵白虎 (¶54)."""
    body = f"""r:l2 dk:position 2 ; dk:beast beast:baihu ; dk:moving true ; dk:inDayXun false ;
               dk:stage stage:{stage} ; dk:seasonalState state:{state} ; dk:vital {vital} ."""
    ids = "huangjince.jiazhai.baihu-old huangjince.jiazhai.baihu-rebuilt"
    assert fired(kg, chart("jiazhai", body, "dk:line r:l2"), ids) == {expected: {"applies"}}
    # the same moving 白虎 on line 3 is not on the 宅
    assert (
        fired(kg, chart("jiazhai", body.replace("dk:position 2", "dk:position 3"), "dk:line r:l2"), ids) == {}
    )


@pytest.mark.parametrize(("fact", "rule"), [
    ("dk:transformation change:hua-kong", "huangjince.jiazhai.baihu-void"),  # 化空移高就低
    ("dk:element el:water", "huangjince.jiazhai.baihu-water"),  # 水爻池塘填也
])  # fmt: skip
def test_white_tiger_void_and_water(kg, fact, rule):
    """化空移高就低，水爻池塘填也 (¶54): the moving 白虎 on the 宅 outside the 旬 and 休囚, of both tiger cases."""
    body = f"""r:l2 dk:position 2 ; dk:beast beast:baihu ; dk:moving true ; dk:inDayXun false ;
               dk:stage stage:si ; dk:seasonalState state:qiu ; dk:vital false ; {fact} ."""
    assert fired(kg, chart("jiazhai", body, "dk:line r:l2"), rule) == {rule: {"applies"}}
    # the same tiger 旺 in the month, or in the day's 旬
    wang = body.replace("state:qiu", "state:wang").replace("dk:vital false", "dk:vital true")
    assert fired(kg, chart("jiazhai", wang, "dk:line r:l2"), rule) == {}
    inside = body.replace("dk:inDayXun false", "dk:inDayXun true")
    assert fired(kg, chart("jiazhai", inside, "dk:line r:l2"), rule) == {}


@pytest.mark.parametrize(("relative", "polarity"), [("xiongdi", "中"), ("guangui", "凶"), ("qicai", "凶")])
def test_white_tiger_part(kg, relative, polarity):
    """若臨兄舊門戶 … 臨官階除破損 … 臨財舊廚庭，或破古戶牖低土地 (¶54): which part, for the moving 白虎 on the 宅
    outside the 旬 in both its cases (休囚 utterly without 生旺, 休囚 at 帝旺), as the 青龍 list goes with both 青龍
    cases; an old part is described (中), broken steps or windows are a harm (凶)."""
    ids = "huangjince.jiazhai.baihu-part"
    for stage, vital in (("si", "false"), ("diwang", "true")):
        body = f"""r:l2 dk:position 2 ; dk:beast beast:baihu ; dk:moving true ; dk:inDayXun false ;
                   dk:relative rel:{relative} ; dk:stage stage:{stage} ; dk:seasonalState state:qiu ; dk:vital {vital} ."""
        found = [a for a in retrieve(kg, chart("jiazhai", body, "dk:line r:l2")) if a.rule_id.startswith(ids)]
        assert [(a.status, a.polarity) for a in found] == [("applies", polarity)]
        # the 白虎 in the day's 旬
        inside = body.replace("dk:inDayXun false", "dk:inDayXun true")
        assert fired(kg, chart("jiazhai", inside, "dk:line r:l2"), ids) == {}


@pytest.mark.parametrize(("link", "fires"), [("dk:line", True), ("dk:hiddenLine", False)])
def test_void_parents_rented_house(kg, link, fires):
    """父母空房，租賃之宅 (¶56): a void 父母 line; the text names no hidden one."""
    body = "r:f dk:relative rel:fumu ; dk:void true ."
    ids = "huangjince.jiazhai.rented"
    assert fired(kg, chart("jiazhai", body, f"{link} r:f"), ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(("facts", "fires"), [
    ("dk:shensha star:tianyi ; dk:stage stage:changsheng ; dk:seasonalState state:xiu", True),  # 乘…長生之位
    ("dk:shensha star:tianyi ; dk:stage stage:shuai ; dk:seasonalState state:wang", False),  # 旺 of the month only
    ("dk:relative rel:qicai ; dk:stage stage:shuai ; dk:seasonalState state:wang", True),  # 財鬼龍旺
])  # fmt: skip
def test_noble_at_birth_or_peak_lively_house(kg, facts, fires):
    """門庭熱鬧，財官臨帝旺之鄉 (¶58): 財鬼龍德貴人，乘旺長生之位 names 德 and 貴人 at the stages 帝旺 and 長生; 財鬼龍旺,
    旺相 in the month, names 財, 鬼 and 龍 alone, so a 貴人 on the 世 that is only 旺 in the month is no 熱鬧."""
    ids = "huangjince.jiazhai.lively"
    body = f"r:l5 dk:position 5 ; dk:role role:shi ; {facts} ."
    assert fired(kg, chart("jiazhai", body, "dk:line r:l5"), ids) == ({ids: {"applies"}} if fires else {})


def test_shi_and_day_overcome_house(kg):
    """世與日辰克宅，破祖不寧 (¶64)."""
    body = """r:l2 dk:position 2 . r:l5 dk:position 5 ; dk:role role:shi ; dk:ke r:l2 .
              r:d dk:pillarKind pillar:day ; dk:ke r:l2 ."""
    links = "dk:line r:l2 , r:l5 ; dk:dayPillar r:d"
    ids = "huangjince.jiazhai.ruin-ancestral"
    assert fired(kg, chart("jiazhai", body, links), ids) == {ids: {"applies"}}
    alone = body.replace(
        "r:d dk:pillarKind pillar:day ; dk:ke r:l2", "r:d dk:pillarKind pillar:day ; dk:sheng r:l2"
    )
    assert fired(kg, chart("jiazhai", alone, links), ids) == {}  # 世 alone, the day generates the 宅


@pytest.mark.parametrize(("natal_void", "tiger", "expected"), [
    ("true", False, {"huangjince.jiazhai.two-voids": {"applies"}}),
    ("true", True, {"huangjince.jiazhai.two-voids": {"applies"}, "huangjince.jiazhai.two-voids-great-sha": {"applies"}}),
    ("false", True, {}),  # void in the day's 旬 only
])  # fmt: skip
def test_house_doubly_void(kg, natal_void, tiger, expected):
    """宅遇兩空，荒閒虛廢 (¶66); 白虎刑刃…大殺主大凶 on the same 宅."""
    beast = " ; dk:beast beast:baihu" if tiger else ""
    body = f"r:l2 dk:position 2 ; dk:void true ; dk:natalVoid {natal_void}{beast} ."
    assert fired(kg, chart("jiazhai", body, "dk:line r:l2"), "huangjince.jiazhai.two-voids") == expected


def test_house_doubly_void_punished_by_the_hour(kg):
    """白虎刑刃 … 大殺主大凶 (¶66): the 刑 names no agent, so any pillar punishing the doubly void 宅 counts, the
    hour's too."""
    body = """r:l2 dk:position 2 ; dk:void true ; dk:natalVoid true .
              r:h dk:pillarKind pillar:hour ; dk:xing r:l2 ."""
    links = "dk:line r:l2 ; dk:hourPillar r:h ; dk:pillar r:h ; dk:entity r:l2 , r:h"
    ids = "huangjince.jiazhai.two-voids-great-sha"
    assert fired(kg, chart("jiazhai", body, links), ids) == {ids: {"applies"}}
    assert fired(kg, chart("jiazhai", body.replace("dk:xing", "dk:sheng"), links), ids) == {}


def test_wealth_without_ghost(kg):
    """有財無鬼，耗散多端 (¶72)."""
    body = "r:l3 dk:position 3 ; dk:relative rel:qicai .\nr:p dk:absentRelative rel:guangui ."
    ids = "huangjince.jiazhai.wealth-no-ghost"
    assert fired(kg, chart("jiazhai", body, "dk:line r:l3 ; dk:primaryHexagram r:p"), ids) == {
        ids: {"applies"}
    }
    present = body.replace("rel:guangui", "rel:fumu")
    assert fired(kg, chart("jiazhai", present, "dk:line r:l3 ; dk:primaryHexagram r:p"), ids) == {}


def test_ghost_without_wealth_and_its_restraint(kg):
    """有鬼無財，災生不已; 有人制鬼，鬼動無妨 (¶72): the 本命 overcoming the moving ghost cancels the harm."""
    body = """r:l5 dk:position 5 ; dk:role role:shi .
              r:l3 dk:position 3 ; dk:relative rel:guangui ; dk:moving true ; dk:ke r:l5 .
              r:p dk:absentRelative rel:qicai ."""
    links = "dk:line r:l3 , r:l5 ; dk:primaryHexagram r:p"
    ids = "huangjince.jiazhai.ghost-"
    assert fired(kg, chart("jiazhai", body, links), ids) == {
        "huangjince.jiazhai.ghost-no-wealth": {"applies"}
    }
    restrained = chart("jiazhai", body + "r:n dk:ke r:l3 .", links + " ; dk:birthSpirit r:n")
    assert fired(kg, restrained, ids) == {
        "huangjince.jiazhai.ghost-no-wealth": {"overridden"},
        "huangjince.jiazhai.ghost-restrained": {"applies"},
    }
    still = body.replace("dk:moving true", "dk:moving false")
    assert fired(kg, chart("jiazhai", still, links), ids) == {}


@pytest.mark.parametrize(
    ("moving_cai", "ghost", "fires"), [(2, True, True), (1, True, False), (2, False, False)]
)
def test_ghost_helped_by_moving_wealth(kg, moving_cai, ghost, fires):
    """鬼有助而無制，鬼旺人衰 (¶70): 卦無子孫財爻兩動, and a 官鬼 line for them to feed."""
    body = "r:p dk:absentRelative rel:zisun .\n" + "".join(
        f"r:l{i} dk:position {i} ; dk:relative rel:qicai ; dk:moving {str(i <= moving_cai).lower()} .\n"
        for i in (1, 2)
    )
    body += f"r:l4 dk:position 4 ; dk:relative rel:{'guangui' if ghost else 'fumu'} .\n"
    ids = "huangjince.jiazhai.ghost-helped-by-wealth"
    reading = chart("jiazhai", body, "dk:line r:l1 , r:l2 , r:l4 ; dk:primaryHexagram r:p")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(
    ("moving", "day_generates", "month_clashes", "fires"),
    [(1, False, False, True), (0, True, False, True), (0, False, False, False), (1, True, True, False)],
)
def test_house_rises_when_a_pillar_or_a_moving_line_generates_it(
    kg, moving, day_generates, month_clashes, fires
):
    """歲月日三破不臨宅爻，更逢三件動爻生宅爻，與財爻旺相有氣，為宅興財旺 (¶70): 三件 takes up the 歲月日, so a moving
    line or the day generating the 宅 (二爻) is enough; three moving lines could never be, since lines generating
    the 宅 share a 五行 and no hexagram has three lines of one 五行 (tests/test_liuyao_hexagrams.py)."""
    body = "r:l2 dk:position 2 ; dk:element el:fire .\n" + "".join(
        f"r:l{i} dk:position {i} ; dk:element el:wood ; dk:moving {str(n < moving).lower()} ; dk:sheng r:l2 .\n"
        for n, i in enumerate((1, 4))
    )
    body += "r:l5 dk:position 5 ; dk:relative rel:qicai ; dk:seasonalState state:wang .\n"
    body += "r:d dk:pillarKind pillar:day" + (" ; dk:sheng r:l2" if day_generates else "") + " .\n"
    body += "r:m dk:pillarKind pillar:month" + (" ; dk:chong r:l2" if month_clashes else "") + " .\n"
    links = "dk:line r:l1 , r:l2 , r:l4 , r:l5 ; dk:pillar r:d , r:m ; dk:entity r:l1 , r:l4 , r:d , r:m"
    ids = "huangjince.jiazhai.house-rises"
    assert fired(kg, chart("jiazhai", body, links), ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(
    ("star", "overcome", "fires"),
    [("sangmen", "r:n", True), ("diaoke", "r:n", True), ("tianxi", "r:n", False), ("sangmen", "r:l4", False)],
)
def test_tiger_ghost_on_mourning_star(kg, star, overcome, fires):
    """忌鬼爻交重臨白虎 (¶74): the note adds 值喪門弔客, and its 克身之鬼 overcomes the 本命 (本命受鬼克為傷身,
    ¶76), not the 卦身."""
    body = f"""r:l4 dk:position 4 ; dk:role role:guashen .
               r:l2 dk:position 2 ; dk:relative rel:guangui ; dk:moving true ; dk:beast beast:baihu ;
                    dk:ke {overcome} ; dk:shensha star:{star} ."""
    ids = "huangjince.jiazhai.tiger-ghost"
    reading = chart("jiazhai", body, "dk:line r:l2 , r:l4 ; dk:birthSpirit r:n")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(
    ("element", "vital", "fires"),
    [("wood", "false", True), ("wood", "true", False), ("earth", "false", False)],
)
def test_snake_on_weak_wooden_house(kg, element, vital, fires):
    """木臨無氣之螣蛇，宅舍茅簷蓬戶 (¶70)."""
    body = f"r:l2 dk:position 2 ; dk:element el:{element} ; dk:beast beast:tengshe ; dk:vital {vital} ."
    ids = "huangjince.jiazhai.thatched-hut"
    assert fired(kg, chart("jiazhai", body, "dk:line r:l2"), ids) == ({ids: {"applies"}} if fires else {})


def test_house_combines_with_xuanwu(kg):
    """宅合有情之玄武，門庭柳陌花街 (¶70): with a moving 桃花 line."""
    body = """r:l2 dk:position 2 . r:l5 dk:position 5 ; dk:beast beast:xuanwu ; dk:he r:l2 .
              r:l6 dk:position 6 ; dk:shensha star:taohua ; dk:moving {moving} ."""
    ids = "huangjince.jiazhai.willow-lanes"
    links = "dk:line r:l2 , r:l5 , r:l6"
    assert fired(kg, chart("jiazhai", body.format(moving="true"), links), ids) == {ids: {"applies"}}
    assert fired(kg, chart("jiazhai", body.format(moving="false"), links), ids) == {}


def test_shi_on_the_house_branch(kg):
    """世臨外宅，離祖分居…動則離祖分居，不動則主偏宅 (¶68)."""
    body = """r:l2 dk:position 2 ; dk:branch br:chou ; dk:bing r:l4 .
              r:l4 dk:position 4 ; dk:branch br:chou ; dk:role role:shi ; dk:moving {moving} ."""
    ids = "huangjince.jiazhai.shi-outer-house"
    links = "dk:line r:l2 , r:l4"
    assert fired(kg, chart("jiazhai", body.format(moving="true"), links), ids) == {
        f"{ids}.moving": {"applies"}
    }
    assert fired(kg, chart("jiazhai", body.format(moving="false"), links), ids) == {
        f"{ids}.still": {"applies"}
    }
    apart = body.format(moving="true").replace("dk:bing r:l4", "dk:chong r:l4")
    assert fired(kg, chart("jiazhai", apart, links), ids) == {}


@pytest.mark.parametrize(
    ("house", "day", "fires"),
    [
        ("dk:moving true", "", True),
        ("dk:moving false ; dk:bing r:d", "dk:bing r:l2", True),
        ("dk:moving false", "", False),
    ],
)
def test_house_site_exchanged_with_an_outsider(kg, house, day, fires):
    """應臨之爻在宅，宅臨之爻在應，並日辰動爻易換外人基地 (¶62): the 應 has the 宅's branch, and the 宅 has the day's
    branch or moves; another moving line with the 宅's branch (line 6) is not 並日辰動爻."""
    body = f"""r:l2 dk:position 2 ; dk:branch br:hai ; dk:bing r:l5 , r:l6 ; {house} .
               r:l5 dk:position 5 ; dk:branch br:hai ; dk:role role:ying ; dk:bing r:l2 , r:l6 .
               r:l6 dk:position 6 ; dk:branch br:hai ; dk:moving true ; dk:bing r:l2 , r:l5 .
               r:d dk:pillarKind pillar:day {"; " + day if day else ""} ."""
    ids = "huangjince.jiazhai.site-exchange-outsider"
    links = "dk:line r:l2 , r:l5 , r:l6 ; dk:dayPillar r:d ; dk:entity r:l2 , r:l5 , r:l6 , r:d"
    assert fired(kg, chart("zhaiji", body, links), ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(("ying_relative", "fires"), [("xiongdi", True), ("zisun", False)])
def test_shi_and_ying_brothers_share_a_gate(kg, ying_relative, fires):
    """世應比和，一合兩般門扇 (¶62): no chart has 世 and 應 both 兄弟 combining with the 宅, so the sentence is
    offered to consider where the verse's 比和 holds as the note glosses it, 世 and 應 both 兄弟; the 世 alone
    combining with the 宅 is not 世應比和."""
    body = f"""r:l2 dk:position 2 .
               r:l3 dk:position 3 ; dk:role role:shi ; dk:relative rel:xiongdi ; dk:he r:l2 .
               r:l6 dk:position 6 ; dk:role role:ying ; dk:relative rel:{ying_relative} ."""
    ids = "huangjince.jiazhai.two-doors"
    reading = chart("menhu", body, "dk:line r:l2 , r:l3 , r:l6")
    assert fired(kg, reading, ids) == ({ids: {"consider"}} if fires else {})


# ── 功名 verse lines (¶78–80) ─────────────────────────────────────────────────────────────

OFFICER = "r:d dk:stem stem:jia .\nr:l4 dk:position 4 ; dk:stem stem:xin ; "
"""A 甲 day and a 辛 line: the 官星 (甲見辛)."""


@pytest.mark.parametrize(
    ("relative", "star", "offered"),
    [("fumu", "tianyi", True), ("xiongdi", "tianyi", True), ("fumu", "lu", False)],
)
def test_officer_wears_seal_in_jade_hall(kg, relative, star, offered):
    """官星佩印居玉堂，乃食祿之人 (¶78): 玉堂乃天乙貴人, but 印乃三傳之印緩 puts the seal among the 三傳 and 佩 says
    not how the 官星 wears it, so the verse is offered to consider on the 官星 in the 玉堂, whatever its 六親."""
    body = OFFICER + f"dk:relative rel:{relative} ; dk:shensha star:{star} ."
    ids = "huangjince.gongming.eats-emolument"
    links = "dk:line r:l4 ; dk:dayPillar r:d"
    assert fired(kg, chart("gongming", body, links), ids) == ({ids: {"consider"}} if offered else {})


def test_office_rank_by_the_month(kg):
    """親月建外郡官，親日辰縣宰官 (¶78): 親 is not defined (read as 並 the day's half holds on no chart), so both are
    offered to consider on a 官星 (甲見辛) line, whether or not it has the month's branch."""
    body = OFFICER + "dk:branch br:wei .\nr:m dk:pillarKind pillar:month ; dk:bing r:l4 ."
    month, day = "huangjince.gongming.office-rank", "huangjince.gongming.office-rank-day"
    links = "dk:line r:l4 ; dk:dayPillar r:d ; dk:monthPillar r:m ; dk:pillar r:d , r:m"
    both = {month: {"consider"}, day: {"consider"}}
    assert fired(kg, chart("gongming", body, links), month) == both
    assert fired(kg, chart("gongming", body.replace(" ; dk:bing r:l4", ""), links), month) == both
    # a 庚 line on a 甲 day is the 七殺, not the 官星: nothing to offer
    assert fired(kg, chart("gongming", body.replace("stem:xin", "stem:geng"), links), month) == {}


def test_seal_among_the_three_pillars(kg):
    """有印無祿，有官無俸，有官無印，有祿無任人 (¶78): the note glosses its 印 itself, 印乃三傳之印緩, the 印 among
    the year, month and day, so the seal is a 父母 pillar, not a 父母 line."""
    body = OFFICER + "dk:relative rel:xiongdi .\nr:l2 dk:position 2 ; dk:relative rel:fumu .\n{month}"
    links = "dk:line r:l2 , r:l4 ; dk:dayPillar r:d ; dk:monthPillar r:m ; dk:pillar r:d , r:m"
    ids = "huangjince.gongming.office-without"
    seal = body.format(month="r:m dk:pillarKind pillar:month ; dk:relative rel:fumu .")
    assert fired(kg, chart("gongming", seal, links), ids) == {ids + ".no-lu": {"applies"}}
    # a 父母 line but no 父母 among the pillars: an office without a seal
    no_seal = body.format(month="r:m dk:pillarKind pillar:month ; dk:relative rel:qicai .")
    assert fired(kg, chart("gongming", no_seal, links), ids) == {ids + ".no-yin": {"applies"}}


def test_favour_then_disgrace_needs_the_golden_gate(kg):
    """命登金門而步玉堂之人，身命受制，主先寵後辱 (¶78): the favour is that man's, so the sentence is text only
    with the description's trigger (官, 貴人, 祿, 印綬 and the year generating the 身) and the 身 overcome. 有印綬 is
    the gloss's 印乃三傳之印緩: a 父母 among the year, month and day, not a 父母 line."""
    hurt = """r:l1 dk:position 1 ; dk:role role:guashen .  r:y dk:sheng r:l1 .
              r:l2 dk:position 2 ; dk:moving true ; dk:ke r:l1 .
              r:m dk:pillarKind pillar:month ; dk:relative rel:{month} ."""
    golden = OFFICER + "dk:relative rel:fumu ; dk:shensha star:tianyi , star:lu .\n" + hurt
    links = "dk:line r:l1 , r:l2 , r:l4 ; dk:entity r:l2 ; dk:dayPillar r:d ; dk:yearPillar r:y ; dk:monthPillar r:m"
    links += " ; dk:pillar r:d , r:m , r:y"
    ids = "huangjince.gongming.golden-gate huangjince.gongming.favour-then-disgrace"
    assert fired(kg, chart("gongming", golden.format(month="fumu"), links), ids) == {
        "huangjince.gongming.golden-gate": {"consider"},
        "huangjince.gongming.favour-then-disgrace": {"consider"},
    }
    # the 官星 line itself is 父母, but no pillar is: no 印綬 among the 三傳
    assert fired(kg, chart("gongming", golden.format(month="qicai"), links), ids) == {}
    # a 身 overcome by a moving line, with none of the description, is no fall from favour
    bare = chart(
        "gongming", hurt.format(month="fumu"), "dk:line r:l1 , r:l2 ; dk:entity r:l2 ; dk:yearPillar r:y"
    )
    assert fired(kg, bare, ids) == {}


def test_favour_then_disgrace_by_the_hour(kg):
    """身命受制，主先寵後辱 (¶78): the agent left out of 受制 is a pillar or a moving line, any of the four pillars
    (CONVENTIONS General 5), so the hour overcoming the 卦身 offers the fall too; the year, month and day alone are
    the 三傳 of the description's 印綬."""
    hurt = """r:l1 dk:position 1 ; dk:role role:guashen .  r:y dk:sheng r:l1 .
              r:l2 dk:position 2 .
              r:m dk:pillarKind pillar:month ; dk:relative rel:fumu .
              r:h dk:pillarKind pillar:hour {by_hour}."""
    golden = OFFICER + "dk:relative rel:fumu ; dk:shensha star:tianyi , star:lu .\n" + hurt
    links = "dk:line r:l1 , r:l2 , r:l4 ; dk:entity r:h ; dk:dayPillar r:d ; dk:yearPillar r:y ; dk:monthPillar r:m"
    links += " ; dk:hourPillar r:h ; dk:pillar r:d , r:m , r:y , r:h"
    ids = "huangjince.gongming.favour-then-disgrace"
    assert fired(kg, chart("gongming", golden.format(by_hour="; dk:ke r:l1 "), links), ids) == {
        ids: {"consider"}
    }
    # the hour overcoming nothing, and no moving line: the 身 is not restrained
    assert fired(kg, chart("gongming", golden.format(by_hour=""), links), ids) == {}


def test_noble_blade_punishment_horse(kg):
    """貴刃加刑控寶馬，必提兵之將 (¶78): kept as text (no 羊刃 table puts the 刃 on a 貴人 branch of its stem); a
    貴人 line, the 刃 in a 三刑 and generated by the year (刃加三刑 … 受太歲之生), and 驛馬 on another line
    (旁爻有馬) offer it for consideration."""
    body = """r:l2 dk:position 2 ; dk:shensha star:tianyi .
              r:l3 dk:position 3 ; dk:shensha star:yangren .
              r:x dk:xing r:l3 .  r:y dk:sheng r:l3 .
              r:l5 dk:position 5 ; dk:shensha star:yima ."""
    links = "dk:line r:l2 , r:l3 , r:l5 ; dk:entity r:x ; dk:yearPillar r:y"
    ids = "huangjince.gongming.general"
    assert fired(kg, chart("gongming", body, links), ids) == {ids: {"consider"}}
    unpunished = body.replace("r:x dk:xing r:l3 .", "")  # the 刃 without 三刑
    assert fired(kg, chart("gongming", unpunished, links), ids) == {}
    # the year generates the 貴人, not the 刃
    noble_fed = body.replace("r:y dk:sheng r:l3", "r:y dk:sheng r:l2")
    assert fired(kg, chart("gongming", noble_fed, links), ids) == {}
    # 旁爻有馬: the horse on the 貴人's own line is not beside it
    horse_on_noble = body.replace("dk:shensha star:tianyi .", "dk:shensha star:tianyi , star:yima .").replace(
        "r:l5 dk:position 5 ; dk:shensha star:yima .", "r:l5 dk:position 5 ."
    )
    assert fired(kg, chart("gongming", horse_on_noble, links), ids) == {}


@pytest.mark.parametrize(
    ("changed_to", "ghost", "fires"),
    [("zisun", "guangui", True), ("fumu", "guangui", False), ("zisun", "fumu", False)],
)
def test_wealth_changing_into_zisun(kg, changed_to, ghost, fires):
    """財化福爻，入公門多致淹留 (¶80): 子孫制鬼, so a 官鬼 on the lines, which the changed 子孫 restrains."""
    body = f"""r:l1 dk:position 1 ; dk:relative rel:qicai ; dk:moving true ; dk:changesTo r:c1 .
               r:c1 dk:position 1 ; dk:relative rel:{changed_to} .
               r:l4 dk:position 4 ; dk:relative rel:{ghost} ."""
    ids = "huangjince.gongming.wealth-to-zisun"
    reading = chart("gongming", body, "dk:line r:l1 , r:l4 ; dk:changedLine r:c1")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


@pytest.mark.parametrize(("member", "fires"), [("r:d", True), ("r:l3", False)])
def test_day_three_harmony_no_first_rank(kg, member, fires):
    """日辰三合，得財爻而無上選，子孫為元祿 (¶80): 上選 and 元祿 are undefined, so the 三合 the day completes is offered
    to consider; a frame of lines alone is no 日辰三合."""
    body = f"""r:j dk:frameKind frame:complete ; dk:relative rel:qicai ; dk:member r:l1 , r:l2 , {member} .
               r:l1 dk:position 1 . r:l2 dk:position 2 . r:l3 dk:position 3 . r:d dk:pillarKind pillar:day ."""
    ids = "huangjince.gongming.san-he-shang-xuan"
    reading = chart("gongming", body, "dk:line r:l1 , r:l2 , r:l3 ; dk:frame r:j ; dk:dayPillar r:d")
    assert fired(kg, reading, ids) == ({ids: {"consider"}} if fires else {})


@pytest.mark.parametrize(("shi_star", "fires"), [("tianyi", True), ("yima", False)])
def test_noble_seal_and_officer(kg, shi_star, fires):
    """貴印加官，在仕途必然遷轉 (¶80): the 官星 with 印, moving in the 旬, 貴人 on the 世."""
    body = (
        OFFICER
        + f"""dk:relative rel:fumu ; dk:moving true ; dk:inDayXun true .
              r:l1 dk:position 1 ; dk:role role:shi ; dk:shensha star:{shi_star} ."""
    )
    ids = "huangjince.gongming.transfer"
    reading = chart("gongming", body, "dk:line r:l1 , r:l4 ; dk:dayPillar r:d")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


# ── worked cases, cast with the generator ─────────────────────────────────────────────────
PILLARS = "壬辰 壬子 戊午"
"""A moment whose pillars carry neither 寅 nor 巳 (the gate and path of the 亥 宅), and no 辛 day stem."""


def test_gou_gate_and_path_not_in_the_hexagram(kg):
    """¶50 且如天風姤卦二爻，辛亥水為宅，寅與亥合以寅為門，已亥相沖以巳為路，卦內本無寅巳."""
    reading, topic = generated(PILLARS, "姤")
    results = retrieve(kg, reading, topic)
    gate = [a for a in results if a.rule_id == "huangjince.jiazhai.men-lu-branches"]
    assert [a.binding_labels for a in gate] == [{"Z": "二爻 子孫辛亥水"}]
    assert {k: v.split()[0] for k, v in gate[0].parameters.items()} == {"gate": "寅", "road": "巳"}
    on_lines = reading.store.query(
        "SELECT ?l WHERE { ?x <https://w3id.org/divkg/line> ?l . ?l <https://w3id.org/divkg/role> ?r"
        f" FILTER(?r IN (<{ROLE}men>, <{ROLE}lu>)) }}"
    )
    assert list(on_lines) == []  # 卦內本無寅巳
    hidden = reading.store.query(
        "SELECT ?h WHERE { ?x <https://w3id.org/divkg/hiddenLine> ?h . ?h <https://w3id.org/divkg/role>"
        f" <{ROLE}men> ; <https://w3id.org/divkg/branch> <https://w3id.org/divkg/concept/branch/yin> }}"
    )
    assert len(list(hidden)) == 1  # 二爻不明: the 寅 is the 伏神 (妻財甲寅木) under line 2
    # 見姤屬金，以寅木為財，巳火為鬼 … 此亦吉凶相半之兆: kept as text, offered for consideration
    hint = [a for a in results if a.rule_id == "huangjince.jiazhai.gate-wealth-road-ghost"]
    assert [(a.status, a.polarity) for a in hint] == [("consider", "吉凶參半")]


def test_qian_halls_with_the_day(kg):
    """¶60 且如乾金土為父為堂，火鬼為廳，帶日辰交重，主更改再換: 乾為天, 甲辰 moving on a 辰 day."""
    results = cast(kg, "壬辰 壬子 甲辰", "乾", "3", topic="廳堂")
    assert bound(results, "huangjince.jiazhai.halls-rebuilt") == [{"D": "日辰 甲辰", "L": "三爻 父母甲辰土"}]


def test_xun_gate_and_path_cut_off(kg):
    """¶62 且如巽卦辛亥水為宅，以寅合為門，以巳沖為路，日辰與動爻臨卯辰二位隔斷 … 偏門戶，曲折: a 辰 day, 辛卯 moving."""
    results = cast(kg, "壬辰 壬子 甲辰", "巽", "6", topic="門戶")
    assert bound(results, "huangjince.jiazhai.gate-cut-off") == [
        {"D": "日辰 甲辰", "M": "上爻 兄弟辛卯木", "Z": "二爻 父母辛亥水"}
    ]
    (gate,) = [a for a in results if a.rule_id == "huangjince.jiazhai.men-lu-branches"]
    assert {k: v.split()[0] for k, v in gate.parameters.items()} == {"gate": "寅", "road": "巳"}


@pytest.mark.parametrize(("day", "fires"), [("chen", True), ("wu", False)])
def test_gate_and_path_cut_off_by_the_day(kg, day, fires):
    """門路與日辰隔斷 (¶62), 日辰與動爻臨卯辰二位隔斷: the day is one of the two that cut; moving lines on 卯 and on 辰
    with the day elsewhere do not cut the 亥 宅's gate 寅 from its path 巳."""
    body = f"""r:l2 dk:position 2 ; dk:branch br:hai .
               r:l4 dk:position 4 ; dk:branch br:chen ; dk:moving true .
               r:l6 dk:position 6 ; dk:branch br:mao ; dk:moving true .
               r:d dk:pillarKind pillar:day ; dk:branch br:{day} ."""
    ids = "huangjince.jiazhai.gate-cut-off"
    reading = chart("menhu", body, "dk:line r:l2 , r:l4 , r:l6 ; dk:dayPillar r:d ; dk:pillar r:d")
    assert fired(kg, reading, ids) == ({ids: {"applies"}} if fires else {})


def test_mingyi_shi_on_the_house_branch(kg):
    """¶68 如明夷卦二爻己丑為宅，世臨四爻，發為世臨外宅."""
    results = cast(kg, PILLARS, "明夷", "4")
    assert bound(results, "huangjince.jiazhai.shi-outer-house.moving") == [
        {"S": "四爻 官鬼癸丑土", "Z": "二爻 官鬼己丑土"}
    ]


def test_li_to_gou_shi_of_the_changed_hexagram(kg):
    """¶68 又如離姤卦己丑為宅，外卦世在辛丑，亦為世臨外宅: 離 changing into 姤, whose 世 (line 1) is 辛丑."""
    results = cast(kg, PILLARS, "離", "1 2 5")
    hits = bound(results, "huangjince.jiazhai.shi-outer-house.moving")
    assert [(h["Z"], h["C"]) for h in hits] == [("二爻 子孫己丑土", "變 子孫辛丑土 (初爻)")]


def test_xu_to_zhun_shi_of_the_changed_hexagram_on_the_house(kg):
    """¶68 外宅 is another place than the 宅's own: 水天需 moving lines 2 and 3 becomes 水雷屯, whose 世 is the changed
    line 2 庚寅, the 宅's branch (需's 甲寅) on the 宅 itself; 需's own 世 (line 4 戊申) is another branch."""
    results = cast(kg, PILLARS, "需", "2 3")
    assert bound(results, "huangjince.jiazhai.shi-outer-house.moving") == []
    assert bound(results, "huangjince.jiazhai.shi-outer-house.still") == []


def test_pi_to_cui_still_shi_of_the_changed_hexagram_on_the_house(kg):
    """¶68 不動則主偏宅 needs a 世 off the 宅's place: 天地否 moving line 6 becomes 澤地萃 (兌宮 二世), whose 世 is line 2
    乙巳, the unmoved 宅 乙巳 itself; 否's own 世 (line 3 乙卯) is another branch."""
    results = cast(kg, PILLARS, "否", "6")
    assert bound(results, "huangjince.jiazhai.shi-outer-house.still") == []
    assert bound(results, "huangjince.jiazhai.shi-outer-house.moving") == []


def test_qian_to_gen_still_shi_of_the_changed_hexagram(kg):
    """¶68 不動則主偏宅, with the 變卦's 世 (¶90 如乾之艮卦，內卦甲寅木爻為宅，外卦丙寅爻持世): 艮 (八純) has its
    世 on line 6 丙寅, a position 乾 does not move; 乾's own 世 (line 6 壬戌) is not the 宅's branch."""
    results = cast(kg, PILLARS, "乾", "1 2 4 5")
    assert bound(results, "huangjince.jiazhai.shi-outer-house.still") == [
        {"W": "變卦 妻財丙寅木 (上爻, 靜)", "Z": "二爻 妻財甲寅木"}
    ]
    assert bound(results, "huangjince.jiazhai.shi-outer-house.moving") == []


def test_bo_ying_is_the_house(kg):
    """¶68 如剝卦內坤印（應）臨二爻乙巳火 … 為應入中庭，主外人同居."""
    results = cast(kg, PILLARS, "剝")
    assert bound(results, "huangjince.jiazhai.ying-in-court.live") == [{"Z": "二爻 官鬼乙巳火"}]


def test_xun_to_li_ying_of_the_changed_hexagram(kg):
    """¶68 且如巽卦變離卦，內卦辛亥水為宅，外卦應居己亥水，故為應入中庭."""
    results = cast(kg, PILLARS, "巽", "1 2 4 5")
    assert any(h["Z"] == "二爻 父母辛亥水" for h in bound(results, "huangjince.jiazhai.ying-in-court.live"))


def test_xun_to_li_ying_flies_into_the_house(kg):
    """¶64 應爻外飛入宅爻, read with ¶68 外卦應居己亥水: the 應 of 離 (line 3 己亥, not moving) has the branch of the
    宅 辛亥 of 巽; without a 變卦 there is no 應 to fly in (巽's own 應 is 辛酉)."""
    ids = "huangjince.jiazhai.ying-into-house"
    assert [h["Z"] for h in bound(cast(kg, PILLARS, "巽", "1 2 4 5"), ids)] == ["二爻 父母辛亥水"]
    assert bound(cast(kg, PILLARS, "巽"), ids) == []


def test_qian_to_shihe_ying_on_the_house_itself(kg):
    """¶64 應爻外飛入宅爻: 乾 moving lines 2, 3 and 5 becomes 火雷噬嗑, whose 應 is the changed line 2 庚寅 with the
    宅's branch (乾's 甲寅), on the 宅 itself: it has not flown in from outside, and ¶68 應爻為宅爻 reads it."""
    results = cast(kg, PILLARS, "乾", "2 3 5")
    assert bound(results, "huangjince.jiazhai.ying-into-house") == []
    assert [h["Z"] for h in bound(results, "huangjince.jiazhai.ying-in-court.live")] == ["二爻 妻財甲寅木"]


def test_yi_wealth_moves_without_a_ghost(kg):
    """¶70 卦無子孫財爻兩動: 山雷頤 (巽宮) has no 子孫 and no 官鬼, its 財 庚辰 and 丙戌 on lines 3 and 4; both moving
    feed no 鬼, and 鬼旺人衰 is silent."""
    results = cast(kg, PILLARS, "頤", "3 4")
    assert bound(results, "huangjince.jiazhai.ghost-helped-by-wealth") == []


def test_wood_born_in_qian_palace_without_water(kg):
    """¶70 且如木命人占乾兌卦，以火為官，木能生火為鬼有助，若卦體無水生命為鬼無制，主人衰弱: 天山遯 has no Water line."""
    results = cast(kg, PILLARS, "遯", birth="寅")
    assert {h["G"] for h in bound(results, "huangjince.jiazhai.ghost-helped")} == {
        "二爻 官鬼丙午火",
        "四爻 官鬼壬午火",
    }
    assert (
        bound(cast(kg, PILLARS, "乾", birth="寅"), "huangjince.jiazhai.ghost-helped") == []
    )  # 乾 has 甲子水


@pytest.mark.parametrize(("hexagram", "moving", "birth", "ghost"), [
    ("坎", "5", "寅", "五爻 官鬼戊戌土"),  # 且如木命人占得坎卦，以土為鬼，木命人克土鬼殺
    ("坤", "3", "申", "三爻 官鬼乙卯木"),  # 金命人則制坤艮宮木鬼
])  # fmt: skip
def test_natal_restrains_the_ghost(kg, hexagram, moving, birth, ghost):
    """¶72 有人制鬼，鬼動無妨."""
    results = cast(kg, PILLARS, hexagram, moving, birth=birth)
    assert [h["G"] for h in bound(results, "huangjince.jiazhai.ghost-restrained")] == [ghost]


@pytest.mark.parametrize(("birth", "restrained"), [("午", True), ("子", False)])
def test_restrained_ghost_lifts_the_corpse_hastening_sha_not_the_helped_ghost(kg, birth, restrained):
    """¶72 有人制鬼，鬼動無妨 … 但以本命克鬼為制，乃無害也 answers ¶74 鬼動克身命，為催尸殺, not ¶70
    卦無子孫財爻兩動，亦為鬼有助而無制也. 山風蠱 (巽宮, 木) has no 火 子孫; its 財 辛丑 and 丙戌 (lines 1, 4) move
    with the 官鬼 辛酉 金 (line 3), which overcomes the 卦身 丙寅 木 (line 6: 世 on the yang third line, counted from
    子). The 火命 overcomes the 金 ghost; the 水命 is generated by it."""
    reading, topic = generated(PILLARS, "蠱", "1 3 4", birth=birth)
    results = retrieve(kg, reading, topic)
    statuses: dict[str, set[str]] = defaultdict(set)
    for a in results:
        statuses[a.rule_id.removeprefix("huangjince.jiazhai.")].add(a.status)
    tomb = bound(results, "huangjince.jiazhai.tomb-gate")
    assert [(h["G"], h["X"]) for h in tomb] == [("三爻 官鬼辛酉金", "上爻 兄弟丙寅木")]
    assert statuses["tomb-gate"] == ({"overridden"} if restrained else {"consider"})
    assert ("ghost-restrained" in statuses) == restrained
    assert statuses["ghost-helped-by-wealth"] == {"applies"}


def test_metal_born_in_qian_wealth_feeds_ghost(kg):
    """¶74 以金命人占得乾卦，以火為鬼，以木為財，木能生火，火能克金，有財為助鬼傷身."""
    results = cast(kg, PILLARS, "乾", birth="酉")
    assert bound(results, "huangjince.jiazhai.wealth-feeds-ghost") == [
        {"F": "二爻 妻財甲寅木", "G": "四爻 官鬼壬午火", "N": "年命 酉 (金命)"}
    ]


@pytest.mark.parametrize(("hexagram", "birth", "rule"), [
    ("乾", "寅", "wood-metal-natal"),  # 木金年命，最嫌乾兌卦之火爻
    ("兌", "酉", "wood-metal-natal"),
    ("震", "寅", "ghost-hurts-natal"),  # 木命人忌震巽宮鬼
    ("坎", "子", "ghost-hurts-natal"),  # 水命忌坎宮鬼
    ("震", "子", "water-fire-natal"),  # 水火命人，不怕震巽宮之金鬼
    ("巽", "午", "water-fire-natal"),
])  # fmt: skip
def test_natal_against_palace(kg, hexagram, birth, rule):
    """¶76 木金年命 / 水火命人."""
    assert bound(cast(kg, PILLARS, hexagram, birth=birth), f"huangjince.jiazhai.{rule}")


def test_water_fire_born_need_a_metal_ghost(kg):
    """¶76 不怕震巽宮之金鬼: 風天小畜 (巽宮; 甲子 甲寅 甲辰 辛未 辛巳 辛卯) has no Metal line, so no 金鬼 to fear."""
    assert bound(cast(kg, PILLARS, "小畜", birth="子"), "huangjince.jiazhai.water-fire-natal") == []


def test_water_born_in_zhen_not_hurt(kg):
    """¶76 金能生水，火能克金，故水火命人不怕二宮之鬼: the 金鬼 of 震 does not overcome a Water 命."""
    results = cast(kg, PILLARS, "震", birth="子")
    assert bound(results, "huangjince.jiazhai.ghost-hurts-natal") == []
    assert bound(results, "huangjince.jiazhai.wood-metal-natal") == []


def test_jia_day_sees_xin(kg):
    """¶52 官星即甲見辛類是也: on a 甲 day the 辛 lines of 天風姤 (its inner 巽, 辛丑 辛亥 辛酉) are the 官星."""
    reading, topic = generated("壬辰 壬子 甲午", "姤")
    retrieve(kg, reading, topic)
    officers = reading.store.query(
        "SELECT ?p WHERE { ?x <https://w3id.org/divkg/line> ?l . ?l <https://w3id.org/divkg/position> ?p ;"
        f" <https://w3id.org/divkg/role> <{ROLE}guanxing> }}"
    )
    assert sorted(int(row[0].value) for row in officers) == [1, 2, 3]
