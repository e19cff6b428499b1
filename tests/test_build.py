"""kg build / kg validate: deterministic, atomic, valid; bad input never damages a build."""

import os
import stat
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import URIRef

from kg.build import build
from kg.cli import main
from kg.compile import RuleError
from kg.validate import load_union, validate, validate_graph


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build(out)
    return out


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The ontology and corpus with one rule file: SHACL over the full graph takes minutes."""
    root = tmp_path_factory.mktemp("small")
    (root / "rules").mkdir()
    source = Path(__file__).resolve().parents[1] / "corpus" / "rules" / "zhizhi.yaml"
    (root / "rules" / "zhizhi.yaml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    build(root / "out", root / "rules")
    return root / "out"


def test_rebuild_is_byte_identical(built, tmp_path):
    build(tmp_path)
    for name in ("kg.nq", "kg.ttl"):
        assert (tmp_path / name).read_bytes() == (built / name).read_bytes()


def test_outputs_are_readable_like_any_written_file(built):
    """Not the 0600 of the temporary file they were staged in: the umask decides, as for ``open``."""
    umask = os.umask(0)
    os.umask(umask)
    for name in ("kg.nq", "kg.ttl"):
        assert stat.S_IMODE((built / name).stat().st_mode) == 0o666 & ~umask


def test_failed_build_leaves_the_previous_one_intact(tmp_path):
    build(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    bad = tmp_path / "bad-rules"
    bad.mkdir()
    (bad / "x.yaml").write_text(
        textwrap.dedent("""
        work: yiyin
        rules:
          - {id: x, para: 6, quote: 不在此段, when: [], then: {}}
        """),
        encoding="utf-8",
    )
    with pytest.raises(RuleError, match="not found"):
        build(tmp_path, bad)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_built_graph_conforms_to_the_shapes(small):
    report = validate(small / "kg.nq")
    assert report.conforms, report.text


def test_a_broken_rule_fails_the_shapes(small):
    graph = load_union(small / "kg.nq")
    rule = URIRef("https://w3id.org/divkg/rule/zhizhi.ju4.hunyin")
    graph.remove((rule, URIRef("https://w3id.org/divkg/topic"), None))
    graph.remove((rule, URIRef("http://www.w3.org/ns/prov#wasDerivedFrom"), None))
    text = validate_graph(graph).text
    assert "zhizhi.ju4.hunyin" in text
    assert "a rule needs exactly one topic" in text
    assert "must be derived from at least one sentence" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "no-such-chart.ttl"], "no-such-chart.ttl: no such file"),
        (["match", "pyproject.toml"], "not a Turtle chart graph"),
        (["match", "tests/charts/leak.ttl", "--topic", "風水"], "unknown topic '風水'"),
        (["validate", "--graph", "no-such.nq"], "run `kg build` first"),
    ],
)
def test_cli_bad_input_is_a_clear_error(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    assert message in result.output
