"""Every constraint of ontology/shapes.ttl reports the violation it exists for.

One copy of the full built graph gets one defect per constraint (a table below), each on a focus
node of its own; one validation run must report each defect at its focus node, with its path and
the shape parameter it breaks. The table must name every constraint the shapes file sets, so a
constraint added without a defect fails here; the untouched graph conforms."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS, SKOS

from kg.paths import ONTOLOGY
from kg.validate import SH, load_union, path_text, validate_graph
from kg.vocabulary import curie

DK = "https://w3id.org/divkg/"
OA = "http://www.w3.org/ns/oa#"
PROV = "http://www.w3.org/ns/prov#"
DCT = "http://purl.org/dc/terms/"
NOT_CONSTRAINTS = {SH.path, SH.message, SH.qualifiedValueShape, SH.property, SH.targetClass, SH.targetNode}
NOT_CONSTRAINTS |= {SH.targetObjectsOf, SH.targetSubjectsOf, SH.target}
"""Predicates of a shape that are not constraints: what a shape is about, who it targets, what it says."""


def dk(name: str) -> URIRef:
    return URIRef(DK + name)


def oa(name: str) -> URIRef:
    return URIRef(OA + name)


Key = tuple[str, str | None, str]
"""A constraint: node shape, path (``None`` on the node itself), parameter. Constraints that share
all three (the labels in each language) are told apart by the focus nodes of their defects."""


def constraints(shapes: Graph) -> set[Key]:
    keys: set[Key] = set()
    for shape in shapes.subjects(RDF.type, SH.NodeShape):
        name = curie(str(shape))
        for p in set(shapes.predicates(shape, None)) - NOT_CONSTRAINTS - {RDF.type}:
            keys.add((name, None, "sh:" + str(p).removeprefix(str(SH))))
        for prop in shapes.objects(shape, SH.property):
            path = path_text(shapes, shapes.value(prop, SH.path))
            for p in set(shapes.predicates(prop, None)) - NOT_CONSTRAINTS:
                keys.add((name, path, "sh:" + str(p).removeprefix(str(SH))))
    return keys


@dataclass(frozen=True)
class Defect:
    shape: str
    path: str | None
    constraint: str
    focus: URIRef
    make: Callable[[Graph], object]


class Picker:
    """Instances of a class, each handed out once, in a fixed order."""

    def __init__(self, graph: Graph) -> None:
        self.graph, self.used = graph, set()

    def __call__(self, cls: URIRef) -> URIRef:
        node = next(n for n in sorted(self.graph.subjects(RDF.type, cls)) if n not in self.used)
        self.used.add(node)
        return node

    def anchor(self) -> URIRef:
        return URIRef(f"{self(dk('JudgementRule'))}/anchor/1")


def defects(g: Graph) -> list[Defect]:
    pick = Picker(g)
    yiyin, zhizhi, huangjince, yinhezhao = (
        dk(f"source/{w}") for w in ("yiyin", "zhizhi", "huangjince", "yinhezhao")
    )
    rule = pick(dk("JudgementRule"))
    a_topic = next(g.objects(rule, dk("topic")))
    out: list[Defect] = []

    def defect(
        shape: str, path: str | None, constraint: str, focus: URIRef, make: Callable[[Graph], object]
    ) -> None:
        out.append(Defect(f"dk:{shape}", path, f"sh:{constraint}", focus, make))

    def drop(s: URIRef, *predicates: URIRef) -> Callable[[Graph], object]:
        for p in predicates:
            assert (s, p, None) in g, (s, p)
        return lambda g: [g.remove((s, p, None)) for p in predicates]

    def add(s: URIRef, p: URIRef, o: URIRef | Literal) -> Callable[[Graph], object]:
        return lambda g: g.add((s, p, o))

    def set_(s: URIRef, p: URIRef, o: URIRef | Literal) -> Callable[[Graph], object]:
        assert (s, p, None) in g, (s, p)
        return lambda g: g.set((s, p, o))

    # rules
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:ruleId", "minCount", r, drop(r, dk("ruleId")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:ruleId", "maxCount", r, add(r, dk("ruleId"), Literal("a.second.id")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:ruleId", "datatype", r, set_(r, dk("ruleId"), Literal("an.id", lang="en")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:topic", "minCount", r, drop(r, dk("topic")))
    r = pick(dk("TextOnlyRule"))
    defect("RuleShape", "dk:topic", "maxCount", r, add(r, dk("topic"), dk("concept/topic/qiucai")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:topic", "class", r, set_(r, dk("topic"), yiyin))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "prov:wasDerivedFrom", "minCount", r, drop(r, URIRef(PROV + "wasDerivedFrom")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "prov:wasDerivedFrom", "class", r, add(r, URIRef(PROV + "wasDerivedFrom"), a_topic))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:anchor", "minCount", r, drop(r, dk("anchor")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:outcome", "minCount", r, drop(r, dk("outcome")))
    r = pick(dk("JudgementRule"))
    defect("RuleShape", "dk:outcome", "maxCount", r, add(r, dk("outcome"), URIRef(f"{rule}/outcome")))
    r = pick(dk("DefinitionRule"))
    defect("RuleShape", None, "or", r, drop(r, dk("construct"), dk("query")))
    r = pick(dk("TextOnlyRule"))
    defect("RuleShape", None, "or", r, drop(r, dk("reason"), dk("query")))

    # the quote at its offsets: a changed quote, and a span running past its paragraph's end
    def rule_of(anchor: URIRef) -> URIRef:
        return URIRef(anchor.rsplit("/anchor/", 1)[0])

    def ends_its_paragraph(anchor: URIRef) -> bool:
        end = g.value(URIRef(f"{anchor}/position"), oa("end"))
        return end.toPython() == g.value(g.value(anchor, dk("paragraph")), dk("end")).toPython()

    a = pick.anchor()
    defect(
        "QuoteAtItsPlaceShape",
        "dk:anchor",
        "maxCount",
        rule_of(a),
        set_(URIRef(f"{a}/quote"), oa("exact"), Literal("支來生日則易。")),
    )
    last = next(
        a
        for a in sorted(g.subjects(dk("paragraph"), None))
        if rule_of(a) not in pick.used and ends_its_paragraph(a)
    )
    pick.used.add(rule_of(last))
    end = g.value(URIRef(f"{last}/position"), oa("end")).toPython()
    defect(
        "QuoteAtItsPlaceShape",
        "dk:anchor",
        "maxCount",
        rule_of(last),
        set_(URIRef(f"{last}/position"), oa("end"), Literal(end + 3)),
    )

    # judgements, exceptions, definitions, text-only rules
    r = pick(dk("JudgementRule"))
    defect(
        "JudgementShape",
        "dk:outcome/dk:polarity",
        "minCount",
        r,
        drop(URIRef(f"{r}/outcome"), dk("polarity")),
    )
    r = pick(dk("ChartVerdictRule"))
    defect(
        "JudgementShape",
        "dk:outcome/dk:polarity",
        "maxCount",
        r,
        add(URIRef(f"{r}/outcome"), dk("polarity"), dk("concept/polarity/ji-xiong")),
    )
    r = pick(dk("JudgementRule"))
    defect(
        "JudgementShape", "dk:outcome/dk:wording", "minCount", r, drop(URIRef(f"{r}/outcome"), dk("wording"))
    )
    r = pick(dk("JudgementRule"))
    defect("JudgementShape", "dk:query", "minCount", r, drop(r, dk("query")))
    r = pick(dk("ExceptionRule"))
    defect("JudgementShape", "dk:query", "maxCount", r, add(r, dk("query"), Literal("ASK {}")))
    r = pick(dk("ExceptionRule"))
    defect("ExceptionShape", "dk:overrides", "minCount", r, drop(r, dk("overrides")))
    r = pick(dk("ExceptionRule"))
    defect("ExceptionShape", "dk:overrides", "class", r, add(r, dk("overrides"), a_topic))
    r = pick(dk("DefinitionRule"))
    defect("DefinitionShape", "dk:construct", "minCount", r, drop(r, dk("construct")))
    r = pick(dk("DefinitionRule"))
    defect(
        "DefinitionShape",
        "dk:construct",
        "maxCount",
        r,
        add(r, dk("construct"), Literal("CONSTRUCT {} WHERE {}")),
    )
    r = pick(dk("TextOnlyRule"))
    defect("TextOnlyShape", "dk:reason", "minCount", r, drop(r, dk("reason")))
    r = pick(dk("TextOnlyRule"))
    defect("TextOnlyShape", "dk:reason", "class", r, set_(r, dk("reason"), yiyin))

    # anchors and outcomes
    anchor_defects: list[tuple[str, str, Callable[[URIRef], Callable[[Graph], object]]]] = [
        ("oa:hasSource", "minCount", lambda a: drop(a, oa("hasSource"))),
        ("oa:hasSource", "class", lambda a: set_(a, oa("hasSource"), a_topic)),
        ("dk:paragraph", "minCount", lambda a: drop(a, dk("paragraph"))),
        ("dk:paragraph", "maxCount", lambda a: add(a, dk("paragraph"), dk("source/yiyin/zh/1"))),
        ("dk:paragraph", "class", lambda a: set_(a, dk("paragraph"), yiyin)),
        ("oa:hasSelector/oa:exact", "minCount", lambda a: drop(URIRef(f"{a}/quote"), oa("exact"))),
        (
            "oa:hasSelector/oa:exact",
            "maxCount",
            lambda a: add(URIRef(f"{a}/position"), oa("exact"), Literal("又一句。")),
        ),
    ]
    for end in ("start", "end"):
        anchor_defects += [
            (
                f"oa:hasSelector/oa:{end}",
                "minCount",
                lambda a, end=end: drop(URIRef(f"{a}/position"), oa(end)),
            ),
            (
                f"oa:hasSelector/oa:{end}",
                "maxCount",
                lambda a, end=end: add(URIRef(f"{a}/quote"), oa(end), Literal(0)),
            ),
            (
                f"oa:hasSelector/oa:{end}",
                "datatype",
                lambda a, end=end: set_(URIRef(f"{a}/position"), oa(end), Literal("12")),
            ),
        ]
    for p, constraint, make in anchor_defects:
        a = pick.anchor()
        defect("AnchorShape", p, constraint, a, make(a))
    o = URIRef(f"{pick(dk('JudgementRule'))}/outcome")
    defect("OutcomeShape", "dk:gloss", "minCount", o, drop(o, dk("gloss")))

    # the corpus
    defect("WorkShape", "dcterms:title", "minCount", zhizhi, drop(zhizhi, URIRef(DCT + "title")))
    defect("WorkShape", "dk:citation", "minCount", zhizhi, drop(zhizhi, dk("citation")))
    defect("WorkShape", "dk:urn", "minCount", huangjince, drop(huangjince, dk("urn")))
    defect("WorkShape", "dk:urn", "maxCount", zhizhi, add(zhizhi, dk("urn"), Literal("urn:cts:divkg:other")))
    defect("WorkShape", "dk:system", "minCount", huangjince, drop(huangjince, dk("system")))
    defect(
        "WorkShape", "dk:system", "maxCount", zhizhi, add(zhizhi, dk("system"), dk("concept/system/other"))
    )
    passages = (dk("Paragraph"), dk("Sentence"), dk("KoreanRendering"), dk("Note"))
    for i, (p, constraint, make) in enumerate(
        [
            ("dk:urn", "minCount", lambda n: drop(n, dk("urn"))),
            ("dk:urn", "maxCount", lambda n: add(n, dk("urn"), Literal("urn:cts:divkg:other"))),
            ("dk:urn", "pattern", lambda n: set_(n, dk("urn"), Literal("urn:x:8"))),
            ("dk:text", "minCount", lambda n: drop(n, dk("text"))),
            ("dk:text", "maxCount", lambda n: add(n, dk("text"), Literal("又一段。"))),
            ("dk:start", "minCount", lambda n: drop(n, dk("start"))),
            ("dk:start", "maxCount", lambda n: add(n, dk("start"), Literal(0))),
            ("dk:start", "datatype", lambda n: set_(n, dk("start"), Literal("0"))),
            ("dk:end", "minCount", lambda n: drop(n, dk("end"))),
            ("dk:end", "maxCount", lambda n: add(n, dk("end"), Literal(0))),
            ("dk:end", "datatype", lambda n: set_(n, dk("end"), Literal("0"))),
        ]
    ):
        n = pick(passages[i % len(passages)])
        defect("PassageShape", p, constraint, n, make(n))
    n = pick(dk("Paragraph"))
    defect("ParagraphShape", "dk:koreanRendering", "minCount", n, drop(n, dk("koreanRendering")))
    n = pick(dk("Paragraph"))
    defect(
        "ParagraphShape",
        "dk:koreanRendering",
        "maxCount",
        n,
        add(n, dk("koreanRendering"), g.value(pick(dk("Paragraph")), dk("koreanRendering"))),
    )
    n = pick(dk("Paragraph"))
    defect("ParagraphShape", "dk:section", "minCount", n, drop(n, dk("section")))
    n = pick(dk("Paragraph"))
    defect("ParagraphShape", "dk:section", "maxCount", n, add(n, dk("section"), Literal("另一節")))

    # the vocabulary
    for lang in ("zh-Hant", "ko", "en"):
        c = pick(SKOS.Concept)
        labels = [label for label in g.objects(c, SKOS.prefLabel) if label.language.lower() == lang.lower()]
        defect(
            "ConceptShape",
            "skos:prefLabel",
            "qualifiedMinCount",
            c,
            lambda g, c=c, labels=labels: [g.remove((c, SKOS.prefLabel, x)) for x in labels],
        )
    c = pick(SKOS.Concept)
    defect(
        "ConceptShape",
        "skos:prefLabel",
        "uniqueLang",
        c,
        add(c, SKOS.prefLabel, Literal("又一名", lang="zh-Hant")),
    )

    # completeness
    defect("CatalogueWorkShape", None, "class", yinhezhao, drop(yinhezhao, RDF.type))
    defect(
        "CatalogueWorkShape",
        "^dk:work",
        "minCount",
        yiyin,
        lambda g: [g.remove((s, dk("work"), yiyin)) for s in list(g.subjects(dk("work"), yiyin))],
    )
    defect("OntologyPresentShape", "rdfs:label", "minCount", dk("Rule"), drop(dk("Rule"), RDFS.label))
    defect(
        "TopicTreePresentShape",
        "^skos:inScheme",
        "minCount",
        dk("TopicScheme"),
        lambda g: [
            g.remove((s, SKOS.inScheme, dk("TopicScheme")))
            for s in list(g.subjects(SKOS.inScheme, dk("TopicScheme")))
        ],
    )
    return out


@pytest.fixture(scope="module")
def graph(built_graph):
    return load_union(built_graph)


def test_the_built_graph_conforms(graph):
    report = validate_graph(graph)
    assert report.conforms, report.text


def test_the_defects_cover_every_constraint_of_the_shapes(graph):
    shapes = Graph().parse(ONTOLOGY / "shapes.ttl", format="turtle")
    named = {(d.shape, d.path, d.constraint) for d in defects(graph)}
    assert constraints(shapes) == named


def test_every_constraint_reports_its_violation(built_graph):
    g = load_union(built_graph)
    table = defects(g)
    for d in table:
        d.make(g)
    report = validate_graph(g)
    assert not report.conforms
    found = {(v.focus, v.path, v.constraint) for v in report.violations}
    missing = [d for d in table if (curie(str(d.focus)), d.path, d.constraint) not in found]
    assert not missing, (missing, report.text)
