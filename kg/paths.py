"""Where the repository keeps things: its folders, the default build folder and the graph every
command reads."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONTOLOGY = ROOT / "ontology"
CORPUS = ROOT / "corpus"
RULES = CORPUS / "rules"
BUILD = ROOT / "build"
"""``kg build``'s output folder (git-ignored): ``kg.nq``, ``kg.ttl`` and ``kg.index.marshal``."""
GRAPH = BUILD / "kg.nq"
"""The built graph the commands read by default (``--graph``)."""
