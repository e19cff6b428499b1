"""What the tests with hand-written charts share: the Turtle prefixes (the project's own, from
kg.vocabulary, and ``r:`` for the test reading's entities) and a graph built from some rule files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.build import build
from kg.match import KnowledgeGraph
from kg.paths import RULES
from kg.vocabulary import PREFIXES as NAMESPACES

READING = "<https://w3id.org/divkg/reading/t>"
PREFIXES = (
    "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in NAMESPACES.items())
    + f"@prefix r: <{READING[1:-1]}/> .\n"
)


def graph_of(tmp_path_factory: pytest.TempPathFactory, *names: str) -> KnowledgeGraph:
    """The knowledge graph built from the rule files ``names`` of corpus/rules alone, so other rule
    files being edited cannot change what a test sees."""
    rules = tmp_path_factory.mktemp("rules")
    for name in names:
        shutil.copy(RULES / name, rules / Path(name).name)
    out = tmp_path_factory.mktemp("kg")
    build(out, rules)
    return KnowledgeGraph.load(out / "kg.nq")
