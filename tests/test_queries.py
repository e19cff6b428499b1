"""The query library (queries/*.rq) on the built graph, and kg query: formats, time limit, errors."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pyoxigraph as ox
import pytest
from click.testing import CliRunner
from rdflib import Graph

from kg.cli import main
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.query import READING_GRAPH

QUERIES = Path(__file__).resolve().parent.parent / "queries"
EXAMPLE_A = Path(__file__).resolve().parent.parent / "ontology" / "examples" / "yiyin-example-a.ttl"
WORM = "木父加虎動，與日雀日虎，動沖木父者陰爻，棟蛀。陽爻，柱蛀也。"
LEAK = "父下伏水鬼，棟必漏也。"
SHOULD_MOVE = "卦逢六沖，與八純，游魂，及世居五爻者，宜遷也。"  # 《易隱》〈遷移占〉論吉凶


@pytest.fixture(scope="module")
def store(built_graph: Path) -> ox.Store:
    """The built graph, with 《易隱》 example A (夬之大過, 世 on line 5) as the reading graph."""
    store = KnowledgeGraph.load(built_graph).store
    store.load(path=str(EXAMPLE_A), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode(READING_GRAPH))
    return store


def run(store: ox.Store, name: str) -> list[dict[str, str]]:
    results = store.query((QUERIES / name).read_text(encoding="utf-8"), use_default_graph_as_union=True)
    names = [v.value for v in results.variables]
    return [{n: t.value for n, t in zip(names, row, strict=True) if t is not None} for row in results]


def column(rows: list[dict[str, str]], name: str) -> set[str]:
    return {r[name] for r in rows if name in r}


def test_every_query_is_documented() -> None:
    files = sorted(QUERIES.glob("*.rq"))
    assert len(files) >= 12
    for f in files:
        assert f.read_text(encoding="utf-8").startswith("# "), f.name


def test_rules_by_concept(store: ox.Store) -> None:
    rows = run(store, "rules-by-concept.rq")  # 白虎
    assert WORM in column(rows, "quote")
    assert "干乘墓虎毋占病" in column(rows, "quote")  # 《直指》: the 天將 白虎 is the same label


def test_rules_by_topic(store: ox.Store) -> None:
    rows = run(store, "rules-by-topic.rq")  # 家宅 and narrower
    assert {"棟梁", "墳墓"} <= column(rows, "topic")
    assert LEAK in column(rows, "quote")
    assert SHOULD_MOVE not in column(rows, "quote")  # 遷移 is not under 家宅


def test_rules_by_work(store: ox.Store) -> None:
    rows = run(store, "rules-by-work.rq")  # 《易隱》
    assert {r["ruleId"].split(".")[0] for r in rows} == {"yiyin"}
    assert any(r["quote"] == "以六爻木父為用也。" and r["kind"] == "DefinitionRule" for r in rows)


def test_rules_by_polarity(store: ox.Store) -> None:
    rows = run(store, "rules-by-polarity.rq")  # 凶
    assert "棟必漏" in column(rows, "wording")
    assert SHOULD_MOVE not in column(rows, "quote")  # 宜遷 is 吉


def test_rules_from_paragraph(store: ox.Store) -> None:
    rows = run(store, "rules-from-paragraph.rq")  # 《易隱》 ¶6
    assert {"sentence": "urn:cts:divkg:yiyin.juan4.zh:6.3", "quote": LEAK} in [
        {k: r[k] for k in ("sentence", "quote")} for r in rows
    ]
    assert all(r["sentence"].startswith("urn:cts:divkg:yiyin.juan4.zh:6.") for r in rows)


def test_concept_labels(store: ox.Store) -> None:
    rows = {r["zh"]: r for r in run(store, "concept-labels.rq")}  # the six beasts
    assert (rows["玄武"]["ko"], rows["玄武"]["en"]) == ("현무", "Black Warrior")
    assert "元武" in rows["玄武"]["variants"].split("、")
    assert rows["白虎"]["ko"] == "백호"


def test_outcome_term(store: ox.Store) -> None:
    rows = run(store, "outcome-term.rq")  # 漏
    assert LEAK in column(rows, "quote")
    assert all("漏" in r.get("wording", "") or "leak" in r.get("gloss", "").lower() for r in rows)


def test_text_only(store: ox.Store) -> None:
    rows = run(store, "text-only.rq")
    assert "三土並見，創造將興而子亡也。" in column(rows, "quote")  # 《易隱》 棟樑, kept as text
    assert all(r["reason"] for r in rows)


def test_rule_query(store: ox.Store) -> None:
    (row,) = run(store, "rule-query.rq")  # yiyin.dongliang.leak: 父下伏水鬼
    assert row["conditions"] == "[L.relative 父母, H.under L, H.element 水, H.relative 官鬼]"
    assert "dk:hiddenLine" in row["query"] and "rel:guangui" in row["query"] and "el:water" in row["query"]


def test_works(store: ox.Store) -> None:
    rows = {r["title"]: r for r in run(store, "works.rq")}
    assert set(rows) == {"易隱", "黃金策", "御定六壬直指", "大六壬銀河棹"}
    assert rows["易隱"]["citation"].startswith("曹九錫輯、曹璿演《易隱》卷四〈家宅占〉")
    assert "lhw828/GuWen" in rows["黃金策"]["witness"]


def test_topics(store: ox.Store) -> None:
    broader = {r["topic"]: r.get("broader") for r in run(store, "topics.rq")}
    assert (
        broader["棟梁"] == "家宅" and broader["放債"] == "求財"
    )  # docs/architecture.md §4: 家宅 > 棟梁, 求財 > 放債


def test_definitions(store: ox.Store) -> None:
    rows = run(store, "definitions.rq")
    assert {"quote": "以六爻木父為用也。", "asserts": "L.role 用神"} in [
        {k: r[k] for k in ("quote", "asserts")} for r in rows
    ]


def test_exceptions(store: ox.Store) -> None:
    rows = run(store, "exceptions.rq")
    # 《易隱》 倉廒: 「又財加龍…為倉廒。」 then 「動變則非也。」
    assert ("動變則非也。", "又財加龍，臨庚申、丁酉、癸酉相生有氣，為倉廒。") in {
        (r["exceptionQuote"], r["overriddenQuote"]) for r in rows
    }


def test_readings(store: ox.Store, built_graph: Path) -> None:
    """A reading graph as kg reading could store it: the chart facts plus dk:triggered links."""
    chart = Graph().parse(EXAMPLE_A, format="turtle")
    reading = Reading(chart)
    applied = retrieve(KnowledgeGraph.load(built_graph), reading, None)
    triggered = [
        ox.Quad(reading.iri, ox.NamedNode("https://w3id.org/divkg/triggered"), ox.NamedNode(a.rule))
        for a in applied
        if a.status == "applies"
    ]
    local = KnowledgeGraph.load(built_graph).store
    local.load(path=str(EXAMPLE_A), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode(READING_GRAPH))
    local.extend([ox.Quad(q.subject, q.predicate, q.object, ox.NamedNode(READING_GRAPH)) for q in triggered])
    rows = run(local, "readings.rq")
    assert SHOULD_MOVE in column(rows, "quote")  # example A: 世 on line 5 of 夬


def test_retrieval_steps(store: ox.Store) -> None:
    steps = run(store, "retrieval.rq")  # (a) the rules of 遷移 and broader topics
    by_id = {r["ruleId"]: r for r in steps}
    should_move = by_id["yiyin.qianyi.should-move"]
    assert should_move["topic"] == "遷移"
    fire = (QUERIES / "retrieval-fire.rq").read_text(encoding="utf-8")
    compiled = should_move["sparql"]
    body = re.sub(r"\s+", " ", compiled[compiled.index("WHERE") :]).strip()
    assert body == re.sub(r"\s+", " ", fire[fire.index("WHERE") :]).strip()  # the file is the compiled query
    (fired,) = run(store, "retrieval-fire.rq")  # (b) on example A
    assert fired["S"].endswith("/line/5")  # 世居五爻
    quotes = column(run(store, "retrieval-provenance.rq"), "quote")  # (c)
    assert SHOULD_MOVE in quotes and "世居酉福，正西吉也。" in quotes


def kg_query(graph: Path, *args: str):
    return CliRunner().invoke(main, ["query", *args, "--graph", str(graph)])


def test_cli_formats(built_graph: Path, tmp_path: Path) -> None:
    query = str(QUERIES / "rules-from-paragraph.rq")
    table = kg_query(built_graph, query)
    assert table.exit_code == 0 and LEAK in table.output and table.output.rstrip().endswith("rows)")
    rows = list(csv.DictReader(io.StringIO(kg_query(built_graph, query, "--format", "csv").output)))
    assert LEAK in {r["quote"] for r in rows}
    data = json.loads(kg_query(built_graph, query, "--format", "json").output)
    assert LEAK in {b["quote"]["value"] for b in data["results"]["bindings"]}
    construct = tmp_path / "leak.rq"
    construct.write_text(
        "PREFIX dk: <https://w3id.org/divkg/>\n"
        'CONSTRUCT { ?r dk:ruleId ?id } WHERE { ?r dk:ruleId ?id FILTER(?id = "yiyin.dongliang.leak") }\n',
        encoding="utf-8",
    )
    turtle = kg_query(built_graph, str(construct), "--format", "turtle").output
    assert len(Graph().parse(data=turtle, format="turtle")) == 1 and "rule:yiyin.dongliang.leak" in turtle
    assert kg_query(built_graph, query, "--format", "turtle").exit_code == 2  # a SELECT has no Turtle


def test_cli_reading_graph(built_graph: Path) -> None:
    result = kg_query(built_graph, str(QUERIES / "retrieval-fire.rq"), "--reading", str(EXAMPLE_A))
    assert result.exit_code == 0 and "/line/5" in result.output


def test_malformed_query(built_graph: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.rq"
    bad.write_text("SELECT ?x WHERE { ?x ?y }", encoding="utf-8")
    result = kg_query(built_graph, str(bad))
    assert result.exit_code == 2
    assert "malformed query" in result.stderr and "error at 1:" in result.stderr


def test_missing_file(built_graph: Path, tmp_path: Path) -> None:
    result = kg_query(built_graph, str(tmp_path / "nothing.rq"))
    assert result.exit_code == 2 and "no such query file" in result.stderr


def test_time_limit(built_graph: Path, tmp_path: Path) -> None:
    slow = tmp_path / "slow.rq"
    slow.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", encoding="utf-8")
    result = kg_query(built_graph, str(slow), "--timeout", "1")
    assert result.exit_code == 2
    assert "time limit (1 s)" in result.stderr
