"""Linked Data pages of ``kg serve``: the 303 and content negotiation, the rule, concept, passage and
work pages, error answers, and a server behind a proxy (``--base``).

Expected texts come from the source file (《易隱》 ¶6 is block 6 of corpus/sources/yiyin.txt, its
Korean rendering block 7) and from corpus/catalogue.yaml.
"""

from __future__ import annotations

import asyncio
import html
from pathlib import Path

import httpx
import pytest
import yaml
from rdflib import Graph, Literal, Namespace, URIRef

from kg.cite import Resolver, render
from kg.serve import linked_data
from kg.serve.app import create_app
from kg.serve.graph import ServedGraph
from kg.vocabulary import BASE

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (ROOT / "corpus" / "sources" / "yiyin.txt").read_text(encoding="utf-8")
BLOCKS = SOURCE.split("\n\n")
CATALOGUE = {
    w["id"]: w for w in yaml.safe_load((ROOT / "corpus" / "catalogue.yaml").read_text("utf-8"))["works"]
}
SERVER = "http://testserver/"
QUOTE = "父下伏水鬼，棟必漏也。"  # 《易隱》卷四〈家宅占〉棟樑 ¶6, its third sentence
PARAGRAPH_6 = BLOCKS[5]  # ¶n is block n of the file (1-based); its Korean rendering is block n+1
KOREAN_6 = BLOCKS[6]
RULE = "rule/yiyin.dongliang.leak"
OA = Namespace("http://www.w3.org/ns/oa#")
DK = Namespace(SERVER)


def fetch(app, path: str, accept: str | None = None, follow: bool = False) -> httpx.Response:
    """One GET through httpx's ASGI transport."""

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=SERVER.rstrip("/")) as client:
            headers = {"accept": accept} if accept else {}
            return await client.get(path, headers=headers, follow_redirects=follow)

    return asyncio.run(go())


def text_of(response: httpx.Response) -> str:
    """The page with HTML entities resolved, so texts compare character for character."""
    return html.unescape(response.text)


@pytest.fixture(scope="module")
def served(built_graph: Path) -> ServedGraph:
    return ServedGraph.load(built_graph.parent, SERVER)


@pytest.fixture(scope="module")
def app(served: ServedGraph):
    return create_app(served)


def test_the_quote_is_in_the_source() -> None:
    assert QUOTE in PARAGRAPH_6
    assert PARAGRAPH_6.startswith("父加蛇水動，棟下漏也。")
    assert KOREAN_6.startswith("부모효에 「등사」의 수효를 더하여 발동하는 것은")


@pytest.mark.parametrize(
    ("accept", "suffix"),
    [
        ("text/turtle", "ttl"),
        ("application/ld+json", "jsonld"),
        ("text/html", "html"),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "html"),
        ("text/html;q=0.5, text/turtle", "ttl"),
        ("*/*", "html"),
        (None, "html"),
    ],
)
def test_a_thing_answers_303_to_its_description(app, accept: str | None, suffix: str) -> None:
    response = fetch(app, f"/{RULE}", accept)
    assert response.status_code == 303
    assert response.headers["location"] == f"{SERVER}{RULE}.{suffix}"
    assert "accept" in response.headers["vary"].lower()


def test_format_parameter_overrides_accept(app) -> None:
    response = fetch(app, f"/{RULE}?format=jsonld", "text/html")
    assert response.status_code == 303
    assert response.headers["location"] == f"{SERVER}{RULE}.jsonld"
    assert fetch(app, f"/{RULE}?format=xml").status_code == 400
    assert fetch(app, f"/{RULE}", "image/png").status_code == 406


def test_rule_turtle_through_the_303(app) -> None:
    response = fetch(app, f"/{RULE}", "text/turtle", follow=True)
    assert response.status_code == 200
    assert str(response.url) == f"{SERVER}{RULE}.ttl"
    assert response.headers["content-type"].startswith("text/turtle")
    g = Graph().parse(data=response.text, format="turtle")
    rule = URIRef(SERVER + RULE)
    (anchor,) = g.objects(rule, DK.anchor)
    selectors = set(g.objects(anchor, OA.hasSelector))
    assert Literal(QUOTE) in {o for s in selectors for o in g.objects(s, OA.exact)}
    start = SOURCE.index(QUOTE)  # the TextPositionSelector counts code points of the file
    assert {int(o) for s in selectors for o in g.objects(s, OA.start)} == {start}
    assert {int(o) for s in selectors for o in g.objects(s, OA.end)} == {start + len(QUOTE)}
    assert (anchor, DK.paragraph, URIRef(SERVER + "source/yiyin/zh/6")) in g


def test_rule_json_ld(app) -> None:
    response = fetch(app, f"/{RULE}.jsonld")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/ld+json")
    g = Graph().parse(data=response.text, format="json-ld")
    assert Literal(QUOTE) in set(g.objects(None, OA.exact))


def test_rule_page(app, served: ServedGraph) -> None:
    response = fetch(app, f"/{RULE}", follow=True)
    assert response.status_code == 200
    page = text_of(response)
    assert f'<mark class="quote">{QUOTE}</mark>' in page
    before, _, after = PARAGRAPH_6.partition(QUOTE)
    assert f"{before}<mark" in page and f"</mark>{after}" in page
    assert KOREAN_6 in page
    citation = Resolver(served.kg).cite("yiyin.dongliang.leak")
    bibtex = render(citation, "bibtex")
    assert bibtex.startswith("@inbook{yiyin_dongliang_leak,") and "title = {{易隱}}" in bibtex
    for fmt in ("text", "bibtex", "csl-json", "ris"):
        assert render(citation, fmt) in page
    for concept in ("relative/fumu", "element/water", "relative/guangui"):  # 父母, 水, 官鬼 of the quote
        assert f'href="{SERVER}concept/{concept}"' in page
    assert '<th>Wording</th><td lang="zh-Hant">棟必漏</td>' in page  # 棟必漏也 of the quote
    assert f'<a href="{SERVER}concept/polarity/xiong" title="pol:xiong">凶</a>' in page
    assert "SELECT ?reading ?H ?L WHERE" in page
    assert f'href="{SERVER}rule/yiyin.dongliang.snake-water-leak"' in page  # 父加蛇水動，棟下漏也。 of ¶6


def test_a_document_is_made_once(served: ServedGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    """The graph is read-only: a page made once is answered again from memory, the least recently
    asked for dropped past DOCUMENTS (two here)."""
    monkeypatch.setattr(linked_data, "DOCUMENTS", 2)
    pages = linked_data.Pages(served)
    made: list[str] = []
    context = pages.context
    monkeypatch.setattr(pages, "context", lambda iri: made.append(iri) or context(iri))
    rule, concept, work = (BASE + path for path in (RULE, "concept/beast/baihu", "source/yiyin"))
    first = pages.document(rule, "html")
    assert f'<mark class="quote">{QUOTE}</mark>' in html.unescape(first.decode())
    assert pages.document(rule, "html") == first and made == [rule]
    pages.document(concept, "html")
    pages.document(work, "html")
    assert pages.document(rule, "html") == first and made == [rule, concept, work, rule]


def test_rule_conditions_in_words(app) -> None:
    page = text_of(fetch(app, f"/{RULE}.html"))
    assert "L: relative (六親) is " in page and "H under L" in page
    assert "<b>H</b> a hidden-line (伏神)" in page


def test_concept_page_baihu(app) -> None:
    response = fetch(app, "/concept/beast/baihu", "text/html", follow=True)
    assert response.status_code == 200
    page = text_of(response)
    for label in ("白虎", "虎", "백호", "White Tiger"):  # 虎: the variant (abbreviated) form
        assert f">{label}</td>" in page
    assert "altLabel" in page
    assert f'href="{SERVER}BeastScheme"' in page
    quote = "木遇虎而罄廢。"  # 《易隱》〈比鄰〉
    assert quote in SOURCE
    assert f'href="{SERVER}rule/yiyin.bilin.ruined"' in page and quote in page


def test_sentence_page_by_urn(app) -> None:
    response = fetch(app, "/urn:cts:divkg:yiyin.juan4.zh:6.3")
    assert response.status_code == 303
    assert response.headers["location"] == f"{SERVER}source/yiyin/zh/6/3.html"
    page = text_of(fetch(app, "/urn:cts:divkg:yiyin.juan4.zh:6.3", follow=True))
    assert f'<blockquote class="passage" lang="zh-Hant">{QUOTE}</blockquote>' in page
    start = SOURCE.index(QUOTE)
    assert f"{start}–{start + len(QUOTE)}" in page
    assert KOREAN_6 in page
    assert f'href="{SERVER}{RULE}"' in page


def test_paragraph_and_korean_pages(app) -> None:
    paragraph = text_of(fetch(app, "/source/yiyin/zh/6.html"))
    assert PARAGRAPH_6 in paragraph and KOREAN_6 in paragraph
    start = SOURCE.index(PARAGRAPH_6)
    assert f"{start}–{start + len(PARAGRAPH_6)}" in paragraph
    korean = text_of(fetch(app, "/source/yiyin/ko/6.html"))
    assert KOREAN_6 in korean and "urn:cts:divkg:yiyin.juan4.ko:6" in korean


def test_work_page(app) -> None:
    entry = CATALOGUE["yiyin"]
    page = text_of(fetch(app, "/source/yiyin.html"))
    for key in ("title", "responsibility", "dynasty", "part", "citation", "witness"):
        assert entry[key] in page, key
    for section in entry["sections"]:
        first, last = section["paragraphs"]
        assert section["heading"] in page
        assert f"¶{first}–¶{last}" in page


def test_home_page(app) -> None:
    page = text_of(fetch(app, "/"))
    for entry in CATALOGUE.values():
        assert f'href="{SERVER}source/{entry["id"]}"' in page and entry["title"] in page
    assert f'href="{SERVER}sparql"' in page and f'href="{SERVER}dts"' in page
    assert f'href="{SERVER}BeastScheme"' in page


@pytest.mark.parametrize(
    "path",
    [
        "/rule/no.such.rule",
        "/rule/no.such.rule.ttl",
        "/concept/beast/qilin.html",
        "/urn:cts:divkg:yiyin.juan4.zh:6.99",
    ],
)
def test_unknown_iri_is_a_clear_404(app, path: str) -> None:
    response = fetch(app, path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "Not found" in response.text and "Traceback" not in response.text


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/rule/%2e%2e/%2e%2e/etc/passwd", 400),
        ("/source/yiyin/zh/%2e/6", 400),
        ("/rule/yiyin%00.dongliang.leak", 400),
        ("/rule/yiyin%1b.dongliang.leak", 400),
        ("/rule/yiyin%0a.dongliang.leak", 404),  # no route matches a newline: Starlette's own 404
        ("/rule/%3Cscript%3E", 400),
        ("/rule/" + "x" * 600, 414),
    ],
)
def test_hostile_paths_are_refused(app, path: str, status: int) -> None:
    response = fetch(app, path)
    assert response.status_code == status
    assert "Traceback" not in response.text


def test_behind_a_proxy(built_graph: Path) -> None:
    base = "http://example.org/divkg/"
    app = create_app(ServedGraph.load(built_graph.parent, base))
    response = fetch(app, f"/{RULE}", "text/html")
    assert response.headers["location"] == f"{base}{RULE}.html"
    page = fetch(app, f"/{RULE}.html").text
    assert f'href="{base}concept/relative/fumu"' in page
    assert 'href="/divkg/static/divkg.css"' in page
    g = Graph().parse(data=fetch(app, f"/{RULE}.ttl").text, format="turtle")
    iris = {str(t) for triple in g for t in triple if isinstance(t, URIRef)}
    assert f"{base}{RULE}" in iris
    assert not [i for i in iris if i.startswith("https://w3id.org/divkg/")]
