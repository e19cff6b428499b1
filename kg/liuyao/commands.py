"""``kg chart liuyao``: cast a 六爻 chart from the command line and print it.

:data:`chart_command` is the click command the CLI mounts under ``kg chart``. Its input options
are the decorator :func:`input_options`, and :func:`liuyao_inputs` turns their values into the
chart and the querent, so ``kg reading liuyao`` can take the same inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from kg.calendar import ZiHourRule
from kg.facts import QUERENT_FACTS
from kg.ganzhi import CHANGSHENG_VARIANTS
from kg.liuyao.body import GuaShenRule
from kg.liuyao.chart import (
    Chart,
    FanYinRule,
    HiddenDarkMoving,
    MonthBreakRule,
    NatalElement,
    Options,
    ShenShaBase,
    chart_from_inputs,
)
from kg.liuyao.facts import QUERENT, chart_graph, reading_iri
from kg.liuyao.hidden import FuShenMode
from kg.liuyao.natal import MEMBERS, natal, parse_member
from kg.liuyao.view import chart_to_json, render
from kg.output import output_options, print_chart
from kg.shensha import NOBLE_TABLES, TIAN_XI, YANG_REN

_CAST_OPTIONS = ("moment", "pillars", "lines", "hexagram", "moving", "coins")

_DOCTRINE: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("fu_shen", tuple(FuShenMode), "伏神: 'missing' relatives only (增刪卜易, default) or 'all' positions."),
    (
        "gua_shen",
        tuple(GuaShenRule),
        "卦身: 'month' 月卦身 (卜筮正宗, default), 世身 'shi-bushi' (卜筮全書) or 'shi-lichunfeng', or 'none'.",
    ),
    (
        "changsheng",
        tuple(CHANGSHENG_VARIANTS),
        "十二長生 of 土: 'shui-tu' 水土同宮 (default) or 'huo-tu' 火土同宮.",
    ),
    ("month_break", tuple(MonthBreakRule), "月破: 'in-month' 出月不破 (default) or 'always'."),
    ("noble", tuple(NOBLE_TABLES), "天乙貴人 table A (default), B or C (kg/shensha.py)."),
    ("yang_ren", tuple(YANG_REN), "羊刃 table A (default, 祿前一位), B (陰干逆) or C (陽干 only)."),
    ("tian_xi", tuple(TIAN_XI), "天喜 table A (seasonal, default), B (協紀 monthly) or C (by year branch)."),
    (
        "shensha_base",
        tuple(ShenShaBase),
        "Pillar the stem and 三合-group 神煞 are read from: 'day' (default) or 'year'.",
    ),
    (
        "zi_hour",
        tuple(ZiHourRule),
        "子時 rule for --moment: day changes at '23:00' (default) or at 'midnight'.",
    ),
    (
        "fan_yin",
        tuple(FanYinRule),
        "卦反吟: 'branches' (增刪卜易: each line clashes its change, default) or 'houtian' (卜筮正宗: 後天 opposite).",
    ),
    (
        "natal_element",
        tuple(NatalElement),
        "Element of the 年命 (木命人 …): of its 'branch' (default) or its 'nayin' 納音 (needs --birth 甲子).",
    ),
    (
        "hidden_dark_moving",
        tuple(HiddenDarkMoving),
        "暗動 of a 伏神 clashed by the day while 旺相: 'yes' (易隱, default) or 'no' (本卦 lines only).",
    ),
)
"""One flag per :class:`Options` field: name, allowed values, help."""


def input_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The input options of a 六爻 chart: time, cast, querent and one flag per doctrinal option."""
    decorators = [
        click.option("--moment", help="Moment of the cast, ISO 8601 (Beijing time without an offset)."),
        click.option(
            "--pillars", help="Year, month, day [and hour] 干支 instead of a moment, e.g. '庚寅 戊寅 癸亥'."
        ),
        click.option(
            "--accept-inconsistent-pillars",
            is_flag=True,
            help="Cast from --pillars whose month or hour stem breaks 五虎遁 / 五鼠遁, and record it.",
        ),
        click.option("--lines", help="Six line values 6–9 bottom → top, e.g. 977778 or '9 7 7 7 7 8'."),
        click.option("--hexagram", help="A hexagram name (澤天夬, 夬) instead of line values; see --moving."),
        click.option("--moving", help="Moving lines of --hexagram, e.g. '1' or '1 4'."),
        click.option(
            "--coins", help="Three-coin tosses bottom → top, 'HHT HTT …' or heads per line '321112'."
        ),
        click.option(
            "--status",
            type=click.Choice(list(QUERENT_FACTS["status"][2])),
            help="遷移占: the querent 已遷 or 未遷.",
        ),
        click.option(
            "--birth",
            metavar="BRANCH|GANZHI",
            help="The querent's 年命: birth-year branch (子) or 干支 (甲子).",
        ),
        click.option(
            "--purpose",
            type=click.Choice(list(QUERENT_FACTS["purpose"][2])),
            help="公 or 私 (求財: 公門, 私財).",
        ),
        click.option(
            "--sex", type=click.Choice(list(QUERENT_FACTS["sex"][2])), help="The querent is 男 or 女."
        ),
        click.option(
            "--member",
            multiple=True,
            metavar="MEMBER=BIRTH",
            help=f"A household member's birth year, e.g. 妻=甲子 (repeatable; members: {' '.join(MEMBERS)}).",
        ),
        click.option(
            "--occupation",
            type=click.Choice(list(QUERENT_FACTS["occupation"][2])),
            help="The querent's calling where the text splits on it: 為官, 漁獵 or 技藝 (九流).",
        ),
        *(
            click.option(
                f"--{name.replace('_', '-')}", name, type=click.Choice(list(map(str, choices))), help=text
            )
            for name, choices, text in _DOCTRINE
        ),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def liuyao_inputs(**params: Any) -> tuple[Chart, dict[str, Any]]:
    """The chart and the querent (``status``, ``birth``, ``purpose``, ``sex``, ``occupation``,
    ``members``) from the values of :func:`input_options`.

    Other keys (the caller's own options, such as ``topic``) are ignored. Raises
    :class:`kg.errors.InputError` on bad input.
    """
    chosen = {name: params[name] for name, _, _ in _DOCTRINE if params.get(name) is not None}
    chart = chart_from_inputs(
        **{k: params.get(k) for k in _CAST_OPTIONS},
        options=Options.from_names(**chosen),
        accept_inconsistent_pillars=bool(params.get("accept_inconsistent_pillars")),
    )
    querent: dict[str, Any] = {k: params[k] for k in QUERENT if params.get(k) is not None}
    if params.get("birth") is not None:
        born = natal(chart, params["birth"])
        querent["birth"] = (born.stem.char if born.stem is not None else "") + born.branch.char
    if members := params.get("member"):
        querent["members"] = [str(parse_member(m)) for m in members]
    return chart, querent


@click.command("liuyao")
@input_options
@output_options
def chart_command(topic: str | None, name: str | None, output: str, **params: Any) -> None:
    """Cast a 六爻 chart (排盤) and print it.

    Give the time (--moment or --pillars) and one cast (--lines, --hexagram [--moving] or
    --coins). Doctrinal choices default to docs/liuyao-doctrine.md §6; the chart records them.
    """
    print_chart(
        output,
        topic,
        lambda: liuyao_inputs(**params),
        lambda cast: render(cast[0]),
        lambda cast: chart_to_json(cast[0]) | ({"querent": cast[1]} if cast[1] else {}),
        lambda cast, concept: chart_graph(cast[0], reading_iri(cast[0], name), concept, cast[1]),
    )
