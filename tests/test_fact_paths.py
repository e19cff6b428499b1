"""The chart facts reach retrieval as pyoxigraph quads and Turtle and the Python API as an rdflib graph,
both from the same triples (kg.facts): the two paths give the same facts.

The quad path is read back as Oxigraph writes its store out and rdflib parses it, so each side's
term conversion is checked against the other's: on all 720 大六壬 lessons of
tests/fixtures/liuren-720.tsv and on 500 seeded random 六爻 casts (options, querents and topics
varied). Each graph is also checked against the tables it comes from: the 干上神 and 旬空 of the
720-lesson table, the 納甲 of the 裝卦歌 (kg/liuyao/najia.py) and the cast's line values.
"""

from __future__ import annotations

import csv
import random
from datetime import datetime, timedelta
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import RDF

from kg.calendar import BEIJING, Pillars, pillars_at
from kg.facts import Facts
from kg.ganzhi import Branch, GanZhi
from kg.liuren import build_chart
from kg.liuren.facts import chart_facts as liuren_facts
from kg.liuren.facts import chart_graph as liuren_graph
from kg.liuren.facts import reading_iri as liuren_iri
from kg.liuyao.chart import Options, cast_chart
from kg.liuyao.facts import chart_facts as liuyao_facts
from kg.liuyao.facts import chart_graph as liuyao_graph
from kg.liuyao.facts import reading_iri as liuyao_iri
from kg.liuyao.hexagrams import TRIGRAMS
from kg.liuyao.najia import NAJIA
from kg.match import Reading
from kg.vocabulary import DK, concept

FIXTURE = Path(__file__).parent / "fixtures" / "liuren-720.tsv"

OPTIONS = (
    Options(),
    Options.from_names(fu_shen="all", gua_shen="none", changsheng="huo-tu", month_break="always"),
    Options.from_names(noble="B", yang_ren="C", tian_xi="C", shensha_base="year", fan_yin="houtian"),
    Options.from_names(natal_element="nayin", hidden_dark_moving="no", gua_shen="shi-bushi"),
)


def stored(facts: Facts) -> Graph:
    """The facts as retrieval's store holds them, written out by Oxigraph and parsed by rdflib."""
    dump = Reading(facts).store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    return Graph().parse(data=dump, format="nt")


def same_facts(facts: Facts, graph: Graph, where: str) -> Graph:
    """The store's facts, after checking they are the graph's, and that the graph read as a chart
    (``kg match`` of a Turtle file) fills the same store."""
    held = stored(facts)
    assert len(held) == len(graph) > 0, where
    assert not [t for t in held for term in t if isinstance(term, BNode)], where
    assert set(held) == set(graph), where  # isomorphic: with no blank nodes, the same triples
    assert set(Reading(graph).store) == set(Reading(facts).store), where
    return held


def test_liuren_720_lessons() -> None:
    with FIXTURE.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 720
    for row in rows:
        chart = build_chart(GanZhi.from_name(row["day"]), int(row["ju"]))
        iri = liuren_iri(chart)
        where = f"{row['day']} 第{row['ju']}局"
        held = same_facts(liuren_facts(chart, iri), liuren_graph(chart, iri), where)
        spirit = {b: URIRef(f"{iri}/spirit/{b.slug}") for b in Branch}
        assert (
            held.value(URIRef(f"{iri}/lesson/1"), DK["upper"]) == spirit[Branch.from_char(row["gan_shang"])]
        ), where
        void = {b for b in Branch if (spirit[b], DK.void, Literal(True)) in held}
        assert void == {Branch.from_char(c) for c in row["kong"].split(",")}, where


def _cast(rng: random.Random) -> tuple[object, dict[str, object], URIRef | None]:
    values = tuple(rng.choices((6, 7, 8, 9), weights=(1, 3, 3, 1), k=6))
    options = rng.choice(OPTIONS)
    if rng.random() < 0.5:
        moment = datetime(1900, 1, 1, tzinfo=BEIJING) + timedelta(minutes=rng.randrange(200 * 365 * 1440))
        pillars, record = pillars_at(moment, options.zi_hour)
        chart = cast_chart(pillars, values, options, record)
    else:
        year, month, day, hour = (GanZhi.from_index(rng.randrange(60)) for _ in range(4))
        chart = cast_chart(Pillars(year, month, day, hour if rng.random() < 0.5 else None), values, options)
    querent: dict[str, object] = {}
    if rng.random() < 0.5:
        querent["birth"] = rng.choice(
            ("甲子", "丙寅", "癸亥") if options.natal_element == "nayin" else ("午", "丁卯")
        )
    if rng.random() < 0.3:
        querent |= {
            "status": rng.choice(("已遷", "未遷")),
            "purpose": "公",
            "sex": "女",
            "occupation": "技藝",
        }
    if rng.random() < 0.3:
        querent["members"] = rng.sample(["妻=甲子", "父=寅", "子=丁卯", "母=辰"], 2)
    return chart, querent, concept("topic", "qianyi") if rng.random() < 0.3 else None


def test_liuyao_500_random_casts() -> None:
    rng = random.Random(20260)
    trigram = {t.bits: t.char for t in TRIGRAMS}
    for n in range(500):
        chart, querent, topic = _cast(rng)
        iri = liuyao_iri(chart)
        facts = liuyao_facts(chart, iri, topic, querent)
        where = f"cast {n}: {chart.values} {[p.ganzhi.name for p in chart.pillars]} {querent}"
        held = same_facts(facts, liuyao_graph(chart, iri, topic, querent), where)
        reading = URIRef(str(iri))
        assert held.value(reading, DK.cast) == Literal("".join(map(str, chart.values))), where
        bits = tuple(v % 2 for v in chart.values)
        for position in range(1, 7):
            outer = position > 3
            names = NAJIA[trigram[bits[3:] if outer else bits[:3]]][outer].split()
            najia = GanZhi.from_name(names[(position - 1) % 3])
            assert held.value(URIRef(f"{iri}/line/{position}"), DK.ganzhi) == concept("gz", najia.slug), where


@pytest.mark.parametrize(
    "literal", [Literal("甲子"), Literal("甲子", lang="zh-Hant"), Literal(6), Literal(True)], ids=repr
)
def test_a_turtle_chart_reaches_the_store_as_through_n_triples(literal: Literal) -> None:
    """A chart graph read from Turtle (``kg match``) has its terms converted for the store, not
    written out and parsed again: the store holds what loading its N-Triples gives (the datatype or
    language of each literal, the language in Oxigraph's lower case)."""
    reading = URIRef(f"{DK}reading/x")
    graph = Graph()
    graph += [(reading, RDF.type, DK.Reading), (reading, DK.system, DK.LiuYao), (reading, DK.label, literal)]
    through = ox.Store()
    through.bulk_load(graph.serialize(format="nt").encode(), format=ox.RdfFormat.N_TRIPLES)
    assert set(Reading(graph).store) == set(through)


def test_the_fact_vocabulary_is_the_ontology_s():
    """kg.facts.DK holds exactly the dk: terms ontology/divkg.ttl describes (read by rdflib here, by
    a line pattern there), and a term it does not describe is an error, not a new IRI."""
    from kg import facts
    from kg.paths import ONTOLOGY

    ontology = Graph().parse(ONTOLOGY / "divkg.ttl")
    described = {str(s)[len(str(DK)) :] for s in ontology.subjects() if str(s).startswith(str(DK))}
    described.discard("")  # the ontology's own IRI
    assert set(vars(facts.DK)) == described
    assert facts.DK.label == ox.NamedNode(f"{DK}label")
    with pytest.raises(AttributeError):
        _ = facts.DK.lable
