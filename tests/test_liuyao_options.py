"""Each option changes what it should and nothing else."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from kg.calendar import Pillars, ZiHourRule
from kg.errors import InputError
from kg.liuyao.body import GuaShenRule
from kg.liuyao.chart import Chart, MonthBreakRule, Options, ShenShaBase, cast_chart, chart_from_inputs
from kg.liuyao.hidden import FuShenMode

PILLARS_A = Pillars.parse("庚寅 戊寅 癸亥")
VALUES_A = (9, 7, 7, 7, 7, 8)


def _differing(a: Chart, b: Chart) -> set[str]:
    return {f.name for f in fields(Chart) if getattr(a, f.name) != getattr(b, f.name)}


def _line_fields(a: Chart, b: Chart) -> set[str]:
    out = set()
    for la, lb in zip(a.lines, b.lines, strict=True):
        out |= {f.name for f in fields(la) if getattr(la, f.name) != getattr(lb, f.name)}
    return out


def test_fu_shen_all_adds_hidden_lines_only() -> None:
    default = cast_chart(PILLARS_A, VALUES_A)
    everywhere = cast_chart(PILLARS_A, VALUES_A, Options(fu_shen=FuShenMode.ALL))
    assert _differing(default, everywhere) == {"options", "hidden_lines"}
    assert [h.position for h in everywhere.hidden_lines] == [1, 2, 3, 4, 5, 6]
    # the pure 坤為地 lines: 乙未 乙巳 乙卯 癸丑 癸亥 癸酉
    assert [h.ganzhi.name for h in everywhere.hidden_lines] == [
        "乙未",
        "乙巳",
        "乙卯",
        "癸丑",
        "癸亥",
        "癸酉",
    ]
    assert default.hidden_lines[0] in everywhere.hidden_lines


@pytest.mark.parametrize(
    ("rule", "branch", "positions"),
    [
        (GuaShenRule.SHI_BUSHI, None, (4,)),  # 世 丁酉: 卯酉 → line 4
        (GuaShenRule.SHI_LICHUNFENG, None, (4,)),
        (GuaShenRule.NONE, None, ()),
    ],
)
def test_gua_shen_variants_change_only_gua_shen(
    rule: GuaShenRule, branch: None, positions: tuple[int, ...]
) -> None:
    default = cast_chart(PILLARS_A, VALUES_A)
    other = cast_chart(PILLARS_A, VALUES_A, Options(gua_shen=rule))
    assert _differing(default, other) == {"options", "gua_shen", "lines"}
    assert _line_fields(default, other) == {"gua_shen"}
    assert other.gua_shen.branch == branch and other.gua_shen.positions == positions
    assert tuple(line.position for line in other.lines if line.gua_shen) == positions


def test_gua_shen_shi_forms_differ() -> None:
    """乾為天, 世6 on 壬戌: 卜筮全書 辰戌 → line 5, 李淳風 丑戌 → line 2."""
    values = (7, 7, 7, 7, 7, 7)
    assert cast_chart(PILLARS_A, values, Options(gua_shen=GuaShenRule.SHI_BUSHI)).gua_shen.positions == (5,)
    assert cast_chart(PILLARS_A, values, Options(gua_shen=GuaShenRule.SHI_LICHUNFENG)).gua_shen.positions == (
        2,
    )


def test_changsheng_variant_changes_earth_stages_only() -> None:
    default = cast_chart(PILLARS_A, VALUES_A)
    other = cast_chart(PILLARS_A, VALUES_A, Options(changsheng="huo-tu"))
    assert _line_fields(default, other) == {"stage"}
    changed = [
        line.position for line, d in zip(other.lines, default.lines, strict=True) if line.stage != d.stage
    ]
    assert changed == [3, 6]  # the 土 lines 甲辰, 丁未
    # 土 at 亥: 水土同宮 臨官 (長生申), 火土同宮 絕 (長生寅)
    assert (default.lines[2].stage.char, other.lines[2].stage.char) == ("臨官", "絕")


def test_month_break_rule() -> None:
    default = chart_from_inputs("2070-02-27T12:00", None, "9 7 7 7 7 8", None, None, None)
    always = chart_from_inputs(
        "2070-02-27T12:00", None, "9 7 7 7 7 8", None, None, None, Options(month_break=MonthBreakRule.ALWAYS)
    )
    assert (
        default.month_break_ends is not None and default.month_break_ends.strftime("%m-%d") == "03-05"
    )  # 驚蟄
    assert always.month_break_ends is None
    assert _differing(default, always) == {"options", "month_break_ends"}


def test_shensha_variants() -> None:
    default = cast_chart(PILLARS_A, VALUES_A)
    stars = {s.name: s for s in default.shensha}
    # 癸 day: 貴人 A 卯巳, 祿 子, 羊刃 A 丑; 亥 day → 亥卯未 group: 驛馬 巳, 桃花 子; 寅 month: 天德 丁, 天喜 A 戌
    assert {b.char for b in stars["天乙貴人"].targets} == {"卯", "巳"}
    assert stars["祿神"].targets[0].char == "子" and stars["祿神"].positions == (1,)
    assert stars["羊刃"].targets[0].char == "丑" and stars["羊刃"].changed_positions == (1,)
    assert stars["驛馬"].targets[0].char == "巳" and stars["桃花"].positions == (1,)
    assert stars["天德"].targets[0].char == "丁" and stars["天德"].positions == (4, 5, 6)  # 納甲 stem 丁
    assert stars["天喜"].targets[0].char == "戌"

    b = cast_chart(PILLARS_A, VALUES_A, Options(yang_ren="B", tian_xi="B", noble="B"))
    assert _differing(default, b) - {"lines", "changed_lines"} == {"options", "shensha"}
    assert _line_fields(default, b) <= {"shensha"}
    stars_b = {s.name: s for s in b.shensha}
    assert stars_b["羊刃"].targets[0].char == "亥" and stars_b["羊刃"].positions == (4,)
    c = cast_chart(PILLARS_A, VALUES_A, Options(yang_ren="C", tian_xi="C"))
    stars_c = {s.name: s for s in c.shensha}
    assert stars_c["羊刃"].targets == ()  # no 羊刃 for a yin stem
    assert stars_c["天喜"].targets[0].char == "未"  # 寅 year → 未

    year = cast_chart(PILLARS_A, VALUES_A, Options(shensha_base=ShenShaBase.YEAR))
    stars_y = {s.name: s for s in year.shensha}
    assert stars_y["祿神"].targets[0].char == "申"  # 庚 year
    assert stars_y["驛馬"].targets[0].char == "申"  # 寅 year, 寅午戌 group
    assert stars_y["天德"] == stars["天德"]  # month stars do not move


def test_zi_hour_rule_changes_only_the_day() -> None:
    early = chart_from_inputs("2024-02-04T23:30", None, "7 7 7 7 7 7", None, None, None)
    late = chart_from_inputs(
        "2024-02-04T23:30", None, "7 7 7 7 7 7", None, None, None, Options(zi_hour=ZiHourRule.LATE)
    )
    assert (early.day.name, late.day.name) == ("己亥", "戊戌")
    assert early.pillar("hour") == late.pillar("hour")


def test_options_from_names() -> None:
    assert Options.from_names(fu_shen="all", gua_shen="none") == Options(
        fu_shen=FuShenMode.ALL, gua_shen=GuaShenRule.NONE
    )
    assert Options().changed() == {}
    assert replace(Options(), noble="C").changed() == {"noble": "C"}
    with pytest.raises(InputError, match="fu_shen"):
        Options.from_names(fu_shen="some")
    with pytest.raises(InputError, match="noble"):
        Options(noble="D")
    with pytest.raises(InputError, match="unknown option"):
        Options.from_names(colour="red")
