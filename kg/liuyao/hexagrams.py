"""八卦 and the sixty-four 卦 in the 八宮 (eight palaces) order of 京房.

Bits run bottom → top (line 1 first), 1 = yang. A hexagram's palace, generation and 世/應 are
derived by the construction rule of 《京氏易傳》 (docs/liuyao-doctrine.md §4.2): from the pure
palace hexagram (本宮, 世6) flip line 1 → 一世, then line 2 … line 5 → 五世; flip line 4 back →
游魂 (世4); restore lines 1–3 to the palace trigram → 歸魂 (世3). 應 is 世 ± 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

from kg.errors import InputError
from kg.ganzhi import Element, GanZhi, clashes, combines
from kg.liuyao.najia import trigram_najia

Bits = tuple[int, ...]


@dataclass(frozen=True)
class Trigram:
    """經卦 (八卦): three lines, an element, an image (天 澤 火 …) and its 納甲."""

    char: str
    slug: str
    image: str
    bits: tuple[int, int, int]
    element: Element
    inner_najia: tuple[GanZhi, GanZhi, GanZhi]
    outer_najia: tuple[GanZhi, GanZhi, GanZhi]


def _trigram(char: str, slug: str, image: str, bits: str, element: Element) -> Trigram:
    b1, b2, b3 = (int(c) for c in bits)
    return Trigram(
        char, slug, image, (b1, b2, b3), element, trigram_najia(char, False), trigram_najia(char, True)
    )


TRIGRAMS: tuple[Trigram, ...] = (
    _trigram("乾", "qian", "天", "111", Element.METAL),
    _trigram("兌", "dui", "澤", "110", Element.METAL),
    _trigram("離", "li", "火", "101", Element.FIRE),
    _trigram("震", "zhen", "雷", "100", Element.WOOD),
    _trigram("巽", "xun", "風", "011", Element.WOOD),
    _trigram("坎", "kan", "水", "010", Element.WATER),
    _trigram("艮", "gen", "山", "001", Element.EARTH),
    _trigram("坤", "kun", "地", "000", Element.EARTH),
)
"""The eight trigrams with bits (line 1 → 3) and element (palace element = trigram element), docs/liuyao-doctrine.md §4.1."""

_TRIGRAM_BY_BITS: dict[tuple[int, ...], Trigram] = {t.bits: t for t in TRIGRAMS}
TRIGRAM_BY_CHAR: dict[str, Trigram] = {t.char: t for t in TRIGRAMS}


class Generation(IntEnum):
    """Place of a hexagram in its palace (世 position in brackets)."""

    BEN_GONG = 0
    """本宮 (八純, 世6)."""
    YI_SHI = 1
    """一世 (世1)."""
    ER_SHI = 2
    """二世 (世2)."""
    SAN_SHI = 3
    """三世 (世3)."""
    SI_SHI = 4
    """四世 (世4)."""
    WU_SHI = 5
    """五世 (世5)."""
    YOU_HUN = 6
    """游魂 (世4)."""
    GUI_HUN = 7
    """歸魂 (世3)."""

    @property
    def char(self) -> str:
        return ("本宮", "一世", "二世", "三世", "四世", "五世", "游魂", "歸魂")[self]

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")

    @property
    def shi(self) -> int:
        """世 line of this generation (尋世訣 "天同二世天變五 … 人同游魂人變歸")."""
        return (6, 1, 2, 3, 4, 5, 4, 3)[self]


PALACE_NAMES: dict[str, str] = {
    "乾": "乾為天 天風姤 天山遯 天地否 風地觀 山地剝 火地晉 火天大有",
    "坎": "坎為水 水澤節 水雷屯 水火既濟 澤火革 雷火豐 地火明夷 地水師",
    "艮": "艮為山 山火賁 山天大畜 山澤損 火澤睽 天澤履 風澤中孚 風山漸",
    "震": "震為雷 雷地豫 雷水解 雷風恆 地風升 水風井 澤風大過 澤雷隨",
    "巽": "巽為風 風天小畜 風火家人 風雷益 天雷無妄 火雷噬嗑 山雷頤 山風蠱",
    "離": "離為火 火山旅 火風鼎 火水未濟 山水蒙 風水渙 天水訟 天火同人",
    "坤": "坤為地 地雷復 地澤臨 地天泰 雷天大壯 澤天夬 水天需 水地比",
    "兌": "兌為澤 澤水困 澤地萃 澤山咸 水山蹇 地山謙 雷山小過 雷澤歸妹",
}
"""The 64 full names (zh-Hant), palace by palace in 京房 order 乾坎艮震巽離坤兌, each row in generation
order 本宮 … 歸魂. The short name is the character(s) after the two trigram images (八純: the first)."""


@dataclass(frozen=True)
class Hexagram:
    """別卦: six lines with its palace (宮), generation and 世/應."""

    bits: Bits
    name: str
    short: str
    palace: Trigram
    generation: Generation

    def __hash__(self) -> int:
        """By the bits, which determine the rest (the generated hash would hash every field)."""
        return hash(self.bits)

    @cached_property
    def code(self) -> str:
        """Bits bottom → top as a string, e.g. '111110' for 澤天夬."""
        return "".join(map(str, self.bits))

    @cached_property
    def inner(self) -> Trigram:
        """內卦 (下卦), lines 1–3."""
        return _TRIGRAM_BY_BITS[self.bits[:3]]

    @cached_property
    def outer(self) -> Trigram:
        """外卦 (上卦), lines 4–6."""
        return _TRIGRAM_BY_BITS[self.bits[3:]]

    @cached_property
    def palace_element(self) -> Element:
        """宮五行: the element of the palace trigram; 六親 are reckoned against it."""
        return self.palace.element

    @cached_property
    def shi(self) -> int:
        """世爻 position (1–6)."""
        return self.generation.shi

    @cached_property
    def ying(self) -> int:
        """應爻 position: 世 ± 3."""
        return (self.shi + 2) % 6 + 1

    def in_palace(self, position: int) -> bool:
        """真宮 (False: 假宮): line ``position`` lies in the trigram of the hexagram's palace, which is
        the 外卦 of the 一世 … 三世 hexagrams, the 內卦 of the 歸魂, both of the 八純 and neither of the
        四世, 五世 and 游魂 (《黃金策》 ¶92 "遁卦外有乾卦 … 是真兄弟"; docs/liuyao-doctrine.md §7.14)."""
        return (self.inner if position <= 3 else self.outer).char == self.palace.char

    @cached_property
    def najia(self) -> tuple[GanZhi, ...]:
        """納甲 of lines 1 → 6."""
        return self.inner.inner_najia + self.outer.outer_najia

    @property
    def is_pure(self) -> bool:
        """八純卦 (本宮)."""
        return self.generation is Generation.BEN_GONG

    @property
    def is_wandering(self) -> bool:
        """游魂卦."""
        return self.generation is Generation.YOU_HUN

    @property
    def is_returning(self) -> bool:
        """歸魂卦."""
        return self.generation is Generation.GUI_HUN

    @cached_property
    def is_liu_chong(self) -> bool:
        """六沖卦: lines (1,4), (2,5), (3,6) all clash (《增刪卜易》 六沖章)."""
        b = [g.branch for g in self.najia]
        return all(clashes(b[i], b[i + 3]) for i in range(3))

    @cached_property
    def is_liu_he(self) -> bool:
        """六合卦: lines (1,4), (2,5), (3,6) all combine (《增刪卜易》 六合章)."""
        b = [g.branch for g in self.najia]
        return all(combines(b[i], b[i + 3]) for i in range(3))


def _flip(bits: Bits, *positions: int) -> Bits:
    return tuple(b ^ (i + 1 in positions) for i, b in enumerate(bits))


def _palace(trigram: Trigram) -> tuple[Bits, ...]:
    """The eight hexagrams of a palace by 京房's construction, 本宮 … 歸魂."""
    pure: Bits = trigram.bits * 2
    generations = [_flip(pure, *range(1, n + 1)) for n in range(6)]
    wandering = _flip(generations[5], 4)
    returning = trigram.bits + wandering[3:]
    return (*generations, wandering, returning)


def _short(name: str) -> str:
    return name[0] if name[1] == "為" else name[2:]


HEXAGRAMS: tuple[Hexagram, ...] = tuple(
    Hexagram(bits, name, _short(name), TRIGRAM_BY_CHAR[palace], Generation(g))
    for palace, names in PALACE_NAMES.items()
    for g, (bits, name) in enumerate(zip(_palace(TRIGRAM_BY_CHAR[palace]), names.split(), strict=True))
)
"""All 64 hexagrams in 八宮 order."""

_BY_BITS: dict[Bits, Hexagram] = {h.bits: h for h in HEXAGRAMS}
_BY_NAME: dict[str, Hexagram] = {n: h for h in HEXAGRAMS for n in (h.name, h.short)}


def hexagram(bits: Bits) -> Hexagram:
    """The hexagram with these six bits (bottom → top, 1 = yang)."""
    if len(bits) != 6 or any(b not in (0, 1) for b in bits):
        raise InputError(f"not six yin/yang bits: {bits!r}")
    return _BY_BITS[tuple(bits)]


def by_name(name: str) -> Hexagram:
    """The hexagram with this full (澤天夬, 乾為天) or short (夬, 乾) zh-Hant name."""
    found = _BY_NAME.get(name.strip())
    if found is None:
        raise InputError(
            f"unknown hexagram name {name!r}: give a full name such as 澤天夬 or 乾為天, or a short one such as 夬"
        )
    return found
