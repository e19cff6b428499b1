"""The import graph runs one way: doctrine → corpus → compile → charts → match → views.

Retrieval (kg.match) and the compiler know no chart system: the chart systems plug into retrieval
through kg.registry, and the views that run readings import them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib.util import resolve_name
from pathlib import Path

import networkx as nx

KG = Path(__file__).resolve().parents[1] / "kg"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("kg.errors", "kg.paths", "kg.ganzhi", "kg.calendar", "kg.shensha", "kg.six_relatives", "kg.registry"),
    ("kg.corpus", "kg.vocabulary"),
    ("kg.compile",),
    ("kg.facts", "kg.liuyao", "kg.liuren"),
    ("kg.match",),
)
"""Modules (or packages) by layer, earliest first: shared doctrine, paths and the registry, corpus and
vocabulary, the compiler, the chart systems, retrieval. Every other module is a view (cli,
report, cite, explore, query, witness, serve, build …), and so are the chart systems' commands."""

VIEWS_IN_CHART_SYSTEMS = ("kg.liuyao.commands", "kg.liuren.commands")
"""The ``kg chart`` / ``kg reading`` options of each system: command-line views kept beside it."""

CHART_SYSTEMS = ("kg.liuren", "kg.liuyao")


def layer(module: str) -> int:
    """The layer of a kg module: the index in :data:`LAYERS`, or the views after them."""
    if module in VIEWS_IN_CHART_SYSTEMS:
        return len(LAYERS)
    for i, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return i
    return len(LAYERS)


def module_name(path: Path) -> str:
    parts = path.relative_to(KG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = KG.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports(path: Path) -> set[str]:
    """Every kg module a file imports, at the top, inside functions or under TYPE_CHECKING."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = (
                resolve_name("." * node.level + (node.module or ""), package) if node.level else node.module
            )
            assert base is not None
            # ``from kg.liuren import procedures`` imports the module kg.liuren.procedures
            found |= {base} | {f"{base}.{a.name}" for a in node.names if is_module(f"{base}.{a.name}")}
    return {m for m in found if m == "kg" or m.startswith("kg.")}


def loaded_after(statement: str) -> list[str]:
    """The kg modules a fresh interpreter has loaded after running ``statement``."""
    code = f"{statement}; import sys; print(' '.join(sorted(m for m in sys.modules if m.startswith('kg'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.split()


def test_retrieval_loads_no_chart_system():
    loaded = loaded_after("import kg.match")
    assert "kg.match" in loaded
    assert not [m for m in loaded if m.startswith(CHART_SYSTEMS)]


def test_compiler_loads_no_chart_system():
    loaded = loaded_after("import kg.compile")
    assert "kg.compile" in loaded
    assert not [m for m in loaded if m.startswith(CHART_SYSTEMS)]


def test_importing_a_chart_system_registers_its_procedures():
    loaded = loaded_after(
        "import kg.liuren.chart; from kg.registry import PROCEDURES; assert 'li' in PROCEDURES"
    )
    assert "kg.liuren.procedures" in loaded


def test_no_module_imports_a_later_layer():
    violations = set()
    for path in sorted(KG.rglob("*.py")):
        source = module_name(path)
        violations |= {(source, target) for target in imports(path) if layer(target) > layer(source)}
    assert violations == set()


def test_the_chart_systems_do_not_import_each_other():
    for system, other in (CHART_SYSTEMS, CHART_SYSTEMS[::-1]):
        for path in sorted((KG / system.split(".")[1]).rglob("*.py")):
            assert not [m for m in imports(path) if m.startswith(other)], path


def test_no_import_cycle():
    graph = nx.DiGraph()
    for path in sorted(KG.rglob("*.py")):
        graph.add_edges_from((module_name(path), m) for m in imports(path) if m != module_name(path))
    assert ("kg.liuren.chart", "kg.liuren.keti") in graph.edges
    assert list(nx.simple_cycles(graph)) == []


def test_kg_match_loads_the_chart_system_of_its_chart(built_graph, tmp_path):
    """``kg match`` of a 六爻 chart in Turtle, in a fresh process, runs the 《黃金策》 procedures of the rules that
    apply: ¶28 占貨物何時得價，以財臨五行斷 on 澤天夬 (坤宮, Earth), whose 財 is the Water 甲子, gives the winter months, the
    month of 子 best."""
    kg = [sys.executable, "-c", "from kg.cli import main; main()"]
    chart = tmp_path / "guai.ttl"
    cast = ["chart", "liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977778", "--format", "turtle"]
    chart.write_text(
        subprocess.run(kg + cast, capture_output=True, text=True, check=True).stdout, encoding="utf-8"
    )
    match = ["match", str(chart), "--topic", "脫貨", "--graph", str(built_graph)]
    result = subprocess.run(kg + match, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (
        "months: 水: 得價 in 十月 (亥), 十一月 (子), 十二月 (丑); best in the month of its own branch, 十一月 (子)"
        in result.stdout
    )
