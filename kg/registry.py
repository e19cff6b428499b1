"""Procedures the texts give for computing an outcome (a quantity, a distance), by name.

A rule names one as an outcome parameter, ``param: {distance: li(S)}``; after retrieval
:mod:`kg.match` runs it on the entity bound to ``S`` in the reading and the report shows the value
with the passages that define the procedure. Retrieval knows no chart system: a chart system
registers its procedures here when it is imported (the 《大六壬銀河棹》 ones in
:mod:`kg.liuren.procedures`), and the views that run readings import the chart systems.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyoxigraph as ox

from kg.errors import KgError


@dataclass(frozen=True)
class Procedure:
    """A procedure of a text: its name in rules, what it computes, the URNs of the passages that
    define it, and the function that runs it on the reading's store and the bound entity."""

    name: str
    summary: str
    passages: tuple[str, ...]
    run: Callable[[ox.Store, ox.NamedNode], str]


PROCEDURES: dict[str, Procedure] = {}
"""The registered procedures by name, as rules call them in ``param``."""


def register(*procedures: Procedure) -> None:
    """Make ``procedures`` available to retrieval; a name registered twice is an error."""
    for p in procedures:
        if p.name in PROCEDURES:
            raise KgError(f"procedure {p.name!r} is registered twice")
        PROCEDURES[p.name] = p


def procedure(name: str) -> Procedure:
    """The procedure called ``name``; a :class:`KgError` naming it when no loaded chart system has
    registered it."""
    found = PROCEDURES.get(name)
    if found is None:
        known = ", ".join(sorted(PROCEDURES)) or "none"
        raise KgError(
            f"unknown procedure {name!r}: no loaded chart system registers it (registered: {known})"
        )
    return found
