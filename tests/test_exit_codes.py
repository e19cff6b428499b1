"""Exit codes, for every command: 0 success, 1 a failed check, 2 bad input (README, `kg --help`).

Each bad input gets a message naming the problem, never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.fixture(scope="module")
def paths(built_graph, tmp_path_factory):
    root = tmp_path_factory.mktemp("inputs")
    (root / "bad.rq").write_text("SELECT * WHERE { ?s ?p }", encoding="utf-8")
    (root / "ok.rq").write_text("SELECT * WHERE { ?s ?p ?o } LIMIT 1", encoding="utf-8")
    (root / "latin1.yaml").write_bytes("work: yiyin\nrules: []\n# caf\xe9\n".encode("latin-1"))
    (root / "rules").mkdir()
    (root / "rules" / "x.yaml").write_bytes((root / "latin1.yaml").read_bytes())
    (root / "file").write_text("not a folder", encoding="utf-8")
    return {"graph": str(built_graph), "root": root}


BAD_INPUT = [
    (["build", "--rules", "{root}/rules", "--out", "{root}/out"], "not UTF-8"),
    (["validate", "--graph", "{root}/none.nq"], "does not exist"),
    (["match", "{root}/none.ttl", "--graph", "{graph}"], "no such file"),
    (["match", "{root}", "--graph", "{graph}"], "a folder"),
    (["chart", "liuyao", "--pillars", "庚寅 戊寅 癸亥", "--lines", "977775"], "5"),
    (["chart", "liuyao", "--moment", "2024-13-01T12:00", "--lines", "977778"], "not an ISO date-time"),
    (["chart", "liuyao", "--moment", "0050-01-01T12:00", "--lines", "977778"], "outside the supported range"),
    (["chart", "liuren", "--day", "癸丑未", "--ju", "4"], "癸丑未"),
    (
        [
            "reading",
            "liuyao",
            "--pillars",
            "庚寅 戊寅 癸亥",
            "--lines",
            "977778",
            "--topic",
            "不存在",
            "--graph",
            "{graph}",
        ],
        "不存在",
    ),
    (["reading", "liuren", "--day", "癸未", "--ju", "13", "--topic", "婚姻", "--graph", "{graph}"], "13"),
    (["coverage", "--work", "nowork", "--graph", "{graph}"], "nowork"),
    (
        ["witness", "--work", "yiyin", "--explanations", "{root}/none.yaml", "--graph", "{graph}"],
        "no such explanations file",
    ),
    (["witness", "--work", "yiyin", "--explanations", "{root}", "--graph", "{graph}"], "a folder"),
    (["cite", "no.such.rule", "--graph", "{graph}"], "no.such.rule"),
    (["query", "{root}/bad.rq", "--graph", "{graph}"], "1:18"),
    (["explore", "--graph", "{graph}", "similar", "no.such.rule"], "no.such.rule"),
    (["export", "tei", "{root}/file", "--graph", "{graph}"], "file"),
    (
        ["query", "{root}/ok.rq", "--memory", "256", "--graph", "{graph}"],
        "does not fit in the query worker's memory",
    ),
    (["serve", "--workers", "1000000"], "worker processes (--workers): at least 1 and at most 64"),
    (["serve", "--max-queries", "0"], "(--max-queries): at least 1"),
    (["serve", "--max-request", "99999999999"], "(--max-request): at least 1 and at most"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT, ids=[" ".join(a[:2]) for a, _ in BAD_INPUT])
def test_bad_input_exits_2_with_a_message(paths, args, message):
    result = CliRunner().invoke(main, [a.format(**paths) for a in args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_a_failed_check_exits_1(paths):
    """No rule of 《易隱》 is witnessed when no reading may be generated: the check fails."""
    result = CliRunner().invoke(
        main, ["witness", "--work", "yiyin", "--readings", "1", "--check", "--graph", paths["graph"]]
    )
    assert result.exit_code == 1, result.output


@pytest.mark.parametrize("args", [["--version"], ["-h"], ["chart", "-h"], ["reading", "liuyao", "-h"]])
def test_help_and_version_exit_0(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert ("divkg" in result.output) if args == ["--version"] else ("Usage:" in result.output)
