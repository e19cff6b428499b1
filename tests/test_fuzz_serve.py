"""Property tests: no request makes ``kg serve`` fail. A real server (uvicorn, the limits of
test_serve_sparql.py) gets drawn methods, paths, query strings, Accept headers and bodies; SPARQL
mutated from queries/ by GET, form POST and query POST; the reading forms with drawn field values.

Every answer has a status below 500, and a 4xx a body saying what was wrong; the canary a mutated
``SERVICE`` names hears nothing; after each request the server still answers ``ASK {}``, and at the
end a query its workers must evaluate. Examples are bounded and derandomised, a few seconds each.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from live_server import serving
from test_fuzz import LIUREN, LIUYAO, NOISE
from test_fuzz_commands import (
    CHARTS,
    QUERENT,
    QUERIES,
    TOPIC,
    bounded,
    choice,
    cli_names,
    edits,
    mostly,
    mutated,
    per_system,
    sparql_tokens,
)
from test_serve_sparql import LIMITS, Canary

METHODS = mostly(st.sampled_from(["GET", "POST"]), st.sampled_from(["PUT", "DELETE", "OPTIONS", "PATCH"]))
PLACES = ["", "sparql", "dts", "dts/collection", "dts/navigation", "dts/document", "reading/liuyao",
          "reading/liuren", "reading/liuyao.", "reading/liuren.", "static/", "static/divkg.css",
          "rule/yiyin.qianyi.inner-strength-change", "concept/branch/zi", "concept/", "source/yiyin/zh/58",
          "urn:cts:divkg:yiyin.juan4.zh:58.5", "TopicScheme", "graph/rules", "template/",
          "reading/liuyao-b9ae20e85d8e"]  # fmt: skip
"""Where a path starts: every route, pages of each kind of thing, and near misses."""
PATH_TAILS = st.lists(
    st.sampled_from(["a", "0", ".", "/", "-", "_", "%", "%2e", "%2F", "%00", "%ZZ", "..", "甲", "𠀀", " ", "~",
                     ":", ".ttl", ".html", ".jsonld", ".json", ".svg", ".png", "ā"]),
    max_size=6,
).map("".join)  # fmt: skip
PARAMETERS = st.dictionaries(
    st.sampled_from(["format", "query", "id", "nav", "resource", "ref", "start", "end", "down", "tree",
                     "mediaType", "page", "topic", "default-graph-uri", "named-graph-uri", "update", "lines",
                     "pillars", "day"]),
    mostly(
        st.sampled_from(["ttl", "html", "jsonld", "json", "csv", "urn:cts:divkg:yiyin.juan4.zh", "6", "6.3",
                         "6.3.1", "-1", "0", "2", "children", "parents", "ASK {}", "application/tei+xml",
                         "遷移", "977778"]),
        NOISE,
    ),
    max_size=3,
)  # fmt: skip
HEADER_NOISE = NOISE.map(lambda text: "".join(c for c in text if c >= " ").strip())
"""Noise a header can carry (HTTP allows no control characters, nor spaces at the ends); sent as UTF-8."""
ACCEPT = mostly(
    st.sampled_from(["*/*", "text/html", "text/turtle", "application/ld+json",
                     "application/sparql-results+json", "text/csv", "application/json", "text/html;q=0",
                     "text/*, */*;q=0.1", "application/n-triples"]),
    st.one_of(HEADER_NOISE, st.sampled_from(["", "image/png", "text/html;q=abc", ",,,", "*/*;q=0", ";q=1"])),
)  # fmt: skip
BODIES = st.one_of(
    st.none(),
    st.tuples(
        st.sampled_from(["application/x-www-form-urlencoded", "application/sparql-query",
                         "application/sparql-update", "text/plain", "multipart/form-data", "application/json",
                         ""]),
        st.one_of(st.binary(max_size=40), NOISE.map(str.encode),
                  st.sampled_from([b"query=ASK%20%7B%7D", b"\xff\xfe", b"update=CLEAR%20ALL", b"x" * 5000,
                                   b"query=ASK%20%7B%7D&query=ASK%20%7B%7D"])),
    ),
)  # fmt: skip
"""None, or (Content-Type, body): forms, queries, updates, bytes that are no UTF-8, a body past the limit."""


@pytest.fixture(scope="module")
def live(built_graph: Path) -> Iterator[str]:
    """A real server of the built graph, with the limits test_serve_sparql.py tests (2 s, 1,000 rows,
    4,096-byte requests, 2 workers)."""
    with serving(built_graph.parent, LIMITS) as base:
        yield base


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    """One client for every request, a connection each: on a kept-alive connection each answer of
    uvicorn reaches httpx some 40 ms late (delayed acknowledgement), ten times what a request takes."""
    with httpx.Client(timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as session:
        yield session


@pytest.fixture(scope="module")
def canary() -> Iterator[Canary]:
    bird = Canary()
    yield bird
    bird.server.shutdown()


def answered(response: httpx.Response) -> None:
    """The server did not fail: a status below 500, and a 4xx says what was wrong."""
    request = response.request
    assert response.status_code < 500, (
        request.method,
        str(request.url),
        response.status_code,
        response.text[:400],
    )
    if response.status_code >= 400:
        assert response.text.strip(), (request.method, str(request.url), response.status_code)


def still_answers(client: httpx.Client, base: str) -> None:
    """``ASK {}`` is answered, true."""
    response = client.get(base + "sparql", params={"query": "ASK {}"}, headers={"Accept": "text/csv"})
    assert response.status_code == 200 and response.text.strip() == "true", response.text


@bounded(200)
@given(
    method=METHODS,
    place=st.sampled_from(PLACES),
    tail=PATH_TAILS,
    params=PARAMETERS,
    accept=ACCEPT,
    body=BODIES,
)
@example(
    method="GET",
    place="dts/navigation",
    tail="",
    params={"resource": "urn:cts:divkg:yiyin.juan4.zh", "down": "0"},
    accept="*/*",
    body=None,
)
@example(method="GET", place="", tail="%00", params={}, accept="text/html", body=None)
@example(
    method="POST",
    place="sparql",
    tail="",
    params={},
    accept="*/*",
    body=("application/sparql-query", b"x" * 5000),
)
def test_a_drawn_request_is_answered(
    live: str, client: httpx.Client, method, place, tail, params, accept, body
):
    content_type, content = body if body is not None else (None, None)
    headers = {"Accept": accept.encode()} | (
        {"Content-Type": content_type} if content_type is not None else {}
    )
    answered(client.request(method, live + place + tail, params=params, headers=headers, content=content))
    still_answers(client, live)


@bounded(80)
@given(
    file=st.sampled_from(QUERIES),
    data=st.data(),
    way=st.sampled_from(["GET", "form", "body"]),
    accept=ACCEPT,
    fmt=st.one_of(st.none(), choice("json", "xml", "csv", "tsv", "turtle", "text/csv")),
)
def test_a_mutated_query_is_answered_or_refused(
    live: str, client: httpx.Client, canary: Canary, file, data, way, accept, fmt
):
    """Each file of queries/ mutated, sent as the protocol allows: an answer or a 4xx; the canary a
    SERVICE names hears nothing."""
    text = mutated(file.read_text(encoding="utf-8"), data.draw(edits(sparql_tokens(canary.url))))
    params = {"format": fmt} if fmt is not None else {}
    headers = {"Accept": accept.encode()}
    url = live + "sparql"
    if way == "GET":
        response = client.get(url, params={"query": text, **params}, headers=headers)
    elif way == "form":
        response = client.post(url, data={"query": text, **params}, headers=headers)
    else:
        headers["Content-Type"] = "application/sparql-query"
        response = client.post(url, params=params, content=text.encode(), headers=headers)
    answered(response)
    assert canary.hits == []
    still_answers(client, live)


def form_fields(system: str) -> st.SearchStrategy[dict[str, str]]:
    """A reading form's fields: the chart of :data:`CHARTS` mostly, and drawn values of its options
    (test_fuzz's, the querent's, the topic; the checkbox with on, off or noise)."""
    options = cli_names(LIUYAO if system == "liuyao" else LIUREN) | cli_names(QUERENT[system])
    options["accept_inconsistent_pillars"] = choice("on", "off", "false", "1")
    drawn = st.lists(st.sampled_from(sorted(options)), unique=True, max_size=2).flatmap(
        lambda keys: st.fixed_dictionaries({key: options[key] for key in keys})
    )
    chart = {key: str(value) for key, value in CHARTS[system].items()}
    return st.tuples(mostly(st.just(chart), st.just({})), drawn).map(lambda parts: parts[0] | parts[1])


@bounded(40)
@given(
    case=per_system(form_fields),
    topic=mostly(TOPIC, st.none()),
    download=mostly(st.sampled_from(["", ".json", ".txt", ".svg", ".png", ".ttl", ".trig"]),
                    st.sampled_from([".zzz", ".", ".JSON"])),
    method=mostly(st.just("GET"), st.just("POST")),
)  # fmt: skip
def test_a_reading_form_is_answered(live: str, client: httpx.Client, case, topic, download, method):
    """GET (the form's method) and POST of the reading forms and their downloads."""
    system, fields = case
    fields = fields | ({"topic": topic} if topic is not None else {})
    url = f"{live}reading/{system}{download}"
    if method == "GET":
        response = client.get(url, params=fields)
    else:
        response = client.post(url, content=urlencode(fields).encode(),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
    answered(response)
    still_answers(client, live)


def test_the_workers_still_answer_afterwards(live: str, client: httpx.Client) -> None:
    """A query no answer is kept for (it calls RAND()): a worker evaluates it, after all the above."""
    query = "ASK { FILTER(RAND() < 2) }"
    response = client.get(live + "sparql", params={"query": query}, headers={"Accept": "text/csv"})
    assert response.status_code == 200 and response.text.strip() == "true", response.text
