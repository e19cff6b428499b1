"""Shared fixtures: the knowledge graph built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.build import build


@pytest.fixture(scope="session")
def built_graph(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``kg.nq`` of a fresh build of the repository's ontology, corpus and rules."""
    out = tmp_path_factory.mktemp("kg-build")
    build(out)
    return out / "kg.nq"


def assert_in_vocabulary(graph) -> None:
    """A chart graph speaks only the ontology: no blank nodes; every predicate and class declared in
    ontology/divkg.ttl; every concept a skos:Concept of ontology/concepts; every fact one the
    ontology defines for the subject's class, with a value of its scheme."""
    from rdflib import BNode, URIRef
    from rdflib.namespace import RDF, SKOS

    from kg.vocabulary import CONCEPT, vocabulary

    vocab = vocabulary()
    onto = vocab.graph
    declared = set(onto.subjects(RDF.type, None))
    facts = {f.iri: f for f in vocab.facts.values()}
    for s, p, o in graph:
        assert not isinstance(s, BNode) and not isinstance(o, BNode)
        assert p == RDF.type or p == RDF.value or p in declared, p
        if isinstance(o, URIRef) and str(o).startswith(CONCEPT):
            assert (o, RDF.type, SKOS.Concept) in onto, o
        if p == RDF.type:
            assert o in declared, o
        fact = facts.get(p)
        if fact is None:
            continue
        if fact.domain:
            classes = set(graph.objects(s, RDF.type))
            allowed = set().union(*(vocab.subclasses(d) for d in fact.domain))
            assert classes & allowed, f"{s} ({classes}) has {fact.name}, defined for {fact.domain}"
        if fact.scheme is not None:
            assert (o, SKOS.inScheme, fact.scheme) in onto, (s, p, o)
