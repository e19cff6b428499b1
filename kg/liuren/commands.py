"""``kg chart liuren``: cast a 大六壬 課式 from the command line and print it.

:data:`chart_command` is the click command the CLI mounts under ``kg chart``. Its input options
are the decorator :func:`input_options`; :func:`liuren_inputs` turns their values into the chart
and :func:`liuren_querent` into the querent facts, so ``kg reading liuren`` can take the same inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from kg.calendar import ZiHourRule
from kg.facts import QUERENT_FACTS
from kg.liuren.chart import Chart, Options, chart_from_inputs
from kg.liuren.facts import QUERENT, chart_graph, reading_iri
from kg.liuren.generals import DEFAULT_TEMPLE_TABLE, TEMPLE_TABLES, DayNightRule
from kg.liuren.three_transmissions import DisputedReading, ShehaiVariant
from kg.liuren.view import chart_to_json, render
from kg.output import output_options, print_chart
from kg.shensha import DEFAULT_MU_SHEN, DEFAULT_NOBLE_TABLE, MU_SHEN, NOBLE_TABLES

DAY_NIGHT_CHOICES: dict[str, DayNightRule] = {
    "auto": DayNightRule.HOURS,
    "晝": DayNightRule.DAY,
    "夜": DayNightRule.NIGHT,
}
"""--day-night: by the 占時 (卯–申 晝), or fixed 晝 or 夜."""

_INPUTS = ("moment", "day", "hour", "general", "ju", "month", "birth", "walking_year")


def input_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The input options of a 大六壬 chart: time or day with 占時/月將/局, querent, doctrine."""
    decorators = [
        click.option("--moment", help="Moment of the inquiry, ISO 8601 (Beijing time without an offset)."),
        click.option("--day", metavar="GANZHI", help="Day 干支 instead of a moment, e.g. 癸未."),
        click.option("--hour", metavar="BRANCH", help="占時 (hour branch), e.g. 午."),
        click.option("--general", metavar="BRANCH|NAME", help="月將 as a branch or its name (戌 or 河魁)."),
        click.option(
            "--ju",
            type=int,
            help="局 number 1–12 (第1局 伏吟): with --day, instead of or with --hour/--general.",
        ),
        click.option(
            "--month", metavar="BRANCH", help="月建 (month branch) for 旺相休囚死 (optional with --day)."
        ),
        click.option(
            "--accept-inconsistent-pillars",
            is_flag=True,
            help="Cast with a --general that cannot occur in the --month (月將 against 月建), and record it.",
        ),
        click.option(
            "--day-night",
            type=click.Choice(list(DAY_NIGHT_CHOICES)),
            default="auto",
            show_default=True,
            help="晝/夜 plate: 'auto' by the 占時 (卯–申 晝), or fixed 晝 or 夜.",
        ),
        click.option(
            "--noble-table",
            type=click.Choice(list(NOBLE_TABLES)),
            default=DEFAULT_NOBLE_TABLE,
            show_default=True,
            help="天乙貴人 table of kg/shensha.py: A (甲戊庚牛羊, the 720 table's and 《直指》's), B or C (陽貴/陰貴 verses).",
        ),
        click.option(
            "--shehai",
            type=click.Choice([v.value for v in ShehaiVariant]),
            default=ShehaiVariant.ZHINAN.value,
            show_default=True,
            help="涉害: 'zhinan' 孟 → 仲 → 綴瑕 (《指南》) or 'kejing' depth count (《課經》).",
        ),
        click.option(
            "--disputed",
            type=click.Choice([v.value for v in DisputedReading]),
            default=DisputedReading.ZHINAN.value,
            show_default=True,
            help="戊辰/戊戌 第7局: 'zhinan' 亥巳亥 (the rule) or '720-table' 巳亥巳.",
        ),
        click.option(
            "--zi-hour",
            type=click.Choice([v.value for v in ZiHourRule]),
            default=ZiHourRule.EARLY.value,
            show_default=True,
            help="子時 rule for --moment: the day changes at '23:00' or at 'midnight'.",
        ),
        click.option(
            "--stem-tomb",
            type=click.Choice(list(MU_SHEN)),
            default=DEFAULT_MU_SHEN,
            show_default=True,
            help="墓神 of the day stem: 'element' (同生同死, 癸 墓辰) or 'yin-reverse' (陽順陰逆, 癸 墓未).",
        ),
        click.option(
            "--temple",
            type=click.Choice(list(TEMPLE_TABLES)),
            default=DEFAULT_TEMPLE_TABLE,
            show_default=True,
            help="天將入廟 table: 'xuanwu-hai' (玄武 亥, 天后 子) or 'xuanwu-zi' (玄武 子, 天后 亥).",
        ),
        click.option(
            "--birth", metavar="BRANCH", help="The querent's 年命 (birth-year branch or 干支), e.g. 子."
        ),
        click.option("--walking-year", metavar="BRANCH", help="The querent's 行年 (branch or 干支)."),
        click.option(
            "--sex",
            type=click.Choice(list(QUERENT_FACTS["sex"][2])),
            help="The querent is 男 or 女 (¶42 妻占).",
        ),
        click.option(
            "--occupation",
            type=click.Choice(list(QUERENT_FACTS["occupation"][2])),
            help="The querent's calling where the text splits on it: 為官 (¶32 仕宦占者, ¶36 在朝官員), 漁獵 or 技藝.",
        ),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def liuren_inputs(**params: Any) -> Chart:
    """The chart from the values of :func:`input_options` (missing keys take their defaults).

    Other keys (the caller's own options, such as ``topic``) are ignored. Raises
    :class:`kg.errors.InputError` on bad input.
    """
    options = Options(
        noble_table=params.get("noble_table") or DEFAULT_NOBLE_TABLE,
        day_night_rule=DAY_NIGHT_CHOICES[params.get("day_night") or "auto"],
        shehai_variant=ShehaiVariant(params.get("shehai") or ShehaiVariant.ZHINAN),
        disputed_reading=DisputedReading(params.get("disputed") or DisputedReading.ZHINAN),
        zi_hour_rule=ZiHourRule(params.get("zi_hour") or ZiHourRule.EARLY),
        stem_tomb=params.get("stem_tomb") or DEFAULT_MU_SHEN,
        temple_table=params.get("temple") or DEFAULT_TEMPLE_TABLE,
    )
    return chart_from_inputs(
        **{k: params.get(k) for k in _INPUTS},
        options=options,
        accept_inconsistent=bool(params.get("accept_inconsistent_pillars")),
    )


def liuren_querent(**params: Any) -> dict[str, str]:
    """The querent facts (``sex``, ``occupation``: keys of :data:`kg.liuren.facts.QUERENT`) given
    among the values of :func:`input_options`; other keys are ignored."""
    return {key: params[key] for key in QUERENT if params.get(key) is not None}


@click.command("liuren")
@input_options
@output_options
def chart_command(topic: str | None, name: str | None, output: str, **params: Any) -> None:
    """Cast a 大六壬 課式 (起課) and print it.

    Give --moment (月將 from the last 中氣, 占時 and 月建 from the calendar), or --day with two of
    --hour (占時), --general (月將) and --ju (局), or with --ju alone (月將, 占時 and so 晝/夜
    unknown unless --day-night fixes it). Doctrinal choices default as docs/liuren-doctrine.md §4
    says; the chart records them.
    """
    print_chart(
        output,
        topic,
        lambda: liuren_inputs(**params),
        render,
        chart_to_json,
        lambda chart, concept: chart_graph(
            chart, reading_iri(chart, name), concept, liuren_querent(**params)
        ),
    )
