"""``kg match`` and ``kg reading liuyao|liuren``: a chart's facts, retrieval, and the report.

``kg reading … --format record`` prints the reading record (:mod:`kg.record`, ``divkg-reading/1``);
``--from FILE`` casts a saved record again on the current graph and says on stderr what changed
(another build of the graph: the rules added and removed).

The command of each system is a module of its own (:mod:`kg.reading.liuyao`, :mod:`kg.reading.liuren`): it imports
that chart system alone, which registers its procedures (:mod:`kg.registry`) for retrieval, so a 六爻 reading does not
load 大六壬 (and ``--from FILE`` loads the system its record names, through :func:`kg.record.cast`).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from rdflib import Graph

from kg.errors import InputError
from kg.match import KnowledgeGraph, Reading, retrieve
from kg.paths import GRAPH
from kg.record import build_id, cast, load_record, make_record, read, rerun, text_report
from kg.report import render_json, render_text
from kg.simplified import topic as user_topic
from kg.vocabulary import DK, SYSTEMS

COMMANDLINE = ParameterSource.COMMANDLINE


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
    for system, iri in SYSTEMS.items():  # its procedures (kg.registry), for the rules' outcome parameters
        if (None, DK.system, iri) in chart_graph:
            importlib.import_module(f"kg.{system}")
    topic_iri = str(user_topic(topic)) if topic else None
    results = retrieve(KnowledgeGraph.load(graph), Reading(chart_graph), topic_iri, engine)
    click.echo(render_json(results) if fmt == "json" else render_text(results))


def reading_options(command):
    """``--topic``, ``--format``, ``--graph`` and ``--from`` of a ``kg reading`` command."""
    command = click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)(
        command
    )
    command = click.option(
        "--from",
        "source",
        type=click.Path(path_type=Path),
        help="Cast a saved reading record (--format record) again, saying on stderr what changed.",
    )(command)
    command = click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "json", "record"]),
        default="text",
        show_default=True,
        help="The report, chart and rules as JSON, or the reading record (divkg-reading/1).",
    )(command)
    return click.option("--topic", help="Inquiry topic: label (遷移), slug (qianyi) or path (家宅/棟梁).")(
        command
    )


def run_reading(
    system: str, topic: str | None, fmt: str, graph: Path, source: Path | None, params: dict[str, Any]
) -> None:
    """Cast the chart (or the saved record ``source``), retrieve its rules and print them."""
    if source is not None:
        ctx = click.get_current_context()
        given = [f"--{n.replace('_', '-')}" for n in params if ctx.get_parameter_source(n) is COMMANDLINE]
        if topic is not None or given:
            raise InputError(
                f"--from takes the inputs and topic from the record; do not also give {', '.join(given or ['--topic'])}"
            )
        record = load_record(source)
        if record["system"] != system:
            raise InputError(
                f"{source} is a record of {record['system']}: run kg reading {record['system']} --from {source}"
            )
        found, results, new, changes = rerun(record, KnowledgeGraph.load(graph), build_id(graph))
        click.echo(changes.summary(), err=True, nl=False)
    else:
        if topic is None:
            raise InputError("give the topic (--topic 遷移), or a saved record (--from FILE)")
        found = cast(system, params, topic)
        kg = KnowledgeGraph.load(graph)
        results = read(kg, found)
        new = make_record(found, results, kg, build_id(graph)) if fmt == "record" else None
    if fmt == "record":
        click.echo(json.dumps(new, ensure_ascii=False, indent=2))
    elif fmt == "json":
        data = {"chart": found.data, "rules": [a.as_dict() for a in results]}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(text_report(found, results), nl=False)


def rerun_record(source: Path, fmt: str, graph: Path) -> None:
    """``kg reading --from FILE``: the saved record of either system, cast again on ``graph``."""
    run_reading(load_record(source)["system"], None, fmt, graph, source, {})
