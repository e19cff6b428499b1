"""``kg validate``: the built graph against ``ontology/shapes.ttl`` (pyshacl)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click
from pyshacl import validate as shacl
from rdflib import Dataset, Graph, Namespace

from kg.errors import InputError, KgError
from kg.vocabulary import ONTOLOGY, curie

SH = Namespace("http://www.w3.org/ns/shacl#")


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


def load_union(path: Path) -> Graph:
    if not path.exists():
        raise InputError(f"{path} does not exist: run `kg build` first")
    ds = Dataset()
    try:
        ds.parse(path, format="nquads")
    except Exception as exc:  # rdflib raises several parser exception types
        raise InputError(f"{path}: cannot read the graph ({exc})") from None
    union = Graph()
    for s, p, o, _ in ds.quads():
        union.add((s, p, o))
    return union


def validate_graph(data: Graph, shapes_path: Path = ONTOLOGY / "shapes.ttl") -> Report:
    shapes = Graph().parse(shapes_path, format="turtle")
    conforms, results, text = shacl(data, shacl_graph=shapes, advanced=True, allow_warnings=False)
    if not isinstance(results, Graph):
        raise KgError(f"ontology/shapes.ttl: the shapes cannot be run ({text.strip()})")
    violations = sorted(
        {
            Violation(
                curie(str(results.value(r, SH.focusNode))),
                curie(str(p)) if (p := results.value(r, SH.resultPath)) is not None else None,
                str(results.value(r, SH.resultMessage)),
                str(v) if (v := results.value(r, SH.value)) is not None else None,
            )
            for r in results.subjects(SH.focusNode, None)
        },
        key=str,
    )
    return Report(bool(conforms), tuple(violations))


def validate(path: Path) -> Report:
    return validate_graph(load_union(path))


@click.command("validate")
@click.option(
    "--graph", type=click.Path(path_type=Path), default=ONTOLOGY.parent / "build" / "kg.nq", show_default=True
)
def validate_command(graph: Path) -> None:
    """Check the built graph against ontology/shapes.ttl (SHACL); exit 1 when it does not conform."""
    report = validate(graph)
    click.echo(report.text)
    if not report.conforms:
        raise SystemExit(1)
