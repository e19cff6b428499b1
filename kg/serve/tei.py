"""The texts as TEI P5: one document per work and edition, read from the built graph.

An edition is the Chinese text (``zh``, 原文) or its Korean rendering (``ko``, 韓譯) of one work,
identified like its URNs: ``urn:cts:divkg:yiyin.juan4.zh``. Its citable units are keyed by the
passage part of the URNs: paragraphs (段) ``6``; in the Chinese, sentences (句) and commentary
notes (注) ``6.3``, and the segments inside them ``6.3.1``.

A document has its teiHeader from the catalogue (title, responsibility, date, part, citation
form, witness), a ``<div type="section">`` per catalogue section with its heading, ``<p n>`` per
paragraph, and in the Chinese ``<s xml:id n>`` per sentence and ``<note xml:id n>`` per note, with
the exact characters of the source (never normalised): the text of a ``<p>`` is its paragraph.
A Korean ``<p>`` points at its Chinese paragraph by ``@corresp`` (the paragraph's URN).

``kg export tei DIR`` writes the eight documents (4 works × zh, ko).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import click

from kg.errors import InputError
from kg.match import KnowledgeGraph
from kg.paths import GRAPH

TEI = "http://www.tei-c.org/ns/1.0"
DTS = "https://w3id.org/api/dts#"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
LANGUAGES = {"zh": ("lzh-Hant", "Literary Chinese (原文)"), "ko": ("ko", "Korean rendering (韓譯)")}
TAGS = {"paragraph": "p", "sentence": "s", "note": "note"}
URN_SCHEME = "urn:cts:divkg:"
STRUCTURAL = {f"{{{TEI}}}{tag}" for tag in (
    "TEI", "teiHeader", "fileDesc", "titleStmt", "publicationStmt", "sourceDesc", "bibl", "encodingDesc",
    "segmentation", "refsDecl", "citeStructure", "profileDesc", "langUsage", "text", "body", "div",
)} | {f"{{{DTS}}}wrapper"}  # fmt: skip

ET.register_namespace("", TEI)
ET.register_namespace("dts", DTS)


@dataclass(eq=False)
class Unit:
    """A citable unit: a paragraph (段), a sentence (句) or a commentary note (注)."""

    ref: str
    kind: str
    iri: str
    urn: str
    text: str
    start: int
    parent: Unit | None = field(default=None, repr=False)
    children: list[Unit] = field(default_factory=list, repr=False)
    corresp: str | None = None

    @property
    def level(self) -> int:
        return self.ref.count(".") + 1

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Section:
    """A catalogue section: a range of paragraphs under one heading."""

    n: int
    heading: str
    paragraphs: list[Unit]


@dataclass
class Work:
    """A catalogued work as the graph records it."""

    iri: str
    urn: str
    title: str
    title_en: str
    responsibility: str
    dynasty: str
    date: str
    part: str
    citation: str
    witness: str
    heading_ko: str
    sha256: str


@dataclass
class Edition:
    """The Chinese text or the Korean rendering of one work, as a tree of citable units."""

    work: Work
    lang: str
    sections: list[Section]

    @property
    def id(self) -> str:
        """``urn:cts:divkg:yiyin.juan4.zh``."""
        return f"{self.work.urn}.{self.lang}"

    @property
    def xml_id(self) -> str:
        """The id as an XML name (``yiyin.juan4.zh``), the stem of every ``xml:id``."""
        return self.id.removeprefix(URN_SCHEME)

    @cached_property
    def units(self) -> list[Unit]:
        """Every unit in document order (pre-order, depth first)."""
        return [u for s in self.sections for p in s.paragraphs for u in p.walk()]

    @cached_property
    def by_ref(self) -> dict[str, Unit]:
        return {u.ref: u for u in self.units}

    def cite_structure(self) -> dict[str, dict]:
        """The kinds of unit at each level, nested: {'paragraph': {'sentence': {'note': {}}, …}}."""
        tree: dict[str, dict] = {}
        for unit in self.units:
            chain, node = [], unit
            while node is not None:
                chain.append(node.kind)
                node = node.parent
            level = tree
            for kind in reversed(chain):
                level = level.setdefault(kind, {})
        return tree

    def between(self, start: Unit, end: Unit) -> list[Unit]:
        """The largest units from ``start`` to ``end`` inclusive (with its descendants), in order."""
        span = self.units[self.units.index(start) : self.units.index(list(end.walk())[-1]) + 1]
        inside = set(span)
        whole = [u for u in span if inside.issuperset(u.walk())]
        kept = set(whole)
        return [u for u in whole if u.parent not in kept]


def _values(row: dict) -> dict[str, str]:
    return {k: t.value for k, t in row.items()}


def load_editions(kg: KnowledgeGraph) -> list[Edition]:
    """Every edition of every work of the graph: for each work, its Chinese, then its Korean."""
    works = [
        Work(**_values(row))
        for row in kg.query(
            """SELECT ?iri ?urn ?title ?title_en ?responsibility ?dynasty ?date ?part ?citation ?witness
                      ?heading_ko ?sha256 WHERE {
                 ?iri a dk:Work ; dk:urn ?urn ; dcterms:title ?title , ?title_en ; dk:responsibility ?responsibility ;
                   dk:dynasty ?dynasty ; dcterms:date ?date ; dk:part ?part ; dk:citation ?citation ;
                   dk:witness ?witness ; dk:heading ?heading_ko ; dk:sha256 ?sha256 .
                 FILTER(langMatches(lang(?title), 'zh-Hant') && langMatches(lang(?title_en), 'en')) } ORDER BY ?urn"""
        )
    ]
    sections = kg.query(
        """SELECT ?w ?s ?heading ?first WHERE {
             ?s a dk:Section ; dk:work ?w ; dk:heading ?heading ; dk:firstParagraph ?first } ORDER BY ?first"""
    )
    paragraphs = kg.query(
        """SELECT ?p ?s ?n ?text ?start ?urn ?k ?ktext ?kstart ?kurn WHERE {
             ?p a dk:Paragraph ; dk:section ?s ; dk:paragraphNumber ?n ; dk:text ?text ; dk:start ?start ;
               dk:urn ?urn ; dk:koreanRendering ?k . ?k dk:text ?ktext ; dk:start ?kstart ; dk:urn ?kurn }
           ORDER BY ?n"""
    )
    segments = kg.query(
        """SELECT ?g ?p ?up ?path ?kind ?text ?start ?urn WHERE {
             ?g dk:paragraph ?p ; dcterms:isPartOf ?up ; dk:segmentPath ?path ; a ?kind ; dk:text ?text ;
               dk:start ?start ; dk:urn ?urn . VALUES ?kind { dk:Sentence dk:Note } } ORDER BY ?start"""
    )
    units: dict[str, Unit] = {}
    zh: dict[str, list[Unit]] = {}
    ko: dict[str, list[Unit]] = {}
    for row in paragraphs:
        v = _values(row)
        units[v["p"]] = Unit(v["n"], "paragraph", v["p"], v["urn"], v["text"], int(v["start"]))
        zh.setdefault(v["s"], []).append(units[v["p"]])
        korean = Unit(v["n"], "paragraph", v["k"], v["kurn"], v["ktext"], int(v["kstart"]), corresp=v["urn"])
        ko.setdefault(v["s"], []).append(korean)
    for row in segments:
        v = _values(row)
        kind = "sentence" if v["kind"].endswith("Sentence") else "note"
        ref = f"{units[v['p']].ref}.{v['path']}"
        units[v["g"]] = Unit(ref, kind, v["g"], v["urn"], v["text"], int(v["start"]))
    for row in segments:
        child, parent = units[row["g"].value], units[row["up"].value]
        child.parent = parent
        parent.children.append(child)
    editions = []
    for work in works:
        mine = [r for r in sections if r["w"].value == work.iri]
        for lang, by_section in (("zh", zh), ("ko", ko)):
            parts = [Section(i, r["heading"].value, by_section[r["s"].value]) for i, r in enumerate(mine, 1)]
            editions.append(Edition(work, lang, parts))
    return editions


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{TEI}}}{tag}", attrs)
    element.text = text
    return element


def _header(edition: Edition) -> ET.Element:
    w, language = edition.work, LANGUAGES[edition.lang][1]
    header = ET.Element(f"{{{TEI}}}teiHeader")
    file_desc = _el(header, "fileDesc")
    title_stmt = _el(file_desc, "titleStmt")
    _el(title_stmt, "title", w.title, type="main", **{XML_LANG: "lzh-Hant"})
    _el(title_stmt, "title", w.title_en, type="alt", **{XML_LANG: "en"})
    _el(title_stmt, "title", language, type="sub", **{XML_LANG: "en"})
    _el(title_stmt, "author", w.responsibility)
    publication = _el(file_desc, "publicationStmt")
    _el(publication, "publisher", "divkg")
    _el(publication, "idno", edition.id, type="URN")
    _el(publication, "idno", w.iri, type="URI")
    bibl = _el(_el(file_desc, "sourceDesc"), "bibl")
    _el(bibl, "title", w.title)
    _el(bibl, "author", w.responsibility)
    _el(bibl, "date", f"{w.dynasty} · {w.date}")
    _el(bibl, "biblScope", w.part, unit="part")
    _el(bibl, "note", w.citation, type="citation")
    _el(bibl, "note", w.witness, type="witness")
    _el(bibl, "idno", w.sha256, type="sha256")
    encoding = _el(header, "encodingDesc")
    segmentation = "Paragraphs are the blocks of the source file."
    if edition.lang == "zh":
        segmentation += (
            " Sentences end at 。；？！ (with a closing quotation mark right after); a commentary note"
            " （…） standing between sentences is a note of its own, one inside a sentence stays in it."
            " The breaks are editorial; the characters are those of the source, never normalised."
        )
    _el(_el(encoding, "segmentation"), "p", segmentation)
    refs = _el(encoding, "refsDecl", default="true")
    _cite_structures(refs, edition.cite_structure(), outer=True)
    languages = _el(_el(header, "profileDesc"), "langUsage")
    _el(languages, "language", "Literary Chinese", ident="lzh-Hant")
    if edition.lang == "ko":
        _el(languages, "language", "Korean", ident="ko")
    return header


def _cite_structures(parent: ET.Element, tree: dict[str, dict], outer: bool = False) -> None:
    for kind, below in tree.items():
        attrs = {"unit": kind, "use": "@n"}
        attrs["match"] = "/TEI/text/body/div/p" if outer else TAGS[kind]
        if not outer:
            attrs["delim"] = "."
        _cite_structures(_el(parent, "citeStructure", **attrs), below)


def unit_element(edition: Edition, unit: Unit) -> ET.Element:
    """``<p>``, ``<s>`` or ``<note>`` for a unit, its children inside, its text exactly as in the source."""
    attrs = {"n": unit.ref.rsplit(".", 1)[-1], XML_ID: f"{edition.xml_id}.{unit.ref}"}
    if unit.corresp:
        attrs["corresp"] = unit.corresp
    if unit.kind == "note":
        attrs["type"] = "commentary"
    element = ET.Element(f"{{{TEI}}}{TAGS[unit.kind]}", attrs)
    cursor, last = unit.start, None
    for child in unit.children:
        between = unit.text[cursor - unit.start : child.start - unit.start] or None
        if last is None:
            element.text = between
        else:
            last.tail = between
        last = unit_element(edition, child)
        element.append(last)
        cursor = child.end
    rest = unit.text[cursor - unit.start :] or None
    if last is None:
        element.text = rest
    else:
        last.tail = rest
    return element


def document(edition: Edition, fragment: list[Unit] | None = None) -> ET.Element:
    """The TEI document of an edition, or of the units ``fragment`` inside a ``<dts:wrapper>``."""
    root = ET.Element(f"{{{TEI}}}TEI", {XML_LANG: LANGUAGES[edition.lang][0]})
    root.append(_header(edition))
    body = _el(_el(root, "text"), "body")
    if edition.lang == "ko":
        _el(body, "head", edition.work.heading_ko)
    if fragment is not None:
        wrapper = ET.SubElement(body, f"{{{DTS}}}wrapper")
        wrapper.extend(unit_element(edition, u) for u in fragment)
    for section in edition.sections if fragment is None else ():
        div = _el(body, "div", type="section", n=str(section.n))
        _el(div, "head", section.heading, **{XML_LANG: "lzh-Hant"})
        div.extend(unit_element(edition, p) for p in section.paragraphs)
    return root


def serialise(root: ET.Element) -> str:
    """XML text with one structural element a line; mixed content (``<p>``, ``<s>``, ``<note>``) untouched."""
    for element in root.iter():
        if element.tag in STRUCTURAL:
            element.text = element.text or ("\n" if len(element) else None)
            for child in element:
                child.tail = child.tail or "\n"
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


@click.group("export")
def export_group() -> None:
    """Export the texts in standard formats."""


@export_group.command("tei")
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
@click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True)
def tei_command(directory: Path, graph: Path) -> None:
    """Write one TEI P5 document per work and edition (zh, ko) into DIRECTORY.

    Example: kg export tei build/tei
    """
    editions = load_editions(KnowledgeGraph.load(graph))
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for edition in editions:
            path = directory / f"{edition.xml_id}.xml"
            path.write_text(serialise(document(edition)), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{directory}: cannot write the TEI documents ({exc.strerror})") from None
    click.echo(f"{len(editions)} TEI documents → {directory}")
