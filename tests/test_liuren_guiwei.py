"""The twelve 癸未 lessons of docs/liuren-doctrine.md §3 and the 課體 《直指》 gives 局4–11."""

from __future__ import annotations

import pytest

from kg.liuren import DEFAULT_OPTIONS, Chart, Options, ShehaiVariant, chart_from_inputs, compare_with_text

# 局: (四課 upper/lower ×4, 三傳 with 遁干 ("酉" alone = 空), 九宗門 method, sub-types, 貴 seat 晝/夜)
GUIWEI: dict[int, tuple[str, str, str, str, str]] = {
    1: ("丑/癸 丑/丑 未/未 未/未", "丁丑 甲戌 癸未", "伏吟", "自任", "巳/卯"),
    2: ("子/癸 亥/子 午/未 巳/午", "辛巳 庚辰 己卯", "遙克", "彈射 蓦越", "午/辰"),
    3: ("亥/癸 酉/亥 巳/未 卯/巳", "辛巳 己卯 丁丑", "遙克", "彈射", "未/巳"),
    4: ("戌/癸 未/戌 辰/未 丑/辰", "甲戌 癸未 庚辰", "元首", "", "申/午"),
    5: ("酉/癸 巳/酉 卯/未 亥/卯", "辛巳 丁丑 酉", "涉害", "察微", "酉/未"),
    6: ("申/癸 卯/申 寅/未 酉/寅", "己卯 甲戌 辛巳", "重審", "", "戌/申"),
    7: ("未/癸 丑/未 丑/未 未/丑", "癸未 丁丑 癸未", "返吟", "無依", "亥/酉"),
    8: ("午/癸 亥/午 子/未 巳/子", "辛巳 甲戌 己卯", "知一", "", "子/戌"),
    9: ("巳/癸 酉/巳 亥/未 卯/亥", "酉 丁丑 辛巳", "涉害", "見機", "丑/亥"),
    10: ("辰/癸 未/辰 戌/未 丑/戌", "庚辰 癸未 甲戌", "元首", "", "寅/子"),
    11: ("卯/癸 巳/卯 酉/未 亥/酉", "辛巳 癸未 酉", "遙克", "彈射", "卯/丑"),
    12: ("寅/癸 卯/寅 申/未 酉/申", "申 戊寅 申", "昴星", "冬蛇掩目", "辰/寅"),
}

ZHIZHI: dict[int, tuple[str, ...]] = {
    4: ("元首", "斬關", "稼穡", "遊子"),
    5: ("涉害", "從革", "勵德"),
    6: ("重審", "斫輪", "羅網", "勵德"),
    7: ("反吟", "稼穡", "亂首", "遊子"),
    8: ("知一", "鑄印", "度厄"),
    9: ("涉害", "從革", "見機"),
    10: ("元首", "斬關", "稼穡"),
    11: ("遙克", "彈射", "勵德", "間傳"),
}
"""《御定六壬直指》's 課體 for 癸未 局4–11 (docs/liuren-doctrine.md §3 column "《直指》 課體"; 9局's 見機 from its 斷曰)."""


def _chart(ju: int, options: Options = DEFAULT_OPTIONS) -> Chart:
    return chart_from_inputs(day="癸未", ju=ju, options=options)


@pytest.mark.parametrize("ju", range(1, 13))
def test_guiwei_lesson(ju: int) -> None:
    lessons, chuan, method, subtypes, nobles = GUIWEI[ju]
    chart = _chart(ju)
    assert " ".join(f"{ls.upper.char}/{ls.lower.char}" for ls in chart.lessons) == lessons
    assert (
        " ".join((t.stem.char if t.stem is not None else "") + t.branch.char for t in chart.transmissions)
        == chuan
    )
    assert chart.derivation.method.char == method
    assert " ".join(s.char for s in chart.derivation.subtypes) == subtypes
    assert f"{chart.day_procession.seat.char}/{chart.night_procession.seat.char}" == nobles
    assert chart.month_general is None and chart.hour is None and chart.day_night is None


@pytest.mark.parametrize("ju", sorted(ZHIZHI))
def test_zhizhi_keti_are_derived(ju: int) -> None:
    comparison = compare_with_text(_chart(ju), ZHIZHI[ju])
    expected_missing = ("勵德",) if ju == 6 else ()
    assert comparison.named_not_derived == expected_missing


ZHIZHI_PROSE: dict[int, tuple[str, ...]] = {
    4: ("閉口", "斬關"),
    7: ("無依", "遊子"),
    8: ("知一", "鑄印"),
    9: ("見機", "從革"),
    10: ("閉口", "遊子"),
    11: ("彈射", "間傳"),
}
"""Names the 課義, 解曰, 斷曰 and verdict lines use: 4 閉口卦 (¶4), 課名斬關 (¶8); 7 無依之卦 (¶38), 課名遊子
(¶40); 8 知一之卦，又名鑄印 (¶48); 9 見機之卦，傳逢從革 (¶58); 10 閉口居中 (¶64), 中傳閉口 (¶66), 課名遊子 (¶70);
11 彈射間傳 (¶78)."""


@pytest.mark.parametrize("ju", sorted(ZHIZHI_PROSE))
def test_zhizhi_prose_names_are_derived(ju: int) -> None:
    assert compare_with_text(_chart(ju), ZHIZHI_PROSE[ju]).named_not_derived == ()


def test_guiwei6_lide_is_reported_not_forced() -> None:
    """docs/liuren-doctrine.md §3: 晝 貴 巳 sits on 戌 and 夜 卯 on 申, so 貴臨卯酉 does not give 勵德 at 6局."""
    chart = _chart(6)
    assert "勵德" not in chart.keti_names
    assert compare_with_text(chart, ZHIZHI[6]).named_not_derived == ("勵德",)


def test_notes_checkable_claims() -> None:
    """The facts docs/liuren-doctrine.md §3 says the derivations confirm."""
    four, six, seven, eight, ten = _chart(4), _chart(6), _chart(7), _chart(8), _chart(10)
    assert "閉口" in four.keti_names  # 旬尾 未 on 旬首 戌
    assert "閉口" in ten.keti_names  # 旬首 戌 on 旬尾 未
    assert six.transmissions[0].fallen_void  # 卯 sits on 空 申
    assert "亂首" in seven.keti_names
    assert [t.seat.char for t in eight.transmissions[::2]] == ["子", "戌"]  # 巳 on 子, 卯 on 戌
    assert all(t.relative.char == "官鬼" for t in ten.transmissions)
    assert all(ls.relation.char == "下生上" for ls in _chart(11).lessons)
    assert {"稼穡"} <= set(_chart(1).keti_names)
    assert [j for j in range(1, 13) if "勵德" in _chart(j).keti_names] == [1, 5, 7, 11]
    assert [j for j in range(1, 13) if "稼穡" in _chart(j).keti_names] == [1, 4, 7, 10]


@pytest.mark.parametrize(
    ("day", "ju", "v3", "v1s"),
    [("癸未", 5, "巳丑酉", "卯亥未"), ("甲申", 5, "戌午寅", "子申辰"), ("丁卯", 3, "丑亥酉", "亥酉未")],
)
def test_discriminating_shehai_lessons(day: str, ju: int, v3: str, v1s: str) -> None:
    """docs/liuren-doctrine.md §4.6: the text follows V3 (default); the depth count gives the other reading."""
    default = chart_from_inputs(day=day, ju=ju)
    kejing = chart_from_inputs(day=day, ju=ju, options=Options(shehai_variant=ShehaiVariant.KEJING))
    assert "".join(b.char for b in default.derivation.branches) == v3
    assert "".join(b.char for b in kejing.derivation.branches) == v1s
