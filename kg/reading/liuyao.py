"""``kg reading liuyao``: the 六爻 reading command (the shared options and run in :mod:`kg.reading`)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.liuyao import commands as liuyao
from kg.reading import reading_options, run_reading


@click.command("liuyao", context_settings={"help_option_names": ["-h", "--help"]})
@liuyao.input_options
@reading_options
def reading_liuyao(topic: str | None, fmt: str, graph: Path, source: Path | None, **params) -> None:
    """A 六爻 reading: the chart and every rule that applies, with citations.

    Example (《易隱》〈遷移占〉, example A):
    kg reading liuyao --pillars '庚寅 戊寅 癸亥' --lines 977778 --topic 遷移
    """
    run_reading("liuyao", topic, fmt, graph, source, params)
