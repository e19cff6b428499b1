"""kg coverage on a small rules directory quoting 《易隱》 ¶28 (〈家宅占〉十九 巷).

¶28 reads 二爻為宅，以穿二爻者為巷也。寅巳相害左一巷。申亥相害，右一巷。午害丑，未害子，宅中有穿心巷。
戌害酉，亦右巷也。: five sentences, 28.1 … 28.5.
"""

import json
import textwrap

import pytest
from click.testing import CliRunner

from kg.build import build
from kg.cli import main
from kg.coverage import coverage

RULES = """
work: yiyin
rules:
  - id: t.house                     # 28.1, whole sentence: a definition
    para: 28
    quote: 二爻為宅，以穿二爻者為巷也。
    kind: definition
    vars: {L: line}
    when: [L.position 2]
    then: {assert: [L.role 宅], en: line 2 is the house}
  - id: t.left-lane                 # 28.2, without its 。 (punctuation does not count)
    para: 28
    quote: 寅巳相害左一巷
    vars: {A: line, B: line}
    when: [A.branch 寅, B.branch 巳, A.hai B]
    then: {polarity: 中, zh: 左一巷, en: a lane on the left}
  - id: t.heart-lane                # 28.4, only its first clause: not accounted for
    para: 28
    quote: 午害丑，
    kind: text-only
    reason: ambiguous
    then: {en: a lane through the heart of the house}
  - id: t.leak                      # ¶6, another paragraph
    para: 6
    quote: 父下伏水鬼，棟必漏也。
    vars: {L: line, H: hidden-line}
    when: [L.relative 父母, H.under L, H.element 水, H.relative 官鬼]
    then: {polarity: 凶, zh: 棟必漏, en: leak}
unencoded:
  - {para: 28, quote: 申亥相害，右一巷。, why: label}   # 28.3
"""


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    root = tmp_path_factory.mktemp("coverage")
    (root / "rules").mkdir()
    (root / "rules" / "t.yaml").write_text(textwrap.dedent(RULES), encoding="utf-8")
    build(root / "out", root / "rules")
    return root / "out" / "kg.nq"


def test_paragraph_counted_by_hand(graph):
    (yiyin,) = coverage(graph, ["yiyin"])
    p28 = next(p for p in yiyin.paragraphs if p.number == 28)
    assert p28.row() == {
        "sentences": 5,
        "judgement": 1,
        "definition": 1,
        "unencoded": 1,
        "missing": 2,
        "rules": 3,
        "rules.judgement": 1,
        "rules.definition": 1,
        "rules.exception": 0,
        "rules.chart-verdict": 0,
        "rules.text-only": 1,
    }
    missing = [s.segment.urn for s in p28.missing]
    assert missing == ["urn:cts:divkg:yiyin.juan4.zh:28.4", "urn:cts:divkg:yiyin.juan4.zh:28.5"]


def test_unencoded_passage_accounts_for_its_sentence(graph):
    (yiyin,) = coverage(graph, ["yiyin"])
    p28 = next(p for p in yiyin.paragraphs if p.number == 28)
    s3 = next(s for s in p28.sentences if s.segment.urn.endswith("28.3"))
    assert s3.accounted and s3.classes == {"unencoded"}


def test_work_totals_and_summary(graph):
    (yiyin,) = coverage(graph, ["yiyin"])
    totals, summary = yiyin.totals(), yiyin.summary()
    assert totals["rules"] == 4 and totals["rules.text-only"] == 1
    assert summary["accounted"] == 4  # 28.1, 28.2, 28.3 and 6.3
    assert summary["text_only_pct"] == 25.0
    assert summary["sentences"] == sum(len(p.sentences) for p in yiyin.paragraphs)


def test_command_missing_json_and_check(graph):
    runner = CliRunner()
    args = ["coverage", "--graph", str(graph), "--work", "yiyin"]
    text = runner.invoke(main, [*args, "--missing"])
    assert text.exit_code == 0
    assert "urn:cts:divkg:yiyin.juan4.zh:28.5  戌害酉，亦右巷也。" in text.output
    assert "yiyin: 4/" in text.output and "1/4 rules text-only (25.0 %)" in text.output
    data = json.loads(runner.invoke(main, [*args, "--format", "json", "--missing"]).output)
    row = next(p for p in data[0]["paragraphs"] if p["paragraph"] == 28)
    assert row["missing"] == 2
    assert {"urn": "urn:cts:divkg:yiyin.juan4.zh:28.4", "text": "午害丑，未害子，宅中有穿心巷。"} in data[0][
        "missing"
    ]
    assert runner.invoke(main, [*args, "--check"]).exit_code == 1
    assert runner.invoke(main, ["coverage", "--graph", str(graph), "--work", "nosuch"]).exit_code == 2
