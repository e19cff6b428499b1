"""``kg validate``: the built graph against ``ontology/shapes.ttl`` (pyshacl)."""

from __future__ import annotations

import dataclasses
import json
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
keeping the targets of that shape only (every shape stays defined, for sh:node references)."""
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


@dataclass(frozen=True)
class Violation:
    focus: str
    path: str | None
    message: str
    value: str | None

    def __str__(self) -> str:
        where = f" ({self.path})" if self.path else ""
        value = f": {self.value}" if self.value else ""
        return f"{self.focus}{where}: {self.message}{value}"


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
    five times faster than rdflib's N-Quads parser), with a progress bar on a terminal."""
    if not path.exists():
        raise InputError(f"{path} does not exist: run `kg build` first")
    union = Graph()
    try:
        with tqdm(
            desc=f"loading {path.name}", unit=" quads", unit_scale=True, disable=None, leave=False
        ) as bar:
            for quad in ox.parse(path=str(path), format=ox.RdfFormat.N_QUADS):
                union.add((_rdflib(quad.subject), _rdflib(quad.predicate), _rdflib(quad.object)))
                bar.update()
    except (SyntaxError, ValueError, OSError) as exc:
        raise InputError(f"{path}: cannot read the graph ({exc})") from None
    return union


def _path(results: Graph, path: object) -> str | None:
    """A result path as written in the shapes: ``dk:gloss``, or ``^dk:work`` for an inverse path."""
    if path is None:
        return None
    if isinstance(path, BNode) and (inverse := results.value(path, SH.inversePath)) is not None:
        return "^" + curie(str(inverse))
    return curie(str(path))


def validate_graph(data: Graph, shapes_path: Path = ONTOLOGY / "shapes.ttl") -> Report:
    """``data`` against the shapes of ``shapes_path``, one targeted shape after another (the same
    results as all at once, in about the same time, so a terminal can show a progress bar)."""
    shapes = Graph().parse(shapes_path, format="turtle")
    for work in works().values():
        shapes.add((DK.CatalogueWorkShape, SH.targetNode, URIRef(f"{DK}source/{work.id}")))
    targeted = sorted({shape for target in TARGETS for shape in shapes.subjects(target, None)})
    conforms, violations = True, set()
    with tqdm(targeted, desc="shapes", unit=" shape", disable=None, leave=False) as bar:
        for shape in bar:
            bar.set_postfix_str(curie(str(shape)))
            one = Graph()
            for triple in shapes:
                if triple[1] not in TARGETS or triple[0] == shape:
                    one.add(triple)
            shape_conforms, results, text = shacl(
                data, shacl_graph=one, advanced=True, allow_warnings=False, inplace=True
            )
            if not isinstance(results, Graph):
                raise KgError(f"{shapes_path.name}: {curie(str(shape))} cannot be run ({text.strip()})")
            conforms &= bool(shape_conforms)
            violations |= {
                Violation(
                    curie(str(results.value(r, SH.focusNode))),
                    _path(results, results.value(r, SH.resultPath)),
                    str(results.value(r, SH.resultMessage)),
                    str(v) if (v := results.value(r, SH.value)) is not None else None,
                )
                for r in results.subjects(SH.focusNode, None)
            }
    return Report(conforms, tuple(sorted(violations, key=str)))


def validate(path: Path) -> Report:
    return validate_graph(load_union(path))


@click.command("validate")
@click.option(
    "--graph", type=click.Path(path_type=Path), default=ONTOLOGY.parent / "build" / "kg.nq", show_default=True
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def validate_command(graph: Path, fmt: str) -> None:
    """Check the built graph against ontology/shapes.ttl (SHACL); exit 1 when it does not conform."""
    report = validate(graph)
    if fmt == "json":
        violations = [dataclasses.asdict(v) for v in report.violations]
        click.echo(json.dumps({"conforms": report.conforms, "violations": violations}, ensure_ascii=False))
    else:
        click.echo(report.text)
    if not report.conforms:
        raise SystemExit(1)
