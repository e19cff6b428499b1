"""The 64 hexagrams: palace, generation and 世/應 against docs/liuyao-doctrine.md §4.2, and the
六沖 / 六合 classes of docs/liuyao-doctrine.md §4.12."""

from __future__ import annotations

from collections import Counter

import pytest

from kg.liuyao.hexagrams import HEXAGRAMS, TRIGRAMS, by_name, hexagram

# 宮: (本宮 世6, 一世 世1, 二世 世2, 三世 世3, 四世 世4, 五世 世5, 游魂 世4, 歸魂 世3), copied from the notes
TABLE = {
    ("乾", "金"): "乾為天 111111, 天風姤 011111, 天山遯 001111, 天地否 000111, 風地觀 000011, 山地剝 000001, 火地晉 000101, 火天大有 111101",
    ("坎", "水"): "坎為水 010010, 水澤節 110010, 水雷屯 100010, 水火既濟 101010, 澤火革 101110, 雷火豐 101100, 地火明夷 101000, 地水師 010000",
    ("艮", "土"): "艮為山 001001, 山火賁 101001, 山天大畜 111001, 山澤損 110001, 火澤睽 110101, 天澤履 110111, 風澤中孚 110011, 風山漸 001011",
    ("震", "木"): "震為雷 100100, 雷地豫 000100, 雷水解 010100, 雷風恆 011100, 地風升 011000, 水風井 011010, 澤風大過 011110, 澤雷隨 100110",
    ("巽", "木"): "巽為風 011011, 風天小畜 111011, 風火家人 101011, 風雷益 100011, 天雷無妄 100111, 火雷噬嗑 100101, 山雷頤 100001, 山風蠱 011001",
    ("離", "火"): "離為火 101101, 火山旅 001101, 火風鼎 011101, 火水未濟 010101, 山水蒙 010001, 風水渙 010011, 天水訟 010111, 天火同人 101111",
    ("坤", "土"): "坤為地 000000, 地雷復 100000, 地澤臨 110000, 地天泰 111000, 雷天大壯 111100, 澤天夬 111110, 水天需 111010, 水地比 000010",
    ("兌", "金"): "兌為澤 110110, 澤水困 010110, 澤地萃 000110, 澤山咸 001110, 水山蹇 001010, 地山謙 001000, 雷山小過 001100, 雷澤歸妹 110100",
}  # fmt: skip
GENERATIONS = [
    ("本宮", 6, 3),
    ("一世", 1, 4),
    ("二世", 2, 5),
    ("三世", 3, 6),
    ("四世", 4, 1),
    ("五世", 5, 2),
    ("游魂", 4, 1),
    ("歸魂", 3, 6),
]
ROWS = [
    (palace, element, name, bits, *GENERATIONS[g])
    for (palace, element), row in TABLE.items()
    for g, (name, bits) in enumerate(entry.split() for entry in row.split(", "))
]

LIU_CHONG = {
    "乾為天",
    "坤為地",
    "震為雷",
    "巽為風",
    "坎為水",
    "離為火",
    "艮為山",
    "兌為澤",
    "天雷無妄",
    "雷天大壯",
}
LIU_HE = {"天地否", "地天泰", "澤水困", "水澤節", "火山旅", "山火賁", "雷地豫", "地雷復"}


def test_table_has_64_distinct_hexagrams() -> None:
    assert len(ROWS) == 64 and len({r[3] for r in ROWS}) == 64 and len(HEXAGRAMS) == 64


@pytest.mark.parametrize(("palace", "element", "name", "bits", "generation", "shi", "ying"), ROWS)
def test_hexagram(
    palace: str, element: str, name: str, bits: str, generation: str, shi: int, ying: int
) -> None:
    h = hexagram(tuple(int(c) for c in bits))
    assert (h.name, h.palace.char, h.palace_element.char, h.generation.char, h.shi, h.ying) == (
        name, palace, element, generation, shi, ying,
    )  # fmt: skip
    assert by_name(name) is h and by_name(h.short) is h
    if generation != "本宮":  # full name = outer image + inner image + short name
        assert name == h.outer.image + h.inner.image + h.short


def test_trigram_najia_rule() -> None:
    """Yang trigrams run forward by two from 乾/震 子, 坎 寅, 艮 辰; yin ones backward from 巽 丑,
    離 卯, 坤 未, 兌 巳; the outer half continues the sequence (docs/liuyao-doctrine.md §4.1)."""
    start = {"乾": "子", "震": "子", "坎": "寅", "艮": "辰", "巽": "丑", "離": "卯", "坤": "未", "兌": "巳"}
    order = "子丑寅卯辰巳午未申酉戌亥"
    for t in TRIGRAMS:
        step = 2 if sum(t.bits) % 2 else -2  # yang trigrams have an odd number of yang lines
        first = order.index(start[t.char])
        expected = [order[(first + step * k) % 12] for k in range(6)]
        assert [g.branch.char for g in t.inner_najia + t.outer_najia] == expected, t.char


def test_liu_chong_and_liu_he_classes() -> None:
    assert {h.name for h in HEXAGRAMS if h.is_liu_chong} == LIU_CHONG
    assert {h.name for h in HEXAGRAMS if h.is_liu_he} == LIU_HE


def test_no_hexagram_has_three_lines_of_one_element() -> None:
    """Each half's 納甲 is three branches two apart, which always hold one of 辰戌丑未 and two other 五行,
    so no hexagram has three lines of one 五行 (docs/liuyao-doctrine.md §7.3): 三五重 counts more than
    the six lines, and ¶70's 三件動爻生宅爻 cannot mean three moving lines (they would share a 五行)."""
    earth = set("辰戌丑未")
    for h in HEXAGRAMS:
        halves = (h.inner.inner_najia, h.outer.outer_najia)
        assert all(sum(g.branch.char in earth for g in half) == 1 for half in halves), h.name
        elements = Counter(g.branch.element for half in halves for g in half)
        assert max(elements.values()) == 2, h.name
