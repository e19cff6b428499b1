"""Line standing (月破, 日破, 暗動, 沖散), moving-line changes (docs/liuyao-doctrine.md §4.10 and docs/liuyao-doctrine.md §4.11) and 三合局 (docs/liuyao-doctrine.md §4.12)."""

from __future__ import annotations

from kg.calendar import Pillars
from kg.ganzhi import Branch, Element
from kg.liuyao.chart import FrameKind, cast_chart

QIAN = (7, 7, 7, 7, 7, 7)  # 乾為天: 甲子 甲寅 甲辰 壬午 壬申 壬戌


def test_day_clash_readings() -> None:
    """子 day clashes 午: in 午 month 午火 is 旺 → 暗動; in 酉 month 午火 is 囚 → 日破, and moving → 沖散."""
    strong = cast_chart(Pillars.parse("甲辰 庚午 甲子"), QIAN).lines[3]
    assert strong.day_clash and strong.hidden_move and not strong.day_broken and not strong.dispersed
    weak = cast_chart(Pillars.parse("甲辰 癸酉 甲子"), QIAN).lines[3]
    assert weak.seasonal.char == "囚" and weak.day_broken and not weak.hidden_move
    moving = cast_chart(Pillars.parse("甲辰 癸酉 甲子"), (7, 7, 7, 9, 7, 7)).lines[3]
    assert moving.dispersed and not moving.day_broken and not moving.hidden_move
    held = cast_chart(Pillars.parse("甲辰 庚午 甲子"), (7, 7, 7, 9, 7, 7)).lines[3]
    assert not held.dispersed  # 旺相者沖之不散


def test_month_break() -> None:
    """午 month clashes 子 (line 1): 月破, relieved (逢破不破) on a 子 day; not relieved on a 午 day."""
    on_zi_day = cast_chart(Pillars.parse("甲辰 庚午 甲子"), QIAN).lines[0]
    assert on_zi_day.month_broken and on_zi_day.month_break_relieved
    chart = cast_chart(Pillars.parse("甲辰 庚午 甲午"), QIAN)
    assert chart.lines[0].month_broken and not chart.lines[0].month_break_relieved
    assert [line.position for line in chart.lines if line.month_broken] == [1]


def test_changes() -> None:
    pillars = Pillars.parse("庚寅 戊寅 癸亥")
    a = cast_chart(pillars, (9, 7, 7, 7, 7, 8)).changed_lines[0]  # 甲子水 → 辛丑土
    assert a.relation is not None and a.relation.char == "回頭克"
    assert a.combines_back and not a.advance and a.to_void  # 子丑 合, 丑 空 in 甲寅旬
    assert not a.to_tomb  # 水 墓 辰
    b = cast_chart(Pillars.parse("庚寅 庚辰 丁巳"), (8, 8, 6, 7, 8, 8)).changed_lines[2]  # 乙卯木 → 丙申金
    assert b.to_jue and b.relation is not None and b.relation.char == "回頭克"  # 木 絕 申
    sheng = cast_chart(pillars, (8, 6, 6, 8, 8, 8))  # 坤 inner → 巽: 巳→亥, 卯→酉
    assert [c.clashes_back for c in sheng.changed_lines[1:3]] == [True, True]
    assert sheng.changed_hexagram is not None and sheng.changed_hexagram.name == "地風升"
    xie = cast_chart(pillars, (7, 7, 7, 9, 9, 9)).changed_lines[3]  # 乾 outer → 坤: 壬午火 → 癸丑土
    assert xie.branch is Branch.CHOU and xie.relation is not None and xie.relation.char == "化泄"
    assert not xie.to_tomb
    tomb = cast_chart(pillars, (7, 7, 7, 9, 9, 7)).changed_lines[3]  # 乾 outer → 艮: 壬午火 → 丙戌 (火墓戌)
    assert tomb.branch is Branch.XU and tomb.to_tomb and not tomb.to_jue


def test_fu_yin() -> None:
    chart = cast_chart(Pillars.parse("庚寅 戊寅 癸亥"), (7, 9, 9, 7, 7, 7))  # 乾 inner → 震: 子寅辰 stays
    assert chart.fu_yin_trigrams == ("inner",)
    assert [c.fu_yin for c in chart.changed_lines] == [False, True, True, False, False, False]


def test_three_harmony_frames() -> None:
    # 乾為天 lines 1 and 5 moving: 子 申 moving, 辰 static → 申子辰 水局 (兩動一靜)
    lines = cast_chart(Pillars.parse("庚寅 戊寅 癸亥"), (9, 7, 7, 7, 9, 7)).frames
    assert [(f.element, f.kind, f.line_positions) for f in lines] == [
        (Element.WATER, FrameKind.LINES, (1, 3, 5))
    ]
    # 天地否, lines 1 and 3 moving (未, 卯); line 3 changes to 己亥 → 亥卯未 木局 from the changed line
    changed = cast_chart(Pillars.parse("庚寅 戊寅 癸亥"), (6, 8, 6, 7, 7, 7)).frames
    assert [(f.element, f.kind, f.line_positions, f.changed_positions) for f in changed] == [
        (Element.WOOD, FrameKind.CHANGED, (1, 3), (3,))
    ]
    # 天地否, lines 4 and 6 moving (午, 戌); 寅 from the month, the day, or nowhere (虛一待用)
    values = (8, 8, 8, 9, 7, 9)
    month = cast_chart(Pillars.parse("庚寅 戊寅 癸亥"), values).frames
    assert [(f.element, f.kind) for f in month] == [(Element.FIRE, FrameKind.MONTH)]
    day = cast_chart(Pillars.parse("庚寅 庚辰 甲寅"), values).frames
    assert [(f.element, f.kind) for f in day] == [(Element.FIRE, FrameKind.DAY)]
    latent = cast_chart(Pillars.parse("庚寅 庚辰 丁巳"), values).frames
    assert [(f.element, f.kind, f.missing) for f in latent] == [(Element.FIRE, FrameKind.LATENT, Branch.YIN)]
    assert cast_chart(Pillars.parse("庚寅 庚辰 丁巳"), (8, 8, 8, 7, 7, 7)).frames == ()


def test_a_static_position_of_the_changed_hexagram_does_not_supply_the_third() -> None:
    """地雷復之天澤履 (lines 2, 4, 5, 6 moving): 癸丑 (4) and 癸酉 (6) move, 巳 is on no 本卦 line, the
    changed lines 4 and 6 are 壬午 and 壬戌, and neither 亥 day nor 寅 month is 巳. 履's line 1 is 丁巳,
    but 復's line 1 庚子 does not move: a static position, not a 變爻, so 巳酉丑 is 虛一待用 (docs/liuyao-doctrine.md §4.12)."""
    frames = cast_chart(Pillars.parse("庚寅 戊寅 癸亥"), (7, 6, 8, 6, 6, 6)).frames
    assert [(f.element, f.kind, f.line_positions, f.missing) for f in frames] == [
        (Element.METAL, FrameKind.LATENT, (4, 6), Branch.SI)
    ]


def test_a_changed_line_of_another_moving_line_blocks_the_latent_frame() -> None:
    """天地否之水天需 (lines 1, 2, 3, 4, 6 moving): 午 (4) and 戌 (6) move; 寅 is on no 本卦 line, not
    on the changed lines 4 (戊申) and 6 (戊子), not the 辰 month or 巳 day, but on the changed line 2
    甲寅 of a moving line outside the pair: no 寅午戌 frame (docs/liuyao-doctrine.md §4.12). 未 (1) and 卯 (3) move, and 亥 is
    nowhere: 亥卯未 虛一待用."""
    frames = cast_chart(Pillars.parse("庚寅 庚辰 丁巳"), (6, 6, 6, 9, 7, 9)).frames
    assert [(f.element, f.kind, f.missing) for f in frames] == [(Element.WOOD, FrameKind.LATENT, Branch.HAI)]


def test_tian_she() -> None:
    assert cast_chart(Pillars.parse("甲辰 丙寅 戊寅"), QIAN).tian_she  # 春 戊寅
    assert not cast_chart(Pillars.parse("甲辰 庚午 戊寅"), QIAN).tian_she
