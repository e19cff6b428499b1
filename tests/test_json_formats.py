"""--format json for search, explore, build and validate: the same answers as the text views."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kg.cli import main


def run_json(*args: str):
    result = CliRunner().invoke(main, [*args])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_search_json_gives_each_hit_with_its_urn(built_graph):
    """玄武 and its variant 元武: 《易隱》 ¶24 writes 加玄武咸池垢穢不淨也."""
    hits = run_json("search", "玄武", "--format", "json", "--graph", str(built_graph))
    assert any(h["urn"] == "urn:cts:divkg:yiyin.juan4.zh:24.13" and h["match"] == "玄武" for h in hits)
    text = CliRunner().invoke(main, ["search", "玄武", "--graph", str(built_graph)]).output
    assert f"{len(hits)} hits" in text


def test_explore_json_lists_a_rules_neighbours(built_graph):
    """父下伏水鬼，棟必漏也 mentions 父母, 官鬼 and 水."""
    (leak,) = run_json(
        "explore", "--graph", str(built_graph), "--format", "json", "neighbours", "yiyin.dongliang.leak"
    )
    names = {n["name"] for n in leak["neighbours"]}
    assert {"父母", "官鬼", "水"} <= {n.split(" ")[0] for n in names}


def test_build_and_validate_json(tmp_path):
    built = run_json("build", "--out", str(tmp_path), "--format", "json")
    assert built["files"] == [str(tmp_path / "kg.nq"), str(tmp_path / "kg.ttl")] and built["rules"] > 0
    (tmp_path / "empty.nq").write_text("", encoding="utf-8")
    report = run_json("validate", "--graph", str(tmp_path / "empty.nq"), "--format", "json")
    assert report["conforms"] is False
    assert any("partial build" in v["message"] for v in report["violations"])
