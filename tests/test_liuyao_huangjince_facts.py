"""The 六爻 chart facts 《黃金策》 needs (docs/liuyao-doctrine.md §7), on hand-chosen casts.

Every expected value is worked out from the tables of docs/liuyao-doctrine.md §4 (納甲, palaces,
旺相休囚死, 十二長生) or quoted from 《黃金策》 itself (corpus/sources/huangjince.txt); the comments
show the working.
"""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from click.testing import CliRunner
from conftest import assert_in_vocabulary
from rdflib import Graph, URIRef
from rdflib.namespace import RDF

from kg.calendar import Pillars
from kg.compile import RuleCompiler
from kg.liuyao.cast import parse_values
from kg.liuyao.chart import Chart, Options, cast_chart
from kg.liuyao.commands import chart_command, liuyao_inputs
from kg.liuyao.facts import chart_graph, reading_iri
from kg.match import Reading
from kg.registry import PROCEDURES
from kg.vocabulary import CONCEPT, DK, concept, sparql_prefixes

R = URIRef("https://w3id.org/divkg/reading/hjc")
A_PILLARS = "庚寅 戊寅 癸亥"
"""《易隱》 example A's pillars: 寅 month (木 旺, 火 相, 水 休, 金 囚, 土 死), 癸亥 day (旬 甲寅–癸亥, 空 子丑)."""


def _chart(pillars: str, values: str, **options: str) -> Chart:
    return cast_chart(Pillars.parse(pillars), parse_values(values), Options.from_names(**options))


def _graph(chart: Chart, **querent: str) -> Graph:
    return chart_graph(chart, R, None, querent or None)


def _positions(graph: Graph, where: str, kind: str = "line") -> set[int]:
    """Positions of the ``kind`` entities ?x (line, changed, hidden) satisfying ``where``."""
    rows = graph.query(sparql_prefixes() + f"SELECT ?x {{ ?x a dk:{_CLASS[kind]} . {where} }}")
    return {int(str(x).rsplit("/", 1)[1]) for (x,) in rows}


_CLASS = {"line": "Line", "changed": "ChangedLine", "hidden": "HiddenLine"}


def _values(graph: Graph, subject: str, prop: URIRef) -> set[str]:
    return {str(o).rsplit("/", 1)[1] for o in graph.objects(URIRef(f"{R}/{subject}"), prop)}


def _ask(graph: Graph, where: str) -> bool:
    return graph.query(sparql_prefixes() + f"ASK {{ {where} }}").askAnswer


# ── 7.2–7.3 不上卦, 兩現, 三五重 ───────────────────────────────────────────────────────────────


def test_gou_has_no_wealth_line() -> None:
    """天風姤 (乾宮 金): 辛丑 辛亥 辛酉 / 壬午 壬申 壬戌 = 父 子 兄 / 官 兄 父, no 木: 妻財 不上卦,
    as ¶50 says of it: "姤屬金，以寅木為財 … 卦內本無寅巳". Its 伏神 is 乾's line 2 甲寅 under 辛亥."""
    g = _graph(_chart(A_PILLARS, "877777"))
    assert _values(g, "hexagram/primary", DK.absentRelative) == {"qicai"}
    assert _values(g, "hexagram/primary", DK.twiceRelative) == {"fumu", "xiongdi"}
    assert _values(g, "hexagram/primary", DK.heavyRelative) == set()
    assert _ask(g, f"<{R}/hidden/2> dk:relative rel:qicai ; dk:branch br:yin ; dk:under <{R}/line/2>")
    # 飛來生伏: the 飛神 亥 水 generates the 伏神 寅 木
    assert _ask(g, f"<{R}/line/2> dk:sheng <{R}/hidden/2>")


def test_gou_gate_and_road_of_the_house_line() -> None:
    """¶50: 姤卦二爻辛亥水為宅，寅與亥合以寅為門，巳亥相沖以巳為路 (neither 寅 nor 巳 in the chart)."""
    g = _graph(_chart(A_PILLARS, "877777"))
    assert _values(g, "line/2", DK.combiningBranch) == {"yin"}
    assert _values(g, "line/2", DK.clashingBranch) == {"si"}


def test_guai_counts_of_relatives() -> None:
    """澤天夬 (坤宮 土): 子財 寅官 辰兄 / 亥財 酉子 未兄; 火 (父母) 不上卦; 財 and 兄 兩現."""
    g = _graph(_chart(A_PILLARS, "777778"))
    assert _values(g, "hexagram/primary", DK.absentRelative) == {"fumu"}
    assert _values(g, "hexagram/primary", DK.twiceRelative) == {"qicai", "xiongdi"}
    assert _values(g, "hexagram/primary", DK.heavyRelative) == set()


def test_heavy_counts_changed_lines() -> None:
    """夬 with lines 4 and 5 moving becomes 地天泰 (outer 坤 癸丑 癸亥 癸酉): 亥 → 丑, 酉 → 亥. 妻財 is
    子 and 亥 on the 本卦 and 亥 on a 變爻: three, 三五重. 兄弟 is 辰 未 and the 變爻 丑: three too."""
    g = _graph(_chart(A_PILLARS, "777998"))
    assert _values(g, "hexagram/primary", DK.heavyRelative) == {"qicai", "xiongdi"}


def test_heavy_counts_hidden_lines() -> None:
    """夬 still, 伏神 at every position (fu_shen=all): 坤's line 5 癸亥 財 lies under 酉, a third 財."""
    assert _values(_graph(_chart(A_PILLARS, "777778")), "hexagram/primary", DK.heavyRelative) == set()
    g = _graph(_chart(A_PILLARS, "777778", fu_shen="all"))
    assert "qicai" in _values(g, "hexagram/primary", DK.heavyRelative)


def test_many_cai_rule_can_fire_through_heavy() -> None:
    """huangjince.qiucai.many-cai's 三五重 written as `P.heavy 妻財` compiles and matches 夬 777998."""
    raw = {
        "id": "test.heavy",
        "para": 12,
        "quote": "若三五重太過，其財反覆難求，必須卦中有財庫爻發動，謂財有庫藏，必得厚利。",
        "vars": {"P": "primary"},
        "when": ["P.heavy 妻財"],
        "then": {"polarity": "凶", "zh": "其財反覆難求", "en": "too many 財"},
    }
    (rule,) = RuleCompiler().compile_rule(raw, "huangjince")
    assert len(_graph(_chart(A_PILLARS, "777998")).query(rule.query)) == 1
    assert len(_graph(_chart(A_PILLARS, "777778")).query(rule.query)) == 0


# ── 7.1 有氣, 旬內 ────────────────────────────────────────────────────────────────────────────


def test_vital_by_the_month() -> None:
    """寅 month, 亥 day: only 寅 木 (line 2) is 旺; 水 is 休 and 臨官 at 亥; 金 囚 and 病; 土 死 and
    臨官 (水土同宮). The 伏神 巳 火 is 相: 有氣."""
    g = _graph(_chart(A_PILLARS, "977778"))
    assert _positions(g, "?x dk:vital true") == {2}
    assert _positions(g, "?x dk:vital false") == {1, 3, 4, 5, 6}
    assert _positions(g, "?x dk:vital true", "hidden") == {2}


def test_vital_by_the_day() -> None:
    """子 month, 巳 day: 水 旺, 木 相; 金 only 休 but 長生 at 巳; 土 囚 and 絕 at 巳: 夬's 辰 and 未 無氣."""
    g = _graph(_chart("庚寅 戊子 丁巳", "777778"))
    assert _positions(g, "?x dk:vital true") == {1, 2, 4, 5}


def test_in_day_xun() -> None:
    """癸亥's 旬 is 甲寅 … 癸亥; of 夬's 甲子 甲寅 甲辰 丁亥 丁酉 丁未 only 甲寅 is in it."""
    g = _graph(_chart(A_PILLARS, "777778"))
    assert _positions(g, "?x dk:inDayXun true") == {2}


# ── 7.4 獨發, 亂動 ────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("values", "classes"),
    [("977778", {"du-fa"}), ("997778", set()), ("999778", {"luan-dong"}), ("999999", {"luan-dong"})],
)
def test_single_and_many_moving(values: str, classes: set[str]) -> None:
    g = _graph(_chart(A_PILLARS, values))
    found = {str(k).rsplit("/", 1)[1] for k in g.objects(R, DK.hexClass)}
    assert found & {"du-fa", "luan-dong"} == classes


# ── 7.5 反吟, 伏吟 ────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("values", "fan_yin", "rule"),
    [
        ("899877", {"inner"}, "branches"),  # 巽之觀: 內卦 巽 丑亥酉 → 坤 未巳卯 (增刪卜易 反伏章)
        ("888899", {"outer"}, "branches"),  # 觀之坤: 外卦 巽 未巳卯 → 坤 丑亥酉
        ("999999", {"inner", "outer"}, "branches"),  # 乾變坤: 卦變 反吟
        ("977777", set(), "branches"),  # 乾之姤: 子 → 丑 does not clash
        ("977777", {"inner"}, "houtian"),  # 乾 → 巽 face each other on the 後天 circle
        ("999999", set(), "houtian"),  # 乾 and 坤 do not
    ],
)
def test_fan_yin(values: str, fan_yin: set[str], rule: str) -> None:
    g = _graph(_chart(A_PILLARS, values, fan_yin=rule))
    assert _values(g, "hexagram/primary", DK.fanYin) == fan_yin


def test_fu_yin_of_a_trigram() -> None:
    """乾 with lines 2 and 3 moving: 內卦 乾 → 震, 子寅辰 both: 內卦伏吟 (天雷無妄)."""
    g = _graph(_chart(A_PILLARS, "799777"))
    assert _values(g, "hexagram/primary", DK.fuYin) == {"inner"}
    assert _values(g, "hexagram/primary", DK.fanYin) == set()


# ── 7.6 入墓, 庫, 隨鬼入墓 ────────────────────────────────────────────────────────────────────


def test_treasuries_of_guai() -> None:
    """坤宮 土: 財 水 and 兄 土 are stored at 辰 (水土同墓), 官 木 at 未, 子孫 金 at 丑 (大過's 辛丑)."""
    g = _graph(_chart(A_PILLARS, "977778"))
    assert _values(g, "line/3", DK.treasuryOf) == {"qicai", "xiongdi"}
    assert _values(g, "line/6", DK.treasuryOf) == {"guangui"}
    assert _values(g, "changed/1", DK.treasuryOf) == {"zisun"}
    assert _values(g, "line/1", DK.treasuryOf) == set()


def test_entombed_by_lines_and_the_day() -> None:
    """夬之大過 on a 辰 day: 子 and 亥 (水) enter the 墓 辰 of line 3 and of the day; 寅 (木) enters 未
    (line 6); 酉 (金) enters 丑, the 變爻 of line 1."""
    g = _graph(_chart("庚寅 戊寅 甲辰", "977778"))
    tombs = {
        (str(a).removeprefix(f"{R}/"), str(b).removeprefix(f"{R}/"))
        for a, b in g.subject_objects(DK.entombedBy)
    }
    assert {("line/1", "line/3"), ("line/1", "pillar/day"), ("line/4", "pillar/day")} <= tombs
    assert {("line/2", "line/6"), ("line/5", "changed/1")} <= tombs
    assert not any(a == "line/2" and b == "pillar/day" for a, b in tombs)


def test_follows_ghost_into_tomb_kan() -> None:
    """坎為水 (坎宮 水, 世 line 6 戊子): 官鬼 is 土. On a 辰 day the 世's 墓 辰 is a 官鬼 day: 隨鬼入墓; the
    官鬼 辰 and 戌 enter their own 墓 辰 too. 午 火's 墓 戌 is a still line, 寅 木's 未 and 申 金's 丑 absent."""
    g = _graph(_chart("庚寅 庚辰 甲辰", "878878"))
    assert _positions(g, "?x dk:followsGhostIntoTomb true") == {2, 5, 6}
    # with 戌 (line 5) moving, the 午 of line 3 enters its 墓 carried by a moving 官鬼
    g = _graph(_chart("庚寅 庚辰 甲辰", "878898"))
    assert 3 in _positions(g, "?x dk:followsGhostIntoTomb true")


def test_follows_ghost_into_tomb_own_ghost() -> None:
    """乾為天 (金): 官鬼 is 午 火 on line 4; on a 戌 day (火's 墓) it enters its 墓 carrying 官鬼."""
    g = _graph(_chart("庚寅 庚辰 甲戌", "777777"))
    assert _positions(g, "?x dk:followsGhostIntoTomb true") == {4}


# ── 7.8–7.9 年命 and the querent ──────────────────────────────────────────────────────────────


def test_natal_entity_and_ming_line() -> None:
    """年命 甲子 in 夬 (坤宮 土): 子 水 is 妻財, on line 1 (命爻); its 旬 甲子 leaves 戌亥 empty, so
    line 4 丁亥 is 命旬空; the day's 旬 leaves 子丑 empty: line 1 is void, not 命旬空."""
    g = _graph(_chart(A_PILLARS, "977778"), birth="甲子")
    assert _ask(g, f"<{R}> dk:birthSpirit <{R}/natal> ; dk:birthBranch br:zi ; dk:birthElement el:water")
    assert _ask(g, f"<{R}/natal> a dk:Natal ; dk:relative rel:qicai ; dk:void true ; dk:ganzhi gz:jia-zi")
    assert _positions(g, "?x dk:role role:ming") == {1}
    assert _positions(g, "?x dk:natalVoid true") == {4}
    assert _positions(g, "?x dk:natalVoid true ; dk:void true") == set()


def test_two_voids() -> None:
    """兩空 (¶66 宅爻在日辰旬之空，更在命旬之空亡): 年命 甲寅 leaves 子丑 empty, as the 癸亥 day does."""
    g = _graph(_chart(A_PILLARS, "977778"), birth="甲寅")
    assert _positions(g, "?x dk:natalVoid true ; dk:void true") == {1}


def test_natal_element_by_branch_or_nayin() -> None:
    """甲子 is 水 by its branch, 金 by its 納音 (海中金). A 金 命 overcomes 夬's 官鬼 寅 木 (本命克鬼, ¶72)."""
    g = _graph(_chart(A_PILLARS, "977778", natal_element="nayin"), birth="甲子")
    assert _ask(g, f"<{R}> dk:birthElement el:metal . <{R}/natal> dk:ke <{R}/line/2>")
    g = _graph(_chart(A_PILLARS, "977778"), birth="甲子")
    assert not _ask(g, f"<{R}/natal> dk:ke <{R}/line/2>")


def test_birth_variable_in_a_rule() -> None:
    """¶72 有人制鬼 (本命克鬼): `N: birth` binds the 年命; 申 金 overcomes the 官鬼 寅 木 of 夬."""
    raw = {
        "id": "test.zhi-gui",
        "para": 72,
        "quote": "有人制鬼，鬼動無妨。",
        "vars": {"N": "birth", "G": "line"},
        "when": ["G.relative 官鬼", "N.ke G", "reading.birth-element 金"],
        "then": {"polarity": "吉", "zh": "鬼動無妨", "en": "a natal year that masters the ghost"},
    }
    (rule,) = RuleCompiler().compile_rule(raw, "huangjince")
    assert len(_graph(_chart(A_PILLARS, "977778"), birth="申").query(rule.query)) == 1
    assert len(_graph(_chart(A_PILLARS, "977778"), birth="子").query(rule.query)) == 0


def test_querent_facts() -> None:
    g = _graph(_chart(A_PILLARS, "977778"), purpose="私", sex="女", occupation="漁獵")
    assert (R, DK.querentPurpose, URIRef(f"{CONCEPT}purpose/private")) in g
    assert (R, DK.querentSex, URIRef(f"{CONCEPT}sex/female")) in g
    assert (R, DK.querentOccupation, URIRef(f"{CONCEPT}occupation/fishing-hunting")) in g
    assert_in_vocabulary(g)


def _run(*args: str):
    return CliRunner().invoke(chart_command, list(args))


def test_cli_turtle_has_every_new_fact() -> None:
    result = _run(
        "--pillars", "庚寅 戊寅 甲辰", "--lines", "977778", "--birth", "甲寅", "--purpose", "公",
        "--sex", "男", "--occupation", "為官", "--format", "turtle",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    g = Graph().parse(data=result.output, format="turtle")
    predicates = set(g.predicates())
    new = {
        DK.vital, DK.inDayXun, DK.natalVoid, DK.entombedBy, DK.treasuryOf, DK.followsGhostIntoTomb,
        DK.combiningBranch, DK.clashingBranch, DK.absentRelative, DK.twiceRelative, DK.birthElement,
        DK.querentPurpose, DK.querentSex, DK.querentOccupation,
    }  # fmt: skip
    assert new <= predicates
    (reading,) = g.subjects(RDF.type, DK.Reading)
    assert (reading, DK.hexClass, concept("hexclass", "du-fa")) in g
    assert any(g.subjects(DK.role, concept("role", "ming")))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--purpose", "公私"), "--purpose"),
        (("--sex", "M"), "--sex"),
        (("--occupation", "農"), "--occupation"),
        (("--birth", "甲丑"), "--birth"),
        (("--birth", "子", "--natal-element", "nayin"), "--birth"),
        (("--fan-yin", "xiantian"), "--fan-yin"),
    ],
)
def test_cli_querent_errors(args: tuple[str, ...], message: str) -> None:
    result = _run("--pillars", A_PILLARS, "--lines", "977778", *args)
    assert result.exit_code == 2
    assert message in result.stderr


# ── 7.10 procedures ───────────────────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def dated() -> tuple[ox.Store, str]:
    """夬之大過 cast on 2070-02-27 (癸亥 day, the last of the 甲寅 旬, docs/liuyao-doctrine.md §3.2)."""
    chart, querent = liuyao_inputs(moment="2070-02-27T12:00", lines="977778")
    iri = reading_iri(chart)
    return Reading(chart_graph(chart, iri, None, querent)).store, str(iri)


@pytest.mark.parametrize(
    ("name", "entity", "expected"),
    [
        # line 2 寅 木: 長生 亥, 帝旺 卯 (docs/liuyao-doctrine.md §4.9); from 癸亥 the next 旬 opens on 甲子, and 丁卯 follows
        ("past-xun-day", "line/2", "丁卯日, 4 days after the reading's day 癸亥 (2070-03-03)"),
        ("exit-xun-day", "line/2", "甲子日, 1 day after the reading's day 癸亥 (2070-02-28)"),
        ("shengwang-day", "line/2", "丁卯日, 4 days"),
        ("he-day", "line/2", "乙亥日, 12 days"),  # 寅亥合
        ("chong-day", "line/2", "壬申日, 9 days"),  # 寅申沖
        ("tomb-day", "line/2", "辛未日, 8 days"),  # 木墓未
        ("break-tomb-day", "line/2", "乙丑日, 2 days"),  # 丑沖未
        # the 伏神 乙巳 火 under 甲寅: the next 巳 day (己巳) comes before the next 申 day (壬申)
        ("lifting-day", "hidden/2", "己巳日, 6 days"),
        ("lifting-day", "line/2", "? (only a 伏神"),
    ],
)
def test_day_procedures(dated: tuple[ox.Store, str], name: str, entity: str, expected: str) -> None:
    store, reading = dated
    assert PROCEDURES[name].run(store, ox.NamedNode(f"{reading}/{entity}")).startswith(expected)


def test_past_xun_day_mid_xun() -> None:
    """丁巳 day (旬 甲寅–癸亥): for 子 水 (長生 申, 帝旺 子) the next 旬 opens on 甲子, itself 帝旺."""
    chart, querent = liuyao_inputs(pillars="庚寅 庚辰 丁巳", lines="777778")
    iri = reading_iri(chart)
    store = Reading(chart_graph(chart, iri, None, querent)).store
    result = PROCEDURES["past-xun-day"].run(store, ox.NamedNode(f"{iri}/line/1"))
    assert result == "甲子日, 7 days after the reading's day 丁巳"


def test_price_months() -> None:
    """¶28 財臨辰土，二月不如三月；財臨酉金，七月不如八月: the branch's own month is best; 土財夏月有利，
    六月更美, and by 餘仿此 金 in autumn (申酉戌)."""
    chart, querent = liuyao_inputs(pillars=A_PILLARS, lines="777778")
    iri = reading_iri(chart)
    store = Reading(chart_graph(chart, iri, None, querent)).store
    chen = PROCEDURES["price-months"].run(store, ox.NamedNode(f"{iri}/line/3"))
    assert chen.endswith("best in the month of its own branch, 三月 (辰)")
    assert "二月 (卯)" not in chen
    assert "得價 in 四月 (巳), 五月 (午), 六月 (未); 六月 (未) 更美" in chen
    you = PROCEDURES["price-months"].run(store, ox.NamedNode(f"{iri}/line/5"))
    assert "得價 in 七月 (申), 八月 (酉), 九月 (戌)" in you and you.endswith("八月 (酉)")


# ── 7.11 化死 ─────────────────────────────────────────────────────────────────────────────────


def test_hua_si() -> None:
    """艮為山 with line 1 moving becomes 山火賁: 丙辰 土 → 己卯. Under 水土同宮 土 is born at 申 and 死
    at 卯 (docs/liuyao-doctrine.md §4.9): 化死 (¶42 財化死墓空絕). Under 火土同宮 土 is born at 寅, 卯 is its 沐浴, 死 is 酉."""
    g = _graph(_chart(A_PILLARS, "687887"))
    assert "hua-si" in _values(g, "line/1", DK.transformation)
    g = _graph(_chart(A_PILLARS, "687887", changsheng="huo-tu"))
    assert "hua-si" not in _values(g, "line/1", DK.transformation)
    # 夬之大過: 甲子 水 → 辛丑, 水's 衰 (not 死)
    assert "hua-si" not in _values(_graph(_chart(A_PILLARS, "977778")), "line/1", DK.transformation)


def test_hua_si_in_a_rule() -> None:
    """¶42 財化死墓空絕，後必價賤 with the four transformations listed as the text lists them."""
    raw = {
        "id": "test.cheap",
        "para": 42,
        "quote": "財化死墓空絕，後必價賤。",
        "vars": {"F": "line"},
        "when": ["F.relative 妻財", "F.transformation 化死|化墓|化空|化絕"],
        "then": {"polarity": "凶", "zh": "後必價賤", "en": "the price will fall"},
    }
    (rule,) = RuleCompiler().compile_rule(raw, "huangjince")
    # 坎為水 (水 palace, 財 火): line 3 戊午 moving turns the inner 坎 into 巽 (辛丑 辛亥 辛酉): 午 → 酉,
    # the 死 of 火; still, nothing changes
    assert len(_graph(_chart(A_PILLARS, "876878")).query(rule.query)) == 1
    assert len(_graph(_chart(A_PILLARS, "878878")).query(rule.query)) == 0


# ── 7.12 the 六親 of a 三合局 ─────────────────────────────────────────────────────────────────


def test_frame_relative() -> None:
    """¶22 財局 / 福局 / 鬼局 …: 地雷復 (坤宮 土) with 丑 and 酉 moving holds 巳酉丑 金局 (虛一待用,
    docs/liuyao-doctrine.md §4.12); 金 is what 土 generates: a 福局 (子孫)."""
    g = _graph(_chart(A_PILLARS, "768666"))
    assert _ask(g, f"<{R}/frame/metal> dk:relative rel:zisun ; dk:frameKind frame:xuyi")
    assert_in_vocabulary(g)


# ── 7.13 the 世 and 應 of the 變卦 ────────────────────────────────────────────────────────────


def test_changed_hexagram_shi_ying_at_static_positions() -> None:
    """¶68 巽卦變離卦，內卦辛亥水為宅，…應居己亥水: 巽 with lines 1, 2, 4, 5 moving is 離為火 (世 6, 應 3).
    巽's line 3 辛酉 and line 6 辛卯 do not move, so 離's own 己亥 (3) and 己巳 (6) are static 變卦
    lines: 變應 亥 水 = 父母 and 變世 巳 火 = 子孫 against 巽 木. 己亥 並 the 宅 辛亥 (line 2)."""
    g = _graph(_chart(A_PILLARS, "697697"))
    assert _ask(
        g, f"<{R}/changed/3> a dk:ChangedStaticLine ; dk:role role:changed-ying ; dk:ganzhi gz:ji-hai"
    )
    assert _ask(g, f"<{R}/changed/3> dk:relative rel:fumu ; dk:bing <{R}/line/2>")
    assert _ask(g, f"<{R}/changed/6> a dk:ChangedStaticLine ; dk:role role:changed-shi ; dk:branch br:si")
    assert _ask(g, f"<{R}/changed/6> dk:relative rel:zisun")
    roles = "?x dk:role ?r . FILTER(?r IN (role:changed-shi, role:changed-ying))"
    assert _positions(g, roles, "changed") == set()  # no 變爻 carries them: 離's 世 and 應 are static
    assert_in_vocabulary(g)


def test_changed_hexagram_shi_on_a_moving_line() -> None:
    """¶68 離姤卦己丑為宅，外卦世在辛丑: 離 with lines 1, 2, 5 moving is 天風姤 (世 1, 應 4). 姤's 世 辛丑
    is the 變爻 of the moving line 1; its 應 壬午 sits over 離's static line 4 己酉."""
    g = _graph(_chart(A_PILLARS, "967767"))
    assert _ask(g, f"<{R}/changed/1> a dk:ChangedLine ; dk:role role:changed-shi ; dk:bing <{R}/line/2>")
    assert _ask(
        g, f"<{R}/changed/4> a dk:ChangedStaticLine ; dk:role role:changed-ying ; dk:ganzhi gz:ren-wu"
    )
    assert not _ask(g, f"<{R}> dk:changedLine <{R}/changed/4>")


def test_changed_shi_joins_the_house_in_a_rule() -> None:
    """¶90 乾之艮卦，內卦甲寅木爻為宅，外卦丙寅爻持世: 乾 with lines 1, 2, 4, 5 moving is 艮為山 (世 6
    丙寅, over 乾's static 壬戌): an `entity` variable binds it, and it 並 the 宅 甲寅 (line 2)."""
    raw = {
        "id": "test.fei-ru-zhai",
        "para": 90,
        "quote": "世為日辰飛入宅，鵲據鳩巢；",
        "vars": {"Z": "line", "W": "entity"},
        "when": ["Z.position 2", "W.role 變世", "W.bing Z"],
        "then": {"polarity": "凶", "zh": "鵲據鳩巢", "en": "the changed hexagram's 世 flies into the house"},
    }
    (rule,) = RuleCompiler().compile_rule(raw, "huangjince")
    rows = list(_graph(_chart(A_PILLARS, "997997")).query(rule.query))
    assert len(rows) == 1
    assert len(_graph(_chart(A_PILLARS, "977777")).query(rule.query)) == 0  # 乾之姤: 世 辛丑


# ── 7.14 真宮 and 假宮 ────────────────────────────────────────────────────────────────────────


def test_true_palace_of_jin_changing_into_dun() -> None:
    """¶92 晉卦之遁卦 … 離己酉金假弟，遁卦外有乾卦，壬甲金 … 是真兄弟: 晉 (乾宮 游魂, 坤 / 離) has no line
    in 乾; 遯 (乾宮 二世) has its 外卦 乾. With lines 3 and 5 moving, 遯's 壬申 (5) is a 變爻 and its 應."""
    g = _graph(_chart(A_PILLARS, "886767"))
    assert _positions(g, "?x dk:truePalace true") == set()
    assert _ask(g, f"<{R}/line/4> dk:ganzhi gz:ji-you ; dk:relative rel:xiongdi ; dk:truePalace false")
    assert _ask(g, f"<{R}/changed/5> dk:ganzhi gz:ren-shen ; dk:role role:changed-ying ; dk:truePalace true")
    assert _ask(g, f"<{R}/changed/3> dk:truePalace false")  # 遯's 內卦 is 艮


@pytest.mark.parametrize(
    ("generation", "true_positions"),
    [
        ("本宮", {1, 2, 3, 4, 5, 6}),
        ("一世", {4, 5, 6}),
        ("二世", {4, 5, 6}),
        ("三世", {4, 5, 6}),
        ("四世", set()),
        ("五世", set()),
        ("游魂", set()),
        ("歸魂", {1, 2, 3}),
    ],
)
def test_true_palace_by_generation(generation: str, true_positions: set[int]) -> None:
    """認宮訣 "一二三六外卦宮，四五游魂內變更，歸魂內卦是本宮": where the palace's own trigram lies."""
    from kg.liuyao.hexagrams import HEXAGRAMS

    for hexagram in HEXAGRAMS:
        if hexagram.generation.char == generation:
            assert {p for p in range(1, 7) if hexagram.in_palace(p)} == true_positions, hexagram.name


# ── 7.15 the 命 of the household ──────────────────────────────────────────────────────────────


def test_member_ming_void_and_lu() -> None:
    """¶86 如甲子生妻祿在寅，夫身命爻臨之: in 夬之大過 the wife born 甲子 has her 命 on line 1 (子) and her
    祿 (甲 → 寅) on line 2 甲寅, where the husband born 丙寅 has his 命. Both are of the 甲子 旬, empty at
    戌亥: line 4 丁亥 and 大過's static 世 丁亥 are their 命旬空. 丙's 祿 巳 is the 伏神 乙巳."""
    g = _graph(_chart(A_PILLARS, "977778"), members=["妻=甲子", "夫=丙寅"])
    assert _values(g, "line/1", DK.mingOf) == {"wife"}
    assert _values(g, "line/2", DK.mingOf) == {"husband"}
    assert _values(g, "line/2", DK.luOf) == {"wife"}
    assert _values(g, "hidden/2", DK.luOf) == {"husband"}
    assert _values(g, "line/4", DK.natalVoidOf) == {"wife", "husband"}
    assert _values(g, "changed/4", DK.natalVoidOf) == {"wife", "husband"}
    assert _positions(g, "?x dk:natalVoidOf ?m") == {4}
    assert_in_vocabulary(g)


def test_member_facts_in_a_rule() -> None:
    """¶86 夫臨妻祿之爻 as `L.ming-of 夫, L.lu-of 妻`; ¶82 父母之命爻 as the collection 父母."""
    raw = {
        "id": "test.fu-shi-qi-lu",
        "para": 86,
        "quote": "夫臨妻祿之爻，夫食妻祿。",
        "vars": {"L": "line"},
        "when": ["L.ming-of 夫", "L.lu-of 妻"],
        "then": {"polarity": "中", "zh": "夫食妻祿", "en": "the husband lives on the wife's emolument"},
    }
    (rule,) = RuleCompiler().compile_rule(raw, "huangjince")
    chart = _chart(A_PILLARS, "977778")
    assert len(_graph(chart, members=["妻=甲子", "夫=丙寅"]).query(rule.query)) == 1
    assert len(_graph(chart, members=["妻=乙丑", "夫=丙寅"]).query(rule.query)) == 0  # 乙's 祿 is 卯
    parents = dict(raw, id="test.parents", when=["L.ming-of 父母", "L.position 2"])
    (rule,) = RuleCompiler().compile_rule(parents, "huangjince")
    assert len(_graph(chart, members=["母=寅"]).query(rule.query)) == 1
    assert len(_graph(chart, members=["子=寅"]).query(rule.query)) == 0


def test_member_labels_are_the_vocabulary() -> None:
    """--member accepts exactly the zh-Hant labels of dk:MemberScheme's concepts."""
    from kg.liuyao.natal import MEMBERS
    from kg.vocabulary import vocabulary

    vocab = vocabulary()
    for name, slug in MEMBERS.items():
        assert vocab.resolve(DK.MemberScheme, name) == concept("member", slug)
    assert set(MEMBERS.values()) == {str(c).rsplit("/", 1)[1] for c in vocab.concepts(DK.MemberScheme)}


def test_cli_members() -> None:
    result = _run(
        "--pillars", A_PILLARS, "--lines", "977778", "--member", "妻=甲子", "--member", "夫=寅",
        "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert '"妻=甲子"' in result.output and '"夫=寅"' in result.output


@pytest.mark.parametrize("member", ["叔=甲子", "妻甲子", "妻=甲丑", "妻="])
def test_cli_member_errors(member: str) -> None:
    result = _run("--pillars", A_PILLARS, "--lines", "977778", "--member", member)
    assert result.exit_code == 2
    assert "--member" in result.stderr


# ── 7.16 (and 4.14): 喪門, 弔客, 歲德, 死氣 ────────────────────────────────────────────────────


def _stars(graph: Graph, slug: str, kind: str = "line") -> set[int]:
    return _positions(graph, f"?x dk:shensha star:{slug}", kind)


def test_sangmen_diaoke_by_the_year() -> None:
    """喪門 歲前二辰, 弔客 歲後二辰: a 寅 year has 喪門 辰 (夬's line 3 甲辰) and 弔客 子 (line 1 甲子); a
    子 year has 寅 and 戌 (乾 外卦 壬戌 on line 6, 甲寅 on line 2)."""
    g = _graph(_chart(A_PILLARS, "777778"))
    assert (_stars(g, "sangmen"), _stars(g, "diaoke")) == ({3}, {1})
    g = _graph(_chart("甲子 丙寅 癸亥", "777777"))
    assert (_stars(g, "sangmen"), _stars(g, "diaoke")) == ({2}, {6})


@pytest.mark.parametrize(
    ("pillars", "positions"),
    [
        ("庚寅 戊寅 癸亥", {4, 5, 6}),  # 庚年 歲德 庚: 豫's 外卦 震 庚午 庚申 庚戌
        ("乙未 戊寅 癸亥", {4, 5, 6}),  # 乙年: 乙德在庚
        ("己亥 丙寅 癸亥", set()),  # 己年: 甲, and 豫 has 乙 and 庚 only
        ("丁酉 壬寅 癸亥", set()),  # 丁年: 壬
    ],
)
def test_sui_de_by_the_year_stem(pillars: str, positions: set[int]) -> None:
    assert _stars(_graph(_chart(pillars, "888788")), "suide") == positions


def test_sui_de_on_the_inner_qian() -> None:
    """己年 歲德 甲 (己德在甲): 夬's 內卦 乾 甲子 甲寅 甲辰."""
    assert _stars(_graph(_chart("己亥 丙寅 癸亥", "777778")), "suide") == {1, 2, 3}


def test_si_qi_by_the_month() -> None:
    """死氣 正月在午 (《協紀辨方書》): a 辰 month (三月) has 申, on 豫之小過's line 5 庚申 and the 變爻
    丙申; a 寅 month has 午, which 夬 lacks."""
    g = _graph(_chart("庚寅 庚辰 丁巳", "886788"))
    assert (_stars(g, "siqi"), _stars(g, "siqi", "changed")) == ({5}, {3})
    assert _stars(_graph(_chart(A_PILLARS, "777778")), "siqi") == set()


# ── 4.6: 暗動 of a 伏神 ──────────────────────────────────────────────────────────────────────


def test_hidden_dark_moving_option() -> None:
    """夬's 伏神 乙巳 火 is 相 in the 寅 month and clashed by the 亥 day: 暗動 by default (《易隱》 reads
    伏 lines as 暗動), not under hidden_dark_moving=no; the 本卦 lines keep theirs."""
    assert _ask(_graph(_chart(A_PILLARS, "777778")), f"<{R}/hidden/2> dk:darkMoving true")
    g = _graph(_chart(A_PILLARS, "777778", hidden_dark_moving="no"))
    assert _ask(g, f"<{R}/hidden/2> dk:darkMoving false")
    result = _run("--pillars", A_PILLARS, "--lines", "777778", "--hidden-dark-moving", "maybe")
    assert result.exit_code == 2 and "--hidden-dark-moving" in result.stderr
