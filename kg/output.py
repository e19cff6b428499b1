"""Printing a chart from the command line: the traditional layout, JSON or Turtle."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rdflib import Graph, URIRef

from kg.errors import KgError
from kg.vocabulary import topic_tree

T = TypeVar("T")
CONTROL = dict.fromkeys([*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)])
"""C0 and C1 control characters but tab and newline: an escape sequence in a chart file's label
must not reach the terminal."""


def terminal_safe(text: str) -> str:
    """``text`` with every control character but tab and newline written as a visible escape (\\x1b)."""
    return "".join(f"\\x{ord(c):02x}" if ord(c) in CONTROL else c for c in text)


def output_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--topic``, ``--id`` and ``--format`` of a ``kg chart`` command."""
    for decorator in reversed(
        (
            click.option(
                "--topic", help="Inquiry topic for the RDF output, by label (遷移) or path (家宅/棟梁)."
            ),
            click.option(
                "--id",
                "name",
                metavar="NAME",
                help="Reading IRI reading:NAME (default: a hash of the inputs).",
            ),
            click.option(
                "--format",
                "output",
                type=click.Choice(["text", "json", "turtle"]),
                default="text",
                show_default=True,
                help="Traditional layout, every computed value as JSON, or the chart facts as RDF Turtle.",
            ),
        )
    ):
        command = decorator(command)
    return command


def print_chart(
    output: str,
    topic: str | None,
    cast: Callable[[], T],
    text: Callable[[T], str],
    data: Callable[[T], dict],
    graph: Callable[[T, URIRef | None], Graph],
) -> None:
    """Cast the chart and print it in the chosen form; a KgError becomes its message on stderr and
    its exit code."""
    try:
        chart = cast()
        concept = topic_tree().topic(topic) if topic is not None else None
        if output == "text":
            click.echo(text(chart))
        elif output == "json":
            click.echo(json.dumps(data(chart), ensure_ascii=False, indent=2))
        else:
            click.echo(graph(chart, concept).serialize(format="turtle"), nl=False)
    except KgError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(exc.exit_code) from None
