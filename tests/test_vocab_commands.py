"""kg topics, kg vocab, and simplified-character input (converted with OpenCC, the conversion said)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kg.cli import main


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_topics_nest_as_the_texts_do():
    tree = json.loads(run("topics", "--format", "json").output)
    by_label = {}

    def walk(entry, parent):
        by_label[entry["zh"]] = parent
        for child in entry["narrower"]:
            walk(child, entry["zh"])

    for root in tree:
        walk(root, None)
    assert by_label["棟梁"] == "家宅" and by_label["放債"] == "求財"  # 家宅 > 棟梁, 求財 > 放債


def test_the_sixty_four_hexagrams_with_their_short_names():
    rows = json.loads(run("vocab", "六十四卦", "--format", "json").output)
    assert len(rows) == 64
    assert {"zh": "坤為地", "alt": ["坤"]}.items() <= {k: v for k, v in rows[0].items()}.items()


def test_a_scheme_named_in_simplified_characters():
    rows = json.loads(run("vocab", "六亲", "--format", "json").output)
    assert {r["zh"] for r in rows} == {"父母", "兄弟", "子孫", "妻財", "官鬼"}


def test_a_simplified_topic_is_read_as_traditional_and_said(built_graph):
    result = CliRunner().invoke(
        main,
        [
            "reading",
            "liuyao",
            "--pillars",
            "庚寅 戊寅 癸亥",
            "--lines",
            "977778",
            "--topic",
            "迁移",
            "--graph",
            str(built_graph),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "迁移 read as 遷移" in result.stderr
    assert "yiyin.qianyi" in result.stdout


def test_a_simplified_search_term_finds_the_traditional_text(built_graph):
    """《易隱》 ¶6 父下伏水鬼，棟必漏也 is found from 栋必漏."""
    result = CliRunner().invoke(main, ["search", "栋必漏", "--graph", str(built_graph)])
    assert result.exit_code == 0
    assert "urn:cts:divkg:yiyin.juan4.zh:6.3" in result.stdout
    assert "栋必漏 read as 棟必漏" in result.stderr


def test_the_topic_files_hold_the_whole_topic_tree():
    """Naming a topic reads only the files that name dk:TopicScheme: they give every topic the whole
    ontology has, under the same names (label, variants, slug), with the same broader topics."""
    from rdflib import Literal
    from rdflib.namespace import SKOS

    from kg.vocabulary import DK, read_topic_tree, topic_files, vocabulary

    whole, topics = vocabulary(), read_topic_tree(topic_files())
    assert topics == whole.topic_tree
    assert topics.resolve("家宅") == whole.resolve(DK.TopicScheme, "宅")
    assert topics.topic("家宅/棟梁") == topics.topic("dongliang") == whole.topic("棟樑")
    names = whole._labels[DK.TopicScheme]
    assert {name: set(found) for name, found in topics.names.items()} == {
        name: set(found) for name, found in names.items()
    }
    for concept in {c for found in names.values() for c in found}:
        assert topics.labels[concept] == whole.label(concept)
        up = whole.graph.value(concept, SKOS.broader)
        assert topics.broader.get(concept) == up
    assert topics.scheme_name == next(
        str(o)
        for o in whole.graph.objects(DK.TopicScheme, SKOS.prefLabel)
        if isinstance(o, Literal) and o.language == "en"
    )
