"""kg build / kg validate: deterministic, atomic, valid; bad input never damages a build."""

import contextlib
import marshal
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import URIRef

from kg.build import build
from kg.cli import main
from kg.compile import RuleError
from kg.match import INDEX_FILE
from kg.validate import load_union, validate_graph


@pytest.fixture(scope="module")
def built(built_graph: Path) -> Path:
    """The folder of the session's fresh build of the whole repository."""
    return built_graph.parent


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


def outputs(out: Path) -> dict[str, object]:
    """The graph files, and the index as the values it holds (marshal writes a frozenset in the
    order of its hashes, which differ from one process to the next)."""
    found: dict[str, object] = {name: (out / name).read_bytes() for name in ("kg.nq", "kg.ttl")}
    found[INDEX_FILE] = marshal.loads((out / INDEX_FILE).read_bytes())
    return found


def test_failed_build_leaves_the_previous_one_intact(two_builds, tmp_path):
    build(tmp_path, two_builds[0])
    before = outputs(tmp_path)
    bad = tmp_path / "bad-rules"
    bad.mkdir()
    (bad / "x.yaml").write_text(
        textwrap.dedent("""
        work: yiyin
        rules:
          - {id: x, para: 6, quote: 不在此段, when: [], then: {polarity: 凶}}
        """),
        encoding="utf-8",
    )
    with pytest.raises(RuleError, match="not found"):
        build(tmp_path, bad)
    assert outputs(tmp_path) == before
    assert len(list((tmp_path / ".builds").iterdir())) == 1


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory) -> tuple[Path, Path, dict[str, bytes], dict[str, bytes]]:
    """Rule folders A and B (a rule file that builds alone each: an exception may name a rule of
    another file of its work) and the outputs each builds: a reader must see all of one or all of
    the other."""
    root = tmp_path_factory.mktemp("two")
    rules = Path(__file__).resolve().parents[1] / "corpus" / "rules"
    expected = []
    for name, work in (("a", "zhizhi"), ("b", "yiyin-dongliang")):
        (root / name).mkdir()
        (root / name / f"{work}.yaml").write_bytes((rules / f"{work}.yaml").read_bytes())
        build(root / f"out-{name}", root / name)
        expected.append(outputs(root / f"out-{name}"))
    return root / "a", root / "b", *expected


def snapshots(out: Path) -> set[Path]:
    return {p.resolve() for p in (out / ".builds").iterdir()}


def consistent(out: Path, *builds: dict[str, bytes]) -> bool:
    return outputs(out) in builds


@pytest.mark.parametrize("step", range(5))
def test_a_build_interrupted_at_any_step_leaves_one_whole_build(two_builds, tmp_path, monkeypatch, step):
    """The write phase is interrupted at its n-th file operation (a write, a link, a rename)."""
    a, b, built_a, built_b = two_builds
    out = tmp_path / "out"
    build(out, a)
    first = (out / "current").resolve()
    calls = iter(range(100))
    import kg.build as module

    def interrupt(real):
        def wrapper(*args, **kwargs):
            if next(calls) == step:
                raise KeyboardInterrupt
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(module.os, "replace", interrupt(os.replace))
    monkeypatch.setattr(module.os, "symlink", interrupt(os.symlink))
    monkeypatch.setattr(Path, "write_text", interrupt(Path.write_text))
    monkeypatch.setattr(Path, "write_bytes", interrupt(Path.write_bytes))
    with contextlib.suppress(KeyboardInterrupt):
        build(out, b)
    monkeypatch.undo()
    assert consistent(out, built_a, built_b)
    assert snapshots(out) <= {first, (out / "current").resolve()}  # nothing half-written is left
    build(out, b)
    assert outputs(out) == built_b
    assert len(snapshots(out)) == 2


def test_a_link_of_an_older_layout_is_removed(two_builds, tmp_path):
    """A build folder of the JSON index's days has a link build/kg.index.json → current/…: a new
    build, which has no such file, removes it rather than leave it dangling."""
    out = tmp_path / "out"
    build(out, two_builds[0])
    (out / "kg.index.json").symlink_to("current/kg.index.json")
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    build(out, two_builds[0])
    assert not (out / "kg.index.json").is_symlink()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in out.iterdir() if p.is_symlink()) == sorted(
        ["current", "kg.nq", "kg.ttl", INDEX_FILE]
    )


@pytest.mark.parametrize(
    ("signum", "delay"),
    [(signal.SIGKILL, 2.3), (signal.SIGTERM, 2.2)],
)
def test_a_killed_build_leaves_one_whole_build(two_builds, tmp_path, signum, delay):
    """A real `kg build` process killed part way: `build/` holds all of one build."""
    a, b, built_a, built_b = two_builds
    out = tmp_path / "out"
    build(out, a)
    first = (out / "current").resolve()
    process = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "build", "--out", str(out), "--rules", str(b)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(delay)
    process.send_signal(signum)
    process.wait(timeout=60)
    assert consistent(out, built_a, built_b)
    if signum == signal.SIGTERM:  # cleaned up at once
        assert snapshots(out) <= {first, (out / "current").resolve()}
    build(out, b)  # after a hard kill, the next build removes what was left
    assert outputs(out) == built_b
    assert len(snapshots(out)) == 2  # the build in use and the one it replaced


def test_built_graph_conforms_to_the_shapes(small):
    report = validate_graph(load_union(small / "kg.nq"), workers=1)
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
