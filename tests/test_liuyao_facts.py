"""The 六爻 chart as RDF (kg.liuyao.facts) and ``kg chart liuyao`` (kg.liuyao.commands).

Facts are checked by SPARQL on the 《易隱》 遷移占 examples A and B (docs/liuyao-doctrine.md §3.1).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import assert_in_vocabulary
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF

from kg.calendar import Pillars
from kg.errors import KgError
from kg.ganzhi import Branch, breaks, clashes, combines, harms, punishes
from kg.liuyao.cast import parse_values
from kg.liuyao.chart import Chart, Options, cast_chart
from kg.liuyao.commands import chart_command, liuyao_inputs
from kg.liuyao.facts import chart_graph, reading_iri
from kg.vocabulary import DK, concept, sparql_prefixes

EXAMPLE_FILE = Path(__file__).resolve().parent.parent / "ontology" / "examples" / "yiyin-example-a.ttl"


def _chart(pillars: str, values: str, **options: str) -> Chart:
    return cast_chart(Pillars.parse(pillars), parse_values(values), Options.from_names(**options))


A = _chart("庚寅 戊寅 癸亥", "977778")
B = _chart("庚寅 庚辰 丁巳", "886788")
R = URIRef("https://w3id.org/divkg/reading/test")
CHARTS = {"A": A, "B": B, "all-moving": _chart("庚寅 戊寅 癸亥 甲寅", "696969", fu_shen="all")}


def _graph(chart: Chart, **kwargs) -> Graph:
    return chart_graph(chart, R, **kwargs)


def _ask(graph: Graph, where: str) -> bool:
    return graph.query(sparql_prefixes() + f"ASK {{ {where} }}").askAnswer


def _select(graph: Graph, where: str) -> set[tuple[str, ...]]:
    """The solutions of ``where``, each the values of its variables in order of first appearance."""
    names = list(dict.fromkeys(re.findall(r"\?(\w+)", where)))
    rows = graph.query(sparql_prefixes() + f"SELECT {' '.join('?' + n for n in names)} {{ {where} }}")
    return {tuple(str(v) for v in row) for row in rows}


def _iri(path: str) -> str:
    return f"<{R}/{path}>"


@pytest.fixture(scope="module")
def ga() -> Graph:
    return _graph(A, topic=concept("topic", "qianyi"), querent={"status": "未遷", "birth": "子"})


@pytest.fixture(scope="module")
def gb() -> Graph:
    return _graph(B)


# ── example A: 庚寅 戊寅 癸亥, 夬之大過 ────────────────────────────────────────────────────────


def test_reading_inputs(ga: Graph) -> None:
    assert _ask(
        ga,
        f"""<{R}> a dk:Reading ; dk:system dk:LiuYao ; dk:topic topic:qianyi ; dk:cast "977778" ;
        dk:pillarsGiven true ; dk:nearSolarTerm false ; dk:querentStatus status:not-moved ;
        dk:birthBranch br:zi ; dk:dayGanzhi gz:gui-hai""",
    )
    options = _select(ga, f"<{R}> dk:option ?o . ?o dk:name ?name ; rdf:value ?value")
    assert {(name, value) for _, name, value in options} == {
        ("fu_shen", "missing"),
        ("gua_shen", "month"),
        ("changsheng", "shui-tu"),
        ("month_break", "in-month"),
        ("noble", "A"),
        ("yang_ren", "A"),
        ("tian_xi", "A"),
        ("shensha_base", "day"),
        ("zi_hour", "23:00"),
        ("fan_yin", "branches"),
        ("natal_element", "branch"),
        ("hidden_dark_moving", "yes"),
    }
    assert not _ask(ga, f"<{R}> dk:moment ?m")


def test_reading_links(ga: Graph) -> None:
    def linked(prop: str) -> set[str]:
        return {row[0].removeprefix(f"{R}/") for row in _select(ga, f"<{R}> {prop} ?x")}

    assert linked("dk:line") == {f"line/{n}" for n in range(1, 7)}
    assert linked("dk:changedLine") == {"changed/1"}
    # 大過's 世 is line 4, which does not move in 夬: the 變卦's own 丁亥 there is an entity too
    assert linked("dk:changedStaticLine") == {"changed/4"}
    assert linked("dk:hiddenLine") == {"hidden/2"}
    assert linked("dk:pillar") == {"pillar/year", "pillar/month", "pillar/day"}
    assert linked("dk:dayPillar") == {"pillar/day"}
    assert linked("dk:birthSpirit") == {"natal"}
    assert linked("dk:entity") == linked("dk:line") | linked("dk:changedLine") | linked(
        "dk:changedStaticLine"
    ) | linked("dk:hiddenLine") | linked("dk:pillar") | {"natal"}
    assert linked("dk:primaryHexagram") == {"hexagram/primary"}
    assert linked("dk:changedHexagram") == {"hexagram/changed"}
    assert linked("dk:frame") == set()
    # only line 1 (9) moves: 獨發
    assert linked("dk:hexClass") == {str(concept("hexclass", "du-fa"))}


def test_lines_of_example_a(ga: Graph) -> None:
    rows = _select(
        ga,
        f"""<{R}> dk:line ?l . ?l dk:position ?p ; dk:relative ?rel ; dk:ganzhi ?gz ; dk:beast ?beast ;
        dk:label ?label""",
    )
    got = {int(p): (rel.rsplit("/", 1)[1], gz.rsplit("/", 1)[1], beast.rsplit("/", 1)[1], label)
           for _, p, rel, gz, beast, label in rows}  # fmt: skip
    assert got == {
        6: ("xiongdi", "ding-wei", "baihu", "上爻 兄弟丁未土"),
        5: ("zisun", "ding-you", "tengshe", "五爻 子孫丁酉金"),
        4: ("qicai", "ding-hai", "gouchen", "四爻 妻財丁亥水"),
        3: ("xiongdi", "jia-chen", "zhuque", "三爻 兄弟甲辰土"),
        2: ("guangui", "jia-yin", "qinglong", "二爻 官鬼甲寅木"),
        1: ("qicai", "jia-zi", "xuanwu", "初爻 妻財甲子水"),
    }
    assert _ask(
        ga,
        f"""{_iri("line/2")} dk:relative rel:guangui ; dk:branch br:yin ; dk:stem stem:jia ;
        dk:element el:wood ; dk:beast beast:qinglong ; dk:role role:ying ; dk:yinYang yy:yang ;
        dk:half half:inner ; dk:moving false""",
    )
    roles = _select(ga, f"<{R}> dk:line ?l . ?l dk:position ?p ; dk:role ?role")
    assert {(int(p), role.rsplit("/", 1)[1]) for _, p, role in roles} == {
        (1, "ming"),  # the querent's 年命 子 is on line 1 甲子
        (5, "shi"),
        (2, "ying"),
        (3, "guashen"),
        (3, "jian"),
        (4, "jian"),
    }
    assert _ask(ga, f"{_iri('line/6')} dk:yinYang yy:yin ; dk:half half:outer")


def test_line_states(ga: Graph) -> None:
    # 寅 month, 亥 day, 旬空 子丑: line 1 子 水 is 休 in spring, 臨官 at 亥, void
    assert _ask(
        ga,
        f"""{_iri("line/1")} dk:moving true ; dk:seasonalState state:xiu ; dk:stage stage:linguan ;
        dk:void true ; dk:monthBroken false ; dk:dayBroken false ; dk:darkMoving false ;
        dk:scattered false""",
    )
    # line 2: 寅 木 旺 in the 寅 month, 長生 at 亥, not void
    assert _ask(
        ga, f"{_iri('line/2')} dk:seasonalState state:wang ; dk:stage stage:changsheng ; dk:void false"
    )
    # every boolean of every line is asserted, true or false
    for prop in ("moving", "void", "monthBroken", "dayBroken", "darkMoving", "scattered"):
        assert len(_select(ga, f"<{R}> dk:line ?l . ?l dk:{prop} ?v")) == 6, prop


def test_moving_line_and_changed_line(ga: Graph) -> None:
    # 甲子水 → 辛丑土: 子丑合 (化合), 土克水 (回頭克), 丑 旬空 (化空).
    assert _ask(
        ga,
        f"""{_iri("line/1")} dk:changesTo ?c . ?c a dk:ChangedLine ; dk:relative rel:xiongdi ;
        dk:stem stem:xin ; dk:branch br:chou ; dk:element el:earth ; dk:position 1 ; dk:void true ;
        dk:yinYang yy:yin ; dk:label "變 兄弟辛丑土 (初爻)" """,
    )
    changes = _select(ga, f"{_iri('line/1')} dk:transformation ?t")
    assert {t.rsplit("/", 1)[1] for (t,) in changes} == {"hua-he", "huitou-ke", "hua-kong"}
    assert not _ask(ga, f"{_iri('line/2')} dk:transformation ?t")
    assert not _ask(ga, f"{_iri('line/2')} dk:changesTo ?c")
    # relations of a line with its own changed line: 丑土 克 子水, 子丑 合
    assert _ask(ga, f"{_iri('changed/1')} dk:ke {_iri('line/1')} ; dk:he {_iri('line/1')}")
    assert _ask(ga, f"{_iri('line/1')} dk:he {_iri('changed/1')}")


def test_hidden_line(ga: Graph) -> None:
    assert _ask(
        ga,
        f"""{_iri("hidden/2")} a dk:HiddenLine ; dk:relative rel:fumu ; dk:stem stem:yi ; dk:branch br:si ;
        dk:element el:fire ; dk:position 2 ; dk:under {_iri("line/2")} ; dk:label "伏 父母乙巳火 (二爻下)" ;
        dk:seasonalState state:xiang ; dk:void false ; dk:monthBroken false""",
    )
    # 巳 carries 天乙貴人 (癸: 巳卯) and 驛馬 (亥卯未 → 巳)
    stars = _select(ga, f"{_iri('hidden/2')} dk:shensha ?s")
    assert {s.rsplit("/", 1)[1] for (s,) in stars} == {"tianyi", "yima"}


def test_pillars(ga: Graph) -> None:
    assert _ask(
        ga,
        f"""<{R}> dk:dayPillar ?d ; dk:monthPillar ?m ; dk:yearPillar ?y .
        ?d a dk:Pillar ; dk:pillarKind pillar:day ; dk:ganzhi gz:gui-hai ; dk:stem stem:gui ; dk:branch br:hai ;
           dk:element el:water ; dk:relative rel:qicai ; dk:label "日辰 癸亥" .
        ?m dk:ganzhi gz:wu-yin ; dk:relative rel:guangui ; dk:label "月建 戊寅" .
        ?y dk:ganzhi gz:geng-yin ; dk:label "太歲 庚寅" """,
    )
    assert not _ask(ga, f"<{R}> dk:hourPillar ?h")


def test_relations(ga: Graph) -> None:
    day, line2, hidden = _iri("pillar/day"), _iri("line/2"), _iri("hidden/2")
    assert _ask(ga, f"{day} dk:chong {hidden} . {hidden} dk:chong {day}")  # 巳亥沖
    assert _ask(ga, f"{day} dk:he {line2} . {line2} dk:he {day}")  # 寅亥合
    assert _ask(ga, f"{day} dk:po {line2} . {day} dk:sheng {line2}")  # 寅亥破, 水生木
    assert _ask(ga, f"{line2} dk:xing {hidden} . {line2} dk:hai {hidden}")  # 寅刑巳, 寅巳害
    assert not _ask(ga, f"{hidden} dk:xing {line2}")  # 刑 is directed: 巳刑申, not 寅
    assert _ask(ga, f"{_iri('pillar/month')} dk:bing {line2} ; dk:bihe {line2}")  # 寅 並 寅
    assert _ask(ga, f"{_iri('pillar/month')} dk:xing {_iri('hidden/2')}")
    assert _ask(ga, f"{day} dk:xing {_iri('line/4')}")  # 亥亥 自刑
    assert _ask(ga, f"{line2} dk:ke {_iri('line/3')}")  # 木克土
    assert not _ask(ga, "?a dk:sheng|dk:ke|dk:chong|dk:he|dk:xing|dk:hai|dk:po|dk:bihe|dk:bing ?a")


@pytest.mark.parametrize("name", CHARTS)
def test_relations_every_ordered_pair(name: str) -> None:
    """The relation triples are exactly what kg.ganzhi says of every ordered pair of entities."""
    graph = _graph(CHARTS[name])
    branch = {
        URIRef(e): Branch[b.rsplit("/", 1)[1].upper()]
        for e, b in _select(graph, f"<{R}> dk:entity ?e . ?e dk:branch ?b")
    }
    tests = {
        DK.sheng: lambda a, b: a.element.generates(b.element),
        DK.ke: lambda a, b: a.element.overcomes(b.element),
        DK.chong: clashes,
        DK.he: combines,
        DK.xing: punishes,
        DK.hai: harms,
        DK.po: breaks,
        DK.bihe: lambda a, b: a.element == b.element,
        DK.bing: lambda a, b: a == b,
    }
    expected = {
        (a, p, b)
        for a in branch
        for b in branch
        if a != b
        for p, holds in tests.items()
        if holds(branch[a], branch[b])
    }
    assert {t for t in graph if t[1] in tests} == expected
    # 6 lines, 變爻, the 變卦's static 世/應 (大過 世 4; 小過 世 4 應 1), 伏神, pillars
    assert len(branch) == {"A": 12, "B": 13, "all-moving": 22}[name]


def test_hexagram_figures(ga: Graph) -> None:
    assert _ask(
        ga,
        f"""<{R}> dk:primaryHexagram ?p ; dk:changedHexagram ?c .
        ?p a dk:HexagramFigure ; dk:hexagram hex:111110 ; dk:palace pal:kun ; dk:palaceElement el:earth ;
           dk:generation gen:wu-shi ; dk:innerTrigram tri:qian ; dk:outerTrigram tri:dui ; dk:label "本卦 澤天夬" .
        ?c dk:hexagram hex:011110 ; dk:palace pal:zhen ; dk:palaceElement el:wood ; dk:generation gen:you-hun ;
           dk:hexClass hexclass:youhun ; dk:innerTrigram tri:xun ; dk:outerTrigram tri:dui ;
           dk:label "變卦 澤風大過" """,
    )
    assert not _ask(ga, f"{_iri('hexagram/primary')} dk:hexClass ?k")


# ── example B: 庚寅 庚辰 丁巳, 豫之小過 ────────────────────────────────────────────────────────


def test_example_b(gb: Graph) -> None:
    assert _ask(
        gb,
        f"""{_iri("line/3")} dk:relative rel:xiongdi ; dk:ganzhi gz:yi-mao ; dk:moving true ; dk:yinYang yy:yin ;
           dk:beast beast:tengshe ; dk:changesTo {_iri("changed/3")} .
        {_iri("changed/3")} dk:relative rel:guangui ; dk:ganzhi gz:bing-shen ; dk:yinYang yy:yang .
        {_iri("line/1")} dk:role role:shi ; dk:beast beast:zhuque .
        {_iri("line/4")} dk:role role:ying, role:guashen .
        {_iri("hidden/1")} dk:relative rel:fumu ; dk:ganzhi gz:geng-zi ; dk:under {_iri("line/1")} .
        {_iri("hexagram/primary")} dk:hexClass hexclass:liuhe ; dk:palace pal:zhen ; dk:generation gen:yi-shi .
        {_iri("hexagram/changed")} dk:palace pal:dui ; dk:generation gen:you-hun""",
    )
    # 卯木 → 申金: 金克木 回頭克; 卯申 no 合/沖; 申 絕 of 木
    changes = _select(gb, f"{_iri('line/3')} dk:transformation ?t")
    assert {t.rsplit("/", 1)[1] for (t,) in changes} == {"huitou-ke", "hua-jue"}
    jian = _select(gb, "?l dk:role role:jian ; dk:position ?p")
    assert {int(p) for _, p in jian} == {2, 3}
    # the 巳 day 刑 and 合 the 申 of line 5
    assert _ask(gb, f"{_iri('pillar/day')} dk:xing {_iri('line/5')} ; dk:he {_iri('line/5')}")
    assert len(_select(gb, f"<{R}> dk:changedLine ?c")) == 1


def test_reading_classes_and_frames() -> None:
    # 乾為天 all moving → 坤為地: 六爻亂動 (and so 亂動), 純陽; 六沖 → 六沖 (no 六合)
    g = _graph(_chart("庚寅 戊寅 癸亥", "999999"))
    classes = {k.rsplit("/", 1)[1] for (k,) in _select(g, f"<{R}> dk:hexClass ?k")}
    assert classes == {"pure-yang", "all-moving", "luan-dong"}
    assert _ask(g, f"{_iri('hexagram/primary')} dk:hexClass hexclass:liuchong, hexclass:bachun")
    # 坤為地 still: 純陰, 六爻安靜, no changed hexagram
    g = _graph(_chart("庚寅 戊寅 癸亥", "888888"))
    classes = {k.rsplit("/", 1)[1] for (k,) in _select(g, f"<{R}> dk:hexClass ?k")}
    assert classes == {"pure-yin", "all-still"}
    assert not _ask(g, f"<{R}> dk:changedHexagram|dk:changedLine ?x")
    # 節 (110010 → 六合) from 坎為水 (010010, 六沖) moving line 1: 六沖變六合
    g = _graph(_chart("庚寅 戊寅 癸亥", "678878"))
    assert _ask(g, f"<{R}> dk:hexClass hexclass:chong-to-he")


@pytest.mark.parametrize(
    ("values", "element", "kind", "members"),
    [
        ("666666", "wood", "complete", {"line/1", "line/3", "line/5"}),  # 未卯亥 on lines
        ("666667", "wood", "complete", {"line/1", "line/3", "pillar/day"}),  # 未卯 動, 亥 日
        ("666966", "fire", "complete", {"line/4", "line/6", "pillar/month"}),  # 戌午 動, 寅 月
        ("666679", "wood", "complete", {"line/4", "line/6", "changed/4"}),  # 亥 化 卯
        ("666669", "fire", "xuyi", {"line/4", "line/6"}),  # 戌午 動, 寅 absent: 虛一待用
    ],
)
def test_frames(values: str, element: str, kind: str, members: set[str]) -> None:
    g = _graph(_chart("庚寅 戊寅 癸亥", values))
    frame = _iri(f"frame/{element}")
    assert _ask(
        g,
        f"<{R}> dk:frame {frame} . {frame} a dk:Frame ; dk:element el:{element} ; dk:frameKind frame:{kind}",
    )
    assert {m.removeprefix(f"{R}/") for (m,) in _select(g, f"{frame} dk:member ?m")} == members


def test_youhun_to_guihun() -> None:
    # 澤風大過 (游魂, 011110) → 澤雷隨 (歸魂, 100110): the inner 巽 becomes 震, lines 1–3 move
    chart = _chart("庚寅 戊寅 癸亥", "699778")
    assert chart.hexagram.is_wandering and chart.changed_hexagram.is_returning
    assert _ask(_graph(chart), f"<{R}> dk:hexClass hexclass:youhun-to-guihun")


# ── vocabulary, determinism ──────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("name", CHARTS)
def test_vocabulary(name: str) -> None:
    """Every concept is a skos:Concept of ontology/concepts, every predicate and class is declared in
    ontology/divkg.ttl, and every entity fact is one the ontology defines for the subject's class."""
    assert_in_vocabulary(
        _graph(CHARTS[name], topic=concept("topic", "qianyi"), querent={"status": "已遷", "birth": "午"})
    )


def test_deterministic() -> None:
    first = _graph(B).serialize(format="turtle")
    assert first == _graph(B).serialize(format="turtle")
    chart, _ = liuyao_inputs(pillars="庚寅 庚辰 丁巳", lines="886788")
    assert reading_iri(chart) == reading_iri(B)
    assert reading_iri(chart) != reading_iri(A)
    assert reading_iri(A, "yiyin-example-a") == URIRef("https://w3id.org/divkg/reading/yiyin-example-a")


def test_querent_errors() -> None:
    with pytest.raises(KgError, match="已遷"):
        _graph(A, querent={"status": "moved?"})
    with pytest.raises(KgError, match="branch"):
        _graph(A, querent={"birth": "甲"})


# ── command line ─────────────────────────────────────────────────────────────────────────────


def _run(*args: str):
    return CliRunner().invoke(chart_command, list(args))


def test_cli_text() -> None:
    result = _run("--pillars", "庚寅 戊寅 癸亥", "--lines", "977778")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("庚寅年 戊寅月 癸亥日   旬空 子丑\n")
    assert "本卦 澤天夬 (坤宮 五世, 宮屬土)    之 澤風大過 (震宮 游魂, 宮屬木)" in result.output
    assert "青龍  父母 乙巳火     官鬼 甲寅木 ▅▅▅▅▅ 應        妻財 辛亥水 ▅▅▅▅▅" in result.output
    assert "玄武                  妻財 甲子水 ▅▅▅▅▅       ○   兄弟 辛丑土 ▅▅ ▅▅ 應" in result.output


def test_cli_turtle_and_json() -> None:
    result = _run(
        "--moment", "2070-04-22T12:00", "--hexagram", "豫", "--moving", "3",
        "--status", "已遷", "--birth", "寅", "--gua-shen", "none", "--format", "turtle",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    g = Graph().parse(data=result.output, format="turtle")
    (reading,) = g.subjects(RDF.type, DK.Reading)
    assert (reading, DK.querentStatus, concept("status", "moved")) in g
    assert (reading, DK.birthBranch, concept("br", "yin")) in g
    assert (reading, DK.pillarsGiven, Literal(False)) in g
    assert _ask(g, f"<{reading}> dk:option [ dk:name 'gua_shen' ; rdf:value 'none' ]")
    assert _ask(
        g, f"<{reading}> dk:moment ?m ; dk:hourPillar [ dk:pillarKind pillar:hour ] ; dk:ziHourRule '23:00'"
    )
    assert not _ask(g, "?l dk:role role:guashen")
    result = _run("--pillars", "庚寅 庚辰 丁巳", "--coins", "TTT TTT HHH HTT TTT TTT", "--format", "json")
    assert result.exit_code == 0, result.output
    assert '"values": [\n    6,\n    6,\n    9,' in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--pillars", "庚寅 戊寅 癸亥", "--lines", "977758"), "line value '5' at line 5"),
        (("--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--birth", "甲"), "not an earthly branch"),
        (("--pillars", "庚寅 戊寅 癸亥"), "give the cast"),
        (("--lines", "977778", "--noble", "D"), "'D' is not one of"),
    ],
)
def test_cli_errors(args: tuple[str, ...], message: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_cli_topic() -> None:
    result = _run(
        "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--topic", "無此占", "--format", "turtle"
    )
    assert result.exit_code == 2
    assert "unknown topic" in result.stderr


# ── ontology/examples/yiyin-example-a.ttl ────────────────────────────────────────────────────


def test_example_file_is_current() -> None:
    """The file is what the command in its header prints, and the example A chart with 遷移."""
    text = EXAMPLE_FILE.read_text(encoding="utf-8")
    command = next(line for line in text.splitlines() if line.startswith("#   kg chart liuyao "))
    args = shlex.split(command.removeprefix("#   kg chart liuyao ").split(" > ")[0])
    result = _run(*args)
    assert result.exit_code == 0, result.output
    stored = Graph().parse(data=text, format="turtle")
    assert isomorphic(stored, Graph().parse(data=result.output, format="turtle"))
    expected = chart_graph(A, reading_iri(A, "yiyin-example-a"), topic=concept("topic", "qianyi"))
    assert isomorphic(stored, expected)


def test_above_links_each_line_to_the_one_below(ga: Graph) -> None:
    """世上一爻 (000 ¶38): the line directly above; line 1 has nothing below, line 6 nothing above."""
    above = {(int(a.rsplit("/", 1)[1]), int(b.rsplit("/", 1)[1])) for a, b in ga.subject_objects(DK.above)}
    assert above == {(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)}
