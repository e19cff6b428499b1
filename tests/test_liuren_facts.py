"""The 大六壬 chart as RDF (kg.liuren.facts) and ``kg chart liuren`` (kg.liuren.commands).

Facts are checked by SPARQL on the 癸未 lessons of docs/liuren-doctrine.md §3 (《御定六壬直指》).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import assert_in_vocabulary
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, SKOS

from kg.liuren import KETI, Chart, DayNightRule, General, Options, chart_from_inputs
from kg.liuren.commands import chart_command, liuren_inputs
from kg.liuren.facts import KETI_SLUGS, chart_graph, reading_iri
from kg.vocabulary import DK, concept, sparql_prefixes, vocabulary

EXAMPLE_FILE = Path(__file__).resolve().parent.parent / "ontology" / "examples" / "zhizhi-guiwei-4.ttl"
R = URIRef("https://w3id.org/divkg/reading/test")
DAY = Options(day_night_rule=DayNightRule.DAY)


def _chart(ju: int, day: str = "癸未", options: Options = DAY, **inputs: str) -> Chart:
    return chart_from_inputs(day=day, ju=ju, options=options, **inputs)


def _graph(chart: Chart, topic: URIRef | None = None) -> Graph:
    return chart_graph(chart, R, topic)


def _ask(graph: Graph, where: str) -> bool:
    return graph.query(sparql_prefixes() + f"ASK {{ {where} }}").askAnswer


def _select(graph: Graph, variables: str, where: str) -> set[tuple[str, ...]]:
    """Solutions of ``variables``, IRIs shortened to their last path segment (a slug, a number)."""
    rows = graph.query(sparql_prefixes() + f"SELECT {variables} {{ {where} }}")
    return {tuple(str(v).rsplit("/", 1)[-1] for v in row) for row in rows}


def _spirit(branch: str) -> str:
    return f"<{R}/spirit/{branch}>"


@pytest.fixture(scope="module")
def g4() -> Graph:
    """癸未 第4局 on the 晝 plate (《直指》 002 ¶2–10)."""
    return _graph(_chart(4), topic=concept("topic", "general"))


# ── 癸未 第4局 ───────────────────────────────────────────────────────────────────────────────


def test_reading(g4: Graph) -> None:
    assert _ask(
        g4,
        f"<{R}> a dk:Reading ; dk:system dk:LiuRen ; dk:topic topic:general ; dk:dayGanzhi gz:gui-wei ;"
        " dk:ju 4 ; dk:dayNight dn:day ; dk:nobleDirection dir:backward ; dk:pillarsGiven true ;"
        " dk:nearSolarTerm false",
    )
    # given by 局 only: 月將, 占時 and 月建 unknown, so no 旺相休囚死 and no month or hour pillar
    for absent in ("dk:monthGeneral", "dk:hourBranch", "dk:monthPillar", "dk:hourPillar", "dk:moment"):
        assert not _ask(g4, f"<{R}> {absent} ?x"), absent
    assert not _ask(g4, "?s dk:seasonalState ?x")
    assert _select(g4, "?v", f"<{R}> dk:option [ dk:name 'shehai_variant' ; rdf:value ?v ]") == {("zhinan",)}
    assert len(set(g4.objects(R, DK.option))) == 7
    assert _ask(g4, f"<{R}> dk:dayPillar [ dk:ganzhi gz:gui-wei ; dk:pillarKind pillar:day ]")


def test_keti(g4: Graph) -> None:
    keti = {k for (k,) in _select(g4, "?k", f"<{R}> dk:keti ?k")}
    assert keti == {"zeike", "yuanshou", "zhanguan", "jiase", "bikou", "youzi"}


def test_spirit_and_gan(g4: Graph) -> None:
    """干上 戌 sits on 丑 (癸寄丑); 戌 土 overcomes 癸 水 (官鬼), and carries 甲 (旬首) and 白虎."""
    assert _ask(
        g4,
        f"<{R}> dk:ganShang ?s . ?s a dk:Spirit ; dk:branch br:xu ; dk:seat br:chou ; dk:seatClass seat:ji ;"
        " dk:element el:earth ; dk:yinYang yy:yang ; dk:dunStem stem:jia ; dk:relative rel:guangui ;"
        " dk:general general:baihu ; dk:void false ; dk:seatVoid false ; dk:stage stage:shuai ;"
        f" dk:shensha star:kuigang ; dk:label '河魁 戌 加 丑 乘 白虎' . <{R}> dk:gan ?g ."
        " ?g a dk:DayStem ; dk:stem stem:gui ; dk:element el:water ; dk:yinYang yy:yin ; dk:lodging br:chou ."
        " ?s dk:ke ?g",
    )
    assert _ask(g4, f"<{R}> dk:zhiShang {_spirit('chen')} ; dk:zhi [ a dk:DayBranch ; dk:branch br:wei ]")
    assert _ask(g4, f"<{R}> dk:entity <{R}/gan>, <{R}/zhi>, {_spirit('zi')}, {_spirit('hai')}")
    assert len(set(g4.objects(R, DK.spirit))) == 12


def test_lessons(g4: Graph) -> None:
    rows = _select(
        g4,
        "?n ?u ?w ?r",
        f"<{R}> dk:lesson ?l . ?l dk:lessonNumber ?n ; dk:upper ?u ; dk:lower ?w ; dk:lessonRelation ?r",
    )
    found = {int(n): (u, w, r) for n, u, w, r in rows}
    assert found == {
        1: ("xu", "gan", "shangkexia"),  # 戌/癸: 戌土克癸水
        2: ("wei", "xu", "lesson-bihe"),  # 未/戌: the lower is the 干上神 戌
        3: ("chen", "zhi", "lesson-bihe"),  # 辰/未
        4: ("chou", "chen", "lesson-bihe"),  # 丑/辰: the lower is the 支上神 辰
    }
    assert _ask(g4, f"<{R}/lesson/2> dk:lower ?s . <{R}> dk:ganShang ?s")
    uppers = {u for (u,) in _select(g4, "?u", f"<{R}> dk:lessonUpper ?u")}
    assert uppers == {"xu", "wei", "chen", "chou"}


def test_transmissions(g4: Graph) -> None:
    """三傳 戌 未 辰 with 遁干 甲 癸 庚; 初傳 = 干上神, 末傳 = 支上神."""
    rows = _select(
        g4,
        "?k ?b ?d",
        f"VALUES (?p ?k) {{ (dk:firstTransmission 1) (dk:middleTransmission 2) (dk:lastTransmission 3) }}"
        f" <{R}> ?p ?s . ?s dk:branch ?b ; dk:dunStem ?d",
    )
    assert sorted((int(k), b, d) for k, b, d in rows) == [
        (1, "xu", "jia"),
        (2, "wei", "gui"),
        (3, "chen", "geng"),
    ]
    assert len(set(g4.objects(R, DK.transmission))) == 3
    assert _ask(
        g4, f"<{R}> dk:firstTransmission ?s ; dk:ganShang ?s ; dk:lastTransmission ?t ; dk:zhiShang ?t"
    )


def test_noble_and_generals(g4: Graph) -> None:
    """晝 貴人 of 癸 is 巳 (table A), seated on 申 (巳午未申酉戌 → 逆)."""
    assert _ask(g4, f"{_spirit('si')} dk:general general:guiren ; dk:seat br:shen")
    assert len(_select(g4, "?s", "?s dk:general ?g")) == 12
    # 將 → 神: 螣蛇 (火) on 辰 生; 天空 (土) on 亥 克; 勾陳 (土) on 丑 比和; 白虎 (金) on 戌 (土): 神生將
    assert _ask(g4, f"{_spirit('chen')} dk:general general:tengshe ; dk:generalRelation relation:sheng")
    assert _ask(g4, f"{_spirit('hai')} dk:general general:tiankong ; dk:generalRelation relation:ke")
    assert _ask(g4, f"{_spirit('chou')} dk:general general:gouchen ; dk:generalRelation relation:bihe")
    assert _ask(g4, f"{_spirit('xu')} dk:general general:baihu ; dk:generalRelation relation:shengjiang")


def test_void_and_stars(g4: Graph) -> None:
    """甲戌旬: 申酉 空 (no 遁干), 丁 on 丑 (丁神); 魁罡 辰 戌; 祿 of 癸 is 子, 日德 巳 (戊癸 德在巳), 墓神 辰
    (壬癸 墓辰, docs/liuren-doctrine.md §5.1); the stars of 未's group 亥卯未: 驛馬 巳, 桃花 (咸池) 子, 將星 卯,
    華蓋 未, 劫煞 申, 災煞 酉, 亡神 寅, 謀星 丑."""
    void = {b for (b,) in _select(g4, "?b", "?s dk:void true ; dk:branch ?b")}
    assert void == {"shen", "you"}
    assert not _ask(g4, f"{_spirit('shen')} dk:dunStem ?d")
    seat_void = {b for (b,) in _select(g4, "?b", "?s dk:seatVoid true ; dk:branch ?b")}
    assert seat_void == {"si", "wu"}  # 巳 on 申, 午 on 酉
    assert _select(g4, "?b ?star", "?s dk:shensha ?star ; dk:branch ?b") == {
        ("chou", "dingshen"),
        ("chen", "kuigang"),
        ("xu", "kuigang"),
        ("zi", "lu"),
        ("si", "ride"),
        ("chen", "mushen"),
        ("si", "yima"),
        ("zi", "taohua"),
        ("mao", "jiangxing"),
        ("wei", "huagai"),
        ("shen", "jiesha"),
        ("you", "zaisha"),
        ("yin", "wangshen"),
        ("chou", "mouxing"),
    }


def test_relations(g4: Graph) -> None:
    gan, zhi = f"<{R}/gan>", f"<{R}/zhi>"
    assert _ask(
        g4, f"{_spirit('xu')} dk:ke {gan} . {gan} dk:sheng {_spirit('yin')} . {gan} dk:bihe {_spirit('zi')}"
    )
    assert _ask(
        g4,
        f"{_spirit('chou')} dk:chong {zhi} . {zhi} dk:chong {_spirit('chou')} . {zhi} dk:bing {_spirit('wei')}",
    )
    assert _ask(g4, f"{_spirit('xu')} dk:xing {_spirit('wei')} . {_spirit('wei')} dk:xing {_spirit('chou')}")
    assert _ask(g4, f"{_spirit('zi')} dk:xing {_spirit('mao')} . {_spirit('mao')} dk:xing {_spirit('zi')}")
    assert _ask(g4, f"{_spirit('mao')} dk:he {_spirit('xu')} . {_spirit('zi')} dk:hai {_spirit('wei')}")
    assert _ask(g4, f"{_spirit('xu')} dk:po {zhi} . {_spirit('chen')} dk:bihe {_spirit('xu')}")
    # the 干 by its 寄宮 丑 (docs/liuren-doctrine.md §5.4): 丑未沖, 子丑合, 丑刑戌, 丑午害, 丑辰破, 丑 並 丑
    assert _ask(
        g4,
        f"{gan} dk:chong {zhi} . {_spirit('zi')} dk:he {gan} . {gan} dk:xing {_spirit('xu')} . "
        f"{_spirit('wu')} dk:hai {gan} . {_spirit('chen')} dk:po {gan} . {_spirit('chou')} dk:bing {gan}",
    )
    assert not _ask(g4, f"{gan} dk:chong {_spirit('wu')}")
    assert not _ask(g4, "?x dk:sheng ?x")


# ── other lessons of docs/liuren-doctrine.md §3 ────────────────────────────────────────────────────────────────


def test_guiwei_5_last_transmission_void() -> None:
    g = _graph(_chart(5))
    assert _ask(g, f"<{R}> dk:lastTransmission ?s . ?s dk:branch br:you ; dk:void true")
    assert not _ask(g, f"<{R}> dk:lastTransmission [ dk:dunStem ?d ]")
    assert _ask(g, f"<{R}> dk:keti keti:shehai, keti:chawei, keti:congge, keti:zeike")


def test_guiwei_6_seat_void() -> None:
    """卯 sits on 申, 空 in 甲戌旬 (落空); 卯/申 is the one 下賊上 (重審, 斫輪)."""
    g = _graph(_chart(6))
    assert _ask(g, f"{_spirit('mao')} dk:seat br:shen ; dk:seatVoid true ; dk:void false")
    assert _ask(g, f"<{R}> dk:firstTransmission {_spirit('mao')} ; dk:ganShang {_spirit('shen')}")
    assert _ask(
        g,
        f"<{R}/lesson/2> dk:upper {_spirit('mao')} ; dk:lower {_spirit('shen')} ; dk:lessonRelation relation:xiazeishang",
    )
    assert _ask(g, f"<{R}> dk:keti keti:chongshen, keti:zhuolun, keti:luowang")


def test_guiwei_7_and_12_subtypes() -> None:
    assert _ask(_graph(_chart(7)), f"<{R}> dk:keti keti:fanyin, keti:wuyi, keti:yuanshou, keti:luanshou")
    g = _graph(_chart(12))
    assert _ask(g, f"<{R}> dk:keti keti:maoxing, keti:yanmu")
    assert not _ask(g, f"<{R}> dk:keti keti:zeike")


def test_unknown_day_night() -> None:
    """By 局 alone the 占時 is unknown, so 晝/夜 is unknown: no 天將, no direction."""
    g = _graph(_chart(4, options=Options()))
    for pattern in (
        "?s dk:general ?g",
        "?s dk:generalRelation ?r",
        f"<{R}> dk:dayNight ?d",
        f"<{R}> dk:nobleDirection ?d",
    ):
        assert not _ask(g, pattern), pattern
    assert _ask(g, f"{_spirit('xu')} dk:label '河魁 戌 加 丑'")


def test_hour_month_and_birth() -> None:
    """月將 戌 on 占時 丑 is 第4局; 月建 卯 (春: 木旺 土死); 年命 子 with 上神 酉; 夜 (丑)."""
    chart = chart_from_inputs(day="癸未", hour="丑", general="河魁", month="卯", birth="子")
    assert chart.ju == 4
    g = _graph(chart)
    assert _ask(
        g,
        f"<{R}> dk:monthGeneral br:xu ; dk:hourBranch br:chou ; dk:dayNight dn:night ; dk:birthBranch br:zi ;"
        f" dk:birthSpirit {_spirit('you')} ; dk:monthPillar [ dk:branch br:mao ; dk:element el:wood ] ;"
        " dk:hourPillar [ dk:branch br:chou ; dk:relative rel:guangui ]",
    )
    assert not _ask(g, f"<{R}> dk:monthPillar [ dk:stem ?s ]")
    assert _ask(
        g, f"{_spirit('xu')} dk:seasonalState state:si . {_spirit('yin')} dk:seasonalState state:wang"
    )
    # 夜 貴人 of 癸 is 卯, seated on 午 → 逆
    assert _ask(
        g,
        f"{_spirit('mao')} dk:general general:guiren ; dk:seat br:wu . <{R}> dk:nobleDirection dir:backward",
    )
    assert _ask(g, f"<{R}/pillar/month> dk:chong {_spirit('you')} . <{R}/pillar/day> dk:bing <{R}/zhi>")


def test_self_punishment() -> None:
    """自刑 between equal branches: the 支 午 and the spirit 午 (丙午 第1局 伏吟)."""
    g = _graph(_chart(1, day="丙午"))
    assert _ask(
        g, f"<{R}/zhi> dk:xing {_spirit('wu')} ; dk:bing {_spirit('wu')} . {_spirit('wu')} dk:xing <{R}/zhi>"
    )
    assert not _ask(g, f"<{R}/zhi> dk:xing {_spirit('zi')}")


def test_moment() -> None:
    """From a moment: four pillars and the calendar record. 春分 2024 falls at 11:06:21 (Beijing): at
    11:06 the 月將 is still 亥 (from 雨水), and the moment is flagged as near the 中氣."""
    chart = liuren_inputs(moment="2024-03-20T11:06")
    g = _graph(chart)
    assert _ask(
        g,
        f"<{R}> dk:pillarsGiven false ; dk:moment ?m ; dk:calendarLibrary ?lib ; dk:timeZone ?tz ;"
        " dk:ziHourRule '23:00' ; dk:nearSolarTerm true ; dk:monthGeneral br:hai ;"
        " dk:yearPillar [ dk:ganzhi gz:jia-chen ; dk:pillarKind pillar:year ] ; dk:hourPillar [ dk:stem ?s ]",
    )
    assert len(set(g.objects(R, DK.pillar))) == 4
    later = _graph(liuren_inputs(moment="2024-03-20T13:00"))
    assert _ask(later, f"<{R}> dk:nearSolarTerm false ; dk:monthGeneral br:xu")


def test_all_lessons() -> None:
    """Every 7th day of the sixty-cycle in every 局: the graph agrees with the chart on 干上, 初傳, 四課
    and the one 貴人."""
    for index in range(0, 60, 7):
        for ju in range(1, 13):
            chart = chart_from_inputs(day=_day(index), ju=ju, options=DAY)
            g = _graph(chart)
            assert (R, DK.ganShang, URIRef(f"{R}/spirit/{chart.gan_shang.slug}")) in g
            firsts = list(g.objects(R, DK.firstTransmission))
            assert firsts == [URIRef(f"{R}/spirit/{chart.derivation.branches[0].slug}")]
            assert len(set(g.objects(R, DK.lesson))) == 4
            assert len(set(g.subjects(DK.general, concept("general", "guiren")))) == 1


def _day(index: int) -> str:
    return "甲乙丙丁戊己庚辛壬癸"[index % 10] + "子丑寅卯辰巳午未申酉戌亥"[index % 12]


# ── vocabulary, tables, determinism ──────────────────────────────────────────────────────────

CHARTS = {
    "guiwei-4": lambda: _chart(4),
    "unknown-day-night": lambda: _chart(7, options=Options()),
    "hour-month-birth": lambda: chart_from_inputs(
        day="戊辰", hour="午", general="亥", month="寅", birth="甲子"
    ),
    "moment": lambda: liuren_inputs(moment="2024-03-20T11:06", birth="酉"),
}


@pytest.mark.parametrize("name", CHARTS)
def test_vocabulary(name: str) -> None:
    """Every concept is a skos:Concept of ontology/concepts, every predicate and class is declared in
    ontology/divkg.ttl, and every fact is one the ontology defines for the subject's class, with a
    value of its scheme."""
    assert_in_vocabulary(_graph(CHARTS[name](), topic=concept("topic", "general")))


def test_keti_slugs() -> None:
    """Every 課體 the chart derives has a keti.ttl concept labelled with its name."""
    onto = vocabulary().graph
    assert set(KETI_SLUGS) == {k.name for k in KETI}
    for name, slug in KETI_SLUGS.items():
        labels = {
            str(o) for p in (SKOS.prefLabel, SKOS.altLabel) for o in onto.objects(concept("keti", slug), p)
        }
        assert name in labels, (name, slug)


def test_general_elements_match_vocabulary() -> None:
    onto = vocabulary().graph
    for general in General:
        assert onto.value(concept("general", general.slug), DK.element) == concept("el", general.element.slug)


def test_deterministic() -> None:
    chart = _chart(9)
    assert _graph(chart).serialize(format="turtle") == _graph(_chart(9)).serialize(format="turtle")
    same = liuren_inputs(day="癸未", ju=9, day_night="晝")
    assert reading_iri(same) == reading_iri(chart)
    assert reading_iri(_chart(10)) != reading_iri(chart)
    assert reading_iri(chart, "zhizhi-guiwei-4") == URIRef("https://w3id.org/divkg/reading/zhizhi-guiwei-4")


# ── command line ─────────────────────────────────────────────────────────────────────────────


def _run(*args: str):
    return CliRunner().invoke(chart_command, list(args))


def test_cli_text() -> None:
    result = _run("--day", "癸未", "--hour", "丑", "--general", "河魁")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("癸未日 第4局  月將 戌(河魁)  占時 丑  夜  旬空 申酉\n")
    assert "  初傳 官鬼 甲戌 青龍 臨丑" in result.output
    assert result.output.rstrip().endswith("課體  元首 稼穡 斬關 閉口 遊子 天網")


def test_cli_turtle_and_json() -> None:
    result = _run(
        "--day", "癸未", "--ju", "6", "--day-night", "夜", "--noble-table", "C", "--birth", "午",
        "--walking-year", "寅", "--topic", "通占", "--format", "turtle",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    g = Graph().parse(data=result.output, format="turtle")
    (reading,) = g.subjects(RDF.type, DK.Reading)
    assert (reading, DK.dayNight, concept("dn", "night")) in g
    assert (reading, DK.birthBranch, concept("br", "wu")) in g
    assert _ask(g, f"<{reading}> dk:option [ dk:name 'noble_table' ; rdf:value 'C' ]")
    assert (reading, DK.topic, concept("topic", "general")) in g
    result = _run("--day", "癸未", "--ju", "5", "--format", "json")
    assert result.exit_code == 0, result.output
    assert '"method": "涉害"' in result.output


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--day", "甲丑", "--ju", "4"), 2, "甲丑"),
        (("--day", "癸未", "--hour", "午", "--general", "戌", "--ju", "3"), 2, "第9局, not 第3局"),
        (("--day", "癸未"), 2, "missing input"),
        (("--moment", "2024-03-20T11:06", "--day", "癸未"), 2, "conflicting inputs"),
        (("--day", "癸未", "--ju", "4", "--birth", "甲"), 2, "not an earthly branch"),
        (("--day", "癸未", "--ju", "4", "--topic", "無此占", "--format", "turtle"), 2, "unknown topic"),
    ],
)
def test_cli_errors(args: tuple[str, ...], code: int, message: str) -> None:
    result = _run(*args)
    assert result.exit_code == code, result.output
    assert message in result.stderr


# ── ontology/examples/zhizhi-guiwei-4.ttl ────────────────────────────────────────────────────


def test_example_file_is_current() -> None:
    """The file is what the command in its header prints: 癸未 第4局 晝, topic 通占."""
    text = EXAMPLE_FILE.read_text(encoding="utf-8")
    command = next(line for line in text.splitlines() if line.startswith("#   kg chart liuren "))
    args = shlex.split(command.removeprefix("#   kg chart liuren ").split(" > ")[0])
    result = _run(*args)
    assert result.exit_code == 0, result.output
    stored = Graph().parse(data=text, format="turtle")
    assert isomorphic(stored, Graph().parse(data=result.output, format="turtle"))
    expected = chart_graph(_chart(4), reading_iri(_chart(4), "zhizhi-guiwei-4"), concept("topic", "general"))
    assert isomorphic(stored, expected)
    assert (URIRef("https://w3id.org/divkg/reading/zhizhi-guiwei-4"), DK.ju, Literal(4)) in stored
