"""DTS 1.0 (Distributed Text Services, https://dtsapi.org/versions/v1.0): the texts by citation.

Entry ``/dts``; Collection ``/dts/collection``, Navigation ``/dts/navigation``, Document
``/dts/document``, all answering from the editions of :mod:`kg.serve.tei` (read from the graph).
Identifiers are those of the URNs: the root collection ``urn:cts:divkg``, a work
``urn:cts:divkg:yiyin.juan4`` (a Collection), its editions ``…yiyin.juan4.zh`` (原文) and
``…yiyin.juan4.ko`` (韓譯) as Resources. A Resource has one citation tree: paragraph (``6``) →
sentence or note (``6.3``) → the segments inside them (``6.3.1``) for the Chinese, paragraphs
for the Korean. A CitableUnit's ``@id`` is its Linked Data page. Documents are TEI P5 (the only
media type), a ref or a range inside ``<dts:wrapper>``. Level 1: ``start``/``end`` are supported.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from kg.serve.graph import ServedGraph
from kg.serve.tei import LANGUAGES, Edition, Unit, document, load_editions, serialise

CONTEXT = "https://dtsapi.org/context/v1.0.json"
VERSION = "1.0"
ROOT = "urn:cts:divkg"
JSON_LD = "application/ld+json"
TEI_XML = "application/tei+xml"
TITLE = "divkg: classical Chinese divination manuals (六爻, 大六壬)"


class DtsError(Exception):
    """A request the specification answers with a 4xx status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Dts:
    """The four endpoints over the editions of one served graph."""

    def __init__(self, graph: ServedGraph) -> None:
        self.graph = graph
        self.editions = {e.id: e for e in load_editions(graph.kg)}
        self.works: dict[str, list[Edition]] = {}
        for e in self.editions.values():
            self.works.setdefault(e.work.urn, []).append(e)
        self.endpoint = graph.base + "dts"

    # ── objects ──────────────────────────────────────────────────────────────────────────
    def _top(self, body: dict) -> dict:
        """A response object: the DTS context and version first."""
        return {"@context": CONTEXT, "dtsVersion": VERSION, **body}

    def _root(self) -> dict:
        return {
            "@id": ROOT,
            "@type": "Collection",
            "title": TITLE,
            "totalParents": 0,
            "totalChildren": len(self.works),
            "collection": f"{self.endpoint}/collection{{?id,page,nav}}",
        }

    def _work(self, urn: str) -> dict:
        w = self.works[urn][0].work
        return {
            "@id": urn,
            "@type": "Collection",
            "title": w.title,
            "description": w.citation,
            "totalParents": 1,
            "totalChildren": len(self.works[urn]),
            "collection": f"{self.endpoint}/collection?id={urn}{{&page,nav}}",
            "dublinCore": {
                "title": [{"lang": "lzh-Hant", "value": w.title}, {"lang": "en", "value": w.title_en}],
                "creator": [{"lang": "lzh-Hant", "value": w.responsibility}],
                "date": [{"lang": "lzh-Hant", "value": f"{w.dynasty} · {w.date}"}],
                "bibliographicCitation": [{"lang": "lzh-Hant", "value": w.citation}],
                "source": [{"lang": "lzh-Hant", "value": w.witness}],
                "identifier": [self.graph.local(w.iri)],
            },
        }

    def _resource(self, e: Edition) -> dict:
        lang, language = LANGUAGES[e.lang]
        ident = e.id
        return {
            "@id": e.id,
            "@type": "Resource",
            "title": f"{e.work.title} · {language}",
            "totalParents": 1,
            "totalChildren": 0,
            "collection": f"{self.endpoint}/collection?id={ident}{{&nav}}",
            "navigation": f"{self.endpoint}/navigation?resource={ident}{{&ref,down,start,end,tree,page}}",
            "document": f"{self.endpoint}/document?resource={ident}{{&ref,start,end,tree,mediaType}}",
            "download": f"{self.endpoint}/document?resource={ident}",
            "mediaTypes": [TEI_XML],
            "citationTrees": [
                {"@type": "CitationTree", "citeStructure": _cite_structures(e.cite_structure())}
            ],
            "dublinCore": {"language": [lang], "isVersionOf": [self.graph.local(e.work.iri)]},
        }

    def _unit(self, u: Unit) -> dict:
        """A CitableUnit: a paragraph (段), sentence (句) or note (注), linked to its page and URN."""
        return {
            "identifier": u.ref,
            "@type": "CitableUnit",
            "level": u.level,
            "parent": u.parent.ref if u.parent else None,
            "citeType": u.kind,
            "@id": self.graph.local(u.iri),
            "dublinCore": {"identifier": [u.urn]},
        }

    def _edition(self, params: QueryParams) -> Edition:
        ident = params.get("resource")
        if not ident:
            raise DtsError(400, "give the resource, e.g. resource=urn:cts:divkg:yiyin.juan4.zh")
        if ident not in self.editions:
            raise DtsError(404, f"no resource {ident!r}; the resources are {', '.join(self.editions)}")
        return self.editions[ident]

    @staticmethod
    def _tree(params: QueryParams) -> None:
        if params.get("tree"):
            raise DtsError(
                404, f"no citation tree {params['tree']!r}: each resource has only its default tree"
            )

    def _refs(self, e: Edition, params: QueryParams) -> tuple[Unit | None, Unit | None, Unit | None]:
        """``ref``, ``start``, ``end`` as units, after the specification's checks on their combination."""
        ref, start, end = (params.get(k) for k in ("ref", "start", "end"))
        if ref and (start or end):
            raise DtsError(400, "ref cannot be combined with start or end")
        if bool(start) != bool(end):
            raise DtsError(400, "start and end go together")
        found = []
        for value in (ref, start, end):
            if value and value not in e.by_ref:
                raise DtsError(404, f"no citable unit {value!r} in {e.id}")
            found.append(e.by_ref[value] if value else None)
        ref_unit, start_unit, end_unit = found
        if start_unit and e.units.index(start_unit) > e.units.index(end_unit):
            raise DtsError(400, f"start {start} comes after end {end}")
        return ref_unit, start_unit, end_unit

    # ── endpoints ────────────────────────────────────────────────────────────────────────
    def entry(self, request: Request) -> dict:
        return self._top(
            {
                "@id": self.endpoint,
                "@type": "EntryPoint",
                "collection": f"{self.endpoint}/collection{{?id,page,nav}}",
                "navigation": f"{self.endpoint}/navigation{{?resource,ref,start,end,down,tree,page}}",
                "document": f"{self.endpoint}/document{{?resource,ref,start,end,tree,mediaType}}",
            }
        )

    def collection(self, request: Request) -> dict:
        params = request.query_params
        ident = params.get("id") or ROOT
        parents = params.get("nav", "children")
        if parents not in ("children", "parents"):
            raise DtsError(400, "nav is children or parents")
        if ident == ROOT:
            body, children, up = self._root(), [self._work(u) for u in self.works], []
        elif ident in self.works:
            body = self._work(ident)
            children, up = [self._resource(e) for e in self.works[ident]], [self._root()]
        elif ident in self.editions:
            body, children, up = (
                self._resource(self.editions[ident]),
                [],
                [self._work(ident.rsplit(".", 1)[0])],
            )
        else:
            raise DtsError(404, f"no collection or resource {ident!r}")
        return self._top({**body, "member": up if parents == "parents" else children})

    def navigation(self, request: Request) -> dict:
        params = request.query_params
        e = self._edition(params)
        self._tree(params)
        ref, start, end = self._refs(e, params)
        down = params.get("down")
        try:
            depth = None if down is None else int(down)
        except ValueError:
            raise DtsError(400, f"down must be an integer, got {down!r}") from None
        if depth is not None and depth < -1:
            raise DtsError(400, "down is -1 (to the bottom), 0 (siblings) or a positive depth")
        if not (ref or start) and not depth:
            raise DtsError(400, "give ref, start and end, or down (a depth, or -1)")
        if depth == 0 and start:
            raise DtsError(400, "down=0 (the siblings of a unit) needs ref, not a range")
        body = {"@id": self._request_url(request), "@type": "Navigation", "resource": self._resource(e)}
        for key, unit in (("ref", ref), ("start", start), ("end", end)):
            if unit:
                body[key] = self._unit(unit)
        if depth is not None:
            body["member"] = [self._unit(u) for u in _members(e, ref, start, end, depth)]
        return self._top(body)

    def document(self, request: Request) -> Response:
        params = request.query_params
        e = self._edition(params)
        media = params.get("mediaType")
        if media and media != TEI_XML:
            raise DtsError(404, f"no media type {media!r}: the documents are {TEI_XML}")
        ref, start, end = self._refs(e, params)
        if ref or start:  # without them the tree has no effect (the specification's Usages)
            self._tree(params)
        fragment = [ref] if ref else e.between(start, end) if start else None
        link = f'<{self.endpoint}/collection?id={e.id}>; rel="collection"'
        return Response(
            serialise(document(e, fragment)),
            media_type=f"{TEI_XML}; charset=utf-8",
            headers={"Link": link},
        )

    def _request_url(self, request: Request) -> str:
        url = self.graph.base + request.url.path.lstrip("/")
        return f"{url}?{request.url.query}" if request.url.query else url


def _cite_structures(tree: dict[str, dict]) -> list[dict]:
    structures = []
    for kind, below in tree.items():
        structure = {"@type": "CiteStructure", "citeType": kind}
        if below:
            structure["citeStructure"] = _cite_structures(below)
        structures.append(structure)
    return structures


def _members(e: Edition, ref: Unit | None, start: Unit | None, end: Unit | None, depth: int) -> list[Unit]:
    """The ``member`` array of a Navigation answer (the specification's table of down/ref/start/end)."""
    if depth == 0:
        return ref.parent.children if ref.parent else [u for u in e.units if u.parent is None]
    if ref:
        span, top = list(ref.walk()), ref.level
    elif start:
        span = e.units[e.units.index(start) : e.units.index(list(end.walk())[-1]) + 1]
        top = max(start.level, end.level)
    else:
        span, top = e.units, 0
    return [u for u in span if depth == -1 or u.level <= top + depth]


def routes(graph: ServedGraph) -> list[BaseRoute]:
    dts = Dts(graph)

    def answer(make: Callable[[Request], dict | Response]) -> Callable[[Request], Response]:
        def endpoint(request: Request) -> Response:
            try:
                result = make(request)
            except DtsError as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status, media_type=JSON_LD)
            return result if isinstance(result, Response) else JSONResponse(result, media_type=JSON_LD)

        return endpoint

    return [
        Route("/dts", answer(dts.entry)),
        Route("/dts/collection", answer(dts.collection)),
        Route("/dts/navigation", answer(dts.navigation)),
        Route("/dts/document", answer(dts.document)),
    ]
