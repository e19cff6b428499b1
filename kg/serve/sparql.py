"""``/sparql``: the SPARQL 1.1 Protocol endpoint, read-only, with its service description and page.

A query comes by GET ``?query=``, by POST form-encoded (``query=``) or by POST
``application/sparql-query``; ``default-graph-uri`` and ``named-graph-uri`` choose the dataset among
the build's named graphs (given as graph IRIs or as this server's addresses of them). SELECT and
ASK answer in SPARQL JSON, XML, CSV or TSV; CONSTRUCT and DESCRIBE in Turtle, N-Triples, JSON-LD or
RDF/XML; by ``Accept``, or by ``?format=`` (a name of :data:`FORMATS` or a media type).

:mod:`kg.sparql_guard` checks every query in a worker of the :class:`~kg.serve.graph.QueryPool`
before it runs; the pool keeps the answers of repeatable queries, the store being read-only.
Status codes: 400 malformed query or parameters, and results past the row cap; 403 refused (SPARQL
Update, ``SERVICE``, a graph outside the build); 406 no acceptable format; 413 a request over the
size cap; 415 a body of another type; 503 past the deadline or the memory cap, and — with
``Retry-After`` — when every query slot is taken.

GET with no query returns the SPARQL service description (Turtle, ``sd:`` vocabulary), or to a
browser the YASGUI page (``templates/sparql.html``) with the query library as example tabs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import parse_qs

import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from kg.errors import InputError, KgError
from kg.serve.graph import Busy, ServedGraph
from kg.sparql_guard import GRAPH_FORMS, Dataset, Job, LimitExceeded, Refused, check
from kg.vocabulary import PREFIXES

HERE = Path(__file__).resolve().parent
QUERIES = HERE.parent.parent / "queries"
TEMPLATES = Jinja2Templates(directory=HERE / "templates")
FORMAT_IRI = "http://www.w3.org/ns/formats/"
SD = "http://www.w3.org/ns/sparql-service-description#"
VOID = "http://rdfs.org/ns/void#"
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
XSD_INTEGER = ox.NamedNode(PREFIXES["xsd"] + "integer")


@dataclass(frozen=True)
class Format:
    """A result format: its ``?format=`` name, media types (the first is sent as Content-Type unless the
    client asked for another), whether it serializes graphs (CONSTRUCT, DESCRIBE) or solutions, and
    its name in the W3C formats namespace."""

    name: str
    media_types: tuple[str, ...]
    graph: bool
    w3c_name: str


FORMATS = (
    Format("json", ("application/sparql-results+json", "application/json"), False, "SPARQL_Results_JSON"),
    Format("xml", ("application/sparql-results+xml",), False, "SPARQL_Results_XML"),
    Format("csv", ("text/csv",), False, "SPARQL_Results_CSV"),
    Format("tsv", ("text/tab-separated-values",), False, "SPARQL_Results_TSV"),
    Format("turtle", ("text/turtle",), True, "Turtle"),
    Format("ntriples", ("application/n-triples",), True, "N-Triples"),
    Format("jsonld", ("application/ld+json",), True, "JSON-LD"),
    Format("rdfxml", ("application/rdf+xml",), True, "RDF_XML"),
)
BY_MEDIA_TYPE = {m: f for f in FORMATS for m in f.media_types}
BY_NAME = {f.name: f for f in FORMATS}
STATUS = ((Refused, 403), (LimitExceeded, 503), (InputError, 400))  # the first class that fits


def accepted(accept: str) -> list[tuple[str, float]]:
    """The media ranges of an Accept header with their q-values (parameters other than q ignored)."""
    ranges = []
    for item in accept.split(","):
        media, *params = (part.strip() for part in item.split(";"))
        if not media:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        ranges.append((media.lower(), q))
    return ranges


def negotiate(accept: str, offers: list[str]) -> str | None:
    """The offer the Accept header prefers (the earlier on a tie), or None when it accepts none.

    Each offer takes the q-value of the most specific range that matches it: ``type/subtype``, then
    ``type/*``, then ``*/*``.
    """
    ranges = accepted(accept or "*/*")
    best, best_q = None, 0.0
    for offer in offers:
        kind = offer.split("/")[0]
        matches = [
            (2 if media == offer else 1 if media == f"{kind}/*" else 0, q)
            for media, q in ranges
            if media in (offer, f"{kind}/*", "*/*")
        ]
        q = max(matches)[1] if matches else 0.0
        if q > best_q:
            best, best_q = offer, q
    return best


def _offers(graph: bool) -> list[str]:
    return [m for f in FORMATS if f.graph == graph for m in f.media_types]


def error(status: int, message: str, headers: dict[str, str] | None = None) -> PlainTextResponse:
    return PlainTextResponse(message + "\n", status_code=status, headers=headers)


class Endpoint:
    """The ``/sparql`` handler over one served graph."""

    def __init__(self, graph: ServedGraph) -> None:
        self.graph = graph

    @cached_property
    def sizes(self) -> list[tuple[str, int]]:
        """The build's named graphs with their triple counts."""
        query = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g"
        return [(row["g"].value, int(row["n"].value)) for row in self.graph.kg.store.query(query)]

    @cached_property
    def examples(self) -> list[dict[str, str]]:
        """The query library in the order queries/README.md documents it, each query the guard lets
        run on this store (retrieval-fire.rq names the reading graph, which a server does not hold)."""
        readme = (QUERIES / "README.md").read_text(encoding="utf-8").splitlines()
        first_column = " ".join(line.split("|")[1] for line in readme if line.startswith("| `"))
        graphs = {name for name, _ in self.sizes}
        found = []
        for name in dict.fromkeys(re.findall(r"`([\w-]+\.rq)`", first_column)):
            text = (QUERIES / name).read_text(encoding="utf-8")
            try:
                check(text, graphs)
            except InputError:
                continue
            found.append({"name": name.removesuffix(".rq"), "query": text})
        return found

    async def handle(self, request: Request) -> Response:
        try:
            params = await self._params(request)
        except _Reply as reply:
            return reply.response
        if "update" in params:
            return error(403, "this endpoint is read-only: SPARQL Update is refused")
        queries = params.get("query", [])
        if len(queries) > 1:
            return error(400, "give one query parameter, not several")
        if not queries:
            if request.method == "POST":
                return error(400, "no query: send query=… or a body of type application/sparql-query")
            return self._describe(request)
        if len(queries[0].encode()) > self.graph.limits.request_bytes:
            return error(413, f"the query is longer than {self.graph.limits.request_bytes} bytes")
        return await self._query(request, queries[0], params)

    async def _params(self, request: Request) -> dict[str, list[str]]:
        """The protocol parameters of a GET or POST request (a query body counts as ``query``)."""
        params = {key: request.query_params.getlist(key) for key in request.query_params}
        if request.method == "GET":
            return params
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media == "application/sparql-update":
            raise _Reply(error(403, "this endpoint is read-only: SPARQL Update is refused"))
        if media not in ("application/x-www-form-urlencoded", "application/sparql-query"):
            wanted = "application/sparql-query or application/x-www-form-urlencoded"
            raise _Reply(error(415, f"send a body of type {wanted}, not {media or 'none'}"))
        try:
            body = (await self._body(request)).decode("utf-8")
        except UnicodeDecodeError:
            raise _Reply(error(400, "the request body is not UTF-8")) from None
        if media == "application/sparql-query":
            return {**params, "query": [body]}
        return parse_qs(body, keep_blank_values=True)

    async def _body(self, request: Request) -> bytes:
        limit = self.graph.limits.request_bytes
        too_large = _Reply(error(413, f"the request body is larger than {limit} bytes"))
        if int(request.headers.get("content-length") or 0) > limit:
            raise too_large
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise too_large
        return bytes(body)

    async def _query(self, request: Request, text: str, params: dict[str, list[str]]) -> Response:
        fmt = (params.get("format") or [""])[0]
        if fmt and fmt not in BY_NAME and "/" not in fmt:
            return error(400, f"unknown format {fmt!r}; one of {', '.join(BY_NAME)} or a media type")
        accept = BY_NAME[fmt].media_types[0] if fmt in BY_NAME else fmt or request.headers.get("accept", "")
        results, graphs = negotiate(accept, _offers(False)), negotiate(accept, _offers(True))
        if results is None and graphs is None:
            return error(406, "no result format fits the Accept header; offered: " + ", ".join(BY_MEDIA_TYPE))
        default, named = params.get("default-graph-uri", []), params.get("named-graph-uri", [])
        dataset = None
        if default or named:
            dataset = Dataset(tuple(map(self.graph.public, default)), tuple(map(self.graph.public, named)))
        job = Job(
            text,
            BY_MEDIA_TYPE[results].media_types[0] if results else None,
            BY_MEDIA_TYPE[graphs].media_types[0] if graphs else None,
            dataset,
        )
        try:
            answer = await self.graph.queries.run(job)
        except Busy as exc:
            return error(503, str(exc), {"Retry-After": str(self.graph.limits.retry_after)})
        except InputError as exc:
            return error(next(status for cls, status in STATUS if isinstance(exc, cls)), str(exc))
        except KgError as exc:
            return error(500, str(exc))
        if answer.media_type is None:
            offered = ", ".join(_offers(answer.form in GRAPH_FORMS))
            return error(406, f"no acceptable format for a {answer.form} query; offered: {offered}")
        chosen = graphs if answer.form in GRAPH_FORMS else results
        return Response(answer.body, media_type=chosen, headers={"Vary": "Accept"})

    def _describe(self, request: Request) -> Response:
        if negotiate(request.headers.get("accept", ""), ["text/turtle", "text/html"]) == "text/html":
            context = {"base_path": self.graph.base_path, "examples": self.examples}
            return TEMPLATES.TemplateResponse(request, "sparql.html", context)
        body = service_description(self.graph.base + "sparql", self.sizes)
        return Response(body, media_type="text/turtle", headers={"Vary": "Accept"})


class _Reply(Exception):
    """An answer decided while reading the request (413, 415 …)."""

    def __init__(self, response: Response) -> None:
        self.response = response


def service_description(endpoint: str, sizes: list[tuple[str, int]]) -> bytes:
    """The SPARQL 1.1 service description of ``endpoint``: its formats and the build's dataset, the
    named graphs with their sizes (``void:triples``) and the default graph as their union."""
    sd = {name: ox.NamedNode(SD + name) for name in ("Service", "Dataset", "Graph", "NamedGraph")}
    service, dataset, default = ox.BlankNode(), ox.BlankNode(), ox.BlankNode()
    triples = [
        ox.Triple(service, RDF_TYPE, sd["Service"]),
        ox.Triple(service, ox.NamedNode(SD + "endpoint"), ox.NamedNode(endpoint)),
        ox.Triple(service, ox.NamedNode(SD + "supportedLanguage"), ox.NamedNode(SD + "SPARQL11Query")),
        ox.Triple(service, ox.NamedNode(SD + "feature"), ox.NamedNode(SD + "UnionDefaultGraph")),
        *(
            ox.Triple(service, ox.NamedNode(SD + "resultFormat"), ox.NamedNode(FORMAT_IRI + f.w3c_name))
            for f in FORMATS
        ),
        ox.Triple(service, ox.NamedNode(SD + "defaultDataset"), dataset),
        ox.Triple(dataset, RDF_TYPE, sd["Dataset"]),
        ox.Triple(dataset, ox.NamedNode(SD + "defaultGraph"), default),
        ox.Triple(default, RDF_TYPE, sd["Graph"]),
    ]
    total = 0
    for name, count in sizes:
        named, described = ox.BlankNode(), ox.BlankNode()
        total += count
        triples += [
            ox.Triple(dataset, ox.NamedNode(SD + "namedGraph"), named),
            ox.Triple(named, RDF_TYPE, sd["NamedGraph"]),
            ox.Triple(named, ox.NamedNode(SD + "name"), ox.NamedNode(name)),
            ox.Triple(named, ox.NamedNode(SD + "graph"), described),
            ox.Triple(described, RDF_TYPE, sd["Graph"]),
            ox.Triple(
                described, ox.NamedNode(VOID + "triples"), ox.Literal(str(count), datatype=XSD_INTEGER)
            ),
        ]
    triples.append(
        ox.Triple(default, ox.NamedNode(VOID + "triples"), ox.Literal(str(total), datatype=XSD_INTEGER))
    )
    prefixes = {"sd": SD, "void": VOID, "formats": FORMAT_IRI}
    return ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=prefixes)


def routes(graph: ServedGraph) -> list[BaseRoute]:
    return [Route("/sparql", Endpoint(graph).handle, methods=["GET", "POST"], name="sparql")]
