"""``kg query FILE.rq``: any SPARQL query on the built graph, with a time limit.

The query runs on ``build/kg.nq`` with the default graph as the union of the named graphs
(ontology, corpus, rules). ``--reading FILE`` loads a chart or reading graph (Turtle) beside
them into the named graph :data:`READING_GRAPH`, so the retrieval queries of ``queries/`` can
name it with ``FROM <…/graph/reading>``.

Oxigraph cannot interrupt a query, so the query runs in a worker process that is killed at the
deadline. Results: ``table`` (default), ``csv``, ``json`` (SPARQL JSON results; JSON-LD for a
CONSTRUCT or DESCRIBE) and ``turtle`` (CONSTRUCT or DESCRIBE only).
"""

from __future__ import annotations

import csv
import io
import multiprocessing
from pathlib import Path

import click
import pyoxigraph as ox
from rdflib import Graph

from kg.errors import InputError, KgError
from kg.match import KnowledgeGraph
from kg.vocabulary import PREFIXES, curie

BUILD = Path(__file__).resolve().parent.parent / "build"
READING_GRAPH = "https://w3id.org/divkg/graph/reading"
FORMATS = ("table", "csv", "json", "turtle")


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

    cells = [[c.replace("\n", " ⏎ ") for c in row] for row in rows]
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


def render(results: ox.QuerySolutions | ox.QueryTriples | ox.QueryBoolean, fmt: str) -> str:
    """A query result in ``fmt``; an InputError when the format does not fit the query form."""
    if isinstance(results, ox.QueryBoolean):
        if fmt == "json":
            return results.serialize(format=ox.QueryResultsFormat.JSON).decode()
        if fmt == "turtle":
            raise InputError("--format turtle needs a CONSTRUCT or DESCRIBE query (this is an ASK)")
        return "true" if bool(results) else "false"
    if isinstance(results, ox.QuerySolutions):
        if fmt == "turtle":
            raise InputError("--format turtle needs a CONSTRUCT or DESCRIBE query (this is a SELECT)")
        if fmt in ("json", "csv"):
            kind = ox.QueryResultsFormat.JSON if fmt == "json" else ox.QueryResultsFormat.CSV
            return results.serialize(format=kind).decode()
        header = [v.value for v in results.variables]
        return table(header, [[_cell(row[h]) for h in header] for row in results])
    if fmt in ("turtle", "json"):
        graph = Graph()
        for prefix, iri in PREFIXES.items():
            graph.bind(prefix, iri)
        graph.parse(data=results.serialize(format=ox.RdfFormat.N_TRIPLES).decode(), format="nt")
        return graph.serialize(format="turtle" if fmt == "turtle" else "json-ld")
    rows = [[_cell(t.subject), _cell(t.predicate), _cell(t.object)] for t in results]
    return (table if fmt == "table" else _csv)(["subject", "predicate", "object"], rows)


def _load(graph: Path, reading: Path | None) -> ox.Store:
    store = KnowledgeGraph.load(graph).store
    if reading is not None:
        try:
            store.load(path=str(reading), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode(READING_GRAPH))
        except (SyntaxError, ValueError, OSError) as exc:
            raise KgError(f"{reading}: cannot load the reading graph ({exc})") from None
    return store


def _worker(conn, text: str, graph: Path, reading: Path | None, fmt: str) -> None:
    """Run in the worker process: send back ("ok", output) or (error class name, message)."""
    try:
        store = _load(graph, reading)
        try:
            results = store.query(text, use_default_graph_as_union=True)
        except SyntaxError as exc:
            raise InputError(f"malformed query: {exc}") from None
        conn.send(("ok", render(results, fmt)))
    except InputError as exc:
        conn.send(("input", str(exc)))
    except (KgError, OSError, ValueError) as exc:
        conn.send(("error", str(exc)))
    finally:
        conn.close()


def run_query(
    text: str,
    graph: Path = BUILD / "kg.nq",
    fmt: str = "table",
    timeout: float = 30.0,
    reading: Path | None = None,
) -> str:
    """The results of SPARQL ``text`` on the built graph in ``fmt``, or a KgError.

    Malformed queries, formats that do not fit and queries that exceed ``timeout`` seconds are
    input errors (exit code 2).
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    if not graph.exists():
        raise KgError(f"{graph} does not exist: run `kg build` first")
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_worker, args=(send, text, graph, reading, fmt), daemon=True)
    worker.start()
    send.close()
    try:
        if not receive.poll(timeout):
            raise InputError(f"the query ran longer than the time limit ({timeout:g} s) and was stopped")
        try:
            status, message = receive.recv()
        except EOFError:
            raise KgError(f"the query worker died (exit code {worker.exitcode})") from None
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        receive.close()
    if status == "input":
        raise InputError(message)
    if status == "error":
        raise KgError(message)
    return message


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


@click.command("query")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds before the query is stopped.",
)
@click.option(
    "--reading",
    type=click.Path(path_type=Path),
    help=f"A chart or reading graph (Turtle) loaded into the named graph <{READING_GRAPH}>.",
)
@click.option("--graph", type=click.Path(path_type=Path), default=BUILD / "kg.nq", show_default=True)
def query_command(file: Path, fmt: str, timeout: float, reading: Path | None, graph: Path) -> None:
    """Run the SPARQL query in FILE on the built graph (default graph = union of all graphs).

    Example: kg query queries/rules-by-concept.rq --format csv
    """
    if reading is not None and not reading.exists():
        raise InputError(f"{reading}: no such reading graph")
    click.echo(run_query(read_query(file), graph, fmt, timeout, reading).rstrip("\n"))
