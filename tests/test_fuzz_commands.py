"""Property tests: no input crashes the commands test_fuzz.py leaves out — ``kg query``, ``match``,
``explore``, ``batch``, ``export tei``, ``reading``, ``topics``, ``coverage`` and ``build``.

Every answer is exit 0, exit 2 with a message naming an error, or (``coverage --check`` only) exit 1;
never a traceback. A command runs in a folder of its own, where the files it writes go; a refused
command leaves that folder as it was. SPARQL is each file of queries/ mutated (characters deleted,
doubled, or inserted from SPARQL's punctuation and keywords); a ``SERVICE`` or an outside ``FROM`` is
refused, and the canary a ``SERVICE`` names hears nothing.

Examples are bounded and derandomised (the same on every run), a few seconds per property. The graph
is read-only, so the commands share one loaded copy for the module (:func:`graph_loaded_once`).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_fuzz import LIUREN, LIUYAO, NOISE, arguments, mutations
from test_serve_sparql import Canary

from kg import explore
from kg.cli import main
from kg.corpus import works
from kg.errors import InputError
from kg.match import KnowledgeGraph
from kg.paths import RULES
from kg.query import MEDIA_TYPES, render
from kg.sparql_guard import Job, Limits, Refused, Worker

QUERIES = sorted((Path(__file__).resolve().parent.parent / "queries").glob("*.rq"))
OUTSIDE = "http://example.org/outside"
CHARTS = {
    "liuyao": {"pillars": "庚寅 戊寅 癸亥", "lines": "977778"},
    "liuren": {"day": "癸未", "ju": 4, "day_night": "晝"},
}
"""《易隱》〈遷移占〉 example A; 《御定六壬直指》 癸未日 第四局, by day."""
TOPICS = {"liuyao": "遷移", "liuren": "婚姻"}


def bounded(examples: int) -> settings:
    """At most ``examples`` examples, the same on every run, without a deadline per example."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


NUMBERS = st.one_of(
    NOISE,
    st.sampled_from(["inf", "-inf", "nan", "0", "-0", "-1", "1e-300", "1e300", "0x10", "1_0",
                     str(2**63), str(10**30)]),
    st.integers(-3, 10**6).map(str),
)  # fmt: skip
"""Values of numeric options: look-alikes, the edges of the range and far past them."""


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """``good`` five times in six, else ``bad``: most examples pass the first checks and reach the next."""
    return st.sampled_from([True] * 5 + [False]).flatmap(lambda ok: good if ok else bad)


def choice(*good: str) -> st.SearchStrategy[str]:
    """One of the ``good`` values mostly, else :data:`NOISE`."""
    return mostly(st.sampled_from(good), NOISE)


TOPIC = mostly(
    st.sampled_from(["遷移", "婚姻", "求財", "家宅/棟梁", "qianyi", "迁移"]),
    st.one_of(NOISE, st.sampled_from(["遷移/家宅", "zzz/遷移", "/", "家宅//棟梁"])),
)
"""``--topic``: a label, path, slug or simplified form; or a path that is not one, or noise."""

FILE_NAME = st.text(st.sampled_from([*"ab0.-_ 甲", "\u200b", "𠀀", "\t"]), min_size=1, max_size=12)
"""A file name as a command line can carry it (argv holds no NUL)."""

GRAPHS = mostly(st.just("built"), st.sampled_from(["missing.nq", ".", "not.nq"]))
"""``--graph``: mostly the built graph; a missing file, a folder, a file that is not N-Quads."""

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**20) | NOISE
    | st.sampled_from(["liuyao", "liuren", "977778", "癸未"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(NOISE | st.sampled_from(["iri", "rule"]), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip
"""JSON of any shape, for the values of records and inputs files."""


def cli_names(options: dict[str, st.SearchStrategy[str]]) -> dict[str, st.SearchStrategy[str]]:
    """The options of test_fuzz by the keys an inputs file or a record gives them (``day_night``)."""
    return {name.removeprefix("--").replace("-", "_"): values for name, values in options.items()}


def listing(folder: Path) -> list[tuple[str, int]]:
    """Every file and folder under ``folder``, with its size (-1 for a folder)."""
    return sorted(
        (str(p.relative_to(folder)), p.stat().st_size if p.is_file() else -1) for p in folder.rglob("*")
    )


def invoked(args: list[str], folder: Path, failed_check: bool = False) -> Result:
    """``kg args`` run in ``folder``: exit 0, exit 2 with an error message, or exit 1 when ``failed_check``
    (a check the command makes failed); never another exception; a refused command writes nothing."""
    before = listing(folder)
    with contextlib.chdir(folder):
        result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert result.exit_code in ((0, 1, 2) if failed_check else (0, 2)), (args, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert "error" in result.output.lower(), (args, result.output)
        assert listing(folder) == before, (args, result.output)
    return result


def graph_option(kind: str, built_graph: Path, folder: Path) -> list[str]:
    """``--graph`` for a kind of :data:`GRAPHS` (the bad ones made in the run's ``folder``)."""
    if kind == "not.nq":
        (folder / kind).write_text("<a> <b> .\n", encoding="utf-8")
    return ["--graph", str(built_graph) if kind == "built" else kind]


@pytest.fixture(scope="module", autouse=True)
def graph_loaded_once() -> Iterator[None]:
    """The built graph loaded, and the doctrine network, its centralities and its contradictions
    made, once: the commands read them and never change them."""
    load = functools.cache(KnowledgeGraph.load)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(KnowledgeGraph, "load", staticmethod(lambda path: load(Path(path).resolve())))
        patch.setattr(explore, "doctrine_graph", functools.cache(explore.doctrine_graph))
        patch.setattr(explore, "centrality", functools.cache(explore.centrality))
        patch.setattr(explore, "contradictions", functools.cache(explore.contradictions))
        yield


@pytest.fixture
def run_folder(tmp_path_factory: pytest.TempPathFactory):
    """A new folder for each example (hypothesis runs the examples of a test in one function scope)."""
    return lambda: Path(tmp_path_factory.mktemp("run"))


# ── SPARQL: kg query ────────────────────────────────────────────────────────────────────────


def sparql_tokens(canary: str) -> list[str]:
    """What a mutation inserts: SPARQL punctuation and keywords, and clauses that reach outside."""
    return [*"{}()<>.;,?$*/|^!=\"'#:\n\\", "SERVICE", f"SERVICE <{canary}sparql> {{ ?s ?p ?o }}",
            f"FROM <{OUTSIDE}>", f"FROM NAMED <{OUTSIDE}>", f"GRAPH <{OUTSIDE}>", "GRAPH ?g", "INSERT DATA",
            "DELETE WHERE", "LOAD", "OPTIONAL", "UNION", "FILTER", "VALUES", "BIND", "LIMIT 0", "OFFSET",
            "SELECT", "CONSTRUCT", "DESCRIBE", "ASK", "COUNT(*)", "a", "dk:", "\U0001f600"]  # fmt: skip


def mutated(text: str, edits: list[tuple[str, float, str]]) -> str:
    """``text`` with each edit applied: (delete | double | insert, where as a fraction of the text, token)."""
    for action, where, token in edits:
        at = min(int(where * len(text)), max(len(text) - 1, 0))
        if action == "delete":
            text = text[:at] + text[at + 1 :]
        elif action == "double":
            text = text[: at + 1] + text[at:]
        else:
            text = text[:at] + token + text[at:]
    return text


def edits(alphabet: list[str]) -> st.SearchStrategy[list[tuple[str, float, str]]]:
    edit = st.tuples(
        st.sampled_from(["delete", "double", "insert"]), st.floats(0, 1), st.sampled_from(alphabet)
    )
    return st.lists(edit, min_size=1, max_size=4)


@pytest.fixture(scope="module")
def canary() -> Iterator[Canary]:
    bird = Canary()
    yield bird
    bird.server.shutdown()


class Querying:
    """The worker of ``kg query`` kept for many queries (a new one when the last was stopped)."""

    def __init__(self, graph: Path) -> None:
        self.graph = graph
        self.limits = Limits(deadline=3.0, rows=2000)
        self.worker: Worker | None = None

    def answer(self, text: str, fmt: str) -> str:
        """What ``kg query`` prints for ``text`` in ``fmt`` (:func:`kg.query.run_query`, on this worker)."""
        if self.worker is None or not self.worker.alive:
            self.worker = Worker(self.graph, self.limits)
            self.worker.wait_ready()
        results, graph_media = MEDIA_TYPES[fmt]
        return render(self.worker.run(Job(text, results, graph_media)), fmt)


@pytest.fixture(scope="module")
def querying(built_graph: Path) -> Iterator[Querying]:
    asker = Querying(built_graph)
    yield asker
    if asker.worker is not None:
        asker.worker.close()


@bounded(60)
@given(file=st.sampled_from(QUERIES), fmt=st.sampled_from(sorted(MEDIA_TYPES)), data=st.data())
def test_a_mutated_query_is_answered_or_refused(querying: Querying, canary: Canary, file, fmt, data):
    """Each file of queries/ mutated and run as ``kg query`` runs it: an answer or an input error
    (exit 2); the canary a SERVICE names hears nothing."""
    text = mutated(file.read_text(encoding="utf-8"), data.draw(edits(sparql_tokens(canary.url))))
    with contextlib.suppress(InputError):
        querying.answer(text, fmt)
    assert canary.hits == []


@pytest.mark.parametrize("clause", ["SERVICE", "FROM", "FROM NAMED"])
@pytest.mark.parametrize("file", QUERIES, ids=lambda f: f.stem)
def test_a_service_or_an_outside_graph_is_refused(
    querying: Querying, canary: Canary, file: Path, clause: str
):
    """A SERVICE clause opening the WHERE pattern of each query, or a FROM (NAMED) of a graph the
    store does not hold before it: refused, and the canary hears nothing."""
    text = file.read_text(encoding="utf-8")
    at = re.search(r"^(?!#).*?\b(WHERE)\b", text, re.M).start(1)
    if clause == "SERVICE":
        body = text.index("{", at) + 1
        text = text[:body] + f" SERVICE <{canary.url}sparql> {{ ?s ?p ?o }} " + text[body:]
    else:
        text = text[:at] + f"{clause} <{OUTSIDE}> " + text[at:]
    with pytest.raises(Refused):
        querying.answer(text, "table")
    assert canary.hits == []


@bounded(6)
@given(
    file=st.sampled_from(QUERIES),
    changes=st.lists(
        st.tuples(st.sampled_from(["delete", "double"]), st.floats(0, 1), st.just("")), max_size=2
    ),
    options=arguments(
        {
            "--timeout": NUMBERS,
            "--memory": NUMBERS,
            "--max-rows": NUMBERS,
            "--format": choice(*MEDIA_TYPES),
        }
    ),
    reading=st.sampled_from([None, "chart.ttl", "cut.ttl", "missing.ttl", "."]),
)
@example(file=QUERIES[0], changes=[], options=["--timeout", "1e300"], reading=None)
@example(file=QUERIES[0], changes=[], options=["--memory", str(10**30)], reading=None)
@example(file=QUERIES[0], changes=[], options=["--max-rows", str(2**63), "--format", "turtle"], reading=None)
@example(file=QUERIES[0], changes=[], options=[], reading="cut.ttl")
def test_kg_query_answers_or_refuses(run_folder, built_graph, charts, file, changes, options, reading):
    """The command itself, its numbers past their ranges, and a reading graph that is no Turtle."""
    folder = run_folder()
    (folder / "query.rq").write_text(mutated(file.read_text(encoding="utf-8"), changes), encoding="utf-8")
    chart = charts["liuyao"].read_text(encoding="utf-8")
    (folder / "chart.ttl").write_text(chart, encoding="utf-8")
    (folder / "cut.ttl").write_text(chart[:900], encoding="utf-8")
    extra = ["--reading", reading] if reading else []
    invoked(["query", "query.rq", "--graph", str(built_graph), *options, *extra], folder)


@pytest.mark.parametrize("clause", ["SERVICE", "FROM"])
def test_kg_query_refuses_a_service_and_an_outside_graph(
    run_folder, built_graph, canary: Canary, clause: str
):
    """The command itself refuses them, saying why (exit 2), and the canary hears nothing."""
    folder = run_folder()
    where = f"SERVICE <{canary.url}sparql> {{ ?s ?p ?o }}" if clause == "SERVICE" else "?s ?p ?o"
    outside = f"FROM <{OUTSIDE}> " if clause == "FROM" else ""
    (folder / "query.rq").write_text(f"SELECT * {outside}WHERE {{ {where} }} LIMIT 1", encoding="utf-8")
    result = invoked(["query", "query.rq", "--graph", str(built_graph)], folder)
    assert result.exit_code == 2
    assert (
        "SERVICE is refused" if clause == "SERVICE" else f"<{OUTSIDE}> is not a graph of this store"
    ) in result.output
    assert canary.hits == []


# ── charts: kg match, kg reading ───────────────────────────────────────────────────────────


def chart_args(system: str) -> list[str]:
    """The options of :data:`CHARTS` on a command line."""
    return [
        part for key, value in CHARTS[system].items() for part in (f"--{key.replace('_', '-')}", str(value))
    ]


@pytest.fixture(scope="module")
def charts(tmp_path_factory) -> dict[str, Path]:
    """The chart graphs of :data:`CHARTS`, as ``kg chart … --format turtle`` prints them (files)."""
    folder = Path(tmp_path_factory.mktemp("charts"))
    for system in CHARTS:
        args = ["chart", system, *chart_args(system), "--topic", TOPICS[system], "--format", "turtle"]
        (folder / f"{system}.ttl").write_text(invoked(args, folder).output, encoding="utf-8")
    return {system: folder / f"{system}.ttl" for system in CHARTS}


TURTLE_TOKENS = [*".;,<>\"'@:#_ \n[]()^", "a", "dk:Reading", "dk:line", "reading:x", '"9"^^xsd:integer',
                 "@prefix", "<https://w3id.org/divkg/concept/branch/zi>", "true"]  # fmt: skip


@bounded(40)
@given(
    system=st.sampled_from(sorted(CHARTS)),
    changes=st.one_of(st.just([]), edits(TURTLE_TOKENS)),
    options=arguments(
        {"--topic": TOPIC, "--format": choice("text", "json"), "--engine": choice("oxigraph", "rdflib")}
    ),
    chart=mostly(st.just("chart.ttl"), st.sampled_from(["missing.ttl", "."])),
    graph=GRAPHS,
)
def test_kg_match_reads_a_mutated_chart(
    run_folder, built_graph, charts, system, changes, options, chart, graph
):
    folder = run_folder()
    (folder / "chart.ttl").write_text(
        mutated(charts[system].read_text(encoding="utf-8"), changes), encoding="utf-8"
    )
    invoked(["match", chart, *options, *graph_option(graph, built_graph, folder)], folder)


READING_FORMATS = choice("text", "json", "record")
QUERENT = {
    "liuyao": {"--status": choice("已遷", "未遷"), "--birth": choice("子", "甲子", "亥"),
               "--purpose": choice("公", "私"), "--sex": choice("男", "女"),
               "--occupation": choice("為官", "漁獵", "技藝"), "--member": choice("妻=甲子", "夫=丙寅", "子=戊辰"),
               "--topic": TOPIC},
    "liuren": {"--birth": choice("子", "甲子"), "--walking-year": choice("寅", "丙寅"), "--sex": choice("男", "女"),
               "--occupation": choice("為官", "漁獵", "技藝"), "--month": choice("寅", "卯"), "--topic": TOPIC},
}  # fmt: skip
"""Options beside a chart's own: the querent's, and the topic."""


def per_system(strategy) -> st.SearchStrategy[tuple[str, Any]]:
    """(system, a value of ``strategy(system)``)."""
    return st.sampled_from(sorted(CHARTS)).flatmap(
        lambda system: st.tuples(st.just(system), strategy(system))
    )


@bounded(40)
@given(
    case=per_system(lambda system: st.tuples(arguments(LIUYAO if system == "liuyao" else LIUREN),
                                             arguments(QUERENT[system]))),
    from_the_chart=mostly(st.just(True), st.just(False)),
    fmt=READING_FORMATS,
    graph=GRAPHS,
)  # fmt: skip
@example(case=("liuyao", ([], ["--topic", "遷移/家宅"])), from_the_chart=True, fmt="text", graph="built")
def test_kg_reading_casts_or_refuses(run_folder, built_graph, case, from_the_chart, fmt, graph):
    """The chart options of test_fuzz, alone or after the good ones of :data:`CHARTS` (whose values
    they may replace), and the querent's and the topic."""
    folder = run_folder()
    system, (chart, querent) = case
    args = (
        [*chart_args(system), "--topic", TOPICS[system], *querent] if from_the_chart else [*chart, *querent]
    )
    invoked(["reading", system, *args, "--format", fmt, *graph_option(graph, built_graph, folder)], folder)


@pytest.fixture(scope="module")
def records(tmp_path_factory, built_graph) -> dict[str, Path]:
    """The reading records of :data:`CHARTS` (``kg reading … --format record``), as files."""
    folder = Path(tmp_path_factory.mktemp("records"))
    for system in CHARTS:
        args = ["reading", system, *chart_args(system), "--topic", TOPICS[system], "--format", "record"]
        record = invoked([*args, "--graph", str(built_graph)], folder).output
        (folder / f"{system}.json").write_text(record, encoding="utf-8")
    return {system: folder / f"{system}.json" for system in CHARTS}


RECORD_PLACES = ["record", "system", "inputs", "topic", "rules", "graph", "facts", "inputs.pillars",
                 "inputs.lines", "inputs.day", "inputs.ju", "inputs.day_night", "inputs.zzz", "topic.iri",
                 "graph.sha256", "rules.0", "rules.0.rule", "rules.0.status", "rules.0.bindings",
                 "rules.0.binding_labels", "rules.0.rule_id", "rules.0.wording"]  # fmt: skip
"""Where a mutation changes a record (dotted: a key, or a list's index)."""


def _child(node: Any, key: str) -> Any:
    if isinstance(node, dict):
        return node.get(key)
    if isinstance(node, list) and key.isdigit() and int(key) < len(node):
        return node[int(key)]
    return None


def changed_record(record: dict, changes: list[tuple[str, str, Any]]) -> dict:
    """``record`` with a value set or deleted at each place of ``changes`` that it has."""
    record = copy.deepcopy(record)
    for action, place, value in changes:
        *path, last = place.split(".")
        node = functools.reduce(_child, path, record)
        if isinstance(node, list) and _child(node, last) is not None:
            key: str | int = int(last)
        elif isinstance(node, dict):
            key = last
        else:
            continue
        if action == "set":
            node[key] = value
        elif isinstance(node, list) or key in node:
            del node[key]
    return record


def record_example(system: str, *changes: tuple[str, str, Any]):
    return example(system=system, changes=list(changes), truncate=False, form="group", fmt="text")


@bounded(80)
@given(
    system=st.sampled_from(sorted(CHARTS)),
    changes=st.lists(
        st.tuples(st.sampled_from(["set", "delete"]), st.sampled_from(RECORD_PLACES), JSON_VALUES), max_size=2
    ),
    truncate=mostly(st.just(False), st.just(True)),
    form=mostly(st.sampled_from(["group", "system"]), st.just("system with inputs")),
    fmt=READING_FORMATS,
)
@record_example("liuyao", ("set", "topic", "遷移"))
@record_example("liuyao", ("set", "inputs", []))
@record_example("liuyao", ("set", "inputs.zzz", 1))
@record_example("liuyao", ("set", "inputs.lines", 977778))
@record_example("liuren", ("set", "inputs.ju", "4"))
@record_example("liuyao", ("set", "rules", {}))
@record_example("liuyao", ("delete", "rules.0.rule", None))
@record_example("liuyao", ("set", "graph", None))
@record_example("liuyao", ("set", "system", ["liuyao"]))
def test_kg_reading_from_a_mutated_record(
    run_folder, built_graph, records, system, changes, truncate, form, fmt
):
    """``kg reading --from FILE`` and ``kg reading liuyao|liuren --from FILE`` (with inputs of its
    own too) on a record whose values were changed or deleted, or that was cut short."""
    folder = run_folder()
    record = json.loads(records[system].read_text(encoding="utf-8"))
    text = json.dumps(changed_record(record, changes), ensure_ascii=False)
    (folder / "record.json").write_text(text[: len(text) // 2] if truncate else text, encoding="utf-8")
    common = ["--from", "record.json", "--format", fmt, "--graph", str(built_graph)]
    if form == "group":
        args = ["reading", *common]
    else:
        args = ["reading", system, *common, *(chart_args(system)[:2] if form == "system with inputs" else [])]
    invoked(args, folder)


# ── the doctrine network: kg explore ────────────────────────────────────────────────────────

NODES = mostly(
    st.sampled_from(["白虎", "青龍", "妻財", "世", "癸未", "旺", "白虎 ", "yiyin.tianmu.left-high",
                     "huangjince.dubo.seat"]),
    st.one_of(NOISE, st.sampled_from(["beast:baihu", "遷移", "易隱", "", " "])),
)  # fmt: skip
"""A concept by label, a rule by id; or a prefixed name, a topic, a work, nothing."""
EXPORT_NAMES = st.tuples(
    mostly(st.sampled_from(["", "sub/"]), st.just("missing/")),
    FILE_NAME,
    mostly(st.sampled_from([".graphml", ".gexf", ".json", ".JSON"]), st.sampled_from([".txt", "", ".json/"])),
).map("".join)
TOP = arguments({"--top": mostly(st.integers(1, 30).map(str), NUMBERS)})
EXPLORE = st.one_of(
    st.tuples(st.just("neighbours"), NODES).map(list),
    st.tuples(st.just("path"), NODES, NODES).map(list),
    st.tuples(st.sampled_from(["central", "cooccur"]), TOP).map(lambda t: [t[0], *t[1]]),
    st.tuples(st.just("similar"), NODES, TOP).map(lambda t: [t[0], t[1], *t[2]]),
    EXPORT_NAMES.map(lambda name: ["export", name]),
)
"""Every subcommand but ``contradictions``, whose input is two options (a second each, its citations)."""


@bounded(40)
@given(command=EXPLORE, fmt=choice("text", "json"), graph=GRAPHS)
def test_kg_explore_answers_or_refuses(run_folder, built_graph, command, fmt, graph):
    """The subcommands of :data:`EXPLORE`; ``export`` writes the file it names, in the run's folder,
    or nothing."""
    folder = run_folder()
    (folder / "sub").mkdir()
    result = invoked(
        ["explore", *graph_option(graph, built_graph, folder), "--format", fmt, *command], folder
    )
    if command[0] == "export" and result.exit_code == 0:
        assert (folder / command[1]).is_file()


@pytest.mark.parametrize("options", [[], ["--across", "--format", "json"], ["--format", "xml"], ["json"]])
def test_kg_explore_contradictions_answers_or_refuses(run_folder, built_graph, options: list[str]):
    invoked(["explore", "--graph", str(built_graph), "contradictions", *options], run_folder())


# ── kg batch ───────────────────────────────────────────────────────────────────────────────


def input_lines(system: str) -> st.SearchStrategy[list[str]]:
    """Lines of an inputs file: JSON objects of drawn options (some added to the good ones of
    :data:`CHARTS`), other JSON, or not JSON."""
    values = cli_names(LIUYAO if system == "liuyao" else LIUREN)
    drawn = st.dictionaries(
        st.sampled_from([*values, "zzz", "day-night"]), st.one_of(NOISE, JSON_VALUES), max_size=3
    )
    line = mostly(
        st.just(json.dumps(CHARTS[system])),
        st.one_of(
            drawn.map(lambda extra: json.dumps(CHARTS[system] | extra, ensure_ascii=False)),
            drawn.map(json.dumps),
            JSON_VALUES.map(json.dumps),
            NOISE,
        ),
    )
    return st.lists(line, max_size=2)


BATCH_OUTPUTS = mostly(
    st.sampled_from(["out.parquet", "sub/out.parquet"]), st.sampled_from(["sub", "missing/out.parquet", "."])
)


@bounded(40)
@given(
    case=per_system(input_lines),
    output=BATCH_OUTPUTS,
    jobs=mostly(st.sampled_from([None, "1", "2"]), NUMBERS),
    topics=st.lists(TOPIC, min_size=1, max_size=2),
    graph=GRAPHS,
)
@example(case=("liuyao", [json.dumps(CHARTS["liuyao"])]), output="out.parquet", jobs=str(10**6),
         topics=["遷移"], graph="built")  # fmt: skip
def test_kg_batch_writes_its_parquet_or_nothing(run_folder, built_graph, case, output, jobs, topics, graph):
    """``kg batch liuyao|liuren --inputs FILE`` on drawn lines: the Parquet file is written where
    ``-o`` says, or nothing is (a million ``--jobs`` on one reading start no process)."""
    folder = run_folder()
    (folder / "sub").mkdir()
    system, lines = case
    (folder / "inputs.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    args = [
        "batch",
        system,
        "--inputs",
        "inputs.jsonl",
        "-o",
        output,
        *graph_option(graph, built_graph, folder),
    ]
    args += [part for topic in topics for part in ("--topic", topic)]
    result = invoked([*args, *(["--jobs", jobs] if jobs is not None else [])], folder)
    if result.exit_code == 0:
        assert (folder / output).is_file()


@bounded(40)
@given(
    system=st.sampled_from(sorted(CHARTS)),
    value=st.one_of(st.none(), NOISE, st.sampled_from(["庚寅 戊寅 癸亥", "癸未", "癸未,甲子", "癸未、甲子"])),
    enumerate_flag=st.booleans(),
    inputs=st.booleans(),
    output=st.sampled_from(["sub", "missing/out.parquet"]),
)
def test_kg_batch_checks_an_enumeration_before_it_runs(
    run_folder, built_graph, system, value, enumerate_flag, inputs, output
):
    """``--all-casts`` (4,096 readings) and ``--all-lessons`` (24 a day) with drawn pillars or days,
    the inputs file besides or not, and an output refused before anything runs: exit 2."""
    folder = run_folder()
    (folder / "sub").mkdir()
    (folder / "inputs.jsonl").write_text(json.dumps(CHARTS[system]) + "\n", encoding="utf-8")
    flag, option = ("--all-casts", "--pillars") if system == "liuyao" else ("--all-lessons", "--days")
    args = ["batch", system, "-o", output, "--graph", str(built_graph), *([flag] if enumerate_flag else [])]
    args += [
        *([option, value] if value is not None else []),
        *(["--inputs", "inputs.jsonl"] if inputs else []),
    ]
    assert invoked(args, folder).exit_code == 2


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory, built_graph) -> bytes:
    """The Parquet file of one 六爻 reading of :data:`CHARTS` under 遷移."""
    folder = Path(tmp_path_factory.mktemp("batch"))
    (folder / "inputs.jsonl").write_text(json.dumps(CHARTS["liuyao"]) + "\n", encoding="utf-8")
    args = ["batch", "liuyao", "--inputs", "inputs.jsonl", "--topic", "遷移", "-o", "out.parquet"]
    invoked([*args, "--graph", str(built_graph)], folder)
    return (folder / "out.parquet").read_bytes()


@bounded(25)
@given(
    file=mostly(
        st.just("batch.parquet"), st.sampled_from(["cut.parquet", "inputs.jsonl", "missing.parquet", "."])
    ),
    options=arguments({"--top": NUMBERS, "--format": choice("text", "json")}),
)
@example(file="batch.parquet", options=["--top", str(2**63)])
def test_kg_batch_stats_answers_or_refuses(run_folder, batch_file, file, options):
    folder = run_folder()
    (folder / "batch.parquet").write_bytes(batch_file)
    (folder / "cut.parquet").write_bytes(batch_file[: len(batch_file) // 2])
    (folder / "inputs.jsonl").write_text(json.dumps(CHARTS["liuyao"]) + "\n", encoding="utf-8")
    invoked(["batch", "stats", file, *options], folder)


# ── texts and vocabulary: kg export tei, kg topics, kg coverage ──────────────────────────────


@bounded(12)
@given(
    directory=mostly(
        st.sampled_from(["tei", "sub", "sub/tei", "deeper/and/deeper"]) | FILE_NAME,
        st.sampled_from(["file.txt", "file.txt/tei"]),
    ),
    graph=GRAPHS,
)
@example(directory="file.txt/tei", graph="built")
@example(directory="tei", graph="missing.nq")
def test_kg_export_tei_writes_its_documents_or_nothing(run_folder, built_graph, directory, graph):
    folder = run_folder()
    (folder / "sub").mkdir()
    (folder / "file.txt").write_text("a file\n", encoding="utf-8")
    result = invoked(["export", "tei", directory, *graph_option(graph, built_graph, folder)], folder)
    if result.exit_code == 0:
        assert len(list((folder / directory).glob("*.xml"))) == 8  # 4 works × 原文, 韓譯


WORKS = sorted(works())


@bounded(20)
@given(
    work_ids=st.lists(mostly(st.sampled_from(WORKS), NOISE), max_size=2),
    flags=st.lists(st.sampled_from(["--missing", "--check"]), max_size=2, unique=True),
    fmt=choice("text", "json"),
    graph=GRAPHS,
)
def test_kg_coverage_and_topics_answer_or_refuse(run_folder, built_graph, work_ids, flags, fmt, graph):
    """``coverage --check`` may fail its check (exit 1); nothing else may."""
    folder = run_folder()
    works_given = [part for work in work_ids for part in ("--work", work)]
    args = ["coverage", *works_given, *flags, "--format", fmt, *graph_option(graph, built_graph, folder)]
    invoked(args, folder, failed_check="--check" in flags)
    invoked(["topics", "--format", fmt], folder)


# ── kg build ───────────────────────────────────────────────────────────────────────────────

RULE = yaml.safe_load((RULES / "yiyin-dongliang.yaml").read_text(encoding="utf-8"))["rules"][0]


def rule_file(kind: str, changes: list[tuple[str, str, Any]]) -> str:
    """The text of the rule file of a ``--rules`` folder: the first rule of yiyin-dongliang.yaml, with
    keys deleted or set to the values of test_fuzz's mutations (``mutated``), twice, overriding a rule
    that is not there, or no YAML at all."""
    rule = copy.deepcopy(RULE)
    if kind == "mutated":
        for action, key, value in changes:
            if action == "delete":
                rule.pop(key, None)
            else:
                rule[key] = value
    rules = {"one rule": [rule], "mutated": [rule], "duplicate": [rule, rule],
             "overrides nothing": [rule | {"overrides": "yiyin.none"}]}  # fmt: skip
    if kind not in rules:
        return "work: yiyin\nrules: [\n"
    return yaml.safe_dump({"work": "yiyin", "rules": rules[kind]}, allow_unicode=True)


@bounded(12)
@given(
    kind=st.sampled_from(["missing", "a file", "malformed", "mutated", "duplicate", "overrides nothing"]),
    changes=mutations(),
    out=st.sampled_from(["out", "sub", "file.txt", "file.txt/out"]),
)
@example(kind="one rule", changes=[], out="file.txt/out")
@example(kind="one rule", changes=[], out="file.txt")
@example(kind="one rule", changes=[], out="sub/out")
def test_kg_build_refuses_bad_folders(run_folder, kind, changes, out):
    """Rule folders that are missing, a file, or hold a rule file the compiler refuses (or a rule it
    may take), and output folders that cannot be made: refused before anything is written."""
    folder = run_folder()
    (folder / "sub").mkdir()
    (folder / "file.txt").write_text("a file\n", encoding="utf-8")
    if kind == "a file":
        (folder / "rules").write_text(rule_file("one rule", []), encoding="utf-8")
    elif kind != "missing":
        (folder / "rules").mkdir()
        (folder / "rules" / "rules.yaml").write_text(rule_file(kind, changes), encoding="utf-8")
    result = invoked(["build", "--rules", "rules", "--out", out], folder)
    if result.exit_code == 0:
        assert (folder / out / "kg.nq").is_file()
