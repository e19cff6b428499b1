"""``kg query FILE.rq``: any SPARQL query on the built graph, guarded and bounded.

The query runs on ``build/kg.nq`` with the default graph as the union of the named graphs
(ontology, corpus, rules), unless it names its own dataset with ``FROM`` / ``FROM NAMED``.
``--reading FILE`` loads a chart or reading graph (Turtle) beside them into the named graph
:data:`READING_GRAPH`, so the retrieval queries of ``queries/`` can name it with
``FROM <…/graph/reading>``.

:mod:`kg.sparql_guard` parses the query first and refuses updates, ``SERVICE`` and graphs outside
the store; the query then runs in a worker process killed at the deadline, with capped memory and
rows. Results: ``table`` (default), ``csv``, ``json`` (SPARQL JSON results; JSON-LD for a
CONSTRUCT or DESCRIBE) and ``turtle`` (CONSTRUCT or DESCRIBE only).
"""

from __future__ import annotations

import csv
import io
from contextlib import closing
from pathlib import Path

import click
import pyoxigraph as ox

from kg.errors import InputError, KgError
from kg.output import terminal_safe
from kg.paths import GRAPH
from kg.sparql_guard import GRAPH_FORMS, READING_GRAPH, Answer, Job, Limits, Worker
from kg.vocabulary import curie

TSV = ox.QueryResultsFormat.TSV.media_type
N_TRIPLES = ox.RdfFormat.N_TRIPLES.media_type
#: the media types asked of the worker for each format: (SELECT and ASK, CONSTRUCT and DESCRIBE);
#: tables are drawn from TSV and N-Triples
MEDIA_TYPES: dict[str, tuple[str | None, str]] = {
    "table": (TSV, N_TRIPLES),
    "csv": (ox.QueryResultsFormat.CSV.media_type, N_TRIPLES),
    "json": (ox.QueryResultsFormat.JSON.media_type, ox.RdfFormat.JSON_LD.media_type),
    "turtle": (None, ox.RdfFormat.TURTLE.media_type),
}
FORMATS = tuple(MEDIA_TYPES)


def _cell(term: ox.NamedNode | ox.Literal | ox.BlankNode | ox.Triple | None) -> str:
    """A term as a table or CSV cell: IRIs as prefixed names, literals by their value."""
    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        return curie(term.value)
    if isinstance(term, ox.Literal):
        return term.value
    return str(term)


def table(header: list[str], rows: list[list[str]]) -> str:
    """A plain-text table with aligned columns (East Asian characters count as two)."""

    def width(text: str) -> int:
        return sum(2 if ord(c) > 0x2E7F else 1 for c in text)

    cells = [[terminal_safe(c.replace("\n", " ⏎ ")) for c in row] for row in rows]
    widths = [max([width(h)] + [width(r[i]) for r in cells]) for i, h in enumerate(header)]

    def line(row: list[str]) -> str:
        return "  ".join(c + " " * (w - width(c)) for c, w in zip(row, widths, strict=True)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in cells), f"({len(rows)} rows)"])


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def render(answer: Answer, fmt: str) -> str:
    """A worker's answer in ``fmt``; an InputError when the format does not fit the query form."""
    if answer.media_type is None:
        raise InputError(f"--format {fmt} needs a CONSTRUCT or DESCRIBE query (this is a {answer.form})")
    if fmt in ("json", "turtle") or (fmt == "csv" and answer.form not in GRAPH_FORMS):
        return answer.body.decode()
    if answer.form in GRAPH_FORMS:
        triples = ox.parse(answer.body, format=ox.RdfFormat.N_TRIPLES)
        rows = [[_cell(t.subject), _cell(t.predicate), _cell(t.object)] for t in triples]
        return (table if fmt == "table" else _csv)(["subject", "predicate", "object"], rows)
    results = ox.parse_query_results(answer.body, format=ox.QueryResultsFormat.TSV)
    if isinstance(results, ox.QueryBoolean):
        return "true" if bool(results) else "false"
    header = [v.value for v in results.variables]
    return table(header, [[_cell(row[h]) for h in header] for row in results])


def run_query(
    text: str,
    graph: Path = GRAPH,
    fmt: str = "table",
    limits: Limits | None = None,
    reading: Path | None = None,
) -> str:
    """The results of SPARQL ``text`` on the built graph in ``fmt``, or a KgError.

    Malformed and refused queries, formats that do not fit and queries past a limit are input
    errors (exit code 2).
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    if not graph.exists():
        raise KgError(f"{graph} does not exist: run `kg build` first")
    results, graph_media = MEDIA_TYPES[fmt]
    with closing(Worker(graph, limits or Limits(), reading)) as worker:
        worker.wait_ready()
        answer = worker.run(Job(text, results, graph_media))
    return render(answer, fmt)


def read_query(path: Path) -> str:
    """The text of a query file; a missing or empty file is an input error."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such query file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the query ({exc})") from None
    if not text.strip():
        raise InputError(f"{path}: the query file is empty")
    return text


def limit_options(deadline: float = Limits.deadline, rows: int = Limits.rows):
    """``--timeout``, ``--memory`` and ``--max-rows``, checked by :class:`Limits` (exit code 2)."""

    def decorate(command):
        for option in (
            click.option(
                "--max-rows",
                type=int,
                default=rows,
                show_default=True,
                help="Rows (or triples) of result above which the query is refused.",
            ),
            click.option(
                "--memory",
                type=int,
                default=Limits.memory,
                show_default=True,
                help="MiB of memory for the worker process that runs the query.",
            ),
            click.option(
                "--timeout",
                type=float,
                default=deadline,
                show_default=True,
                help="Seconds before a query is stopped.",
            ),
        ):
            command = option(command)
        return command

    return decorate


@click.command("query")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@limit_options()
@click.option(
    "--reading",
    type=click.Path(path_type=Path),
    help=f"A chart or reading graph (Turtle) loaded into the named graph <{READING_GRAPH}>.",
)
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
def query_command(
    file: Path, fmt: str, timeout: float, memory: int, max_rows: int, reading: Path | None, graph: Path
) -> None:
    """Run the SPARQL query in FILE on the built graph (default graph = union of all graphs).

    Updates, SERVICE and graphs outside the store are refused before the query runs.

    Example: kg query queries/rules-by-concept.rq --format csv
    """
    limits = Limits(timeout, memory, max_rows)
    if reading is not None and not reading.exists():
        raise InputError(f"{reading}: no such reading graph")
    click.echo(run_query(read_query(file), graph, fmt, limits, reading).rstrip("\n"))
