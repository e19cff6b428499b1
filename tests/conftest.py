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
