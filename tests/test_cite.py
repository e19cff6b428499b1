"""kg cite: citations of rules, sentences, paragraphs and Korean renderings, in four formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cite import Resolver
from kg.cli import main
from kg.match import KnowledgeGraph
from kg.paths import CORPUS

LEAK = "父下伏水鬼，棟必漏也。"  # 《易隱》〈家宅占〉十三 棟樑, ¶6, third sentence


@pytest.fixture(scope="module")
def resolver(built_graph: Path) -> Resolver:
    return Resolver(KnowledgeGraph.load(built_graph))


def cite(graph: Path, *args: str):
    return CliRunner().invoke(main, ["cite", *args, "--graph", str(graph)])


def test_rule_citation_text(built_graph: Path) -> None:
    result = cite(built_graph, "yiyin.dongliang.leak")
    assert result.exit_code == 0, result.output
    out = result.output
    for fact in (
        "《易隱》",
        "曹九錫輯、曹璿演",  # responsibility (docs/works.md §1)
        "清",
        "〈家宅占〉十三 棟樑",  # the section of ¶2–12
        "¶6, sentence 3",
        "urn:cts:divkg:yiyin.juan4.zh:6.3",
        f"「{LEAK}」",
        "urn:cts:divkg:yiyin.juan4.ko:6",
        "부모효 아래에 수효·관귀를 복하면 동 위에 반드시 비가 샙니다",  # the Korean of ¶6
        "lhw828/GuWen",  # the digital witness
    ):
        assert fact in out, fact


def test_quote_is_exactly_the_source(resolver: Resolver) -> None:
    source = (CORPUS / "sources" / "yiyin.txt").read_text(encoding="utf-8")
    citation = resolver.cite("yiyin.dongliang.worm.yin")
    quote = citation.passages[0].quote
    assert quote == "木父加虎動，與日雀日虎，動沖木父者陰爻，棟蛀。陽爻，柱蛀也。"
    assert quote in source
    assert citation.passages[0].urn == "urn:cts:divkg:yiyin.juan4.zh:6.4-6.5"


def test_sentence_paragraph_and_korean_urns(resolver: Resolver) -> None:
    sentence = resolver.cite("urn:cts:divkg:yiyin.juan4.zh:6.3")
    assert sentence.passages[0].quote == LEAK
    paragraph = resolver.cite("urn:cts:divkg:zhizhi.guiwei.zh:4")
    assert paragraph.title == "御定六壬直指"
    assert paragraph.passages[0].heading.startswith("癸未日第四局")
    assert paragraph.passages[0].quote.startswith("解曰：初傳乃干之上神")
    korean = resolver.cite("urn:cts:divkg:yiyin.juan4.ko:6")
    assert LEAK in korean.passages[0].quote
    iri = resolver.cite("https://w3id.org/divkg/rule/yiyin.dongliang.leak")
    assert iri.passages[0].quote == LEAK


def test_machine_formats(built_graph: Path) -> None:
    csl = json.loads(cite(built_graph, "yiyin.dongliang.leak", "--format", "csl-json").output)
    assert csl[0]["container-title"] == "易隱"
    assert csl[0]["archive_location"] == "urn:cts:divkg:yiyin.juan4.zh:6.3"
    assert LEAK in csl[0]["note"]
    bibtex = cite(built_graph, "yiyin.dongliang.leak", "--format", "bibtex").output
    assert bibtex.startswith("@inbook{yiyin_dongliang_leak,")
    assert "author = {{曹九錫輯、曹璿演}}" in bibtex and LEAK in bibtex
    ris = cite(built_graph, "yiyin.dongliang.leak", "--format", "ris").output.splitlines()
    assert ris[0] == "TY  - CHAP" and ris[-1] == "ER  -"
    assert "T2  - 易隱" in ris


def test_unknown_urn_names_the_nearest(built_graph: Path) -> None:
    result = cite(built_graph, "urn:cts:divkg:yiyin.juan4.zh:6.99")
    assert result.exit_code == 2
    assert "unknown id" in result.stderr
    assert "nearest existing one is urn:cts:divkg:yiyin.juan4.zh:6" in result.stderr


def test_unknown_rule_id_names_the_nearest(built_graph: Path) -> None:
    result = cite(built_graph, "yiyin.dongliang.leek")
    assert result.exit_code == 2
    assert "yiyin.dongliang.leak" in result.stderr
