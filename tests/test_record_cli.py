"""kg reading --format record and kg reading --from FILE: a saved reading re-runs to the same rules."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kg.cli import main


def test_a_saved_liuren_record_reruns_without_naming_its_system(built_graph, tmp_path):
    """《直指》 癸未 第四局 by day, 婚姻: 支干相沖，終難得就."""
    graph = ["--graph", str(built_graph)]
    saved = CliRunner().invoke(
        main,
        [
            "reading",
            "liuren",
            "--day",
            "癸未",
            "--ju",
            "4",
            "--day-night",
            "晝",
            "--topic",
            "婚姻",
            "--format",
            "record",
            *graph,
        ],
    )
    assert saved.exit_code == 0, saved.output
    record = json.loads(saved.stdout)
    assert record["system"] == "liuren" and any(
        r["rule"].endswith("zhizhi.ju4.hunyin") for r in record["rules"]
    )
    path = tmp_path / "reading.json"
    path.write_text(saved.stdout, encoding="utf-8")
    again = CliRunner().invoke(main, ["reading", "--from", str(path), "--format", "record", *graph])
    assert again.exit_code == 0, again.output
    assert "the same rules apply" in again.stderr
    assert [r["rule"] for r in json.loads(again.stdout)["rules"]] == [r["rule"] for r in record["rules"]]


def test_a_file_that_is_not_a_record_is_refused(built_graph, tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"record": "something-else"}', encoding="utf-8")
    result = CliRunner().invoke(main, ["reading", "--from", str(path), "--graph", str(built_graph)])
    assert result.exit_code == 2
    assert "not a divkg-reading/1 record" in result.output
