"""Procedures of the texts as outcome parameters: the figures the passages themselves work out."""

import csv
import textwrap
from datetime import date, datetime
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Graph

from kg.build import build
from kg.errors import KgError
from kg.ganzhi import Branch
from kg.liuren import chart_from_inputs
from kg.liuren.facts import chart_graph, reading_iri
from kg.liuren.procedures import XIANTIAN
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.registry import PROCEDURES
from kg.vocabulary import vocabulary

PREFIX_TTL = """
@prefix dk: <https://w3id.org/divkg/> .
@prefix br: <https://w3id.org/divkg/concept/branch/> .
@prefix state: <https://w3id.org/divkg/concept/state/> .
@prefix topic: <https://w3id.org/divkg/concept/topic/> .
"""
READING = "https://w3id.org/divkg/reading/p"
SPIRIT_IRI = ox.NamedNode(f"{READING}/s")
STEM_OF = {"亥": "乙", "卯": "乙", "子": "甲", "午": "甲", "酉": "乙"}
"""A day stem for each day branch the tomb-plate examples need (any stem of the branch's parity)."""
SPIRIT = (
    PREFIX_TTL
    + """
<https://w3id.org/divkg/reading/p> a dk:Reading ; dk:system dk:LiuRen ; dk:topic topic:taowang ; dk:spirit <https://w3id.org/divkg/reading/p/s> .
<https://w3id.org/divkg/reading/p/s> dk:branch br:{branch} ; dk:seat br:{seat} ; dk:seasonalState state:{state} .
"""
)


def store(branch: str, seat: str, state: str) -> ox.Store:
    s = ox.Store()
    s.load(SPIRIT.format(branch=branch, seat=seat, state=state).encode(), format=ox.RdfFormat.TURTLE)
    return s


def test_xiantian_numbers_fit_the_worked_figures():
    # ¶12 如子午則二九十八 ; ¶76 假令戌加丑位上，五八十三
    assert XIANTIAN[Branch.ZI] == XIANTIAN[Branch.WU] == 9
    assert XIANTIAN[Branch.XU] + XIANTIAN[Branch.CHOU] == 13


@pytest.mark.parametrize(("state", "expected"), [("xiu", "13里"), ("wang", "26里"), ("si", "6.5里")])
def test_li_distance_of_xu_on_chou(state, expected):
    """¶76: 戌加丑 = 五八十三 里; 旺相倍因囚死半，休當本數."""
    spirit = ox.NamedNode("https://w3id.org/divkg/reading/p/s")
    assert PROCEDURES["li"].run(store("xu", "chou", state), spirit).startswith(expected)


def test_amount_of_zi_on_wu():
    spirit = ox.NamedNode("https://w3id.org/divkg/reading/p/s")
    assert PROCEDURES["amount"].run(store("zi", "wu", "xiu"), spirit) == "18"


def test_a_rule_reports_a_procedure_parameter(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "t.yaml").write_text(
        textwrap.dedent("""
        work: yinhezhao
        rules:
          - id: t.li
            para: 76
            quote: 假令戌加丑位上，五八十三不謬妄。
            vars: {S: spirit}
            when: [S.branch 戌]
            then: {polarity: 中, zh: 五八十三, en: distance, param: {distance: li(S)}}
        """),
        encoding="utf-8",
    )
    build(tmp_path / "out", rules)
    kg = KnowledgeGraph.load(tmp_path / "out" / "kg.nq")
    chart = Graph().parse(data=SPIRIT.format(branch="xu", seat="chou", state="xiu"), format="turtle")
    (found,) = retrieve(kg, Reading(chart))
    assert found.parameters["distance"].startswith("13里")
    assert "urn:cts:divkg:yinhezhao.qiucai-yishi.zh:76" in found.parameters["distance"]
    # retrieval knows only the procedures a loaded chart system has registered
    monkeypatch.delitem(PROCEDURES, "li")
    with pytest.raises(KgError, match="unknown procedure 'li'"):
        retrieve(kg, Reading(chart))


def test_every_procedure_a_rule_names_is_registered(built_graph):
    named = {
        row["p"].value
        for row in KnowledgeGraph.load(built_graph).query("SELECT DISTINCT ?p WHERE { ?x dk:procedure ?p }")
    }
    # the 《銀河棹》 procedures of ¶12, ¶40/42, ¶54, ¶66/74, ¶72 and ¶76
    assert {"amount", "li", "counted-li", "separation", "tomb-plate", "capture-time", "lichun-board"} <= named
    assert named <= PROCEDURES.keys()


def test_the_procedures_the_ontology_declares_are_the_registered_ones():
    """The compiler checks names against ontology/divkg.ttl; each chart system registers its own."""
    import kg.liuyao  # noqa: F401  (registers the 六爻 procedures, if it has any)

    assert vocabulary().procedures == PROCEDURES.keys()


def reading_store(chart) -> tuple[ox.Store, dict[str, ox.NamedNode]]:
    """A chart's reading store and the entities the reading links by name (zhi, lastTransmission …)."""
    s = Reading(chart_graph(chart, reading_iri(chart))).store
    links = {}
    for quad in s.quads_for_pattern(None, None, None):
        name = quad.predicate.value.rsplit("/", 1)[1]
        if isinstance(quad.object, ox.NamedNode) and quad.subject.value == reading_iri(chart).toPython():
            links.setdefault(name, quad.object)
    return s, links


def spirit(links: dict[str, ox.NamedNode], branch: Branch) -> ox.NamedNode:
    return ox.NamedNode(links["zhi"].value.rsplit("/", 1)[0] + f"/spirit/{branch.slug}")


def test_counted_li_fits_the_worked_case():
    """¶76 魁去戌前若四辰，約行四里: 戌 four places ahead of its own place (on 寅), 休 — four 里."""
    assert PROCEDURES["counted-li"].run(store("xu", "yin", "xiu"), SPIRIT_IRI).startswith("4里 (4 places")
    assert PROCEDURES["counted-li"].run(store("xu", "yin", "wang"), SPIRIT_IRI).startswith("8里")


@pytest.mark.parametrize(
    ("seat", "day", "expected"),
    [("wu", "zi", "6 places"), ("zi", "zi", "0 places"), ("hai", "chou", "2 places")],
)
def test_separation_counts_the_shorter_way_round(seat, day, expected):
    """¶54 離辰遠近: the seat of the 類神 against the day branch; 子 and 午 are opposite, six apart."""
    s = store("chou", seat, "xiu")
    s.load(f"{PREFIX_TTL}<{READING}> dk:zhi <{READING}/zhi> . <{READING}/zhi> dk:branch br:{day} .".encode(),
           format=ox.RdfFormat.TURTLE)  # fmt: skip
    assert PROCEDURES["separation"].run(s, SPIRIT_IRI).startswith(expected)


@pytest.mark.parametrize(
    ("day", "hour", "tomb", "kui", "gang"),
    [
        ("亥", "子", "未", "卯", "酉"),  # ¶66 假如亥卯日逃，以未
        ("卯", "子", "未", "卯", "酉"),
        ("子", "午", "辰", "子", "午"),  # ¶66 甲子日以辰加正時
        ("午", "子", "戌", "子", "午"),  # ¶74 寅午戌日戌加時
        ("酉", "卯", "丑", "子", "午"),  # ¶74 巳酉丑日從丑施
    ],
)
def test_tomb_plate(day, hour, tomb, kui, gang):
    """¶66/¶74: the 三合 tomb of the day branch on the hour; where 河魁 (戌) and 天罡 (辰) then sit."""
    chart = chart_from_inputs(day=f"{STEM_OF[day]}{day}", hour=hour, general="子")
    s, links = reading_store(chart)
    assert (
        PROCEDURES["tomb-plate"].run(s, links["zhi"])
        == f"墓 {tomb} 加 {hour}: 河魁 戌 臨 {kui}, 天罡 辰 臨 {gang}"
    )


def test_capture_time_counts_to_zi():
    """¶72: 末傳 and its 六沖; the spirit over the 地盤 月建; both counted forward to 子."""
    chart = chart_from_inputs(day="癸未", ju=4, month="寅")  # 三傳 戌未辰 (《直指》 癸未日第四局)
    s, links = reading_store(chart)
    # 末傳 辰 clashes 戌 (two places before 子); over 寅 sits 亥 on 第4局 (干上 戌 over 丑), one place before 子.
    assert PROCEDURES["capture-time"].run(s, links["lastTransmission"]) == (
        "末傳 辰 沖 戌, 2 places to 子; 月建上 亥, 1 place to 子"
    )


def fixture_row(day: str, ju: int) -> dict[str, str]:
    path = Path(__file__).parent / "fixtures" / "liuren-720.tsv"
    with path.open(encoding="utf-8", newline="") as f:
        return next(r for r in csv.DictReader(f, delimiter="\t") if r["day"] == day and r["ju"] == str(ju))


def sexagenary_day(d: date) -> str:
    """The day 干支 counted from 2000-01-01, a 戊午 day."""
    i = (54 + (d - date(2000, 1, 1)).days) % 60
    return "甲乙丙丁戊己庚辛壬癸"[i % 10] + "子丑寅卯辰巳午未申酉戌亥"[i % 12]


@pytest.mark.parametrize(
    ("moment", "lichun", "hour", "taisui", "ju"),
    [
        # 立春 2026: 4 Feb 04:02 (Hong Kong Observatory); 寅時; 丙午 year. 月將 子 (from 大寒) on 寅 = 第3局.
        ("2026-11-30T12:00", datetime(2026, 2, 4, 4, 2), "寅", "午", 3),
        # Before that 立春 the year is 乙巳, opened by 立春 2025: 3 Feb 22:10, 亥時; 子 on 亥 = 第12局.
        ("2026-01-20T08:00", datetime(2025, 2, 3, 22, 10), "亥", "巳", 12),
    ],
)
def test_lichun_board(moment, lichun, hour, taisui, ju):
    """¶40 月將加立春時定四課三傳，視太歲上何類神: the 立春 plate against the 720-lesson table."""
    day = sexagenary_day(lichun.date())
    row = fixture_row(day, ju)
    s, links = reading_store(chart_from_inputs(moment=moment))
    over = Branch.from_char(taisui) + (1 - ju)
    general = row["night_plate"].split(",")[over % 12]  # 酉–寅 hours: the 夜 plate
    upper = "".join(row[f"ke{i}_upper"] for i in range(1, 5))
    chuan = "".join(row[f"chuan{i}"] for i in range(1, 4))
    assert PROCEDURES["lichun-board"].run(s, links["yearPillar"]) == (
        f"立春 {lichun:%Y-%m-%d %H:%M}: {day}日 {hour}時, 月將 子 加 {hour} (第{ju}局); 四課上 {upper}; "
        f"三傳 {chuan}; 太歲 {taisui} 上 {'子丑寅卯辰巳午未申酉戌亥'[over % 12]} ({general})"
    )


def test_lichun_board_needs_the_moment():
    s, links = reading_store(chart_from_inputs(day="癸未", ju=4))
    assert PROCEDURES["lichun-board"].run(s, links["zhi"]).startswith("? (needs the moment")
