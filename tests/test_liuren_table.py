"""The 720-lesson table (tests/fixtures/liuren-720.tsv): every row, every column."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from kg.ganzhi import GanZhi
from kg.liuren import DEFAULT_OPTIONS, Chart, DisputedReading, Options, ShehaiVariant, build_chart

FIXTURE = Path(__file__).parent / "fixtures" / "liuren-720.tsv"
DISPUTED = {("戊辰", 7), ("戊戌", 7)}
"""The two rows where the table departs from the 《指南》 涉害 rule (tests/fixtures/README.md)."""


def _rows() -> list[dict[str, str]]:
    with FIXTURE.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


ROWS = _rows()


def _chart(row: dict[str, str], options: Options = DEFAULT_OPTIONS) -> Chart:
    return build_chart(GanZhi.from_name(row["day"]), int(row["ju"]), options=options)


def _chuan(chart: Chart) -> str:
    return ",".join(b.char for b in chart.derivation.branches)


def test_fixture_shape() -> None:
    assert len(ROWS) == 720
    assert {(r["day"], int(r["ju"])) for r in ROWS} == {
        (GanZhi.from_index(i).name, ju) for i in range(60) for ju in range(1, 13)
    }


def test_every_row_but_the_chuan() -> None:
    """干上神, 四課, 遁干, 旬空 and both 天將 plates: 720/720 under the default options."""
    for row in ROWS:
        chart = _chart(row)
        where = f"{row['day']} 第{row['ju']}局"
        assert chart.gan_shang.char == row["gan_shang"], where
        for i, lesson in enumerate(chart.lessons, start=1):
            assert (lesson.upper.char, lesson.lower.char) == (row[f"ke{i}_upper"], row[f"ke{i}_lower"]), where
        assert ",".join(b.char for b in chart.void) == row["kong"], where
        assert ",".join(g.char for g in chart.day_procession.by_heaven) == row["day_plate"], where
        assert ",".join(g.char for g in chart.night_procession.by_heaven) == row["night_plate"], where
        if (row["day"], int(row["ju"])) not in DISPUTED:
            dungan = ",".join("-" if t.stem is None else t.stem.char for t in chart.transmissions)
            assert dungan == row["chuan_dungan"], where


def test_chuan_default_718_and_the_two_documented_rows() -> None:
    mismatches = {
        (row["day"], int(row["ju"]))
        for row in ROWS
        if _chuan(_chart(row)) != ",".join((row["chuan1"], row["chuan2"], row["chuan3"]))
    }
    assert mismatches == DISPUTED
    for row in ROWS:
        if (row["day"], int(row["ju"])) in DISPUTED:
            assert _chuan(_chart(row)) == "亥,巳,亥"


def test_table_reading_option_reproduces_all_720() -> None:
    options = Options(disputed_reading=DisputedReading.TABLE_720)
    for row in ROWS:
        chart = _chart(row, options)
        assert _chuan(chart) == ",".join((row["chuan1"], row["chuan2"], row["chuan3"])), row["day"]
        dungan = ",".join("-" if t.stem is None else t.stem.char for t in chart.transmissions)
        assert dungan == row["chuan_dungan"]
        assert (chart.derivation.reading is not None) == ((row["day"], int(row["ju"])) in DISPUTED)
    reading = _chart(ROWS[4 * 12 + 6], options).derivation.reading
    assert reading is not None and "daliuren-lib" in reading.source


def test_method_counts_match_the_notes() -> None:
    """docs/liuren-doctrine.md §4.5 and tests/fixtures/README.md "Method counts from the checker"."""
    counts = Counter()
    for row in ROWS:
        d = _chart(row).derivation
        counts[d.method.char if d.rule is None else f"{d.method.char}/{d.rule.char}"] += 1
    assert counts == {
        "重審": 218,
        "元首": 119,
        "知一": 81,
        "涉害": 76,
        "遙克": 65,
        "伏吟": 60,
        "返吟/重審": 30,
        "返吟/知一": 16,
        "返吟/涉害": 6,
        "返吟/元首": 2,
        "返吟": 6,
        "昴星": 16,
        "八專": 16,
        "別責": 9,
    }


@pytest.mark.parametrize(("variant", "differ_from_v3", "match_table"), [(ShehaiVariant.KEJING, 23, 695)])
def test_kejing_depth_variant(variant: ShehaiVariant, differ_from_v3: int, match_table: int) -> None:
    """docs/liuren-doctrine.md §4.6: V1s (課經, seat and its 寄干 counted) differs from V3 on 23 局, matches 695/720."""
    options = Options(shehai_variant=variant)
    differ = match = 0
    for row in ROWS:
        chuan = _chuan(_chart(row, options))
        differ += chuan != _chuan(_chart(row))
        match += chuan == ",".join((row["chuan1"], row["chuan2"], row["chuan3"]))
    assert (differ, match) == (differ_from_v3, match_table)
