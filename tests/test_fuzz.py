"""Property tests: no input crashes a command. Every bad value is refused with exit 2 and a message,
every good one charts (exit 0); the compiler refuses a mutated rule naming file and rule.

Examples are bounded and derandomised (the same on every run), a few seconds per property."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.cli import main
from kg.compile import RuleCompiler, RuleError
from kg.paths import RULES

SETTINGS = settings(
    max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

NOISE = st.text(
    alphabet=st.sampled_from(
        [*"0123456789６⁹①-+:T ,.HT甲乙子丑寅癸未亥卯午巳戌豫乾坤 \t", "\x1b", "\x00", "\u200b", "𠀀"]
    ),
    max_size=14,
)
"""Values near the legal ones: digits and their look-alikes, stems and branches, control characters."""

LIUYAO = {
    "--moment": st.one_of(NOISE, st.datetimes().map(lambda d: d.isoformat())),
    "--pillars": st.one_of(
        NOISE, st.sampled_from(["庚寅 戊寅 癸亥", "庚寅 甲寅 癸亥 甲子", "甲子 丙寅 甲子 甲子"])
    ),
    "--lines": st.one_of(NOISE, st.text(alphabet="6789", min_size=5, max_size=7)),
    "--hexagram": st.one_of(NOISE, st.sampled_from(["豫", "乾為天", "泽天夬", "夬"])),
    "--moving": NOISE,
    "--coins": st.one_of(NOISE, st.text(alphabet="0123", min_size=6, max_size=6)),
    "--birth": st.one_of(NOISE, st.sampled_from(["子", "甲子", "亥"])),
    "--member": st.one_of(NOISE, st.sampled_from(["妻=甲子", "夫=丙寅", "妻"])),
    "--purpose": st.one_of(NOISE, st.sampled_from(["公", "私"])),
    "--sex": st.one_of(NOISE, st.sampled_from(["男", "女"])),
    "--topic": st.one_of(NOISE, st.sampled_from(["求財", "遷移", "家宅/棟梁", "迁移"])),
    "--noble": st.one_of(NOISE, st.sampled_from(["A", "B", "C"])),
}
LIUREN = {
    "--moment": LIUYAO["--moment"],
    "--day": st.one_of(NOISE, st.sampled_from(["癸未", "甲子", "癸丑"])),
    "--hour": st.one_of(NOISE, st.sampled_from(["午", "子"])),
    "--general": st.one_of(NOISE, st.sampled_from(["亥", "河魁", "巳"])),
    "--ju": st.one_of(NOISE, st.integers(-3, 15).map(str)),
    "--month": st.one_of(NOISE, st.sampled_from(["寅", "卯"])),
    "--birth": LIUYAO["--birth"],
    "--walking-year": LIUYAO["--birth"],
    "--day-night": st.one_of(NOISE, st.sampled_from(["晝", "夜"])),
    "--topic": LIUYAO["--topic"],
}


def arguments(options: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    return st.lists(
        st.sampled_from(sorted(options)).flatmap(lambda name: options[name].map(lambda v: [name, v])),
        max_size=4,
    ).map(lambda pairs: [part for pair in pairs for part in pair])


def assert_handled(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert result.exit_code in (0, 2), (args, result.output)
    if result.exit_code == 2:
        assert "error" in result.output.lower(), (args, result.output)
    assert "Traceback" not in result.output


@SETTINGS
@given(arguments(LIUYAO), st.sampled_from(["text", "json", "turtle"]))
def test_liuyao_charts_or_refuses(args, fmt):
    assert_handled(["chart", "liuyao", *args, "--format", fmt])


@SETTINGS
@given(arguments(LIUREN), st.sampled_from(["text", "json", "turtle"]))
def test_liuren_charts_or_refuses(args, fmt):
    assert_handled(["chart", "liuren", *args, "--format", fmt])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(NOISE, st.integers(-5, 10**9))
def test_search_and_vocabulary_never_crash(term, width):
    assert_handled(["search", term, "--width", str(width)])
    assert_handled(["vocab", term])
    assert_handled(["cite", term])


def mutations() -> st.SearchStrategy:
    value = st.one_of(
        st.none(), st.integers(-5, 200), st.booleans(), NOISE, st.lists(NOISE, max_size=3),
        st.dictionaries(NOISE, NOISE, max_size=2),
    )  # fmt: skip
    key = st.sampled_from(["id", "para", "quote", "at", "kind", "topic", "vars", "when", "then", "cases", "note",
                           "overrides", "reason", "source", "generalised", "zzz"])  # fmt: skip
    return st.lists(st.tuples(st.sampled_from(["set", "delete", "atom"]), key, value), min_size=1, max_size=3)


SOURCE = yaml.safe_load((RULES / "yiyin-dongliang.yaml").read_text(encoding="utf-8"))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(0, len(SOURCE["rules"]) - 1), mutations())
def test_a_mutated_rule_compiles_or_is_refused_by_name(tmp_path_factory, index, changes):
    rule = copy.deepcopy(SOURCE["rules"][index])
    for action, key, value in changes:
        if action == "set":
            rule[key] = value
        elif action == "delete":
            rule.pop(key, None)
        elif isinstance(rule.get("when"), list) and rule["when"]:
            rule["when"][0] = value
    folder = Path(tmp_path_factory.mktemp("mutant"))
    path = folder / "mutant.yaml"
    path.write_text(yaml.safe_dump({"work": "yiyin", "rules": [rule]}, allow_unicode=True), encoding="utf-8")
    try:
        RuleCompiler().compile_file(path)
    except RuleError as exc:
        assert "mutant.yaml" in str(exc), str(exc)
        if isinstance(rule.get("id"), str) and rule["id"]:
            assert rule["id"] in str(exc) or "rule 1" in str(exc) or "rules[1]" in str(exc), str(exc)
