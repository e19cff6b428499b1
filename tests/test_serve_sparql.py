"""``kg serve``'s SPARQL endpoint and the query guard it shares with ``kg query``.

Values come from the build's own files and the catalogue, read here by other paths than the
server's: the four works' zh-Hant titles of corpus/catalogue.yaml, and the size of each named
graph counted from the N-Quads lines of kg.nq. A canary HTTP server on 127.0.0.1 stands for any
address a query could make the server call; it must receive nothing.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
import yaml
from click.testing import CliRunner
from live_server import serving
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import JSON, POST, SPARQLWrapper
from starlette.testclient import TestClient

from kg.cli import main
from kg.serve.app import create_app
from kg.serve.graph import ServedGraph, ServeLimits
from kg.serve.sparql import negotiate
from kg.sparql_guard import Dataset, Limits, Malformed, Refused, check

CATALOGUE = Path(__file__).resolve().parent.parent / "corpus" / "catalogue.yaml"
TITLES = {"易隱", "黃金策", "御定六壬直指", "大六壬銀河棹"}
GRAPH = "https://w3id.org/divkg/graph/"
NAMED = {GRAPH + name for name in ("ontology", "corpus", "rules")}
DCT = Namespace("http://purl.org/dc/terms/")
SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
VOID = Namespace("http://rdfs.org/ns/void#")
PREFIXES = "PREFIX dk: <https://w3id.org/divkg/>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n"
TITLE = "?work a dk:Work ; dcterms:title ?title FILTER(langMatches(lang(?title), 'zh-Hant'))"
WORKS = PREFIXES + f"SELECT ?work ?title WHERE {{ {TITLE} }}"
WORK_TITLES = PREFIXES + f"CONSTRUCT {{ ?work dcterms:title ?title }} WHERE {{ {TITLE} }}"
COUNT_WORKS = PREFIXES + "SELECT (COUNT(?work) AS ?n) WHERE { ?work a dk:Work }"
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"  # 54 365³ solutions
LIMITS = ServeLimits(Limits(deadline=2.0, rows=1000), workers=2, concurrent=4, request_bytes=4096)


def test_catalogue_titles() -> None:
    """The titles the tests expect are the catalogue's."""
    assert {w["title"] for w in yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))["works"]} == TITLES


@pytest.fixture(scope="module")
def sizes(built_graph: Path) -> dict[str, int]:
    """Quads per named graph, counted from kg.nq's lines (each ends with its graph's IRI)."""
    lines = built_graph.read_text(encoding="utf-8").splitlines()
    counts = {g: sum(1 for line in lines if line.endswith(f" <{g}> .")) for g in NAMED}
    assert sum(counts.values()) == len(lines) and all(counts.values())
    return counts


class Canary:
    """An HTTP server on 127.0.0.1 that records every request it receives."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        hits = self.hits

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = b'{"head":{"vars":[]},"results":{"bindings":[]}}'
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def canary() -> Iterator[Canary]:
    bird = Canary()
    yield bird
    bird.server.shutdown()


def outside_queries(canary: Canary) -> list[str]:
    return [
        f"SELECT * WHERE {{ SERVICE <{canary.url}sparql> {{ ?s ?p ?o }} }}",
        f"SELECT * FROM <{canary.url}x> WHERE {{ ?s ?p ?o }}",
    ]


def test_the_canary_would_hear_an_unguarded_service_call(canary: Canary) -> None:
    """Oxigraph itself federates: without the guard, SERVICE reaches the canary."""
    before = len(canary.hits)
    list(ox.Store().query(outside_queries(canary)[0]))
    assert len(canary.hits) == before + 1
    canary.hits.clear()


# The guard on its own


@pytest.mark.parametrize(
    "where",
    [
        "{ SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }",
        "{ ?s ?p ?o OPTIONAL { SERVICE SILENT <http://127.0.0.1:9/> { ?s ?p ?o } } }",
        "{ ?s ?p ?o FILTER NOT EXISTS { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } } }",
        "{ { SELECT ?s WHERE { SERVICE ?endpoint { ?s ?p ?o } } } }",
        "{ \\u0053ERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }",  # a codepoint escape is the keyword
        # rdflib's algebra loses the inner FILTER: only its parse tree still has the SERVICE
        "{ ?s ?p ?o FILTER EXISTS { ?s ?p ?x FILTER EXISTS { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } } } }",
    ],
)
def test_guard_refuses_service_anywhere(where: str) -> None:
    with pytest.raises(Refused, match="SERVICE is refused"):
        check(f"SELECT * WHERE {where}", NAMED)


@pytest.mark.parametrize(
    ("query", "repeatable"),
    [
        (COUNT, True),
        ("SELECT (NOW() AS ?t) WHERE {}", False),
        ("SELECT ?s WHERE { ?s ?p ?o } ORDER BY RAND() LIMIT 1", False),
        ("SELECT (UUID() AS ?u) (STRUUID() AS ?v) WHERE {}", False),
        ("CONSTRUCT { ?b <urn:p> ?o } WHERE { ?s ?p ?o BIND(BNODE() AS ?b) }", False),
        ("ASK { ?s ?p ?o FILTER EXISTS { ?s ?p ?x FILTER EXISTS { ?x ?p ?y FILTER(?y < NOW()) } } }", False),
        ("SELECT * WHERE { ?s ?p 'NOW()' }", True),  # a string, not the function
    ],
)
def test_guard_tells_repeatable_queries(query: str, repeatable: bool) -> None:
    """A query calling none of NOW, RAND, UUID, STRUUID, BNODE has one answer on a store that does not change."""
    assert check(query, NAMED).repeatable is repeatable


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("SELECT * FROM <http://127.0.0.1:9/g> WHERE { ?s ?p ?o }", "FROM"),
        ("SELECT * FROM NAMED <http://127.0.0.1:9/g> WHERE { GRAPH ?g { ?s ?p ?o } }", "FROM NAMED"),
        ("SELECT * WHERE { GRAPH <http://127.0.0.1:9/g> { ?s ?p ?o } }", "GRAPH"),
        ("ASK { ?s ?p ?o FILTER EXISTS { GRAPH <http://127.0.0.1:9/g> { ?s ?p ?o } } }", "GRAPH"),
        (f"SELECT * FROM <{GRAPH}reading> WHERE {{ ?s ?p ?o }}", "FROM"),  # not loaded
    ],
)
def test_guard_refuses_graphs_outside_the_store(query: str, named: str) -> None:
    with pytest.raises(Refused, match=f"^{named} <.*> is not a graph of this store"):
        check(query, NAMED)


def test_guard_dataset() -> None:
    """FROM / FROM NAMED make the dataset (prefixes and BASE resolved); the protocol's overrides it."""
    query = (
        f"BASE <{GRAPH}>\nPREFIX g: <{GRAPH}>\n"
        "SELECT * FROM <ontology> FROM NAMED g:rules WHERE { GRAPH g:rules { ?s ?p ?o } }"
    )
    assert check(query, NAMED).dataset == Dataset((GRAPH + "ontology",), (GRAPH + "rules",))
    protocol = Dataset((GRAPH + "corpus",), ())
    assert check(query, NAMED, protocol).dataset == protocol
    assert check(COUNT, NAMED).dataset is None  # the union of the named graphs
    with pytest.raises(Refused, match=r"^default-graph-uri <http://127\.0\.0\.1:9/g>"):
        check(COUNT, NAMED, Dataset(("http://127.0.0.1:9/g",), ()))


@pytest.mark.parametrize(
    ("update", "operation"),
    [
        ("INSERT DATA { <urn:a> <urn:b> <urn:c> }", "INSERT DATA"),
        ("DELETE DATA { <urn:a> <urn:b> <urn:c> }", "DELETE DATA"),
        ("DELETE WHERE { ?s ?p ?o }", "DELETE WHERE"),
        ("DELETE { ?s ?p ?o } INSERT { ?o ?p ?s } WHERE { ?s ?p ?o }", "DELETE/INSERT"),
        ("LOAD <http://127.0.0.1:9/data.ttl>", "LOAD"),
        ("CLEAR ALL", "CLEAR"),
        ("DROP GRAPH <https://w3id.org/divkg/graph/rules>", "DROP"),
        ("CREATE GRAPH <urn:g>", "CREATE"),
        ("ADD DEFAULT TO <urn:g>", "ADD"),
        ("MOVE <urn:g> TO <urn:h>", "MOVE"),
        ("COPY <urn:g> TO <urn:h>", "COPY"),
    ],
)
def test_guard_refuses_updates(update: str, operation: str) -> None:
    with pytest.raises(Refused, match=rf"read-only: SPARQL Update \({operation}\) is refused"):
        check(update, NAMED)


def test_guard_malformed_query_gives_line_and_column() -> None:
    """The triple on line 2 lacks its object: the parser's message points into that line."""
    with pytest.raises(Malformed) as caught:
        check("SELECT ?x\nWHERE { ?x ?y }", NAMED)
    first, line, caret = str(caught.value).splitlines()
    assert first.startswith("malformed query: error at 2:")
    column = int(first.split(":")[2])
    assert line == "WHERE { ?x ?y }" and caret == " " * (column - 1) + "^" and line[column - 1] == "?"


# kg query


def kg_query(graph: Path, query: str, tmp_path: Path, *args: str):
    file = tmp_path / "query.rq"
    file.write_text(query, encoding="utf-8")
    return CliRunner().invoke(main, ["query", str(file), "--graph", str(graph), *args])


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_deadline_must_be_finite_and_positive(built_graph: Path, tmp_path: Path, value: str) -> None:
    result = kg_query(built_graph, COUNT, tmp_path, "--timeout", value)
    assert result.exit_code == 2 and "finite number of seconds above 0" in result.stderr
    served = CliRunner().invoke(main, ["serve", "--build", str(built_graph.parent), "--timeout", value])
    assert served.exit_code == 2 and "finite number of seconds above 0" in served.stderr


def test_kg_query_refuses_service_and_outside_from(built_graph: Path, tmp_path: Path, canary: Canary) -> None:
    service, outside = outside_queries(canary)
    for query, message in (
        (service, "SERVICE is refused"),
        (outside, f"FROM <{canary.url}x> is not a graph"),
    ):
        result = kg_query(built_graph, query, tmp_path)
        assert result.exit_code == 2 and message in result.stderr
    assert canary.hits == []


def test_kg_query_from_counts_that_graph_alone(
    built_graph: Path, tmp_path: Path, sizes: dict[str, int]
) -> None:
    query = f"SELECT (COUNT(*) AS ?n) FROM <{GRAPH}ontology> WHERE {{ ?s ?p ?o }}"
    result = kg_query(built_graph, query, tmp_path, "--format", "csv")
    assert result.exit_code == 0 and result.output.split() == ["n", str(sizes[GRAPH + "ontology"])]


def test_kg_query_memory_cap(built_graph: Path, tmp_path: Path) -> None:
    """Sorting a cross product of all triples materialises it: the worker meets its 400 MiB cap."""
    query = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f LIMIT 1"
    result = kg_query(built_graph, query, tmp_path, "--memory", "400", "--timeout", "8")
    assert result.exit_code == 2 and "more memory than the limit (400 MiB)" in result.stderr


def test_kg_query_row_cap(built_graph: Path, tmp_path: Path) -> None:
    assert kg_query(built_graph, WORKS, tmp_path, "--max-rows", "4").exit_code == 0  # the four works
    result = kg_query(built_graph, WORKS, tmp_path, "--max-rows", "3")
    assert result.exit_code == 2 and "more than 3 rows" in result.stderr


# The endpoint through the ASGI application


@pytest.fixture(scope="module")
def client(built_graph: Path) -> Iterator[TestClient]:
    app = create_app(ServedGraph.load(built_graph.parent, "http://testserver/", LIMITS))
    with TestClient(app) as test_client:
        yield test_client


def sparql(client: TestClient, query: str, accept: str = "*/*", **params: str) -> httpx.Response:
    return client.get("/sparql", params={"query": query, **params}, headers={"Accept": accept})


def test_a_query_at_startup_waits_for_the_workers(built_graph: Path) -> None:
    """A worker takes longer than the deadline here (0.2 s) to load the store: a query sent as the
    server starts waits for it rather than being turned away."""
    limits = ServeLimits(Limits(deadline=0.2, rows=1000), workers=1, concurrent=1, request_bytes=4096)
    app = create_app(ServedGraph.load(built_graph.parent, "http://testserver/", limits))
    with TestClient(app) as starting:
        response = sparql(starting, COUNT_WORKS, "text/csv")
    assert response.status_code == 200 and response.text.split() == ["n", "4"]


def titles_json(body: str) -> set[str]:
    return {b["title"]["value"] for b in json.loads(body)["results"]["bindings"]}


def titles_xml(body: str) -> set[str]:
    ns = {"r": "http://www.w3.org/2005/sparql-results#"}
    return {e.text for e in ET.fromstring(body).findall(".//r:binding[@name='title']/r:literal", ns)}


def titles_csv(body: str) -> set[str]:
    return {row["title"] for row in csv.DictReader(io.StringIO(body))}


def titles_tsv(body: str) -> set[str]:
    header, *rows = body.splitlines()
    column = header.split("\t").index("?title")
    return {row.split("\t")[column].split('"')[1] for row in rows}


@pytest.mark.parametrize(
    ("accept", "media_type", "titles"),
    [
        ("application/sparql-results+json", "application/sparql-results+json", titles_json),
        ("application/json", "application/json", titles_json),
        ("application/sparql-results+xml", "application/sparql-results+xml", titles_xml),
        ("text/csv", "text/csv", titles_csv),
        ("text/tab-separated-values", "text/tab-separated-values", titles_tsv),
        ("text/html;q=0.9, text/csv;q=0.5, */*;q=0.1", "text/csv", titles_csv),
        ("", "application/sparql-results+json", titles_json),
    ],
)
def test_select_formats_by_accept(client: TestClient, accept: str, media_type: str, titles) -> None:
    response = sparql(client, WORKS, accept)
    assert response.status_code == 200 and response.headers["content-type"].startswith(media_type)
    assert titles(response.text) == TITLES


@pytest.mark.parametrize(
    ("accept", "rdflib_format"),
    [
        ("text/turtle", "turtle"),
        ("application/n-triples", "nt"),
        ("application/ld+json", "json-ld"),
        ("application/rdf+xml", "xml"),
    ],
)
def test_graph_formats_by_accept(client: TestClient, accept: str, rdflib_format: str) -> None:
    response = sparql(client, WORK_TITLES, accept)
    assert response.status_code == 200 and response.headers["content-type"].startswith(accept)
    graph = Graph().parse(data=response.text, format=rdflib_format)
    assert {str(title) for title in graph.objects(None, DCT.title)} == TITLES


def test_describe_and_ask(client: TestClient) -> None:
    described = Graph().parse(data=sparql(client, "DESCRIBE <https://w3id.org/divkg/source/yiyin>").text)
    assert Literal("易隱", lang="zh-Hant") in set(described.objects(None, DCT.title))
    ask = PREFIXES + "ASK { ?work dcterms:title '黃金策'@zh-Hant }"
    assert json.loads(sparql(client, ask).text)["boolean"] is True
    xml = sparql(client, ask, "application/sparql-results+xml").text
    assert ET.fromstring(xml).find("{http://www.w3.org/2005/sparql-results#}boolean").text == "true"


def test_format_parameter_and_unacceptable(client: TestClient) -> None:
    assert titles_csv(sparql(client, WORKS, "application/json", format="csv").text) == TITLES
    assert (
        sparql(client, WORKS, format="text/tab-separated-values")
        .headers["content-type"]
        .startswith("text/tab-separated-values")
    )
    assert sparql(client, WORKS, format="yaml").status_code == 400
    assert sparql(client, WORKS, "image/png").status_code == 406
    refused = sparql(client, WORKS, "text/turtle")  # a SELECT has no Turtle
    assert refused.status_code == 406 and "SELECT" in refused.text


def test_get_and_both_post_encodings(client: TestClient) -> None:
    accept = {"Accept": "application/sparql-results+json"}
    form = client.post("/sparql", data={"query": WORKS}, headers=accept)
    direct = client.post(
        "/sparql", content=WORKS.encode(), headers={**accept, "Content-Type": "application/sparql-query"}
    )
    for response in (sparql(client, WORKS), form, direct):
        assert response.status_code == 200 and titles_json(response.text) == TITLES
    wrong = client.post("/sparql", content=WORKS.encode(), headers={"Content-Type": "text/plain"})
    assert wrong.status_code == 415


def test_protocol_dataset(client: TestClient, sizes: dict[str, int], canary: Canary) -> None:
    """default-graph-uri makes one graph the default graph, also given as this server's address of it."""
    for uri in (GRAPH + "ontology", "http://testserver/graph/ontology"):
        response = sparql(client, COUNT, "text/csv", **{"default-graph-uri": uri})
        assert response.text.split() == ["n", str(sizes[GRAPH + "ontology"])]
    query = f"SELECT (COUNT(*) AS ?n) FROM <{GRAPH}rules> WHERE {{ ?s ?p ?o }}"
    assert sparql(client, query, "text/csv").text.split() == ["n", str(sizes[GRAPH + "rules"])]
    assert sparql(client, COUNT, "text/csv").text.split() == ["n", str(sum(sizes.values()))]
    named = sparql(
        client,
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
        "text/csv",
        **{"named-graph-uri": GRAPH + "corpus"},
    )
    assert named.text.split() == ["n", str(sizes[GRAPH + "corpus"])]
    outside = sparql(client, COUNT, **{"default-graph-uri": canary.url + "g"})
    assert outside.status_code == 403 and "default-graph-uri" in outside.text
    assert canary.hits == []


def test_service_and_outside_from_refused(client: TestClient, canary: Canary) -> None:
    for query in outside_queries(canary):
        response = sparql(client, query)
        assert response.status_code == 403, response.text
    assert canary.hits == []


def test_service_under_a_nested_exists_is_refused(client: TestClient, canary: Canary) -> None:
    """Oxigraph calls a SERVICE under a FILTER EXISTS in a FILTER EXISTS; the endpoint refuses it."""
    query = (
        "SELECT * WHERE { ?s ?p ?o FILTER EXISTS { ?s ?p ?x FILTER EXISTS { "
        f"SERVICE <{canary.url}sparql> {{ ?a ?b ?c }} }} }} }}"
    )
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode("urn:s"), ox.NamedNode("urn:p"), ox.Literal("o")))
    before = len(canary.hits)
    list(store.query(query))
    assert len(canary.hits) == before + 1
    canary.hits.clear()
    response = sparql(client, query)
    assert response.status_code == 403 and "SERVICE is refused" in response.text
    assert canary.hits == []


def test_service_description(client: TestClient, sizes: dict[str, int]) -> None:
    response = client.get("/sparql", headers={"Accept": "text/turtle"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/turtle")
    sd = Graph().parse(data=response.text, format="turtle")
    (service,) = sd.subjects(SD.endpoint, URIRef("http://testserver/sparql"))
    assert (service, SD.supportedLanguage, SD.SPARQL11Query) in sd
    assert URIRef("http://www.w3.org/ns/formats/SPARQL_Results_JSON") in set(
        sd.objects(service, SD.resultFormat)
    )
    graphs = {
        str(sd.value(named, SD.name)): sd.value(sd.value(named, SD.graph), VOID.triples).toPython()
        for named in sd.subjects(SD.name, None)
    }
    assert graphs == sizes


def test_html_page(client: TestClient) -> None:
    response = client.get("/sparql", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert '<script src="/static/yasgui/yasgui.min.js">' in page
    assert all(link.startswith("/") for link in re.findall(r'(?:src|href)="([^"]*)"', page))  # no CDN
    examples = json.loads(page.split('id="examples">')[1].split("</script>")[0])
    names = [e["name"] for e in examples]
    assert names[0] == "rules-by-concept" and "works" in names  # queries/README.md's order
    assert "retrieval-fire" not in names  # it names the reading graph, which the server does not hold
    for path in ("/static/yasgui/yasgui.min.js", "/static/yasgui/yasgui.min.css", "/static/sparql.js"):
        assert client.get(path).status_code == 200


def test_updates_refused(client: TestClient, sizes: dict[str, int]) -> None:
    update = "DROP GRAPH <https://w3id.org/divkg/graph/rules>"
    for response in (
        client.post(
            "/sparql", content=update.encode(), headers={"Content-Type": "application/sparql-update"}
        ),
        client.post("/sparql", data={"update": update}),
        client.post("/sparql", data={"query": update}),
    ):
        assert response.status_code == 403 and "read-only" in response.text
    assert sparql(client, COUNT, "text/csv").text.split() == ["n", str(sum(sizes.values()))]


def test_malformed_query_is_400_with_line_and_column(client: TestClient) -> None:
    response = sparql(client, "SELECT ?x\nWHERE { ?x ?y }")
    assert response.status_code == 400 and "error at 2:" in response.text and "Traceback" not in response.text


def test_row_cap(client: TestClient) -> None:
    """LIMITS allow 1000 rows: exactly 1000 pass, one more is refused, for solutions and triples."""
    exact = sparql(client, "SELECT * WHERE { ?s ?p ?o } LIMIT 1000", "text/csv")
    assert exact.status_code == 200 and len(list(csv.reader(io.StringIO(exact.text)))) == 1001
    for query in ("SELECT * WHERE { ?s ?p ?o } LIMIT 1001", "CONSTRUCT WHERE { ?s ?p ?o }"):
        response = sparql(client, query)
        assert response.status_code == 400 and "more than 1000 rows" in response.text


def test_request_size_cap(client: TestClient) -> None:
    padding = "#" + "x" * LIMITS.request_bytes + "\n"
    body = client.post(
        "/sparql", content=(padding + COUNT).encode(), headers={"Content-Type": "application/sparql-query"}
    )
    assert body.status_code == 413
    assert sparql(client, padding + COUNT).status_code == 413


def test_negotiate_prefers_specific_ranges() -> None:
    offers = ["text/turtle", "text/html"]
    assert negotiate("text/*;q=0.5, text/html", offers) == "text/html"
    assert negotiate("*/*", offers) == "text/turtle"
    assert negotiate("text/html;q=0, */*;q=0.1", offers) == "text/turtle"
    assert negotiate("application/json", offers) is None


# Clients against a real server


@pytest.fixture(scope="module")
def live(built_graph: Path) -> Iterator[str]:
    with serving(built_graph.parent, LIMITS) as base:
        yield base


def test_sparqlwrapper_counts_the_works(live: str) -> None:
    for method in ("GET", POST):
        client = SPARQLWrapper(live + "sparql")
        client.setMethod(method)
        client.setReturnFormat(JSON)
        client.setQuery(COUNT_WORKS)
        (row,) = client.query().convert()["results"]["bindings"]
        assert row["n"]["value"] == "4"
        client.setQuery(WORKS)
        assert titles_json(json.dumps(client.query().convert())) == TITLES


def test_rdflib_sparqlstore(live: str) -> None:
    graph = Graph(SPARQLStore(live + "sparql"))
    (row,) = graph.query(COUNT_WORKS)
    assert row.n.toPython() == 4
    assert {str(row.title) for row in graph.query(WORKS)} == TITLES


def test_runaway_query_is_killed_while_others_are_answered(live: str) -> None:
    done: dict[str, tuple[float, httpx.Response]] = {}
    start = time.monotonic()

    def runaway() -> None:
        response = httpx.post(live + "sparql", data={"query": RUNAWAY}, timeout=30)
        done["runaway"] = (time.monotonic() - start, response)

    thread = threading.Thread(target=runaway)
    thread.start()
    time.sleep(0.5)
    cheap = httpx.get(
        live + "sparql", params={"query": COUNT_WORKS}, headers={"Accept": "text/csv"}, timeout=30
    )
    answered = time.monotonic() - start
    thread.join(30)
    took, stopped = done["runaway"]
    assert cheap.status_code == 200 and cheap.text.split() == ["n", "4"]
    assert answered < LIMITS.query.deadline < took < LIMITS.query.deadline + 3
    assert stopped.status_code == 503 and "time limit (2 s)" in stopped.text
    after = httpx.get(live + "sparql", params={"query": COUNT_WORKS}, headers={"Accept": "text/csv"})
    assert after.status_code == 200


def test_busy_is_503_with_retry_after(built_graph: Path) -> None:
    limits = ServeLimits(LIMITS.query, workers=1, concurrent=1, request_bytes=LIMITS.request_bytes)
    with serving(built_graph.parent, limits) as base:
        thread = threading.Thread(
            target=httpx.post, args=(base + "sparql",), kwargs={"data": {"query": RUNAWAY}}
        )
        thread.start()
        time.sleep(0.5)
        busy = httpx.get(base + "sparql", params={"query": COUNT_WORKS})
        thread.join(30)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"


def test_a_repeated_query_is_answered_while_the_workers_are_busy(built_graph: Path) -> None:
    """The answer of a repeatable query is kept: asked again while the one worker runs the runaway, it
    comes at once, though a new query is turned away; a query calling STRUUID() is evaluated each time."""
    limits = ServeLimits(LIMITS.query, workers=1, concurrent=1, request_bytes=LIMITS.request_bytes)
    new_id = "SELECT (STRUUID() AS ?id) WHERE {}"
    with serving(built_graph.parent, limits) as base:

        def ask(query: str) -> httpx.Response:
            return httpx.get(base + "sparql", params={"query": query}, headers={"Accept": "text/csv"})

        first = ask(COUNT_WORKS)
        ids = {ask(new_id).text for _ in range(2)}
        thread = threading.Thread(
            target=httpx.post, args=(base + "sparql",), kwargs={"data": {"query": RUNAWAY}, "timeout": 30}
        )
        thread.start()
        time.sleep(0.5)
        again, other = ask(COUNT_WORKS), ask(COUNT)
        thread.join(30)
    assert first.status_code == 200 and first.text.split() == ["n", "4"]
    assert again.status_code == 200 and again.text == first.text
    assert other.status_code == 503 and other.headers["Retry-After"] == "2"
    assert len(ids) == 2
