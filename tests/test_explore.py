"""kg explore: the rule–concept network, its paths, centrality, similarity, contradictions and exports."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.compile import RuleCompiler
from kg.explore import (
    Conditions,
    contains,
    contradictions,
    cooccurrence,
    doctrine_graph,
    read_conditions,
    shortest_path,
    similar,
)
from kg.match import KnowledgeGraph

LEAK = "https://w3id.org/divkg/rule/yiyin.dongliang.leak"  # 「父下伏水鬼，棟必漏也。」
FUMU, GUANGUI = (f"https://w3id.org/divkg/concept/relative/{s}" for s in ("fumu", "guangui"))


@pytest.fixture(scope="module")
def kg(built_graph: Path) -> KnowledgeGraph:
    return KnowledgeGraph.load(built_graph)


@pytest.fixture(scope="module")
def graph(kg: KnowledgeGraph) -> nx.Graph:
    return doctrine_graph(kg)


def explore(graph: Path, *args: str):
    return CliRunner().invoke(main, ["explore", "--graph", str(graph), *args])


def test_graph_holds_rules_concepts_topics_sentences_works(graph: nx.Graph) -> None:
    assert graph.nodes[LEAK]["kind"] == "rule"
    neighbours = {graph.nodes[n]["label"]: graph[LEAK][n]["relation"] for n in graph[LEAK]}
    # 父下伏水鬼: a hidden Water 官鬼 under the 父母 line
    assert {neighbours[x] for x in ("父母", "官鬼", "水")} == {"mentions"}
    assert neighbours["棟梁"] == "topic"
    assert neighbours["易隱"] == "work"
    assert neighbours["urn:cts:divkg:yiyin.juan4.zh:6.3"] == "derivedFrom"


def test_neighbours(built_graph: Path) -> None:
    out = explore(built_graph, "neighbours", "白虎").output
    assert "yiyin.dongliang.worm.yin" in out  # 「木父加虎動…」
    rule = explore(built_graph, "neighbours", "yiyin.dongliang.leak").output
    assert "urn:cts:divkg:yiyin.juan4.zh:6.3" in rule and "官鬼 (rel:guangui)" in rule
    assert explore(built_graph, "neighbours", "無此概念").exit_code == 2


def test_path(graph: nx.Graph, built_graph: Path) -> None:
    path = shortest_path(graph, "父母", "官鬼")
    assert path[0] == FUMU and path[-1] == GUANGUI
    assert len(path) == 3 and graph.nodes[path[1]]["kind"] == "rule"  # one rule names both, e.g. 父下伏水鬼
    out = explore(built_graph, "path", "白虎", "水").output
    assert re.match(r"白虎 \((beast|general):baihu\) — \[", out) and "水 (el:water)" in out


def test_central_names_the_measures(built_graph: Path) -> None:
    out = explore(built_graph, "central", "--top", "3").output
    assert "degree centrality (rule–concept graph)" in out
    assert "betweenness centrality (concept co-occurrence graph)" in out


def test_cooccurrence(graph: nx.Graph) -> None:
    pairs = cooccurrence(graph)
    assert pairs[tuple(sorted((FUMU, GUANGUI)))] >= 1


def test_similar(graph: nx.Graph, built_graph: Path) -> None:
    ranked = similar(graph, LEAK)
    scores = [s for _, s, _ in ranked]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)
    assert all(shared for _, _, shared in ranked)
    assert "shares" in explore(built_graph, "similar", "yiyin.dongliang.leak").output


def test_contradictions(kg: KnowledgeGraph, graph: nx.Graph, built_graph: Path) -> None:
    found = contradictions(kg, graph)
    for c in found:
        assert {graph.nodes[c.general]["polarity"], graph.nodes[c.specific]["polarity"]} == {"ji", "xiong"}
    pairs = {(graph.nodes[c.general]["label"], graph.nodes[c.specific]["label"]) for c in found}
    # 《銀河棹》〈六畜〉: 「類神臨刀砧屠灶者凶。」 (a 類神 on 酉卯子巳, 凶) holds wherever 犬「臨卯能獵」
    # (the dog's 類神 on 卯, 吉) does: the text praises and condemns the same seat
    assert ("yinhezhao.liuchu.lin-dao-zhen", "yinhezhao.liuchu.quan-lin.mao") in pairs
    # 《黃金策》〈求財〉 「…必須卦中有財庫爻發動…必得厚利」 (吉: three 財 and a moving 庫) and 「若雖動出財爻，
    # 而與世爻不相干者…必難望也」 (凶: a moving 財 unrelated to the 世) share only 'a moving line'
    # 《易隱》〈遷移〉 「世應生合比和，可遷可守」 (吉) and 「世克應，新不如舊」 (凶): 生合 is not 克
    for a, b in (
        ("huangjince.qiucai.many-cai.treasury", "huangjince.qiucai.wo-qu-xun-cai"),
        ("yiyin.qianyi.shi-ying-harmony", "yiyin.qianyi.shi-ying-ke.shi"),
    ):
        assert (a, b) not in pairs and (b, a) not in pairs
    out = explore(built_graph, "contradictions").output
    assert "within 《大六壬銀河棹》" in out
    assert "general  凶 yinhezhao.liuchu.lin-dao-zhen: 「類神臨刀砧屠灶者凶。」" in out
    assert "《大六壬銀河棹》〈六畜〉，¶46, sentence 10" in out
    assert out.endswith(f"{len(found)} pairs, {sum(c.across for c in found)} across works\n")
    data = json.loads(explore(built_graph, "contradictions", "--format", "json").output)
    (pair,) = [p for p in data if p["specific"]["rule"] == "yinhezhao.liuchu.quan-lin.mao"]
    assert pair["across"] is False
    assert pair["general"]["polarity"] == "凶" and pair["specific"]["polarity"] == "吉"
    assert pair["specific"]["paragraphs"] == [52]
    assert pair["specific"]["quotes"] == ["臨亥可畜，臨子善捕鼠，臨卯能獵，臨巳午善吠，臨戌咬人，"]


CONTAINMENT = """
  - id: t.fumu-moving
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line}
    when: [L.relative 父母, L.moving]
    then: {polarity: 凶, zh: 漏, en: test}
  - id: t.fumu-moving-hidden
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {X: line, H: hidden-line}
    when: [X.moving, H.under X, X.relative 父]
    then: {polarity: 吉, zh: 漏, en: test}
  - id: t.water-or-wood
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line}
    when: [L.element 水|木]
    then: {polarity: 凶, zh: 漏, en: test}
  - id: t.water
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {X: line}
    when: [X.element 水, X.position 2]
    then: {polarity: 吉, zh: 漏, en: test}
  - id: t.shi-sheng-ying
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {S: line, Y: line}
    when: [S.role 世, Y.role 應, S.sheng Y]
    then: {polarity: 吉, zh: 漏, en: test}
  - id: t.shi-ke-ying
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {A: line, B: line}
    when: [A.role 世, B.role 應, A.ke B]
    then: {polarity: 凶, zh: 漏, en: test}
  - id: t.chong-or-fifth
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {P: primary, S: line}
    when: [{any: [[P.class 六沖], [S.role 世, S.position 5]]}]
    then: {polarity: 吉, zh: 漏, en: test}
  - id: t.fifth-moving
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line}
    when: [L.moving, L.position 5, L.role 世]
    then: {polarity: 凶, zh: 漏, en: test}
  - id: t.still-fumu
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line}
    when: [L.relative 父母, {not: [L.moving]}]
    then: {polarity: 吉, zh: 漏, en: test}
  - id: t.still-fumu-sixth
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {X: line}
    when: [X.position 6, {not: [X.moving]}, X.relative 父母]
    then: {polarity: 凶, zh: 漏, en: test}
"""

TRANSMISSIONS = """
  - id: t.cai-transmission
    para: 6
    quote: 課傳俱見財神；
    vars: {T: transmission}
    when: [T.relative 妻財]
    then: {polarity: 吉, zh: 財, en: test}
  - id: t.cai-first
    para: 6
    quote: 課傳俱見財神；
    vars: {F: first}
    when: [F.relative 妻財, F.general 青龍]
    then: {polarity: 凶, zh: 財, en: test}
"""


def _conditions(tmp_path: Path, rules: str, work: str) -> dict[str, Conditions]:
    (tmp_path / "t.yaml").write_text(f"work: {work}\nrules:\n" + textwrap.dedent(rules), encoding="utf-8")
    return {r.id.removeprefix("t."): read_conditions(r.query) for r in RuleCompiler().compile_all(tmp_path)}


@pytest.mark.parametrize(
    ("general", "specific"),
    [
        ("fumu-moving", "fumu-moving-hidden"),  # the line is L in one rule, X in the other
        ("water-or-wood", "water"),  # 水 implies 水|木
        ("chong-or-fifth", "fifth-moving"),  # one alternative of the 'any' is held
        ("still-fumu", "still-fumu-sixth"),  # the same 'not', its variable renamed
    ],
)
def test_containment(tmp_path: Path, general: str, specific: str) -> None:
    rules = _conditions(tmp_path, CONTAINMENT, "yiyin")
    assert contains(rules[general], rules[specific], {})
    assert not contains(rules[specific], rules[general], {})


def test_containment_needs_the_same_relation(tmp_path: Path) -> None:
    rules = _conditions(tmp_path, CONTAINMENT, "yiyin")
    assert not contains(rules["shi-sheng-ying"], rules["shi-ke-ying"], {})
    assert not contains(rules["shi-ke-ying"], rules["shi-sheng-ying"], {})


def test_a_first_transmission_is_a_transmission(tmp_path: Path) -> None:
    rules = _conditions(tmp_path, TRANSMISSIONS, "yinhezhao")
    # ontology/divkg.ttl: dk:firstTransmission rdfs:subPropertyOf dk:transmission
    broader = {"dk:firstTransmission": {"dk:transmission"}}
    assert contains(rules["cai-transmission"], rules["cai-first"], broader)
    assert not contains(rules["cai-transmission"], rules["cai-first"], {})
    assert not contains(rules["cai-first"], rules["cai-transmission"], broader)


@pytest.mark.parametrize("suffix", [".graphml", ".gexf", ".json"])
def test_export_reads_back(built_graph: Path, graph: nx.Graph, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"divkg{suffix}"
    assert explore(built_graph, "export", str(path)).exit_code == 0
    if suffix == ".graphml":
        back = nx.read_graphml(path)
    elif suffix == ".gexf":
        back = nx.read_gexf(path)
    else:
        back = nx.node_link_graph(json.loads(path.read_text(encoding="utf-8")), edges="links")
    assert back.number_of_nodes() == graph.number_of_nodes()
    assert back.number_of_edges() == graph.number_of_edges()
    assert back.has_edge(LEAK, GUANGUI)
    assert back.nodes[LEAK]["kind"] == "rule"


def test_export_unknown_format(built_graph: Path, tmp_path: Path) -> None:
    result = explore(built_graph, "export", str(tmp_path / "divkg.xlsx"))
    assert result.exit_code == 2 and "unknown export format" in result.stderr
