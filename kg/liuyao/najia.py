"""納甲: the stem and branch each trigram gives its three lines, inner (lines 1–3) and outer (4–6).

Source: 《京氏易傳》 (納甲); 《火珠林》; the 裝卦歌 "乾金甲子外壬午…" of 《卜筮正宗》 and 《卜筮全書》
(docs/liuyao-doctrine.md §4.1). 乾 and 坤 are the only trigrams whose inner and outer stems differ
(甲/壬, 乙/癸). Rule behind the branches: yang trigrams run forward in steps of two from 乾/震 子,
坎 寅, 艮 辰; yin trigrams backward from 巽 丑, 離 卯, 坤 未, 兌 巳; the outer half continues the
six-branch sequence.
"""

from __future__ import annotations

from kg.ganzhi import GanZhi

NAJIA: dict[str, tuple[str, str]] = {
    "乾": ("甲子 甲寅 甲辰", "壬午 壬申 壬戌"),
    "兌": ("丁巳 丁卯 丁丑", "丁亥 丁酉 丁未"),
    "離": ("己卯 己丑 己亥", "己酉 己未 己巳"),
    "震": ("庚子 庚寅 庚辰", "庚午 庚申 庚戌"),
    "巽": ("辛丑 辛亥 辛酉", "辛未 辛巳 辛卯"),
    "坎": ("戊寅 戊辰 戊午", "戊申 戊戌 戊子"),
    "艮": ("丙辰 丙午 丙申", "丙戌 丙子 丙寅"),
    "坤": ("乙未 乙巳 乙卯", "癸丑 癸亥 癸酉"),
}
"""納甲 of each trigram: (inner lines 1-2-3, outer lines 4-5-6)."""


def trigram_najia(trigram: str, outer: bool) -> tuple[GanZhi, GanZhi, GanZhi]:
    """The three 干支 a trigram gives when it is the inner (``outer=False``) or outer trigram."""
    a, b, c = (GanZhi.from_name(p) for p in NAJIA[trigram][outer].split())
    return a, b, c
