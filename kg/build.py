"""``kg build``: ontology + corpus + rules → ``build/kg.nq`` (named graphs) and ``build/kg.ttl``,
with the index retrieval reads from them cached beside them (``build/kg.index.marshal``, :mod:`kg.match`).

Output is deterministic (sorted N-Quads, no blank nodes) and written atomically: everything is
compiled and serialised in memory first, then written to a new snapshot directory that one
rename puts in place (:func:`write_atomically`), so a failed or interrupted build leaves the
previous one intact and no reader sees files of two builds.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS, SKOS, XSD

from kg.compile import KINDS, CompiledRule, RuleCompiler, Unencoded, template_id
from kg.corpus import Segment, works
from kg.errors import InputError
from kg.liuyao.hexagrams import HEXAGRAMS
from kg.match import INDEX_FILE, index_file
from kg.paths import BUILD, RULES
from kg.vocabulary import DK, PREFIXES, SYSTEMS, concept, vocabulary

PROV = "http://www.w3.org/ns/prov#"
OA = "http://www.w3.org/ns/oa#"
DCT = "http://purl.org/dc/terms/"
GRAPHS = {name: URIRef(f"{DK}graph/{name}") for name in ("ontology", "corpus", "rules")}


def _u(base: str, local: str) -> URIRef:
    return URIRef(base + local)


def src(local: str) -> URIRef:
    return URIRef(f"{PREFIXES['src']}{local}")


def doctrine_graph() -> Graph:
    """Facts of concepts computed by the doctrine tables (kg/ganzhi.py, kg/liuyao/hexagrams.py)."""
    from kg.ganzhi import Branch, Stem

    g = Graph()
    for s in Stem:
        g.add((concept("stem", s.slug), DK.element, concept("el", s.element.slug)))
        g.add((concept("stem", s.slug), DK.yinYang, concept("yy", "yang" if s.is_yang else "yin")))
    for b in Branch:
        g.add((concept("br", b.slug), DK.element, concept("el", b.element.slug)))
        g.add((concept("br", b.slug), DK.yinYang, concept("yy", "yang" if b.is_yang else "yin")))
    for h in HEXAGRAMS:
        node = concept("hex", h.code)
        g.add((node, DK.palace, concept("pal", h.palace.slug)))
        g.add((node, DK.palaceElement, concept("el", h.palace_element.slug)))
        g.add((node, DK.generation, concept("gen", h.generation.slug)))
        g.add((node, DK.shiPosition, Literal(h.shi)))
        g.add((node, DK.yingPosition, Literal(h.ying)))
        g.add((node, DK.innerTrigram, concept("tri", h.inner.slug)))
        g.add((node, DK.outerTrigram, concept("tri", h.outer.slug)))
        for flag, cls in ((h.is_liu_chong, "liuchong"), (h.is_liu_he, "liuhe"), (h.is_pure, "bachun")):
            if flag:
                g.add((node, DK.hexClass, concept("hexclass", cls)))
        if h.is_wandering:
            g.add((node, DK.hexClass, concept("hexclass", "youhun")))
        if h.is_returning:
            g.add((node, DK.hexClass, concept("hexclass", "guihun")))
    return g


def corpus_graph() -> Graph:
    g = Graph()
    for w in works().values():
        node = src(w.id)
        g.add((node, RDF.type, DK.Work))
        g.add((node, _u(DCT, "title"), Literal(w.title, lang="zh-Hant")))
        g.add((node, _u(DCT, "title"), Literal(w.title_en, lang="en")))
        g.add((node, DK.urn, Literal(w.urn_prefix, datatype=XSD.anyURI)))
        for prop, value in (
            (DK.responsibility, w.responsibility),
            (DK.dynasty, w.dynasty),
            (DK.part, w.part),
            (DK.citation, w.citation),
        ):
            g.add((node, prop, Literal(value, lang="zh-Hant")))
        g.add((node, _u(DCT, "date"), Literal(w.date)))
        g.add((node, DK.witness, Literal(w.witness)))
        g.add((node, DK.system, SYSTEMS[w.system]))
        g.add((node, DK.sourceFile, Literal(f"corpus/sources/{w.source}")))
        g.add((node, DK.originalFile, Literal(w.original_file)))
        g.add((node, DK.sha256, Literal(w.sha256)))
        g.add((node, DK.heading, Literal(w.heading, lang="ko")))
        for i, s in enumerate(w.sections, 1):
            section = src(f"{w.id}/section/{i}")
            g.add((section, RDF.type, DK.Section))
            g.add((section, DK.work, node))
            g.add((section, DK.heading, Literal(s.heading, lang="zh-Hant")))
            g.add((section, DK.topic, vocabulary().topic(s.topic)))
            g.add((section, DK.firstParagraph, Literal(s.first)))
            g.add((section, DK.lastParagraph, Literal(s.last)))
        for p in w.paragraphs.values():
            para = src(f"{w.id}/zh/{p.number}")
            korean = src(f"{w.id}/ko/{p.number}")
            section = src(f"{w.id}/section/{w.sections.index(p.section) + 1}")
            _passage(g, para, DK.Paragraph, p.text, p.start, p.urn, "zh-Hant")
            g.add((para, DK.work, node))
            g.add((para, DK.paragraphNumber, Literal(p.number)))
            g.add((para, DK.section, section))
            g.add((para, DK.koreanRendering, korean))
            _passage(g, korean, DK.KoreanRendering, p.korean, p.korean_start, p.korean_urn, "ko")
            g.add((korean, DK.work, node))
            g.add((korean, DK.paragraphNumber, Literal(p.number)))
            for order, segment in enumerate(p.segments, 1):
                _segment(g, segment, para, order)
    return g


def _passage(g: Graph, node: URIRef, cls: URIRef, text: str, start: int, urn: str, lang: str) -> None:
    g.add((node, RDF.type, cls))
    g.add((node, DK.text, Literal(text, lang=lang)))
    g.add((node, DK.start, Literal(start)))
    g.add((node, DK.end, Literal(start + len(text))))
    g.add((node, DK.urn, Literal(urn, datatype=XSD.anyURI)))


def segment_iri(segment: Segment) -> URIRef:
    return src(segment.local_id)


def _segment(g: Graph, segment: Segment, parent: URIRef, order: int) -> None:
    node = segment_iri(segment)
    _passage(
        g,
        node,
        DK.Sentence if segment.kind == "sentence" else DK.Note,
        segment.text,
        segment.start,
        segment.urn,
        "zh-Hant",
    )
    g.add((node, _u(DCT, "isPartOf"), parent))
    g.add((node, DK.paragraph, src(f"{segment.work}/zh/{segment.paragraph}")))
    g.add((node, DK.segmentPath, Literal(".".join(map(str, segment.path)))))
    g.add((node, DK.order, Literal(order)))
    if segment.annotates is not None:
        target = src(f"{segment.work}/zh/{segment.paragraph}/" + "/".join(map(str, segment.annotates)))
        g.add((node, DK.annotates, target))
    for i, child in enumerate(segment.children, 1):
        _segment(g, child, node, i)


def rules_graph(rules: list[CompiledRule], unencoded: list[Unencoded] = ()) -> Graph:
    g = Graph()
    for rule in rules:
        _rule(g, rule)
    for passage in unencoded:
        _unencoded(g, passage)
    return g


def _unencoded(g: Graph, passage: Unencoded) -> None:
    """A passage accounted for without a rule, with the reason (dk:reason) and its span."""
    node, quote = passage.iri, passage.quote
    g.add((node, RDF.type, DK.UnencodedPassage))
    g.add((node, DK.reason, passage.why))
    g.add((node, DK.paragraph, src(f"{quote.work}/zh/{quote.paragraph}")))
    g.add((node, DK.text, Literal(quote.text, lang="zh-Hant")))
    g.add((node, DK.start, Literal(quote.start)))
    g.add((node, DK.end, Literal(quote.end)))
    for segment in quote.segments:
        g.add((node, _u(PROV, "wasDerivedFrom"), segment_iri(segment)))
    if passage.note:
        g.add((node, DK.note, Literal(passage.note, lang="en")))


def _rule(g: Graph, rule: CompiledRule) -> None:
    node = rule.iri
    g.add((node, RDF.type, KINDS[rule.kind]))
    g.add((node, RDF.type, DK.Rule))
    g.add((node, DK.ruleId, Literal(rule.id)))
    g.add((node, DK.topic, rule.topic))
    g.add((node, DK.work, src(rule.work)))
    g.add((node, RDFS.label, Literal(rule.quotes[0].text, lang="zh-Hant")))
    for i, quote in enumerate(rule.quotes, 1):
        for segment in quote.segments:
            g.add((node, _u(PROV, "wasDerivedFrom"), segment_iri(segment)))
        anchor = URIRef(f"{node}/anchor/{i}")
        g.add((node, DK.anchor, anchor))
        g.add((anchor, RDF.type, _u(OA, "SpecificResource")))
        g.add((anchor, _u(OA, "hasSource"), src(rule.work)))
        g.add((anchor, DK.paragraph, src(f"{rule.work}/zh/{quote.paragraph}")))
        g.add((anchor, DK.order, Literal(i)))
        selector = URIRef(f"{anchor}/quote")
        g.add((anchor, _u(OA, "hasSelector"), selector))
        g.add((selector, RDF.type, _u(OA, "TextQuoteSelector")))
        g.add((selector, _u(OA, "exact"), Literal(quote.text)))
        g.add((selector, _u(OA, "prefix"), Literal(quote.prefix)))
        g.add((selector, _u(OA, "suffix"), Literal(quote.suffix)))
        position = URIRef(f"{anchor}/position")
        g.add((anchor, _u(OA, "hasSelector"), position))
        g.add((position, RDF.type, _u(OA, "TextPositionSelector")))
        g.add((position, _u(OA, "start"), Literal(quote.start)))
        g.add((position, _u(OA, "end"), Literal(quote.end)))
    outcome = URIRef(f"{node}/outcome")
    g.add((node, DK.outcome, outcome))
    g.add((outcome, RDF.type, DK.Outcome))
    if rule.polarity is not None:
        g.add((outcome, DK.polarity, rule.polarity))
    if rule.wording:
        g.add((outcome, DK.wording, Literal(rule.wording, lang="zh-Hant")))
    g.add((outcome, DK.gloss, Literal(rule.gloss, lang="en")))
    for p in rule.parameters:
        param = URIRef(f"{outcome}/{p.name}")
        g.add((outcome, DK.parameter, param))
        g.add((param, DK.name, Literal(p.name)))
        g.add((param, DK.variable, Literal(p.variable)))
        if p.fact is not None:
            g.add((param, DK.property, p.fact.iri))
        if p.procedure is not None:
            g.add((param, DK.procedure, Literal(p.procedure)))
    if rule.query:
        g.add((node, DK.query, Literal(rule.query)))
        g.add((node, DK.conditionText, Literal(rule.conditions)))
        template = URIRef(f"{DK}template/{template_id(rule.template)}")
        g.add((node, DK.template, template))
        g.add((template, DK.query, Literal(rule.template)))
        g.add((template, DK.joinable, Literal(rule.joinable)))
        g.add((node, DK.templateArguments, Literal(" ".join(rule.arguments))))
        for v in rule.variables:
            g.add((node, DK.variable, Literal(v)))
    for key in rule.requires:
        g.add((node, DK.requires, Literal(key)))
    for alternatives in rule.requires_one_of:
        g.add((node, DK.requiresOneOf, Literal(json.dumps(alternatives, ensure_ascii=False))))
    if rule.construct:
        g.add((node, DK.construct, Literal(rule.construct)))
        for a in rule.asserts:
            g.add((node, DK.asserts, Literal(a)))
    for iri in rule.mentions:
        g.add((node, DK.mentions, iri))
    for target in rule.overrides:
        g.add((node, DK.overrides, URIRef(f"{DK}rule/{target}")))
    if rule.reason is not None:
        g.add((node, DK.reason, rule.reason))
    if rule.note:
        g.add((node, DK.note, Literal(rule.note, lang="en")))
    if rule.generalised:
        g.add((node, DK.generalised, Literal(True)))
    if rule.case_of:
        g.add((node, DK.caseOf, Literal(rule.case_of)))


@dataclass(frozen=True)
class BuildResult:
    quads: int
    rules: int
    files: tuple[Path, ...]


def dataset(rules_dir: Path = RULES) -> tuple[Dataset, int]:
    """The whole knowledge graph as a dataset of three named graphs, and its number of rules."""
    compiler = RuleCompiler()
    rules = compiler.compile_all(rules_dir)
    ds = Dataset()
    for prefix, iri in PREFIXES.items():
        ds.bind(prefix, iri)
    parts = {
        "ontology": vocabulary().graph + doctrine_graph(),
        "corpus": corpus_graph(),
        "rules": rules_graph(rules, compiler.unencoded),
    }
    for name, graph in parts.items():
        target = ds.graph(GRAPHS[name])
        for triple in graph:
            target.add(triple)
    return ds, len(rules)


def _nquads(ds: Dataset) -> str:
    lines = ds.serialize(format="nquads").splitlines()
    return "\n".join(sorted(line for line in lines if line.strip())) + "\n"


def _turtle(ds: Dataset) -> str:
    union = Graph()
    for prefix, iri in PREFIXES.items():
        union.bind(prefix, iri)
    union.bind("skos", str(SKOS))
    for s, p, o, _ in ds.quads():
        union.add((s, p, o))
    return union.serialize(format="turtle")


SNAPSHOTS = ".builds"
CURRENT = "current"


def _mode(umask: int, directory: bool = False) -> int:
    return (0o777 if directory else 0o666) & ~umask


def _point(link: Path, target: str) -> None:
    """Make ``link`` a symbolic link to ``target`` in one step (a new link renamed over it)."""
    if link.is_symlink() and os.readlink(link) == target:
        return
    fresh = link.with_name(f".{link.name}.{os.getpid()}.link")
    fresh.unlink(missing_ok=True)
    os.symlink(target, fresh)
    os.replace(fresh, link)


def _adopt_plain_files(out: Path, names: list[str], umask: int) -> None:
    """A build directory of the older layout (plain files): move its files into a snapshot
    first, so that switching to links shows the same build at every step."""
    plain = [n for n in names if (out / n).is_file() and not (out / n).is_symlink()]
    if not plain:
        return
    old = Path(tempfile.mkdtemp(dir=out / SNAPSHOTS, prefix="build-"))
    os.chmod(old, _mode(umask, directory=True))
    for name in plain:
        os.link(out / name, old / name)
    _point(out / CURRENT, f"{SNAPSHOTS}/{old.name}")
    for name in plain:
        _point(out / name, f"{CURRENT}/{name}")


def write_atomically(out: Path, files: dict[str, str | bytes]) -> None:
    """Write one build's files so that a reader sees all of the previous build or all of this one.

    The files go into a fresh snapshot directory ``out/.builds/build-…``; ``out/current`` is a
    link to the snapshot in use, and ``out/kg.nq`` … are links through it. Renaming a new
    ``current`` link over the old one switches every file at once. The replaced snapshot stays
    until the next build (a reader that resolved the old link can still open it). An interrupted
    build leaves only its unfinished snapshot, removed at once on an exception or SIGTERM, and by
    the next build after a hard kill. The files get the mode an ordinary write would give them (0666 less
    the umask), not the 0600 of :func:`tempfile.mkstemp`.
    """
    umask = os.umask(0)
    os.umask(umask)
    snapshots = out / SNAPSHOTS
    snapshots.mkdir(parents=True, exist_ok=True)
    _adopt_plain_files(out, list(files), umask)
    previous = os.readlink(out / CURRENT) if (out / CURRENT).is_symlink() else None
    for stale in snapshots.iterdir():
        if f"{SNAPSHOTS}/{stale.name}" != previous:
            shutil.rmtree(stale, ignore_errors=True)
    stage = Path(tempfile.mkdtemp(dir=snapshots, prefix="build-"))
    try:
        with _terminate_as_exception():
            os.chmod(stage, _mode(umask, directory=True))
            for name, content in files.items():
                if isinstance(content, bytes):
                    (stage / name).write_bytes(content)
                else:
                    (stage / name).write_text(content, encoding="utf-8")
                os.chmod(stage / name, _mode(umask))
            _point(out / CURRENT, f"{SNAPSHOTS}/{stage.name}")
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    for name in files:
        _point(out / name, f"{CURRENT}/{name}")
    for link in out.iterdir():  # an older layout's files (kg.index.json), which this build does not have
        if link.is_symlink() and link.name not in files and os.readlink(link).startswith(f"{CURRENT}/"):
            link.unlink()


@contextmanager
def _terminate_as_exception() -> Iterator[None]:
    """SIGTERM raises SystemExit inside the block (so clean-up runs), in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def check_out(out: Path) -> None:
    """Refuse an output folder that cannot be made (the nearest path on the way to it that exists is
    not a folder) before anything is compiled."""
    existing = next(p for p in (out, *out.parents) if p.exists() or p.is_symlink())
    if not existing.is_dir():
        raise InputError(f"{out}: cannot make the build folder, {existing} is not a folder")


def build(out: Path = BUILD, rules_dir: Path = RULES) -> BuildResult:
    check_out(out)
    ds, count = dataset(rules_dir)
    nq, ttl = _nquads(ds), _turtle(ds)
    try:
        write_atomically(out, {"kg.nq": nq, "kg.ttl": ttl, INDEX_FILE: index_file(nq)})
    except OSError as exc:
        raise InputError(f"{out}: cannot write the build ({exc.strerror})") from None
    return BuildResult(nq.count("\n"), count, (out / "kg.nq", out / "kg.ttl"))


def rules_option(help: str) -> Callable[[Callable], Callable]:
    """``--rules DIR``, a folder of rule files (default corpus/rules), as ``rules_dir``."""
    return click.option(
        "--rules",
        "rules_dir",
        type=click.Path(path_type=Path, file_okay=False, exists=True),
        default=RULES,
        show_default=True,
        help=help,
    )


@click.command("build")
@click.option(
    "--out", type=click.Path(path_type=Path), default=BUILD, show_default=True, help="Output directory."
)
@rules_option("Directory of rule files (*.yaml).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def build_command(out: Path, rules_dir: Path, fmt: str) -> None:
    """Compile ontology, corpus and rules into build/kg.nq and build/kg.ttl."""
    result = build(out, rules_dir)
    if fmt == "json":
        files = [str(f) for f in result.files]
        click.echo(json.dumps({"rules": result.rules, "quads": result.quads, "files": files}))
        return
    click.echo(
        f"built {result.rules} rules, {result.quads} quads → " + ", ".join(str(f) for f in result.files)
    )
