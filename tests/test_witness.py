"""kg witness on a small rules directory: rules that fire sometimes, never, always, explained;
roles only a narrower topic defines; rules that need a doctrinal option (伏神 under every line);
the generated readings (querent, household and doctrinal options, 大六壬 charts cast from a moment)."""

import json
import random
import re
import textwrap
from itertools import islice

import pytest
from click.testing import CliRunner

from kg.build import build
from kg.cli import main
from kg.match import KnowledgeGraph
from kg.witness import Scopes, liuren_samples, liuyao_samples, witness

YIYIN = """
work: yiyin
rules:
  - id: t.sometimes                 # fires when line 6 moves
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line}
    when: [L.position 6, L.moving]
    then: {polarity: 凶, zh: 棟必漏, en: leak}
  - id: t.never                     # one line cannot stand at two positions
    para: 6
    quote: 父加蛇水動，棟下漏也。
    vars: {L: line}
    when: [L.position 1, L.position 2]
    then: {polarity: 凶, zh: 棟下漏, en: leak below}
  - id: t.always                    # some line is at one of the six positions on every chart
    para: 2
    quote: 陽為棟柱，陰為棟樑也。
    vars: {L: line}
    when: [L.position 1|2|3|4|5|6]
    then: {polarity: 中, zh: 為棟柱, en: pillar}
  - id: t.explained                 # cannot fire either, but explained
    para: 2
    quote: 三土並見，創造將興而子亡也。
    vars: {L: line}
    when: [L.position 3, L.position 4]
    then: {polarity: 吉凶參半, zh: 創造將興而子亡, en: three earths}
  - id: t.definition                # a definition fires when its CONSTRUCT yields on the reading
    para: 2
    quote: 以六爻木父為用也。
    kind: definition
    vars: {L: line}
    when: [L.position 6, L.moving]
    then: {assert: [L.role 用神], en: use-spirit}
  - id: t.zumu                      # the 墳 role exists only under the narrower topic 祖墓
    para: 38
    quote: 世上一爻為祖墓，
    kind: definition
    topic: 祖墓
    vars: {L: line}
    when: [L.position 4]
    then: {assert: [L.role 墳], en: tomb}
  - id: t.tomb-moves                # a rule of 墳墓 that needs the 墳 of a narrower topic
    para: 40
    quote: 金動，有白石也。
    topic: 墳墓
    vars: {G: line}
    when: [G.role 墳, G.moving]
    then: {polarity: 中, zh: 有白石, en: white stones}
  - id: t.hidden-alike              # a hidden 父母 under a 父母 line: only with 伏神 under every line
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [L.relative 父母, H.under L, H.relative 父母]
    then: {polarity: 凶, zh: 棟必漏, en: leak}
  - id: t.untriggered               # text-only without trigger conditions: not a condition rule
    para: 2
    quote: 三金並見，中堂欲改而妻亡也。
    kind: text-only
    reason: ambiguous
    then: {en: three metals}
"""

ZHIZHI = """
work: zhizhi
rules:
  - id: t.guiwei4                   # only 癸未 第4局: among the first readings of 大六壬
    para: 8
    quote: 婚姻：支干相沖，終難得就。
    kind: chart-verdict
    topic: 婚姻
    when: [reading.day-ganzhi 癸未, reading.ju 4]
    then: {polarity: 凶, zh: 終難得就, en: the marriage will not come off}
"""

EXPLANATIONS = {"t.explained": "the test says so", "t.sometimes": "stale", "t.nosuch": "unknown"}


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    root = tmp_path_factory.mktemp("witness")
    (root / "rules").mkdir()
    (root / "rules" / "yiyin.yaml").write_text(textwrap.dedent(YIYIN), encoding="utf-8")
    (root / "rules" / "zhizhi.yaml").write_text(textwrap.dedent(ZHIZHI), encoding="utf-8")
    build(root / "out", root / "rules")
    return root / "out" / "kg.nq"


@pytest.fixture(scope="module")
def report(graph):
    return witness(graph, ["yiyin", "zhizhi"], readings=40, explanations=EXPLANATIONS, patience=40)


def status(report, rule_id):
    return next(t for t in report.tallies if t.rule_id == rule_id)


def test_statuses(report):
    assert {t.rule_id: t.status for t in report.tallies} == {
        "t.always": "always",
        "t.definition": "both",
        "t.explained": "explained",
        "t.guiwei4": "both",
        "t.hidden-alike": "both",
        "t.never": "never",
        "t.sometimes": "both",
        "t.tomb-moves": "both",
        "t.zumu": "always",
    }
    assert [t.rule_id for t in report.unexplained] == ["t.always", "t.never", "t.zumu"]
    assert report.stale == {"t.sometimes": "stale", "t.nosuch": "unknown"}


def test_narrower_topic_defines_the_role(graph, report):
    """t.tomb-moves (墳墓) fires only under 祖墓, whose definition gives line 4 the role 墳 (under
    墳墓 itself it is always silent)."""
    tomb = status(report, "t.tomb-moves")
    assert tomb.fires_on.split("--lines ")[1][3] in "69"
    assert 0 < tomb.fired < tomb.readings
    kg = KnowledgeGraph.load(graph)
    labels = [kg.topics[t] for t in Scopes(kg).rule_scope(tomb.rule)]
    assert labels[0] == "墳墓" and "祖墓" in labels
    # the rules that mention no role a narrower topic assigns are asked under their own topic only
    assert Scopes(kg).rule_scope(status(report, "t.sometimes").rule) == (
        status(report, "t.sometimes").rule.topic,
    )


def test_option_variation(report):
    """A hidden 父母 under a 父母 line exists only with 伏神 under every line: its witness says so."""
    assert "--fu-shen all" in status(report, "t.hidden-alike").fires_on


def test_generated_readings_vary_the_options():
    casts = [s.inputs for s in islice(liuyao_samples(random.Random(1)), 200)]
    assert any("--fu-shen all" in c for c in casts) and any("--fu-shen" not in c for c in casts)
    for variant in ("shi-bushi", "shi-lichunfeng", "none"):
        assert any(f"--gua-shen {variant}" in c for c in casts)
    assert any("--gua-shen" not in c for c in casts)  # the default 月卦身
    for flag in ("--fan-yin houtian", "--natal-element nayin", "--hidden-dark-moving no", "--purpose 公"):
        assert any(flag in c for c in casts)
    for flag in ("--sex 女", "--occupation 漁獵", "--status 已遷"):
        assert any(flag in c for c in casts) and any(flag.split()[0] not in c for c in casts)
    births = [re.search(r"--birth (\S+)", c) for c in casts]
    assert {len(b[1]) for b in births if b} == {1, 2} and None in births  # a branch, a 干支, or none
    # the 納音 of the 年命 needs its 干支
    assert all(len(b[1]) == 2 for b, c in zip(births, casts, strict=True) if b and "nayin" in c)
    members = [re.findall(r"--member (\S+)=(\S+)", c) for c in casts]
    assert {len(m) for m in members} == {0, 1, 2, 3}
    assert {name for m in members for name, _ in m} == set("夫妻父母子兄弟姑") | {"媳婦"}
    assert {len(birth) for m in members for _, birth in m} == {1, 2}
    lessons = list(islice(liuren_samples(random.Random(1)), 30))
    moments = [s for s in lessons if s.inputs.startswith("--moment ")]
    assert moments and all(b"/yearSpirit>" in s.facts for s in moments)
    assert not any(b"/yearSpirit>" in s.facts for s in lessons if s not in moments)


def test_witnesses_name_readings(report):
    rule = status(report, "t.sometimes")
    assert 0 < rule.fired < rule.readings == 40
    assert rule.fires_on.startswith("--pillars '") and "--lines " in rule.fires_on
    moving_top = rule.fires_on.split("--lines ")[1][5]
    assert moving_top in "69"
    assert status(report, "t.guiwei4").fires_on.startswith("--day 癸未 --ju 4 ")
    assert status(report, "t.never").fires_on is None
    assert status(report, "t.always").silent_on is None


def test_reproducible_with_any_number_of_workers(graph, report):
    again = witness(graph, ["yiyin"], readings=40, explanations=EXPLANATIONS, patience=40, jobs=2)
    assert [(t.rule_id, t.fires_on, t.silent_on) for t in again.tallies] == [
        (t.rule_id, t.fires_on, t.silent_on) for t in report.tallies if t.work == "yiyin"
    ]


def test_command(graph, tmp_path):
    explanations = tmp_path / "explanations.yaml"
    explanations.write_text("t.explained: the test says so\n", encoding="utf-8")
    args = ["witness", "--graph", str(graph), "--work", "yiyin", "--readings", "20", "--jobs", "1"]
    args += ["--explanations", str(explanations)]
    result = CliRunner().invoke(main, [*args, "--check"])
    assert result.exit_code == 1
    assert (
        "yiyin (liuyao, 20 readings): 8 condition rules — 4 witnessed both ways, 1 fire never"
        in result.output
    )
    assert "t.never  urn:cts:divkg:yiyin.juan4.zh:6.1  父加蛇水動，棟下漏也。" in result.output
    # an explained rule: the report says what the search saw of it, not a verdict it may not have reached
    assert "      (fired on 0 of 20 readings asked) the test says so" in result.output
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)
    (work,) = data["works"]
    assert (work["both"], work["never"], work["always"], work["explained"]) == (4, 1, 2, 1)
