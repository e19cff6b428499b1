"""Procedures the texts give for computing an outcome (a quantity, a distance), as functions.

A rule names one as an outcome parameter, ``param: {distance: li(S)}``; after retrieval the
procedure is run on the entity bound to ``S`` in the reading and the report shows the value with
the passage that defines the procedure. Each procedure cites its passage by URN; the tests check
the worked figures the passages themselves give.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyoxigraph as ox

from kg.ganzhi import Branch
from kg.vocabulary import DK, PREFIXES

XIANTIAN: dict[Branch, int] = {b: (9, 8, 7, 6, 5, 4)[b % 6] for b in Branch}
"""先天數 of the branches: 子午 9, 丑未 8, 寅申 7, 卯酉 6, 辰戌 5, 巳亥 4 (《大六壬銀河棹》 ¶12
"如子午則二九十八"; ¶76 "戌加丑位上，五八十三")."""

SEASONAL_FACTOR: dict[str, float] = {"wang": 2, "xiang": 2, "xiu": 1, "qiu": 0.5, "si": 0.5}
"""倍減之法 (¶12): 旺相 double, 休 as it is, 囚死 half (¶76 "旺相倍因囚死半，休當本數")."""


@dataclass(frozen=True)
class Procedure:
    name: str
    summary: str
    passages: tuple[str, ...]
    run: Callable[[ox.Store, ox.NamedNode], str]


def _value(store: ox.Store, entity: ox.NamedNode, fact: str) -> str | None:
    for quad in store.quads_for_pattern(entity, ox.NamedNode(f"{DK}{fact}"), None):
        return quad.object.value
    return None


def _branch(iri: str | None) -> Branch | None:
    prefix = PREFIXES["br"]
    if iri is None or not iri.startswith(prefix):
        return None
    return Branch[iri[len(prefix) :].upper()]


def xiantian_total(store: ox.Store, spirit: ox.NamedNode) -> tuple[int, float] | None:
    """先天數 of a spirit and of the 地盤 seat it sits on, added, and the seasonal factor."""
    branch, seat = _branch(_value(store, spirit, "branch")), _branch(_value(store, spirit, "seat"))
    if branch is None or seat is None:
        return None
    state = _value(store, spirit, "seasonalState")
    factor = SEASONAL_FACTOR.get(state.rsplit("/", 1)[1], 1) if state else 1
    return XIANTIAN[branch] + XIANTIAN[seat], factor


def _quantity(unit: str) -> Callable[[ox.Store, ox.NamedNode], str]:
    def run(store: ox.Store, spirit: ox.NamedNode) -> str:
        found = xiantian_total(store, spirit)
        if found is None:
            return "? (the spirit's branch or seat is unknown)"
        total, factor = found
        note = "" if factor == 1 else f" (先天數 {total}, {'×2 旺相' if factor > 1 else '÷2 囚死'})"
        return f"{total * factor:g}{unit}{note}"

    return run


PROCEDURES: dict[str, Procedure] = {
    p.name: p
    for p in (
        Procedure(
            "amount",
            "先天數 of the spirit and of its seat added, doubled when 旺相 and halved when 囚死 (多少)",
            ("urn:cts:divkg:yinhezhao.qiucai-yishi.zh:12",),
            _quantity(""),
        ),
        Procedure(
            "li",
            "distance in 里: 先天數 of the spirit and of its seat added, ×2 旺相, ÷2 囚死, 休 as it is",
            ("urn:cts:divkg:yinhezhao.qiucai-yishi.zh:76",),
            _quantity("里"),
        ),
    )
}
"""Procedures by name, as rules call them in ``param``."""
