"""Every SHACL constraint of ontology/shapes.ttl reports the violation it exists for.

One copy of the full built graph gets one defect per constraint, each on its own focus node, and
one validation run must report each with its message; the untouched graph conforms."""

from __future__ import annotations

import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, SKOS

from kg.validate import load_union, validate_graph

DK = "https://w3id.org/divkg/"
OA = "http://www.w3.org/ns/oa#"
PROV = "http://www.w3.org/ns/prov#"
DCT = "http://purl.org/dc/terms/"


def rule(name: str) -> URIRef:
    return URIRef(f"{DK}rule/{name}")


def dk(name: str) -> URIRef:
    return URIRef(DK + name)


@pytest.fixture(scope="module")
def graph(built_graph):
    return load_union(built_graph)


def test_the_built_graph_conforms(graph):
    report = validate_graph(graph)
    assert report.conforms, report.text


def test_every_constraint_reports_its_violation(graph):
    g = graph
    defects: list[tuple[str, str]] = []

    def drop(subject: URIRef, predicate: URIRef, focus: str, message: str) -> None:
        assert (subject, predicate, None) in g, (subject, predicate)
        g.remove((subject, predicate, None))
        defects.append((focus, message))

    drop(rule("yiyin.dongliang.leak"), dk("ruleId"), "yiyin.dongliang.leak", "exactly one dk:ruleId")
    g.add((rule("yiyin.dongliang.dui"), dk("topic"), URIRef(DK + "concept/topic/qiucai")))
    defects.append(("yiyin.dongliang.dui", "exactly one topic"))
    drop(
        rule("zhizhi.ju4.hunyin"),
        URIRef(PROV + "wasDerivedFrom"),
        "zhizhi.ju4.hunyin",
        "derived from at least one",
    )
    drop(
        rule("yiyin.dongliang.three-metal"),
        dk("anchor"),
        "yiyin.dongliang.three-metal",
        "anchored in the source",
    )
    drop(
        URIRef(f"{DK}rule/yiyin.dongliang.snake-water-leak/outcome"),
        dk("gloss"),
        "snake-water-leak/outcome",
        "English gloss",
    )
    for p in ("query", "template", "templateArguments"):
        g.remove((rule("yiyin.qianyi.should-move"), dk(p), None))
    defects.append(("yiyin.qianyi.should-move", "a rule needs conditions"))
    quote = URIRef(f"{DK}rule/yinhezhao.qiucai.zhi-ke-gan/anchor/1/quote")
    g.set((quote, URIRef(OA + "exact"), Literal("支來生日則易。")))
    defects.append(("yinhezhao.qiucai.zhi-ke-gan", "not found at its offsets"))
    drop(
        URIRef(f"{DK}rule/yiyin.qianyi.youhun-guihun.moved/outcome"),
        dk("polarity"),
        "youhun-guihun.moved",
        "needs a polarity",
    )
    drop(
        URIRef(f"{DK}rule/yiyin.dongliang.leak/outcome"),
        dk("wording"),
        "yiyin.dongliang.leak",
        "in the text's words",
    )
    drop(rule("yinhezhao.qiucai.void-cancels"), dk("overrides"), "void-cancels", "name the rule it overrides")
    drop(rule("yiyin.dongliang.yongshen"), dk("construct"), "yiyin.dongliang.yongshen", "compiled CONSTRUCT")
    text_only = next(g.subjects(RDF.type, dk("TextOnlyRule")))
    drop(text_only, dk("reason"), str(text_only).rsplit("/", 1)[1], "needs a reason code")
    work = URIRef(DK + "source/zhizhi")
    drop(work, URIRef(DCT + "title"), "source/zhizhi", "")
    para = URIRef(DK + "source/yiyin/zh/6")
    drop(para, dk("koreanRendering"), "source/yiyin/zh/6", "paired with its Korean rendering")
    g.set((URIRef(DK + "source/yiyin/zh/8"), dk("urn"), Literal("urn:x:8")))
    defects.append(("source/yiyin/zh/8", "urn:cts:divkg:"))
    concept = URIRef(DK + "concept/element/water")
    g.remove((concept, SKOS.prefLabel, Literal("수", lang="ko")))
    defects.append(("el:water", "prefLabel in ko"))
    g.add((URIRef(DK + "concept/element/fire"), SKOS.prefLabel, Literal("火行", lang="zh-Hant")))
    defects.append(("el:fire", "at most one prefLabel per language"))

    report = validate_graph(g)
    assert not report.conforms
    lines = report.text.splitlines()
    for focus, message in defects:
        assert any(focus in line and message in line for line in lines), (focus, message, report.text)
