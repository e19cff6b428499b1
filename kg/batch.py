"""``kg batch``: many readings at once, one Parquet row per rule that applies, and statistics.

A batch is a list of readings (the inputs ``kg reading`` takes), each asked under several topics
(占事). Each reading runs through the functions ``kg reading`` runs (:func:`reading_rows`): its
chart is cast once (:func:`kg.record.cast`) and its rules retrieved under all its topics at once
(:func:`kg.match.retrieve_topics`, which gives each topic what ``kg reading`` gives it) on the built
graph, which every process loads once (:func:`knowledge_graph`). The unit of work is a partition of
readings (:func:`evaluate`): ``--jobs`` maps partitions over worker processes, and Dask can map
the same function over the machines of a cluster (README, "Many readings at once").

The Parquet file has one row per rule application (:data:`SCHEMA`); ``kg batch stats`` ranks the
rules by how many readings they fire in, per work and topic, with DuckDB.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

import click
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from kg.errors import InputError
from kg.ganzhi import GanZhi
from kg.match import KnowledgeGraph, Reading, retrieve_topics
from kg.paths import GRAPH
from kg.record import cast, given, input_values
from kg.simplified import topic as user_topic
from kg.vocabulary import SYSTEMS

LINE_VALUES = "6789"
"""The values of a line: 老陰 6, 少陽 7, 少陰 8, 老陽 9."""

PLATES = ("晝", "夜")
"""The 晝 and 夜 plates of a 課 (晝貴 and 夜貴)."""

PARTITION = 8
"""Readings per partition: the unit handed to a worker, and the step of the progress bar."""

SCHEMA = pa.schema(
    [
        pa.field("reading", pa.int32(), nullable=False),
        pa.field("inputs", pa.string(), nullable=False),
        pa.field("topic", pa.string(), nullable=False),
        pa.field("rule", pa.string(), nullable=False),
        pa.field("work", pa.string(), nullable=False),
        pa.field("paragraph", pa.int32(), nullable=False),
        pa.field("status", pa.string(), nullable=False),
        pa.field("polarity", pa.string()),
        pa.field("bindings", pa.string(), nullable=False),
    ]
)
"""One row per (reading, topic, rule application): the reading's number in the batch and its
inputs (JSON, the options of ``kg reading``), the topic asked (zh-Hant label), the rule id, the
work's title and the ¶ of the rule's first quote, applies/consider/overridden, the outcome's
polarity (吉, 凶 …) and the bindings (JSON: variable → entity IRI)."""


@dataclass(frozen=True)
class Job:
    """One reading of a batch: its number, its inputs (options of ``kg reading``, by parameter
    name) and the IRIs of the topics it is asked under."""

    number: int
    inputs: dict[str, Any]
    topics: tuple[str, ...]


@cache
def knowledge_graph(path: Path) -> KnowledgeGraph:
    """The built graph with its provenance, loaded once per process and kept out of the garbage
    collector's passes (``gc.freeze``: it lives as long as the process; about 10 % of a batch)."""
    kg = KnowledgeGraph.load(path)
    kg.load_provenance()
    gc.freeze()
    return kg


def system_topics(kg: KnowledgeGraph, system: str) -> tuple[str, ...]:
    """The topics (IRIs) some rule of the system's works (《易隱》《黃金策》 or 《直指》《銀河棹》) is about."""
    rows = kg.query(
        f"SELECT DISTINCT ?t WHERE {{ ?r a dk:Rule ; dk:topic ?t ; dk:work/dk:system <{SYSTEMS[system]}> }}"
    )
    return tuple(sorted(row["t"].value for row in rows))


def reading_rows(kg: KnowledgeGraph, system: str, job: Job) -> Iterator[dict[str, Any]]:
    """The rows of one reading: the chart cast once as ``kg reading`` casts it (:func:`kg.record.cast`),
    then its rules under every topic at once (:func:`kg.match.retrieve_topics`, which gives each topic
    what :func:`kg.match.retrieve` gives it).

    A topic's rows come in order of rule id and bindings: retrieval's order among the applications
    of one rule depends on what the process ran before, and a batch must not depend on its partitions.
    """
    found = cast(system, job.inputs, None)
    inputs = json.dumps(given(job.inputs), ensure_ascii=False, sort_keys=True)
    by_topic = retrieve_topics(kg, Reading(found.facts), list(job.topics))
    for topic in job.topics:
        for rule in sorted(by_topic[topic], key=lambda a: (a.rule_id, sorted(a.bindings.items()))):
            yield {
                "reading": job.number,
                "inputs": inputs,
                "topic": kg.topics[topic],
                "rule": rule.rule_id,
                "work": rule.work_title,
                "paragraph": rule.paragraph,
                "status": rule.status,
                "polarity": rule.polarity,
                "bindings": json.dumps(rule.bindings, ensure_ascii=False, sort_keys=True),
            }


def evaluate(system: str, graph: Path, jobs: Sequence[Job]) -> pa.Table:
    """The rows of a partition of readings, as one table: what worker processes and Dask map."""
    kg = knowledge_graph(graph)
    return pa.Table.from_pylist([row for job in jobs for row in reading_rows(kg, system, job)], schema=SCHEMA)


def all_casts(pillars: str) -> list[dict[str, Any]]:
    """Every cast of six lines on ``pillars``: 4⁶ = 4,096, each line 6, 7, 8 or 9 (bottom → top)."""
    cast("liuyao", {"pillars": pillars, "lines": "7" * 6}, None)  # the pillars are checked once, here
    casts = ("".join(values) for values in itertools.product(LINE_VALUES, repeat=6))
    return [{"pillars": pillars, "lines": lines} for lines in casts]


def all_lessons(days: Sequence[str]) -> list[dict[str, Any]]:
    """The 12 局 of each day, each on the 晝 and on the 夜 plate: over the sixty days, the 720 課 twice."""
    names = [GanZhi.from_name(day).name for day in days]
    return [
        {"day": day, "ju": ju, "day_night": plate}
        for day, ju, plate in itertools.product(names, range(1, 13), PLATES)
    ]


def numbered(readings: Sequence[dict[str, Any]], topics: tuple[str, ...]) -> list[Job]:
    """The readings as the jobs of a batch, each asked under ``topics``."""
    return [Job(n, inputs, topics) for n, inputs in enumerate(readings)]


def read_inputs(path: Path, system: str, topics: tuple[str, ...]) -> list[Job]:
    """The readings of an inputs file: one JSON object a line, the options of ``kg reading <system>``
    (``pillars``, ``lines``, ``day-night`` or ``day_night`` …); a ``topic`` key asks that topic only.

    Each line's chart is cast here, so a bad line stops the batch before it starts.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such inputs file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: a folder, not an inputs file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8") from None
    jobs: list[Job] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise InputError(f"a JSON object of options expected, not {type(data).__name__}")
            topic = data.pop("topic", None)
            inputs = input_values(system, data)
            cast(system, inputs, None)
            asked = (str(user_topic(str(topic))),) if topic is not None else topics
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}: not JSON ({exc.msg}, column {exc.colno})") from None
        except InputError as exc:
            raise InputError(f"{path}:{number}: {exc}") from None
        jobs.append(Job(len(jobs), inputs, asked))
    return jobs


def run(system: str, graph: Path, jobs: Sequence[Job], workers: int) -> Iterator[pa.Table]:
    """The tables of the batch's partitions in order, from ``workers`` processes (each loading the
    graph once) or in this one, with a progress bar on a terminal."""
    parts = [jobs[i : i + PARTITION] for i in range(0, len(jobs), PARTITION)]
    workers = min(workers, len(parts))  # a process per partition at most
    with contextlib.ExitStack() as stack:
        if workers > 1:
            pool = stack.enter_context(
                multiprocessing.get_context("spawn").Pool(
                    workers, initializer=knowledge_graph, initargs=(graph,)
                )
            )
            tables: Iterable[pa.Table] = pool.imap(partial(evaluate, system, graph), parts)
        else:
            tables = map(partial(evaluate, system, graph), parts)
        bar = stack.enter_context(tqdm(total=len(jobs), unit="reading", disable=None))
        for part, table in zip(parts, tables, strict=True):
            bar.update(len(part))
            yield table


def check_output(path: Path) -> None:
    """Refuse an output path that is a folder or lies in no folder, before any work starts."""
    if path.is_dir():
        raise InputError(f"{path}: a folder, not a Parquet file name")
    if not path.parent.is_dir():
        raise InputError(f"{path.parent}: no such folder")


def write_parquet(tables: Iterable[pa.Table], path: Path) -> int:
    """Write the tables to ``path`` as one Parquet file and return its row count.

    The file is written under a temporary name beside ``path`` and renamed when complete, so an
    interrupted batch leaves ``path`` as it was.
    """
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    os.close(handle)
    rows = 0
    try:
        with pq.ParquetWriter(temporary, SCHEMA, compression="zstd") as writer:
            for table in tables:
                if table.num_rows:
                    writer.write_table(table)
                    rows += table.num_rows
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return rows


def batch(
    system: str,
    readings: Sequence[dict[str, Any]],
    inputs: Path | None,
    topics: tuple[str, ...],
    output: Path,
    workers: int,
    graph: Path,
) -> None:
    """Run a batch of the given readings or of an inputs file, and say what was written."""
    check_output(output)
    if workers < 1:
        raise InputError(f"--jobs {workers}: at least 1")
    kg = knowledge_graph(graph)
    asked = tuple(str(user_topic(t)) for t in topics) or system_topics(kg, system)
    jobs = read_inputs(inputs, system, asked) if inputs is not None else numbered(readings, asked)
    rows = write_parquet(run(system, graph, jobs, workers), output)
    click.echo(f"{len(jobs)} readings, {len(asked)} topics: {rows} rows → {output}", err=True)


def batch_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--inputs``, ``--topic``, ``--output``, ``--jobs`` and ``--graph`` of ``kg batch liuyao|liuren``."""
    for decorator in reversed(
        (
            click.option(
                "--inputs",
                type=click.Path(path_type=Path),
                help="A file of readings: a JSON object of `kg reading` options a line; a 'topic' key asks that topic only.",
            ),
            click.option(
                "--topic",
                "topics",
                multiple=True,
                help="Only this topic (label, slug or path; repeatable). Default: every topic of the system's rules.",
            ),
            click.option(
                "--output", "-o", required=True, type=click.Path(path_type=Path), help="The Parquet file."
            ),
            click.option(
                "--jobs", "workers", type=int, default=1, show_default=True, help="Worker processes."
            ),
            click.option("--graph", type=click.Path(path_type=Path), default=GRAPH, show_default=True),
        )
    ):
        command = decorator(command)
    return command


def _one_source(enumerate_flag: str, enumerated: bool, inputs: Path | None) -> None:
    if enumerated == (inputs is not None):
        raise InputError(f"give {enumerate_flag} or --inputs FILE (one of them)")


@click.group("batch")
def batch_group() -> None:
    """Many readings at once, as Parquet (one row per rule that applies), and their statistics."""


@batch_group.command("liuyao")
@click.option("--pillars", help="Year, month, day [and hour] 干支 of --all-casts, e.g. '庚寅 戊寅 癸亥'.")
@click.option("--all-casts", "every_cast", is_flag=True, help="Every cast of six lines (4,096) on --pillars.")
@batch_options
def batch_liuyao(pillars: str | None, every_cast: bool, **options: Any) -> None:
    """六爻 readings: every cast on the given pillars, or the readings of an inputs file.

    Example: kg batch liuyao --pillars '庚寅 戊寅 癸亥' --all-casts --jobs 2 -o casts.parquet
    """
    _one_source("--all-casts", every_cast, options["inputs"])
    if every_cast != (pillars is not None):
        raise InputError("--all-casts and --pillars go together")
    batch("liuyao", all_casts(pillars) if pillars is not None else [], **options)


@batch_group.command("liuren")
@click.option(
    "--days", metavar="GANZHI,…", help="Day 干支 of --all-lessons, comma-separated (default: all sixty)."
)
@click.option("--all-lessons", "every_lesson", is_flag=True, help="The 12 局 × 晝/夜 of each day.")
@batch_options
def batch_liuren(days: str | None, every_lesson: bool, **options: Any) -> None:
    """大六壬 readings: the 12 局 of each day on the 晝 and the 夜 plate, or the readings of an inputs file.

    Example: kg batch liuren --days 癸未,甲子 --all-lessons -o lessons.parquet
    """
    _one_source("--all-lessons", every_lesson, options["inputs"])
    if days is not None and not every_lesson:
        raise InputError("--days goes with --all-lessons")
    names = [d.strip() for d in (days or "").replace("、", ",").split(",") if d.strip()]
    sixty = [GanZhi.from_index(i).name for i in range(60)]
    batch("liuren", all_lessons(names or sixty) if every_lesson else [], **options)


STATS = """
WITH fired AS (
  SELECT work, topic, rule,
         count(DISTINCT reading) AS fired,
         count(DISTINCT reading) FILTER (WHERE status = 'overridden') AS overridden
  FROM read_parquet($path) WHERE status IN ('applies', 'overridden') GROUP BY work, topic, rule),
ranked AS (
  SELECT *, row_number() OVER (PARTITION BY work, topic ORDER BY fired DESC, rule) AS most,
            row_number() OVER (PARTITION BY work, topic ORDER BY fired, rule) AS least
  FROM fired)
SELECT work, topic, rule, fired, overridden, CASE WHEN most <= $top THEN 'most' ELSE 'least' END AS rank
FROM ranked WHERE most <= $top OR least <= $top ORDER BY work, topic, fired DESC, rule
"""
"""Per work and topic, the ``top`` rules firing in the most readings and the ``top`` in the fewest.

A rule fires in a reading when its conditions hold there: status applies, or overridden by an
exception that applies too. Text-only rules (status consider) are reported, not fired."""


def rule_stats(path: Path, top: int) -> list[dict[str, Any]]:
    """The rows of :data:`STATS` over the batch file ``path``."""
    import duckdb

    if not path.is_file():
        raise InputError(
            f"{path}: {'a folder' if path.is_dir() else 'no such file'}, not a batch Parquet file"
        )
    if top < 1:
        raise InputError(f"--top {top}: at least 1")
    try:
        result = duckdb.connect().execute(STATS, {"path": str(path), "top": top})
    except duckdb.Error as exc:
        raise InputError(f"{path}: not a batch Parquet file ({exc})") from None
    names = [d[0] for d in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


@batch_group.command("stats")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--top", type=int, default=5, show_default=True, help="Rules at each end, per work and topic.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def stats_command(file: Path, top: int, fmt: str) -> None:
    """Which rules of a batch FILE fire in the most and the fewest readings, per work and topic."""
    rows = rule_stats(file, top)
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    click.echo("         fired overridden  rule    (readings in which the rule's conditions hold)")
    for (work, topic), group in itertools.groupby(rows, key=lambda r: (r["work"], r["topic"])):
        click.echo(f"《{work}》 {topic}")
        for row in group:
            click.echo(f"  {row['rank']:<5} {row['fired']:>6} {row['overridden']:>10}  {row['rule']}")
