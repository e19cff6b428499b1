"""Where the repository keeps things: the default build folder and graph every command reads."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
"""``kg build``'s output folder (git-ignored): ``kg.nq``, ``kg.ttl`` and ``kg.index.json``."""
GRAPH = BUILD / "kg.nq"
"""The built graph the commands read by default (``--graph``)."""
