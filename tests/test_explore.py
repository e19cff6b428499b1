"""kg explore: the rule–concept network, its paths, centrality, similarity, contradictions and exports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.explore import contradictions, cooccurrence, doctrine_graph, shortest_path, similar
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
    assert found
    for c in found:
        assert (graph.nodes[c.good]["polarity"], graph.nodes[c.bad]["polarity"]) == ("ji", "xiong")
        assert c.shared
    quotes = {(str(kg.rules[c.good].iri), str(kg.rules[c.bad].iri)) for c in found}
    # 《黃金策》〈求財〉: 「…必須卦中有財庫爻發動，謂財有庫藏，必得厚利。」 (吉) against
    # 「若雖動出財爻，而與世爻不相干者，謂我去尋財，必難望也。」 (凶): both about a moving 財 line
    rule = "https://w3id.org/divkg/rule/huangjince.qiucai."
    assert (rule + "many-cai.treasury", rule + "wo-qu-xun-cai") in quotes
    out = explore(built_graph, "contradictions").output
    assert "within a text" in out and "across texts" in out
    assert "「若雖動出財爻，而與世爻不相干者，謂我去尋財，必難望也。」" in out
    assert "《黃金策》〈求財〉，¶16, sentence 3" in out


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
