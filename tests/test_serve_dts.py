"""DTS 1.0 endpoints of ``kg serve`` and the TEI documents (``kg export tei``).

The required fields are those of the DTS 1.0 specification (https://dtsapi.org/versions/v1.0, the
tables "Scheme for Entry Endpoint Responses", "Scheme for Collection API Responses" and, under
the Navigation endpoint, "Navigation Object", "Resource", "CitationTree", "CiteStructure",
"CitableUnit"); the texts are those of corpus/sources, paragraph ¶n being block n of the file
and its Korean rendering block n+1.
"""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx
import pytest
import yaml
from click.testing import CliRunner

from kg.cli import main
from kg.serve.app import create_app
from kg.serve.graph import ServedGraph
from kg.serve.tei import Edition, Section, Unit, Work, document, serialise

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = yaml.safe_load((ROOT / "corpus" / "catalogue.yaml").read_text("utf-8"))["works"]
SERVER = "http://testserver/"
TEI = "{http://www.tei-c.org/ns/1.0}"
WRAPPER = "{https://w3id.org/api/dts#}wrapper"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
CONTEXT = "https://dtsapi.org/context/v1.0.json"
ZH = "urn:cts:divkg:yiyin.juan4.zh"
KO = "urn:cts:divkg:yiyin.juan4.ko"

# Required fields, from the specification's tables (Y, or "Y (if …)").
ENTRY = {"@id", "@type", "dtsVersion", "collection", "navigation", "document"}
COLLECTION = {"@id", "@type", "dtsVersion", "title", "totalParents", "totalChildren", "collection"}
RESOURCE = {"@id", "@type", "dtsVersion", "title", "totalParents", "collection", "navigation", "document"}
MEMBER_COLLECTION = COLLECTION - {"dtsVersion"}  # a member is not a response object
MEMBER_RESOURCE = RESOURCE - {"dtsVersion"}
NAVIGATION = {"@id", "@type", "dtsVersion", "resource"}
NAVIGATION_RESOURCE = {"@id", "@type", "collection", "navigation", "document", "citationTrees"}
CITATION_TREE = {"@type"}
CITE_STRUCTURE = {"citeType"}
CITABLE_UNIT = {"identifier", "@type", "level", "parent"}


def blocks(source: str) -> list[str]:
    return (ROOT / "corpus" / "sources" / source).read_text(encoding="utf-8").split("\n\n")


YIYIN = blocks("yiyin.txt")


def fetch(app, path: str) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=SERVER.rstrip("/")) as client:
            return await client.get(path)

    return asyncio.run(go())


def json_ld(app, path: str) -> dict:
    response = fetch(app, path)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/ld+json")
    body = response.json()
    assert body["@context"] == CONTEXT and body["dtsVersion"] == "1.0"
    return body


def check_structures(structures: list[dict]) -> None:
    for s in structures:
        assert s.keys() >= CITE_STRUCTURE
        check_structures(s.get("citeStructure", []))


@pytest.fixture(scope="module")
def app(built_graph: Path):
    return create_app(ServedGraph.load(built_graph.parent, SERVER))


def test_entry(app) -> None:
    body = json_ld(app, "/dts")
    assert body.keys() >= ENTRY and body["@type"] == "EntryPoint"
    assert body["collection"] == f"{SERVER}dts/collection{{?id,page,nav}}"
    assert body["navigation"] == f"{SERVER}dts/navigation{{?resource,ref,start,end,down,tree,page}}"
    assert body["document"] == f"{SERVER}dts/document{{?resource,ref,start,end,tree,mediaType}}"


def test_root_collection_has_the_four_works(app) -> None:
    body = json_ld(app, "/dts/collection")
    assert body.keys() >= COLLECTION and body["@type"] == "Collection"
    assert body["totalParents"] == 0 and body["totalChildren"] == len(CATALOGUE) == 4
    works = {f"urn:cts:divkg:{w['urn']}": w for w in CATALOGUE}
    assert {m["@id"] for m in body["member"]} == set(works)
    for member in body["member"]:
        assert member.keys() >= MEMBER_COLLECTION and member["@type"] == "Collection"
        assert member["title"] == works[member["@id"]]["title"] and member["totalChildren"] == 2


def test_a_work_has_two_editions(app) -> None:
    body = json_ld(app, "/dts/collection?id=urn:cts:divkg:yiyin.juan4")
    assert body.keys() >= COLLECTION
    assert [m["@id"] for m in body["member"]] == [ZH, KO]
    for member in body["member"]:
        assert member.keys() >= MEMBER_RESOURCE and member["@type"] == "Resource"
        assert member["mediaTypes"] == ["application/tei+xml"]
        for tree in member["citationTrees"]:
            assert tree.keys() >= CITATION_TREE
            check_structures(tree["citeStructure"])
    zh, ko = body["member"]
    assert zh["dublinCore"]["language"] == ["lzh-Hant"] and ko["dublinCore"]["language"] == ["ko"]
    assert [s["citeType"] for s in ko["citationTrees"][0]["citeStructure"]] == ["paragraph"]


def test_resource_and_its_parent(app) -> None:
    body = json_ld(app, f"/dts/collection?id={ZH}")
    assert body.keys() >= RESOURCE and body["@type"] == "Resource"
    assert body["member"] == []
    parents = json_ld(app, f"/dts/collection?id={ZH}&nav=parents")["member"]
    assert [p["@id"] for p in parents] == ["urn:cts:divkg:yiyin.juan4"]
    assert fetch(app, "/dts/collection?id=urn:cts:divkg:nothing").status_code == 404


def test_navigation_down_to_sentences(app) -> None:
    body = json_ld(app, f"/dts/navigation?resource={ZH}&down=2")
    assert body.keys() >= NAVIGATION and body["@type"] == "Navigation"
    assert body["resource"].keys() >= NAVIGATION_RESOURCE
    members = body["member"]
    for m in members:
        assert m.keys() >= CITABLE_UNIT and m["@type"] == "CitableUnit"
    paragraphs = [m["identifier"] for m in members if m["level"] == 1]
    assert paragraphs == [str(n) for n in range(2, len(YIYIN), 2)]  # the even blocks are the Chinese
    # ¶6 read by hand: seven sentences ending in 。 and the note （用鄒道岸法推之極驗。）
    under_6 = [m for m in members if m["parent"] == "6"]
    assert [m["identifier"] for m in under_6] == [f"6.{k}" for k in range(1, 9)]
    assert [m["citeType"] for m in under_6] == ["sentence"] * 7 + ["note"]
    assert members.index(under_6[0]) == members.index(next(m for m in members if m["identifier"] == "6")) + 1
    assert not [m for m in members if m["level"] > 2]


def test_navigation_ref_and_depths(app) -> None:
    body = json_ld(app, f"/dts/navigation?resource={ZH}&ref=6.3")
    assert body["ref"] == {
        "identifier": "6.3",
        "@type": "CitableUnit",
        "level": 2,
        "parent": "6",
        "citeType": "sentence",
        "@id": f"{SERVER}source/yiyin/zh/6/3",
        "dublinCore": {"identifier": ["urn:cts:divkg:yiyin.juan4.zh:6.3"]},
    }
    assert "member" not in body
    ref_6 = json_ld(app, f"/dts/navigation?resource={ZH}&ref=6&down=1")["member"]
    assert [m["identifier"] for m in ref_6] == ["6"] + [f"6.{k}" for k in range(1, 9)]
    siblings = json_ld(app, f"/dts/navigation?resource={ZH}&ref=6.3&down=0")["member"]
    assert [m["identifier"] for m in siblings] == [f"6.{k}" for k in range(1, 9)]
    # ¶2: 三木並見（木宮木爻木合），樓閣重重也。 — a note inside the sixth sentence
    deep = json_ld(app, f"/dts/navigation?resource={ZH}&ref=2.6&down=-1")["member"]
    assert [(m["identifier"], m["level"], m["parent"], m["citeType"]) for m in deep] == [
        ("2.6", 2, "2", "sentence"),
        ("2.6.1", 3, "2.6", "note"),
    ]
    span = json_ld(app, f"/dts/navigation?resource={ZH}&start=6.7&end=8.1")
    assert (
        span["start"]["identifier"] == "6.7" and span["end"]["identifier"] == "8.1" and "member" not in span
    )
    ranged = json_ld(app, f"/dts/navigation?resource={ZH}&start=6.7&end=8.1&down=1")["member"]
    assert [m["identifier"] for m in ranged] == ["6.7", "6.8", "8", "8.1"]


def test_navigation_korean_is_paragraphs(app) -> None:
    members = json_ld(app, f"/dts/navigation?resource={KO}&down=-1")["member"]
    assert [m["identifier"] for m in members] == [str(n) for n in range(2, len(YIYIN), 2)]
    assert {m["citeType"] for m in members} == {"paragraph"} and {m["parent"] for m in members} == {None}


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("", 400),  # no resource
        (f"resource={ZH}", 400),  # neither ref, start/end nor down
        (f"resource={ZH}&down=0", 400),
        (f"resource={ZH}&ref=6&start=6.1&end=6.2", 400),
        (f"resource={ZH}&start=6.1", 400),
        (f"resource={ZH}&start=6.1&end=6.2&down=0", 400),
        (f"resource={ZH}&ref=6&down=two", 400),
        (f"resource={ZH}&ref=7", 404),  # ¶7 is a Korean block, not a Chinese paragraph
        (f"resource={ZH}&ref=6&tree=pages", 404),
        ("resource=urn:cts:divkg:yiyin.juan4.en&ref=6", 404),
    ],
)
def test_navigation_errors(app, query: str, status: int) -> None:
    assert fetch(app, f"/dts/navigation?{query}").status_code == status


def tei(response: httpx.Response) -> ET.Element:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/tei+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{TEI}TEI"
    return root


def test_document_of_a_sentence(app) -> None:
    response = fetch(app, f"/dts/document?resource={ZH}&ref=6.3")
    assert response.headers["link"] == f'<{SERVER}dts/collection?id={ZH}>; rel="collection"'
    root = tei(response)
    wrapper = root.find(f"{TEI}text/{TEI}body/{WRAPPER}")
    (sentence,) = list(wrapper)
    assert sentence.tag == f"{TEI}s" and sentence.get("n") == "3"
    assert sentence.get(XML_ID) == "yiyin.juan4.zh.6.3"
    assert "".join(sentence.itertext()) == "父下伏水鬼，棟必漏也。"
    assert "父下伏水鬼，棟必漏也。" in YIYIN[5]


def test_document_of_a_paragraph_and_its_korean(app) -> None:
    (paragraph,) = tei(fetch(app, f"/dts/document?resource={ZH}&ref=6")).find(f".//{WRAPPER}")
    assert paragraph.tag == f"{TEI}p" and "".join(paragraph.itertext()) == YIYIN[5]
    (korean,) = tei(fetch(app, f"/dts/document?resource={KO}&ref=6")).find(f".//{WRAPPER}")
    assert "".join(korean.itertext()) == YIYIN[6]
    assert korean.get("corresp") == "urn:cts:divkg:yiyin.juan4.zh:6"


def test_document_of_a_range(app) -> None:
    wrapper = tei(fetch(app, f"/dts/document?resource={ZH}&start=6.7&end=8")).find(f".//{WRAPPER}")
    assert [(e.tag.removeprefix(TEI), e.get("n")) for e in wrapper] == [("s", "7"), ("note", "8"), ("p", "8")]
    assert "".join(wrapper[2].itertext()) == YIYIN[7]


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("", 400),
        ("resource=urn:cts:divkg:nothing.zh", 404),
        (f"resource={ZH}&mediaType=text/html", 404),
        (f"resource={ZH}&ref=6.99", 404),
        (f"resource={ZH}&start=8&end=6", 400),
        (f"resource={ZH}&ref=6&tree=pages", 404),
    ],
)
def test_document_errors(app, query: str, status: int) -> None:
    assert fetch(app, f"/dts/document?{query}").status_code == status


def test_whole_document_is_the_text(app) -> None:
    root = tei(fetch(app, f"/dts/document?resource={ZH}&tree=pages"))  # no ref: the tree has no effect
    paragraphs = root.findall(f"{TEI}text/{TEI}body/{TEI}div/{TEI}p")
    assert [p.get("n") for p in paragraphs] == [str(n) for n in range(2, len(YIYIN), 2)]
    for p in paragraphs:
        assert "".join(p.itertext()) == YIYIN[int(p.get("n")) - 1]


def test_export_tei(built_graph: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "tei", str(tmp_path), "--graph", str(built_graph)])
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.glob("*.xml"))) == 2 * len(CATALOGUE)
    for work in CATALOGUE:
        source = blocks(work["source"])
        zh = ET.parse(tmp_path / f"{work['urn']}.zh.xml").getroot()
        ko = ET.parse(tmp_path / f"{work['urn']}.ko.xml").getroot()
        assert zh.tag == ko.tag == f"{TEI}TEI"
        assert zh.find(f".//{TEI}titleStmt/{TEI}title").text == work["title"]
        assert zh.find(f".//{TEI}sourceDesc//{TEI}note[@type='witness']").text == work["witness"]
        headings = [h.text for h in zh.findall(f"{TEI}text/{TEI}body/{TEI}div/{TEI}head")]
        assert headings == [s["heading"] for s in work["sections"]]
        paragraphs = zh.findall(f"{TEI}text/{TEI}body/{TEI}div/{TEI}p")
        assert len(paragraphs) == len(source) // 2
        for p in paragraphs:
            n = int(p.get("n"))
            assert {c.tag for c in p} <= {f"{TEI}s", f"{TEI}note"}
            assert not (p.text or "").strip() and all(not (c.tail or "") for c in p)
            assert "".join("".join(c.itertext()) for c in p) == source[n - 1], (work["id"], n)
        for p in ko.findall(f"{TEI}text/{TEI}body/{TEI}div/{TEI}p"):
            n = int(p.get("n"))
            assert p.text == source[n] and p.get("corresp") == f"urn:cts:divkg:{work['urn']}.zh:{n}"


def test_tei_keeps_characters_as_written() -> None:
    """A compatibility ideograph (U+F900 豈) and a decomposable form survive; nothing is NFC-normalised."""
    text = "\uf900見\u0041\u030a。"
    work = Work(*["x"] * 12)
    paragraph = Unit("2", "paragraph", "iri", "urn", text, 0)
    paragraph.children.append(Unit("2.1", "sentence", "iri", "urn", text, 0, paragraph))
    xml = serialise(document(Edition(work, "zh", [Section(1, "heading", [paragraph])])))
    root = ET.fromstring(xml)
    (s,) = root.iter(f"{TEI}s")
    assert s.text == text and s.text != "豈見Å。"
