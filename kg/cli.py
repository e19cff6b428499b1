"""The ``kg`` command line: build, validate, match, chart, reading."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rdflib import Graph

from kg.errors import KgError
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.vocabulary import vocabulary

BUILD = Path(__file__).resolve().parent.parent / "build"
RULES = Path(__file__).resolve().parent.parent / "corpus" / "rules"


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
@click.option(
    "--rules",
    "rules_dir",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=RULES,
    show_default=True,
    help="Directory of rule files (*.yaml).",
)
def build(out: Path, rules_dir: Path) -> None:
    """Compile ontology, corpus and rules into build/kg.nq and build/kg.ttl."""
    from kg.build import build as run

    result = run(out, rules_dir)
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
    chart_graph = load_chart(chart)
    topic_iri = str(vocabulary().topic(topic)) if topic else None
    kg = KnowledgeGraph.load(graph)
    print_applicable(retrieve(kg, Reading(chart_graph), topic_iri, engine), fmt)


@main.group()
def chart() -> None:
    """Cast a chart and print it (text, JSON or Turtle)."""


@main.group()
def reading() -> None:
    """Cast a chart and print every rule that applies to it, with citations."""


def _reading_options(command):
    command = click.option(
        "--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True
    )(command)
    command = click.option(
        "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
    )(command)
    return click.option(
        "--topic", required=True, help="Inquiry topic: label (遷移), slug (qianyi) or path (家宅/棟梁)."
    )(command)


def show_reading(chart_text: str, chart_json: dict, facts: Graph, topic, fmt: str, graph: Path) -> None:
    """Retrieve the rules for a chart's facts and print chart and rules together."""
    from kg.report import render_text

    results = retrieve(KnowledgeGraph.load(graph), Reading(facts), str(topic))
    if fmt == "json":
        data = {"chart": chart_json, "rules": [a.as_dict() for a in results]}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(chart_text.rstrip() + "\n\n" + render_text(results))


def _system_commands() -> None:
    """kg chart and kg reading for each chart system. Importing the systems also registers their
    procedures (kg.registry), which retrieval runs for ``kg match`` and ``kg reading``."""
    from kg.liuren import commands as liuren
    from kg.liuyao import commands as liuyao

    chart.add_command(liuyao.chart_command)
    chart.add_command(liuren.chart_command)

    @reading.command("liuyao")
    @liuyao.input_options
    @_reading_options
    def reading_liuyao(topic: str, fmt: str, graph: Path, **params) -> None:
        """A 六爻 reading: the chart and every rule that applies, with citations.

        Example (《易隱》〈遷移占〉, example A):
        kg reading liuyao --pillars '庚寅 戊寅 癸亥' --lines 977778 --topic 遷移
        """
        from kg.liuyao.facts import chart_graph, reading_iri
        from kg.liuyao.view import chart_to_json, render

        cast, querent = liuyao.liuyao_inputs(**params)
        topic_iri = vocabulary().topic(topic)
        facts = chart_graph(cast, reading_iri(cast), topic_iri, querent)
        show_reading(render(cast), chart_to_json(cast), facts, topic_iri, fmt, graph)

    @reading.command("liuren")
    @liuren.input_options
    @_reading_options
    def reading_liuren(topic: str, fmt: str, graph: Path, **params) -> None:
        """A 大六壬 reading: the chart and every rule that applies, with citations.

        Example (《御定六壬直指》 癸未日 第四局, by day):
        kg reading liuren --day 癸未 --ju 4 --day-night 晝 --topic 婚姻
        """
        from kg.liuren.facts import chart_graph, reading_iri
        from kg.liuren.view import chart_to_json, render

        lesson = liuren.liuren_inputs(**params)
        topic_iri = vocabulary().topic(topic)
        facts = chart_graph(lesson, reading_iri(lesson), topic_iri)
        show_reading(render(lesson), chart_to_json(lesson), facts, topic_iri, fmt, graph)


_system_commands()


def _quality_commands() -> None:
    from kg.coverage import coverage_command
    from kg.witness import witness_command

    main.add_command(coverage_command)
    main.add_command(witness_command)


_quality_commands()


def _scholar_commands() -> None:
    """kg cite, kg search, kg explore, kg query (kg/cite.py, concordance.py, explore.py, query.py)."""
    from kg.cite import cite_command
    from kg.concordance import search_command
    from kg.explore import explore_group
    from kg.query import query_command

    for command in (cite_command, search_command, explore_group, query_command):
        main.add_command(command)


_scholar_commands()

if __name__ == "__main__":  # pragma: no cover
    main()
