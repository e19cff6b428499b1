"""The query guard: a SPARQL query a user writes is parsed and checked before it runs, and runs
in a worker process under a deadline, a memory cap and a row cap.

Used by ``kg query`` and by ``kg serve``'s ``/sparql``. Refused before anything is evaluated:

* SPARQL Update (INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY): the graph is read-only;
* ``SERVICE``: a federated query would make the worker call any address it names;
* ``FROM``, ``FROM NAMED`` and ``GRAPH <iri>`` naming a graph that is not a named graph of the
  store (the build's ontology, corpus and rules, and the reading graph ``kg query --reading`` loads).

The parser is rdflib's: its parse tree gives every ``SERVICE`` and function call, its algebra the
query form, the dataset clauses and every ``GRAPH`` pattern with prefixed names and the base resolved
(pyoxigraph parses too, but exposes no algebra). Oxigraph then evaluates the query on the dataset the guard computed, as
SPARQL defines it: the dataset of the protocol request (``default-graph-uri``, ``named-graph-uri``)
if there is one, else the query's ``FROM`` / ``FROM NAMED``, else the union of the named graphs as
the default graph with every named graph available to ``GRAPH``.

Oxigraph cannot interrupt a query, so a :class:`Worker` process holds its own copy of the store and
is killed at the deadline; its address space is capped (``RLIMIT_AS``), so a query that grows
without bound ends the worker rather than the machine.
"""

from __future__ import annotations

import io
import math
import multiprocessing
import resource
import signal
import sys
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from pyparsing import ParseBaseException, ParseResults
from rdflib import URIRef
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue

from kg.errors import InputError, KgError
from kg.match import KnowledgeGraph
from kg.vocabulary import PREFIXES

READING_GRAPH = "https://w3id.org/divkg/graph/reading"
FORMS = {
    "SelectQuery": "SELECT",
    "AskQuery": "ASK",
    "ConstructQuery": "CONSTRUCT",
    "DescribeQuery": "DESCRIBE",
}
GRAPH_FORMS = ("CONSTRUCT", "DESCRIBE")
#: a GRAPH pattern in the algebra, and in the parse tree rdflib leaves untranslated under EXISTS
GRAPH_PATTERNS = ("Graph", "GraphGraphPattern")
#: the functions whose value changes from one evaluation to the next (in rdflib's parse tree)
UNREPEATABLE = {"Builtin_NOW", "Builtin_RAND", "Builtin_UUID", "Builtin_STRUUID", "Builtin_BNODE"}
UPDATES = {
    "Load": "LOAD",
    "Clear": "CLEAR",
    "Drop": "DROP",
    "Create": "CREATE",
    "Add": "ADD",
    "Move": "MOVE",
    "Copy": "COPY",
    "InsertData": "INSERT DATA",
    "DeleteData": "DELETE DATA",
    "DeleteWhere": "DELETE WHERE",
    "Modify": "DELETE/INSERT",
}
MIB = 1 << 20
READY_TIMEOUT = 120.0
#: the longest time limit, a day: the operating system's poll, which waits for the worker, takes at
#: most 2³¹ ms (about 24 days)
MAX_DEADLINE = 86_400.0


class Malformed(InputError):
    """A query the parser cannot read: its message, with line and column."""


class Refused(InputError):
    """A well-formed request the guard does not run: an update, SERVICE, a graph outside the store."""


class LimitExceeded(InputError):
    """A query stopped at a limit of the worker: the deadline or the memory cap."""


class TooManyRows(InputError):
    """A result past the row cap: the query should page with LIMIT and OFFSET."""


@dataclass(frozen=True)
class Dataset:
    """An RDF dataset of named graphs: the graphs merged into the default graph, and those ``GRAPH`` sees."""

    default: tuple[str, ...] = ()
    named: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckedQuery:
    """A query the guard accepts: its form and its dataset (``None``: the union of the named graphs);
    ``repeatable`` when it calls none of :data:`UNREPEATABLE`, so that on a store that does not change
    it has the same answer each time."""

    text: str
    form: str
    dataset: Dataset | None
    repeatable: bool


@dataclass(frozen=True)
class Limits:
    """The bounds of one query: seconds before it is stopped, MiB of worker memory, rows of result."""

    deadline: float = 30.0
    memory: int = 2048
    rows: int = 100_000

    def __post_init__(self) -> None:
        if not (math.isfinite(self.deadline) and 0 < self.deadline <= MAX_DEADLINE):
            raise InputError(
                "the time limit must be a finite number of seconds above 0,"
                f" at most {MAX_DEADLINE:g}, not {self.deadline}"
            )
        if not 256 <= self.memory <= sys.maxsize // MIB:  # setrlimit takes a C long of bytes
            raise InputError(
                f"the memory limit must be at least 256 MiB, at most {sys.maxsize // MIB}, not {self.memory}"
            )
        if not 1 <= self.rows < sys.maxsize:  # one row more than the limit is read to detect it
            raise InputError(f"the row limit must be at least 1 and below {sys.maxsize}, not {self.rows}")


def _syntax_error(exc: ParseBaseException) -> Malformed:
    return Malformed(
        f"malformed query: error at {exc.lineno}:{exc.col}: {exc.msg}\n{exc.line}\n{' ' * (exc.col - 1)}^"
    )


def _refuse_update(text: str, exc: ParseBaseException) -> InputError:
    """A text that is not a query: Refused when it is an update, else the query parser's error."""
    try:
        operations = [UPDATES.get(op.name, op.name) for op in parseUpdate(text).request]
    except (ParseBaseException, RecursionError):
        operations = []
    if not operations:
        return _syntax_error(exc)
    return Refused(f"the graph is read-only: SPARQL Update ({', '.join(operations)}) is refused")


def _nodes(node: object) -> Iterator[CompValue]:
    """Every algebra node under ``node``: patterns, expressions (EXISTS), subqueries."""
    if isinstance(node, CompValue):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list | tuple | ParseResults):
        for item in node:
            yield from _nodes(item)


def _written(term: Any) -> str:
    """A term of the parse tree as the query writes it: a prefixed name (not yet resolved), an IRI, a variable."""
    if isinstance(term, CompValue):
        return f"{term.prefix or ''}:{term.localname or ''}"
    return term.n3()


def _outside(kind: str, iri: str, graphs: Collection[str]) -> Refused:
    names = ", ".join(f"<{g}>" for g in sorted(graphs))
    return Refused(f"{kind} <{iri}> is not a graph of this store; its named graphs are {names}")


def check(text: str, graphs: Collection[str], dataset: Dataset | None = None) -> CheckedQuery:
    """The query ``text`` if the guard runs it on a store of named ``graphs``, else Malformed or Refused.

    ``dataset`` is the protocol request's (``default-graph-uri`` / ``named-graph-uri``); it overrides
    the query's ``FROM`` and ``FROM NAMED``.
    """
    if not text.strip():
        raise Malformed("malformed query: the query is empty")
    try:
        parsed = parseQuery(text)
        # SERVICE and the functions are looked for in the parse tree: the translation to the algebra
        # loses a FILTER nested in an EXISTS (FILTER EXISTS { … FILTER EXISTS { SERVICE … } })
        tree = list(_nodes(parsed))
    except ParseBaseException as exc:
        raise _refuse_update(text, exc) from None
    except RecursionError:
        raise Malformed("malformed query: it is nested too deeply to parse") from None
    for node in tree:
        if node.name == "ServiceGraphPattern":
            raise Refused(
                f"SERVICE is refused: queries here do not call other services ({_written(node.term)})"
            )
    try:
        algebra = translateQuery(parsed).algebra
    except (
        Exception
    ) as exc:  # rdflib's algebra raises bare Exceptions (and RecursionError) for invalid queries
        raise Malformed(f"malformed query: {exc}") from None
    for node in _nodes(algebra):
        if node.name in GRAPH_PATTERNS and isinstance(node.term, URIRef) and str(node.term) not in graphs:
            raise _outside("GRAPH", str(node.term), graphs)
    clauses = algebra.datasetClause or []
    named = [("FROM", c.default) if c.default else ("FROM NAMED", c.named) for c in clauses]
    if dataset is not None:
        named += [("default-graph-uri", g) for g in dataset.default]
        named += [("named-graph-uri", g) for g in dataset.named]
    for kind, iri in named:
        if str(iri) not in graphs:
            raise _outside(kind, str(iri), graphs)
    if dataset is None and clauses:
        dataset = Dataset(
            tuple(str(c.default) for c in clauses if c.default),
            tuple(str(c.named) for c in clauses if c.named),
        )
    repeatable = not any(node.name in UNREPEATABLE for node in tree)
    return CheckedQuery(text, FORMS[algebra.name], dataset, repeatable)


def execute(store: ox.Store, query: CheckedQuery) -> ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples:
    """Evaluate a checked query on its dataset; an oxigraph syntax error is Malformed."""
    try:
        if query.dataset is None:
            return store.query(query.text, use_default_graph_as_union=True)
        return store.query(
            query.text,
            default_graph=[ox.NamedNode(g) for g in query.dataset.default],
            named_graphs=[ox.NamedNode(g) for g in query.dataset.named],
        )
    except SyntaxError as exc:
        raise Malformed(f"malformed query: {exc}") from None


def _too_many(rows: int) -> TooManyRows:
    return TooManyRows(f"the result has more than {rows} rows, the limit: add a LIMIT (and OFFSET to page)")


class _RowCap(io.BytesIO):
    """A buffer of SPARQL TSV results, one line per solution after the header, that stops past ``rows``."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self._rows = rows
        self._lines_left = rows + 1

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self._lines_left -= bytes(data).count(b"\n")
        if self._lines_left < 0:
            raise _too_many(self._rows)
        return super().write(data)


def serialize(
    results: ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples, media_type: str, rows: int
) -> bytes:
    """The results in ``media_type``, or LimitExceeded past ``rows`` solutions or triples.

    Solutions are counted as they are written as TSV (whose literals escape their line breaks), then
    read back for any other format, so nothing past the cap is ever held.
    """
    if isinstance(results, ox.QueryBoolean):
        return results.serialize(format=ox.QueryResultsFormat.from_media_type(media_type))
    if isinstance(results, ox.QuerySolutions):
        tsv = _RowCap(rows)
        results.serialize(tsv, format=ox.QueryResultsFormat.TSV)
        wanted = ox.QueryResultsFormat.from_media_type(media_type)
        if wanted == ox.QueryResultsFormat.TSV:
            return tsv.getvalue()
        return ox.parse_query_results(tsv.getvalue(), format=ox.QueryResultsFormat.TSV).serialize(
            format=wanted
        )
    triples = list(islice(results, rows + 1))
    if len(triples) > rows:
        raise _too_many(rows)
    return ox.serialize(triples, format=ox.RdfFormat.from_media_type(media_type), prefixes=PREFIXES)


@dataclass(frozen=True)
class Job:
    """A query for a worker, the media type wanted for solutions (SELECT, ASK) and for graphs
    (CONSTRUCT, DESCRIBE) — ``None`` when the asker takes none — and the protocol's dataset."""

    text: str
    results: str | None
    graph: str | None
    dataset: Dataset | None = None


@dataclass(frozen=True)
class Answer:
    """A worker's answer: the query form and the serialized results (``media_type`` is ``None``, and
    the query was not evaluated, when the job named no media type for that form); ``repeatable`` as
    the query is (:class:`CheckedQuery`)."""

    form: str
    media_type: str | None
    body: bytes = b""
    repeatable: bool = False


#: :func:`check` of the queries a worker has accepted: clients send the same ones again and again, and
#: rdflib's parse is most of a small query's time (1 to 10 ms; Oxigraph answers it in well under one)
_checked = lru_cache(maxsize=256)(check)


def answer(store: ox.Store, graphs: frozenset[str], job: Job, rows: int) -> Answer:
    """Check, evaluate and serialize one job on ``store``."""
    query = _checked(job.text, graphs, job.dataset)
    media_type = job.graph if query.form in GRAPH_FORMS else job.results
    if media_type is None:
        return Answer(query.form, None)
    body = serialize(execute(store, query), media_type, rows)
    return Answer(query.form, media_type, body, query.repeatable)


def load_store(graph: Path, reading: Path | None = None) -> ox.Store:
    """The built graph, with a chart or reading graph (Turtle) in :data:`READING_GRAPH`."""
    store = KnowledgeGraph.load(graph).store
    if reading is not None:
        try:
            store.load(path=str(reading), format=ox.RdfFormat.TURTLE, to_graph=ox.NamedNode(READING_GRAPH))
        except (SyntaxError, ValueError, OSError) as exc:
            raise InputError(f"{reading}: cannot load the reading graph ({exc})") from None
    return store


def _memory_exceeded(limits: Limits) -> LimitExceeded:
    return LimitExceeded(f"the query needed more memory than the limit ({limits.memory} MiB) and was stopped")


def _serve(conn: Connection, graph: Path, reading: Path | None, limits: Limits) -> None:
    """The worker process: cap memory, load the store, then answer jobs until the pipe closes.

    Each message back is ``(None, value)`` or ``(exception, None)``.
    """
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory * MIB, limits.memory * MIB))
    try:
        store = load_store(graph, reading)
    except KgError as exc:
        conn.send((exc, None))
        return
    graphs = frozenset(g.value for g in store.named_graphs())
    conn.send((None, None))
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        try:
            conn.send((None, answer(store, graphs, job, limits.rows)))
        except KgError as exc:
            conn.send((exc, None))
        except (OSError, RuntimeError) as exc:  # oxigraph's evaluation errors
            conn.send((KgError(f"the query failed: {exc}"), None))
        except MemoryError:
            conn.send((_memory_exceeded(limits), None))


class Worker:
    """A process with its own copy of the store (``graph``, and ``reading`` if given) that answers
    :class:`Job` s one at a time under ``limits``; it is killed when a job passes the deadline."""

    def __init__(self, graph: Path, limits: Limits, reading: Path | None = None) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, graph, reading, limits), daemon=True)
        self._process.start()
        child.close()
        self.limits = limits
        self.ready = False
        """True once the worker has loaded the store."""

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        """Wait until the store is loaded; a KgError if it cannot be."""
        if not self._conn.poll(timeout):
            self.close()
            raise KgError(f"the query worker did not load the graph within {timeout:g} s")
        self._receive()
        self.ready = True

    def run(self, job: Job) -> Answer:
        """The answer to ``job``; LimitExceeded (and the worker ended) past the deadline."""
        self._conn.send(job)
        if not self._conn.poll(self.limits.deadline):
            self.close()
            raise LimitExceeded(
                f"the query ran longer than the time limit ({self.limits.deadline:g} s) and was stopped"
            )
        return self._receive()

    def _receive(self) -> Any:
        try:
            error, value = self._conn.recv()
        except EOFError:
            self._process.join()
            code = self._process.exitcode
            self.close()
            if code == -signal.SIGABRT and not self.ready:  # Rust aborts when an allocation fails
                raise LimitExceeded(
                    f"the graph does not fit in the query worker's memory limit ({self.limits.memory} MiB);"
                    " give it more (--memory)"
                ) from None
            if code == -signal.SIGABRT:
                raise _memory_exceeded(self.limits) from None
            raise KgError(f"the query worker died (exit code {code})") from None
        if error is not None:
            raise error
        return value

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def close(self) -> None:
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._conn.close()
