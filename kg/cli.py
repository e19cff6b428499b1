"""The ``kg`` command line.

Each command's module is imported only when that command runs (:class:`KgGroup` loads it by
name), so ``kg reading …`` does not pay for the server, the validator or the explorer.
"""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import version
from pathlib import Path

import click

from kg.errors import KgError
from kg.paths import GRAPH

CONTEXT = {"help_option_names": ["-h", "--help"]}


class KgGroup(click.Group):
    """A group whose commands live in other modules, loaded when used, and whose errors (a
    :class:`KgError` anywhere) become their message on stderr and their exit code."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module, attribute = self.lazy[name].split(":")
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KgError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)


@click.group(
    cls=KgGroup,
    context_settings=CONTEXT,
    lazy={
        "build": "kg.build:build_command",
        "validate": "kg.validate:validate_command",
        "match": "kg.reading:match_command",
        "coverage": "kg.coverage:coverage_command",
        "witness": "kg.witness:witness_command",
        "agreement": "kg.agreement:agreement_command",
        "cite": "kg.cite:cite_command",
        "search": "kg.concordance:search_command",
        "explore": "kg.explore:explore_group",
        "query": "kg.query:query_command",
        "topics": "kg.vocab_commands:topics_command",
        "vocab": "kg.vocab_commands:vocab_command",
        "serve": "kg.serve.command:serve_command",
        "export": "kg.serve.tei:export_group",
        "batch": "kg.batch:batch_group",
    },
)
@click.version_option(version("divkg"), "--version", prog_name="kg", message="%(prog)s (divkg) %(version)s")
def main() -> None:
    """divkg: a knowledge graph of classical Chinese divination manuals.

    Exit codes: 0 success, 1 a failed check (validate, witness --check, coverage --check),
    2 bad input (a malformed date, an unknown topic, a rule the compiler refuses …).
    """


@main.group(
    cls=KgGroup,
    lazy={"liuyao": "kg.liuyao.commands:chart_command", "liuren": "kg.liuren.commands:chart_command"},
)
def chart() -> None:
    """Cast a chart and print it (text, JSON or Turtle)."""


@main.group(
    cls=KgGroup,
    lazy={"liuyao": "kg.reading.liuyao:reading_liuyao", "liuren": "kg.reading.liuren:reading_liuren"},
    invoke_without_command=True,
)
@click.option(
    "--from",
    "source",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Re-run a saved reading record (kg reading … --format record), saying on stderr what changed.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "record"]), default="text", show_default=True
)
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
@click.pass_context
def reading(ctx: click.Context, source: Path | None, fmt: str, graph: Path) -> None:
    """Cast a chart and print every rule that applies to it, with citations.

    kg reading liuyao|liuren … casts; kg reading --from FILE re-runs a saved record of either system.
    """
    if ctx.invoked_subcommand is not None:
        if source is not None:
            raise click.UsageError("give --from before no subcommand: kg reading --from FILE")
        # --graph and --format given before the subcommand are its defaults (its own still win)
        given = {
            name: value
            for name, value in (("graph", graph), ("fmt", fmt))
            if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        }
        ctx.default_map = {ctx.invoked_subcommand: given}
        return
    if source is None:
        click.echo(ctx.get_help())
        return
    from kg.reading import rerun_record

    rerun_record(source, fmt, graph)


if __name__ == "__main__":  # pragma: no cover
    main()
