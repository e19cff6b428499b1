"""``kg validate``: the built graph against ``ontology/shapes.ttl`` (pyshacl)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import multiprocessing
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import click
import pyoxigraph as ox
from pyshacl import validate as shacl
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from tqdm import tqdm

from kg.corpus import works
from kg.errors import InputError, KgError
from kg.paths import ONTOLOGY
from kg.vocabulary import DK, curie

SH = Namespace("http://www.w3.org/ns/shacl#")
TARGETS = (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf, SH.target)
"""The SHACL target predicates: :func:`validate_graph` runs one targeted shape at a time by
keeping the targets of that shape only (every shape stays defined, since a shape may refer to another)."""
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
PROGRESS_STEP = 10_000
WORKERS = os.cpu_count() or 1


@dataclass(frozen=True)
class Violation:
    focus: str
    path: str | None
    constraint: str
    """The shape's parameter that the focus node breaks (``sh:minCount``, ``sh:datatype``, …)."""
    message: str
    value: str | None

    def __str__(self) -> str:
        where = ", ".join(filter(None, (self.path, self.constraint)))
        value = f": {self.value}" if self.value else ""
        return f"{self.focus} ({where}): {self.message}{value}"


@dataclass(frozen=True)
class Report:
    conforms: bool
    violations: tuple[Violation, ...]

    @property
    def text(self) -> str:
        if self.conforms:
            return "valid: the graph conforms to ontology/shapes.ttl"
        lines = [f"{len(self.violations)} violation(s) of ontology/shapes.ttl:"]
        lines += [f"  {v}" for v in self.violations]
        return "\n".join(lines)


def _rdflib(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> URIRef | BNode | Literal:
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if term.language:
        return Literal(term.value, lang=term.language)
    datatype = term.datatype.value
    return Literal(term.value) if datatype == XSD_STRING else Literal(term.value, datatype=URIRef(datatype))


def load_union(path: Path) -> Graph:
    """The union of the named graphs of ``path`` as one rdflib Graph (parsed by Oxigraph, which is
    five times faster than rdflib's N-Quads parser; each distinct term converted once), with a
    progress bar on a terminal."""
    if not path.exists():
        raise InputError(f"{path} does not exist: run `kg build` first")
    union = Graph()
    add, terms = union.store.add, {}

    def term(t: ox.NamedNode | ox.BlankNode | ox.Literal) -> URIRef | BNode | Literal:
        if (known := terms.get(t)) is None:
            known = terms[t] = _rdflib(t)
        return known

    try:
        with tqdm(
            desc=f"loading {path.name}", unit=" quads", unit_scale=True, disable=None, leave=False
        ) as bar:
            for count, quad in enumerate(ox.parse(path=str(path), format=ox.RdfFormat.N_QUADS), 1):
                add((term(quad.subject), term(quad.predicate), term(quad.object)), union, False)
                if count % PROGRESS_STEP == 0:
                    bar.update(PROGRESS_STEP)
    except (SyntaxError, ValueError, OSError) as exc:
        raise InputError(f"{path}: cannot read the graph ({exc})") from None
    return union


def path_text(results: Graph, path: object) -> str | None:
    """A result path as written in SPARQL: ``dk:gloss``, ``^dk:work`` for an inverse path,
    ``oa:hasSelector/oa:exact`` for a sequence."""
    if path is None:
        return None
    if isinstance(path, BNode):
        if (inverse := results.value(path, SH.inversePath)) is not None:
            return "^" + str(path_text(results, inverse))
        if (alternatives := results.value(path, SH.alternativePath)) is not None:
            return "|".join(str(path_text(results, p)) for p in results.items(alternatives))
        return "/".join(str(path_text(results, p)) for p in results.items(path))
    return curie(str(path))


def _constraint(component: object) -> str:
    """``sh:MinCountConstraintComponent`` → ``sh:minCount``, the parameter the shape sets."""
    name = str(component).removeprefix(str(SH)).removesuffix("ConstraintComponent")
    return f"sh:{name[:1].lower()}{name[1:]}"


def _shapes(shapes_path: Path) -> Graph:
    shapes = Graph().parse(shapes_path, format="turtle")
    for work in works().values():
        shapes.add((DK.CatalogueWorkShape, SH.targetNode, URIRef(f"{DK}source/{work.id}")))
    return shapes


_job: tuple[Graph, Graph, Path] | None = None
"""The data, the shapes and their file, in a worker process of :func:`validate_graph`."""


def _hand_over(data: Graph, shapes: Graph, shapes_path: Path) -> None:
    global _job
    _job = (data, shapes, shapes_path)


ShapeRun = tuple[str, bool, set[Violation]]
"""A targeted shape's name, whether the data conforms to it, and its violations."""


def _in_worker(shape: URIRef) -> ShapeRun:
    assert _job is not None
    return _run_shape(*_job, shape)


def _run_shape(data: Graph, shapes: Graph, shapes_path: Path, shape: URIRef) -> ShapeRun:
    """``data`` against one targeted shape: every shape stays defined (a shape may refer to another),
    the targets of the others are left out."""
    one = Graph()
    for triple in shapes:
        if triple[1] not in TARGETS or triple[0] == shape:
            one.add(triple)
    conforms, results, text = shacl(data, shacl_graph=one, advanced=True, allow_warnings=False, inplace=True)
    if not isinstance(results, Graph):
        raise KgError(f"{shapes_path.name}: {curie(str(shape))} cannot be run ({text.strip()})")
    violations = {
        Violation(
            curie(str(results.value(r, SH.focusNode))),
            path_text(results, results.value(r, SH.resultPath)),
            _constraint(results.value(r, SH.sourceConstraintComponent)),
            str(results.value(r, SH.resultMessage)),
            str(v) if (v := results.value(r, SH.value)) is not None else None,
        )
        for r in results.subjects(SH.focusNode, None)
    }
    return curie(str(shape)), bool(conforms), violations


def validate_graph(
    data: Graph, shapes_path: Path = ONTOLOGY / "shapes.ttl", workers: int = WORKERS
) -> Report:
    """``data`` against the shapes of ``shapes_path``, one targeted shape at a time (the same
    results as all at once), in ``workers`` forked processes that share the loaded graph, or in
    this one; a terminal shows a progress bar."""
    shapes = _shapes(shapes_path)
    targeted = sorted({shape for target in TARGETS for shape in shapes.subjects(target, None)})
    workers = min(workers, len(targeted)) if "fork" in multiprocessing.get_all_start_methods() else 1
    with contextlib.ExitStack() as stack:
        if workers > 1:
            pool = stack.enter_context(
                multiprocessing.get_context("fork").Pool(
                    workers, initializer=_hand_over, initargs=(data, shapes, shapes_path)
                )
            )
            runs: Iterable[ShapeRun] = pool.imap_unordered(_in_worker, targeted)
        else:
            runs = (_run_shape(data, shapes, shapes_path, shape) for shape in targeted)
        bar = stack.enter_context(
            tqdm(runs, total=len(targeted), desc="shapes", unit=" shape", disable=None, leave=False)
        )
        conforms, violations = True, set()
        for name, shape_conforms, shape_violations in bar:
            bar.set_postfix_str(name)  # the shape just run
            conforms &= shape_conforms
            violations |= shape_violations
    return Report(conforms, tuple(sorted(violations, key=str)))


@click.command("validate")
@click.option(
    "--graph", type=click.Path(path_type=Path), default=ONTOLOGY.parent / "build" / "kg.nq", show_default=True
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=WORKERS,
    show_default=True,
    help="Worker processes, each running whole shapes (the result does not depend on it).",
)
def validate_command(graph: Path, fmt: str, jobs: int) -> None:
    """Check the built graph against ontology/shapes.ttl (SHACL); exit 1 when it does not conform."""
    report = validate_graph(load_union(graph), workers=jobs)
    if fmt == "json":
        violations = [dataclasses.asdict(v) for v in report.violations]
        click.echo(json.dumps({"conforms": report.conforms, "violations": violations}, ensure_ascii=False))
    else:
        click.echo(report.text)
    if not report.conforms:
        raise SystemExit(1)
