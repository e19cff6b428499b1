"""``kg batch``: the Parquet rows of many readings are those ``kg reading`` gives one by one; the
statistics count them; bad input exits 2; an interrupted write leaves the output path alone."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from kg.batch import SCHEMA, all_casts, all_lessons, evaluate, numbered, write_parquet
from kg.cli import main
from kg.simplified import topic as user_topic

PILLARS_A = "庚寅 戊寅 癸亥"
"""《易隱》〈遷移占〉 example A (¶60): 庚寅年 戊寅月 癸亥日, cast 977778 (夬之大過)."""

LIUYAO = [
    {"pillars": PILLARS_A, "lines": "977778", "status": "未遷"},
    {"pillars": "庚寅 庚辰 丁巳", "hexagram": "豫", "moving": "3", "topic": "遷移"},
]
"""Examples A and B of 〈遷移占〉 (¶60, ¶62): A under the batch's topics, B under 遷移 only."""

LIUREN = [
    {"day": "癸未", "ju": 4, "day-night": "晝"},
    {"day": "癸未", "ju": 6, "day_night": "晝", "birth": "丑"},
]
"""《直指》 癸未日 第四局 (婚姻: 支干相沖，終難得就) and 第六局 with the querent's 年命 丑."""


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


def write_lines(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def reading_rules(graph: Path, system: str, inputs: dict, topic: str) -> list[tuple]:
    """(rule id, status, bindings as JSON) of every rule ``kg reading`` prints for these inputs, sorted."""
    args = []
    for key, value in inputs.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    out = ok("reading", system, *args, "--topic", topic, "--format", "json", "--graph", str(graph))
    return sorted(
        (r["rule_id"], r["status"], json.dumps(r.get("bindings", {}), ensure_ascii=False, sort_keys=True))
        for r in json.loads(out)["rules"]
    )


def batch_rules(rows: list[dict], number: int, topic: str) -> list[tuple]:
    return sorted(
        (r["rule"], r["status"], r["bindings"])
        for r in rows
        if r["reading"] == number and r["topic"] == topic
    )


@pytest.fixture(scope="module")
def liuren_batch(built_graph, tmp_path_factory) -> Path:
    """The 24 lessons of 癸未日 (12 局, 晝 and 夜) asked about 婚姻."""
    out = tmp_path_factory.mktemp("batch") / "guiwei.parquet"
    ok("batch", "liuren", "--days", "癸未", "--all-lessons", "--topic", "婚姻", "-o", str(out),
       "--graph", str(built_graph))  # fmt: skip
    return out


def test_all_casts_are_every_cast_of_six_lines():
    """Six lines of 6, 7, 8 or 9: 4⁶ = 4,096 casts, example A's 977778 among them."""
    casts = all_casts(PILLARS_A)
    lines = [c["lines"] for c in casts]
    assert len(casts) == len(set(lines)) == 4**6
    assert all(len(v) == 6 and set(v) <= set("6789") for v in lines)
    assert {"pillars": PILLARS_A, "lines": "977778"} in casts


def test_all_lessons_are_twelve_ju_on_both_plates():
    """Each day has 12 局, each on the 晝 and the 夜 plate."""
    lessons = all_lessons(["癸未", "甲子"])
    assert len(lessons) == 2 * 12 * 2
    assert {(ls["day"], ls["ju"], ls["day_night"]) for ls in lessons} == {
        (d, j, p) for d in ("癸未", "甲子") for j in range(1, 13) for p in ("晝", "夜")
    }


def test_liuyao_rows_are_the_rules_of_kg_reading(built_graph, tmp_path):
    """Each reading under each topic: the same rules, statuses and bindings as `kg reading`."""
    out = tmp_path / "liuyao.parquet"
    inputs = write_lines(tmp_path / "liuyao.jsonl", LIUYAO)
    ok("batch", "liuyao", "--inputs", str(inputs), "--topic", "遷移", "--topic", "家宅", "-o", str(out),
       "--graph", str(built_graph))  # fmt: skip
    table = pq.read_table(out)
    assert table.schema == SCHEMA
    rows = table.to_pylist()
    assert {(r["reading"], r["topic"]) for r in rows} == {(0, "遷移"), (0, "家宅"), (1, "遷移")}
    for topic in ("遷移", "家宅"):
        assert batch_rules(rows, 0, topic) == reading_rules(built_graph, "liuyao", LIUYAO[0], topic)
    example_b = {k: v for k, v in LIUYAO[1].items() if k != "topic"}
    assert batch_rules(rows, 1, "遷移") == reading_rules(built_graph, "liuyao", example_b, "遷移")
    assert json.loads(rows[0]["inputs"]) == LIUYAO[0]
    west = [r for r in rows if r["reading"] == 0 and r["rule"] == "yiyin.qianyi.west"]
    assert [(r["work"], r["paragraph"], r["status"], r["polarity"]) for r in west] == [
        ("易隱", 60, "applies", "吉")
    ]


def test_liuren_rows_are_the_rules_of_kg_reading(built_graph, tmp_path):
    out = tmp_path / "liuren.parquet"
    inputs = write_lines(tmp_path / "liuren.jsonl", LIUREN)
    ok("batch", "liuren", "--inputs", str(inputs), "--topic", "婚姻", "--topic", "失物", "-o", str(out),
       "--graph", str(built_graph))  # fmt: skip
    rows = pq.read_table(out).to_pylist()
    for number, line in enumerate(LIUREN):
        for topic in ("婚姻", "失物"):
            assert batch_rules(rows, number, topic) == reading_rules(built_graph, "liuren", line, topic)
    marriage = {r["rule"] for r in rows if r["reading"] == 0 and r["topic"] == "婚姻"}
    assert "zhizhi.ju4.hunyin" in marriage  # 婚姻：支干相沖，終難得就


def test_worker_processes_write_the_rows_of_one_process(built_graph, liuren_batch, tmp_path):
    out = tmp_path / "jobs.parquet"
    ok("batch", "liuren", "--days", "癸未", "--all-lessons", "--topic", "婚姻", "--jobs", "2", "-o", str(out),
       "--graph", str(built_graph))  # fmt: skip
    assert pq.read_table(out).equals(pq.read_table(liuren_batch))


@pytest.fixture(scope="module")
def liuyao_batch(built_graph, tmp_path_factory) -> Path:
    """Every 128th cast on example A's pillars, and example A itself, asked about 遷移."""
    root = tmp_path_factory.mktemp("batch")
    inputs = write_lines(
        root / "casts.jsonl", [*all_casts(PILLARS_A)[::128], {"pillars": PILLARS_A, "lines": "977778"}]
    )
    ok("batch", "liuyao", "--inputs", str(inputs), "--topic", "遷移", "-o", str(root / "casts.parquet"),
       "--graph", str(built_graph))  # fmt: skip
    return root / "casts.parquet"


def test_stats_count_the_readings_each_rule_fires_in(liuyao_batch):
    """DuckDB's counts are those of pyarrow over the rows: distinct readings where a rule applies
    or is overridden, per work and topic. A rule applying twice in a reading counts once: example
    A's 夬 (坤宮, 土) has its 兄弟 土 on two lines, 辰 (三爻) and 未 (上爻)."""
    table = pq.read_table(liuyao_batch)
    twice = table.filter(pc.equal(table["rule"], "yiyin.qianyi.earth-brothers")).group_by(["reading"])
    assert max(r["reading_count"] for r in twice.aggregate([("reading", "count")]).to_pylist()) == 2
    stats = json.loads(ok("batch", "stats", str(liuyao_batch), "--top", "1000", "--format", "json"))
    fired = table.filter(pc.is_in(table["status"], pa.array(["applies", "overridden"])))
    counted = fired.group_by(["work", "topic", "rule"]).aggregate([("reading", "count_distinct")])
    expected = {(r["work"], r["topic"], r["rule"]): r["reading_count_distinct"] for r in counted.to_pylist()}
    assert {(s["work"], s["topic"], s["rule"]): s["fired"] for s in stats} == expected
    overridden = table.filter(pc.equal(table["status"], "overridden"))
    over = overridden.group_by(["rule"]).aggregate([("reading", "count_distinct")]).to_pylist()
    assert {s["rule"]: s["overridden"] for s in stats if s["overridden"]} == {
        r["rule"]: r["reading_count_distinct"] for r in over
    }
    top = json.loads(ok("batch", "stats", str(liuyao_batch), "--top", "1", "--format", "json"))
    assert {(s["work"], s["topic"]) for s in top} == {(w, t) for w, t, _ in expected}
    for s in top:
        group = [n for (w, t, _), n in expected.items() if (w, t) == (s["work"], s["topic"])]
        assert s["fired"] == (max(group) if s["rank"] == "most" else min(group))


@pytest.mark.parametrize(
    ("args", "lines", "message"),
    [
        (["liuyao", "--pillars", PILLARS_A, "--all-casts", "--topic", "不存在"], None, "不存在"),
        (["liuyao", "--inputs", "{inputs}"], ['{"pillars": "庚寅 戊寅 癸亥", "lines": 977778'], "inputs.jsonl:1: not JSON"),
        (["liuyao", "--inputs", "{inputs}"], ['{"pillars": "庚寅 戊寅 癸亥", "lines": "977778"}', '["977778"]'], "inputs.jsonl:2: a JSON object"),
        (["liuyao", "--inputs", "{inputs}"], ['{"pillars": "庚寅 戊寅 癸亥", "line": "977778"}'], "unknown option 'line'"),
        (["liuyao", "--inputs", "{inputs}"], ['{"pillars": "庚寅 戊寅 癸亥", "lines": "977775"}'], "inputs.jsonl:1:"),
        (["liuren", "--inputs", "{inputs}"], ['{"day": "癸未", "ju": 4, "day-night": "午"}'], "inputs.jsonl:1:"),
        (["liuyao", "--pillars", PILLARS_A, "--all-casts", "-o", "{root}"], None, "a folder"),
        (["liuyao", "--pillars", PILLARS_A], None, "--all-casts or --inputs"),
        (["liuyao", "--all-casts"], None, "go together"),
        (["liuyao", "--pillars", PILLARS_A, "--inputs", "{inputs}"], ['{"lines": "977778"}'], "go together"),
        (["liuren", "--days", "癸丑未", "--all-lessons"], None, "癸丑未"),
        (["stats", "{root}"], None, "a folder"),
        (["stats", "{inputs}"], ['{"day": "癸未"}'], "not a batch Parquet file"),
    ],
)  # fmt: skip
def test_bad_input_exits_2(built_graph, tmp_path, args, lines, message):
    inputs = tmp_path / "inputs.jsonl"
    if lines is not None:
        inputs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = [a.format(inputs=inputs, root=tmp_path) for a in args]
    if args[0] != "stats":
        args += ["--graph", str(built_graph)] + (
            [] if "-o" in args else ["-o", str(tmp_path / "out.parquet")]
        )
    result = invoke("batch", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out.parquet").exists()


def test_an_interrupted_write_leaves_the_output_alone(built_graph, tmp_path):
    """Interrupted after its first partition, the write leaves the old file and no part file."""
    out = tmp_path / "out.parquet"
    out.write_bytes(b"the previous batch")
    first = evaluate("liuyao", built_graph, numbered(all_casts(PILLARS_A)[:2], (str(user_topic("遷移")),)))
    assert first.num_rows

    def interrupted():
        yield first
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_parquet(interrupted(), out)
    assert out.read_bytes() == b"the previous batch"
    assert [p.name for p in tmp_path.iterdir()] == ["out.parquet"]
    assert write_parquet(iter([first]), out) == first.num_rows
    assert pq.read_table(out).equals(first)


def test_dask_maps_the_partitions_over_a_local_cluster(built_graph, tmp_path):
    """The README's Dask example, on 64 casts: partitions mapped over two worker processes on
    loopback write the rows one process computes."""
    from dask.distributed import Client, LocalCluster

    out = tmp_path / "casts.parquet"
    jobs = numbered(all_casts(PILLARS_A)[::64], (str(user_topic("遷移")),))
    parts = [jobs[i : i + 8] for i in range(0, len(jobs), 8)]
    with (
        LocalCluster(n_workers=2, processes=True, host="127.0.0.1", dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        futures = client.map(evaluate, ["liuyao"] * len(parts), [built_graph] * len(parts), parts)
        write_parquet(client.gather(futures), out)
    assert len(jobs) == 64
    assert pq.read_table(out).equals(evaluate("liuyao", built_graph, jobs))


@pytest.mark.parametrize(
    ("system", "inputs"),
    [
        ("liuyao", {"pillars": PILLARS_A, "lines": "977778"}),  # example A of 《易隱》〈遷移占〉
        ("liuyao", {"pillars": PILLARS_A, "lines": "696969"}),  # three moving lines, 未濟 → 既濟
        ("liuren", {"day": "癸未", "ju": 8, "day_night": "夜"}),  # 《直指》 第八局
    ],
)
def test_all_topics_at_once_give_each_topic_its_own_rules(built_graph, system, inputs):
    """kg.match.retrieve_topics (the batch's retrieval, sharing work between topics) gives every topic
    of the system exactly what kg.match.retrieve gives it alone: the same rules, statuses, bindings,
    parameters and overriding exceptions."""
    from kg.batch import knowledge_graph, system_topics
    from kg.match import Reading, retrieve, retrieve_topics
    from kg.record import cast

    kg = knowledge_graph(built_graph)
    topics = list(system_topics(kg, system))
    found = cast(system, inputs, None)

    def seen(results):
        return sorted(
            (a.rule_id, a.status, sorted(a.bindings.items()), sorted(a.parameters.items()), a.overridden_by)
            for a in results
        )

    at_once = retrieve_topics(kg, Reading(found.facts), topics)
    assert set(at_once) == set(topics)
    for topic in topics:
        assert seen(at_once[topic]) == seen(retrieve(kg, Reading(found.facts), topic)), topic
    if system == "liuyao":  # ¶60's 西 verdict is example A's
        west = any(a.rule_id == "yiyin.qianyi.west" for a in at_once[str(user_topic("遷移"))])
        assert west == (inputs["lines"] == "977778")
