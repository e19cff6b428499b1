"""``kg match`` and ``kg reading liuyao|liuren``: a chart's facts, retrieval, and the report.

The views that run readings import the chart systems, which registers their procedures
(:mod:`kg.registry`) for retrieval.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rdflib import Graph

from kg.build import BUILD
from kg.errors import InputError
from kg.liuren import commands as liuren
from kg.liuyao import commands as liuyao
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.report import render_json, render_text
from kg.simplified import topic as user_topic

GRAPH = BUILD / "kg.nq"


def load_chart(path: Path) -> Graph:
    graph = Graph()
    try:
        graph.parse(path, format="turtle")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: a folder, not a Turtle chart graph") from None
    except Exception as exc:  # rdflib raises several parser exception types
        raise InputError(f"{path}: not a Turtle chart graph ({exc})") from None
    return graph


@click.command("match")
@click.argument("chart", type=click.Path(path_type=Path))
@click.option(
    "--topic", help="Inquiry topic (label, slug or path such as 家宅/棟梁); default: the reading's dk:topic."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--engine", type=click.Choice(["oxigraph", "rdflib"]), default="oxigraph", show_default=True)
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
def match_command(chart: Path, topic: str | None, fmt: str, engine: str, graph: Path) -> None:
    """Print every rule that applies to the chart in CHART (Turtle), with citations."""
    chart_graph = load_chart(chart)
    topic_iri = str(user_topic(topic)) if topic else None
    results = retrieve(KnowledgeGraph.load(graph), Reading(chart_graph), topic_iri, engine)
    click.echo(render_json(results) if fmt == "json" else render_text(results))


def reading_options(command):
    command = click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)(
        command
    )
    command = click.option(
        "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
    )(command)
    return click.option(
        "--topic", required=True, help="Inquiry topic: label (遷移), slug (qianyi) or path (家宅/棟梁)."
    )(command)


def show_reading(chart_text: str, chart_json: dict, facts: Graph, topic, fmt: str, graph: Path) -> None:
    """Retrieve the rules for a chart's facts and print chart and rules together."""
    results = retrieve(KnowledgeGraph.load(graph), Reading(facts), str(topic))
    if fmt == "json":
        data = {"chart": chart_json, "rules": [a.as_dict() for a in results]}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(chart_text.rstrip() + "\n\n" + render_text(results))


@click.command("liuyao", context_settings={"help_option_names": ["-h", "--help"]})
@liuyao.input_options
@reading_options
def reading_liuyao(topic: str, fmt: str, graph: Path, **params) -> None:
    """A 六爻 reading: the chart and every rule that applies, with citations.

    Example (《易隱》〈遷移占〉, example A):
    kg reading liuyao --pillars '庚寅 戊寅 癸亥' --lines 977778 --topic 遷移
    """
    from kg.liuyao.facts import chart_graph, reading_iri
    from kg.liuyao.view import chart_to_json, render

    cast, querent = liuyao.liuyao_inputs(**params)
    topic_iri = user_topic(topic)
    facts = chart_graph(cast, reading_iri(cast), topic_iri, querent)
    show_reading(render(cast), chart_to_json(cast), facts, topic_iri, fmt, graph)


@click.command("liuren", context_settings={"help_option_names": ["-h", "--help"]})
@liuren.input_options
@reading_options
def reading_liuren(topic: str, fmt: str, graph: Path, **params) -> None:
    """A 大六壬 reading: the chart and every rule that applies, with citations.

    Example (《御定六壬直指》 癸未日 第四局, by day):
    kg reading liuren --day 癸未 --ju 4 --day-night 晝 --topic 婚姻
    """
    from kg.liuren.facts import chart_graph, reading_iri
    from kg.liuren.view import chart_to_json, render

    lesson = liuren.liuren_inputs(**params)
    topic_iri = user_topic(topic)
    facts = chart_graph(lesson, reading_iri(lesson), topic_iri)
    show_reading(render(lesson), chart_to_json(lesson), facts, topic_iri, fmt, graph)
