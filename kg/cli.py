"""The ``kg`` command line: build, validate, match, chart, reading."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rdflib import Graph

from kg.errors import KgError

BUILD = Path(__file__).resolve().parent.parent / "build"


class KgGroup(click.Group):
    """Turns a KgError anywhere into its message on stderr and its exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KgError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)


@click.group(cls=KgGroup)
def main() -> None:
    """divkg: a knowledge graph of classical Chinese divination manuals."""


@main.command()
@click.option(
    "--out", type=click.Path(path_type=Path), default=BUILD, show_default=True, help="Output directory."
)
def build(out: Path) -> None:
    """Compile ontology, corpus and rules into build/kg.nq and build/kg.ttl."""
    from kg.build import build as run

    result = run(out)
    click.echo(
        f"built {result.rules} rules, {result.quads} quads → " + ", ".join(str(f) for f in result.files)
    )


@main.command()
@click.option("--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True)
def validate(graph: Path) -> None:
    """Check the built graph against ontology/shapes.ttl (SHACL)."""
    from kg.validate import validate as run

    report = run(graph)
    click.echo(report.text)
    if not report.conforms:
        sys.exit(1)


def load_chart(path: Path) -> Graph:
    graph = Graph()
    try:
        graph.parse(path, format="turtle")
    except FileNotFoundError:
        raise KgError(f"{path}: no such file") from None
    except Exception as exc:  # rdflib raises several parser exception types
        raise KgError(f"{path}: not a Turtle chart graph ({exc})") from None
    return graph


def print_applicable(results, fmt: str) -> None:
    from kg.report import render_json, render_text

    click.echo(render_json(results) if fmt == "json" else render_text(results))


@main.command()
@click.argument("chart", type=click.Path(path_type=Path))
@click.option(
    "--topic", help="Inquiry topic (label, slug or path such as 家宅/棟梁); default: the reading's dk:topic."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--engine", type=click.Choice(["oxigraph", "rdflib"]), default="oxigraph", show_default=True)
@click.option("--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True)
def match(chart: Path, topic: str | None, fmt: str, engine: str, graph: Path) -> None:
    """Print every rule that applies to the chart in CHART (Turtle), with citations."""
    from kg.match import KnowledgeGraph, Reading, retrieve
    from kg.vocabulary import vocabulary

    chart_graph = load_chart(chart)
    topic_iri = str(vocabulary().topic(topic)) if topic else None
    kg = KnowledgeGraph.load(graph)
    print_applicable(retrieve(kg, Reading(chart_graph), topic_iri, engine), fmt)


if __name__ == "__main__":  # pragma: no cover
    main()
