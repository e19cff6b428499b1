"""``kg reading liuren``: the 大六壬 reading command (the shared options and run in :mod:`kg.reading`)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.liuren import commands as liuren
from kg.reading import reading_options, run_reading


@click.command("liuren", context_settings={"help_option_names": ["-h", "--help"]})
@liuren.input_options
@reading_options
def reading_liuren(topic: str | None, fmt: str, graph: Path, source: Path | None, **params) -> None:
    """A 大六壬 reading: the chart and every rule that applies, with citations.

    Example (《御定六壬直指》 癸未日 第四局, by day):
    kg reading liuren --day 癸未 --ju 4 --day-night 晝 --topic 婚姻
    """
    run_reading("liuren", topic, fmt, graph, source, params)
