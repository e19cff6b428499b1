"""Invariants over all 4,096 casts (docs/liuyao-doctrine.md §2)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from kg.calendar import Pillars
from kg.ganzhi import Branch
from kg.liuyao.body import gua_shen
from kg.liuyao.chart import Chart, cast_chart
from kg.liuyao.hexagrams import HEXAGRAMS, hexagram
from kg.liuyao.hidden import hidden_spirits
from kg.six_relatives import Relative, relative

ALL_VALUES = list(itertools.product((6, 7, 8, 9), repeat=6))


@pytest.fixture(scope="module")
def charts() -> list[Chart]:
    pillars = Pillars.parse("庚寅 戊寅 癸亥")
    return [cast_chart(pillars, values) for values in ALL_VALUES]


def test_missing_relatives_counts_and_hidden_never_ambiguous() -> None:
    missing_counts = Counter()
    for h in HEXAGRAMS:
        present = {relative(h.palace_element, g.branch.element) for g in h.najia}
        missing = set(Relative) - present
        missing_counts[len(missing)] += 1
        pure = hexagram(h.palace.bits * 2)
        pure_relatives = [relative(h.palace_element, g.branch.element) for g in pure.najia]
        for rel in missing:
            assert pure_relatives.count(rel) == 1, (h.name, rel)
        assert {x.relative for x in hidden_spirits(h)} == missing
        assert len(hidden_spirits(h)) == len(missing)
    assert missing_counts == {0: 20, 1: 32, 2: 12}


def test_gua_shen_placement_counts() -> None:
    assert Counter(len(gua_shen(h).positions) for h in HEXAGRAMS) == {0: 33, 1: 28, 2: 3}


def test_advance_pairs_and_same_branch_changes(charts: list[Chart]) -> None:
    advance, retreat, same, pairs = set(), set(), set(), set()
    for chart in charts:
        for line, changed in zip(chart.lines, chart.changed_lines, strict=False):
            if not line.moving:
                continue
            pair = (line.branch.char, changed.branch.char)
            pairs.add(pair)
            if changed.advance:
                advance.add(pair)
            if changed.retreat:
                retreat.add(pair)
            if changed.fu_yin:
                same.add(line.branch.char)
    assert advance == {("丑", "辰"), ("寅", "卯"), ("未", "戌"), ("申", "酉")}
    assert retreat == {(b, a) for a, b in advance}
    assert same == {"寅", "辰", "申", "戌"}
    assert ("戌", "丑") not in pairs and ("丑", "戌") not in pairs
    assert ("子", "丑") not in advance  # not "next branch, same element"


def test_every_cast_is_consistent(charts: list[Chart]) -> None:
    for values, chart in zip(ALL_VALUES, charts, strict=True):
        assert chart.hexagram.bits == tuple(v % 2 for v in values)
        assert [line.moving for line in chart.lines] == [v in (6, 9) for v in values]
        if chart.changed_hexagram is None:
            assert set(values) <= {7, 8} and chart.changed_lines == ()
        else:
            assert chart.changed_hexagram.bits == tuple(int(v in (7, 6)) for v in values)
            palace = chart.hexagram.palace_element
            assert all(c.relative is relative(palace, c.element) for c in chart.changed_lines)
        assert sum(line.shi for line in chart.lines) == 1 and sum(line.ying for line in chart.lines) == 1
        assert chart.void == (Branch.ZI, Branch.CHOU)
        assert chart.chong_to_he == bool(
            chart.changed_hexagram and chart.hexagram.is_liu_chong and chart.changed_hexagram.is_liu_he
        )


def test_liu_chong_to_liu_he_occurs(charts: list[Chart]) -> None:
    """e.g. 乾為天 → 天地否 (inner 乾 → 坤, lines 1–3 moving) is 六沖變六合."""
    names = {(c.hexagram.name, c.changed_hexagram.name) for c in charts if c.chong_to_he}  # type: ignore[union-attr]
    assert ("乾為天", "天地否") in names
    back = {(c.hexagram.name, c.changed_hexagram.name) for c in charts if c.he_to_chong}  # type: ignore[union-attr]
    assert ("天地否", "乾為天") in back
