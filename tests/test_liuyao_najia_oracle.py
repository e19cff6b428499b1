"""Oracle: najia 2.0.1 (a test-only dependency) on 納甲, 六親 (變卦 by the original palace), 世應, palace and
六神, over all 64 hexagrams × every moving pattern of lines 1 and 6 × all ten day stems.

najia's line values: 1 少陽, 2 少陰, 3 老陽, 4 老陰; its labels are simplified Chinese.
"""

from __future__ import annotations

import itertools

import pytest

from kg.calendar import Pillars
from kg.liuyao.chart import cast_chart

najia_utils = pytest.importorskip("najia.utils")
najia_const = pytest.importorskip("najia.const")

TO_HANT = str.maketrans("孙财龙陈兑离", "孫財龍陳兌離")
NAJIA_VALUE = {7: 1, 8: 2, 9: 3, 6: 4}
DAYS = ["甲子", "乙丑", "丙寅", "丁卯", "戊辰", "己巳", "庚午", "辛未", "壬申", "癸酉"]


def _najia_chart(values: tuple[int, ...], day: str) -> dict:
    params = [NAJIA_VALUE[v] for v in values]
    mark = "".join(str(p % 2) for p in params)
    shi, ying, _ = najia_utils.set_shi_yao(mark)
    gong = najia_utils.palace(mark, shi)
    element = najia_const.XING5[int(najia_const.GUA5[gong])]
    qin = [
        najia_utils.get_qin6(element, najia_const.ZHI5[najia_const.ZHIS.index(gz[1])])
        for gz in najia_utils.get_najia(mark)
    ]
    changed = None
    if any(p > 2 for p in params):
        bian = "".join("1" if p in (1, 4) else "0" for p in params)
        changed = (
            najia_utils.get_najia(bian),
            [
                najia_utils.get_qin6(element, najia_const.ZHI5[najia_const.ZHIS.index(gz[1])])
                for gz in najia_utils.get_najia(bian)
            ],
        )
    return {
        "najia": najia_utils.get_najia(mark),
        "qin": [q.translate(TO_HANT) for q in qin],
        "shi": (shi, ying),
        "palace": najia_const.GUAS[gong].translate(TO_HANT),
        "god": [g.translate(TO_HANT) for g in najia_utils.get_god6(day)],
        "changed": changed,
    }


def test_against_najia() -> None:
    bits_values = list(itertools.product((7, 8), repeat=6))
    checked = 0
    for day in DAYS:
        pillars = Pillars.parse(f"甲子 丙寅 {day}")
        for base in bits_values:
            for move1, move6 in itertools.product((False, True), repeat=2):
                values = list(base)
                if move1:
                    values[0] += 2 if values[0] == 7 else -2
                if move6:
                    values[5] += 2 if values[5] == 7 else -2
                values_t = tuple(values)
                ours = cast_chart(pillars, values_t)
                theirs = _najia_chart(values_t, day)
                assert [line.ganzhi.name for line in ours.lines] == theirs["najia"], values_t
                assert [line.relative.char for line in ours.lines] == theirs["qin"], values_t
                assert (ours.hexagram.shi, ours.hexagram.ying) == theirs["shi"], values_t
                assert ours.hexagram.palace.char == theirs["palace"], values_t
                assert [line.beast.char for line in ours.lines] == theirs["god"], (values_t, day)
                if theirs["changed"] is None:
                    assert ours.changed_lines == ()
                else:
                    gzs, qins = theirs["changed"]
                    assert [c.ganzhi.name for c in ours.changed_lines] == gzs
                    assert [c.relative.char for c in ours.changed_lines] == [
                        q.translate(TO_HANT) for q in qins
                    ]
                checked += 1
    assert checked == 10 * 64 * 4
