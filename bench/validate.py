"""Benchmark: `kg validate` over the whole built graph, shape by shape, against named alternatives.

Measured in one run on the same graph (build/kg.nq, parsed once by Oxigraph into rdflib):
  pyshacl, all shapes         ontology/shapes.ttl as `kg validate` runs it (in place, advanced),
                              parse included, one shape at a time in a forked process per core
  pyshacl, in one process     the same, every shape in this process (the alternative)
  pyshacl, one shape at a time every other node shape deactivated, to show which shapes cost most
  pyshacl, the former shapes  the shapes of git revision --before (per-node SPARQL constraints for
                              the conditions check, the quote check and the concept labels),
                              when git can show that revision
  pyrudof                     the same shapes on rudof's native Rust engine, for information;
                              SHACL-AF (the SPARQL target of the quote check) is not supported
                              there, so its conformance may differ

Run from the repository root after `kg build`:  python -m bench.validate [--before b7a4f02]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from pyshacl import validate as shacl
from rdflib import Graph, Literal
from rdflib.namespace import RDF

from kg.paths import BUILD, ONTOLOGY
from kg.validate import SH, WORKERS, load_union, validate_graph

SHAPES = ONTOLOGY / "shapes.ttl"


def timed(run) -> tuple[float, object]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def one_shape_at_a_time(data: Graph, shapes: Graph) -> list[tuple[str, float, bool]]:
    names = sorted(set(shapes.subjects(RDF.type, SH.NodeShape)))
    rows = []
    for name in names:
        only = Graph()
        for triple in shapes:
            only.add(triple)
        for other in names:
            if other != name:
                only.add((other, SH.deactivated, Literal(True)))
        seconds, (conforms, _, _) = timed(
            lambda only=only: shacl(data, shacl_graph=only, advanced=True, inplace=True)
        )
        rows.append((str(name).rsplit("/", 1)[1], seconds, bool(conforms)))
    return sorted(rows, key=lambda r: -r[1])


def former_shapes(revision: str) -> Graph | None:
    shown = subprocess.run(
        ["git", "show", f"{revision}:ontology/shapes.ttl"],
        capture_output=True,
        text=True,
        cwd=SHAPES.parent.parent,
    )
    return Graph().parse(data=shown.stdout, format="turtle") if shown.returncode == 0 else None


def rudof(graph_path: Path) -> tuple[float, str]:
    import pyrudof

    r = pyrudof.Rudof(pyrudof.RudofConfig())
    with tempfile.NamedTemporaryFile(suffix=".nt") as nt:
        load_union(graph_path).serialize(nt.name, format="nt", encoding="utf-8")
        r.read_data(nt.name, format=pyrudof.RDFFormat.NTriples)
        r.read_shacl(str(SHAPES))
        seconds, report = timed(r.validate_shacl)
    return seconds, "conforms" if report.conforms else "does not conform"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", type=Path, default=BUILD / "kg.nq")
    parser.add_argument("--before", default="b7a4f02", help="git revision of the former shapes")
    args = parser.parse_args()

    load, data = timed(lambda: load_union(args.graph))
    print(f"graph: {len(data):,} triples, parsed in {load:.2f} s (Oxigraph → rdflib)")
    shapes = Graph().parse(SHAPES, format="turtle")

    total, report = timed(lambda: validate_graph(load_union(args.graph)))
    print(
        f"pyshacl, all shapes (kg validate, parse included, {WORKERS} processes): {total:.2f} s "
        f"(target 10 s: {'met' if total <= 10 else 'NOT met'}), conforms={report.conforms}"
    )
    alone, report = timed(lambda: validate_graph(load_union(args.graph), workers=1))
    print(f"pyshacl, all shapes in one process (parse included): {alone:.2f} s, conforms={report.conforms}")
    print("pyshacl, one shape at a time (most costly first):")
    for name, seconds, conforms in one_shape_at_a_time(data, shapes):
        print(f"  {seconds:7.2f} s  {name}{'' if conforms else '  (violations)'}")

    old = former_shapes(args.before)
    if old is not None:
        print(f"pyshacl, the shapes of {args.before}, one at a time (most costly first):")
        for name, seconds, _ in one_shape_at_a_time(load_union(args.graph), old):
            print(f"  {seconds:7.2f} s  {name}")
    try:
        seconds, verdict = rudof(args.graph)
        print(f"pyrudof (native engine, for information): {seconds:.2f} s, {verdict}")
    except ImportError:
        print("pyrudof: not installed (pip install pyrudof)")
    except Exception as exc:  # rudof reports unsupported SHACL-AF features as its own errors
        print(f"pyrudof: could not run these shapes ({type(exc).__name__}: {str(exc)[:200]})")


if __name__ == "__main__":
    main()
